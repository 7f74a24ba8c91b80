/*
 * matmatmult.c - host driver for matmatmult.cu: C = A * B with one thread
 * per element of C reading a row of A and a column of B from global memory
 * (the shader-style matmatmult of Kingyens & Steffan, IJRC 2011: no shared
 * memory, no barriers), square n x n matrices. n is not a multiple of the
 * 16x16 block at any size, so threads past the edge of C
 * (which return at once) are exercised.
 *
 * Tolerance: inputs are uniform in [0, 1), so every product is non-negative
 * and each result is a sum S of n non-negative terms. Any summation order,
 * fused or not, lies within gamma_n * S of the exact value (gamma_n =
 * n u / (1 - n u), u = 2^-24; Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., section 3.1), so device (fma chain) and reference
 * (separate multiply and add) differ by at most 2 gamma_n S: 6.8e-5 for the
 * largest n = 570 here. The check uses rel 1e-4.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(matmatmult);

#define MMM_BLOCK 16
#define MMM_REL_TOL 1e-4

struct mmm_state {
	int n;
	float *a, *b, *c_dev, *c_ref;
};

static int mmm_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct mmm_state *s = state;
	/* Measured: about 5.3 n^3 thread instructions (nvcc unrolls the dot
	 * product by 4: per 4 steps 8 loads, 4 fma, 7 address and counter
	 * updates, a compare and a branch; plus the remainder loop): 26 / 122
	 * / 570 give 1.4e5 / 1.06e7 / 9.9e8. */
	s->n = WEFT_WL_BY_SIZE(size, 26, 122, 570);
	size_t nn = (size_t)s->n * (size_t)s->n;
	s->a = weft_wl_alloc(nn, sizeof(float), err);
	s->b = weft_wl_alloc(nn, sizeof(float), err);
	s->c_dev = weft_wl_alloc(nn, sizeof(float), err);
	s->c_ref = weft_wl_alloc(nn, sizeof(float), err);
	if (!s->a || !s->b || !s->c_dev || !s->c_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x6d6d6d756c74ull); /* "mmmult" */
	for (size_t i = 0; i < nn; i++)
		s->a[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < nn; i++)
		s->b[i] = weft_rng_float(&r, 0.0f, 1.0f);
	return 0;
}

static int mmm_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct mmm_state *s = state;
	size_t bytes = (size_t)s->n * (size_t)s->n * sizeof(float);
	uint64_t d_a, d_b, d_c;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->a, bytes, &d_a, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->b, bytes, &d_b, err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &d_c, err));
	int m = s->n, n = s->n, k = s->n;
	struct weft_arg args[] = { WEFT_ARG(d_a), WEFT_ARG(d_b), WEFT_ARG(d_c),
				   WEFT_ARG(m), WEFT_ARG(n), WEFT_ARG(k) };
	uint32_t g = (uint32_t)((s->n + MMM_BLOCK - 1) / MMM_BLOCK);
	WEFT_WL_TRY(weft_launch(ctx, mod, "matmatmult", weft_dim3(g, g, 1),
				weft_dim3(MMM_BLOCK, MMM_BLOCK, 1), 0, args, 6, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->c_dev, d_c, bytes, err));
	return 0;
}

/* i-k-j order: streams rows of B and C (cache friendly), and still adds each
 * C element's products in increasing k, as the kernel does. */
static void mmm_run_reference(void *state)
{
	struct mmm_state *s = state;
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

static int mmm_verify(void *state, struct weft_error *err)
{
	struct mmm_state *s = state;
	return weft_wl_check_f32("C", s->c_dev, s->c_ref, (size_t)s->n * (size_t)s->n, MMM_REL_TOL,
				 0.0, err);
}

static void mmm_teardown(void *state)
{
	struct mmm_state *s = state;
	free(s->a);
	free(s->b);
	free(s->c_dev);
	free(s->c_ref);
}

const struct weft_workload weft_workload_matmatmult = {
	.name = "matmatmult",
	.description = "matrix multiply, shader style: a thread per element of C reads a row of A and "
		       "a column of B",
	.ptx_name = "matmatmult.ptx",
	.ptx_text = weft_ptx_matmatmult,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct mmm_state),
	.setup = mmm_setup,
	.run_device = mmm_run_device,
	.run_reference = mmm_run_reference,
	.verify = mmm_verify,
	.teardown = mmm_teardown,
};
