/*
 * ptx_parse_ops.c - opcode table and modifiers: turns an opcode word such as
 * "atom.acq_rel.gpu.shared.add.u32" into enum weft_op, types, space, mode,
 * rounding and flags of a struct weft_inst, and names special registers.
 * Which modifiers each family takes is in apply_mod(). See ptx_parse_int.h.
 */
#include "ptx_parse_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* instructions */

static const struct weft_ptxp_opdef opdefs[] = {
	{ "add", WEFT_OP_ADD, 1, 1, 3, 3 },
	{ "sub", WEFT_OP_SUB, 1, 1, 3, 3 },
	{ "mul", WEFT_OP_MUL, 1, 1, 3, 3 },
	{ "mad", WEFT_OP_MAD, 1, 1, 4, 4 },
	{ "mul24", WEFT_OP_MUL24, 1, 1, 3, 3 },
	{ "mad24", WEFT_OP_MAD24, 1, 1, 4, 4 },
	{ "div", WEFT_OP_DIV, 1, 1, 3, 3 },
	{ "rem", WEFT_OP_REM, 1, 1, 3, 3 },
	{ "abs", WEFT_OP_ABS, 1, 1, 2, 2 },
	{ "neg", WEFT_OP_NEG, 1, 1, 2, 2 },
	{ "min", WEFT_OP_MIN, 1, 1, 3, 3 },
	{ "max", WEFT_OP_MAX, 1, 1, 3, 3 },
	{ "addc", WEFT_OP_ADDC, 1, 1, 3, 3 },
	{ "subc", WEFT_OP_SUBC, 1, 1, 3, 3 },
	{ "madc", WEFT_OP_MADC, 1, 1, 4, 4 },
	{ "popc", WEFT_OP_POPC, 1, 1, 2, 2 },
	{ "clz", WEFT_OP_CLZ, 1, 1, 2, 2 },
	{ "brev", WEFT_OP_BREV, 1, 1, 2, 2 },
	{ "bfe", WEFT_OP_BFE, 1, 1, 4, 4 },
	{ "bfi", WEFT_OP_BFI, 1, 1, 5, 5 },
	{ "prmt", WEFT_OP_PRMT, 1, 1, 4, 4 },
	{ "sad", WEFT_OP_SAD, 1, 1, 4, 4 },
	{ "and", WEFT_OP_AND, 1, 1, 3, 3 },
	{ "or", WEFT_OP_OR, 1, 1, 3, 3 },
	{ "xor", WEFT_OP_XOR, 1, 1, 3, 3 },
	{ "not", WEFT_OP_NOT, 1, 1, 2, 2 },
	{ "cnot", WEFT_OP_CNOT, 1, 1, 2, 2 },
	{ "shl", WEFT_OP_SHL, 1, 1, 3, 3 },
	{ "shr", WEFT_OP_SHR, 1, 1, 3, 3 },
	{ "shf", WEFT_OP_SHF, 1, 1, 4, 4 },
	{ "lop3", WEFT_OP_LOP3, 1, 1, 5, 5 },
	{ "fma", WEFT_OP_FMA, 1, 1, 4, 4 },
	{ "rcp", WEFT_OP_RCP, 1, 1, 2, 2 },
	{ "sqrt", WEFT_OP_SQRT, 1, 1, 2, 2 },
	{ "rsqrt", WEFT_OP_RSQRT, 1, 1, 2, 2 },
	{ "ex2", WEFT_OP_EX2, 1, 1, 2, 2 },
	{ "lg2", WEFT_OP_LG2, 1, 1, 2, 2 },
	{ "sin", WEFT_OP_SIN, 1, 1, 2, 2 },
	{ "cos", WEFT_OP_COS, 1, 1, 2, 2 },
	{ "tanh", WEFT_OP_TANH, 1, 1, 2, 2 },
	{ "copysign", WEFT_OP_COPYSIGN, 1, 1, 3, 3 },
	{ "testp", WEFT_OP_TESTP, 1, 1, 2, 2 },
	{ "setp", WEFT_OP_SETP, 1, 1, 3, 4 },
	{ "set", WEFT_OP_SET, 2, 2, 3, 4 },
	{ "selp", WEFT_OP_SELP, 1, 1, 4, 4 },
	{ "slct", WEFT_OP_SLCT, 2, 2, 4, 4 },
	{ "cvt", WEFT_OP_CVT, 2, 2, 2, 2 },
	{ "cvta", WEFT_OP_CVTA, 1, 1, 2, 2 },
	{ "mov", WEFT_OP_MOV, 1, 1, 2, 2 },
	{ "ld", WEFT_OP_LD, 1, 1, 2, 2 },
	{ "ldu", WEFT_OP_LDU, 1, 1, 2, 2 },
	{ "st", WEFT_OP_ST, 1, 1, 2, 2 },
	{ "prefetch", WEFT_OP_PREFETCH, 0, 0, 1, 1 },
	{ "prefetchu", WEFT_OP_PREFETCH, 0, 0, 1, 1 },
	{ "isspacep", WEFT_OP_ISSPACEP, 0, 0, 2, 2 },
	{ "atom", WEFT_OP_ATOM, 1, 1, 3, 4 },
	{ "red", WEFT_OP_RED, 1, 1, 2, 2 },
	{ "bra", WEFT_OP_BRA, 0, 0, 1, 1 },
	{ "brx", WEFT_OP_BRX, 0, 0, 2, 2 },
	{ "call", WEFT_OP_CALL, 0, 0, 0, 0 },
	{ "ret", WEFT_OP_RET, 0, 0, 0, 0 },
	{ "exit", WEFT_OP_EXIT, 0, 0, 0, 0 },
	{ "trap", WEFT_OP_TRAP, 0, 0, 0, 0 },
	{ "bar", WEFT_OP_BAR, 0, 1, 0, 4 },
	{ "barrier", WEFT_OP_BAR, 0, 1, 0, 4 },
	{ "membar", WEFT_OP_MEMBAR, 0, 0, 0, 0 },
	{ "fence", WEFT_OP_FENCE, 0, 0, 0, 0 },
	{ "nanosleep", WEFT_OP_NANOSLEEP, 1, 1, 1, 1 },
	{ "shfl", WEFT_OP_SHFL, 1, 1, 4, 5 },
	{ "vote", WEFT_OP_VOTE, 1, 1, 2, 3 },
	{ "activemask", WEFT_OP_ACTIVEMASK, 1, 1, 1, 1 },
	{ "match", WEFT_OP_MATCH, 1, 1, 3, 3 },
	{ "redux", WEFT_OP_REDUX, 1, 1, 3, 3 },
	{ "bfind", WEFT_OP_BFIND, 1, 1, 2, 2 },
	{ "dp4a", WEFT_OP_DP4A, 2, 2, 4, 4 },
	{ "dp2a", WEFT_OP_DP2A, 2, 2, 4, 4 },
	/* modifiers and operands: ptx_parse_tex.c */
	{ "tex", WEFT_OP_TEX, 2, 2, 3, 3 },
	{ "tld4", WEFT_OP_TLD4, 2, 2, 3, 3 },
	{ "suld", WEFT_OP_SULD, 1, 1, 3, 3 },
	{ "sust", WEFT_OP_SUST, 1, 1, 3, 3 },
};

