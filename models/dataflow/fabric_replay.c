/*
 * fabric_replay.c - one pass over a launch's CTAs for the dataflow-fabric
 * model (fabric.c): per thread, the blocks it visited and the guard
 * outcomes (executed instructions per pc), loop trip counts (for the loop
 * kernels of map.h), and its memory accesses; then the CTA's accesses go
 * through the caches in the order a pipelined graph issues them.
 *
 * Order of memory accesses (fabric.c (7)): CTAs one after another on core
 * (CTA index mod cores); inside a CTA, round robin over its threads by
 * access index: the j-th access of every thread before any thread's
 * (j+1)-th. A graph streams the CTA's threads one per cycle, so a static
 * memory node sees thread t's access right after thread t-1's; a loop body
 * runs iteration i of every thread before iteration i+1. The order does
 * not depend on the token buffer or unit counts, so the cache results are
 * the same for every point of a sweep over those.
 *
 * The walk over a thread's path finds its accesses thread by thread;
 * prepare stores them in the order above (fabric.h struct
 * fabric_prepared), so that apply, on the calling thread, reads them in
 * one pass front to back and the reordering is done where CTAs are
 * prepared (on a worker thread with -j 2). It reorders FABRIC_ORDER_BLOCK
 * threads at a time: each thread's accesses are read in turn and each
 * j-step of the block's threads is written as one run.
 *
 * No warp coalescing: every thread access is one L1 access (one word per
 * L1 bank per cycle; bank = 4-byte word address mod banks). Consecutive
 * accesses to the L1's most recently used line skip the cache model's
 * lookup (it would be a hit that changes no state) to keep the per-access
 * cost low.
 *
 * A CTA is gathered (weft_fabric_prepare_cta, where it is decoded) into a
 * struct fabric_prepared that keeps every access as a (pc, space) key and
 * an address offset (fabric.h), and applied in CTA order from that alone
 * (weft_fabric_apply_cta), so the walk may drop the decoded CTA.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "models/memsys.h"

int weft_fabric_launch_begin(struct fabric_state *s, const struct weft_program *p, struct weft_error *err)
{
	const struct fabric_params *fp = &s->fp;
	weft_fabric_launch_end(s);
	s->p = p;
	s->pc = calloc((size_t)p->ninsts + 1, sizeof(*s->pc));
	s->bvisit = calloc((size_t)p->nblocks + 1, sizeof(*s->bvisit));
	s->bvisit_warm = calloc((size_t)p->nblocks + 1, sizeof(*s->bvisit_warm));
	s->pad_bvisit = calloc((size_t)p->nblocks + 1, sizeof(*s->pad_bvisit));
	s->pad_notexec = calloc((size_t)p->ninsts + 1, sizeof(*s->pad_notexec));
	s->flag_start = calloc((size_t)p->nblocks + 2, sizeof(uint32_t));
	s->flag_pcs = malloc(((size_t)p->ninsts + 1) * sizeof(uint32_t));
	s->dmt_rm = calloc((size_t)p->ninsts + 1, 1);
	s->dmt_fwd = calloc((size_t)p->ninsts + 1, 1);
	if (!s->pc || !s->bvisit || !s->bvisit_warm || !s->pad_bvisit || !s->pad_notexec || !s->flag_start ||
	    !s->flag_pcs || !s->dmt_rm || !s->dmt_fwd)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s", p->kernel);
	uint32_t n = 0;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		s->flag_start[b] = n;
		const struct weft_block *B = &p->blocks[b];
		for (uint32_t pc = B->first; pc < B->first + B->count; pc++)
			if (p->iflags[pc])
				s->flag_pcs[n++] = pc;
	}
	s->flag_start[p->nblocks] = n;
	/* one release-time heap of token_buffer entries per pc that accesses
	 * memory */
	s->heap_n = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		s->pc[pc].heap = p->iflags[pc] & WEFT_II_ADDR ? s->heap_n++ : UINT32_MAX;
	free(s->heaps);
	s->heaps = malloc(((size_t)s->heap_n * fp->token_buffer + 1) * sizeof(double));
	if (!s->heaps)
		return weft_error_set(err, WEFT_ERR_NOMEM,
				      "out of memory for %u LDST units' %u reservation entries (kernel %s)",
				      s->heap_n, fp->token_buffer, p->kernel);
	int rc = weft_dfg_analyses_build(p, &s->an, err);
	if (rc)
		return rc;
	s->an_ok = 1;
	rc = weft_trips_init(&s->trips, &s->an.loops, err);
	if (rc)
		return rc;
	s->trips_ok = 1;
	rc = weft_trips_init(&s->trips_warm, &s->an.loops, err);
	if (rc)
		return rc;
	s->trips_warm_ok = 1;
	free(s->pad_trips);
	s->pad_trips = calloc((size_t)s->an.loops.nloops + 1, sizeof(*s->pad_trips));
	if (!s->pad_trips)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s", p->kernel);
	for (uint32_t i = 0; i < fp->cores; i++) {
		struct fabric_core *c = &s->cores[i];
		weft_cache_flush(&c->l1); /* L1s start cold each kernel */
		weft_cache_reset_stats(&c->l1);
		c->memo_valid = c->memo_dirty = 0;
		memset(c->l1_bank, 0, fp->l1.banks * sizeof(uint64_t));
		memset(c->sh_bank, 0, fp->shmem_banks * sizeof(uint64_t));
		c->miss_cycles = 0;
		c->ctas = 0;
	}
	weft_cache_reset_stats(&s->l2); /* the L2 keeps its contents across launches */
	s->cta_seq = 0;
	s->warmed = 0;
	s->pad_known = s->pad_read = 0;
	s->pad_threads = 0;
	s->seq_marked = 0;
	s->seq_ok = fp->replay_cache && !fp->dmt;
	s->seq_total = 0;
	if (s->seq_ok) {
		s->seq = calloc((size_t)p->ninsts + 1, sizeof(*s->seq));
		s->seq_n = calloc((size_t)p->ninsts + 1, sizeof(uint32_t));
		s->seq_cap = calloc((size_t)p->ninsts + 1, sizeof(uint32_t));
		if (!s->seq || !s->seq_n || !s->seq_cap) {
			/* no cache for this launch, followers fed access by access */
			free(s->seq);
			free(s->seq_n);
			free(s->seq_cap);
			s->seq = NULL;
			s->seq_n = s->seq_cap = NULL;
			s->seq_ok = 0;
		}
	}
	memset(s->ev, 0, sizeof(s->ev));
	memset(&s->la, 0, sizeof(s->la));
	return 0;
}

