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
#include "trace/launch/workload.h"
#include "trace/launch/wl_gemm.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(matmatmult);

#define MMM_BLOCK 16
#define MMM_REL_TOL 1e-4

static int mmm_setup(void *state, enum weft_size size, struct weft_error *err)
{
	/* Measured: about 5.3 n^3 thread instructions (nvcc unrolls the dot
	 * product by 4: per 4 steps 8 loads, 4 fma, 7 address and counter
	 * updates, a compare and a branch; plus the remainder loop): 26 / 122
	 * / 570 give 1.4e5 / 1.06e7 / 9.9e8. */
	int n = WEFT_WL_BY_SIZE(size, 26, 122, 570);
	/* seed: "mmmult" in ASCII */
	return weft_wl_gemm_setup(state, n, n, n, false, 1.0f, 0.0f, 0x6d6d6d756c74ull, err);
}

static int mmm_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct weft_wl_gemm *g = state;
	uint32_t blocks = (uint32_t)((g->n + MMM_BLOCK - 1) / MMM_BLOCK);
	return weft_wl_gemm_run(ctx, mod, g, "matmatmult", weft_dim3(blocks, blocks, 1),
				weft_dim3(MMM_BLOCK, MMM_BLOCK, 1), err);
}

static void mmm_run_reference(void *state) { weft_wl_gemm_reference(state); }

static int mmm_verify(void *state, struct weft_error *err)
{
	return weft_wl_gemm_verify(state, MMM_REL_TOL, err);
}

static void mmm_teardown(void *state) { weft_wl_gemm_free(state); }

const struct weft_workload weft_workload_matmatmult = {
	.name = "matmatmult",
	.description = "matrix multiply, shader style: a thread per element of C reads a row of A and "
		       "a column of B",
	.ptx_name = "matmatmult.ptx",
	.ptx_text = weft_ptx_matmatmult,
	.tolerance = "rel 1e-4",
	.state_size = sizeof(struct weft_wl_gemm),
	.setup = mmm_setup,
	.run_device = mmm_run_device,
	.run_reference = mmm_run_reference,
	.verify = mmm_verify,
	.teardown = mmm_teardown,
};
