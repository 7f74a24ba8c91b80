/*
 * vt.c - the Maven-family tile model ("vt"): a tile of 4 MIMD cores, or of
 * vector-SIMD or vector-thread (VT) cores (4 single-lane cores, c4v1, or
 * one core with 4 lanes, c1v4), sharing a 64 KB data cache, as Lee et
 * al. built and compared them ("Exploring the Tradeoffs between
 * Programmability and Efficiency in Data-Parallel Accelerators", ACM TOCS
 * 2013; the Maven VT design: Lee et al., ISCA 2011; its PVFB policies:
 * Lee, Krashinsky et al., CGO 2013). The pattern is a key of one model:
 * the three patterns share the tile, the memory system, the trace replay
 * and the components; only how threads become instructions differs.
 *
 * Every CUDA thread is a microthread (uT); a launch's threads in linear
 * order are the application vector. Vector cores stripmine it by the
 * hardware vector length
 *
 *   HVL = min(max_vlen, lanes x regs / regs_per_ut),
 *   regs_per_ut = clamp(live 32-bit registers, min_regs_per_ut, max_regs_per_ut)
 *
 * with the live registers from the liveness analysis; what a VT compiler
 * hoists to the control processor comes from the uniformity/affine
 * analysis (vt_class.c); the strips are timed on the lanes, the issue
 * unit, the VRF ports or banks and the data cache (vt_replay.c). MIMD
 * cores run every uT's whole instruction stream, U = regs / 32 uTs per
 * core in fixed interleaving. Cycles are at the tile's cycle time from
 * the synthesis results (TOCS 2013 Table I, data/calibration/), or the
 * cycle-time fit's prediction for a tile the table lacks, and the tile's
 * area is the area fit's (vt_calib.c).
 * docs/models/vt.md has the equations, sources and what is not modelled.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt.h"
#include "common/pool.h"
#include "common/sbuf.h"

#define TOCS "Lee et al., ACM TOCS 2013"
#define LATDOC(what, v) what " latency; " #v " cycles (" TOCS ", Section 5 / Table I notes)"

static const struct weft_config_key vt_keys[] = {
	{ "tile", "pattern", WEFT_CFG_ENUM, "vt", "", 0, 0, "mimd|vsimd|vt",
	  "programming pattern of the cores: MIMD, vector-SIMD or vector-thread (" TOCS ")" },
	{ "tile", "cores", WEFT_CFG_INT, "4", "", 1, VT_MAX_CORES, NULL,
	  "cores per tile: 4 (c4) or 1 (c1) (" TOCS " Table I)" },
	{ "tile", "lanes", WEFT_CFG_INT, "1", "", 1, 8, NULL,
	  "lanes per vector core: 1 (v1) or 4 (v4) (" TOCS " Table I); MIMD ignores it" },
	{ "tile", "regs", WEFT_CFG_INT, "256", "32-bit regs", 32, 1024, NULL,
	  "physical registers per MIMD core or per vector lane, 32..256 (" TOCS " Table I)" },
	{ "tile", "max_vlen", WEFT_CFG_INT, "32", "uTs", 1, WEFT_GROUP_MAX_WIDTH, NULL,
	  "longest hardware vector length: 32 (" TOCS " Table I, vlen max)" },
	{ "tile", "min_regs_per_ut", WEFT_CFG_INT, "4", "regs", 1, 1024, NULL,
	  "fewest registers a uT is given: 4, from " TOCS " Table I (r32 lanes reach vlen 8 = 32 / 4)" },
	{ "tile", "max_regs_per_ut", WEFT_CFG_INT, "32", "regs", 1, 1024, NULL,
	  "most registers a uT is given (more live values are assumed spilled): 32, from " TOCS
	  " Table I (r32 lanes have vlen min 1 = 32 / 32)" },
	{ "tile", "mimd_regs_per_ut", WEFT_CFG_INT, "32", "regs", 1, 1024, NULL,
	  "registers per MIMD uT: 32, so a core holds regs / 32 uTs (" TOCS " Table I: uTs per tile)" },
	{ "tile", "mimd_max_uts", WEFT_CFG_INT, "8", "uTs", 1, 64, NULL,
	  "most uTs per MIMD core: 8 (" TOCS ": 1 to 8 uTs per core)" },
	{ "tile", "banked", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "+b: the VRF is 4 banks of 2r1w instead of one unified 6r3w file (" TOCS ")" },
	{ "tile", "bank_alus", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "+bi: per-bank integer ALUs (one per bank) and a third arithmetic unit (" TOCS ")" },
	{ "tile", "density_time", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "+d: a vector instruction takes cycles only for its active uTs; single-lane cores (" TOCS
	  ")" },
	{ "tile", "pvfb", WEFT_CFG_ENUM, "fifo", "", 0, 0, "fifo|1stack|2stack",
	  "VT fragment selection: FIFO, 1-stack (+1s) or 2-stack (+2s) (Lee, Krashinsky et al., CGO "
	  "2013; " TOCS ")" },
	{ "tile", "coalescer", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "+mc: uT accesses of the lanes in one cycle to the same port_bytes block merge; "
	  "multilane VT only (" TOCS ")" },
	{ "tile", "clock_mhz", WEFT_CFG_DOUBLE, "0", "MHz", 0, 10000, NULL,
	  "tile clock = 1 / cycle time; 0: from the calibration, the tile's cycle time in " TOCS
	  " Table I (post place-and-route) or the cycle-time fit's prediction ([calib] cycle_time)" },
	{ "lane", "arith_units", WEFT_CFG_INT, "2", "", 1, 8, NULL,
	  "arithmetic units per lane: 2, +bi 3 (" TOCS ")" },
	{ "lane", "banks", WEFT_CFG_INT, "4", "", 1, 16, NULL, "VRF banks with +b: 4 (" TOCS ")" },
	{ "lane", "bank_reads", WEFT_CFG_INT, "2", "", 1, 8, NULL, "read ports per bank: 2 (" TOCS ")" },
	{ "lane", "bank_writes", WEFT_CFG_INT, "1", "", 1, 8, NULL, "write ports per bank: 1 (" TOCS ")" },
	{ "lane", "vrf_reads", WEFT_CFG_INT, "6", "", 1, 32, NULL,
	  "read ports of the unified VRF: 6 (" TOCS ")" },
	{ "lane", "vrf_writes", WEFT_CFG_INT, "3", "", 1, 32, NULL,
	  "write ports of the unified VRF: 3 (" TOCS ")" },
	{ "lane", "strip_overhead", WEFT_CFG_INT, "4", "CP insts", 0, 1000, NULL,
	  "assumption: control-thread instructions per stripmine iteration besides the hoisted "
	  "ones: setvl, vector-fetch, the loop's index bump and branch" },
	{ "latency", "int", WEFT_CFG_INT, "1", "cycles", 1, 1000, NULL,
	  "assumption: simple integer ops forward to the next instruction (5-stage pipeline, " TOCS
	  ")" },
	{ "latency", "int_mul", WEFT_CFG_INT, "3", "cycles", 1, 1000, NULL, LATDOC("integer multiply", 3) },
	{ "latency", "int_div", WEFT_CFG_INT, "12", "cycles", 1, 1000, NULL, LATDOC("integer divide", 12) },
	{ "latency", "fp_add", WEFT_CFG_INT, "3", "cycles", 1, 1000, NULL, LATDOC("FP add", 3) },
	{ "latency", "fp_mul", WEFT_CFG_INT, "3", "cycles", 1, 1000, NULL,
	  LATDOC("FP multiply (and assumption: fused multiply-add)", 3) },
	{ "latency", "fp_div", WEFT_CFG_INT, "7", "cycles", 1, 1000, NULL, LATDOC("FP divide and reciprocal", 7) },
	{ "latency", "fp_sqrt", WEFT_CFG_INT, "10", "cycles", 1, 1000, NULL,
	  LATDOC("FP square root (and assumption: other transcendentals)", 10) },
	{ "latency", "load", WEFT_CFG_INT, "2", "cycles", 1, 1000, NULL,
	  "assumption: data-cache hit to a dependent use, a 5-stage pipeline's load-use delay of one "
	  "cycle plus the use" },
	{ "mimd", "spawn_cycles", WEFT_CFG_INT, "10", "cycles", 0, 100000, NULL,
	  "assumption: starting a uT once per launch (a software spawn: one atomic data-cache access "
	  "and a few ALU instructions)" },
	{ "mimd", "join_cycles", WEFT_CFG_INT, "10", "cycles", 0, 100000, NULL,
	  "assumption: signalling completion (one atomic counter update and a branch)" },
	{ "mimd", "item_overhead", WEFT_CFG_INT, "2", "insts", 0, 1000, NULL,
	  "assumption: instructions a MIMD uT spends per thread it loops over: its index bump and "
	  "the loop branch" },
	{ "mem", "dcache_bytes", WEFT_CFG_INT, "65536", "B", 1024, 16777216, NULL,
	  "shared data cache: 64 KB (" TOCS ")" },
	{ "mem", "dcache_line", WEFT_CFG_INT, "64", "B", 16, 1024, NULL, "line: 64 B (" TOCS ")" },
	{ "mem", "dcache_assoc", WEFT_CFG_INT, "8", "ways", 1, 64, NULL, "8-way (" TOCS ")" },
	{ "mem", "dcache_banks", WEFT_CFG_INT, "4", "", 1, 64, NULL,
	  "banks, one access each per cycle: 4 (" TOCS ")" },
	{ "mem", "mshrs", WEFT_CFG_INT, "8", "", 1, 1024, NULL, "miss-status holding registers: 8 (" TOCS ")" },
	{ "mem", "mshr_secondary", WEFT_CFG_INT, "4", "", 0, 1024, NULL,
	  "secondary misses one MSHR holds: 4 (" TOCS ")" },
	{ "mem", "refill_cycles", WEFT_CFG_INT, "50", "cycles", 0, 100000, NULL,
	  "line refill latency: 50 cycles (" TOCS ")" },
	{ "mem", "port_bytes", WEFT_CFG_INT, "16", "B", 4, 1024, NULL,
	  "bytes one data-cache access serves and the coalescer's block: 16 (" TOCS ", +mc)" },
	{ "mem", "icache_kib", WEFT_CFG_INT, "16", "KiB", 0, 1024, NULL,
	  "instruction cache per control processor / MIMD core: 16 KB (" TOCS "); area only" },
	{ "mem", "vicache_kib", WEFT_CFG_INT, "2", "KiB", 0, 1024, NULL,
	  "vector instruction cache per VT issue unit: 2 KB (" TOCS "); area only" },
	{ "calib", "data", WEFT_CFG_STRING, "calibration/maven_tiles_65nm.csv", "", 0, 0, NULL,
	  "synthesised tiles the area and cycle-time models are fitted to: the 18 tiles of " TOCS
	  " Table I, 65 nm (data directory unless ./ or ../ or absolute; docs/calibration.md)" },
	{ "calib", "area_model", WEFT_CFG_STRING, "calibration/maven_area.model", "", 0, 0, NULL,
	  "the tile's area is this model's fit to [calib] data, at 65 nm scaled to tech.node_nm "
	  "(one component per term); empty: the maven_* rows of tech.area_table (datapath only, "
	  "an underestimate)" },
	{ "calib", "cycle_model", WEFT_CFG_STRING, "calibration/maven_cycle.model", "", 0, 0, NULL,
	  "cycle-time model fitted to [calib] data, used when tile.clock_mhz = 0" },
	{ "calib", "cycle_time", WEFT_CFG_ENUM, "table", "", 0, 0, "table|fit",
	  "with tile.clock_mhz = 0: table = the data's cycle time when the tile is one of its points "
	  "(by name), else the fit's prediction; fit = always the prediction (smooth in sweeps)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static const struct weft_event_def vt_events[VT_EV_COUNT] = {
	{ "maven_cp_inst", WEFT_CAT_FDS, "scalar instruction", "instruction fetched and decoded by a "
	  "vector core's control processor" },
	{ "maven_viu_issue", WEFT_CAT_FDS, "vector instruction", "vector instruction issued by the "
	  "vector issue unit (a VT fragment's instruction counts once)" },
	{ "maven_srf_read", WEFT_CAT_RF, "32-bit operand", "scalar register read (CP, MIMD)" },
	{ "maven_srf_write", WEFT_CAT_RF, "32-bit operand", "scalar register written (CP, MIMD)" },
	{ "maven_vrf_read", WEFT_CAT_RF, "32-bit element operand", "vector register element read "
	  "(per active uT)" },
	{ "maven_vrf_write", WEFT_CAT_RF, "32-bit element operand", "vector register element written "
	  "(per active uT)" },
	{ "maven_pvfb_op", WEFT_CAT_BUFFERS, "fragment", "fragment dispatched with others pending in "
	  "the PVFB (push and pop of one entry)" },
	{ "int_alu", WEFT_CAT_COMP, "thread op", "integer add/logic/shift/compare/mov/cvt" },
	{ "int_mul", WEFT_CAT_COMP, "thread op", "32-bit integer multiply" },
	{ "int_div", WEFT_CAT_COMP, "thread op", "integer div/rem" },
	{ "fp32_add", WEFT_CAT_COMP, "thread op", "f32 add, compare, min/max, cvt" },
	{ "fp32_mul", WEFT_CAT_COMP, "thread op", "f32 multiply" },
	{ "fp32_fma", WEFT_CAT_COMP, "thread op", "f32 fma/mad" },
	{ "fp64_op", WEFT_CAT_COMP, "thread op", "f64 add/mul/fma/compare" },
	{ "sfu_op", WEFT_CAT_COMP, "thread op", "divide, square root, transcendental" },
	{ "maven_dcache_access", WEFT_CAT_L1, "access of up to 16 B", "shared data-cache access" },
	{ "dram_access", WEFT_CAT_DRAM, "32 B", "line refills and writebacks / 32" },
	{ "maven_vrf_access_regs", WEFT_CAT_RF, "element access x register", "vector register "
	  "element reads and writes x physical registers of the lane's unified file (an access "
	  "costs more in a larger file; maven65 prices the VRF so)" },
	{ "maven_bvrf_access_regs", WEFT_CAT_RF, "element access x register", "as "
	  "maven_vrf_access_regs for a banked file (+b, +bi)" },
	{ "maven_mimd_inst", WEFT_CAT_FDS, "scalar instruction", "instruction fetched and decoded by "
	  "a MIMD core" },
};

/* ---- params ---- */

