/*
 * wl_gemm.h - the host side the matrix-product workloads share (matmul,
 * matmatmult, sgemm, sgemm_shader): row-major A (m x k), B (k x n) and C
 * (m x n) filled from one seeded stream, the device buffers, a CPU
 * reference that adds each element's products in increasing k (as the
 * kernels do), and the comparison. Each driver keeps what is its own: the
 * sizes, the seed, the launch shape, the tolerance and its argument.
 *
 * Two forms: C = A B (no input C), and C = alpha A B + beta C (an input C
 * drawn after A and B from the same stream).
 */
#ifndef WEFT_WL_GEMM_H
#define WEFT_WL_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"

struct weft_wl_gemm {
	int m, n, k;
	bool scaled;         /* C = alpha A B + beta C, else C = A B */
	float alpha, beta;   /* only when scaled */
	float *a, *b, *c_in; /* inputs; c_in only when scaled */
	float *c_dev, *c_ref;
	float *row;          /* the reference's accumulator row */
};

/* Allocates the host arrays and fills A, B (and C when scaled) uniform in
 * [0, 1) from `seed`, in that order. On failure err says what (the caller
 * still calls weft_wl_gemm_free). */
int weft_wl_gemm_setup(struct weft_wl_gemm *g, int m, int n, int k, bool scaled, float alpha,
		       float beta, uint64_t seed, struct weft_error *err);

/* The whole device side: uploads A, B (and C), launches `kernel` on
 * grid x block with the arguments (A, B, C, m, n, k) and, when scaled,
 * (alpha, beta), and reads C back into c_dev. */
int weft_wl_gemm_run(struct weft_ctx *ctx, struct weft_module *mod, struct weft_wl_gemm *g,
		     const char *kernel, struct weft_dim3 grid, struct weft_dim3 block,
		     struct weft_error *err);

/* c_ref: i-k-j order (streams rows of B), products added in increasing k. */
void weft_wl_gemm_reference(struct weft_wl_gemm *g);

/* c_dev against c_ref within rel_tol (weft_wl_check_f32, no absolute part). */
int weft_wl_gemm_verify(const struct weft_wl_gemm *g, double rel_tol, struct weft_error *err);

void weft_wl_gemm_free(struct weft_wl_gemm *g);

#endif
