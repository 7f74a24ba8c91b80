/*
 * loops.c - natural loops, their nesting forest, latches and exits
 * (analysis.h).
 *
 * A back edge is an edge t -> h whose target dominates its source; the loop
 * of header h is h plus every block that reaches one of its back-edge
 * sources without passing through h (all back edges to one header make one
 * loop, as in LLVM's LoopInfo). Retreating edges whose target does not
 * dominate the source belong to irreducible regions: they are counted, not
 * turned into loops (nvcc does not emit them for structured CUDA code).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int weft_loop_contains(const struct weft_loops *l, uint32_t li, uint32_t b)
{
	const struct weft_loop *lp = &l->loops[li];
	uint32_t lo = 0, hi = lp->nblocks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (lp->blocks[mid] == b)
			return 1;
		if (lp->blocks[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int nomem(struct weft_loops *l, struct weft_error *err)
{
	weft_loops_free(l);
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory finding loops");
}

int weft_loops_build(const struct weft_program *p, const struct weft_dom *d,
		     struct weft_loops *l, struct weft_error *err)
{
	memset(l, 0, sizeof(*l));
	uint32_t n = p->nblocks;
	l->nblocks = n;
	l->innermost = malloc((n + 1) * sizeof(uint32_t));
	uint32_t *pstart = calloc(n + 2, sizeof(uint32_t));
	uint32_t *is_header = calloc(n + 1, sizeof(uint32_t));
	uint32_t *inloop = calloc(n + 1, sizeof(uint32_t)); /* stamp: loop index + 1 */
	uint32_t *work = malloc((n + 1) * sizeof(uint32_t));
	uint32_t nedges = 0;
	for (uint32_t b = 0; b < n; b++)
		nedges += p->blocks[b].nsucc;
	uint32_t *preds = malloc((nedges + 1) * sizeof(uint32_t));
	uint32_t *fill = calloc(n + 1, sizeof(uint32_t));
	if (!l->innermost || !pstart || !is_header || !inloop || !work || !preds || !fill)
		goto oom;
	for (uint32_t b = 0; b < n; b++) {
		l->innermost[b] = WEFT_NO_LOOP;
		for (uint32_t k = 0; k < p->blocks[b].nsucc; k++)
			if (p->blocks[b].succ[k] < n)
				pstart[p->blocks[b].succ[k] + 1]++;
	}
	for (uint32_t b = 0; b < n; b++)
		pstart[b + 1] += pstart[b];
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = 0; k < p->blocks[b].nsucc; k++) {
			uint32_t s = p->blocks[b].succ[k];
			if (s < n)
				preds[pstart[s] + fill[s]++] = b;
		}

	/* headers, in reverse postorder so that parents come first */
	for (uint32_t i = 0; i < d->nrpo; i++) {
		uint32_t b = d->rpo[i];
		for (uint32_t k = 0; k < p->blocks[b].nsucc; k++) {
			uint32_t s = p->blocks[b].succ[k];
			if (s >= n)
				continue;
			if (weft_dom_dominates(d, s, b))
				is_header[s] = 1;
			else if (d->rpo_index[s] <= i)
				l->nirreducible++;
		}
	}
	uint32_t nl = 0;
	for (uint32_t i = 0; i < d->nrpo; i++)
		nl += is_header[d->rpo[i]] != 0;
	l->loops = calloc(nl + 1, sizeof(struct weft_loop));
	if (!l->loops)
		goto oom;
	for (uint32_t i = 0; i < d->nrpo; i++) {
		uint32_t h = d->rpo[i];
		if (!is_header[h])
			continue;
		uint32_t li = l->nloops++;
		struct weft_loop *lp = &l->loops[li];
		lp->header = h;
		lp->parent = WEFT_NO_LOOP;
		/* latches */
		uint32_t nlat = 0;
		for (uint32_t k = pstart[h]; k < pstart[h + 1]; k++)
			if (weft_dom_dominates(d, h, preds[k]))
				nlat++;
		lp->latches = malloc((nlat + 1) * sizeof(uint32_t));
		if (!lp->latches)
			goto oom;
		/* body: backward walk from the latches, stopping at h */
		uint32_t stamp = li + 1, sp = 0, nb = 1;
		inloop[h] = stamp;
		for (uint32_t k = pstart[h]; k < pstart[h + 1]; k++) {
			uint32_t t = preds[k];
			if (!weft_dom_dominates(d, h, t))
				continue;
			int dup = 0;
			for (uint32_t j = 0; j < lp->nlatches; j++)
				dup |= lp->latches[j] == t;
			if (!dup)
				lp->latches[lp->nlatches++] = t;
			if (inloop[t] != stamp) {
				inloop[t] = stamp;
				work[sp++] = t;
				nb++;
			}
		}
		while (sp) {
			uint32_t b = work[--sp];
			for (uint32_t k = pstart[b]; k < pstart[b + 1]; k++) {
				uint32_t q = preds[k];
				/* unreachable predecessors are not part of any loop */
				if (inloop[q] == stamp || d->rpo_index[q] == UINT32_MAX)
					continue;
				inloop[q] = stamp;
				work[sp++] = q;
				nb++;
			}
		}
		lp->blocks = malloc(nb * sizeof(uint32_t));
		if (!lp->blocks)
			goto oom;
		for (uint32_t b = 0; b < n; b++)
			if (inloop[b] == stamp)
				lp->blocks[lp->nblocks++] = b;
		qsort(lp->latches, lp->nlatches, sizeof(uint32_t), cmp_u32);
		/* exits */
		uint32_t nx = 0;
		for (uint32_t j = 0; j < lp->nblocks; j++) {
			const struct weft_block *bl = &p->blocks[lp->blocks[j]];
			for (uint32_t k = 0; k < bl->nsucc; k++)
				nx += bl->succ[k] >= n || inloop[bl->succ[k]] != stamp;
		}
		lp->exits = malloc((nx + 1) * sizeof(struct weft_edge));
		if (!lp->exits)
			goto oom;
		for (uint32_t j = 0; j < lp->nblocks; j++) {
			const struct weft_block *bl = &p->blocks[lp->blocks[j]];
			for (uint32_t k = 0; k < bl->nsucc; k++)
				if (bl->succ[k] >= n || inloop[bl->succ[k]] != stamp)
					lp->exits[lp->nexits++] =
						(struct weft_edge){ lp->blocks[j], bl->succ[k] };
		}
	}
	/* nesting: the innermost earlier loop holding the header is the parent
	 * (loops with distinct headers are nested or disjoint, and an enclosing
	 * loop's header precedes in reverse postorder) */
	for (uint32_t li = 0; li < l->nloops; li++) {
		struct weft_loop *lp = &l->loops[li];
		for (uint32_t pj = li; pj-- > 0;)
			if (weft_loop_contains(l, pj, lp->header)) {
				lp->parent = pj;
				l->loops[pj].nchildren++;
				break;
			}
		lp->depth = lp->parent == WEFT_NO_LOOP ? 1 : l->loops[lp->parent].depth + 1;
		for (uint32_t j = 0; j < lp->nblocks; j++) {
			uint32_t b = lp->blocks[j], cur = l->innermost[b];
			if (cur == WEFT_NO_LOOP || l->loops[cur].depth < lp->depth)
				l->innermost[b] = li;
		}
	}
	free(pstart), free(is_header), free(inloop), free(work), free(preds), free(fill);
	return 0;
oom:
	free(pstart), free(is_header), free(inloop), free(work), free(preds), free(fill);
	return nomem(l, err);
}

void weft_loops_free(struct weft_loops *l)
{
	for (uint32_t i = 0; l->loops && i < l->nloops; i++) {
		free(l->loops[i].blocks);
		free(l->loops[i].latches);
		free(l->loops[i].exits);
	}
	free(l->loops);
	free(l->innermost);
	memset(l, 0, sizeof(*l));
}
