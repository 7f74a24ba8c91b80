/*
 * simt_sm.c - the SMs of the SIMT model in simulated time: CTAs dispatched
 * to resident slots as slots free, their warps issued by each SM's
 * schedulers (GTO or loose round robin) through a per-warp scoreboard, the
 * SP / SFU / LD-ST units with their initiation intervals, barriers, and
 * the CPI stack: every cycle of every scheduler goes to one component
 * (simt.c has the equations; simt_memsys.c times the memory side).
 *
 * The simulation is event driven and never steps idle cycles: each
 * scheduler has a next action time; the machine repeatedly takes the
 * scheduler with the earliest one (a heap), which either issues a warp
 * instruction (and is busy issue_cycles) or finds none ready and sleeps
 * until the earliest time one of its warps can issue (a dependency, a busy
 * unit, a draining warp), or indefinitely when its warps all wait at a
 * barrier or it has none. A stall [a, b) is charged to what the warp that
 * ends it waited for, split over that wait's phases (simt.h simt_why).
 *
 * Work per warp instruction: the scheduler's search (its warps, oldest
 * first), the scoreboard reads of the next instruction, a heap update.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt.h"

/* ---- CPI accounting ---- */

static void why_simple(struct simt_why *w, uint8_t c, double end)
{
	w->end = end;
	w->n = 1;
	w->c[0] = c;
	w->d[0] = 0; /* everything before end goes to c[0] */
}

/* Copies a why's meaningful fields (end, n and the first n phases) one
 * by one: a whole-struct copy of a why that was just written field by
 * field stalls on store forwarding; the phases past n are never read. */
static inline void why_copy(struct simt_why *dst, const struct simt_why *src)
{
	dst->end = src->end;
	dst->n = src->n;
	for (uint8_t i = 0; i < src->n; i++) {
		dst->c[i] = src->c[i];
		dst->d[i] = src->d[i];
	}
}

/* Charges [a, b) to w's components in proportion to how long each of its
 * phases lasted (simt.h simt_why): a load that queued 800 cycles at a DRAM
 * channel and then took its 550-cycle round trip gives 59% of any stall
 * it causes to dram_queue and 41% to dram. */
static void charge(double *cpi, const struct simt_why *w, double a, double b)
{
	if (b <= a)
		return;
	double len = b - a, total = 0;
	for (uint8_t i = 0; i < w->n; i++)
		total += w->d[i];
	if (!w->n) {
		cpi[SIMT_CPI_IDLE] += len;
		return;
	}
	if (total <= 0) {
		cpi[w->c[0]] += len;
		return;
	}
	for (uint8_t i = 0; i < w->n; i++)
		cpi[w->c[i]] += len * (w->d[i] / total);
}

/* ---- the scheduler heap (key: next action time, then id) ---- */

/* Earlier action first; at the same time, the scheduler that has waited
 * longer (accounted up to an earlier time: it did not issue last) goes
 * first, so schedulers of an SM contending for its LD/ST unit or SFU
 * take turns; then the lower id. */
static inline int before(const struct simt_hent *a, const struct simt_hent *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	return a->acct < b->acct || (a->acct == b->acct && a->id < b->id);
}

static inline void heap_set(struct simt_state *s, uint32_t i, const struct simt_hent *e)
{
	s->heap[i] = *e;
	e->S->hpos = i;
}

static void heap_up(struct simt_state *s, uint32_t i)
{
	struct simt_hent e = s->heap[i];
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(&e, &s->heap[p]))
			break;
		heap_set(s, i, &s->heap[p]);
		i = p;
	}
	heap_set(s, i, &e);
}

static void heap_down(struct simt_state *s, uint32_t i)
{
	struct simt_hent e = s->heap[i];
	uint32_t n = s->nheap;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!before(&s->heap[c], &e))
			break;
		heap_set(s, i, &s->heap[c]);
		i = c;
	}
	heap_set(s, i, &e);
}

/* Puts scheduler S at its (new) time: inserted, moved, or removed when
 * its time is infinite. */