const struct weft_ptxp_opdef *weft_ptxp_opdef(int op)
{
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (opdefs[i].op == op)
			return &opdefs[i];
	return NULL;
}

static int op_in(int op, const int *list)
{
	for (; *list; list++)
		if (*list == op)
			return 1;
	return 0;
}

#define OPS(...) ((const int[]){ __VA_ARGS__, 0 })

static int piece_in(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

/* Applies one opcode modifier. Returns 0 if it does not apply to this op. */
static int apply_mod(struct weft_inst *in, const char *s, int *types, int *ntypes, int *tmax_over)
{
	int op = in->op, i;
	int ty = weft_ptxp_type_from(s);
	if (ty) {
		if (*ntypes == 2) {
			*tmax_over = 1;
			return 1;
		}
		types[(*ntypes)++] = ty;
		return 1;
	}
	static const char *const rnd[] = {
		"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", NULL
	};
	if ((i = piece_in(s, rnd)) >= 0) {
		if (i < 4 &&
		    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA,
				  WEFT_OP_DIV, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_CVT))) {
			in->rnd = (uint8_t)(WEFT_RND_RN + i);
			return 1;
		}
		if (i >= 4 && op == WEFT_OP_CVT) {
			in->rnd = (uint8_t)(WEFT_RND_RN + i);
			return 1;
		}
		return 0;
	}
	if (op == WEFT_OP_SETP || op == WEFT_OP_SET) {
		static const char *const cmp[] = { "eq",  "ne",	 "lt",	"le",  "gt",  "ge",  "lo",
						   "ls",  "hi",	 "hs",	"equ", "neu", "ltu", "leu",
						   "gtu", "geu", "num", "nan", NULL };
		static const char *const bo[] = { "and", "or", "xor", NULL };
		if ((i = piece_in(s, cmp)) >= 0) {
			if (in->cmp)
				return 0;
			in->cmp = (uint8_t)(WEFT_CMP_EQ + i);
			return 1;
		}
		if ((i = piece_in(s, bo)) >= 0) {
			in->boolop = (uint8_t)(WEFT_BOOL_AND + i);
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_MUL24, WEFT_OP_MAD24, WEFT_OP_MADC,
			  WEFT_OP_DP2A))) {
		static const char *const mm[] = { "lo", "hi", "wide", NULL };
		if ((i = piece_in(s, mm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_REDUX))) {
		static const char *const ao[] = { "add", "inc", "dec",	"min", "max", "and",
						  "or",	 "xor", "exch", "cas", NULL };
		if ((i = piece_in(s, ao)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
		if (!strcmp(s, "noftz") && op != WEFT_OP_REDUX)
			return 1;
	}
	if (op == WEFT_OP_SHFL) {
		static const char *const sm[] = { "up", "down", "bfly", "idx", NULL };
		if ((i = piece_in(s, sm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_VOTE) {
		static const char *const vm[] = { "all", "any", "uni", "ballot", NULL };
		if ((i = piece_in(s, vm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_MATCH) {
		if (!strcmp(s, "any")) {
			in->mode = WEFT_MATCH_ANY;
			return 1;
		}
		if (!strcmp(s, "all")) {
			in->mode = WEFT_MATCH_ALL;
			return 1;
		}
	}
	if (op == WEFT_OP_SHF) {
		if (!strcmp(s, "l")) {
			in->mode &= 1;
			return 1;
		}
		if (!strcmp(s, "r")) {
			in->mode |= 2;
			return 1;
		}
		if (!strcmp(s, "wrap")) {
			in->mode &= 2;
			return 1;
		}
		if (!strcmp(s, "clamp")) {
			in->mode |= 1;
			return 1;
		}
	}
	if (op == WEFT_OP_TESTP) {
		static const char *const tm[] = { "finite", "infinite",	 "number", "notanumber",
						  "normal", "subnormal", NULL };
		if ((i = piece_in(s, tm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_PRMT) {
		static const char *const pm[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL };
		if ((i = piece_in(s, pm)) >= 0) {
			in->mode = (uint8_t)(WEFT_PRMT_F4E + i);
			return 1;
		}
	}
	if (op == WEFT_OP_BAR) {
		if (!strcmp(s, "sync")) {
			in->mode = WEFT_BAR_SYNC;
			in->flags |= WEFT_F_SYNC;
			return 1;
		}
		if (!strcmp(s, "arrive")) {
			in->mode = WEFT_BAR_ARRIVE;
			return 1;
		}
		if (!strcmp(s, "red")) {
			in->mode = WEFT_BAR_RED_POPC;
			return 1;
		}
		if (in->mode >= WEFT_BAR_RED_POPC) {
			if (!strcmp(s, "popc")) {
				in->mode = WEFT_BAR_RED_POPC;
				return 1;
			}
			if (!strcmp(s, "and")) {
				in->mode = WEFT_BAR_RED_AND;
				return 1;
			}
			if (!strcmp(s, "or")) {
				in->mode = WEFT_BAR_RED_OR;
				return 1;
			}
		}
		if (!strcmp(s, "aligned")) {
			in->flags |= WEFT_F_ALIGNED;
			return 1;
		}
		if (!strcmp(s, "cta"))
			return 1;
		return 0;
	}
	if (op == WEFT_OP_CVTA && !strcmp(s, "to")) {
		in->mode = WEFT_CVTA_FROM_GENERIC;
		return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED,
			  WEFT_OP_CVTA, WEFT_OP_PREFETCH, WEFT_OP_ISSPACEP))) {
		int sp = weft_ptxp_space_from(s);
		if (sp >= 0) {
			in->space = (uint8_t)sp;
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST))) {
		if (!strcmp(s, "v2") || !strcmp(s, "v4")) {
			in->vec = (uint8_t)(s[1] - '0');
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST)) && !strcmp(s, "volatile")) {
		in->flags |= WEFT_F_VOLATILE;
		return 1;
	}
	if (op == WEFT_OP_LD && !strcmp(s, "nc")) {
		in->flags |= WEFT_F_NC;
		return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_FENCE))) {
		static const char *const mo[] = { "acquire", "release", "relaxed", "acq_rel",
						  NULL };
		if ((i = piece_in(s, mo)) >= 0) {
			in->flags |= WEFT_F_ACQUIRE << i;
			return 1;
		}
		if (!strcmp(s, "weak") || !strcmp(s, "mmio") ||
		    (op == WEFT_OP_FENCE && !strcmp(s, "sc")))
			return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_FENCE,
			  WEFT_OP_MEMBAR))) {
		/* scopes: accepted, the emulator is sequentially consistent */
		static const char *const sc[] = { "gpu", "cta", "sys", "cluster", NULL };
		if ((i = piece_in(s, sc)) >= 0 || (op == WEFT_OP_MEMBAR && !strcmp(s, "gl"))) {
			/* ld/st/atom scopes are ignored (the emulator is sequentially
			 * consistent); membar/fence keep theirs for timing models */
			if (op == WEFT_OP_MEMBAR || op == WEFT_OP_FENCE)
				in->mode = (uint8_t)(i < 0 ? WEFT_SCOPE_GPU : i);
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST, WEFT_OP_PREFETCH, WEFT_OP_ATOM,
			  WEFT_OP_RED))) {
		/* cache hints: no functional effect */
		static const char *const ch[] = { "ca", "cg", "cs", "lu", "cv",
						  "wb", "wt", "L1", "L2", NULL };
		if (piece_in(s, ch) >= 0)
			return 1;
		if ((!strncmp(s, "L1::", 4) || !strncmp(s, "L2::", 4)) &&
		    strcmp(s, "L2::cache_hint"))
			return 1;
	}
	if (!strcmp(s, "ftz") &&
	    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA,
			  WEFT_OP_DIV, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_RSQRT, WEFT_OP_EX2,
			  WEFT_OP_LG2, WEFT_OP_SIN, WEFT_OP_COS, WEFT_OP_TANH, WEFT_OP_ABS,
			  WEFT_OP_NEG, WEFT_OP_MIN, WEFT_OP_MAX, WEFT_OP_SETP, WEFT_OP_SET,
			  WEFT_OP_SLCT, WEFT_OP_CVT, WEFT_OP_TESTP, WEFT_OP_COPYSIGN))) {
		in->flags |= WEFT_F_FTZ;
		return 1;
	}
	if (!strcmp(s, "sat") &&
	    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA,
			  WEFT_OP_CVT, WEFT_OP_MAD24, WEFT_OP_MUL24))) {
		in->flags |= WEFT_F_SAT;
		return 1;
	}
	if (!strcmp(s, "cc") && op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MAD, WEFT_OP_ADDC,
					      WEFT_OP_SUBC, WEFT_OP_MADC))) {
		in->flags |= WEFT_F_CC;
		return 1;
	}
	if (!strcmp(s, "approx") &&
	    op_in(op, OPS(WEFT_OP_DIV, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_RSQRT, WEFT_OP_EX2,
			  WEFT_OP_LG2, WEFT_OP_SIN, WEFT_OP_COS, WEFT_OP_TANH))) {
		in->flags |= WEFT_F_APPROX;
		return 1;
	}
	if (!strcmp(s, "full") && op == WEFT_OP_DIV) {
		in->flags |= WEFT_F_FULL;
		return 1;
	}
	if (!strcmp(s, "uni") &&
	    op_in(op, OPS(WEFT_OP_BRA, WEFT_OP_CALL, WEFT_OP_RET, WEFT_OP_BRX))) {
		in->flags |= WEFT_F_UNI;
		return 1;
	}
	if (!strcmp(s, "sync") && op_in(op, OPS(WEFT_OP_SHFL, WEFT_OP_VOTE, WEFT_OP_MATCH,
						WEFT_OP_REDUX, WEFT_OP_BAR_WARP))) {
		in->flags |= WEFT_F_SYNC;
		return 1;
	}
	if (!strcmp(s, "NaN") && op_in(op, OPS(WEFT_OP_MIN, WEFT_OP_MAX))) {
		in->flags |= WEFT_F_NAN;
		return 1;
	}
	if (!strcmp(s, "relu") && op == WEFT_OP_CVT) {
		in->flags |= WEFT_F_RELU;
		return 1;
	}
	if (!strcmp(s, "shiftamt") && op == WEFT_OP_BFIND) {
		in->flags |= WEFT_F_SHIFTAMT;
		return 1;
	}
	if (op == WEFT_OP_BRX && !strcmp(s, "idx"))
		return 1;
	if (op == WEFT_OP_FENCE && !strcmp(s, "acq_rel")) {
		in->flags |= WEFT_F_ACQ_REL;
		return 1;
	}
	return 0;
}

