/*
 * fabric.h - internals of the dataflow-fabric timing model: SGMF / MT-CGRA
 * ("sgmf") and dMT-CGRA ("dmt") (Voitsechov & Etsion, ISCA 2014;
 * Voitsechov, Port & Etsion, MICRO 2018). fabric.c
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
#include "dmt_comm.h"
#include "graph.h"
#include "map.h"
#include "models/model.h"

extern const struct weft_model weft_model_sgmf;
extern const struct weft_model weft_model_dmt;

/* Event indices (the order of fabric.c's event table). */
enum fabric_event {
	FAB_EV_INT_ALU = 0, FAB_EV_INT_MUL, FAB_EV_INT_DIV, FAB_EV_FP32_ADD, FAB_EV_FP32_MUL,
	FAB_EV_FP32_FMA, FAB_EV_FP64, FAB_EV_SFU,
	FAB_EV_CONTROL, FAB_EV_TOKEN_WRITE, FAB_EV_TOKEN_READ, FAB_EV_NOC_HOP,
	FAB_EV_RESERVATION, FAB_EV_L1_WORD, FAB_EV_SHMEM, FAB_EV_L2, FAB_EV_DRAM,
	FAB_EV_CONFIG_BYTE, FAB_EV_ELEVATOR, FAB_EV_ELSU_FORWARD, FAB_EV_LVC, FAB_EV_NOC_FLIT,
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
	FAB_B_MSHR,       /* L1 misses in flight: the core's MSHRs */
	FAB_B_SHMEM,      /* shared-memory bank cycles */
	FAB_B_L2,
	FAB_B_DRAM,
	FAB_B_COUNT
};
extern const char *const weft_fabric_bound_names[FAB_B_COUNT];

/* The deadlock-avoidance rule at LDST/special units (SGMF ISCA 2014: an
 * epoch of T threads is not followed by the next until "all threads of
 * the older epoch have left" the unit), in the two readings weft offers
 * (docs/models/dataflow.md "Epochs"):
 *   ADMISSION   left = admitted: a younger epoch enters once the older one
 *               has entered; the T reservation entries bound the operations
 *               in flight and free as each one completes (the default)
 *   COMPLETION  left = completed: a younger epoch waits until every
 *               operation of the older one has returned */
enum fabric_epoch_rule { FAB_EPOCH_ADMISSION = 0, FAB_EPOCH_COMPLETION };

struct fabric_params {
	int dmt;                          /* the dMT-CGRA model */
	int explain;                      /* weft_config.explain: fill weft_launch_result.explain */
	uint32_t cores;
	double clock_hz;
	struct weft_dfg_units units;      /* per core (map.h) */
	uint32_t alu_units, fpu_units;    /* 0: compute units are ALU + FPU */
	uint32_t token_buffer;
	double token_entry_bytes;         /* area only */
	uint32_t lat[WEFT_DFU_COUNT];     /* node latencies by unit type (ldst: unit pipeline) */
	uint32_t special_blocks;          /* non-pipelined blocks per special unit */
	enum fabric_epoch_rule epoch_rule;/* thread epochs at LDST/special units */
	int hit_pipelined;                /* L1 hits hold no reservation entry */
	int replay_cache;                 /* reuse replays across runs (fabric_cache.c) */
	double hops_per_token;
	uint32_t config_bytes, config_bytes_per_cycle;
	uint32_t partition_batch;         /* threads a partitioned segment's sub-kernels run
					     together before the next batch; 0 = all the core's */
	/* memory */
	struct weft_cache_geom l1, l2;
	uint32_t l1_latency, l2_latency, dram_latency, shmem_latency, shmem_banks, shmem_bytes;
	uint32_t noc_flit_bytes;
	uint32_t l1_mshrs;
	double l2_clock_hz;
	uint32_t l2_port_bytes;
	double dram_bytes_per_s;
	/* dMT */
	struct weft_dmt_params dp;
	uint32_t lvc_latency;
};

int weft_fabric_params_from_config(const struct weft_config *cfg, int dmt, struct fabric_params *fp,
			      struct weft_error *err);

/* ---- fabric_timing.c: the equations (pure) ---- */

/* Threads per cycle of one configuration by Little's law (fabric.c (2)):
 * min(replicas, crit_nodes x token_buffer x replicas / latency), latency
 * being the time a thread waits in token buffers (fabric.c (2): without
 * what fixed pipelines hold). */
