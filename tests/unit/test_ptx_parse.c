/*
 * test_ptx_parse.c - the PTX loader: nvcc 13 output (sm_75/80/90, -lineinfo,
 * -G) loads; decoded fields of representative instructions; kernel parameter
 * layout; module variables and initialisers; errors name file, line, column
 * and the offending token; garbage never crashes.
 *
 * Fixtures are in tests/fixtures/ptx (run from the repository root, as
 * `make unit` does; WEFT_FIXTURES overrides the directory). kernels*.cu and
 * small.cu there are the CUDA sources of the committed nvcc output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/hash.h"
#include "trace/ptx/ptx.h"

/* the three lines every module starts with */
#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
/* a kernel head declaring registers of every kind, for one-line tests */
#define IHEAD HDR ".entry k(.param .u64 p)\n{\n.reg .pred %p<4>;\n.reg .b16 %h<4>;\n" \
	".reg .b32 %r<10>;\n.reg .f32 %f<10>;\n.reg .f64 %fd<10>;\n.reg .b64 %rd<10>;\n" \
	".shared .align 8 .b8 sh[64];\n"

static const char *fixture(const char *name)
{
	static char buf[512];
	const char *dir = getenv("WEFT_FIXTURES");
	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests/fixtures/ptx", name);
	return buf;
}

static struct weft_ptx_module *load(const char *name)
{
	struct weft_ptx_module *m = NULL;
	struct weft_error err;
	char msg[1400];
	int rc = weft_ptx_load_file(fixture(name), &m, &err);
	if (rc)
		fail_msg("%s", weft_error_format(&err, msg, sizeof(msg)));
	assert_non_null(m);
	return m;
}

static const struct weft_ptx_func *func(const struct weft_ptx_module *m, const char *name)
{
	int i = weft_ptx_find_func(m, name);
	if (i < 0)
		fail_msg("function %s not found", name);
	return &m->funcs[i];
}

/* The instruction that starts on PTX line `line` (first one). */
static const struct weft_inst *at_line(const struct weft_ptx_func *f, uint32_t line)
{
	for (uint32_t i = 0; i < f->ninsts; i++)
		if (f->insts[i].pos.line == line)
			return &f->insts[i];
	fail_msg("no instruction on line %u in %s", line, f->name);
	return NULL;
}

static int32_t reg(const struct weft_ptx_func *f, const char *name)
{
	for (uint32_t i = 0; i < f->nregs; i++)
		if (!strcmp(f->regs[i].name, name))
			return (int32_t)i; /* outermost declaration */
	fail_msg("register %s not found", name);
	return -1;
}

static const struct weft_ptx_symbol *sym(const struct weft_ptx_module *m, int32_t i)
{
	assert_true(i >= 0 && (uint32_t)i < m->nsyms);
	return &m->syms[i];
}

