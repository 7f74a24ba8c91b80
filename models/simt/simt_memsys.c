/*
 * simt_memsys.c - the timed memory system of the SIMT model: what one warp
 * memory instruction costs in time, from the LD/ST unit through the L1 and
 * its MSHRs to the L2 banks and DRAM channels (simt.c "Memory" has the
 * equations and their sources).
 *
 * Servers are first-come first-served queues kept as reservation times:
 * a request arriving at time a at a server free from time f starts at
 * max(a, f), waits max(0, f - a) and keeps it busy for its service time.
 * The SM model issues instructions in global time order (simt_sm.c), so
 * requests reach every queue nearly in arrival order. The cache tag models
 * (models/cache.h) decide hits; beside each tag array a per-line record
 * holds when the line's in-flight fill arrives, so a later access to it
 * merges into that fill (an L1 MSHR merge, or an L2 access that waits for
 * the DRAM data) instead of counting as a hit.
 *
 * The L2 lookup and the DRAM traffic it causes (victim write-back, fetch,
 * write-through, the bytes they move) are the shared mechanism of
 * models/memsys.c, which the fabric uses too; the bank and channel queues,
 * the in-flight fills and the atomics' dirty lines are this model's own
 * (memsys.h says why the two differ).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/memsys.h"
#include "simt.h"

/* ---- why: phases of a wait ---- */

static inline void why_push(struct simt_why *w, uint8_t c, double d)
{
	if (d <= 0)
		return;
	if (w->n && w->c[w->n - 1] == c) {
		w->d[w->n - 1] += (float)d;
		return;
	}
	if (w->n == SIMT_WHY_MAX) {
		w->d[SIMT_WHY_MAX - 1] += (float)d; /* the last phase absorbs the rest */
		return;
	}
	w->c[w->n] = c;
	w->d[w->n++] = (float)d;
}

/* Appends the phases of src (in order). */
static void why_append(struct simt_why *w, const struct simt_why *src)
{
	for (uint8_t i = 0; i < src->n; i++)
		why_push(w, src->c[i], src->d[i]);
}

/* Appends the part of src's phases (which end at src->end) that lies
 * after time `from`. */
static void why_append_after(struct simt_why *w, const struct simt_why *src, double from)
{
	double t = src->end;
	for (uint8_t i = 0; i < src->n; i++)
		t -= src->d[i];
	for (uint8_t i = 0; i < src->n; i++) {
		double lo = t, hi = t + src->d[i];
		t = hi;
		if (hi <= from)
			continue;
		why_push(w, src->c[i], hi - (lo > from ? lo : from));
	}
}

/* ---- the MSHR heap (pending fill times of an SM's L1) ---- */

static void mshr_push(struct simt_sm *sm, double t)
{
	uint32_t i = sm->nmshr++;
	double *h = sm->mshr;
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (h[p] <= t)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = t;
}

static void mshr_pop(struct simt_sm *sm)
{
	double *h = sm->mshr;
	double last = h[--sm->nmshr];
	uint32_t i = 0, n = sm->nmshr;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1] < h[c])
			c++;
		if (h[c] >= last)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
}

/* The earliest time >= t at which an MSHR entry is free (entries whose
 * fill has arrived by then are released). */
static double mshr_acquire(const struct simt_params *sp, struct simt_sm *sm, double t)
{
	for (;;) {
		while (sm->nmshr && sm->mshr[0] <= t)
			mshr_pop(sm);
		if (sm->nmshr < sp->l1_mshrs)
			return t;
		t = sm->mshr[0];
	}
}

/* ---- below the L1: L2 banks and DRAM channels ---- */

