/*
 * micro_barrier.c - host driver for micro_barrier.cu: one CTA of 256
 * threads passing values around a shared ring, two barriers per step, 64
 * steps (the barrier cost probe).
 *
 * Sizes come from the .cu and are the same at every --size (a mechanism
 * probe, not a throughput workload). The reference replays the 64 steps on
 * the whole ring; integer adds, so verification is exact.
 */
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_barrier.cu" /* MICRO_BARRIER_THREADS, MICRO_BARRIER_ITERS */

WEFT_WORKLOAD_PTX(micro_barrier);

#define MBAR_N MICRO_BARRIER_THREADS

struct micro_barrier_state {
	int32_t in[MBAR_N], out_dev[MBAR_N], out_ref[MBAR_N];
};

static int micro_barrier_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct micro_barrier_state *s = state;
	struct weft_rng rng;

	(void)size; /* one size: see above */
	(void)err;
	weft_rng_seed(&rng, 0x6d626172u); /* "mbar" */
	for (int i = 0; i < MBAR_N; i++)
		s->in[i] = (int32_t)weft_rng_below(&rng, 2000001) - 1000000;
	return 0;
}

static int micro_barrier_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				    struct weft_error *err)
{
	struct micro_barrier_state *s = state;
	uint64_t din, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, sizeof(s->in), &din, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev), &dout, err));
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "micro_barrier", weft_dim3(1, 1, 1),
				weft_dim3(MICRO_BARRIER_THREADS, 1, 1), 0, args, 2, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, sizeof(s->out_dev), err);
}

static void micro_barrier_run_reference(void *state)
{
	struct micro_barrier_state *s = state;
	int32_t ring[MBAR_N];

	memcpy(s->out_ref, s->in, sizeof(ring));
	for (int k = 0; k < MICRO_BARRIER_ITERS; k++) {
		memcpy(ring, s->out_ref, sizeof(ring));
		for (int t = 0; t < MBAR_N; t++)
			s->out_ref[t] = ring[(t + 1) % MBAR_N] + 1;
	}
}

static int micro_barrier_verify(void *state, struct weft_error *err)
{
	struct micro_barrier_state *s = state;
	return weft_wl_check_i32("out", s->out_dev, s->out_ref, MBAR_N, err);
}

static void micro_barrier_teardown(void *state)
{
	(void)state; /* nothing allocated */
}

const struct weft_workload weft_workload_micro_barrier = {
	.name = "micro_barrier",
	.description = "microkernel: barrier cost, 8 warps, 64 steps of shared store, barrier, load, barrier",
	.ptx_name = "micro_barrier.ptx",
	.ptx_text = weft_ptx_micro_barrier,
	.tolerance = "exact (integers)",
	.state_size = sizeof(struct micro_barrier_state),
	.setup = micro_barrier_setup,
	.run_device = micro_barrier_run_device,
	.run_reference = micro_barrier_run_reference,
	.verify = micro_barrier_verify,
	.teardown = micro_barrier_teardown,
};