static void fmt_is(const struct weft_ptx_module *m, const struct weft_ptx_func *f,
		   const struct weft_inst *in, const char *want)
{
	char buf[256];
	weft_ptx_format_inst(m, f, in, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* ------------------------------------------------------------------ */

static void test_fixtures_load(void **state)
{
	(void)state;
	static const char *const files[] = {
		"handwritten.ptx", "kernels1_sm75.ptx", "kernels2_sm75.ptx", "kernels2_sm80.ptx",
		"kernels2_sm90.ptx", "small_sm75.ptx", "small_sm80.ptx", "small_sm90.ptx",
		"small_lineinfo_sm75.ptx", "small_G_sm75.ptx", "kernels3_sm75.ptx", "kernels3_sm90.ptx",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct weft_ptx_module *m = load(files[i]);
		assert_true(m->nfuncs > 0);
		assert_int_equal(m->address_size, 64);
		for (uint32_t f = 0; f < m->nfuncs; f++) {
			const struct weft_ptx_func *fn = &m->funcs[f];
			if (fn->is_extern)
				continue;
			assert_true(fn->ninsts > 0);
			assert_non_null(fn->label_at);
			for (uint32_t k = 0; k < fn->ninsts; k++) {
				const struct weft_inst *in = &fn->insts[k];
				assert_true(in->op > WEFT_OP_INVALID && in->op < WEFT_OP_COUNT);
				assert_true(in->pos.line > 0 && in->pos.column > 0);
				for (int o = 0; o < in->nopnd; o++) {
					const struct weft_operand *op = &in->opnd[o];
					if (op->kind == WEFT_OPND_REG)
						assert_true(op->reg >= 0 && (uint32_t)op->reg < fn->nregs);
					if (op->kind == WEFT_OPND_LABEL)
						assert_true(op->imm >= 0 && op->imm <= fn->ninsts);
					if (op->kind == WEFT_OPND_FUNC)
						assert_true(op->imm >= 0 && op->imm < m->nfuncs);
				}
			}
		}
		weft_ptx_module_free(m);
	}
}

static void test_sm_variants_same(void **state)
{
	(void)state;
	struct weft_ptx_module *a = load("small_sm75.ptx");
	struct weft_ptx_module *b = load("small_sm90.ptx");
	struct weft_ptx_module *c = load("kernels2_sm80.ptx");
	assert_string_equal(a->target, "sm_75");
	assert_string_equal(b->target, "sm_90");
	assert_int_equal(a->version_major, 9);
	assert_int_equal(a->version_minor, 0);
	assert_int_equal(a->nfuncs, b->nfuncs);
	for (uint32_t i = 0; i < a->nfuncs; i++)
		assert_int_equal(a->funcs[i].ninsts, b->funcs[i].ninsts);
	assert_true(a->hash != b->hash); /* .target differs */
	/* sm_80+ kernels: redux, match, nanosleep */
	const struct weft_ptx_func *f = func(c, "_Z4sm80PjPKj");
	int redux = 0, match = 0, sleep = 0;
	for (uint32_t i = 0; i < f->ninsts; i++) {
		redux += f->insts[i].op == WEFT_OP_REDUX;
		match += f->insts[i].op == WEFT_OP_MATCH;
		sleep += f->insts[i].op == WEFT_OP_NANOSLEEP;
	}
	assert_true(redux >= 3);
	assert_int_equal(match, 2);
	assert_int_equal(sleep, 1);
	weft_ptx_module_free(a);
	weft_ptx_module_free(b);
	weft_ptx_module_free(c);
}

static void test_module_variables(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("handwritten.ptx");
	assert_int_equal(m->version_major, 8);
	assert_int_equal(m->version_minor, 5);
	assert_string_equal(m->target, "sm_80");

	const struct weft_ptx_symbol *s = sym(m, weft_ptx_find_symbol(m, "gscalar"));
	assert_int_equal(s->space, WEFT_SPACE_GLOBAL);
	assert_int_equal(s->type, WEFT_T_U32);
	assert_int_equal(s->size, 4);
	assert_int_equal(s->func, -1);
	assert_int_equal(s->line, 8);
	uint32_t u32;
	memcpy(&u32, s->init, 4);
	assert_int_equal(u32, 42);

	s = sym(m, weft_ptx_find_symbol(m, "gdbl"));
	assert_int_equal(s->size, 24);
	assert_int_equal(s->align, 8);
	double d[3];
	memcpy(d, s->init, 24);
	assert_true(d[0] == 1.5 && d[1] == 1.0 && d[2] == 2.0); /* 0f literal widened */

	s = sym(m, weft_ptx_find_symbol(m, "cf"));
	assert_int_equal(s->space, WEFT_SPACE_CONST);
	assert_int_equal(s->size, 16);
	float f[4];
	memcpy(f, s->init, 16);
	assert_true(f[0] == 1.0f && f[1] == -2.5f && f[2] == 3.14159274f && f[3] == 3.0f);

	s = sym(m, weft_ptx_find_symbol(m, "gneg"));
	int16_t h[4];
	memcpy(h, s->init, 8);
	assert_int_equal(h[0], -1);
	assert_int_equal(h[1], 5);
	assert_int_equal(h[2], 15);
	assert_int_equal(h[3], 10);

	s = sym(m, weft_ptx_find_symbol(m, "wb"));
	assert_int_equal(s->size, 8);
	assert_null(s->init);
	assert_true(s->is_visible);

	s = sym(m, weft_ptx_find_symbol(m, "dynsmem"));
	assert_int_equal(s->space, WEFT_SPACE_SHARED);
	assert_true(s->is_extern);
	assert_int_equal(s->size, 0);
	assert_int_equal(s->align, 16);

	s = sym(m, weft_ptx_find_symbol(m, "gv"));
	assert_int_equal(s->size, 16);
	uint32_t v[4];
	memcpy(v, s->init, 16);
	assert_int_equal(v[3], 4);

	assert_int_equal(weft_ptx_find_symbol(m, "nonexistent"), -1);
	weft_ptx_module_free(m);

	/* .extern declarations before and after the definition */
	const char *t = HDR ".extern .global .u32 ev[4];\n.global .align 8 .u32 ev[4] = {7};\n"
			".extern .global .u32 ev[];\n.extern .global .f32 only;\n";
	struct weft_error err;
	if (weft_ptx_parse(t, strlen(t), "ext.ptx", &m, &err))
		fail_msg("%s at %u:%u", err.message, err.line, err.column);
	s = sym(m, weft_ptx_find_symbol(m, "ev"));
	assert_false(s->is_extern);
	assert_int_equal(s->size, 16);
	assert_int_equal(s->align, 8);
	assert_int_equal(s->line, 5);
	assert_int_equal(s->init[0], 7);
	s = sym(m, weft_ptx_find_symbol(m, "only"));
	assert_true(s->is_extern);
	assert_int_equal(s->size, 4);
	assert_int_equal(m->nsyms, 2);
	assert_int_equal(weft_ptx_find_symbol(m, "sbuf"), -1); /* function scope */
	weft_ptx_module_free(m);
}

static void test_params_and_directives(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("handwritten.ptx");
	const struct weft_ptx_func *k = func(m, "kern");
	assert_true(k->is_entry);
	assert_true(k->is_visible);
	assert_false(k->is_extern);
	assert_int_equal(k->nparams, 5);
	static const uint32_t off[] = { 0, 8, 16, 40, 48 }, size[] = { 8, 4, 24, 1, 8 };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(k->params[i].offset, off[i]);
		assert_int_equal(k->params[i].size, size[i]);
		const struct weft_ptx_symbol *s = sym(m, k->params[i].sym);
		assert_int_equal(s->space, WEFT_SPACE_PARAM);
		assert_int_equal(s->func, k - m->funcs);
	}
	assert_true(k->params[0].is_ptr_hint);
	assert_int_equal(k->params[0].align, 8);
	assert_int_equal(k->params[2].align, 8);
	assert_int_equal(k->params[2].type, WEFT_T_B8);
	assert_int_equal(k->param_bytes, 56);
	assert_int_equal(k->maxntid[0], 256);
	assert_int_equal(k->maxntid[1], 1);
	assert_int_equal(k->minnctapersm, 2);
	assert_int_equal(k->maxnreg, 64);
	assert_int_equal(k->reqntid[0], 0);
	/* 4 + 20 + 2 + 3 + 10 + the inner %r1 */
	assert_int_equal(k->nregs, 40);
	assert_int_equal(k->regs[reg(k, "%f")].type, WEFT_T_F32);
	assert_int_equal(k->regs[reg(k, "%p3")].type, WEFT_T_PRED);

	const struct weft_ptx_func *a = func(m, "addone");
	assert_false(a->is_entry);
	assert_false(a->is_extern); /* prototype, then the definition */
	assert_int_equal(a->nrets, 1);
	assert_int_equal(a->nparams, 1);
	assert_string_equal(sym(m, a->rets[0].sym)->name, "rv");
	assert_true(func(m, "noret")->is_extern);

	/* by-value struct from nvcc: struct S { float; double; int[3]; } */
	struct weft_ptx_module *n = load("kernels1_sm75.ptx");
	const struct weft_ptx_func *b = func(n, "_Z5byval1SPixsc");
	static const uint32_t boff[] = { 0, 32, 40, 48, 50 }, bsz[] = { 32, 8, 8, 2, 1 };
	assert_int_equal(b->nparams, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(b->params[i].offset, boff[i]);
		assert_int_equal(b->params[i].size, bsz[i]);
	}
	assert_int_equal(b->params[0].align, 8);
	assert_int_equal(b->param_bytes, 51);
	const struct weft_ptx_func *lb = func(n, "_Z2lbPf");
	assert_int_equal(lb->maxntid[0], 256);
	assert_int_equal(lb->minnctapersm, 2);
	weft_ptx_module_free(n);
	weft_ptx_module_free(m);
}

static void test_instructions(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("handwritten.ptx");
	const struct weft_ptx_func *k = func(m, "kern");
	const struct weft_inst *in;

	in = at_line(k, 41);
	assert_int_equal(in->op, WEFT_OP_LD);
	assert_int_equal(in->space, WEFT_SPACE_PARAM);
	assert_int_equal(in->type, WEFT_T_U32);
	assert_int_equal(in->opnd[1].kind, WEFT_OPND_ADDR);
	assert_int_equal(in->opnd[1].sym, k->params[1].sym);
	assert_int_equal(in->opnd[1].reg, WEFT_NO_REG);
	assert_int_equal(in->pos.column, 2);
	assert_int_equal(in->guard, WEFT_NO_REG);

	in = at_line(k, 42);
	assert_int_equal(in->opnd[1].kind, WEFT_OPND_SREG);
	assert_int_equal(in->opnd[1].sreg, WEFT_SREG_TID);
	assert_int_equal(in->opnd[1].comp, WEFT_COMP_X);
	in = at_line(k, 43);
	assert_int_equal(in->opnd[1].sreg, WEFT_SREG_CTAID);
	assert_int_equal(in->opnd[1].comp, WEFT_COMP_Y);
	assert_int_equal(at_line(k, 44)->opnd[1].sreg, WEFT_SREG_LANEID);
	assert_int_equal(at_line(k, 45)->opnd[1].sreg, WEFT_SREG_CLOCK64);

	in = at_line(k, 46); /* setp.lt.and.s32 %p1|%p2, %r2, %r1, %p3 */
	assert_int_equal(in->op, WEFT_OP_SETP);
	assert_int_equal(in->cmp, WEFT_CMP_LT);
	assert_int_equal(in->boolop, WEFT_BOOL_AND);
	assert_int_equal(in->type, WEFT_T_S32);
	assert_int_equal(in->type2, WEFT_T_S32);
	assert_int_equal(in->nopnd, 4);
	assert_int_equal(in->opnd[0].reg, reg(k, "%p1"));
	assert_int_equal(in->opnd[0].reg2, reg(k, "%p2"));
	assert_int_equal(in->opnd[3].reg, reg(k, "%p3"));

	in = at_line(k, 47); /* @!%p1 bra $L_end */
	assert_int_equal(in->op, WEFT_OP_BRA);
	assert_int_equal(in->guard, reg(k, "%p1"));
	assert_true(in->guard_neg);
	assert_int_equal(in->pos.column, 2);
	assert_int_equal(in->opnd[0].kind, WEFT_OPND_LABEL);
	const struct weft_inst *ret = at_line(k, 93);
	assert_int_equal(in->opnd[0].imm, ret - k->insts);
	assert_string_equal(k->label_at[in->opnd[0].imm], "$L_end");
	assert_int_equal(ret->op, WEFT_OP_RET);

	in = at_line(k, 48);
	assert_int_equal(in->opnd[1].kind, WEFT_OPND_SYM);
	assert_string_equal(sym(m, in->opnd[1].sym)->name, "gdbl");
	in = at_line(k, 49); /* mov.u32 %r5, sbuf (function-scope shared) */
	assert_int_equal(in->opnd[1].kind, WEFT_OPND_SYM);
	assert_string_equal(sym(m, in->opnd[1].sym)->name, "sbuf");
	assert_int_equal(sym(m, in->opnd[1].sym)->func, k - m->funcs);
	assert_int_equal(sym(m, in->opnd[1].sym)->space, WEFT_SPACE_SHARED);
	assert_int_equal(sym(m, in->opnd[1].sym)->size, 64);

	in = at_line(k, 50); /* ld.shared.v2.u32 {%r6, _}, [sbuf+8] */
	assert_int_equal(in->vec, 2);
	assert_int_equal(in->opnd[0].kind, WEFT_OPND_VEC);
	assert_int_equal(in->opnd[0].nvec, 2);
	assert_int_equal(in->opnd[0].vec_regs[0], reg(k, "%r6"));
	assert_int_equal(in->opnd[0].vec_regs[1], WEFT_NO_REG);
	assert_int_equal(in->opnd[1].imm, 8);
	in = at_line(k, 51); /* st.local.u32 [%rd4+-4], %r6 */
	assert_int_equal(in->opnd[0].kind, WEFT_OPND_ADDR);
	assert_int_equal(in->opnd[0].reg, reg(k, "%rd4"));
	assert_int_equal(in->opnd[0].imm, -4);
	assert_int_equal(in->space, WEFT_SPACE_LOCAL);
	assert_int_equal(at_line(k, 52)->opnd[0].kind, WEFT_OPND_VEC);
	assert_int_equal(at_line(k, 53)->opnd[1].kind, WEFT_OPND_VEC);
	assert_int_equal(at_line(k, 53)->opnd[1].vec_regs[1], reg(k, "%r8"));

	in = at_line(k, 54); /* add.rn.ftz.sat.f32 %f, %g, 0f3F800000 */
	assert_int_equal(in->rnd, WEFT_RND_RN);
	assert_int_equal(in->flags & (WEFT_F_FTZ | WEFT_F_SAT), WEFT_F_FTZ | WEFT_F_SAT);
	assert_int_equal(in->opnd[2].imm, 0x3F800000);
	assert_true(in->opnd[2].imm_is_float);
	assert_int_equal(at_line(k, 55)->opnd[2].imm, 0x3FF0000000000000ll); /* 0f in f64 op */
	assert_int_equal(at_line(k, 56)->opnd[2].imm, 0x4004000000000000ll); /* 2.5 */
	assert_int_equal(at_line(k, 57)->opnd[2].imm, 0x3FC00000);           /* 1.5f */

	in = at_line(k, 58);
	assert_int_equal(in->op, WEFT_OP_CVT);
	assert_int_equal(in->type, WEFT_T_F32);
	assert_int_equal(in->type2, WEFT_T_S32);
	assert_int_equal(in->rnd, WEFT_RND_RN);
	in = at_line(k, 59);
	assert_int_equal(in->rnd, WEFT_RND_RZI);
	assert_true(in->flags & WEFT_F_SAT);
	assert_int_equal(in->type, WEFT_T_U8);
	assert_int_equal(in->type2, WEFT_T_F64);

	in = at_line(k, 60);
	assert_int_equal(in->op, WEFT_OP_MAD);
	assert_int_equal(in->mode, WEFT_MUL_WIDE);
	assert_int_equal(in->opnd[2].imm, 4);
	assert_false(in->opnd[2].imm_is_float);
	in = at_line(k, 61);
	assert_int_equal(in->mode, WEFT_MUL_HI);
	assert_int_equal(in->opnd[2].imm, -7);
	assert_int_equal(at_line(k, 62)->mode, WEFT_SHF_R_CLAMP);
	assert_int_equal(at_line(k, 63)->mode, WEFT_PRMT_F4E);

	in = at_line(k, 64);
	assert_int_equal(in->op, WEFT_OP_ATOM);
	assert_int_equal(in->mode, WEFT_ATOM_CAS);
	assert_int_equal(in->space, WEFT_SPACE_GLOBAL);
	assert_int_equal(in->type, WEFT_T_B32);
	assert_int_equal(in->nopnd, 4);
	in = at_line(k, 65);
	assert_int_equal(in->mode, WEFT_ATOM_ADD);
	assert_int_equal(in->space, WEFT_SPACE_SHARED);
	assert_true(in->flags & WEFT_F_ACQ_REL);
	in = at_line(k, 66);
	assert_int_equal(in->op, WEFT_OP_RED);
	assert_int_equal(in->type, WEFT_T_F32);
	assert_int_equal(in->opnd[0].imm, 8);

	in = at_line(k, 67); /* shfl.sync.bfly.b32 %r14|%p2, %r1, 1, 31, -1 */
	assert_int_equal(in->op, WEFT_OP_SHFL);
	assert_int_equal(in->mode, WEFT_SHFL_BFLY);
	assert_true(in->flags & WEFT_F_SYNC);
	assert_int_equal(in->nopnd, 5);
	assert_int_equal(in->opnd[0].reg2, reg(k, "%p2"));
	assert_int_equal(in->opnd[4].imm, -1);
	in = at_line(k, 68); /* vote.sync.ballot.b32 %r15, !%p1, 0xffffffff */
	assert_int_equal(in->mode, WEFT_VOTE_BALLOT);
	assert_true(in->opnd[1].neg);
	assert_int_equal(in->opnd[2].imm, 0xffffffffll);
	in = at_line(k, 69);
	assert_int_equal(in->op, WEFT_OP_BAR);
	assert_int_equal(in->mode, WEFT_BAR_RED_POPC);
	assert_int_equal(in->type, WEFT_T_U32);
	in = at_line(k, 70);
	assert_int_equal(in->mode, WEFT_BAR_SYNC);
	assert_int_equal(in->flags & (WEFT_F_ALIGNED | WEFT_F_SYNC), WEFT_F_ALIGNED | WEFT_F_SYNC);
	assert_int_equal(in->nopnd, 2);
	assert_int_equal(in->opnd[1].imm, 64);
	assert_int_equal(at_line(k, 71)->op, WEFT_OP_BAR_WARP);
	in = at_line(k, 72);
	assert_int_equal(in->op, WEFT_OP_FENCE);
	assert_true(in->flags & WEFT_F_ACQ_REL);
	assert_int_equal(in->mode, WEFT_SCOPE_GPU);
	assert_int_equal(at_line(k, 73)->mode, WEFT_SCOPE_CTA);
	assert_int_equal(at_line(k, 74)->mode, WEFT_TESTP_NOTANUMBER);
	in = at_line(k, 75); /* selp.b32 %r17, 0b11, 010, %p3 */
	assert_int_equal(in->opnd[1].imm, 3);
	assert_int_equal(in->opnd[2].imm, 8);
	in = at_line(k, 76);
	assert_true(in->flags & WEFT_F_NC);
	assert_int_equal(in->vec, 2);
	assert_true(at_line(k, 77)->flags & WEFT_F_VOLATILE);
	in = at_line(k, 78);
	assert_int_equal(in->op, WEFT_OP_CVTA);
	assert_int_equal(in->mode, WEFT_CVTA_FROM_GENERIC);
	assert_int_equal(in->space, WEFT_SPACE_SHARED);

	/* scoped block: the inner %r1 is a different register */
	int32_t outer = reg(k, "%r1");
	in = at_line(k, 83);
	assert_int_not_equal(in->opnd[0].reg, outer);
	assert_string_equal(k->regs[in->opnd[0].reg].name, "%r1");
	assert_int_equal(at_line(k, 84)->opnd[1].reg, in->opnd[0].reg);
	assert_int_equal(at_line(k, 88)->opnd[2].reg, outer);
	in = at_line(k, 85); /* call.uni (ret0), addone, (arg0) */
	assert_int_equal(in->op, WEFT_OP_CALL);
	assert_true(in->flags & WEFT_F_UNI);
	assert_int_equal(in->opnd[0].kind, WEFT_OPND_FUNC);
	assert_int_equal(in->opnd[0].imm, weft_ptx_find_func(m, "addone"));
	assert_int_equal(in->ncall_rets, 1);
	assert_int_equal(in->ncall_args, 1);
	assert_string_equal(sym(m, in->call_rets[0])->name, "ret0");
	assert_string_equal(sym(m, in->call_args[0])->name, "arg0");
	assert_int_equal(sym(m, in->call_args[0])->space, WEFT_SPACE_PARAM);
	assert_int_equal(sym(m, in->call_args[0])->func, k - m->funcs);
	in = at_line(k, 86);
	assert_int_equal(in->opnd[1].sym, at_line(k, 85)->call_rets[0]);

	in = at_line(k, 89);
	assert_true(in->flags & WEFT_F_UNI);
	assert_false(in->guard_neg);
	in = at_line(k, 90);
	assert_int_equal(in->op, WEFT_OP_SET);
	assert_int_equal(in->cmp, WEFT_CMP_GT);
	assert_int_equal(in->type, WEFT_T_U32);
	assert_int_equal(in->type2, WEFT_T_F32);
	in = at_line(k, 91);
	assert_int_equal(in->type, WEFT_T_S32);
	assert_int_equal(in->type2, WEFT_T_F32);
	weft_ptx_module_free(m);
}

static void test_format(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("handwritten.ptx");
	const struct weft_ptx_func *k = func(m, "kern");
	fmt_is(m, k, at_line(k, 46), "setp.lt.and.s32 %p1|%p2, %r2, %r1, %p3;");
	fmt_is(m, k, at_line(k, 47), "@!%p1 bra $L_end;");
	fmt_is(m, k, at_line(k, 50), "ld.shared.v2.u32 {%r6, _}, [sbuf+8];");
	fmt_is(m, k, at_line(k, 51), "st.local.u32 [%rd4+-4], %r6;");
	fmt_is(m, k, at_line(k, 55), "add.f64 %fd1, %fd2, 0d3FF0000000000000;");
	fmt_is(m, k, at_line(k, 67), "shfl.sync.bfly.b32 %r14|%p2, %r1, 1, 31, -1;");
	fmt_is(m, k, at_line(k, 85), "call.uni (ret0), addone, (arg0);");
	fmt_is(m, k, at_line(k, 42), "mov.u32 %r2, %tid.x;");
	char small[8];
	weft_ptx_format_inst(m, k, at_line(k, 46), small, sizeof(small));
	assert_int_equal(strlen(small), 7); /* truncated, terminated */
	weft_ptx_module_free(m);
}

static void test_nvcc_details(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("kernels1_sm75.ptx");
	/* a demoted __shared__ array lives in its kernel */
	const struct weft_ptx_func *r = func(m, "_Z6reducePKfPfi");
	int found = 0;
	for (uint32_t i = 0; i < m->nsyms; i++)
		if (!strcmp(m->syms[i].name, "_ZZ6reducePKfPfiE1s")) {
			assert_int_equal(m->syms[i].func, r - m->funcs);
			assert_int_equal(m->syms[i].space, WEFT_SPACE_SHARED);
			assert_int_equal(m->syms[i].size, 1024);
			found = 1;
		}
	assert_true(found);
	/* __constant__ float ctab[8] = {1.0f, 2.5f, ...} */
	const struct weft_ptx_symbol *c = sym(m, weft_ptx_find_symbol(m, "ctab"));
	assert_int_equal(c->space, WEFT_SPACE_CONST);
	float f[2];
	memcpy(f, c->init, 8);
	assert_true(f[0] == 1.0f && f[1] == 2.5f);
	/* math library calls: .func with return param, call.uni, local depot */
	const struct weft_ptx_func *mk = func(m, "_Z5mathkPfPKfPdPKd");
	int calls = 0, spl = 0;
	for (uint32_t i = 0; i < mk->ninsts; i++) {
		const struct weft_inst *in = &mk->insts[i];
		if (in->op == WEFT_OP_CALL) {
			calls++;
			const struct weft_ptx_func *callee = &m->funcs[in->opnd[0].imm];
			assert_int_equal(in->ncall_args, callee->nparams);
			assert_int_equal(in->ncall_rets, callee->nrets);
		}
	}
	for (uint32_t i = 0; i < mk->nregs; i++)
		spl += !strcmp(mk->regs[i].name, "%SPL") || !strcmp(mk->regs[i].name, "%SP");
	assert_true(calls >= 2);
	assert_int_equal(spl, 2);
	const struct weft_ptx_func *slow = func(m, "__internal_trig_reduction_slowpathd");
	assert_int_equal(slow->nrets, 1);
	assert_int_equal(slow->rets[0].size, 16);
	/* extern shared */
	const struct weft_ptx_symbol *dyn = sym(m, weft_ptx_find_symbol(m, "dyn"));
	assert_true(dyn->is_extern);
	/* warp-level ops decode */
	const struct weft_ptx_func *w = func(m, "_Z9warpstuffPiPKi");
	int shfl[4] = { 0 }, vote[4] = { 0 }, atoms = 0;
	for (uint32_t i = 0; i < w->ninsts; i++) {
		const struct weft_inst *in = &w->insts[i];
		if (in->op == WEFT_OP_SHFL)
			shfl[in->mode]++;
		if (in->op == WEFT_OP_VOTE)
			vote[in->mode]++;
		atoms += in->op == WEFT_OP_ATOM || in->op == WEFT_OP_RED;
	}
	assert_true(shfl[WEFT_SHFL_UP] && shfl[WEFT_SHFL_BFLY] && shfl[WEFT_SHFL_IDX]);
	assert_true(vote[WEFT_VOTE_ALL] && vote[WEFT_VOTE_ANY] && vote[WEFT_VOTE_BALLOT]);
	assert_true(atoms >= 10);
	weft_ptx_module_free(m);
}

/* cuda_fp16.h inline asm: `{.reg.b32 f; .reg.b16 r; mov.b16 r,%rs8; ...}` */
static void test_inline_asm_blocks(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("kernels3_sm75.ptx");
	const struct weft_ptx_func *f = func(m, "_Z5halfkP6__halfPKS_PK7__half2PS3_");
	int plain = 0, dp = 0;
	for (uint32_t i = 0; i < f->nregs; i++)
		plain += f->regs[i].name[0] != '%';
	assert_true(plain >= 2);
	const struct weft_inst *in = NULL;
	for (uint32_t i = 0; i < f->ninsts; i++)
		if (f->insts[i].op == WEFT_OP_SQRT)
			in = &f->insts[i];
	assert_non_null(in);
	assert_string_equal(f->regs[in->opnd[0].reg].name, "f");
	assert_true(in->flags & WEFT_F_APPROX);
	const struct weft_ptx_func *d = func(m, "_Z3dp4PiPKi");
	for (uint32_t i = 0; i < d->ninsts; i++)
		dp += d->insts[i].op == WEFT_OP_DP4A || d->insts[i].op == WEFT_OP_DP2A;
	assert_int_equal(dp, 2);
	weft_ptx_module_free(m);
}

/* -G builds call through function pointers with a .callprototype */
static void test_indirect_call(void **state)
{
	(void)state;
	const char *t = HDR ".func (.param .b32 r) f(.param .b64 a, .param .b64 b);\n"
			".entry k()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r1;\n"
			"\tmov.u64 %rd1, f;\n"
			"\t{\n\t.param .b64 param0;\n\t.param .b64 param1;\n\t.param .b32 retval0;\n"
			"\tproto_1 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .b64 _);\n"
			"\tcall (retval0), %rd1, (param0, param1), proto_1;\n"
			"\tld.param.b32 %r1, [retval0];\n\t}\n\tret;\n}\n";
	struct weft_ptx_module *m;
	struct weft_error err;
	if (weft_ptx_parse(t, strlen(t), "ind.ptx", &m, &err))
		fail_msg("%s at %u:%u", err.message, err.line, err.column);
	const struct weft_ptx_func *k = func(m, "k");
	assert_int_equal(k->ninsts, 4);
	assert_int_equal(k->insts[0].opnd[1].kind, WEFT_OPND_FUNC);
	assert_int_equal(k->insts[0].opnd[1].imm, weft_ptx_find_func(m, "f"));
	const struct weft_inst *c = &k->insts[1];
	assert_int_equal(c->op, WEFT_OP_CALL);
	assert_int_equal(c->opnd[0].kind, WEFT_OPND_REG);
	assert_int_equal(c->opnd[0].reg, reg(k, "%rd1"));
	assert_int_equal(c->ncall_args, 2);
	assert_int_equal(c->ncall_rets, 1);
	assert_null(k->label_at[1]); /* a prototype is not a label */
	fmt_is(m, k, c, "call (retval0), %rd1, (param0, param1);");
	weft_ptx_module_free(m);
	/* the prototype is required, and must match */
	const char *bad = HDR ".entry k()\n{\n.reg .b64 %rd1;\n\tcall %rd1, ();\n}\n";
	assert_int_equal(weft_ptx_parse(bad, strlen(bad), "ind.ptx", &m, &err), WEFT_ERR_PARSE);
	assert_non_null(strstr(err.message, "needs a .callprototype"));
	assert_int_equal(err.line, 7);
	assert_int_equal(err.column, 7);
}

/* Smaller forms: special registers, calls without results, function-scope
 * dynamic shared memory, .reqntid, .file with timestamp and size, older
 * .version. */
static void test_misc_forms(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int sreg, comp;
	} sr[] = {
		{ "%tid.z", WEFT_SREG_TID, 2 }, { "%ntid.y", WEFT_SREG_NTID, 1 },
		{ "%ctaid.x", WEFT_SREG_CTAID, 0 }, { "%nctaid.z", WEFT_SREG_NCTAID, 2 },
		{ "%laneid", WEFT_SREG_LANEID, 0 }, { "%warpid", WEFT_SREG_WARPID, 0 },
		{ "%nwarpid", WEFT_SREG_NWARPID, 0 }, { "%smid", WEFT_SREG_SMID, 0 },
		{ "%nsmid", WEFT_SREG_NSMID, 0 }, { "%gridid", WEFT_SREG_GRIDID, 0 },
		{ "%clock", WEFT_SREG_CLOCK, 0 }, { "%clock64", WEFT_SREG_CLOCK64, 0 },
		{ "%globaltimer", WEFT_SREG_GLOBALTIMER, 0 },
		{ "%lanemask_eq", WEFT_SREG_LANEMASK_EQ, 0 }, { "%lanemask_le", WEFT_SREG_LANEMASK_LE, 0 },
		{ "%lanemask_lt", WEFT_SREG_LANEMASK_LT, 0 }, { "%lanemask_ge", WEFT_SREG_LANEMASK_GE, 0 },
		{ "%lanemask_gt", WEFT_SREG_LANEMASK_GT, 0 },
		{ "%dynamic_smem_size", WEFT_SREG_DYNAMIC_SMEM_SIZE, 0 },
		{ "%total_smem_size", WEFT_SREG_TOTAL_SMEM_SIZE, 0 }, { "%envreg7", WEFT_SREG_ENVREG, 7 },
	};
	char text[1024];
	struct weft_ptx_module *m;
	struct weft_error err;
	for (size_t i = 0; i < sizeof(sr) / sizeof(sr[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\tmov.u64 %%rd1, %s;\n\tret;\n}\n", IHEAD, sr[i].name);
		if (weft_ptx_parse(text, (size_t)n, "sr.ptx", &m, &err))
			fail_msg("%s: %s", sr[i].name, err.message);
		const struct weft_operand *o = &m->funcs[0].insts[0].opnd[1];
		assert_int_equal(o->kind, WEFT_OPND_SREG);
		assert_int_equal(o->sreg, sr[i].sreg);
		assert_int_equal(o->comp, sr[i].comp);
		char buf[128], want[128];
		weft_ptx_format_inst(m, &m->funcs[0], &m->funcs[0].insts[0], buf, sizeof(buf));
		snprintf(want, sizeof(want), "mov.u64 %%rd1, %s;", sr[i].name);
		assert_string_equal(buf, want);
		weft_ptx_module_free(m);
	}
	/* the other predefined identifiers: aliases of the registers above on
	 * weft's machine (a CTA is its own cluster), or constants */
	static const struct {
		const char *name;
		int kind, sreg, comp;
		int64_t imm;
		const char *printed;
	} al[] = {
		{ "WARP_SZ", WEFT_OPND_IMM, 0, 0, 32, "32" },
		{ "%clusterid.y", WEFT_OPND_SREG, WEFT_SREG_CTAID, 1, 0, "%ctaid.y" },
		{ "%nclusterid.x", WEFT_OPND_SREG, WEFT_SREG_NCTAID, 0, 0, "%nctaid.x" },
		{ "%cluster_ctaid.z", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%cluster_nctaid.x", WEFT_OPND_IMM, 0, 0, 1, "1" },
		{ "%cluster_ctarank", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%cluster_nctarank", WEFT_OPND_IMM, 0, 0, 1, "1" },
		{ "%is_explicit_cluster", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%globaltimer_lo", WEFT_OPND_SREG, WEFT_SREG_CLOCK, 0, 0, "%clock" },
		{ "%globaltimer_hi", WEFT_OPND_SREG, WEFT_SREG_CLOCK_HI, 0, 0, "%clock_hi" },
		{ "%clock_hi", WEFT_OPND_SREG, WEFT_SREG_CLOCK_HI, 0, 0, "%clock_hi" },
		{ "%aggr_smem_size", WEFT_OPND_SREG, WEFT_SREG_TOTAL_SMEM_SIZE, 0, 0, "%total_smem_size" },
		{ "%reserved_smem_offset_begin", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%reserved_smem_offset_cap", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%current_graph_exec", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%pm0", WEFT_OPND_IMM, 0, 0, 0, "0" },
		{ "%pm7_64", WEFT_OPND_IMM, 0, 0, 0, "0" },
	};
	for (size_t i = 0; i < sizeof(al) / sizeof(al[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\tmov.u64 %%rd1, %s;\n\tret;\n}\n", IHEAD, al[i].name);
		if (weft_ptx_parse(text, (size_t)n, "sr.ptx", &m, &err))
			fail_msg("%s: %s", al[i].name, err.message);
		const struct weft_operand *o = &m->funcs[0].insts[0].opnd[1];
		assert_int_equal(o->kind, al[i].kind);
		if (al[i].kind == WEFT_OPND_SREG) {
			assert_int_equal(o->sreg, al[i].sreg);
			assert_int_equal(o->comp, al[i].comp);
		} else {
			assert_int_equal(o->imm, al[i].imm);
		}
		char buf[128], want[128];
		weft_ptx_format_inst(m, &m->funcs[0], &m->funcs[0].insts[0], buf, sizeof(buf));
		snprintf(want, sizeof(want), "mov.u64 %%rd1, %s;", al[i].printed);
		assert_string_equal(buf, want);
		weft_ptx_module_free(m);
	}
	static const char *const bad_sr[] = { "%clusterid", "%cluster_ctarank.x", "%pm8", "%pm0_32" };
	for (size_t i = 0; i < sizeof(bad_sr) / sizeof(bad_sr[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\tmov.u64 %%rd1, %s;\n\tret;\n}\n", IHEAD, bad_sr[i]);
		assert_int_equal(weft_ptx_parse(text, (size_t)n, "sr.ptx", &m, &err), WEFT_ERR_PARSE);
	}

	const char *t = ".version 7.0\n.target sm_90a\n.address_size 64\n"
			".func g(.param .b32 a);\n.func h;\n"
			".entry k() .reqntid 128, 2\n{\n"
			"\t.extern .shared .align 16 .b8 fdyn[];\n"
			"\t.reg .b32 %r1;\n"
			"\t{ .param .b32 p0; st.param.b32 [p0], 1; call g, (p0); }\n"
			"\tcall.uni h;\n"
			"\tcall h, ();\n"
			"\tmov.u32 %r1, fdyn;\n"
			"\tret;\n}\n"
			".func g(.param .b32 a) { ret; }\n.func h { exit; }\n"
			".file 1 \"a.cu\", 1700000000, 1234\n.file 3 \"c.cu\"\n";
	if (weft_ptx_parse(t, strlen(t), "misc.ptx", &m, &err))
		fail_msg("%s at %u:%u", err.message, err.line, err.column);
	assert_int_equal(m->version_major, 7);
	assert_int_equal(m->version_minor, 0);
	assert_string_equal(m->target, "sm_90a");
	const struct weft_ptx_func *k = func(m, "k");
	assert_int_equal(k->reqntid[0], 128);
	assert_int_equal(k->reqntid[1], 2);
	assert_int_equal(k->reqntid[2], 1);
	assert_int_equal(k->ninsts, 6);
	assert_int_equal(k->insts[1].ncall_args, 1);
	assert_int_equal(k->insts[1].ncall_rets, 0);
	assert_int_equal(k->insts[2].ncall_args, 0);
	assert_true(k->insts[2].flags & WEFT_F_UNI);
	assert_int_equal(k->insts[3].opnd[0].imm, weft_ptx_find_func(m, "h"));
	const struct weft_ptx_symbol *fd = sym(m, k->insts[4].opnd[1].sym);
	assert_string_equal(fd->name, "fdyn");
	assert_true(fd->is_extern);
	assert_int_equal(fd->size, 0);
	assert_int_equal(fd->align, 16);
	assert_int_equal(fd->func, k - m->funcs);
	assert_int_equal(m->nfiles, 4);
	assert_string_equal(m->files[1], "a.cu");
	assert_null(m->files[2]);
	assert_string_equal(m->files[3], "c.cu");
	assert_false(func(m, "g")->is_extern);
	assert_int_equal(func(m, "h")->insts[0].op, WEFT_OP_EXIT);
	weft_ptx_module_free(m);
}

static void test_lineinfo(void **state)
{
	(void)state;
	struct weft_ptx_module *m = load("small_lineinfo_sm75.ptx");
	assert_true(m->nfiles >= 3);
	assert_null(m->files[0]);
	assert_non_null(strstr(m->files[1], "small.cu"));
	const struct weft_ptx_func *f = func(m, "_Z5saxpyfPKfPfi");
	/* `.loc 1 4 3` then mov.u32 %r3, %ctaid.x */
	const struct weft_inst *in = &f->insts[4];
	assert_int_equal(in->op, WEFT_OP_MOV);
	assert_int_equal(in->opnd[1].sreg, WEFT_SREG_CTAID);
	assert_int_equal(in->pos.src_file, 1);
	assert_int_equal(in->pos.src_line, 4);
	assert_int_equal(f->insts[0].pos.src_line, 3);
	weft_ptx_module_free(m);

	/* -G: .section .debug_* blocks skipped, .loc kept */
	m = load("small_G_sm75.ptx");
	f = func(m, "_Z5saxpyfPKfPfi");
	int with_loc = 0;
	for (uint32_t i = 0; i < f->ninsts; i++)
		with_loc += f->insts[i].pos.src_line > 0;
	assert_true(with_loc > 0);
	weft_ptx_module_free(m);

	/* without -lineinfo there is no source position */
	m = load("small_sm75.ptx");
	assert_int_equal(m->funcs[0].insts[0].pos.src_file, -1);
	assert_int_equal(m->funcs[0].insts[0].pos.src_line, 0);
	weft_ptx_module_free(m);
}

static void test_hash_and_helpers(void **state)
{
	(void)state;
	const char *txt = ".version 9.0\n.target sm_75\n.address_size 64\n";
	struct weft_ptx_module *m = NULL;
	struct weft_error err;
	assert_int_equal(weft_ptx_parse(txt, strlen(txt), "h.ptx", &m, &err), 0);
	assert_true(m->hash == weft_fnv1a(WEFT_FNV1A_INIT, txt, strlen(txt)));
	assert_int_equal(m->nfuncs, 0);
	assert_string_equal(m->path, "h.ptx");
	weft_ptx_module_free(m);
	weft_ptx_module_free(NULL);

	assert_int_equal(weft_ptx_type_size(WEFT_T_F64), 8);
	assert_int_equal(weft_ptx_type_size(WEFT_T_PRED), 1);
	assert_int_equal(weft_ptx_type_size(WEFT_T_F16X2), 4);
	assert_true(weft_ptx_type_is_signed(WEFT_T_S16));
	assert_false(weft_ptx_type_is_signed(WEFT_T_U16));
	assert_true(weft_ptx_type_is_float(WEFT_T_BF16));
	assert_false(weft_ptx_type_is_float(WEFT_T_B32));
	assert_string_equal(weft_ptx_type_name(WEFT_T_U32), "u32");
	assert_string_equal(weft_ptx_space_name(WEFT_SPACE_SHARED), "shared");
	assert_string_equal(weft_op_name(WEFT_OP_SHFL), "shfl");
	for (int op = 0; op < WEFT_OP_COUNT; op++)
		assert_string_not_equal(weft_op_name(op), "?");
	assert_string_equal(weft_op_name(WEFT_OP_COUNT), "?");
}

/* ------------------------------------------------------------------ */
/* errors */

#define KHEAD HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"

struct err_case {
	const char *text;
	uint32_t line, col;
	const char *needle;
};

static const struct err_case err_cases[] = {
	{ HDR ".bogus 1;\n", 4, 1, "unknown directive '.bogus'" },
	{ KHEAD ".texref t;\n}\n", 8, 1, "unknown directive '.texref'" },
	{ KHEAD "\tbra $L__BB0_9;\n}\n", 8, 6, "undefined label '$L__BB0_9'" },
	{ KHEAD "\tmov.u32 %r99, 1;\n}\n", 8, 10, "register '%r99' not declared" },
	{ KHEAD "\tadd.s32 %r1, %r2, 12x;\n}\n", 8, 20, "bad integer literal '12x'" },
	{ KHEAD "\tmov.f32 %r1, 0f3F80;\n}\n", 8, 15, "bad float literal" },
	{ KHEAD "\tadd.s32 %r1, %r2, 1;\n", 5, 1, "unterminated function body of 'k'" },
	{ KHEAD "\tld.global.u32 %r1, [%r2;\n}\n", 8, 25, "expected ']' after address" },
	{ KHEAD "\tadd.s32 %r1, %r2;\n}\n", 8, 2, "needs 3 operands" },
	{ KHEAD "\tadd.s32 %r1, %r2, %r3, %r3;\n}\n", 8, 25, "too many operands" },
	{ KHEAD "$L1:\n$L1:\n\tret;\n}\n", 9, 1, "label '$L1' defined twice" },
	{ KHEAD "\t@%r1 ret;\n}\n", 8, 3, "not a .pred register" },
	{ KHEAD "\tcall foo, ();\n}\n", 8, 7, "undeclared function 'foo'" },
	{ KHEAD "\tadd %r1, %r2, %r3;\n}\n", 8, 2, "missing type suffix" },
	{ KHEAD "\tld.global.u32 %r1, %r2;\n}\n", 8, 2, "needs a memory operand" },
	{ KHEAD "\tld.global.v2.u32 %r1, [%r2];\n}\n", 8, 2, "vector operand of 2" },
	{ KHEAD "\tmov.u32 %r1, nosuch;\n}\n", 8, 15, "undefined symbol 'nosuch'" },
	{ KHEAD "\tmov.u32 %r1, %tid;\n}\n", 8, 15, "needs a component" },
	{ KHEAD "\tsetp.s32 %p1, %r1, %r2;\n}\n", 8, 2, "missing comparison" },
	{ KHEAD ".reg .b32 %r1;\n}\n", 8, 11, "declared twice in the same scope" },
	{ HDR "/* never closed\n", 4, 1, "unterminated /* comment" },
	{ HDR ".section .debug_info {\n.b8 1\n", 4, 22, "unterminated block" },
	{ HDR ".global .u32 s = \"x;\n", 4, 18, "unterminated string" },
	{ HDR ".global .u32 a[2] = {1, 2, 3};\n", 4, 19, "too many initialisers" },
	{ HDR ".global .u32 a = 1.5;\n", 4, 18, "float literal '1.5' in an integer initialiser" },
	{ KHEAD "\tadd.s32 %r1, %r2, 1.5;\n}\n", 8, 20, "decimal float literal '1.5' in an operation on .s32" },
	{ HDR ".global .u32 a[];\n", 4, 14, "has no size" },
	{ HDR ".global .u64 a = generic(b);\n", 4, 18, "address initialiser" },
	{ HDR ".global .u32 a;\n.global .u32 a;\n", 5, 14, "defined twice" },
	{ HDR ".global .u32 a;\n.extern .const .u32 a;\n", 5, 21, "another state space" },
	{ ".target sm_75\n", 1, 1, "no .version directive" },
	{ ".version 6.4\n.target sm_75\n", 1, 10, "6.4 is not supported" },
	{ HDR "\x01\x02", 4, 1, "unexpected byte 0x01" },
	{ HDR "#include <x>\n", 4, 1, "unexpected character '#'" },
	{ HDR ".entry k(.param .u32 a) { ret; }\n.entry k(.param .u32 a) { ret; }\n", 5, 8,
	  "defined twice" },
	{ HDR ".func f(.param .u32 a);\n.entry k() { .reg .b32 %r1; { .param .b32 x; call f, (x, x); } }\n",
	  5, 51, "passes 2 arguments, it takes 1" },
	{ KHEAD "\t{ .param .b32 x; }\n\tst.param.b32 [x], %r1;\n}\n", 9, 16, "undefined variable 'x'" },
	{ KHEAD "\tshfl.sync.down.b32 %r1, %r2, 1, 31;\n}\n", 8, 2, "takes 5 operands, found 4" },
	{ KHEAD "\tbar.sync;\n}\n", 8, 2, "takes 1 or 2 operands" },
	{ KHEAD "\tadd.s32 %r1, p, 1;\n}\n", 8, 2, "address of 'p' can only be taken with mov" },
	{ KHEAD "\tredux.add.u32 %r1, %r2, -1;\n}\n", 8, 2, "needs .sync" },
	{ KHEAD "\tcall.uni k, ();\n}\n", 8, 11, "cannot call the kernel" },
	/* unsupported instructions are kept (test_unsupported_kept), unless
	 * the function ends before their `;` */
	{ KHEAD "\tfoo.bar %r1\n}\n", 8, 2, "unknown opcode 'foo.bar'" },
	{ KHEAD "\tfoo.bar %r1", 8, 2, "unknown opcode 'foo.bar'" },
};

static void test_errors(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct weft_ptx_module *m = (void *)1;
		struct weft_error err;
		int rc = weft_ptx_parse(c->text, strlen(c->text), "bad.ptx", &m, &err);
		char msg[1400];
		weft_error_format(&err, msg, sizeof(msg));
		if (rc != WEFT_ERR_PARSE || !strstr(err.message, c->needle) || err.line != c->line ||
		    err.column != c->col) {
			print_error("case %zu: rc %d, got \"%s\", want %u:%u \"%s\"\n", i, rc, msg,
				    c->line, c->col, c->needle);
			bad++;
		}
		assert_null(m);
		assert_string_equal(err.file, "bad.ptx");
	}
	assert_int_equal(bad, 0);
}

/* Instructions weft does not run are kept as WEFT_OP_UNSUPPORTED with the
 * message a parse error would have had: the module loads (its other
 * kernels run) and the error comes at launch (test_emu_fixes). */
static void test_unsupported_kept(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		uint32_t line, col;
		const char *needle, *printed;
	} c[] = {
		{ KHEAD "\tfoo.bar %r1;\n\tret;\n}\n", 8, 2, "unknown opcode 'foo.bar'", "foo.bar %r1;" },
		{ KHEAD "\tadd.xyz.s32 %r1, %r2, %r3;\n\tret;\n}\n", 8, 2, "unknown modifier '.xyz' on 'add'",
		  "add.xyz.s32 %r1, %r2, %r3;" },
		{ KHEAD "\t@%p1 brx.idx %r1, $T;\n\tret;\n$T: .branchtargets $L1, $L2;\n}\n", 8, 7,
		  "not supported", "@%p1 brx.idx %r1, $T;" },
		{ KHEAD "\tld.global.L2::cache_hint.u32 %r1, [%r2], %r3;\n\tret;\n}\n", 8, 2, "L2::cache_hint",
		  "ld.global.L2::cache_hint.u32 %r1, [%r2], %r3;" },
		{ KHEAD "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n\t\t{%r1, %r2}, {%r3},\n {%r1}, {%r2};\n\tret;\n}\n",
		  8, 2, "unknown opcode 'mma.sync",
		  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2}, {%r3}, {%r1}, {%r2};" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct weft_ptx_module *m = NULL;
		struct weft_error err;
		if (weft_ptx_parse(c[i].text, strlen(c[i].text), "u.ptx", &m, &err))
			fail_msg("case %zu: %s", i, err.message);
		assert_int_equal(m->nunsup, 1);
		const struct weft_ptx_unsup *u = &m->unsup[0];
		if (!strstr(u->message, c[i].needle) || u->line != c[i].line || u->column != c[i].col)
			fail_msg("case %zu: %u:%u %s", i, u->line, u->column, u->message);
		assert_int_equal(u->func, 0);
		assert_int_equal(u->inst, 0);
		const struct weft_ptx_func *f = &m->funcs[0];
		assert_int_equal(f->ninsts, 2);
		assert_int_equal(f->insts[0].op, WEFT_OP_UNSUPPORTED);
		assert_int_equal(f->insts[0].nopnd, 0);
		assert_int_equal(f->insts[0].pos.line, 8);
		assert_int_equal(f->insts[1].op, WEFT_OP_RET);
		char buf[256];
		weft_ptx_format_inst(m, f, &f->insts[0], buf, sizeof(buf));
		assert_string_equal(buf, c[i].printed);
		weft_ptx_module_free(m);
	}
	/* long texts are cut at 160 bytes */
	char big[1200];
	int n = snprintf(big, sizeof(big), "%s\tfoo.bar ", KHEAD);
	for (int i = 0; i < 100; i++)
		n += snprintf(big + n, sizeof(big) - (size_t)n, "%%r1, ");
	n += snprintf(big + n, sizeof(big) - (size_t)n, "%%r1;\n}\n");
	struct weft_ptx_module *m = NULL;
	struct weft_error err;
	assert_int_equal(weft_ptx_parse(big, (size_t)n, "u.ptx", &m, &err), 0);
	assert_int_equal(strlen(m->unsup[0].text), 160);
	assert_string_equal(m->unsup[0].text + 157, "...");
	weft_ptx_module_free(m);
}

/* Texture and surface instructions: the forms weft runs decode (and print
 * back as written), malformed ones are parse errors, and the forms weft does
 * not run are kept as unsupported. */
static void test_texture_forms(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int op, type, type2, mode, vec;
	} ok[] = {
		{ "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];", WEFT_OP_TEX, WEFT_T_F32, WEFT_T_S32,
		  WEFT_TEX_1D, 4 },
		{ "tex.2d.v4.s32.f32 {%r1, %r2, _, %r4}, [%rd2, {%f1, %f2}];", WEFT_OP_TEX, WEFT_T_S32, WEFT_T_F32,
		  WEFT_TEX_2D, 4 },
		{ "tld4.a.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];", WEFT_OP_TLD4, WEFT_T_U32,
		  WEFT_T_F32, 3, 4 },
		{ "suld.b.2d.b32.trap {%r5}, [%rd1, {%r4, %r3}];", WEFT_OP_SULD, WEFT_T_B32, 0,
		  WEFT_TEX_2D | WEFT_SURF_TRAP << 4, 1 },
		{ "suld.b.1d.v4.b16.zero {%h1, %h2, %h3, %h0}, [%rd1, {%r4}];", WEFT_OP_SULD, WEFT_T_B16, 0,
		  WEFT_TEX_1D | WEFT_SURF_ZERO << 4, 4 },
		{ "sust.b.2d.v2.b64.clamp [%rd1, {%r4, %r3}], {%rd2, %rd3};", WEFT_OP_SUST, WEFT_T_B64, 0,
		  WEFT_TEX_2D | WEFT_SURF_CLAMP << 4, 2 },
		{ "sust.b.1d.b8.trap [%rd1, {%r4}], %h1;", WEFT_OP_SUST, WEFT_T_B8, 0, WEFT_TEX_1D, 1 },
	};
	char text[1024], buf[256];
	struct weft_ptx_module *m;
	struct weft_error err;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\t%s\n\tret;\n}\n", IHEAD, ok[i].text);
		if (weft_ptx_parse(text, (size_t)n, "t.ptx", &m, &err))
			fail_msg("%s: %u:%u %s", ok[i].text, err.line, err.column, err.message);
		const struct weft_inst *in = &m->funcs[0].insts[0];
		assert_int_equal(m->nunsup, 0);
		assert_int_equal(in->op, ok[i].op);
		assert_int_equal(in->type, ok[i].type);
		assert_int_equal(in->type2, ok[i].type2);
		assert_int_equal(in->mode, ok[i].mode);
		assert_int_equal(in->vec, ok[i].vec);
		assert_int_equal(in->space, WEFT_SPACE_GLOBAL);
		assert_int_equal(in->nopnd, 3);
		int a = in->op == WEFT_OP_SUST ? 0 : 1;
		assert_int_equal(in->opnd[a].kind, WEFT_OPND_ADDR);
		assert_int_equal(in->opnd[a + 1].kind, WEFT_OPND_VEC);
		assert_int_equal(weft_inst_has_dest(in), in->op != WEFT_OP_SUST);
		weft_ptx_format_inst(m, &m->funcs[0], in, buf, sizeof(buf));
		assert_string_equal(buf, ok[i].text);
		weft_ptx_module_free(m);
	}
	static const struct {
		const char *text;
		const char *needle;
	} bad[] = {
		{ "tex.2d.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];", "needs .v4" },
		{ "tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];", "needs a geometry" },
		{ "tex.2d.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];", "a destination and a coordinate type" },
		{ "tex.2d.v4.f32.u32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2}];", "coordinates are .f32 or .s32" },
		{ "tld4.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];", "needs the component" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", "takes 2 coordinates" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3}, [%rd1, {%f1}];", "needs a vector of 4 registers" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f1}];", "must be a 64-bit register" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, 5];", "coordinates as a vector" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {_}];", "cannot be '_'" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}] %f2;", "expected ';'" },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1};", "expected ']'" },
		{ "suld.2d.b32.trap {%r5}, [%rd1, {%r4, %r3}];", "needs .b" },
		{ "suld.b.2d.u32.trap {%r5}, [%rd1, {%r4, %r3}];", "take .b8, .b16, .b32 or .b64" },
		{ "suld.b.2d.v4.b64.trap {%rd1, %rd2, %rd3, %rd4}, [%rd1, {%r4, %r3}];", ".v4 of .b64" },
		{ "suld.b.2d.v2.b32.trap {%r5}, [%rd1, {%r4, %r3}];", "needs a vector of 2 registers" },
		{ "sust.b.2d.b32.trap [%rd1, {%r4, %r3}];", "expected ','" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\t%s\n\tret;\n}\n", IHEAD, bad[i].text);
		int rc = weft_ptx_parse(text, (size_t)n, "t.ptx", &m, &err);
		if (rc != WEFT_ERR_PARSE || !strstr(err.message, bad[i].needle))
			fail_msg("%s: rc %d: %s", bad[i].text, rc, rc ? err.message : "parsed");
		assert_int_equal(err.line, 13);
	}
	static const struct {
		const char *text;
		const char *needle;
	} kept[] = {
		{ "tex.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f3}];", "'.3d' textures" },
		{ "tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f2, %f3, %f3}];", "'.a2d' textures" },
		{ "tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", "'.1d' textures" },
		{ "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}], %f3;", "mipmapped" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f1, %f2}];", "sampler operand" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}, %rd2];", "sampler operand" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}], {%r1, %r2};", "texel offsets" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [%rd1, {%f1, %f2}];", "residency predicate" },
		{ "tex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f1, %f2}];", "unknown modifier '.v2'" },
		{ "tex.2d.v4.f16.f32 {%h1, %h2, %h3, %h0}, [%rd1, {%f1, %f2}];", "return .f32, .s32 or .u32" },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_ref, {%f1, %f2}];", "texture or surface reference 'tex_ref'" },
		{ "sust.p.2d.b32.trap [%rd1, {%r4, %r3}], {%r7};", "formatted surface accesses" },
		{ "txq.width.b32 %r1, [%rd1];", "unknown opcode 'txq.width.b32'" },
		{ "sured.b.add.2d.u32.trap [%rd1, {%r4, %r3}], %r7;", "unknown opcode 'sured" },
	};
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		int n = snprintf(text, sizeof(text), "%s\t%s\n\tret;\n}\n", IHEAD, kept[i].text);
		if (weft_ptx_parse(text, (size_t)n, "t.ptx", &m, &err))
			fail_msg("%s: %s", kept[i].text, err.message);
		if (m->nunsup != 1 || !strstr(m->unsup[0].message, kept[i].needle))
			fail_msg("%s: %u kept: %s", kept[i].text, m->nunsup, m->nunsup ? m->unsup[0].message : "");
		assert_int_equal(m->funcs[0].insts[0].op, WEFT_OP_UNSUPPORTED);
		weft_ptx_module_free(m);
	}
	/* texture references: the declarations are skipped, their uses kept */
	const char *refs = HDR ".global .texref tref;\n"
			   ".global .samplerref smp = { addr_mode_0 = clamp_to_edge, filter_mode = nearest };\n"
			   ".entry old()\n{\n.reg .f32 %f<5>;\n.reg .b32 %r<2>;\n"
			   "\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tref, {%r1}];\n\tret;\n}\n"
			   ".entry plain()\n{\n\tret;\n}\n";
	if (weft_ptx_parse(refs, strlen(refs), "r.ptx", &m, &err))
		fail_msg("%s", err.message);
	assert_int_equal(m->nunsup, 1);
	assert_int_equal(m->unsup[0].line, 10);
	assert_int_equal(m->nsyms, 0);
	weft_ptx_module_free(m);
}