void weft_fabric_launch_end(struct fabric_state *s)
{
	weft_fabric_prepared_free(&s->own); /* sized for this launch's program */
	free(s->pc);
	free(s->bvisit);
	free(s->bvisit_warm);
	free(s->pad_bvisit);
	free(s->pad_notexec);
	free(s->pad_trips);
	s->pad_trips = NULL;
	free(s->flag_start);
	free(s->flag_pcs);
	free(s->dmt_rm);
	free(s->dmt_fwd);
	free(s->heaps);
	s->heaps = NULL;
	s->heap_n = 0;
	s->pc = NULL;
	s->bvisit = s->bvisit_warm = s->pad_bvisit = s->pad_notexec = NULL;
	s->flag_start = s->flag_pcs = NULL;
	s->dmt_rm = s->dmt_fwd = NULL;
	if (s->seq && s->p)
		for (uint32_t pc = 0; pc < s->p->ninsts; pc++)
			free(s->seq[pc]);
	free(s->seq);
	free(s->seq_n);
	free(s->seq_cap);
	s->seq = NULL;
	s->seq_n = s->seq_cap = NULL;
	s->seq_ok = 0;
	if (s->trips_ok)
		weft_trips_free(&s->trips);
	if (s->trips_warm_ok)
		weft_trips_free(&s->trips_warm);
	if (s->an_ok)
		weft_dfg_analyses_free(&s->an);
	if (s->dmt_ok)
		weft_dmt_free(&s->dmt);
	s->trips_ok = s->trips_warm_ok = s->an_ok = s->dmt_ok = 0;
}

/* ---- memory ---- */

/* One access at the shared L2 (models/memsys.h: the lookup and the DRAM
 * traffic are weft_memsys_l2_access's): counted, not queued, and its
 * latency is the level that served it. */
static double l2_access(struct fabric_state *s, uint64_t addr, int is_write)
{
	const struct fabric_params *fp = &s->fp;
	struct weft_memsys_l2_out o;
	s->ev[FAB_EV_L2]++;
	weft_memsys_l2_access(&s->l2, addr, is_write, &o);
	s->la.dram_bytes += weft_memsys_dram_bytes(&o, fp->l2.line_bytes, 0);
	if (o.hit) {
		s->la.l2_hits++;
		return fp->l2_latency;
	}
	if (o.dram_fetch)
		return fp->dram_latency;
	return fp->l2_latency; /* write miss allocated without a fetch */
}

/* Latency of one L1 access; *miss set when a read waits for a fill. */
static double l1_access(struct fabric_state *s, struct fabric_core *c, uint64_t addr, int is_write,
			int *miss)
{
	const struct fabric_params *fp = &s->fp;
	uint64_t line = addr >> c->l1.line_shift;
	if (!is_write)
		s->la.l1_reads++;
	if (c->memo_valid && c->memo_line == line && (!is_write || c->memo_dirty)) {
		/* the MRU line: a hit that changes no cache state */
		if (!is_write)
			s->la.l1_read_hits++;
		return fp->l1_latency;
	}
	uint64_t victim = 0;
	unsigned r = weft_cache_access(&c->l1, addr, is_write, &victim);
	double lat = fp->l1_latency;
	if (!is_write && (r & WEFT_CACHE_HIT))
		s->la.l1_read_hits++;
	if (r & WEFT_CACHE_WRITEBACK)
		l2_access(s, victim, 1);
	if (r & WEFT_CACHE_THROUGH)
		l2_access(s, addr, 1);
	if (r & WEFT_CACHE_FILL) {
		lat = l2_access(s, addr, 0);
		*miss = 1;
		if (!is_write)
			c->miss_cycles += lat;
	}
	fabric_memo_note(c, line, r, is_write, fp->l1.write == WEFT_CACHE_WRITE_BACK);
	if (is_write && !fp->l1.write_fetch) {
		lat = fp->l1_latency; /* nothing waits for a store's line */
		*miss = 0;
	}
	return lat;
}

/* Most held latencies a replay keeps (2 bytes each, 2 MiB): a bound
 * whatever the launch's length. A launch with more accesses keeps none for
 * the cache (its entry then serves only its own token buffer); a run_many
 * leader hands what it kept to its followers' LDST units each time the
 * bound is reached (feeds_flush) and keeps on. */
#define FAB_SEQ_MAX (1u << 20)

/* Feeds the run_many followers' LDST units (those the leader feeds this
 * launch) with the held latencies kept since the last flush, pc by pc (each
 * unit sees its accesses in order; units are independent), and empties the
 * sequences. */
static void feeds_flush(struct fabric_state *s)
{
	for (uint32_t k = 0; k < s->nfeeds; k++) {
		struct fabric_state *f = s->feeds[k];
		if (!f->streamed)
			continue;
		for (uint32_t pc = 0; pc < s->p->ninsts; pc++)
			if (s->seq_n[pc])
				weft_fabric_ldst_feed_batch(&f->pc[pc].q,
							    f->heaps + (size_t)s->pc[pc].heap * f->fp.token_buffer,
							    s->seq[pc], s->seq_n[pc], f->fp.token_buffer,
							    f->fp.epoch_rule, s->seq_marked);
	}
	for (uint32_t pc = 0; pc < s->p->ninsts; pc++)
		s->seq_n[pc] = 0;
	s->seq_total = 0;
}

void weft_fabric_feeds_flush(struct fabric_state *s)
{
	if (s->nfeeds && s->seq)
		feeds_flush(s);
}

/* One held latency straight to the followers (no room to keep it). */
static void feeds_direct(struct fabric_state *s, uint32_t pc, uint16_t held)
{
	for (uint32_t k = 0; k < s->nfeeds; k++) {
		struct fabric_state *f = s->feeds[k];
		if (f->streamed)
			weft_fabric_ldst_feed_batch(&f->pc[pc].q,
						    f->heaps + (size_t)s->pc[pc].heap * f->fp.token_buffer, &held,
						    1, f->fp.token_buffer, f->fp.epoch_rule, s->seq_marked);
	}
}

