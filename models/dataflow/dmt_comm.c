/*
 * dmt_comm.c - the per-CTA passes of the dMT communication analysis
 * (dmt_comm.h): which shared store produced each shared load's value, and
 * which loads re-read a value a lower thread of the CTA already loaded.
 *
 * Pass A replays each warp (group of warp_width threads, IPDOM) with the
 * group iterator, so that lanes of a warp come in the lock-step order the
 * emulator ran them, and records every shared access with the thread's
 * barrier epoch and its k-th execution of the instruction, marking it next
 * to the barriers around its epoch (dmt_barrier.c). The warps advance
 * interleaved, one barrier epoch at a time, so each epoch's records are
 * replayed in the order (epoch, warp, step) through a per-byte last-writer
 * table and dropped: the records held are one epoch's, not the CTA's. Each
 * load's distance also goes into the per-iteration table (dmt_iter.c).
 * Pass B (memory value reuse) follows each replayed epoch: it walks each
 * thread's stream through that epoch, in thread-id order, and keys every
 * load by (pc, k-th execution, address, producing store) in a hash table,
 * so the previous thread that loaded the same value in the epoch is the
 * one stored there. A value is matched inside one barrier epoch
 * (docs/models/dmt.md "Memory value reuse"), so the table holds one
 * epoch's values and the producing stores are kept for one epoch's loads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
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
	if (!s->edge || weft_dmt_barrier_init(d) || (s->track_global && weft_dmt_global_init(d)))
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
		free(s->rec), free(s->thr), free(s->rk), free(s->ever), free(s->vused);
		for (uint32_t g = 0; g < s->capwarps; g++)
			free(s->warps[g].q), free(s->warps[g].gq);
		free(s->warps), free(s->kth), free(s->touched), free(s->ntouched);
		free(s->bytes), free(s->vals);
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

/* Appends a record to *buf (n, cap); 0 or WEFT_ERR_NOMEM. */
static int rec_push(struct dmt_rec **buf, uint64_t *n, uint64_t *cap, const struct dmt_rec *r)
{
	if (weft_dmt_reserve((void **)buf, cap, *n + 1, sizeof(**buf)))
		return WEFT_ERR_NOMEM;
	(*buf)[(*n)++] = *r;
	return 0;
}

/* Pass A, one group instruction of warp g: counts executed instances of
 * its pc; records every shared access with the lane's barrier epoch and
 * instance number (those of epoch e in s->rec, of later epochs in the
 * warp's queue) and marks it next to the barriers around its epoch; notes
 * the barriers each lane passes. */
