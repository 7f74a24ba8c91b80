/*
 * simt.h - internals of the SIMT streaming-multiprocessor model (simt.c has
 * the equations and their sources; docs/models/simt.md explains them).
 *
 * Split by mechanism so each can be tested on hand-computed cases:
 *   simt.c         schema, events, model ops (init/consume/finish/free)
 *   simt_mem.c     coalescing into segments, shared-memory bank conflicts
 *   simt_timing.c  registers per thread (liveness), occupancy, the lower
 *                  bounds and the limiter
 *   simt_replay.c  per-CTA replay: warps under IPDOM, per-warp scoreboard,
 *                  caches, per-SM busy counters
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
	SIMT_EV_FETCH = 0, SIMT_EV_SCHED, SIMT_EV_RF_READ, SIMT_EV_RF_WRITE,
	SIMT_EV_INT_ALU, SIMT_EV_INT_MUL, SIMT_EV_INT_DIV,
	SIMT_EV_FP32_ADD, SIMT_EV_FP32_MUL, SIMT_EV_FP32_FMA, SIMT_EV_FP64, SIMT_EV_SFU,
	SIMT_EV_SHMEM, SIMT_EV_L1, SIMT_EV_L2, SIMT_EV_DRAM,
	SIMT_EV_COUNT
};

/* Bounds, in the order limiters are reported. */
enum simt_bound {
	SIMT_B_ISSUE = 0, SIMT_B_SFU, SIMT_B_SHMEM, SIMT_B_L1, SIMT_B_L2, SIMT_B_DRAM,
	SIMT_B_LATENCY, SIMT_B_COUNT
};
extern const char *const simt_bound_names[SIMT_B_COUNT]; /* "issue", "sfu", "shmem_banks", ... */

enum simt_area_basis { SIMT_AREA_FERMI = 0, SIMT_AREA_TESLA };

#define SIMT_MAX_SCHED 16
#define SIMT_MAX_SLOTS 64

struct simt_params {
	uint32_t num_sm, warp_size, sp_per_sm, schedulers, sfu_per_sm;
	uint32_t max_threads, max_ctas, registers, max_regs_per_thread;
	uint32_t shmem_bytes, shmem_banks;
	double clock_hz;
	uint32_t alu_latency, sfu_latency, shmem_latency;
	uint32_t l1_latency, l2_latency, dram_latency;
	int warp_serial;        /* a warp waits for its previous instruction to complete */
	int caches;             /* 0: no caches, global/local hit the banked shared memory */
	struct weft_cache_geom l1, l2;
	double l2_clock_hz;
	uint32_t l2_port_bytes; /* bytes per L2 clock per bank */
	double dram_bytes_per_s;
	uint32_t dram_channels;
	enum simt_area_basis area_basis;
	/* derived */
	uint32_t lanes_per_sched;  /* sp_per_sm / schedulers */
	uint32_t issue_cycles;     /* ceil(warp_size / lanes_per_sched): rows */
	uint32_t sfu_cycles;       /* ceil(warp_size / sfu_per_sm) (rows when no SFUs) */
	uint32_t l1_cycles_per_tx; /* ceil(l1 line / (l1 banks x 4 B)) */
};

/* Reads the params from a validated config (WEFT_ERR_INPUT on inconsistent
 * values, e.g. fewer SPs than schedulers). */
int simt_params_from_config(const struct weft_config *cfg, struct simt_params *sp,
			    struct weft_error *err);

/* ---- simt_mem.c ---- */

/* Distinct segments of 2^seg_shift bytes touched by the lanes in mask
 * (an access of `bytes` starting at addr[lane] may touch two). Writes them
 * to segs (room for 2 x 64) in first-touch order; returns the count. */
uint32_t simt_coalesce(const uint64_t *addr, uint64_t mask, uint32_t bytes, uint32_t seg_shift,
		       uint64_t *segs);

/* Shared-memory cycles of one warp access: lanes are served in groups of
 * `banks` consecutive lanes (one group per cycle when conflict-free); a
 * group costs the largest number of distinct 4-byte words that map to one
 * bank (same word = broadcast). Groups with no lane in mask cost 0.
 * *words (may be NULL) gets the 4-byte words accessed, summed over lanes. */
uint32_t simt_bank_cycles(const uint64_t *addr, uint64_t mask, uint32_t width, uint32_t bytes,
			  uint32_t banks, uint64_t *words);

/* ---- simt_timing.c ---- */

/* Registers per thread: the most simultaneously live 32-bit values in the
 * program (liveness over the CFG; 64-bit registers count 2, predicates 0),
 * at least 1. The caller clamps it to the machine's limits. */
