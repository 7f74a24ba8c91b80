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
#include "trace/launch/workload.h"
#include "trace/launch/wl_gemm.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(sgemm_shader);

#define SGS_BLOCK 16
#define SGS_REL_TOL 1e-4
#define SGS_ALPHA 2.0f
#define SGS_BETA 0.5f

static int sgs_setup(void *state, enum weft_size size, struct weft_error *err)
{
	/* Measured: about 5.3 m n k thread instructions plus about 50 per
	 * thread: 24x24x24 / 128x128x104 / 584x584x550 give 1.1e5 / 9.8e6 /
	 * 1.0e9. */
	int mn = WEFT_WL_BY_SIZE(size, 24, 128, 584);
	int k = WEFT_WL_BY_SIZE(size, 24, 104, 550);
	/* seed: "sgsha" in ASCII */
	return weft_wl_gemm_setup(state, mn, mn, k, true, SGS_ALPHA, SGS_BETA, 0x7367736861ull,
				  err);
}

static int sgs_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct weft_wl_gemm *g = state;
	uint32_t gx = (uint32_t)((g->n + SGS_BLOCK - 1) / SGS_BLOCK);
	uint32_t gy = (uint32_t)((g->m + SGS_BLOCK - 1) / SGS_BLOCK);
	return weft_wl_gemm_run(ctx, mod, g, "sgemm_shader", weft_dim3(gx, gy, 1),
				weft_dim3(SGS_BLOCK, SGS_BLOCK, 1), err);
}

static void sgs_run_reference(void *state) { weft_wl_gemm_reference(state); }

static int sgs_verify(void *state, struct weft_error *err)
{
	return weft_wl_gemm_verify(state, SGS_REL_TOL, err);
}

static void sgs_teardown(void *state) { weft_wl_gemm_free(state); }

const struct weft_workload weft_workload_sgemm_shader = {
	.name = "sgemm_shader",
	.description = "C = alpha*A*B + beta*C, shader style: one thread per element of C "
		       "(no shared memory)",
	.ptx_name = "sgemm_shader.ptx",
	.ptx_text = weft_ptx_sgemm_shader,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct weft_wl_gemm),
	.setup = sgs_setup,
	.run_device = sgs_run_device,
	.run_reference = sgs_run_reference,
	.verify = sgs_verify,
	.teardown = sgs_teardown,
};