static void heap_update(struct simt_state *s, struct simt_sched *S)
{
	if (isinf(S->t)) {
		if (S->hpos == UINT32_MAX)
			return;
		uint32_t i = S->hpos;
		S->hpos = UINT32_MAX;
		struct simt_hent last = s->heap[--s->nheap];
		if (i < s->nheap) {
			heap_set(s, i, &last);
			heap_up(s, i);
			heap_down(s, last.S->hpos);
		}
		return;
	}
	struct simt_hent e = { S->t, S->acct, S, S->id };
	if (S->hpos == UINT32_MAX) {
		S->hpos = s->nheap++;
		heap_set(s, S->hpos, &e);
		heap_up(s, S->hpos);
		return;
	}
	uint32_t i = S->hpos;
	int up = i > 0 && before(&e, &s->heap[(i - 1) / 2]);
	s->heap[i] = e;
	if (up)
		heap_up(s, i);
	else
		heap_down(s, i);
}

/* Wakes scheduler k of SM m at time x if it would act later. */
static void wake(struct simt_state *s, uint32_t m, uint32_t k, double x)
{
	struct simt_sched *S = &s->sms[m].sched[k];
	if (x < S->acct)
		x = S->acct; /* still issuing: it is accounted up to acct */
	if (S->t > x) {
		S->t = x;
		heap_update(s, S);
	}
}

/* ---- warps ---- */

static const struct simt_why no_wait = { .end = -INFINITY, .n = 0 };

/* The scoreboard wait of warp W's next instruction: its sources and
 * destinations (no overtaking of a pending write), and under warp_serial
 * the previous instruction's completion. */
static void head_dep(const struct simt_state *s, struct simt_warp *W)
{
	const struct simt_pc *pi = &s->pc[W->rec[W->i].pc];
	const uint32_t *r = s->deps + pi->dep0;
	double t = -INFINITY;
	uint32_t best = UINT32_MAX;
	for (uint32_t k = 0; k < pi->ndep; k++) {
		double e = W->rend[r[k]];
		if (e > t) {
			t = e;
			best = r[k];
		}
	}
	/* (reg[r].end == rend[r]: the end is t, and the why is not read
	 * here, only when a stall is charged to it) */
	const struct simt_why *w = best == UINT32_MAX ? &no_wait : &W->reg[best];
	if (s->sp.warp_serial && W->prev.end > t) {
		w = &W->prev;
		t = W->prev.end;
	}
	W->dep = w;
	W->dep_end = t;
	W->unit = pi->unit;
}

/* Rewrites warp W's entry beside its scheduler's list (simt.h simt_sched
 * key/code) from its state, dep_end, unit and last_end. */
static inline void hot_sync(struct simt_sm *sm, const struct simt_warp *W)
{
	struct simt_sched *S = &sm->sched[W->sched];
	uint32_t j = W->pos;
	switch (W->state) {
	case SIMT_W_READY:
		S->code[j] = W->unit;
		S->key[j] = W->dep_end;
		break;
	case SIMT_W_DRAIN:
		S->code[j] = SIMT_HOT_DRAIN;
		S->key[j] = W->last_end;
		break;
	case SIMT_W_BAR:
		S->code[j] = SIMT_HOT_BAR;
		break;
	default:
		S->code[j] = SIMT_HOT_FREE;
		break;
	}
}

uint32_t weft_simt_sched_mismatches(const struct simt_state *s)
{
	uint32_t bad = 0;
	uint32_t nw = s->occ.ctas * s->occ.warps_per_cta;
	for (uint32_t m = 0; m < s->sp.num_sm; m++) {
		const struct simt_sm *sm = &s->sms[m];
		uint32_t listed = 0, live = 0;
		for (uint32_t k = 0; k < s->sp.schedulers; k++) {
			const struct simt_sched *S = &sm->sched[k];
			for (uint32_t j = 0; j < S->nw; j++, listed++) {
				const struct simt_warp *W = &sm->warps[S->w[j]];
				int ok = W->pos == j && W->sched == k;
				switch (W->state) {
				case SIMT_W_READY:
					ok &= S->code[j] == W->unit && S->key[j] == W->dep_end;
					break;
				case SIMT_W_DRAIN:
					ok &= S->code[j] == SIMT_HOT_DRAIN && S->key[j] == W->last_end;
					break;
				case SIMT_W_BAR:
					ok &= S->code[j] == SIMT_HOT_BAR;
					break;
				default:
					ok = 0; /* a free warp stays in no list */
				}
				bad += !ok;
			}
		}
		for (uint32_t i = 0; i < nw && i < sm->nwarps_cap; i++)
			live += sm->warps[i].state != SIMT_W_FREE;
		bad += live > listed ? live - listed : listed - live;
	}
	return bad;
}

