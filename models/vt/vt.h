/*
 * vt.h - the Maven-family tile model ("vt"): one data-parallel tile of
 * MIMD cores, vector-SIMD cores or vector-thread cores, built from the
 * same components (Lee et al., "Exploring the Tradeoffs between
 * Programmability and Efficiency in Data-Parallel Accelerators", ACM TOCS
 * 2013; docs/models/vt.md has the equations and every assumption).
 *
 * Internal to models/vt/: the parameters read from a config, the static
 * per-program tables (what a vector-thread compiler would hoist to the
 * control processor), the per-launch accumulators, and the mechanisms as
 * small functions the unit tests call on hand-built cases.
 */
#ifndef WEFT_VT_H
#define WEFT_VT_H

#include <stddef.h>
#include <stdint.h>

#include "models/cache.h"
#include "models/config.h"
#include "models/group.h"
#include "models/model.h"

enum vt_pattern { VT_PAT_MIMD = 0, VT_PAT_VSIMD, VT_PAT_VT };

/* Functional-unit latency classes (cycles from issue to a dependent use). */
enum vt_lat { VT_LAT_INT = 0, VT_LAT_INT_MUL, VT_LAT_INT_DIV, VT_LAT_FP_ADD, VT_LAT_FP_MUL,
	      VT_LAT_FP_DIV, VT_LAT_FP_SQRT, VT_LAT_LOAD, VT_LAT_COUNT };

struct vt_params {
	enum vt_pattern pattern;
	uint32_t cores, lanes, regs;      /* regs: per MIMD core or per vector lane */
	uint32_t max_vlen, min_regs_per_ut, max_regs_per_ut;
	uint32_t mimd_regs_per_ut, mimd_max_uts;
	int banked, bank_alus, density, coalescer;
	enum weft_div_policy pvfb;        /* VT; vsimd always WEFT_DIV_PREDICATE */
	double clock_hz;
	uint32_t arith_units, banks, bank_reads, bank_writes, vrf_reads, vrf_writes;
	uint32_t lat[VT_LAT_COUNT];
	uint32_t strip_overhead;          /* CP instructions per stripmine iteration */
	uint32_t spawn_cycles, join_cycles, item_overhead;
	struct weft_cache_geom dcache;
	uint32_t mshrs, mshr_secondary, refill_cycles, port_bytes;
	uint32_t icache_kib, vicache_kib;
};

/* How the control thread of a vector core sees an instruction. */
enum vt_kind {
	VT_K_CP = 0,     /* hoisted: runs once per stripmine on the control processor */
	VT_K_CP_LOAD,    /* hoisted scalar load (uniform address) */
	VT_K_VUNIT,      /* unit-stride vector memory operation */
	VT_K_VSTRIDE,    /* strided vector memory operation */
	VT_K_UT,         /* microthread instruction (vector-fetched / vector arithmetic) */
	VT_K_UT_MEM,     /* microthread memory access (VT) or indexed vector access (vsimd) */
	VT_K_UT_BRANCH,  /* divergent branch: a uT branch (VT) or a flag operation (vsimd) */
	VT_K_COUNT
};
extern const char *const weft_vt_kind_names[VT_K_COUNT];

/* Lane units a uT instruction occupies. */
enum vt_unit { VT_U_ARITH = 0, VT_U_INT, VT_U_LOAD, VT_U_STORE, VT_U_NONE, VT_U_COUNT };

struct vt_pcinfo {
	uint8_t kind;      /* enum vt_kind */
	uint8_t unit;      /* enum vt_unit */
	uint8_t lat;       /* enum vt_lat */
	uint8_t fu;        /* enum weft_fu_op */
	uint8_t reads;     /* vector register sources: registers a non-hoisted
			      instruction defines (hoisted values are CP scalars
			      the lanes receive with the instruction) */
	uint8_t sreads;    /* register sources (CP and MIMD scalar reads) */
	uint8_t writes;    /* registers written */
	uint8_t dep_next;  /* the next instruction of the block reads what this one writes */
	uint8_t is_store;
	uint8_t cta_uni;   /* hoisted (cp, cp_load) and its value or address is
			      uniform over a CTA but not the launch: a strip
			      spanning several CTAs computes it once per CTA */
	uint8_t uni_load;  /* a load from a uniform address (parameters
			      included): it reads nothing a thread owns */
	uint8_t launch_load; /* a load whose address is the same in every CTA
				for the thread of the same index (parameters,
				constants, addresses from tid and launch-uniform
				values): its line's first miss is paid once a
				launch. Set per launch grid by
				weft_vt_prog_launch_loads (0 until then) */
};

