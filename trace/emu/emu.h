/*
 * emu.h - internal interface of weft's functional emulator (host.c,
 * emu_link.c, emu_mem.c, emu_run.c, emu_exec.c, emu_par.c, emu_int.c,
 * emu_float.c, emu_memops.c, emu_warp.c). Other modules use it for the
 * lowered program that observer events refer to (weft_emu_program, struct weft_emu_prog).
 *
 * How a launch runs (docs/emulator.md has the long form):
 *  1. emu_link lowers a kernel once per module into a struct weft_emu_prog:
 *     every .func call is inlined (callee registers get fresh slots, callee
 *     params/return values/local depots become per-thread .local storage),
 *     labels become program counters, every operand becomes a "slot" of the
 *     warp register file (immediates and special registers get slots that are
 *     filled once), and every divergent branch gets its reconvergence PC: the
 *     immediate post-dominator in the lowered CFG.
 *  2. emu_exec runs the grid CTA by CTA. A CTA's warps run in lock-step,
 *     32 lanes each, with a SIMT stack, and are interleaved round-robin with
 *     a quantum so that spin-waits make progress; barriers block warps.
 *  3. Every instruction executes for all active lanes of a warp in a tight
 *     loop over a structure-of-arrays register file: slot s of lane l is
 *     regs[s * 32 + l] (uint64_t, values zero-extended from their width).
 *
 * Generic addresses: global memory (allocations and module variables) lives
 * at WEFT_EMU_GLOBAL_BASE and up; shared, local and param memory each have a
 * window so that cvta and generic ld/st round-trip. .const addresses are
 * global addresses (module .const variables are allocations).
 */
#ifndef WEFT_EMU_H
#define WEFT_EMU_H

#include <stdint.h>
#include <string.h>

#include "common/error.h"
#include "host.h"
#include "trace/ptx/ptx.h"

#define WEFT_EMU_GLOBAL_BASE 0x0000001000000000ull
#define WEFT_EMU_PARAM_BASE  0x00007d0000000000ull
#define WEFT_EMU_SHARED_BASE 0x00007e0000000000ull
#define WEFT_EMU_LOCAL_BASE  0x00007f0000000000ull
#define WEFT_EMU_WINDOW_SIZE 0x0000010000000000ull
/* `mov.u64 %rd, func` gives WEFT_EMU_FUNC_BASE + 16 * function index (not
 * memory: only indirect calls use it) */
#define WEFT_EMU_FUNC_BASE   0x00007c0000000000ull
/* Texture and surface object handles: WEFT_EMU_TEX_BASE | generation << 16
 * | slot (not memory: a handle used as a pointer faults) */
#define WEFT_EMU_TEX_BASE    0x00007b0000000000ull

#define WEFT_EMU_NO_PC 0xffffffffu

/* What the core loop does with an instruction (control flow is handled
 * there; everything else goes through the handler). */
enum weft_emu_kind {
	WEFT_EK_ALU = 0, /* handler, then pc+1 */
	WEFT_EK_BRA,
	WEFT_EK_EXIT,
	WEFT_EK_TRAP,
	WEFT_EK_BAR,
	WEFT_EK_YIELD, /* nanosleep: pc+1 and end the warp's quantum */
	WEFT_EK_NOP,
};

struct weft_emu_launch;
struct weft_emu_warp;
struct weft_emu_inst;

typedef int (*weft_emu_fn)(struct weft_emu_launch *L, struct weft_emu_warp *W,
			   const struct weft_emu_inst *ei, uint32_t mask);

