/*
 * map.h - mapping a kernel's dataflow graph (graph.h) onto a fabric with a
 * given number of units per type (SGMF, ISCA 2014): loop splitting into
 * init / body / epilogue kernels, partitioning of a kernel that does not fit
 * into sub-kernels with spilled live values, replication of one that fits
 * several times, path balancing per sub-kernel.
 *
 * The result is the list of (sub-)kernels the fabric runs one after another
 * for all threads, in program order; each says what it occupies, how deep it
 * is, how many copies run side by side, which memory and special operations
 * it holds (with their static pcs, so a timing model can find their
 * addresses in the trace), and how often it repeats.
 *
 * Rules (docs/models/dataflow.md):
 * - Segments: walking the blocks in reverse postorder, each innermost loop
 *   becomes one BODY segment (all its blocks, placed at its header); the
 *   blocks between them form straight segments, split where the innermost
 *   enclosing loop changes. Straight segments outside any loop are INIT
 *   (before the first body) or EPILOGUE (after one); straight segments in an
 *   outer loop are OUTER (they repeat per outer iteration). A kernel without
 *   loops (or with split_loops = 0) is one WHOLE segment.
 * - Live values: a data or predicate edge from a grid node to a node of
 *   another (sub-)kernel, and every loop-carried edge (it crosses iterations
 *   of a body kernel), becomes a spill store in the producer's kernel (one
 *   per value) and a spill load in each consuming kernel (one per value per
 *   kernel). A loop body that fits one configuration keeps its
 *   loop-carried values on its back edges as tokens (no spill); cut, its
 *   parts spill them. A mux whose definitions come from other kernels
 *   loads one shared slot: each definition is stored into it predicated,
 *   so only the taken one is written. Constants, parameters and thread
 *   initiation are re-created at the edge of every kernel that uses them,
 *   never spilled. Ordering edges between kernels vanish (kernels run one
 *   after another).
 * - Partitioning: the nodes of a segment are taken in topological order and
 *   added to the current sub-kernel while it would still fit with its spill
 *   loads and stores (as if closed right after); otherwise a new sub-kernel
 *   starts. Delay FIFOs are placed afterwards and do not cause cuts.
 * - Replication: replicas = min over unit types (and special kinds) with
 *   nodes > 0 of floor(units / nodes) (capped by max_replicas when
 *   non-zero), delay FIFO units counted as control nodes when they are
 *   placed: they are when they fit and the replicas with them stream at
 *   least as many threads per cycle as those without, each of which then
 *   takes `balance` threads per cycle (graph.h weft_dfg_paths).
 *
 * Typical use by a timing model:
 *
 *     struct weft_dfg_analyses a; struct weft_dfg g; struct weft_dfg_map m;
 *     weft_dfg_analyses_build(prog, &a, &err);
 *     ... optionally weft_trips_init(&trips, &a.loops, &err) + each thread's block path ...
 *     weft_dfg_build(prog, &a.dom, &a.du, &a.cdep, &lat_or_NULL, &g, &err);
 *     weft_dfg_map_build(prog, &g, &a.dom, &a.loops, &trips_or_NULL, &units_or_NULL, &m, &err);
 *     for each m.kernels[k]: units[], critical_path, replicas, ldst[] (pc -> trace
 *     addresses), special[], delay_slots, role/loop/trip_* /reps (repetition)
 */
#ifndef WEFT_DATAFLOW_MAP_H
#define WEFT_DATAFLOW_MAP_H

#include <stdint.h>

#include "common/error.h"
#include "models/analysis/analysis.h"
#include "graph.h"
#include "trace/ptx/program.h"

/* The fabric's units. */
struct weft_dfg_units {
	uint32_t n[WEFT_DFU_COUNT];        /* compute, control, ldst, special */
	uint32_t special[WEFT_DFS_COUNT];  /* per special kind; 0 = only the total counts */
	uint32_t fifo_depth;   /* delay slots one control unit holds (its token buffer) */
	uint32_t max_replicas; /* 0 = no cap */
	int split_loops;       /* 1: loops become init/body/epilogue kernels (SGMF ISCA 2014) */
};
/* The SGMF core of SGMF, ISCA 2014: 32/32/32/12 units, the 12 special
 * ones 4 integer dividers, 4 FP dividers, 4 square-root units; 16-entry
 * token buffers; loops split. */
void weft_dfg_units_sgmf(struct weft_dfg_units *u);

enum weft_dfk_role {
	WEFT_DFK_WHOLE = 0, /* the kernel has no loop (or loops are not split) */
	WEFT_DFK_INIT,      /* straight code before the first loop body */
	WEFT_DFK_BODY,      /* an innermost loop body: runs once per iteration */
	WEFT_DFK_EPILOGUE,  /* straight code after a loop body, outside every loop */
	WEFT_DFK_OUTER,     /* straight code inside an outer loop: runs per outer iteration */
	WEFT_DFK_COUNT
};
const char *weft_dfk_role_name(unsigned r);