/* Takes warp wi (at its position W->pos) out of scheduler S's list; the
 * later warps move down one place. */
static void sched_remove(struct simt_sm *sm, struct simt_sched *S, uint32_t wi)
{
	uint32_t j = sm->warps[wi].pos, n = S->nw - j - 1;
	memmove(S->w + j, S->w + j + 1, n * sizeof(*S->w));
	memmove(S->key + j, S->key + j + 1, n * sizeof(*S->key));
	memmove(S->code + j, S->code + j + 1, n * sizeof(*S->code));
	S->nw--;
	for (uint32_t q = j; q < S->nw; q++)
		sm->warps[S->w[q]].pos = q;
	if (S->greedy == (int32_t)wi)
		S->greedy = -1;
	if (S->rr > j && S->rr)
		S->rr--;
}

/* ---- barriers and CTA completion ---- */

static void slot_check(struct simt_state *s, uint32_t m, struct simt_slot *sl, double t)
{
	struct simt_sm *sm = &s->sms[m];
	if (sl->arrived && sl->arrived + sl->exited == sl->nw) {
		/* every warp still running is at the barrier: all leave at the
		 * latest arrival */
		double x = sl->bar_max > t ? sl->bar_max : t;
		for (uint32_t w = 0; w < sl->nw; w++) {
			struct simt_warp *W = &sm->warps[sl->warp0 + w];
			if (W->state != SIMT_W_BAR)
				continue;
			W->state = SIMT_W_READY;
			if (x > W->dep_end) {
				why_simple(&W->own, SIMT_CPI_BARRIER, x);
				W->dep = &W->own;
				W->dep_end = x;
			}
			hot_sync(sm, W);
		}
		sl->arrived = 0;
		sl->bar_max = 0;
		s->ls.barriers++;
		for (uint32_t k = 0; k < s->sp.schedulers; k++)
			wake(s, m, k, x);
	}
	if (sl->state == SIMT_SLOT_RUNNING && sl->exited == sl->nw) {
		double f = t;
		for (uint32_t w = 0; w < sl->nw; w++) {
			const struct simt_warp *W = &sm->warps[sl->warp0 + w];
			if (W->last_end > f)
				f = W->last_end;
		}
		sl->state = SIMT_SLOT_FINISHING;
		sl->free_at = f;
		if (f < s->next_free)
			s->next_free = f;
		if (s->ndone < s->done_cap) /* a sampled launch (simt.c sampled_cycles) */
			s->done_at[s->ndone++] = f;
	}
}

/* ---- issuing one warp instruction ---- */

static void issue(struct simt_state *s, uint32_t m, uint32_t k, uint32_t wi, double t)
{
	const struct simt_params *sp = &s->sp;
	struct simt_sm *sm = &s->sms[m];
	struct simt_sched *S = &sm->sched[k];
	struct simt_warp *W = &sm->warps[wi];
	const struct simt_rec *r = &W->rec[W->i];
	const struct simt_pc *pi = &s->pc[r->pc];
	double R = sp->issue_cycles;

	/* (its counts and events were added when its CTA was dispatched;
	 * the issue cycles' split by working lanes is s->issue_split) */
	S->cpi[SIMT_CPI_ISSUE] += s->issue_split[r->lanes][0];
	S->cpi[SIMT_CPI_DIVERGENCE] += s->issue_split[r->lanes][1];

	struct simt_why res;
	res.n = 0;
	if (pi->unit == SIMT_U_LDST) {
		double before_free = sm->ldst_free;
		weft_simt_mem_issue(s, sm, pi, &sm->slot[W->slot].st, r, t, &res);
		s->ls.busy[SIMT_B_LDST] += sm->ldst_free - (t > before_free ? t : before_free);
		if (r->sh && pi->is_store)
			W->store_done = res.end > W->store_done ? res.end : W->store_done;
	} else {
		if (pi->unit == SIMT_U_SFU) {
			sm->sfu_free = t + pi->occupy;
			s->ls.busy[SIMT_B_SFU] += pi->occupy;
		} else {
			sm->sp_free[k] = t + pi->occupy;
		}
		res.end = t + pi->bank_extra + pi->latency;
		res.n = 0;
		if (pi->bank_extra) {
			res.c[res.n] = SIMT_CPI_RF_BANK;
			res.d[res.n++] = (float)pi->bank_extra;
		}
		res.c[res.n] = pi->wait_cpi;
		res.d[res.n++] = (float)pi->latency;
	}
	for (uint32_t k = pi->dep0 + pi->nusedep; k < pi->dep0 + pi->ndep; k++) {
		uint32_t reg = s->deps[k];
		W->reg[reg] = res;
		W->rend[reg] = res.end;
	}
	if (res.end > W->last_end) {
		W->last = res;
		W->last_end = res.end;
	}
	if (sp->warp_serial) /* head_dep reads it only then */
		W->prev = res;

	struct simt_slot *sl = &sm->slot[W->slot];
	W->i++;
	/* the warp's records were written on a decoder thread: ask for the
	 * line after the next record's ahead of its issue */
	__builtin_prefetch(W->rec + W->i + 2);
	int exits = W->i == W->n;
	if (pi->is_barrier && !exits) {
		double arrive = t + R > W->store_done ? t + R : W->store_done;
		W->state = SIMT_W_BAR;
		sl->arrived++;
		if (arrive > sl->bar_max)
			sl->bar_max = arrive;
	}
	if (exits) {
		W->state = SIMT_W_DRAIN;
		sl->exited++;
	} else {
		head_dep(s, W);
	}
	hot_sync(sm, W);
	S->greedy = (int32_t)wi;
	/* only an arrival or an exit can complete a barrier or the CTA (both
	 * were checked after the previous change of either count) */
	if (W->state != SIMT_W_READY)
		slot_check(s, m, sl, t);
}