static uint32_t cfg_u(const struct weft_config *cfg, const char *sec, const char *key)
{
	int64_t v = weft_config_int(cfg, sec, key);
	return v < 0 ? 0 : (uint32_t)v;
}

int weft_vt_params_from_config(const struct weft_config *cfg, struct vt_params *pp,
			       struct weft_error *err)
{
	memset(pp, 0, sizeof(*pp));
	const char *pat = weft_config_str(cfg, "tile", "pattern");
	pp->pattern = !strcmp(pat, "mimd") ? VT_PAT_MIMD : !strcmp(pat, "vsimd") ? VT_PAT_VSIMD : VT_PAT_VT;
	pp->cores = cfg_u(cfg, "tile", "cores");
	pp->lanes = pp->pattern == VT_PAT_MIMD ? 1 : cfg_u(cfg, "tile", "lanes");
	pp->regs = cfg_u(cfg, "tile", "regs");
	pp->max_vlen = cfg_u(cfg, "tile", "max_vlen");
	pp->min_regs_per_ut = cfg_u(cfg, "tile", "min_regs_per_ut");
	pp->max_regs_per_ut = cfg_u(cfg, "tile", "max_regs_per_ut");
	pp->mimd_regs_per_ut = cfg_u(cfg, "tile", "mimd_regs_per_ut");
	pp->mimd_max_uts = cfg_u(cfg, "tile", "mimd_max_uts");
	pp->banked = weft_config_num(cfg, "tile", "banked") != 0;
	pp->bank_alus = weft_config_num(cfg, "tile", "bank_alus") != 0;
	pp->density = weft_config_num(cfg, "tile", "density_time") != 0;
	pp->coalescer = weft_config_num(cfg, "tile", "coalescer") != 0;
	if (weft_div_policy_parse(weft_config_str(cfg, "tile", "pvfb"), &pp->pvfb))
		pp->pvfb = WEFT_DIV_PVFB_FIFO;
	pp->clock_hz = weft_config_num(cfg, "tile", "clock_mhz") * 1e6;
	pp->arith_units = cfg_u(cfg, "lane", "arith_units");
	pp->banks = cfg_u(cfg, "lane", "banks");
	pp->bank_reads = cfg_u(cfg, "lane", "bank_reads");
	pp->bank_writes = cfg_u(cfg, "lane", "bank_writes");
	pp->vrf_reads = cfg_u(cfg, "lane", "vrf_reads");
	pp->vrf_writes = cfg_u(cfg, "lane", "vrf_writes");
	pp->strip_overhead = cfg_u(cfg, "lane", "strip_overhead");
	static const char *const lat[VT_LAT_COUNT] = { "int", "int_mul", "int_div", "fp_add",
						       "fp_mul", "fp_div", "fp_sqrt", "load" };
	for (int i = 0; i < VT_LAT_COUNT; i++)
		pp->lat[i] = cfg_u(cfg, "latency", lat[i]);
	pp->spawn_cycles = cfg_u(cfg, "mimd", "spawn_cycles");
	pp->join_cycles = cfg_u(cfg, "mimd", "join_cycles");
	pp->item_overhead = cfg_u(cfg, "mimd", "item_overhead");
	pp->dcache.size_bytes = cfg_u(cfg, "mem", "dcache_bytes");
	pp->dcache.line_bytes = cfg_u(cfg, "mem", "dcache_line");
	pp->dcache.assoc = cfg_u(cfg, "mem", "dcache_assoc");
	pp->dcache.banks = cfg_u(cfg, "mem", "dcache_banks");
	pp->dcache.write = WEFT_CACHE_WRITE_BACK;
	pp->dcache.write_fetch = 1;
	pp->mshrs = cfg_u(cfg, "mem", "mshrs");
	pp->mshr_secondary = cfg_u(cfg, "mem", "mshr_secondary");
	pp->refill_cycles = cfg_u(cfg, "mem", "refill_cycles");
	pp->port_bytes = cfg_u(cfg, "mem", "port_bytes");
	pp->icache_kib = cfg_u(cfg, "mem", "icache_kib");
	pp->vicache_kib = cfg_u(cfg, "mem", "vicache_kib");