/* The static tables of one program: kinds, units, and register pressure.
 * Built with weft_vt_prog_build; regs_per_ut is the liveness estimate. */
struct vt_prog {
	uint32_t ninsts;
	struct vt_pcinfo *pc;
	uint32_t live_words;   /* largest number of 32-bit registers live at once */
	uint32_t kinds[VT_K_COUNT]; /* static count per kind, for tests */
	int cta_scope;         /* the kernel has a CTA barrier or touches shared
				  memory: strips stay within a CTA */
};
int weft_vt_prog_build(const struct weft_program *p, struct vt_prog *vp, struct weft_error *err);
/* Sets vp's launch_load flags for a launch of p on a grid of nctaid[3]
 * CTAs: along a dimension of one CTA, ctaid is 0 (a launch-specific fact
 * the compiled code, and so the rest of vp, does not use). */
int weft_vt_prog_launch_loads(const struct weft_program *p, const uint32_t nctaid[3], struct vt_prog *vp,
			      struct weft_error *err);
void weft_vt_prog_free(struct vt_prog *vp);

/* Registers one microthread needs: live_words clamped to
 * [min_regs_per_ut, max_regs_per_ut]. */
uint32_t weft_vt_regs_per_ut(const struct vt_params *pp, uint32_t live_words);
/* Hardware vector length: lanes x regs / regs_per_ut, capped at max_vlen,
 * at least 1. */
uint32_t weft_vt_hvl(const struct vt_params *pp, uint32_t regs_per_ut);

/* One uT vector instruction on the lanes of a vector core: elements per
 * lane e (the vector length spread over the lanes, or the active uTs under
 * density time); how many cycles its unit is busy and how many VRF bank
 * conflict cycles it adds (banked VRF: an element needing more reads or
 * writes than its bank's ports takes extra cycles in the bank). */
struct vt_vcost {
	double busy;       /* cycles its unit is occupied */
	double conflicts;  /* bank-conflict cycles included in busy */
	double rf_reads, rf_writes; /* element operand accesses */
};
void weft_vt_vinst_cost(const struct vt_params *pp, const struct vt_pcinfo *pi, uint32_t elems,
			struct vt_vcost *out);
/* Elements per lane of a vector instruction over vl uTs whose issue mask
 * has `active` uTs: ceil(vl / lanes), or active with density time. */
uint32_t weft_vt_elems(const struct vt_params *pp, uint32_t vl, uint32_t active);
/* Data-cache accesses of n uT accesses (addresses in uT order, n <= 64)
 * sent lanes at a time: one per access, or with the coalescer one per
 * distinct port_bytes block among the accesses of one cycle. out (NULL or
 * room for n) gets the address of each access made, in order. */
uint32_t weft_vt_coalesce(const struct vt_params *pp, const uint64_t *addr, uint32_t n,
			  uint64_t *out);
/* Cycles one uT instruction takes on a MIMD core that interleaves u uTs
 * in fixed round robin, when the next instruction waits `lat` cycles for
 * it: u x ceil(lat / u) (a uT issues at most every u cycles). */
uint32_t weft_vt_mimd_inst_cycles(uint32_t u, uint32_t lat);

/* CPI components of the vt model (docs/models/vt.md). */
enum vt_cpi { VT_C_CP = 0, VT_C_ISSUE, VT_C_ARITH, VT_C_INT, VT_C_LOAD, VT_C_STORE,
	      VT_C_BANK, VT_C_DEP, VT_C_MEM, VT_C_SPAWN, VT_C_DCACHE, VT_C_IDLE, VT_C_COUNT };
extern const char *const weft_vt_cpi_names[VT_C_COUNT];

