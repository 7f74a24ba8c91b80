/*
 * program.h - the static program of one kernel launch, as the emulator ran
 * it and as the trace file stores it.
 *
 * It is the kernel after weft's linker (emu_link.c) inlined every .func
 * call: one flat array of instructions indexed by pc, registers renumbered
 * into 0..nregs-1, branch targets as pcs. Every per-thread path in a trace
 * is a sequence of this program's basic blocks, and models build CFGs,
 * dataflow graphs and post-dominators from it without the PTX file.
 *
 * Basic blocks: a block starts at pc 0, at every branch target and after
 * every bra/brx/ret/exit/trap; it ends before the next start. A thread that
 * enters a block reaches every instruction of it in order (each instruction
 * may still be predicated off by its guard). succ[] lists the CFG
 * successors: for a conditional branch succ[0] is the fall-through block
 * and succ[1] the target; an unconditional branch has only its target; a
 * block ending in exit/ret (of the kernel) or trap has none (a guarded
 * exit/ret/trap has its fall-through as only successor, plus an edge to the
 * exit for post-dominators). ipdom is the block's immediate post-dominator,
 * WEFT_NO_BLOCK when that is the exit (or the block cannot reach the exit).
 * The fall-through block of block b is always b + 1 (blocks are in pc
 * order). Post-dominators are computed by cfg.h, shared with the emulator.
 *
 * Obtain one from a loaded module (weft_module_program, host.h side) or
 * from a trace (trace.h); free with weft_program_free.
 */
#ifndef WEFT_PROGRAM_H
#define WEFT_PROGRAM_H

#include <stdint.h>

#include "common/error.h"
#include "ptx.h"

#define WEFT_NO_BLOCK 0xffffffffu

struct weft_block {
	uint32_t first;    /* first pc */
	uint32_t count;    /* instructions */
	uint32_t nsucc;    /* 0, 1 or 2 */
	uint32_t succ[2];
	uint32_t ipdom;    /* immediate post-dominator block, or WEFT_NO_BLOCK */
};

/* Static facts about an instruction that models ask for all the time,
 * derived once from struct weft_inst. */
enum weft_inst_class {
	WEFT_IC_INT = 0,   /* integer ALU, logic, shifts, compare on ints, mov, cvt int<->int */
	WEFT_IC_FP,        /* f32/f64 add/mul/fma/min/max/compare, cvt with a float side */
	WEFT_IC_SFU,       /* rcp sqrt rsqrt ex2 lg2 sin cos tanh, div on floats, int div/rem */
	WEFT_IC_LOAD,      /* ld/ldu (any space but param-from-kernel-params counts too) */
	WEFT_IC_STORE,
	WEFT_IC_ATOMIC,    /* atom/red */
	WEFT_IC_BRANCH,    /* bra/brx/call-free control: bra, ret, exit, trap */
	WEFT_IC_BARRIER,   /* bar/barrier, membar/fence, bar.warp.sync */
	WEFT_IC_WARP,      /* shfl vote match redux activemask */
	WEFT_IC_OTHER,     /* nanosleep, prefetch, ... */
	WEFT_IC_COUNT
};
const char *weft_inst_class_name(enum weft_inst_class c);

/* struct weft_inst_info.flags: what a trace stores per reached instance. */
#define WEFT_II_ADDR    0x01 /* has a memory operand: one address per executed instance */
#define WEFT_II_GUARD   0x02 /* guarded, outcome not implied by the path: one guard bit per reached instance */
#define WEFT_II_GCTRL   0x04 /* guarded exit/ret/trap/bra whose outcome the path implies */
#define WEFT_II_CTRL    0x08 /* ends its block: bra brx ret exit trap */

struct weft_inst_info {
	uint8_t cls;          /* enum weft_inst_class */
	uint8_t flags;        /* WEFT_II_* */
	uint8_t space;        /* resolved state space of a memory access
				 (generic accesses resolved by the emulator
				 at run time are recorded per access in the
				 trace; here GENERIC stays GENERIC) */
	uint8_t access_bytes; /* bytes per thread per memory access (vector included) */
	uint8_t ndefs, nuses;
	int32_t defs[6];      /* registers written (vector destinations, d|p) */
	int32_t uses[12];     /* registers read (sources, address base, guard) */
	uint32_t block;
};

struct weft_program {
	char *kernel;              /* kernel name */
	uint64_t ptx_hash;         /* hash of the PTX module text (ptx.h) */
	uint32_t ninsts;
	struct weft_inst *insts;   /* [ninsts]; owns call_rets/call_args (NULL after inlining) */
	struct weft_inst_info *info; /* [ninsts] */
	uint32_t *block_of;        /* [ninsts] block index of each pc */
	uint32_t nblocks;
	struct weft_block *blocks;
	uint32_t nregs;
	uint8_t *reg_type;         /* [nregs] enum weft_ptx_type */
	char **reg_names;          /* [nregs] names as in the PTX ("%r12"; inlined callee registers get "func:%r3") */
	char **files;              /* CUDA source files (pos.src_file indexes this), may hold NULLs */
	uint32_t nfiles;
	uint32_t param_bytes;      /* kernel parameter buffer */
	uint32_t shared_static_bytes; /* static .shared bytes per CTA */
	uint32_t local_bytes;      /* .local bytes per thread (depots, inlined frames) */
	char **sym_names;          /* [nsyms] module symbol names (operands' sym indexes this), may hold NULLs */
	uint32_t nsyms;
	uint8_t *iflags;           /* [ninsts] info[pc].flags & (ADDR | GUARD | GCTRL): compact, for iterators */
	void *priv;                /* internal: formatting tables built by weft_program_analyse */
};

/* Builds blocks, block_of, info and ipdom from insts (insts, ninsts, nregs,
 * reg_type must be set). Used by the program builders and the trace reader
 * (which stores blocks too and checks they agree). */
int weft_program_analyse(struct weft_program *p, struct weft_error *err);

void weft_program_free(struct weft_program *p);

/* One-line text of pc (PTX-like, registers by name), for dumps. */
void weft_program_format_inst(const struct weft_program *p, uint32_t pc, char *buf, size_t len);

#endif
