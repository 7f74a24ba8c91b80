/*
 * test_emu_link.c - the emulator's lowering of a kernel (emu_link.c),
 * through weft_emu_program(): reconvergence pcs of branches (if/else join,
 * loop exit, none for paths that only exit), the early-return rewrite of a
 * branch to the final `ret` into a guarded exit, inlined calls (callee
 * registers in fresh slots, `ret` as a branch to the continuation), the
 * implicit exit at the end, and unsupported instructions refused at link
 * time with their line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "trace/emu/emu.h"
#include "emu_testutil.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static const struct weft_emu_prog *program(const char *ptx, struct weft_ctx **ctx)
{
	struct weft_module *mod;
	*ctx = mod_load(ptx, &mod, NULL);
	assert_non_null(*ctx);
	const struct weft_emu_prog *p = NULL;
	int rc = weft_emu_program(mod, (uint32_t)weft_ptx_find_func(weft_module_ptx(mod), "k"), &p, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	return p;
}

static const char *cfg_ptx = HEAD
	".visible .entry k(.param .u32 pn)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<8>;\n"
	"ld.param.u32 %r1, [pn];\n"      /* 0 */
	"setp.eq.s32 %p1, %r1, 0;\n"     /* 1 */
	"@%p1 bra ELSE;\n"               /* 2: if/else, joins at 5 */
	"add.s32 %r2, %r1, 1;\n"         /* 3 */
	"bra JOIN;\n"                    /* 4 */
	"ELSE: add.s32 %r2, %r1, 2;\n"   /* 5 */
	"JOIN: mov.u32 %r3, 0;\n"        /* 6 */
	"LOOP: add.s32 %r3, %r3, 1;\n"   /* 7 */
	"setp.lt.s32 %p2, %r3, %r2;\n"   /* 8 */
	"@%p2 bra LOOP;\n"               /* 9: back edge, reconverges at 10 */
	"setp.gt.s32 %p3, %r3, 5;\n"     /* 10 */
	"@%p3 bra OUT;\n"                /* 11: to the final ret: becomes @%p3 exit */
	"add.s32 %r3, %r3, 1;\n"         /* 12 */
	"OUT: ret;\n"                    /* 13 */
	"}\n";

static void test_reconvergence(void **state)
{
	(void)state;
	struct weft_ctx *ctx;
	const struct weft_emu_prog *p = program(cfg_ptx, &ctx);
	assert_int_equal(p->ninsts, 15); /* 14 + the implicit exit */
	assert_int_equal(p->insts[2].kind, WEFT_EK_BRA);
	assert_int_equal(p->insts[2].target, 5);
	assert_int_equal(p->insts[2].reconv, 6);
	assert_int_equal(p->insts[4].kind, WEFT_EK_BRA);
	assert_int_equal(p->insts[4].target, 6);
	assert_int_equal(p->insts[9].target, 7);
	assert_int_equal(p->insts[9].reconv, 10);
	/* early return rewritten */
	assert_int_equal(p->insts[11].kind, WEFT_EK_EXIT);
	assert_int_equal(p->insts[11].in.op, WEFT_OP_EXIT);
	assert_true(p->insts[11].guard >= 0);
	assert_int_equal(p->insts[13].kind, WEFT_EK_EXIT);
	assert_int_equal(p->insts[14].kind, WEFT_EK_EXIT);
	/* blocks: 0-2, 3-4, 5, 6, 7-9, 10-11, 12, 13, 14 */
	assert_int_equal(p->insts[3].block, p->insts[4].block);
	assert_true(p->insts[5].block != p->insts[6].block);
	assert_int_equal(p->insts[7].block, p->insts[9].block);
	weft_ctx_destroy(ctx);
}

static const char *call_ptx = HEAD
	".func (.param .b32 rv) f(.param .b32 a)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"ld.param.b32 %r1, [a];\n"
	"setp.gt.s32 %p1, %r1, 10;\n"
	"@%p1 bra BIG;\n"
	"st.param.b32 [rv], %r1;\n"
	"ret;\n"
	"BIG: st.param.b32 [rv], 10;\n"
	"ret;\n}\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\n"
	"st.param.b32 [p0], %r1;\n"
	"call.uni (r0), f, (p0);\n"
	"ld.param.b32 %r2, [r0];\n}\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r2;\n"
	"ret;\n}\n";

static void test_inlining(void **state)
{
	(void)state;
	struct weft_ctx *ctx;
	const struct weft_emu_prog *p = program(call_ptx, &ctx);
	/* k: ld mov st.param | f: ld setp bra st ret(->bra) st (last ret
	 * dropped) | ld.param mul add st ret | implicit exit */
	assert_int_equal(p->ninsts, 3 + 6 + 5 + 1);
	const struct weft_emu_inst *in = p->insts;
	assert_int_equal(in[2].space, WEFT_SPACE_LOCAL); /* call-site param */
	assert_int_equal(in[3].src_func, (uint32_t)weft_ptx_find_func(weft_module_ptx(ctx->mods[0]), "f"));
	assert_int_equal(in[3].space, WEFT_SPACE_LOCAL); /* callee param = caller's p0 */
	assert_int_equal(in[3].aoff, in[2].aoff);
	assert_int_equal(in[7].kind, WEFT_EK_BRA);          /* the callee's first ret */
	assert_int_equal(in[7].target, 9);                  /* the continuation */
	assert_int_equal(in[5].reconv, 9);                  /* @%p1 bra BIG joins there too */
	assert_int_equal(in[9].in.op, WEFT_OP_LD);          /* ld.param [r0] */
	assert_int_equal(in[8].aoff, in[9].aoff);           /* st.param [rv] -> r0 */
	assert_true(in[3].d[0] != in[1].d[0]);              /* callee %r1 is not kernel %r1 */
	assert_true(p->local_bytes >= 8);
	/* and it runs */
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 64 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, ctx->mods[0], "k", weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), 0, args, 1, &op_err), 0);
	uint32_t o[64];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(o[i], i > 10 ? 10 : i);
	weft_ctx_destroy(ctx);
}

static void test_unsupported_refused(void **state)
{
	(void)state;
	static const char *ptx = HEAD
		".visible .entry k(.param .u64 pout)\n{\n"
		".reg .b16 %h<4>;\n"
		"mov.b16 %h1, 0x3c00;\n"
		"ex2.approx.f16 %h2, %h1;\n"
		"ret;\n}\n";
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(ptx, &mod, NULL);
	if (!ctx) { /* the loader refused it already: fine too */
		skip();
		return;
	}
	uint64_t out = 0;
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 1, &op_err);
	assert_int_equal(rc, WEFT_ERR_PARSE);
	assert_int_equal(op_err.line, 8);
	assert_non_null(strstr(op_err.message, "not supported by the emulator"));
	weft_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reconvergence),
		cmocka_unit_test(test_inlining),
		cmocka_unit_test(test_unsupported_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
