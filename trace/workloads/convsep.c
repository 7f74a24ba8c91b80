/*
 * convsep.c - host driver for convsep.cu: the row pass of a separable
 * convolution with a 17-tap filter in __constant__ memory (written with
 * weft_memcpy_to_symbol, as cudaMemcpyToSymbol in the CUDA sample).
 *
 * Image and filter are uniform in [0, 1), so each output is a sum S of 17
 * non-negative products. Both the kernel (fma chain) and the reference
 * (multiply, then add) add the taps in the same order and each is within
 * gamma_17 S of exact (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., 3.1): |dev - ref| <= 2 * 17 * 2^-24 / (1 - 17 * 2^-24)
 * |ref| = 2.03e-6 |ref|. The check uses rel 1e-5.
 */
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(convsep);

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_X 16
#define ROWS_Y 4
#define ROWS_STEPS 8
#define CONVSEP_REL_TOL 1e-5

struct convsep_state {
	int width, height;
	float filter[KERNEL_LENGTH];
	float *src, *dst_dev, *dst_ref;
};

static int convsep_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct convsep_state *s = state;
	/* Measured: about 343 thread instructions per thread, one thread per
	 * 8 pixels (43 per pixel): about 9e4 / 1e7 / 1e9. Width a multiple
	 * of 128, height of 4. */
	s->width = WEFT_WL_BY_SIZE(size, 128, 512, 4096);
	s->height = WEFT_WL_BY_SIZE(size, 16, 448, 5632);
	size_t px = (size_t)s->width * (size_t)s->height;
	s->src = weft_wl_alloc(px, sizeof(float), err);
	s->dst_dev = weft_wl_alloc(px, sizeof(float), err);
	s->dst_ref = weft_wl_alloc(px, sizeof(float), err);
	if (!s->src || !s->dst_dev || !s->dst_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x636f6e76736570ull); /* "convsep" */
	for (int i = 0; i < KERNEL_LENGTH; i++)
		s->filter[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < px; i++)
		s->src[i] = weft_rng_float(&r, 0.0f, 1.0f);
	return 0;
}

static int convsep_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			      struct weft_error *err)
{
	struct convsep_state *s = state;
	size_t bytes = (size_t)s->width * (size_t)s->height * sizeof(float);
	uint64_t d_src, d_dst;
	WEFT_WL_TRY(weft_memcpy_to_symbol(ctx, mod, "c_kernel", s->filter, sizeof s->filter, 0,
					  err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->src, bytes, &d_src, err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &d_dst, err));
	int w = s->width, h = s->height, pitch = s->width;
	struct weft_arg args[] = { WEFT_ARG(d_dst), WEFT_ARG(d_src), WEFT_ARG(w), WEFT_ARG(h),
				   WEFT_ARG(pitch) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "conv_rows",
				weft_dim3((uint32_t)(w / (ROWS_X * ROWS_STEPS)),
					  (uint32_t)(h / ROWS_Y), 1),
				weft_dim3(ROWS_X, ROWS_Y, 1), 0, args, 5, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->dst_dev, d_dst, bytes, err));
	return 0;
}

static void convsep_run_reference(void *state)
{
	struct convsep_state *s = state;
	int w = s->width;
	for (int y = 0; y < s->height; y++) {
		const float *in = s->src + (size_t)y * w;
		float *out = s->dst_ref + (size_t)y * w;
		for (int x = 0; x < w; x++) {
			float sum = 0.0f;
			for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
				int xx = x + j;
				float v = xx >= 0 && xx < w ? in[xx] : 0.0f;
				sum += s->filter[KERNEL_RADIUS - j] * v;
			}
			out[x] = sum;
		}
	}
}

static int convsep_verify(void *state, struct weft_error *err)
{
	struct convsep_state *s = state;
	return weft_wl_check_f32("dst", s->dst_dev, s->dst_ref,
				 (size_t)s->width * (size_t)s->height, CONVSEP_REL_TOL, 0.0, err);
}

static void convsep_teardown(void *state)
{
	struct convsep_state *s = state;
	free(s->src);
	free(s->dst_dev);
	free(s->dst_ref);
}

const struct weft_workload weft_workload_convsep = {
	.name = "convsep",
	.description = "separable convolution row pass: shared tile with halo, 17-tap __constant__ filter",
	.ptx_name = "convsep.ptx",
	.ptx_text = weft_ptx_convsep,
	.tolerance = "rel 1e-5",
	.state_size = sizeof(struct convsep_state),
	.setup = convsep_setup,
	.run_device = convsep_run_device,
	.run_reference = convsep_run_reference,
	.verify = convsep_verify,
	.teardown = convsep_teardown,
};