static int step_inst(struct weft_dmt *d, const struct weft_cta_trace *c, uint32_t g, struct dmt_warp *w,
		     const struct weft_group_inst *gi, uint32_t e, uint64_t *nloads, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	uint32_t W = d->prm.warp_width, pc = gi->pc;
	uint64_t n = weft_popcount64(gi->exec);
	d->inst[pc].exec += n;
	d->tot.thread_insts += n;
	if (gi->is_mem) {
		uint8_t k = s->kind[pc];
		for (uint64_t m = gi->exec; m; m &= m - 1) {
			uint32_t lane = (uint32_t)__builtin_ctzll(m);
			uint32_t tid = g * W + lane;
			if (k == DMT_K_NONE)
				continue;
			uint8_t sp = gi->space[lane];
			if (k == DMT_K_LOAD &&
			    (sp == WEFT_SPACE_GLOBAL || sp == WEFT_SPACE_CONST || sp == WEFT_SPACE_SHARED))
				(*nloads)++;
			s->acc_all[pc]++;
			if (sp == WEFT_SPACE_GLOBAL && s->track_global &&
			    (k != DMT_K_LOAD || weft_dmt_global_stored(s, gi->addr[lane], p->info[pc].access_bytes))) {
				struct dmt_grec gr = {
					.addr = gi->addr[lane], .tid = tid, .epoch = w->epoch[lane], .warp = g,
					.kind = k, .bytes = p->info[pc].access_bytes,
				};
				if (gr.epoch == e ? weft_dmt_grec_push(&s->grec, &s->ngrec, &s->capgrec, &gr)
						  : weft_dmt_grec_push(&w->gq, &w->ngq, &w->capgq, &gr))
					return weft_error_set(err, WEFT_ERR_NOMEM,
							      "dmt: out of memory recording CTA %u's global accesses",
							      c->cta);
			}
			if (sp != WEFT_SPACE_SHARED)
				continue;
			s->acc_shared[pc]++;
			uint32_t mi = s->memidx[pc];
			size_t ti = (size_t)tid * s->nmem + mi;
			uint32_t kth = s->kth[ti]++; /* the lane's k-th shared access by pc */
			uint64_t off = shared_offset(gi->addr[lane]);
			if (off >= WEFT_DMT_MAX_SHARED)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "dmt: thread %u of CTA %u accesses shared memory at offset %llu "
						      "(pc %u), beyond the %u MiB per CTA the analysis tracks and any "
						      "CUDA block's shared memory: the trace is corrupt; re-create it",
						      tid, c->cta, (unsigned long long)off, pc, WEFT_DMT_MAX_SHARED >> 20);
			/* the barrier that ended the previous epoch orders it (after);
			 * the one that ends this epoch is marked when the lane passes it */
			if (w->epoch[lane])
				s->bar_adj[(size_t)s->baridx[w->lastbar[lane]] * s->nmem + mi] |= DMT_ADJ_AFTER;
			if (!s->touched[ti]) {
				s->touched[ti] = 1;
				s->ntouched[tid]++;
			}
			struct dmt_rec r = {
				.tid = tid, .pc = pc, .epoch = w->epoch[lane], .warp = g, .addr = (uint32_t)off,
				.k = kth, .kind = k,
				.bytes = p->info[pc].access_bytes ? p->info[pc].access_bytes : 1,
			};
			if (r.epoch == e ? rec_push(&s->rec, &s->nrec, &s->caprec, &r)
					 : rec_push(&w->q, &w->nq, &w->capq, &r))
				return weft_error_set(err, WEFT_ERR_NOMEM,
						      "dmt: out of memory recording CTA %u's shared accesses", c->cta);
		}
	}
	if (s->is_bar[pc])
		for (uint64_t m = gi->exec; m; m &= m - 1) {
			uint32_t lane = (uint32_t)__builtin_ctzll(m);
			uint32_t tid = g * W + lane;
			if (s->ntouched[tid]) {
				uint8_t *adj = &s->bar_adj[(size_t)s->baridx[pc] * s->nmem];
				uint8_t *tch = &s->touched[(size_t)tid * s->nmem];
				for (uint32_t mi = 0; mi < s->nmem; mi++)
					if (tch[mi]) {
						adj[mi] |= DMT_ADJ_BEFORE;
						tch[mi] = 0;
					}
				s->ntouched[tid] = 0;
			}
			w->epoch[lane]++;
			w->lastbar[lane] = pc;
			/* the barriers passed only serve dmt_global.c */
			if (s->track_global && weft_dmt_barrier_pass(s, tid, pc))
				return weft_error_set(err, WEFT_ERR_NOMEM,
						      "dmt: out of memory recording CTA %u's barriers", c->cta);
		}
	return 0;
}

/* Every lane of the warp that has not exited is past epoch e. */
static int warp_past(const struct dmt_warp *w, uint32_t e)
{
	for (uint64_t m = w->it.live; m; m &= m - 1)
		if (w->epoch[__builtin_ctzll(m)] <= e)
			return 0;
	return 1;
}

/* Replays epoch e's records (s->rec, lock-step order per warp, warps in
 * order: the stable order by epoch) through the per-byte last-writer
 * table. */
