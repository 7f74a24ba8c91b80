/*
 * rsort.c - host driver for rsort.cu: n random 32-bit keys, each with its
 * original index as value, sorted by 8 passes of 4-bit digits (each pass:
 * clear the bucket totals, rsort_hist, rsort_scan, rsort_scatter, then the
 * output buffers become the next pass's input). The CPU reference sorts the
 * (key, index) pairs with qsort: ordering equal keys by index is what a
 * stable sort must give, so the device's keys and values must match it
 * exactly, which also checks stability.
 */
#include "rsort.cu" /* RSORT_* */

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(rsort);

struct rsort_pair {
	uint32_t key, val;
};

struct rsort_state {
	int n;
	uint32_t *keys, *vals; /* inputs: vals[i] = i */
	uint32_t *keys_dev, *vals_dev, *keys_ref, *vals_ref;
	struct rsort_pair *pairs; /* the reference's scratch */
};

static int rsort_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct rsort_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 512, 20000, 2500000);
	size_t n = (size_t)s->n;
	if (!(s->keys = weft_wl_alloc(n, sizeof(uint32_t), err)) ||
	    !(s->vals = weft_wl_alloc(n, sizeof(uint32_t), err)) ||
	    !(s->pairs = weft_wl_alloc(n, sizeof(struct rsort_pair), err)) ||
	    !(s->keys_dev = weft_wl_alloc(n, sizeof(uint32_t), err)) ||
	    !(s->vals_dev = weft_wl_alloc(n, sizeof(uint32_t), err)) ||
	    !(s->keys_ref = weft_wl_alloc(n, sizeof(uint32_t), err)) ||
	    !(s->vals_ref = weft_wl_alloc(n, sizeof(uint32_t), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x72736f72u); /* "rsor" */
	/* full-range keys, and 1 in 8 drawn from 64 values so that equal keys
	 * are common and stability matters */
	for (size_t i = 0; i < n; i++) {
		s->keys[i] = weft_rng_below(&rng, 8) ? (uint32_t)(weft_rng_next(&rng) >> 32)
						       : weft_rng_below(&rng, 64) * 0x04000001u;
		s->vals[i] = (uint32_t)i;
	}
	return 0;
}

static int rsort_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			    struct weft_error *err)
{
	struct rsort_state *s = state;
	int n = s->n, nthreads = (n + RSORT_KEYS_PER_THREAD - 1) / RSORT_KEYS_PER_THREAD;
	size_t bytes = (size_t)n * 4;
	uint64_t keys[2], vals[2], hist, totals;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->keys, bytes, &keys[0], err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vals, bytes, &vals[0], err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &keys[1], err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &vals[1], err));
	WEFT_WL_TRY(weft_malloc(ctx, (size_t)RSORT_BUCKETS * (size_t)nthreads * 4, &hist, err));
	WEFT_WL_TRY(weft_malloc(ctx, RSORT_BUCKETS * 4, &totals, err));
	uint32_t ctas = (uint32_t)((nthreads + RSORT_CTA - 1) / RSORT_CTA);
	uint32_t scan_threads = 32; /* about one per 32 counts of a bucket's row */
	while (scan_threads < RSORT_SCAN_MAX && scan_threads * 32 < (uint32_t)nthreads)
		scan_threads *= 2;
	int in = 0;
	for (int shift = 0; shift < 32; shift += RSORT_DIGIT_BITS, in ^= 1) {
		WEFT_WL_TRY(weft_memset(ctx, totals, 0, RSORT_BUCKETS * 4, err));
		struct weft_arg ha[] = { WEFT_ARG(keys[in]), WEFT_ARG(hist), WEFT_ARG(totals),
					 WEFT_ARG(n), WEFT_ARG(shift), WEFT_ARG(nthreads) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "rsort_hist", weft_dim3(ctas, 1, 1),
					weft_dim3(RSORT_CTA, 1, 1), 0, ha, 6, err));
		struct weft_arg sa[] = { WEFT_ARG(hist), WEFT_ARG(totals), WEFT_ARG(nthreads) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "rsort_scan", weft_dim3(RSORT_BUCKETS, 1, 1),
					weft_dim3(scan_threads, 1, 1), 0, sa, 3, err));
		struct weft_arg xa[] = { WEFT_ARG(keys[in]), WEFT_ARG(vals[in]),
					 WEFT_ARG(keys[in ^ 1]), WEFT_ARG(vals[in ^ 1]),
					 WEFT_ARG(hist), WEFT_ARG(n), WEFT_ARG(shift),
					 WEFT_ARG(nthreads) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "rsort_scatter", weft_dim3(ctas, 1, 1),
					weft_dim3(RSORT_CTA, 1, 1), 0, xa, 8, err));
	}
	/* an even number of passes: the result is back in buffer 0 */
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->keys_dev, keys[in], bytes, err));
	return weft_memcpy_dtoh(ctx, s->vals_dev, vals[in], bytes, err);
}

static int rsort_pair_cmp(const void *a, const void *b)
{
	const struct rsort_pair *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static void rsort_run_reference(void *state)
{
	struct rsort_state *s = state;
	struct rsort_pair *p = s->pairs;
	for (int i = 0; i < s->n; i++)
		p[i] = (struct rsort_pair){ s->keys[i], s->vals[i] };
	qsort(p, (size_t)s->n, sizeof(*p), rsort_pair_cmp);
	for (int i = 0; i < s->n; i++) {
		s->keys_ref[i] = p[i].key;
		s->vals_ref[i] = p[i].val;
	}
}

static int rsort_verify(void *state, struct weft_error *err)
{
	struct rsort_state *s = state;
	WEFT_WL_TRY(weft_wl_check_u32("keys", s->keys_dev, s->keys_ref, (size_t)s->n, err));
	return weft_wl_check_u32("values", s->vals_dev, s->vals_ref, (size_t)s->n, err);
}

static void rsort_teardown(void *state)
{
	struct rsort_state *s = state;
	free(s->keys);
	free(s->vals);
	free(s->pairs);
	free(s->keys_dev);
	free(s->vals_dev);
	free(s->keys_ref);
	free(s->vals_ref);
}

const struct weft_workload weft_workload_rsort = {
	.name = "rsort",
	.description = "radix sort (stable, key-value, 4-bit digits): per-thread histograms, scan, atomics",
	.ptx_name = "rsort.ptx",
	.ptx_text = weft_ptx_rsort,
	.tolerance = "exact",
	.state_size = sizeof(struct rsort_state),
	.setup = rsort_setup,
	.run_device = rsort_run_device,
	.run_reference = rsort_run_reference,
	.verify = rsort_verify,
	.teardown = rsort_teardown,
};
