/*
 * ptx_types.c - small queries on the PTX IR (type sizes and names, opcode
 * names, lookups by name) and freeing a module. See ptx.h. The parser
 * (ptx_parse*.c) calls these; they call nothing of the parser (loading a
 * PTX file from disk is the parser's entry point, in ptx_parse.c).
 */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

unsigned weft_ptx_type_size(enum weft_ptx_type t)
{
	switch (t) {
	case WEFT_T_B8: case WEFT_T_U8: case WEFT_T_S8: case WEFT_T_PRED:
		return 1;
	case WEFT_T_B16: case WEFT_T_U16: case WEFT_T_S16: case WEFT_T_F16: case WEFT_T_BF16:
		return 2;
	case WEFT_T_B32: case WEFT_T_U32: case WEFT_T_S32: case WEFT_T_F32: case WEFT_T_F16X2:
		return 4;
	case WEFT_T_B64: case WEFT_T_U64: case WEFT_T_S64: case WEFT_T_F64:
		return 8;
	default:
		return 0;
	}
}

int weft_ptx_type_is_signed(enum weft_ptx_type t)
{
	return t >= WEFT_T_S8 && t <= WEFT_T_S64;
}

int weft_ptx_type_is_float(enum weft_ptx_type t)
{
	return t >= WEFT_T_F16 && t <= WEFT_T_F64;
}

static const char *const type_names[WEFT_T_COUNT] = {
	[WEFT_T_NONE] = "none",
	[WEFT_T_B8] = "b8", [WEFT_T_B16] = "b16", [WEFT_T_B32] = "b32", [WEFT_T_B64] = "b64",
	[WEFT_T_U8] = "u8", [WEFT_T_U16] = "u16", [WEFT_T_U32] = "u32", [WEFT_T_U64] = "u64",
	[WEFT_T_S8] = "s8", [WEFT_T_S16] = "s16", [WEFT_T_S32] = "s32", [WEFT_T_S64] = "s64",
	[WEFT_T_F16] = "f16", [WEFT_T_F16X2] = "f16x2", [WEFT_T_BF16] = "bf16",
	[WEFT_T_F32] = "f32", [WEFT_T_F64] = "f64", [WEFT_T_PRED] = "pred",
};

const char *weft_ptx_type_name(enum weft_ptx_type t)
{
	if ((unsigned)t >= WEFT_T_COUNT)
		return "?";
	return type_names[t];
}

const char *weft_ptx_space_name(enum weft_ptx_space s)
{
	switch (s) {
	case WEFT_SPACE_GENERIC: return "generic";
	case WEFT_SPACE_GLOBAL: return "global";
	case WEFT_SPACE_SHARED: return "shared";
	case WEFT_SPACE_LOCAL: return "local";
	case WEFT_SPACE_CONST: return "const";
	case WEFT_SPACE_PARAM: return "param";
	case WEFT_SPACE_REG: return "reg";
	default: return "?";
	}
}

