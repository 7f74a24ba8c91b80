/*
 * ptx.h - the in-memory form of a PTX module (what the loader produces and
 * the emulator and trace writer consume).
 *
 * weft_ptx_parse() reads PTX text (the subset in docs/ptx-subset.md, i.e. what
 * nvcc 13 emits for sm_75..sm_90) into a struct weft_ptx_module. Everything is
 * decoded once: opcode and modifiers become enum fields, registers become
 * dense indices into their function's register table, labels become
 * instruction indices, symbols become indices into the module's symbol table.
 * Nothing is looked up by name at execution time.
 *
 * Ownership: the module owns all memory reachable from it; free it with
 * weft_ptx_module_free(). The module is immutable after parsing, so several
 * emulations may share one.
 *
 * Positions: every instruction keeps the PTX file line and column it came
 * from and, when the PTX carries `.loc`, the CUDA source file and line, so
 * that runtime errors and trace dumps can point at both.
 */
#ifndef WEFT_PTX_H
#define WEFT_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Operand / instruction data types. Order matters: helpers below rely on the
 * groups being contiguous. */
enum weft_ptx_type {
	WEFT_T_NONE = 0,
	WEFT_T_B8, WEFT_T_B16, WEFT_T_B32, WEFT_T_B64,
	WEFT_T_U8, WEFT_T_U16, WEFT_T_U32, WEFT_T_U64,
	WEFT_T_S8, WEFT_T_S16, WEFT_T_S32, WEFT_T_S64,
	WEFT_T_F16, WEFT_T_F16X2, WEFT_T_BF16, WEFT_T_F32, WEFT_T_F64,
	WEFT_T_PRED,
	WEFT_T_COUNT
};

/* Size in bytes of one element of a type (pred: 1). */
unsigned weft_ptx_type_size(enum weft_ptx_type t);
int weft_ptx_type_is_signed(enum weft_ptx_type t);
int weft_ptx_type_is_float(enum weft_ptx_type t);
const char *weft_ptx_type_name(enum weft_ptx_type t); /* "u32" */

/* State spaces. GENERIC means no space qualifier on ld/st/atom. */
enum weft_ptx_space {
	WEFT_SPACE_GENERIC = 0,
	WEFT_SPACE_GLOBAL,
	WEFT_SPACE_SHARED,
	WEFT_SPACE_LOCAL,
	WEFT_SPACE_CONST,
	WEFT_SPACE_PARAM,
	WEFT_SPACE_REG, /* only for symbols table completeness; never on ld/st */
	WEFT_SPACE_COUNT
};
const char *weft_ptx_space_name(enum weft_ptx_space s);

/* Opcodes: one per PTX instruction family. Modifiers live in the
 * instruction's fields, not in the opcode. */