	/* messages name the file and, for a sweep point, its overrides */
	char where[sizeof(cfg->path) + sizeof(cfg->overrides) + 16];
	snprintf(where, sizeof(where), "%s%s%s%s", cfg->path[0] ? cfg->path : "config",
		 cfg->overrides[0] ? " (--set " : "", cfg->overrides, cfg->overrides[0] ? ")" : "");
	if (!pp->cores || !pp->lanes || !pp->regs || !pp->mshrs || !pp->arith_units || !pp->banks ||
	    !pp->port_bytes || !pp->mimd_regs_per_ut || !pp->vrf_reads ||
	    !pp->vrf_writes || !pp->bank_reads || !pp->bank_writes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: a [tile]/[lane]/[mem] value the vt model divides by is 0 (is "
				      "the config's [model] name = vt?)", where);
	if (pp->density && (pp->pattern != VT_PAT_VT || pp->lanes != 1))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: tile.density_time (+d) needs pattern = vt on single-lane cores "
				      "(lanes = 1, a c4v1 tile); this config has pattern %s, lanes %u",
				      where, pat, pp->lanes);
	if (pp->coalescer && (pp->pattern != VT_PAT_VT || pp->lanes < 2))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: tile.coalescer (+mc) needs pattern = vt with several lanes "
				      "(a c1v4 tile); this config has pattern %s, lanes %u",
				      where, pat, pp->lanes);
	if (pp->bank_alus && !pp->banked && pp->pattern != VT_PAT_MIMD)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: tile.bank_alus (+bi) needs tile.banked = true: the integer ALUs "
				      "are per bank of the banked VRF (+bi implies +b)", where);
	if (pp->min_regs_per_ut > pp->max_regs_per_ut)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: tile.min_regs_per_ut = %u exceeds tile.max_regs_per_ut = %u",
				      where, pp->min_regs_per_ut, pp->max_regs_per_ut);
	return 0;
}