static void test_error_messages_say_what_to_do(void **state)
{
	(void)state;
	const char *t = KHEAD ".texref t;\n}\n";
	struct weft_ptx_module *m;
	struct weft_error err;
	assert_int_equal(weft_ptx_parse(t, strlen(t), "x.ptx", &m, &err), WEFT_ERR_PARSE);
	assert_non_null(strstr(err.message, "docs/ptx-subset.md"));
	/* missing file: I/O error naming the path */
	assert_int_equal(weft_ptx_load_file("/nonexistent/x.ptx", &m, &err), WEFT_ERR_IO);
	assert_string_equal(err.file, "/nonexistent/x.ptx");
	assert_null(m);
	/* NULL err is allowed */
	assert_int_equal(weft_ptx_parse(t, strlen(t), "x.ptx", &m, NULL), WEFT_ERR_PARSE);
}

/* ------------------------------------------------------------------ */
/* one instruction at a time: opcode families and modifiers */

struct inst_case {
	const char *text;
	int op, type, type2, mode;
	uint32_t flags; /* these must be set */
	int rnd, space, cmp, nopnd;
};

static const struct inst_case inst_cases[] = {
	{ "add.s32 %r1, %r2, %r3;", WEFT_OP_ADD, WEFT_T_S32, 0, 0, 0, 0, 0, 0, 3 },
	{ "add.cc.u32 %r1, %r2, %r3;", WEFT_OP_ADD, WEFT_T_U32, 0, 0, WEFT_F_CC, 0, 0, 0, 3 },
	{ "addc.cc.u32 %r1, %r2, %r3;", WEFT_OP_ADDC, WEFT_T_U32, 0, 0, WEFT_F_CC, 0, 0, 0, 3 },
	{ "sub.sat.s32 %r1, %r2, %r3;", WEFT_OP_SUB, WEFT_T_S32, 0, 0, WEFT_F_SAT, 0, 0, 0, 3 },
	{ "subc.u32 %r1, %r2, %r3;", WEFT_OP_SUBC, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 3 },
	{ "mad.lo.cc.u32 %r1, %r2, %r3, %r4;", WEFT_OP_MAD, WEFT_T_U32, 0, WEFT_MUL_LO, WEFT_F_CC, 0, 0, 0, 4 },
	{ "madc.hi.cc.u32 %r1, %r2, %r3, %r4;", WEFT_OP_MADC, WEFT_T_U32, 0, WEFT_MUL_HI, WEFT_F_CC, 0, 0, 0, 4 },
	{ "mul.wide.u32 %rd1, %r2, %r3;", WEFT_OP_MUL, WEFT_T_U32, 0, WEFT_MUL_WIDE, 0, 0, 0, 0, 3 },
	{ "mul24.hi.s32 %r1, %r2, %r3;", WEFT_OP_MUL24, WEFT_T_S32, 0, WEFT_MUL_HI, 0, 0, 0, 0, 3 },
	{ "mad24.lo.u32 %r1, %r2, %r3, %r4;", WEFT_OP_MAD24, WEFT_T_U32, 0, WEFT_MUL_LO, 0, 0, 0, 0, 4 },
	{ "div.s64 %rd1, %rd2, %rd3;", WEFT_OP_DIV, WEFT_T_S64, 0, 0, 0, 0, 0, 0, 3 },
	{ "rem.u32 %r1, %r2, 7;", WEFT_OP_REM, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 3 },
	{ "abs.s32 %r1, %r2;", WEFT_OP_ABS, WEFT_T_S32, 0, 0, 0, 0, 0, 0, 2 },
	{ "neg.f64 %fd1, %fd2;", WEFT_OP_NEG, WEFT_T_F64, 0, 0, 0, 0, 0, 0, 2 },
	{ "min.u64 %rd1, %rd2, %rd3;", WEFT_OP_MIN, WEFT_T_U64, 0, 0, 0, 0, 0, 0, 3 },
	{ "max.NaN.f32 %f1, %f2, %f3;", WEFT_OP_MAX, WEFT_T_F32, 0, 0, WEFT_F_NAN, 0, 0, 0, 3 },
	{ "max.ftz.f32 %f1, %f2, %f3;", WEFT_OP_MAX, WEFT_T_F32, 0, 0, WEFT_F_FTZ, 0, 0, 0, 3 },
	{ "popc.b64 %r1, %rd2;", WEFT_OP_POPC, WEFT_T_B64, 0, 0, 0, 0, 0, 0, 2 },
	{ "clz.b32 %r1, %r2;", WEFT_OP_CLZ, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 2 },
	{ "brev.b64 %rd1, %rd2;", WEFT_OP_BREV, WEFT_T_B64, 0, 0, 0, 0, 0, 0, 2 },
	{ "bfind.shiftamt.u32 %r1, %r2;", WEFT_OP_BFIND, WEFT_T_U32, 0, 0, WEFT_F_SHIFTAMT, 0, 0, 0, 2 },
	{ "bfe.u32 %r1, %r2, 8, 4;", WEFT_OP_BFE, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 4 },
	{ "bfi.b64 %rd1, %rd2, %rd3, %r4, %r5;", WEFT_OP_BFI, WEFT_T_B64, 0, 0, 0, 0, 0, 0, 5 },
	{ "prmt.b32 %r1, %r2, %r3, 0x5410;", WEFT_OP_PRMT, WEFT_T_B32, 0, WEFT_PRMT_DEFAULT, 0, 0, 0, 0, 4 },
	{ "prmt.b32.rc16 %r1, %r2, %r3, %r4;", WEFT_OP_PRMT, WEFT_T_B32, 0, WEFT_PRMT_RC16, 0, 0, 0, 0, 4 },
	{ "sad.u32 %r1, %r2, %r3, %r4;", WEFT_OP_SAD, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 4 },
	{ "and.pred %p1, %p2, %p3;", WEFT_OP_AND, WEFT_T_PRED, 0, 0, 0, 0, 0, 0, 3 },
	{ "or.b64 %rd1, %rd2, %rd3;", WEFT_OP_OR, WEFT_T_B64, 0, 0, 0, 0, 0, 0, 3 },
	{ "xor.b32 %r1, %r2, -1;", WEFT_OP_XOR, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 3 },
	{ "not.pred %p1, %p2;", WEFT_OP_NOT, WEFT_T_PRED, 0, 0, 0, 0, 0, 0, 2 },
	{ "cnot.b32 %r1, %r2;", WEFT_OP_CNOT, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 2 },
	{ "shl.b64 %rd1, %rd2, 3;", WEFT_OP_SHL, WEFT_T_B64, 0, 0, 0, 0, 0, 0, 3 },
	{ "shr.s32 %r1, %r2, %r3;", WEFT_OP_SHR, WEFT_T_S32, 0, 0, 0, 0, 0, 0, 3 },
	{ "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", WEFT_OP_SHF, WEFT_T_B32, 0, WEFT_SHF_L_WRAP, 0, 0, 0, 0, 4 },
	{ "shf.l.clamp.b32 %r1, %r2, %r3, %r4;", WEFT_OP_SHF, WEFT_T_B32, 0, WEFT_SHF_L_CLAMP, 0, 0, 0, 0, 4 },
	{ "shf.r.wrap.b32 %r1, %r2, %r3, %r4;", WEFT_OP_SHF, WEFT_T_B32, 0, WEFT_SHF_R_WRAP, 0, 0, 0, 0, 4 },
	{ "lop3.b32 %r1, %r2, %r3, %r4, 0x96;", WEFT_OP_LOP3, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 5 },
	{ "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;", WEFT_OP_FMA, WEFT_T_F32, 0, 0, WEFT_F_FTZ | WEFT_F_SAT, WEFT_RND_RN, 0, 0, 4 },
	{ "fma.rm.f64 %fd1, %fd2, %fd3, %fd4;", WEFT_OP_FMA, WEFT_T_F64, 0, 0, 0, WEFT_RND_RM, 0, 0, 4 },
	{ "mad.rn.f32 %f1, %f2, %f3, %f4;", WEFT_OP_MAD, WEFT_T_F32, 0, 0, 0, WEFT_RND_RN, 0, 0, 4 },
	{ "mul.rz.f32 %f1, %f2, %f3;", WEFT_OP_MUL, WEFT_T_F32, 0, 0, 0, WEFT_RND_RZ, 0, 0, 3 },
	{ "add.rp.f64 %fd1, %fd2, %fd3;", WEFT_OP_ADD, WEFT_T_F64, 0, 0, 0, WEFT_RND_RP, 0, 0, 3 },
	{ "div.rn.f64 %fd1, %fd2, %fd3;", WEFT_OP_DIV, WEFT_T_F64, 0, 0, 0, WEFT_RND_RN, 0, 0, 3 },
	{ "div.full.f32 %f1, %f2, %f3;", WEFT_OP_DIV, WEFT_T_F32, 0, 0, WEFT_F_FULL, 0, 0, 0, 3 },
	{ "div.approx.ftz.f32 %f1, %f2, %f3;", WEFT_OP_DIV, WEFT_T_F32, 0, 0, WEFT_F_APPROX | WEFT_F_FTZ, 0, 0, 0, 3 },
	{ "rcp.rn.f64 %fd1, %fd2;", WEFT_OP_RCP, WEFT_T_F64, 0, 0, 0, WEFT_RND_RN, 0, 0, 2 },
	{ "rcp.approx.ftz.f64 %fd1, %fd2;", WEFT_OP_RCP, WEFT_T_F64, 0, 0, WEFT_F_APPROX | WEFT_F_FTZ, 0, 0, 0, 2 },
	{ "sqrt.rn.f32 %f1, %f2;", WEFT_OP_SQRT, WEFT_T_F32, 0, 0, 0, WEFT_RND_RN, 0, 0, 2 },
	{ "sqrt.approx.f32 %f1, %f2;", WEFT_OP_SQRT, WEFT_T_F32, 0, 0, WEFT_F_APPROX, 0, 0, 0, 2 },
	{ "rsqrt.approx.ftz.f64 %fd1, %fd2;", WEFT_OP_RSQRT, WEFT_T_F64, 0, 0, WEFT_F_APPROX | WEFT_F_FTZ, 0, 0, 0, 2 },
	{ "ex2.approx.ftz.f32 %f1, %f2;", WEFT_OP_EX2, WEFT_T_F32, 0, 0, WEFT_F_APPROX | WEFT_F_FTZ, 0, 0, 0, 2 },
	{ "lg2.approx.f32 %f1, %f2;", WEFT_OP_LG2, WEFT_T_F32, 0, 0, WEFT_F_APPROX, 0, 0, 0, 2 },
	{ "sin.approx.ftz.f32 %f1, %f2;", WEFT_OP_SIN, WEFT_T_F32, 0, 0, WEFT_F_APPROX, 0, 0, 0, 2 },
	{ "cos.approx.f32 %f1, %f2;", WEFT_OP_COS, WEFT_T_F32, 0, 0, WEFT_F_APPROX, 0, 0, 0, 2 },
	{ "tanh.approx.f32 %f1, %f2;", WEFT_OP_TANH, WEFT_T_F32, 0, 0, WEFT_F_APPROX, 0, 0, 0, 2 },
	{ "copysign.f64 %fd1, %fd2, %fd3;", WEFT_OP_COPYSIGN, WEFT_T_F64, 0, 0, 0, 0, 0, 0, 3 },
	{ "testp.finite.f64 %p1, %fd2;", WEFT_OP_TESTP, WEFT_T_F64, 0, WEFT_TESTP_FINITE, 0, 0, 0, 0, 2 },
	{ "testp.subnormal.f32 %p1, %f2;", WEFT_OP_TESTP, WEFT_T_F32, 0, WEFT_TESTP_SUBNORMAL, 0, 0, 0, 0, 2 },
	{ "setp.nan.f32 %p1, %f2, %f3;", WEFT_OP_SETP, WEFT_T_F32, WEFT_T_F32, 0, 0, 0, 0, WEFT_CMP_NAN, 3 },
	{ "setp.geu.ftz.f32 %p1, %f2, 0f00000000;", WEFT_OP_SETP, WEFT_T_F32, WEFT_T_F32, 0, WEFT_F_FTZ, 0, 0, WEFT_CMP_GEU, 3 },
	{ "setp.hs.u64 %p1, %rd2, %rd3;", WEFT_OP_SETP, WEFT_T_U64, WEFT_T_U64, 0, 0, 0, 0, WEFT_CMP_HS, 3 },
	{ "setp.ne.xor.b32 %p1, %r2, %r3, !%p2;", WEFT_OP_SETP, WEFT_T_B32, WEFT_T_B32, 0, 0, 0, 0, WEFT_CMP_NE, 4 },
	{ "set.le.u32.s32 %r1, %r2, %r3;", WEFT_OP_SET, WEFT_T_U32, WEFT_T_S32, 0, 0, 0, 0, WEFT_CMP_LE, 3 },
	{ "selp.f64 %fd1, 0d3FF0000000000000, %fd2, %p1;", WEFT_OP_SELP, WEFT_T_F64, 0, 0, 0, 0, 0, 0, 4 },
	{ "slct.f32.s32 %f1, %f2, %f3, %r4;", WEFT_OP_SLCT, WEFT_T_F32, WEFT_T_S32, 0, 0, 0, 0, 0, 4 },
	{ "cvt.rni.s32.f32 %r1, %f2;", WEFT_OP_CVT, WEFT_T_S32, WEFT_T_F32, 0, 0, WEFT_RND_RNI, 0, 0, 2 },
	{ "cvt.rmi.f64.f64 %fd1, %fd2;", WEFT_OP_CVT, WEFT_T_F64, WEFT_T_F64, 0, 0, WEFT_RND_RMI, 0, 0, 2 },
	{ "cvt.rpi.ftz.sat.s8.f32 %h1, %f2;", WEFT_OP_CVT, WEFT_T_S8, WEFT_T_F32, 0, WEFT_F_FTZ | WEFT_F_SAT, WEFT_RND_RPI, 0, 0, 2 },
	{ "cvt.u64.u32 %rd1, %r2;", WEFT_OP_CVT, WEFT_T_U64, WEFT_T_U32, 0, 0, 0, 0, 0, 2 },
	{ "cvt.rn.f16.f32 %h1, %f2;", WEFT_OP_CVT, WEFT_T_F16, WEFT_T_F32, 0, 0, WEFT_RND_RN, 0, 0, 2 },
	{ "cvt.rn.relu.bf16.f32 %h1, %f2;", WEFT_OP_CVT, WEFT_T_BF16, WEFT_T_F32, 0, WEFT_F_RELU, WEFT_RND_RN, 0, 0, 2 },
	{ "cvta.global.u64 %rd1, %rd2;", WEFT_OP_CVTA, WEFT_T_U64, 0, WEFT_CVTA_TO_GENERIC, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "cvta.to.local.u64 %rd1, %rd2;", WEFT_OP_CVTA, WEFT_T_U64, 0, WEFT_CVTA_FROM_GENERIC, 0, 0, WEFT_SPACE_LOCAL, 0, 2 },
	{ "cvta.const.u64 %rd1, %rd2;", WEFT_OP_CVTA, WEFT_T_U64, 0, 0, 0, 0, WEFT_SPACE_CONST, 0, 2 },
	{ "mov.u32 %r1, %nctaid.z;", WEFT_OP_MOV, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 2 },
	{ "mov.pred %p1, 1;", WEFT_OP_MOV, WEFT_T_PRED, 0, 0, 0, 0, 0, 0, 2 },
	{ "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", WEFT_OP_LD, WEFT_T_F32, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "ld.relaxed.gpu.global.u32 %r1, [%rd1];", WEFT_OP_LD, WEFT_T_U32, 0, 0, WEFT_F_RELAXED, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "ld.acquire.sys.u64 %rd1, [%rd2];", WEFT_OP_LD, WEFT_T_U64, 0, 0, WEFT_F_ACQUIRE, 0, WEFT_SPACE_GENERIC, 0, 2 },
	{ "ld.const.s8 %r1, [%rd1];", WEFT_OP_LD, WEFT_T_S8, 0, 0, 0, 0, WEFT_SPACE_CONST, 0, 2 },
	{ "ld.global.cg.L2::128B.u32 %r1, [%rd1];", WEFT_OP_LD, WEFT_T_U32, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "ld.global.L1::evict_last.u32 %r1, [%rd1];", WEFT_OP_LD, WEFT_T_U32, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "ldu.global.f32 %f1, [%rd1];", WEFT_OP_LDU, WEFT_T_F32, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "ld.shared::cta.u32 %r1, [sh];", WEFT_OP_LD, WEFT_T_U32, 0, 0, 0, 0, WEFT_SPACE_SHARED, 0, 2 },
	{ "st.release.cta.shared.u32 [%r1], %r2;", WEFT_OP_ST, WEFT_T_U32, 0, 0, WEFT_F_RELEASE, 0, WEFT_SPACE_SHARED, 0, 2 },
	{ "st.global.wb.v2.f64 [%rd1], {%fd1, %fd2};", WEFT_OP_ST, WEFT_T_F64, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "st.volatile.u8 [%rd1+-1], %h1;", WEFT_OP_ST, WEFT_T_U8, 0, 0, WEFT_F_VOLATILE, 0, WEFT_SPACE_GENERIC, 0, 2 },
	{ "st.global.u32 [%rd1], 7;", WEFT_OP_ST, WEFT_T_U32, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "st.shared.u32 [12], %r1;", WEFT_OP_ST, WEFT_T_U32, 0, 0, 0, 0, WEFT_SPACE_SHARED, 0, 2 },
	{ "prefetch.global.L2 [%rd1];", WEFT_OP_PREFETCH, 0, 0, 0, 0, 0, WEFT_SPACE_GLOBAL, 0, 1 },
	{ "isspacep.shared %p1, %rd1;", WEFT_OP_ISSPACEP, 0, 0, 0, 0, 0, WEFT_SPACE_SHARED, 0, 2 },
	{ "atom.global.inc.u32 %r1, [%rd1], %r2;", WEFT_OP_ATOM, WEFT_T_U32, 0, WEFT_ATOM_INC, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.dec.u32 %r1, [%rd1], %r2;", WEFT_OP_ATOM, WEFT_T_U32, 0, WEFT_ATOM_DEC, 0, 0, WEFT_SPACE_GENERIC, 0, 3 },
	{ "atom.shared.min.s32 %r1, [sh+4], %r2;", WEFT_OP_ATOM, WEFT_T_S32, 0, WEFT_ATOM_MIN, 0, 0, WEFT_SPACE_SHARED, 0, 3 },
	{ "atom.global.max.u64 %rd1, [%rd2], %rd3;", WEFT_OP_ATOM, WEFT_T_U64, 0, WEFT_ATOM_MAX, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.global.and.b32 %r1, [%rd2], %r3;", WEFT_OP_ATOM, WEFT_T_B32, 0, WEFT_ATOM_AND, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.global.or.b64 %rd1, [%rd2], %rd3;", WEFT_OP_ATOM, WEFT_T_B64, 0, WEFT_ATOM_OR, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.global.xor.b32 %r1, [%rd2], %r3;", WEFT_OP_ATOM, WEFT_T_B32, 0, WEFT_ATOM_XOR, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.relaxed.gpu.global.exch.b64 %rd1, [%rd2], %rd3;", WEFT_OP_ATOM, WEFT_T_B64, 0, WEFT_ATOM_EXCH, WEFT_F_RELAXED, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;", WEFT_OP_ATOM, WEFT_T_B64, 0, WEFT_ATOM_CAS, 0, 0, WEFT_SPACE_GLOBAL, 0, 4 },
	{ "atom.global.add.f64 %fd1, [%rd2], %fd3;", WEFT_OP_ATOM, WEFT_T_F64, 0, WEFT_ATOM_ADD, 0, 0, WEFT_SPACE_GLOBAL, 0, 3 },
	{ "atom.add.noftz.f16 %h1, [%rd2], %h3;", WEFT_OP_ATOM, WEFT_T_F16, 0, WEFT_ATOM_ADD, 0, 0, WEFT_SPACE_GENERIC, 0, 3 },
	{ "red.shared.add.u64 [%r1], %rd2;", WEFT_OP_RED, WEFT_T_U64, 0, WEFT_ATOM_ADD, 0, 0, WEFT_SPACE_SHARED, 0, 2 },
	{ "red.release.gpu.global.or.b32 [%rd1], %r2;", WEFT_OP_RED, WEFT_T_B32, 0, WEFT_ATOM_OR, WEFT_F_RELEASE, 0, WEFT_SPACE_GLOBAL, 0, 2 },
	{ "bra.uni L;", WEFT_OP_BRA, 0, 0, 0, WEFT_F_UNI, 0, 0, 0, 1 },
	{ "ret.uni;", WEFT_OP_RET, 0, 0, 0, WEFT_F_UNI, 0, 0, 0, 0 },
	{ "exit;", WEFT_OP_EXIT, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "trap;", WEFT_OP_TRAP, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "bar.sync 0;", WEFT_OP_BAR, 0, 0, WEFT_BAR_SYNC, WEFT_F_SYNC, 0, 0, 0, 1 },
	{ "bar.sync 1, %r1;", WEFT_OP_BAR, 0, 0, WEFT_BAR_SYNC, WEFT_F_SYNC, 0, 0, 0, 2 },
	{ "barrier.sync %r1;", WEFT_OP_BAR, 0, 0, WEFT_BAR_SYNC, WEFT_F_SYNC, 0, 0, 0, 1 },
	{ "bar.arrive 1, 64;", WEFT_OP_BAR, 0, 0, WEFT_BAR_ARRIVE, 0, 0, 0, 0, 2 },
	{ "bar.red.and.pred %p1, 0, %p2;", WEFT_OP_BAR, WEFT_T_PRED, 0, WEFT_BAR_RED_AND, 0, 0, 0, 0, 3 },
	{ "bar.red.or.pred %p1, 0, !%p2;", WEFT_OP_BAR, WEFT_T_PRED, 0, WEFT_BAR_RED_OR, 0, 0, 0, 0, 3 },
	{ "barrier.cta.sync.aligned 0;", WEFT_OP_BAR, 0, 0, WEFT_BAR_SYNC, WEFT_F_ALIGNED, 0, 0, 0, 1 },
	{ "membar.gl;", WEFT_OP_MEMBAR, 0, 0, WEFT_SCOPE_GPU, 0, 0, 0, 0, 0 },
	{ "membar.sys;", WEFT_OP_MEMBAR, 0, 0, WEFT_SCOPE_SYS, 0, 0, 0, 0, 0 },
	{ "fence.sc.cta;", WEFT_OP_FENCE, 0, 0, WEFT_SCOPE_CTA, 0, 0, 0, 0, 0 },
	{ "fence.acq_rel.sys;", WEFT_OP_FENCE, 0, 0, WEFT_SCOPE_SYS, WEFT_F_ACQ_REL, 0, 0, 0, 0 },
	{ "nanosleep.u32 100;", WEFT_OP_NANOSLEEP, WEFT_T_U32, 0, 0, 0, 0, 0, 0, 1 },
	{ "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;", WEFT_OP_SHFL, WEFT_T_B32, 0, WEFT_SHFL_UP, WEFT_F_SYNC, 0, 0, 0, 5 },
	{ "shfl.sync.idx.b32 %r1, %r2, %r3, 0x1f, %r4;", WEFT_OP_SHFL, WEFT_T_B32, 0, WEFT_SHFL_IDX, WEFT_F_SYNC, 0, 0, 0, 5 },
	{ "shfl.down.b32 %r1, %r2, 1, 31;", WEFT_OP_SHFL, WEFT_T_B32, 0, WEFT_SHFL_DOWN, 0, 0, 0, 0, 4 },
	{ "vote.sync.all.pred %p1, %p2, -1;", WEFT_OP_VOTE, WEFT_T_PRED, 0, WEFT_VOTE_ALL, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "vote.sync.any.pred %p1, !%p2, %r1;", WEFT_OP_VOTE, WEFT_T_PRED, 0, WEFT_VOTE_ANY, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "vote.sync.uni.pred %p1, %p2, -1;", WEFT_OP_VOTE, WEFT_T_PRED, 0, WEFT_VOTE_UNI, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "vote.ballot.b32 %r1, %p2;", WEFT_OP_VOTE, WEFT_T_B32, 0, WEFT_VOTE_BALLOT, 0, 0, 0, 0, 2 },
	{ "activemask.b32 %r1;", WEFT_OP_ACTIVEMASK, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 1 },
	{ "match.any.sync.b64 %r1, %rd2, %r3;", WEFT_OP_MATCH, WEFT_T_B64, 0, WEFT_MATCH_ANY, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "match.all.sync.b32 %r1|%p1, %r2, -1;", WEFT_OP_MATCH, WEFT_T_B32, 0, WEFT_MATCH_ALL, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "redux.sync.min.s32 %r1, %r2, -1;", WEFT_OP_REDUX, WEFT_T_S32, 0, WEFT_ATOM_MIN, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "redux.sync.xor.b32 %r1, %r2, -1;", WEFT_OP_REDUX, WEFT_T_B32, 0, WEFT_ATOM_XOR, WEFT_F_SYNC, 0, 0, 0, 3 },
	{ "bar.warp.sync %r1;", WEFT_OP_BAR_WARP, 0, 0, 0, 0, 0, 0, 0, 1 },
	{ "dp4a.u32.s32 %r1, %r2, %r3, %r4;", WEFT_OP_DP4A, WEFT_T_U32, WEFT_T_S32, 0, 0, 0, 0, 0, 4 },
	{ "dp2a.hi.s32.s32 %r1, %r2, %r3, %r4;", WEFT_OP_DP2A, WEFT_T_S32, WEFT_T_S32, WEFT_MUL_HI, 0, 0, 0, 0, 4 },
	{ "add.f16x2 %r1, %r2, %r3;", WEFT_OP_ADD, WEFT_T_F16X2, 0, 0, 0, 0, 0, 0, 3 },
	{ "mov.b32 {%h1, %h2}, %r1;", WEFT_OP_MOV, WEFT_T_B32, 0, 0, 0, 0, 0, 0, 2 },
	{ "mov.u64 %rd1, sh;", WEFT_OP_MOV, WEFT_T_U64, 0, 0, 0, 0, 0, 0, 2 },
	{ "mov.u64 %rd1, k;", WEFT_OP_MOV, WEFT_T_U64, 0, 0, 0, 0, 0, 0, 2 },
};

static void test_instruction_table(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t i = 0; i < sizeof(inst_cases) / sizeof(inst_cases[0]); i++) {
		const struct inst_case *c = &inst_cases[i];
		char text[1024];
		int n = snprintf(text, sizeof(text), "%s\t%s\nL:\n\tret;\n}\n", IHEAD, c->text);
		struct weft_ptx_module *m;
		struct weft_error err;
		if (weft_ptx_parse(text, (size_t)n, "t.ptx", &m, &err)) {
			print_error("'%s': %s (%u:%u)\n", c->text, err.message, err.line, err.column);
			bad++;
			continue;
		}
		const struct weft_inst *in = &m->funcs[0].insts[0];
		if (in->op != c->op || in->type != c->type || in->type2 != c->type2 ||
		    in->mode != c->mode || (in->flags & c->flags) != c->flags || in->rnd != c->rnd ||
		    in->space != c->space || in->cmp != c->cmp || in->nopnd != c->nopnd) {
			print_error("'%s': op %d type %d type2 %d mode %d flags %x rnd %d space %d cmp %d nopnd %d\n",
				    c->text, in->op, in->type, in->type2, in->mode, in->flags, in->rnd,
				    in->space, in->cmp, in->nopnd);
			bad++;
		}
		/* the formatter must print something that parses to the same fields */
		char buf[256];
		weft_ptx_format_inst(m, &m->funcs[0], in, buf, sizeof(buf));
		n = snprintf(text, sizeof(text), "%s\t%s\nL:\n\tret;\n}\n", IHEAD, buf);
		struct weft_ptx_module *m2;
		if (weft_ptx_parse(text, (size_t)n, "t2.ptx", &m2, &err)) {
			print_error("reformatted '%s' -> '%s': %s\n", c->text, buf, err.message);
			bad++;
		} else {
			const struct weft_inst *in2 = &m2->funcs[0].insts[0];
			if (in2->op != in->op || in2->type != in->type || in2->type2 != in->type2 ||
			    in2->mode != in->mode || in2->flags != in->flags || in2->rnd != in->rnd ||
			    in2->space != in->space || in2->nopnd != in->nopnd ||
			    memcmp(in2->opnd, in->opnd, sizeof(in->opnd))) {
				print_error("reformatted '%s' -> '%s' decodes differently\n", c->text, buf);
				bad++;
			}
			weft_ptx_module_free(m2);
		}
		weft_ptx_module_free(m);
	}
	assert_int_equal(bad, 0);
}

static void test_immediates(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int opnd;
		int64_t imm;
		int is_float;
	} cases[] = {
		{ "add.s32 %r1, %r2, 0x7fffffff;", 2, 0x7fffffff, 0 },
		{ "add.s32 %r1, %r2, -2147483648;", 2, -2147483648ll, 0 },
		{ "add.u32 %r1, %r2, 4294967295U;", 2, 4294967295ll, 0 },
		{ "add.s64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;", 2, -1, 0 },
		{ "add.s32 %r1, %r2, 0b1010;", 2, 10, 0 },
		{ "add.s32 %r1, %r2, 0755;", 2, 0755, 0 },
		{ "add.s32 %r1, %r2, 0;", 2, 0, 0 },
		{ "add.f32 %f1, %f2, 0fBF800000;", 2, 0xBF800000ll, 1 },
		{ "add.f32 %f1, %f2, -0f3F800000;", 2, 0xBF800000ll, 1 },
		{ "add.f32 %f1, %f2, 0d3FF0000000000000;", 2, 0x3F800000, 1 },
		{ "add.f64 %fd1, %fd2, 0fBF800000;", 2, (int64_t)0xBFF0000000000000ull, 1 },
		{ "add.f64 %fd1, %fd2, 0.1;", 2, 0x3FB999999999999All, 1 },
		{ "add.f32 %f1, %f2, 0.1;", 2, 0x3DCCCCCD, 1 },
		{ "add.f32 %f1, %f2, 1e3;", 2, 0x447A0000, 1 },
		{ "add.f32 %f1, %f2, -2.5e-1;", 2, 0xBE800000ll, 1 },
		{ "add.f32 %f1, %f2, 2;", 2, 0x40000000, 1 }, /* integer literal in a float op */
		{ "mov.b32 %r1, 0f3F800000;", 1, 0x3F800000, 1 },
		{ "mov.b64 %rd1, 0d3FF0000000000000;", 1, 0x3FF0000000000000ll, 1 },
		{ "cvt.rn.f32.s32 %f1, -3;", 1, -3, 0 },
		{ "cvt.f32.f64 %f1, 0d3FF0000000000000;", 1, 0x3FF0000000000000ll, 1 },
		{ "setp.lt.f64 %p1, %fd1, 0f3F800000;", 2, 0x3FF0000000000000ll, 1 },
		{ "selp.f32 %f1, 0f3F800000, 1.0, %p1;", 2, 0x3F800000, 1 },
		{ "mov.f16 %h1, 0f3F800000;", 1, 0x3C00, 1 },
		{ "mov.b16 %h1, 0f3F800000;", 1, 0x3C00, 1 },
		{ "mov.bf16 %h1, 0f3F800000;", 1, 0x3F80, 1 },
		{ "mov.f16 %h1, 1e-7;", 1, 0x0002, 1 }, /* subnormal half */
		{ "cvt.f64.f32 %fd1, 0f3F800000;", 1, 0x3F800000, 1 },
		{ "mov.u64 %rd1, sh+8;", 1, 8, 0 },
		{ "ld.shared.u32 %r1, [sh+-8];", 1, -8, 0 },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];
		int n = snprintf(text, sizeof(text), "%s\t%s\n\tret;\n}\n", IHEAD, cases[i].text);
		struct weft_ptx_module *m;
		struct weft_error err;
		if (weft_ptx_parse(text, (size_t)n, "t.ptx", &m, &err)) {
			print_error("'%s': %s\n", cases[i].text, err.message);
			bad++;
			continue;
		}
		const struct weft_operand *o = &m->funcs[0].insts[0].opnd[cases[i].opnd];
		if (o->imm != cases[i].imm || o->imm_is_float != cases[i].is_float) {
			print_error("'%s': imm 0x%llx float %d\n", cases[i].text, (unsigned long long)o->imm,
				    o->imm_is_float);
			bad++;
		}
		char buf[256];
		weft_ptx_format_inst(m, &m->funcs[0], &m->funcs[0].insts[0], buf, sizeof(buf));
		n = snprintf(text, sizeof(text), "%s\t%s\n\tret;\n}\n", IHEAD, buf);
		struct weft_ptx_module *m2;
		if (weft_ptx_parse(text, (size_t)n, "t2.ptx", &m2, &err)) {
			print_error("reformatted '%s' -> '%s': %s\n", cases[i].text, buf, err.message);
			bad++;
		} else {
			const struct weft_operand *o2 = &m2->funcs[0].insts[0].opnd[cases[i].opnd];
			if (o2->imm != o->imm || o2->imm_is_float != o->imm_is_float) {
				print_error("reformatted '%s' -> '%s': imm 0x%llx\n", cases[i].text, buf,
					    (unsigned long long)o2->imm);
				bad++;
			}
			weft_ptx_module_free(m2);
		}
		weft_ptx_module_free(m);
	}
	assert_int_equal(bad, 0);
}

