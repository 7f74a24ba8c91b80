/*
 * graph.h - the dataflow graph (CDFG) of a kernel as a single-graph
 * multiple-flows fabric (SGMF / MT-CGRA, SGMF, ISCA 2014) would compile
 * it: nodes are the kernel's instructions, control flow is turned into
 * dataflow predication, memory operations are ordered by enable tokens.
 *
 * Built from a program's static analyses (models/analysis/analysis.h:
 * dominators, def-use chains, control dependence); nothing here reads a
 * trace. The mapping onto a fabric's units (replication, partitioning, loop
 * kernels) is map.h; the timing model uses both.
 *
 * What becomes what (docs/models/dataflow.md has the full rules):
 * - every instruction that computes becomes one node on a compute, special
 *   (int/fp divide, sqrt and the transcendentals) or LDST unit;
 * - immediates, symbol addresses, ntid/nctaid and kernel parameters
 *   (ld.param) become constant nodes at the grid edge, tid/ctaid and the
 *   other per-thread special registers thread-initiation nodes: neither
 *   takes a grid unit;
 * - a conditional branch (and a guarded exit/ret/trap) becomes a
 *   branch-condition node; unconditional bra/ret/exit vanish; every block
 *   that is control dependent on some branch gets a label node that
 *   aggregates the branch-condition nodes it depends on (cdep.c);
 * - a use reached by definitions of several instructions (an SSA phi)
 *   reads a mux node that selects by the labels of the defining blocks;
 * - memory operations are chained per ordering domain (global+generic,
 *   shared, local; a generic access is in all three): a load waits for the
 *   previous store of its domain, loads after one store run in parallel
 *   behind one split node per store, a store (or atomic) waits for every load since the
 *   previous store (a join node when there are several) or for that store;
 *   barriers and fences order all domains like a store;
 * - label nodes enable the memory operations of their block (the
 *   "poisoned token" of a not-taken path).
 * Loop-carried dependences are back edges: they never count in critical
 * paths or delay slots (each iteration is pipelined on its own).
 */
#ifndef WEFT_DATAFLOW_GRAPH_H
#define WEFT_DATAFLOW_GRAPH_H

#include <stdint.h>

#include "common/error.h"
#include "models/analysis/analysis.h"
#include "trace/ptx/program.h"

#define WEFT_DFG_NONE 0xffffffffu /* no node / no pc / no block */

/* Unit types of the grid (SGMF, ISCA 2014: 32 compute, 32 control,
 * 32 LDST, 12 special per SGMF core). EDGE nodes (constants, parameters,
 * thread initiation) sit at the grid's edge and take no grid unit. */
enum weft_dfg_unit {
	WEFT_DFU_COMPUTE = 0, /* ALU + FPU (fma included) */
	WEFT_DFU_CONTROL,     /* label, branch-condition, mux, split, join, barrier, delay FIFO */
	WEFT_DFU_LDST,        /* ld, st, atom, red, prefetch, spill load/store */
	WEFT_DFU_SPECIAL,     /* dividers, square root, transcendentals */
	WEFT_DFU_COUNT,       /* grid unit types */
	WEFT_DFU_EDGE = WEFT_DFU_COUNT
};
const char *weft_dfg_unit_name(unsigned u);

/* The three kinds of special unit (4 each in the SGMF core). ex2, lg2,
 * sin, cos and tanh have no unit of their own in the reference design;
 * weft maps them to the square-root units (iterative, non-pipelined
 * function blocks like sqrt) -- an assumption stated in the docs. */
enum weft_dfg_special {
	WEFT_DFS_INT_DIV = 0, /* div/rem on integers */
	WEFT_DFS_FP_DIV,      /* div on floats, rcp */
	WEFT_DFS_SQRT,        /* sqrt, rsqrt, ex2, lg2, sin, cos, tanh */
	WEFT_DFS_COUNT,
	WEFT_DFS_NONE = 0xff
};
const char *weft_dfg_special_name(unsigned s);

