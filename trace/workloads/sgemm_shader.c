/*
 * sgemm_shader.c - host driver for sgemm_shader.cu: C = alpha * A * B +
 * beta * C with one thread per element of C (the shader-style sgemm of
 * Kingyens & Steffan, IJRC 2011: no shared memory, no barriers; the
 * bundled `sgemm` is the shared-memory, register-tiled kernel instead).
 * A is m x k, B k x n, C m x n, row-major; m = n is not a multiple of the
 * 16x16 block at the small and large sizes, so threads past the edge of C
 * (which return at once) are exercised.
 *
 * alpha = 2 and beta = 0.5 are powers of two, so scaling adds no rounding of
 * its own beyond the final multiply-add. Tolerance: A, B and C are uniform
 * in [0, 1), so all terms are non-negative; each k-term sum is within
 * gamma_k S of exact in any order (Higham, "Accuracy and Stability of
 * Numerical Algorithms", 2nd ed., 3.1), and the final alpha/beta combination
 * adds at most two roundings per side: |dev - ref| <= (2 gamma_k + 4u) |ref|
 * roughly, 6.6e-5 for the largest k = 550 here. The check uses rel 1e-4.
 */
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(sgemm_shader);

#define SGS_BLOCK 16
#define SGS_REL_TOL 1e-4
#define SGS_ALPHA 2.0f
#define SGS_BETA 0.5f

struct sgs_state {
	int m, n, k;
	float *a, *b, *c_in, *c_dev, *c_ref;
	float *row; /* reference's accumulator row, allocated in setup */
};

static int sgs_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct sgs_state *s = state;
	/* Measured: about 5.3 m n k thread instructions plus about 50 per
	 * thread: 24x24x24 / 128x128x104 / 584x584x550 give 1.1e5 / 9.8e6 /
	 * 1.0e9. */
	s->m = s->n = WEFT_WL_BY_SIZE(size, 24, 128, 584);
	s->k = WEFT_WL_BY_SIZE(size, 24, 104, 550);
	size_t ak = (size_t)s->m * s->k, bk = (size_t)s->k * s->n, mn = (size_t)s->m * s->n;
	s->a = weft_wl_alloc(ak, sizeof(float), err);
	s->b = weft_wl_alloc(bk, sizeof(float), err);
	s->c_in = weft_wl_alloc(mn, sizeof(float), err);
	s->c_dev = weft_wl_alloc(mn, sizeof(float), err);
	s->c_ref = weft_wl_alloc(mn, sizeof(float), err);
	s->row = weft_wl_alloc((size_t)s->n, sizeof(float), err);
	if (!s->a || !s->b || !s->c_in || !s->c_dev || !s->c_ref || !s->row)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x7367736861ull); /* "sgsha" */
	for (size_t i = 0; i < ak; i++)
		s->a[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < bk; i++)
		s->b[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < mn; i++)
		s->c_in[i] = weft_rng_float(&r, 0.0f, 1.0f);
	return 0;
}

static int sgs_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct sgs_state *s = state;
	size_t mn = (size_t)s->m * s->n * sizeof(float);
	uint64_t d_a, d_b, d_c;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->a, (size_t)s->m * s->k * sizeof(float), &d_a, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->b, (size_t)s->k * s->n * sizeof(float), &d_b, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->c_in, mn, &d_c, err));
	float alpha = SGS_ALPHA, beta = SGS_BETA;
	struct weft_arg args[] = { WEFT_ARG(d_a), WEFT_ARG(d_b), WEFT_ARG(d_c), WEFT_ARG(s->m),
				   WEFT_ARG(s->n), WEFT_ARG(s->k), WEFT_ARG(alpha),
				   WEFT_ARG(beta) };
	uint32_t gx = (uint32_t)((s->n + SGS_BLOCK - 1) / SGS_BLOCK);
	uint32_t gy = (uint32_t)((s->m + SGS_BLOCK - 1) / SGS_BLOCK);
	WEFT_WL_TRY(weft_launch(ctx, mod, "sgemm_shader", weft_dim3(gx, gy, 1),
				weft_dim3(SGS_BLOCK, SGS_BLOCK, 1), 0, args, 8, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->c_dev, d_c, mn, err));
	return 0;
}

static void sgs_run_reference(void *state)
{
	struct sgs_state *s = state;
	size_t m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
	float *row = s->row;
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < n; j++)
			row[j] = 0.0f;
		for (size_t kk = 0; kk < k; kk++) {
			float aik = s->a[i * k + kk];
			const float *b = s->b + kk * n;
			for (size_t j = 0; j < n; j++)
				row[j] += aik * b[j];
		}
		for (size_t j = 0; j < n; j++)
			s->c_ref[i * n + j] = SGS_ALPHA * row[j] + SGS_BETA * s->c_in[i * n + j];
	}
}

static int sgs_verify(void *state, struct weft_error *err)
{
	struct sgs_state *s = state;
	return weft_wl_check_f32("C", s->c_dev, s->c_ref, (size_t)s->m * s->n, SGS_REL_TOL, 0.0,
				 err);
}

static void sgs_teardown(void *state)
{
	struct sgs_state *s = state;
	free(s->a);
	free(s->b);
	free(s->c_in);
	free(s->c_dev);
	free(s->c_ref);
	free(s->row);
}

const struct weft_workload weft_workload_sgemm_shader = {
	.name = "sgemm_shader",
	.description = "C = alpha*A*B + beta*C, shader style: one thread per element of C "
		       "(no shared memory)",
	.ptx_name = "sgemm_shader.ptx",
	.ptx_text = weft_ptx_sgemm_shader,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct sgs_state),
	.setup = sgs_setup,
	.run_device = sgs_run_device,
	.run_reference = sgs_run_reference,
	.verify = sgs_verify,
	.teardown = sgs_teardown,
};
