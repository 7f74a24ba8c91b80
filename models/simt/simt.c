/*
 * simt.c - the SIMT streaming-multiprocessor model ("simt"): an NVIDIA
 * Fermi GTX480 SM with its memory system, or a Tesla-like configurable SM
 * (models.md section 1; docs/models/simt.md has the worked derivations).
 *
 * What is replayed (simt_replay.c): every CTA's threads in warps of
 * warp_size consecutive threads under the IPDOM reconvergence stack
 * (models/group.h), so a divergent if/else issues both paths. CTAs are
 * dealt round-robin to the num_sm SMs (CTA i -> SM i mod num_sm, in the
 * order the sample lists them). Per warp instruction the model charges:
 *
 *   issue:   R = ceil(warp_size / (sp_per_sm / schedulers)) cycles of the
 *            warp's scheduler (the warps dealt to an SM alternate between
 *            its schedulers: the k-th goes to scheduler k mod schedulers).
 *            Fermi: 32 / 16 = 2; Tesla-like: 32 / 8 = 4 rows (models.md 1
 *            "Lanes").
 *   sfu:     ceil(warp_size / sfu_per_sm) cycles of the SM's SFUs for an
 *            SFU-class instruction (Fermi: 32 / 4 = 8; models.md 1). With
 *            sfu_per_sm = 0 SFU ops run on the lanes (issue cost only).
 *   shmem:   sum over lane groups of `shmem_banks` lanes of the largest
 *            number of distinct 4-byte words in one bank (broadcast for the
 *            same word) (models.md 1 "Shared memory"; simt_mem.c).
 *   L1:      global/local accesses coalesce into the distinct 128-byte
 *            segments the active lanes touch; each is one L1 transaction
 *            taking ceil(line / (l1_banks x 4 B)) cycles (1 on Fermi: 32
 *            banks x 4 B = 128 B per cycle). Loads allocate in L1; stores
 *            are write-through no-allocate (Fermi); atomics go to the L2.
 *   L2:      L1 misses, write-throughs and atomics, one 128-byte access
 *            each, through the shared L2 (write-back, write-allocate
 *            without fetch; GPGPU-Sim GTX480 dl2 policy); L2 misses and
 *            dirty evictions move a line to/from DRAM.
 * With caches = false (Tesla-like) global/local accesses are priced like
 * shared memory: they hit the banked on-chip memory, a conflicting access
 * re-issues for the lanes that lost (models.md 1).
 *
 * Cycles of a launch = the largest of these lower bounds (a roofline with a
 * latency term; each bound is what that resource alone would need):
 *
 *   B_issue   = max over SMs, schedulers of sum R                 (issue)
 *   B_sfu     = max over SMs of sum ceil(warp_size / sfu_per_sm)  (sfu)
 *   B_shmem   = max over SMs of sum bank-conflict cycles          (shmem_banks)
 *   B_l1      = max over SMs of L1 transactions x ceil(line/(4 x l1_banks))  (l1_bw)
 *   B_l2      = max over L2 banks of accesses x ceil(l2_line / l2_port_bytes)
 *               x clock / l2_clock                                (l2_bw)
 *   B_dram    = DRAM bytes / dram_gbps x clock                    (dram_bw)
 *   B_latency = max over SMs of the makespan of the SM's CTAs list-
 *               scheduled onto its `occupancy` resident slots, where a
 *               CTA lasts as long as its slowest warp, and a warp as long
 *               as its dataflow critical path through its issue slots:
 *                 start(i)  = max(slot(i), ready(r) for r read by i)
 *                 done(i)   = start(i) + latency(i);  ready(d) = done(i)
 *                 slot(i+1) = slot(i) + occupancy(i)
 *               (slots are taken in program order, but a stalled
 *               instruction does not hold back independent later ones:
 *               PTX order is not the machine order, ptxas hoists loads).
 *               warp_serial (no forwarding, Tesla-like): strictly in
 *               order, start(i) >= done(i-1), slot(i+1) = start(i) +
 *               occupancy(i).
 *               latency(i): alu_latency, sfu_latency, shmem_latency (+ the
 *               conflict cycles beyond the conflict-free ones), or the
 *               slowest of a load's transactions (l1/l2/dram latency by
 *               where the cache models found the line); occupancy(i): R,
 *               or the SFU/shmem/L1 cycles the instruction needs if more.
 *               Warps of a CTA meet at bar.sync: each arrives when all
 *               it issued before has completed; all leave at the latest
 *               arrival. This is the interval-analysis view of a GPU (a
 *               warp's time = its issue time plus the stalls of its
 *               dependence chain; Karkhanis & Smith ISCA 2004 for the
 *               interval idea, applied to warps as in Huang et al.'s
 *               GPUMech, MICRO 2014) bounded by the resident warps that
 *               hide each other's latency (Hong & Kim ISCA 2009 make the
 *               same point with MWP/CWP): with few resident warps the
 *               chain dominates; with many, a throughput bound does.
 *
 *   cycles = max(B_*); limiter = the bound that attains it, reported as
 *   "occupancy" when it is B_latency and some SM had more CTAs than
 *   resident slots (more residency would have hidden latency), and as
 *   "divergence" when it is B_issue, B_sfu or B_latency and that bound
 *   times the SIMD efficiency (thread instructions / (warp instructions x
 *   warp_size)) falls below the next largest bound (fully converged warps
 *   would not be limited by it). Taking the maximum rather than a sum is
 *   optimistic when two bounds are close; the per-bound cycles are
 *   reported as stats (bound_*) so the margin is visible.
 *
 * Occupancy (models.md 1): resident CTAs per SM = min(max_threads /
 * (warps per CTA x warp_size), max_ctas, registers / (regs per thread x
 * warps per CTA x warp_size), shmem_bytes / shared bytes per CTA).
 * Registers per thread are not in PTX (ptxas allocates them): the model
 * uses the most simultaneously live 32-bit values of the program
 * (liveness over its CFG; 64-bit registers count 2, predicates 0; a
 * result may take a dying operand's register),
 * clamped to max_regs_per_thread and to what lets one CTA fit (the
 * compiler would spill). That ignores ptxas's temporaries and allocation
 * granularity, so it can overestimate occupancy a little.
 *
 * Sampling: when only some CTAs are read, bounds, events and instruction
 * counts are scaled by (CTAs in the launch / CTAs read). L1s start cold in
 * each launch; the L2 keeps its lines across launches, but its dirty lines
 * are written back at the end of each launch (so a launch's output is
 * charged to its DRAM traffic) and stay cached, clean.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt.h"
#include "models/memsys.h"

/* ---- schema ---- */