enum weft_op {
	WEFT_OP_INVALID = 0,
	/* integer arithmetic */
	WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_MUL24, WEFT_OP_MAD24,
	WEFT_OP_DIV, WEFT_OP_REM, WEFT_OP_ABS, WEFT_OP_NEG, WEFT_OP_MIN, WEFT_OP_MAX,
	WEFT_OP_ADDC, WEFT_OP_SUBC, WEFT_OP_MADC, /* add.cc etc. use ADD + WEFT_F_CC */
	WEFT_OP_POPC, WEFT_OP_CLZ, WEFT_OP_BREV, WEFT_OP_BFE, WEFT_OP_BFI, WEFT_OP_PRMT,
	WEFT_OP_SAD,
	/* logic and shift */
	WEFT_OP_AND, WEFT_OP_OR, WEFT_OP_XOR, WEFT_OP_NOT, WEFT_OP_CNOT,
	WEFT_OP_SHL, WEFT_OP_SHR, WEFT_OP_SHF, WEFT_OP_LOP3,
	/* floating point (add/sub/mul/mad/div/abs/neg/min/max above are shared
	 * with integers and distinguished by type) */
	WEFT_OP_FMA, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_RSQRT, WEFT_OP_EX2, WEFT_OP_LG2,
	WEFT_OP_SIN, WEFT_OP_COS, WEFT_OP_TANH, WEFT_OP_COPYSIGN, WEFT_OP_TESTP,
	/* compare and select */
	WEFT_OP_SETP, WEFT_OP_SET, WEFT_OP_SELP, WEFT_OP_SLCT,
	/* conversion and movement */
	WEFT_OP_CVT, WEFT_OP_CVTA, WEFT_OP_MOV, WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST,
	WEFT_OP_PREFETCH, WEFT_OP_ISSPACEP,
	/* atomics */
	WEFT_OP_ATOM, WEFT_OP_RED,
	/* control */
	WEFT_OP_BRA, WEFT_OP_BRX, WEFT_OP_CALL, WEFT_OP_RET, WEFT_OP_EXIT, WEFT_OP_TRAP,
	WEFT_OP_BAR, /* bar.sync, barrier.sync, bar.arrive, bar.red (see mode) */
	WEFT_OP_BAR_WARP, WEFT_OP_MEMBAR, WEFT_OP_FENCE, WEFT_OP_NANOSLEEP,
	/* warp level */
	WEFT_OP_SHFL, WEFT_OP_VOTE, WEFT_OP_ACTIVEMASK, WEFT_OP_MATCH, WEFT_OP_REDUX,
	/* added by the parser (nvcc emits it for __ffs/__clzll): bfind.u32/.s32
	 * d, a (position of the most significant non-sign bit, 0xffffffff if
	 * none); .shiftamt sets WEFT_F_SHIFTAMT */
	WEFT_OP_BFIND,
	/* added by the parser (__dp4a/__dp2a_lo/hi): dp4a.atype.btype d, a, b, c
	 * (type = atype, type2 = btype); dp2a has mode WEFT_MUL_LO / HI */
	WEFT_OP_DP4A, WEFT_OP_DP2A,
	/* An instruction weft does not run (an unknown opcode or modifier,
	 * brx.idx, ...): kept so that the module loads and its other kernels
	 * run; launching a kernel that reaches it is the error (emu_link.c).
	 * nopnd = 0; opnd[0].imm indexes the module's unsup[] (why and the
	 * text as written). Never in a trace. */
	WEFT_OP_UNSUPPORTED,
	/* texture and surface instructions on texture/surface objects (a
	 * 64-bit handle in a register; docs/ptx-subset.md "Textures"):
	 *   tex.{1d,2d}.v4.dtype.ctype  d, [h, {c}]   opnd: VEC d, ADDR h, VEC c
	 *   tld4.{r,g,b,a}.2d.v4.dtype.f32 d, [h, {x, y}]
	 *   suld.b.{1d,2d}{.v2,.v4}.bN.{trap,clamp,zero} d, [h, {x, y}]
	 *   sust.b.{1d,2d}{.v2,.v4}.bN.{trap,clamp,zero} [h, {x, y}], d
	 *                                             opnd: ADDR h, VEC c, d
	 * type = dtype (bN for surfaces), type2 = ctype (tex, tld4), vec = 4
	 * (tex, tld4) or the surface vector; space = GLOBAL: the accesses are
	 * global memory reads and writes of the buffer behind the object. */
	WEFT_OP_TEX, WEFT_OP_TLD4, WEFT_OP_SULD, WEFT_OP_SUST,
	WEFT_OP_COUNT
};
const char *weft_op_name(enum weft_op op);

/* Rounding modifiers (.rn etc. for floats; .rni etc. for float->int cvt). */
enum weft_ptx_rnd {
	WEFT_RND_NONE = 0,
	WEFT_RND_RN, WEFT_RND_RZ, WEFT_RND_RM, WEFT_RND_RP,
	WEFT_RND_RNI, WEFT_RND_RZI, WEFT_RND_RMI, WEFT_RND_RPI,
};

/* Comparison operators of setp/set/slct. */
enum weft_ptx_cmp {
	WEFT_CMP_NONE = 0,
	WEFT_CMP_EQ, WEFT_CMP_NE, WEFT_CMP_LT, WEFT_CMP_LE, WEFT_CMP_GT, WEFT_CMP_GE,
	WEFT_CMP_LO, WEFT_CMP_LS, WEFT_CMP_HI, WEFT_CMP_HS,
	WEFT_CMP_EQU, WEFT_CMP_NEU, WEFT_CMP_LTU, WEFT_CMP_LEU, WEFT_CMP_GTU, WEFT_CMP_GEU,
	WEFT_CMP_NUM, WEFT_CMP_NAN,
};

/* Boolean combiner of setp/set (.and .or .xor). */
enum weft_ptx_boolop { WEFT_BOOL_NONE = 0, WEFT_BOOL_AND, WEFT_BOOL_OR, WEFT_BOOL_XOR };