/* ---- one scheduler action ---- */

/* GTO's search after the greedy warp, in two passes over the list's
 * key/code (oldest first), each with one data-dependent branch: the first
 * finds the oldest warp that can issue at t, dropping finished draining
 * warps it meets (as one combined pass would); only when none can issue,
 * the second finds the oldest warp waiting to issue, the earliest time any
 * can issue or finish (the first such on ties), and whether any waits at a
 * barrier. Returns the warp to issue, or -1. */
static int32_t gto_search(struct simt_sm *sm, struct simt_sched *S, const double *uf, double t,
			  double *best_out, uint32_t *bw_out, uint32_t *old_out, int *any_bar_out)
{
	/* by code (simt.h SIMT_HOT_*): the time the entry is acted on is
	 * max(when[code], key) */
	double when[SIMT_HOT_FREE + 1];
	when[SIMT_U_SP] = uf[SIMT_U_SP];
	when[SIMT_U_SFU] = uf[SIMT_U_SFU];
	when[SIMT_U_LDST] = uf[SIMT_U_LDST];
	when[SIMT_HOT_DRAIN] = -INFINITY;
	when[SIMT_HOT_BAR] = when[SIMT_HOT_FREE] = INFINITY;
	for (uint32_t j = 0; j < S->nw;) {
		uint8_t c = S->code[j];
		double x = S->key[j], u = when[c];
		if ((u > x ? u : x) <= t) {
			if (c < SIMT_U_COUNT)
				return (int32_t)S->w[j];
			/* finished draining: leaves the scheduler (the list
			 * shifts down) */
			uint32_t wi = S->w[j];
			sm->warps[wi].state = SIMT_W_FREE;
			sched_remove(sm, S, wi);
			continue;
		}
		j++;
	}
	double best = INFINITY;
	uint32_t bw = UINT32_MAX, old = UINT32_MAX;
	int any_bar = 0;
	for (uint32_t j = 0; j < S->nw; j++) {
		uint8_t c = S->code[j];
		double x = S->key[j], u = when[c];
		double e = u > x ? u : x; /* INFINITY at a barrier: never the earliest */
		if (e < best) {
			best = e;
			bw = S->w[j];
		}
		old = old == UINT32_MAX && c < SIMT_U_COUNT ? S->w[j] : old;
		any_bar |= c == SIMT_HOT_BAR;
	}
	*best_out = best;
	*bw_out = bw;
	*old_out = old;
	*any_bar_out = any_bar;
	return -1;
}


