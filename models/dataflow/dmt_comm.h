/*
 * dmt_comm.h - inter-thread communication analysis for the dMT-CGRA
 * (D. Voitsechov, O. Port and Y. Etsion, "Inter-Thread Communication in
 * Multithreaded, Reconfigurable Coarse-Grain Arrays", MICRO 2018): from a
 * trace, which values pass between threads of a CTA through shared memory
 * at a constant thread-id distance (what elevator nodes would carry),
 * which loads fetch an address another thread of the CTA already loaded
 * with the same instruction (what an eLSU would forward), which
 * instructions a dMT compilation would remove, and the dynamic operations
 * left against the SIMT baseline.
 *
 * The analysis only reads the trace; the dMT timing/energy estimate is done
 * by the fabric model, which subtracts what this analysis removes. The
 * rules below are described with examples in docs/models/dmt.md.
 *
 * Communication (shared memory, per CTA):
 *   Every shared-memory load is matched with the store that produced the
 *   bytes it reads. Order inside the CTA: barrier epochs (the number of
 *   bar.sync / barrier.sync / bar.red a thread has passed), and inside an
 *   epoch the lock-step order of the thread's warp (width `warp_width`,
 *   IPDOM reconvergence, models/group.h; the order in which the emulator
 *   ran them). A load in epoch e by warp w sees the last store to the byte
 *   made in an epoch < e, or made earlier in epoch e by warp w (the same
 *   thread, or another lane in lock-step: warp-synchronous code). A store
 *   in epoch e by another warp is a race; the load is matched with the
 *   last store of an earlier epoch and counted `racy` (replay goes warp by
 *   warp inside an epoch, so a race is seen from the higher warp's side
 *   only: `racy` flags races, it does not count every racing pair).
 *   The distance is dTID = reader_tid - writer_tid (linear thread ids in
 *   the block); 0 is a thread reading its own store ("self").
 *   A static shared load is elevator-carried when the most common distance
 *   covers at least `min_fraction` of its executed instances, or, inside a
 *   loop, when the instances of each iteration (the thread's k-th execution
 *   of the load) have such a distance of their own (`per_iter`: a dMT
 *   compilation unrolls the loop and gives each iteration its elevators).
 *
 * Memory value reuse (global, const and shared loads):
 *   The k-th execution of a static load by thread T is matched with the
 *   k-th execution of the same load by the nearest lower thread T' of the
 *   CTA that read the same address in the same barrier epoch and, for
 *   shared memory, the same stored value (same producing store):
 *   dTID = T - T'. A group of threads reading
 *   one value needs one memory access; the others are forwarded. Forwarding
 *   removes memory accesses, not operations: the load node stays.
 *
 * Removable instructions (weft_dmt_finish), each with its reason:
 *   - ELEVATOR_LOAD: elevator-carried shared loads (mode dTID 0: the value
 *     stays in the thread);
 *   - ELEVATOR_STORE: shared stores read at least once, and only by
 *     removed loads;
 *   - BARRIER: a bar.sync / barrier.sync whose neighbouring epochs (the
 *     accesses between it and the barriers before and after it, in each
 *     thread's order) hold removed shared accesses and no kept one, and
 *     that orders no global access of one thread of the CTA against
 *     another's (read after write: global_comm; write after read or write:
 *     global_order; dmt_global.c, dmt_barrier.c);
 *   - ADDR_ARITH: value instructions whose every use, through def-use
 *     chains, ends in the address of a removed access (or in a guard
 *     below) and that reach at least one such address;
 *   - GUARD: boundary checks that only guarded removed instructions:
 *     conditional branches whose control-dependent blocks hold only
 *     instructions that vanish, and the compares, predicate logic, selects
 *     and guarded movs whose every use is such a branch's condition, the
 *     guard of a vanishing instruction or another such instruction. An
 *     instruction vanishes when it is removed and leaves no value behind:
 *     stores, barriers, address arithmetic, and loads whose values only go
 *     on into removed stores (a copy through shared memory). A removed
 *     load whose value a kept instruction uses is replaced by an elevator
 *     edge, which stays predicated like the load: its guard stays.
 *   One greatest fixed point decides ADDR_ARITH and GUARD (dmt_arith.c).
 *
 * Dynamic operations (weft_dmt_ops): SIMT thread instructions (every
 * executed instance, guard true), dMT thread instructions (those minus the
 * removed ones), the removed ones by reason and their share; eLSU
 * forwarded loads apart.
 *
 * Cost: one pass of group iterators (lock-step order) and one pass of
 * thread iterators per CTA (two where global accesses are tracked), one
 * barrier epoch at a time; memory bounded by one epoch's accesses plus a
 * per-byte last-writer table over the CTA's shared window and the global
 * words the CTA stores to (docs/models/dmt.md "Cost").
 */
