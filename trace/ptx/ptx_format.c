/*
 * ptx_format.c - writes one decoded instruction back as PTX-like text, for
 * trace dumps and error messages ("ld.global.f32 %f1, [%rd4+8];").
 *
 * The output is PTX syntax rebuilt from the decoded fields, so it shows what
 * weft understood (modifiers that weft ignores, such as cache hints and
 * memory scopes, are not printed).
 */
#include "ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct out {
	char *buf;
	size_t len, pos;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	if (o->pos + 1 >= o->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->pos += (size_t)n;
	if (o->pos >= o->len)
		o->pos = o->len - 1;
}

static const char *reg_name(const struct weft_ptx_func *f, int32_t r)
{
	if (r < 0)
		return "_";
	if (!f || (uint32_t)r >= f->nregs)
		return "%?";
	return f->regs[r].name;
}

static const char *sym_name(const struct weft_ptx_module *m, int32_t s)
{
	if (!m || s < 0 || (uint32_t)s >= m->nsyms)
		return "?sym";
	return m->syms[s].name;
}

static void put_off(struct out *o, int64_t off)
{
	if (off > 0)
		put(o, "+%lld", (long long)off);
	else if (off < 0)
		put(o, "+%lld", (long long)off); /* PTX spelling: [%rd1+-4] */
}

static void put_float_imm(struct out *o, uint64_t u, int type)
{
	unsigned size = weft_ptx_type_size(type);
	if (type == WEFT_T_F64 || (!weft_ptx_type_is_float(type) && size == 8)) {
		put(o, "0d%016llX", (unsigned long long)u);
		return;
	}
	if (type == WEFT_T_F16 || type == WEFT_T_F16X2 ||
	    (!weft_ptx_type_is_float(type) && size == 2)) {
		/* print the f32 with the same value, which converts back exactly */
		uint32_t h = (uint32_t)u & 0xffff, sign = (h & 0x8000) << 16;
		uint32_t e = (h >> 10) & 0x1f, man = h & 0x3ff, w;
		if (e == 0x1f) {
			w = sign | 0x7f800000 | man << 13;
		} else if (e) {
			w = sign | (e + 112) << 23 | man << 13;
		} else if (!man) {
			w = sign;
		} else { /* subnormal half: normal float */
			e = 113;
			while (!(man & 0x400)) {
				man <<= 1;
				e--;
			}
			w = sign | e << 23 | (man & 0x3ff) << 13;
		}
		put(o, "0f%08X", w);
		return;
	}
	if (type == WEFT_T_BF16) {
		put(o, "0f%08X", ((uint32_t)u & 0xffff) << 16);
		return;
	}
	put(o, "0f%08X", (uint32_t)u);
}

static void put_operand(struct out *o, const struct weft_ptx_module *m,
			const struct weft_ptx_func *f, const struct weft_inst *in,
			const struct weft_operand *op)
{
	switch (op->kind) {
	case WEFT_OPND_REG:
		put(o, "%s%s", op->neg ? "!" : "", reg_name(f, op->reg));
		if (op->reg2 != WEFT_NO_REG)
			put(o, "|%s", reg_name(f, op->reg2));
		break;
	case WEFT_OPND_SINK:
		put(o, "_");
		if (op->reg2 != WEFT_NO_REG)
			put(o, "|%s", reg_name(f, op->reg2));
		break;
	case WEFT_OPND_IMM:
		if (op->imm_is_float) {
			put_float_imm(o, (uint64_t)op->imm, weft_inst_imm_type(in, (int)(op - in->opnd)));
		} else {
			put(o, "%lld", (long long)op->imm);
		}
		break;
	case WEFT_OPND_SREG:
		if (op->sreg == WEFT_SREG_ENVREG)
			put(o, "%%envreg%u", op->comp);
		else if (weft_ptx_sreg_has_comp(op->sreg))
			put(o, "%s.%c", weft_ptx_sreg_name(op->sreg), "xyz"[op->comp % 3]);
		else
			put(o, "%s", weft_ptx_sreg_name(op->sreg));
		break;
	case WEFT_OPND_SYM:
		put(o, "%s", sym_name(m, op->sym));
		put_off(o, op->imm);
		break;
	case WEFT_OPND_ADDR:
		put(o, "[");
		if (op->reg != WEFT_NO_REG) {
			put(o, "%s", reg_name(f, op->reg));
			put_off(o, op->imm);
		} else if (op->sym >= 0) {
			put(o, "%s", sym_name(m, op->sym));
			put_off(o, op->imm);
		} else {
			put(o, "%lld", (long long)op->imm);
		}
		put(o, "]");
		break;
	case WEFT_OPND_VEC:
		put(o, "{");
		for (int i = 0; i < op->nvec && i < 4; i++)
			put(o, "%s%s", i ? ", " : "", reg_name(f, op->vec_regs[i]));
		put(o, "}");
		break;
	case WEFT_OPND_LABEL:
		if (f && op->imm >= 0 && (uint64_t)op->imm <= f->ninsts && f->label_at &&
		    f->label_at[op->imm])
			put(o, "%s", f->label_at[op->imm]);
		else
			put(o, "@%lld", (long long)op->imm);
		break;
	case WEFT_OPND_FUNC:
		if (m && op->imm >= 0 && (uint64_t)op->imm < m->nfuncs)
			put(o, "%s", m->funcs[op->imm].name);
		else
			put(o, "?func");
		break;
	default:
		put(o, "?");
	}
}