static int replay(struct weft_dmt *d, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	uint64_t end = 0;
	for (uint64_t i = 0; i < s->nrec; i++)
		if ((uint64_t)s->rec[i].addr + s->rec[i].bytes > end)
			end = (uint64_t)s->rec[i].addr + s->rec[i].bytes;
	if (end + 1 > s->usedbytes) {
		if (weft_dmt_reserve((void **)&s->bytes, &s->capbytes, end + 1, sizeof(*s->bytes)))
			return weft_error_set(err, WEFT_ERR_NOMEM,
					      "dmt: out of memory for CTA %u's shared window (%llu bytes)", c->cta,
					      (unsigned long long)end);
		memset(s->bytes + s->usedbytes, 0, (size_t)(end + 1 - s->usedbytes) * sizeof(*s->bytes));
		s->usedbytes = end + 1;
	}
	for (uint64_t i = 0; i < s->nrec; i++) {
		const struct dmt_rec *r = &s->rec[i];
		if (r->kind == DMT_K_LOAD || r->kind == DMT_K_ATOMIC) {
			struct weft_dmt_inst *I = &d->inst[r->pc];
			uint32_t w0 = 0, t0 = UINT32_MAX, last_pc = UINT32_MAX;
			int racy = 0, mixed = 0;
			for (uint32_t b = 0; b < r->bytes; b++) {
				const struct dmt_byte *B = &s->bytes[r->addr + b];
				uint32_t w = B->cur, wt = B->cur_tid, wpc = B->cur_pc;
				if (w && B->cur_epoch == r->epoch && B->cur_warp != r->warp) {
					racy = 1;
					w = B->prev, wt = B->prev_tid, wpc = B->prev_pc;
				}
				if (!w)
					wt = UINT32_MAX;
				if (b == 0)
					w0 = w, t0 = wt;
				else if (wt != t0)
					mixed = 1;
				if (w && wpc != last_pc) {
					s->edge[(size_t)s->memidx[wpc] * s->nmem + s->memidx[r->pc]] = 1;
					last_pc = wpc;
				}
			}
			s->rec[i].ver = w0;
			I->racy += (uint64_t)racy;
			I->mixed += (uint64_t)mixed;
			if (!w0) {
				I->nowriter++;
			} else {
				int32_t dt = (int32_t)r->tid - (int32_t)t0;
				if (dt)
					I->comm++;
				else
					I->self++;
				if (dmt_hist_add(&I->hist, dt, 1))
					return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
			}
			if (r->kind == DMT_K_LOAD &&
			    weft_dmt_iter_add(s, r->pc, r->k, w0 ? (int32_t)r->tid - (int32_t)t0 : DMT_ITER_NOWRITER))
				return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		}
		if (r->kind == DMT_K_STORE || r->kind == DMT_K_ATOMIC) {
			for (uint32_t b = 0; b < r->bytes; b++) {
				struct dmt_byte *B = &s->bytes[r->addr + b];
				if (B->cur && B->cur_epoch < r->epoch)
					B->prev = B->cur, B->prev_tid = B->cur_tid, B->prev_pc = B->cur_pc;
				B->cur = (uint32_t)(s->recbase + i) + 1;
				B->cur_epoch = r->epoch;
				B->cur_warp = r->warp;
				B->cur_tid = r->tid;
				B->cur_pc = r->pc;
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

/* The slot of key (addr, pc, k, ver) in a table of cap (a power of 2)
 * slots: the key's own, or the empty one where it goes. */
static struct dmt_val *val_slot(struct dmt_val *vals, uint64_t cap, uint64_t addr, uint32_t pc,
				uint32_t k, uint32_t ver)
{
	uint64_t mask = cap - 1, h = val_hash(addr, pc, k, ver) & mask;
	for (;;) {
		struct dmt_val *v = &vals[h];
		if (v->last == UINT32_MAX || (v->addr == addr && v->pc == pc && v->k == k && v->ver == ver))
			return v;
		h = (h + 1) & mask;
	}
}

/* Doubles the value table (at least DMT_VALS_MIN slots), keeping the
 * epoch's entries and the list of their slots; 0 or WEFT_ERR_NOMEM. */
#define DMT_VALS_MIN 4096u
static int vals_grow(struct weft_dmt_scratch *s)
{
	uint64_t cap = s->capvals ? 2 * s->capvals : DMT_VALS_MIN;
	struct dmt_val *nv = malloc(cap * sizeof(*nv));
	uint64_t *nu = malloc(cap * sizeof(*nu));
	if (!nv || !nu) {
		free(nv), free(nu);
		return WEFT_ERR_NOMEM;
	}
	for (uint64_t i = 0; i < cap; i++)
		nv[i].last = UINT32_MAX;
	for (uint64_t i = 0; i < s->nvals; i++) {
		const struct dmt_val *v = &s->vals[s->vused[i]];
		struct dmt_val *to = val_slot(nv, cap, v->addr, v->pc, v->k, v->ver);
		*to = *v;
		nu[i] = (uint64_t)(to - nv);
	}
	free(s->vals), free(s->vused);
	s->vals = nv;
	s->vused = nu;
	s->capvals = cap;
	return 0;
}

/* Pass B for a new CTA: every thread at its start, no load counted. */
static int reuse_begin(struct weft_dmt *d, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	if (c->nthreads > s->capthr) {
		free(s->thr);
		s->thr = malloc((size_t)c->nthreads * sizeof(*s->thr));
		s->capthr = s->thr ? c->nthreads : 0;
		if (!s->thr)
			return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's %u threads",
					      c->cta, c->nthreads);
	}
	for (uint32_t t = 0; t < c->nthreads; t++) {
		weft_thread_iter_init(&s->thr[t].it, d->p, &c->threads[t]);
		s->thr[t].done = 0;
	}
	memset(s->rk, 0, ((size_t)c->nthreads * s->nmem + 1) * sizeof(uint32_t));
	if (!s->capvals && vals_grow(s))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's value table", c->cta);
	return 0;
}

/* Pass B, epoch e of the CTA (after the shared replay set the producing
 * store of each of the epoch's shared loads, s->rec): memory value reuse,
 * threads in id order, each from where it stopped to the barrier that ends
 * its epoch e (or its end). Then the epoch's values are closed (their
 * groups' widths) and the table emptied. A value read by threads in
 * different epochs is a group per epoch. */
static int reuse_epoch(struct weft_dmt *d, const struct weft_cta_trace *c, uint32_t e, uint64_t nloads,
		       struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	uint32_t n = c->nthreads;
	/* the epoch's shared loads by thread, each thread's in its order (the
	 * records are in lock-step order, which keeps a thread's order) */
	for (uint32_t t = 0; t < n; t++)
		s->thr[t].cur = s->thr[t].end = 0;
	uint64_t nsh = 0;
	for (uint64_t i = 0; i < s->nrec; i++)
		if (s->rec[i].kind == DMT_K_LOAD)
			s->thr[s->rec[i].tid].end++, nsh++;
	if (weft_dmt_reserve((void **)&s->ever, &s->capever, nsh + 1, sizeof(uint32_t)))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's %llu shared loads",
				      c->cta, (unsigned long long)nsh);
	uint32_t at = 0;
	for (uint32_t t = 0; t < n; t++) {
		uint32_t cnt = s->thr[t].end;
		s->thr[t].cur = at;
		s->thr[t].end = at;
		at += cnt;
	}
	for (uint64_t i = 0; i < s->nrec; i++)
		if (s->rec[i].kind == DMT_K_LOAD)
			s->ever[s->thr[s->rec[i].tid].end++] = s->rec[i].ver;
	for (uint32_t t = 0; t < n; t++) {
		struct dmt_thread *T = &s->thr[t];
		uint32_t *rk = &s->rk[(size_t)t * s->nmem];
		struct weft_thread_iter it = T->it; /* a local copy stays in registers */
		struct weft_dyn_inst di;
		int over = 0;
		while (!T->done) {
			if (!weft_thread_iter_next(&it, &di)) {
				T->done = 1;
				break;
			}
			if (di.has_addr && s->kind[di.pc] == DMT_K_LOAD &&
			    (di.space == WEFT_SPACE_GLOBAL || di.space == WEFT_SPACE_CONST ||
			     di.space == WEFT_SPACE_SHARED)) {
				uint32_t k = rk[s->memidx[di.pc]]++;
				uint64_t addr = di.addr;
				uint32_t ver = 0;
				if (di.space == WEFT_SPACE_SHARED) {
					if (T->cur == T->end) {
						over = 1; /* more shared loads than pass A saw */
						break;
					}
					addr = shared_offset(addr);
					ver = s->ever[T->cur++];
				}
				struct dmt_val *v = val_slot(s->vals, s->capvals, addr, di.pc, k, ver);
				struct weft_dmt_inst *I = &d->inst[di.pc];
				if (v->last == UINT32_MAX) {
					if (4 * (s->nvals + 1) > 3 * s->capvals) {
						if (vals_grow(s))
							return weft_error_set(err, WEFT_ERR_NOMEM,
									      "dmt: out of memory for CTA %u's %llu loads",
									      c->cta, (unsigned long long)nloads);
						v = val_slot(s->vals, s->capvals, addr, di.pc, k, ver);
					}
					s->vused[s->nvals++] = (uint64_t)(v - s->vals);
					v->addr = addr, v->pc = di.pc, v->k = k, v->ver = ver;
					v->first = v->last = t;
					I->reuse_groups++;
				} else {
					int32_t dt = (int32_t)(t - v->last);
					v->last = t;
					I->reuse_fwd++;
					if (dmt_hist_add(&I->reuse_hist, dt, 1))
						return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
				}
			}
			if (s->is_bar[di.pc] && di.exec)
				break; /* the barrier that ends the thread's epoch e */
		}
		T->it = it;
		/* both passes follow the thread's own path: they meet the same
		 * shared loads between the same barriers */
		if (over || T->cur != T->end)
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "dmt: thread %u of CTA %u: the lock-step pass and the thread's own "
					      "stream disagree on its shared loads in barrier epoch %u",
					      t, c->cta, e);
	}
	for (uint64_t i = 0; i < s->nvals; i++) {
		struct dmt_val *v = &s->vals[s->vused[i]];
		uint32_t w = v->last - v->first + 1;
		if (w > d->inst[v->pc].reuse_window)
			d->inst[v->pc].reuse_window = w;
		v->last = UINT32_MAX;
	}
	s->nvals = 0;
	return 0;
}


/* Pass A and the shared replay, one barrier epoch at a time: every warp
 * advances until all its lanes that have not exited are past epoch e,
 * then epoch e's records are replayed (in the order a stable sort of the
 * whole CTA's records by epoch gives) and dropped. */
static int pass_epochs(struct weft_dmt *d, const struct weft_cta_trace *c, uint64_t *nloads,
		       struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	uint32_t W = d->prm.warp_width;
	uint32_t ngroups = weft_group_count(c->nthreads, W);
	uint64_t nk = (uint64_t)c->nthreads * s->nmem + 1;
	*nloads = 0;
	s->recbase = 0;
	s->ngrec = 0;
	if (s->track_global && (weft_dmt_barrier_begin(s, c->nthreads) || weft_dmt_global_begin(d, c)))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's global accesses",
				      c->cta);
	if (ngroups > s->capwarps) {
		struct dmt_warp *nw = realloc(s->warps, ngroups * sizeof(*nw));
		if (!nw)
			return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's warps", c->cta);
		memset(nw + s->capwarps, 0, (ngroups - s->capwarps) * sizeof(*nw));
		s->warps = nw;
		s->capwarps = ngroups;
	}
	if (nk > s->capkth) {
		free(s->kth), free(s->touched), free(s->ntouched), free(s->rk);
		s->kth = malloc(nk * sizeof(uint32_t));
		s->touched = malloc(nk);
		s->ntouched = malloc(((size_t)c->nthreads + 1) * sizeof(uint32_t));
		s->rk = malloc(nk * sizeof(uint32_t));
		s->capkth = s->kth && s->touched && s->ntouched && s->rk ? nk : 0;
		if (!s->capkth)
			return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for CTA %u's counters",
					      c->cta);
	}
	memset(s->kth, 0, nk * sizeof(uint32_t));
	memset(s->touched, 0, nk);
	memset(s->ntouched, 0, ((size_t)c->nthreads + 1) * sizeof(uint32_t));
	if (s->usedbytes)
		memset(s->bytes, 0, (size_t)s->usedbytes * sizeof(*s->bytes));
	s->usedbytes = 0;
	int rc = reuse_begin(d, c, err);
	if (rc)
		return rc;
	for (uint32_t g = 0; g < ngroups; g++) {
		struct dmt_warp *w = &s->warps[g];
		rc = weft_group_iter_init(&w->it, &s->gp, c, W, g, WEFT_DIV_IPDOM, 0, err);
		if (rc)
			return rc;
		memset(w->epoch, 0, sizeof(w->epoch));
		w->done = 0;
		w->nq = 0;
		w->ngq = 0;
	}
	for (uint32_t e = 0;; e++) {
		int more = 0;
		s->nrec = 0;
		for (uint32_t g = 0; g < ngroups; g++) {
			struct dmt_warp *w = &s->warps[g];
			/* records a lane made ahead of the others come first */
			uint64_t j = 0;
			for (uint64_t i = 0; i < w->nq; i++) {
				if (w->q[i].epoch != e)
					w->q[j++] = w->q[i];
				else if (rec_push(&s->rec, &s->nrec, &s->caprec, &w->q[i]))
					return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
			}
			w->nq = j;
			j = 0;
			for (uint64_t i = 0; i < w->ngq; i++) {
				if (w->gq[i].epoch != e)
					w->gq[j++] = w->gq[i];
				else if (weft_dmt_grec_push(&s->grec, &s->ngrec, &s->capgrec, &w->gq[i]))
					return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
			}
			w->ngq = j;
			while (!w->done && !warp_past(w, e)) {
				uint64_t live = w->it.live;
				struct weft_group_inst gi;
				do {
					rc = weft_group_next(&w->it, &gi);
					if (rc < 0)
						return rc;
					if (!rc) {
						w->done = 1;
						break;
					}
					if ((rc = step_inst(d, c, g, w, &gi, e, nloads, err)))
						return rc;
					/* lanes' epochs only change at barriers and exits */
				} while (!s->is_bar[gi.pc] && w->it.live == live);
			}
			more |= !w->done || w->nq || w->ngq;
		}
		if ((rc = replay(d, c, err)))
			return rc;
		if (weft_dmt_global_replay(d))
			return weft_error_set(err, WEFT_ERR_NOMEM,
					      "dmt: out of memory replaying CTA %u's global accesses", c->cta);
		if ((rc = reuse_epoch(d, c, e, *nloads, err)))
			return rc;
		s->recbase += s->nrec;
		if (!more)
			break;
	}
	for (uint32_t t = 0; t < c->nthreads; t++)
		if (!s->thr[t].done)
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "dmt: thread %u of CTA %u runs on after the lock-step pass ended",
					      t, c->cta);
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
	/* a shared record's position in the CTA's epoch order names the
	 * producing store (uint32_t, + 1) */
	uint64_t na = 0;
	for (uint32_t t = 0; t < c->nthreads; t++)
		na += c->threads[t].naddrs;
	if (na >= UINT32_MAX)
		return weft_error_set(err, WEFT_ERR_LIMIT,
				      "dmt: CTA %u has %llu memory accesses; the analysis handles fewer than 2^32 per CTA",
				      c->cta, (unsigned long long)na);
	uint64_t nloads = 0;
	int rc = pass_epochs(d, c, &nloads, err);
	if (rc)
		return rc;
	d->tot.ctas++;
	d->tot.threads += c->nthreads;
	return 0;
}

