/*
 * dmt_comm.c - the per-CTA passes of the dMT communication analysis
 * (dmt_comm.h): which shared store produced each shared load's value, and
 * which loads re-read a value a lower thread of the CTA already loaded.
 *
 * Pass A replays each warp (group of warp_width threads, IPDOM) with the
 * group iterator, so that lanes of a warp come in the lock-step order the
 * emulator ran them, and records every shared access with the thread's
 * barrier epoch and its k-th execution of the instruction, and every
 * barrier each thread passed (dmt_barrier.c). A stable counting sort by
 * epoch then gives the order (epoch, warp, step) in which a per-byte
 * last-writer table is replayed; each load's distance also goes into the
 * per-iteration table (dmt_iter.c).
 * Pass B walks each thread's stream in thread-id order and keys every load
 * by (pc, k-th execution, address, producing store) in a hash table, so the
 * previous thread that loaded the same value is the one stored there.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/emu/emu.h"
#include "dmt_internal.h"

static uint8_t inst_kind(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_LD: case WEFT_OP_LDU:
		return DMT_K_LOAD;
	case WEFT_OP_ST:
		return DMT_K_STORE;
	case WEFT_OP_ATOM: case WEFT_OP_RED:
		return DMT_K_ATOMIC;
	default:
		return DMT_K_NONE;
	}
}

int weft_dmt_init(struct weft_dmt *d, const struct weft_program *p,
		  const struct weft_dmt_params *prm, struct weft_error *err)
{
	memset(d, 0, sizeof(*d));
	if (prm)
		d->prm = *prm;
	else
		weft_dmt_params_default(&d->prm);
	int rc = weft_dmt_params_check(&d->prm, err);
	if (rc)
		return rc;
	/* tables of pairs: refuse a kernel too large for them before sizing them */
	uint32_t nmem = 0, nbar = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		nmem += inst_kind(&p->insts[pc]) != DMT_K_NONE;
		nbar += p->insts[pc].op == WEFT_OP_BAR && p->insts[pc].mode != WEFT_BAR_ARRIVE;
	}
	if (nmem > WEFT_DMT_MAX_MEM_INSTS || nbar > WEFT_DMT_MAX_BARRIERS)
		return weft_error_set(err, WEFT_ERR_LIMIT,
				      "dmt: kernel %s has %u memory instructions and %u barriers; the analysis "
				      "takes at most %u and %u (its tables grow with their product); "
				      "estimate this kernel with another model",
				      p->kernel ? p->kernel : "?", nmem, nbar, WEFT_DMT_MAX_MEM_INSTS,
				      WEFT_DMT_MAX_BARRIERS);
	d->p = p;
	d->ninsts = p->ninsts;
	d->inst = calloc(p->ninsts ? p->ninsts : 1, sizeof(*d->inst));
	struct weft_dmt_scratch *s = d->s = calloc(1, sizeof(*s));
	if (!d->inst || !s)
		goto nomem;
	rc = weft_group_prog_init(&s->gp, p, err);
	if (rc) {
		free(s);
		d->s = NULL;
		weft_dmt_free(d);
		return rc;
	}
	uint32_t n = p->ninsts ? p->ninsts : 1;
	s->kind = calloc(n, 1);
	s->is_bar = calloc(n, 1);
	s->memidx = malloc(n * sizeof(uint32_t));
	s->mempc = malloc(n * sizeof(uint32_t));
	s->acc_all = calloc(n, sizeof(uint64_t));
	s->acc_shared = calloc(n, sizeof(uint64_t));
	if (!s->kind || !s->is_bar || !s->memidx || !s->mempc || !s->acc_all || !s->acc_shared)
		goto nomem;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		s->kind[pc] = inst_kind(in);
		/* bar.arrive does not wait, so it orders nothing for its thread */
		s->is_bar[pc] = in->op == WEFT_OP_BAR && in->mode != WEFT_BAR_ARRIVE;
		s->memidx[pc] = UINT32_MAX;
		if (s->kind[pc] != DMT_K_NONE) {
			s->memidx[pc] = s->nmem;
			s->mempc[s->nmem++] = pc;
		}
		if (s->is_bar[pc])
			d->inst[pc].role = WEFT_DMT_BAR;
	}
	/* global communication matters only for removing barriers */
	int has_bar = 0, has_gstore = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		uint8_t sp = p->insts[pc].space;
		has_bar |= s->is_bar[pc];
		has_gstore |= (s->kind[pc] == DMT_K_STORE || s->kind[pc] == DMT_K_ATOMIC) &&
			      (sp == WEFT_SPACE_GLOBAL || sp == WEFT_SPACE_GENERIC);
	}
	s->track_global = has_bar && has_gstore;
	s->edge = calloc((size_t)s->nmem * s->nmem + 1, 1);
	s->kcount = calloc(s->nmem + 1, sizeof(uint32_t));
	s->klane = calloc((size_t)d->prm.warp_width * s->nmem + 1, sizeof(uint32_t));
	s->ktouched = malloc(((size_t)d->prm.warp_width * s->nmem + 1) * sizeof(size_t));
	if (!s->edge || !s->kcount || !s->klane || !s->ktouched || weft_dmt_barrier_init(d))
		goto nomem;
	rc = weft_dmt_iter_init(d, err);
	if (rc) {
		weft_dmt_free(d);
		return rc;
	}
	return 0;