enum vt_ev { VT_EV_CP_INST = 0, VT_EV_VIU_ISSUE, VT_EV_SRF_READ, VT_EV_SRF_WRITE,
	     VT_EV_VRF_READ, VT_EV_VRF_WRITE, VT_EV_PVFB, VT_EV_INT_ALU, VT_EV_INT_MUL,
	     VT_EV_INT_DIV, VT_EV_FP32_ADD, VT_EV_FP32_MUL, VT_EV_FP32_FMA, VT_EV_FP64,
	     VT_EV_SFU, VT_EV_DCACHE, VT_EV_DRAM, VT_EV_VRF_REGS, VT_EV_BVRF_REGS, VT_EV_MIMD_INST,
	     VT_EV_COUNT };

/* What the calibration fits give the tile (vt_calib.c). */
#define VT_CALIB_MAX_COMP 20
enum vt_cycle_from { VT_CYCLE_CONFIG = 0, VT_CYCLE_TABLE, VT_CYCLE_FIT };
struct vt_calib {
	int area_fit;                      /* 1: comp[] are the fitted area terms */
	struct weft_component comp[VT_CALIB_MAX_COMP];
	uint32_t ncomp;
	double area_mm2;                   /* the fit's value at 65 nm (without +mc) */
	double area_r2, area_loo_mape;     /* the area fit's R^2 and leave-one-out MAPE (%) */
	enum vt_cycle_from cycle_from;     /* where the clock came from */
	double cycle_ns;                   /* the tile's cycle time at its node */
	double cycle_ns_65;                /* the calibrated cycle time at 65 nm */
	double cycle_fit_ns;               /* the cycle fit's prediction at 65 nm */
	double cycle_loo_mape;             /* the cycle fit's leave-one-out MAPE (%) */
};

/* Per-launch accumulators. */
struct vt_launch {
	double core_time[16];              /* cycles per core */
	double core_cpi[16][VT_C_COUNT];
	double *slot_time;                 /* MIMD: [cores x uts] */
	uint64_t *slot_read;               /* MIMD: [cores x uts] threads read (timed) */
	/* MIMD: [cores x uts] cycles of the misses that a launch pays once (a
	 * load from a launch-uniform address: the first thread to touch the
	 * line misses, every later one hits), of the threads read or warmed
	 * (once_seen) and of the threads read (once_read) */
	double *once_seen, *once_read;
	int by_tid;                        /* MIMD: the vt_state's by-thread-index tables are
					    * zeroed for this launch (on its first thread read) */
	uint64_t ctas, strips, partial_strips, strip_seq, mimd_seq;
	uint64_t cross_cta_strips;         /* strips whose uTs come from several CTAs */
	uint64_t padding_threads;          /* grid padding left out of the application vector */
	uint64_t thread_insts;             /* guard-true thread instructions (the trace's count) */
	uint64_t ut_insts_issued, ut_active; /* uT vector instructions and their active uTs */
	uint64_t bucket[4];                /* issued uT instructions by active share of the HVL */
	uint64_t fragments;                /* fragment dispatches (issued blocks) */
	uint64_t cp_insts, kind_dyn[VT_K_COUNT];
	uint64_t vmem_ops[3];              /* unit-stride, strided, indexed/uT */
	uint64_t dcache_accesses, coalesced_saved, misses, secondary, secondary_overflows;
	uint64_t bank_conflicts;
	double ev[VT_EV_COUNT];
};

#define VT_MAX_CORES 16

/* lines missed in the current strip (vt_replay.c), the first VT_INFLIGHT
 * of them; slot[] finds a line's entry (open addressing, linear probing:
 * entry index + 1, 0 empty; VT_INFLIGHT_SLOTS is twice VT_INFLIGHT so a
 * probe ends at an empty slot) */
#define VT_INFLIGHT 128
#define VT_INFLIGHT_SLOTS 256
struct vt_inflight {
	uint64_t line[VT_INFLIGHT];
	uint32_t acc[VT_INFLIGHT];
	uint32_t n;
	uint8_t slot[VT_INFLIGHT_SLOTS];
};

/* A strip's counts (the fields of struct vt_launch it adds to). */
struct vt_tally {
	uint64_t strips, partial_strips, cross_cta_strips, thread_insts;
	uint64_t ut_insts_issued, ut_active, bucket[4], fragments, cp_insts, kind_dyn[VT_K_COUNT];
	uint64_t vmem_ops[3], coalesced_saved, bank_conflicts;
	double ev[VT_EV_COUNT];
};