enum weft_dfg_kind {
	WEFT_DFN_OP = 0,   /* an instruction on a compute/special/LDST unit */
	WEFT_DFN_CONST,    /* immediate, symbol address, mov imm, ntid/nctaid (edge) */
	WEFT_DFN_PARAM,    /* ld.param: a kernel parameter (edge) */
	WEFT_DFN_INIT,     /* thread initiation: tid, ctaid and other per-thread sregs (edge) */
	WEFT_DFN_LABEL,    /* block predicate: aggregates the branch conditions (control) */
	WEFT_DFN_BRANCH,   /* branch condition of a conditional bra / guarded exit (control) */
	WEFT_DFN_MUX,      /* phi: selects among definitions (control) */
	WEFT_DFN_SPLIT,    /* fans one ordering token out to parallel loads (control) */
	WEFT_DFN_JOIN,     /* gathers the ordering tokens of loads before a store (control) */
	WEFT_DFN_BARRIER,  /* bar / membar / fence: orders every memory domain (control) */
	WEFT_DFN_COUNT
};
const char *weft_dfg_kind_name(unsigned k);

/* What a memory node does (struct weft_dfg_node.mem). */
enum weft_dfg_mem {
	WEFT_DFM_NONE = 0, WEFT_DFM_LOAD, WEFT_DFM_STORE, WEFT_DFM_ATOMIC,
	WEFT_DFM_SPILL_LOAD, WEFT_DFM_SPILL_STORE /* only in map.h's kernels */
};

enum weft_dfg_edge_kind {
	WEFT_DFE_DATA = 0, /* a register value */
	WEFT_DFE_PRED,     /* a predicate: label/branch aggregation, mux select, memory enable */
	WEFT_DFE_ORDER     /* memory ordering token */
};

struct weft_dfg_edge {
	uint32_t from, to;
	uint8_t kind;      /* enum weft_dfg_edge_kind */
	uint8_t back;      /* loop-carried: the source comes later in program order */
	uint8_t balanced;  /* counts for path balancing (source is not a constant/parameter) */
	uint32_t slack;    /* delay slots on this edge (cycles the token waits), forward edges only */
};

struct weft_dfg_node {
	uint8_t kind;      /* enum weft_dfg_kind */
	uint8_t unit;      /* enum weft_dfg_unit */
	uint8_t special;   /* enum weft_dfg_special, WEFT_DFS_NONE unless SPECIAL */
	uint8_t mem;       /* enum weft_dfg_mem (OP nodes on LDST units) */
	uint8_t space;     /* memory nodes: enum weft_ptx_space as the program resolves it */
	uint8_t bytes;     /* memory nodes: bytes per access; others: bytes of the value */
	uint32_t pc;       /* instruction (OP/CONST/PARAM/INIT/BRANCH/BARRIER; MUX: the first
			      use it serves); WEFT_DFG_NONE for LABEL/SPLIT/JOIN and immediates */
	uint32_t block;    /* block it belongs to; WEFT_DFG_NONE for immediates */
	int32_t reg;       /* MUX: the register merged; else -1 */
	uint32_t lat;      /* cycles (struct weft_dfg_params) */
	uint32_t in_start, nin;   /* in-edges: edges[in_start .. +nin) */
	uint32_t out_start, nout; /* out-edges: edges[out[out_start .. +nout)] */
	uint64_t finish;   /* cycles from thread start until its result is ready (forward edges) */
	int64_t imm;       /* CONST from an immediate: the value bits */
};

/* Latency in cycles per node, by unit type. The reference publications give
 * no per-unit latencies, so the default is one cycle per node (every unit a
 * single pipeline stage, as the SGMF paper's example "critical path 3 x
 * 16-entry buffers = 48 threads" counts nodes) and edge nodes 0; the timing model
 * overrides these from its config. */
struct weft_dfg_params {
	uint32_t lat[WEFT_DFU_COUNT + 1]; /* by enum weft_dfg_unit, EDGE last */
	uint32_t lat_special[WEFT_DFS_COUNT]; /* per special kind; 0 = lat[WEFT_DFU_SPECIAL] */
};
void weft_dfg_params_default(struct weft_dfg_params *prm);

struct weft_dfg {
	uint32_t nnodes, nedges;
	struct weft_dfg_node *nodes;
	struct weft_dfg_edge *edges;  /* sorted by (to, from); no duplicate (from, to) pairs */
	uint32_t *out;                /* [nedges] edge ids grouped by source */
	uint32_t *topo;               /* [nnodes] node ids, a topological order of the forward edges */
	uint32_t ninsts, nblocks;
	uint32_t *node_of_pc;         /* [ninsts] node of an instruction, WEFT_DFG_NONE if none */
	uint32_t *label_of_block;     /* [nblocks] label node, WEFT_DFG_NONE if unconditional */
	struct weft_dfg_params params;