static void step(struct simt_state *s, struct simt_sched *S)
{
	const struct simt_params *sp = &s->sp;
	uint32_t m = S->sm, k = S->k;
	struct simt_sm *sm = &s->sms[m];
	double t = S->t;
	charge(S->cpi, &S->why, S->acct, t);
	S->acct = t;

	/* when each unit frees, for this scheduler */
	double uf[SIMT_U_COUNT];
	uf[SIMT_U_SP] = sm->sp_free[k];
	uf[SIMT_U_SFU] = sm->sfu_free;
	uf[SIMT_U_LDST] = sm->ldst_free;

	/* One pass over the warps in priority order: the first that can
	 * issue now is taken (GTO: the greedy warp, then the oldest; LRR:
	 * round robin); meanwhile the earliest any can issue (or a draining
	 * one finishes), in case none can. */
	int32_t pick = -1;
	double best = INFINITY;
	uint32_t bw = UINT32_MAX;      /* the earliest to issue or finish */
	uint32_t old = UINT32_MAX;     /* the oldest waiting to issue */
	uint32_t old_at = UINT32_MAX;
	int any_bar = 0;
	if (sp->policy == SIMT_SCHED_GTO && S->greedy >= 0) {
		const struct simt_warp *W = &sm->warps[S->greedy];
		if (W->state == SIMT_W_READY) {
			double u = uf[W->unit], e = u > W->dep_end ? u : W->dep_end;
			if (e <= t)
				pick = S->greedy;
		}
	}
	/* the search reads the list's key/code (simt.h), not the warps */
	if (sp->policy == SIMT_SCHED_GTO && pick < 0)
		pick = gto_search(sm, S, uf, t, &best, &bw, &old, &any_bar);
	uint32_t nw = S->nw, base = sp->policy == SIMT_SCHED_LRR && nw ? S->rr % nw : 0;
	for (uint32_t j = 0; sp->policy == SIMT_SCHED_LRR && pick < 0 && j < nw;) {
		uint32_t at = base + j < nw ? base + j : base + j - nw;
		uint8_t c = S->code[at];
		double x = S->key[at], e;
		if (c < SIMT_U_COUNT) {
			double u = uf[c];
			e = u > x ? u : x;
			if (e <= t) {
				pick = (int32_t)S->w[at];
				if (sp->policy == SIMT_SCHED_LRR)
					S->rr = (at + 1) % nw;
				break;
			}
			if (at < old_at) {
				old_at = at;
				old = S->w[at];
			}
		} else if (c == SIMT_HOT_DRAIN) {
			if (x <= t) {
				/* finished: leaves the scheduler (the list shifts down) */
				uint32_t wi = S->w[at];
				sm->warps[wi].state = SIMT_W_FREE;
				sched_remove(sm, S, wi);
				nw = S->nw;
				if (base > at)
					base--;
				if (base >= nw)
					base = 0;
				continue;
			}
			e = x;
		} else {
			any_bar |= c == SIMT_HOT_BAR;
			j++;
			continue;
		}
		if (e < best) {
			best = e;
			bw = S->w[at];
		}
		j++;
	}
	if (pick >= 0) {
		issue(s, m, k, (uint32_t)pick, t);
		S->t = t + sp->issue_cycles;
		S->acct = S->t; /* the issue cycles are charged in issue() */
		heap_update(s, S);
		return;
	}
	/* Nothing can issue now: sleep until the earliest warp can. The
	 * stall goes to what the oldest warp with an instruction to issue
	 * waits for (under GTO the one the scheduler would take first; its
	 * wait, not a younger warp's short one, is what the others failed
	 * to hide), else to the draining warp that finishes first. */
	struct simt_why *why = &S->why; /* (charged up to t above: free to rewrite) */
	uint32_t ai = old != UINT32_MAX ? old : bw;
	const struct simt_warp *aw = ai != UINT32_MAX ? &sm->warps[ai] : NULL;
	if (!aw) {
		why_simple(why, any_bar ? SIMT_CPI_BARRIER : SIMT_CPI_IDLE, INFINITY);
	} else if (aw->state == SIMT_W_DRAIN) {
		why_copy(why, &aw->last);
	} else if (uf[aw->unit] > aw->dep_end) {
		uint8_t c = aw->unit == SIMT_U_SFU	? SIMT_CPI_SFU
			    : aw->unit == SIMT_U_LDST ? sm->ldst_cpi
						      : SIMT_CPI_PIPELINE;
		why_simple(why, c, uf[aw->unit]);
	} else {
		why_copy(why, aw->dep);
	}
	if (best <= t) /* cannot happen (it would have issued); never loop */
		best = t + 1;
	S->t = best;
	heap_update(s, S);
}

