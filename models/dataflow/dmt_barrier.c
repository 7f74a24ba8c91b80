/*
 * dmt_barrier.c - what each barrier of a kernel orders, and which barriers
 * a dMT compilation no longer needs (dmt_comm.h, rule BARRIER).
 *
 * A barrier orders the accesses of the epoch that ends at it against
 * those of the epoch that starts after it. Every recorded shared access
 * (thread t, epoch e, pc a) marks a as "after" the barrier that ended
 * t's epoch e - 1 and "before" the one that ends its epoch e (bar_adj, one
 * bit pair per static barrier and memory instruction, summed over CTAs;
 * pass A of dmt_comm.c marks them as the thread meets the access and the
 * barrier). Where global accesses are tracked, pass A also notes the
 * barriers each thread passed, in its order (dmt_tbar): barrier e of
 * thread t is the one that ended its epoch e. A global access ordered
 * against another thread's access of the word in an earlier epoch
 * (dmt_global.c: read after write, write after read, write after write)
 * marks the barrier after the earlier access in its thread's order and the
 * one before the later access in its thread's order (bar_gcomm).
 *
 * Decision: a bar.sync / barrier.sync goes when its neighbouring epochs
 * hold at least one removed shared access, no kept one, and no global
 * ordering crosses it. Any pair of kept accesses in different epochs
 * keeps the barrier right after the earlier one (it is a neighbour), so
 * every ordering that still goes through memory keeps a barrier between
 * its two ends. bar.red (a barrier that also reduces a value) always stays.
 */
#include <stdlib.h>
#include <string.h>

#include "dmt_internal.h"

int weft_dmt_barrier_init(struct weft_dmt *d)
{
	struct weft_dmt_scratch *s = d->s;
	uint32_t n = d->ninsts ? d->ninsts : 1;
	s->baridx = malloc(n * sizeof(uint32_t));
	s->barpc = malloc(n * sizeof(uint32_t));
	if (!s->baridx || !s->barpc)
		return WEFT_ERR_NOMEM;
	s->nbar = 0;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		s->baridx[pc] = UINT32_MAX;
		if (s->is_bar[pc]) {
			s->baridx[pc] = s->nbar;
			s->barpc[s->nbar++] = pc;
		}
	}
	s->bar_adj = calloc((size_t)s->nbar * s->nmem + 1, 1);
	s->bar_gcomm = calloc((size_t)s->nbar + 1, 1);
	if (!s->bar_adj || !s->bar_gcomm)
		return WEFT_ERR_NOMEM;
	return 0;
}

void weft_dmt_barrier_free(struct weft_dmt_scratch *s)
{
	free(s->baridx), free(s->barpc), free(s->bar_adj), free(s->bar_gcomm);
	for (uint32_t t = 0; t < s->captbar; t++)
		free(s->tbar[t].pc);
	free(s->tbar);
}

int weft_dmt_barrier_begin(struct weft_dmt_scratch *s, uint32_t nthreads)
{
	if (nthreads > s->captbar) {
		struct dmt_tbar *t = realloc(s->tbar, (size_t)nthreads * sizeof(*t));
		if (!t)
			return WEFT_ERR_NOMEM;
		memset(t + s->captbar, 0, (size_t)(nthreads - s->captbar) * sizeof(*t));
		s->tbar = t;
		s->captbar = nthreads;
	}
	for (uint32_t t = 0; t < nthreads; t++)
		s->tbar[t].n = 0;
	return 0;
}

int weft_dmt_barrier_pass(struct weft_dmt_scratch *s, uint32_t tid, uint32_t pc)
{
	struct dmt_tbar *b = &s->tbar[tid];
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 16;
		uint32_t *np = cap > b->cap ? realloc(b->pc, (size_t)cap * sizeof(*np)) : NULL;
		if (!np)
			return WEFT_ERR_NOMEM;
		b->pc = np;
		b->cap = cap;
	}
	b->pc[b->n++] = pc;
	return 0;
}

uint32_t weft_dmt_barrier_at(const struct weft_dmt_scratch *s, uint32_t tid, uint32_t e)
{
	return e < s->tbar[tid].n ? s->tbar[tid].pc[e] : UINT32_MAX;
}

void weft_dmt_barrier_orders(const struct weft_dmt *d, uint32_t pc, uint32_t *nkept, uint32_t *nremoved,
			uint32_t *kept_pc, int *gcomm)
{
	const struct weft_dmt_scratch *s = d->s;
	*nkept = *nremoved = 0;
	*kept_pc = UINT32_MAX;
	*gcomm = 0;
	if (!s || pc >= d->ninsts || s->baridx[pc] == UINT32_MAX)
		return;
	uint32_t b = s->baridx[pc];
	*gcomm = s->bar_gcomm[b];
	for (uint32_t j = 0; j < s->nmem; j++) {
		if (!s->bar_adj[(size_t)b * s->nmem + j])
			continue;
		uint32_t a = s->mempc[j];
		if (d->inst[a].removal) {
			(*nremoved)++;
		} else {
			if (!*nkept)
				*kept_pc = a;
			(*nkept)++;
		}
	}
}

void weft_dmt_barrier_decide(struct weft_dmt *d)
{
	const struct weft_program *p = d->p;
	const struct weft_dmt_scratch *s = d->s;
	for (uint32_t i = 0; i < s->nbar; i++) {
		uint32_t pc = s->barpc[i];
		if (!d->inst[pc].exec)
			continue;
		uint32_t nk, nr, kpc;
		int gc;
		weft_dmt_barrier_orders(d, pc, &nk, &nr, &kpc, &gc);
		if (gc)
			d->tot.bars_kept_global++;
		else if (nk)
			d->tot.bars_kept_shared++;
		if (p->insts[pc].mode == WEFT_BAR_SYNC && !gc && !nk && nr)
			d->inst[pc].removal = WEFT_DMT_RM_BARRIER;
	}
}