/* One lowered instruction. */
struct weft_emu_inst {
	weft_emu_fn fn;
	uint8_t kind;        /* enum weft_emu_kind */
	uint8_t nd;          /* destination slots used in d[] */
	uint8_t ns;          /* source slots used in s[] */
	uint8_t space;       /* resolved state space of the memory operand */
	uint8_t has_addr;
	uint8_t reads_clock; /* refresh clock slots before executing */
	uint8_t sneg;        /* bit i: source i is a negated predicate `!%p` */
	uint8_t elem_bytes;  /* ld/st/atom: bytes per element */
	uint8_t dbits;       /* width of the destination register(s) */
	uint8_t is_assert;   /* trap from `call __assertfail`: aoff, target,
				reconv hold the local offsets of its message,
				file and line arguments */
	uint8_t is_printf;   /* `call vprintf` (emu_printf.c): aoff, target hold
				the local offsets of its format and argument
				pointers, reconv that of its result
				(WEFT_EMU_NO_PC: none) */
	int32_t guard;       /* guard slot or -1 */
	int32_t d[4];        /* destination slots (sink: the scratch slot) */
	int32_t d2;          /* second destination of `d|p` forms, or -1 */
	int32_t s[6];        /* source slots (sust.b.2d.v4: 2 coordinates + 4 values) */
	int32_t abase;       /* address base slot, or -1 */
	int64_t aoff;        /* address offset (symbol address + immediate) */
	uint32_t target;     /* branch target pc */
	uint32_t reconv;     /* reconvergence pc of a branch (WEFT_EMU_NO_PC: exit) */
	uint32_t block;      /* basic block index */
	uint32_t src_func;   /* where the instruction came from (before inlining) */
	uint32_t src_pc;
	/* The PTX instruction with registers renumbered into the kernel's slot
	 * space and labels into lowered pcs (what observers see). */
	struct weft_inst in;
};

/* Slot initialisers: immediates and special registers. */
struct weft_emu_const {
	int32_t slot;
	uint64_t value;
};
struct weft_emu_sregslot {
	int32_t slot;
	uint16_t sreg, comp;
};

/* A lowered kernel. */
struct weft_emu_prog {
	uint32_t kernel;            /* function index in the module */
	const char *name;
	struct weft_emu_inst *insts;
	uint32_t ninsts;
	uint32_t nregs;             /* register slots (kernel + inlined callees) */
	uint8_t *reg_type;          /* [nregs] enum weft_ptx_type */
	uint32_t nslots;            /* registers + consts + sregs + scratch */
	int32_t scratch_slot;       /* sink `_` destination */
	struct weft_emu_const *consts;
	uint32_t nconsts;
	struct weft_emu_sregslot *sregs;
	uint32_t nsregs;
	uint32_t local_bytes;       /* per-thread .local frame (depots + call params) */
	uint32_t shared_static;     /* bytes of static shared memory */
	uint32_t shared_dyn_offset; /* where extern shared starts */
	uint32_t nblocks;           /* basic blocks */
};

/* A texture or surface object (host_tex.c). */
struct weft_emu_texobj {
	struct weft_tex_resource res;
	struct weft_tex_desc desc;
	uint64_t pitch;       /* bytes per row (res.pitch, or width x texel bytes) */
	uint64_t extent;      /* bytes from dptr that the object covers */
	uint32_t texel_bytes;
	uint32_t gen;         /* generation of the slot (in the handle) */
	uint8_t live, surface;
};

/* A device allocation (also module .global/.const variables). */
struct weft_emu_alloc {
	uint64_t base, size;
	uint8_t *host;
	char *name; /* module variable name, or NULL for weft_malloc */
};

struct weft_ctx {
	struct weft_ctx_options opts;
	struct weft_ctx_stats stats;
	struct weft_emu_alloc *allocs; /* sorted by base */
	uint32_t nallocs, cap_allocs;
	uint64_t next_base;
	struct weft_module **mods;
	uint32_t nmods, cap_mods;
	uint32_t last_alloc; /* index of the last allocation hit */
	const char *device_limit_why; /* what set stats.device_bytes_limit (static text) */
	struct weft_emu_texobj *texobjs; /* texture and surface objects, by slot */
	uint32_t ntexobjs, cap_texobjs;
};

struct weft_module {
	struct weft_ctx *ctx;
	struct weft_ptx_module *ptx;
	uint64_t *sym_addr;           /* [nsyms] global address of module .global/.const */
	struct weft_emu_prog **progs; /* [nfuncs] lowered kernels, built on first launch */
	uint64_t uid;                 /* weft_module_uid: never reused in the process */
};

/* SIMT stack entry: run `mask` from pc until pc == rpc. */
struct weft_emu_stack {
	uint32_t pc, rpc, mask;
};

enum { WEFT_WARP_RUN = 0, WEFT_WARP_BAR, WEFT_WARP_DONE };