/* ---- launch begin, CTA dispatch, launch end ---- */

int weft_simt_machine_begin(struct simt_state *s, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	uint32_t ctas = s->occ.ctas ? s->occ.ctas : 1;
	uint32_t wpc = s->occ.warps_per_cta;
	uint32_t nw = ctas * wpc;
	uint32_t nregs = s->p->nregs ? s->p->nregs : 1;
	size_t nreg = (size_t)nw * nregs;
	s->nregs = nregs;
	for (uint32_t m = 0; m < sp->num_sm; m++) {
		struct simt_sm *sm = &s->sms[m];
		if (nw > sm->nwarps_cap) {
			free(sm->warps);
			sm->warps = calloc(nw, sizeof(*sm->warps));
			sm->nwarps_cap = sm->warps ? nw : 0;
			for (uint32_t k = 0; k < sp->schedulers && sm->warps; k++) {
				struct simt_sched *S = &sm->sched[k];
				free(S->w);
				free(S->key);
				free(S->code);
				S->w = malloc(nw * sizeof(*S->w));
				S->key = malloc(nw * sizeof(*S->key));
				S->code = malloc(nw * sizeof(*S->code));
				S->cap = S->w && S->key && S->code ? nw : 0;
				if (!S->cap)
					sm->nwarps_cap = 0;
			}
		}
		if (nreg > sm->regs_cap) {
			free(sm->regs);
			free(sm->rends);
			sm->regs = malloc(nreg * sizeof(*sm->regs));
			sm->rends = malloc(nreg * sizeof(*sm->rends));
			sm->regs_cap = sm->regs && sm->rends ? nreg : 0;
		}
		if (!sm->nwarps_cap || !sm->regs_cap)
			return weft_error_set(err, WEFT_ERR_NOMEM,
					      "out of memory for %u resident warps of kernel %s", nw,
					      s->p->kernel);
		memset(sm->warps, 0, nw * sizeof(*sm->warps));
		for (uint32_t i = 0; i < nw; i++) {
			sm->warps[i].reg = sm->regs + (size_t)i * nregs;
			sm->warps[i].rend = sm->rends + (size_t)i * nregs;
			sm->warps[i].slot = i / wpc;
			sm->warps[i].sched = i % sp->schedulers;
		}
		for (uint32_t c = 0; c < SIMT_MAX_SLOTS; c++) {
			struct simt_slot *sl = &sm->slot[c];
			sl->state = SIMT_SLOT_EMPTY;
			sl->warp0 = c * wpc;
			sl->nw = sl->exited = sl->arrived = 0;
			sl->bar_max = sl->free_at = 0;
		}
		for (uint32_t k = 0; k < sp->schedulers; k++) {
			struct simt_sched *S = &sm->sched[k];
			S->nw = 0;
			S->greedy = -1;
			S->rr = 0;
			S->t = INFINITY;
			S->acct = 0;
			why_simple(&S->why, SIMT_CPI_IDLE, INFINITY);
			S->hpos = UINT32_MAX;
			S->id = m * sp->schedulers + k;
			S->sm = m;
			S->k = k;
			memset(S->cpi, 0, sizeof(S->cpi));
			sm->sp_free[k] = 0;
		}
		sm->sfu_free = sm->ldst_free = 0;
		sm->ldst_cpi = SIMT_CPI_LSU;
		sm->nmshr = 0;
		sm->nctas = 0;
		if (sp->caches) {
			weft_cache_flush(&sm->l1); /* L1s start cold each kernel (GPGPU-Sim flushes them) */
			weft_cache_reset_stats(&sm->l1);
			memset(sm->l1x, 0, (size_t)sm->l1.nsets * sp->l1.assoc * sizeof(*sm->l1x));
		}
	}
	free(s->heap);
	s->heap = malloc((size_t)sp->num_sm * sp->schedulers * sizeof(*s->heap));
	if (!s->heap)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the schedulers");
	for (uint32_t l = 0; l <= WEFT_GROUP_MAX_WIDTH; l++) {
		double R = sp->issue_cycles, useful = (double)l / sp->warp_size;
		s->issue_split[l][0] = R * useful;
		s->issue_split[l][1] = R * (1 - useful);
	}
	s->nheap = 0;
	s->now = 0;
	s->next_free = INFINITY;
	s->rr_sm = 0;
	s->age = 0;
	s->built = NULL;
	if (sp->caches)
		weft_simt_below_reset(&s->below, sp);
	return 0;
}