/* Decodes the opcode word into in->op, types and modifiers. */
void weft_ptxp_decode_opcode(struct weft_ptx_parser *p, struct weft_inst *in,
			     const struct weft_ptx_tok *t)
{
	char buf[256], *pc[24];
	int n = weft_ptxp_split_dots(p, t, buf, sizeof(buf), pc, 24);
	const struct weft_ptxp_opdef *def = NULL;
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (!strcmp(pc[0], opdefs[i].name)) {
			def = &opdefs[i];
			break;
		}
	if (!def)
		weft_ptxp_unsupported(
			p, t, "unknown opcode '%.*s' (not in weft's PTX subset, see docs/ptx-subset.md)",
			(int)t->len, t->s);
	in->op = def->op;
	in->vec = 1;
	if (weft_ptxp_is_tex_op(in->op))
		return; /* its modifiers: weft_ptxp_decode_tex */
	int first = 1;
	if (def->op == WEFT_OP_BAR && n > 1 && !strcmp(pc[1], "warp")) {
		in->op = WEFT_OP_BAR_WARP;
		first = 2;
		if (n < 3 || strcmp(pc[2], "sync"))
			fail_tok(p, t, "expected 'bar.warp.sync', found '%.*s'", (int)t->len, t->s);
	}
	if (def->op == WEFT_OP_BRX)
		weft_ptxp_unsupported(
			p, t,
			"'%.*s' (indirect branch through a .branchtargets table) is not supported by weft; "
			"compile the switch without jump tables or see docs/ptx-subset.md",
			(int)t->len, t->s);
	int types[2] = { 0, 0 }, ntypes = 0, over = 0;
	for (int i = first; i < n; i++) {
		if (!strcmp(pc[i], "L2::cache_hint"))
			weft_ptxp_unsupported(
				p, t,
				"'.L2::cache_hint' (extra cache-policy operand) is not supported in '%.*s'",
				(int)t->len, t->s);
		if (!apply_mod(in, pc[i], types, &ntypes, &over))
			weft_ptxp_unsupported(
				p, t,
				"unknown modifier '.%s' on '%s' (in '%.*s'; see docs/ptx-subset.md)",
				pc[i], pc[0], (int)t->len, t->s);
	}
	int tmin = def->tmin, tmax = def->tmax;
	if (in->op == WEFT_OP_BAR_WARP)
		tmin = tmax = 0;
	if (over || ntypes > tmax)
		fail_tok(p, t, "too many type suffixes in '%.*s'", (int)t->len, t->s);
	if (ntypes < tmin)
		fail_tok(p, t, "missing type suffix (e.g. .u32 or .f32) in '%.*s'", (int)t->len,
			 t->s);
	if (ntypes >= 1)
		in->type = (uint8_t)types[0];
	if (ntypes == 2)
		in->type2 = (uint8_t)types[1];
	if (in->op == WEFT_OP_SETP)
		in->type2 = in->type;
	if ((in->op == WEFT_OP_SETP || in->op == WEFT_OP_SET) && !in->cmp)
		fail_tok(p, t, "missing comparison (.eq .lt ...) in '%.*s'", (int)t->len, t->s);
	if (in->op == WEFT_OP_BAR && in->mode == WEFT_BAR_RED_POPC && in->type != WEFT_T_U32)
		fail_tok(p, t, "bar.red.popc needs .u32 in '%.*s'", (int)t->len, t->s);
}

