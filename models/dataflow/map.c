/*
 * map.c - maps a dataflow graph onto a fabric's units (map.h): segments
 * (loop split), greedy partitioning into sub-kernels with spill counting,
 * then per sub-kernel the exact spill lists, path balancing, replication
 * and repetition counts. The rules are in map.h and docs/models/dataflow.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

static const char *const role_names[] = { "whole", "init", "body", "epilogue", "outer" };

const char *weft_dfk_role_name(unsigned r)
{
	return r < WEFT_DFK_COUNT ? role_names[r] : "?";
}

void weft_dfg_units_sgmf(struct weft_dfg_units *u)
{
	memset(u, 0, sizeof(*u));
	/* SGMF, ISCA 2014: 32 compute, 32 control, 32 LDST, 12 special
	 * (4 integer dividers, 4 FP dividers, 4 square-root units); token
	 * buffers of 16 entries in the reference design */
	u->n[WEFT_DFU_COMPUTE] = 32;
	u->n[WEFT_DFU_CONTROL] = 32;
	u->n[WEFT_DFU_LDST] = 32;
	u->n[WEFT_DFU_SPECIAL] = 12;
	u->special[WEFT_DFS_INT_DIV] = 4;
	u->special[WEFT_DFS_FP_DIV] = 4;
	u->special[WEFT_DFS_SQRT] = 4;
	u->fifo_depth = 16;
	u->max_replicas = 0;
	u->split_loops = 1;
}

uint32_t weft_dfg_replicas(const struct weft_dfg_units *u, const uint32_t units[WEFT_DFU_COUNT],
			   const uint32_t specials[WEFT_DFS_COUNT])
{
	uint32_t r = UINT32_MAX;
	for (unsigned t = 0; t < WEFT_DFU_COUNT; t++) {
		if (!units[t])
			continue;
		if (u->n[t] < units[t])
			return 0;
		if (u->n[t] / units[t] < r)
			r = u->n[t] / units[t];
	}
	for (unsigned k = 0; k < WEFT_DFS_COUNT && specials; k++) {
		if (!specials[k] || !u->special[k])
			continue;
		if (u->special[k] < specials[k])
			return 0;
		if (u->special[k] / specials[k] < r)
			r = u->special[k] / specials[k];
	}
	if (r == UINT32_MAX)
		r = 1; /* nothing on the grid: one (empty) configuration */
	if (u->max_replicas && r > u->max_replicas)
		r = u->max_replicas;
	return r;
}

/* ---- segments ------------------------------------------------------------ */

struct seg {
	uint8_t role;
	uint32_t loop;
	int body;
};

static int new_seg(struct seg **segs, uint32_t *n, uint32_t *cap, uint32_t loop, int body)
{
	if (*n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 8;
		struct seg *q = realloc(*segs, c * sizeof(*q));
		if (!q)
			return -1;
		*segs = q;
		*cap = c;
	}
	(*segs)[*n] = (struct seg){ .loop = loop, .body = body };
	(*n)++;
	return 0;
}

/* seg_of_block[b] for every reachable block; returns the segment count or
 * a negative error. */
static int make_segments(const struct weft_program *p, const struct weft_dom *d,
			 const struct weft_loops *l, int split, uint32_t *seg_of_block, struct seg **segs_out)
{
	struct seg *segs = NULL;
	uint32_t n = 0, cap = 0, cur = WEFT_DFG_NONE;
	for (uint32_t b = 0; b < p->nblocks; b++)
		seg_of_block[b] = WEFT_DFG_NONE;
	for (uint32_t r = 0; r < d->nrpo; r++) {
		uint32_t blk = d->rpo[r];
		if (seg_of_block[blk] != WEFT_DFG_NONE)
			continue;
		uint32_t li = split && l->innermost ? l->innermost[blk] : WEFT_NO_LOOP;
		if (li != WEFT_NO_LOOP && l->loops[li].nchildren == 0) {
			if (new_seg(&segs, &n, &cap, li, 1))
				goto oom;
			const struct weft_loop *lp = &l->loops[li];
			for (uint32_t k = 0; k < lp->nblocks; k++)
				if (d->rpo_index[lp->blocks[k]] != UINT32_MAX &&
				    seg_of_block[lp->blocks[k]] == WEFT_DFG_NONE)
					seg_of_block[lp->blocks[k]] = n - 1;
			cur = WEFT_DFG_NONE;
			continue;
		}
		if (cur == WEFT_DFG_NONE || segs[cur].loop != li) {
			if (new_seg(&segs, &n, &cap, li, 0))
				goto oom;
			cur = n - 1;
		}
		seg_of_block[blk] = cur;
	}
	int seen_body = 0, any_body = 0;
	for (uint32_t s = 0; s < n; s++)
		any_body |= segs[s].body;
	for (uint32_t s = 0; s < n; s++) {
		struct seg *sg = &segs[s];
		if (sg->body) {
			sg->role = WEFT_DFK_BODY;
			seen_body = 1;
		} else if (!any_body) {
			sg->role = WEFT_DFK_WHOLE;
		} else if (sg->loop != WEFT_NO_LOOP) {
			sg->role = WEFT_DFK_OUTER;
		} else {
			sg->role = seen_body ? WEFT_DFK_EPILOGUE : WEFT_DFK_INIT;
		}
	}
	*segs_out = segs;
	return (int)n;
oom:
	free(segs);
	return WEFT_ERR_NOMEM;
}

