/*
 * reduce.c - host driver for reduce.cu: per-block sums of 32-bit integers by
 * a shared-memory tree with a volatile warp-synchronous tail (reduce_smem)
 * and by warp shuffles (reduce_shfl), both over the same input.
 *
 * Block b of G blocks sums the 512-element chunks b, b + G, b + 2G, ... (a
 * grid-stride loop), so the reference sums element i into partial
 * (i / 512) mod G. Integer sums wrap and are exact in any order.
 */
#include <stdlib.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(reduce);

#define RED_THREADS 256
#define RED_CHUNK (2 * RED_THREADS)
/* Up to 64 blocks: enough CTAs to spread over a GPU's SMs while each thread
 * still loops over many elements, as the CUDA sample's reduce6 does. */
#define RED_MAX_BLOCKS 64

struct reduce_state {
	size_t n, nblocks;
	int32_t *in;
	int32_t *smem_dev, *shfl_dev, *ref;
};

static int reduce_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct reduce_state *s = state;
	/* Measured: about 15 thread instructions per element for the two
	 * kernels together once the grid is full, plus the trees: about
	 * 1e5 / 1e7 / 1e9. 1 << 26 ints is 256 MiB. */
	s->n = WEFT_WL_BY_SIZE(size, (size_t)2000, (size_t)655360, (size_t)1 << 26);
	s->nblocks = (s->n + RED_CHUNK - 1) / RED_CHUNK;
	if (s->nblocks > RED_MAX_BLOCKS)
		s->nblocks = RED_MAX_BLOCKS;
	s->in = weft_wl_alloc(s->n, sizeof(int32_t), err);
	s->smem_dev = weft_wl_alloc(s->nblocks, sizeof(int32_t), err);
	s->shfl_dev = weft_wl_alloc(s->nblocks, sizeof(int32_t), err);
	s->ref = weft_wl_alloc(s->nblocks, sizeof(int32_t), err);
	if (!s->in || !s->smem_dev || !s->shfl_dev || !s->ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x726564756365ull); /* "reduce" */
	for (size_t i = 0; i < s->n; i++)
		s->in[i] = (int32_t)weft_rng_below(&r, 2001) - 1000;
	return 0;
}

static int reduce_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct reduce_state *s = state;
	uint64_t d_in, d_smem, d_shfl;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, s->n * sizeof(int32_t), &d_in, err));
	WEFT_WL_TRY(weft_malloc(ctx, s->nblocks * sizeof(int32_t), &d_smem, err));
	WEFT_WL_TRY(weft_malloc(ctx, s->nblocks * sizeof(int32_t), &d_shfl, err));
	uint32_t n = (uint32_t)s->n;
	struct weft_arg a1[] = { WEFT_ARG(d_in), WEFT_ARG(d_smem), WEFT_ARG(n) };
	struct weft_arg a2[] = { WEFT_ARG(d_in), WEFT_ARG(d_shfl), WEFT_ARG(n) };
	struct weft_dim3 grid = weft_dim3((uint32_t)s->nblocks, 1, 1);
	WEFT_WL_TRY(weft_launch(ctx, mod, "reduce_smem", grid, weft_dim3(RED_THREADS, 1, 1), 0,
				a1, 3, err));
	WEFT_WL_TRY(weft_launch(ctx, mod, "reduce_shfl", grid, weft_dim3(RED_THREADS, 1, 1), 0,
				a2, 3, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->smem_dev, d_smem, s->nblocks * sizeof(int32_t), err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->shfl_dev, d_shfl, s->nblocks * sizeof(int32_t), err));
	return 0;
}

static void reduce_run_reference(void *state)
{
	struct reduce_state *s = state;
	uint32_t acc[RED_MAX_BLOCKS] = { 0 };
	size_t b = 0;
	/* Unsigned: wrap-around is defined in C, as it is for PTX add.s32. */
	for (size_t i = 0; i < s->n; i += RED_CHUNK) {
		size_t hi = i + RED_CHUNK < s->n ? i + RED_CHUNK : s->n;
		for (size_t j = i; j < hi; j++)
			acc[b] += (uint32_t)s->in[j];
		if (++b == s->nblocks)
			b = 0;
	}
	for (size_t k = 0; k < s->nblocks; k++)
		s->ref[k] = (int32_t)acc[k];
}

static int reduce_verify(void *state, struct weft_error *err)
{
	struct reduce_state *s = state;
	WEFT_WL_TRY(weft_wl_check_i32("reduce_smem partial", s->smem_dev, s->ref, s->nblocks, err));
	return weft_wl_check_i32("reduce_shfl partial", s->shfl_dev, s->ref, s->nblocks, err);
}

static void reduce_teardown(void *state)
{
	struct reduce_state *s = state;
	free(s->in);
	free(s->smem_dev);
	free(s->shfl_dev);
	free(s->ref);
}

const struct weft_workload weft_workload_reduce = {
	.name = "reduce",
	.description = "per-block integer sums: shared-memory tree with volatile warp tail, and shuffles",
	.ptx_name = "reduce.ptx",
	.ptx_text = weft_ptx_reduce,
	.tolerance = "exact",
	.state_size = sizeof(struct reduce_state),
	.setup = reduce_setup,
	.run_device = reduce_run_device,
	.run_reference = reduce_run_reference,
	.verify = reduce_verify,
	.teardown = reduce_teardown,
};
