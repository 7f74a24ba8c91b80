/*
 * dmt_finish.c - the decisions of the dMT communication analysis once all
 * CTAs are in (dmt_comm.h): each static instruction's role, the most
 * common distance of shared loads and of forwarded loads, which loads
 * elevators carry (one distance overall, or one per loop iteration:
 * dmt_iter.c) and how many cascaded elevators (or a spill to the live
 * value cache), and which instructions become removable, in this order:
 * carried loads, the stores only removed loads read, the barriers that
 * only ordered removed accesses (dmt_barrier.c), then the address
 * arithmetic and guards that only served removed instructions
 * (dmt_arith.c). Then the totals and the dynamic operations against the
 * SIMT baseline (weft_dmt_ops).
 */
#include <stdlib.h>
#include <string.h>

#include "dmt_internal.h"

const char *weft_dmt_removal_name(enum weft_dmt_removal r)
{
	switch (r) {
	case WEFT_DMT_KEEP: return "keep";
	case WEFT_DMT_RM_ELEVATOR_LOAD: return "elevator-load";
	case WEFT_DMT_RM_ELEVATOR_STORE: return "elevator-store";
	case WEFT_DMT_RM_BARRIER: return "barrier";
	case WEFT_DMT_RM_ADDR_ARITH: return "addr-arith";
	case WEFT_DMT_RM_GUARD: return "guard";
	default: return "?";
	}
}

double weft_dmt_comm_cdf(const struct weft_dmt *d, uint32_t dist)
{
	uint64_t in = 0, all = 0;
	for (uint32_t a = 1; a < WEFT_DMT_MAX_THREADS; a++) {
		all += d->tot.abs_hist[a];
		if (a <= dist)
			in += d->tot.abs_hist[a];
	}
	return all ? (double)in / (double)all : 0.0;
}

void weft_dmt_dist_bucket(uint32_t b, uint32_t *lo, uint32_t *hi)
{
	*lo = b < 2 ? b + 1 : (1u << (b - 1)) + 1;
	*hi = b + 1 < WEFT_DMT_DIST_BUCKETS ? 1u << b : WEFT_DMT_MAX_DIST;
}

void weft_dmt_dist_counts(const struct weft_dmt *d, uint64_t out[WEFT_DMT_DIST_BUCKETS])
{
	memset(out, 0, WEFT_DMT_DIST_BUCKETS * sizeof(out[0]));
	uint32_t b = 0, lo, hi;
	weft_dmt_dist_bucket(b, &lo, &hi);
	for (uint32_t a = 1; a < WEFT_DMT_MAX_THREADS; a++) {
		while (a > hi && b + 1 < WEFT_DMT_DIST_BUCKETS)
			weft_dmt_dist_bucket(++b, &lo, &hi);
		out[b] += d->tot.abs_hist[a];
	}
}

uint32_t weft_dmt_load_writers(const struct weft_dmt *d, uint32_t load_pc, uint32_t *store_pcs,
			       uint32_t max)
{
	const struct weft_dmt_scratch *s = d->s;
	if (!s || load_pc >= d->ninsts || s->memidx[load_pc] == UINT32_MAX)
		return 0;
	uint32_t j = s->memidx[load_pc], n = 0;
	for (uint32_t i = 0; i < s->nmem; i++) /* mempc is increasing */
		if (s->edge[(size_t)i * s->nmem + j]) {
			if (n < max)
				store_pcs[n] = s->mempc[i];
			n++;
		}
	return n;
}

/* Most common entry of h; ties go to the smaller |d|, then to d > 0.
 * Only d >= lo is considered. */
static int32_t hist_mode(const uint64_t *h, int32_t lo, uint64_t *count)
{
	int32_t best = 0;
	uint64_t bc = 0;
	*count = 0;
	if (!h)
		return 0;
	for (int32_t dd = lo; dd <= (int32_t)WEFT_DMT_MAX_DIST; dd++) {
		uint64_t n = h[dd + (int32_t)WEFT_DMT_MAX_DIST];
		if (!n)
			continue;
		int32_t ad = dd < 0 ? -dd : dd, ab = best < 0 ? -best : best;
		if (n > bc || (n == bc && (ad < ab || (ad == ab && dd > best)))) {
			best = dd;
			bc = n;
		}
	}
	*count = bc;
	return best;
}