/* ---- partitioning ---------------------------------------------------------- */

struct mapper {
	const struct weft_program *p;
	const struct weft_dfg *g;
	const struct weft_dfg_units *u;
	uint32_t *seg_of_node;
	uint32_t *part_of;     /* kernel index of each grid node */
	uint32_t *loaded_in;   /* kernel whose spill loads already hold this value */
	uint32_t *remaining;   /* consumers outside the node's kernel (while it is open) */
	uint8_t *iter_of_kernel; /* loop-carried edges spill inside the kernel (BODY, OUTER) */
	/* the open kernel */
	uint32_t k;
	int iter;
	uint32_t cnt[WEFT_DFU_COUNT], spc[WEFT_DFS_COUNT], loads, stores, nnodes;
};

/* Does a spillable in-edge u -> v (v in kernel kv) need a spill load? */
static int needs_load(const struct mapper *m, const struct weft_dfg_edge *e, uint32_t kv, int iter)
{
	uint32_t ku = m->part_of[e->from];
	if (e->back)
		return iter || (ku != WEFT_DFG_NONE && ku != kv);
	return ku != kv;
}

/* Consumers of u (kernel ku) outside ku, as far as known now. */
static uint32_t outside_consumers(const struct mapper *m, uint32_t u, uint32_t ku, int iter)
{
	const struct weft_dfg *g = m->g;
	const struct weft_dfg_node *nd = &g->nodes[u];
	uint32_t c = 0;
	for (uint32_t k = 0; k < nd->nout; k++) {
		const struct weft_dfg_edge *e = &g->edges[g->out[nd->out_start + k]];
		if (!weft_dfg_edge_spillable(g, e))
			continue;
		uint32_t kv = m->part_of[e->to];
		if (e->back)
			c += iter || (kv != WEFT_DFG_NONE && kv != ku);
		else
			c += kv != ku;
	}
	return c;
}

static int fits(const struct weft_dfg_units *u, const uint32_t cnt[WEFT_DFU_COUNT],
		const uint32_t spc[WEFT_DFS_COUNT])
{
	for (unsigned t = 0; t < WEFT_DFU_COUNT; t++)
		if (cnt[t] > u->n[t])
			return 0;
	for (unsigned k = 0; k < WEFT_DFS_COUNT; k++)
		if (u->special[k] && spc[k] > u->special[k])
			return 0;
	return 1;
}