#ifndef WEFT_DMT_COMM_H
#define WEFT_DMT_COMM_H

#include <stdint.h>

#include "common/error.h"
#include "trace/ptx/program.h"
#include "trace/format/trace.h"

/* Largest CTA (threads) and hence |dTID| the analysis handles (CUDA's
 * limit of 1024 threads per block). */
#define WEFT_DMT_MAX_THREADS 1024u
#define WEFT_DMT_MAX_DIST (WEFT_DMT_MAX_THREADS - 1u)
/* Histograms over signed dTID: bucket d + WEFT_DMT_MAX_DIST. */
#define WEFT_DMT_NDIST (2u * WEFT_DMT_MAX_DIST + 1u)
/* Histograms over elevators per distance: ceil(|dTID| / token_buffer) is
 * at most WEFT_DMT_MAX_DIST (token_buffer >= 1), so every count is exact. */
#define WEFT_DMT_MAX_CASC WEFT_DMT_MAX_THREADS
/* Shared memory the analysis tracks per CTA, in bytes: 4 MiB, over 17
 * times the most a CUDA block can have (227 KiB on sm_90). Its last-writer
 * table takes 16 bytes per byte up to the highest offset accessed, so a
 * trace with a shared access at or beyond this offset (only a corrupt one
 * has it) is refused with WEFT_ERR_INPUT instead of sizing that table. */
#define WEFT_DMT_MAX_SHARED (4u << 20)
/* Memory instructions (loads, stores, atomics) and barriers of one kernel
 * the analysis takes: 4096 each, over 20 times the most of any bundled
 * kernel (under 200). Its store -> load table has a byte per pair of
 * memory instructions and its barrier table one per barrier and memory
 * instruction, so these bound them at 16 MiB each; a larger kernel (or a
 * trace's hostile program) is refused with WEFT_ERR_LIMIT before they are
 * allocated. */
#define WEFT_DMT_MAX_MEM_INSTS 4096u
#define WEFT_DMT_MAX_BARRIERS 4096u

struct weft_dmt_params {
	uint32_t token_buffer;  /* entries per unit: an elevator carries |dTID| <= this.
				   Default 16 (the reference design's 16-entry
				   token buffers: Voitsechov and Etsion, ISCA 2014) */
	uint32_t max_cascade;   /* elevators one communication may chain before its
				   values spill to the live value cache. Default 16:
				   the reference dMT core's 16 control/elevator units
				   (Voitsechov, Port and Etsion, MICRO 2018) */
	double min_fraction;    /* a static shared load is elevator-carried when its
				   most common dTID covers at least this share of
				   its executed instances. Default 0.9 (weft's
				   choice, docs/models/dmt.md) */
	uint32_t warp_width;    /* lock-step width for warp-synchronous code (32); 1 =
				   no lock-step: only barriers and the thread's own
				   order make a store visible */
	uint64_t lvc_bytes;     /* live value cache, informational. Default 65536
				   (the reference dMT core's 64 KB) */
};
void weft_dmt_params_default(struct weft_dmt_params *prm);

/* Role of a static instruction in the analysis. */
enum weft_dmt_role {
	WEFT_DMT_OTHER = 0,
	WEFT_DMT_SH_LOAD,   /* load whose accesses all resolved to shared */
	WEFT_DMT_SH_STORE,
	WEFT_DMT_SH_ATOMIC,
	WEFT_DMT_LOAD,      /* global/const load (or a generic one not always shared) */
	WEFT_DMT_BAR,       /* bar.sync / barrier.sync / bar.red */
};

/* Why an instruction is removable (0: kept). */
enum weft_dmt_removal {
	WEFT_DMT_KEEP = 0,
	WEFT_DMT_RM_ELEVATOR_LOAD,
	WEFT_DMT_RM_ELEVATOR_STORE,
	WEFT_DMT_RM_BARRIER,
	WEFT_DMT_RM_ADDR_ARITH,
	WEFT_DMT_RM_GUARD,      /* boundary checks that only guarded removed instructions */
	WEFT_DMT_RM_COUNT
};
const char *weft_dmt_removal_name(enum weft_dmt_removal r);

/* Per static instruction (index pc). Counts are thread instances summed
 * over the analysed CTAs. */