/*
 * Per-opcode sub-mode (struct weft_inst.mode). One field, meaning depends on
 * the opcode:
 *   MUL/MAD/MUL24/MAD24: WEFT_MUL_LO / HI / WIDE
 *   ATOM/RED:            enum weft_atom_op
 *   SHFL:                WEFT_SHFL_UP / DOWN / BFLY / IDX
 *   VOTE:                WEFT_VOTE_ALL / ANY / UNI / BALLOT
 *   SHF:                 WEFT_SHF_L_WRAP / L_CLAMP / R_WRAP / R_CLAMP
 *   BAR:                 WEFT_BAR_SYNC / ARRIVE / RED_POPC / RED_AND / RED_OR
 *   TESTP:               WEFT_TESTP_FINITE / INFINITE / NUMBER / NOTANUMBER / NORMAL / SUBNORMAL
 *   PRMT:                WEFT_PRMT_DEFAULT / F4E / B4E / RC8 / ECL / ECR / RC16
 *   MATCH:               WEFT_MATCH_ANY / ALL
 *   REDUX:               enum weft_atom_op (add min max and or xor)
 *   CVTA:                0 = to generic (cvta.SPACE), 1 = from generic (cvta.to.SPACE)
 *   MEMBAR/FENCE:        WEFT_SCOPE_GPU / CTA / SYS / CLUSTER (membar.gl = GPU)
 *   TEX:                 WEFT_TEX_1D / 2D (geometry)
 *   TLD4:                component gathered: 0 r, 1 g, 2 b, 3 a (geometry 2D)
 *   SULD/SUST:           geometry | out-of-range mode << 4 (WEFT_SURF_TRAP /
 *                        CLAMP / ZERO): WEFT_SURF_GEOM(), WEFT_SURF_OOB()
 */
enum { WEFT_MUL_LO = 0, WEFT_MUL_HI, WEFT_MUL_WIDE };
enum weft_atom_op {
	WEFT_ATOM_ADD = 0, WEFT_ATOM_INC, WEFT_ATOM_DEC, WEFT_ATOM_MIN, WEFT_ATOM_MAX,
	WEFT_ATOM_AND, WEFT_ATOM_OR, WEFT_ATOM_XOR, WEFT_ATOM_EXCH, WEFT_ATOM_CAS,
};
enum { WEFT_SHFL_UP = 0, WEFT_SHFL_DOWN, WEFT_SHFL_BFLY, WEFT_SHFL_IDX };
enum { WEFT_VOTE_ALL = 0, WEFT_VOTE_ANY, WEFT_VOTE_UNI, WEFT_VOTE_BALLOT };
enum { WEFT_SHF_L_WRAP = 0, WEFT_SHF_L_CLAMP, WEFT_SHF_R_WRAP, WEFT_SHF_R_CLAMP };
enum { WEFT_BAR_SYNC = 0, WEFT_BAR_ARRIVE, WEFT_BAR_RED_POPC, WEFT_BAR_RED_AND, WEFT_BAR_RED_OR };
enum {
	WEFT_TESTP_FINITE = 0, WEFT_TESTP_INFINITE, WEFT_TESTP_NUMBER, WEFT_TESTP_NOTANUMBER,
	WEFT_TESTP_NORMAL, WEFT_TESTP_SUBNORMAL,
};
enum { WEFT_PRMT_DEFAULT = 0, WEFT_PRMT_F4E, WEFT_PRMT_B4E, WEFT_PRMT_RC8, WEFT_PRMT_ECL,
       WEFT_PRMT_ECR, WEFT_PRMT_RC16 };
enum { WEFT_MATCH_ANY = 0, WEFT_MATCH_ALL };
enum { WEFT_CVTA_TO_GENERIC = 0, WEFT_CVTA_FROM_GENERIC = 1 };
enum { WEFT_SCOPE_GPU = 0, WEFT_SCOPE_CTA, WEFT_SCOPE_SYS, WEFT_SCOPE_CLUSTER };
enum { WEFT_TEX_1D = 0, WEFT_TEX_2D };
enum { WEFT_SURF_TRAP = 0, WEFT_SURF_CLAMP, WEFT_SURF_ZERO };
#define WEFT_SURF_GEOM(mode) ((mode) & 15)
#define WEFT_SURF_OOB(mode) ((mode) >> 4)