struct weft_emu_warp {
	uint64_t *r;        /* nslots * 32 */
	uint32_t id;        /* warp index in the CTA */
	uint32_t valid;     /* lanes that exist */
	uint32_t exited;    /* lanes that exited (or never existed) */
	uint32_t carry;     /* per-lane carry flag (add.cc ...) */
	uint32_t state;
	struct weft_emu_stack *stk;
	uint32_t sp, cap;
	/* barrier wait */
	uint32_t bar_id, bar_mask;
	int32_t bar_dst;
	uint64_t addr[32]; /* per-lane addresses of the last memory instruction */
	uint8_t addr_space;
	uint8_t addr_bytes;
	uint64_t insts; /* warp instructions executed in this launch */
};

struct weft_emu_barrier {
	uint32_t arrived;   /* threads */
	uint32_t expected;  /* 0: all non-exited threads */
	uint32_t red_popc, red_and, red_or;
	uint32_t pc;        /* pc of the first arrival (for messages) */
	uint8_t mode;       /* WEFT_BAR_* of the first arrival */
};

struct weft_emu_launch {
	struct weft_ctx *ctx;
	struct weft_module *mod;
	const struct weft_emu_prog *prog;
	const char *kname;
	struct weft_dim3 grid, block;
	uint32_t dyn_shared;
	uint8_t *param;
	uint32_t param_bytes;
	/* Shared memory is allocated as the CTA touches it: shared[0, shared_cap)
	 * exists and is zeroed, shared_bytes is the CTA's size (static +
	 * dynamic); an access in [shared_cap, shared_bytes) grows the buffer
	 * (weft_emu_mem_slow), and each CTA clears only shared_cap bytes. */
	uint8_t *shared;
	uint32_t shared_bytes;
	uint32_t shared_cap;
	uint8_t *local;           /* nthreads * local_bytes */
	uint32_t local_bytes;
	uint32_t nthreads, nwarps;
	uint32_t ctaid[3];
	uint32_t cta_linear;
	struct weft_emu_warp *warps;
	struct weft_emu_barrier bars[16];
	uint32_t live_threads;    /* non-exited threads of the CTA */
	uint64_t clock;
	uint64_t next_progress;
	/* instruction budget of this launch (thread instructions) and where it
	 * was set (NULL: the context's max_launch_insts); run_warp stops once
	 * the context's count passes stop_at, the smaller of the context's
	 * --max-thread-insts and the count at launch start plus the budget */
	uint64_t budget;
	const char *budget_from;
	uint64_t ti0, stop_at;
	uint64_t wi0; /* the context's warp instructions at launch start */
	struct weft_error *err;
	/* where run_warp counts thread and warp instructions: the context's
	 * stats, or in a parallel worker (emu_par.c) the CTA's own */
	struct weft_ctx_stats *cnt;
	/* the observer's warp_inst and its user: the context's observer, or a
	 * parallel worker's recorder (NULL: none) */
	int (*obs_warp)(void *user, const struct weft_warp_event *ev, struct weft_error *err);
	void *obs_user;
	/* the observer's launch_want: obs_warp only where want[pc] != 0 for
	 * pc < want_n (want NULL: every pc) */
	const uint8_t *want;
	uint32_t want_n;
	int in_worker;            /* a parallel worker: no progress callback */
	uint64_t *regs;           /* every warp's register file (nwarps * nslots * 32) */
	/* global allocation cache: the last allocation each instruction hit */
	struct weft_emu_acache {
		uint64_t base, size;
		uint8_t *host;
	} *acache; /* [prog->ninsts] */
};

/* --- emu_link.c --- */
/* Lowers kernel `func` of mod (inlining calls, resolving symbols and
 * computing reconvergence points). */
int weft_emu_link(struct weft_module *mod, uint32_t func, struct weft_emu_prog **out,
		  struct weft_error *err);
void weft_emu_prog_free(struct weft_emu_prog *p);
/* The lowered program of a kernel (built on first use): what observers'
 * events refer to (event.pc indexes prog->insts). */
int weft_emu_program(struct weft_module *mod, uint32_t kernel,
		     const struct weft_emu_prog **out, struct weft_error *err);