/* Tries to add v to the open kernel; 1 when it fits (and is added). */
static int try_add(struct mapper *m, uint32_t v)
{
	const struct weft_dfg *g = m->g;
	const struct weft_dfg_node *nd = &g->nodes[v];
	const int mux = nd->kind == WEFT_DFN_MUX;
	uint32_t dl = 0, ds_drop = 0, slot = 0;
	for (uint32_t k = 0; k < nd->nin; k++) {
		const struct weft_dfg_edge *e = &g->edges[nd->in_start + k];
		if (!weft_dfg_edge_spillable(g, e))
			continue;
		if (needs_load(m, e, m->k, m->iter)) {
			if (mux && !e->back)
				slot = 1; /* the definitions share one spill slot (map.h) */
			else if (m->loaded_in[e->from] != m->k)
				dl++; /* edges are unique per (from, to): no double count */
		} else if (!e->back && m->part_of[e->from] == m->k && m->remaining[e->from] == 1) {
			ds_drop++;
		}
	}
	uint32_t own_out = 0;
	for (uint32_t k = 0; k < nd->nout; k++)
		own_out += weft_dfg_edge_spillable(g, &g->edges[g->out[nd->out_start + k]]);
	uint32_t cnt[WEFT_DFU_COUNT], spc[WEFT_DFS_COUNT];
	memcpy(cnt, m->cnt, sizeof(cnt));
	memcpy(spc, m->spc, sizeof(spc));
	cnt[nd->unit]++;
	if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT)
		spc[nd->special]++;
	uint32_t stores = m->stores + (own_out ? 1 : 0) - ds_drop;
	uint32_t loads = m->loads + dl + slot;
	cnt[WEFT_DFU_LDST] += loads + stores;
	if (m->nnodes && !fits(m->u, cnt, spc))
		return 0;
	/* commit */
	m->part_of[v] = m->k;
	m->nnodes++;
	m->cnt[nd->unit]++;
	if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT)
		m->spc[nd->special]++;
	for (uint32_t k = 0; k < nd->nin; k++) {
		const struct weft_dfg_edge *e = &g->edges[nd->in_start + k];
		if (!weft_dfg_edge_spillable(g, e))
			continue;
		if (needs_load(m, e, m->k, m->iter)) {
			if (mux && !e->back) {
				if (m->loaded_in[v] != m->k) { /* the mux's own slot, once */
					m->loaded_in[v] = m->k;
					m->loads++;
				}
			} else if (m->loaded_in[e->from] != m->k) {
				m->loaded_in[e->from] = m->k;
				m->loads++;
			}
		} else if (!e->back && m->part_of[e->from] == m->k && m->remaining[e->from] > 0) {
			if (--m->remaining[e->from] == 0)
				m->stores--;
		}
	}
	m->remaining[v] = outside_consumers(m, v, m->k, m->iter);
	if (m->remaining[v])
		m->stores++;
	return 1;
}

/* ---- per-kernel results ----------------------------------------------------- */

