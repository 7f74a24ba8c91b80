/*
 * dmt_iter.c - distances per loop iteration (dmt_comm.h, `per_iter`).
 *
 * A reduction tree written as a loop that the compiler did not unroll
 * (`for (d = n / 2; d > 0; d >>= 1) if (tid < d) s[tid] += s[tid + d];`)
 * executes one static load with a different distance in every iteration:
 * its overall histogram is spread and no single elevator carries it. A dMT
 * compilation unrolls such a loop and gives each iteration's copy of the
 * load its own elevators. The analysis keys each shared-load instance by
 * the thread's k-th execution of the load (as the eLSU matching does: the
 * fabric runs an iteration of a loop body for all threads before the
 * next), so iteration k's instances form a histogram of their own. The
 * load is carried per iteration when every k has a distance covering
 * min_fraction of k's instances; it needs the sum of the iterations'
 * cascades as elevator nodes (the unrolled copies) and the largest as
 * latency.
 *
 * Only loads inside a natural loop are tracked, at most DMT_MAX_ITERS
 * iterations and DMT_ITER_MAX_ENTRIES distinct (k, dTID) pairs per load
 * (beyond, the load is given up: a loop unrolled that often is not a tree).
 * The table is an open-addressed hash of (pc, k, dTID) -> instances, summed
 * over CTAs and kept for weft_dmt_redecide.
 */
#include <stdlib.h>
#include <string.h>

#include "models/analysis/analysis.h"
#include "dmt_internal.h"

int weft_dmt_iter_init(struct weft_dmt *d, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	uint32_t n = d->ninsts ? d->ninsts : 1;
	s->in_loop = calloc(n, 1);
	s->iter_entries = calloc(n, sizeof(uint32_t));
	s->iter_over = calloc(n, 1);
	if (!s->in_loop || !s->iter_entries || !s->iter_over)
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
	struct weft_dom dom;
	struct weft_loops lp;
	int rc = weft_dom_build(d->p, &dom, err);
	if (rc)
		return rc;
	rc = weft_loops_build(d->p, &dom, &lp, err);
	if (rc) {
		weft_dom_free(&dom);
		return rc;
	}
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		uint32_t b = d->p->block_of[pc];
		s->in_loop[pc] = b < lp.nblocks && lp.innermost[b] != WEFT_NO_LOOP;
	}
	weft_loops_free(&lp);
	weft_dom_free(&dom);
	return 0;
}

void weft_dmt_iter_free(struct weft_dmt_scratch *s)
{
	free(s->in_loop), free(s->iter_entries), free(s->iter_over), free(s->iters);
}

static uint64_t iter_hash(uint32_t pc, uint32_t k, int32_t dtid)
{
	uint64_t h = ((uint64_t)pc << 32 | k) * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uint32_t)dtid * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 31;
	return h * 0xbf58476d1ce4e5b9ull;
}

static struct dmt_iterent *iter_slot(struct dmt_iterent *t, uint64_t cap, uint32_t pc, uint32_t k,
				     int32_t dtid)
{
	uint64_t mask = cap - 1, h = iter_hash(pc, k, dtid) & mask;
	while (t[h].pc != UINT32_MAX && !(t[h].pc == pc && t[h].k == k && t[h].dtid == dtid))
		h = (h + 1) & mask;
	return &t[h];
}

static int iter_grow(struct weft_dmt_scratch *s)
{
	uint64_t cap = s->capiters ? 2 * s->capiters : 1024;
	struct dmt_iterent *t = malloc(cap * sizeof(*t));
	if (!t)
		return WEFT_ERR_NOMEM;
	for (uint64_t i = 0; i < cap; i++)
		t[i].pc = UINT32_MAX;
	for (uint64_t i = 0; i < s->capiters; i++)
		if (s->iters[i].pc != UINT32_MAX)
			*iter_slot(t, cap, s->iters[i].pc, s->iters[i].k, s->iters[i].dtid) = s->iters[i];
	free(s->iters);
	s->iters = t;
	s->capiters = cap;
	return 0;
}

