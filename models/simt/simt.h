/*
 * simt.h - internals of the SIMT streaming-multiprocessor model (simt.c has
 * the equations and their sources; docs/models/simt.md explains them with
 * worked examples).
 *
 * Split by mechanism so each can be tested on hand-computed cases:
 *   simt.c         schema, events, parameters, model ops, per-launch results
 *                  (CPI stack, events, statistics)
 *   simt_mem.c     coalescing into segments, shared-memory bank conflicts
 *   simt_timing.c  registers per thread (liveness), occupancy, lower bounds
 *   simt_stream.c  a CTA's warp streams: each warp's instructions under the
 *                  IPDOM stack with their bank cycles and coalesced segments
 *   simt_pipe.c    per-pc facts: latency class, unit, operand-collector
 *                  register-bank conflicts, events
 *   simt_sm.c      the SMs: resident CTAs, warps, schedulers (GTO / LRR),
 *                  scoreboard, barriers, CTA dispatch, the CPI accounting
 *   simt_memsys.c  the timed memory system: LD/ST unit, L1 with MSHRs, L2
 *                  banks and DRAM channels as FCFS queues
 */
#ifndef WEFT_SIMT_H
#define WEFT_SIMT_H

#include <stdint.h>

#include "models/cache.h"
#include "models/group.h"
#include "models/model.h"

extern const struct weft_model weft_model_simt;

/* Event indices (the order of simt.c's event table). */
enum simt_event {
	SIMT_EV_FETCH = 0, SIMT_EV_SCHED, SIMT_EV_PIPE, SIMT_EV_RF_READ, SIMT_EV_RF_WRITE,
	SIMT_EV_NONREG,
	SIMT_EV_INT_ALU, SIMT_EV_INT_MUL, SIMT_EV_INT_DIV,
	SIMT_EV_FP32_ADD, SIMT_EV_FP32_MUL, SIMT_EV_FP32_FMA, SIMT_EV_FP64, SIMT_EV_SFU,
	SIMT_EV_SHMEM, SIMT_EV_CONST, SIMT_EV_L1, SIMT_EV_L2, SIMT_EV_NOC, SIMT_EV_DRAM,
	SIMT_EV_COUNT
};

/* CPI-stack components, in report order (simt.c names them). Every cycle
 * of every scheduler of every SM is given to exactly one (simt_sm.c). */
enum simt_cpi {
	SIMT_CPI_ISSUE = 0,     /* issued: the lanes that did work */
	SIMT_CPI_DIVERGENCE,    /* issued: the idle lanes' share */
	SIMT_CPI_DEPENDENCY,    /* waiting on an SP result (pipeline + unit latency) */
	SIMT_CPI_SFU,           /* waiting on an SFU/DP/divide result or for the SFU */
	SIMT_CPI_RF_BANK,       /* operand-collector register-bank conflicts */
	SIMT_CPI_PIPELINE,      /* the warp's SP pipeline still busy (initiation interval) */
	SIMT_CPI_LSU,           /* LD/ST unit busy (uncoalesced transactions) */
	SIMT_CPI_SHMEM,         /* shared-memory latency */
	SIMT_CPI_BANK_CONFLICT, /* shared-memory bank conflicts */
	SIMT_CPI_L1,            /* L1 hit latency */
	SIMT_CPI_L2,            /* L2 hit latency */
	SIMT_CPI_DRAM,          /* DRAM latency */
	SIMT_CPI_MSHR,          /* no free L1 MSHR (or merge slot) */
	SIMT_CPI_L2_QUEUE,      /* queueing at the L2 banks */
	SIMT_CPI_DRAM_QUEUE,    /* queueing at the DRAM channels (bandwidth) */
	SIMT_CPI_BARRIER,       /* warps wait at bar.sync for the others */
	SIMT_CPI_IDLE,          /* no warp to issue */
	SIMT_CPI_COUNT
};
extern const char *const weft_simt_cpi_names[SIMT_CPI_COUNT];

