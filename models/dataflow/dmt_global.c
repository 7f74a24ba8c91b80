/*
 * dmt_global.c - does a kernel pass values between threads of a CTA through
 * GLOBAL memory, or order one thread's global access against another's
 * with a barrier? The dMT analysis (dmt_comm.h) removes a barrier when the
 * shared traffic it orders is carried by elevators; a barrier that also
 * orders global memory between threads of the CTA must stay. This file
 * finds such pairs and marks the barriers they cross (dmt_barrier.c): the
 * one that ended the first access's epoch (in its thread's order) and the
 * one that started the second access's epoch (in its thread's order).
 *
 * Only kernels with a barrier and a store that may reach global memory are
 * tracked (the scratch's track_global). The CTA's global accesses are
 * recorded with their barrier epoch and warp (pass A of dmt_comm.c) and
 * replayed one epoch at a time, in the order a stable sort by epoch gives,
 * through a hash table of 4-byte words (kept over the CTA's epochs)
 * holding the word's last writer and the threads that read it since.
 * Only words the CTA stores to are tracked: a word no thread of the CTA
 * writes passes no value and orders nothing, whoever reads it, so its
 * loads are neither recorded nor replayed. A walk over the threads'
 * streams finds those words before pass A (weft_dmt_global_begin); the
 * table then grows with the words the CTA writes, not with every word it
 * reads (sgemm at large size: the 4096 words of its C tile among the 69 632 words
 * of A, B and C it touches).
 * The replay:
 *   - a load of a word last stored by another thread in an earlier epoch,
 *     or earlier in the same warp, counts in d->tot.global_comm (a value
 *     passed through global memory: read after write);
 *   - a store to a word that another thread read (write after read) or
 *     wrote (write after write) in an earlier epoch counts in
 *     d->tot.global_order.
 * Both mark the barriers between the two accesses. Same-epoch accesses of
 * different warps are races and order nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "dmt_internal.h"

int weft_dmt_grec_push(struct dmt_grec **buf, uint64_t *n, uint64_t *cap, const struct dmt_grec *g)
{
	if (weft_dmt_reserve((void **)buf, cap, *n + 1, sizeof(**buf)))
		return WEFT_ERR_NOMEM;
	(*buf)[(*n)++] = *g;
	return 0;
}

static uint64_t word_hash(uint64_t w)
{
	w *= 0x9e3779b97f4a7c15ull;
	return w ^ (w >> 31);
}

/* The set of words (address / 4 + 1) the CTA stores to: an open-addressed
 * table of s->capsw (a power of 2) slots, 0 empty. */
static uint64_t *stored_slot(uint64_t *set, uint64_t cap, uint64_t word)
{
	uint64_t mask = cap - 1, h = word_hash(word) & mask;
	while (set[h] && set[h] != word)
		h = (h + 1) & mask;
	return &set[h];
}

static int stored_add(struct weft_dmt_scratch *s, uint64_t word)
{
	uint64_t *x = stored_slot(s->sw, s->capsw, word);
	if (*x)
		return 0;
	if (2 * (s->nsw + 1) > s->capsw) {
		uint64_t cap = 2 * s->capsw, *nw = calloc(cap, sizeof(*nw));
		if (!nw)
			return WEFT_ERR_NOMEM;
		for (uint64_t i = 0; i < s->capsw; i++)
			if (s->sw[i])
				*stored_slot(nw, cap, s->sw[i]) = s->sw[i];
		free(s->sw);
		s->sw = nw;
		s->capsw = cap;
		x = stored_slot(s->sw, s->capsw, word);
	}
	*x = word;
	s->nsw++;
	return 0;
}

/* Is word (address / 4 + 1) stored to by the CTA? */
static int stored(const struct weft_dmt_scratch *s, uint64_t word)
{
	return *stored_slot(s->sw, s->capsw, word) != 0;
}

int weft_dmt_global_stored(const struct weft_dmt_scratch *s, uint64_t addr, uint32_t bytes)
{
	uint64_t w1 = (addr + (bytes ? bytes : 1) - 1) / 4;
	for (uint64_t w = addr / 4; w <= w1; w++)
		if (stored(s, w + 1))
			return 1;
	return 0;
}

