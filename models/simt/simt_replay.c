/*
 * simt_replay.c - replays one CTA on the SIMT model: its threads in warps
 * of warp_size under the IPDOM reconvergence stack (models/group.h), one
 * warp instruction at a time, counting events and charging each SM
 * resource (scheduler issue slots, SFUs, shared-memory bank cycles, L1
 * transactions), with memory transactions through the L1 (per SM) and L2
 * (shared) cache models. Each warp also keeps its own timeline (a
 * scoreboard of register ready times): that gives the CTA's latency-bound
 * duration, and CTAs are list-scheduled into the SM's resident slots
 * (simt.c "latency" bound).
 *
 * Work is per warp instruction and per memory transaction; only memory
 * instructions look at individual lanes (addresses). A CTA is first turned
 * into its warp stream (what issues, in which order, with its bank and
 * coalescing costs: no timing), then timed; states of a sweep that agree
 * on warp size, shared banks and L1 line time one stream (see below).
 */
#include <stdlib.h>
#include <string.h>

#include "simt.h"

struct simt_warp {
	struct weft_group_iter it;
	double t;          /* earliest cycle its next instruction may issue */
	double last_done;  /* completion of its previous instruction */
	double end;        /* latest completion so far */
	uint32_t sched;
	int done, waiting; /* finished; stopped at a barrier */
};

static uint32_t reg_words(const struct weft_program *p, int32_t r)
{
	if (r < 0 || (uint32_t)r >= p->nregs || !p->reg_type)
		return 1;
	enum weft_ptx_type t = (enum weft_ptx_type)p->reg_type[r];
	if (t == WEFT_T_PRED)
		return 0; /* predicates live in their own small file */
	unsigned sz = weft_ptx_type_size(t);
	return sz > 4 ? (sz + 3) / 4 : 1;
}

/* The SIMT event of each functional-unit kind (events.h weft_fu_op_of has
 * the classification rules); non-FU instructions count none. */
static const int8_t fu_event[WEFT_FU_COUNT] = {
	[WEFT_FU_INT_ALU] = SIMT_EV_INT_ALU,   [WEFT_FU_INT_MUL] = SIMT_EV_INT_MUL,
	[WEFT_FU_INT_DIV] = SIMT_EV_INT_DIV,   [WEFT_FU_FP32_ADD] = SIMT_EV_FP32_ADD,
	[WEFT_FU_FP32_MUL] = SIMT_EV_FP32_MUL, [WEFT_FU_FP32_FMA] = SIMT_EV_FP32_FMA,
	[WEFT_FU_FP64] = SIMT_EV_FP64,         [WEFT_FU_SFU] = SIMT_EV_SFU,
	[WEFT_FU_NONE] = -1,
};

int simt_launch_begin(struct simt_state *s, const struct weft_program *p, uint32_t threads_per_cta,
		      uint32_t shmem_per_cta, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	int rc;
	s->p = p;
	rc = simt_occupancy(sp, threads_per_cta, shmem_per_cta, simt_live_regs(p), &s->occ, err);
	if (rc)
		return rc;
	rc = weft_group_prog_init(&s->gp, p, err);
	if (rc)
		return rc;
	free(s->pc);
	s->pc = calloc((size_t)p->ninsts + 1, sizeof(*s->pc));
	if (!s->pc)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s", p->kernel);
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		struct simt_pc *x = &s->pc[pc];
		uint32_t r = 0, w = 0;
		for (uint32_t u = 0; u < ii->nuses; u++)
			r += reg_words(p, ii->uses[u]);
		for (uint32_t d = 0; d < ii->ndefs; d++)
			w += reg_words(p, ii->defs[d]);
		x->cls = ii->cls;
		x->comp_ev = fu_event[weft_fu_op_of(in, ii)];
		x->rf_reads = (uint8_t)(r > 255 ? 255 : r);
		x->rf_writes = (uint8_t)(w > 255 ? 255 : w);
		x->bytes = ii->access_bytes;
		x->space = ii->space;
		x->is_store = ii->cls == WEFT_IC_STORE;
		x->is_atomic = ii->cls == WEFT_IC_ATOMIC;
		x->is_barrier = in->op == WEFT_OP_BAR && in->mode != WEFT_BAR_ARRIVE;
		x->is_sfu = ii->cls == WEFT_IC_SFU;
		x->latency = x->is_sfu ? sp->sfu_latency : sp->alu_latency;
	}
	uint32_t wpc = s->occ.warps_per_cta;
	size_t need = (size_t)wpc * (p->nregs ? p->nregs : 1);
	if (wpc > s->warps_cap) {
		free(s->warps);
		s->warps = calloc(wpc, sizeof(*s->warps));
		s->warps_cap = s->warps ? wpc : 0;
	}
	if (need > s->ready_cap) {
		free(s->ready);
		s->ready = malloc(need * sizeof(*s->ready));
		s->ready_cap = s->ready ? need : 0;
	}
	if (!s->warps || !s->ready)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s's warps", p->kernel);
	for (uint32_t i = 0; i < sp->num_sm; i++) {
		struct simt_sm *sm = &s->sms[i];
		memset(sm->sched, 0, sizeof(sm->sched));
		memset(sm->slot_free, 0, sizeof(sm->slot_free));
		sm->sfu = sm->shmem = sm->l1_tx = 0;
		sm->nctas = 0;
		sm->warps_seen = 0;
		if (sp->caches) {
			weft_cache_flush(&sm->l1); /* L1s start cold each kernel (GPGPU-Sim flushes them) */
			weft_cache_reset_stats(&sm->l1);
		}
	}
	if (sp->caches)
		weft_cache_reset_stats(&s->l2); /* the L2 keeps its contents across launches */
	s->cta_seq = 0;
	memset(s->ev, 0, sizeof(s->ev));
	memset(&s->ls, 0, sizeof(s->ls));
	s->dram_bytes = 0;
	return 0;
}