static int kernel_fill(struct mapper *m, struct weft_dfg_kernel *K, uint8_t *member, uint64_t *finish,
		       uint32_t *stamp, struct weft_error *err)
{
	const struct weft_dfg *g = m->g;
	const struct weft_dfg_units *u = m->u;
	int iter = m->iter_of_kernel[K->index];
	memset(member, 0, g->nnodes);
	for (uint32_t i = 0; i < K->nnodes; i++)
		member[K->nodes[i]] = 1;
	/* exact spill lists from the final assignment */
	uint32_t nmem = 0;
	for (uint32_t i = 0; i < K->nnodes; i++) {
		const struct weft_dfg_node *nd = &g->nodes[K->nodes[i]];
		K->units[nd->unit]++;
		if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT)
			K->specials[nd->special]++;
		nmem += nd->mem != WEFT_DFM_NONE;
		K->nspecial += nd->unit == WEFT_DFU_SPECIAL;
	}
	/* loads: distinct producers feeding this kernel's nodes; stores: own
	 * nodes with a consumer elsewhere (or across iterations) */
	uint32_t cap = nmem + 1;
	for (uint32_t i = 0; i < K->nnodes; i++) {
		const struct weft_dfg_node *nd = &g->nodes[K->nodes[i]];
		cap += nd->nin + 1;
	}
	K->ldst = calloc(cap, sizeof(*K->ldst));
	K->special = calloc((size_t)K->nspecial + 1, sizeof(*K->special));
	if (!K->ldst || !K->special)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory mapping the dataflow graph");
	uint32_t ns = 0;
	for (uint32_t i = 0; i < K->nnodes; i++) {
		uint32_t v = K->nodes[i];
		const struct weft_dfg_node *nd = &g->nodes[v];
		if (nd->mem != WEFT_DFM_NONE)
			K->ldst[K->nldst++] = (struct weft_dfg_ldst){ .node = v, .pc = nd->pc, .mem = nd->mem,
								      .space = nd->space, .bytes = nd->bytes };
		if (nd->unit == WEFT_DFU_SPECIAL)
			K->special[ns++] = (struct weft_dfg_special_op){ .node = v, .pc = nd->pc,
									 .special = nd->special };
	}
	for (uint32_t i = 0; i < K->nnodes; i++) {
		uint32_t v = K->nodes[i];
		const struct weft_dfg_node *nd = &g->nodes[v];
		for (uint32_t k = 0; k < nd->nin; k++) {
			const struct weft_dfg_edge *e = &g->edges[nd->in_start + k];
			const struct weft_dfg_node *s = &g->nodes[e->from];
			if (s->unit == WEFT_DFU_EDGE) {
				if (stamp[e->from] != K->index) {
					stamp[e->from] = K->index;
					if (s->kind == WEFT_DFN_INIT)
						K->ninit++;
					else
						K->nconst++;
				}
				continue;
			}
			if (!weft_dfg_edge_spillable(g, e))
				continue;
			uint32_t ku = m->part_of[e->from];
			int need = e->back ? (iter || ku != K->index) : ku != K->index;
			/* a mux's definitions from other kernels share one slot: one
			 * spill load, named by the mux itself */
			uint32_t src = need && nd->kind == WEFT_DFN_MUX && !e->back ? v : e->from;
			if (need && stamp[src] != K->index + 0x80000000u) {
				stamp[src] = K->index + 0x80000000u;
				K->ldst[K->nldst++] = (struct weft_dfg_ldst){
					.node = src, .pc = WEFT_DFG_NONE, .mem = WEFT_DFM_SPILL_LOAD,
					.space = WEFT_SPACE_LOCAL,
					.bytes = (uint8_t)weft_dfg_value_bytes(m->p, g, src) };
				K->spill_loads++;
			}
		}
	}
	for (uint32_t i = 0; i < K->nnodes; i++) {
		uint32_t v = K->nodes[i];
		const struct weft_dfg_node *nd = &g->nodes[v];
		for (uint32_t k = 0; k < nd->nout; k++) {
			const struct weft_dfg_edge *e = &g->edges[g->out[nd->out_start + k]];
			if (!weft_dfg_edge_spillable(g, e))
				continue;
			uint32_t kv = m->part_of[e->to];
			int iter_v = kv != WEFT_DFG_NONE && m->iter_of_kernel[kv];
			if (e->back ? (iter_v || kv != K->index) : kv != K->index) {
				K->ldst[K->nldst++] = (struct weft_dfg_ldst){
					.node = v, .pc = WEFT_DFG_NONE, .mem = WEFT_DFM_SPILL_STORE,
					.space = WEFT_SPACE_LOCAL,
					.bytes = (uint8_t)weft_dfg_value_bytes(m->p, g, v) };
				K->spill_stores++;
				break;
			}
		}
	}
	K->units[WEFT_DFU_LDST] += K->spill_loads + K->spill_stores;

	struct weft_dfg_paths ps;
	int rc = weft_dfg_paths(g, member, u->fifo_depth, finish, NULL, &ps, err);
	if (rc)
		return rc;
	K->critical_path = ps.critical_path;
	K->critical_nodes = ps.critical_nodes;
	K->delay_slots = ps.delay_slots;
	K->delay_edges = ps.delay_edges;
	K->delay_units = ps.delay_units;
	K->fifo_edges = ps.fifo_edges;
	K->balance = ps.balance;
	/* with the delay FIFOs every replica takes a thread per cycle; without
	 * them a replica takes `balance` (graph.h); the mapping keeps whichever
	 * streams more threads (FIFOs when they fit and tie) */
	uint32_t with[WEFT_DFU_COUNT];
	memcpy(with, K->units, sizeof(with));
	uint32_t r_without = weft_dfg_replicas(u, with, K->specials);
	with[WEFT_DFU_CONTROL] += K->delay_units;
	uint32_t r_with = K->units[WEFT_DFU_CONTROL] + K->delay_units <= u->n[WEFT_DFU_CONTROL]
				  ? weft_dfg_replicas(u, with, K->specials)
				  : 0;
	K->delays_fit = r_with && (double)r_with >= r_without * K->balance;
	if (!K->delays_fit)
		with[WEFT_DFU_CONTROL] -= K->delay_units;
	K->replicas = K->delays_fit ? r_with : r_without;
	K->rate = K->delays_fit ? 1.0 : K->balance;
	if (!K->replicas) {
		/* only a single node with its spill loads can overflow an empty kernel */
		for (unsigned t = 0; t < WEFT_DFU_COUNT; t++)
			if (K->units[t] > u->n[t])
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "sub-kernel %u needs %u %s units for one node and its spills "
						      "but the fabric has %u; give it more %s units",
						      K->index, K->units[t], weft_dfg_unit_name(t), u->n[t],
						      weft_dfg_unit_name(t));
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "sub-kernel %u needs more special units of one kind than the fabric has",
				      K->index);
	}
	for (unsigned t = 0; t < WEFT_DFU_COUNT; t++)
		K->util[t] = u->n[t] ? (double)with[t] * (K->replicas ? K->replicas : 1) / u->n[t] : 0.0;
	return 0;
}