int weft_simt_below_init(struct simt_below *b, const struct simt_params *sp, struct weft_error *err)
{
	memset(b, 0, sizeof(*b));
	int rc = weft_cache_init(&b->l2, &sp->l2, err);
	if (rc)
		return rc;
	size_t lines = (size_t)b->l2.nsets * sp->l2.assoc;
	uint32_t ch = sp->dram_channels ? sp->dram_channels : 1;
	b->l2x = calloc(lines, sizeof(*b->l2x));
	b->bank_free = calloc(sp->l2.banks, sizeof(double));
	b->bank_busy = calloc(sp->l2.banks, sizeof(double));
	b->chan_free = calloc(ch, sizeof(double));
	b->chan_busy = calloc(ch, sizeof(double));
	if (!b->l2x || !b->bank_free || !b->bank_busy || !b->chan_free || !b->chan_busy) {
		weft_simt_below_free(b);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the L2 model");
	}
	return 0;
}

void weft_simt_below_free(struct simt_below *b)
{
	if (b->l2.tag)
		weft_cache_free(&b->l2);
	free(b->l2x);
	free(b->bank_free);
	free(b->bank_busy);
	free(b->chan_free);
	free(b->chan_busy);
	memset(b, 0, sizeof(*b));
}

void weft_simt_below_reset(struct simt_below *b, const struct simt_params *sp)
{
	uint32_t ch = sp->dram_channels ? sp->dram_channels : 1;
	memset(b->bank_free, 0, sp->l2.banks * sizeof(double));
	memset(b->bank_busy, 0, sp->l2.banks * sizeof(double));
	memset(b->chan_free, 0, ch * sizeof(double));
	memset(b->chan_busy, 0, ch * sizeof(double));
	size_t lines = (size_t)b->l2.nsets * sp->l2.assoc;
	for (size_t i = 0; i < lines; i++)
		b->l2x[i].ready = 0; /* time restarts at 0 each launch; fills are done */
	weft_cache_reset_stats(&b->l2); /* the L2 keeps its contents across launches */
	b->ev_l2 = b->ev_noc = b->dram_bytes = 0;
}

/* line mod n for n > 0: a 32-bit divide when line fits in 32 bits (the
 * same value; the 64-bit divide is several times slower on some hosts). */
static inline uint32_t mod_line(uint64_t line, uint32_t n)
{
	return line >> 32 ? (uint32_t)(line % n) : (uint32_t)line % n;
}

static uint32_t channel_of(const struct simt_params *sp, uint64_t line)
{
	return sp->dram_channels ? mod_line(line, sp->dram_channels) : 0;
}

/* A request for the DRAM channel of `line` arriving at a: returns its
 * queueing wait and keeps the channel busy one line time. (The bytes are
 * counted by the caller, weft_memsys_dram_bytes.) */
static double dram_queue(struct simt_state *s, uint64_t line, double a)
{
	struct simt_below *b = &s->below;
	uint32_t ch = channel_of(&s->sp, line);
	double st = a > b->chan_free[ch] ? a : b->chan_free[ch];
	b->chan_free[ch] = st + s->sp.dram_line_cycles;
	b->chan_busy[ch] += s->sp.dram_line_cycles;
	return st - a;
}

/* A request for the L2 bank of `line` arriving at a: its queueing wait;
 * the bank is busy one line time (line / port bytes L2 clocks). */
static double bank_queue(struct simt_state *s, uint64_t line, double a)
{
	struct simt_below *b = &s->below;
	uint32_t bank = mod_line(line, s->sp.l2.banks);
	double st = a > b->bank_free[bank] ? a : b->bank_free[bank];
	b->bank_free[bank] = st + s->sp.l2_service;
	b->bank_busy[bank] += s->sp.l2_service;
	b->ev_l2++;
	b->ev_noc += s->sp.noc_flits;
	return st - a;
}

/* A write of the line holding addr leaving the L1 at s0 (write-through
 * store, dirty L1 eviction). It occupies the bank and, when it reaches
 * DRAM, a channel; returns when the L2 acknowledges it (GPGPU-Sim counts a
 * warp's stores outstanding until their acknowledgements return, and a
 * CTA is not done before). */
