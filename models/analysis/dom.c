/*
 * dom.c - dominator tree of a program's CFG (analysis.h).
 *
 * The immediate dominators come from cfg.h (Cooper, Harvey and Kennedy's
 * algorithm, shared with the emulator); this file adds the reverse
 * postorder, tree depths and a dominance query the loop and uniformity
 * analyses need.
 * Post-dominators are not recomputed here: the program already carries each
 * block's immediate post-dominator (program.h), which the emulator uses for
 * reconvergence, so models agree with it by construction.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/ptx/cfg.h"
#include "analysis.h"

/* Reverse postorder of the blocks reachable from block 0 (iterative DFS). */
static int rpo_build(const struct weft_program *p, struct weft_dom *d)
{
	uint32_t n = p->nblocks;
	uint32_t *stack = malloc((n + 1) * sizeof(*stack));
	uint8_t *next = calloc(n + 1, 1); /* successor index to visit next */
	uint8_t *seen = calloc(n + 1, 1);
	uint32_t *post = malloc((n + 1) * sizeof(*post));
	if (!stack || !next || !seen || !post) {
		free(stack), free(next), free(seen), free(post);
		return -1;
	}
	uint32_t sp = 0, np = 0;
	if (n) {
		stack[sp++] = 0;
		seen[0] = 1;
	}
	while (sp) {
		uint32_t b = stack[sp - 1];
		const struct weft_block *bl = &p->blocks[b];
		if (next[b] < bl->nsucc) {
			uint32_t s = bl->succ[next[b]++];
			if (s < n && !seen[s]) {
				seen[s] = 1;
				stack[sp++] = s;
			}
			continue;
		}
		post[np++] = b;
		sp--;
	}
	d->nrpo = np;
	for (uint32_t i = 0; i < np; i++)
		d->rpo[i] = post[np - 1 - i];
	for (uint32_t b = 0; b < n; b++)
		d->rpo_index[b] = UINT32_MAX;
	for (uint32_t i = 0; i < np; i++)
		d->rpo_index[d->rpo[i]] = i;
	free(stack), free(next), free(seen), free(post);
	return 0;
}

int weft_dom_build(const struct weft_program *p, struct weft_dom *d, struct weft_error *err)
{
	memset(d, 0, sizeof(*d));
	uint32_t n = p->nblocks;
	d->nblocks = n;
	d->idom = malloc((n + 1) * sizeof(uint32_t));
	d->rpo = malloc((n + 1) * sizeof(uint32_t));
	d->rpo_index = malloc((n + 1) * sizeof(uint32_t));
	d->depth = calloc(n + 1, sizeof(uint32_t));
	uint32_t *start = malloc((n + 2) * sizeof(uint32_t));
	uint32_t *adj = malloc((2 * (size_t)n + 1) * sizeof(uint32_t));
	if (!d->idom || !d->rpo || !d->rpo_index || !d->depth || !start || !adj ||
	    rpo_build(p, d) != 0) {
		free(start), free(adj);
		weft_dom_free(d);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory building dominators of `%s`",
				      p->kernel ? p->kernel : "?");
	}
	/* the CFG in cfg.h's CSR form (edges to the exit left out) */
	uint32_t ne = 0;
	for (uint32_t b = 0; b < n; b++) {
		start[b] = ne;
		for (uint32_t k = 0; k < p->blocks[b].nsucc; k++)
			if (p->blocks[b].succ[k] < n)
				adj[ne++] = p->blocks[b].succ[k];
	}
	start[n] = ne;
	int rc = n ? weft_cfg_idom(n, 0, start, adj, d->idom, err) : 0;
	free(start), free(adj);
	if (rc) {
		weft_dom_free(d);
		return rc;
	}
	for (uint32_t b = 0; b < n; b++)
		if (d->idom[b] == WEFT_CFG_NONE)
			d->idom[b] = WEFT_NO_BLOCK;
	/* depth: a block's idom precedes it in reverse postorder */
	for (uint32_t i = 1; i < d->nrpo; i++) {
		uint32_t b = d->rpo[i];
		d->depth[b] = d->depth[d->idom[b]] + 1;
	}
	return 0;
}

int weft_dom_dominates(const struct weft_dom *d, uint32_t a, uint32_t b)
{
	if (a >= d->nblocks || b >= d->nblocks || d->idom[a] == WEFT_NO_BLOCK ||
	    d->idom[b] == WEFT_NO_BLOCK)
		return 0;
	while (d->depth[b] > d->depth[a])
		b = d->idom[b];
	return a == b;
}

int weft_pdom_postdominates(const struct weft_program *p, uint32_t a, uint32_t b)
{
	/* the ipdom chain is acyclic and at most nblocks long */
	for (uint32_t steps = 0; b < p->nblocks && steps <= p->nblocks; steps++) {
		if (a == b)
			return 1;
		b = p->blocks[b].ipdom;
	}
	return 0;
}

void weft_dom_free(struct weft_dom *d)
{
	free(d->idom);
	free(d->rpo);
	free(d->rpo_index);
	free(d->depth);
	memset(d, 0, sizeof(*d));
}