/* The other predefined identifiers of the PTX ISA ("Special Registers"),
 * read as what they are on weft's machine: one SM running one CTA per
 * cluster (a CTA is its own cluster), %globaltimer counting as %clock64
 * does (docs/emulator.md), no reserved shared memory, no CUDA graph, and
 * performance counters that read 0. sreg NONE: the immediate imm. */
static const struct {
	const char *name;
	uint8_t comps; /* takes .x .y .z */
	uint16_t sreg;
	int64_t imm;
} sreg_alias[] = {
	{ "%clusterid", 1, WEFT_SREG_CTAID, 0 },
	{ "%nclusterid", 1, WEFT_SREG_NCTAID, 0 },
	{ "%cluster_ctaid", 1, WEFT_SREG_NONE, 0 },
	{ "%cluster_nctaid", 1, WEFT_SREG_NONE, 1 },
	{ "%cluster_ctarank", 0, WEFT_SREG_NONE, 0 },
	{ "%cluster_nctarank", 0, WEFT_SREG_NONE, 1 },
	{ "%is_explicit_cluster", 0, WEFT_SREG_NONE, 0 },
	{ "%globaltimer_lo", 0, WEFT_SREG_CLOCK, 0 },
	{ "%globaltimer_hi", 0, WEFT_SREG_CLOCK_HI, 0 },
	{ "%aggr_smem_size", 0, WEFT_SREG_TOTAL_SMEM_SIZE, 0 },
	{ "%reserved_smem_offset_begin", 0, WEFT_SREG_NONE, 0 },
	{ "%reserved_smem_offset_end", 0, WEFT_SREG_NONE, 0 },
	{ "%reserved_smem_offset_cap", 0, WEFT_SREG_NONE, 0 },
	{ "%reserved_smem_offset_0", 0, WEFT_SREG_NONE, 0 },
	{ "%reserved_smem_offset_1", 0, WEFT_SREG_NONE, 0 },
	{ "%current_graph_exec", 0, WEFT_SREG_NONE, 0 },
};

