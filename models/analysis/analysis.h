/*
 * analysis.h - static analyses of a kernel's program (program.h) that the
 * timing models share: dominators, natural loops and their nesting, trip
 * counts measured on traced thread paths, reaching definitions / def-use
 * chains, control dependence, dataflow-graph depth, live registers, a
 * uniformity / affine analysis of register values and memory addresses,
 * and the memory footprint of a trace (distinct lines and words per state
 * space).
 *
 * Every analysis takes a struct weft_program whose blocks, block_of and info
 * are filled (weft_program_analyse does that) and builds its own result;
 * results own their memory and are freed with the matching *_free. Nothing
 * here prints or reads files. What each analysis computes and assumes is
 * described in docs/analysis.md.
 *
 * Typical use by a model:
 *
 *     struct weft_dom dom; struct weft_loops loops; struct weft_uniform u;
 *     weft_dom_build(p, &dom, &err);
 *     weft_loops_build(p, &dom, &loops, &err);
 *     weft_uniform_build(p, &dom, &loops, &u, &err);
 *     ... u.inst[pc].cls, u.inst[pc].addr_stride[0] ...
 *
 * The static results depend only on the program; trip counts and
 * footprints are fed from decoded CTAs (trace.h) by the caller.
 */
#ifndef WEFT_ANALYSIS_H
#define WEFT_ANALYSIS_H

#include <stdint.h>

#include "common/error.h"
#include "trace/ptx/program.h"

#define WEFT_NO_LOOP 0xffffffffu

/* ---- dominators ------------------------------------------------------- */

/* Dominator tree of the CFG rooted at block 0 (Cooper, Harvey, Kennedy, "A
 * Simple, Fast Dominance Algorithm"). Blocks unreachable from block 0 have
 * idom WEFT_NO_BLOCK and rpo_index UINT32_MAX; block 0's idom is itself. */
struct weft_dom {
	uint32_t nblocks;
	uint32_t *idom;      /* [nblocks] */
	uint32_t *rpo;       /* [nrpo] reachable blocks in reverse postorder */
	uint32_t nrpo;
	uint32_t *rpo_index; /* [nblocks] position in rpo */
	uint32_t *depth;     /* [nblocks] depth in the dominator tree (root 0) */
};
int weft_dom_build(const struct weft_program *p, struct weft_dom *d, struct weft_error *err);
/* 1 when block a dominates block b (every block dominates itself). */
int weft_dom_dominates(const struct weft_dom *d, uint32_t a, uint32_t b);
/* 1 when block a post-dominates block b, using the program's ipdom chain. */
int weft_pdom_postdominates(const struct weft_program *p, uint32_t a, uint32_t b);
void weft_dom_free(struct weft_dom *d);

/* ---- loops ------------------------------------------------------------ */

struct weft_edge {
	uint32_t from, to;
};

/* A natural loop: all back edges (t -> h with h dominating t) sharing a
 * header h form one loop, so a loop with two latches is one loop. Loops
 * are ordered so that a loop's parent comes before it (by the header's
 * reverse-postorder position). */
struct weft_loop {
	uint32_t header;
	uint32_t parent;       /* enclosing loop, or WEFT_NO_LOOP */
	uint32_t depth;        /* 1 = outermost */
	uint32_t nblocks;
	uint32_t *blocks;      /* sorted block indices, header included */
	uint32_t nlatches;
	uint32_t *latches;     /* sources of the back edges, sorted */
	uint32_t nexits;
	struct weft_edge *exits; /* edges from a loop block to a block outside */
	uint32_t nchildren;
};
struct weft_loops {
	uint32_t nloops;
	struct weft_loop *loops;
	uint32_t nblocks;
	uint32_t *innermost;   /* [nblocks] innermost loop holding the block, or WEFT_NO_LOOP */
	uint32_t nirreducible; /* retreating edges whose target does not dominate the source */
};
int weft_loops_build(const struct weft_program *p, const struct weft_dom *d,
		     struct weft_loops *l, struct weft_error *err);
/* 1 when block b belongs to loop li (binary search). */
int weft_loop_contains(const struct weft_loops *l, uint32_t li, uint32_t b);
void weft_loops_free(struct weft_loops *l);