/* Gives the held-latency sequences up for this launch, and their memory. */
static void seq_drop(struct fabric_state *s)
{
	s->seq_ok = 0;
	for (uint32_t pc = 0; pc < s->p->ninsts; pc++) {
		free(s->seq[pc]);
		s->seq[pc] = NULL;
		s->seq_n[pc] = s->seq_cap[pc] = 0;
	}
	s->seq_total = 0;
}

static __attribute__((noinline)) void seq_push_slow(struct fabric_state *s, uint32_t pc, uint16_t held)
{
	if (!s->seq) { /* followers, but no sequences (out of memory at launch_begin) */
		feeds_direct(s, pc, held);
		return;
	}
	if (s->seq_total >= FAB_SEQ_MAX) {
		if (!s->nfeeds) {
			seq_drop(s);
			return;
		}
		feeds_flush(s); /* the cache gets no sequence, the followers all */
		s->seq_ok = 0;
	}
	if (s->seq_n[pc] == s->seq_cap[pc]) {
		uint32_t cap = s->seq_cap[pc] ? 2 * s->seq_cap[pc] : 256;
		uint16_t *q = realloc(s->seq[pc], cap * sizeof(uint16_t));
		if (!q) {
			if (!s->nfeeds) {
				seq_drop(s);
				return;
			}
			feeds_flush(s);
			s->seq_ok = 0;
			if (!s->seq_cap[pc]) {
				feeds_direct(s, pc, held);
				return;
			}
		} else {
			s->seq[pc] = q;
			s->seq_cap[pc] = cap;
		}
	}
	s->seq[pc][s->seq_n[pc]++] = held;
	s->seq_total++;
}

/* Keeps one held latency (or FAB_SEQ_TOGGLE) of pc for re-feeds: inline
 * while its sequence has room, else seq_push_slow grows it (or flushes,
 * or drops it past FAB_SEQ_MAX) */
static inline void seq_push(struct fabric_state *s, uint32_t pc, uint16_t held)
{
	if (s->seq && s->seq_total < FAB_SEQ_MAX && s->seq_n[pc] < s->seq_cap[pc]) {
		s->seq[pc][s->seq_n[pc]++] = held;
		s->seq_total++;
		return;
	}
	seq_push_slow(s, pc, held);
}

/* n held latencies, none a toggle, for one rule, its state in locals */
static void feed_plain(struct fabric_ldst_q *q, double *heap, const uint16_t *held, uint32_t n, uint32_t tb,
		       enum fabric_epoch_rule rule)
{
	if (!n)
		return;
	if (rule == FAB_EPOCH_COMPLETION) {
		uint32_t en = q->ep_n;
		double emax = q->ep_max, esum = q->ep_sum;
		for (uint32_t i = 0; i < n; i++)
			fabric_epoch_step(&en, &emax, &esum, tb, held[i]);
		q->ep_n = en;
		q->ep_max = emax;
		q->ep_sum = esum;
	} else {
		double last = q->fed ? q->last : -1, end = q->end;
		uint32_t nrel = q->nrel;
		for (uint32_t i = 0; i < n; i++)
			last = fabric_admit(heap, &nrel, tb, last + 1, held[i], &end);
		q->last = last;
		q->end = end;
		q->nrel = nrel;
	}
	q->fed += n;
}

void weft_fabric_ldst_feed_batch(struct fabric_ldst_q *q, double *heap, const uint16_t *held, uint32_t n,
			    uint32_t tb, enum fabric_epoch_rule rule, int marked)
{
	if (!tb)
		tb = 1;
	if (!marked) {
		feed_plain(q, heap, held, n, tb, rule);
		return;
	}
	/* the stretches between toggles */
	uint32_t i = 0;
	while (i < n) {
		uint32_t j = i;
		while (j < n && held[j] != FAB_SEQ_TOGGLE)
			j++;
		feed_plain(q, heap, held + i, j - i, tb, rule);
		if (j < n) {
			fabric_ldst_toggle(q);
			j++;
		}
		i = j;
	}
}

void weft_fabric_ldst_refeed(struct fabric_ldst_q *q, double *heap, const uint16_t *held, uint32_t n,
			uint32_t tb, enum fabric_epoch_rule rule, int marked)
{
	/* a sweep re-feeds every access once per point */
	memset(q, 0, sizeof(*q));
	weft_fabric_ldst_feed_batch(q, heap, held, n, tb, rule, marked);
}

/* The held latency of an access as a sequence keeps it */
static inline uint16_t seq_held(double held)
{
	return (uint16_t)(held > FAB_SEQ_HELD_MAX ? FAB_SEQ_HELD_MAX : held);
}

/* pc's unit switches between warmed and timed accesses (fabric_ldst_q):
 * once per stretch, out of the replay's per-access path */
static __attribute__((noinline, cold)) void stretch_toggle(struct fabric_state *s, uint32_t pc)
{
	fabric_ldst_toggle(&s->pc[pc].q);
	s->seq_marked = 1;
	if (s->seq_ok || s->nfeeds)
		seq_push(s, pc, FAB_SEQ_TOGGLE);
}

void weft_fabric_ldst_warm_feed(struct fabric_state *s, uint32_t pc, double held)
{
	struct fabric_pc *P = &s->pc[pc];
	if (!P->q.warming)
		stretch_toggle(s, pc);
	if (s->seq_ok || s->nfeeds)
		seq_push(s, pc, seq_held(held));
	fabric_ldst_feed(&P->q, s->heaps + (size_t)P->heap * s->fp.token_buffer, s->fp.token_buffer, held);
}

/* The bank of word w among n banks: w mod n, by a mask where n is a power
 * of two (the default 32; a 64-bit divide per word otherwise). */
static inline uint64_t bank_of(uint64_t w, uint32_t n)
{
	return n & (n - 1) ? w % n : w & (n - 1);
}