/* %pm0..%pm7 and %pm0_64..%pm7_64 (performance monitoring counters). */
static int is_pm(const char *s, uint32_t len)
{
	return (len == 4 || (len == 7 && !memcmp(s + 4, "_64", 3))) && !memcmp(s, "%pm", 3) &&
	       s[3] >= '0' && s[3] <= '7';
}

static int parse_sreg_alias(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, uint32_t base,
			    struct weft_operand *o)
{
	if (is_pm(t->s, t->len)) {
		o->kind = WEFT_OPND_IMM;
		o->imm = 0;
		return 1;
	}
	for (size_t i = 0; i < sizeof(sreg_alias) / sizeof(sreg_alias[0]); i++) {
		size_t n = strlen(sreg_alias[i].name);
		if (n != base || memcmp(t->s, sreg_alias[i].name, n))
			continue;
		uint16_t comp = 0;
		if (sreg_alias[i].comps) {
			if (t->len != base + 2 || (t->s[base + 1] != 'x' && t->s[base + 1] != 'y' &&
						   t->s[base + 1] != 'z'))
				fail_tok(p, t,
					 "special register '%.*s' needs a component .x, .y or .z",
					 (int)t->len, t->s);
			comp = (uint16_t)(t->s[base + 1] - 'x');
		} else if (t->len != base) {
			fail_tok(p, t, "special register '%.*s' has no components", (int)t->len,
				 t->s);
		}
		if (sreg_alias[i].sreg == WEFT_SREG_NONE) {
			o->kind = WEFT_OPND_IMM;
			o->imm = sreg_alias[i].imm;
		} else {
			o->kind = WEFT_OPND_SREG;
			o->sreg = sreg_alias[i].sreg;
			o->comp = comp;
		}
		return 1;
	}
	return 0;
}