double weft_fabric_throughput(uint32_t replicas, uint64_t crit_nodes, uint32_t token_buffer,
			 double latency);


/* One LDST unit serving a node's accesses in thread order (fabric.c (3)).
 * Each access holds a reservation entry for its held latency (see
 * fabric_replay.c access_one). Under ADMISSION, access i enters at
 * a_i = max(a_{i-1} + 1, the earliest release among T busy entries) and
 * releases at a_i + held_i; the unit needs max(last release, a_n + 1)
 * cycles. Under COMPLETION, an epoch of T enters one per cycle and the
 * next waits until all of it returned: max_i (i + held_i) >= T cycles per
 * epoch. Both are kept for every feed; the heap of release times (T
 * doubles) is the caller's. */
struct fabric_ldst_q {
	uint64_t fed;       /* accesses fed */
	double last;        /* ADMISSION: admission cycle of the last access */
	double end;         /* ADMISSION: latest release so far */
	uint32_t nrel;      /* ADMISSION: busy entries in the heap */
	uint32_t ep_n;      /* COMPLETION: accesses in the open epoch */
	double ep_max;      /* COMPLETION: max (i + held_i) in the open epoch */
	double ep_sum;      /* COMPLETION: closed epochs' cycles */
	/* A sampled replay feeds the unit the warmed CTAs' accesses too, so
	 * that a timed CTA finds the queue as a full replay leaves it; the
	 * timed stretches' share of the stream is what expands to the launch
	 * (weft_fabric_ldst_parts): the stream position (ADMISSION: the cycle
	 * after the last admission; COMPLETION: the closed epochs) less what
	 * it gained over the stretches of warmed accesses. A unit starts
	 * timed; a full replay never opens a warmed stretch. */
	double warm_a, warm_e; /* closed warmed stretches' gains, per rule */
	double mark_a, mark_e; /* the position where the open one began */
	int warming;           /* a warmed stretch is open */
};

/* In a held-latency sequence (fabric_replay.c seq_push): not an access
 * but a switch between timed and warmed accesses (fabric_ldst_toggle);
 * held latencies are kept below it. Only a sampled replay's sequences
 * hold one (fabric_state.seq_marked). */
#define FAB_SEQ_TOGGLE 0xFFFFu
#define FAB_SEQ_HELD_MAX 0xFFFEu

/* Opens a warmed stretch, or closes the open one (fabric_ldst_q). */
static inline void fabric_ldst_toggle(struct fabric_ldst_q *q)
{
	double pa = q->fed ? q->last + 1 : 0, pe = q->ep_sum;
	if (!q->warming) {
		q->mark_a = pa;
		q->mark_e = pe;
	} else {
		q->warm_a += pa - q->mark_a;
		q->warm_e += pe - q->mark_e;
	}
	q->warming = !q->warming;
}
/* Feeds one access of held latency `held` (>= 0) to a unit of token_buffer
 * entries; heap has room for token_buffer release times. Inline: the
 * replay calls it once per memory access. */
/* the heap of release times: a binary min-heap in heap[0 .. n) */
static inline double fabric_heap_pop(double *h, uint32_t *n)
{
	double top = h[0];
	double x = h[--*n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= x)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
	return top;
}

static inline void fabric_heap_push(double *h, uint32_t *n, double x)
{
	uint32_t i = (*n)++;
	while (i) {
		uint32_t up = (i - 1) / 2;
		if (h[up] <= x)
			break;
		h[i] = h[up];
		i = up;
	}
	h[i] = x;
}

/* One access under ADMISSION: it enters at `next` (the cycle after the
 * previous admission) or when an entry frees if all tb are busy, and
 * holds one for `held`; returns its admission cycle, raises *end. */
static inline double fabric_admit(double *heap, uint32_t *nrel, uint32_t tb, double next, double held,
				  double *end)
{
	double a = next;
	if (*nrel >= tb) {
		double free_at = fabric_heap_pop(heap, nrel);
		if (free_at > a)
			a = free_at;
	}
	double rel = a + held;
	/* an access that frees its entry by the next admission never blocks
	 * one: keep only the others */
	if (held > 1)
		fabric_heap_push(heap, nrel, rel);
	if (rel > *end)
		*end = rel;
	return a;
}