static void access_one(struct fabric_state *s, struct fabric_core *c, const struct fabric_acc *a,
		       uint32_t cta)
{
	const struct fabric_params *fp = &s->fp;
	struct fabric_pc *P = &s->pc[a->pc];
	const struct weft_inst_info *ii = &s->p->info[a->pc];
	if (s->dmt_rm[a->pc]) {
		/* dMT: the access is gone (carried by an elevator, or a store
		 * only elevator-carried loads read) */
		P->removed_acc++;
		s->la.removed_acc++;
		return;
	}
	uint32_t bytes = ii->access_bytes ? ii->access_bytes : 4;
	uint32_t words = (bytes + 3) / 4;
	int is_store = ii->cls == WEFT_IC_STORE, is_atomic = ii->cls == WEFT_IC_ATOMIC;
	double lat;
	int waits = 0; /* served beyond a fixed pipeline (L1 miss, atomic at the L2) */
	if (a->space == WEFT_SPACE_SHARED && s->dmt_fwd[a->pc] == FABRIC_LVC_LOAD) {
		/* dMT: communication too far for the elevators (more than
		 * max_cascade): the value comes from the live value cache */
		s->ev[FAB_EV_LVC] += 2; /* the producer's write and this read */
		s->la.lvc++;
		lat = s->fp.lvc_latency;
	} else if (a->space == WEFT_SPACE_SHARED) {
		uint64_t w0 = a->addr >> 2;
		for (uint32_t w = 0; w < words; w++)
			c->sh_bank[bank_of(w0 + w, fp->shmem_banks)]++;
		s->ev[FAB_EV_SHMEM] += words;
		lat = fp->shmem_latency;
	} else if (a->space == WEFT_SPACE_CONST || a->space == WEFT_SPACE_PARAM) {
		lat = fp->l1_latency; /* constant cache (not priced, as in the SIMT model) */
	} else if (s->dmt_fwd[a->pc] == FABRIC_FWD_LOAD && !is_store && !is_atomic && P->last_cta == cta + 1 &&
		   P->last_addr == a->addr) {
		/* dMT eLSU: the previous thread at this load read the same
		 * address; the value is forwarded from its token buffer */
		P->fwd++;
		s->la.fwd++;
		s->ev[FAB_EV_ELSU_FORWARD]++;
		lat = fp->lat[WEFT_DFU_CONTROL];
	} else {
		uint64_t w0 = a->addr >> 2;
		for (uint32_t w = 0; w < words; w++)
			c->l1_bank[bank_of(w0 + w, fp->l1.banks)]++;
		s->ev[FAB_EV_L1_WORD] += words;
		s->la.l1_words += words;
		if (is_atomic) {
			lat = l2_access(s, a->addr, 1); /* atomics at the L2, as on Fermi */
			s->la.atomics++;
			waits = 1;
		} else {
			lat = l1_access(s, c, a->addr, is_store, &waits);
		}
	}
	P->last_addr = a->addr;
	P->last_cta = cta + 1;
	s->ev[FAB_EV_RESERVATION]++;
	/* the reservation entry is held for the whole latency; with
	 * hit_pipelined an access served by a fixed pipeline (L1 hit, store,
	 * shared memory, constant cache, live value cache, eLSU forward)
	 * returns in order and holds none */
	int pipelined = fp->hit_pipelined && !waits;
	double held = (pipelined ? 0 : lat) + fp->lat[WEFT_DFU_LDST];
	if (__builtin_expect(P->q.warming, 0))
		stretch_toggle(s, a->pc);
	if (s->seq_ok || s->nfeeds) /* what a re-feed reads: whole cycles */
		seq_push(s, a->pc, seq_held(held));
	P->lat_full += lat + fp->lat[WEFT_DFU_LDST];
	if (pipelined)
		P->lat_pipe += lat;
	P->ops += 1;
	fabric_ldst_feed(&P->q, s->heaps + (size_t)P->heap * fp->token_buffer, fp->token_buffer, held);
}

void weft_fabric_prepared_free(struct fabric_prepared *pr)
{
	free(pr->acc_key);
	free(pr->acc_off);
	free(pr->acc_pc);
	free(pr->acc_sp);
	free(pr->acc_addr);
	free(pr->keymap);
	free(pr->pkey);
	free(pr->walk_key);
	free(pr->acc_start);
	free(pr->acc_n);
	free(pr->col);
	free(pr->bvisit);
	free(pr->notexec);
	free(pr->pad_bvisit);
	free(pr->pad_notexec);
	if (pr->loops) {
		weft_trips_free(&pr->trips);
		weft_trips_free(&pr->pad_trips);
	}
	memset(pr, 0, sizeof(*pr));
}

/* Capacity for nthreads threads and nacc accesses (doubling from 4096):
 * their keys (twice: the walk's and the fabric's order) and offsets, and
 * when wide their pcs, spaces and addresses. */
static int grow(struct fabric_prepared *pr, uint32_t nthreads, size_t nacc, int wide, struct weft_error *err)
{
	if (nthreads > pr->thr_cap) {
		free(pr->acc_start);
		free(pr->acc_n);
		pr->acc_start = malloc(nthreads * sizeof(uint32_t));
		pr->acc_n = malloc(nthreads * sizeof(uint32_t));
		pr->thr_cap = pr->acc_start && pr->acc_n ? nthreads : 0;
		if (!pr->thr_cap)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u threads", nthreads);
	}
	if (!wide && nacc > pr->acc_cap) {
		size_t cap = pr->acc_cap ? pr->acc_cap : 4096;
		while (cap < nacc)
			cap *= 2;
		uint8_t *k = realloc(pr->acc_key, cap);
		if (k)
			pr->acc_key = k;
		uint8_t *wk = k ? realloc(pr->walk_key, cap) : NULL;
		if (wk)
			pr->walk_key = wk;
		uint32_t *o = wk ? realloc(pr->acc_off, cap * sizeof(*o)) : NULL;
		if (!o)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu accesses", cap);
		pr->acc_off = o;
		pr->acc_cap = cap;
	}
	if (wide && nacc > pr->wide_cap) {
		size_t cap = pr->wide_cap ? pr->wide_cap : 4096;
		while (cap < nacc)
			cap *= 2;
		uint32_t *pc = realloc(pr->acc_pc, cap * sizeof(*pc));
		if (pc)
			pr->acc_pc = pc;
		uint8_t *sp = pc ? realloc(pr->acc_sp, cap) : NULL;
		if (sp)
			pr->acc_sp = sp;
		uint64_t *a = sp ? realloc(pr->acc_addr, cap * sizeof(*a)) : NULL;
		if (!a)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu accesses", cap);
		pr->acc_addr = a;
		pr->wide_cap = cap;
	}
	return 0;
}