/* ---- ops ---- */

static void vt_free(void *state)
{
	struct vt_state *s = state;
	if (!s)
		return;
	if (s->dc.tag)
		weft_cache_free(&s->dc);
	weft_vt_prog_free(&s->vp);
	weft_group_prog_free(&s->gp);
	weft_vt_carry_free(s);
	weft_vt_accs_free(&s->acc);
	free(s->ls.slot_time);
	free(s->ls.slot_read);
	free(s->ls.once_seen);
	free(s->ls.once_read);
	free(s->tid_read);
	free(s->tid_n);
	free(s->tid_sum);
	free(s->tid_scratch);
	free(s->units);
	free(s->appvl);
	weft_launch_results_free(s->launches, s->nlaunches);
	free(s);
}

static uint32_t mimd_uts(const struct vt_params *pp)
{
	uint32_t u = pp->regs / pp->mimd_regs_per_ut;
	if (u > pp->mimd_max_uts)
		u = pp->mimd_max_uts;
	return u ? u : 1;
}

static int vt_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	*state = NULL;
	struct vt_state *s = calloc(1, sizeof(*s));
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the vt model");
	int rc = weft_vt_params_from_config(cfg, &s->pp, err);
	if (!rc)
		rc = weft_vt_calib_init(cfg, &s->pp, &s->calib, err);
	if (!rc) {
		rc = weft_cache_init(&s->dc, &s->pp.dcache, err);
		if (rc)
			weft_error_prefix(err, "%s: [mem] dcache_*: ", cfg->path[0] ? cfg->path : "config");
	}
	if (!rc) {
		s->uts_per_core = mimd_uts(&s->pp);
		s->explain = cfg->explain;
		s->ls.slot_time = calloc((size_t)s->pp.cores * s->uts_per_core, sizeof(double));
		s->ls.slot_read = calloc((size_t)s->pp.cores * s->uts_per_core, sizeof(uint64_t));
		s->ls.once_seen = calloc((size_t)s->pp.cores * s->uts_per_core, sizeof(double));
		s->ls.once_read = calloc((size_t)s->pp.cores * s->uts_per_core, sizeof(double));
		if (!s->ls.slot_time || !s->ls.slot_read || !s->ls.once_seen || !s->ls.once_read)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the vt model");
	}
	if (rc) {
		vt_free(s);
		return rc;
	}
	*state = s;
	return 0;
}