/* One access under COMPLETION: epochs of tb. */
static inline void fabric_epoch_step(uint32_t *n, double *max, double *sum, uint32_t tb, double held)
{
	double t = (double)*n + held;
	if (t > *max)
		*max = t;
	if (++*n >= tb) {
		*sum += *max > *n ? *max : *n;
		*n = 0;
		*max = 0;
	}
}

static inline __attribute__((always_inline)) void fabric_ldst_feed(struct fabric_ldst_q *q, double *heap,
							     uint32_t tb, double held)
{
	if (!tb)
		tb = 1;
	q->last = fabric_admit(heap, &q->nrel, tb, q->fed ? q->last + 1 : 0, held, &q->end);
	q->fed++;
	fabric_epoch_step(&q->ep_n, &q->ep_max, &q->ep_sum, tb, held);
}

/* Cycles the unit needs for what it was fed, under a rule. */
double weft_fabric_ldst_cycles(const struct fabric_ldst_q *q, enum fabric_epoch_rule rule);
/* The same in two parts, for a sample: the stream's timed share (its
 * position less the warmed stretches' gains, fabric_ldst_q) and its drain (the
 * last accesses' latency after the last admission, or the open epoch),
 * which a stream has once whatever its length. */
void weft_fabric_ldst_parts(const struct fabric_ldst_q *q, enum fabric_epoch_rule rule, double *stream,
			    double *drain);

/* Cycles a special unit of `blocks` non-pipelined blocks of latency `lat`
 * needs for n operations (fabric.c (4)). */
double weft_fabric_special_cycles(double n, uint32_t blocks, uint32_t lat, uint32_t token_buffer,
			     enum fabric_epoch_rule rule);

/* Spilled live values when `bytes` of spills are written before they are
 * read back (fabric_timing.c): the shares the dMT live value cache, the L1
 * and the L2 keep (the rest goes to DRAM), a spill load's average latency and the
 * part of it a reservation entry is held for (served beyond the L1). */
struct weft_fabric_spill {
	double lat, held;
	double lvc_share, l1_share, l2_share; /* DRAM: the rest */
};
void weft_fabric_spill(const struct fabric_params *fp, double bytes, struct weft_fabric_spill *out);

/* Elevators one communication at distance dtid needs (dMT-CGRA MICRO 2018). */
uint32_t weft_fabric_cascades(int32_t dtid, uint32_t token_buffer);

/* Per-thread latency of one configuration and its kernel time (fabric.c
 * (1)-(6)), from its counts; used by the launch timing and by tests. */
struct fabric_kernel_in {
	double visits;        /* thread visits on the busiest core */
	uint32_t replicas;
	double rate;          /* threads per cycle per replica (map.h; 0 = 1) */
	uint64_t crit_nodes;
	double latency;       /* per-thread latency, memory latencies included (fill) */
	double wait_latency;  /* the part threads wait in token buffers (Little's law) */
	double ldst_cycles;   /* largest LDST unit time on the busiest core, before / replicas */
	double special_cycles;/* largest special unit time, before / replicas */
	double loop_chain;    /* trip_max x latency for a loop body, else 0 */
	uint32_t token_buffer;
	/* 1: some thread of the launch enters it though none read did (a
	 * warmed sample, fabric_timing.c every_fed): it still fills and
	 * drains once and runs its longest loop; 0 with visits 0: it costs
	 * nothing */
	int entered;
};
struct fabric_kernel_out {
	double bound[FAB_B_RECONFIG]; /* issue, latency, ldst, special, loop */
	double fill;          /* fill + drain = latency */
	double cycles;        /* max(bound) + fill */
	int limiter;          /* enum fabric_bound of the largest bound */
};
void weft_fabric_kernel_time(const struct fabric_kernel_in *in, struct fabric_kernel_out *out);

/* ---- fabric_replay.c ---- */

