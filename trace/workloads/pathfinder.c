/*
 * pathfinder.c - host driver for pathfinder.cu: the cheapest top-to-bottom
 * path cost to every cell of the last row of a rows x cols grid of wall
 * costs, PYRAMID rows per launch (host loop, ping-pong buffers), as Rodinia's
 * pathfinder (which runs 100000 columns x 100 rows with pyramid height 20;
 * wall costs are rand() % 10 there and uniform in [0, 10) here).
 * Integers: exact.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(pathfinder);

#define PF_THREADS 256

struct pathfinder_state {
	int rows, cols, pyramid;
	int32_t *wall, *out_dev, *ref_a, *ref_b, *out_ref;
};

static int pathfinder_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct pathfinder_state *s = state;
	/* Measured: about 38-56 thread instructions per cell (the pyramid's
	 * halo threads work too): about 1e5 / 1e7 / 1e9. */
	s->cols = WEFT_WL_BY_SIZE(size, 256, 10000, 100000);
	s->rows = WEFT_WL_BY_SIZE(size, 8, 27, 264);
	s->pyramid = WEFT_WL_BY_SIZE(size, 4, 20, 20);
	size_t cells = (size_t)s->rows * (size_t)s->cols;
	s->wall = weft_wl_alloc(cells, sizeof(int32_t), err);
	s->out_dev = weft_wl_alloc((size_t)s->cols, sizeof(int32_t), err);
	s->ref_a = weft_wl_alloc((size_t)s->cols, sizeof(int32_t), err);
	s->ref_b = weft_wl_alloc((size_t)s->cols, sizeof(int32_t), err);
	if (!s->wall || !s->out_dev || !s->ref_a || !s->ref_b)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x70617468ull); /* "path" */
	for (size_t i = 0; i < cells; i++)
		s->wall[i] = (int32_t)weft_rng_below(&r, 10);
	return 0;
}

static int pathfinder_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				 struct weft_error *err)
{
	struct pathfinder_state *s = state;
	size_t row_bytes = (size_t)s->cols * sizeof(int32_t);
	uint64_t d_wall, d_row[2];
	WEFT_WL_TRY(weft_wl_upload(ctx, s->wall, row_bytes * (size_t)s->rows, &d_wall, err));
	/* Row 0's cost is its own wall cost. */
	WEFT_WL_TRY(weft_wl_upload(ctx, s->wall, row_bytes, &d_row[0], err));
	WEFT_WL_TRY(weft_malloc(ctx, row_bytes, &d_row[1], err));
	int src = 0;
	for (int t = 1; t < s->rows; t += s->pyramid) {
		int iters = s->rows - t < s->pyramid ? s->rows - t : s->pyramid;
		int small = PF_THREADS - 2 * iters;
		int border = iters;
		struct weft_arg args[] = { WEFT_ARG(iters), WEFT_ARG(d_wall), WEFT_ARG(d_row[src]),
					   WEFT_ARG(d_row[1 - src]), WEFT_ARG(s->cols), WEFT_ARG(t),
					   WEFT_ARG(border) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "pathfinder_step",
					weft_dim3((uint32_t)((s->cols + small - 1) / small), 1, 1),
					weft_dim3(PF_THREADS, 1, 1), 0, args, 7, err));
		src = 1 - src;
	}
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->out_dev, d_row[src], row_bytes, err));
	return 0;
}

static void pathfinder_run_reference(void *state)
{
	struct pathfinder_state *s = state;
	int cols = s->cols;
	int32_t *prev = s->ref_a, *cur = s->ref_b;
	memcpy(prev, s->wall, (size_t)cols * sizeof(int32_t));
	for (int r = 1; r < s->rows; r++) {
		const int32_t *w = s->wall + (size_t)r * cols;
		for (int x = 0; x < cols; x++) {
			int32_t best = prev[x];
			if (x > 0 && prev[x - 1] < best)
				best = prev[x - 1];
			if (x < cols - 1 && prev[x + 1] < best)
				best = prev[x + 1];
			cur[x] = best + w[x];
		}
		int32_t *tmp = prev;
		prev = cur;
		cur = tmp;
	}
	s->out_ref = prev;
}

static int pathfinder_verify(void *state, struct weft_error *err)
{
	struct pathfinder_state *s = state;
	return weft_wl_check_i32("cost", s->out_dev, s->out_ref, (size_t)s->cols, err);
}

static void pathfinder_teardown(void *state)
{
	struct pathfinder_state *s = state;
	free(s->wall);
	free(s->out_dev);
	free(s->ref_a);
	free(s->ref_b);
}

const struct weft_workload weft_workload_pathfinder = {
	.name = "pathfinder",
	.description = "Rodinia-style row-by-row min-cost path DP in shared memory, pyramid of rows per launch",
	.ptx_name = "pathfinder.ptx",
	.ptx_text = weft_ptx_pathfinder,
	.tolerance = "exact",
	.state_size = sizeof(struct pathfinder_state),
	.setup = pathfinder_setup,
	.run_device = pathfinder_run_device,
	.run_reference = pathfinder_run_reference,
	.verify = pathfinder_verify,
	.teardown = pathfinder_teardown,
};
