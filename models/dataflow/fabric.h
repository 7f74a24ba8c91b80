/*
 * fabric.h - internals of the dataflow-fabric timing model: SGMF / MT-CGRA
 * ("sgmf") and dMT-CGRA ("dmt") (models.md sections 2 and 2b). fabric.c
 * states the equations and their sources; docs/models/dataflow.md
 * ("Timing") explains them with examples.
 *
 * Split by mechanism so each is testable on hand-computed cases:
 *   fabric.c         schema, events, model ops (init/consume/finish/free),
 *                    components (area)
 *   fabric_replay.c  one pass over a launch's CTAs: executed instructions
 *                    per pc, loop trip counts, memory accesses in fabric
 *                    order through the L1/L2 cache models, per-LDST-node
 *                    latency sums and epoch times
 *   fabric_timing.c  the pure equations (Little's law, epochs, special
 *                    units, cascades) and the per-launch timing: graph,
 *                    mapping, per-kernel bounds, limiter, events
 */
#ifndef WEFT_FABRIC_H
#define WEFT_FABRIC_H

#include <stdint.h>

#include "models/cache.h"
#include "models/dataflow/dmt_comm.h"
#include "models/dataflow/graph.h"
#include "models/dataflow/map.h"
#include "models/model.h"

extern const struct weft_model weft_model_sgmf;
extern const struct weft_model weft_model_dmt;

/* Event indices (the order of fabric.c's event table). */
enum fabric_event {
	FAB_EV_INT_ALU = 0, FAB_EV_INT_MUL, FAB_EV_INT_DIV, FAB_EV_FP32_ADD, FAB_EV_FP32_MUL,
	FAB_EV_FP32_FMA, FAB_EV_FP64, FAB_EV_SFU,
	FAB_EV_CONTROL, FAB_EV_TOKEN_WRITE, FAB_EV_TOKEN_READ, FAB_EV_NOC_HOP,
	FAB_EV_RESERVATION, FAB_EV_L1_WORD, FAB_EV_SHMEM, FAB_EV_L2, FAB_EV_DRAM,
	FAB_EV_CONFIG_BYTE, FAB_EV_ELEVATOR, FAB_EV_ELSU_FORWARD, FAB_EV_LVC,
	FAB_EV_COUNT
};

/* Bounds of one launch (cycles), in the order limiters are reported. */
enum fabric_bound {
	FAB_B_ISSUE = 0,  /* one new thread per cycle per replica */
	FAB_B_LATENCY,    /* Little's law: threads in flight / per-thread latency */
	FAB_B_LDST,       /* LDST reservation buffers and thread epochs */
	FAB_B_SPECIAL,    /* special units' non-pipelined blocks */
	FAB_B_LOOP,       /* a thread's loop iterations one after another */
	FAB_B_RECONFIG,   /* fill/drain, configuration loads, barrier drains */
	FAB_B_L1,         /* L1 bank cycles (one word per bank per cycle) */
	FAB_B_SHMEM,      /* shared-memory bank cycles */
	FAB_B_L2,
	FAB_B_DRAM,
	FAB_B_COUNT
};
extern const char *const fabric_bound_names[FAB_B_COUNT];

struct fabric_params {
	int dmt;                          /* the dMT-CGRA model */
	uint32_t cores;
	double clock_hz;
	struct weft_dfg_units units;      /* per core (map.h) */
	uint32_t alu_units, fpu_units;    /* 0: compute units are ALU + FPU */
	uint32_t token_buffer;
	uint32_t tb_slot;                 /* fabric_tb_slot(token_buffer) */
	double token_entry_bytes;         /* area only */
	uint32_t lat[WEFT_DFU_COUNT];     /* node latencies by unit type (ldst: unit pipeline) */
	uint32_t special_blocks;          /* non-pipelined blocks per special unit */
	int epochs;                       /* thread epochs at LDST/special units */
	int hit_pipelined;                /* L1 hits hold no reservation entry */
	int replay_cache;                 /* reuse replays across runs (fabric_cache.c) */
	double hops_per_token;
	uint32_t config_bytes, config_bytes_per_cycle;
	/* memory */
	struct weft_cache_geom l1, l2;
	uint32_t l1_latency, l2_latency, dram_latency, shmem_latency, shmem_banks;
	double l2_clock_hz;
	uint32_t l2_port_bytes;
	double dram_bytes_per_s;
	/* dMT */
	struct weft_dmt_params dp;
	uint32_t lvc_latency;
};

int fabric_params_from_config(const struct weft_config *cfg, int dmt, struct fabric_params *fp,
			      struct weft_error *err);