/* Per static instruction, summed over the launch's CTAs read. */
struct fabric_pc {
	uint64_t reached, notexec;      /* thread instances that reached it / were guarded off */
	double ops;                     /* LDST accesses */
	struct fabric_ldst_q q;         /* its LDST unit for the configured token buffer */
	uint32_t heap;                  /* LDST pcs: index of its release-time heap, else NONE */
	double lat_full;                /* sum of its accesses' full latencies (Little's law) */
	double lat_pipe;                /* the part of it spent in fixed pipelines (hit_pipelined) */
	double warm_ops, warm_lat_full, warm_lat_pipe; /* the same for warmed CTAs' accesses
							  (fabric_warm.c), not the sample's */
	uint64_t removed_acc, fwd;      /* dMT: accesses not made (removed, forwarded) */
	uint64_t last_addr;             /* dMT forwarding: previous address at this pc */
	uint32_t last_cta;
};

struct fabric_core {
	struct weft_cache l1;
	uint64_t memo_line;             /* the line of the last L1 access (MRU) */
	int memo_valid, memo_dirty;
	uint64_t *l1_bank, *sh_bank;    /* word accesses per bank */
	double miss_cycles;             /* L1 read misses' latencies summed (MSHR occupancy) */
	uint32_t ctas;
};

/* After an L1 access of `line` (cache result r, a write or not, the L1's
 * write policy write_back): whether the line is now the core's MRU line,
 * and whether that line is dirty. The replay (l1_access) and functional
 * warming (fabric_warm.c) keep it the same way, so a later access skips
 * the cache exactly when a full replay's would. */
static inline void fabric_memo_note(struct fabric_core *c, uint64_t line, unsigned r, int is_write,
				    int write_back)
{
	int present = (r & (WEFT_CACHE_HIT | WEFT_CACHE_FILL)) || (is_write && write_back);
	int was_dirty = c->memo_valid && c->memo_line == line && c->memo_dirty;
	c->memo_valid = present;
	c->memo_line = line;
	c->memo_dirty = present && write_back && (is_write || was_dirty);
}

/* One memory access of a CTA (its address and space from the decoded
 * CTA, its pc from the prepared CTA). */
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

/* What a CTA's replay gathers before it touches the caches, from the CTA
 * and the launch's program alone (weft_fabric_prepare_cta): each of its
 * threads' accesses (pc, address, space: the j-th access of thread t is
 * the j-th address of its trace), its blocks' visits, its guarded-off
 * instructions and its loop trip counts. It holds everything the replay
 * reads of the CTA but its id and thread count, so the walk drops the
 * decoded CTA once it is prepared (trace.h compact). The accesses are
 * stored in the fabric's order, the order apply feeds them to the caches
 * (fabric_replay.c): the first access of every thread (by thread id),
 * then the second, and so on, a thread leaving after its last. Narrow (the usual
 * case): an access is a one-byte key into the CTA's table of distinct
 * (pc, space) pairs and a 4-byte offset from base[space] (the CTA's
 * first address in that space less 2 GiB), 5 bytes instead of the 16
 * the decoder's arrays hold; wide (an address 2 GiB or more from its
 * space's first, or more than FABRIC_ACC_KEYS pairs):
 * pc, space and address whole, 13 bytes. Reusable from CTA to CTA;
 * weft_fabric_prepared_free. */
#define FABRIC_ACC_KEYS 256
struct fabric_prepared {
	size_t nacc;                    /* accesses */
	uint8_t *acc_key;               /* narrow: the accesses' keys, in the fabric's order */
	uint32_t *acc_off;              /* narrow: their addresses - base */
	uint32_t *acc_pc;               /* wide: the accesses' pcs, in the fabric's order */
	uint8_t *acc_sp;                /* wide: their spaces (enum weft_space) */
	uint64_t *acc_addr;             /* wide: their addresses */
	uint32_t kpc[FABRIC_ACC_KEYS];      /* narrow: key k is (kpc[k], ksp[k]) */
	uint8_t ksp[FABRIC_ACC_KEYS];
	uint32_t nkeys;
	uint16_t *keymap;               /* [ninsts x WEFT_SPACE_COUNT]: 1 + the key, 0 none */
	uint16_t *pkey;                 /* [ninsts]: 1 + the key of the CTA's first access
					   at the pc, 0 none (the walk's fast form) */
	/* prepare's scratch */
	uint8_t *walk_key;              /* [acc_cap] the keys, thread by thread */
	uint32_t *acc_start, *acc_n;    /* [thr_cap] per thread: its first access in
					   thread-by-thread order, its accesses */
	uint32_t *col;                  /* [col_cap] per access index j: where the next
					   thread's j-th access goes */
	size_t acc_cap, wide_cap;       /* narrow arrays; wide arrays */
	size_t col_cap;
	uint64_t base[WEFT_SPACE_COUNT]; /* narrow: the CTA's first address in each space - 2^31 */
	int wide;
	uint32_t thr_cap;
	uint32_t nthreads, maxn;        /* threads; most accesses of one */
	uint64_t *bvisit;               /* [nblocks]: this CTA's visits */
	uint64_t *notexec;              /* [ninsts]: this CTA's guarded-off instances */
	uint32_t nblocks, ninsts;       /* of the program the arrays are sized for */
	const struct weft_program *p;
	struct weft_trips trips;        /* this CTA's trip counts */
	const struct weft_loops *loops; /* trips is over these (NULL: none yet) */
	/* the launch's last CTA: its grid padding (fabric_replay.c
	 * pad_count), threads and their block visits and guarded-off
	 * instances; pad_threads 0 for any other CTA */
	uint32_t pad_threads;
	uint64_t *pad_bvisit;           /* [nblocks] */
	uint64_t *pad_notexec;          /* [ninsts] */
	struct weft_trips pad_trips;    /* their trip counts (padding threads may loop) */
};

