/*
 * dfg.c - depth of the register dataflow graph (analysis.h): the longest
 * chain of dependent instructions, which bounds how many threads a
 * pipelined dataflow fabric keeps in flight (critical path x token buffer,
 * Voitsechov and Etsion, ISCA 2014) and how deep a thread's work is on any
 * machine.
 *
 * Nodes are instructions, edges the def-use chains (defuse.c). Only forward
 * edges count: the definition's block comes earlier in reverse postorder
 * than the use's, or it is earlier in the same block. Loop-carried edges
 * (around a back edge) would make cycles; a fabric pipelines one iteration
 * at a time, so they are left out. Processing blocks in reverse postorder
 * visits every forward definition before its uses, so one pass suffices.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

int weft_dfg_depth(const struct weft_program *p, const struct weft_dom *d, const struct weft_defuse *du,
		   const uint32_t *lat, uint64_t *depth, uint64_t *max_depth, struct weft_error *err)
{
	(void)err;
	uint64_t best = 0;
	memset(depth, 0, (size_t)p->ninsts * sizeof(uint64_t));
	for (uint32_t i = 0; i < d->nrpo; i++) {
		uint32_t b = d->rpo[i];
		const struct weft_block *bl = &p->blocks[b];
		for (uint32_t pc = bl->first; pc < bl->first + bl->count; pc++) {
			uint64_t in = 0;
			for (uint32_t u = du->use_base[pc]; u < du->use_base[pc + 1]; u++)
				for (uint32_t j = du->ud_start[u]; j < du->ud_start[u + 1]; j++) {
					uint32_t dp = du->def_pc[du->ud[j]];
					uint32_t db = p->block_of[dp];
					int forward = db == b ? dp < pc
							      : d->rpo_index[db] != UINT32_MAX &&
								d->rpo_index[db] < i;
					if (forward && depth[dp] > in)
						in = depth[dp];
				}
			depth[pc] = in + (lat ? lat[pc] : 1);
			if (depth[pc] > best)
				best = depth[pc];
		}
	}
	if (max_depth)
		*max_depth = best;
	return 0;
}
