/*
 * bsearch_cmv.c - host driver for bsearch_cmv.cu: the bsearch workload's
 * lookups (the same sizes, seed and input generator, shared through
 * bsearch_lookups.h, so both search the same keys for the same queries)
 * with the kernel whose search loop moves its bounds by selects instead of
 * branches. The CPU reference is the ordinary branching binary search, so
 * the select form is checked against an independent formulation: keys are
 * strictly increasing, so both find the same pair or none.
 */
#include "trace/launch/workload.h"
#include "bsearch_lookups.h"

WEFT_WORKLOAD_PTX(bsearch_cmv);

static int bsearch_cmv_setup(void *state, enum weft_size size, struct weft_error *err)
{
	return weft_wl_bsearch_setup(state, size, "bsearch_cmv", err);
}

const struct weft_workload weft_workload_bsearch_cmv = {
	.name = "bsearch_cmv",
	.description = "binary search with selects (conditional moves) in the loop, bsearch's inputs",
	.ptx_name = "bsearch_cmv.ptx",
	.ptx_text = weft_ptx_bsearch_cmv,
	.tolerance = "exact",
	.state_size = sizeof(struct weft_wl_bsearch),
	.setup = bsearch_cmv_setup,
	.run_device = weft_wl_bsearch_run_device,
	.run_reference = weft_wl_bsearch_run_reference,
	.verify = weft_wl_bsearch_verify,
	.teardown = weft_wl_bsearch_teardown,
};