	/* totals over the whole graph (one configuration, loops not split) */
	uint32_t units[WEFT_DFU_COUNT + 1];    /* nodes per unit type, EDGE last */
	uint32_t specials[WEFT_DFS_COUNT];      /* special nodes per kind */
	uint32_t kinds[WEFT_DFN_COUNT];         /* nodes per kind */
	uint32_t nback;                         /* loop-carried edges */
	uint64_t critical_path;                 /* cycles: largest finish */
	uint64_t critical_nodes;                /* grid nodes on the longest path (1 per grid node) */
	uint64_t delay_slots;                   /* sum of slack over balanced forward edges */
	uint32_t delay_edges;                   /* edges with slack > 0 (each needs a delay FIFO) */
};

/* The analyses the graph needs, built in one go (tests, tools). */
struct weft_dfg_analyses {
	struct weft_dom dom;
	struct weft_loops loops;
	struct weft_defuse du;
	struct weft_cdep cdep;
};
int weft_dfg_analyses_build(const struct weft_program *p, struct weft_dfg_analyses *a,
			    struct weft_error *err);
void weft_dfg_analyses_free(struct weft_dfg_analyses *a);

/* Builds the graph; prm NULL uses weft_dfg_params_default. */
int weft_dfg_build(const struct weft_program *p, const struct weft_dom *d,
		   const struct weft_defuse *du, const struct weft_cdep *cd,
		   const struct weft_dfg_params *prm, struct weft_dfg *g, struct weft_error *err);
void weft_dfg_free(struct weft_dfg *g);

/* Critical path and path balancing over the nodes with member[node] != 0
 * (member NULL: all nodes), in topological order. An input from a grid node
 * outside the set, and with a set every loop-carried data/predicate input,
 * is a spilled value: it arrives from a spill load (LDST latency) at thread
 * start. Constants and parameters need no balancing (a
 * constant unit supplies its value whenever asked); every other forward
 * input whose token arrives before the node's last input waits that many
 * cycles in a delay FIFO. finish[] (nnodes, caller's) receives finish times,
 * slack[] (nedges, or NULL) each edge's delay slots (0 for edges not in the
 * set, back edges and unbalanced ones).
 * The consumer's token buffer (fifo_depth entries) absorbs fifo_depth
 * cycles of an edge's slack; delay_units counts ceil((slack - fifo_depth) /
 * fifo_depth) FIFO control units for each edge with more (fifo_depth 0:
 * one per edge with slack), balance the threads per cycle one replica
 * sustains if no FIFO is placed: min over those edges of fifo_depth /
 * slack (1 when none). */
struct weft_dfg_paths {
	uint64_t critical_path;  /* cycles */
	uint64_t critical_nodes; /* grid nodes on the longest path */
	uint64_t delay_slots;    /* sum of slack over balanced edges */
	uint32_t delay_edges;    /* edges with slack */
	uint32_t fifo_edges;     /* edges with slack beyond fifo_depth (FIFOs needed) */
	uint32_t delay_units;
	double balance;
};
int weft_dfg_paths(const struct weft_dfg *g, const uint8_t *member, uint32_t fifo_depth,
		   uint64_t *finish, uint32_t *slack, struct weft_dfg_paths *out,
		   struct weft_error *err);

/* Bytes a spilled value of node n takes (its register's size, at least a
 * 4-byte word). */
unsigned weft_dfg_value_bytes(const struct weft_program *p, const struct weft_dfg *g, uint32_t n);

/* 1 when the edge carries a value a partition cut must spill (data or
 * predicate from a grid node). Inline: a predicate on the graph's data that
 * graph.c, graph_paths.c and map.c all ask, so it makes no call between them. */
static inline int weft_dfg_edge_spillable(const struct weft_dfg *g, const struct weft_dfg_edge *e)
{
	return e->kind != WEFT_DFE_ORDER && g->nodes[e->from].unit != WEFT_DFU_EDGE;
}

#endif