void simt_launch_end(struct simt_state *s)
{
	weft_group_prog_free(&s->gp);
}

/* ---- the warp stream of a CTA ----
 *
 * Replaying a CTA is done in two steps: first its warp stream, what the
 * warps issue in which order (IPDOM grouping, barrier rounds) with the
 * memory instructions' shared-memory bank cycles and coalesced segments,
 * none of which depends on time, SM or caches; then its timing through
 * one state's SMs, scoreboards and caches. Configurations with the same
 * warp size, shared banks and L1 line (simt_stream_key_equal) time the
 * same stream, so a sweep over the other keys builds it once per CTA
 * (weft_model_run_many; simt.c simt_follow). */

struct simt_rec {
	uint64_t sh_words;       /* shared part: 4-byte words accessed */
	uint32_t pc, warp;
	uint32_t sh_cycles, sh_base; /* bank-conflict cycles; conflict-free cycles */
	uint32_t seg0, nseg;     /* global part: segments in stream->segs */
	uint8_t nexec, nissue;   /* lanes executing / issued (popcounts, once) */
	uint8_t mem, sh, gl;     /* priced memory access; has a shared / global part */
};

struct simt_stream {
	const struct weft_program *p;  /* what it was built from */
	uint32_t launch, cta;
	int valid;
	uint32_t nw;
	struct simt_rec *rec;
	size_t n, cap;
	uint64_t *segs;
	size_t nsegs, segcap;
	size_t *round_end;       /* record index where each barrier round ends */
	uint32_t nrounds;
	size_t rounds_cap;
};

void simt_stream_free(struct simt_stream *st)
{
	if (!st)
		return;
	free(st->rec);
	free(st->segs);
	free(st->round_end);
	free(st);
}

int simt_stream_key_equal(const struct simt_params *a, const struct simt_params *b)
{
	return a->warp_size == b->warp_size && a->shmem_banks == b->shmem_banks &&
	       a->caches == b->caches && (!a->caches || a->l1.line_bytes == b->l1.line_bytes);
}

/* Lanes grouped as the shared memory serves them: cycles of a conflict-free
 * access = groups holding an active lane. */