static const char *const op_names[WEFT_OP_COUNT] = {
	[WEFT_OP_INVALID] = "invalid",
	[WEFT_OP_ADD] = "add", [WEFT_OP_SUB] = "sub", [WEFT_OP_MUL] = "mul", [WEFT_OP_MAD] = "mad",
	[WEFT_OP_MUL24] = "mul24", [WEFT_OP_MAD24] = "mad24", [WEFT_OP_DIV] = "div",
	[WEFT_OP_REM] = "rem", [WEFT_OP_ABS] = "abs", [WEFT_OP_NEG] = "neg",
	[WEFT_OP_MIN] = "min", [WEFT_OP_MAX] = "max", [WEFT_OP_ADDC] = "addc",
	[WEFT_OP_SUBC] = "subc", [WEFT_OP_MADC] = "madc", [WEFT_OP_POPC] = "popc",
	[WEFT_OP_CLZ] = "clz", [WEFT_OP_BREV] = "brev", [WEFT_OP_BFE] = "bfe",
	[WEFT_OP_BFI] = "bfi", [WEFT_OP_PRMT] = "prmt", [WEFT_OP_SAD] = "sad",
	[WEFT_OP_AND] = "and", [WEFT_OP_OR] = "or", [WEFT_OP_XOR] = "xor", [WEFT_OP_NOT] = "not",
	[WEFT_OP_CNOT] = "cnot", [WEFT_OP_SHL] = "shl", [WEFT_OP_SHR] = "shr",
	[WEFT_OP_SHF] = "shf", [WEFT_OP_LOP3] = "lop3", [WEFT_OP_FMA] = "fma",
	[WEFT_OP_RCP] = "rcp", [WEFT_OP_SQRT] = "sqrt", [WEFT_OP_RSQRT] = "rsqrt",
	[WEFT_OP_EX2] = "ex2", [WEFT_OP_LG2] = "lg2", [WEFT_OP_SIN] = "sin", [WEFT_OP_COS] = "cos",
	[WEFT_OP_TANH] = "tanh", [WEFT_OP_COPYSIGN] = "copysign", [WEFT_OP_TESTP] = "testp",
	[WEFT_OP_SETP] = "setp", [WEFT_OP_SET] = "set", [WEFT_OP_SELP] = "selp",
	[WEFT_OP_SLCT] = "slct", [WEFT_OP_CVT] = "cvt", [WEFT_OP_CVTA] = "cvta",
	[WEFT_OP_MOV] = "mov", [WEFT_OP_LD] = "ld", [WEFT_OP_LDU] = "ldu", [WEFT_OP_ST] = "st",
	[WEFT_OP_PREFETCH] = "prefetch", [WEFT_OP_ISSPACEP] = "isspacep",
	[WEFT_OP_ATOM] = "atom", [WEFT_OP_RED] = "red", [WEFT_OP_BRA] = "bra",
	[WEFT_OP_BRX] = "brx", [WEFT_OP_CALL] = "call", [WEFT_OP_RET] = "ret",
	[WEFT_OP_EXIT] = "exit", [WEFT_OP_TRAP] = "trap", [WEFT_OP_BAR] = "bar",
	[WEFT_OP_BAR_WARP] = "bar.warp", [WEFT_OP_MEMBAR] = "membar", [WEFT_OP_FENCE] = "fence",
	[WEFT_OP_NANOSLEEP] = "nanosleep", [WEFT_OP_SHFL] = "shfl", [WEFT_OP_VOTE] = "vote",
	[WEFT_OP_ACTIVEMASK] = "activemask", [WEFT_OP_MATCH] = "match",
	[WEFT_OP_REDUX] = "redux", [WEFT_OP_BFIND] = "bfind",
	[WEFT_OP_DP4A] = "dp4a", [WEFT_OP_DP2A] = "dp2a",
	[WEFT_OP_UNSUPPORTED] = "unsupported",
	[WEFT_OP_TEX] = "tex", [WEFT_OP_TLD4] = "tld4", [WEFT_OP_SULD] = "suld",
	[WEFT_OP_SUST] = "sust",
};

const char *weft_op_name(enum weft_op op)
{
	if ((unsigned)op >= WEFT_OP_COUNT || !op_names[op])
		return "?";
	return op_names[op];
}

