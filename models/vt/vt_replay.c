/*
 * vt_replay.c - the dynamic side of the vt model: each CTA's threads
 * replayed as stripmined vectors on vector cores (vector-SIMD, VT) or as
 * interleaved microthreads on MIMD cores, accumulating per-core cycles, a
 * CPI stack, activity events and the statistics the Maven study reports
 * (docs/models/vt.md has the equations).
 *
 * Vector cores. The application vector (the launch's threads in linear
 * order, less the grid padding of its last CTA: quiet threads, see
 * grid_padding) is cut into strips of the hardware vector length (HVL);
 * strip k of the launch runs on core k mod cores. Strips run across CTA
 * boundaries: an incomplete last strip's uTs are copied out of the CTA's
 * buffers and completed by the next CTA, except in kernels with barriers
 * or shared memory (strips stay in their CTA) and at a sample's gap. A
 * strip is one models/group.h group of width HVL over those uTs, under
 * the PVFB policy (VT) or full predication (vector-SIMD); a CTA-uniform
 * hoisted value costs the CP once per CTA the strip spans. Per strip:
 *   cp     = strip_overhead + hoisted instructions issued with the whole
 *            vector (a VT fragment that is not the whole vector cannot
 *            use the CP: its hoistable work runs as uT instructions);
 *   issue  = vector instructions the issue unit sends (one per cycle);
 *   unit u = sum of busy cycles of the instructions on u, busy = e x per
 *            with e the elements per lane (ceil(VL / lanes), or the active
 *            uTs under density time) and per the bank cycles per element;
 *   arith  = (arith + int busy) / arith_units, or with per-bank integer
 *            ALUs arith busy / arith_units and int busy / banks apart;
 *   vrf    = unified: max(reads / vrf_reads, writes / vrf_writes)
 *            (element reads of vector registers only: hoisted values
 *            are CP scalars); banked: (busy of all lane instructions) /
 *            banks;
 *   memory = refills x refill / MSHRs, refills = misses + the lines of
 *            the strip accessed more than 1 + secondary times while in
 *            flight (the vector memory unit is decoupled: successive
 *            strips' misses overlap, so the MSHRs bound refill
 *            throughput, not each strip's latency);
 *   strip  = max(cp, issue, arith, int, load, store, vrf, memory)
 *            + dependency, dependency = sum over instructions whose
 *            result the next instruction reads of max(0, latency - e).
 * The strip's cycles go to the CPI component of the largest term, and
 * the dependency cycles to "dependency".
 *
 * MIMD cores. The application vector (N threads) is cut into contiguous
 * chunks, one per core (C = ceil(N / cores) threads), and each core's
 * chunk into contiguous chunks, one per uT slot (ceil(C / U), U uTs per
 * core). A slot's uT is spawned and joined once per launch (spawn + join
 * cycles) and loops over its threads: item_overhead instructions per
 * thread, and U x ceil(L / U) cycles per instruction, with L the latency
 * the next instruction waits for (1 when it does not read the result; a
 * data-cache miss blocks the uT for the refill). A core lasts as long as
 * its busiest slot.
 *
 * Tile. A launch lasts max(slowest core, the busiest data-cache bank's
 * accesses, ceil(refills / MSHRs) x refill); the last two are shared by
 * every core (refills: misses and secondary overflows).
 *
 * A strip is timed in two parts: strip_build (grouping, counts, per-unit
 * work and the list of its data-cache accesses: launch constants only)
 * and strip_run (in order: the accesses through the data cache and the
 * in-flight lines, the cycles on the next core). On the single-config
 * path weft_vt_prep_cta builds a CTA's whole strips on a decoder thread,
 * where they would start after an in-order replay of the CTAs before it;
 * vector_cta takes one only where a strip does start at its first uT.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
#include "vt.h"

const char *const weft_vt_cpi_names[VT_C_COUNT] = {
	"cp", "issue", "arith", "int", "load", "store", "vrf", "dependency", "memory",
	"spawn", "dcache_banks", "idle",
};

static const int fu_ev[WEFT_FU_COUNT] = {
	VT_EV_INT_ALU, VT_EV_INT_MUL, VT_EV_INT_DIV, VT_EV_FP32_ADD, VT_EV_FP32_MUL,
	VT_EV_FP32_FMA, VT_EV_FP64, VT_EV_SFU, -1,
};

/* The address a data-cache access uses: global (and generic, const)
 * addresses as they are; the per-CTA shared and per-thread local buffers
 * and the parameters (offsets from 0 in the trace) in regions of their
 * own, so that different CTAs' and threads' buffers do not alias
 * (assumption: a CUDA port keeps them in memory, as Maven has no
 * scratchpad). */
static uint64_t dc_addr(uint8_t space, uint64_t addr, uint32_t cta, uint32_t tid)
{
	switch (space) {
	case WEFT_SPACE_SHARED:
		return (1ull << 62) | ((uint64_t)cta << 32) | (addr & 0xffffffffull);
	case WEFT_SPACE_LOCAL:
		return (2ull << 62) | ((uint64_t)(cta & 0xfffff) << 40) |
		       ((uint64_t)(tid & 0xfffff) << 20) | (addr & 0xfffffull);
	case WEFT_SPACE_PARAM:
		return (3ull << 62) | addr;
	default:
		return addr;
	}
}

/* One data-cache access; returns 1 on a miss (a line fetched). */
static int dc_access(struct vt_state *s, uint64_t addr, int is_write)
{
	uint64_t victim;
	unsigned r = s->warming ? weft_cache_warm(&s->dc, addr, is_write, &victim)
				: weft_cache_access(&s->dc, addr, is_write, &victim);
	s->ls.dcache_accesses++;
	s->ls.ev[VT_EV_DCACHE] += 1;
	double line32 = s->pp.dcache.line_bytes / 32.0;
	if (r & WEFT_CACHE_WRITEBACK)
		s->ls.ev[VT_EV_DRAM] += line32;
	if (r & WEFT_CACHE_FILL) {
		s->ls.misses++;
		s->ls.ev[VT_EV_DRAM] += line32;
		return 1;
	}
	return 0;
}

/* Lines a strip has missed on, with the accesses each took while in
 * flight: an MSHR holds one primary and mshr_secondary secondary misses;
 * assumption: the access after those waits until the line has arrived
 * (then the line is present and later accesses hit), which costs one more
 * refill time, priced like a miss. */
/* One access of a strip; returns the MSHR refills it costs (0 or 1). */
_Static_assert(VT_INFLIGHT < 256 && VT_INFLIGHT_SLOTS >= 2 * VT_INFLIGHT &&
		       (VT_INFLIGHT_SLOTS & (VT_INFLIGHT_SLOTS - 1)) == 0,
	       "vt.h: an in-flight entry index + 1 fits a byte; the slot table is a power of two with room");

static void inflight_reset(struct vt_inflight *fl)
{
	fl->n = 0;
	memset(fl->slot, 0, sizeof(fl->slot));
}

/* Where line's entry is or would go in fl->slot. */
static uint32_t inflight_find(const struct vt_inflight *fl, uint64_t line)
{
	uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 56) & (VT_INFLIGHT_SLOTS - 1);
	while (fl->slot[h] && fl->line[fl->slot[h] - 1] != line)
		h = (h + 1) & (VT_INFLIGHT_SLOTS - 1);
	return h;
}