/* Latency / initiation-interval classes (GPGPU-Sim's opcode classes). */
enum simt_lat {
	SIMT_LAT_ALU = 0, /* everything else: mov, logic, shifts, setp, cvt, selp, branches */
	SIMT_LAT_INT_ADD, SIMT_LAT_INT_MAX, SIMT_LAT_INT_MUL, SIMT_LAT_INT_MAD, SIMT_LAT_INT_DIV,
	SIMT_LAT_SHFL,
	SIMT_LAT_FP_ADD, SIMT_LAT_FP_MAX, SIMT_LAT_FP_MUL, SIMT_LAT_FP_MAD, SIMT_LAT_FP_DIV,
	SIMT_LAT_DP_ADD, SIMT_LAT_DP_MAX, SIMT_LAT_DP_MUL, SIMT_LAT_DP_MAD, SIMT_LAT_DP_DIV,
	SIMT_LAT_SFU,
	SIMT_LAT_COUNT
};
extern const char *const weft_simt_lat_names[SIMT_LAT_COUNT]; /* config key names */

/* Execution units an instruction is dispatched to. */
enum simt_unit { SIMT_U_SP = 0, SIMT_U_SFU, SIMT_U_LDST, SIMT_U_COUNT };

enum simt_area_basis { SIMT_AREA_FERMI = 0, SIMT_AREA_TESLA };
enum simt_policy { SIMT_SCHED_GTO = 0, SIMT_SCHED_LRR };

#define SIMT_MAX_SCHED 16
#define SIMT_MAX_SLOTS 64

struct simt_params {
	uint32_t num_sm, warp_size, sp_per_sm, schedulers, sfu_units;
	uint32_t max_threads, max_ctas, registers, max_regs_per_thread;
	uint32_t shmem_bytes, shmem_banks;
	double clock_hz;
	enum simt_policy policy;
	int warp_serial;            /* a warp waits for its previous instruction to complete */
	uint32_t pipeline_latency;  /* issue to dependent issue, beyond the unit latency */
	uint32_t rf_banks, rf_read_cycles;
	uint32_t ldst_pass_cycles;  /* LD/ST unit: cycles per pass over the banks */
	uint32_t shmem_latency, l1_latency, l2_latency, dram_latency;
	uint32_t lat[SIMT_LAT_COUNT], init[SIMT_LAT_COUNT];
	int caches;                 /* 0: no caches, global/local hit the banked shared memory */
	struct weft_cache_geom l1, l2;
	uint32_t l1_mshrs, l1_mshr_merge;
	double l2_clock_hz;
	uint32_t l2_port_bytes;     /* bytes per L2 clock per bank */
	double dram_bytes_per_s;
	uint32_t dram_channels;
	uint32_t noc_flit_bytes;
	enum simt_area_basis area_basis;
	/* derived */
	uint32_t lanes_per_sched;   /* sp_per_sm / schedulers */
	uint32_t issue_cycles;      /* R = ceil(warp_size / lanes_per_sched) */
	uint32_t l1_tx_cycles;      /* ceil(l1 line / (4 B x l1 banks)) x ldst_pass_cycles */
	double l2_service;          /* cycles an L2 bank is busy per line */
	double dram_line_cycles;    /* cycles a DRAM channel is busy per line (0: no bound) */
	uint32_t noc_flits;         /* flits per L1-L2 transaction */
};

/* Reads the params from a validated config (WEFT_ERR_INPUT on inconsistent
 * values, e.g. fewer SPs than schedulers). */
int weft_simt_params_from_config(const struct weft_config *cfg, struct simt_params *sp,
			    struct weft_error *err);

/* ---- simt_mem.c ---- */

/* Distinct segments of 2^seg_shift bytes touched by the lanes in mask
 * (an access of `bytes` starting at addr[lane] may touch two). Writes them
 * to segs (room for 2 x 64) in first-touch order; returns the count. */
uint32_t weft_simt_coalesce(const uint64_t *addr, uint64_t mask, uint32_t bytes, uint32_t seg_shift,
		       uint64_t *segs);

/* Shared-memory passes of one warp access: lanes are served in groups of
 * `banks` consecutive lanes (one pass per group when conflict-free); a
 * group costs the largest number of distinct 4-byte words that map to one
 * bank (same word = broadcast). Groups with no lane in mask cost 0.
 * *words (may be NULL) gets the 4-byte words accessed, summed over lanes. */
uint32_t weft_simt_bank_cycles(const uint64_t *addr, uint64_t mask, uint32_t width, uint32_t bytes,
			  uint32_t banks, uint64_t *words);

/* ---- simt_timing.c ---- */

/* Registers per thread: the most simultaneously live 32-bit values in the
 * program (liveness over the CFG; 64-bit registers count 2, predicates 0),
 * at least 1. The caller clamps it to the machine's limits. */
uint32_t weft_simt_live_regs(const struct weft_program *p);