nomem:
	weft_dmt_free(d);
	return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for a %u-instruction kernel",
			      p->ninsts);
}

void weft_dmt_free(struct weft_dmt *d)
{
	if (d->inst)
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			free(d->inst[pc].hist);
			free(d->inst[pc].reuse_hist);
		}
	free(d->inst);
	struct weft_dmt_scratch *s = d->s;
	if (s) {
		weft_group_prog_free(&s->gp);
		free(s->kind), free(s->is_bar), free(s->memidx), free(s->mempc);
		free(s->acc_all), free(s->acc_shared), free(s->edge);
		free(s->rec), free(s->rec2), free(s->epoch_count), free(s->ver), free(s->abase);
		free(s->bytes), free(s->vals), free(s->kcount), free(s->klane), free(s->ktouched);
		weft_dmt_global_free(s);
		weft_dmt_barrier_free(s);
		weft_dmt_iter_free(s);
		free(s);
	}
	memset(d, 0, sizeof(*d));
}

static uint64_t shared_offset(uint64_t a)
{
	/* generic accesses to shared carry the window base (docs/emulator.md) */
	if (a >= WEFT_EMU_SHARED_BASE && a < WEFT_EMU_SHARED_BASE + WEFT_EMU_WINDOW_SIZE)
		a -= WEFT_EMU_SHARED_BASE;
	return a;
}

/* Pass A: records every shared access in lock-step order per warp, with
 * the lane's barrier epoch and instance number, and the barriers each lane
 * passed; counts executed instances of every pc. */