/* Instruction flags (struct weft_inst.flags). */
enum {
	WEFT_F_FTZ = 1u << 0,
	WEFT_F_SAT = 1u << 1,
	WEFT_F_CC = 1u << 2,       /* writes the carry flag (add.cc, sub.cc, mad.lo.cc) */
	WEFT_F_APPROX = 1u << 3,
	WEFT_F_FULL = 1u << 4,
	WEFT_F_UNI = 1u << 5,      /* bra.uni / call.uni */
	WEFT_F_VOLATILE = 1u << 6,
	WEFT_F_NC = 1u << 7,       /* ld.global.nc */
	WEFT_F_SYNC = 1u << 8,     /* shfl.sync, vote.sync, barrier.sync ... */
	WEFT_F_ALIGNED = 1u << 9,  /* .aligned */
	WEFT_F_NOINC = 1u << 10,   /* reserved */
	WEFT_F_ACQUIRE = 1u << 11, /* memory-order qualifiers: recorded, order only */
	WEFT_F_RELEASE = 1u << 12,
	WEFT_F_RELAXED = 1u << 13,
	WEFT_F_ACQ_REL = 1u << 14,
	WEFT_F_SHIFTAMT = 1u << 15, /* mul24/mad24 .hi etc: reserved */
	WEFT_F_ABS = 1u << 16,      /* reserved for min/max .abs */
	WEFT_F_NAN = 1u << 17,      /* min.NaN / max.NaN */
	WEFT_F_RELU = 1u << 18,     /* cvt .relu */
	WEFT_F_WIDE = 1u << 19,     /* reserved */
};

/* Special registers. Component x/y/z is in weft_operand.comp. */
enum weft_sreg {
	WEFT_SREG_NONE = 0,
	WEFT_SREG_TID, WEFT_SREG_NTID, WEFT_SREG_CTAID, WEFT_SREG_NCTAID,
	WEFT_SREG_LANEID, WEFT_SREG_WARPID, WEFT_SREG_NWARPID, WEFT_SREG_SMID,
	WEFT_SREG_NSMID, WEFT_SREG_GRIDID,
	WEFT_SREG_CLOCK, WEFT_SREG_CLOCK64, WEFT_SREG_GLOBALTIMER,
	WEFT_SREG_LANEMASK_EQ, WEFT_SREG_LANEMASK_LE, WEFT_SREG_LANEMASK_LT,
	WEFT_SREG_LANEMASK_GE, WEFT_SREG_LANEMASK_GT,
	WEFT_SREG_DYNAMIC_SMEM_SIZE, WEFT_SREG_TOTAL_SMEM_SIZE,
	WEFT_SREG_ENVREG, /* %envreg<N>: comp = N */
	WEFT_SREG_CLOCK_HI, /* %clock_hi, %globaltimer_hi: the upper 32 bits of %clock64 */
	WEFT_SREG_COUNT
};
/* "%tid", "%laneid", ... as PTX spells it ("%envreg" without its number;
 * "%?" for NONE or out of range); the parser and dumps share it. The
 * parser reads the other predefined identifiers of the PTX ISA
 * ("Special Registers"; WARP_SZ) as one of these or as an immediate
 * (docs/ptx-subset.md "Operands"). */
const char *weft_ptx_sreg_name(enum weft_sreg s);
/* 1 for the registers with components .x .y .z (%tid %ntid %ctaid %nctaid). */
int weft_ptx_sreg_has_comp(enum weft_sreg s);

/* Operand kinds. */
enum weft_opnd_kind {
	WEFT_OPND_NONE = 0,
	WEFT_OPND_REG,    /* reg (and for the `d|p` form of setp/shfl: reg2) */
	WEFT_OPND_SINK,   /* `_`: result discarded */
	WEFT_OPND_IMM,    /* immediate: integer value, or float bits (0f.../0d...
			     or a decimal float converted to the instruction's
			     type); see imm_is_float */
	WEFT_OPND_SREG,   /* special register sreg.comp */
	WEFT_OPND_SYM,    /* the address of a symbol (mov.u64 %rd, sym;) + imm */
	WEFT_OPND_ADDR,   /* memory operand [reg+imm] or [sym+imm] (sym >= 0) or
			     [imm] */
	WEFT_OPND_VEC,    /* {%r1, %r2, ...}: vec_regs[0..nvec) (-1 = sink `_`) */
	WEFT_OPND_LABEL,  /* branch target: imm = instruction index in function */
	WEFT_OPND_FUNC,   /* call target: imm = function index in module */
};

/* Component of a special register. */
enum { WEFT_COMP_X = 0, WEFT_COMP_Y = 1, WEFT_COMP_Z = 2 };