enum simt_occ_limit { SIMT_OCC_THREADS = 0, SIMT_OCC_CTAS, SIMT_OCC_REGS, SIMT_OCC_SHMEM };
extern const char *const weft_simt_occ_names[4];

struct weft_simt_occupancy {
	uint32_t regs_per_thread;   /* after clamping */
	uint32_t warps_per_cta;
	uint32_t by[4];             /* CTAs per SM allowed by each resource */
	uint32_t ctas;              /* resident CTAs per SM = min(by) */
	uint32_t warps;             /* resident warps = ctas x warps_per_cta */
	enum simt_occ_limit limit;  /* the resource that binds (first in order on ties) */
};

/* Occupancy of a launch: threads/CTA, shared bytes/CTA, registers/thread
 * (before clamping). WEFT_ERR_INPUT when one CTA cannot fit at all (more
 * threads or shared memory than an SM has). Registers are clamped to
 * max_regs_per_thread and to what lets one CTA fit (the compiler would
 * spill), so registers alone never make a launch fail. */
int weft_simt_occupancy(const struct simt_params *sp, uint32_t threads_per_cta, uint32_t shmem_per_cta,
		   uint32_t regs_per_thread, struct weft_simt_occupancy *occ, struct weft_error *err);

/* Throughput lower bounds (statistics beside the CPI stack: what each
 * resource alone would need), in the order weft_simt_bound_names lists. */
enum simt_bound {
	SIMT_B_ISSUE = 0, SIMT_B_SFU, SIMT_B_LDST, SIMT_B_L2, SIMT_B_DRAM, SIMT_B_COUNT
};
extern const char *const weft_simt_bound_names[SIMT_B_COUNT];

/* ---- simt_pipe.c: per-pc facts, built once per launch ---- */

struct simt_pc {
	uint8_t cls;         /* enum weft_inst_class */
	uint8_t lat_class;   /* enum simt_lat */
	uint8_t unit;        /* enum simt_unit */
	uint8_t wait_cpi;    /* what a dependent waits in: DEPENDENCY or SFU */
	int8_t comp_ev;      /* SIMT_EV_* of the functional-unit op, or -1 */
	uint8_t rf_reads, rf_writes; /* 32-bit words per thread */
	uint8_t nonreg;      /* source operands that are not registers */
	uint8_t bytes;       /* access bytes per thread */
	uint8_t space;       /* static state space */
	uint8_t is_store, is_atomic, is_barrier, is_ctrl;
	uint32_t latency;    /* issue to dependent issue (pipeline + unit latency) */
	uint32_t occupy;     /* cycles its unit is busy: max(issue cycles, initiation) */
	uint32_t bank_extra; /* operand-collector register-bank conflict cycles */
	uint32_t dep0;       /* its scoreboard registers: deps[dep0 .. dep0 + ndep), */
	uint8_t ndep;        /* the first nusedep its sources, the rest its */
	uint8_t nusedep;     /* destinations (each list without repeats) */
};

/* The latency class of an instruction (GPGPU-Sim's opcode classes; rem
 * counts as a divide). */
enum simt_lat weft_simt_lat_class_of(const struct weft_inst *in, const struct weft_inst_info *ii);
/* Fills pc[0..p->ninsts-1] for a program under sp, and deps (room for
 * 18 x ninsts registers) with each instruction's scoreboard registers. */
void weft_simt_pc_build(const struct simt_params *sp, const struct weft_program *p, struct simt_pc *pc,
		   uint32_t *deps);

/* ---- simt_stream.c: a CTA's warp streams (no timing) ---- */

/* One warp instruction: 16 bytes, since a CTA's streams are what the
 * SIMT replay holds per resident and prepared CTA (issue 16's bounded
 * memory; 24 bytes with the shared part's counts in the record). A memory
 * instruction's side data is in stream->segs from seg0: with a shared
 * part first its words, bank passes and conflict-free passes (one entry,
 * simt_sh_pack), then the global part's nseg 128-B segments. The counts
 * are per warp instruction of at most WEFT_GROUP_MAX_WIDTH (64) lanes of
 * at most 32 bytes each: at most 512 words, bank passes or conflict-free
 * passes (16 bits each), and 2 x 64 segments. */
struct simt_rec {
	uint32_t pc;
	uint32_t seg0;           /* memory: its side data in stream->segs from here */
	uint16_t nseg;           /* global part: how many segments (after the shared word) */
	uint8_t nexec, lanes;    /* lanes executing; lanes doing work (ctrl: issued) */
	uint8_t mem, sh, gl, cnst; /* priced memory access; shared / global part; const/param */
};