/* Forgets the keys of the CTA prepared before. */
static void keys_reset(struct fabric_prepared *pr)
{
	for (uint32_t k = 0; k < pr->nkeys; k++) {
		pr->keymap[(size_t)pr->kpc[k] * WEFT_SPACE_COUNT + pr->ksp[k]] = 0;
		pr->pkey[pr->kpc[k]] = 0;
	}
	pr->nkeys = 0;
}

/* Makes pr wide, its first n accesses (narrow) rewritten whole. */
static int make_wide(struct fabric_prepared *pr, size_t nacc, uint32_t n, struct weft_error *err)
{
	int rc = grow(pr, 0, nacc, 1, err);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t k = pr->acc_key[i];
		pr->acc_pc[i] = pr->kpc[k];
		pr->acc_sp[i] = pr->ksp[k];
		pr->acc_addr[i] = pr->base[pr->ksp[k]] + pr->acc_off[i];
	}
	pr->wide = 1;
	return 0;
}

/* Narrow offsets are biased: base[sp] is the CTA's first address in the
 * space less FABRIC_OFF_BIAS, so an address within 2 GiB of it either
 * way is base[sp] + a 32-bit offset (uint64_t arithmetic, modulo 2^64). */
#define FABRIC_OFF_BIAS (UINT64_C(1) << 31)

/* Access i (pc, space, address) of a CTA of nacc accesses when the
 * narrow fast path in weft_fabric_prepare_cta cannot store it: pr is
 * wide already, (pc, sp) has no key yet (sp's first access sets its
 * base, *based marks it), or the address is more than 2 GiB from the
 * space's base (then pr goes wide). Out of line, so that the fast path
 * keeps its registers. */
static __attribute__((noinline)) int store_acc_slow(struct fabric_prepared *pr, uint32_t i, uint32_t pc, uint8_t sp,
						    uint64_t addr, size_t nacc, uint32_t *based,
						    struct weft_error *err)
{
	if (!pr->wide) {
		uint16_t *slot = sp < WEFT_SPACE_COUNT ? &pr->keymap[(size_t)pc * WEFT_SPACE_COUNT + sp] : NULL;
		if (slot && !(*based & (1u << sp))) {
			pr->base[sp] = addr - FABRIC_OFF_BIAS;
			*based |= 1u << sp;
		}
		uint64_t off = addr - (slot ? pr->base[sp] : 0);
		if (slot && off <= UINT32_MAX && (*slot || pr->nkeys < FABRIC_ACC_KEYS)) {
			if (!*slot) {
				pr->kpc[pr->nkeys] = pc;
				pr->ksp[pr->nkeys] = sp;
				*slot = (uint16_t)++pr->nkeys;
			}
			pr->acc_key[i] = (uint8_t)(*slot - 1);
			pr->acc_off[i] = (uint32_t)off;
			return 0;
		}
		/* a 257th (pc, space) pair, a space no instruction has, or an
		 * address 2 GiB or more from the space's first */
		int rc = make_wide(pr, nacc, i, err);
		if (rc)
			return rc;
	}
	pr->acc_pc[i] = pc;
	pr->acc_sp[i] = sp;
	pr->acc_addr[i] = addr;
	return 0;
}

/* Sizes pr's per-block and per-pc counts for s's program and its trip
 * counts for s's loops (a new launch's program may differ), zeroed. */
static int prepared_fit(const struct fabric_state *s, struct fabric_prepared *pr, struct weft_error *err)
{
	const struct weft_program *p = s->p;
	if (pr->p != p || pr->loops != &s->an.loops) {
		free(pr->bvisit);
		free(pr->notexec);
		free(pr->pad_bvisit);
		free(pr->pad_notexec);
		if (pr->loops) {
			weft_trips_free(&pr->trips);
			weft_trips_free(&pr->pad_trips);
		}
		pr->loops = NULL;
		pr->p = NULL;
		free(pr->keymap);
		free(pr->pkey);
		pr->nkeys = 0;
		pr->bvisit = calloc((size_t)p->nblocks + 1, sizeof(*pr->bvisit));
		pr->notexec = calloc((size_t)p->ninsts + 1, sizeof(*pr->notexec));
		pr->pad_bvisit = calloc((size_t)p->nblocks + 1, sizeof(*pr->pad_bvisit));
		pr->pad_notexec = calloc((size_t)p->ninsts + 1, sizeof(*pr->pad_notexec));
		pr->keymap = calloc(((size_t)p->ninsts + 1) * WEFT_SPACE_COUNT, sizeof(*pr->keymap));
		pr->pkey = calloc((size_t)p->ninsts + 1, sizeof(*pr->pkey));
		if (!pr->bvisit || !pr->notexec || !pr->pad_bvisit || !pr->pad_notexec || !pr->keymap || !pr->pkey)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s", p->kernel);
		int rc = weft_trips_init(&pr->trips, &s->an.loops, err);
		if (rc)
			return rc;
		rc = weft_trips_init(&pr->pad_trips, &s->an.loops, err);
		if (rc) {
			weft_trips_free(&pr->trips);
			return rc;
		}
		pr->loops = &s->an.loops;
		pr->p = p;
		pr->nblocks = p->nblocks;
		pr->ninsts = p->ninsts;
		return 0;
	}
	memset(pr->bvisit, 0, (size_t)p->nblocks * sizeof(*pr->bvisit));
	memset(pr->notexec, 0, (size_t)p->ninsts * sizeof(*pr->notexec));
	weft_trips_reset(&pr->trips);
	return 0;
}

/* Key for the first access at pc of the CTA (space sp, address addr;
 * sp's first access sets its base): 1 + the key, 0 when the CTA has
 * FABRIC_ACC_KEYS keys already or sp is no space (prepare_walk's fast
 * form then gives up). */
static uint16_t pc_key(struct fabric_prepared *pr, uint32_t pc, uint8_t sp, uint64_t addr, uint32_t *based)
{
	if (sp >= WEFT_SPACE_COUNT || pr->nkeys >= FABRIC_ACC_KEYS)
		return 0;
	if (!(*based & (1u << sp))) {
		pr->base[sp] = addr - FABRIC_OFF_BIAS;
		*based |= 1u << sp;
	}
	pr->kpc[pr->nkeys] = pc;
	pr->ksp[pr->nkeys] = sp;
	pr->nkeys++;
	pr->keymap[(size_t)pc * WEFT_SPACE_COUNT + sp] = (uint16_t)pr->nkeys;
	pr->pkey[pc] = (uint16_t)pr->nkeys;
	return (uint16_t)pr->nkeys;
}