/* The launch's CTAs are analysed where they are decoded (on the decoder
 * threads when there are any, weft_trace_for_each_cta_prep), each into
 * one of a few analyses of the launch's program: a thread takes an idle
 * one, adds its CTA and gives it back, so there are at most as many as
 * threads analyse at once, and a thread mostly takes back the one its
 * caches hold. At the end they are joined into the launch's analysis
 * (weft_dmt_merge: each CTA is independent, and the join adds up what
 * weft_dmt_add_cta on one analysis would). Unlike other preparations this
 * one writes to its user, under the pool's lock. */
struct dmt_pool {
	const struct weft_dmt *d;  /* the launch's analysis: its program and parameters */
	pthread_mutex_t mu;
	struct weft_dmt **all;     /* every analysis made, [n] */
	struct weft_dmt **idle;    /* those no thread holds, [nidle] (room for n) */
	uint32_t n, nidle, cap;
};

/* *out: an idle analysis of the pool, or a new one; 0 or the error. */
static int pool_take(struct dmt_pool *pl, struct weft_dmt **out, struct weft_error *err)
{
	pthread_mutex_lock(&pl->mu);
	struct weft_dmt *a = pl->nidle ? pl->idle[--pl->nidle] : NULL;
	pthread_mutex_unlock(&pl->mu);
	*out = a;
	if (a)
		return 0;
	a = malloc(sizeof(*a));
	if (!a)
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for a CTA analysis");
	int rc = weft_dmt_init(a, pl->d->p, &pl->d->prm, err);
	if (rc) {
		free(a);
		return rc;
	}
	pthread_mutex_lock(&pl->mu);
	if (pl->n == pl->cap) {
		uint32_t cap = pl->cap ? 2 * pl->cap : 4;
		struct weft_dmt **na = realloc(pl->all, cap * sizeof(*na));
		if (na)
			pl->all = na;
		struct weft_dmt **ni = na ? realloc(pl->idle, cap * sizeof(*ni)) : NULL;
		if (ni)
			pl->idle = ni, pl->cap = cap;
		else
			rc = 1;
	}
	if (!rc)
		pl->all[pl->n++] = a;
	pthread_mutex_unlock(&pl->mu);
	if (rc) {
		weft_dmt_free(a);
		free(a);
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory for a CTA analysis");
	}
	*out = a;
	return 0;
}