static uint32_t strip_access(struct vt_state *s, struct vt_inflight *fl, uint64_t addr, int is_write)
{
	uint64_t line = addr / s->pp.dcache.line_bytes;
	uint32_t h = inflight_find(fl, line);
	if (fl->slot[h]) {
		uint32_t i = fl->slot[h] - 1u;
		/* the tag model sees a hit: the line was allocated on the miss */
		(void)dc_access(s, addr, is_write);
		s->ls.secondary++;
		if (++fl->acc[i] != s->pp.mshr_secondary + 1)
			return 0;
		s->ls.secondary_overflows++;
		return 1;
	}
	if (!dc_access(s, addr, is_write))
		return 0;
	if (fl->n < VT_INFLIGHT) {
		fl->line[fl->n] = line;
		fl->acc[fl->n++] = 0;
		fl->slot[h] = (uint8_t)fl->n;
	}
	return 1;
}

static void bucket_add(uint64_t b[4], uint32_t active, uint32_t hvl)
{
	for (uint32_t k = 0; k < 4; k++)
		if ((uint64_t)active * 4 <= (uint64_t)(k + 1) * hvl || k == 3) {
			b[k]++;
			return;
		}
}

static void fu_events(double *ev, const struct vt_pcinfo *pi, uint32_t n)
{
	int e = fu_ev[pi->fu < WEFT_FU_COUNT ? pi->fu : WEFT_FU_NONE];
	if (e >= 0)
		ev[e] += n;
}

void weft_vt_acc_reset(struct vt_accs *acc)
{
	acc->n = 0;
	acc->nhi = 0;
	acc->last = 0;
	acc->wide = 0;
}

/* Room for n wide accesses; -1 out of memory. */
static int acc_grow_wide(struct vt_accs *acc, size_t n)
{
	if (n <= acc->wcap)
		return 0;
	size_t nc = acc->wcap ? 2 * acc->wcap : 1024;
	while (nc < n)
		nc *= 2;
	uint64_t *a = realloc(acc->addr, nc * sizeof(*a));
	if (!a)
		return -1;
	acc->addr = a;
	uint8_t *w = realloc(acc->w, nc);
	if (!w)
		return -1;
	acc->w = w;
	acc->wcap = nc;
	return 0;
}

/* Appends one data-cache access to a strip's list; -1 out of memory. */
int weft_vt_acc_push(struct vt_accs *acc, uint64_t addr, int is_write)
{
	if (!acc->wide) {
		if (acc->n == acc->cap) {
			size_t nc = acc->cap ? 2 * acc->cap : 1024;
			uint32_t *lo = realloc(acc->lo, nc * sizeof(*lo));
			if (!lo)
				return -1;
			acc->lo = lo;
			uint8_t *k = realloc(acc->key, nc);
			if (!k)
				return -1;
			acc->key = k;
			acc->cap = nc;
		}
		uint64_t hi = addr >> 32;
		uint32_t r = acc->last;
		if (r >= acc->nhi || acc->hi[r] != hi) {
			for (r = 0; r < acc->nhi && acc->hi[r] != hi; r++)
				;
			if (r == acc->nhi && r < VT_ACC_REGIONS)
				acc->hi[acc->nhi++] = hi;
			acc->last = r;
		}
		if (r < VT_ACC_REGIONS) {
			acc->lo[acc->n] = (uint32_t)addr;
			acc->key[acc->n++] = (uint8_t)(r << 1 | (is_write ? 1 : 0));
			return 0;
		}
		/* a region past the table's: the list goes wide, its accesses
		 * so far rewritten whole */
		if (acc_grow_wide(acc, acc->n + 1))
			return -1;
		for (size_t i = 0; i < acc->n; i++) {
			acc->addr[i] = acc->hi[acc->key[i] >> 1] << 32 | acc->lo[i];
			acc->w[i] = acc->key[i] & 1;
		}
		acc->wide = 1;
	}
	if (acc_grow_wide(acc, acc->n + 1))
		return -1;
	acc->addr[acc->n] = addr;
	acc->w[acc->n++] = (uint8_t)is_write;
	return 0;
}

/* Access i of a: its address, and whether it writes. */
uint64_t weft_vt_acc_at(const struct vt_accs *a, size_t i, int *is_write)
{
	if (a->wide) {
		*is_write = a->w[i];
		return a->addr[i];
	}
	*is_write = a->key[i] & 1;
	return a->hi[a->key[i] >> 1] << 32 | a->lo[i];
}

void weft_vt_accs_free(struct vt_accs *a)
{
	free(a->lo);
	free(a->key);
	free(a->addr);
	free(a->w);
	memset(a, 0, sizeof(*a));
}

static int acc_nomem(struct weft_error *err, uint32_t n, uint32_t cta)
{
	return weft_error_set(err, WEFT_ERR_NOMEM,
			      "out of memory for the data-cache accesses of a strip of %u uTs from CTA %u",
			      n, cta);
}

/* Adds a strip's counts to the launch's (the events are whole numbers:
 * their sums are exact in any order). */
static void tally_add(struct vt_launch *ls, const struct vt_tally *tl)
{
	ls->strips += tl->strips;
	ls->partial_strips += tl->partial_strips;
	ls->cross_cta_strips += tl->cross_cta_strips;
	ls->thread_insts += tl->thread_insts;
	ls->ut_insts_issued += tl->ut_insts_issued;
	ls->ut_active += tl->ut_active;
	for (int k = 0; k < 4; k++)
		ls->bucket[k] += tl->bucket[k];
	ls->fragments += tl->fragments;
	ls->cp_insts += tl->cp_insts;
	for (int k = 0; k < VT_K_COUNT; k++)
		ls->kind_dyn[k] += tl->kind_dyn[k];
	for (int k = 0; k < 3; k++)
		ls->vmem_ops[k] += tl->vmem_ops[k];
	ls->coalesced_saved += tl->coalesced_saved;
	ls->bank_conflicts += tl->bank_conflicts;
	for (int k = 0; k < VT_EV_COUNT; k++)
		ls->ev[k] += tl->ev[k];
}

/* The part of a strip that does not depend on the data cache: the strip
 * of n uTs (th, with their CTAs lcta and thread indexes ltid) grouped by
 * it, its counts and per-unit work into o, and its data-cache accesses,
 * in order, appended to acc (o->acc0, o->nacc). Reads only what does not
 * change during a launch (s's params, program tables and HVL), so it may
 * run on a decoder thread (weft_vt_prep_cta). */