int weft_dmt_iter_add(struct weft_dmt_scratch *s, uint32_t pc, uint32_t k, int32_t dtid)
{
	if (!s->in_loop[pc] || s->iter_over[pc])
		return 0;
	if (k >= DMT_MAX_ITERS) {
		s->iter_over[pc] = 1;
		return 0;
	}
	if (s->capiters) {
		struct dmt_iterent *e = iter_slot(s->iters, s->capiters, pc, k, dtid);
		if (e->pc != UINT32_MAX) {
			e->n++;
			return 0;
		}
	}
	if (s->iter_entries[pc] >= DMT_ITER_MAX_ENTRIES) {
		s->iter_over[pc] = 1;
		return 0;
	}
	if (2 * (s->niters + 1) > s->capiters && iter_grow(s))
		return WEFT_ERR_NOMEM;
	struct dmt_iterent *e = iter_slot(s->iters, s->capiters, pc, k, dtid);
	e->pc = pc, e->k = k, e->dtid = dtid, e->n = 1;
	s->niters++;
	s->iter_entries[pc]++;
	return 0;
}

int weft_dmt_iter_merge(struct weft_dmt_scratch *s, const struct weft_dmt_scratch *part, uint32_t ninsts)
{
	/* weft_dmt_iter_add with each entry's count: a load given up in part
	 * (run past DMT_MAX_ITERS, or too many entries in its CTAs) is given up
	 * here, and so is one whose distinct entries over every CTA so far pass
	 * DMT_ITER_MAX_ENTRIES (the union of the entries is the same whatever
	 * the order the CTAs come in; a load given up has no use for its
	 * counts) */
	for (uint32_t pc = 0; pc < ninsts; pc++)
		s->iter_over[pc] |= part->iter_over[pc];
	if (!part->niters)
		return 0;
	for (uint64_t i = 0; i < part->capiters; i++) {
		const struct dmt_iterent *pe = &part->iters[i];
		if (pe->pc == UINT32_MAX)
			continue;
		uint32_t pc = pe->pc;
		if (s->iter_over[pc])
			continue;
		if (s->capiters) {
			struct dmt_iterent *e = iter_slot(s->iters, s->capiters, pc, pe->k, pe->dtid);
			if (e->pc != UINT32_MAX) {
				e->n += pe->n;
				continue;
			}
		}
		if (s->iter_entries[pc] >= DMT_ITER_MAX_ENTRIES) {
			s->iter_over[pc] = 1;
			continue;
		}
		if (2 * (s->niters + 1) > s->capiters && iter_grow(s))
			return WEFT_ERR_NOMEM;
		*iter_slot(s->iters, s->capiters, pc, pe->k, pe->dtid) = *pe;
		s->niters++;
		s->iter_entries[pc]++;
	}
	return 0;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct dmt_iterent *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->dtid < y->dtid ? -1 : x->dtid > y->dtid;
}

/* 1 when distance dd with n instances beats the mode so far (best, bc):
 * more instances, ties to the smaller |d|, then to d > 0. */
static int better(int32_t dd, uint64_t n, int32_t best, uint64_t bc)
{
	if (best == DMT_ITER_NOWRITER || n > bc)
		return 1;
	if (n < bc)
		return 0;
	int32_t ad = dd < 0 ? -dd : dd, ab = best < 0 ? -best : best;
	return ad < ab || (ad == ab && dd > best);
}

/* Mode of one iteration's entries [i, j): the most instances, ties to the
 * smaller |d|, then to d > 0 (as the overall mode). *total counts all. */
static int32_t iter_mode(const struct dmt_iterent *e, uint64_t i, uint64_t j, uint64_t *count,
			 uint64_t *total)
{
	int32_t best = DMT_ITER_NOWRITER;
	uint64_t bc = 0;
	*total = 0;
	for (uint64_t x = i; x < j; x++) {
		*total += e[x].n;
		if (e[x].dtid == DMT_ITER_NOWRITER)
			continue;
		if (better(e[x].dtid, e[x].n, best, bc)) {
			best = e[x].dtid;
			bc = e[x].n;
		}
	}
	*count = bc;
	return best;
}