/* A shared part's words accessed, bank passes and conflict-free passes
 * (each below 2^16), as one stream->segs entry. */
static inline uint64_t simt_sh_pack(uint32_t words, uint32_t passes, uint32_t base)
{
	return (uint64_t)words | (uint64_t)passes << 16 | (uint64_t)base << 32;
}
static inline uint32_t simt_sh_words(uint64_t v) { return (uint32_t)(v & 0xffff); }
static inline uint32_t simt_sh_passes(uint64_t v) { return (uint32_t)(v >> 16 & 0xffff); }
static inline uint32_t simt_sh_base(uint64_t v) { return (uint32_t)(v >> 32 & 0xffff); }

struct simt_stream {
	uint32_t nw;
	struct simt_rec *rec;    /* warp-major: warp w's records are [woff[w], woff[w+1]) */
	size_t n, cap;
	uint32_t *woff;          /* [nw + 1] */
	uint32_t woff_cap;
	uint64_t *segs;
	size_t nsegs, segcap;
	/* what its records add up to: lanes executing, lanes doing work, and
	 * per thread the register words read and written, the non-register
	 * operands, and the lanes of each functional-unit event (SIMT_EV_*;
	 * the timed machine counts them when the CTA is dispatched, not per
	 * issue: whole numbers, so the sums are the same) */
	uint64_t sum_exec, sum_lanes, sum_rf_reads, sum_rf_writes, sum_nonreg;
	uint64_t sum_comp[SIMT_EV_COUNT];
};

void weft_simt_stream_free(struct simt_stream *st);
/* Copies src into dst (a sweep point takes another point's streams of the
 * same CTA instead of rebuilding them); WEFT_ERR_NOMEM. */
int weft_simt_stream_copy(struct simt_stream *dst, const struct simt_stream *src, struct weft_error *err);
/* Whether two configurations build the same warp streams for every CTA
 * (warp size, shared banks, caches on/off and L1 line). */
int weft_simt_stream_key_equal(const struct simt_params *a, const struct simt_params *b);
/* Builds cta's warp streams into st (warps of sp->warp_size under IPDOM;
 * gp and pc describe the launch's program). */
int weft_simt_stream_build(const struct simt_params *sp, const struct weft_group_prog *gp,
		      const struct simt_pc *pc, const struct weft_cta_trace *cta,
		      struct simt_stream *st, struct weft_error *err);

/* ---- simt_memsys.c / simt_sm.c: the timed machine ---- */

/* Why a cycle is waited for: up to SIMT_WHY_MAX consecutive phases ending
 * at `end`, phase i lasting d[i] cycles and charged to component c[i]
 * (the earliest phase first). A stall [a, b) with b <= end is charged to
 * the phases it overlaps; what lies before the first phase goes to c[0]. */
#define SIMT_WHY_MAX 6
struct simt_why {
	double end;
	float d[SIMT_WHY_MAX];
	uint8_t c[SIMT_WHY_MAX];
	uint8_t n;
};

/* Per-line timing state beside the L1 and L2 tag arrays (cache.h
 * last_slot): when an in-flight fill arrives, and why it takes that long. */
struct simt_line {
	double ready;
	struct simt_why why;     /* of the fill (its phases) */
	uint8_t merges;          /* requests merged into the pending fill */
};

struct simt_mem_stats {
	double l1_tx, l1_reads, l1_read_hits, l1_merges;
	double l2_reads, l2_read_hits, l2_writes, l2_write_hits;
	double dram_bytes, mshr_wait_cycles, mshr_waits;
	double load_lat_sum, loads;  /* global load latency (issue to data) */
};

/* The memory system below the SMs (shared by all SMs): the L2 tags, its
 * per-line fills, bank and channel queues. */
struct simt_below {
	struct weft_cache l2;
	struct simt_line *l2x;   /* [l2 slots] */
	double *bank_free;       /* [l2 banks] */
	double *chan_free;       /* [dram channels] */
	double ev_l2, ev_noc, dram_bytes;
	double l2_busy_max;      /* statistics: busiest bank, busiest channel (cycles) */
	double *bank_busy, *chan_busy;
};

