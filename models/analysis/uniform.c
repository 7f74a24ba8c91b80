/*
 * uniform.c - uniformity and affine analysis (analysis.h): which register
 * values are the same for every thread (of the launch, or of a CTA), which
 * are affine in the thread index with a known stride, and which vary; and
 * from that, which branches may diverge and which memory accesses are
 * unit-stride or strided across tid.x.
 *
 * The vector-thread model hoists uniform work onto the control processor
 * and turns affine accesses into vector memory operations (the Maven
 * vector-thread core's control thread: Lee et al., ISCA 2011 / ACM TOCS
 * 2013); the SIMT and dataflow models use the same facts for scalar units
 * and address generation.
 *
 * Method: forward dataflow over the blocks in reverse postorder with one
 * abstract value per register (struct weft_uval, a lattice of finite
 * height: none < constant < uniform < affine < varying, with levels
 * const < launch < CTA), repeated in rounds:
 *   1. run the dataflow to a fixed point;
 *   2. classify every conditional branch by its guard's value;
 *   3. for each branch that is not a known constant, find its join blocks
 *      (blocks that threads reach from both sides before the branch's
 *      immediate post-dominator) and the exits of the loops it leaves; at
 *      those blocks, registers defined in between take the branch's level
 *      (uniform branch: the value depends on which way the launch / CTA
 *      went) or become varying (divergent branch: threads merging from
 *      both sides, or leaving a loop at different iterations, disagree);
 *   4. repeat while the set of branch classes changes (it only grows worse,
 *      so this ends).
 * Values that are known constants on every incoming path are never
 * degraded: all threads agree on them whatever path they took.
 *
 * Assumptions (docs/analysis.md): integer arithmetic does not wrap (so
 * ctaid*ntid+tid stays affine after mul.wide / cvt); data loaded from
 * .const space, through ldu or ld.global.nc at a uniform address is uniform
 * (read-only for the kernel's lifetime); every other load is varying
 * (another thread may have written the location); ld.param is uniform
 * unless the program also stores to that .param variable (an inlined
 * call-site parameter).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { FL_NONE = 0, FL_LAUNCH = 1, FL_CTA = 2, FL_VARY = 3 };

static const char *const uclass_names[WEFT_UC_COUNT] = {
	"none", "const", "launch", "cta", "affine", "varying",
};

const char *weft_uclass_name(enum weft_uclass c)
{
	return (unsigned)c < WEFT_UC_COUNT ? uclass_names[c] : "?";
}

/* ---- the value lattice ------------------------------------------------ */

typedef struct weft_uval uv;

static uv uv_none(void)
{
	uv v;
	memset(&v, 0, sizeof(v));
	return v;
}

static uv uv_vary(void)
{
	uv v = uv_none();
	v.form = WEFT_U_VARYING;
	return v;
}

static uv uv_const(int64_t k)
{
	uv v = uv_none();
	v.form = WEFT_U_UNIFORM;
	v.level = WEFT_UL_CONST;
	v.coef_known = 7;
	v.base_known = 1;
	v.base_k = k;
	return v;
}

static uv uv_uni(unsigned level)
{
	uv v = uv_none();
	v.form = WEFT_U_UNIFORM;
	v.level = (uint8_t)level;
	v.coef_known = 7;
	return v;
}

static uv uv_tid(unsigned c)
{
	uv v = uv_const(0);
	v.form = WEFT_U_AFFINE;
	v.coef[c] = 1;
	return v;
}

static int is_lin(const uv *v)
{
	return v->form == WEFT_U_UNIFORM || v->form == WEFT_U_AFFINE;
}

static int fully_known(const uv *v)
{
	return is_lin(v) && v->base_known && v->coef_known == 7;
}

/* Canonical form: unknown fields zero, form and level consistent. */
static uv norm(uv v)
{
	if (!is_lin(&v)) {
		uint8_t f = v.form;
		v = uv_none();
		v.form = f;
		return v;
	}
	int zero = 1;
	for (int c = 0; c < 3; c++) {
		if (!(v.coef_known >> c & 1))
			v.coef[c] = 0, zero = 0;
		else if (v.coef[c] != 0)
			zero = 0;
	}
	if (!v.base_known)
		v.base_k = 0;
	v.form = zero ? WEFT_U_UNIFORM : WEFT_U_AFFINE;
	if (v.base_known && v.coef_known == 7)
		v.level = WEFT_UL_CONST;
	return v;
}

static int uv_eq(const uv *a, const uv *b)
{
	return a->form == b->form && a->level == b->level && a->coef_known == b->coef_known &&
	       a->base_known == b->base_known && a->base_k == b->base_k &&
	       a->coef[0] == b->coef[0] && a->coef[1] == b->coef[1] && a->coef[2] == b->coef[2];
}

static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

