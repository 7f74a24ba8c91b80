/*
 * bsearch.c - host driver for bsearch.cu: nq binary-search lookups into n
 * sorted (key, value) pairs; absent keys give -1. Default and small keep the
 * published 1000 lookups into 1000 pairs. Keys are strictly increasing with
 * random gaps; half the queries are keys present in the table, half are
 * random values in the key range (mostly absent), so trip counts vary.
 * The lookups themselves (inputs, launch, reference, check) are shared with
 * bsearch_cmv.c (bsearch_lookups.h).
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"
#include "bsearch_lookups.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(bsearch);

int weft_wl_bsearch_setup(struct weft_wl_bsearch *s, enum weft_size size, const char *kernel,
			  struct weft_error *err)
{
	struct weft_rng rng;

	s->kernel = kernel;

	s->n = WEFT_WL_BY_SIZE(size, 1000, 1000, 1 << 20);
	s->nq = WEFT_WL_BY_SIZE(size, 1000, 1000, 3000000);
	if (!(s->keys = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->vals = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->queries = weft_wl_alloc(s->nq, sizeof(int32_t), err)) ||
	    !(s->out_dev = weft_wl_alloc(s->nq, sizeof(int32_t), err)) ||
	    !(s->out_ref = weft_wl_alloc(s->nq, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
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

int weft_wl_bsearch_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			       struct weft_error *err)
{
	struct weft_wl_bsearch *s = state;
	uint64_t dk, dv, dq, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->keys, (size_t)s->n * 4, &dk, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vals, (size_t)s->n * 4, &dv, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->queries, (size_t)s->nq * 4, &dq, err));
	WEFT_WL_TRY(weft_malloc(ctx, (size_t)s->nq * 4, &dout, err));
	struct weft_arg args[] = { WEFT_ARG(dk), WEFT_ARG(dv), WEFT_ARG(dq),
				   WEFT_ARG(dout), WEFT_ARG(s->n), WEFT_ARG(s->nq) };
	WEFT_WL_TRY(weft_launch(ctx, mod, s->kernel, weft_dim3((s->nq + 127) / 128, 1, 1),
				weft_dim3(128, 1, 1), 0, args, 6, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, (size_t)s->nq * 4, err);
}

void weft_wl_bsearch_run_reference(void *state)
{
	struct weft_wl_bsearch *s = state;
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

int weft_wl_bsearch_verify(void *state, struct weft_error *err)
{
	struct weft_wl_bsearch *s = state;
	return weft_wl_check_i32("out", s->out_dev, s->out_ref, s->nq, err);
}

void weft_wl_bsearch_teardown(void *state)
{
	struct weft_wl_bsearch *s = state;
	free(s->keys);
	free(s->vals);
	free(s->queries);
	free(s->out_dev);
	free(s->out_ref);
}

static int bsearch_setup(void *state, enum weft_size size, struct weft_error *err)
{
	return weft_wl_bsearch_setup(state, size, "bsearch_lookup", err);
}

const struct weft_workload weft_workload_bsearch = {
	.name = "bsearch",
	.description = "binary search, one lookup per thread (default 1000 lookups, 1000 pairs)",
	.ptx_name = "bsearch.ptx",
	.ptx_text = weft_ptx_bsearch,
	.tolerance = "exact",
	.state_size = sizeof(struct weft_wl_bsearch),
	.setup = bsearch_setup,
	.run_device = weft_wl_bsearch_run_device,
	.run_reference = weft_wl_bsearch_run_reference,
	.verify = weft_wl_bsearch_verify,
	.teardown = weft_wl_bsearch_teardown,
};