struct weft_dmt_inst {
	uint8_t role;          /* enum weft_dmt_role */
	uint8_t removal;       /* enum weft_dmt_removal (after weft_dmt_finish) */
	uint8_t elevator;      /* SH_LOAD carried by elevators (mode dTID 0: the value
				  stays in the thread, no elevator unit needed) */
	uint8_t spill;         /* elevator-carried but cascade > max_cascade: LVC */
	uint64_t exec;         /* executed instances (guard true) */
	/* SH_LOAD (and SH_ATOMIC's read): where the value came from */
	uint64_t comm;         /* from another thread of the CTA */
	uint64_t self;         /* from the thread's own store */
	uint64_t nowriter;     /* no store in this CTA before it (uninitialised) */
	uint64_t mixed;        /* its bytes come from several threads (the first
				  byte's writer gives the distance) */
	uint64_t racy;         /* a same-epoch store of another warp was skipped */
	int32_t dtid;          /* most common distance (ties: smallest |d|, then d > 0) */
	uint64_t dtid_count;   /* instances at that distance */
	double dtid_fraction;  /* dtid_count / exec */
	uint32_t cascade;      /* elevators on the load's path: ceil(|dtid| / token_buffer);
				  per_iter: the most any iteration needs */
	uint32_t elevators;    /* elevator nodes the carried load needs (static, per
				  graph copy): cascade, or per_iter the sum over
				  the iterations (the unrolled copies) */
	uint8_t per_iter;      /* carried with one distance per iteration (the
				  thread's k-th execution), not one overall */
	uint32_t niters;       /* per_iter: iterations (k = 0 .. niters - 1) */
	uint64_t iter_count;   /* per_iter: instances at their iteration's distance */
	uint64_t iter_local;   /* per_iter: ... of iterations whose distance is 0 */
	uint64_t *hist;        /* [WEFT_DMT_NDIST] by dTID (self at 0), NULL if none */
	/* loads: memory value reuse */
	uint64_t reuse_fwd;    /* instances whose value a lower thread loaded already */
	uint64_t reuse_groups; /* distinct values loaded (= memory accesses left) */
	uint32_t reuse_window; /* widest group: last - first thread + 1 */
	int32_t reuse_dtid;    /* most common forwarding distance (0: none) */
	uint64_t reuse_dtid_count;
	uint64_t *reuse_hist;  /* [WEFT_DMT_NDIST] by dTID (> 0), NULL if none */
};

/* Totals over the kernel. "Communication" = shared-load instances whose
 * value another thread stored (dTID != 0). */
struct weft_dmt_totals {
	uint64_t ctas, threads;
	uint64_t thread_insts;          /* executed, all instructions */
	uint64_t sh_loads, sh_stores;   /* executed shared load/store instances */
	uint64_t comm, self, nowriter, racy, mixed;
	uint64_t global_comm;           /* global loads of a word another thread of the
					   CTA stored before (epoch order); tracked only in
					   kernels with a barrier and a global store.
					   Keeps the barriers between the two */
	uint64_t global_order;          /* global stores to a word another thread of the
					   CTA read or wrote in an earlier epoch (write
					   after read / write); keeps those barriers too */
	uint64_t hist[WEFT_DMT_NDIST];  /* comm + self by dTID */
	uint64_t abs_hist[WEFT_DMT_MAX_THREADS]; /* comm by |dTID| (bucket 0 unused) */
	uint64_t comm_within_buffer;    /* comm with |dTID| <= token_buffer */
	uint64_t casc_hist[WEFT_DMT_MAX_CASC]; /* comm by elevators needed */
	uint64_t comm_spilled;          /* comm needing more than max_cascade */
	uint64_t carried;               /* instances at the mode distance of elevator
					   loads with dTID != 0 (spilled ones included) */
	uint64_t local;                 /* ... of carried loads with mode dTID 0: the value
					   stays in the thread (a plain dataflow edge) */
	uint32_t elevator_nodes;        /* elevators the removed loads need: sum of
					   their `elevators` (static, per graph copy) */
	/* memory value reuse */
	uint64_t loads;                 /* executed global/const/shared load instances */
	uint64_t reuse_fwd;             /* forwarded by an eLSU */
	uint64_t reuse_groups;
	uint64_t reuse_hist[WEFT_DMT_NDIST];
	uint64_t reuse_within_buffer;
	/* removal (after weft_dmt_finish) */
	uint32_t removed_static[WEFT_DMT_RM_COUNT];   /* instructions, by reason */
	uint64_t removed_dynamic[WEFT_DMT_RM_COUNT];  /* executed thread instances */
	uint64_t removed_total;                       /* sum of removed_dynamic */
	uint32_t bars_kept_shared;      /* static barriers kept for a kept shared access */
	uint32_t bars_kept_global;      /* ... for a global access of one thread ordered
					   against another's across them */
	uint32_t per_iter_loads;        /* static loads carried per iteration */
};

/* Dynamic operations of the analysed CTAs, SIMT against dMT-CGRA
 * (weft_dmt_ops). An operation is a thread instruction as the trace counts
 * it: one executed instance (guard true) of one static instruction. */