/* Value at a merge of paths that all threads take alike. */
static uv join(uv a, uv b)
{
	if (a.form == WEFT_U_NONE)
		return b;
	if (b.form == WEFT_U_NONE)
		return a;
	if (!is_lin(&a) || !is_lin(&b))
		return uv_vary();
	uv r = uv_none();
	r.form = WEFT_U_AFFINE;
	r.level = (uint8_t)umax(a.level, b.level);
	for (int c = 0; c < 3; c++)
		if ((a.coef_known >> c & 1) && (b.coef_known >> c & 1) && a.coef[c] == b.coef[c]) {
			r.coef_known |= (uint8_t)(1u << c);
			r.coef[c] = a.coef[c];
		}
	if (a.base_known && b.base_known && a.base_k == b.base_k) {
		r.base_known = 1;
		r.base_k = a.base_k;
	}
	return norm(r);
}

static uv add(uv a, uv b)
{
	if (a.form == WEFT_U_NONE || b.form == WEFT_U_NONE)
		return uv_none();
	if (!is_lin(&a) || !is_lin(&b))
		return uv_vary();
	uv r = uv_none();
	r.form = WEFT_U_AFFINE;
	r.level = (uint8_t)umax(a.level, b.level);
	for (int c = 0; c < 3; c++)
		if ((a.coef_known >> c & 1) && (b.coef_known >> c & 1)) {
			r.coef_known |= (uint8_t)(1u << c);
			r.coef[c] = (int64_t)((uint64_t)a.coef[c] + (uint64_t)b.coef[c]);
		}
	if (a.base_known && b.base_known) {
		r.base_known = 1;
		r.base_k = (int64_t)((uint64_t)a.base_k + (uint64_t)b.base_k);
	}
	return norm(r);
}

static uv neg(uv a)
{
	if (!is_lin(&a))
		return a;
	for (int c = 0; c < 3; c++)
		a.coef[c] = (int64_t)(0 - (uint64_t)a.coef[c]);
	a.base_k = (int64_t)(0 - (uint64_t)a.base_k);
	return norm(a);
}

static uv mul(uv a, uv b)
{
	if (a.form == WEFT_U_NONE || b.form == WEFT_U_NONE)
		return uv_none();
	if (!is_lin(&a) || !is_lin(&b))
		return uv_vary();
	if (a.form == WEFT_U_AFFINE && b.form == WEFT_U_AFFINE)
		return uv_vary(); /* quadratic in tid */
	if (a.form == WEFT_U_AFFINE) {
		uv t = a;
		a = b;
		b = t;
	}
	/* a is uniform, b uniform or affine */
	uv r = uv_none();
	r.form = WEFT_U_AFFINE;
	r.level = (uint8_t)umax(a.level, b.level);
	if (a.base_known) {
		uint64_t k = (uint64_t)a.base_k;
		for (int c = 0; c < 3; c++)
			if (b.coef_known >> c & 1) {
				r.coef_known |= (uint8_t)(1u << c);
				r.coef[c] = (int64_t)((uint64_t)b.coef[c] * k);
			}
		if (b.base_known) {
			r.base_known = 1;
			r.base_k = (int64_t)((uint64_t)b.base_k * k);
		}
	} else {
		for (int c = 0; c < 3; c++)
			if ((b.coef_known >> c & 1) && b.coef[c] == 0)
				r.coef_known |= (uint8_t)(1u << c);
	}
	return norm(r);
}

/* v, at least at the given level unless it is a known constant. */
static uv lvl_floor(uv v, unsigned level)
{
	if (!is_lin(&v) || fully_known(&v))
		return v;
	v.level = (uint8_t)umax(v.level, level);
	return v;
}

/* Uniform with an unknown value if v is uniform, else varying. */
static uv opaque(uv v)
{
	if (v.form == WEFT_U_NONE)
		return v;
	if (v.form == WEFT_U_UNIFORM)
		return v.base_known ? v : uv_uni(v.level);
	return uv_vary();
}

static enum weft_uclass uclass_of(const uv *v)
{
	switch (v->form) {
	case WEFT_U_UNIFORM:
		if (v->base_known)
			return WEFT_UC_CONST;
		return v->level == WEFT_UL_CTA ? WEFT_UC_CTA : WEFT_UC_LAUNCH;
	case WEFT_U_AFFINE:
		return WEFT_UC_AFFINE;
	case WEFT_U_VARYING:
		return WEFT_UC_VARYING;
	default:
		return WEFT_UC_NONE;
	}
}

/* ---- the analysis state ----------------------------------------------- */