#define WEFT_PTX_MAX_OPERANDS 6
#define WEFT_NO_REG (-1)

struct weft_operand {
	uint8_t kind;       /* enum weft_opnd_kind */
	uint8_t neg;        /* `!%p` as a source predicate operand */
	uint8_t imm_is_float;
	uint8_t nvec;       /* VEC: 1..4 */
	uint16_t sreg;      /* SREG: enum weft_sreg */
	uint16_t comp;      /* SREG: component (x/y/z) or envreg number */
	int32_t reg;        /* REG / ADDR base register, or WEFT_NO_REG */
	int32_t reg2;       /* REG: second destination of `d|p` forms, else WEFT_NO_REG */
	int32_t sym;        /* SYM / ADDR: symbol index in module, else -1 */
	int32_t vec_regs[4];
	int64_t imm;        /* IMM value (float: raw IEEE bits of the inst type);
			       ADDR/SYM byte offset; LABEL/FUNC index */
};

/* Source position of an instruction. */
struct weft_ptx_pos {
	uint32_t line;     /* PTX file line, 1-based */
	uint32_t column;   /* PTX file column of the opcode (or guard), 1-based */
	int32_t src_file;  /* index into module->files from the last `.loc`, -1 none */
	uint32_t src_line; /* CUDA source line from `.loc`, 0 none */
};

struct weft_inst {
	uint16_t op;        /* enum weft_op */
	uint8_t type;       /* main type: the last type suffix, e.g. .s32 of
			       add.s32, destination type of cvt, .b32 of mov */
	uint8_t type2;      /* cvt source type; setp/set/slct comparison operand
			       type (set: type = dest type, type2 = compare type;
			       slct: type = value type, type2 = .s32/.f32 of c) */
	uint8_t space;      /* ld/st/atom/red/cvta/prefetch/isspacep: enum weft_ptx_space */
	uint8_t vec;        /* ld/st: 1, 2 or 4 */
	uint8_t cmp;        /* enum weft_ptx_cmp */
	uint8_t boolop;     /* enum weft_ptx_boolop */
	uint8_t rnd;        /* enum weft_ptx_rnd */
	uint8_t mode;       /* per-opcode sub-mode, see above */
	uint8_t nopnd;
	uint8_t guard_neg;  /* @!%p */
	int32_t guard;      /* guard predicate register, or WEFT_NO_REG */
	uint32_t flags;     /* WEFT_F_* */
	struct weft_operand opnd[WEFT_PTX_MAX_OPERANDS];
	/* call only: (ret...), func, (args...) as symbol indices of .param
	 * variables visible at the call site; `call` operands: opnd[0] is FUNC.
	 * Indirect calls (`call (r), %rd1, (a), proto;`, emitted with -G) have
	 * opnd[0] REG holding the function pointer, which comes from
	 * `mov.u64 %rd, func` (a FUNC source operand); argument counts are
	 * checked against the .callprototype. */
	int32_t *call_rets, *call_args;
	uint8_t ncall_rets, ncall_args;
	struct weft_ptx_pos pos;
};

/* 1 when the instruction writes its operand 0 (st, red, bra, call, bar.sync
 * and the like do not). The emulator's linker and the static analysis
 * (program.h) both ask this, so they agree on every definition. */
int weft_inst_has_dest(const struct weft_inst *in);
/* The type (enum weft_ptx_type) an immediate at operand idx is written in:
 * the parser converts it to this type, and dumps print it back in it. */
int weft_inst_imm_type(const struct weft_inst *in, int idx);

/* A register of a function: name as written ("%r12", "%SP", "%p3"), type as
 * declared. Registers declared in nested `{ }` scopes get their own entries
 * (the name repeats; the scope is resolved at parse time). */
struct weft_ptx_reg {
	char *name;
	uint8_t type; /* enum weft_ptx_type */
};

/* The largest .global or .const variable the parser accepts, in bytes
 * (256 MiB): loading a module gives every one device memory and its
 * initialiser, so a declared size is what loading allocates. Far above any
 * bundled workload's (at most a few dozen bytes); larger is a parse error
 * naming the variable (docs/ptx-subset.md). */
#define WEFT_PTX_MAX_MODULE_VAR_BYTES (256u << 20)

/* A variable in some state space: module-level .global/.const/.shared,
 * function-level .shared/.local, .param (kernel params, .func params, and
 * the scoped `.param` declarations around a call). */