static struct dmt_gword *slot(struct weft_dmt_scratch *s, uint64_t word)
{
	uint64_t mask = s->capgw - 1, h = word_hash(word) & mask;
	while (s->gw[h].word && s->gw[h].word != word)
		h = (h + 1) & mask;
	return &s->gw[h];
}

/* A store of thread wt in epoch we read by thread rt in epoch re > we: the
 * barrier after the store (writer's order) and the one before the load
 * (reader's order) order it. */
static void mark_crossed(struct weft_dmt_scratch *s, uint32_t wt, uint32_t we, uint32_t rt, uint32_t re)
{
	uint32_t b = weft_dmt_barrier_at(s, wt, we);
	if (b != UINT32_MAX)
		s->bar_gcomm[s->baridx[b]] = 1;
	b = weft_dmt_barrier_at(s, rt, re - 1);
	if (b != UINT32_MAX)
		s->bar_gcomm[s->baridx[b]] = 1;
}

/* Doubles the word table (at least 1024 slots), keeping its entries; 0 or
 * WEFT_ERR_NOMEM. */
static int words_grow(struct weft_dmt_scratch *s)
{
	uint64_t oldcap = s->capgw, cap = oldcap ? 2 * oldcap : 1024;
	struct dmt_gword *old = s->gw, *nw = calloc(cap, sizeof(*nw));
	if (!nw)
		return WEFT_ERR_NOMEM;
	s->gw = nw;
	s->capgw = cap;
	for (uint64_t i = 0; i < oldcap; i++)
		if (old[i].word)
			*slot(s, old[i].word) = old[i];
	free(old);
	return 0;
}

/* The table slot of word (address / 4 + 1), created empty (the table
 * doubles when it would be more than half full: *nwords counts its
 * words); NULL: out of memory. */
static struct dmt_gword *word_at(struct weft_dmt_scratch *s, uint64_t word, uint64_t *nwords)
{
	struct dmt_gword *x = slot(s, word);
	if (!x->word) {
		if (2 * (*nwords + 1) > s->capgw) {
			if (words_grow(s))
				return NULL;
			x = slot(s, word);
		}
		(*nwords)++;
		memset(x, 0, sizeof(*x));
		x->word = word;
	}
	return x;
}

int weft_dmt_global_init(struct weft_dmt *d)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	s->gflag_start = calloc((size_t)p->nblocks + 1, sizeof(uint32_t));
	s->gflag_pcs = malloc(((size_t)p->ninsts + 1) * sizeof(uint32_t));
	if (!s->gflag_start || !s->gflag_pcs)
		return WEFT_ERR_NOMEM;
	uint32_t n = 0;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		s->gflag_start[b] = n;
		const struct weft_block *B = &p->blocks[b];
		for (uint32_t pc = B->first; pc < B->first + B->count; pc++)
			if (p->iflags[pc] & (WEFT_II_GUARD | WEFT_II_ADDR))
				s->gflag_pcs[n++] = pc;
	}
	s->gflag_start[p->nblocks] = n;
	return 0;
}

/* Adds the words the thread stores to. Its stream read as
 * weft_thread_iter_next reads it (trace.h), but only at the instructions
 * that take a guard bit or an address (s->gflag_*). */
static int stored_thread(struct weft_dmt_scratch *s, const struct weft_program *p,
			 const struct weft_thread_trace *T)
{
	uint32_t gi = 0, ai = 0;
	for (uint32_t bi = 0; bi < T->nblocks; bi++) {
		uint32_t b = T->blocks[bi];
		for (uint32_t j = s->gflag_start[b]; j < s->gflag_start[b + 1]; j++) {
			uint32_t pc = s->gflag_pcs[j];
			uint8_t f = p->iflags[pc];
			int exec = 1;
			if (f & WEFT_II_GUARD)
				exec = T->guards[gi++];
			else if (f & WEFT_II_GCTRL)
				exec = bi + 1 < T->nblocks ? T->blocks[bi + 1] != b + 1 : 1;
			if (!(f & WEFT_II_ADDR) || !exec)
				continue;
			uint32_t a = ai++;
			uint8_t k = s->kind[pc];
			if (T->spaces[a] != WEFT_SPACE_GLOBAL || (k != DMT_K_STORE && k != DMT_K_ATOMIC))
				continue;
			uint32_t bytes = p->info[pc].access_bytes;
			uint64_t addr = weft_thread_addr(T, a), w1 = (addr + (bytes ? bytes : 1) - 1) / 4;
			for (uint64_t w = addr / 4; w <= w1; w++)
				if (stored_add(s, w + 1))
					return WEFT_ERR_NOMEM;
		}
	}
	return 0;
}

