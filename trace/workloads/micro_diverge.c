/*
 * micro_diverge.c - host driver for micro_diverge.cu: one warp whose lane i
 * runs i + 1 iterations of a loop with an if/else on lane parity (the
 * divergence and reconvergence probe).
 *
 * Sizes come from the .cu and are the same at every --size (a mechanism
 * probe, not a throughput workload). x' = fmaf(x, 0.99, 0.01) (odd lanes)
 * and x' = x * 0.99 + 0.01 rounded twice (even lanes) contract slowly, so
 * each lane's result depends on its iteration count. The reference repeats
 * the same operations: fmaf rounds once as fma.rn.f32, and the separate
 * float multiply and add (-ffp-contract=off) round as mul.rn and add.rn, so
 * verification is exact.
 */
#include <math.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_diverge.cu" /* MICRO_DIVERGE_THREADS */

WEFT_WORKLOAD_PTX(micro_diverge);

static const float mdiv_a = 0.99f, mdiv_b = 0.01f;

struct micro_diverge_state {
	float in[MICRO_DIVERGE_THREADS], out_dev[MICRO_DIVERGE_THREADS],
		out_ref[MICRO_DIVERGE_THREADS];
};

static int micro_diverge_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct micro_diverge_state *s = state;
	struct weft_rng rng;

	(void)size; /* one size: see above */
	(void)err;
	weft_rng_seed(&rng, 0x6d646976u); /* "mdiv" */
	for (int i = 0; i < MICRO_DIVERGE_THREADS; i++)
		s->in[i] = weft_rng_float(&rng, -1.0f, 1.0f);
	return 0;
}

static int micro_diverge_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				    struct weft_error *err)
{
	struct micro_diverge_state *s = state;
	uint64_t din, dout;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, sizeof(s->in), &din, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev), &dout, err));
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout), WEFT_ARG(mdiv_a),
				   WEFT_ARG(mdiv_b) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "micro_diverge", weft_dim3(1, 1, 1),
				weft_dim3(MICRO_DIVERGE_THREADS, 1, 1), 0, args, 4, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, sizeof(s->out_dev), err);
}

static void micro_diverge_run_reference(void *state)
{
	struct micro_diverge_state *s = state;
	for (int t = 0; t < MICRO_DIVERGE_THREADS; t++) {
		int lane = t & 31;
		float x = s->in[t];
		for (int k = 0; k <= lane; k++) {
			if (lane & 1) {
				for (int r = 0; r < 4; r++)
					x = fmaf(x, mdiv_a, mdiv_b);
			} else {
				for (int r = 0; r < 2; r++) {
					float m = x * mdiv_a;
					x = m + mdiv_b;
				}
			}
		}
		s->out_ref[t] = x;
	}
}

static int micro_diverge_verify(void *state, struct weft_error *err)
{
	struct micro_diverge_state *s = state;
	return weft_wl_check_f32("out", s->out_dev, s->out_ref, MICRO_DIVERGE_THREADS, 0.0, 0.0,
				 err);
}

static void micro_diverge_teardown(void *state)
{
	(void)state; /* nothing allocated */
}

const struct weft_workload weft_workload_micro_diverge = {
	.name = "micro_diverge",
	.description = "microkernel: divergence, one warp, lane i loops i + 1 times around an odd/even if-else",
	.ptx_name = "micro_diverge.ptx",
	.ptx_text = weft_ptx_micro_diverge,
	.tolerance = "exact (fmaf as fma.rn; separate mul and add as mul.rn, add.rn)",
	.state_size = sizeof(struct micro_diverge_state),
	.setup = micro_diverge_setup,
	.run_device = micro_diverge_run_device,
	.run_reference = micro_diverge_run_reference,
	.verify = micro_diverge_verify,
	.teardown = micro_diverge_teardown,
};
