/*
 * micro_fma_chain.c - host driver for micro_fma_chain.cu: one warp, 256
 * dependent fmaf per thread (the FMA latency probe). micro_fma_hidden.c
 * includes this file to drive the same kernel at 1024 threads.
 *
 * The sizes come from the .cu (included: without __CUDACC__ it is only its
 * #defines), and are the same at every --size: a mechanism probe, not a
 * throughput workload. x' = fmaf(x, 0.99, 0.01) contracts towards 1 slowly
 * enough (0.99^256 = 0.08) that a wrong chain length changes every output.
 * C's fmaf rounds once, as fma.rn.f32 does, so verification is exact.
 */
#include <math.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_fma_chain.cu" /* MICRO_FMA_N, MICRO_FMA_KERNEL, MICRO_FMA_THREADS */

#ifndef MICRO_FMA_DESCRIPTION
#define MICRO_FMA_DESCRIPTION \
	"microkernel: FMA latency, one warp, 256 dependent fma.rn.f32 per thread"
#endif

#define MFMA_CAT_(a, b) a##b
#define MFMA_CAT(a, b) MFMA_CAT_(a, b)
#define MFMA_STR_(a) #a
#define MFMA_STR(a) MFMA_STR_(a)

/* WEFT_WORKLOAD_PTX pastes its argument: expand the macro first. */
#define MFMA_WORKLOAD_PTX(name) WEFT_WORKLOAD_PTX(name)
MFMA_WORKLOAD_PTX(MICRO_FMA_KERNEL);

static const float mfma_a = 0.99f, mfma_b = 0.01f;

struct mfma_state {
	float in[MICRO_FMA_THREADS], out_dev[MICRO_FMA_THREADS], out_ref[MICRO_FMA_THREADS];
};

static int mfma_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct mfma_state *s = state;
	struct weft_rng rng;
	(void)size; /* one size: see above */
	(void)err;
	weft_rng_seed(&rng, 0x6d666d61u); /* "mfma" */
	for (int i = 0; i < MICRO_FMA_THREADS; i++)
		s->in[i] = weft_rng_float(&rng, -1.0f, 1.0f);
	return 0;
}

static int mfma_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			   struct weft_error *err)
{
	struct mfma_state *s = state;
	uint64_t din, dout;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, sizeof(s->in), &din, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev), &dout, err));
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout), WEFT_ARG(mfma_a),
				   WEFT_ARG(mfma_b) };
	WEFT_WL_TRY(weft_launch(ctx, mod, MFMA_STR(MICRO_FMA_KERNEL), weft_dim3(1, 1, 1),
				weft_dim3(MICRO_FMA_THREADS, 1, 1), 0, args, 4, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, sizeof(s->out_dev), err);
}

static void mfma_run_reference(void *state)
{
	struct mfma_state *s = state;
	for (int t = 0; t < MICRO_FMA_THREADS; t++) {
		float x = s->in[t];
		for (int i = 0; i < MICRO_FMA_N; i++)
			x = fmaf(x, mfma_a, mfma_b);
		s->out_ref[t] = x;
	}
}

static int mfma_verify(void *state, struct weft_error *err)
{
	struct mfma_state *s = state;
	return weft_wl_check_f32("out", s->out_dev, s->out_ref, MICRO_FMA_THREADS, 0.0, 0.0, err);
}

static void mfma_teardown(void *state)
{
	(void)state; /* nothing allocated */
}

const struct weft_workload MFMA_CAT(weft_workload_, MICRO_FMA_KERNEL) = {
	.name = MFMA_STR(MICRO_FMA_KERNEL),
	.description = MICRO_FMA_DESCRIPTION,
	.ptx_name = MFMA_STR(MICRO_FMA_KERNEL) ".ptx",
	.ptx_text = MFMA_CAT(weft_ptx_, MICRO_FMA_KERNEL),
	.tolerance = "exact (fmaf rounds once, as fma.rn.f32)",
	.state_size = sizeof(struct mfma_state),
	.setup = mfma_setup,
	.run_device = mfma_run_device,
	.run_reference = mfma_run_reference,
	.verify = mfma_verify,
	.teardown = mfma_teardown,
};