static void set_roles(struct weft_dmt *d)
{
	const struct weft_program *p = d->p;
	struct weft_dmt_scratch *s = d->s;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		uint8_t k = s->kind[pc];
		if (k == DMT_K_NONE)
			continue;
		int shared;
		if (s->acc_all[pc])
			shared = s->acc_shared[pc] == s->acc_all[pc];
		else
			shared = p->insts[pc].space == WEFT_SPACE_SHARED;
		struct weft_dmt_inst *I = &d->inst[pc];
		if (shared)
			I->role = k == DMT_K_LOAD ? WEFT_DMT_SH_LOAD
				: k == DMT_K_STORE ? WEFT_DMT_SH_STORE : WEFT_DMT_SH_ATOMIC;
		else if (k == DMT_K_LOAD)
			I->role = WEFT_DMT_LOAD;
	}
}

static void totals(struct weft_dmt *d)
{
	struct weft_dmt_totals *T = &d->tot;
	uint32_t tb = d->prm.token_buffer;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role == WEFT_DMT_SH_LOAD)
			T->sh_loads += I->exec;
		if (I->role == WEFT_DMT_SH_STORE)
			T->sh_stores += I->exec;
		T->comm += I->comm, T->self += I->self, T->nowriter += I->nowriter;
		T->racy += I->racy, T->mixed += I->mixed;
		if (I->elevator && I->per_iter) {
			T->carried += I->iter_count - I->iter_local;
			T->local += I->iter_local;
			T->per_iter_loads++;
		} else if (I->elevator && I->dtid) {
			T->carried += I->dtid_count;
		} else if (I->elevator) {
			T->local += I->dtid_count;
		}
		if (I->removal == WEFT_DMT_RM_ELEVATOR_LOAD)
			T->elevator_nodes += I->elevators;
		T->loads += I->reuse_fwd + I->reuse_groups;
		T->reuse_fwd += I->reuse_fwd;
		T->reuse_groups += I->reuse_groups;
		for (uint32_t b = 0; b < WEFT_DMT_NDIST; b++) {
			int32_t dt = (int32_t)b - (int32_t)WEFT_DMT_MAX_DIST;
			uint32_t a = dt < 0 ? (uint32_t)-dt : (uint32_t)dt;
			if (I->hist && I->hist[b]) {
				uint64_t n = I->hist[b];
				T->hist[b] += n;
				if (dt) {
					T->abs_hist[a] += n;
					if (a <= tb)
						T->comm_within_buffer += n;
					uint32_t cs = weft_dmt_cascades(dt, tb);
					T->casc_hist[cs] += n;
					if (cs > d->prm.max_cascade)
						T->comm_spilled += n;
				}
			}
			if (I->reuse_hist && I->reuse_hist[b]) {
				T->reuse_hist[b] += I->reuse_hist[b];
				if (a <= tb)
					T->reuse_within_buffer += I->reuse_hist[b];
			}
		}
		if (I->removal) {
			T->removed_static[I->removal]++;
			T->removed_dynamic[I->removal] += I->exec;
			T->removed_total += I->exec;
		}
	}
}

/* Clears what decide() computes; keeps what the CTAs accumulated. */
static void reset_decisions(struct weft_dmt *d)
{
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		struct weft_dmt_inst *I = &d->inst[pc];
		I->removal = WEFT_DMT_KEEP;
		I->elevator = I->spill = I->per_iter = 0;
		I->niters = 0;
		I->iter_count = I->iter_local = 0;
		I->elevators = 0;
	}
	struct weft_dmt_totals *T = &d->tot;
	uint64_t ctas = T->ctas, threads = T->threads, ti = T->thread_insts, gc = T->global_comm;
	uint64_t go = T->global_order;
	memset(T, 0, sizeof(*T));
	T->ctas = ctas, T->threads = threads, T->thread_insts = ti, T->global_comm = gc;
	T->global_order = go;
}

/* A carried load: spilled when its path needs more than max_cascade
 * elevators, else removed. */