/* Data-cache accesses of strips, in order (vt_replay.c acc_push,
 * acc_at). Narrow (the usual case): access i is to hi[key[i] >> 1] << 32
 * | lo[i], a write when key[i] & 1 (5 bytes an access; the accesses of a
 * list fall in a few 4 GiB regions: the global arrays, the CTA's shared
 * region); wide, once a list has more than VT_ACC_REGIONS regions: to
 * addr[i], a write when w[i] (9 bytes). vt_accs_reset empties it. */
#define VT_ACC_REGIONS 128
struct vt_accs {
	uint32_t *lo;
	uint8_t *key;
	uint64_t hi[VT_ACC_REGIONS];
	uint32_t nhi, last;               /* regions; the region of the last access */
	int wide;
	uint64_t *addr;
	uint8_t *w;
	size_t n, cap, wcap;
};

/* What a strip's timing needs besides the data cache (vt_replay.c
 * strip_build): its counts, work per unit, register-file accesses,
 * dependency cycles and its accesses (acc0, nacc in a struct vt_accs). */
struct vt_strip {
	struct vt_tally tl;
	double cp, issue, busy[VT_U_COUNT], reads, writes, dep;
	size_t acc0;
	uint32_t nacc;
};

/* Copies of the thread traces of a strip carried from one CTA into the
 * next (at most HVL - 1 threads; the decoder reuses a CTA's buffers). */
struct vt_carry {
	uint32_t *blocks;
	uint8_t *guards, *spaces;
	uint64_t *addrs;
	size_t cap_blocks, cap_guards, cap_addrs;
};

/* A CTA's strips prepared on a decoder thread (weft_vt_prep_cta): the
 * whole strips of its uTs from `first` on (first + k x hvl, k <
 * nstrips), where the strips would start if the CTAs before it were
 * replayed in order from the launch's first (vp.cta_scope: from its own
 * first uT). The in-order replay takes strip k when a strip does start
 * there, and builds any other strip itself. */
struct vt_prep {
	uint32_t cta, n, hvl, first, nstrips;
	struct vt_strip *strips;
	uint8_t *built;                   /* [nstrips]: strip k built here (compact with
					     vt_state prep_share < 5: some are not) */
	size_t cap;
	struct vt_accs acc;
	struct weft_group_iter it;
	/* compact (weft_vt_prep_cta_compact, trace.h compact): the grid
	 * padding and copies of the traces of the uTs outside the whole
	 * strips (at most 2 (HVL - 1): before `first` and after the last
	 * strip), so that the in-order replay reads nothing of the decoded
	 * CTA; th[t] is valid where have[t] */
	int compact;
	uint32_t pad;                     /* grid padding threads */
	uint64_t pad_insts;               /* and their guard-true instructions */
	struct weft_thread_trace *th;     /* [nthreads] */
	uint8_t *have;                    /* [nthreads] */
	uint32_t th_cap;
	struct vt_carry own;              /* what th points into */
};

