/*
 * group.h - lock-step execution of a CTA's threads in groups (warps, vector
 * fragments, FPGA batches) under a divergence policy, replayed from the
 * per-thread traces (trace.h). Written once, used by every timing model and
 * by `weft-trace stats`.
 *
 * A group of width W (1..64) is the threads [g*W, min((g+1)*W, nthreads))
 * of a CTA, in linear thread-id order; lane i of the group is thread g*W+i
 * and bit i of every mask below. The iterator replays the threads' block
 * paths together and yields what the group issues, in order:
 *
 *   - per issued block (weft_group_next_block): the block, the issue mask
 *     (lanes the group issues the block's instructions for) and the "on"
 *     mask (lanes whose path really is on this block; equal to the issue
 *     mask except under full predication);
 *   - per instruction of that block (weft_group_block_inst): pc, issue mask,
 *     exec mask (on-path lanes whose guard is true; for a branch the lanes
 *     that take it, for exit/ret the lanes that leave), and for memory
 *     instructions each executing lane's address and resolved state space.
 *
 * weft_group_next does both at once (one call per issued group instruction).
 * Policies (docs/grouping.md has the exact rules and worked examples):
 *
 *   WEFT_DIV_IPDOM       SIMT reconvergence stack at the immediate
 *                        post-dominator, identical to the emulator's own warps
 *                        (trace/emu/emu_exec.c): taken path first, then the
 *                        fall-through path, merge at the ipdom. At width 32
 *                        this reproduces the emulator's warp instructions
 *                        and masks exactly.
 *   WEFT_DIV_PVFB_FIFO   Maven vector-thread pending vector fragment buffer,
 *   WEFT_DIV_PVFB_1STACK FIFO / 1-stack / 2-stack fragment selection (Lee,
 *   WEFT_DIV_PVFB_2STACK Krashinsky et al., CGO 2013; Lee et al., ISCA 2011).
 *   WEFT_DIV_PREDICATE   full predication (FPGA overlay, Kingyens & Steffan,
 *                        IJRC 2011): every live lane is issued every block,
 *                        in layout order; loops repeat while any lane
 *                        iterates.
 *
 * Cost: no allocation after weft_group_iter_init (the iterator is a plain
 * struct of about 7.5 KB, reusable); per-lane cursors into the thread
 * traces. Iterators only read the CTA trace, so a model may keep one per
 * warp of a CTA and advance them interleaved in any order it schedules.
 * An inconsistent trace (a path step that is not a CFG edge, too few guard
 * bits or addresses) is reported as WEFT_ERR_INPUT naming CTA, thread and pc.
 */
#ifndef WEFT_GROUP_H
#define WEFT_GROUP_H

#include <stdint.h>

#include "common/error.h"
#include "trace/ptx/program.h"
#include "trace/format/trace.h"

#define WEFT_GROUP_MAX_WIDTH 64

enum weft_div_policy {
	WEFT_DIV_IPDOM = 0,
	WEFT_DIV_PVFB_FIFO,
	WEFT_DIV_PVFB_1STACK,
	WEFT_DIV_PVFB_2STACK,
	WEFT_DIV_PREDICATE,
	WEFT_DIV_COUNT
};

/* "ipdom", "fifo", "1stack", "2stack", "predicate" (also the names parse
 * accepts; parse takes "pvfb-fifo" etc. too). parse returns 0 or -1. */
const char *weft_div_policy_name(enum weft_div_policy p);
int weft_div_policy_parse(const char *s, enum weft_div_policy *out);

/* ---- per-program tables (build once per launch program) ---- */

/* How a block ends, as far as lanes' next blocks are concerned. */
enum weft_group_end {
	WEFT_GEND_FALL = 0, /* falls into the next block (or ends the path) */
	WEFT_GEND_BRA,      /* bra (conditional or not) */
	WEFT_GEND_EXIT,     /* exit, ret of the kernel, trap */
};

/* pcflags bits */
#define WEFT_GPC_GUARD 1u /* consumes one guard bit per reaching lane */
#define WEFT_GPC_MEM   2u /* consumes one address per executing lane */

struct weft_group_binfo {
	uint32_t first, count;
	uint32_t target;    /* BRA: block of the branch target */
	uint32_t fall;      /* next block in layout, or WEFT_NO_BLOCK */
	uint32_t ipdom;     /* immediate post-dominator, WEFT_NO_BLOCK: exit */
	uint32_t nguard;    /* guard bits each lane on the block consumes */
	uint32_t nmem;      /* unguarded memory instructions (one address each) */
	uint8_t end;        /* enum weft_group_end */
	uint8_t guarded_bra;/* BRA with a guard (its exec mask = lanes taking it) */
	uint8_t guarded_mem;/* some memory instruction of the block has a guard */
};