static int strip_build(const struct vt_state *s, struct weft_group_iter *it,
		       struct weft_thread_trace *th, const uint32_t *lcta, const uint32_t *ltid,
		       uint32_t n, struct vt_strip *o, struct vt_accs *acc, struct weft_error *err)
{
	const struct vt_params *pp = &s->pp;
	struct vt_tally *ls = &o->tl;
	enum weft_div_policy pol = pp->pattern == VT_PAT_VT ? pp->pvfb : WEFT_DIV_PREDICATE;
	struct weft_cta_trace sc = { .cta = lcta[0], .nthreads = n, .threads = th };
	memset(o, 0, sizeof(*o));
	o->acc0 = acc->n;
	int rc = weft_group_iter_init(it, &s->gp, &sc, s->hvl, 0, pol, 0, err);
	if (rc)
		return rc;
	/* the strip's CTA segments: lanes of one CTA each */
	uint64_t seg[WEFT_GROUP_MAX_WIDTH];
	uint32_t nseg = 0;
	for (uint32_t l = 0; l < sc.nthreads; l++) {
		if (!l || lcta[l] != lcta[l - 1])
			seg[nseg++] = 0;
		seg[nseg - 1] |= 1ull << l;
	}
	if (nseg > 1)
		ls->cross_cta_strips++;
	uint32_t vl = it->nlanes;
	ls->strips++;
	if (vl < s->hvl)
		ls->partial_strips++;
	double cp = pp->strip_overhead, issue = 0, dep = 0;
	double busy[VT_U_COUNT] = { 0 }, reads = 0, writes = 0, conflicts = 0;
	uint64_t uaddr[WEFT_GROUP_MAX_WIDTH];
	ls->cp_insts += pp->strip_overhead;
	ls->ev[VT_EV_CP_INST] += pp->strip_overhead;
	struct weft_group_block blk;
	struct weft_group_inst in;
	while ((rc = weft_group_next_block(it, &blk)) == 1) {
		ls->fragments++;
		if (pp->pattern == VT_PAT_VT && weft_group_pending(it) > 0)
			ls->ev[VT_EV_PVFB] += 1;
		while ((rc = weft_group_block_inst(it, &in)) == 1) {
			const struct vt_pcinfo *pi = &s->vp.pc[in.pc];
			uint32_t active = (uint32_t)weft_popcount64(in.issue);
			uint32_t nexec = (uint32_t)weft_popcount64(in.exec);
			int full = in.issue == (it->live | in.exec);
			uint8_t k = pi->kind;
			if (pp->pattern == VT_PAT_VT && !full) {
				if (k == VT_K_CP)
					k = VT_K_UT;
				else if (k == VT_K_CP_LOAD || k == VT_K_VUNIT || k == VT_K_VSTRIDE)
					k = VT_K_UT_MEM;
			}
			ls->kind_dyn[k] += active;
			ls->thread_insts += nexec;
			if (k == VT_K_CP || k == VT_K_CP_LOAD) {
				/* a CTA-uniform value: once per CTA segment */
				uint32_t times = pi->cta_uni ? nseg : 1;
				cp += times;
				ls->cp_insts += times;
				ls->ev[VT_EV_CP_INST] += times;
				ls->ev[VT_EV_SRF_READ] += (double)pi->sreads * times;
				ls->ev[VT_EV_SRF_WRITE] += (double)pi->writes * times;
				fu_events(ls->ev, pi, times);
				for (uint32_t g = 0; k == VT_K_CP_LOAD && g < times; g++) {
					uint64_t m = times > 1 ? in.exec & seg[g] : in.exec;
					if (!m)
						continue;
					int l = __builtin_ctzll(m);
					uint64_t a = dc_addr(in.space[l], in.addr[l], lcta[l], ltid[l]);
					if (weft_vt_acc_push(acc, a, 0))
						return acc_nomem(err, n, lcta[0]);
				}
				continue;
			}
			issue += 1;
			ls->ev[VT_EV_VIU_ISSUE] += 1;
			uint32_t e = (k == VT_K_VUNIT || k == VT_K_VSTRIDE) ? weft_vt_elems(pp, vl, vl)
									: weft_vt_elems(pp, vl, active);
			if (k == VT_K_VUNIT || k == VT_K_VSTRIDE) {
				busy[pi->is_store ? VT_U_STORE : VT_U_LOAD] += e;
				ls->vmem_ops[k == VT_K_VUNIT ? 0 : 1]++;
				uint64_t last = UINT64_MAX;
				for (uint64_t m = in.exec; m; m &= m - 1) {
					int l = __builtin_ctzll(m);
					uint64_t a = dc_addr(in.space[l], in.addr[l], lcta[l], ltid[l]);
					uint64_t b = a / pp->port_bytes;
					if (k == VT_K_VUNIT && b == last)
						continue;
					last = b;
					if (weft_vt_acc_push(acc, a, pi->is_store))
						return acc_nomem(err, n, lcta[0]);
				}
				if (pi->is_store)
					reads += (double)e;
				else
					writes += (double)e;
				ls->ev[pi->is_store ? VT_EV_VRF_READ : VT_EV_VRF_WRITE] += nexec;
				continue;
			}
			ls->ut_insts_issued++;
			ls->ut_active += active;
			bucket_add(ls->bucket, active, vl);
			struct vt_vcost vc;
			weft_vt_vinst_cost(pp, pi, e, &vc);
			if (pi->unit != VT_U_NONE)
				busy[pi->unit] += vc.busy;
			conflicts += vc.conflicts;
			ls->bank_conflicts += (uint64_t)vc.conflicts;
			reads += vc.rf_reads;
			writes += vc.rf_writes;
			ls->ev[VT_EV_VRF_READ] += (double)pi->reads * active;
			ls->ev[VT_EV_VRF_WRITE] += (double)pi->writes * active;
			fu_events(ls->ev, pi, nexec);
			if (pi->dep_next && pp->lat[pi->lat] > e)
				dep += pp->lat[pi->lat] - e;
			if (k == VT_K_UT_MEM && in.is_mem && in.exec) {
				uint32_t nu = 0;
				for (uint64_t m = in.exec; m; m &= m - 1) {
					int l = __builtin_ctzll(m);
					uaddr[nu++] = dc_addr(in.space[l], in.addr[l], lcta[l], ltid[l]);
				}
				ls->vmem_ops[2]++;
				uint64_t made[WEFT_GROUP_MAX_WIDTH];
				uint32_t nmade = weft_vt_coalesce(pp, uaddr, nu, made);
				ls->coalesced_saved += nu - nmade;
				for (uint32_t i = 0; i < nmade; i++)
					if (weft_vt_acc_push(acc, made[i], pi->is_store))
						return acc_nomem(err, n, lcta[0]);
			}
		}
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	(void)conflicts;
	o->cp = cp;
	o->issue = issue;
	memcpy(o->busy, busy, sizeof(busy));
	o->reads = reads;
	o->writes = writes;
	o->dep = dep;
	o->nacc = (uint32_t)(acc->n - o->acc0);
	return 0;
}

/* The in-order part of a strip built by strip_build: its counts added to
 * the launch, its accesses through the data cache and the in-flight
 * lines (the refills), and its cycles on the next core. A strip of a
 * warmed CTA only changes the data cache (the counts it adds are put
 * back). */
static void strip_run(struct vt_state *s, const struct vt_strip *o, const struct vt_accs *a)
{
	if (s->strip_warm && !s->warming) {
		struct vt_launch saved = s->ls;
		s->warming = 1;
		strip_run(s, o, a);
		s->warming = 0;
		s->ls = saved;
		return;
	}
	const struct vt_params *pp = &s->pp;
	struct vt_launch *ls = &s->ls;
	tally_add(ls, &o->tl);
	uint32_t core = (uint32_t)(ls->strip_seq++ % pp->cores);
	uint64_t primary = 0; /* MSHR refills: misses and secondary overflows */
	struct vt_inflight *fl = &s->inflight;
	inflight_reset(fl);
	for (size_t i = o->acc0; i < o->acc0 + o->nacc; i++) {
		int w;
		uint64_t addr = weft_vt_acc_at(a, i, &w);
		primary += strip_access(s, fl, addr, w);
	}
	double t[VT_C_COUNT] = { 0 };
	const double *busy = o->busy;
	double reads = o->reads, writes = o->writes, dep = o->dep;
	t[VT_C_CP] = o->cp;
	t[VT_C_ISSUE] = o->issue;
	if (pp->bank_alus) {
		t[VT_C_ARITH] = busy[VT_U_ARITH] / pp->arith_units;
		t[VT_C_INT] = busy[VT_U_INT] / pp->banks;
	} else {
		t[VT_C_ARITH] = (busy[VT_U_ARITH] + busy[VT_U_INT]) / pp->arith_units;
	}
	t[VT_C_LOAD] = busy[VT_U_LOAD];
	t[VT_C_STORE] = busy[VT_U_STORE];
	if (pp->banked) {
		double all = busy[VT_U_ARITH] + busy[VT_U_INT] + busy[VT_U_LOAD] + busy[VT_U_STORE];
		t[VT_C_BANK] = all / pp->banks;
	} else {
		double ra = reads / pp->vrf_reads, wa = writes / pp->vrf_writes;
		t[VT_C_BANK] = ra > wa ? ra : wa;
	}
	/* decoupled: the misses of successive strips overlap, so the MSHRs
	 * bound the refill throughput (the tile bound adds the latency) */
	t[VT_C_MEM] = (double)primary * pp->refill_cycles / pp->mshrs;
	int big = VT_C_CP;
	for (int i = 0; i <= VT_C_MEM; i++)
		if (i != VT_C_DEP && t[i] > t[big])
			big = i;
	s->ls.core_cpi[core][big] += t[big];
	s->ls.core_cpi[core][VT_C_DEP] += dep;
	s->ls.core_time[core] += t[big] + dep;
}

/* Runs the strip assembled in s->strip_* (1..HVL uTs, possibly from
 * several consecutive CTAs) on the next core, and empties it. */
static int vector_strip(struct vt_state *s, struct weft_error *err)
{
	uint32_t n = s->strip_n;
	s->strip_n = 0;
	s->strip_cap = s->hvl;
	weft_vt_acc_reset(&s->acc);
	int rc = strip_build(s, &s->it, s->strip_th, s->strip_cta, s->strip_tid, n, &s->sbuf, &s->acc,
			     err);
	if (rc)
		return rc;
	strip_run(s, &s->sbuf, &s->acc);
	return 0;
}

uint32_t weft_vt_grid_place(const uint32_t g[3], uint64_t cta, uint32_t *nplaces)
{
	uint32_t place = 0, mul = 1;
	for (int d = 0; d < 3; d++) {
		uint64_t n = g[d] ? g[d] : 1;
		uint64_t i = cta % n;
		cta /= n;
		uint32_t k = n < 3 ? (uint32_t)n : 3;
		place += (i == 0 ? 0 : i == n - 1 ? k - 1 : 1) * mul;
		mul *= k;
	}
	if (nplaces)
		*nplaces = mul;
	return place;
}

/* The by-place-and-tid tables (vt.h) of the launch, zeroed, sized for
 * its CTAs (threads_per_cta is at most CUDA's 1024 a block: the trace
 * reader refuses more; at most 27 places); WEFT_ERR_NOMEM. */
static int tid_tables(struct vt_state *s, struct weft_error *err)
{
	size_t tpc = s->threads_per_cta ? s->threads_per_cta : 1;
	size_t cells = (size_t)(s->nplaces ? s->nplaces : 1) * tpc;
	size_t nslot = (size_t)s->pp.cores * s->uts_per_core;
	if (nslot * cells > s->tid_cap) {
		uint32_t *r = realloc(s->tid_read, nslot * cells * sizeof(*r));
		if (r)
			s->tid_read = r;
		uint32_t *n = r ? realloc(s->tid_n, s->pp.cores * cells * sizeof(*n)) : NULL;
		if (n)
			s->tid_n = n;
		double *d = n ? realloc(s->tid_sum, s->pp.cores * cells * sizeof(*d)) : NULL;
		if (d)
			s->tid_sum = d;
		double *x = d ? realloc(s->tid_scratch, 5 * cells * sizeof(*x)) : NULL;
		if (x)
			s->tid_scratch = x;
		if (!x)
			return weft_error_set(err, WEFT_ERR_NOMEM,
					      "out of memory for the per-thread-index tables of a sample "
					      "(%zu slots x %zu places and threads a CTA)", nslot, cells);
		s->tid_cap = nslot * cells;
	}
	memset(s->tid_read, 0, nslot * cells * sizeof(*s->tid_read));
	memset(s->tid_n, 0, s->pp.cores * cells * sizeof(*s->tid_n));
	memset(s->tid_sum, 0, s->pp.cores * cells * sizeof(*s->tid_sum));
	s->nunits = 0;
	s->ls.by_tid = 1;
	return 0;
}

static int mimd_thread(struct vt_state *s, const struct weft_cta_trace *c, uint32_t tid,
		       struct weft_error *err)
{
	const struct vt_params *pp = &s->pp;
	struct vt_launch *ls = &s->ls;
	uint32_t u = s->uts_per_core;
	/* contiguous chunks: of the application vector per core, of the
	 * core's chunk per uT */
	uint64_t n = s->launch_threads ? s->launch_threads : 1;
	uint64_t k = (uint64_t)c->cta * s->threads_per_cta + tid;
	uint64_t per_core = (n + pp->cores - 1) / pp->cores;
	uint64_t per_slot = (per_core + u - 1) / u;
	uint32_t core = (uint32_t)(k / per_core % pp->cores);
	uint32_t slot = (uint32_t)((k % per_core) / per_slot % u);
	ls->mimd_seq++;
	/* in a full replay a miss paid once per launch is the first CTA's:
	 * it goes to the slot of the same thread of CTA 0 */
	uint64_t k0 = tid < n ? tid : 0;
	size_t once_i = (size_t)(k0 / per_core % pp->cores) * u + (size_t)((k0 % per_core) / per_slot % u);
	if (!s->warming && !ls->by_tid && tid_tables(s, err))
		return WEFT_ERR_NOMEM;
	struct weft_thread_iter ti;
	weft_thread_iter_init(&ti, s->p, &c->threads[tid]);
	double *cpi = ls->core_cpi[core];
	double *slot_t = &ls->slot_time[(size_t)core * u + slot];
	if (!s->warming)
		ls->slot_read[(size_t)core * u + slot]++;
	/* the slot's uT is spawned once per launch and loops over its items */
	double time = (double)pp->item_overhead * u, once = 0, sj = 0;
	cpi[VT_C_ISSUE] += pp->item_overhead;
	if (*slot_t == 0) {
		sj = pp->spawn_cycles + pp->join_cycles;
		time += pp->spawn_cycles + pp->join_cycles;
		cpi[VT_C_SPAWN] += (double)(pp->spawn_cycles + pp->join_cycles) / u;
	}
	struct weft_dyn_inst in;
	while (weft_thread_iter_next(&ti, &in)) {
		const struct vt_pcinfo *pi = &s->vp.pc[in.pc];
		ls->thread_insts += in.exec ? 1 : 0;
		ls->kind_dyn[pi->kind]++;
		ls->ev[VT_EV_MIMD_INST] += 1;
		ls->ev[VT_EV_SRF_READ] += pi->sreads;
		ls->ev[VT_EV_SRF_WRITE] += pi->writes;
		if (in.exec)
			fu_events(ls->ev, pi, 1);
		uint32_t lat = pi->dep_next ? pp->lat[pi->lat] : 1;
		int miss = 0;
		if (in.has_addr)
			miss = dc_access(s, dc_addr(in.space, in.addr, c->cta, tid), pi->is_store);
		uint32_t hit = miss ? weft_vt_mimd_inst_cycles(u, lat) : 0;
		if (miss)
			lat = pp->refill_cycles + pp->lat[VT_LAT_LOAD];
		uint32_t cyc = weft_vt_mimd_inst_cycles(u, lat);
		time += cyc;
		if (miss && pi->launch_load && in.space != WEFT_SPACE_SHARED && in.space != WEFT_SPACE_LOCAL) {
			/* paid once per launch: by the first thread to touch the
			 * line, in a full replay CTA 0's (once_i) */
			ls->once_seen[once_i] += cyc - hit;
			once += cyc - hit;
			if (!s->warming)
				ls->once_read[(size_t)core * u + slot] += cyc - hit;
		}
		double per = (double)cyc / u;
		cpi[VT_C_ISSUE] += 1;
		cpi[miss ? VT_C_MEM : VT_C_DEP] += per - 1;
	}
	*slot_t += time;
	if (!s->warming) {
		size_t tpc = s->threads_per_cta;
		if (tid >= tpc)
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "thread %u of CTA %u is past the launch's %zu threads a CTA",
					      tid, c->cta, tpc);
		size_t np = s->nplaces ? s->nplaces : 1;
		size_t pl = weft_vt_grid_place(s->grid, c->cta, NULL);
		s->tid_read[(((size_t)core * u + slot) * np + pl) * tpc + tid]++;
		s->tid_n[((size_t)core * np + pl) * tpc + tid]++;
		s->tid_sum[((size_t)core * np + pl) * tpc + tid] += time - sj - once;
		struct vt_read_unit *un = s->nunits ? &s->units[s->nunits - 1] : NULL;
		if (!un || un->cta != c->cta || un->core != core) {
			if (s->nunits == s->units_cap) {
				size_t cap = s->units_cap ? 2 * s->units_cap : 64;
				struct vt_read_unit *g = realloc(s->units, cap * sizeof(*g));
				if (!g)
					return weft_error_set(err, WEFT_ERR_NOMEM,
							      "out of memory for a sample's %zu CTAs read", cap);
				s->units = g;
				s->units_cap = cap;
			}
			un = &s->units[s->nunits++];
			*un = (struct vt_read_unit){ .cta = c->cta, .core = core, .place = (uint32_t)pl, .tid0 = tid };
		}
		un->n++;
		un->sum += time - sj - once;
	}
	if (*slot_t > ls->core_time[core])
		ls->core_time[core] = *slot_t;
	return 0;
}