#define PREP_GENERAL 1 /* prepare_walk's fast form gave up */

/* The walk over the CTA's threads' paths: block visits, guarded-off
 * instructions, each thread's accesses. fast: an access's key is its
 * pc's (pkey: the first access at pc makes it, its space taken for
 * every access at pc) and its offset is left to order_fast; returns
 * PREP_GENERAL when a pc needs a 257th key or a space that is none.
 * Otherwise each access is keyed by its (pc, space), wide when need be
 * (store_acc_slow). Inlined twice, fast a constant. */
static inline __attribute__((always_inline)) int prepare_walk(const struct fabric_state *s, const struct weft_cta_trace *cta,
			       struct fabric_prepared *pr, size_t nacc, int fast, struct weft_error *err)
{
	const struct weft_program *p = s->p;
	int rc;
	uint16_t *pkey = pr->pkey;
	uint32_t based = 0; /* the spaces whose base is set (1 << space) */
	/* the fast path's copies (its byte stores could alias pr's fields),
	 * refreshed after each store_acc_slow */
	uint8_t *acc_key = fast ? pr->walk_key : pr->acc_key;
	uint32_t *acc_off = pr->acc_off;
	const uint16_t *keymap = pr->keymap;
	uint64_t base[WEFT_SPACE_COUNT];
	int wide = 0;
	memcpy(base, pr->base, sizeof(base));
	const uint8_t *iflags = p->iflags;
	uint32_t total = 0, maxn = 0;
	for (uint32_t t = 0; t < cta->nthreads; t++) {
		const struct weft_thread_trace *T = &cta->threads[t];
		uint32_t gi = 0, ai = 0;
		pr->acc_start[t] = total;
		for (uint32_t bi = 0; bi < T->nblocks; bi++) {
			uint32_t b = T->blocks[bi];
			if (b >= p->nblocks)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "CTA %u thread %u: block %u on its path, the kernel has %u "
						      "(corrupt trace? run weft-trace verify)",
						      cta->cta, t, b, p->nblocks);
			pr->bvisit[b]++;
			for (uint32_t k = s->flag_start[b]; k < s->flag_start[b + 1]; k++) {
				uint32_t pc = s->flag_pcs[k];
				uint8_t f = iflags[pc];
				int exec = 1;
				if (f & WEFT_II_GUARD) {
					if (gi >= T->nguards)
						goto short_trace;
					exec = T->guards[gi++];
				} else if (f & WEFT_II_GCTRL) {
					exec = bi + 1 < T->nblocks ? T->blocks[bi + 1] != b + 1 : 1;
				}
				if (!exec) {
					pr->notexec[pc]++;
				} else if (f & WEFT_II_ADDR) {
					if (ai >= T->naddrs)
						goto short_trace;
					/* the thread's ai-th access is its ai-th address */
					if (fast) {
						uint16_t kk = pkey[pc];
						if (!kk && !(kk = pc_key(pr, pc, T->spaces[ai], weft_thread_addr(T, ai),
									     &based)))
							return PREP_GENERAL;
						acc_key[total++] = (uint8_t)(kk - 1);
						ai++;
						continue;
					}
					uint8_t sp = T->spaces[ai];
					uint64_t addr = weft_thread_addr(T, ai);
					uint16_t key = 0;
					uint64_t off = 0;
					if (!wide && sp < WEFT_SPACE_COUNT) {
						key = keymap[(size_t)pc * WEFT_SPACE_COUNT + sp];
						off = addr - base[sp];
					}
					if (key && off <= UINT32_MAX) { /* the usual case */
						acc_key[total] = (uint8_t)(key - 1);
						acc_off[total] = (uint32_t)off;
					} else {
						rc = store_acc_slow(pr, total, pc, sp, addr, nacc, &based, err);
						if (rc)
							return rc;
						wide = pr->wide;
						memcpy(base, pr->base, sizeof(base));
					}
					total++;
					ai++;
				}
			}
		}
		pr->acc_n[t] = total - pr->acc_start[t];
		if (pr->acc_n[t] > maxn)
			maxn = pr->acc_n[t];
		continue;
	short_trace:
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "CTA %u thread %u: its path needs more guard bits or addresses than "
				      "the trace holds (corrupt trace? run weft-trace verify)",
				      cta->cta, t);
	}
	pr->nthreads = cta->nthreads;
	pr->maxn = maxn;
	pr->nacc = total;
	return 0;
}

/* Where the first thread's j-th access goes in the fabric's order, for
 * each j < maxn: col[j] (the threads with more than j accesses, in id
 * order, after the j' < j steps of every thread). */
static int columns(struct fabric_prepared *pr, struct weft_error *err)
{
	size_t need = (size_t)pr->maxn + 1;
	if (need > pr->col_cap) {
		uint32_t *c = realloc(pr->col, need * sizeof(*c));
		if (!c)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu access steps", need);
		pr->col = c;
		pr->col_cap = need;
	}
	uint32_t *col = pr->col;
	memset(col, 0, need * sizeof(*col));
	for (uint32_t t = 0; t < pr->nthreads; t++)
		col[pr->acc_n[t]]++; /* first the threads with exactly n accesses */
	uint32_t alive = pr->nthreads, pos = 0;
	for (uint32_t j = 0; j < pr->maxn; j++) {
		alive -= col[j]; /* those with j accesses take no j-th step */
		col[j] = pos;
		pos += alive;
	}
	return 0;
}

/* Threads reordered at a time: each j-step of theirs is one run of keys
 * (a 64-byte line) and offsets. */
#define FABRIC_ORDER_BLOCK 64

/* After prepare_walk's fast form: each access in the fabric's order, its
 * key from walk_key and its offset from its key's space's base; 1 when
 * one is 2 GiB or more from it or the access's space is not its pc's
 * first (the CTA is then walked again keyed by (pc, space)). */