static const char *const cmp_names[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
					 "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
static const char *const rnd_names[] = { "", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi" };
static const char *const atom_names[] = { "add", "inc", "dec", "min", "max", "and", "or", "xor",
					  "exch", "cas" };

#define NAME(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

/* tex.2d.v4.f32.f32, tld4.r.2d.v4.f32.f32, suld.b.2d.v2.b32.trap */
static void put_tex_opcode(struct out *o, const struct weft_inst *in)
{
	static const char *const geom[] = { "1d", "2d" };
	static const char *const oob[] = { "trap", "clamp", "zero" };
	int op = in->op;
	if (op == WEFT_OP_TEX || op == WEFT_OP_TLD4) {
		if (op == WEFT_OP_TLD4)
			put(o, "tld4.%c.2d", "rgba"[in->mode & 3]);
		else
			put(o, "tex.%s", NAME(geom, in->mode));
		put(o, ".v4.%s.%s", weft_ptx_type_name(in->type), weft_ptx_type_name(in->type2));
		return;
	}
	put(o, "%s.b.%s", weft_op_name(op), NAME(geom, WEFT_SURF_GEOM(in->mode)));
	if (in->vec > 1)
		put(o, ".v%u", in->vec);
	put(o, ".%s.%s", weft_ptx_type_name(in->type), NAME(oob, WEFT_SURF_OOB(in->mode)));
}

static void put_opcode(struct out *o, const struct weft_inst *in)
{
	int op = in->op;
	if (op == WEFT_OP_TEX || op == WEFT_OP_TLD4 || op == WEFT_OP_SULD || op == WEFT_OP_SUST) {
		put_tex_opcode(o, in);
		return;
	}
	switch (op) {
	case WEFT_OP_BAR_WARP:
		put(o, "bar.warp.sync");
		return;
	case WEFT_OP_BAR: {
		static const char *const bm[] = { "sync", "arrive", "red.popc", "red.and", "red.or" };
		put(o, "%s.%s", in->flags & WEFT_F_ALIGNED ? "barrier" : "bar", NAME(bm, in->mode));
		if (in->flags & WEFT_F_ALIGNED)
			put(o, ".aligned");
		break;
	}
	default:
		put(o, "%s", weft_op_name(op));
	}
	if (in->flags & WEFT_F_SYNC && op != WEFT_OP_BAR && op != WEFT_OP_MATCH)
		put(o, ".sync");
	switch (op) {
	case WEFT_OP_MUL: case WEFT_OP_MAD: case WEFT_OP_MUL24: case WEFT_OP_MAD24: case WEFT_OP_MADC:
	case WEFT_OP_DP2A:
		if (!weft_ptx_type_is_float(in->type)) {
			static const char *const mm[] = { "lo", "hi", "wide" };
			put(o, ".%s", NAME(mm, in->mode));
		}
		break;
	case WEFT_OP_SETP: case WEFT_OP_SET:
		put(o, ".%s", NAME(cmp_names, in->cmp));
		if (in->boolop) {
			static const char *const bo[] = { "", "and", "or", "xor" };
			put(o, ".%s", NAME(bo, in->boolop));
		}
		break;
	case WEFT_OP_SHFL: {
		static const char *const sm[] = { "up", "down", "bfly", "idx" };
		put(o, ".%s", NAME(sm, in->mode));
		break;
	}
	case WEFT_OP_VOTE: {
		static const char *const vm[] = { "all", "any", "uni", "ballot" };
		put(o, ".%s", NAME(vm, in->mode));
		break;
	}
	case WEFT_OP_SHF:
		put(o, ".%s.%s", in->mode & 2 ? "r" : "l", in->mode & 1 ? "clamp" : "wrap");
		break;
	case WEFT_OP_TESTP: {
		static const char *const tm[] = { "finite", "infinite", "number", "notanumber", "normal",
						  "subnormal" };
		put(o, ".%s", NAME(tm, in->mode));
		break;
	}
	case WEFT_OP_PRMT:
		if (in->mode) {
			static const char *const pm[] = { "", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };
			put(o, ".%s", NAME(pm, in->mode));
		}
		break;
	case WEFT_OP_MATCH:
		put(o, ".%s%s", in->mode == WEFT_MATCH_ALL ? "all" : "any",
		    in->flags & WEFT_F_SYNC ? ".sync" : "");
		break;
	case WEFT_OP_MEMBAR: case WEFT_OP_FENCE: {
		static const char *const sc[] = { "gpu", "cta", "sys", "cluster" };
		if (op == WEFT_OP_FENCE)
			put(o, ".%s", in->flags & WEFT_F_ACQ_REL ? "acq_rel" : "sc");
		if (op == WEFT_OP_MEMBAR && in->mode == WEFT_SCOPE_GPU)
			put(o, ".gl");
		else
			put(o, ".%s", NAME(sc, in->mode));
		break;
	}
	case WEFT_OP_CVTA:
		if (in->mode == WEFT_CVTA_FROM_GENERIC)
			put(o, ".to");
		break;
	default:
		break;
	}
	if (in->flags & WEFT_F_VOLATILE)
		put(o, ".volatile");
	if (in->flags & WEFT_F_RELAXED)
		put(o, ".relaxed");
	if (in->flags & WEFT_F_ACQUIRE)
		put(o, ".acquire");
	if (in->flags & WEFT_F_RELEASE)
		put(o, ".release");
	if (in->flags & WEFT_F_ACQ_REL && op != WEFT_OP_FENCE)
		put(o, ".acq_rel");
	if (in->space != WEFT_SPACE_GENERIC)
		put(o, ".%s", weft_ptx_space_name(in->space));
	if (in->flags & WEFT_F_NC)
		put(o, ".nc");
	if (op == WEFT_OP_ATOM || op == WEFT_OP_RED || op == WEFT_OP_REDUX)
		put(o, ".%s", NAME(atom_names, in->mode));
	if ((op == WEFT_OP_LD || op == WEFT_OP_LDU || op == WEFT_OP_ST) && in->vec > 1)
		put(o, ".v%u", in->vec);
	if (in->rnd)
		put(o, ".%s", NAME(rnd_names, in->rnd));
	if (in->flags & WEFT_F_APPROX)
		put(o, ".approx");
	if (in->flags & WEFT_F_FULL)
		put(o, ".full");
	if (in->flags & WEFT_F_FTZ)
		put(o, ".ftz");
	if (in->flags & WEFT_F_SAT)
		put(o, ".sat");
	if (in->flags & WEFT_F_RELU)
		put(o, ".relu");
	if (in->flags & WEFT_F_NAN)
		put(o, ".NaN");
	if (in->flags & WEFT_F_CC)
		put(o, ".cc");
	if (in->flags & WEFT_F_SHIFTAMT)
		put(o, ".shiftamt");
	if (in->flags & WEFT_F_UNI)
		put(o, ".uni");
	if (in->type)
		put(o, ".%s", weft_ptx_type_name(in->type));
	if (in->type2 && op != WEFT_OP_SETP)
		put(o, ".%s", weft_ptx_type_name(in->type2));
}

void weft_ptx_format_inst(const struct weft_ptx_module *m, const struct weft_ptx_func *f,
			  const struct weft_inst *in, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	if (!buf || !len)
		return;
	buf[0] = 0;
	if (!in)
		return;
	if (in->op == WEFT_OP_UNSUPPORTED) { /* the text as written */
		if (m && in->opnd[0].imm >= 0 && (uint64_t)in->opnd[0].imm < m->nunsup)
			put(&o, "%s;", m->unsup[in->opnd[0].imm].text);
		else
			put(&o, "unsupported;");
		return;
	}
	if (in->guard != WEFT_NO_REG)
		put(&o, "@%s%s ", in->guard_neg ? "!" : "", reg_name(f, in->guard));
	put_opcode(&o, in);
	if (in->op == WEFT_OP_CALL) {
		put(&o, " ");
		if (in->ncall_rets) {
			put(&o, "(");
			for (int i = 0; i < in->ncall_rets; i++)
				put(&o, "%s%s", i ? ", " : "", sym_name(m, in->call_rets[i]));
			put(&o, "), ");
		}
		if (in->nopnd)
			put_operand(&o, m, f, in, &in->opnd[0]);
		put(&o, ", (");
		for (int i = 0; i < in->ncall_args; i++)
			put(&o, "%s%s", i ? ", " : "", sym_name(m, in->call_args[i]));
		put(&o, ");");
		return;
	}
	int tex = in->op == WEFT_OP_TEX || in->op == WEFT_OP_TLD4 || in->op == WEFT_OP_SULD ||
		  in->op == WEFT_OP_SUST;
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *op = &in->opnd[i];
		if (tex && op->kind == WEFT_OPND_ADDR && i + 1 < in->nopnd) {
			/* [handle, {coordinates}] */
			put(&o, "%s[%s, ", i ? ", " : " ", reg_name(f, op->reg));
			put_operand(&o, m, f, in, &in->opnd[++i]);
			put(&o, "]");
			continue;
		}
		put(&o, i ? ", " : " ");
		put_operand(&o, m, f, in, op);
	}
	put(&o, ";");
}
