/*
 * matmul.c - host driver for matmul.cu: C = A * B with 16x16 shared-memory
 * tiles, square n x n matrices (the small size is not a multiple of the
 * tile, so partial tiles are exercised).
 *
 * Tolerance: inputs are uniform in [0, 1), so every product is non-negative
 * and each result is a sum S of k non-negative terms. Any summation order,
 * fused or not, lies within gamma_k * S of the exact value (gamma_k =
 * k u / (1 - k u), u = 2^-24; Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., section 3.1), so device (fma chain) and reference
 * (separate multiply and add) differ by at most 2 gamma_k S: 7.1e-5 for the
 * largest k = 592 here. The check uses rel 1e-4.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(matmul);

#define TILE 16
#define MATMUL_REL_TOL 1e-4

struct matmul_state {
	int n;
	float *a, *b, *c_dev, *c_ref;
};

static int matmul_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct matmul_state *s = state;
	/* Measured: about 4.8 n^3 thread instructions (76 per thread per
	 * 16-wide k tile): 24 / 128 / 592 give about 1.9e5 / 1e7 / 1e9. */
	s->n = WEFT_WL_BY_SIZE(size, 24, 128, 592);
	size_t nn = (size_t)s->n * (size_t)s->n;
	s->a = weft_wl_alloc(nn, sizeof(float), err);
	s->b = weft_wl_alloc(nn, sizeof(float), err);
	s->c_dev = weft_wl_alloc(nn, sizeof(float), err);
	s->c_ref = weft_wl_alloc(nn, sizeof(float), err);
	if (!s->a || !s->b || !s->c_dev || !s->c_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x6d61746d756cull); /* "matmul" */
	for (size_t i = 0; i < nn; i++)
		s->a[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < nn; i++)
		s->b[i] = weft_rng_float(&r, 0.0f, 1.0f);
	return 0;
}

static int matmul_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct matmul_state *s = state;
	size_t bytes = (size_t)s->n * (size_t)s->n * sizeof(float);
	uint64_t d_a, d_b, d_c;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->a, bytes, &d_a, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->b, bytes, &d_b, err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &d_c, err));
	int m = s->n, n = s->n, k = s->n;
	struct weft_arg args[] = { WEFT_ARG(d_a), WEFT_ARG(d_b), WEFT_ARG(d_c),
				   WEFT_ARG(m), WEFT_ARG(n), WEFT_ARG(k) };
	uint32_t g = (uint32_t)((s->n + TILE - 1) / TILE);
	WEFT_WL_TRY(weft_launch(ctx, mod, "matmul_tiled", weft_dim3(g, g, 1),
				weft_dim3(TILE, TILE, 1), 0, args, 6, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->c_dev, d_c, bytes, err));
	return 0;
}

/* i-k-j order: streams rows of B and C (cache friendly), and still adds each
 * C element's products in increasing k, as the kernel does. */
static void matmul_run_reference(void *state)
{
	struct matmul_state *s = state;
	size_t n = (size_t)s->n;
	memset(s->c_ref, 0, n * n * sizeof(float));
	for (size_t i = 0; i < n; i++) {
		float *c = s->c_ref + i * n;
		for (size_t k = 0; k < n; k++) {
			float aik = s->a[i * n + k];
			const float *b = s->b + k * n;
			for (size_t j = 0; j < n; j++)
				c[j] += aik * b[j];
		}
	}
}

static int matmul_verify(void *state, struct weft_error *err)
{
	struct matmul_state *s = state;
	return weft_wl_check_f32("C", s->c_dev, s->c_ref, (size_t)s->n * (size_t)s->n,
				 MATMUL_REL_TOL, 0.0, err);
}

static void matmul_teardown(void *state)
{
	struct matmul_state *s = state;
	free(s->a);
	free(s->b);
	free(s->c_dev);
	free(s->c_ref);
}

const struct weft_workload weft_workload_matmul = {
	.name = "matmul",
	.description = "single-precision matrix multiply with 16x16 shared-memory tiles",
	.ptx_name = "matmul.ptx",
	.ptx_text = weft_ptx_matmul,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct matmul_state),
	.setup = matmul_setup,
	.run_device = matmul_run_device,
	.run_reference = matmul_run_reference,
	.verify = matmul_verify,
	.teardown = matmul_teardown,
};