/* Garbage: truncations and byte mutations of real PTX, random bytes and
 * token soup. Any result is fine as long as there is no crash and the
 * outcome is 0 with a module or an error with a position. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static void try_parse(const char *buf, size_t len)
{
	struct weft_ptx_module *m = NULL;
	struct weft_error err;
	int rc = weft_ptx_parse(buf, len, "fuzz.ptx", &m, &err);
	if (rc == 0) {
		assert_non_null(m);
		weft_ptx_module_free(m);
	} else {
		assert_null(m);
		assert_true(rc == WEFT_ERR_PARSE);
		assert_true(err.message[0] != 0);
		assert_true(err.line > 0);
	}
}

static char *slurp(const char *name, size_t *len)
{
	FILE *fp = fopen(fixture(name), "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return b;
}

static void test_garbage(void **state)
{
	(void)state;
	size_t len;
	char *src = slurp("handwritten.ptx", &len);
	char *buf = malloc(len + 1);
	assert_non_null(buf);
	/* every prefix (the parser reads exactly len bytes, no terminator needed) */
	for (size_t n = 0; n <= len; n += 7) {
		memcpy(buf, src, n);
		try_parse(buf, n);
	}
	/* mutations */
	static const char pool[] = "{}[]();,.%@!|<>+-=_:\"/*0x9af \n\t";
	for (int it = 0; it < 3000; it++) {
		memcpy(buf, src, len);
		int k = 1 + (int)(rnd() % 4);
		for (int j = 0; j < k; j++) {
			size_t at = rnd() % len;
			buf[at] = rnd() % 3 ? pool[rnd() % (sizeof(pool) - 1)] : (char)rnd();
		}
		try_parse(buf, len);
	}
	/* random bytes and token soup */
	static const char *const toks[] = { ".version", "9.0", ".target", "sm_75", ".entry", "k", "(",
					    ")", "{", "}", ".reg", ".b32", "%r<3>", "%r1", ",", ";",
					    "add.s32", "[", "]", "@%p1", "bra", "L:", "L", ".param",
					    ".u64", "0f3F800000", "-", "+", "ret", ".func", "call",
					    ".shared", ".b8", "s[4]", "=", "1", ".loc", ".section" };
	for (int it = 0; it < 2000; it++) {
		size_t n = 0;
		if (it & 1) {
			for (; n < 200; n++)
				buf[n] = (char)rnd();
		} else {
			n = (size_t)snprintf(buf, len, "%s", HDR);
			for (int j = 0; j < 40 && n + 20 < len; j++)
				n += (size_t)snprintf(buf + n, len - n, "%s ", toks[rnd() % (sizeof(toks) / sizeof(toks[0]))]);
		}
		try_parse(buf, n);
	}
	free(buf);
	free(src);
}