/* ---- trip counts from traced paths ------------------------------------ */

/* Trip count of one loop entry = the number of visits to the header from
 * entering the loop until leaving it (or the end of the thread's path).
 * Histogram bucket k holds trip counts t with floor(log2(t)) == k. */
#define WEFT_TRIP_BUCKETS 33
struct weft_trip_stat {
	uint64_t entries;      /* loop entries over all threads added */
	uint64_t visits;       /* header visits (sum of trip counts) */
	uint64_t min, max;     /* over entries (0/0 when entries == 0) */
	uint64_t hist[WEFT_TRIP_BUCKETS];
	uint64_t ctas;         /* CTAs in which some thread entered the loop */
	uint64_t ctas_varying; /* ... in which threads' trip counts differ */
	/* per-CTA scratch */
	uint64_t cta_min, cta_max, cta_entries;
};
struct weft_trips {
	const struct weft_loops *loops;
	struct weft_trip_stat *stat; /* [loops->nloops] */
	/* scratch: the loops the current thread is inside, outermost first,
	 * with the header visits of each open entry */
	uint32_t *stk;
	uint64_t *stk_visits;
	uint32_t nstk;
};
int weft_trips_init(struct weft_trips *t, const struct weft_loops *l, struct weft_error *err);
/* Adds one thread's block path (struct weft_thread_trace.blocks). */
void weft_trips_add_path(struct weft_trips *t, const uint32_t *path, uint32_t n);
/* Brackets the threads of one CTA (for ctas / ctas_varying). */
void weft_trips_cta_begin(struct weft_trips *t);
void weft_trips_cta_end(struct weft_trips *t);
/* All threads of a decoded CTA (trace.h), bracketed as one CTA. */
struct weft_cta_trace;
void weft_trips_add_cta(struct weft_trips *t, const struct weft_cta_trace *c);
/* Zeroes t's statistics (a fresh start over the same loops). */
void weft_trips_reset(struct weft_trips *t);
/* Adds src's statistics to dst's (both over the same loops, src between
 * CTAs): dst becomes what adding src's CTAs to dst would have made it.
 * So CTAs can be counted apart (e.g. on other threads) and merged in
 * order. */
void weft_trips_merge(struct weft_trips *dst, const struct weft_trips *src);
double weft_trip_mean(const struct weft_trip_stat *s);
void weft_trips_free(struct weft_trips *t);

/* ---- reaching definitions and def-use chains --------------------------- */

/* Definition sites are (pc, slot) pairs, one per entry of info[pc].defs;
 * use sites are (pc, slot) pairs, one per entry of info[pc].uses (sources,
 * address bases and the guard). A definition by a guarded instruction
 * (@p / @!p) is a may-definition: it reaches its uses but does not kill
 * earlier definitions of the register. */
struct weft_defuse {
	uint32_t ninsts;
	uint32_t ndefs, nuses;
	uint32_t *def_base;   /* [ninsts+1] def sites of pc: def_base[pc]..def_base[pc+1] */
	uint32_t *use_base;   /* [ninsts+1] use sites of pc */
	uint32_t *def_pc;     /* [ndefs] */
	uint32_t *use_pc;     /* [nuses] */
	/* use -> reaching definitions: ud[ud_start[u] .. ud_start[u+1]) (def ids, sorted) */
	uint32_t *ud_start, *ud;
	/* 1 when some path from the kernel entry reaches use u with no definition
	 * of its register (an uninitialised read, or one that depends on it) */
	uint8_t *use_undef;
	/* def -> uses it reaches: du[du_start[d] .. du_start[d+1]) (use ids, sorted) */
	uint32_t *du_start, *du;
};
int weft_defuse_build(const struct weft_program *p, const struct weft_dom *d,
		      struct weft_defuse *du, struct weft_error *err);
void weft_defuse_free(struct weft_defuse *du);

/* ---- control dependence ---------------------------------------------- */

/* Block b is control dependent on the edges deps[start[b] .. start[b+1]):
 * (branch block, index of the successor taken). Ferrante-Ottenstein-Warren
 * over the program's post-dominators; a guarded exit/ret that falls through
 * counts as a branch (its other side leaves the kernel). A loop header is
 * control dependent on its own exit branches. */