/* Is thread t grid padding material: every memory instruction it
 * executes is a load from a uniform address (parameters included), so it
 * stores nothing, performs no atomic and reads nothing a thread owns?
 * *insts gets its guard-true instructions. */
static int quiet_thread(const struct vt_state *s, const struct weft_thread_trace *t, uint64_t *insts)
{
	struct weft_thread_iter ti;
	struct weft_dyn_inst in;
	uint64_t n = 0;
	weft_thread_iter_init(&ti, s->p, t);
	while (weft_thread_iter_next(&ti, &in)) {
		if (in.has_addr && !s->vp.pc[in.pc].uni_load)
			return 0;
		n += in.exec;
	}
	*insts = n;
	return 1;
}

/* Grid padding: in the launch's last CTA, the trailing threads that are
 * quiet (above), when a thread before them in that CTA is not. Returns
 * how many; their instructions go to thread_insts (the trace's count)
 * but nowhere else. docs/models/vt.md gives the rule and its limits. */
static uint32_t padding_of(const struct vt_state *s, const struct weft_cta_trace *c, uint64_t *insts_out)
{
	if ((uint64_t)c->cta + 1 < s->nctas)
		return 0;
	uint64_t insts = 0, sum = 0;
	uint32_t t = c->nthreads;
	while (t > 0 && quiet_thread(s, &c->threads[t - 1], &insts)) {
		sum += insts;
		t--;
	}
	if (t == 0 || t == c->nthreads)
		return 0; /* no quiet tail, or no thread with work to pad */
	*insts_out = sum;
	return c->nthreads - t;
}