/* Recomputes next_free over every FINISHING slot. */
static void refresh_next_free(struct simt_state *s)
{
	s->next_free = INFINITY;
	for (uint32_t m = 0; m < s->sp.num_sm; m++)
		for (uint32_t c = 0; c < s->occ.ctas; c++) {
			const struct simt_slot *sl = &s->sms[m].slot[c];
			if (sl->state == SIMT_SLOT_FINISHING && sl->free_at < s->next_free)
				s->next_free = sl->free_at;
		}
}

/* Runs events earlier than the first slot to free (all of them when
 * `all`); next_free may move earlier while they run. */
static void run_events(struct simt_state *s, int all)
{
	while (s->nheap) {
		if (!all && !(s->heap[0].t < s->next_free))
			break;
		step(s, s->heap[0].S);
	}
}

/* Frees a FINISHING slot whose CTA is done: its warps leave their
 * schedulers. */
static void slot_release(struct simt_state *s, uint32_t m, uint32_t c)
{
	struct simt_sm *sm = &s->sms[m];
	struct simt_slot *sl = &sm->slot[c];
	for (uint32_t w = 0; w < sl->nw; w++) {
		struct simt_warp *W = &sm->warps[sl->warp0 + w];
		if (W->state != SIMT_W_FREE)
			sched_remove(sm, &sm->sched[W->sched], sl->warp0 + w);
		W->state = SIMT_W_FREE;
	}
	sl->state = SIMT_SLOT_EMPTY;
	sl->nw = 0;
}

/* An EMPTY slot, searching SMs round robin from rr_sm; -1 when none. */
static int find_empty(const struct simt_state *s, uint32_t *m_out, uint32_t *c_out)
{
	for (uint32_t j = 0; j < s->sp.num_sm; j++) {
		uint32_t m = (s->rr_sm + j) % s->sp.num_sm;
		for (uint32_t c = 0; c < s->occ.ctas; c++)
			if (s->sms[m].slot[c].state == SIMT_SLOT_EMPTY) {
				*m_out = m;
				*c_out = c;
				return 0;
			}
	}
	return -1;
}