/* ---- fabric_timing.c: the equations (pure) ---- */

/* Threads per cycle of one configuration by Little's law (fabric.c (2)):
 * min(replicas, crit_nodes x token_buffer x replicas / latency). */
double fabric_throughput(uint32_t replicas, uint64_t crit_nodes, uint32_t token_buffer,
			 double latency);

/* Thread epochs at one LDST/special unit (fabric.c (3)): feed the
 * latencies of the operations the unit serves in thread order; an epoch of
 * token_buffer operations enters one per cycle and the next epoch waits
 * until all of them left: epoch time = max_i (i + lat_i), at least n. */
struct fabric_epoch {
	uint32_t n;        /* operations in the open epoch */
	double max;        /* max (i + lat_i) so far in it */
	double sum;        /* closed epochs' times */
	double ops, lat_sum;
};
static inline void fabric_epoch_add(struct fabric_epoch *e, uint32_t token_buffer, double lat)
{
	double t = (double)e->n + lat;
	if (t > e->max)
		e->max = t;
	e->n++;
	e->ops += 1;
	e->lat_sum += lat;
	if (e->n >= token_buffer) {
		e->sum += e->max > e->n ? e->max : e->n;
		e->n = 0;
		e->max = 0;
	}
}
/* Cycles the unit needs for what it was fed (the open epoch closed):
 * with epochs, the sum of epoch times; without, the reservation-buffer
 * bound max(ops, lat_sum / token_buffer). */
double fabric_epoch_cycles(const struct fabric_epoch *e, uint32_t token_buffer, int epochs);

/* Cycles a special unit of `blocks` non-pipelined blocks of latency `lat`
 * needs for n operations (fabric.c (4)). */
double fabric_special_cycles(double n, uint32_t blocks, uint32_t lat, uint32_t token_buffer,
			     int epochs);

/* Latency of a spilled value when `bytes` of spills are written before it
 * is read back: L1 latency while they fit, then a blend of L1, L2 and DRAM
 * latencies by the share each can hold. */
double fabric_spill_latency(const struct fabric_params *fp, double bytes);

/* Elevators one communication at distance dtid needs (models.md 2b). */
uint32_t fabric_cascades(int32_t dtid, uint32_t token_buffer);

/* Per-thread latency of one configuration and its kernel time (fabric.c
 * (1)-(6)), from its counts; used by the launch timing and by tests. */
struct fabric_kernel_in {
	double visits;        /* thread visits on the busiest core */
	uint32_t replicas;
	uint64_t crit_nodes;
	double latency;       /* per-thread latency, memory latencies included */
	double ldst_cycles;   /* largest LDST unit time on the busiest core, before / replicas */
	double special_cycles;/* largest special unit time, before / replicas */
	double loop_chain;    /* trip_max x latency for a loop body, else 0 */
	uint32_t token_buffer;
};
struct fabric_kernel_out {
	double bound[FAB_B_RECONFIG]; /* issue, latency, ldst, special, loop */
	double fill;          /* fill + drain = latency */
	double cycles;        /* max(bound) + fill */
	int limiter;          /* enum fabric_bound of the largest bound */
};
void fabric_kernel_time(const struct fabric_kernel_in *in, struct fabric_kernel_out *out);

/* ---- fabric_replay.c ---- */

/* Epoch state for one token-buffer size (fabric_epoch without the sums
 * that do not depend on it). */
struct fabric_epoch_tb {
	uint32_t n;
	double max, sum;
};
/* Epoch slots: the replay fills the configured size's slot; the replay
 * cache re-feeds it for another size (fabric_cache.c). Powers of two up
 * to 256 have their own slot, every other size the last one. */
#define FAB_NTB_POW 9
#define FAB_NTB (FAB_NTB_POW + 1)
/* The slot of a token-buffer size. */
static inline uint32_t fabric_tb_slot(uint32_t tb)
{
	for (uint32_t k = 0; k < FAB_NTB_POW; k++)
		if (tb == 1u << k)
			return k;
	return FAB_NTB - 1;
}

/* Per static instruction, summed over the launch's CTAs read. */
struct fabric_pc {
	uint64_t reached, notexec;      /* thread instances that reached it / were guarded off */
	double ops, held_sum;           /* LDST accesses; reservation-held latencies summed */
	struct fabric_epoch_tb ept[FAB_NTB]; /* epochs per token-buffer size */
	double lat_full;                /* sum of its accesses' full latencies (Little's law) */
	uint64_t removed_acc, fwd;      /* dMT: accesses not made (removed, forwarded) */
	uint64_t last_addr;             /* dMT forwarding: previous address at this pc */
	uint32_t last_cta;
};