double weft_vt_work_factor(const struct vt_state *s, uint32_t nctas, uint32_t tpc)
{
	const struct vt_launch *ls = &s->ls;
	double f = ls->ctas ? (double)nctas / ls->ctas : 1;
	if (s->pp.pattern == VT_PAT_MIMD || !s->tail_known || !ls->ctas || ls->ctas >= nctas ||
	    (uint64_t)ls->ctas * tpc <= ls->padding_threads)
		return f;
	return ((double)nctas * tpc - (double)s->tail_padding) /
	       ((double)ls->ctas * tpc - (double)ls->padding_threads);
}

uint32_t weft_vt_padding(const struct vt_state *s, const struct weft_cta_trace *c)
{
	uint64_t sum = 0;
	return padding_of(s, c, &sum);
}

static uint32_t grid_padding(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr)
{
	uint64_t sum = 0;
	uint32_t pad = pr && pr->compact ? pr->pad : padding_of(s, c, &sum);
	if (pr && pr->compact)
		sum = pr->pad_insts;
	if ((uint64_t)c->cta + 1 == s->nctas)
		s->tail_padding = pad; /* warmed or read: the launch ends here */
	s->ls.thread_insts += sum;
	s->ls.padding_threads += pad;
	return pad;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	/* allocated once even when nothing is needed, so that the carried
	 * traces point into a buffer (no offset applied to NULL) */
	if (*p && need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Copies what the traces th[i] (i < n, where sel is NULL or sel[i])
 * point to into b and points them there; -1 out of memory. */
static int copy_traces(struct vt_carry *b, struct weft_thread_trace *th, const uint8_t *sel, uint32_t n)
{
	size_t nb = 0, ng = 0, na = 0;
	for (uint32_t l = 0; l < n; l++) {
		if (sel && !sel[l])
			continue;
		nb += th[l].nblocks;
		ng += th[l].nguards;
		na += th[l].naddrs;
	}
	size_t cap_s = b->cap_addrs;
	if (grow((void **)&b->blocks, &b->cap_blocks, nb, sizeof(*b->blocks)) ||
	    grow((void **)&b->guards, &b->cap_guards, ng, sizeof(*b->guards)) ||
	    grow((void **)&b->addrs, &b->cap_addrs, na, sizeof(*b->addrs)) ||
	    grow((void **)&b->spaces, &cap_s, na, sizeof(*b->spaces)))
		return -1;
	nb = ng = na = 0;
	for (uint32_t l = 0; l < n; l++) {
		if (sel && !sel[l])
			continue;
		struct weft_thread_trace *t = &th[l];
		if (t->nblocks)
			memcpy(b->blocks + nb, t->blocks, sizeof(*t->blocks) * t->nblocks);
		if (t->nguards)
			memcpy(b->guards + ng, t->guards, t->nguards);
		if (t->naddrs) { /* in full, whether the decoder's were compact or not */
			for (uint32_t j = 0; j < t->naddrs; j++)
				b->addrs[na + j] = weft_thread_addr(t, j);
			memcpy(b->spaces + na, t->spaces, t->naddrs);
		}
		t->blocks = b->blocks + nb;
		t->guards = b->guards + ng;
		t->addrs = b->addrs + na;
		t->addr_off = NULL;
		t->spaces = b->spaces + na;
		nb += t->nblocks;
		ng += t->nguards;
		na += t->naddrs;
	}
	return 0;
}

/* Copies the traces of the strip's uTs into the spare carry buffer
 * (the decoder reuses the CTA's buffers for the next CTA) and swaps. */
static int carry_strip(struct vt_state *s, struct weft_error *err)
{
	if (copy_traces(&s->carry[s->carry_cur ^ 1], s->strip_th, NULL, s->strip_n)) {
		size_t nb = 0, na = 0;
		for (uint32_t l = 0; l < s->strip_n; l++) {
			nb += s->strip_th[l].nblocks;
			na += s->strip_th[l].naddrs;
		}
		return weft_error_set(err, WEFT_ERR_NOMEM,
				      "out of memory carrying a strip of %u uTs (%zu blocks, %zu "
				      "addresses) into CTA %u", s->strip_n, nb, na,
				      (uint32_t)s->last_cta + 1);
	}
	s->carry_cur ^= 1;
	return 0;
}

int weft_vt_flush(struct vt_state *s, struct weft_error *err)
{
	if (!s->strip_n)
		return 0;
	uint32_t first = s->strip_cta[0];
	int rc = vector_strip(s, err);
	if (rc)
		weft_error_prefix(err, "strip from CTA %u: ", first);
	return rc;
}

static void carry_free(struct vt_carry *b)
{
	free(b->blocks);
	free(b->guards);
	free(b->addrs);
	free(b->spaces);
	memset(b, 0, sizeof(*b));
}

void weft_vt_carry_free(struct vt_state *s)
{
	for (int i = 0; i < 2; i++)
		carry_free(&s->carry[i]);
}

/* Vector cores: appends the CTA's uTs to the application vector, running
 * each strip as it fills (docs/models/vt.md, Stripmining). pr (may be
 * NULL): the CTA's strips prepared by weft_vt_prep_cta; one is taken
 * where a strip starts at its first uT, the others are built here. */
static int vector_cta(struct vt_state *s, const struct weft_cta_trace *c, uint32_t n,
		      const struct vt_prep *pr, struct weft_error *err)
{
	int rc = 0;
	/* strips join consecutive CTAs only: a sample's gap ends them (a
	 * kernel with barriers or shared memory never carries any, below) */
	int gap = (int64_t)c->cta != s->last_cta + 1;
	if (s->strip_n && gap)
		rc = weft_vt_flush(s, err);
	if (!rc && gap && s->aligned && !s->vp.cta_scope && !s->strip_n) {
		/* a warmed sample's window begins after a gap (never in a full
		 * replay, nor when every CTA is warmed): its first strip ends
		 * where the full replay's strip holding this CTA's first uT ends */
		uint32_t phase = (uint32_t)(((uint64_t)c->cta * s->threads_per_cta) % s->hvl);
		s->strip_cap = s->hvl - phase;
	}
	if (pr && (pr->cta != c->cta || pr->n != n || pr->hvl != s->hvl)) {
		if (pr->compact) /* (cannot happen: prepared for this CTA and launch) */
			return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u prepared for another CTA or HVL",
					      c->cta);
		pr = NULL;
	}
	for (uint32_t t = 0; t < n && !rc;) {
		/* a strip starts at uT t: the one prepared there, if built
		 * (strip k of pr covers uTs first + k HVL on) */
		uint32_t k = pr && !s->strip_n && t >= pr->first && (t - pr->first) % s->hvl == 0
				     ? (t - pr->first) / s->hvl
				     : UINT32_MAX;
		if (pr && k < pr->nstrips && pr->built[k]) {
			s->strip_warm = s->cur_warm;
			strip_run(s, &pr->strips[k], &pr->acc);
			t += s->hvl;
			continue;
		}
		uint32_t l = s->strip_n++;
		if (!l)
			s->strip_warm = s->cur_warm; /* a strip is its first uT's CTA's */
		if (pr && pr->compact && !pr->have[t]) {
			s->strip_n--;
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "uT %u was neither copied nor in a whole strip the "
					      "in-order replay took (strips prepared from uT %u)", t, pr->first);
		}
		s->strip_th[l] = pr && pr->compact ? pr->th[t] : c->threads[t];
		s->strip_cta[l] = c->cta;
		s->strip_tid[l] = t;
		if (s->strip_n == (s->strip_cap ? s->strip_cap : s->hvl)) /* 0: not set, HVL */
			rc = vector_strip(s, err);
		t++;
	}
	s->last_cta = c->cta;
	if (rc || !s->strip_n)
		return rc;
	if (s->vp.cta_scope || (uint64_t)c->cta + 1 >= s->nctas)
		return vector_strip(s, err);
	return carry_strip(s, err);
}

