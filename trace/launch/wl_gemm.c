/*
 * wl_gemm.c - the matrix-product workloads' shared host side (wl_gemm.h).
 */
#include "trace/launch/wl_gemm.h"

#include <stdlib.h>

#include "trace/launch/wl_util.h"

int weft_wl_gemm_setup(struct weft_wl_gemm *g, int m, int n, int k, bool scaled, float alpha,
		       float beta, uint64_t seed, struct weft_error *err)
{
	*g = (struct weft_wl_gemm){ .m = m, .n = n, .k = k, .scaled = scaled,
				    .alpha = alpha, .beta = beta };
	size_t ak = (size_t)m * (size_t)k, bk = (size_t)k * (size_t)n;
	size_t mn = (size_t)m * (size_t)n;
	g->a = weft_wl_alloc(ak, sizeof(float), err);
	g->b = weft_wl_alloc(bk, sizeof(float), err);
	g->c_in = scaled ? weft_wl_alloc(mn, sizeof(float), err) : NULL;
	g->c_dev = weft_wl_alloc(mn, sizeof(float), err);
	g->c_ref = weft_wl_alloc(mn, sizeof(float), err);
	g->row = weft_wl_alloc((size_t)n, sizeof(float), err);
	if (!g->a || !g->b || (scaled && !g->c_in) || !g->c_dev || !g->c_ref || !g->row)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, seed);
	for (size_t i = 0; i < ak; i++)
		g->a[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; i < bk; i++)
		g->b[i] = weft_rng_float(&r, 0.0f, 1.0f);
	for (size_t i = 0; scaled && i < mn; i++)
		g->c_in[i] = weft_rng_float(&r, 0.0f, 1.0f);
	return 0;
}

/* Device copies of A and B, and of C (scaled) or an uninitialised C. */
static int gemm_upload(struct weft_ctx *ctx, const struct weft_wl_gemm *g, uint64_t *d_a,
		       uint64_t *d_b, uint64_t *d_c, struct weft_error *err)
{
	size_t fs = sizeof(float);
	size_t mn = (size_t)g->m * (size_t)g->n * fs;
	WEFT_WL_TRY(weft_wl_upload(ctx, g->a, (size_t)g->m * (size_t)g->k * fs, d_a, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, g->b, (size_t)g->k * (size_t)g->n * fs, d_b, err));
	if (g->scaled)
		return weft_wl_upload(ctx, g->c_in, mn, d_c, err);
	return weft_malloc(ctx, mn, d_c, err);
}

int weft_wl_gemm_run(struct weft_ctx *ctx, struct weft_module *mod, struct weft_wl_gemm *g,
		     const char *kernel, struct weft_dim3 grid, struct weft_dim3 block,
		     struct weft_error *err)
{
	uint64_t d_a, d_b, d_c;
	WEFT_WL_TRY(gemm_upload(ctx, g, &d_a, &d_b, &d_c, err));
	struct weft_arg args[] = { WEFT_ARG(d_a), WEFT_ARG(d_b), WEFT_ARG(d_c), WEFT_ARG(g->m),
				   WEFT_ARG(g->n), WEFT_ARG(g->k), WEFT_ARG(g->alpha),
				   WEFT_ARG(g->beta) };
	uint32_t nargs = g->scaled ? 8 : 6;
	WEFT_WL_TRY(weft_launch(ctx, mod, kernel, grid, block, 0, args, nargs, err));
	return weft_memcpy_dtoh(ctx, g->c_dev, d_c, (size_t)g->m * (size_t)g->n * sizeof(float),
				err);
}

void weft_wl_gemm_reference(struct weft_wl_gemm *g)
{
	size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
	float *row = g->row;
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < n; j++)
			row[j] = 0.0f;
		for (size_t kk = 0; kk < k; kk++) {
			float aik = g->a[i * k + kk];
			const float *b = g->b + kk * n;
			for (size_t j = 0; j < n; j++)
				row[j] += aik * b[j];
		}
		float *c = g->c_ref + i * n;
		if (g->scaled) {
			const float *c_in = g->c_in + i * n;
			for (size_t j = 0; j < n; j++)
				c[j] = g->alpha * row[j] + g->beta * c_in[j];
		} else {
			for (size_t j = 0; j < n; j++)
				c[j] = row[j];
		}
	}
}

int weft_wl_gemm_verify(const struct weft_wl_gemm *g, double rel_tol, struct weft_error *err)
{
	return weft_wl_check_f32("C", g->c_dev, g->c_ref, (size_t)g->m * (size_t)g->n, rel_tol,
				 0.0, err);
}

void weft_wl_gemm_free(struct weft_wl_gemm *g)
{
	free(g->a);
	free(g->b);
	free(g->c_in);
	free(g->c_dev);
	free(g->c_ref);
	free(g->row);
}