/* Access i (in the fabric's order) of the CTA prepared in pr. */
static inline struct fabric_acc weft_fabric_acc_at(const struct fabric_prepared *pr, size_t i)
{
	struct fabric_acc a;
	if (pr->wide) {
		a.addr = pr->acc_addr[i];
		a.pc = pr->acc_pc[i];
		a.space = pr->acc_sp[i];
	} else {
		uint8_t k = pr->acc_key[i];
		a.addr = pr->base[pr->ksp[k]] + pr->acc_off[i];
		a.pc = pr->kpc[k];
		a.space = pr->ksp[k];
	}
	return a;
}

/* The bytes weft_fabric_prepare_cta is estimated to keep for a CTA of L
 * (its averages, addresses as offsets): trace.h compact. */
uint64_t weft_fabric_prepared_bytes(const struct weft_trace_launch *L);

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
	/* a warmed sample: what the warmed CTAs' threads visited (blocks) and
	 * their trip counts, kept apart from the timed CTAs' (bvisit, trips).
	 * Only their extremes are used: with every CTA warmed or timed, which
	 * sub-kernels some thread of the launch enters and the longest trip
	 * of each loop are the full replay's (fabric_timing.c every_fed) */
	uint64_t *bvisit_warm;          /* [nblocks] */
	struct weft_trips trips_warm;
	int trips_warm_ok;
	/* the grid padding of the launch's last CTA, once that CTA was timed
	 * or warmed (pad_known; pad_read: timed): a sample expands by working
	 * threads and counts the padding's visits once (weft_fabric_expansion) */
	int pad_known, pad_read;
	uint32_t pad_threads;
	uint64_t *pad_bvisit;           /* [nblocks] */
	uint64_t *pad_notexec;          /* [ninsts] */
	struct weft_trip_stat *pad_trips; /* [nloops] */
	uint32_t launch_tpc;            /* the launch's threads per CTA */
	struct weft_dmt dmt;
	int dmt_ok;
	uint8_t *dmt_rm;                /* [ninsts] removal reason (dMT) */
	uint8_t *dmt_fwd;               /* [ninsts] FABRIC_FWD_LOAD / FABRIC_LVC_LOAD (dMT) */
	struct fabric_prepared own;     /* a CTA prepared on this thread (replay_cta, warm_cta) */
	uint32_t cta_seq;               /* CTAs replayed (timed) this launch */
	uint32_t warmed;                /* CTAs only warmed this launch (fabric_warm.c) */
	int warming;                    /* this launch's sample is warmed: CTAs are dealt
					 * to cores by id, as a full replay deals them
					 * (a warm window skips CTAs) */
	uint32_t launch_ctas;           /* the launch's CTAs, read or not */
	uint32_t fill_start, fill_end;  /* a windowed sample: CTAs [fill_start, fill_end)
					 * are the fill, warmed until the caches are
					 * full (fabric_warm.c); empty = none */
	int filled;                     /* the fill found the caches full: the rest of
					 * it is skipped */
	uint32_t *fill_sel, fill_nsel;  /* the launch's sampled CTAs, increasing, */
	uint32_t fill_W;                /* and its window: which CTAs are the windows' */
	int restored;                   /* this launch's replay came from the cache */
	struct fabric_state *leader;    /* run_many: take replays from this state */
	/* run_many, a leader: its followers, whose LDST units it feeds (their
	 * own token buffer and epoch rule) from its held-latency sequences
	 * each time they reach FAB_SEQ_MAX and at its end_launch, so that no
	 * follower needs a whole launch's sequence */
	struct fabric_state **feeds;
	uint32_t nfeeds;
	int streamed;                   /* a follower: this launch's LDST units were fed by the leader */
	/* release-time heaps of the LDST pcs' units: heap_n heaps of
	 * token_buffer doubles (fabric_ldst_q) */
	double *heaps;
	uint32_t heap_n;
	/* per-pc sequences of reservation-held latencies (cycles, in feeding
	 * order) kept for the replay cache, so that a later run with another
	 * token buffer can re-feed its LDST units */
	uint16_t **seq;
	uint32_t *seq_n, *seq_cap;
	uint64_t seq_total;
	int seq_marked;                 /* this launch's sequences hold toggles (a warmed sample) */
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
	double total_dist[WEFT_DMT_DIST_BUCKETS]; /* dMT: communicating loads by |dTID| bucket */
};