/* compact: the grid padding, and copies of the traces of the uTs outside
 * pr's whole strips */
static int prep_rest(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
		     struct weft_error *err)
{
	if (c->nthreads > pr->th_cap) {
		free(pr->th);
		free(pr->have);
		pr->th = malloc(c->nthreads * sizeof(*pr->th));
		pr->have = malloc(c->nthreads);
		pr->th_cap = pr->th && pr->have ? c->nthreads : 0;
		if (!pr->th_cap)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory preparing the %u uTs of CTA %u",
					      c->nthreads, c->cta);
	}
	uint64_t done0 = s->hvl ? pr->first : 0, done1 = done0 + (uint64_t)pr->nstrips * s->hvl;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		pr->have[t] = t < pr->n && (t < done0 || t >= done1 || !pr->built[(t - done0) / s->hvl]);
		pr->th[t] = c->threads[t];
	}
	if (copy_traces(&pr->own, pr->th, pr->have, c->nthreads))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory copying uTs of CTA %u", c->cta);
	return 0;
}

static int prep_cta(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
		    int compact, struct weft_error *err)
{
	pr->cta = c->cta;
	pr->nstrips = 0;
	weft_vt_acc_reset(&pr->acc);
	pr->hvl = s->hvl;
	pr->compact = 0;
	pr->first = 0;
	if (s->pp.pattern == VT_PAT_MIMD || (!s->hvl && !compact))
		return 0; /* (MIMD: never compact, vt.c) */
	pr->compact = compact;
	uint64_t sum = 0;
	pr->pad = padding_of(s, c, &sum);
	pr->pad_insts = sum;
	pr->n = c->nthreads - pr->pad;
	if (!s->hvl)
		return prep_rest(s, c, pr, err);
	/* where the CTA's first whole strip starts when the launch's CTAs
	 * before it fill the application vector */
	uint32_t off = s->vp.cta_scope ? 0 : (uint32_t)((uint64_t)c->cta * s->threads_per_cta % s->hvl);
	pr->first = off ? s->hvl - off : 0;
	uint32_t lcta[WEFT_GROUP_MAX_WIDTH], ltid[WEFT_GROUP_MAX_WIDTH];
	for (uint32_t l = 0; l < s->hvl; l++)
		lcta[l] = c->cta;
	for (uint64_t a = pr->first; a + s->hvl <= pr->n; a += s->hvl) {
		if (pr->nstrips == pr->cap) {
			size_t nc = pr->cap ? 2 * pr->cap : 64;
			struct vt_strip *q = realloc(pr->strips, nc * sizeof(*q));
			uint8_t *b = q ? realloc(pr->built, nc) : NULL;
			if (q)
				pr->strips = q;
			if (!b)
				return weft_error_set(err, WEFT_ERR_NOMEM,
						      "out of memory preparing the strips of CTA %u", c->cta);
			pr->built = b;
			pr->cap = nc;
		}
		/* compact, split: the in-order replay builds the strips at
		 * positions k with (k + cta) mod 5 >= share itself, from copies */
		pr->built[pr->nstrips] = !compact || !s->prep_share || (pr->nstrips + c->cta) % 5 < s->prep_share;
		if (!pr->built[pr->nstrips]) {
			pr->nstrips++;
			continue;
		}
		for (uint32_t l = 0; l < s->hvl; l++)
			ltid[l] = (uint32_t)a + l;
		struct weft_error e;
		memset(&e, 0, sizeof(e));
		int rc = strip_build(s, &pr->it, c->threads + a, lcta, ltid, s->hvl, &pr->strips[pr->nstrips],
				     &pr->acc, &e);
		if (rc == WEFT_ERR_NOMEM) {
			*err = e;
			return rc;
		}
		if (rc)
			break; /* the in-order replay builds this strip itself and reports its error there */
		pr->nstrips++;
	}
	return compact ? prep_rest(s, c, pr, err) : 0;
}

int weft_vt_prep_cta(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
		     struct weft_error *err)
{
	return prep_cta(s, c, pr, 0, err);
}

int weft_vt_prep_cta_compact(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
			     struct weft_error *err)
{
	return prep_cta(s, c, pr, 1, err);
}

void weft_vt_prep_free(struct vt_prep *pr)
{
	free(pr->strips);
	free(pr->built);
	weft_vt_accs_free(&pr->acc);
	free(pr->th);
	free(pr->have);
	carry_free(&pr->own);
	memset(pr, 0, sizeof(*pr));
}