/* Special register by name; returns 1 and fills o if t names one. */
int weft_ptxp_parse_sreg(struct weft_ptx_parser *p, const struct weft_ptx_tok *t,
			 struct weft_operand *o)
{
	uint32_t base = 0;
	while (base < t->len && t->s[base] != '.')
		base++;
	if (parse_sreg_alias(p, t, base, o))
		return 1;
	if (base > 7 && !memcmp(t->s, "%envreg", 7)) {
		uint64_t n;
		if (base == t->len && !weft_ptxp_parse_int_text(t->s + 7, base - 7, &n) && n < 32) {
			o->kind = WEFT_OPND_SREG;
			o->sreg = WEFT_SREG_ENVREG;
			o->comp = (uint16_t)n;
			return 1;
		}
		return 0;
	}
	for (int s = WEFT_SREG_NONE + 1; s < WEFT_SREG_COUNT; s++) {
		if (s == WEFT_SREG_ENVREG) /* %envreg<N>: above */
			continue;
		const char *name = weft_ptx_sreg_name((enum weft_sreg)s);
		size_t n = strlen(name);
		if (n != base || memcmp(t->s, name, n))
			continue;
		o->kind = WEFT_OPND_SREG;
		o->sreg = (uint16_t)s;
		if (weft_ptx_sreg_has_comp((enum weft_sreg)s)) {
			if (t->len != base + 2 || (t->s[base + 1] != 'x' && t->s[base + 1] != 'y' &&
						   t->s[base + 1] != 'z'))
				fail_tok(p, t,
					 "special register '%.*s' needs a component .x, .y or .z",
					 (int)t->len, t->s);
			o->comp = (uint16_t)(t->s[base + 1] - 'x');
		} else if (t->len != base) {
			fail_tok(p, t, "special register '%.*s' has no components", (int)t->len,
				 t->s);
		}
		return 1;
	}
	return 0;
}