static int vt_begin_launch(void *state, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct vt_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	const struct weft_program *p = L->program;
	s->aligned = sample && sample->warm && sample->kind != WEFT_SAMPLE_ALL;
	/* the static tables depend on the program alone: launches of one
	 * kernel share its program in the trace (trace.h), so a run of
	 * launches (dither's diagonals, bfs's levels) builds them once */
	if (p != s->p || !s->vp.pc) {
		s->p = p;
		s->vp_grid_ones = -1;
		weft_vt_prog_free(&s->vp);
		weft_group_prog_free(&s->gp);
		int rc = weft_vt_prog_build(p, &s->vp, err);
		if (!rc)
			rc = weft_group_prog_init(&s->gp, p, err);
		if (rc) {
			s->p = NULL;
			weft_vt_prog_free(&s->vp);
			weft_error_prefix(err, "vt model, launch %u (kernel %s): ", launch, p->kernel);
			return rc;
		}
	}
	/* MIMD: which loads every CTA's same thread repeats (their first
	 * miss is the launch's, vt_replay.c) depends on the grid */
	int ones = (L->grid.x == 1) | (L->grid.y == 1) << 1 | (L->grid.z == 1) << 2;
	if (s->pp.pattern == VT_PAT_MIMD && ones != s->vp_grid_ones) {
		const uint32_t nctaid[3] = { L->grid.x, L->grid.y, L->grid.z };
		int rc = weft_vt_prog_launch_loads(p, nctaid, &s->vp, err);
		if (rc) {
			weft_error_prefix(err, "vt model, launch %u (kernel %s): ", launch, p->kernel);
			return rc;
		}
		s->vp_grid_ones = ones;
	}
	s->grid[0] = L->grid.x;
	s->grid[1] = L->grid.y;
	s->grid[2] = L->grid.z;
	(void)weft_vt_grid_place(s->grid, 0, &s->nplaces);
	s->launch_threads = (uint64_t)L->nctas * L->threads_per_cta;
	s->threads_per_cta = L->threads_per_cta;
	s->nctas = L->nctas;
	s->tail_padding = 0;
	s->tail_known = 0;
	s->strip_n = 0;
	s->cur_warm = s->strip_warm = s->warming = 0;
	s->last_cta = -1;
	s->regs_per_ut = weft_vt_regs_per_ut(&s->pp, s->vp.live_words);
	s->hvl = weft_vt_hvl(&s->pp, s->regs_per_ut);
	s->strip_cap = s->hvl;
	double *slots = s->ls.slot_time, *seen = s->ls.once_seen, *once = s->ls.once_read;
	uint64_t *read = s->ls.slot_read;
	memset(&s->ls, 0, sizeof(s->ls));
	s->ls.slot_time = slots;
	s->ls.slot_read = read;
	s->ls.once_seen = seen;
	s->ls.once_read = once;
	memset(slots, 0, sizeof(double) * s->pp.cores * s->uts_per_core);
	memset(read, 0, sizeof(uint64_t) * s->pp.cores * s->uts_per_core);
	memset(seen, 0, sizeof(double) * s->pp.cores * s->uts_per_core);
	memset(once, 0, sizeof(double) * s->pp.cores * s->uts_per_core);
	weft_cache_reset_stats(&s->dc);
	if (sample && sample->kind != WEFT_SAMPLE_ALL && L->nctas) {
		/* a sample may not read the launch's last CTA, whose grid padding
		 * the expansion needs (vt_end_launch): decode it now */
		struct weft_cta_trace c;
		weft_cta_trace_init(&c);
		int rc = weft_trace_read_cta(t, launch, L->nctas - 1, &c, err);
		if (!rc) {
			s->tail_padding = weft_vt_padding(s, &c);
			s->tail_known = 1;
		}
		weft_cta_trace_free(&c);
		if (rc) {
			weft_error_prefix(err, "vt model, launch %u (kernel %s), its last CTA's grid padding: ",
					  launch, p->kernel);
			return rc;
		}
	}
	return 0;
}

static int vt_consume_cta(void *state, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct vt_state *s = state;
	s->ls.ctas++;
	return weft_vt_cta(s, c, err);
}

static int vt_warm_cta(void *state, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_vt_warm_cta(state, c, err);
}

static double pct(double part, double n)
{
	return n > 0 ? 100.0 * part / n : 0;
}

/* --explain: how the launch's kernel became CP, vector and uT work. */
static int vt_explain(const struct vt_state *s, struct weft_launch_result *r, uint64_t threads,
		      struct weft_error *err)
{
	static const char *const units[VT_U_COUNT] = { "arith", "int", "load", "store", "-" };
	const struct vt_params *pp = &s->pp;
	const struct weft_program *p = s->p;
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_printf(&b, "application vector: %llu uTs (threads, less %llu of grid padding)\n",
			 (unsigned long long)threads, (unsigned long long)s->ls.padding_threads);
	if (pp->pattern != VT_PAT_MIMD)
		weft_sbuf_puts(&b, s->vp.cta_scope ? "strips stay within a CTA (the kernel has a barrier "
						     "or shared memory)\n"
						   : "strips run across CTA boundaries (no barrier, no "
						     "shared memory)\n");
	if (pp->pattern == VT_PAT_MIMD) {
		weft_sbuf_printf(&b, "MIMD: %u cores x %u uTs (regs %u / %u per uT, at most %u); every uT "
				 "executes every instruction\n", pp->cores, s->uts_per_core, pp->regs,
				 pp->mimd_regs_per_ut, pp->mimd_max_uts);
	} else {
		uint64_t raw = (uint64_t)pp->lanes * pp->regs / s->regs_per_ut;
		weft_sbuf_printf(&b, "registers per uT: %u live -> %u (clamped to %u..%u); HVL = %u lanes x "
				 "%u regs / %u = %llu, capped at %u: %u\n", s->vp.live_words, s->regs_per_ut,
				 pp->min_regs_per_ut, pp->max_regs_per_ut, pp->lanes, pp->regs,
				 s->regs_per_ut, (unsigned long long)raw, pp->max_vlen, s->hvl);
		weft_sbuf_puts(&b, "per instruction (static kind; in VT a fragment that is not the whole "
				   "vector runs hoisted work as uT work):\n");
		char text[160];
		for (uint32_t pc = 0; pc < p->ninsts; pc++) {
			const struct vt_pcinfo *pi = &s->vp.pc[pc];
			weft_program_format_inst(p, pc, text, sizeof(text));
			weft_sbuf_printf(&b, "  %4u B%-3u %-18s %-5s %s%s\n", pc, p->block_of[pc],
					 weft_vt_kind_names[pi->kind], units[pi->unit], text,
					 pi->dep_next ? "   (next reads it)" : "");
		}
	}
	return weft_launch_result_explain(r, r->launch, &b, err);
}