int weft_vt_cta_prep(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr,
		     struct weft_error *err)
{
	int rc = 0;
	uint32_t n = c->nthreads - grid_padding(s, c, pr);
	if (s->pp.pattern == VT_PAT_MIMD) {
		for (uint32_t t = 0; t < n && !rc; t++)
			rc = mimd_thread(s, c, t, err);
	} else {
		rc = vector_cta(s, c, n, pr, err);
	}
	if (rc)
		weft_error_prefix(err, "CTA %u: ", c->cta);
	return rc;
}

int weft_vt_cta(struct vt_state *s, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_vt_cta_prep(s, c, NULL, err);
}

int weft_vt_warm_cta_prep(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr,
			  struct weft_error *err)
{
	int rc = 0;
	uint64_t insts = s->ls.thread_insts, padding = s->ls.padding_threads;
	uint32_t n = c->nthreads - grid_padding(s, c, pr);
	s->ls.thread_insts = insts; /* counted by the CTAs read only */
	s->ls.padding_threads = padding;
	s->cur_warm = 1;
	if (s->pp.pattern == VT_PAT_MIMD) {
		struct vt_launch saved = s->ls;
		size_t nslot = (size_t)s->pp.cores * s->uts_per_core;
		double *slots = malloc((nslot ? nslot : 1) * sizeof(double));
		if (!slots)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory warming CTA %u", c->cta);
		else
			memcpy(slots, s->ls.slot_time, nslot * sizeof(double));
		s->warming = 1;
		for (uint32_t t = 0; t < n && !rc; t++)
			rc = mimd_thread(s, c, t, err);
		s->warming = 0;
		s->ls = saved;
		if (slots)
			memcpy(s->ls.slot_time, slots, nslot * sizeof(double));
		free(slots);
	} else {
		rc = vector_cta(s, c, n, pr, err);
	}
	s->cur_warm = 0;
	if (rc)
		weft_error_prefix(err, "CTA %u (warming): ", c->cta);
	return rc;
}

int weft_vt_warm_cta(struct vt_state *s, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_vt_warm_cta_prep(s, c, NULL, err);
}

/* Adds to cells[place * tpc + tid] the threads [lo, hi) of the launch's
 * application vector (CTAs of tpc threads on grid g, np places) hold in
 * each cell: the CTAs wholly inside by place, the two at the ends by
 * tid. */
static void range_cells(const uint32_t g[3], uint64_t lo, uint64_t hi, size_t tpc, size_t np, double *cells)
{
	if (hi <= lo)
		return;
	uint64_t ca = lo / tpc, cb = hi / tpc;
	uint64_t whole[27] = { 0 };
	for (uint64_t q = ca + 1; q < cb; q++)
		whole[weft_vt_grid_place(g, q, NULL)]++;
	for (size_t pl = 0; pl < np; pl++)
		if (whole[pl])
			for (size_t j = 0; j < tpc; j++)
				cells[pl * tpc + j] += (double)whole[pl];
	size_t pa = weft_vt_grid_place(g, ca, NULL);
	if (ca == cb) {
		for (size_t j = lo % tpc; j < hi % tpc; j++)
			cells[pa * tpc + j]++;
		return;
	}
	for (size_t j = lo % tpc; j < tpc; j++)
		cells[pa * tpc + j]++;
	size_t pb = weft_vt_grid_place(g, cb, NULL);
	for (size_t j = 0; j < hi % tpc; j++)
		cells[pb * tpc + j]++;
}

/* A read unit's cycles less what the cells' rates give its threads
 * (pre: per place, the running sums of the rates over tid). */
static double unit_residual(const struct vt_read_unit *un, const double *pre, size_t tpc)
{
	const double *at = pre + (size_t)un->place * (tpc + 1);
	return un->sum - (at[un->tid0 + un->n] - at[un->tid0]);
}

/* A sample's slowest MIMD core. Threads go to cores and slots by their
 * place in the launch's application vector (mimd_thread), and a core
 * lasts as long as its busiest slot, so the estimate is a maximum over
 * slots of estimated slot times (spawn and join once per slot, not
 * expanded), returned in the sample's units (over the launch's CTAs /
 * CTAs read, which vt.c multiplies back). How a slot's threads that were
 * not read are estimated decides the bias of that maximum
 * (docs/estimate.md, "The MIMD tiles' bias"):
 *  - not at all (the first rule: the slot's time read, expanded with
 *    the launch by its CTAs / CTAs read): a sampled slot held a random
 *    share of its threads, and the largest share won (hotspot,
 *    mimd-c4r32, random:32: +29%);
 *  - at the slot's own rate (a ratio estimator per slot): a slot of
 *    mimd-c4r256 reads one or two CTAs, and the maximum over 32 slots
 *    went to the slots whose CTAs read were the launch's slowest (+0.14%
 *    in every seed on hotspot: a selection bias, the winner's curse);
 *  - at the rate of its sibling slots: the slot's own threads read
 *    count as they are, the others go at the rate of the threads read on
 *    its core (all its slots), or on the whole tile where a core has one
 *    slot (mimd-c4r32: 27/40 -> 34/40 inside, bias +0.22% -> -0.32%) or
 *    read nothing; a composite of the slot's direct estimate and a
 *    synthetic one from the larger domain, weighted by the slot's share
 *    read (small-area estimation: Rao and Molina, Small Area Estimation,
 *    2nd ed., Wiley 2015, ch. 3). Pooling makes each slot's estimate less
 *    noisy, so the maximum selects less noise (hotspot, mimd-c4r256:
 *    9/40 -> 36/40, bias -0.04%), and pulls the busiest slot toward its
 *    siblings (the -0.32%);
 *  - and post-stratified by thread index (tid, the thread's place in its
 *    CTA): the slot's unread threads of each tid go at the rate of the
 *    threads read with that tid on its core (with one slot a core, or
 *    none read there, on the tile; none read on the tile: the tile's
 *    rate over all tids). A thread's cost follows its tid where its
 *    lines' alignment does (nn: one thread in 16 misses, slots of 12504
 *    threads start on a line or half-way in), and the slots of a core
 *    hold different mixes of tids; one rate for all put the busiest slot
 *    of nn, mimd-c4r256, 24 cycles low in every seed (1/40 -> 40/40);
 *  - now by cell (the CTA's place in the grid, weft_vt_grid_place, and
 *    tid) at the tile's rate of the cell (else of the tid over every
 *    place, else the tile's), plus the core's own departure from those
 *    rates (its units' mean residual d) weighted s2b / (s2b + v): v the
 *    variance of d from the spread of the core's units, s2b the
 *    between-core variance by moments (Fay and Herriot, JASA 1979; Rao
 *    and Molina ch. 6). The tile's rate per tid alone mixed hotspot's
 *    cheaper edge CTAs into the busiest core's and bfs's cores' different
 *    frontiers (mimd-c4r32 random:32: hotspot 34 -> 37/40, bfs 32 ->
 *    39/40; hotspot mimd-c4r256 36 -> 33/40, docs/estimate.md).
 * Not expanded: each slot's spawn and join, and the misses its threads
 * (read or warmed) paid once per launch (once_seen: the first miss of a
 * load every CTA repeats, vt.h launch_load; nn: 51 cycles that the rule before left out or
 * expanded), counted in the slot of the same thread of CTA 0, which
 * pays them in a full replay (a windowed sample's first CTA decoded is
 * elsewhere). A slot's threads in the launch leave out the grid padding of
 * the last CTA (a full replay times none of it; counted, the slot holding
 * it was expanded by up to a CTA's padding / its working threads too
 * much: hotspot, mimd-c4r256, 1152 for 1118 threads), which a sampled
 * launch reads first (vt.c, begin_launch: tail_known). */