struct weft_group_prog {
	const struct weft_program *p;
	uint8_t *pcflags;                 /* [ninsts] WEFT_GPC_* */
	struct weft_group_binfo *binfo;   /* [nblocks] */
};

/* What each lane consumes per instruction comes from the program
 * (program.h WEFT_II_GUARD / WEFT_II_ADDR), the same rules the trace writer
 * and reader follow. */
int weft_group_prog_init(struct weft_group_prog *gp, const struct weft_program *p,
			 struct weft_error *err);
void weft_group_prog_free(struct weft_group_prog *gp);

/* ---- the iterator ---- */

/* Issued block. Like weft_group_inst below, aligned to a cache line: see
 * there. */
struct weft_group_block {
	_Alignas(64) uint32_t block;
	uint32_t first_pc, count;
	uint64_t issue;  /* lanes issued */
	uint64_t on;     /* lanes really on this block (subset of issue) */
	uint64_t taken;  /* on lanes that take the block's closing bra */
	uint64_t exiting;/* on lanes whose path ends here (exit/ret) */
};

/* Issued instruction. addr/space are indexed by lane and valid for the
 * exec lanes of a memory instruction (when addresses were asked for).
 * Aligned to a cache line, so that it never straddles a page: callers keep
 * it on the stack, the iterator fills it once per instruction, and the
 * compiler stores two 64-bit fields at once (16 bytes, 8-byte aligned); on
 * a decoder thread, whose stack begins page-aligned, one more local in a
 * caller's frame put that store across a 4 KiB boundary, and a store split
 * across pages costs far more than a split cache line (vt bfs large -j 2
 * went from 8.4 to 9.7 CPU seconds, 65% of inst_step's samples on that
 * store). */
struct weft_group_inst {
	_Alignas(64) uint32_t pc;
	uint32_t block;
	uint64_t issue, exec;
	uint8_t is_mem;
	const uint64_t *addr;
	const uint8_t *space;
};
_Static_assert(sizeof(struct weft_group_inst) == 64 && sizeof(struct weft_group_block) == 64,
	       "an issued instruction or block no longer fits the cache line it is aligned to");

struct weft_group_frag {
	uint32_t block;
	uint32_t rpc;    /* IPDOM: reconvergence block (WEFT_NO_BLOCK: exit) */
	uint64_t mask;
};

/* Most IPDOM stack entries: every divergence pushes two entries whose masks
 * are disjoint, non-empty parts of the entry below, so a stack over 64 lanes
 * holds at most 1 + 2 * 64. */
#define WEFT_GROUP_STACK_MAX (2 * WEFT_GROUP_MAX_WIDTH + 2)

/* iterator flags */
#define WEFT_GROUP_NO_ADDRS 1u /* do not copy addresses (cursors still advance) */

struct weft_group_iter {
	const struct weft_group_prog *gp;
	const struct weft_group_binfo *binfo;
	const uint8_t *pcflags;
	struct weft_error *err;
	uint32_t cta, first_thread, width, nlanes, policy, flags;
	uint64_t live;           /* lanes that have not exited */
	/* per-lane cursors: the block the lane executes now or next, its next
	 * guard bit and address */
	const uint32_t *bp[WEFT_GROUP_MAX_WIDTH], *bend[WEFT_GROUP_MAX_WIDTH];
	const uint8_t *gp_[WEFT_GROUP_MAX_WIDTH], *gend[WEFT_GROUP_MAX_WIDTH];
	/* the lane's next address: ap[l][0] for a thread with full addresses
	 * (ap[l] not NULL), else ab[l][sp_[l][0]] + ao[l][0] (trace.h: the
	 * decoder's offsets from a base per space); its space sp_[l][0], the
	 * addresses left spend[l] - sp_[l]. ab_all: the lanes' one base
	 * array when every lane's addresses are offsets from it (a decoded
	 * CTA's usual form), else NULL */
	const uint64_t *ap[WEFT_GROUP_MAX_WIDTH];
	const uint32_t *ao[WEFT_GROUP_MAX_WIDTH];
	const uint64_t *ab[WEFT_GROUP_MAX_WIDTH];
	const uint8_t *sp_[WEFT_GROUP_MAX_WIDTH], *spend[WEFT_GROUP_MAX_WIDTH];
	const uint64_t *ab_all;
	/* the issued block */
	int in_block;            /* a block is issued and not yet finished */
	int fresh;               /* none of its instructions consumed yet */
	uint32_t block, pc, end_pc;
	uint64_t issue, on;
	uint64_t to_target, exiting; /* lanes taking the branch / leaving */
	uint32_t next_other;     /* next block of on-lanes not taking the branch */
	uint64_t other;          /* those lanes */
	/* policy state */
	struct weft_group_frag stk[WEFT_GROUP_STACK_MAX]; /* IPDOM stack; PVFB current stack */
	uint32_t nstk;
	struct weft_group_frag stk2[WEFT_GROUP_MAX_WIDTH]; /* 2-stack next; FIFO ring */
	uint32_t nstk2, qhead;
	struct weft_group_frag cur; /* PVFB running fragment */
	uint32_t pblock;         /* PREDICATE: block the group is at */
	int done;
	uint64_t addr[WEFT_GROUP_MAX_WIDTH];
	uint8_t space[WEFT_GROUP_MAX_WIDTH];
};