static void kernel_trips(const struct weft_loops *l, const struct weft_trips *t, struct weft_dfg_kernel *K,
			 uint64_t *ctx_reps)
{
	K->reps = 1;
	*ctx_reps = 1;
	if (K->loop == WEFT_NO_LOOP || !t || !t->stat)
		return;
	const struct weft_trip_stat *s = &t->stat[K->loop];
	K->has_trips = 1;
	K->trip_entries = s->entries;
	K->trip_visits = s->visits;
	K->trip_min = s->min;
	K->trip_max = s->max;
	K->trip_mean = weft_trip_mean(s);
	uint64_t reps = 1;
	for (uint32_t li = K->loop, steps = 0; li != WEFT_NO_LOOP && steps <= l->nloops; steps++) {
		reps *= t->stat[li].max;
		if (li != K->loop)
			*ctx_reps *= t->stat[li].max;
		li = l->loops[li].parent;
	}
	K->reps = reps;
}

int weft_dfg_map_build(const struct weft_program *p, const struct weft_dfg *g,
		       const struct weft_dom *d, const struct weft_loops *loops, const struct weft_trips *trips,
		       const struct weft_dfg_units *uin, struct weft_dfg_map *m, struct weft_error *err)
{
	memset(m, 0, sizeof(*m));
	if (uin)
		m->units = *uin;
	else
		weft_dfg_units_sgmf(&m->units);
	const struct weft_dfg_units *u = &m->units;
	/* a unit type the graph needs but the fabric lacks can never be mapped */
	for (unsigned t = 0; t < WEFT_DFU_COUNT; t++)
		if (g->units[t] && !u->n[t])
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "kernel %s needs %u %s nodes but the fabric has no %s units; "
					      "give the fabric at least one",
					      p->kernel ? p->kernel : "?", g->units[t], weft_dfg_unit_name(t),
					      weft_dfg_unit_name(t));
	m->whole_replicas = weft_dfg_replicas(u, g->units, g->specials);
	m->whole_fits = m->whole_replicas > 0;

	uint32_t N = g->nnodes;
	uint32_t *seg_of_block = malloc(((size_t)p->nblocks + 1) * sizeof(uint32_t));
	struct mapper mp = { .p = p, .g = g, .u = u };
	mp.seg_of_node = malloc(((size_t)N + 1) * sizeof(uint32_t));
	mp.part_of = malloc(((size_t)N + 1) * sizeof(uint32_t));
	mp.loaded_in = malloc(((size_t)N + 1) * sizeof(uint32_t));
	mp.remaining = calloc((size_t)N + 1, sizeof(uint32_t));
	uint8_t *member = malloc((size_t)N + 1);
	uint64_t *finish = malloc(((size_t)N + 1) * sizeof(uint64_t));
	uint32_t *stamp = malloc(((size_t)N + 1) * sizeof(uint32_t));
	uint32_t *order = malloc(((size_t)N + 1) * sizeof(uint32_t));
	struct seg *segs = NULL;
	int rc = 0;
	if (!seg_of_block || !mp.seg_of_node || !mp.part_of || !mp.loaded_in || !mp.remaining || !member ||
	    !finish || !stamp || !order)
		goto oom;
	int ns = make_segments(p, d, loops, u->split_loops, seg_of_block, &segs);
	if (ns < 0)
		goto oom;
	m->nsegments = (uint32_t)ns;
	for (uint32_t i = 0; i < N; i++) {
		const struct weft_dfg_node *nd = &g->nodes[i];
		mp.seg_of_node[i] = nd->unit == WEFT_DFU_EDGE || nd->block == WEFT_DFG_NONE
					    ? WEFT_DFG_NONE
					    : seg_of_block[nd->block];
		mp.part_of[i] = WEFT_DFG_NONE;
		mp.loaded_in[i] = WEFT_DFG_NONE;
		stamp[i] = WEFT_DFG_NONE;
	}
	/* kernels: at most one per grid node */
	uint32_t capk = 8;
	m->kernels = calloc(capk, sizeof(*m->kernels));
	mp.iter_of_kernel = calloc(capk, 1);
	if (!m->kernels || !mp.iter_of_kernel)
		goto oom;
	for (uint32_t s = 0; s < (uint32_t)ns; s++) {
		uint32_t nord = 0;
		for (uint32_t t = 0; t < N; t++)
			if (mp.seg_of_node[g->topo[t]] == s)
				order[nord++] = g->topo[t];
		if (!nord)
			continue; /* nothing on the grid (only pure control or constants) */
		int iter = segs[s].role == WEFT_DFK_BODY || segs[s].role == WEFT_DFK_OUTER;
		/* a loop body that fits one configuration stays loaded across its
		 * iterations, so its loop-carried values travel as tokens on its
		 * back edges: try that first (iter 0: back edges inside the kernel
		 * spill nothing); cut, the parts alternate every iteration and
		 * their loop-carried values go through memory (iter 1) */
		int try_whole_body = segs[s].role == WEFT_DFK_BODY;
		uint32_t first = m->nkernels, i = 0;
	map_segment:
		if (try_whole_body)
			iter = 0;
		while (i < nord) {
			if (m->nkernels == capk) {
				capk *= 2;
				struct weft_dfg_kernel *q = realloc(m->kernels, capk * sizeof(*q));
				uint8_t *qi = q ? realloc(mp.iter_of_kernel, capk) : NULL;
				if (q)
					m->kernels = q;
				if (!q || !qi)
					goto oom;
				mp.iter_of_kernel = qi;
			}
			struct weft_dfg_kernel *K = &m->kernels[m->nkernels];
			memset(K, 0, sizeof(*K));
			K->index = m->nkernels;
			K->segment = s;
			K->role = segs[s].role;
			K->loop = segs[s].loop;
			K->nodes = malloc(((size_t)nord - i + 1) * sizeof(uint32_t));
			if (!K->nodes)
				goto oom;
			mp.iter_of_kernel[m->nkernels] = (uint8_t)iter;
			m->nkernels++;
			mp.k = K->index;
			mp.iter = iter;
			memset(mp.cnt, 0, sizeof(mp.cnt));
			memset(mp.spc, 0, sizeof(mp.spc));
			mp.loads = mp.stores = mp.nnodes = 0;
			while (i < nord && try_add(&mp, order[i]))
				K->nodes[K->nnodes++] = order[i++];
			if (try_whole_body && i < nord) {
				/* the body does not fit one configuration: undo, map it cut */
				for (uint32_t t = 0; t < nord; t++) {
					mp.part_of[order[t]] = WEFT_DFG_NONE;
					mp.remaining[order[t]] = 0;
				}
				for (uint32_t t = 0; t < N; t++)
					if (mp.loaded_in[t] != WEFT_DFG_NONE && mp.loaded_in[t] >= first)
						mp.loaded_in[t] = WEFT_DFG_NONE;
				for (uint32_t k = first; k < m->nkernels; k++) {
					free(m->kernels[k].nodes);
					m->kernels[k].nodes = NULL;
				}
				m->nkernels = first;
				i = 0;
				try_whole_body = 0;
				iter = 1;
				goto map_segment;
			}
		}
		for (uint32_t k = first; k < m->nkernels; k++) {
			m->kernels[k].part = k - first;
			m->kernels[k].nparts = m->nkernels - first;
		}
		if (m->nkernels - first > 1) {
			m->partitioned++;
			if (!u->split_loops && loops && loops->nloops) {
				/* sub-kernels run one after another for all threads: a
				 * loop cut across them would need them to alternate every
				 * iteration, which the fabric does not do */
				rc = weft_error_set(err, WEFT_ERR_INPUT,
						    "kernel %s keeps its %u loop(s) whole (fabric.split_loops = "
						    "false) but does not fit the fabric in one configuration (%u "
						    "compute, %u control, %u ldst, %u special nodes), and a loop "
						    "cannot be cut into sub-kernels; set fabric.split_loops = true "
						    "or give the fabric more units",
						    p->kernel ? p->kernel : "?", loops->nloops,
						    g->units[WEFT_DFU_COMPUTE], g->units[WEFT_DFU_CONTROL],
						    g->units[WEFT_DFU_LDST], g->units[WEFT_DFU_SPECIAL]);
				goto out;
			}
		}
	}
	for (uint32_t k = 0; k < m->nkernels; k++) {
		struct weft_dfg_kernel *K = &m->kernels[k];
		rc = kernel_fill(&mp, K, member, finish, stamp, err);
		if (rc)
			goto out;
		uint64_t ctx_reps;
		kernel_trips(loops, trips, K, &ctx_reps);
		/* a body that is one configuration stays loaded across its own
		 * iterations; a cut body reloads every part every iteration */
		uint64_t loads = K->role == WEFT_DFK_BODY && K->nparts == 1 ? ctx_reps : K->reps;
		if (!K->has_trips)
			loads = 1;
		m->config_loads += (uint32_t)(loads > UINT32_MAX ? UINT32_MAX : loads);
		m->spill_loads += K->spill_loads;
		m->spill_stores += K->spill_stores;
		m->delay_slots += K->delay_slots;
	}
	m->reconfigs = m->config_loads ? m->config_loads - 1 : 0;
	goto out;