struct weft_cdep_edge {
	uint32_t branch;
	uint32_t succ_index;
};
struct weft_cdep {
	uint32_t nblocks, ndeps;
	uint32_t *start;              /* [nblocks+1] */
	struct weft_cdep_edge *deps;  /* [ndeps] */
};
int weft_cdep_build(const struct weft_program *p, struct weft_cdep *c, struct weft_error *err);
void weft_cdep_free(struct weft_cdep *c);

/* ---- dataflow graph depth ---------------------------------------------- */

/* depth[pc] (caller allocates ninsts) = lat[pc] + the largest depth of the
 * definitions reaching pc's uses along forward edges (loop-carried
 * dependences left out); lat NULL counts 1 per instruction. *max_depth is
 * the critical path length of the whole kernel. Unreachable blocks get 0. */
int weft_dfg_depth(const struct weft_program *p, const struct weft_dom *d, const struct weft_defuse *du,
		   const uint32_t *lat, uint64_t *depth, uint64_t *max_depth, struct weft_error *err);

/* ---- live registers ------------------------------------------------- */

/* Registers live just before each instruction, in 32-bit words (64-bit
 * registers count two) and predicates apart; the maxima estimate what a
 * register allocator needs per thread (without spills). Guarded
 * definitions do not end a live range. Unreachable instructions get 0. */
struct weft_liveness {
	uint32_t ninsts;
	uint32_t *words_at;  /* [ninsts] */
	uint32_t *preds_at;  /* [ninsts] */
	uint32_t max_words, max_preds;
};
int weft_liveness_build(const struct weft_program *p, const struct weft_dom *d,
			struct weft_liveness *lv, struct weft_error *err);
void weft_liveness_free(struct weft_liveness *lv);

/* ---- uniformity and affine addresses ---------------------------------- */

/* Abstract value of a register at a program point. A value is
 *     coef.x * tid.x + coef.y * tid.y + coef.z * tid.z + base
 * where base is the same for every thread of the launch (LAUNCH: kernel
 * parameters, constants, ntid, nctaid, data from .const/.nc/ldu loads at
 * uniform addresses) or of a CTA (CTA: also ctaid), and each coefficient is
 * a known constant or an unknown uniform value. VARYING is anything else.
 * "Same for every thread" is per dynamic instance among the threads that
 * reach it (a value inside a divergent region can be uniform among the
 * threads that execute the region). */
enum weft_uform {
	WEFT_U_NONE = 0,   /* no value: undefined register, or the instruction defines none */
	WEFT_U_UNIFORM,    /* all coefficients known zero */
	WEFT_U_AFFINE,     /* some coefficient non-zero or unknown */
	WEFT_U_VARYING,
};
enum weft_ulevel { WEFT_UL_CONST = 0, WEFT_UL_LAUNCH, WEFT_UL_CTA };

struct weft_uval {
	uint8_t form;        /* enum weft_uform */
	uint8_t level;       /* enum weft_ulevel of base (and of unknown coefficients) */
	uint8_t coef_known;  /* bit c: coef[c] is a known constant */
	uint8_t base_known;  /* base is the known constant base_k */
	int64_t coef[3];     /* tid.x, tid.y, tid.z */
	int64_t base_k;
};

/* Per-instruction classes reported to models. */
enum weft_uclass {
	WEFT_UC_NONE = 0,    /* defines no register (store, branch, barrier) */
	WEFT_UC_CONST,       /* uniform, a known constant */
	WEFT_UC_LAUNCH,      /* uniform over the launch */
	WEFT_UC_CTA,         /* uniform over each CTA */
	WEFT_UC_AFFINE,      /* affine in tid */
	WEFT_UC_VARYING,
	WEFT_UC_COUNT
};
const char *weft_uclass_name(enum weft_uclass c);