static double mimd_sampled_core(const struct vt_state *s)
{
	const struct vt_params *pp = &s->pp;
	uint32_t u = s->uts_per_core;
	uint64_t n = s->launch_threads ? s->launch_threads : 1;
	uint64_t per_core = (n + pp->cores - 1) / pp->cores;
	uint64_t per_slot = (per_core + u - 1) / u;
	uint64_t end = n > s->tail_padding ? n - s->tail_padding : n;
	double sj = (double)pp->spawn_cycles + pp->join_cycles;
	size_t nslot = (size_t)pp->cores * u;
	size_t tpc = s->threads_per_cta ? s->threads_per_cta : 1;
	const double *st = s->ls.slot_time, *seen = s->ls.once_seen, *once = s->ls.once_read;
	const uint64_t *sr = s->ls.slot_read;
	if (!s->ls.by_tid)
		return 0; /* nothing read */
	/* the tile's rate per tid (all cores), and over all threads read */
	double work = 0;
	uint64_t read = 0;
	for (size_t k = 0; k < nslot; k++)
		if (sr[k]) {
			work += st[k] - sj - once[k];
			read += sr[k];
		}
	if (!read)
		return 0;
	double launch_rate = work / (double)read;
	size_t np = s->nplaces ? s->nplaces : 1;
	size_t cells = np * tpc;
	const uint32_t *tn = s->tid_n;
	const double *ts = s->tid_sum;
	/* scratch: the slot's threads per cell, each cell's rate (first the
	 * tile's cycles read there), the tile's threads read per cell, and
	 * the rates' running sums per place (pre) */
	double *nslot_c = s->tid_scratch, *rate = nslot_c + cells,
	       *tile_n = rate + cells, *pre = tile_n + cells; /* pre: [np x (tpc + 1)] */
	memset(rate, 0, 2 * cells * sizeof(double));
	for (uint32_t q = 0; q < pp->cores; q++)
		for (size_t x = 0; x < cells; x++) {
			rate[x] += ts[q * cells + x];
			tile_n[x] += tn[q * cells + x];
		}
	/* the synthetic rate of each cell (place, tid): the tile's threads
	 * read there, else tid j's over every place, else the tile's over
	 * all threads read */
	for (size_t x = 0; x < cells; x++) {
		if (tile_n[x] > 0) {
			rate[x] /= tile_n[x];
			continue;
		}
		size_t j = x % tpc;
		double sum = 0, cnt = 0;
		for (size_t o = 0; o < (size_t)pp->cores * np; o++) {
			sum += ts[o * tpc + j];
			cnt += tn[o * tpc + j];
		}
		rate[x] = cnt > 0 ? sum / cnt : launch_rate;
	}
	for (size_t pl = 0; pl < np; pl++) {
		pre[pl * (tpc + 1)] = 0;
		for (size_t j = 0; j < tpc; j++)
			pre[pl * (tpc + 1) + j + 1] = pre[pl * (tpc + 1) + j] + rate[pl * tpc + j];
	}
	/* each core's departure from the synthetic rates: its units' mean
	 * residual per thread (d), the variance of that mean from the spread
	 * of its units (v), and their weight in a composite that shrinks d by
	 * how much the cores' departures exceed their noise (Fay and Herriot
	 * 1979; Rao and Molina 2015, ch. 6: w = s2b / (s2b + v)) */
	double d[VT_MAX_CORES], v[VT_MAX_CORES], w[VT_MAX_CORES];
	double res_sum[VT_MAX_CORES] = { 0 }, res_n[VT_MAX_CORES] = { 0 }, m[VT_MAX_CORES] = { 0 };
	for (size_t k = 0; k < s->nunits; k++) {
		const struct vt_read_unit *un = &s->units[k];
		res_sum[un->core] += unit_residual(un, pre, tpc);
		res_n[un->core] += un->n;
		m[un->core]++;
	}
	for (uint32_t c = 0; c < pp->cores; c++) {
		d[c] = res_n[c] > 0 ? res_sum[c] / res_n[c] : 0;
		v[c] = 0;
	}
	for (size_t k = 0; k < s->nunits; k++) {
		const struct vt_read_unit *un = &s->units[k];
		double r = unit_residual(un, pre, tpc) / un->n - d[un->core];
		v[un->core] += r * r;
	}
	double s2b = 0;
	uint32_t nb = 0;
	for (uint32_t c = 0; c < pp->cores; c++) {
		if (m[c] < 2) {
			v[c] = INFINITY;
			continue;
		}
		v[c] /= m[c] * (m[c] - 1);
		s2b += d[c] * d[c] - v[c];
		nb++;
	}
	s2b = nb && s2b > 0 ? s2b / nb : 0;
	for (uint32_t c = 0; c < pp->cores; c++)
		w[c] = s2b > 0 && isfinite(v[c]) ? s2b / (s2b + v[c]) : 0;
	double most = 0;
	for (uint32_t c = 0; c < pp->cores; c++) {
		uint64_t clo = c * per_core, chi = clo + per_core < end ? clo + per_core : end;
		if (chi <= clo)
			continue;
		double adj = w[c] * d[c];
		for (uint32_t k = 0; k < u; k++) {
			uint64_t lo = clo + k * per_slot, hi = lo + per_slot;
			if (hi > chi)
				hi = chi;
			if (lo > hi)
				lo = hi;
			size_t i = (size_t)c * u + k;
			uint64_t r = sr[i];
			if (hi == lo && !r)
				continue;
			memset(nslot_c, 0, cells * sizeof(double));
			range_cells(s->grid, lo, hi, tpc, np, nslot_c);
			/* spawn, join and the misses paid once, as they are; the
			 * threads read as they are; per cell (place, tid) the
			 * slot's threads there not read at the cell's rate and
			 * the core's share of its departure */
			double e = sj + seen[i] + (r ? st[i] - sj - once[i] : 0);
			for (size_t x = 0; x < cells; x++) {
				uint64_t all = (uint64_t)nslot_c[x];
				uint64_t rj = s->tid_read[i * cells + x];
				if (all > rj)
					e += (double)(all - rj) * (rate[x] + adj);
			}
			if (e > most)
				most = e;
		}
	}
	return most * s->ls.ctas / s->nctas;
}

double weft_vt_launch_cycles(const struct vt_state *s, double cpi[VT_C_COUNT])
{
	const struct vt_params *pp = &s->pp;
	double maxcore = 0;
	memset(cpi, 0, sizeof(double) * VT_C_COUNT);
	for (uint32_t c = 0; c < pp->cores; c++) {
		if (s->ls.core_time[c] > maxcore)
			maxcore = s->ls.core_time[c];
		for (int k = 0; k < VT_C_COUNT; k++)
			cpi[k] += s->ls.core_cpi[c][k] / pp->cores;
	}
	if (pp->pattern == VT_PAT_MIMD && s->ls.ctas && s->ls.ctas < s->nctas)
		maxcore = mimd_sampled_core(s);
	/* tile-wide bounds: one access per data-cache bank per cycle; the
	 * MSHRs refill at most mshrs lines per refill latency */
	double bank = (double)weft_cache_max_bank_accesses(&s->dc);
	uint64_t refills = s->ls.misses + s->ls.secondary_overflows;
	double mshr = (double)((refills + pp->mshrs - 1) / pp->mshrs) * pp->refill_cycles;
	double cycles = maxcore;
	if (bank > cycles || mshr > cycles) {
		cycles = bank > mshr ? bank : mshr;
		cpi[bank > mshr ? VT_C_DCACHE : VT_C_MEM] += cycles - maxcore;
	}
	double sum = 0;
	for (int k = 0; k < VT_C_COUNT; k++)
		if (k != VT_C_IDLE)
			sum += cpi[k];
	cpi[VT_C_IDLE] = cycles - sum > 0 ? cycles - sum : 0;
	return cycles;
}