static int order_fast(const struct weft_cta_trace *cta, struct fabric_prepared *pr)
{
	const uint8_t *walk_key = pr->walk_key, *ksp = pr->ksp;
	const uint32_t *acc_start = pr->acc_start, *acc_n = pr->acc_n;
	uint8_t *acc_key = pr->acc_key;
	uint32_t *acc_off = pr->acc_off, *col = pr->col;
	const uint64_t *base = pr->base;
	uint64_t bad = 0;
	uint32_t act[FABRIC_ORDER_BLOCK];
	for (uint32_t t0 = 0; t0 < pr->nthreads; t0 += FABRIC_ORDER_BLOCK) {
		uint32_t t1 = pr->nthreads - t0 < FABRIC_ORDER_BLOCK ? pr->nthreads : t0 + FABRIC_ORDER_BLOCK;
		uint32_t na = 0;
		for (uint32_t t = t0; t < t1; t++)
			if (acc_n[t])
				act[na++] = t;
		/* step j of the block's threads that have one, in id order
		 * (a thread leaves act after its last) */
		for (uint32_t j = 0; na; j++) {
			uint32_t i = col[j], keep = 0;
			for (uint32_t k = 0; k < na; k++) {
				uint32_t t = act[k];
				const struct weft_thread_trace *T = &cta->threads[t];
				uint8_t key = walk_key[acc_start[t] + j];
				uint8_t sp = ksp[key];
				uint64_t off = weft_thread_addr(T, j) - base[sp];
				bad |= (off >> 32) | (uint64_t)(T->spaces[j] != sp);
				acc_key[i] = key;
				acc_off[i] = (uint32_t)off;
				i++;
				if (acc_n[t] > j + 1)
					act[keep++] = t;
			}
			col[j] = i;
			na = keep;
		}
	}
	return bad != 0;
}

/* Array *arr of the general walk (pr->nacc elements of size bytes,
 * thread by thread; capacity cap) rewritten in the fabric's order. */
static int reorder(struct fabric_prepared *pr, void **arr, size_t size, size_t cap, struct weft_error *err)
{
	if (!pr->nacc)
		return 0;
	int rc = columns(pr, err);
	if (rc)
		return rc;
	unsigned char *to = malloc(cap * size);
	if (!to)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu accesses", cap);
	const unsigned char *from = *arr;
	for (uint32_t t = 0; t < pr->nthreads; t++)
		for (uint32_t j = 0; j < pr->acc_n[t]; j++)
			memcpy(to + (size_t)pr->col[j]++ * size, from + ((size_t)pr->acc_start[t] + j) * size, size);
	free(*arr);
	*arr = to;
	return 0;
}

/* After prepare_walk's general form: its arrays in the fabric's order. */
static int order_general(struct fabric_prepared *pr, struct weft_error *err)
{
	if (pr->wide) {
		int rc = reorder(pr, (void **)&pr->acc_pc, sizeof(*pr->acc_pc), pr->wide_cap, err);
		if (!rc)
			rc = reorder(pr, (void **)&pr->acc_sp, sizeof(*pr->acc_sp), pr->wide_cap, err);
		if (!rc)
			rc = reorder(pr, (void **)&pr->acc_addr, sizeof(*pr->acc_addr), pr->wide_cap, err);
		return rc;
	}
	int rc = reorder(pr, (void **)&pr->acc_key, sizeof(*pr->acc_key), pr->acc_cap, err);
	if (!rc)
		rc = reorder(pr, (void **)&pr->acc_off, sizeof(*pr->acc_off), pr->acc_cap, err);
	return rc;
}

/* A quiet thread: it accesses nothing but the launch's parameters and
 * constants, so it stores nothing and reads no data of its own (what
 * docs/models/vt.md "Grid padding" calls quiet, narrowed to those two
 * spaces: a uniform load from global memory makes a thread not quiet
 * here). */
static int quiet_thread(const struct weft_thread_trace *T)
{
	for (uint32_t j = 0; j < T->naddrs; j++)
		if (T->spaces[j] != WEFT_SPACE_PARAM && T->spaces[j] != WEFT_SPACE_CONST)
			return 0;
	return 1;
}

/* The grid padding of the launch's last CTA: its trailing quiet threads,
 * when a thread before them is not quiet (the work the grid was rounded
 * up for; docs/models/vt.md "Grid padding" gives the rule's limits), and
 * their block visits and guarded-off instances (prepare_walk's counting,
 * for those threads; their paths were checked by the walk). */
static void pad_count(const struct fabric_state *s, const struct weft_cta_trace *cta,
		      struct fabric_prepared *pr)
{
	const struct weft_program *p = s->p;
	pr->pad_threads = 0;
	if (!s->launch_ctas || cta->cta + 1 != s->launch_ctas)
		return;
	uint32_t t = cta->nthreads;
	while (t > 0 && quiet_thread(&cta->threads[t - 1]))
		t--;
	if (t == 0 || t == cta->nthreads)
		return;
	memset(pr->pad_bvisit, 0, (size_t)p->nblocks * sizeof(*pr->pad_bvisit));
	memset(pr->pad_notexec, 0, (size_t)p->ninsts * sizeof(*pr->pad_notexec));
	weft_trips_reset(&pr->pad_trips);
	weft_trips_cta_begin(&pr->pad_trips);
	pr->pad_threads = cta->nthreads - t;
	for (; t < cta->nthreads; t++) {
		const struct weft_thread_trace *T = &cta->threads[t];
		weft_trips_add_path(&pr->pad_trips, T->blocks, T->nblocks);
		uint32_t gi = 0;
		for (uint32_t bi = 0; bi < T->nblocks; bi++) {
			uint32_t b = T->blocks[bi];
			pr->pad_bvisit[b]++;
			for (uint32_t k = s->flag_start[b]; k < s->flag_start[b + 1]; k++) {
				uint32_t pc = s->flag_pcs[k];
				uint8_t f = p->iflags[pc];
				int exec = 1;
				if (f & WEFT_II_GUARD)
					exec = gi < T->nguards ? T->guards[gi++] : 1;
				else if (f & WEFT_II_GCTRL)
					exec = bi + 1 < T->nblocks ? T->blocks[bi + 1] != b + 1 : 1;
				if (!exec)
					pr->pad_notexec[pc]++;
			}
		}
	}
	weft_trips_cta_end(&pr->pad_trips);
}