/* Many registers, labels and instructions: parse time must stay linear
 * (this would take minutes with quadratic lookups). */
/* Module variables as hostile input (found by tests/fuzz/ fuzz_ptx): an
 * empty initialiser list leaves zeros; a .global/.const variable over
 * WEFT_PTX_MAX_MODULE_VAR_BYTES is refused at parse time, before loading
 * would allocate it. */
static void test_module_variable_limits(void **state)
{
	(void)state;
	struct weft_ptx_module *m;
	struct weft_error err;
	const char *t = HDR ".global .align 4 .u32 e[4] = {};\n"
			".const .b8 c[268435456];\n"; /* exactly the limit */
	assert_int_equal(weft_ptx_parse(t, strlen(t), "v.ptx", &m, &err), 0);
	const struct weft_ptx_symbol *s = sym(m, weft_ptx_find_symbol(m, "e"));
	assert_int_equal(s->size, 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(s->init ? s->init[i] : 0, 0);
	assert_int_equal(sym(m, weft_ptx_find_symbol(m, "c"))->size, WEFT_PTX_MAX_MODULE_VAR_BYTES);
	weft_ptx_module_free(m);
	const char *const big[] = {
		HDR ".global .b8 big[268435457];\n",
		HDR ".const .align 8 .u64 big[1099511627776];\n",
		HDR ".global .v4 .f32 big[16777217] = {1.0};\n",
	};
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		m = NULL;
		assert_int_equal(weft_ptx_parse(big[i], strlen(big[i]), "v.ptx", &m, &err), WEFT_ERR_PARSE);
		assert_null(m);
		assert_non_null(strstr(err.message, "'big' is "));
		assert_non_null(strstr(err.message, "at most 256 MiB"));
		assert_int_equal(err.line, 4);
	}
}