struct uctx {
	const struct weft_program *p;
	const uint32_t *nctaid; /* the launch's grid (weft_uniform_build_grid), or NULL */
	const struct weft_dom *d;
	const struct weft_loops *l;
	struct weft_uniform *u;
	uint32_t R, B;
	uv *in;            /* [B*R] values at block entry */
	uint8_t *reached;  /* [B] */
	uv *cur;           /* [R] */
	uint8_t *floor;    /* [B*R] FL_* applied at block entry */
	uint8_t *bcls;     /* [B] class of the block's branch condition (WEFT_UC_*) */
	int param_stored;  /* the program stores to .param through a register: no ld.param is uniform */
	uint8_t *param_written; /* [nsyms] .param symbols the program stores to */
	/* scratch for the branch regions */
	uint8_t *side;     /* [B] bit k: reachable from succ[k] before the ipdom */
	uint8_t *rdef;     /* [R] registers defined in the region */
	uint32_t *stack;   /* [B] */
	uint32_t *pstart, *preds; /* predecessors (CSR) */
};

static uv sreg_val(const struct uctx *c, const struct weft_operand *o)
{
	switch (o->sreg) {
	case WEFT_SREG_TID:
		return o->comp <= 2 ? uv_tid(o->comp) : uv_vary();
	case WEFT_SREG_NTID: case WEFT_SREG_NCTAID: case WEFT_SREG_GRIDID:
	case WEFT_SREG_NWARPID: case WEFT_SREG_NSMID: case WEFT_SREG_DYNAMIC_SMEM_SIZE:
	case WEFT_SREG_TOTAL_SMEM_SIZE: case WEFT_SREG_ENVREG:
		return uv_uni(WEFT_UL_LAUNCH);
	case WEFT_SREG_CTAID:
		/* one CTA along this dimension of the launch's grid: 0 */
		if (c->nctaid && o->comp <= 2 && c->nctaid[o->comp] == 1)
			return uv_const(0);
		return uv_uni(WEFT_UL_CTA);
	case WEFT_SREG_SMID: /* a CTA runs on one SM */
		return uv_uni(WEFT_UL_CTA);
	default: /* laneid, warpid, clocks, lane masks */
		return uv_vary();
	}
}

static uv reg_val(const struct uctx *c, int32_t r)
{
	if (r < 0 || (uint32_t)r >= c->R)
		return uv_vary();
	return c->cur[r];
}

/* Value of a source operand (for ADDR: the address). */
static uv opnd_val(const struct uctx *c, const struct weft_operand *o)
{
	switch (o->kind) {
	case WEFT_OPND_REG:
		return reg_val(c, o->reg);
	case WEFT_OPND_IMM:
		return uv_const(o->imm);
	case WEFT_OPND_SREG:
		return sreg_val(c, o);
	case WEFT_OPND_SYM: /* a symbol's address: fixed for the launch */
		return uv_uni(WEFT_UL_LAUNCH);
	case WEFT_OPND_ADDR: {
		uv base = o->reg != WEFT_NO_REG ? reg_val(c, o->reg)
			  : o->sym >= 0        ? uv_uni(WEFT_UL_LAUNCH)
					       : uv_const(0);
		return add(base, uv_const(o->imm));
	}
	case WEFT_OPND_VEC: {
		uv v = uv_const(0);
		int any = 0;
		for (int j = 0; j < o->nvec && j < 4; j++) {
			if (o->vec_regs[j] < 0)
				continue;
			uv e = opaque(reg_val(c, o->vec_regs[j]));
			if (e.form == WEFT_U_NONE)
				return e;
			if (e.form == WEFT_U_VARYING)
				return e;
			v.level = (uint8_t)umax(v.level, e.level);
			any = 1;
		}
		return any ? uv_uni(v.level) : uv_none();
	}
	default:
		return uv_none();
	}
}

static int first_src(const struct weft_inst *in, const struct weft_inst_info *ii)
{
	return (ii->ndefs > 0 || in->opnd[0].kind == WEFT_OPND_SINK) ? 1 : 0;
}

/* Any op: uniform (unknown value) when every source is uniform. */
static uv generic(const struct uctx *c, const struct weft_inst *in, const struct weft_inst_info *ii)
{
	unsigned level = WEFT_UL_CONST;
	for (int i = first_src(in, ii); i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		if (o->kind == WEFT_OPND_LABEL || o->kind == WEFT_OPND_FUNC || o->kind == WEFT_OPND_NONE ||
		    o->kind == WEFT_OPND_SINK)
			continue;
		uv v = opnd_val(c, o);
		if (v.form == WEFT_U_NONE)
			return v;
		if (v.form != WEFT_U_UNIFORM)
			return uv_vary();
		level = umax(level, v.level);
	}
	return uv_uni(level);
}

static int is_int_type(unsigned t)
{
	return t != WEFT_T_NONE && t != WEFT_T_PRED && !weft_ptx_type_is_float((enum weft_ptx_type)t);
}

static uv src(const struct uctx *c, const struct weft_inst *in, int i)
{
	return i < in->nopnd ? opnd_val(c, &in->opnd[i]) : uv_none();
}

/* ld.param of a variable nothing in the program writes (a kernel
 * parameter, not an inlined call-site parameter). */
