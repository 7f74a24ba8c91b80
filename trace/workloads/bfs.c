/*
 * bfs.c - host driver for bfs.cu: level-synchronous breadth-first search
 * from node 0 over a random directed graph in CSR form (Rodinia bfs style).
 * Every level the host clears a device flag, launches bfs_expand and
 * bfs_update, and copies the flag back; it stops when no node was added.
 * Out-degrees are uniform in [2, 10] (mean 6) and targets uniform, so the
 * graph has a small diameter (a handful of levels even at millions of nodes).
 * The result is each node's level (cost), -1 when unreachable: exact.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>
#include <string.h>

WEFT_WORKLOAD_PTX(bfs);

struct bfs_state {
	int n, nedges, levels;
	int32_t *row_start; /* n + 1 */
	int32_t *edges;
	int32_t *cost_dev, *cost_ref;
	int32_t *queue;     /* reference work list */
};

static int bfs_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct bfs_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 300, 20000, 1500000);
	if (!(s->row_start = weft_wl_alloc((size_t)s->n + 1, sizeof(int32_t), err)) ||
	    !(s->cost_dev = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->cost_ref = weft_wl_alloc(s->n, sizeof(int32_t), err)) ||
	    !(s->queue = weft_wl_alloc(s->n, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x62667321u); /* "bfs!" */
	s->row_start[0] = 0;
	for (int v = 0; v < s->n; v++)
		s->row_start[v + 1] = s->row_start[v] + 2 + (int32_t)weft_rng_below(&rng, 9);
	s->nedges = s->row_start[s->n];
	if (!(s->edges = weft_wl_alloc(s->nedges, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
	for (int e = 0; e < s->nedges; e++)
		s->edges[e] = (int32_t)weft_rng_below(&rng, (uint32_t)s->n);
	return 0;
}

static int bfs_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct bfs_state *s = state;
	size_t n = (size_t)s->n;
	uint64_t drow, dedges, dfront, dnext, dvis, dcost, dchanged;
	const unsigned char one = 1;
	const int32_t zero = 0;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->row_start, (n + 1) * 4, &drow, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->edges, (size_t)s->nedges * 4, &dedges, err));
	WEFT_WL_TRY(weft_malloc(ctx, n, &dfront, err)); /* zero-filled */
	WEFT_WL_TRY(weft_malloc(ctx, n, &dnext, err));
	WEFT_WL_TRY(weft_malloc(ctx, n, &dvis, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * 4, &dcost, err));
	WEFT_WL_TRY(weft_malloc(ctx, 4, &dchanged, err));
	WEFT_WL_TRY(weft_memset(ctx, dcost, 0xff, n * 4, err)); /* -1: not reached */
	WEFT_WL_TRY(weft_memcpy_htod(ctx, dcost, &zero, 4, err));
	WEFT_WL_TRY(weft_memcpy_htod(ctx, dfront, &one, 1, err));
	WEFT_WL_TRY(weft_memcpy_htod(ctx, dvis, &one, 1, err));

	struct weft_dim3 grid = weft_dim3((uint32_t)((n + 255) / 256), 1, 1);
	struct weft_dim3 block = weft_dim3(256, 1, 1);
	struct weft_arg ea[] = { WEFT_ARG(drow), WEFT_ARG(dedges), WEFT_ARG(dfront),
				 WEFT_ARG(dnext), WEFT_ARG(dvis), WEFT_ARG(dcost), WEFT_ARG(s->n) };
	struct weft_arg ua[] = { WEFT_ARG(dfront), WEFT_ARG(dnext), WEFT_ARG(dvis),
				 WEFT_ARG(dchanged), WEFT_ARG(s->n) };
	int32_t changed;
	s->levels = 0;
	do {
		WEFT_WL_TRY(weft_memcpy_htod(ctx, dchanged, &zero, 4, err));
		WEFT_WL_TRY(weft_launch(ctx, mod, "bfs_expand", grid, block, 0, ea, 7, err));
		WEFT_WL_TRY(weft_launch(ctx, mod, "bfs_update", grid, block, 0, ua, 5, err));
		WEFT_WL_TRY(weft_memcpy_dtoh(ctx, &changed, dchanged, 4, err));
		s->levels++;
		/* Each level adds at least one node, so n levels is a hard bound;
		 * more means the kernels never clear the flag. */
		if (s->levels > s->n)
			return weft_error_set(err, WEFT_ERR_RUNTIME,
					      "the device still reports changes after %d "
					      "levels on a %d-node graph; the kernels do not "
					      "converge",
					      s->levels, s->n);
	} while (changed);
	return weft_memcpy_dtoh(ctx, s->cost_dev, dcost, n * 4, err);
}

/* Queue-based BFS: the work-efficient single-thread baseline. */
static void bfs_run_reference(void *state)
{
	struct bfs_state *s = state;
	int head = 0, tail = 0;

	memset(s->cost_ref, 0xff, (size_t)s->n * sizeof(int32_t));
	s->cost_ref[0] = 0;
	s->queue[tail++] = 0;
	while (head < tail) {
		int v = s->queue[head++];
		for (int e = s->row_start[v]; e < s->row_start[v + 1]; e++) {
			int u = s->edges[e];
			if (s->cost_ref[u] < 0) {
				s->cost_ref[u] = s->cost_ref[v] + 1;
				s->queue[tail++] = u;
			}
		}
	}
}

static int bfs_verify(void *state, struct weft_error *err)
{
	struct bfs_state *s = state;
	return weft_wl_check_i32("cost", s->cost_dev, s->cost_ref, s->n, err);
}

static void bfs_teardown(void *state)
{
	struct bfs_state *s = state;
	free(s->row_start);
	free(s->edges);
	free(s->cost_dev);
	free(s->cost_ref);
	free(s->queue);
}

const struct weft_workload weft_workload_bfs = {
	.name = "bfs",
	.description = "level-synchronous BFS over a random CSR graph, host loop per level (Rodinia)",
	.ptx_name = "bfs.ptx",
	.ptx_text = weft_ptx_bfs,
	.tolerance = "exact",
	.state_size = sizeof(struct bfs_state),
	.setup = bfs_setup,
	.run_device = bfs_run_device,
	.run_reference = bfs_run_reference,
	.verify = bfs_verify,
	.teardown = bfs_teardown,
};