/* A resident warp (the fields the schedulers scan first). */
enum simt_warp_state { SIMT_W_FREE = 0, SIMT_W_READY, SIMT_W_BAR, SIMT_W_DRAIN };
struct simt_warp {
	double dep_end;              /* when the next instruction's operands are ready */
	double last_end;             /* the latest completion so far (last.end) */
	uint8_t state;               /* enum simt_warp_state */
	uint8_t unit;                /* the next instruction's unit (enum simt_unit) */
	uint32_t slot, sched;
	uint32_t pos;                /* its place in its scheduler's list (simt_sched.w) */
	const struct simt_why *dep;  /* what dep_end waits for: a register's, prev or own */
	const struct simt_rec *rec;  /* its stream */
	uint32_t n, i;               /* records, next to issue */
	double *rend;                /* [nregs] scoreboard: when register r is ready */
	struct simt_why *reg;        /* [nregs] and why (reg[r].end == rend[r]) */
	double store_done;           /* its last shared-memory store is written */
	uint64_t age;                /* dispatch order: smaller = older */
	struct simt_why last;        /* the latest completion so far (the drain) */
	struct simt_why prev;        /* the previous instruction's completion (warp_serial) */
	struct simt_why own;         /* a wait of its own (barrier release, dispatch) */
};

/* A resident-CTA slot of an SM. */
enum simt_slot_state { SIMT_SLOT_EMPTY = 0, SIMT_SLOT_RUNNING, SIMT_SLOT_FINISHING };
struct simt_slot {
	struct simt_stream st;
	uint32_t warp0, nw;          /* its warps: sm->warps[warp0 .. warp0 + nw) */
	uint32_t exited, arrived;    /* warps past their last instruction / at the barrier */
	double bar_max;              /* latest barrier arrival */
	double free_at;              /* FINISHING: when its last warp completes */
	uint8_t state;               /* enum simt_slot_state */
};

/* What a scheduler's search reads of the warp at list position j, kept
 * beside the list so the search walks two arrays instead of the warps:
 * code[j] < SIMT_U_COUNT: ready to issue to unit code[j] once its
 * operands are ready at key[j] (its dep_end); SIMT_HOT_DRAIN: draining
 * until key[j] (its last_end); SIMT_HOT_BAR: at a barrier; SIMT_HOT_FREE.
 * simt_sm.c's hot_sync rewrites a warp's entry whenever its state,
 * dep_end, unit or last_end change. */
enum { SIMT_HOT_DRAIN = SIMT_U_COUNT, SIMT_HOT_BAR, SIMT_HOT_FREE };

/* A warp scheduler: its warps (oldest first) and its CPI accounting. */
struct simt_sched {
	uint32_t *w, nw, cap;
	double *key;                 /* [cap] beside w (SIMT_HOT_*) */
	uint8_t *code;               /* [cap] */
	int32_t greedy;              /* GTO: the warp it issued last, -1 none */
	uint32_t rr;                 /* LRR: where the next search starts */
	double t;                    /* its next action (INFINITY: asleep) */
	double acct;                 /* cycles accounted up to here */
	struct simt_why why;         /* what [acct, t) is waiting for */
	uint32_t hpos;               /* position in the machine's heap, UINT32_MAX: none */
	uint32_t id, sm, k;          /* heap id (sm x schedulers + k), its SM, its index there */
	double cpi[SIMT_CPI_COUNT];
};

/* One SM: resident CTAs and warps, schedulers, units, L1 and MSHRs. */
struct simt_sm {
	struct simt_slot slot[SIMT_MAX_SLOTS];
	struct simt_warp *warps;     /* [slots x warps per CTA] */
	struct simt_why *regs;       /* [slots x warps per CTA x nregs] */
	double *rends;               /* [slots x warps per CTA x nregs] */
	uint32_t nwarps_cap;
	size_t regs_cap;
	struct simt_sched sched[SIMT_MAX_SCHED];
	double sp_free[SIMT_MAX_SCHED]; /* each scheduler's SP pipeline */
	double sfu_free, ldst_free;
	uint8_t ldst_cpi;            /* why the LD/ST unit is busy: LSU, BANK_CONFLICT, MSHR */
	struct weft_cache l1;
	struct simt_line *l1x;       /* [l1 slots] */
	double *mshr;                /* min-heap of pending fill times */
	uint32_t nmshr;
	uint32_t nctas;              /* CTAs dispatched to it this launch */
};

/* A heap entry: a scheduler and its key. */
struct simt_hent {
	double t, acct;
	struct simt_sched *S;
	uint32_t id;
};

struct simt_state;

