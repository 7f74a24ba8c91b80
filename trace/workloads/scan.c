/*
 * scan.c - host driver for scan.cu: per-block exclusive prefix sums
 * (Blelloch) of 512-element tiles plus each tile's total.
 *
 * Inputs are full-range random 32-bit unsigned integers, so sums wrap
 * around (as in any integer scan); unsigned arithmetic is exact, so the
 * comparison is exact. n is not a multiple of the tile, so the last block
 * has a partial tile.
 */
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(scan);

#define SCAN_THREADS 256
#define SCAN_TILE (2 * SCAN_THREADS)

struct scan_state {
	size_t n, nblocks;
	uint32_t *in, *out_dev, *out_ref, *sums_dev, *sums_ref;
};

static int scan_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct scan_state *s = state;
	/* Measured: about 30500 thread instructions per 512-element block
	 * (two 9-level sweeps with a barrier per level): 3 / 328 / 32768
	 * blocks give about 1e5 / 1e7 / 1e9. Not a multiple of the tile. */
	s->n = WEFT_WL_BY_SIZE(size, (size_t)1500, (size_t)167836, (size_t)16777139);
	s->nblocks = (s->n + SCAN_TILE - 1) / SCAN_TILE;
	s->in = weft_wl_alloc(s->n, sizeof(uint32_t), err);
	s->out_dev = weft_wl_alloc(s->n, sizeof(uint32_t), err);
	s->out_ref = weft_wl_alloc(s->n, sizeof(uint32_t), err);
	s->sums_dev = weft_wl_alloc(s->nblocks, sizeof(uint32_t), err);
	s->sums_ref = weft_wl_alloc(s->nblocks, sizeof(uint32_t), err);
	if (!s->in || !s->out_dev || !s->out_ref || !s->sums_dev || !s->sums_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x7363616eull); /* "scan" */
	for (size_t i = 0; i < s->n; i++)
		s->in[i] = (uint32_t)(weft_rng_next(&r) >> 32);
	return 0;
}

static int scan_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			   struct weft_error *err)
{
	struct scan_state *s = state;
	uint64_t d_in, d_out, d_sums;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, s->n * sizeof(uint32_t), &d_in, err));
	WEFT_WL_TRY(weft_malloc(ctx, s->n * sizeof(uint32_t), &d_out, err));
	WEFT_WL_TRY(weft_malloc(ctx, s->nblocks * sizeof(uint32_t), &d_sums, err));
	int n = (int)s->n;
	struct weft_arg args[] = { WEFT_ARG(d_in), WEFT_ARG(d_out), WEFT_ARG(d_sums), WEFT_ARG(n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "scan_block", weft_dim3((uint32_t)s->nblocks, 1, 1),
				weft_dim3(SCAN_THREADS, 1, 1), 0, args, 4, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->out_dev, d_out, s->n * sizeof(uint32_t), err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->sums_dev, d_sums, s->nblocks * sizeof(uint32_t), err));
	return 0;
}

static void scan_run_reference(void *state)
{
	struct scan_state *s = state;
	for (size_t b = 0; b < s->nblocks; b++) {
		size_t lo = b * SCAN_TILE, hi = lo + SCAN_TILE < s->n ? lo + SCAN_TILE : s->n;
		uint32_t acc = 0;
		for (size_t i = lo; i < hi; i++) {
			s->out_ref[i] = acc;
			acc += s->in[i];
		}
		s->sums_ref[b] = acc;
	}
}

static int scan_verify(void *state, struct weft_error *err)
{
	struct scan_state *s = state;
	WEFT_WL_TRY(weft_wl_check_u32("out", s->out_dev, s->out_ref, s->n, err));
	return weft_wl_check_u32("block_sums", s->sums_dev, s->sums_ref, s->nblocks, err);
}

static void scan_teardown(void *state)
{
	struct scan_state *s = state;
	free(s->in);
	free(s->out_dev);
	free(s->out_ref);
	free(s->sums_dev);
	free(s->sums_ref);
}

const struct weft_workload weft_workload_scan = {
	.name = "scan",
	.description = "block-wise exclusive prefix sum (Blelloch) of 512-integer tiles in shared memory",
	.ptx_name = "scan.ptx",
	.ptx_text = weft_ptx_scan,
	.tolerance = "exact",
	.state_size = sizeof(struct scan_state),
	.setup = scan_setup,
	.run_device = scan_run_device,
	.run_reference = scan_run_reference,
	.verify = scan_verify,
	.teardown = scan_teardown,
};