struct weft_uinst {
	uint8_t cls;          /* enum weft_uclass of the results (worst over defs) */
	uint8_t guard_cls;    /* class of the guard predicate, NONE when unguarded */
	uint8_t is_mem;       /* ld/ldu/st/atom/red with an address */
	uint8_t addr_cls;     /* is_mem: class of the address */
	uint8_t stride_known; /* is_mem, affine: bit c when addr_stride[c] is known */
	uint8_t unit_stride;  /* is_mem: stride in tid.x == access bytes and tid.y/z strides are 0 or unknown */
	uint8_t access_bytes; /* is_mem: bytes per thread */
	uint8_t divergent;    /* the instruction ends its block with a branch, or a
				 guarded exit/ret, whose condition is not uniform
				 (threads may split) */
	int64_t addr_stride[3]; /* is_mem: byte stride per unit of tid.x/y/z */
	struct weft_uval val;   /* value of the first defined register */
	struct weft_uval addr;  /* is_mem: the address */
};

struct weft_uniform {
	uint32_t ninsts, nblocks;
	struct weft_uinst *inst;  /* [ninsts] */
	uint8_t *block_divergent; /* [nblocks] block ends in a divergent branch or guarded exit */
	uint8_t *loop_divergent;  /* [nloops] some exit of the loop, or a guarded exit
				     from the kernel inside it, is divergent
				     (trip counts may differ between threads) */
	uint32_t iterations;      /* outer fixed-point rounds, for tests */
};
int weft_uniform_build(const struct weft_program *p, const struct weft_dom *d,
		       const struct weft_loops *l, struct weft_uniform *u,
		       struct weft_error *err);
/* The same for one launch whose grid is nctaid[3] CTAs (x, y, z): along a
 * dimension of one CTA, ctaid is the constant 0. What the compiled code
 * computes is the static analysis's (a compiler does not know the grid);
 * this one says what a launch's threads actually share, e.g. which loads
 * read the same address in every CTA. */
int weft_uniform_build_grid(const struct weft_program *p, const struct weft_dom *d,
			    const struct weft_loops *l, const uint32_t nctaid[3],
			    struct weft_uniform *u, struct weft_error *err);
void weft_uniform_free(struct weft_uniform *u);

/* ---- memory footprint ------------------------------------------------- */

/* A set of 64-bit keys (line or word indices). */
struct weft_addrset {
	uint64_t *keys;
	uint64_t cap, n;
	int has_zero;
};
void weft_addrset_init(struct weft_addrset *s);
int weft_addrset_add(struct weft_addrset *s, uint64_t key); /* 0 or WEFT_ERR_NOMEM */
uint64_t weft_addrset_count(const struct weft_addrset *s);
void weft_addrset_clear(struct weft_addrset *s);
void weft_addrset_free(struct weft_addrset *s);

#define WEFT_FOOTPRINT_LINE 128u /* bytes: the GTX480's L1/L2 line and coalescing segment */
#define WEFT_FOOTPRINT_WORD 4u   /* bytes: a shared-memory bank word */

/* Lines touched, each with a mask of its words touched (a line holds
 * WEFT_FOOTPRINT_LINE / WEFT_FOOTPRINT_WORD = 32 words), so a densely used
 * line costs one entry rather than 32. */
struct weft_linemap {
	uint64_t *keys;     /* line index + 1; 0 = empty slot */
	uint32_t *masks;
	uint64_t cap, n;
};

/* Per resolved state space (enum weft_ptx_space): accesses, bytes, and
 * distinct lines / words. Shared and local are counted per CTA and summed
 * over CTAs (call weft_footprint_cta_end after each CTA); the others over
 * the launch. Counts are final after weft_footprint_finish. */
struct weft_footprint {
	uint64_t accesses[WEFT_SPACE_COUNT];
	uint64_t bytes[WEFT_SPACE_COUNT];
	uint64_t lines[WEFT_SPACE_COUNT];
	uint64_t words[WEFT_SPACE_COUNT];
	struct weft_linemap map[WEFT_SPACE_COUNT];
};
void weft_footprint_init(struct weft_footprint *f);
int weft_footprint_add(struct weft_footprint *f, unsigned space, uint64_t addr, unsigned bytes);
void weft_footprint_cta_end(struct weft_footprint *f);
void weft_footprint_finish(struct weft_footprint *f);
void weft_footprint_free(struct weft_footprint *f);

#endif