static uint32_t busy_groups(uint64_t mask, uint32_t width, uint32_t banks)
{
	uint32_t n = 0;
	for (uint32_t g = 0; g < width; g += banks) {
		uint64_t gm = banks >= 64 ? ~0ull : ((1ull << banks) - 1) << g;
		if (mask & gm)
			n++;
	}
	return n;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, nc * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* The memory part of a warp instruction: which lanes go to the banked
 * shared memory and which through the L1, and what each costs. */
static int rec_mem(struct simt_state *s, struct simt_stream *st, struct simt_rec *r,
		   const struct weft_group_inst *in)
{
	const struct simt_params *sp = &s->sp;
	const struct simt_pc *pi = &s->pc[in->pc];
	uint64_t gmask = 0, smask = 0;
	uint32_t bytes = pi->bytes ? pi->bytes : 4;

	if (pi->space == WEFT_SPACE_SHARED) {
		smask = in->exec;
	} else if (pi->space == WEFT_SPACE_GLOBAL || pi->space == WEFT_SPACE_LOCAL) {
		gmask = in->exec;
	} else if (pi->space == WEFT_SPACE_GENERIC) {
		for (uint64_t m = in->exec; m; m &= m - 1) {
			int lane = __builtin_ctzll(m);
			uint8_t sp_ = in->space ? in->space[lane] : WEFT_SPACE_GLOBAL;
			if (sp_ == WEFT_SPACE_SHARED)
				smask |= 1ull << lane;
			else if (sp_ != WEFT_SPACE_CONST && sp_ != WEFT_SPACE_PARAM)
				gmask |= 1ull << lane;
		}
	}
	/* const/param: served by the constant cache (broadcast); not priced */
	if (!gmask && !smask)
		return 0;
	r->mem = 1;
	if (!sp->caches) {
		smask |= gmask; /* no caches: every access hits the banked memory */
		gmask = 0;
	}
	if (smask) {
		r->sh = 1;
		r->sh_cycles = simt_bank_cycles(in->addr, smask, sp->warp_size, bytes, sp->shmem_banks,
						&r->sh_words);
		r->sh_base = busy_groups(smask, sp->warp_size, sp->shmem_banks);
	}
	if (gmask) {
		if (grow((void **)&st->segs, &st->segcap, st->nsegs + 2 * WEFT_GROUP_MAX_WIDTH,
			 sizeof(*st->segs)))
			return -1;
		r->gl = 1;
		r->seg0 = (uint32_t)st->nsegs;
		r->nseg = simt_coalesce(in->addr, gmask, bytes, s->sms[0].l1.line_shift,
					st->segs + st->nsegs);
		st->nsegs += r->nseg;
	}
	return 0;
}

/* Builds the warp stream of cta into st: warps run independently between
 * barriers; a round ends when every warp has stopped at a barrier or
 * exited (the timing makes the waiting ones meet there). */
static int stream_build(struct simt_state *s, struct simt_stream *st, const struct weft_cta_trace *cta,
			struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	uint32_t nw = weft_group_count(cta->nthreads, sp->warp_size);
	st->valid = 0;
	st->n = st->nsegs = 0;
	st->nrounds = 0;
	st->nw = nw;
	if (nw > s->warps_cap)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "CTA %u has %u threads, more than the launch geometry says", cta->cta,
				      cta->nthreads);
	for (uint32_t w = 0; w < nw; w++) {
		struct simt_warp *W = &s->warps[w];
		int rc = weft_group_iter_init(&W->it, &s->gp, cta, sp->warp_size, w, WEFT_DIV_IPDOM, 0, err);
		if (rc)
			return rc;
		W->done = W->waiting = 0;
	}
	for (;;) {
		uint32_t waiting = 0;
		for (uint32_t w = 0; w < nw; w++) {
			struct simt_warp *W = &s->warps[w];
			if (W->done || W->waiting)
				continue;
			struct weft_group_inst in;
			for (;;) {
				int rc = weft_group_next(&W->it, &in);
				if (rc < 0)
					return rc;
				if (rc == 0) {
					W->done = 1;
					break;
				}
				if (grow((void **)&st->rec, &st->cap, st->n + 1, sizeof(*st->rec)))
					goto nomem;
				struct simt_rec *r = &st->rec[st->n++];
				memset(r, 0, sizeof(*r));
				r->pc = in.pc;
				r->warp = w;
				r->nexec = (uint8_t)__builtin_popcountll(in.exec);
				r->nissue = (uint8_t)__builtin_popcountll(in.issue);
				if (in.is_mem && in.exec && rec_mem(s, st, r, &in))
					goto nomem;
				if (s->pc[in.pc].is_barrier) {
					W->waiting = 1;
					break;
				}
			}
			waiting += W->waiting;
		}
		if (grow((void **)&st->round_end, &st->rounds_cap, st->nrounds + 1,
			 sizeof(*st->round_end)))
			goto nomem;
		st->round_end[st->nrounds++] = st->n;
		if (!waiting)
			break;
		for (uint32_t w = 0; w < nw; w++)
			s->warps[w].waiting = 0;
	}
	st->p = s->p;
	st->launch = cta->launch;
	st->cta = cta->cta;
	st->valid = 1;
	return 0;
nomem:
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the warp stream of CTA %u", cta->cta);
}

/* ---- timing ---- */