/* The table's entries, sorted by (pc, k, dTID), in a fresh array. */
static struct dmt_iterent *sorted_entries(const struct weft_dmt_scratch *s, uint64_t *n)
{
	*n = 0;
	struct dmt_iterent *e = malloc((s->niters + 1) * sizeof(*e));
	if (!e)
		return NULL;
	for (uint64_t i = 0; i < s->capiters; i++)
		if (s->iters[i].pc != UINT32_MAX)
			e[(*n)++] = s->iters[i];
	qsort(e, *n, sizeof(*e), cmp_ent);
	return e;
}

int weft_dmt_iter_decide(struct weft_dmt *d, struct weft_error *err)
{
	const struct weft_dmt_scratch *s = d->s;
	if (!s->niters)
		return 0;
	uint64_t n;
	struct dmt_iterent *e = sorted_entries(s, &n);
	if (!e)
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory deciding per-iteration loads");
	for (uint64_t i = 0; i < n;) {
		uint32_t pc = e[i].pc;
		uint64_t j = i;
		while (j < n && e[j].pc == pc)
			j++;
		struct weft_dmt_inst *I = &d->inst[pc];
		int ok = I->role == WEFT_DMT_SH_LOAD && !I->elevator && !s->iter_over[pc] && I->exec;
		uint32_t next_k = 0, casc_max = 0, casc_sum = 0, modes = 0;
		int32_t first = 0;
		uint64_t count = 0, local = 0, seen = 0;
		for (uint64_t a = i; ok && a < j;) {
			uint64_t b = a;
			while (b < j && e[b].k == e[a].k)
				b++;
			uint64_t c, tot;
			int32_t m = iter_mode(e, a, b, &c, &tot);
			/* every iteration up to the last present, each with a distance
			 * that covers min_fraction of its instances */
			if (e[a].k != next_k || m == DMT_ITER_NOWRITER || !c ||
			    (double)c < d->prm.min_fraction * (double)tot - 1e-9) {
				ok = 0;
				break;
			}
			uint32_t cs = weft_dmt_cascades(m, d->prm.token_buffer);
			casc_max = cs > casc_max ? cs : casc_max;
			casc_sum += cs;
			if (!modes++)
				first = m;
			else if (m != first)
				first = INT32_MAX; /* distances differ */
			count += c;
			seen += tot;
			if (!m)
				local += c;
			next_k++;
			a = b;
		}
		/* a single distance would have been carried overall; every
		 * executed instance must be in the table */
		if (ok && next_k >= 2 && first == INT32_MAX && seen == I->exec) {
			I->per_iter = 1;
			I->niters = next_k;
			I->iter_count = count;
			I->iter_local = local;
			I->cascade = casc_max;
			I->elevators = casc_sum;
		}
		i = j;
	}
	free(e);
	return 0;
}

uint32_t weft_dmt_iter_distances(const struct weft_dmt *d, uint32_t pc, int32_t *dtids, uint32_t max)
{
	const struct weft_dmt_scratch *s = d->s;
	if (!s || pc >= d->ninsts || !d->inst[pc].per_iter)
		return 0;
	uint32_t niters = d->inst[pc].niters;
	for (uint32_t k = 0; k < niters && k < max; k++) {
		/* the mode of iteration k, from the table */
		int32_t best = DMT_ITER_NOWRITER;
		uint64_t bc = 0;
		for (uint64_t i = 0; i < s->capiters; i++) {
			const struct dmt_iterent *e = &s->iters[i];
			if (e->pc != pc || e->k != k || e->dtid == DMT_ITER_NOWRITER)
				continue;
			if (better(e->dtid, e->n, best, bc)) {
				best = e->dtid;
				bc = e->n;
			}
		}
		dtids[k] = best;
	}
	return niters;
}
