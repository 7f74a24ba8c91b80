/*
 * micro_chase.c - host driver for micro_chase.cu: one warp chasing a linked
 * list of 64 device pointers (the dependent-load latency probe).
 *
 * The list lives in one MICRO_CHASE_BYTES buffer cut into 4 KiB slots; a
 * seeded shuffle picks MICRO_CHASE_HOPS + 1 distinct slots in scrambled
 * order and node k (at the start of slot k of that order) holds the device
 * address of node k + 1. Device addresses are known only once weft_malloc
 * returned the buffer's (host.h: a device pointer is the 64-bit generic
 * address the kernel uses), so run_device writes them into the host image of
 * the buffer and uploads it whole. The 64 hops read nodes 0..63, each in its
 * own 128-byte line, every two at least 4 KiB apart; every thread ends on
 * node 64's address. The reference walks the same image from the same head,
 * translating each device address back to an offset in the image, so
 * verification is exact. Sizes come from the .cu and are the same at every
 * --size (a mechanism probe, not a throughput workload).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include "micro_chase.cu" /* MICRO_CHASE_THREADS, _HOPS, _BYTES, _SLOT */

WEFT_WORKLOAD_PTX(micro_chase);

#define MCH_SLOTS (MICRO_CHASE_BYTES / MICRO_CHASE_SLOT)
#define MCH_WORDS (MICRO_CHASE_BYTES / 8)

struct micro_chase_state {
	uint32_t slot[MICRO_CHASE_HOPS + 1]; /* node k sits at byte slot[k] * MICRO_CHASE_SLOT */
	uint64_t *image;                     /* host copy of the device buffer */
	uint64_t base;                       /* the device buffer's address */
	uint64_t out_dev[MICRO_CHASE_THREADS], out_ref[MICRO_CHASE_THREADS];
};

static int micro_chase_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct micro_chase_state *s = state;
	uint32_t order[MCH_SLOTS];
	struct weft_rng rng;

	(void)size; /* one size: see above */
	if (!(s->image = weft_wl_alloc(MCH_WORDS, sizeof(uint64_t), err)))
		return WEFT_ERR_NOMEM;
	/* The first HOPS + 1 entries of a Fisher-Yates shuffle of the slots. */
	for (uint32_t i = 0; i < MCH_SLOTS; i++)
		order[i] = i;
	weft_rng_seed(&rng, 0x6368617365ull); /* "chase" */
	for (uint32_t k = 0; k <= MICRO_CHASE_HOPS; k++) {
		uint32_t j = k + weft_rng_below(&rng, MCH_SLOTS - k);
		uint32_t t = order[k];
		order[k] = order[j];
		order[j] = t;
		s->slot[k] = order[k];
	}
	return 0;
}

static uint64_t node_addr(const struct micro_chase_state *s, int k)
{
	return s->base + (uint64_t)s->slot[k] * MICRO_CHASE_SLOT;
}

static int micro_chase_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				  struct weft_error *err)
{
	struct micro_chase_state *s = state;
	uint64_t dout;

	WEFT_WL_TRY(weft_malloc(ctx, MICRO_CHASE_BYTES, &s->base, err));
	for (int k = 0; k < MICRO_CHASE_HOPS; k++)
		s->image[(uint64_t)s->slot[k] * (MICRO_CHASE_SLOT / 8)] = node_addr(s, k + 1);
	WEFT_WL_TRY(weft_memcpy_htod(ctx, s->base, s->image, MICRO_CHASE_BYTES, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof(s->out_dev), &dout, err));
	uint64_t head = node_addr(s, 0);
	struct weft_arg args[] = { WEFT_ARG(head), WEFT_ARG(dout) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "micro_chase", weft_dim3(1, 1, 1),
				weft_dim3(MICRO_CHASE_THREADS, 1, 1), 0, args, 2, err));
	return weft_memcpy_dtoh(ctx, s->out_dev, dout, sizeof(s->out_dev), err);
}

/* Walks the uploaded image as each thread does (run after run_device, which
 * wrote the addresses into it). An address outside the buffer ends the walk
 * with 0, which no device address equals. */
static void micro_chase_run_reference(void *state)
{
	struct micro_chase_state *s = state;
	for (int t = 0; t < MICRO_CHASE_THREADS; t++) {
		uint64_t p = node_addr(s, 0);
		for (int k = 0; k < MICRO_CHASE_HOPS && p; k++) {
			uint64_t off = p - s->base;
			p = off < MICRO_CHASE_BYTES && off % 8 == 0 ? s->image[off / 8] : 0;
		}
		s->out_ref[t] = p;
	}
}

static int micro_chase_verify(void *state, struct weft_error *err)
{
	struct micro_chase_state *s = state;
	for (int t = 0; t < MICRO_CHASE_THREADS; t++)
		if (s->out_dev[t] != s->out_ref[t])
			return weft_error_set(err, WEFT_ERR_VERIFY,
					      "out[%d] = 0x%" PRIx64 " (device) vs 0x%" PRIx64
					      " (reference: node %d at buffer offset 0x%" PRIx64
					      "), exact match required",
					      t, s->out_dev[t], s->out_ref[t], MICRO_CHASE_HOPS,
					      node_addr(s, MICRO_CHASE_HOPS) - s->base);
	return 0;
}

static void micro_chase_teardown(void *state)
{
	struct micro_chase_state *s = state;
	free(s->image);
}

const struct weft_workload weft_workload_micro_chase = {
	.name = "micro_chase",
	.description = "microkernel: load latency, one warp chasing 64 scrambled pointers 4 KiB+ apart",
	.ptx_name = "micro_chase.ptx",
	.ptx_text = weft_ptx_micro_chase,
	.tolerance = "exact (device addresses)",
	.state_size = sizeof(struct micro_chase_state),
	.setup = micro_chase_setup,
	.run_device = micro_chase_run_device,
	.run_reference = micro_chase_run_reference,
	.verify = micro_chase_verify,
	.teardown = micro_chase_teardown,
};