static double below_write(struct simt_state *s, uint64_t addr, double s0, struct simt_why *why)
{
	const struct simt_params *sp = &s->sp;
	struct simt_below *b = &s->below;
	uint64_t line = addr >> b->l2.line_shift;
	double a = s0 + sp->l1_latency;
	double w2 = bank_queue(s, line, a);
	struct weft_memsys_l2_out o;
	weft_memsys_l2_access(&b->l2, addr, 1, &o);
	b->dram_bytes += weft_memsys_dram_bytes(&o, sp->l2.line_bytes, 1);
	s->ms.l2_writes++;
	if (o.hit)
		s->ms.l2_write_hits++;
	double at_dram = a + w2 + (sp->l2_latency - sp->l1_latency);
	if (o.dram_wb)
		dram_queue(s, o.wb_line, at_dram);
	if (o.dram_through || o.dram_fetch)
		dram_queue(s, line, at_dram);
	if (why) {
		why_push(why, SIMT_CPI_L2_QUEUE, w2);
		why_push(why, SIMT_CPI_L2, sp->l2_latency);
	}
	return s0 + sp->l2_latency + w2;
}

/* A read (or atomic) of the line holding addr leaving the L1 side at s0:
 * returns when its data is back at the SM and appends its phases (L2
 * queue, DRAM queue, then the latency of the level that served it). */
static double below_read(struct simt_state *s, uint64_t addr, double s0, int atomic,
			 struct simt_why *why)
{
	const struct simt_params *sp = &s->sp;
	struct simt_below *b = &s->below;
	uint64_t line = addr >> b->l2.line_shift;
	double a = s0 + sp->l1_latency;
	double w2 = bank_queue(s, line, a);
	struct weft_memsys_l2_out o;
	weft_memsys_l2_access(&b->l2, addr, 0, &o);
	b->dram_bytes += weft_memsys_dram_bytes(&o, sp->l2.line_bytes, 1);
	uint64_t slot = o.slot;
	s->ms.l2_reads++;
	double at_dram = a + w2 + (sp->l2_latency - sp->l1_latency);
	if (o.dram_wb)
		dram_queue(s, o.wb_line, at_dram);
	if (atomic && sp->l2.write == WEFT_CACHE_WRITE_BACK && slot != WEFT_CACHE_NO_SLOT)
		b->l2.dirty[slot] = 1; /* the atomic updates the line in the L2 */
	struct simt_line *L = slot != WEFT_CACHE_NO_SLOT ? &b->l2x[slot] : NULL;
	double done;
	if (o.hit) {
		s->ms.l2_read_hits++;
		done = s0 + sp->l2_latency + w2;
		if (L && L->ready > done) {
			/* the line is still coming from DRAM for an earlier miss */
			why_push(why, SIMT_CPI_L2_QUEUE, w2);
			why_push(why, SIMT_CPI_DRAM, L->ready - (s0 + w2));
			return L->ready;
		}
		why_push(why, SIMT_CPI_L2_QUEUE, w2);
		why_push(why, SIMT_CPI_L2, sp->l2_latency);
		return done;
	}
	/* miss: the line comes from DRAM (a read always fetches: o.dram_fetch) */
	double wd = dram_queue(s, line, at_dram);
	done = s0 + sp->dram_latency + w2 + wd;
	why_push(why, SIMT_CPI_L2_QUEUE, w2);
	why_push(why, SIMT_CPI_DRAM_QUEUE, wd);
	why_push(why, SIMT_CPI_DRAM, sp->dram_latency);
	if (L)
		L->ready = done;
	return done;
}

/* ---- the L1 ---- */

/* A load transaction for the line holding addr reaching the L1 at *t:
 * returns when its data is at the SM; *t moves past an MSHR wait (the
 * LD/ST unit waits with it); why gets the phases after *t. */