static int param_readonly(const struct uctx *c, const struct weft_inst *in)
{
	if (c->param_stored)
		return 0;
	for (int i = 0; i < in->nopnd; i++) {
		const struct weft_operand *o = &in->opnd[i];
		if (o->kind != WEFT_OPND_ADDR)
			continue;
		if (o->sym >= 0 && c->param_written && (uint32_t)o->sym < c->p->nsyms)
			return !c->param_written[o->sym];
		break; /* [reg] or [imm]: any written variable could be meant */
	}
	for (uint32_t i = 0; c->param_written && i < c->p->nsyms; i++)
		if (c->param_written[i])
			return 0;
	return 1;
}

/* The address of a texture fetch or surface access: a function of the
 * object and the coordinates that is not affine (filtering, clamping,
 * wrapping), so it is uniform when both are and varies otherwise. */
static uv tex_addr(const struct uctx *c, const struct weft_inst *in)
{
	int a = in->op == WEFT_OP_SUST ? 0 : 1;
	if (a + 1 >= in->nopnd || in->opnd[a].kind != WEFT_OPND_ADDR)
		return uv_vary();
	uv h = reg_val(c, in->opnd[a].reg), xy = opnd_val(c, &in->opnd[a + 1]);
	if (h.form == WEFT_U_NONE || xy.form == WEFT_U_NONE)
		return uv_none();
	if (h.form != WEFT_U_UNIFORM || xy.form != WEFT_U_UNIFORM)
		return uv_vary();
	return uv_uni(umax(umax(h.level, xy.level), WEFT_UL_LAUNCH));
}

/* The value an instruction computes (before its guard is applied). */
static uv compute(const struct uctx *c, uint32_t pc)
{
	const struct weft_inst *in = &c->p->insts[pc];
	const struct weft_inst_info *ii = &c->p->info[pc];
	int integer = is_int_type(in->type);
	switch (in->op) {
	case WEFT_OP_MOV:
		if (in->opnd[0].kind == WEFT_OPND_VEC)
			return opaque(src(c, in, 1)); /* unpack */
		return src(c, in, 1);
	case WEFT_OP_ADD:
		if (integer)
			return add(src(c, in, 1), src(c, in, 2));
		break;
	case WEFT_OP_SUB:
		if (integer)
			return add(src(c, in, 1), neg(src(c, in, 2)));
		break;
	case WEFT_OP_NEG:
		if (integer)
			return neg(src(c, in, 1));
		break;
	case WEFT_OP_MUL: case WEFT_OP_MUL24:
		if (integer && in->mode != WEFT_MUL_HI)
			return mul(src(c, in, 1), src(c, in, 2));
		break;
	case WEFT_OP_MAD: case WEFT_OP_MAD24:
		if (integer && in->mode != WEFT_MUL_HI)
			return add(mul(src(c, in, 1), src(c, in, 2)), src(c, in, 3));
		break;
	case WEFT_OP_SHL: {
		uv s = src(c, in, 2);
		if (s.form == WEFT_U_UNIFORM && s.base_known && s.base_k >= 0 && s.base_k < 63)
			return mul(src(c, in, 1), uv_const((int64_t)1 << s.base_k));
		break;
	}
	case WEFT_OP_CVT:
		/* integer widening/narrowing keeps the value (no wrap assumed) */
		if (integer && is_int_type(in->type2))
			return src(c, in, 1);
		break;
	case WEFT_OP_CVTA: {
		uv v = src(c, in, 1);
		if (in->space == WEFT_SPACE_LOCAL)
			return v.form == WEFT_U_NONE ? v : uv_vary(); /* per-thread frames */
		if (is_lin(&v)) {
			v.base_known = 0;
			if (in->space == WEFT_SPACE_SHARED)
				v.level = (uint8_t)umax(v.level, WEFT_UL_CTA);
			v = norm(v);
			if (v.level == WEFT_UL_CONST && !v.base_known)
				v.level = WEFT_UL_LAUNCH;
		}
		return v;
	}
	case WEFT_OP_LD: case WEFT_OP_LDU: {
		uv a = uv_none();
		for (int i = 0; i < in->nopnd; i++)
			if (in->opnd[i].kind == WEFT_OPND_ADDR)
				a = opnd_val(c, &in->opnd[i]);
		if (a.form == WEFT_U_NONE)
			return a;
		int ro = in->space == WEFT_SPACE_CONST || in->op == WEFT_OP_LDU ||
			 (in->flags & WEFT_F_NC) || (in->space == WEFT_SPACE_PARAM && param_readonly(c, in));
		if (ro && a.form == WEFT_U_UNIFORM)
			return uv_uni(umax(a.level, WEFT_UL_LAUNCH));
		return uv_vary();
	}
	case WEFT_OP_TEX: case WEFT_OP_TLD4: {
		/* texture memory is read-only during a launch, as ld.global.nc */
		uv a = tex_addr(c, in);
		if (a.form == WEFT_U_NONE)
			return a;
		return a.form == WEFT_U_UNIFORM ? uv_uni(a.level) : uv_vary();
	}
	case WEFT_OP_SULD: /* surfaces may be written during the launch */
	case WEFT_OP_ATOM: case WEFT_OP_VOTE: case WEFT_OP_ACTIVEMASK: case WEFT_OP_MATCH:
	case WEFT_OP_REDUX: case WEFT_OP_ADDC: case WEFT_OP_SUBC: case WEFT_OP_MADC:
		return uv_vary();
	case WEFT_OP_SHFL: {
		/* every lane reads some lane's copy of the value */
		uv v = src(c, in, 1);
		return v.form == WEFT_U_UNIFORM ? v : (v.form == WEFT_U_NONE ? v : uv_vary());
	}
	case WEFT_OP_SELP: {
		/* as a predicated move: one of two values, chosen by c */
		uv a = src(c, in, 1), b = src(c, in, 2), g = src(c, in, 3);
		if (a.form == WEFT_U_NONE || b.form == WEFT_U_NONE || g.form == WEFT_U_NONE)
			return uv_none();
		if (g.form == WEFT_U_UNIFORM && g.base_known)
			return g.base_k ? a : b;
		uv j = join(a, b);
		if (g.form == WEFT_U_UNIFORM)
			return lvl_floor(j, g.level);
		return fully_known(&j) ? j : uv_vary();
	}
	case WEFT_OP_BAR: /* bar.red: one result for the whole CTA */
		return uv_uni(WEFT_UL_CTA);
	default:
		break;
	}
	return generic(c, in, ii);
}