/* How a launch's counts read from the timed CTAs expand to the launch:
 * the factor (CTAs / CTAs read; with the last CTA's grid padding known,
 * the launch's working threads / the working threads read) and the
 * CTAs read it stands for (CTAs / factor). fabric_replay.c. */
double weft_fabric_expansion(const struct fabric_state *s, double *ctas_read);

/* The last CTA of the launch was prepared in pr and timed (read) or
 * warmed: its grid padding is now known (fabric_state pad_*). */
void weft_fabric_pad_note(struct fabric_state *s, const struct fabric_prepared *pr, int read);

/* Re-feeds a pc's LDST unit for token buffer tb from its held-latency
 * sequence (heap: room for tb doubles), computing only `rule`'s figures;
 * marked: the sequence may hold toggles (FAB_SEQ_TOGGLE). */
void weft_fabric_ldst_refeed(struct fabric_ldst_q *q, double *heap, const uint16_t *held, uint32_t n,
			uint32_t tb, enum fabric_epoch_rule rule, int marked);

/* Continues feeding a pc's LDST unit (state in q, heap: room for tb
 * doubles) with n more held latencies, computing only `rule`'s figures:
 * what a run_many leader feeds its followers with (fabric_state.feeds). */
void weft_fabric_ldst_feed_batch(struct fabric_ldst_q *q, double *heap, const uint16_t *held, uint32_t n,
			    uint32_t tb, enum fabric_epoch_rule rule, int marked);
/* Feeds a warmed CTA's access (held latency `held`) to pc's LDST unit,
 * opening a warmed stretch first, and keeps it for re-feeds: a timed CTA
 * then finds the unit as a full replay leaves it (fabric_warm.c). */
void weft_fabric_ldst_warm_feed(struct fabric_state *s, uint32_t pc, double held);
/* A run_many leader at the end of its replay: feeds its followers what it
 * kept since the last flush (fabric_replay.c). */
void weft_fabric_feeds_flush(struct fabric_state *s);

int weft_fabric_launch_begin(struct fabric_state *s, const struct weft_program *p, struct weft_error *err);
void weft_fabric_launch_end(struct fabric_state *s);
int weft_fabric_replay_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err);
/* replay_cta in two halves: prepare reads s (the launch's program, its
 * per-block flagged pcs and loops, fixed from launch_begin to launch_end)
 * and writes only pr, so CTAs can be prepared on other threads while
 * apply runs; apply then puts pr into s (visits, trip counts, the
 * accesses through the caches in the fabric's order), CTA after CTA,
 * and does not write pr. */
int weft_fabric_prepare_cta(const struct fabric_state *s, const struct weft_cta_trace *cta,
			    struct fabric_prepared *pr, struct weft_error *err);
void weft_fabric_apply_cta(struct fabric_state *s, const struct weft_cta_trace *cta,
			   struct fabric_prepared *pr);
void weft_fabric_prepared_free(struct fabric_prepared *pr);

/* ---- fabric_warm.c: functional warming of a sampled replay ---- */

