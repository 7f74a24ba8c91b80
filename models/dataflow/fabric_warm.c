/*
 * fabric_warm.c - functional warming for a sampled replay of the fabric
 * model (Wunderlich, Wenisch, Falsafi, Hoe, "SMARTS: Accelerating
 * Microarchitecture Simulation via Rigorous Statistical Sampling", ISCA
 * 2003, section 4: between measured units, the caches are kept warm by
 * functional simulation of the skipped instructions).
 *
 * A random sample of CTAs replayed alone loses the reuse between
 * neighbouring CTAs (hotspot's halo rows are read by the CTA above and
 * below): each sampled CTA finds the L1 and L2 cold where a full replay
 * finds them warm, and the estimate is biased high, which the sampling
 * intervals do not measure. With warming, every CTA outside the sample
 * goes through the caches here, in CTA order between the sampled ones, on
 * the core a full replay deals it to (round robin over all the launch's
 * CTAs: fabric_replay.c counts warmed CTAs into the dealing), in the
 * fabric's access order (fabric_replay.c), with the same routing as
 * access_one: shared-memory, constant, parameter, live-value-cache and
 * dMT-removed accesses touch no cache; eLSU-forwarded loads are skipped as
 * a replay would; atomics go to the L2; write-backs and write-throughs
 * reach the L2. weft_cache_warm changes the contents (tags, LRU, dirty)
 * without counting, so no event, bank count, MSHR occupancy or hit rate
 * of a warmed CTA enters the estimate: those are the sampled CTAs',
 * scaled by CTAs / CTAs read as before.
 *
 * The LDST units are state too. Each warmed access is fed to its pc's
 * unit with the latency access_one would give it (the level that served
 * it), so that a timed CTA finds the reservation entries held as a full
 * replay leaves them; the unit keeps apart what its stream gained over
 * the warmed stretches (fabric.h fabric_ldst_q), so that what the timed
 * CTAs gained is what a windowed sample expands. When every CTA of the launch was warmed or timed (the
 * default warming), the units were fed the full replay's accesses in the
 * full replay's order, so their bound is the full replay's, and the
 * warmed latencies (kept beside the timed ones, fabric_pc warm_*) give
 * the full replay's mean latency per node (fabric_timing.c every_fed).
 * So are the launch's extremes: each warmed CTA's block visits and trip
 * counts are kept apart (fabric_state bvisit_warm, trips_warm), and with
 * every CTA fed, a sub-kernel some warmed thread enters still fills and
 * runs its loop chain, and each loop's longest trip is the launch's.
 *
 * A windowed sample (--warm-window) warms only the CTAs near each sampled
 * one; that reproduces the lines a sampled CTA reuses, but not how full
 * the caches are. A full replay keeps the shared write-back L2 full, so
 * each of its misses evicts a line (a dirty one is written back to DRAM);
 * windows of a few CTAs leave it part empty, and on 15 cores (nn) the
 * sampled misses wrote nothing back: the DRAM bound came out 19.5% low.
 * Full is not enough: once full, the L2's least-recently-used end held
 * the first CTAs' clean reads (their written lines were still in the
 * L1s), so the timed misses still wrote nothing back. So the windowed
 * walk also offers the CTAs before the launch's first window (the fill,
 * trace.h warm_fill), and they are warmed, in CTA order, until every L1
 * and the L2 have turned over (weft_cache_turned_over: full, and as many
 * lines replaced since), the steady state of a long replay; the rest of
 * the fill is skipped (weft_fabric_fill_skip), neither prepared nor
 * warmed. The stop is the caches' state, not a count of CTAs; the fill's
 * length only bounds the decoding (weft_fabric_fill_begin).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

/* access_one's L2 path (l2_access), state only; returns the latency the
 * level that served it gives */
static double warm_l2(struct fabric_state *s, uint64_t addr, int is_write)
{
	uint64_t victim = 0;
	unsigned r = weft_cache_warm(&s->l2, addr, is_write, &victim); /* DRAM below keeps no state */
	if (r & WEFT_CACHE_HIT)
		return s->fp.l2_latency;
	return r & WEFT_CACHE_FILL ? s->fp.dram_latency : s->fp.l2_latency;
}

/* access_one's L1 path (l1_access), state only; returns the latency and
 * sets *miss when a read waits for a fill, as l1_access does */
static double warm_l1(struct fabric_state *s, struct fabric_core *c, uint64_t addr, int is_write, int *miss)
{
	const struct fabric_params *fp = &s->fp;
	uint64_t line = addr >> c->l1.line_shift;
	if (c->memo_valid && c->memo_line == line && (!is_write || c->memo_dirty))
		return fp->l1_latency; /* the MRU line: a hit that changes no cache state */
	uint64_t victim = 0;
	double lat = fp->l1_latency;
	unsigned r = weft_cache_warm(&c->l1, addr, is_write, &victim);
	if (r & WEFT_CACHE_WRITEBACK)
		warm_l2(s, victim, 1);
	if (r & WEFT_CACHE_THROUGH)
		warm_l2(s, addr, 1);
	if (r & WEFT_CACHE_FILL) {
		lat = warm_l2(s, addr, 0);
		*miss = 1;
	}
	fabric_memo_note(c, line, r, is_write, fp->l1.write == WEFT_CACHE_WRITE_BACK);
	if (is_write && !fp->l1.write_fetch) {
		lat = fp->l1_latency; /* nothing waits for a store's line */
		*miss = 0;
	}
	return lat;
}