int weft_dmt_global_begin(struct weft_dmt *d, const struct weft_cta_trace *c)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	/* the words the CTA stores to (pass A records a global access when the
	 * trace resolved its space to global: the same test here) */
	if (!s->capsw) {
		s->sw = malloc(1024 * sizeof(*s->sw));
		if (!s->sw)
			return WEFT_ERR_NOMEM;
		s->capsw = 1024;
	}
	memset(s->sw, 0, s->capsw * sizeof(*s->sw));
	s->nsw = 0;
	for (uint32_t t = 0; t < c->nthreads; t++)
		if (stored_thread(s, p, &c->threads[t]))
			return WEFT_ERR_NOMEM;
	/* one slot per distinct word the CTA touches (at most half full),
	 * grown as words come and kept for the next CTA; it was sized by the
	 * CTA's accesses before, which grew with the CTA's length (sgemm: 16
	 * MB at large size) where its words are far fewer */
	if (!s->capgw && words_grow(s))
		return WEFT_ERR_NOMEM;
	memset(s->gw, 0, s->capgw * sizeof(*s->gw));
	s->ngw = 0;
	return 0;
}

int weft_dmt_global_replay(struct weft_dmt *d)
{
	struct weft_dmt_scratch *s = d->s;
	/* A CTA without a global store orders nothing and passes nothing
	 * (a load counts only a word some store wrote): its words were not
	 * replayed before, and replaying them changes no count. */
	uint64_t n = s->ngrec, *words = &s->ngw;
	s->ngrec = 0;
	for (uint64_t i = 0; i < n; i++) {
		const struct dmt_grec *g = &s->grec[i];
		uint64_t w0 = g->addr / 4, w1 = (g->addr + (g->bytes ? g->bytes : 1) - 1) / 4;
		if (g->kind == DMT_K_LOAD || g->kind == DMT_K_ATOMIC) {
			int comm = 0;
			for (uint64_t w = w0; w <= w1; w++) {
				if (!stored(s, w + 1))
					continue;
				struct dmt_gword *x = word_at(s, w + 1, words);
				if (!x)
					return WEFT_ERR_NOMEM;
				if (!comm && x->written && x->tid != g->tid &&
				    (x->epoch < g->epoch || x->warp == g->warp)) {
					comm = 1;
					d->tot.global_comm++;
					if (x->epoch < g->epoch)
						mark_crossed(s, x->tid, x->epoch, g->tid, g->epoch);
				}
				if (!x->read) {
					x->read = 1;
					x->rtid = g->tid, x->repoch = g->epoch;
				} else if (x->rtid != g->tid) {
					x->rmulti = 1;
				}
			}
		}
		if (g->kind == DMT_K_STORE || g->kind == DMT_K_ATOMIC) {
			int order = 0;
			for (uint64_t w = w0; w <= w1; w++) {
				struct dmt_gword *x = word_at(s, w + 1, words);
				if (!x)
					return WEFT_ERR_NOMEM;
				/* reads come in epoch order: repoch is the earliest */
				if (x->read && (x->rmulti || x->rtid != g->tid) && x->repoch < g->epoch) {
					order = 1;
					mark_crossed(s, x->rtid, x->repoch, g->tid, g->epoch);
				}
				if (x->written && x->tid != g->tid && x->epoch < g->epoch) {
					order = 1;
					mark_crossed(s, x->tid, x->epoch, g->tid, g->epoch);
				}
				x->written = 1;
				x->tid = g->tid, x->epoch = g->epoch, x->warp = g->warp;
				x->read = x->rmulti = 0;
			}
			d->tot.global_order += (uint64_t)order;
		}
	}
	return 0;
}

void weft_dmt_global_free(struct weft_dmt_scratch *s)
{
	free(s->grec), free(s->gw), free(s->sw), free(s->gflag_start), free(s->gflag_pcs);
}