static void test_big_module(void **state)
{
	(void)state;
	const int n = 200000;
	size_t cap = (size_t)n * 64 + 4096, len = 0;
	char *b = malloc(cap);
	assert_non_null(b);
	len += (size_t)snprintf(b + len, cap - len, "%s.entry big()\n{\n.reg .b32 %%r<%d>;\n", HDR, n);
	for (int i = 1; i < n; i++)
		len += (size_t)snprintf(b + len, cap - len, "L%d:\nadd.s32 %%r%d, %%r%d, %d;\n@%s bra L%d;\n",
					i, i, i - 1, i, "%p0", (i + 1) / 2);
	len += (size_t)snprintf(b + len, cap - len, "ret;\n}\n");
	/* %p0 is not declared: fix by declaring it up front */
	char *decl = strstr(b, ".reg .b32");
	(void)decl;
	struct weft_ptx_module *m;
	struct weft_error err;
	int rc = weft_ptx_parse(b, len, "big.ptx", &m, &err);
	assert_int_equal(rc, WEFT_ERR_PARSE); /* %p0 undeclared, found at the first use */
	assert_int_equal(err.line, 9);
	char *fixed = malloc(len + 64);
	assert_non_null(fixed);
	size_t hl = (size_t)(decl - b);
	memcpy(fixed, b, hl);
	size_t fl = hl + (size_t)sprintf(fixed + hl, ".reg .pred %%p0;\n");
	memcpy(fixed + fl, b + hl, len - hl);
	fl += len - hl;
	rc = weft_ptx_parse(fixed, fl, "big.ptx", &m, &err);
	if (rc)
		fail_msg("%s at %u:%u", err.message, err.line, err.column);
	assert_int_equal(m->funcs[0].ninsts, 2 * (n - 1) + 1);
	assert_int_equal(m->funcs[0].insts[3].opnd[0].imm, 0); /* bra L1 -> inst 0 */
	weft_ptx_module_free(m);
	free(fixed);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_load),
		cmocka_unit_test(test_sm_variants_same),
		cmocka_unit_test(test_module_variables),
		cmocka_unit_test(test_params_and_directives),
		cmocka_unit_test(test_instructions),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_nvcc_details),
		cmocka_unit_test(test_inline_asm_blocks),
		cmocka_unit_test(test_indirect_call),
		cmocka_unit_test(test_misc_forms),
		cmocka_unit_test(test_lineinfo),
		cmocka_unit_test(test_hash_and_helpers),
		cmocka_unit_test(test_instruction_table),
		cmocka_unit_test(test_immediates),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unsupported_kept),
		cmocka_unit_test(test_texture_forms),
		cmocka_unit_test(test_error_messages_say_what_to_do),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_module_variable_limits),
		cmocka_unit_test(test_big_module),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