static double l1_load(struct simt_state *s, struct simt_sm *sm, uint64_t addr, double *t,
		      struct simt_why *why)
{
	const struct simt_params *sp = &s->sp;
	uint64_t victim = 0;
	double t0 = *t;
	unsigned r = weft_cache_access(&sm->l1, addr, 0, &victim);
	struct simt_line *L = &sm->l1x[sm->l1.last_slot];
	s->ms.l1_reads++;
	if (r & WEFT_CACHE_HIT) {
		if (L->ready <= t0) {
			s->ms.l1_read_hits++;
			why_push(why, SIMT_CPI_L1, sp->l1_latency);
			return t0 + sp->l1_latency;
		}
		/* the line's fill is in flight: merge into its MSHR entry */
		s->ms.l1_merges++;
		if (L->merges < sp->l1_mshr_merge) {
			L->merges++;
			double done = L->ready > t0 + sp->l1_latency ? L->ready : t0 + sp->l1_latency;
			why_append_after(why, &L->why, t0);
			why_push(why, SIMT_CPI_L1, done - (L->ready > t0 ? L->ready : t0));
			return done;
		}
		/* no merge slot left: wait for the fill, then hit */
		s->ms.mshr_waits++;
		s->ms.mshr_wait_cycles += L->ready - t0;
		why_push(why, SIMT_CPI_MSHR, L->ready - t0);
		why_push(why, SIMT_CPI_L1, sp->l1_latency);
		return L->ready + sp->l1_latency;
	}
	/* miss: an MSHR entry, then the L2 */
	if (r & WEFT_CACHE_WRITEBACK)
		below_write(s, victim, t0, NULL);
	double t1 = mshr_acquire(sp, sm, t0);
	if (t1 > t0) {
		s->ms.mshr_waits++;
		s->ms.mshr_wait_cycles += t1 - t0;
		why_push(why, SIMT_CPI_MSHR, t1 - t0);
		*t = t1;
	}
	/* the fill's phases are built in the line's record (below_read
	 * touches only the L2 side) */
	L->why.n = 0;
	double done = below_read(s, addr, t1, 0, &L->why);
	mshr_push(sm, done);
	L->ready = done;
	L->merges = 0;
	L->why.end = done;
	why_append(why, &L->why);
	return done;
}

/* A store transaction at the L1 at t: returns when it is acknowledged
 * (by the L2 for a write-through, at once for a write-back L1) and
 * appends the phases of that wait to why. */
static double l1_store(struct simt_state *s, struct simt_sm *sm, uint64_t addr, double t,
		       struct simt_why *why)
{
	uint64_t victim = 0;
	unsigned r = weft_cache_access(&sm->l1, addr, 1, &victim);
	if (sm->l1.last_slot != WEFT_CACHE_NO_SLOT && !(r & WEFT_CACHE_HIT))
		sm->l1x[sm->l1.last_slot].ready = 0; /* allocated by the write: present */
	if (r & WEFT_CACHE_WRITEBACK)
		below_write(s, victim, t, NULL);
	if (r & WEFT_CACHE_THROUGH)
		return below_write(s, addr, t, why);
	why_push(why, SIMT_CPI_L1, s->sp.l1_latency);
	return t + s->sp.l1_latency;
}

/* ---- one warp memory instruction ---- */