/* A memory operation of a kernel: an instruction (pc) or a spill. */
struct weft_dfg_ldst {
	uint32_t node;   /* graph node (the instruction, or the value spilled) */
	uint32_t pc;     /* the instruction; WEFT_DFG_NONE for spills */
	uint8_t mem;     /* enum weft_dfg_mem */
	uint8_t space;   /* enum weft_ptx_space (spills: LOCAL) */
	uint8_t bytes;
};

struct weft_dfg_special_op {
	uint32_t node, pc;
	uint8_t special; /* enum weft_dfg_special */
};

/* One configuration of the fabric. */
struct weft_dfg_kernel {
	uint32_t index;          /* position in the run order */
	uint32_t segment;        /* its segment; sub-kernels of one segment are consecutive */
	uint32_t part, nparts;   /* sub-kernel part of nparts of its segment */
	uint8_t role;            /* enum weft_dfk_role */
	uint32_t loop;           /* BODY: its loop; OUTER: the innermost loop around it; else WEFT_NO_LOOP */

	uint32_t nnodes;
	uint32_t *nodes;         /* graph nodes on grid units, topological order */
	uint32_t units[WEFT_DFU_COUNT]; /* nodes per unit type incl. spills, excl. delay FIFOs */
	uint32_t specials[WEFT_DFS_COUNT];
	uint32_t nconst, ninit;  /* edge nodes it uses (constants+parameters, thread initiation) */
	uint32_t spill_loads, spill_stores;
	uint64_t delay_slots;
	uint32_t delay_edges;
	uint32_t fifo_edges;     /* edges whose slack exceeds the consumer's buffer */
	uint32_t delay_units;    /* control units the delay FIFOs need */
	double balance;          /* threads per cycle per replica without FIFOs (graph.h) */
	int delays_fit;          /* the FIFOs are placed: they fit and stream at least as many threads */
	double rate;             /* threads per cycle per replica: 1 with FIFOs, else balance */
	uint64_t critical_path;  /* cycles, spill loads/stores included */
	uint64_t critical_nodes;
	uint32_t replicas;
	double util[WEFT_DFU_COUNT]; /* units used (all replicas, delay units included when they
					fit) / units of the type */

	uint32_t nldst;
	struct weft_dfg_ldst *ldst;  /* memory instructions, then spill loads, then spill stores */
	uint32_t nspecial;
	struct weft_dfg_special_op *special;

	/* repetition: BODY runs once per iteration of `loop` (a thread takes
	 * part in iteration i while its trip count is > i, predicated off
	 * after); OUTER once per iteration of `loop`. Trip counts per loop
	 * entry, measured on traced threads (weft_trips); has_trips 0 when no
	 * trips were given. reps = product of trip_max over the loop and its
	 * enclosing loops (an upper bound on executions per launch). */
	int has_trips;
	uint64_t trip_entries, trip_visits, trip_min, trip_max;
	double trip_mean;
	uint64_t reps;
};

struct weft_dfg_map {
	struct weft_dfg_units units;
	uint32_t nkernels;
	struct weft_dfg_kernel *kernels; /* run order */
	uint32_t nsegments;
	uint32_t partitioned;      /* segments cut into more than one sub-kernel */
	uint32_t config_loads;     /* configurations loaded, loops repeated by reps */
	uint32_t reconfigs;        /* config_loads - 1 */
	uint32_t spill_loads, spill_stores; /* static totals */
	uint64_t delay_slots;
	/* the whole graph as one configuration (no loop split, no cut) */
	int whole_fits;
	uint32_t whole_replicas;
};

/* Maps g (built from p) onto u (NULL: weft_dfg_units_sgmf). d and loops
 * are the analyses g was built with; trips (over the same loops) may be
 * NULL (no repetition counts). */
int weft_dfg_map_build(const struct weft_program *p, const struct weft_dfg *g,
		       const struct weft_dom *d, const struct weft_loops *loops, const struct weft_trips *trips,
		       const struct weft_dfg_units *u, struct weft_dfg_map *m, struct weft_error *err);
void weft_dfg_map_free(struct weft_dfg_map *m);

/* Replicas of a configuration needing the given nodes per unit type and
 * special kind (0 when something does not fit). */
uint32_t weft_dfg_replicas(const struct weft_dfg_units *u, const uint32_t units[WEFT_DFU_COUNT],
			   const uint32_t specials[WEFT_DFS_COUNT]);

/* Per-thread repetition: iters[k] (nkernels, caller's) = how many times
 * thread with block path `path` (struct weft_thread_trace.blocks) takes
 * part in kernel k: for BODY and OUTER kernels the visits of their loop's
 * header in the path (all entries of the loop summed), else 1. The body
 * runs max over threads of iters times; a thread is predicated off after
 * its own count. */
void weft_dfg_map_thread_iters(const struct weft_dfg_map *m, const struct weft_loops *l,
			       const uint32_t *path, uint32_t n, uint64_t *iters);

/* Human-readable summary (one line per kernel) into buf; returns the length
 * it needed (as snprintf). */
int weft_dfg_map_format(const struct weft_dfg_map *m, char *buf, size_t len);

#endif
