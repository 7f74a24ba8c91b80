/*
 * cdep.c - control dependence between blocks (analysis.h), for models that
 * turn control flow into predication (the dataflow fabric's label nodes
 * aggregate the branch conditions a block depends on; Voitsechov and
 * Etsion, ISCA 2014).
 *
 * Ferrante, Ottenstein and Warren (1987): block b is control dependent on
 * the edge a -> s when b post-dominates s but does not strictly
 * post-dominate a; the blocks dependent on that edge are s, ipdom(s),
 * ipdom(ipdom(s)), ... up to (not including) ipdom(a). Post-dominators are
 * the program's own (struct weft_block.ipdom). A guarded exit/ret whose
 * block falls through counts as a branch whose other side leaves the
 * kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* Successor k of a branching block, or WEFT_NO_BLOCK. */
static int branching(const struct weft_program *p, uint32_t a)
{
	const struct weft_block *bl = &p->blocks[a];
	if (bl->nsucc == 2)
		return 1;
	if (bl->nsucc == 1 && bl->count &&
	    (p->info[bl->first + bl->count - 1].flags & WEFT_II_GCTRL) &&
	    p->insts[bl->first + bl->count - 1].op != WEFT_OP_BRA)
		return 1; /* @p exit / @p ret falling through */
	return 0;
}

int weft_cdep_build(const struct weft_program *p, struct weft_cdep *c, struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	uint32_t n = p->nblocks;
	c->nblocks = n;
	c->start = calloc((size_t)n + 2, sizeof(uint32_t));
	if (!c->start)
		goto oom;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *fill = NULL;
		if (pass) {
			for (uint32_t b = 0; b < n; b++)
				c->start[b + 1] += c->start[b];
			c->ndeps = c->start[n];
			c->deps = malloc(((size_t)c->ndeps + 1) * sizeof(*c->deps));
			fill = calloc((size_t)n + 1, sizeof(uint32_t));
			if (!c->deps || !fill) {
				free(fill);
				goto oom;
			}
		}
		for (uint32_t a = 0; a < n; a++) {
			if (!branching(p, a))
				continue;
			const struct weft_block *bl = &p->blocks[a];
			uint32_t stop = bl->ipdom;
			for (uint32_t k = 0; k < bl->nsucc; k++) {
				/* the ipdom chain is acyclic: at most n steps */
				uint32_t x = bl->succ[k];
				for (uint32_t steps = 0; x < n && x != stop && steps <= n; steps++) {
					if (!pass) {
						c->start[x + 1]++;
					} else {
						struct weft_cdep_edge *e = &c->deps[c->start[x] + fill[x]++];
						e->branch = a;
						e->succ_index = k;
					}
					x = p->blocks[x].ipdom;
				}
			}
		}
		free(fill);
	}
	return 0;
oom:
	weft_cdep_free(c);
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory computing control dependence");
}

void weft_cdep_free(struct weft_cdep *c)
{
	free(c->start);
	free(c->deps);
	memset(c, 0, sizeof(*c));
}