oom:
	rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory mapping the dataflow graph");
out:
	free(seg_of_block);
	free(mp.seg_of_node);
	free(mp.part_of);
	free(mp.loaded_in);
	free(mp.remaining);
	free(mp.iter_of_kernel);
	free(member);
	free(finish);
	free(stamp);
	free(order);
	free(segs);
	if (rc)
		weft_dfg_map_free(m);
	return rc;
}

void weft_dfg_map_free(struct weft_dfg_map *m)
{
	for (uint32_t k = 0; m->kernels && k < m->nkernels; k++) {
		free(m->kernels[k].nodes);
		free(m->kernels[k].ldst);
		free(m->kernels[k].special);
	}
	free(m->kernels);
	memset(m, 0, sizeof(*m));
}

void weft_dfg_map_thread_iters(const struct weft_dfg_map *m, const struct weft_loops *l,
			       const uint32_t *path, uint32_t n, uint64_t *iters)
{
	for (uint32_t k = 0; k < m->nkernels; k++) {
		const struct weft_dfg_kernel *K = &m->kernels[k];
		iters[k] = 1;
		if (K->loop == WEFT_NO_LOOP || K->loop >= l->nloops)
			continue;
		/* sub-kernels of one segment share the count */
		if (K->part > 0) {
			iters[k] = iters[k - 1];
			continue;
		}
		uint32_t h = l->loops[K->loop].header;
		uint64_t c = 0;
		for (uint32_t i = 0; i < n; i++)
			c += path[i] == h;
		iters[k] = c;
	}
}