/* Runs one instruction on c->cur, recording its facts. */
static void step(struct uctx *c, uint32_t pc)
{
	const struct weft_inst *in = &c->p->insts[pc];
	const struct weft_inst_info *ii = &c->p->info[pc];
	struct weft_uinst *ui = &c->u->inst[pc];
	uv g = uv_none();
	if (in->guard != WEFT_NO_REG)
		g = reg_val(c, in->guard);
	ui->guard_cls = in->guard != WEFT_NO_REG ? (uint8_t)uclass_of(&g) : WEFT_UC_NONE;
	if (ii->flags & WEFT_II_ADDR) {
		for (int i = 0; i < in->nopnd; i++)
			if (in->opnd[i].kind == WEFT_OPND_ADDR)
				ui->addr = opnd_val(c, &in->opnd[i]);
		if (in->op == WEFT_OP_TEX || in->op == WEFT_OP_TLD4 || in->op == WEFT_OP_SULD ||
		    in->op == WEFT_OP_SUST)
			ui->addr = tex_addr(c, in);
	}
	if (!ii->ndefs) {
		ui->val = uv_none();
		ui->cls = WEFT_UC_NONE;
		return;
	}
	uv res = compute(c, pc);
	unsigned worst = WEFT_UC_NONE;
	for (uint32_t k = 0; k < ii->ndefs; k++) {
		int32_t r = ii->defs[k];
		if (r < 0 || (uint32_t)r >= c->R)
			continue;
		uv nv = res;
		if (in->op == WEFT_OP_SHFL && k > 0)
			nv = uv_vary(); /* the in-range predicate of d|p */
		else if (k > 0 || in->opnd[0].kind == WEFT_OPND_VEC)
			nv = in->op == WEFT_OP_SETP ? res : opaque(res);
		if (in->guard != WEFT_NO_REG) {
			uv old = c->cur[r];
			if (g.form == WEFT_U_UNIFORM && g.base_known) {
				if (!((g.base_k != 0) ^ (in->guard_neg != 0)))
					nv = old;
			} else if (g.form == WEFT_U_UNIFORM || g.form == WEFT_U_NONE) {
				nv = lvl_floor(join(old, nv), g.form == WEFT_U_NONE ? 0 : g.level);
			} else {
				uv j = join(old, nv);
				nv = fully_known(&j) ? j : uv_vary();
			}
		}
		c->cur[r] = nv;
		if (k == 0)
			ui->val = nv;
		unsigned cl = uclass_of(&nv);
		if (cl > worst)
			worst = cl;
	}
	ui->cls = (uint8_t)worst;
}

/* ---- branch regions --------------------------------------------------- */

static int bad_block(const struct uctx *c, uint32_t b)
{
	return b >= c->B;
}

/* Marks side bit k on the blocks reachable from s without passing P. */
static void mark_side(struct uctx *c, uint32_t s, uint32_t P, unsigned k)
{
	if (bad_block(c, s) || s == P || (c->side[s] >> k & 1))
		return;
	uint32_t sp = 0;
	c->side[s] |= (uint8_t)(1u << k);
	c->stack[sp++] = s;
	while (sp) {
		uint32_t b = c->stack[--sp];
		const struct weft_block *bl = &c->p->blocks[b];
		for (uint32_t j = 0; j < bl->nsucc; j++) {
			uint32_t t = bl->succ[j];
			if (bad_block(c, t) || t == P || (c->side[t] >> k & 1))
				continue;
			c->side[t] |= (uint8_t)(1u << k);
			c->stack[sp++] = t;
		}
	}
}