static void carry(struct weft_dmt *d, struct weft_dmt_inst *I)
{
	I->elevator = 1;
	I->spill = I->cascade > d->prm.max_cascade;
	if (!I->spill)
		I->removal = WEFT_DMT_RM_ELEVATOR_LOAD;
}

static int decide(struct weft_dmt *d, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	reset_decisions(d);
	set_roles(d);
	/* shared loads: one distance overall */
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		struct weft_dmt_inst *I = &d->inst[pc];
		I->dtid = hist_mode(I->hist, -(int32_t)WEFT_DMT_MAX_DIST, &I->dtid_count);
		I->dtid_fraction = I->exec ? (double)I->dtid_count / (double)I->exec : 0.0;
		I->cascade = weft_dmt_cascades(I->dtid, d->prm.token_buffer);
		I->elevators = I->cascade;
		I->reuse_dtid = hist_mode(I->reuse_hist, 1, &I->reuse_dtid_count);
		if (I->role != WEFT_DMT_SH_LOAD || !I->exec || !I->dtid_count)
			continue;
		/* a share of the executed instances; the test uses integers so that
		 * a fraction of exactly min_fraction passes */
		if ((double)I->dtid_count >= d->prm.min_fraction * (double)I->exec - 1e-9)
			carry(d, I);
	}
	/* ... or one per loop iteration */
	int rc = weft_dmt_iter_decide(d, err);
	if (rc)
		return rc;
	for (uint32_t pc = 0; pc < d->ninsts; pc++)
		if (d->inst[pc].per_iter)
			carry(d, &d->inst[pc]);
	/* stores read only by removed loads */
	for (uint32_t i = 0; i < s->nmem; i++) {
		uint32_t pc = s->mempc[i];
		struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role != WEFT_DMT_SH_STORE || !I->exec)
			continue;
		uint32_t readers = 0, carried = 0;
		for (uint32_t j = 0; j < s->nmem; j++) {
			if (!s->edge[(size_t)i * s->nmem + j])
				continue;
			readers++;
			carried += d->inst[s->mempc[j]].removal == WEFT_DMT_RM_ELEVATOR_LOAD;
		}
		if (readers && readers == carried)
			I->removal = WEFT_DMT_RM_ELEVATOR_STORE;
	}
	/* barriers that only ordered removed accesses */
	weft_dmt_barrier_decide(d);
	/* address arithmetic and guards that only served removed instructions */
	rc = weft_dmt_remove_arith(d, err);
	if (rc)
		return rc;
	totals(d);
	return 0;
}

void weft_dmt_ops(const struct weft_dmt *d, struct weft_dmt_ops *o)
{
	memset(o, 0, sizeof(*o));
	const struct weft_dmt_totals *T = &d->tot;
	o->simt = T->thread_insts;
	for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
		o->by_reason[r] = T->removed_dynamic[r];
	o->removed = T->removed_total;
	o->dmt = o->simt > o->removed ? o->simt - o->removed : 0;
	o->removed_share = o->simt ? (double)o->removed / (double)o->simt : 0.0;
	o->loads = T->loads;
	const struct weft_dmt_scratch *s = d->s;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (!I->removal)
			o->elsu_forwarded += I->reuse_fwd;
		if (s) {
			o->shared_accesses += s->acc_shared[pc];
			if (I->removal)
				o->shared_removed += s->acc_shared[pc];
		}
	}
}

int weft_dmt_finish(struct weft_dmt *d, struct weft_error *err)
{
	if (!d->s || d->finished)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "dmt: weft_dmt_finish called twice");
	int rc = decide(d, err);
	if (!rc)
		d->finished = 1;
	return rc;
}

int weft_dmt_redecide(struct weft_dmt *d, const struct weft_dmt_params *prm, struct weft_error *err)
{
	if (!d->s || !d->finished)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "dmt: weft_dmt_redecide before weft_dmt_finish");
	int rc = weft_dmt_params_check(prm, err);
	if (rc)
		return rc;
	if (prm->warp_width != d->prm.warp_width)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "dmt: warp_width %u differs from the %u the CTAs were replayed with; "
				      "analyse the trace again to change it",
				      prm->warp_width, d->prm.warp_width);
	d->prm = *prm;
	return decide(d, err);
}