/* --- emu_mem.c --- */
/* Index of the allocation containing [addr, addr+bytes), or -1. */
int weft_emu_alloc_find(struct weft_ctx *ctx, uint64_t addr, uint64_t bytes);
/* Describes the allocation nearest to addr into buf ("none" if none). */
void weft_emu_alloc_nearest(const struct weft_ctx *ctx, uint64_t addr, char *buf, size_t len);
/* Resolves one lane's access; returns the host pointer or NULL with
 * L->err filled (out of bounds, misaligned). space may be GENERIC;
 * *rspace gets the resolved space. */
uint8_t *weft_emu_mem_slow(struct weft_emu_launch *L, struct weft_emu_warp *W,
			   const struct weft_emu_inst *ei, int lane, int space, uint64_t addr,
			   uint32_t bytes, int write, uint8_t *rspace);
/* Fills L->err with a runtime error located at (W, lane, ei). */
int weft_emu_fault(struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
		   const struct weft_emu_inst *ei, enum weft_err code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* "kernel K, CTA (x,y,z), thread (x,y,z), PC n (PTX line L, file.cu:S)". */
void weft_emu_where(const struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
		    const struct weft_emu_inst *ei, char *buf, size_t len);

static inline uint8_t *weft_emu_mem(struct weft_emu_launch *L, struct weft_emu_warp *W,
				    const struct weft_emu_inst *ei, int lane, int space,
				    uint64_t addr, uint32_t bytes, int write, uint8_t *rspace)
{
	if (space == WEFT_SPACE_SHARED) {
		if (addr < L->shared_cap && bytes <= L->shared_cap - addr && !(addr & (bytes - 1))) {
			*rspace = WEFT_SPACE_SHARED;
			return L->shared + addr;
		}
		return weft_emu_mem_slow(L, W, ei, lane, space, addr, bytes, write, rspace);
	}
	/* fast path: global (or generic into global) hitting the allocation
	 * this instruction hit last */
	const struct weft_emu_acache *c = &L->acache[ei - L->prog->insts];
	if ((space == WEFT_SPACE_GLOBAL || space == WEFT_SPACE_GENERIC ||
	     space == WEFT_SPACE_CONST) &&
	    addr - c->base <= c->size - bytes && c->size >= bytes && !(addr & (bytes - 1))) {
		*rspace = space == WEFT_SPACE_CONST ? WEFT_SPACE_CONST : WEFT_SPACE_GLOBAL;
		return c->host + (addr - c->base);
	}
	return weft_emu_mem_slow(L, W, ei, lane, space, addr, bytes, write, rspace);
}

/* warp instructions between two calls of the context's progress callback */
#define WEFT_EMU_PROGRESS_EVERY (1ull << 22)
/* --- emu_run.c --- */
/* Runs launch L (set up by weft_launch_ex) on one thread or several. */
int weft_emu_run(struct weft_emu_launch *L);
/* --- emu_exec.c --- */
/* The launch's CTAs one after another on the calling thread (after
 * weft_emu_run set its counts and budget). */
int weft_emu_run_serial(struct weft_emu_launch *L);
/* After the observer's launch_begin: L->want from its launch_want (when it
 * has both launch_want and launch_counts). Before its launch_end: the
 * launch's counts to its launch_counts. Serial and parallel runs alike. */
void weft_emu_obs_want(struct weft_emu_launch *L, const struct weft_emu_observer *obs);
void weft_emu_obs_counts(struct weft_emu_launch *L, const struct weft_emu_observer *obs);
/* The pieces weft_emu_run is made of, for the parallel runner: per-launch
 * state (warps, registers, local frames, the allocation cache; shared
 * memory grows as touched) of one executor, set up and freed; and one CTA
 * run from its start to its end on that state (no observer CTA calls). */
int weft_emu_launch_alloc(struct weft_emu_launch *L);
void weft_emu_launch_free(struct weft_emu_launch *L);
int weft_emu_cta(struct weft_emu_launch *L, uint32_t cta, uint32_t quantum);
/* --- emu_par.c --- */
/* 1 when the launch's CTAs may run on several threads with the same
 * result as one after another: no global atomics or reductions, no
 * memory fences, no volatile/acquire/release global accesses, no clock
 * reads and, when `printing` (the context has a print handler), no
 * device printf (emu_par.c says why each serialises); *why gets the
 * first reason when 0. */
int weft_emu_par_safe(const struct weft_emu_prog *P, int printing, const char **why);
/* Runs the launch's CTAs on `jobs` threads (weft_emu_run calls it when
 * the launch and the observer allow): the same memory, trace and error as
 * weft_emu_run on one thread, except where an instruction budget runs out
 * (emu_par.c). */
int weft_emu_run_par(struct weft_emu_launch *L, unsigned jobs);

/* --- host_tex.c --- */
/* The live texture or surface object of handle h, or NULL. */
const struct weft_emu_texobj *weft_emu_texobj(const struct weft_ctx *ctx, uint64_t h);
void weft_emu_texobjs_free(struct weft_ctx *ctx);

/* --- handler selection (emu_alu.c, emu_memops.c, emu_warp.c, emu_tex.c) --- */
/* Each returns the handler of an instruction of its family, or NULL when
 * the opcode/type combination is not supported (a link-time error). */
weft_emu_fn weft_emu_int_fn(const struct weft_inst *in);   /* emu_int.c */
weft_emu_fn weft_emu_float_fn(const struct weft_inst *in); /* emu_float.c */
weft_emu_fn weft_emu_mem_fn(const struct weft_inst *in);   /* emu_memops.c */
weft_emu_fn weft_emu_warp_fn(const struct weft_inst *in);  /* emu_warp.c */
weft_emu_fn weft_emu_tex_fn(const struct weft_inst *in);   /* emu_tex.c */
/* --- emu_printf.c: the handler of a `call vprintf` --- */
int weft_emu_printf(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		    uint32_t mask);
/* A specialised handler for a resolved memory instruction, or NULL. */
weft_emu_fn weft_emu_mem_special(const struct weft_emu_inst *ei);

/* Float compare of the active lanes (bit l set when lane l compares true);
 * used by setp/set (emu_int.c). type is F32 or F64. */
uint32_t weft_emu_fcmp(int cmp, int type, int ftz, const uint64_t *a, const uint64_t *b,
		       uint32_t mask);
/* f16 + f16 rounded to nearest (atom.add.noftz.f16; emu_float.c). */
uint16_t weft_emu_f16_add(uint16_t a, uint16_t b);
/* One cvt for one value (emu_float.c); integer-only conversions too. */
uint64_t weft_emu_cvt1(const struct weft_inst *in, uint64_t v);

/* Bits of a type (pred: 1 stored as 0/1 but masked as 64). */
static inline unsigned weft_emu_bits(int t)
{
	switch (t) {
	case WEFT_T_B8: case WEFT_T_U8: case WEFT_T_S8: return 8;
	case WEFT_T_B16: case WEFT_T_U16: case WEFT_T_S16: case WEFT_T_F16: case WEFT_T_BF16:
		return 16;
	case WEFT_T_B32: case WEFT_T_U32: case WEFT_T_S32: case WEFT_T_F32: case WEFT_T_F16X2:
		return 32;
	default: return 64;
	}
}
static inline int weft_emu_signed(int t)
{
	return t == WEFT_T_S8 || t == WEFT_T_S16 || t == WEFT_T_S32 || t == WEFT_T_S64;
}
static inline uint64_t weft_emu_wmask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}
static inline int64_t weft_emu_sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* A register slot's bits as f32 (the low 32 bits) or f64, and back; memcpy
 * because the bits are reinterpreted, not converted. */
static inline float weft_emu_f32v(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline uint64_t weft_emu_f32b(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static inline double weft_emu_f64v(uint64_t v)
{
	double f;
	memcpy(&f, &v, 8);
	return f;
}
static inline uint64_t weft_emu_f64b(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

/* Lane iteration: a straight loop when all 32 lanes are active, so the
 * compiler can vectorise, else over set bits. */
#define WEFT_LANES(mask, l, ...)                                          \
	do {                                                              \
		if ((mask) == 0xffffffffu) {                              \
			for (int l = 0; l < 32; l++) {                    \
				__VA_ARGS__;                              \
			}                                                 \
		} else {                                                  \
			for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {    \
				int l = __builtin_ctz(m_);                \
				__VA_ARGS__;                              \
			}                                                 \
		}                                                         \
	} while (0)

#define WEFT_SLOT(W, s) ((W)->r + (size_t)(s) * 32)

/* Population count without a libgcc call (the build targets baseline
 * x86-64, which has no popcnt instruction). */
static inline uint32_t weft_emu_popc32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

#endif