static void raise_floor(struct uctx *c, uint32_t b, const uint8_t *regs, uint8_t f)
{
	uint8_t *fl = c->floor + (size_t)b * c->R;
	for (uint32_t r = 0; r < c->R; r++)
		if (regs[r] && fl[r] < f)
			fl[r] = f;
}

static void defs_of_block(struct uctx *c, uint32_t b, uint8_t *regs)
{
	const struct weft_block *bl = &c->p->blocks[b];
	for (uint32_t pc = bl->first; pc < bl->first + bl->count; pc++)
		for (uint32_t k = 0; k < c->p->info[pc].ndefs; k++) {
			int32_t r = c->p->info[pc].defs[k];
			if (r >= 0 && (uint32_t)r < c->R)
				regs[r] = 1;
		}
}

/* Sides (bit k: succ[k] of branch block b) from which edge q -> j comes. */
static unsigned edge_sides(const struct uctx *c, uint32_t b, uint32_t q, uint32_t j)
{
	unsigned sides = c->side[q];
	if (q == b)
		for (unsigned k = 0; k < c->p->blocks[b].nsucc && k < 2; k++)
			if (c->p->blocks[b].succ[k] == j)
				sides |= 1u << k;
	return sides;
}

/* Floors caused by the conditional branch ending block b, of class cls. */
static void branch_floors(struct uctx *c, uint32_t b, unsigned cls)
{
	uint8_t f = cls == WEFT_UC_LAUNCH ? FL_LAUNCH : cls == WEFT_UC_CTA ? FL_CTA
		    : (cls == WEFT_UC_AFFINE || cls == WEFT_UC_VARYING) ? FL_VARY : FL_NONE;
	if (f == FL_NONE)
		return;
	const struct weft_block *bl = &c->p->blocks[b];
	uint32_t P = bl->ipdom;
	memset(c->side, 0, c->B);
	memset(c->rdef, 0, c->R);
	for (unsigned k = 0; k < bl->nsucc && k < 2; k++)
		mark_side(c, bl->succ[k], P, k);
	for (uint32_t x = 0; x < c->B; x++)
		if (c->side[x])
			defs_of_block(c, x, c->rdef);
	/* joins: two incoming edges from different blocks, one reachable
	 * from each side of the branch */
	for (uint32_t j = 0; j < c->B; j++) {
		if (!c->side[j] && j != P)
			continue;
		int join_here = 0;
		for (uint32_t x = c->pstart[j]; x < c->pstart[j + 1] && !join_here; x++)
			for (uint32_t y = c->pstart[j]; y < c->pstart[j + 1]; y++) {
				uint32_t q1 = c->preds[x], q2 = c->preds[y];
				if (q1 == q2)
					continue;
				if ((edge_sides(c, b, q1, j) & 1) && (edge_sides(c, b, q2, j) & 2)) {
					join_here = 1;
					break;
				}
			}
		if (join_here)
			raise_floor(c, j, c->rdef, f);
	}
	/* loops that b leaves: registers defined in them, at every exit */
	if (!c->l)
		return;
	for (uint32_t li = 0; li < c->l->nloops; li++) {
		if (!weft_loop_contains(c->l, li, b))
			continue;
		int leaves = 0;
		for (uint32_t k = 0; k < bl->nsucc; k++)
			leaves |= bad_block(c, bl->succ[k]) || !weft_loop_contains(c->l, li, bl->succ[k]);
		if (!leaves)
			continue;
		const struct weft_loop *lp = &c->l->loops[li];
		memset(c->rdef, 0, c->R);
		for (uint32_t j = 0; j < lp->nblocks; j++)
			defs_of_block(c, lp->blocks[j], c->rdef);
		for (uint32_t e = 0; e < lp->nexits; e++)
			if (!bad_block(c, lp->exits[e].to))
				raise_floor(c, lp->exits[e].to, c->rdef, f);
	}
}

/* ---- driver ----------------------------------------------------------- */

/* Block b ends in a guarded exit/ret/trap: threads whose guard holds leave
 * the kernel there (the linker turns an early `return` into one). */
static int exits_guarded(const struct weft_program *p, uint32_t b)
{
	const struct weft_block *bl = &p->blocks[b];
	if (!bl->count)
		return 0;
	const struct weft_inst *last = &p->insts[bl->first + bl->count - 1];
	return last->guard != WEFT_NO_REG &&
	       (last->op == WEFT_OP_EXIT || last->op == WEFT_OP_RET || last->op == WEFT_OP_TRAP);
}