static double l2_access(struct simt_state *s, uint64_t addr, int is_write)
{
	const struct simt_params *sp = &s->sp;
	uint64_t victim = 0;
	s->ev[SIMT_EV_L2]++;
	unsigned r = weft_cache_access(&s->l2, addr, is_write, &victim);
	if (r & WEFT_CACHE_WRITEBACK)
		s->dram_bytes += sp->l2.line_bytes;
	if (r & WEFT_CACHE_HIT)
		return sp->l2_latency;
	if (r & WEFT_CACHE_FILL) {
		s->dram_bytes += sp->l2.line_bytes;
		return sp->dram_latency;
	}
	return sp->l2_latency; /* write miss allocated without a fetch */
}

static double l1_access(struct simt_state *s, struct simt_sm *sm, uint64_t addr, int is_write)
{
	uint64_t victim = 0;
	s->ev[SIMT_EV_L1]++;
	unsigned r = weft_cache_access(&sm->l1, addr, is_write, &victim);
	double lat = s->sp.l1_latency;
	if (r & WEFT_CACHE_WRITEBACK)
		l2_access(s, victim, 1);
	if (r & WEFT_CACHE_THROUGH)
		l2_access(s, addr, 1);
	if (r & WEFT_CACHE_FILL)
		lat = l2_access(s, addr, 0);
	return lat;
}

static void mem_inst(struct simt_state *s, struct simt_sm *sm, const struct simt_pc *pi,
		     const struct simt_stream *st, const struct simt_rec *r, double *lat,
		     double *occupy)
{
	const struct simt_params *sp = &s->sp;
	s->ls.mem_insts++;
	if (r->sh) {
		uint32_t c = r->sh_cycles, base = r->sh_base;
		sm->shmem += c;
		s->ev[SIMT_EV_SHMEM] += (double)r->sh_words;
		s->ls.shmem_cycles += c;
		s->ls.shmem_accesses++;
		double l = sp->shmem_latency + (c > base ? c - base : 0);
		if (l > *lat)
			*lat = l;
		if (c > *occupy)
			*occupy = c;
	}
	if (r->gl) {
		const uint64_t *segs = st->segs + r->seg0;
		uint32_t n = r->nseg;
		double worst = 0;
		for (uint32_t i = 0; i < n; i++) {
			double l;
			if (pi->is_atomic)
				l = l2_access(s, segs[i], 1); /* Fermi performs atomics at the L2 */
			else
				l = l1_access(s, sm, segs[i], pi->is_store);
			if (l > worst)
				worst = l;
		}
		if (!pi->is_atomic) {
			sm->l1_tx += n;
			s->ls.l1_tx += n;
		}
		if (pi->is_store)
			worst = sp->l1_latency; /* nothing waits on a store's data */
		if (worst > *lat)
			*lat = worst;
		double busy = (double)n * sp->l1_cycles_per_tx;
		if (busy > *occupy)
			*occupy = busy;
	}
}

/* ---- one warp instruction ---- */

static void issue(struct simt_state *s, struct simt_sm *sm, struct simt_warp *w, double *ready,
		  const struct simt_stream *st, const struct simt_rec *in)
{
	const struct simt_params *sp = &s->sp;
	const struct simt_pc *pi = &s->pc[in->pc];
	const struct weft_inst_info *ii = &s->p->info[in->pc];
	uint32_t nexec = in->nexec;

	s->ls.warp_insts++;
	s->ls.thread_insts += nexec;
	s->ls.issue_lanes += in->nissue;
	s->ev[SIMT_EV_FETCH]++;
	s->ev[SIMT_EV_SCHED]++;
	s->ev[SIMT_EV_RF_READ] += (double)pi->rf_reads * nexec;
	s->ev[SIMT_EV_RF_WRITE] += (double)pi->rf_writes * nexec;
	if (pi->comp_ev >= 0)
		s->ev[pi->comp_ev] += nexec;
	sm->sched[w->sched] += sp->issue_cycles;

	double lat = pi->latency, occupy = sp->issue_cycles;
	if (pi->is_sfu && sp->sfu_per_sm) {
		sm->sfu += sp->sfu_cycles;
		if (sp->sfu_cycles > occupy)
			occupy = sp->sfu_cycles;
	}
	if (in->mem)
		mem_inst(s, sm, pi, st, in, &lat, &occupy);
	if (pi->is_barrier)
		s->ls.barriers++;

	/* The warp's issue slots are taken in program order (w->t); an
	 * instruction starts when its slot comes and its operands are ready.
	 * PTX order is not the machine's (ptxas schedules loads early), so a
	 * stalled instruction does not hold back independent later ones: the
	 * warp's time is its dataflow critical path or its issue slots,
	 * whichever is longer. Without forwarding (warp_serial) the warp is
	 * strictly in order: nothing starts before the previous one is done. */
	double start = w->t;
	for (uint32_t u = 0; u < ii->nuses; u++) {
		int32_t r = ii->uses[u];
		if (r >= 0 && (uint32_t)r < s->p->nregs && ready[r] > start)
			start = ready[r];
	}
	if (sp->warp_serial && w->last_done > start)
		start = w->last_done;
	double done = start + lat;
	for (uint32_t d = 0; d < ii->ndefs; d++) {
		int32_t r = ii->defs[d];
		if (r >= 0 && (uint32_t)r < s->p->nregs)
			ready[r] = done;
	}
	w->t = (sp->warp_serial || pi->is_barrier ? start : w->t) + occupy;
	w->last_done = done;
	if (done > w->end)
		w->end = done;
}