struct weft_ptx_symbol {
	char *name;
	uint8_t space;     /* enum weft_ptx_space */
	uint8_t type;      /* element type (.b8 for byte arrays) */
	uint8_t is_extern; /* declared .extern and not defined in this module;
			      `.extern .shared ... name[]` has size 0: set at launch */
	uint8_t is_visible;
	uint32_t align;    /* bytes; defaults to the element size */
	uint64_t size;     /* bytes (elements x element size); 0 for extern [] */
	uint8_t *init;     /* initialiser bytes (size bytes), or NULL = zero */
	int32_t func;      /* owning function index, -1 for module scope */
	uint32_t line;     /* declaration line */
};

/* A parameter of an .entry or .func, in declaration order. */
struct weft_ptx_param {
	int32_t sym;       /* index into module symbols (space PARAM) */
	uint8_t type;      /* declared type (.u64, .b8 for byte arrays) */
	uint32_t size;     /* bytes */
	uint32_t align;    /* bytes */
	uint32_t offset;   /* byte offset in the kernel's parameter buffer
			      (aligned as the CUDA ABI does) */
	uint8_t is_ptr_hint; /* .ptr qualifier seen */
};

struct weft_ptx_func {
	char *name;
	uint8_t is_entry;  /* .entry (kernel) vs .func */
	uint8_t is_visible;
	uint8_t is_extern; /* declaration without body */
	uint32_t line;
	struct weft_ptx_param *params;
	uint32_t nparams;
	uint32_t param_bytes; /* total size of the parameter buffer */
	struct weft_ptx_param *rets; /* .func return parameters */
	uint32_t nrets;
	struct weft_ptx_reg *regs;
	uint32_t nregs;
	struct weft_inst *insts;
	uint32_t ninsts;
	/* label names for dumps: label_at[i] is the name of the label on
	 * instruction i, or NULL. Length ninsts + 1 (a label may follow the last
	 * instruction). */
	char **label_at;
	/* performance directives; 0 = absent */
	uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
};

/* An instruction the parser kept as WEFT_OP_UNSUPPORTED: where it is, why
 * weft cannot run it (the message a parse error would have had) and its
 * text as written (whitespace collapsed, without the `;`). */
struct weft_ptx_unsup {
	uint32_t func, inst;     /* function index, instruction index in it */
	uint32_t line, column;   /* of the reason (the opcode or operand) */
	char *message;
	char *text;
};

struct weft_ptx_module {
	char *path;              /* as given to the parser, for messages */
	uint32_t version_major, version_minor; /* .version */
	char *target;            /* "sm_75" */
	uint32_t address_size;   /* 64 */
	struct weft_ptx_func *funcs;
	uint32_t nfuncs;
	struct weft_ptx_symbol *syms;
	uint32_t nsyms;
	char **files;            /* `.file N "name"`: files[N] (NULL if unused) */
	uint32_t nfiles;
	uint64_t hash;           /* FNV-1a 64 of the PTX text */
	/* WEFT_OP_UNSUPPORTED instructions, in the order met */
	struct weft_ptx_unsup *unsup;
	uint32_t nunsup;
};

/* Parses PTX text. path is used only in messages. On error returns a
 * negative weft_err, *out stays NULL, and err names path:line:column and the
 * offending opcode or directive. An instruction that is well-formed but
 * outside what weft runs (an unknown opcode or modifier, brx.idx, texture
 * forms other than those docs/ptx-subset.md lists) is not an error here: it
 * becomes WEFT_OP_UNSUPPORTED and the error comes when a kernel that
 * reaches it is launched (weft_launch), naming the kernel. */
int weft_ptx_parse(const char *text, size_t len, const char *path,
		   struct weft_ptx_module **out, struct weft_error *err);

/* Reads and parses a file. */
int weft_ptx_load_file(const char *path, struct weft_ptx_module **out,
		       struct weft_error *err);

void weft_ptx_module_free(struct weft_ptx_module *m);

/* Finds a function by name; returns its index or -1. */
int weft_ptx_find_func(const struct weft_ptx_module *m, const char *name);
/* Finds a module-scope symbol by name; returns its index or -1. */
int weft_ptx_find_symbol(const struct weft_ptx_module *m, const char *name);

/* Writes one instruction back as PTX-like text (for dumps and messages). */
void weft_ptx_format_inst(const struct weft_ptx_module *m, const struct weft_ptx_func *f,
			  const struct weft_inst *in, char *buf, size_t len);

#endif