static int propagate(struct uctx *c, uint32_t s)
{
	uv *si = c->in + (size_t)s * c->R;
	if (!c->reached[s]) {
		c->reached[s] = 1;
		memcpy(si, c->cur, c->R * sizeof(uv));
		return 1;
	}
	int changed = 0;
	for (uint32_t r = 0; r < c->R; r++) {
		uv j = join(si[r], c->cur[r]);
		if (!uv_eq(&j, &si[r])) {
			si[r] = j;
			changed = 1;
		}
	}
	return changed;
}

static void run_dataflow(struct uctx *c)
{
	memset(c->reached, 0, c->B);
	for (size_t i = 0; i < (size_t)c->B * c->R; i++)
		c->in[i] = uv_none();
	if (!c->B)
		return;
	c->reached[0] = 1;
	int changed = 1;
	while (changed) {
		changed = 0;
		for (uint32_t i = 0; i < c->d->nrpo; i++) {
			uint32_t b = c->d->rpo[i];
			if (!c->reached[b])
				continue;
			memcpy(c->cur, c->in + (size_t)b * c->R, c->R * sizeof(uv));
			const uint8_t *fl = c->floor + (size_t)b * c->R;
			for (uint32_t r = 0; r < c->R; r++) {
				if (!fl[r] || !is_lin(&c->cur[r]) || fully_known(&c->cur[r]))
					continue;
				c->cur[r] = fl[r] == FL_VARY ? uv_vary()
					    : lvl_floor(c->cur[r], fl[r] == FL_CTA ? WEFT_UL_CTA : WEFT_UL_LAUNCH);
			}
			const struct weft_block *bl = &c->p->blocks[b];
			for (uint32_t pc = bl->first; pc < bl->first + bl->count; pc++)
				step(c, pc);
			for (uint32_t k = 0; k < bl->nsucc; k++)
				if (!bad_block(c, bl->succ[k]))
					changed |= propagate(c, bl->succ[k]);
		}
	}
}

/* Fills the per-memory-instruction address facts from ui->addr. */
static void addr_facts(struct uctx *c)
{
	for (uint32_t pc = 0; pc < c->p->ninsts; pc++) {
		struct weft_uinst *ui = &c->u->inst[pc];
		const struct weft_inst_info *ii = &c->p->info[pc];
		if (!(ii->flags & WEFT_II_ADDR))
			continue;
		ui->is_mem = 1;
		ui->access_bytes = ii->access_bytes;
		ui->addr_cls = (uint8_t)uclass_of(&ui->addr);
		ui->stride_known = 0;
		if (is_lin(&ui->addr)) {
			ui->stride_known = ui->addr.coef_known;
			for (int k = 0; k < 3; k++)
				ui->addr_stride[k] = ui->addr.coef[k];
		}
		ui->unit_stride = (ui->stride_known & 1) && ui->addr.form == WEFT_U_AFFINE &&
				  ui->addr_stride[0] == (int64_t)ii->access_bytes && ii->access_bytes;
	}
}

int weft_uniform_build(const struct weft_program *p, const struct weft_dom *d,
		       const struct weft_loops *l, struct weft_uniform *u, struct weft_error *err)
{
	return weft_uniform_build_grid(p, d, l, NULL, u, err);
}