int weft_fabric_prepare_cta(const struct fabric_state *s, const struct weft_cta_trace *cta,
			    struct fabric_prepared *pr, struct weft_error *err)
{
	const struct weft_program *p = s->p;
	int rc = prepared_fit(s, pr, err);
	if (rc)
		return rc;
	weft_trips_add_cta(&pr->trips, cta);
	/* the accesses (narrow until one does not fit: store_acc_slow) */
	size_t nacc = 0;
	for (uint32_t t = 0; t < cta->nthreads; t++)
		nacc += cta->threads[t].naddrs;
	keys_reset(pr);
	pr->wide = 0;
	rc = grow(pr, cta->nthreads, nacc, 0, err);
	if (rc)
		return rc;
	rc = prepare_walk(s, cta, pr, nacc, 1, err);
	if (!rc)
		rc = columns(pr, err);
	if (!rc && order_fast(cta, pr))
		rc = PREP_GENERAL;
	if (rc == PREP_GENERAL) { /* rare: again, each access keyed by (pc, space) */
		memset(pr->bvisit, 0, (size_t)p->nblocks * sizeof(*pr->bvisit));
		memset(pr->notexec, 0, (size_t)p->ninsts * sizeof(*pr->notexec));
		keys_reset(pr);
		rc = prepare_walk(s, cta, pr, nacc, 0, err);
		if (!rc)
			rc = order_general(pr, err);
	}
	if (!rc)
		pad_count(s, cta, pr);
	return rc;
}


uint64_t weft_fabric_prepared_bytes(const struct weft_trace_launch *L)
{
	if (!L->nctas)
		return 0;
	/* per access its key (twice) and offset, per access step of a thread
	 * a column start (their average taken), per thread its start and
	 * count, per block and pc a count */
	double acc = (double)L->mem_accesses / L->nctas;
	double b = acc * (2 + sizeof(uint32_t)) +
		   (L->threads_per_cta ? acc / L->threads_per_cta * sizeof(uint32_t) : 0) +
		   (double)L->threads_per_cta * 2 * sizeof(uint32_t) +
		   ((double)L->program->nblocks + L->program->ninsts) * sizeof(uint64_t);
	return b > 1e15 ? (uint64_t)1e15 : (uint64_t)b;
}

void weft_fabric_pad_note(struct fabric_state *s, const struct fabric_prepared *pr, int read)
{
	s->pad_known = 1;
	s->pad_read = read;
	s->pad_threads = pr->pad_threads;
	if (pr->pad_threads) {
		memcpy(s->pad_bvisit, pr->pad_bvisit, (size_t)s->p->nblocks * sizeof(*s->pad_bvisit));
		memcpy(s->pad_notexec, pr->pad_notexec, (size_t)s->p->ninsts * sizeof(*s->pad_notexec));
		memcpy(s->pad_trips, pr->pad_trips.stat, s->an.loops.nloops * sizeof(*s->pad_trips));
	}
}

double weft_fabric_expansion(const struct fabric_state *s, double *ctas_read)
{
	const double N = s->launch_ctas, n = s->cta_seq, T = s->launch_tpc, P = s->pad_threads;
	double read = n ? n : 1, f = N && n ? N / n : 1;
	if (n && n < N && s->pad_known && P > 0 && P < T) {
		/* the working threads: the launch's, less its padding, over
		 * those read, less the padding read (docs/estimate.md "Grid
		 * padding in a fabric sample") */
		double w = n * T - (s->pad_read ? P : 0);
		f = (N * T - P) / w;
		read = N / f;
	}
	if (ctas_read)
		*ctas_read = read;
	return f;
}

void weft_fabric_apply_cta(struct fabric_state *s, const struct weft_cta_trace *cta,
			   struct fabric_prepared *pr)
{
	const struct weft_program *p = s->p;
	/* the core a full replay deals this CTA to: with warming, CTA c goes
	 * to core c mod cores (every CTA warmed or timed: the same as counting
	 * the warmed ones into the round robin; a warm window skips some) */
	struct fabric_core *core = &s->cores[(s->warming ? cta->cta : s->cta_seq) % s->fp.cores];
	s->cta_seq++;
	core->ctas++;
	if (cta->cta + 1 == s->launch_ctas)
		weft_fabric_pad_note(s, pr, 1);
	weft_trips_merge(&s->trips, &pr->trips);
	for (uint32_t b = 0; b < p->nblocks; b++)
		s->bvisit[b] += pr->bvisit[b];
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		s->pc[pc].notexec += pr->notexec[pc];
	s->la.threads += pr->nthreads;
	/* the accesses in the fabric's order, as prepared. One call site of
	 * access_one, so that it stays inlined. */
	for (size_t i = 0; i < pr->nacc; i++) {
		struct fabric_acc a = weft_fabric_acc_at(pr, i);
		access_one(s, core, &a, cta->cta);
	}
}

int weft_fabric_replay_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err)
{
	int rc = weft_fabric_prepare_cta(s, cta, &s->own, err);
	if (!rc)
		weft_fabric_apply_cta(s, cta, &s->own);
	return rc;
}

void weft_fabric_replay_flush(struct fabric_state *s)
{
	const struct fabric_params *fp = &s->fp;
	/* with warming the caches end as a full replay leaves them, so their
	 * write-backs are the whole launch's, counted once: scaled by CTAs
	 * read / the launch's CTAs, the expansion by CTAs / CTAs read undoes it
	 * (without warming the factor is 1 and the sample's dirty lines are
	 * expanded like its other counts) */
	double once = s->warmed && s->launch_ctas ? 1 / weft_fabric_expansion(s, NULL) : 1;
	if (fp->l1.write == WEFT_CACHE_WRITE_BACK)
		for (uint32_t i = 0; i < fp->cores; i++) {
			double n = (double)weft_cache_clean(&s->cores[i].l1) * once;
			s->ev[FAB_EV_L2] += n; /* into the L2, already clean there: on to DRAM */
			s->la.dram_bytes += n * fp->l2.line_bytes;
			s->cores[i].memo_dirty = 0;
		}
	if (fp->l2.write == WEFT_CACHE_WRITE_BACK)
		s->la.dram_bytes += (double)weft_cache_clean(&s->l2) * once * fp->l2.line_bytes;
}