/* A CTA outside the sample (model.h warm_cta): its accesses change the L1
 * of the core a full replay deals it to and the L2 as its replay would,
 * in the fabric's order, and nothing is counted or timed. warm_cta
 * prepares the CTA on this thread; warm_apply takes one prepared by
 * weft_fabric_prepare_cta (on a decoder thread) and uses only its
 * accesses, in CTA order with the replayed ones. */
int weft_fabric_warm_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err);
/* The fill of a windowed sample (weft_cta_sample.warm_fill), at the
 * launch's begin (after the dMT analysis): F = twice the CTAs whose
 * footprint (the distinct lines of the first sampled CTA, decoded here)
 * fills the L2 and every core's L1, and with e the first CTA of the
 * launch's first window, the fill is CTAs [max(0, e - F), max(e, F)) as
 * trace_foreach.c marks them (the F before the first window, or the
 * launch's first F when fewer come before it); clears s->filled. A fill
 * CTA that is not a window's is warmed while some cache still has an
 * empty line and skipped after: a full replay's caches are full, and
 * their misses evict (and write back) lines where a part-empty cache's
 * misses evict nothing. Without a window the fill is empty. */
int weft_fabric_fill_begin(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err);
/* F, the fill's CTA count (model.h warm_fill) */
uint32_t weft_fabric_fill_ctas(const struct fabric_state *s);
/* 1 when CTA cta is a fill CTA (not a window's) not to be warmed: outside
 * this state's own fill (a run of several configurations asked for more),
 * or after the caches were found full */
int weft_fabric_fill_skip(const struct fabric_state *s, uint32_t cta);
void weft_fabric_warm_apply(struct fabric_state *s, const struct weft_cta_trace *cta,
			    const struct fabric_prepared *pr);
/* End of a launch: dirty L1 lines to the L2, dirty L2 lines to DRAM. */
void weft_fabric_replay_flush(struct fabric_state *s);

/* ---- fabric_cache.c: replays reused across runs in one process ---- */

/* Restores the replay of this launch (same trace, launch, CTA sample and
 * replay parameters) made by an earlier run in this process: 1 when
 * restored (the caller skips the replay), 0 when not cached. */
int weft_fabric_cache_lookup(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample);
/* Saves the replay just made (after weft_fabric_replay_flush). Silently skips
 * when memory for it is short or the cache is full. */
void weft_fabric_cache_store(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample);
/* Hash of the parameters a replay depends on (the cache key's part). */
uint64_t weft_fabric_replay_params_hash(const struct fabric_params *fp);
/* Frees every cached replay (tests; the cache otherwise lives as long as
 * the process). */
void weft_fabric_cache_clear(void);
/* The bytes the cached replays hold (tests). */
size_t weft_fabric_cache_bytes(void);

/* ---- fabric_explain.c: a launch explained as text (weft-estimate --explain) ---- */

/* One (sub-)kernel's timing as weft_fabric_time_launch computed it. */
struct fabric_explain_row {
	double visits, rate, latency, wait, spill_lat;
	uint32_t replicas;
	uint64_t crit_nodes;
	struct fabric_kernel_out out;
};
struct fabric_explain_in {
	const struct weft_trace_launch *L;
	uint32_t launch;
	const struct weft_dfg *g;
	const struct weft_dfg_map *m;
	double f;                       /* CTAs / CTAs read */
	uint32_t ctas_read;
	double cfg_cycles, bar_cycles, bar_per_thread, bar_group, fabric_cycles;
	double batches, batch_threads;   /* fabric.partition_batch: batches per core, threads each */
	const double *bsum;             /* [FAB_B_COUNT] */
	struct weft_launch_result *r;   /* cycles, limiter, stats filled; gets explain */
};
/* Sets in->r->explain: the mapping, each (sub-)kernel's bounds, the
 * launch's overheads and memory bounds and, for dMT, the communication
 * analysis with its dynamic operations against SIMT. */
int weft_fabric_explain_launch(const struct fabric_state *s, const struct fabric_explain_in *in,
			  const struct fabric_explain_row *rows, uint32_t nrows, struct weft_error *err);

/* ---- fabric_timing.c: one launch ---- */
int weft_fabric_time_launch(struct fabric_state *s, const struct weft_trace_launch *L, uint32_t launch,
		       struct weft_launch_result *r, struct weft_error *err);

#endif
