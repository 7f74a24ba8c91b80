/*
 * bsearch_cmv.c - host driver for bsearch_cmv.cu: the bsearch workload's
 * lookups (the same sizes, seed and input generator as bsearch.c, so both
 * search the same keys for the same queries) with the kernel whose search
 * loop moves its bounds by selects instead of branches. The CPU reference is
 * the ordinary branching binary search, so the select form is checked
 * against an independent formulation: keys are strictly increasing, so both
 * find the same pair or none.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(bsearch_cmv);

struct bsearch_cmv_state {
	int n, nq;
	int32_t *keys, *vals, *queries, *out_dev, *out_ref;
};

static int bsearch_cmv_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct bsearch_cmv_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 1000, 1000, 1 << 20);
	s->nq = WEFT_WL_BY_SIZE(size, 1000, 1000, 3000000);
	if (!(s->keys = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->vals = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->queries = weft_wl_alloc(s->nq, sizeof(int32_t), err)) ||
	    !(s->out_dev = weft_wl_alloc(s->nq, sizeof(int32_t), err)) ||
	    !(s->out_ref = weft_wl_alloc(s->nq, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
	/* bsearch.c's seed and draws, in the same order */
	weft_rng_seed(&rng, 0x62736561u); /* "bsea" */
	int32_t k = 0;
	for (int i = 0; i < s->n; i++) {
		k += 1 + (int32_t)weft_rng_below(&rng, 4);
		s->keys[i] = k;
		s->vals[i] = (int32_t)weft_rng_below(&rng, 1u << 30); /* never -1 */
	}
	for (int i = 0; i < s->nq; i++) {
		if (weft_rng_below(&rng, 2))
			s->queries[i] = s->keys[weft_rng_below(&rng, (uint32_t)s->n)];
		else
			s->queries[i] = (int32_t)weft_rng_below(&rng, (uint32_t)k + 2);
	}
	return 0;
}

static int bsearch_cmv_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				  struct weft_error *err)
{
	struct bsearch_cmv_state *s = state;
	uint64_t dk, dv, dq, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->keys, (size_t)s->n * 4, &dk, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vals, (size_t)s->n * 4, &dv, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->queries, (size_t)s->nq * 4, &dq, err));
	WEFT_WL_TRY(weft_malloc(ctx, (size_t)s->nq * 4, &dout, err));
	struct weft_arg args[] = { WEFT_ARG(dk), WEFT_ARG(dv), WEFT_ARG(dq),
				   WEFT_ARG(dout), WEFT_ARG(s->n), WEFT_ARG(s->nq) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "bsearch_cmv", weft_dim3((s->nq + 127) / 128, 1, 1),
				weft_dim3(128, 1, 1), 0, args, 6, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, (size_t)s->nq * 4, err);
}

static void bsearch_cmv_run_reference(void *state)
{
	struct bsearch_cmv_state *s = state;
	for (int i = 0; i < s->nq; i++) {
		int32_t q = s->queries[i], r = -1;
		int lo = 0, hi = s->n - 1;
		while (lo <= hi) {
			int mid = lo + ((hi - lo) >> 1);
			if (s->keys[mid] == q) {
				r = s->vals[mid];
				break;
			}
			if (s->keys[mid] < q)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
		s->out_ref[i] = r;
	}
}

static int bsearch_cmv_verify(void *state, struct weft_error *err)
{
	struct bsearch_cmv_state *s = state;
	return weft_wl_check_i32("out", s->out_dev, s->out_ref, s->nq, err);
}

static void bsearch_cmv_teardown(void *state)
{
	struct bsearch_cmv_state *s = state;
	free(s->keys);
	free(s->vals);
	free(s->queries);
	free(s->out_dev);
	free(s->out_ref);
}

const struct weft_workload weft_workload_bsearch_cmv = {
	.name = "bsearch_cmv",
	.description = "binary search with selects (conditional moves) in the loop, bsearch's inputs",
	.ptx_name = "bsearch_cmv.ptx",
	.ptx_text = weft_ptx_bsearch_cmv,
	.tolerance = "exact",
	.state_size = sizeof(struct bsearch_cmv_state),
	.setup = bsearch_cmv_setup,
	.run_device = bsearch_cmv_run_device,
	.run_reference = bsearch_cmv_run_reference,
	.verify = bsearch_cmv_verify,
	.teardown = bsearch_cmv_teardown,
};
