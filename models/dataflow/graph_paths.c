/*
 * graph_paths.c - critical path and path balancing of a dataflow graph or
 * of one sub-kernel's share of it (graph.h, weft_dfg_paths).
 *
 * A pipelined fabric starts one thread per cycle per replica; a node fires
 * when all its input tokens of a thread are there. When one input of a
 * node arrives d cycles after another, the early token must wait d cycles,
 * and with a new thread every cycle the wait needs d buffer slots: the
 * compiler inserts delay FIFOs in control units (SGMF ISCA 2014, "path
 * balancing"). So per node: start = max over inputs of arrival, and each
 * balanced input edge gets slack = start - arrival; delay slots = the sum
 * of slacks. The consumer's own token buffer (fifo_depth entries) holds
 * the early tokens of fifo_depth threads, so only slack beyond it needs
 * FIFO control units, each holding fifo_depth more: ceil((slack -
 * fifo_depth) / fifo_depth) per edge. Without them the edge sustains
 * fifo_depth / slack threads per cycle (balance). Arrival of an input =
 * finish of its source; finish = start + latency. Constants and parameters are re-supplied by their constant units
 * on demand and need no FIFO; thread-initiation tokens do. In a sub-kernel
 * (member set) values from outside and loop-carried values come from spill
 * loads issued at thread start.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

int weft_dfg_paths(const struct weft_dfg *g, const uint8_t *member, uint32_t fifo_depth,
		   uint64_t *finish, uint32_t *slack, struct weft_dfg_paths *out,
		   struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	out->balance = 1;
	if (slack)
		memset(slack, 0, (size_t)g->nedges * sizeof(uint32_t));
	uint64_t *cn = malloc(((size_t)g->nnodes + 1) * sizeof(uint64_t));
	if (!cn)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory computing the critical path");
	const uint32_t lat_edge = g->params.lat[WEFT_DFU_EDGE];
	const uint32_t lat_ldst = g->params.lat[WEFT_DFU_LDST];
	for (uint32_t t = 0; t < g->nnodes; t++) {
		uint32_t v = g->topo[t];
		const struct weft_dfg_node *nd = &g->nodes[v];
		finish[v] = 0;
		cn[v] = 0;
		if (nd->unit == WEFT_DFU_EDGE) {
			finish[v] = lat_edge;
			continue;
		}
		if (member && !member[v])
			continue;
		/* arrival of each forward input */
		uint64_t start = 0, cstart = 0;
		for (uint32_t k = 0; k < nd->nin; k++) {
			const struct weft_dfg_edge *e = &g->edges[nd->in_start + k];
			if (e->back && !(member && weft_dfg_edge_spillable(g, e)))
				continue;
			const struct weft_dfg_node *s = &g->nodes[e->from];
			uint64_t arr, carr;
			if (e->back) {
				arr = lat_ldst; /* a sub-kernel reads loop-carried values from spill loads */
				carr = 1;
			} else if (s->unit == WEFT_DFU_EDGE || !member || member[e->from]) {
				arr = finish[e->from];
				carr = cn[e->from];
			} else if (e->kind == WEFT_DFE_ORDER) {
				continue; /* an earlier sub-kernel finished before this one started */
			} else {
				arr = lat_ldst; /* spilled value: a spill load at thread start */
				carr = 1;
			}
			if (arr > start)
				start = arr;
			if (carr > cstart)
				cstart = carr;
		}
		finish[v] = start + nd->lat;
		cn[v] = cstart + 1;
		for (uint32_t k = 0; k < nd->nin; k++) {
			const struct weft_dfg_edge *e = &g->edges[nd->in_start + k];
			int back_spill = e->back && member && weft_dfg_edge_spillable(g, e);
			if ((e->back && !back_spill) || (!e->back && !e->balanced))
				continue;
			uint64_t arr;
			if (back_spill)
				arr = lat_ldst;
			else if (g->nodes[e->from].unit == WEFT_DFU_EDGE || !member || member[e->from])
				arr = finish[e->from];
			else if (e->kind == WEFT_DFE_ORDER)
				continue;
			else
				arr = lat_ldst;
			uint64_t sl = start - arr;
			if (slack)
				slack[nd->in_start + k] = (uint32_t)(sl > UINT32_MAX ? UINT32_MAX : sl);
			if (sl) {
				out->delay_slots += sl;
				out->delay_edges++;
				if (!fifo_depth) {
					out->delay_units++;
				} else if (sl > fifo_depth) {
					/* the consumer's own buffer absorbs fifo_depth cycles */
					out->fifo_edges++;
					out->delay_units += (uint32_t)((sl - 1) / fifo_depth);
					double r = (double)fifo_depth / (double)sl;
					if (r < out->balance)
						out->balance = r;
				}
			}
		}
		uint64_t f = finish[v], c = cn[v];
		if (member) {
			/* a value leaving the sub-kernel is written by a spill store */
			for (uint32_t k = 0; k < nd->nout; k++) {
				const struct weft_dfg_edge *e = &g->edges[g->out[nd->out_start + k]];
				if (weft_dfg_edge_spillable(g, e) && (e->back || !member[e->to])) {
					f += lat_ldst;
					c += 1;
					break;
				}
			}
		}
		if (f > out->critical_path)
			out->critical_path = f;
		if (c > out->critical_nodes)
			out->critical_nodes = c;
	}
	free(cn);
	return 0;
}