int weft_uniform_build_grid(const struct weft_program *p, const struct weft_dom *d,
			    const struct weft_loops *l, const uint32_t nctaid[3],
			    struct weft_uniform *u, struct weft_error *err)
{
	memset(u, 0, sizeof(*u));
	struct uctx c = { .p = p, .nctaid = nctaid, .d = d, .l = l, .u = u, .R = p->nregs, .B = p->nblocks };
	u->ninsts = p->ninsts;
	u->nblocks = p->nblocks;
	u->inst = calloc((size_t)p->ninsts + 1, sizeof(*u->inst));
	u->block_divergent = calloc((size_t)p->nblocks + 1, 1);
	u->loop_divergent = calloc((size_t)(l ? l->nloops : 0) + 1, 1);
	c.in = malloc(((size_t)c.B * c.R + 1) * sizeof(uv));
	c.reached = calloc((size_t)c.B + 1, 1);
	c.cur = malloc(((size_t)c.R + 1) * sizeof(uv));
	c.floor = calloc((size_t)c.B * c.R + 1, 1);
	c.bcls = calloc((size_t)c.B + 1, 1);
	c.side = calloc((size_t)c.B + 1, 1);
	c.rdef = calloc((size_t)c.R + 1, 1);
	c.stack = malloc(((size_t)c.B + 1) * sizeof(uint32_t));
	c.param_written = calloc((size_t)p->nsyms + 1, 1);
	uint32_t nedges = 0;
	for (uint32_t b = 0; b < c.B; b++)
		nedges += p->blocks[b].nsucc;
	c.pstart = calloc((size_t)c.B + 2, sizeof(uint32_t));
	c.preds = malloc(((size_t)nedges + 1) * sizeof(uint32_t));
	uint32_t *fill = calloc((size_t)c.B + 1, sizeof(uint32_t));
	int rc = 0, csr_ok = c.pstart && c.preds && fill;
	if (csr_ok) {
		for (uint32_t b = 0; b < c.B; b++)
			for (uint32_t k = 0; k < p->blocks[b].nsucc; k++)
				if (p->blocks[b].succ[k] < c.B)
					c.pstart[p->blocks[b].succ[k] + 1]++;
		for (uint32_t b = 0; b < c.B; b++)
			c.pstart[b + 1] += c.pstart[b];
		for (uint32_t b = 0; b < c.B; b++)
			for (uint32_t k = 0; k < p->blocks[b].nsucc; k++) {
				uint32_t t = p->blocks[b].succ[k];
				if (t < c.B)
					c.preds[c.pstart[t] + fill[t]++] = b;
			}
	}
	free(fill);
	if (!csr_ok || !u->inst || !u->block_divergent || !u->loop_divergent || !c.in || !c.reached ||
	    !c.cur || !c.floor || !c.bcls || !c.side || !c.rdef || !c.stack || !c.param_written) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM,
				    "out of memory in the uniformity analysis of `%s` (%u blocks x %u registers)",
				    p->kernel ? p->kernel : "?", c.B, c.R);
		goto out;
	}
	/* .param variables the program writes (inlined call sites) */
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		if ((in->op != WEFT_OP_ST && in->op != WEFT_OP_ATOM && in->op != WEFT_OP_RED) ||
		    in->space != WEFT_SPACE_PARAM)
			continue;
		for (int i = 0; i < in->nopnd; i++) {
			const struct weft_operand *o = &in->opnd[i];
			if (o->kind != WEFT_OPND_ADDR)
				continue;
			if (o->reg == WEFT_NO_REG && o->sym >= 0 && (uint32_t)o->sym < p->nsyms && c.param_written)
				c.param_written[o->sym] = 1;
			else
				c.param_stored = 1; /* through a register: could be any */
		}
	}
	/* rounds: each one can only make branch classes worse, and there are
	 * four classes per branch, so 4 * blocks + 2 rounds always suffice */
	for (uint32_t round = 0; round < 4 * c.B + 2; round++) {
		u->iterations = round + 1;
		run_dataflow(&c);
		int changed = 0;
		for (uint32_t b = 0; b < c.B; b++) {
			const struct weft_block *bl = &p->blocks[b];
			unsigned cls = WEFT_UC_NONE;
			if ((bl->nsucc == 2 || exits_guarded(p, b)) && bl->count) {
				uint32_t last = bl->first + bl->count - 1;
				cls = u->inst[last].guard_cls;
				if (cls == WEFT_UC_NONE && p->insts[last].guard != WEFT_NO_REG && c.reached[b])
					cls = WEFT_UC_VARYING; /* guard never defined: unknown */
			}
			if (cls != c.bcls[b]) {
				c.bcls[b] = (uint8_t)cls;
				changed = 1;
			}
		}
		if (!changed)
			break;
		memset(c.floor, 0, (size_t)c.B * c.R);
		for (uint32_t b = 0; b < c.B; b++)
			if (c.bcls[b] != WEFT_UC_NONE && c.bcls[b] != WEFT_UC_CONST && !exits_guarded(p, b))
				branch_floors(&c, b, c.bcls[b]);
	}
	for (uint32_t b = 0; b < c.B; b++) {
		u->block_divergent[b] = c.bcls[b] == WEFT_UC_AFFINE || c.bcls[b] == WEFT_UC_VARYING;
		if (u->block_divergent[b] && p->blocks[b].count)
			u->inst[p->blocks[b].first + p->blocks[b].count - 1].divergent = 1;
	}
	/* a loop is divergent when threads may leave it at different
	 * iterations: through a divergent exit edge, or by exiting the kernel
	 * under a thread-dependent guard inside it */
	for (uint32_t li = 0; l && li < l->nloops; li++) {
		for (uint32_t e = 0; e < l->loops[li].nexits; e++)
			if (u->block_divergent[l->loops[li].exits[e].from])
				u->loop_divergent[li] = 1;
		for (uint32_t j = 0; j < l->loops[li].nblocks; j++) {
			uint32_t b = l->loops[li].blocks[j];
			if (u->block_divergent[b] && exits_guarded(p, b))
				u->loop_divergent[li] = 1;
		}
	}
	addr_facts(&c);
out:
	free(c.in), free(c.reached), free(c.cur), free(c.floor), free(c.bcls);
	free(c.side), free(c.rdef), free(c.stack), free(c.pstart), free(c.preds);
	free(c.param_written);
	if (rc)
		weft_uniform_free(u);
	return rc;
}

void weft_uniform_free(struct weft_uniform *u)
{
	free(u->inst);
	free(u->block_divergent);
	free(u->loop_divergent);
	memset(u, 0, sizeof(*u));
}