uint32_t simt_live_regs(const struct weft_program *p);

enum simt_occ_limit { SIMT_OCC_THREADS = 0, SIMT_OCC_CTAS, SIMT_OCC_REGS, SIMT_OCC_SHMEM };
extern const char *const simt_occ_names[4];

struct simt_occupancy {
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
int simt_occupancy(const struct simt_params *sp, uint32_t threads_per_cta, uint32_t shmem_per_cta,
		   uint32_t regs_per_thread, struct simt_occupancy *occ, struct weft_error *err);

/* The limiter: the largest bound; "occupancy" when that is the latency
 * bound and some SM had more CTAs than it could hold at once;
 * "divergence" when the largest bound is issue, sfu or latency and, with
 * its cost scaled by the SIMD efficiency (what fully converged warps would
 * take), it would no longer be the largest. */
const char *simt_limiter(const double bounds[SIMT_B_COUNT], int occupancy_bound,
			 double simd_efficiency);

/* ---- simt_replay.c ---- */

struct simt_sm {
	double sched[SIMT_MAX_SCHED];   /* issue cycles per scheduler */
	double sfu, shmem, l1_tx;       /* SFU busy cycles, shmem cycles, L1 transactions */
	double slot_free[SIMT_MAX_SLOTS]; /* resident CTA slots: when each frees */
	uint32_t nctas;                 /* CTAs dealt to this SM */
	uint32_t warps_seen;            /* warps dealt to this SM (scheduler choice) */
	struct weft_cache l1;
};

/* Per-pc facts the replay needs, built once per launch. */
struct simt_pc {
	uint8_t cls;        /* enum weft_inst_class */
	int8_t comp_ev;     /* SIMT_EV_* of the functional-unit op, or -1 */
	uint8_t rf_reads, rf_writes; /* 32-bit words per thread */
	uint8_t bytes;      /* access bytes per thread */
	uint8_t space;      /* static state space */
	uint8_t is_store, is_atomic, is_barrier, is_sfu;
	uint32_t latency;   /* non-memory result latency */
};

struct simt_launch_stats {
	double warp_insts, thread_insts, issue_lanes;
	double mem_insts, l1_tx, shmem_cycles, shmem_accesses;
	double l1_reads, l1_read_hits, l2_accesses, l2_hits, dram_bytes;
	double barriers;
};

struct simt_state {
	struct simt_params sp;
	/* weft_model_run_many: the state whose replay this one times with its
	 * own parameters (simt_follow); NULL when it replays itself */
	const struct simt_state *leader;
	/* weft_model_run_many: the state whose warp streams (simt_replay.c)
	 * this one times when they are built from the same CTA (same warp
	 * size, shared banks, L1 line; simt_stream_key_equal); NULL: its own */
	const struct simt_state *stream_src;
	struct simt_stream *stream;     /* the last CTA's warp stream */
	struct simt_sm *sms;            /* [num_sm] */
	struct weft_cache l2;
	/* per launch */
	const struct weft_program *p;
	struct weft_group_prog gp;
	struct simt_pc *pc;             /* [ninsts] */
	struct simt_occupancy occ;
	double *ready;                  /* [warps_per_cta * nregs] scoreboard */
	struct simt_warp *warps;        /* [warps_per_cta] */
	uint32_t warps_cap;
	size_t ready_cap;
	uint32_t cta_seq;               /* CTAs consumed so far in this launch */
	double ev[SIMT_EV_COUNT];
	double dram_bytes;
	struct simt_launch_stats ls;
	/* results so far */
	struct weft_launch_result *launches;
	uint32_t nlaunches, launches_cap;
	double total_cycles;
	uint64_t total_insts;
	double total_ev[SIMT_EV_COUNT];
};

/* Prepares per-launch tables for program p (pcinfo, group prog). */
int simt_launch_begin(struct simt_state *s, const struct weft_program *p, uint32_t threads_per_cta,
		      uint32_t shmem_per_cta, struct weft_error *err);
void simt_launch_end(struct simt_state *s);
/* Replays one CTA (warps of warp_size under IPDOM) on SM cta_seq % num_sm:
 * builds its warp stream (or takes stream_src's, built from the same CTA)
 * and times it. */
int simt_replay_cta(struct simt_state *s, const struct weft_cta_trace *cta, struct weft_error *err);
/* Whether two configurations' warp streams are the same for every CTA
 * (warp size, shared banks, caches on/off and L1 line). */
int simt_stream_key_equal(const struct simt_params *a, const struct simt_params *b);
void simt_stream_free(struct simt_stream *st);

#endif