#define GPGPUSIM WEFT_GPGPUSIM_GTX480

static const struct weft_config_key simt_keys[] = {
	{ "core", "num_sm", WEFT_CFG_INT, "1", "", 1, 1024, NULL,
	  "SMs; CTAs are dealt round-robin; GTX480 has 15 (models.md 1)" },
	{ "core", "clock_mhz", WEFT_CFG_DOUBLE, "1400", "MHz", 1, 10000, NULL,
	  "SM clock; GTX480 core 1.4 GHz (models.md 1)" },
	{ "core", "warp_size", WEFT_CFG_INT, "32", "threads", 1, 64, NULL,
	  "threads per warp (models.md 1)" },
	{ "core", "sp_per_sm", WEFT_CFG_INT, "32", "lanes", 1, 1024, NULL,
	  "streaming processors per SM; a warp takes ceil(warp_size / (sp_per_sm / schedulers)) "
	  "rows; Fermi 32 (2 x 16) (models.md 1)" },
	{ "core", "schedulers", WEFT_CFG_INT, "2", "", 1, SIMT_MAX_SCHED, NULL,
	  "warp schedulers per SM, each issuing to sp_per_sm / schedulers lanes; Fermi 2 "
	  "(models.md 1)" },
	{ "core", "sfu_per_sm", WEFT_CFG_INT, "4", "", 0, 1024, NULL,
	  "special function units per SM; a warp SFU op takes warp_size / sfu_per_sm cycles; "
	  "0 = SFU ops run on the lanes; Fermi 4 (models.md 1)" },
	{ "core", "max_threads", WEFT_CFG_INT, "1536", "threads", 1, 65536, NULL,
	  "resident threads per SM; Fermi 1536 (models.md 1)" },
	{ "core", "max_ctas", WEFT_CFG_INT, "8", "", 1, SIMT_MAX_SLOTS, NULL,
	  "resident CTAs per SM; Fermi 8 (models.md 1)" },
	{ "core", "registers", WEFT_CFG_INT, "32768", "32-bit regs", 1, 16777216, NULL,
	  "register file per SM; Fermi 32768 x 32 bit (models.md 1)" },
	{ "core", "max_regs_per_thread", WEFT_CFG_INT, "63", "", 1, 4096, NULL,
	  "most registers one thread may use; 63 on compute capability 2.x (CUDA C Programming "
	  "Guide, technical specifications table)" },
	{ "core", "shmem_bytes", WEFT_CFG_INT, "49152", "B", 0, 1073741824, NULL,
	  "shared memory per SM; Fermi 48 KB (models.md 1)" },
	{ "core", "shmem_banks", WEFT_CFG_INT, "32", "", 1, 64, NULL,
	  "shared-memory banks of 4-byte words; lanes are served in groups of this many; Fermi 32, "
	  "Tesla-like one per SP (models.md 1)" },
	{ "core", "warp_serial", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "a warp cannot issue until its previous instruction wrote back (pipeline without "
	  "forwarding: the Tesla-like SM, models.md 1 \"Scheduling\")" },
	{ "core", "alu_latency", WEFT_CFG_INT, "10", "cycles", 1, 100000, NULL,
	  "issue-to-result latency of ALU/FPU ops; 10 = 2 x the MAD latency 5 of " GPGPUSIM
	  " (its 700 MHz core domain is half the 1.4 GHz SM clock)" },
	{ "core", "sfu_latency", WEFT_CFG_INT, "78", "cycles", 1, 100000, NULL,
	  "issue-to-result latency of SFU-class ops; 78 = 2 x the fp DIV latency 39 of " GPGPUSIM },
	{ "core", "shmem_latency", WEFT_CFG_INT, "52", "cycles", 1, 100000, NULL,
	  "shared-memory load latency without conflicts; 52 = 2 x gpgpu_smem_latency 26 of "
	  GPGPUSIM },
	{ "core", "l1_latency", WEFT_CFG_INT, "70", "cycles", 1, 100000, NULL,
	  "L1 hit latency; 70 = 2 x gpgpu_l1_latency 35 of " GPGPUSIM },
	{ "core", "l2_latency", WEFT_CFG_INT, "310", "cycles", 1, 100000, NULL,
	  "L2 hit latency; 310 = l1_latency 70 + 2 x gpgpu_l2_rop_latency 120 of " GPGPUSIM },
	{ "core", "dram_latency", WEFT_CFG_INT, "510", "cycles", 1, 100000, NULL,
	  "L2 miss latency; 510 = l2_latency 310 + 2 x dram_latency 100 of " GPGPUSIM },
	{ "core", "area_basis", WEFT_CFG_ENUM, "fermi", "", 0, 0, "fermi|tesla",
	  "which area components the config reports: fermi (fermi_sm, fermi_l2_kib, "
	  "fermi_mem_channel) or tesla (tesla_sm_fixed, tesla_sp, tesla_sp_quadratic) (area/)" },
	{ "mem", "caches", WEFT_CFG_BOOL, "true", "", 0, 1, NULL,
	  "L1/L2 caches and DRAM; false = global/local accesses hit the banked shared memory "
	  "(the Tesla-like SM has no cache hierarchy, models.md 1)" },
	{ "mem", "l1_bytes", WEFT_CFG_INT, "65536", "B", 128, 1073741824, NULL,
	  "L1 data cache per SM; 64 KB as the SGMF study configured GPGPU-Sim (models.md 1)" },
	{ "mem", "l1_line", WEFT_CFG_INT, "128", "B", 4, 4096, NULL,
	  "L1 line = coalescing segment; 128 B (models.md 1)" },
	{ "mem", "l1_assoc", WEFT_CFG_INT, "4", "ways", 1, 64, NULL,
	  "L1 associativity; 4-way (models.md 1)" },
	{ "mem", "l1_banks", WEFT_CFG_INT, "32", "", 1, 1024, NULL,
	  "L1 banks of 4 bytes: a transaction takes ceil(line / (4 x banks)) cycles; 32 "
	  "(models.md 1)" },
	{ "mem", "l1_write", WEFT_CFG_ENUM, "through", "", 0, 0, "through|back",
	  "L1 store policy: write-through no-allocate (Fermi, models.md 1) or write-back "
	  "write-allocate" },
	WEFT_MEMSYS_L2_DRAM_KEYS,
	{ "mem", "dram_channels", WEFT_CFG_INT, "6", "", 0, 1024, NULL,
	  "GDDR5 channels; 6 (models.md 1)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static const struct weft_event_def simt_events[SIMT_EV_COUNT] = {
	{ "simt_warp_fetch_decode", WEFT_CAT_FDS, "warp instruction", "fetched and decoded" },
	{ "simt_warp_schedule", WEFT_CAT_FDS, "warp instruction", "scoreboard + scheduler issue" },
	{ "simt_rf_read", WEFT_CAT_RF, "32-bit operand", "register read by an active thread" },
	{ "simt_rf_write", WEFT_CAT_RF, "32-bit operand", "register written by an active thread" },
	{ "int_alu", WEFT_CAT_COMP, "thread op", "integer add/logic/shift/compare/mov/cvt, warp ops" },
	{ "int_mul", WEFT_CAT_COMP, "thread op", "32-bit integer multiply (mad counts one)" },
	{ "int_div", WEFT_CAT_COMP, "thread op", "integer div/rem" },
	{ "fp32_add", WEFT_CAT_COMP, "thread op", "f32/f16 add, compare, min/max, cvt with a float side" },
	{ "fp32_mul", WEFT_CAT_COMP, "thread op", "f32/f16 multiply" },
	{ "fp32_fma", WEFT_CAT_COMP, "thread op", "f32/f16 fma/mad" },
	{ "fp64_op", WEFT_CAT_COMP, "thread op", "f64 add/mul/fma/compare" },
	{ "sfu_op", WEFT_CAT_COMP, "thread op", "rcp sqrt rsqrt ex2 lg2 sin cos tanh, float div" },
	{ "shmem_access", WEFT_CAT_SHMEM, "32-bit word", "shared-memory word per active thread "
	  "(no-cache SM: global/local too)" },
	{ "l1_access", WEFT_CAT_L1, "128 B transaction", "L1 lookup, hit or miss" },
	{ "l2_access", WEFT_CAT_L2, "128 B transaction", "L2 lookup: L1 misses, write-throughs, atomics" },
	{ "dram_access", WEFT_CAT_DRAM, "32 B", "bytes to/from DRAM / 32" },
};

/* ---- params ---- */

static uint32_t cfg_u(const struct weft_config *cfg, const char *sec, const char *key)
{
	int64_t v = weft_config_int(cfg, sec, key);
	return v < 0 ? 0 : (uint32_t)v;
}

int simt_params_from_config(const struct weft_config *cfg, struct simt_params *sp,
			    struct weft_error *err)
{
	memset(sp, 0, sizeof(*sp));
	sp->num_sm = cfg_u(cfg, "core", "num_sm");
	sp->clock_hz = weft_config_num(cfg, "core", "clock_mhz") * 1e6;
	sp->warp_size = cfg_u(cfg, "core", "warp_size");
	sp->sp_per_sm = cfg_u(cfg, "core", "sp_per_sm");
	sp->schedulers = cfg_u(cfg, "core", "schedulers");
	sp->sfu_per_sm = cfg_u(cfg, "core", "sfu_per_sm");
	sp->max_threads = cfg_u(cfg, "core", "max_threads");
	sp->max_ctas = cfg_u(cfg, "core", "max_ctas");
	sp->registers = cfg_u(cfg, "core", "registers");
	sp->max_regs_per_thread = cfg_u(cfg, "core", "max_regs_per_thread");
	sp->shmem_bytes = cfg_u(cfg, "core", "shmem_bytes");
	sp->shmem_banks = cfg_u(cfg, "core", "shmem_banks");
	sp->warp_serial = weft_config_num(cfg, "core", "warp_serial") != 0;
	sp->alu_latency = cfg_u(cfg, "core", "alu_latency");
	sp->sfu_latency = cfg_u(cfg, "core", "sfu_latency");
	sp->shmem_latency = cfg_u(cfg, "core", "shmem_latency");
	sp->l1_latency = cfg_u(cfg, "core", "l1_latency");
	sp->l2_latency = cfg_u(cfg, "core", "l2_latency");
	sp->dram_latency = cfg_u(cfg, "core", "dram_latency");
	sp->area_basis = strcmp(weft_config_str(cfg, "core", "area_basis"), "tesla") ? SIMT_AREA_FERMI
										      : SIMT_AREA_TESLA;
	sp->caches = weft_config_num(cfg, "mem", "caches") != 0;
	sp->l1.size_bytes = cfg_u(cfg, "mem", "l1_bytes");
	sp->l1.line_bytes = cfg_u(cfg, "mem", "l1_line");
	sp->l1.assoc = cfg_u(cfg, "mem", "l1_assoc");
	sp->l1.banks = cfg_u(cfg, "mem", "l1_banks");
	if (weft_cache_write_parse(weft_config_str(cfg, "mem", "l1_write"), &sp->l1.write))
		sp->l1.write = WEFT_CACHE_WRITE_THROUGH;
	struct weft_memsys ms;
	weft_memsys_read(cfg, &ms);
	sp->l2 = ms.l2;
	sp->l2_clock_hz = ms.l2_clock_hz;
	sp->l2_port_bytes = ms.l2_port_bytes;
	sp->dram_bytes_per_s = ms.dram_bytes_per_s;
	sp->dram_channels = cfg_u(cfg, "mem", "dram_channels");

	const char *where = cfg->path[0] ? cfg->path : "config";
	if (sp->sp_per_sm < sp->schedulers)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: core.sp_per_sm = %u is less than core.schedulers = %u; each "
				      "scheduler needs at least one lane",
				      where, sp->sp_per_sm, sp->schedulers);
	if (!sp->num_sm || !sp->warp_size || !sp->clock_hz || !sp->max_threads || !sp->max_ctas ||
	    !sp->registers || !sp->max_regs_per_thread || !sp->shmem_banks || !sp->l2_clock_hz ||
	    !sp->l2_port_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: a [core]/[mem] value the SIMT model divides by is 0 (is the "
				      "config's [model] name = simt?)", where);
	if (sp->caches && sp->l1.line_bytes != sp->l2.line_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: mem.l1_line = %u differs from mem.l2_line = %u; the model moves "
				      "whole lines between L1 and L2, so make them equal",
				      where, sp->l1.line_bytes, sp->l2.line_bytes);
	sp->lanes_per_sched = sp->sp_per_sm / sp->schedulers;
	sp->issue_cycles = (sp->warp_size + sp->lanes_per_sched - 1) / sp->lanes_per_sched;
	sp->sfu_cycles = sp->sfu_per_sm ? (sp->warp_size + sp->sfu_per_sm - 1) / sp->sfu_per_sm
					: sp->issue_cycles;
	sp->l1_cycles_per_tx = (sp->l1.line_bytes + 4 * sp->l1.banks - 1) / (4 * sp->l1.banks);
	return 0;
}

/* ---- ops ---- */

static void simt_free(void *state)
{
	struct simt_state *s = state;
	if (!s)
		return;
	if (s->sms)
		for (uint32_t i = 0; i < s->sp.num_sm; i++)
			weft_cache_free(&s->sms[i].l1);
	free(s->sms);
	if (s->l2.tag)
		weft_cache_free(&s->l2);
	weft_group_prog_free(&s->gp);
	free(s->pc);
	free(s->ready);
	free(s->warps);
	simt_stream_free(s->stream);
	for (uint32_t i = 0; i < s->nlaunches; i++)
		free(s->launches[i].events);
	free(s->launches);
	free(s);
}

static int simt_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	struct simt_state *s = calloc(1, sizeof(*s));
	*state = NULL;
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the SIMT model");
	int rc = simt_params_from_config(cfg, &s->sp, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->sms = calloc(s->sp.num_sm, sizeof(*s->sms));
	if (!s->sms) {
		uint32_t n = s->sp.num_sm;
		free(s);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u SMs", n);
	}
	if (s->sp.caches) {
		const char *which = "l1";
		for (uint32_t i = 0; i < s->sp.num_sm && !rc; i++)
			rc = weft_cache_init(&s->sms[i].l1, &s->sp.l1, err);
		if (!rc) {
			which = "l2";
			rc = weft_cache_init(&s->l2, &s->sp.l2, err);
		}
		if (rc) {
			weft_error_prefix(err, "%s: [mem] %s_bytes/%s_line/%s_assoc: ",
					  cfg->path[0] ? cfg->path : "config", which, which, which);
			simt_free(s);
			return rc;
		}
	} else {
		for (uint32_t i = 0; i < s->sp.num_sm; i++)
			s->sms[i].l1.line_shift = 7; /* unused without caches */
	}
	*state = s;
	return 0;
}

/* ---- per launch: begin, every CTA, end (model.h's per-CTA ops) ---- */

static double hit_pct(double hits, double n)
{
	return n > 0 ? 100.0 * hits / n : 0;
}

static int simt_begin_launch(void *state, struct weft_trace *t, uint32_t launch,
			     const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct simt_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	if (s->leader)
		return 0; /* the leader replays; end_launch times its replay */
	uint32_t shmem = L->program->shared_static_bytes + L->dyn_shared;
	int rc = simt_launch_begin(s, L->program, L->threads_per_cta, shmem, err);
	if (rc) {
		weft_error_prefix(err, "launch %u (kernel %s): ", launch, L->program->kernel);
		simt_launch_end(s);
		return rc;
	}
	return 0;
}

static int simt_consume_cta(void *state, const struct weft_cta_trace *c, struct weft_error *err)
{
	return simt_replay_cta(state, c, err);
}

/* The per-launch timing of state s from the replay in rp (s itself, or
 * the leader s follows): the bounds, the limiter, events and stats. Reads
 * rp's replay (SMs, occupancy, L2, counts) and s's parameters; writes only
 * s's results. */
static int simt_time_launch(struct simt_state *s, const struct simt_state *rp,
			    const struct weft_trace_launch *L, uint32_t launch, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	/* scale a sample up to the whole launch */
	double f = rp->cta_seq ? (double)L->nctas / rp->cta_seq : 1;
	double b[SIMT_B_COUNT] = { 0 };
	int occ_bound = 0;
	double l1_reads = 0, l1_hits = 0;
	for (uint32_t i = 0; i < sp->num_sm; i++) {
		const struct simt_sm *sm = &rp->sms[i];
		for (uint32_t k = 0; k < sp->schedulers; k++)
			if (sm->sched[k] > b[SIMT_B_ISSUE])
				b[SIMT_B_ISSUE] = sm->sched[k];
		if (sm->sfu > b[SIMT_B_SFU])
			b[SIMT_B_SFU] = sm->sfu;
		if (sm->shmem > b[SIMT_B_SHMEM])
			b[SIMT_B_SHMEM] = sm->shmem;
		if (sm->l1_tx * sp->l1_cycles_per_tx > b[SIMT_B_L1])
			b[SIMT_B_L1] = sm->l1_tx * sp->l1_cycles_per_tx;
		for (uint32_t k = 0; k < rp->occ.ctas && k < SIMT_MAX_SLOTS; k++)
			if (sm->slot_free[k] > b[SIMT_B_LATENCY])
				b[SIMT_B_LATENCY] = sm->slot_free[k];
		if (sm->nctas > rp->occ.ctas)
			occ_bound = 1;
		if (sp->caches) {
			l1_reads += (double)sm->l1.st.reads;
			l1_hits += (double)sm->l1.st.read_hits;
		}
	}
	if (sp->caches) {
		uint32_t per = (sp->l2.line_bytes + sp->l2_port_bytes - 1) / sp->l2_port_bytes;
		b[SIMT_B_L2] = (double)weft_cache_max_bank_accesses(&rp->l2) * per * sp->clock_hz /
			       sp->l2_clock_hz;
		if (sp->dram_bytes_per_s > 0)
			b[SIMT_B_DRAM] = rp->dram_bytes / sp->dram_bytes_per_s * sp->clock_hz;
	}
	double cycles = 0;
	for (int i = 0; i < SIMT_B_COUNT; i++) {
		b[i] *= f;
		if (b[i] > cycles)
			cycles = b[i];
	}
	double simd = rp->ls.warp_insts > 0 ? rp->ls.thread_insts / (rp->ls.warp_insts * sp->warp_size) : 0;
	double ev[SIMT_EV_COUNT];
	memcpy(ev, rp->ev, sizeof(ev));
	ev[SIMT_EV_DRAM] = rp->dram_bytes / 32.0;

	struct weft_launch_result *r;
	int rc = weft_launch_result_push(&s->launches, &s->nlaunches, &s->launches_cap, SIMT_EV_COUNT,
					 &r, err);
	if (rc)
		return rc;
	r->launch = launch;
	snprintf(r->kernel, sizeof(r->kernel), "%s", L->program->kernel ? L->program->kernel : "?");
	r->cycles = cycles;
	r->thread_insts = (uint64_t)llround(rp->ls.thread_insts * f);
	snprintf(r->limiter, sizeof(r->limiter), "%s", simt_limiter(b, occ_bound, simd));
	for (int i = 0; i < SIMT_EV_COUNT; i++) {
		r->events[i] = ev[i] * f;
		s->total_ev[i] += r->events[i];
	}
	char key[48];
	for (int i = 0; i < SIMT_B_COUNT; i++) {
		snprintf(key, sizeof(key), "bound_%s", simt_bound_names[i]);
		weft_stat_add(r->stats, &r->nstats, key, b[i], "cycles");
	}
	weft_stat_add(r->stats, &r->nstats, "warp_insts", rp->ls.warp_insts * f, "");
	weft_stat_add(r->stats, &r->nstats, "simd_efficiency", 100.0 * simd, "%");
	/* extra warp instructions that idle lanes (divergence, predication,
	 * partial warps) cost over fully converged warps */
	weft_stat_add(r->stats, &r->nstats, "divergence_overhead", simd > 0 ? 100.0 * (1 / simd - 1) : 0,
		      "%");
	weft_stat_add(r->stats, &r->nstats, "regs_per_thread", rp->occ.regs_per_thread, "");
	weft_stat_add(r->stats, &r->nstats, "resident_ctas", rp->occ.ctas, "");
	weft_stat_add(r->stats, &r->nstats, "resident_warps", rp->occ.warps, "");
	snprintf(key, sizeof(key), "occupancy_limited_by_%s", simt_occ_names[rp->occ.limit]);
	weft_stat_add(r->stats, &r->nstats, key, 1, "");
	weft_stat_add(r->stats, &r->nstats, "l1_tx_per_mem_inst",
		      rp->ls.mem_insts > 0 ? rp->ls.l1_tx / rp->ls.mem_insts : 0, "");
	weft_stat_add(r->stats, &r->nstats, "shmem_cycles_per_access",
		      rp->ls.shmem_accesses > 0 ? rp->ls.shmem_cycles / rp->ls.shmem_accesses : 0, "");
	if (sp->caches) {
		weft_stat_add(r->stats, &r->nstats, "l1_read_hit_rate", hit_pct(l1_hits, l1_reads), "%");
		weft_stat_add(r->stats, &r->nstats, "l2_hit_rate",
			      hit_pct((double)(rp->l2.st.read_hits + rp->l2.st.write_hits),
				      (double)(rp->l2.st.reads + rp->l2.st.writes)),
			      "%");
		weft_stat_add(r->stats, &r->nstats, "dram_bytes", rp->dram_bytes * f, "B");
	}
	weft_stat_add(r->stats, &r->nstats, "barriers", rp->ls.barriers * f, "");
	weft_stat_add(r->stats, &r->nstats, "ctas_read", rp->cta_seq, "");
	s->total_cycles += cycles;
	s->total_insts += r->thread_insts;
	return 0;
}

static int simt_end_launch(void *state, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct simt_state *s = state;
	const struct simt_params *sp = &s->sp;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	if (s->leader)
		return simt_time_launch(s, s->leader, L, launch, err);
	simt_launch_end(s);

	/* A launch's output reaches DRAM: the L2's dirty lines are written back
	 * at its end and stay cached, clean (the next launch may still hit). */
	if (sp->caches && sp->l2.write == WEFT_CACHE_WRITE_BACK)
		s->dram_bytes += (double)weft_cache_clean(&s->l2) * sp->l2.line_bytes;
	if (sp->caches && sp->l1.write == WEFT_CACHE_WRITE_BACK)
		for (uint32_t i = 0; i < sp->num_sm; i++) {
			double n = (double)weft_cache_clean(&s->sms[i].l1);
			s->ev[SIMT_EV_L2] += n; /* into the L2 (already clean there: no DRAM) */
			s->dram_bytes += n * sp->l2.line_bytes;
		}
	return simt_time_launch(s, s, L, launch, err);
}

/* Follows leader when the two configs differ only in what the replay does
 * not read (otherwise, when their warp streams agree, notes leader as the
 * source of the streams it times: simt_replay.c): core.clock_mhz, mem.l2_clock_mhz, mem.l2_port_bytes,
 * mem.dram_gbps, mem.dram_channels, core.area_basis (and every [tech]
 * key, which the model never sees). Everything else in simt_params reaches
 * the replay (simt_replay.c, simt_mem.c, simt_timing.c's occupancy). */
static int simt_follow(void *state, void *leader)
{
	struct simt_state *s = state, *ld = leader;
	struct simt_params a, b;
	memcpy(&a, &s->sp, sizeof(a));
	memcpy(&b, &ld->sp, sizeof(b));
	a.clock_hz = b.clock_hz = 0;
	a.l2_clock_hz = b.l2_clock_hz = 0;
	a.l2_port_bytes = b.l2_port_bytes = 0;
	a.dram_bytes_per_s = b.dram_bytes_per_s = 0;
	a.dram_channels = b.dram_channels = 0;
	a.area_basis = b.area_basis = SIMT_AREA_FERMI;
	if (ld->leader)
		return 0;
	if (memcmp(&a, &b, sizeof(a)) != 0) {
		/* the replays differ, but the warp streams may not: time the
		 * first such leader's (its root's) streams */
		if (!s->stream_src && simt_stream_key_equal(&s->sp, &ld->sp))
			s->stream_src = ld->stream_src ? ld->stream_src : ld;
		return 0;
	}
	s->leader = ld;
	return 1;
}

/* One launch through the three ops above (the single-config path). */
static int simt_consume(void *state, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct simt_state *s = state;
	int rc = simt_begin_launch(s, t, launch, sample, err);
	if (rc < 0)
		return rc;
	rc = weft_trace_for_each_cta(t, launch, sample, 0, simt_consume_cta, s, err);
	if (rc) {
		simt_launch_end(s);
		const struct weft_trace_launch *L = weft_trace_launch(t, launch);
		weft_error_prefix(err, "SIMT model, launch %u (kernel %s): ", launch, L->program->kernel);
		return rc;
	}
	return simt_end_launch(s, t, launch, sample, err);
}

static int simt_components(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			   struct weft_error *err)
{
	const struct simt_params *sp = &((struct simt_state *)state)->sp;
	struct weft_component c[3];
	if (sp->area_basis == SIMT_AREA_TESLA) {
		weft_component_set(&c[0], "tesla_sm_fixed", sp->num_sm, "num_sm");
		weft_component_set(&c[1], "tesla_sp", (double)sp->num_sm * sp->sp_per_sm,
				   "num_sm x sp_per_sm = %u x %u", sp->num_sm, sp->sp_per_sm);
		weft_component_set(&c[2], "tesla_sp_quadratic",
				   (double)sp->num_sm * sp->sp_per_sm * sp->sp_per_sm,
				   "num_sm x sp_per_sm^2 (coalescing + bank crossbar, Lies 2019)");
	} else {
		weft_component_set(&c[0], "fermi_sm", sp->num_sm, "num_sm");
		weft_component_set(&c[1], "fermi_l2_kib", sp->caches ? sp->l2.size_bytes / 1024.0 : 0,
				   "mem.l2_bytes / 1024");
		weft_component_set(&c[2], "fermi_mem_channel", sp->caches ? sp->dram_channels : 0,
				   "mem.dram_channels");
	}
	if (max < 3)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need 3", max);
	memcpy(out, c, sizeof(c));
	*n = 3;
	return 0;
}

static int simt_finish(void *state, struct weft_model_result *res, struct weft_error *err)
{
	struct simt_state *s = state;
	int rc = weft_model_result_take(res, s->sp.clock_hz, s->total_cycles, s->total_insts, s->total_ev,
					SIMT_EV_COUNT, &s->launches, &s->nlaunches, &s->launches_cap, err);
	if (rc)
		return rc;
	rc = simt_components(s, res->components, WEFT_MAX_COMPONENTS, &res->ncomponents, err);
	if (rc)
		return rc;
	weft_stat_add(res->stats, &res->nstats, "num_sm", s->sp.num_sm, "");
	weft_stat_add(res->stats, &res->nstats, "issue_cycles_per_warp_inst", s->sp.issue_cycles, "cycles");
	weft_stat_add(res->stats, &res->nstats, "sfu_cycles_per_warp_inst", s->sp.sfu_cycles, "cycles");
	return 0;
}

const struct weft_model weft_model_simt = {
	.name = "simt",
	.description = "SIMT streaming multiprocessor (Fermi GTX480, Tesla-like SM): warps under "
		       "IPDOM, occupancy, coalescing, banks, L1/L2/DRAM, latency bound",
	.keys = simt_keys,
	.events = simt_events,
	.nevents = SIMT_EV_COUNT,
	.init = simt_init,
	.consume_launch = simt_consume,
	.finish = simt_finish,
	.free = simt_free,
	.components = simt_components,
	.begin_launch = simt_begin_launch,
	.consume_cta = simt_consume_cta,
	.end_launch = simt_end_launch,
	.follow = simt_follow,
};