struct fabric_core {
	struct weft_cache l1;
	uint64_t memo_line;             /* the line of the last L1 access (MRU) */
	int memo_valid, memo_dirty;
	uint64_t *l1_bank, *sh_bank;    /* word accesses per bank */
	uint32_t ctas;
};

/* One memory access in a CTA's buffer. */
struct fabric_acc {
	uint64_t addr;
	uint32_t pc;
	uint8_t space;
};

struct fabric_launch_acc {
	double threads, thread_insts, ctas;
	double l1_words, l1_reads, l1_read_hits, l2, l2_hits, dram_bytes, shmem_words;
	double atomics, barriers_per_cta, fwd, removed_acc, lvc;
};

#define FABRIC_FWD_LOAD 1 /* a load an eLSU may forward */
#define FABRIC_LVC_LOAD 2 /* a shared load whose communication spills to the LVC */

struct fabric_state {
	struct fabric_params fp;
	struct fabric_core *cores;      /* [cores] */
	struct weft_cache l2;
	/* per launch */
	const struct weft_program *p;
	struct fabric_pc *pc;           /* [ninsts] */
	uint64_t *bvisit;               /* [nblocks] */
	uint32_t *flag_start, *flag_pcs;/* per block: its instructions with iflags, CSR */
	struct weft_dfg_analyses an;
	int an_ok;
	struct weft_trips trips;
	int trips_ok;
	struct weft_dmt dmt;
	int dmt_ok;
	uint8_t *dmt_rm;                /* [ninsts] removal reason (dMT) */
	uint8_t *dmt_fwd;               /* [ninsts] FABRIC_FWD_LOAD / FABRIC_LVC_LOAD (dMT) */
	struct fabric_acc *acc;         /* CTA's accesses, thread-major */
	uint32_t *acc_start, *acc_n;    /* per thread */
	size_t acc_cap;
	uint32_t thr_cap;
	uint32_t cta_seq;
	int restored;                   /* this launch's replay came from the cache */
	struct fabric_state *leader;    /* run_many: take replays from this state */
	/* per-pc sequences of reservation-held latencies (cycles, in feeding
	 * order) kept for the replay cache, so that a later run with a token
	 * buffer that is not a power of two can recompute its epochs */
	uint16_t **seq;
	uint32_t *seq_n, *seq_cap;
	uint64_t seq_total;
	int seq_ok;
	double ev[FAB_EV_COUNT];
	struct fabric_launch_acc la;
	/* results so far */
	struct weft_launch_result *launches;
	uint32_t nlaunches, launches_cap;
	double total_cycles;
	uint64_t total_insts;
	double total_ev[FAB_EV_COUNT];
	double total_removed;
};

/* The epoch view (fabric_epoch) of a pc's LDST unit for the configured
 * token buffer tb. */
void fabric_pc_epoch(const struct fabric_pc *P, uint32_t tb, struct fabric_epoch *out);

/* Recomputes one token-buffer size's epochs from a held-latency sequence. */
void fabric_epoch_refeed(struct fabric_epoch_tb *e, const uint16_t *held, uint32_t n, uint32_t tb);

int fabric_launch_begin(struct fabric_state *s, const struct weft_program *p, struct weft_error *err);
void fabric_launch_end(struct fabric_state *s);
int fabric_replay_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err);
/* End of a launch: dirty L1 lines to the L2, dirty L2 lines to DRAM. */
void fabric_replay_flush(struct fabric_state *s);

/* ---- fabric_cache.c: replays reused across runs in one process ---- */

/* Restores the replay of this launch (same trace, launch, CTA sample and
 * replay parameters) made by an earlier run in this process: 1 when
 * restored (the caller skips the replay), 0 when not cached. */
int fabric_cache_lookup(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample);
/* Saves the replay just made (after fabric_replay_flush). Silently skips
 * when memory for it is short or the cache is full. */
void fabric_cache_store(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample);
/* Hash of the parameters a replay depends on (the cache key's part). */
uint64_t fabric_replay_params_hash(const struct fabric_params *fp);
/* Frees every cached replay (tests; the cache otherwise lives as long as
 * the process). */
void weft_fabric_cache_clear(void);

/* ---- fabric_timing.c: one launch ---- */
int fabric_time_launch(struct fabric_state *s, const struct weft_trace_launch *L, uint32_t launch,
		       struct weft_launch_result *r, struct weft_error *err);

#endif