static int pass_records(struct weft_dmt *d, const struct weft_cta_trace *c, uint64_t *nloads,
			struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	uint32_t W = d->prm.warp_width;
	uint32_t ngroups = weft_group_count(c->nthreads, W);
	s->nrec = 0;
	s->nbrec = 0;
	*nloads = 0;
	for (uint32_t g = 0; g < ngroups; g++) {
		for (uint64_t i = 0; i < s->nktouched; i++)
			s->klane[s->ktouched[i]] = 0;
		s->nktouched = 0;
		struct weft_group_iter it;
		int rc = weft_group_iter_init(&it, &s->gp, c, W, g, WEFT_DIV_IPDOM, 0, err);
		if (rc)
			return rc;
		uint32_t epoch[WEFT_GROUP_MAX_WIDTH] = { 0 }, ai[WEFT_GROUP_MAX_WIDTH] = { 0 };
		struct weft_group_inst gi;
		while ((rc = weft_group_next(&it, &gi)) > 0) {
			uint32_t pc = gi.pc;
			uint64_t n = (uint64_t)__builtin_popcountll(gi.exec);
			d->inst[pc].exec += n;
			d->tot.thread_insts += n;
			if (gi.is_mem) {
				uint8_t k = s->kind[pc];
				for (uint64_t m = gi.exec; m; m &= m - 1) {
					uint32_t lane = (uint32_t)__builtin_ctzll(m);
					uint32_t tid = g * W + lane;
					uint32_t aidx = s->abase[tid] + ai[lane]++;
					if (k == DMT_K_NONE)
						continue;
					uint8_t sp = gi.space[lane];
					if (k == DMT_K_LOAD &&
					    (sp == WEFT_SPACE_GLOBAL || sp == WEFT_SPACE_CONST ||
					     sp == WEFT_SPACE_SHARED))
						(*nloads)++;
					s->acc_all[pc]++;
					if (sp == WEFT_SPACE_GLOBAL && s->track_global &&
					    weft_dmt_global_push(s, gi.addr[lane], tid, epoch[lane], g, k,
							    p->info[pc].access_bytes))
						return weft_error_set(err, WEFT_ERR_NOMEM,
								      "dmt: out of memory recording CTA %u's global accesses",
								      c->cta);
					if (sp != WEFT_SPACE_SHARED)
						continue;
					s->acc_shared[pc]++;
					/* the lane's k-th shared access by pc */
					size_t ki = (size_t)lane * s->nmem + s->memidx[pc];
					if (!s->klane[ki])
						s->ktouched[s->nktouched++] = ki;
					uint32_t kth = s->klane[ki]++;
					uint64_t off = shared_offset(gi.addr[lane]);
					if (off >= WEFT_DMT_MAX_SHARED)
						return weft_error_set(err, WEFT_ERR_INPUT,
								      "dmt: thread %u of CTA %u accesses shared memory at offset %llu "
								      "(pc %u), beyond the %u MiB per CTA the analysis tracks and any "
								      "CUDA block's shared memory: the trace is corrupt; re-create it",
								      tid, c->cta, (unsigned long long)off, pc,
								      WEFT_DMT_MAX_SHARED >> 20);
					if (weft_dmt_reserve((void **)&s->rec, &s->caprec, s->nrec + 1, sizeof(*s->rec)))
						return weft_error_set(err, WEFT_ERR_NOMEM,
								      "dmt: out of memory recording CTA %u's shared accesses",
								      c->cta);
					struct dmt_rec *r = &s->rec[s->nrec++];
					r->tid = tid;
					r->pc = pc;
					r->epoch = epoch[lane];
					r->warp = g;
					r->addr = (uint32_t)off;
					r->aidx = aidx;
					r->k = kth;
					r->kind = k;
					r->bytes = p->info[pc].access_bytes ? p->info[pc].access_bytes : 1;
				}
			}
			if (s->is_bar[pc])
				for (uint64_t m = gi.exec; m; m &= m - 1) {
					uint32_t lane = (uint32_t)__builtin_ctzll(m);
					epoch[lane]++;
					if (weft_dmt_reserve((void **)&s->brec, &s->capbrec, s->nbrec + 1,
							sizeof(*s->brec)))
						return weft_error_set(err, WEFT_ERR_NOMEM,
								      "dmt: out of memory recording CTA %u's barriers",
								      c->cta);
					s->brec[s->nbrec].tid = g * W + lane;
					s->brec[s->nbrec++].pc = pc;
				}
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Stable counting sort of the records by epoch into rec2. */
static int sort_epochs(struct weft_dmt_scratch *s)
{
	uint32_t maxe = 0;
	for (uint64_t i = 0; i < s->nrec; i++)
		if (s->rec[i].epoch > maxe)
			maxe = s->rec[i].epoch;
	if (weft_dmt_reserve((void **)&s->rec2, &s->caprec2, s->nrec + 1, sizeof(*s->rec2)))
		return WEFT_ERR_NOMEM;
	if (weft_dmt_reserve((void **)&s->epoch_count, &s->capepoch, (uint64_t)maxe + 2, sizeof(uint32_t)))
		return WEFT_ERR_NOMEM;
	memset(s->epoch_count, 0, ((size_t)maxe + 2) * sizeof(uint32_t));
	for (uint64_t i = 0; i < s->nrec; i++)
		s->epoch_count[s->rec[i].epoch + 1]++;
	for (uint32_t e = 1; e <= maxe + 1; e++)
		s->epoch_count[e] += s->epoch_count[e - 1];
	for (uint64_t i = 0; i < s->nrec; i++)
		s->rec2[s->epoch_count[s->rec[i].epoch]++] = s->rec[i];
	return 0;
}

/* Replays the sorted records through the per-byte last-writer table. */
static int replay(struct weft_dmt *d, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	uint64_t end = 0;
	for (uint64_t i = 0; i < s->nrec; i++)
		if ((uint64_t)s->rec2[i].addr + s->rec2[i].bytes > end)
			end = (uint64_t)s->rec2[i].addr + s->rec2[i].bytes;
	if (weft_dmt_reserve((void **)&s->bytes, &s->capbytes, end + 1, sizeof(*s->bytes)))
		return weft_error_set(err, WEFT_ERR_NOMEM,
				      "dmt: out of memory for CTA %u's shared window (%llu bytes)", c->cta,
				      (unsigned long long)end);
	memset(s->bytes, 0, (size_t)(end + 1) * sizeof(*s->bytes));
	for (uint64_t i = 0; i < s->nrec; i++) {
		const struct dmt_rec *r = &s->rec2[i];
		if (r->kind == DMT_K_LOAD || r->kind == DMT_K_ATOMIC) {
			struct weft_dmt_inst *I = &d->inst[r->pc];
			uint32_t w0 = 0, last_pc = UINT32_MAX;
			int racy = 0, mixed = 0;
			for (uint32_t b = 0; b < r->bytes; b++) {
				const struct dmt_byte *B = &s->bytes[r->addr + b];
				uint32_t w = B->cur;
				if (w && B->cur_epoch == r->epoch && B->cur_warp != r->warp) {
					racy = 1;
					w = B->prev;
				}
				if (b == 0)
					w0 = w;
				else if ((w ? s->rec2[w - 1].tid : UINT32_MAX) !=
					 (w0 ? s->rec2[w0 - 1].tid : UINT32_MAX))
					mixed = 1;
				if (w) {
					uint32_t wpc = s->rec2[w - 1].pc;
					if (wpc != last_pc) {
						s->edge[(size_t)s->memidx[wpc] * s->nmem + s->memidx[r->pc]] = 1;
						last_pc = wpc;
					}
				}
			}
			s->ver[r->aidx] = w0;
			I->racy += (uint64_t)racy;
			I->mixed += (uint64_t)mixed;
			if (!w0) {
				I->nowriter++;
			} else {
				int32_t dt = (int32_t)r->tid - (int32_t)s->rec2[w0 - 1].tid;
				if (dt)
					I->comm++;
				else
					I->self++;
				if (dmt_hist_add(&I->hist, dt, 1))
					return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
			}
			if (r->kind == DMT_K_LOAD &&
			    weft_dmt_iter_add(s, r->pc, r->k, w0 ? (int32_t)r->tid - (int32_t)s->rec2[w0 - 1].tid
							    : DMT_ITER_NOWRITER))
				return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		}
		if (r->kind == DMT_K_STORE || r->kind == DMT_K_ATOMIC) {
			for (uint32_t b = 0; b < r->bytes; b++) {
				struct dmt_byte *B = &s->bytes[r->addr + b];
				if (B->cur && B->cur_epoch < r->epoch)
					B->prev = B->cur;
				B->cur = (uint32_t)i + 1;
				B->cur_epoch = r->epoch;
				B->cur_warp = r->warp;
			}
		}
	}
	return 0;
}

static uint64_t val_hash(uint64_t addr, uint32_t pc, uint32_t k, uint32_t ver)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ull;
	h ^= ((uint64_t)pc << 32 | k) * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)ver * 0x165667b19e3779f9ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

/* Pass B: memory value reuse, threads in id order. */
static int pass_reuse(struct weft_dmt *d, const struct weft_cta_trace *c, uint64_t nloads,
		      struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	/* at most 3/4 full (linear probing stays short); was 1/2, whose table
	 * was the largest part of the analysis on long CTAs (sgemm at large
	 * size: 128 MB for 1.1 M loads). Which slot a key lands in changes
	 * nothing the pass computes. */
	uint64_t cap = 64;
	while (cap < nloads + nloads / 3 + 16)
		cap *= 2;
	if (cap > s->capvals) {
		free(s->vals);
		s->vals = malloc(cap * sizeof(*s->vals));
		if (!s->vals) {
			s->capvals = 0;
			return weft_error_set(err, WEFT_ERR_NOMEM,
					      "dmt: out of memory for CTA %u's %llu loads", c->cta,
					      (unsigned long long)nloads);
		}
		s->capvals = cap;
	}
	for (uint64_t i = 0; i < cap; i++)
		s->vals[i].last = UINT32_MAX;
	uint64_t mask = cap - 1;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		memset(s->kcount, 0, s->nmem * sizeof(uint32_t));
		struct weft_thread_iter it;
		struct weft_dyn_inst di;
		weft_thread_iter_init(&it, p, &c->threads[t]);
		uint32_t ai = 0;
		while (weft_thread_iter_next(&it, &di)) {
			if (!di.has_addr)
				continue;
			uint32_t a = ai++;
			if (s->kind[di.pc] != DMT_K_LOAD)
				continue;
			if (di.space != WEFT_SPACE_GLOBAL && di.space != WEFT_SPACE_CONST &&
			    di.space != WEFT_SPACE_SHARED)
				continue;
			uint32_t k = s->kcount[s->memidx[di.pc]]++;
			uint64_t addr = di.addr;
			uint32_t ver = 0;
			if (di.space == WEFT_SPACE_SHARED) {
				addr = shared_offset(addr);
				ver = s->ver[s->abase[t] + a];
			}
			uint64_t h = val_hash(addr, di.pc, k, ver) & mask;
			struct dmt_val *v;
			for (;;) {
				v = &s->vals[h];
				if (v->last == UINT32_MAX ||
				    (v->addr == addr && v->pc == di.pc && v->k == k && v->ver == ver))
					break;
				h = (h + 1) & mask;
			}
			struct weft_dmt_inst *I = &d->inst[di.pc];
			if (v->last == UINT32_MAX) {
				v->addr = addr, v->pc = di.pc, v->k = k, v->ver = ver;
				v->first = v->last = t;
				I->reuse_groups++;
				continue;
			}
			int32_t dt = (int32_t)(t - v->last);
			v->last = t;
			I->reuse_fwd++;
			if (dmt_hist_add(&I->reuse_hist, dt, 1))
				return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		}
	}
	for (uint64_t i = 0; i < cap; i++) {
		const struct dmt_val *v = &s->vals[i];
		if (v->last == UINT32_MAX)
			continue;
		uint32_t w = v->last - v->first + 1;
		if (w > d->inst[v->pc].reuse_window)
			d->inst[v->pc].reuse_window = w;
	}
	return 0;
}

int weft_dmt_add_cta(struct weft_dmt *d, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	if (!s || d->finished)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "dmt: weft_dmt_add_cta after weft_dmt_finish (or before init)");
	if (c->nthreads > WEFT_DMT_MAX_THREADS)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "dmt: CTA %u of launch %u has %u threads; the analysis handles at most %u",
				      c->cta, c->launch, c->nthreads, WEFT_DMT_MAX_THREADS);
	if (c->nthreads + 1 > s->capthreads) {
		free(s->abase);
		s->abase = malloc((c->nthreads + 1) * sizeof(uint32_t));
		if (!s->abase) {
			s->capthreads = 0;
			return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		}
		s->capthreads = c->nthreads + 1;
	}
	uint64_t na = 0;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		s->abase[t] = (uint32_t)na;
		na += c->threads[t].naddrs;
	}
	if (na >= UINT32_MAX)
		return weft_error_set(err, WEFT_ERR_LIMIT,
				      "dmt: CTA %u has %llu memory accesses; the analysis handles fewer than 2^32 per CTA",
				      c->cta, (unsigned long long)na);
	s->abase[c->nthreads] = (uint32_t)na;
	if (weft_dmt_reserve((void **)&s->ver, &s->capver, na + 1, sizeof(uint32_t)))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
	memset(s->ver, 0, (size_t)(na + 1) * sizeof(uint32_t));
	uint64_t nloads = 0;
	int rc = pass_records(d, c, &nloads, err);
	if (rc)
		return rc;
	if (weft_dmt_barrier_sort(s, c->nthreads))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory sorting CTA %u's barriers",
				      c->cta);
	weft_dmt_barrier_mark(s);
	if (sort_epochs(s))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory sorting CTA %u's accesses",
				      c->cta);
	if ((rc = replay(d, c, err)))
		return rc;
	if (weft_dmt_global_replay(d))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory replaying CTA %u's global accesses",
				      c->cta);
	if ((rc = pass_reuse(d, c, nloads, err)))
		return rc;
	d->tot.ctas++;
	d->tot.threads += c->nthreads;
	return 0;
}

static int analyse_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_dmt_add_cta(user, c, err);
}

int weft_dmt_analyse_launch(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
			    const struct weft_dmt_params *prm, struct weft_dmt *d,
			    struct weft_error *err)
{
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "dmt: the trace has no launch %u", launch);
	int rc = weft_dmt_init(d, L->program, prm, err);
	if (rc)
		return rc;
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	rc = weft_trace_for_each_cta(t, launch, s ? s : &all, 0, analyse_cta, d, err);
	if (!rc)
		rc = weft_dmt_finish(d, err);
	if (rc)
		weft_dmt_free(d);
	return rc;
}