static int vt_end_launch(void *state, struct weft_trace *t, uint32_t launch,
			 const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct vt_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	int rc = weft_vt_flush(s, err);
	if (rc) {
		weft_error_prefix(err, "vt model, launch %u (kernel %s): ", launch, L->program->kernel);
		return rc;
	}
	const struct vt_launch *ls = &s->ls;
	double f = ls->ctas ? (double)L->nctas / ls->ctas : 1;
	/* vector tiles: the cycles and events of a sample expand by the
	 * application vector, the working threads (the launch's, less its
	 * last CTA's grid padding, over those read, less the padding read):
	 * the CTAs' ratio expanded a sample without the last CTA as if every
	 * CTA had no padding, and one with it as if every CTA had the last
	 * one's (hotspot, vsimd-c4v1r32: 0.09% high / 0.3% low). MIMD: the
	 * core time is estimated per slot (mimd_sampled_core) */
	double fw = weft_vt_work_factor(s, L->nctas, L->threads_per_cta);
	double cpi[VT_C_COUNT];
	double cycles = weft_vt_launch_cycles(s, cpi);
	struct weft_launch_result *r;
	rc = weft_launch_result_push(&s->launches, &s->nlaunches, &s->launches_cap, VT_EV_COUNT,
					 &r, err);
	if (rc)
		return rc;
	double *av = realloc(s->appvl, sizeof(double) * s->nlaunches);
	if (!av) {
		weft_launch_result_pop(s->launches, &s->nlaunches);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for launch results");
	}
	s->appvl = av;
	/* the application vector: the launch's threads less the grid padding
	 * (found in the last CTA only, so not scaled by a sample) */
	s->appvl[s->nlaunches - 1] = (double)L->nctas * L->threads_per_cta - (double)ls->padding_threads;
	r->launch = launch;
	snprintf(r->kernel, sizeof(r->kernel), "%s", L->program->kernel ? L->program->kernel : "?");
	r->cycles = cycles * fw;
	r->thread_insts = (uint64_t)llround(ls->thread_insts * f);
	for (int i = 0; i < VT_C_COUNT; i++)
		weft_cpi_add(&r->cpi, weft_vt_cpi_names[i], cpi[i] * fw);
	snprintf(r->limiter, sizeof(r->limiter), "%s", weft_cpi_largest(&r->cpi));
	for (int i = 0; i < VT_EV_COUNT; i++)
		r->events[i] = ls->ev[i] * fw;
	/* the VRF's accesses weighted by the registers of the file they access */
	r->events[s->pp.banked ? VT_EV_BVRF_REGS : VT_EV_VRF_REGS] =
		(r->events[VT_EV_VRF_READ] + r->events[VT_EV_VRF_WRITE]) * s->pp.regs;
	for (int i = 0; i < VT_EV_COUNT; i++)
		s->total_ev[i] += r->events[i];
	struct weft_stat *st = r->stats;
	uint32_t *ns = &r->nstats;
	if (s->pp.pattern == VT_PAT_MIMD) {
		weft_stat_add(st, ns, "uts_per_core", s->uts_per_core, "");
		uint64_t all = 0, hoistable = ls->kind_dyn[VT_K_CP] + ls->kind_dyn[VT_K_CP_LOAD];
		for (int k = 0; k < VT_K_COUNT; k++)
			all += ls->kind_dyn[k];
		weft_stat_add(st, ns, "redundant_share", pct((double)hoistable, (double)all), "%");
	} else {
		weft_stat_add(st, ns, "live_regs_per_ut", s->vp.live_words, "");
		weft_stat_add(st, ns, "regs_per_ut", s->regs_per_ut, "");
		weft_stat_add(st, ns, "hvl", s->hvl, "uTs");
		weft_stat_add(st, ns, "hvl_uncapped", (double)s->pp.lanes * s->pp.regs / s->regs_per_ut,
			      "uTs");
		weft_stat_add(st, ns, "strips", ls->strips * f, "");
		weft_stat_add(st, ns, "partial_strips", ls->partial_strips * f, "");
		weft_stat_add(st, ns, "cross_cta_strips", ls->cross_cta_strips * f, "");
		uint64_t all = 0, hoisted = 0;
		for (int k = 0; k < VT_K_COUNT; k++)
			all += ls->kind_dyn[k];
		for (int k = VT_K_CP; k <= VT_K_VSTRIDE; k++)
			hoisted += ls->kind_dyn[k];
		weft_stat_add(st, ns, "hoisted_share", pct((double)hoisted, (double)all), "%");
		weft_stat_add(st, ns, "cp_insts", ls->cp_insts * f, "");
		weft_stat_add(st, ns, "vmem_unit_stride", ls->vmem_ops[0] * f, "");
		weft_stat_add(st, ns, "vmem_strided", ls->vmem_ops[1] * f, "");
		weft_stat_add(st, ns, s->pp.pattern == VT_PAT_VT ? "ut_mem_ops" : "vmem_indexed",
			      ls->vmem_ops[2] * f, "");
		weft_stat_add(st, ns, "ut_insts_issued", ls->ut_insts_issued * f, "");
		weft_stat_add(st, ns, "active_uts_per_ut_inst",
			      ls->ut_insts_issued ? (double)ls->ut_active / ls->ut_insts_issued : 0, "");
		static const char *const bk[4] = { "active_1_25", "active_26_50", "active_51_75",
						   "active_76_100" };
		for (int i = 0; i < 4; i++)
			weft_stat_add(st, ns, bk[i], pct((double)ls->bucket[i], (double)ls->ut_insts_issued),
				      "%");
		if (s->pp.pattern == VT_PAT_VT)
			weft_stat_add(st, ns, "fragments", ls->fragments * f, "");
		if (s->pp.banked)
			weft_stat_add(st, ns, "bank_conflict_cycles", ls->bank_conflicts * f, "");
		if (s->pp.coalescer)
			weft_stat_add(st, ns, "coalesced_accesses", ls->coalesced_saved * f, "");
	}
	weft_stat_add(st, ns, "app_vector_length", s->appvl[s->nlaunches - 1], "uTs");
	weft_stat_add(st, ns, "padding_threads", (double)ls->padding_threads, "");
	weft_stat_add(st, ns, "dcache_accesses", ls->dcache_accesses * f, "");
	weft_stat_add(st, ns, "dcache_miss_rate", pct((double)ls->misses, (double)ls->dcache_accesses), "%");
	if (s->pp.pattern != VT_PAT_MIMD)
		weft_stat_add(st, ns, "mshr_secondary_overflows", ls->secondary_overflows * f, "");
	weft_stat_add(st, ns, "ctas_read", ls->ctas, "");
	if (s->explain) {
		int e = vt_explain(s, r, s->launch_threads - ls->padding_threads, err);
		if (e)
			return e;
	}
	s->total_cycles += r->cycles;
	s->total_insts += r->thread_insts;
	for (int i = 0; i < 4; i++)
		s->tot_bucket[i] += ls->bucket[i];
	s->tot_ut_issued += ls->ut_insts_issued;
	s->tot_ut_active += ls->ut_active;
	return 0;
}

