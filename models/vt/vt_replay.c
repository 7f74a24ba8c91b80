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

/* Appends one data-cache access to a strip's list; -1 out of memory. */
static int acc_push(struct vt_accs *acc, uint64_t addr, int is_write)
{
	if (acc->n == acc->cap) {
		size_t nc = acc->cap ? 2 * acc->cap : 1024;
		uint64_t *a = realloc(acc->addr, nc * sizeof(*a));
		if (!a)
			return -1;
		acc->addr = a;
		uint8_t *w = realloc(acc->w, nc);
		if (!w)
			return -1;
		acc->w = w;
		acc->cap = nc;
	}
	acc->addr[acc->n] = addr;
	acc->w[acc->n++] = (uint8_t)is_write;
	return 0;
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
					if (acc_push(acc, a, 0))
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
					if (acc_push(acc, a, pi->is_store))
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
					if (acc_push(acc, made[i], pi->is_store))
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
	for (size_t i = o->acc0; i < o->acc0 + o->nacc; i++)
		primary += strip_access(s, fl, a->addr[i], a->w[i]);
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
	s->acc.n = 0;
	int rc = strip_build(s, &s->it, s->strip_th, s->strip_cta, s->strip_tid, n, &s->sbuf, &s->acc,
			     err);
	if (rc)
		return rc;
	strip_run(s, &s->sbuf, &s->acc);
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
	(void)err; /* the decoder derives guard and address counts from the path */
	struct weft_thread_iter ti;
	weft_thread_iter_init(&ti, s->p, &c->threads[tid]);
	double *cpi = ls->core_cpi[core];
	double *slot_t = &ls->slot_time[(size_t)core * u + slot];
	if (!s->warming)
		ls->slot_read[(size_t)core * u + slot]++;
	/* the slot's uT is spawned once per launch and loops over its items */
	double time = (double)pp->item_overhead * u;
	cpi[VT_C_ISSUE] += pp->item_overhead;
	if (*slot_t == 0) {
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
		if (miss && pi->launch_load) {
			/* paid once per launch: by the first thread to touch the line */
			size_t i = (size_t)core * u + slot;
			ls->once_seen[i] += cyc - hit;
			if (!s->warming)
				ls->once_read[i] += cyc - hit;
		}
		double per = (double)cyc / u;
		cpi[VT_C_ISSUE] += 1;
		cpi[miss ? VT_C_MEM : VT_C_DEP] += per - 1;
	}
	*slot_t += time;
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

static uint32_t grid_padding(struct vt_state *s, const struct weft_cta_trace *c)
{
	uint64_t sum = 0;
	uint32_t pad = padding_of(s, c, &sum);
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

/* Copies the traces of the strip's uTs into the spare carry buffer
 * (the decoder reuses the CTA's buffers for the next CTA) and swaps. */
static int carry_strip(struct vt_state *s, struct weft_error *err)
{
	struct vt_carry *b = &s->carry[s->carry_cur ^ 1];
	size_t nb = 0, ng = 0, na = 0;
	for (uint32_t l = 0; l < s->strip_n; l++) {
		nb += s->strip_th[l].nblocks;
		ng += s->strip_th[l].nguards;
		na += s->strip_th[l].naddrs;
	}
	size_t cap_s = b->cap_addrs;
	if (grow((void **)&b->blocks, &b->cap_blocks, nb, sizeof(*b->blocks)) ||
	    grow((void **)&b->guards, &b->cap_guards, ng, sizeof(*b->guards)) ||
	    grow((void **)&b->addrs, &b->cap_addrs, na, sizeof(*b->addrs)) ||
	    grow((void **)&b->spaces, &cap_s, na, sizeof(*b->spaces)))
		return weft_error_set(err, WEFT_ERR_NOMEM,
				      "out of memory carrying a strip of %u uTs (%zu blocks, %zu "
				      "addresses) into CTA %u", s->strip_n, nb, na,
				      (uint32_t)s->last_cta + 1);
	nb = ng = na = 0;
	for (uint32_t l = 0; l < s->strip_n; l++) {
		struct weft_thread_trace *t = &s->strip_th[l];
		if (t->nblocks)
			memcpy(b->blocks + nb, t->blocks, sizeof(*t->blocks) * t->nblocks);
		if (t->nguards)
			memcpy(b->guards + ng, t->guards, t->nguards);
		if (t->naddrs) {
			memcpy(b->addrs + na, t->addrs, sizeof(*t->addrs) * t->naddrs);
			memcpy(b->spaces + na, t->spaces, t->naddrs);
		}
		t->blocks = b->blocks + nb;
		t->guards = b->guards + ng;
		t->addrs = b->addrs + na;
		t->spaces = b->spaces + na;
		nb += t->nblocks;
		ng += t->nguards;
		na += t->naddrs;
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

void weft_vt_carry_free(struct vt_state *s)
{
	for (int i = 0; i < 2; i++) {
		free(s->carry[i].blocks);
		free(s->carry[i].guards);
		free(s->carry[i].addrs);
		free(s->carry[i].spaces);
		memset(&s->carry[i], 0, sizeof(s->carry[i]));
	}
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
	if (pr && (pr->cta != c->cta || pr->n != n || pr->hvl != s->hvl))
		pr = NULL; /* (cannot happen: prepared for this CTA and launch) */
	uint32_t k = 0;
	for (uint32_t t = 0; t < n && !rc;) {
		if (pr && k < pr->nstrips && !s->strip_n && t == pr->first + k * s->hvl) {
			s->strip_warm = s->cur_warm;
			strip_run(s, &pr->strips[k], &pr->acc);
			k++;
			t += s->hvl;
			continue;
		}
		uint32_t l = s->strip_n++;
		if (!l)
			s->strip_warm = s->cur_warm; /* a strip is its first uT's CTA's */
		s->strip_th[l] = c->threads[t];
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

int weft_vt_prep_cta(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
		     struct weft_error *err)
{
	pr->cta = c->cta;
	pr->nstrips = 0;
	pr->acc.n = 0;
	pr->hvl = s->hvl;
	if (s->pp.pattern == VT_PAT_MIMD || !s->hvl)
		return 0;
	uint64_t sum = 0;
	pr->n = c->nthreads - padding_of(s, c, &sum);
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
			if (!q)
				return weft_error_set(err, WEFT_ERR_NOMEM,
						      "out of memory preparing the strips of CTA %u", c->cta);
			pr->strips = q;
			pr->cap = nc;
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
	return 0;
}

void weft_vt_prep_free(struct vt_prep *pr)
{
	free(pr->strips);
	free(pr->acc.addr);
	free(pr->acc.w);
	memset(pr, 0, sizeof(*pr));
}

int weft_vt_cta_prep(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr,
		     struct weft_error *err)
{
	int rc = 0;
	uint32_t n = c->nthreads - grid_padding(s, c);
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
	uint32_t n = c->nthreads - grid_padding(s, c);
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
 *  - now at the rate of its sibling slots: the slot's own threads read
 *    count as they are, the others go at the rate of the threads read on
 *    its core (all its slots), or on the whole tile where a core has one
 *    slot (mimd-c4r32: 27/40 -> 34/40 inside, bias +0.22% -> -0.32%) or
 *    read nothing; a composite of the slot's direct estimate and a
 *    synthetic one from the larger domain, weighted by the slot's share
 *    read (small-area estimation: Rao and Molina, Small Area Estimation,
 *    2nd ed., Wiley 2015, ch. 3). Pooling makes each slot's estimate less
 *    noisy, so the maximum selects less noise (hotspot, mimd-c4r256:
 *    9/40 -> 36/40, bias -0.04%), and pulls the busiest slot toward its
 *    siblings (the -0.32%).
 * Not expanded: each slot's spawn and join, and the misses its threads
 * (read or warmed) paid once per launch (once_seen: a launch-uniform
 * load's first miss; nn: 51 cycles that the rule before left out or
 * expanded). A slot's threads in the launch leave out the grid padding of
 * the last CTA once that CTA was read or warmed (a full replay times none
 * of it; counted, the slot holding it was expanded by up to a CTA's
 * padding / its working threads too much: hotspot, mimd-c4r256, 1152 for
 * 1118 threads); before, it is not known and stays in. */
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
	const double *st = s->ls.slot_time, *seen = s->ls.once_seen, *once = s->ls.once_read;
	const uint64_t *sr = s->ls.slot_read;
	/* the threads read: their cycles (less each slot's spawn and join
	 * and the misses paid once) and count, over the launch (the sample
	 * has read some) */
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
	double most = 0;
	for (uint32_t c = 0; c < pp->cores; c++) {
		uint64_t clo = c * per_core, chi = clo + per_core < end ? clo + per_core : end;
		if (chi <= clo)
			continue;
		double cw = 0;
		uint64_t cr = 0;
		for (uint32_t k = 0; k < u; k++)
			if (sr[(size_t)c * u + k]) {
				cw += st[(size_t)c * u + k] - sj - once[(size_t)c * u + k];
				cr += sr[(size_t)c * u + k];
			}
		/* the rate of the slot's siblings: its core's slots, or where a
		 * core has one slot (or read nothing) the tile's */
		double rate = u > 1 && cr ? cw / (double)cr : launch_rate;
		/* each slot: its threads read as they are, the others at that
		 * rate */
		for (uint32_t k = 0; k < u; k++) {
			uint64_t lo = clo + k * per_slot, hi = lo + per_slot;
			if (hi > chi)
				hi = chi;
			size_t i = (size_t)c * u + k;
			uint64_t all = hi > lo ? hi - lo : 0, r = sr[i];
			if (!all && !r)
				continue;
			/* spawn, join and the misses paid once, as they are */
			double e = sj + seen[i] + (r ? st[i] - sj - once[i] : 0);
			if (all > r)
				e += (double)(all - r) * rate;
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