/* Groups of width w over n threads: ceil(n / w). */
static inline uint32_t weft_group_count(uint32_t nthreads, uint32_t width)
{
	return width ? (nthreads + width - 1) / width : 0;
}

/* Starts group `group` of cta (width 1..64) under policy. err is kept for
 * the iterator's later errors. The iterator points into cta's buffers: it
 * is valid until cta is decoded again (weft_trace_read_cta reuses them). */
int weft_group_iter_init(struct weft_group_iter *it, const struct weft_group_prog *gp,
			 const struct weft_cta_trace *cta, uint32_t width, uint32_t group,
			 enum weft_div_policy policy, unsigned flags, struct weft_error *err);

/* Next issued block: 1 (filled), 0 at the group's end, <0 error. Any
 * instructions of the previous block not read with weft_group_block_inst
 * are skipped (their guard bits and addresses are consumed). */
int weft_group_next_block(struct weft_group_iter *it, struct weft_group_block *out);
/* Next instruction of the current block: 1, 0 at the block's end, <0 error. */
int weft_group_block_inst(struct weft_group_iter *it, struct weft_group_inst *out);
/* Next issued instruction of the group: 1, 0 at the end, <0 error. */
int weft_group_next(struct weft_group_iter *it, struct weft_group_inst *out);

/* Entries waiting besides the issued block: IPDOM stack entries below the
 * top, PVFB fragments waiting in the buffer (both stacks for 2-stack);
 * 0 under predication. For buffer occupancy and energy. */
uint32_t weft_group_pending(const struct weft_group_iter *it);

/* ---- summary statistics (weft-trace stats) ---- */

struct weft_group_stats {
	uint32_t width;
	enum weft_div_policy policy;
	uint64_t groups;
	uint64_t blocks;           /* issued blocks (fragment dispatches) */
	uint64_t pending_sum;      /* weft_group_pending summed over issued blocks */
	uint32_t pending_max;      /* its largest value */
	uint64_t group_insts;      /* issued group instructions */
	uint64_t thread_insts;     /* sum of exec lanes (guard true) */
	uint64_t issue_lanes;      /* sum of issued lanes */
	uint64_t hist_exec[WEFT_GROUP_MAX_WIDTH + 1];  /* group insts by exec lanes */
	uint64_t hist_issue[WEFT_GROUP_MAX_WIDTH + 1]; /* group insts by issued lanes */
};

void weft_group_stats_init(struct weft_group_stats *s, uint32_t width, enum weft_div_policy policy);
/* Adds every group of one CTA. */
int weft_group_stats_add_cta(struct weft_group_stats *s, const struct weft_group_prog *gp,
			     const struct weft_cta_trace *cta, struct weft_error *err);
/* SIMD efficiency: thread_insts / (group_insts * width); 0 when empty. */
double weft_group_stats_efficiency(const struct weft_group_stats *s);
/* Group instructions by issued lanes as a share of the width, in the
 * quartile buckets the Maven vector-thread study (Lee et al., ISCA 2011;
 * ACM TOCS 2013) reports active microthreads in:
 * out[0] 1-25%, out[1] 26-50%, out[2] 51-75%, out[3] 76-100%. A lane count
 * n falls in the first bucket k with n * 4 <= (k + 1) * width. */
void weft_group_stats_buckets(const struct weft_group_stats *s, uint64_t out[4]);

#endif