static const char *const sreg_names[WEFT_SREG_COUNT] = {
	[WEFT_SREG_NONE] = "%?", [WEFT_SREG_TID] = "%tid", [WEFT_SREG_NTID] = "%ntid",
	[WEFT_SREG_CTAID] = "%ctaid", [WEFT_SREG_NCTAID] = "%nctaid",
	[WEFT_SREG_LANEID] = "%laneid", [WEFT_SREG_WARPID] = "%warpid",
	[WEFT_SREG_NWARPID] = "%nwarpid", [WEFT_SREG_SMID] = "%smid", [WEFT_SREG_NSMID] = "%nsmid",
	[WEFT_SREG_GRIDID] = "%gridid", [WEFT_SREG_CLOCK] = "%clock",
	[WEFT_SREG_CLOCK64] = "%clock64", [WEFT_SREG_GLOBALTIMER] = "%globaltimer",
	[WEFT_SREG_LANEMASK_EQ] = "%lanemask_eq", [WEFT_SREG_LANEMASK_LE] = "%lanemask_le",
	[WEFT_SREG_LANEMASK_LT] = "%lanemask_lt", [WEFT_SREG_LANEMASK_GE] = "%lanemask_ge",
	[WEFT_SREG_LANEMASK_GT] = "%lanemask_gt",
	[WEFT_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
	[WEFT_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size", [WEFT_SREG_ENVREG] = "%envreg",
	[WEFT_SREG_CLOCK_HI] = "%clock_hi",
};

const char *weft_ptx_sreg_name(enum weft_sreg s)
{
	return (unsigned)s < WEFT_SREG_COUNT ? sreg_names[s] : "%?";
}

int weft_ptx_sreg_has_comp(enum weft_sreg s)
{
	return s == WEFT_SREG_TID || s == WEFT_SREG_NTID || s == WEFT_SREG_CTAID ||
	       s == WEFT_SREG_NCTAID;
}

int weft_inst_has_dest(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_ST: case WEFT_OP_RED: case WEFT_OP_PREFETCH: case WEFT_OP_BRA:
	case WEFT_OP_BRX: case WEFT_OP_CALL: case WEFT_OP_RET: case WEFT_OP_EXIT:
	case WEFT_OP_TRAP: case WEFT_OP_BAR_WARP: case WEFT_OP_MEMBAR: case WEFT_OP_FENCE:
	case WEFT_OP_NANOSLEEP: case WEFT_OP_SUST:
		return 0;
	case WEFT_OP_BAR:
		return in->mode >= WEFT_BAR_RED_POPC;
	default:
		return 1;
	}
}

int weft_inst_imm_type(const struct weft_inst *in, int idx)
{
	switch (in->op) {
	case WEFT_OP_CVT:
		return idx >= 1 ? in->type2 : in->type;
	case WEFT_OP_SET:
		return idx == 1 || idx == 2 ? in->type2 : in->type;
	case WEFT_OP_SLCT:
		return idx == 3 ? in->type2 : in->type;
	case WEFT_OP_SETP:
		return idx >= 3 ? WEFT_T_PRED : in->type2;
	case WEFT_OP_SELP:
		return idx == 3 ? WEFT_T_PRED : in->type;
	case WEFT_OP_SHL:
	case WEFT_OP_SHR:
		return idx == 2 ? WEFT_T_U32 : in->type;
	case WEFT_OP_MUL:
	case WEFT_OP_MAD:
		/* mul.wide.s32: sources are the narrow type, imm is an integer anyway */
		return in->type;
	default:
		return in->type;
	}
}

int weft_ptx_find_func(const struct weft_ptx_module *m, const char *name)
{
	if (!m || !name)
		return -1;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return (int)i;
	return -1;
}

int weft_ptx_find_symbol(const struct weft_ptx_module *m, const char *name)
{
	if (!m || !name)
		return -1;
	for (uint32_t i = 0; i < m->nsyms; i++)
		if (m->syms[i].func < 0 && strcmp(m->syms[i].name, name) == 0)
			return (int)i;
	return -1;
}

void weft_ptx_module_free(struct weft_ptx_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		struct weft_ptx_func *f = &m->funcs[i];
		free(f->name);
		free(f->params);
		free(f->rets);
		for (uint32_t r = 0; r < f->nregs; r++)
			free(f->regs[r].name);
		free(f->regs);
		for (uint32_t k = 0; k < f->ninsts; k++) {
			free(f->insts[k].call_rets);
			free(f->insts[k].call_args);
		}
		free(f->insts);
		if (f->label_at)
			for (uint32_t k = 0; k <= f->ninsts; k++)
				free(f->label_at[k]);
		free(f->label_at);
	}
	free(m->funcs);
	for (uint32_t i = 0; i < m->nsyms; i++) {
		free(m->syms[i].name);
		free(m->syms[i].init);
	}
	free(m->syms);
	for (uint32_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	for (uint32_t i = 0; i < m->nunsup; i++) {
		free(m->unsup[i].message);
		free(m->unsup[i].text);
	}
	free(m->unsup);
	free(m->path);
	free(m->target);
	free(m);
}