/* One warmed access: the caches' state, and the LDST unit's queue with
 * the latency access_one would give it (no count, no event) */
static void warm_one(struct fabric_state *s, struct fabric_core *c, const struct fabric_acc *a, uint32_t cta)
{
	const struct fabric_params *fp = &s->fp;
	struct fabric_pc *P = &s->pc[a->pc];
	const struct weft_inst_info *ii = &s->p->info[a->pc];
	if (s->dmt_rm[a->pc])
		return;
	int is_store = ii->cls == WEFT_IC_STORE, is_atomic = ii->cls == WEFT_IC_ATOMIC;
	int waits = 0;
	double lat;
	if (a->space == WEFT_SPACE_SHARED && s->dmt_fwd[a->pc] == FABRIC_LVC_LOAD) {
		lat = fp->lvc_latency; /* no cache state (the LVC is counted, not held) */
	} else if (a->space == WEFT_SPACE_SHARED) {
		lat = fp->shmem_latency;
	} else if (a->space == WEFT_SPACE_CONST || a->space == WEFT_SPACE_PARAM) {
		lat = fp->l1_latency;
	} else if (s->dmt_fwd[a->pc] == FABRIC_FWD_LOAD && !is_store && !is_atomic && P->last_cta == cta + 1 &&
		   P->last_addr == a->addr) {
		lat = fp->lat[WEFT_DFU_CONTROL]; /* forwarded by the eLSU: no L1 access */
	} else if (is_atomic) {
		lat = warm_l2(s, a->addr, 1);
		waits = 1;
	} else {
		lat = warm_l1(s, c, a->addr, is_store, &waits);
	}
	P->last_addr = a->addr;
	P->last_cta = cta + 1;
	int pipelined = fp->hit_pipelined && !waits;
	P->warm_ops += 1;
	P->warm_lat_full += lat + fp->lat[WEFT_DFU_LDST];
	if (pipelined)
		P->warm_lat_pipe += lat;
	weft_fabric_ldst_warm_feed(s, a->pc, (pipelined ? 0 : lat) + fp->lat[WEFT_DFU_LDST]);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* distinct lines of line_shift in v[0..n) (sorted in place) */
static uint64_t distinct(uint64_t *v, size_t n, unsigned line_shift)
{
	for (size_t i = 0; i < n; i++)
		v[i] >>= line_shift;
	qsort(v, n, sizeof(*v), cmp_u64);
	uint64_t d = 0;
	for (size_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/* CTAs that fill `lines` at `per` new lines each, rounded up */
static uint64_t ctas_for(uint64_t lines, uint64_t per)
{
	return per ? (lines + per - 1) / per : 0;
}

int weft_fabric_fill_begin(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err)
{
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	s->fill_start = s->fill_end = 0;
	s->fill_nsel = 0;
	__atomic_store_n(&s->filled, 0, __ATOMIC_RELAXED);
	if (!L || !sample || !sample->warm || sample->kind != WEFT_SAMPLE_RANDOM || !sample->warm_window ||
	    !L->nctas)
		return 0;
	uint32_t *ctas = realloc(s->fill_sel, (size_t)L->nctas * sizeof(*ctas));
	if (!ctas)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory choosing %u CTAs", L->nctas);
	s->fill_sel = ctas;
	uint32_t n = weft_cta_sample_select(sample, L->nctas, ctas);
	uint32_t W = weft_cta_sample_window(sample, L->grid, L->nctas);
	if (!n)
		return 0;
	uint32_t c0 = ctas[0];
	s->fill_nsel = n;
	s->fill_W = W;
	/* the footprint: the first sampled CTA's distinct lines in the spaces
	 * that reach the caches (warm_one's routing, before the dMT's
	 * removals: an upper bound of what a CTA brings in) */
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	int rc = weft_trace_read_cta(t, launch, c0, &c, err);
	uint64_t *v = NULL;
	size_t nv = 0, cap = 0;
	for (uint32_t th = 0; !rc && th < c.nthreads; th++) {
		const struct weft_thread_trace *T = &c.threads[th];
		for (uint32_t j = 0; j < T->naddrs; j++) {
			uint8_t sp = T->spaces[j];
			if (sp == WEFT_SPACE_SHARED || sp == WEFT_SPACE_CONST || sp == WEFT_SPACE_PARAM)
				continue;
			if (nv == cap) {
				size_t nc = cap ? 2 * cap : 1024;
				uint64_t *nvp = realloc(v, nc * sizeof(*v));
				if (!nvp) {
					rc = weft_error_set(err, WEFT_ERR_NOMEM,
							    "out of memory reading CTA %u's lines", c0);
					break;
				}
				v = nvp;
				cap = nc;
			}
			v[nv++] = weft_thread_addr(T, j);
		}
	}
	weft_cta_trace_free(&c);
	if (rc) {
		free(v);
		return rc;
	}
	uint64_t *v1 = nv ? malloc(nv * sizeof(*v)) : NULL;
	if (nv && !v1) {
		free(v);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading CTA %u's lines", c0);
	}
	if (nv)
		memcpy(v1, v, nv * sizeof(*v));
	uint64_t l2 = distinct(v, nv, s->l2.line_shift);
	uint64_t l1 = s->fp.cores ? distinct(v1, nv, s->cores[0].l1.line_shift) : 0;
	free(v);
	free(v1);
	/* each core's L1 fills from every cores-th CTA */
	uint64_t need = ctas_for((uint64_t)s->l2.nsets * s->l2.g.assoc, l2);
	uint64_t need1 = s->fp.cores ? (uint64_t)s->fp.cores *
					       ctas_for((uint64_t)s->cores[0].l1.nsets * s->cores[0].l1.g.assoc, l1)
				     : 0;
	if (need1 > need)
		need = need1;
	/* fill and turn over once (weft_cache_turned_over), twice that:
	 * neighbours share lines and sets fill unevenly; the stop
	 * (warm_apply) decides how much of it is warmed */
	need *= 4;
	if (need > L->nctas)
		need = L->nctas;
	uint32_t from, to; /* the CTAs trace_foreach.c hands over */
	weft_cta_sample_fill_range(c0, W, (uint32_t)need, &from, &to);
	s->fill_start = from;
	s->fill_end = to;
	return 0;
}

uint32_t weft_fabric_fill_ctas(const struct fabric_state *s)
{
	return s->fill_end > s->fill_start ? (uint32_t)(s->fill_end - s->fill_start) : 0;
}

static int caches_full(const struct fabric_state *s)
{
	if (!weft_cache_turned_over(&s->l2))
		return 0;
	for (uint32_t i = 0; i < s->fp.cores; i++)
		if (!weft_cache_turned_over(&s->cores[i].l1))
			return 0;
	return 1;
}

/* 1 when cta is sampled, at most W before a sampled CTA, or just after
 * one: a window's (trace_foreach.c), never skipped */
static int in_window(const struct fabric_state *s, uint32_t cta)
{
	uint32_t lo = 0, hi = s->fill_nsel; /* first sampled CTA >= cta */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->fill_sel[mid] < cta)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->fill_nsel && s->fill_sel[lo] - cta <= s->fill_W)
		return 1;
	return lo > 0 && s->fill_sel[lo - 1] + 1 == cta;
}

int weft_fabric_fill_skip(const struct fabric_state *s, uint32_t cta)
{
	if (!s->fill_nsel || in_window(s, cta))
		return 0; /* not windowed (every CTA handed over is warmed), or a window's */
	if (cta < s->fill_start || cta >= s->fill_end)
		return 1; /* another configuration's fill (a run of several, model_many.c) */
	/* read on the decoder threads too (prep_cta, fabric.c): set once, by
	 * the thread that warms in CTA order, so a decoder that sees it set
	 * skips a CTA that thread skips as well */
	return __atomic_load_n(&s->filled, __ATOMIC_RELAXED);
}

void weft_fabric_warm_apply(struct fabric_state *s, const struct weft_cta_trace *cta,
			    const struct fabric_prepared *pr)
{
	if (weft_fabric_fill_skip(s, cta->cta))
		return;
	struct fabric_core *core = &s->cores[cta->cta % s->fp.cores]; /* as fabric_replay.c deals it */
	s->warmed++;
	/* its visits, guarded-off counts and trip counts (pr) are not the
	 * sample's: they are kept apart, for their extremes (which sub-kernels
	 * the launch enters, its longest trips: fabric_timing.c every_fed);
	 * its accesses warm the caches and the LDST units */
	weft_trips_merge(&s->trips_warm, &pr->trips);
	if (cta->cta + 1 == s->launch_ctas)
		weft_fabric_pad_note(s, pr, 0);
	for (uint32_t b = 0; b < s->p->nblocks; b++)
		s->bvisit_warm[b] += pr->bvisit[b];
	for (size_t i = 0; i < pr->nacc; i++) { /* in the fabric's order */
		struct fabric_acc a = weft_fabric_acc_at(pr, i);
		warm_one(s, core, &a, cta->cta);
	}
	if (cta->cta < s->fill_end && !s->filled && caches_full(s))
		__atomic_store_n(&s->filled, 1, __ATOMIC_RELAXED);
}

int weft_fabric_warm_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err)
{
	if (weft_fabric_fill_skip(s, cta->cta))
		return 0; /* not even prepared */
	int rc = weft_fabric_prepare_cta(s, cta, &s->own, err);
	if (!rc)
		weft_fabric_warm_apply(s, cta, &s->own);
	return rc;
}