static int pool_cta(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	(void)out;
	struct dmt_pool *pl = user;
	struct weft_dmt *a;
	int rc = pool_take(pl, &a, err);
	if (rc)
		return rc;
	rc = weft_dmt_add_cta(a, c, err);
	pthread_mutex_lock(&pl->mu);
	pl->idle[pl->nidle++] = a;
	pthread_mutex_unlock(&pl->mu);
	return rc;
}

static int pool_use(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)user, (void)c, (void)prepared, (void)err;
	return 0; /* everything was added where the CTA was decoded */
}

static const struct weft_cta_prep dmt_prep = { 1, pool_cta, NULL, NULL, 0 };

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
	struct dmt_pool pl = { .d = d };
	if (pthread_mutex_init(&pl.mu, NULL)) {
		weft_dmt_free(d);
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: cannot create a lock");
	}
	rc = weft_trace_for_each_cta_prep(t, launch, s ? s : &all, 0, &dmt_prep, pool_use, &pl, err);
	for (uint32_t i = 0; i < pl.n; i++) {
		if (!rc)
			rc = weft_dmt_merge(d, pl.all[i], err);
		weft_dmt_free(pl.all[i]);
		free(pl.all[i]);
	}
	free(pl.all);
	free(pl.idle);
	pthread_mutex_destroy(&pl.mu);
	if (!rc)
		rc = weft_dmt_finish(d, err);
	if (rc)
		weft_dmt_free(d);
	return rc;
}