int weft_simt_machine_cta(struct simt_state *s, const struct weft_cta_trace *cta,
			  struct simt_stream *built, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	uint32_t m = 0, c = 0;
	while (find_empty(s, &m, &c)) {
		/* every slot is busy: run until the first one frees */
		run_events(s, 0);
		if (isinf(s->next_free))
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "SIMT model: no resident CTA can finish (warps wait at a "
					      "barrier that others never reach) before CTA %u",
					      cta->cta);
		double x = s->next_free;
		for (uint32_t j = 0; j < sp->num_sm; j++)
			for (uint32_t q = 0; q < s->occ.ctas; q++) {
				struct simt_slot *sl = &s->sms[j].slot[q];
				if (sl->state == SIMT_SLOT_FINISHING && sl->free_at <= x)
					slot_release(s, j, q);
			}
		if (x > s->now)
			s->now = x;
		refresh_next_free(s);
	}
	struct simt_sm *sm = &s->sms[m];
	struct simt_slot *sl = &sm->slot[c];
	const struct simt_state *src = s->stream_src;
	int rc = 0;
	if (built) {
		/* built ahead (weft_trace_for_each_cta_prep): the slot takes it,
		 * and its previous CTA's buffers go back to be built into */
		struct simt_stream tmp = sl->st;
		sl->st = *built;
		*built = tmp;
	} else if (src && src->built && src->p == s->p && src->built_launch == cta->launch &&
		   src->built_cta == cta->cta)
		rc = weft_simt_stream_copy(&sl->st, src->built, err);
	else
		rc = weft_simt_stream_build(sp, &s->gp, s->pc, cta, &sl->st, err);
	if (rc)
		return rc;
	s->built = &sl->st;
	s->built_launch = cta->launch;
	s->built_cta = cta->cta;
	if (sl->st.nw > s->occ.warps_per_cta)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "CTA %u has %u threads, more than the launch geometry says", cta->cta,
				      cta->nthreads);
	/* what issuing its records will count (whole numbers: added here
	 * or per issue, the sums are the same) */
	const struct simt_stream *st = &sl->st;
	s->ls.warp_insts += (double)st->n;
	s->ls.thread_insts += (double)st->sum_exec;
	s->ls.lane_insts += (double)st->sum_lanes;
	s->ls.busy[SIMT_B_ISSUE] += (double)st->n * sp->issue_cycles;
	s->ev[SIMT_EV_FETCH] += (double)st->n;
	s->ev[SIMT_EV_SCHED] += (double)st->n;
	s->ev[SIMT_EV_PIPE] += (double)st->sum_exec;
	s->ev[SIMT_EV_RF_READ] += (double)st->sum_rf_reads * sp->warp_size;
	s->ev[SIMT_EV_RF_WRITE] += (double)st->sum_rf_writes * sp->warp_size;
	s->ev[SIMT_EV_NONREG] += (double)st->sum_nonreg * sp->warp_size;
	for (int e = 0; e < SIMT_EV_COUNT; e++)
		s->ev[e] += (double)st->sum_comp[e];
	s->rr_sm = (m + 1) % sp->num_sm;
	sm->nctas++;
	double x = s->now;
	sl->nw = sl->st.nw;
	sl->exited = sl->arrived = 0;
	sl->bar_max = 0;
	sl->state = SIMT_SLOT_RUNNING;
	for (uint32_t w = 0; w < sl->nw; w++) {
		uint32_t wi = sl->warp0 + w;
		struct simt_warp *W = &sm->warps[wi];
		W->rec = sl->st.rec + sl->st.woff[w];
		W->n = sl->st.woff[w + 1] - sl->st.woff[w];
		W->i = 0;
		for (uint32_t r = 0; r < s->nregs; r++) {
			W->reg[r].end = 0;
			W->reg[r].n = 0;
			W->rend[r] = 0;
		}
		why_simple(&W->own, SIMT_CPI_IDLE, x);
		W->dep = &W->own;
		W->dep_end = x;
		why_simple(&W->last, SIMT_CPI_IDLE, x);
		W->last_end = x;
		why_simple(&W->prev, SIMT_CPI_IDLE, x);
		W->store_done = x;
		W->age = s->age++;
		W->slot = c;
		W->sched = wi % sp->schedulers;
		if (W->n) {
			W->state = SIMT_W_READY;
			head_dep(s, W);
		} else {
			W->state = SIMT_W_DRAIN;
			sl->exited++;
		}
		struct simt_sched *S = &sm->sched[W->sched];
		W->pos = S->nw;
		S->w[S->nw++] = wi;
		hot_sync(sm, W);
	}
	slot_check(s, m, sl, x);
	for (uint32_t k = 0; k < sp->schedulers; k++)
		wake(s, m, k, x);
	return 0;
}

int weft_simt_machine_finish(struct simt_state *s, double *cycles, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	run_events(s, 1);
	double end = 0;
	for (uint32_t m = 0; m < sp->num_sm; m++) {
		struct simt_sm *sm = &s->sms[m];
		for (uint32_t c = 0; c < s->occ.ctas; c++) {
			const struct simt_slot *sl = &sm->slot[c];
			if (sl->state == SIMT_SLOT_RUNNING)
				return weft_error_set(err, WEFT_ERR_INTERNAL,
						      "SIMT model: a CTA on SM %u never finished (warps "
						      "wait at a barrier that others never reach)",
						      m);
			if (sl->state == SIMT_SLOT_FINISHING && sl->free_at > end)
				end = sl->free_at;
		}
		for (uint32_t k = 0; k < sp->schedulers; k++)
			if (sm->sched[k].acct > end)
				end = sm->sched[k].acct;
	}
	memset(s->cpi, 0, sizeof(s->cpi));
	for (uint32_t m = 0; m < sp->num_sm; m++) {
		struct simt_sm *sm = &s->sms[m];
		for (uint32_t k = 0; k < sp->schedulers; k++) {
			struct simt_sched *S = &sm->sched[k];
			struct simt_why idle;
			why_simple(&idle, SIMT_CPI_IDLE, INFINITY);
			charge(S->cpi, &idle, S->acct, end);
			S->acct = end;
			for (int i = 0; i < SIMT_CPI_COUNT; i++)
				s->cpi[i] += S->cpi[i];
		}
	}
	*cycles = end;
	return 0;
}