/* Times a CTA's warp stream on SM cta_seq % num_sm. */
static void stream_time(struct simt_state *s, const struct simt_stream *st)
{
	const struct simt_params *sp = &s->sp;
	struct simt_sm *sm = &s->sms[s->cta_seq % sp->num_sm];
	uint32_t nw = st->nw;
	uint32_t nregs = s->p->nregs ? s->p->nregs : 1;
	s->cta_seq++;
	for (uint32_t w = 0; w < nw; w++) {
		struct simt_warp *W = &s->warps[w];
		W->t = W->last_done = W->end = 0;
		W->sched = (sm->warps_seen + w) % sp->schedulers; /* warps alternate schedulers */
		W->done = W->waiting = 0;
		double *ready = s->ready + (size_t)w * nregs;
		for (uint32_t r = 0; r < nregs; r++)
			ready[r] = 0;
	}
	/* Warps run independently between barriers; at a barrier every warp
	 * that has not exited waits for the latest one. */
	size_t i = 0;
	for (uint32_t round = 0; round < st->nrounds; round++) {
		for (; i < st->round_end[round]; i++) {
			const struct simt_rec *r = &st->rec[i];
			struct simt_warp *W = &s->warps[r->warp];
			issue(s, sm, W, s->ready + (size_t)r->warp * nregs, st, r);
			if (s->pc[r->pc].is_barrier)
				W->waiting = 1;
		}
		uint32_t waiting = 0;
		for (uint32_t w = 0; w < nw; w++)
			waiting += s->warps[w].waiting;
		if (!waiting)
			break;
		/* a warp arrives once what it issued before the barrier has
		 * completed (its shared-memory writes must be visible) */
		double T = 0;
		for (uint32_t w = 0; w < nw; w++) {
			const struct simt_warp *W = &s->warps[w];
			if (!W->waiting)
				continue;
			double a = W->end > W->t ? W->end : W->t;
			if (a > T)
				T = a;
		}
		for (uint32_t w = 0; w < nw; w++)
			if (s->warps[w].waiting) {
				s->warps[w].t = T;
				s->warps[w].waiting = 0;
			}
	}
	double dur = 0;
	for (uint32_t w = 0; w < nw; w++) {
		double e = s->warps[w].end > s->warps[w].t ? s->warps[w].end : s->warps[w].t;
		if (e > dur)
			dur = e;
	}
	/* the CTA takes the resident slot that frees first */
	uint32_t slots = s->occ.ctas ? s->occ.ctas : 1, best = 0;
	for (uint32_t k = 1; k < slots; k++)
		if (sm->slot_free[k] < sm->slot_free[best])
			best = k;
	sm->slot_free[best] += dur;
	sm->nctas++;
	sm->warps_seen += nw;
}

int simt_replay_cta(struct simt_state *s, const struct weft_cta_trace *cta, struct weft_error *err)
{
	/* the stream another state built from this same CTA, when it may be
	 * shared (simt_follow); else this state's own */
	const struct simt_state *src = s->stream_src;
	const struct simt_stream *st = src ? src->stream : NULL;
	if (!st || !st->valid || st->p != s->p || st->launch != cta->launch || st->cta != cta->cta ||
	    st->nw > s->warps_cap) {
		if (!s->stream) {
			s->stream = calloc(1, sizeof(*s->stream));
			if (!s->stream)
				return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for a warp stream");
		}
		int rc = stream_build(s, s->stream, cta, err);
		if (rc) {
			s->cta_seq++; /* as the CTA was dealt */
			return rc;
		}
		st = s->stream;
	}
	stream_time(s, st);
	return 0;
}
