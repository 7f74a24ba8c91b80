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
 * recorded with their barrier epoch and warp (pass A of dmt_comm.c),
 * stably sorted by epoch, and replayed through a hash table of 4-byte
 * words holding the word's last writer and the threads that read it since:
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

int weft_dmt_global_push(struct weft_dmt_scratch *s, uint64_t addr, uint32_t tid, uint32_t epoch,
		    uint32_t warp, uint8_t kind, uint8_t bytes)
{
	if (weft_dmt_reserve((void **)&s->grec, &s->capgrec, s->ngrec + 1, sizeof(*s->grec)))
		return WEFT_ERR_NOMEM;
	struct dmt_grec *g = &s->grec[s->ngrec++];
	g->addr = addr, g->tid = tid, g->epoch = epoch, g->warp = warp;
	g->kind = kind, g->bytes = bytes;
	return 0;
}

static uint64_t word_hash(uint64_t w)
{
	w *= 0x9e3779b97f4a7c15ull;
	return w ^ (w >> 31);
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

int weft_dmt_global_replay(struct weft_dmt *d)
{
	struct weft_dmt_scratch *s = d->s;
	uint64_t n = s->ngrec, words = 0;
	int any_store = 0;
	s->ngrec = 0;
	if (!n)
		return 0;
	uint32_t maxe = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (s->grec[i].epoch > maxe)
			maxe = s->grec[i].epoch;
		any_store |= s->grec[i].kind != DMT_K_LOAD;
	}
	if (!any_store)
		return 0; /* no store in this CTA: nothing to order */
	if (weft_dmt_reserve((void **)&s->grec2, &s->capgrec2, n, sizeof(*s->grec2)) ||
	    weft_dmt_reserve((void **)&s->gepoch_count, &s->capgepoch, (uint64_t)maxe + 2, sizeof(uint32_t)))
		return WEFT_ERR_NOMEM;
	memset(s->gepoch_count, 0, ((size_t)maxe + 2) * sizeof(uint32_t));
	for (uint64_t i = 0; i < n; i++)
		s->gepoch_count[s->grec[i].epoch + 1]++;
	for (uint32_t e = 1; e <= maxe + 1; e++)
		s->gepoch_count[e] += s->gepoch_count[e - 1];
	for (uint64_t i = 0; i < n; i++)
		s->grec2[s->gepoch_count[s->grec[i].epoch]++] = s->grec[i];
	/* one slot per distinct word the CTA touches (at most half full),
	 * grown as words come and kept for the next CTA; it was sized by the
	 * CTA's accesses before, which grew with the CTA's length (sgemm: 16
	 * MB at large size) where its words are far fewer */
	if (!s->capgw && words_grow(s))
		return WEFT_ERR_NOMEM;
	memset(s->gw, 0, s->capgw * sizeof(*s->gw));
	for (uint64_t i = 0; i < n; i++) {
		const struct dmt_grec *g = &s->grec2[i];
		uint64_t w0 = g->addr / 4, w1 = (g->addr + (g->bytes ? g->bytes : 1) - 1) / 4;
		if (g->kind == DMT_K_LOAD || g->kind == DMT_K_ATOMIC) {
			int comm = 0;
			for (uint64_t w = w0; w <= w1; w++) {
				struct dmt_gword *x = word_at(s, w + 1, &words);
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
				struct dmt_gword *x = word_at(s, w + 1, &words);
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
	free(s->grec), free(s->grec2), free(s->gepoch_count), free(s->gw);
}
