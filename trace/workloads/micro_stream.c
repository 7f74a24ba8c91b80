/*
 * micro_stream.c - host driver for micro_stream.cu: 1024 threads each
 * summing 16 floats, read as 512 distinct coalesced lines (the L1 miss
 * bandwidth / MSHR probe).
 *
 * Sizes come from the .cu and are the same at every --size (a mechanism
 * probe, not a throughput workload). The reference adds the same 16 values
 * in the same order with separate IEEE float adds (-ffp-contract=off; the
 * kernel has no multiply to fuse), so verification is exact.
 */
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_stream.cu" /* MICRO_STREAM_THREADS, MICRO_STREAM_LOADS */

WEFT_WORKLOAD_PTX(micro_stream);

#define MST_N (MICRO_STREAM_THREADS * MICRO_STREAM_LOADS)

struct micro_stream_state {
	float *in; /* MST_N */
	float out_dev[MICRO_STREAM_THREADS], out_ref[MICRO_STREAM_THREADS];
};

static int micro_stream_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct micro_stream_state *s = state;
	struct weft_rng rng;

	(void)size; /* one size: see above */
	if (!(s->in = weft_wl_alloc(MST_N, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x6d737472u); /* "mstr" */
	for (int i = 0; i < MST_N; i++)
		s->in[i] = weft_rng_float(&rng, -1.0f, 1.0f);
	return 0;
}

static int micro_stream_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				   struct weft_error *err)
{
	struct micro_stream_state *s = state;
	uint64_t din, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, MST_N * sizeof(float), &din, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev), &dout, err));
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "micro_stream", weft_dim3(1, 1, 1),
				weft_dim3(MICRO_STREAM_THREADS, 1, 1), 0, args, 2, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, sizeof(s->out_dev), err);
}

static void micro_stream_run_reference(void *state)
{
	struct micro_stream_state *s = state;
	for (int t = 0; t < MICRO_STREAM_THREADS; t++) {
		float sum = s->in[t];
		for (int j = 1; j < MICRO_STREAM_LOADS; j++)
			sum += s->in[t + j * MICRO_STREAM_THREADS];
		s->out_ref[t] = sum;
	}
}

static int micro_stream_verify(void *state, struct weft_error *err)
{
	struct micro_stream_state *s = state;
	return weft_wl_check_f32("out", s->out_dev, s->out_ref, MICRO_STREAM_THREADS, 0.0, 0.0,
				 err);
}

static void micro_stream_teardown(void *state)
{
	struct micro_stream_state *s = state;
	free(s->in);
}

const struct weft_workload weft_workload_micro_stream = {
	.name = "micro_stream",
	.description = "microkernel: L1 miss throughput, 32 warps x 16 independent coalesced line loads",
	.ptx_name = "micro_stream.ptx",
	.ptx_text = weft_ptx_micro_stream,
	.tolerance = "exact (same adds in the same order)",
	.state_size = sizeof(struct micro_stream_state),
	.setup = micro_stream_setup,
	.run_device = micro_stream_run_device,
	.run_reference = micro_stream_run_reference,
	.verify = micro_stream_verify,
	.teardown = micro_stream_teardown,
};