int weft_dfg_map_format(const struct weft_dfg_map *m, char *buf, size_t len)
{
	size_t n = 0;
#define PUT(...)                                                                       \
	do {                                                                           \
		int w_ = snprintf(buf && n < len ? buf + n : NULL, buf && n < len ? len - n : 0, \
				  __VA_ARGS__);                                        \
		if (w_ > 0)                                                            \
			n += (size_t)w_;                                               \
	} while (0)
	PUT("fabric %u compute / %u control / %u ldst / %u special; %u kernel(s) in %u segment(s), "
	    "%u partitioned, %u configuration load(s), spills %u ld / %u st, delay slots %llu\n",
	    m->units.n[0], m->units.n[1], m->units.n[2], m->units.n[3], m->nkernels, m->nsegments,
	    m->partitioned, m->config_loads, m->spill_loads, m->spill_stores,
	    (unsigned long long)m->delay_slots);
	for (uint32_t k = 0; k < m->nkernels; k++) {
		const struct weft_dfg_kernel *K = &m->kernels[k];
		PUT("  k%u %-8s part %u/%u nodes %u/%u/%u/%u (+%u delay) util %.2f/%.2f/%.2f/%.2f "
		    "replicas %u cp %llu cycles (%llu nodes) delay %llu spill %u/%u",
		    K->index, weft_dfk_role_name(K->role), K->part + 1, K->nparts, K->units[0], K->units[1],
		    K->units[2], K->units[3], K->delay_units, K->util[0], K->util[1], K->util[2], K->util[3],
		    K->replicas, (unsigned long long)K->critical_path, (unsigned long long)K->critical_nodes,
		    (unsigned long long)K->delay_slots, K->spill_loads, K->spill_stores);
		if (K->has_trips)
			PUT(" trips %llu..%llu mean %.2f", (unsigned long long)K->trip_min,
			    (unsigned long long)K->trip_max, K->trip_mean);
		PUT("\n");
	}
#undef PUT
	if (buf && len && n >= len)
		buf[len - 1] = 0;
	return (int)n;
}