/* The single-config path's split of a CTA (weft_trace_for_each_cta_prep):
 * the strips within it, their counts, work and data-cache accesses, are
 * built where it was decoded; the in-order replay runs their accesses
 * through the data cache and times them (vt.h weft_vt_prep_cta). */
static int vt_prep_cta(void *state, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	return weft_vt_prep_cta(state, c, out, err);
}

static void vt_prep_release(void *out)
{
	weft_vt_prep_free(out);
}

static int vt_use_cta(void *state, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	struct vt_state *s = state;
	s->ls.ctas++;
	return weft_vt_cta_prep(s, c, prepared, err);
}

static int vt_warm_use(void *state, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	return weft_vt_warm_cta_prep(state, c, prepared, err);
}

/* keep: a prepared CTA is rebuilt whole for the launch it prepares
 * (vt_replay.c prep_cta; its iterator initialised per strip), so the walk
 * keeps the results from launch to launch (gaussian default size, -j 2:
 * page faults 7706 -> 977) */
static const struct weft_cta_prep vt_prep = { sizeof(struct vt_prep), vt_prep_cta, vt_prep_release, NULL, 1 };

static int vt_prep_cta_compact(void *state, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	return weft_vt_prep_cta_compact(state, c, out, err);
}

/* A compact preparation's estimated bytes for a CTA of L: every access
 * of its uTs as a data-cache access (8 + 1 bytes; a coalesced strip has
 * fewer), a struct vt_strip per strip, and the traces of the uTs outside
 * the whole strips (at most 2 (HVL - 1), at the CTA's average per uT:
 * 9 bytes an access, 4 a path block, 1 a guard). */
static uint64_t vt_prep_bytes(const void *state, const struct weft_trace_launch *L)
{
	const struct vt_state *s = state;
	if (!L->nctas || !L->threads_per_cta)
		return 0;
	double acc = (double)L->mem_accesses / L->nctas;
	double per_ut = (acc * 9 + (double)L->stream_bytes[0] / L->nctas * 4 + (double)L->stream_bytes[1] / L->nctas * 8) /
			L->threads_per_cta + sizeof(struct weft_thread_trace) + 1;
	double hvl = s->hvl ? s->hvl : 1;
	double b = acc * 9 + ((double)L->threads_per_cta / hvl + 1) * sizeof(struct vt_strip) +
		   2 * hvl * per_ut;
	return b > 1e15 ? (uint64_t)1e15 : (uint64_t)b;
}

/* The compact one: vector cores, where the in-order replay takes every
 * whole strip prepared, which it does when strips start where the
 * preparation puts them (vt_replay.c vector_cta): a full replay, a
 * warmed sample (aligned), strips kept in their CTA, or CTAs of whole
 * strips (a strip after a gap starts at the CTA's first uT). */
static const struct weft_cta_prep vt_prep_compact = { sizeof(struct vt_prep), vt_prep_cta_compact,
						      vt_prep_release, vt_prep_bytes, 1 };

static const struct weft_cta_prep *vt_prep_for(const struct vt_state *s, const struct weft_cta_sample *sample)
{
	if (s->pp.pattern == VT_PAT_MIMD)
		return &vt_prep; /* a uT's whole trace is timed in order */
	int full = !sample || sample->kind == WEFT_SAMPLE_ALL;
	if (full || s->aligned || s->vp.cta_scope || (s->hvl && s->threads_per_cta % s->hvl == 0))
		return &vt_prep_compact;
	return &vt_prep;
}

static int vt_consume(void *state, struct weft_trace *t, uint32_t launch,
		      const struct weft_cta_sample *sample, struct weft_error *err)
{
	int rc = vt_begin_launch(state, t, launch, sample, err);
	if (rc < 0)
		return rc;
	/* two threads: the decoder thread decodes and builds 3 of 5 whole
	 * strips, the calling thread builds the other 2 and times them all
	 * (sgemm at large size, vt-c4v1r128+bi: building them all on the
	 * decoder thread took 81% of the CPU time, perf; docs/estimate.md
	 * "Parallel replay") */
	struct vt_state *s = state;
	unsigned jobs = weft_trace_jobs(t) ? weft_trace_jobs(t) : weft_pool_jobs(0);
	s->prep_share = jobs == 2 ? 3 : 5;
	rc = weft_trace_for_each_cta_prep_warm(t, launch, sample, 0, vt_prep_for(state, sample), vt_use_cta, vt_warm_use,
					       state, err);
	if (rc) {
		const struct weft_trace_launch *L = weft_trace_launch(t, launch);
		weft_error_prefix(err, "vt model, launch %u (kernel %s): ", launch, L->program->kernel);
		return rc;
	}
	return vt_end_launch(state, t, launch, sample, err);
}

