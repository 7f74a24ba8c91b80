/*
 * micro_bank.c - host driver for micro_bank.cu: one warp loading 32
 * independent shared words per lane, launched with stride 1 (conflict-free)
 * and stride 32 (every load a 32-way bank conflict).
 *
 * Sizes come from the .cu and are the same at every --size (a mechanism
 * probe, not a throughput workload). The kernel makes its own data (word i
 * holds 7 i - 3000), so there is no input; the reference sums the same
 * words, integers, so verification is exact.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_bank.cu" /* MICRO_BANK_THREADS, MICRO_BANK_WORDS, MICRO_BANK_LOADS */

WEFT_WORKLOAD_PTX(micro_bank);

#define MBANK_LAUNCHES 2
static const int32_t mbank_stride[MBANK_LAUNCHES] = { 1, 32 };

struct micro_bank_state {
	int32_t out_dev[MBANK_LAUNCHES][MICRO_BANK_THREADS];
	int32_t out_ref[MBANK_LAUNCHES][MICRO_BANK_THREADS];
};

static int micro_bank_setup(void *state, enum weft_size size, struct weft_error *err)
{
	(void)state; /* no inputs */
	(void)size;  /* one size: see above */
	(void)err;
	return 0;
}

static int micro_bank_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				 struct weft_error *err)
{
	struct micro_bank_state *s = state;

	for (int l = 0; l < MBANK_LAUNCHES; l++) {
		uint64_t dout;
		int32_t stride = mbank_stride[l];
		WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev[l]), &dout, err));
		struct weft_arg args[] = { WEFT_ARG(dout), WEFT_ARG(stride) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "micro_bank", weft_dim3(1, 1, 1),
					weft_dim3(MICRO_BANK_THREADS, 1, 1), 0, args, 2, err));
		WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->out_dev[l], dout, sizeof(s->out_dev[l]), err));
	}
	return 0;
}

static void micro_bank_run_reference(void *state)
{
	struct micro_bank_state *s = state;
	int32_t sh[MICRO_BANK_WORDS];

	for (int i = 0; i < MICRO_BANK_WORDS; i++)
		sh[i] = i * 7 - 3000;
	for (int l = 0; l < MBANK_LAUNCHES; l++)
		for (int t = 0; t < MICRO_BANK_THREADS; t++) {
			int32_t acc = 0;
			for (int k = 0; k < MICRO_BANK_LOADS; k++)
				acc += sh[t * mbank_stride[l] + k];
			s->out_ref[l][t] = acc;
		}
}

static int micro_bank_verify(void *state, struct weft_error *err)
{
	struct micro_bank_state *s = state;
	WEFT_WL_TRY(weft_wl_check_i32("out (stride 1)", s->out_dev[0], s->out_ref[0],
				      MICRO_BANK_THREADS, err));
	return weft_wl_check_i32("out (stride 32)", s->out_dev[1], s->out_ref[1],
				 MICRO_BANK_THREADS, err);
}

static void micro_bank_teardown(void *state)
{
	(void)state; /* nothing allocated */
}

const struct weft_workload weft_workload_micro_bank = {
	.name = "micro_bank",
	.description = "microkernel: shared bank conflicts, one warp, 32 loads at stride 1 then 32 (32-way)",
	.ptx_name = "micro_bank.ptx",
	.ptx_text = weft_ptx_micro_bank,
	.tolerance = "exact (integers)",
	.state_size = sizeof(struct micro_bank_state),
	.setup = micro_bank_setup,
	.run_device = micro_bank_run_device,
	.run_reference = micro_bank_run_reference,
	.verify = micro_bank_verify,
	.teardown = micro_bank_teardown,
};
