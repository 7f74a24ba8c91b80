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
#include "trace/launch/workload.h"
#include "trace/launch/wl_gemm.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(matmul);

#define TILE 16
#define MATMUL_REL_TOL 1e-4

static int matmul_setup(void *state, enum weft_size size, struct weft_error *err)
{
	/* Measured: about 4.8 n^3 thread instructions (76 per thread per
	 * 16-wide k tile): 24 / 128 / 592 give about 1.9e5 / 1e7 / 1e9. */
	int n = WEFT_WL_BY_SIZE(size, 24, 128, 592);
	/* seed: "matmul" in ASCII */
	return weft_wl_gemm_setup(state, n, n, n, false, 1.0f, 0.0f, 0x6d61746d756cull, err);
}

static int matmul_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct weft_wl_gemm *g = state;
	uint32_t blocks = (uint32_t)((g->n + TILE - 1) / TILE);
	return weft_wl_gemm_run(ctx, mod, g, "matmul_tiled", weft_dim3(blocks, blocks, 1),
				weft_dim3(TILE, TILE, 1), err);
}

static void matmul_run_reference(void *state) { weft_wl_gemm_reference(state); }

static int matmul_verify(void *state, struct weft_error *err)
{
	return weft_wl_gemm_verify(state, MATMUL_REL_TOL, err);
}

static void matmul_teardown(void *state) { weft_wl_gemm_free(state); }

const struct weft_workload weft_workload_matmul = {
	.name = "matmul",
	.description = "single-precision matrix multiply with 16x16 shared-memory tiles",
	.ptx_name = "matmul.ptx",
	.ptx_text = weft_ptx_matmul,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct weft_wl_gemm),
	.setup = matmul_setup,
	.run_device = matmul_run_device,
	.run_reference = matmul_run_reference,
	.verify = matmul_verify,
	.teardown = matmul_teardown,
};