/* Area components: with [calib] area_model (the default) the fitted area
 * model's terms, priced by their coefficients (vt_calib.c); without it
 * the maven_* rows of the area table (data/area/components.csv: Aladdin
 * datapath areas and an SRAM density, an underestimate). */
static int vt_components(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			 struct weft_error *err)
{
	const struct vt_state *s = state;
	const struct vt_params *pp = &s->pp;
	if (s->calib.area_fit) {
		if (max < s->calib.ncomp)
			return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need %u",
					      max, s->calib.ncomp);
		memcpy(out, s->calib.comp, sizeof(out[0]) * s->calib.ncomp);
		*n = s->calib.ncomp;
		return 0;
	}
	struct weft_component c[8];
	uint32_t k = 0;
	int vec = pp->pattern != VT_PAT_MIMD;
	uint32_t nlanes = vec ? pp->cores * pp->lanes : 0;
	double viu = pp->pattern == VT_PAT_VT ? pp->cores : 0;
	weft_component_set(&c[k++], "maven_sram_kib",
			   pp->dcache.size_bytes / 1024.0 + (double)pp->icache_kib * pp->cores +
				   (double)pp->vicache_kib * viu,
			   "data cache %g KiB + %u x %u KiB instruction + %g x %u KiB vector-instruction "
			   "caches", pp->dcache.size_bytes / 1024.0, pp->cores, pp->icache_kib, viu,
			   pp->vicache_kib);
	weft_component_set(&c[k++], "maven_scalar_core", pp->cores,
			   vec ? "cores (one control processor each)" : "MIMD cores");
	weft_component_set(&c[k++], "maven_reg",
			   vec ? (double)nlanes * pp->regs + 32.0 * pp->cores : (double)pp->cores * pp->regs,
			   vec ? "lanes x regs + 32 per control processor" : "cores x regs");
	weft_component_set(&c[k++], "maven_long_fu_set", 4,
			   "4 sets of long-latency units per tile, every tile (Lee et al. TOCS 2013)");
	weft_component_set(&c[k++], "maven_simple_alu",
			   vec ? (double)nlanes * (pp->arith_units + (pp->bank_alus ? pp->banks : 0) + 1) : 0,
			   "lanes x (arith_units + bank ALUs + address unit)");
	weft_component_set(&c[k++], "maven_pvfb_entry",
			   pp->pattern == VT_PAT_VT ? (double)pp->cores * pp->max_vlen : 0,
			   "VT cores x max_vlen fragments");
	weft_component_set(&c[k++], "maven_coalescer_cmp",
			   pp->coalescer ? (double)pp->lanes * (pp->lanes - 1) / 2 : 0,
			   "lanes x (lanes - 1) / 2 block comparators");
	if (max < k)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need %u", max, k);
	memcpy(out, c, sizeof(c[0]) * k);
	*n = k;
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int vt_finish(void *state, struct weft_model_result *res, struct weft_error *err)
{
	struct vt_state *s = state;
	uint32_t nl = s->nlaunches;
	double q[5] = { 0 };
	if (nl) {
		double *v = malloc(sizeof(double) * nl);
		if (!v)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the vt results");
		memcpy(v, s->appvl, sizeof(double) * nl);
		qsort(v, nl, sizeof(double), cmp_d);
		for (int i = 0; i < 5; i++)
			q[i] = v[(size_t)((nl - 1) * i / 4.0 + 0.5)];
		free(v);
	}
	int rc = weft_model_result_take(res, s->pp.clock_hz, s->total_cycles, s->total_insts, s->total_ev,
					VT_EV_COUNT, &s->launches, &s->nlaunches, &s->launches_cap, err);
	if (rc)
		return rc;
	rc = vt_components(s, res->components, WEFT_MAX_COMPONENTS, &res->ncomponents, err);
	if (rc)
		return rc;
	struct weft_stat *st = res->stats;
	uint32_t *ns = &res->nstats;
	weft_stat_add(st, ns, "cores", s->pp.cores, "");
	weft_stat_add(st, ns, "cycle_time_ns", s->calib.cycle_ns, "ns");
	weft_stat_add(st, ns, "cycle_time_fitted", s->calib.cycle_from == VT_CYCLE_FIT, "");
	if (s->pp.pattern == VT_PAT_MIMD) {
		weft_stat_add(st, ns, "uts_per_core", s->uts_per_core, "");
	} else {
		weft_stat_add(st, ns, "lanes", s->pp.lanes, "");
		weft_stat_add(st, ns, "active_uts_per_ut_inst",
			      s->tot_ut_issued ? (double)s->tot_ut_active / s->tot_ut_issued : 0, "");
		static const char *const bk[4] = { "active_1_25", "active_26_50", "active_51_75",
						   "active_76_100" };
		for (int i = 0; i < 4; i++)
			weft_stat_add(st, ns, bk[i], pct((double)s->tot_bucket[i], (double)s->tot_ut_issued),
				      "%");
	}
	static const char *const qn[5] = { "app_vl_min", "app_vl_q1", "app_vl_median", "app_vl_q3",
					   "app_vl_max" };
	for (int i = 0; i < 5; i++)
		weft_stat_add(st, ns, qn[i], q[i], "uTs");
	return 0;
}

const struct weft_model weft_model_vt = {
	.name = "vt",
	.description = "Maven-family tile (Lee et al., TOCS 2013): MIMD, vector-SIMD or vector-thread "
		       "cores, stripmining, CP hoisting, PVFB, banked VRF, coalescer, shared D-cache",
	.keys = vt_keys,
	.events = vt_events,
	.nevents = VT_EV_COUNT,
	.init = vt_init,
	.consume_launch = vt_consume,
	.finish = vt_finish,
	.free = vt_free,
	.components = vt_components,
	.begin_launch = vt_begin_launch,
	.consume_cta = vt_consume_cta,
	.end_launch = vt_end_launch,
	.warm_cta = vt_warm_cta,
};