/* Prepares the machine for a launch (begin) and frees per-launch memory. */
int weft_simt_machine_begin(struct simt_state *s, struct weft_error *err);
/* Dispatches one CTA (waiting, in simulated time, for a free slot). With
 * built (its warp streams, built by weft_simt_stream_build from s's
 * params, group program and per-pc facts, e.g. on a decoder thread), the
 * slot takes built's buffers and leaves its old ones in *built; with
 * NULL, the streams are built (or copied from s->stream_src) here. */
int weft_simt_machine_cta(struct simt_state *s, const struct weft_cta_trace *cta,
			  struct simt_stream *built, struct weft_error *err);
/* Runs the launch to its end; *cycles = its duration. */
int weft_simt_machine_finish(struct simt_state *s, double *cycles, struct weft_error *err);

/* How many scheduler-list entries disagree with their warps: a warp whose
 * pos, scheduler, code or key (simt_sched) is not what its state, unit,
 * dep_end and last_end say, or a warp in no list / a free one in a list.
 * 0 whenever control is outside simt_sm.c; for tests. */
uint32_t weft_simt_sched_mismatches(const struct simt_state *s);

/* The timed memory operations of one warp instruction (simt_memsys.c).
 * t: issue time; returns the completion time (data ready for a load,
 * accepted for a store) and fills why with its phases. Advances the SM's
 * LD/ST unit (sm->ldst_free, sm->ldst_why). */
double weft_simt_mem_issue(struct simt_state *s, struct simt_sm *sm, const struct simt_pc *pi,
		      const struct simt_stream *st, const struct simt_rec *r, double t,
		      struct simt_why *why);
int weft_simt_below_init(struct simt_below *b, const struct simt_params *sp, struct weft_error *err);
void weft_simt_below_free(struct simt_below *b);
/* Clears the queues and statistics for a new launch (the L2 keeps its lines). */
void weft_simt_below_reset(struct simt_below *b, const struct simt_params *sp);

/* ---- the model state ---- */

struct simt_launch_stats {
	double warp_insts, thread_insts, lane_insts;
	double mem_insts, shmem_passes, shmem_accesses;
	double barriers;
	double busy[SIMT_B_COUNT];  /* per-resource work (bounds) */
};

struct simt_state {
	struct simt_params sp;
	/* weft_model_run_many: the state whose results this one copies (its
	 * configuration differs only in what the replay does not read); NULL
	 * when it replays itself */
	const struct simt_state *leader;
	/* weft_model_run_many: an earlier state that builds the same warp
	 * streams (weft_simt_stream_key_equal); this one copies the stream of each
	 * CTA it just built instead of regrouping the CTA's threads */
	const struct simt_state *stream_src;
	const struct simt_stream *built; /* the stream of the last CTA consumed */
	uint32_t built_launch, built_cta;
	struct simt_sm *sms;            /* [num_sm] */
	struct simt_below below;
	/* per launch */
	const struct weft_program *p;
	struct weft_group_prog gp;
	struct simt_pc *pc;             /* [ninsts] */
	uint32_t *deps;                 /* [18 x ninsts] scoreboard registers (simt_pc.dep0) */
	struct weft_simt_occupancy occ;
	uint32_t cta_seq;               /* CTAs consumed so far in this launch */
	/* a sampled launch (simt.c sampled_cycles): when each CTA read
	 * finished (done_cap 0: not recorded), sorted at the launch's end */
	double *done_at;
	uint32_t ndone, done_cap;
	/* the event loop (simt_sm.c): schedulers by next action time */
	struct simt_hent *heap;         /* schedulers by (t, acct, id), id = sm x schedulers + k */
	uint32_t nheap;
	double now;                     /* simulated time of the last dispatch */
	double next_free;               /* earliest FINISHING slot's free_at */
	uint32_t rr_sm;                 /* round-robin CTA dispatch */
	/* an issue with l lanes doing work adds [l][0] to the issue and [l][1]
	 * to the divergence component: R x l / warp_size and R x (1 - that),
	 * computed once instead of a divide per issue (the same values) */
	double issue_split[WEFT_GROUP_MAX_WIDTH + 1][2];
	uint64_t age;
	uint32_t nregs;
	double ev[SIMT_EV_COUNT];
	struct simt_launch_stats ls;
	struct simt_mem_stats ms;
	double cpi[SIMT_CPI_COUNT];     /* summed over every scheduler */
	double launch_cycles;
	/* results so far */
	struct weft_launch_result *launches;
	uint32_t nlaunches, launches_cap;
	double total_cycles;
	uint64_t total_insts;
	double total_ev[SIMT_EV_COUNT];
};

#endif
