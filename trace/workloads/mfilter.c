/*
 * mfilter.c - host driver for mfilter.cu: a 5-point filter (centre 1/2,
 * four neighbours 1/8 each, edges clamped) applied where a mask image is
 * nonzero. Default and small keep the published 100x100 image; about half
 * the mask pixels are set, at random, so warps diverge.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(mfilter);

struct mfilter_state {
	int w, h;
	float *in, *out_dev, *out_ref;
	unsigned char *mask;
};

static int mfilter_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct mfilter_state *s = state;
	struct weft_rng rng;

	s->w = s->h = WEFT_WL_BY_SIZE(size, 100, 100, 4400);
	size_t n = (size_t)s->w * s->h;
	if (!(s->in = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->mask = weft_wl_alloc(n, 1, err)) ||
	    !(s->out_dev = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->out_ref = weft_wl_alloc(n, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x6d66696cu); /* "mfil" */
	for (size_t i = 0; i < n; i++) {
		s->in[i] = weft_rng_float(&rng, 0.0f, 1.0f);
		s->mask[i] = (unsigned char)(weft_rng_below(&rng, 2) ? 255 : 0);
	}
	return 0;
}

static int mfilter_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			      struct weft_error *err)
{
	struct mfilter_state *s = state;
	size_t n = (size_t)s->w * s->h;
	uint64_t din, dmask, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, n * sizeof(float), &din, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->mask, n, &dmask, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * sizeof(float), &dout, err));
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dmask), WEFT_ARG(dout), WEFT_ARG(s->w),
				   WEFT_ARG(s->h) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "mfilter",
				weft_dim3((s->w + 15) / 16, (s->h + 15) / 16, 1),
				weft_dim3(16, 16, 1), 0, args, 5, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, n * sizeof(float), err);
}

static void mfilter_run_reference(void *state)
{
	struct mfilter_state *s = state;
	int w = s->w, h = s->h;
	for (int y = 0; y < h; y++) {
		const float *row = s->in + (size_t)y * w;
		const float *up = s->in + (size_t)(y > 0 ? y - 1 : y) * w;
		const float *down = s->in + (size_t)(y < h - 1 ? y + 1 : y) * w;
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			if (s->mask[i]) {
				int xl = x > 0 ? x - 1 : x, xr = x < w - 1 ? x + 1 : x;
				float sum = row[xl] + row[xr] + up[x] + down[x];
				s->out_ref[i] = 0.5f * row[x] + 0.125f * sum;
			} else {
				s->out_ref[i] = row[x];
			}
		}
	}
}

/* Exact: the weights are powers of two, so both products are exact and
 * nvcc's fused multiply-add rounds once, like the separate add here (inputs
 * in [0, 1) on a 2^-24 grid never go subnormal). */
static int mfilter_verify(void *state, struct weft_error *err)
{
	struct mfilter_state *s = state;
	return weft_wl_check_f32("out", s->out_dev, s->out_ref, (size_t)s->w * s->h, 0.0, 0.0,
				 err);
}

static void mfilter_teardown(void *state)
{
	struct mfilter_state *s = state;
	free(s->in);
	free(s->mask);
	free(s->out_dev);
	free(s->out_ref);
}

const struct weft_workload weft_workload_mfilter = {
	.name = "mfilter",
	.description = "masked 5-point filter over an image (default 100x100, mask image)",
	.ptx_name = "mfilter.ptx",
	.ptx_text = weft_ptx_mfilter,
	.tolerance = "exact (power-of-two weights: products exact, one rounding per add)",
	.state_size = sizeof(struct mfilter_state),
	.setup = mfilter_setup,
	.run_device = mfilter_run_device,
	.run_reference = mfilter_run_reference,
	.verify = mfilter_verify,
	.teardown = mfilter_teardown,
};