struct vt_state {
	struct vt_params pp;
	struct vt_calib calib;
	const struct weft_program *p;
	struct vt_prog vp;
	int vp_grid_ones;                  /* MIMD: the dimensions of one CTA (bits x, y, z) vp's
					      launch_load flags were set for; -1 none */
	struct weft_group_prog gp;
	struct weft_cache dc;
	struct weft_group_iter it;
	struct vt_strip sbuf;              /* the strip replayed in order (vt_replay.c) */
	struct vt_accs acc;                /* and its data-cache accesses */
	struct vt_inflight inflight;
	uint32_t regs_per_ut, hvl, uts_per_core;
	uint64_t launch_threads;           /* nctas x threads_per_cta */
	uint64_t tail_padding;             /* the grid padding of the launch's last CTA: in a
					    * sample read at the launch's start (tail_known),
					    * else once that CTA has been replayed or warmed
					    * (0 before) */
	int tail_known;                    /* a sampled launch: tail_padding was read first */
	uint32_t threads_per_cta, nctas;
	/* the strip being assembled from the application vector: its uTs'
	 * traces, CTA and thread index (vt_replay.c) */
	struct weft_thread_trace strip_th[WEFT_GROUP_MAX_WIDTH];
	uint32_t strip_cta[WEFT_GROUP_MAX_WIDTH], strip_tid[WEFT_GROUP_MAX_WIDTH];
	uint32_t strip_n;
	/* the strip being assembled ends at strip_cap uTs (HVL; less for the
	 * first strip after a gap in a warmed sample, so that strips start
	 * where a full replay starts them: aligned) */
	uint32_t strip_cap;
	int aligned;
	int64_t last_cta;                 /* the CTA consumed last in this launch, -1 none */
	struct vt_carry carry[2];         /* double-buffered: a carry may hold carried uTs */
	int carry_cur;
	/* functional warming (weft_vt_warm_cta): the CTA being fed is only
	 * warmed (cur_warm), the strip being assembled belongs to a warmed
	 * CTA (its first uT's: strip_warm), a warmed strip is running
	 * (warming: data-cache accesses change contents, count nothing) */
	int cur_warm, strip_warm, warming;
	int explain;                      /* fill each launch's explain text */
	/* compact preparations build the whole strips at positions k of CTA
	 * c with (k + c) mod 5 < prep_share (0: all); the in-order replay
	 * builds the others from
	 * copies of their uTs (vt.c vt_consume: 3 with two threads, so that
	 * the decoder thread's share and the calling thread's balance; 5
	 * otherwise). The results are the same for every share. */
	uint32_t prep_share;
	/* MIMD samples: the threads read by their CTA's place in the grid
	 * (weft_vt_grid_place: first, inside or last along each dimension;
	 * nplaces of them) and their index in the CTA (tid, 0..
	 * threads_per_cta - 1): per slot, place and tid how many ([cores x
	 * uts x nplaces x tpc]), per core, place and tid how many and their
	 * cycles less spawn, join and the misses paid once ([cores x nplaces
	 * x tpc]); mimd_sampled_core post-stratifies by place and tid with
	 * them */
	uint32_t grid[3];                  /* the launch's grid (x, y, z) */
	uint32_t nplaces;
	uint32_t *tid_read, *tid_n;
	double *tid_sum;
	size_t tid_cap;                    /* entries tid_read holds */
	double *tid_scratch;               /* mimd_sampled_core's: 5 x nplaces x tpc */
	/* and each read CTA's threads on one core (a unit: their count and
	 * cycles as in tid_sum), for the between-core part of the composite
	 * (mimd_sampled_core) */
	struct vt_read_unit {
		uint64_t cta;
		uint32_t core, place, tid0, n;
		double sum;
	} *units;
	size_t nunits, units_cap;
	struct vt_launch ls;
	/* across launches */
	double total_cycles, total_ev[VT_EV_COUNT];
	uint64_t total_insts;
	double *appvl;                    /* application vector length per launch */
	struct weft_launch_result *launches;
	uint32_t nlaunches, launches_cap;
	uint64_t tot_bucket[4], tot_ut_issued, tot_ut_active, tot_cp, tot_kind[VT_K_COUNT];
};

int weft_vt_params_from_config(const struct weft_config *cfg, struct vt_params *pp,
			       struct weft_error *err);
/* The tile's name in the study's grammar (mimd-c4r32, vt-c4v1r256+bi+2s+d,
 * ...) from the parameters it names; -1 when out does not hold it. */
int weft_vt_tile_name(const struct vt_params *pp, char *out, size_t len);
/* The tile's area and cycle time from the calibration fits ([calib] keys,
 * vt_calib.c): fills c and, when pp->clock_hz is 0 (tile.clock_mhz = 0),
 * sets pp->clock_hz from the calibrated cycle time. */
int weft_vt_calib_init(const struct weft_config *cfg, struct vt_params *pp, struct vt_calib *c,
		       struct weft_error *err);
/* Replays one CTA (vt_replay.c) into s->ls. CTAs come in increasing
 * order; on vector cores the uTs of an incomplete last strip are carried
 * into the next CTA's first strip when that CTA is the next one and the
 * kernel has no CTA barrier or shared memory (vp.cta_scope); otherwise,
 * and at the launch's last CTA (cta + 1 >= nctas), it runs as a partial
 * strip. Grid padding of the last CTA is left out (docs/models/vt.md). */