struct weft_dmt_ops {
	uint64_t simt;            /* SIMT: every executed thread instruction */
	uint64_t dmt;             /* dMT: simt - removed */
	uint64_t removed;         /* sum of by_reason */
	uint64_t by_reason[WEFT_DMT_RM_COUNT]; /* by enum weft_dmt_removal ([0] unused) */
	double removed_share;     /* removed / simt (0 when simt is 0) */
	/* memory accesses, not operations */
	uint64_t loads;           /* executed global/const/shared load instances */
	uint64_t elsu_forwarded;  /* instances of kept loads an eLSU forwards (no access) */
	uint64_t shared_accesses; /* executed shared loads, stores and atomics */
	uint64_t shared_removed;  /* ... removed (carried loads and their stores) */
};

struct weft_dmt_scratch;

struct weft_dmt {
	const struct weft_program *p;
	struct weft_dmt_params prm;
	uint32_t ninsts;
	struct weft_dmt_inst *inst;     /* [ninsts] */
	struct weft_dmt_totals tot;
	int finished;
	struct weft_dmt_scratch *s;     /* per-CTA tables, freed by weft_dmt_free */
};

/* prm NULL: defaults. Checks the parameters (token_buffer >= 1,
 * 0 < min_fraction <= 1, warp_width 1..64). */
int weft_dmt_init(struct weft_dmt *d, const struct weft_program *p,
		  const struct weft_dmt_params *prm, struct weft_error *err);
/* Adds one CTA (any order; each CTA is independent). */
int weft_dmt_add_cta(struct weft_dmt *d, const struct weft_cta_trace *c, struct weft_error *err);
/* Decides elevators, spills and removals; fills the totals. Call once after
 * the last CTA; weft_dmt_add_cta is refused afterwards. */
int weft_dmt_finish(struct weft_dmt *d, struct weft_error *err);
/* Decides again under other token_buffer / max_cascade / min_fraction /
 * lvc_bytes (warp_width must stay: it shapes the per-CTA replay), from the
 * same CTAs: a parameter sweep reads the trace once. */
int weft_dmt_redecide(struct weft_dmt *d, const struct weft_dmt_params *prm, struct weft_error *err);
void weft_dmt_free(struct weft_dmt *d);

/* Convenience: init, every sampled CTA of `launch` (s NULL: all), finish. */
int weft_dmt_analyse_launch(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
			    const struct weft_dmt_params *prm, struct weft_dmt *d,
			    struct weft_error *err);

/* The stores (pcs, increasing) whose values the memory instruction at
 * load_pc read in the analysed CTAs (shared loads and atomics): the source
 * nodes of the edges elevators would carry. Fills up to max entries and
 * returns how many there are. */
uint32_t weft_dmt_load_writers(const struct weft_dmt *d, uint32_t load_pc, uint32_t *store_pcs,
			       uint32_t max);

/* The launch's dynamic operations, SIMT against dMT, by removal reason
 * (after weft_dmt_finish or weft_dmt_redecide). */
void weft_dmt_ops(const struct weft_dmt *d, struct weft_dmt_ops *o);

/* The distance of each iteration k = 0 .. max-1 of a load carried per
 * iteration (inst[pc].per_iter); returns its niters (0 for other pcs). */
uint32_t weft_dmt_iter_distances(const struct weft_dmt *d, uint32_t pc, int32_t *dtids, uint32_t max);

/* Elevators needed to carry distance dtid: ceil(|dtid| / token_buffer). */
uint32_t weft_dmt_cascades(int32_t dtid, uint32_t token_buffer);
/* Share of the communication with |dTID| <= dist (CDF over |dTID|); 0 when
 * there is none. */
double weft_dmt_comm_cdf(const struct weft_dmt *d, uint32_t dist);
/* The communication distances in WEFT_DMT_DIST_BUCKETS buckets of |dTID|
 * (communicating loads only; a thread's own stores are not communication):
 * 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, 65 and beyond. The model reports
 * them per launch and in total as the statistics dmt_dist_<lo>[_<hi>]
 * (weft-plot dist --of dmt-distance draws their CDF). */
#define WEFT_DMT_DIST_BUCKETS 8u
void weft_dmt_dist_bucket(uint32_t b, uint32_t *lo, uint32_t *hi);
void weft_dmt_dist_counts(const struct weft_dmt *d, uint64_t out[WEFT_DMT_DIST_BUCKETS]);

struct weft_sbuf;
/* Human-readable report (dynamic operations SIMT against dMT by reason,
 * distribution, CDF, cascades, spills, per-instruction table, barriers,
 * removable instructions) appended to b. */
void weft_dmt_format(const struct weft_dmt *d, struct weft_sbuf *b);

#endif