double weft_simt_mem_issue(struct simt_state *s, struct simt_sm *sm, const struct simt_pc *pi,
		      const struct simt_stream *st, const struct simt_rec *r, double t,
		      struct simt_why *why)
{
	const struct simt_params *sp = &s->sp;
	double start = t > sm->ldst_free ? t : sm->ldst_free;
	double cur = start, done = -INFINITY;
	uint8_t busy_cpi = SIMT_CPI_LSU;
	why->n = 0;
	if (r->mem)
		s->ls.mem_insts++;
	if (r->cnst) {
		/* constant cache: one broadcast access, priced as an L1 hit */
		s->ev[SIMT_EV_CONST]++;
		cur += sp->ldst_pass_cycles;
		done = start + sp->pipeline_latency + sp->l1_latency;
		why_push(why, SIMT_CPI_LSU, start - t);
		why_push(why, SIMT_CPI_L1, sp->pipeline_latency + sp->l1_latency);
	}
	if (r->sh) {
		uint64_t shw = st->segs[r->seg0];
		uint32_t passes = simt_sh_passes(shw), base = simt_sh_base(shw);
		double extra = (double)(passes > base ? passes - base : 0) * sp->ldst_pass_cycles;
		s->ev[SIMT_EV_SHMEM] += (double)simt_sh_words(shw);
		s->ls.shmem_passes += passes;
		s->ls.shmem_accesses++;
		double d = cur + extra + sp->pipeline_latency + sp->shmem_latency;
		struct simt_why w = { .n = 0 };
		why_push(&w, SIMT_CPI_LSU, cur - start);
		why_push(&w, SIMT_CPI_BANK_CONFLICT, extra);
		why_push(&w, SIMT_CPI_SHMEM, sp->pipeline_latency + sp->shmem_latency);
		if (extra > 0)
			busy_cpi = SIMT_CPI_BANK_CONFLICT;
		cur += (double)passes * sp->ldst_pass_cycles;
		if (d >= done) {
			done = d;
			why->n = 0;
			why_push(why, SIMT_CPI_LSU, start - t);
			why_append(why, &w);
		}
	}
	if (r->gl) {
		const uint64_t *segs = st->segs + r->seg0 + r->sh; /* after the shared word */
		double worst = -1;
		/* each transaction's phases are built in one buffer while the
		 * other holds the latest so far (no 40-byte copy per
		 * transaction: the copy of a just-written why stalls) */
		struct simt_why wb[2];
		struct simt_why *w = &wb[0], *wworst = &wb[1];
		wworst->n = 0;
		for (uint32_t j = 0; j < r->nseg; j++) {
			double sj = cur, c;
			w->n = 0;
			if (pi->is_atomic) {
				/* Fermi performs global atomics at the L2 */
				why_push(w, SIMT_CPI_LSU, sj - start);
				c = below_read(s, segs[j], sj, 1, w);
			} else if (pi->is_store) {
				s->ev[SIMT_EV_L1]++;
				s->ms.l1_tx++;
				why_push(w, SIMT_CPI_LSU, sj - start);
				c = l1_store(s, sm, segs[j], sj, w);
			} else {
				s->ev[SIMT_EV_L1]++;
				s->ms.l1_tx++;
				struct simt_why lw;
				lw.n = 0; /* (only its first n phases are read) */
				double t0 = sj;
				c = l1_load(s, sm, segs[j], &sj, &lw);
				if (sj > t0)
					busy_cpi = SIMT_CPI_MSHR;
				why_push(w, SIMT_CPI_LSU, t0 - start);
				why_append(w, &lw);
			}
			cur = sj + sp->l1_tx_cycles;
			if (c > worst) {
				worst = c;
				struct simt_why *x = wworst;
				wworst = w;
				w = x;
			}
		}
		/* a load's (or atomic's) registers are written pipeline_latency
		 * after its data arrives; a store is done when acknowledged */
		double d = worst + (pi->is_store ? 0 : sp->pipeline_latency);
		if (!pi->is_store && !pi->is_atomic) {
			s->ms.loads++;
			s->ms.load_lat_sum += d - start;
		}
		if (d >= done) {
			/* the pipeline part goes with the level that served it */
			if (wworst->n && !pi->is_store)
				wworst->d[wworst->n - 1] += (float)sp->pipeline_latency;
			done = d;
			why->n = 0;
			why_push(why, SIMT_CPI_LSU, start - t);
			why_append(why, wworst);
		}
	}
	if (isinf(done)) { /* not reached: every priced access has a part */
		done = start + sp->pipeline_latency;
		why_push(why, SIMT_CPI_LSU, done - t);
	}
	sm->ldst_free = cur;
	sm->ldst_cpi = busy_cpi;
	why->end = done;
	return done;
}