int weft_vt_cta(struct vt_state *s, const struct weft_cta_trace *c, struct weft_error *err);
/* Functional warming (model.h warm_cta): a CTA outside the sample joins
 * the application vector like a replayed one, but a strip whose first uT
 * is one of its uTs only warms the data cache (weft_cache_warm) and
 * leaves every count, core time and the strip sequence as they were; a
 * strip a sampled CTA starts is timed whole, so strips cross CTA
 * boundaries as in a full replay and each is timed exactly when the CTA
 * of its first uT is in the sample. MIMD: the CTA's threads warm the
 * data cache, nothing counted. */
int weft_vt_warm_cta(struct vt_state *s, const struct weft_cta_trace *c, struct weft_error *err);
/* The strips of CTA c that do not depend on the CTAs before it (struct
 * vt_prep): built from s's launch constants only, so this may run on a
 * decoder thread while the launch is replayed (weft_trace_for_each_cta_
 * prep). A strip that fails to build is left to the in-order replay
 * (which reports its error); WEFT_ERR_NOMEM. */
int weft_vt_prep_cta(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
		     struct weft_error *err);
/* weft_vt_prep_cta, and a compact preparation (struct vt_prep compact):
 * the in-order replay of c (weft_vt_cta_prep, weft_vt_warm_cta_prep)
 * then reads of c only its id and thread count. Vector cores only, and
 * only where the in-order replay takes every whole strip prepared (vt.c
 * vt_consume: a full replay, a warmed sample, strips kept in their CTA,
 * or CTAs of whole strips); the replay of a uT it did not copy fails with
 * WEFT_ERR_INTERNAL. */
int weft_vt_prep_cta_compact(const struct vt_state *s, const struct weft_cta_trace *c, struct vt_prep *pr,
			     struct weft_error *err);
void weft_vt_prep_free(struct vt_prep *pr);
/* A list of data-cache accesses (struct vt_accs): append one (-1 out of
 * memory), read access i back, empty it, free it. */
int weft_vt_acc_push(struct vt_accs *acc, uint64_t addr, int is_write);
uint64_t weft_vt_acc_at(const struct vt_accs *a, size_t i, int *is_write);
void weft_vt_acc_reset(struct vt_accs *acc);
void weft_vt_accs_free(struct vt_accs *a);
/* weft_vt_cta and weft_vt_warm_cta taking the strips pr prepared for c
 * (NULL: none); the results are the same as without. */
int weft_vt_cta_prep(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr,
		     struct weft_error *err);
int weft_vt_warm_cta_prep(struct vt_state *s, const struct weft_cta_trace *c, const struct vt_prep *pr,
			  struct weft_error *err);
/* Runs a strip still being assembled (the launch ended with it), or
 * nothing. */
int weft_vt_flush(struct vt_state *s, struct weft_error *err);
/* Frees the carry buffers. */
void weft_vt_carry_free(struct vt_state *s);
/* What a launch's cycles and events are expanded by (vt_end_launch):
 * its CTAs over those read (nctas CTAs of tpc threads), and for vector
 * tiles in a sample whose last CTA's padding is known (tail_known) its
 * working threads over those read (the padding is not work: expanding
 * by CTAs counted it in every CTA or in none). */
double weft_vt_work_factor(const struct vt_state *s, uint32_t nctas, uint32_t tpc);
/* CTA cta's place in a grid of g[3] CTAs (x fastest), for the MIMD
 * post-strata: along each dimension the first, an inside or the last
 * (two places when it has two CTAs, one when it has one), numbered x
 * fastest; *nplaces gets how many places the grid has (1 to 27). A
 * stencil's CTAs on the grid's edges skip their missing neighbours. */
uint32_t weft_vt_grid_place(const uint32_t g[3], uint64_t cta, uint32_t *nplaces);

/* The grid padding of CTA c (docs/models/vt.md): its trailing quiet
 * threads when c is the launch's last CTA, else 0. */
uint32_t weft_vt_padding(const struct vt_state *s, const struct weft_cta_trace *c);
/* Launch cycles and the averaged CPI stack from s->ls (vt_replay.c). */
double weft_vt_launch_cycles(const struct vt_state *s, double cpi[VT_C_COUNT]);

#endif
