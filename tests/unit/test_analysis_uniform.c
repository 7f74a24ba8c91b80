/*
 * test_analysis_uniform.c - the uniformity / affine analysis
 * (models/analysis/uniform.c) on hand-written kernels: parameter-only
 * values, ctaid*ntid+tid, unit-stride addresses, and values merging after
 * thread-dependent, CTA-dependent and launch-uniform branches; ctaid on a
 * launch's grid with one CTA along a dimension.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_analysis_util.h"

static const char affine_ptx[] = PTX_HEAD
	".visible .entry aff(.param .u64 a, .param .u32 n)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<12>; .reg .f32 %f<4>;\n"
	" ld.param.u64 %rd1, [a];\n"          /* pc0 launch */
	" ld.param.u32 %r1, [n];\n"           /* pc1 launch */
	" mov.u32 %r2, %ctaid.x;\n"           /* pc2 cta */
	" mov.u32 %r3, %ntid.x;\n"            /* pc3 launch */
	" mov.u32 %r4, %tid.x;\n"             /* pc4 affine 1 */
	" mad.lo.s32 %r5, %r2, %r3, %r4;\n"   /* pc5 affine 1 */
	" mul.wide.s32 %rd2, %r5, 4;\n"       /* pc6 affine 4 */
	" cvta.to.global.u64 %rd3, %rd1;\n"   /* pc7 launch */
	" add.s64 %rd4, %rd3, %rd2;\n"        /* pc8 affine 4 */
	" ld.global.f32 %f1, [%rd4];\n"       /* pc9 unit stride */
	" shl.b32 %r6, %r4, 3;\n"             /* pc10 affine 8 */
	" mul.wide.u32 %rd5, %r6, 4;\n"       /* pc11 affine 32 */
	" add.s64 %rd6, %rd3, %rd5;\n"        /* pc12 */
	" ld.global.nc.f32 %f2, [%rd6];\n"    /* pc13 stride 32 */
	" mul.lo.s32 %r7, %r4, %r4;\n"        /* pc14 varying (quadratic) */
	" mul.lo.s32 %r8, %r1, %r3;\n"        /* pc15 launch */
	" mul.lo.s32 %r9, %r4, %r1;\n"        /* pc16 affine, unknown stride */
	" ld.global.nc.u32 %r10, [%rd3];\n"   /* pc17 uniform address, read-only: launch */
	" ld.global.u32 %r11, [%rd3];\n"      /* pc18 uniform address, writable: varying */
	" mov.u32 %r10, %laneid;\n"           /* pc19 varying */
	" add.f32 %f3, %f1, %f2;\n"           /* pc20 varying */
	" st.global.f32 [%rd4+4], %f3;\n"     /* pc21 unit stride (offset keeps stride) */
	" ret;\n}\n";

static void test_affine(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(affine_ptx, "aff")), 0);
	const struct weft_uinst *u = a.u.inst;
	static const uint8_t want[] = {
		WEFT_UC_LAUNCH, WEFT_UC_LAUNCH, WEFT_UC_CTA, WEFT_UC_LAUNCH, WEFT_UC_AFFINE,
		WEFT_UC_AFFINE, WEFT_UC_AFFINE, WEFT_UC_LAUNCH, WEFT_UC_AFFINE, WEFT_UC_VARYING,
		WEFT_UC_AFFINE, WEFT_UC_AFFINE, WEFT_UC_AFFINE, WEFT_UC_VARYING, WEFT_UC_VARYING,
		WEFT_UC_LAUNCH, WEFT_UC_AFFINE, WEFT_UC_LAUNCH, WEFT_UC_VARYING, WEFT_UC_VARYING,
		WEFT_UC_VARYING, WEFT_UC_NONE,
	};
	for (uint32_t pc = 0; pc < sizeof(want); pc++) {
		if (u[pc].cls != want[pc]) {
			an_dump(&a);
			fprintf(stderr, "pc %u: %s, want %s\n", pc, weft_uclass_name(u[pc].cls),
				weft_uclass_name(want[pc]));
		}
		assert_int_equal(u[pc].cls, want[pc]);
	}
	/* ctaid*ntid + tid: stride 1 in tid.x, 0 in y and z, CTA-level base */
	assert_int_equal(u[5].val.coef[0], 1);
	assert_int_equal(u[5].val.coef_known, 7);
	assert_int_equal(u[5].val.coef[1], 0);
	assert_int_equal(u[5].val.level, WEFT_UL_CTA);
	assert_int_equal(u[6].val.coef[0], 4);
	/* base + 4*(ctaid*ntid+tid): unit stride for 4-byte loads */
	assert_true(u[9].is_mem);
	assert_int_equal(u[9].addr_cls, WEFT_UC_AFFINE);
	assert_int_equal(u[9].access_bytes, 4);
	assert_int_equal(u[9].addr_stride[0], 4);
	assert_true(u[9].unit_stride);
	/* 32-byte stride: strided, not unit */
	assert_int_equal(u[13].addr_stride[0], 32);
	assert_true(u[13].stride_known & 1);
	assert_false(u[13].unit_stride);
	/* tid * n: affine with an unknown (launch-uniform) stride */
	assert_false(u[16].val.coef_known & 1);
	/* uniform address: stride 0, not unit */
	assert_int_equal(u[17].addr_cls, WEFT_UC_LAUNCH);
	assert_false(u[17].unit_stride);
	assert_true(u[21].unit_stride);
	an_free(&a);
}

/* if (tid < 16) r2 = 3 else r2 = 2; r3 = r2 + 1 at the join (ipdom). The
 * same shape with a parameter condition, a ctaid condition, and both sides
 * writing the same constant. */
#define DIAMOND(name, cond_src, v1, v2)                                         \
	".visible .entry " name "(.param .u32 n)\n{\n"                          \
	" .reg .pred %p<3>; .reg .b32 %r<9>;\n"                                 \
	" ld.param.u32 %r6, [n];\n"                                             \
	" mov.u32 %r7, %ctaid.x;\n"                                             \
	" mov.u32 %r1, %tid.x;\n"                                               \
	" mov.u32 %r2, 1;\n"                                                    \
	" setp.lt.u32 %p1, " cond_src ", 16;\n"                                 \
	" @%p1 bra L_a;\n"                                                      \
	" mov.u32 %r2, " v1 ";\n"                                               \
	" add.u32 %r4, %r2, 0;\n"                                               \
	" bra.uni L_m;\n"                                                       \
	"L_a:\n"                                                                \
	" mov.u32 %r2, " v2 ";\n"                                               \
	"L_m:\n"                                                                \
	" add.u32 %r3, %r2, 1;\n"                                               \
	" ret;\n}\n"

static const char diamond_ptx[] = PTX_HEAD
	DIAMOND("d_tid", "%r1", "2", "3")
	DIAMOND("d_param", "%r6", "2", "3")
	DIAMOND("d_cta", "%r7", "2", "3")
	DIAMOND("d_same", "%r1", "2", "2");

static uint8_t merged_class(const char *kernel, uint8_t *inside, uint8_t *divergent)
{
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(diamond_ptx, kernel)), 0);
	uint32_t join = an_pc(a.p, WEFT_OP_ADD, 1);
	uint32_t in = an_pc(a.p, WEFT_OP_ADD, 0);
	uint32_t bra = an_pc(a.p, WEFT_OP_BRA, 0);
	/* the join is the branch block's immediate post-dominator */
	assert_int_equal(a.p->blocks[a.p->block_of[bra]].ipdom, a.p->block_of[join]);
	uint8_t c = a.u.inst[join].cls;
	*inside = a.u.inst[in].cls;
	*divergent = a.u.inst[bra].divergent;
	an_free(&a);
	return c;
}

static void test_divergent_merge(void **state)
{
	(void)state;
	uint8_t inside, div;
	/* thread-dependent branch: the merged value varies ... */
	assert_int_equal(merged_class("d_tid", &inside, &div), WEFT_UC_VARYING);
	assert_true(div);
	/* ... though inside one side it is the same for the threads there */
	assert_int_equal(inside, WEFT_UC_CONST);
	/* parameter-dependent branch: every thread of the launch goes one way */
	assert_int_equal(merged_class("d_param", &inside, &div), WEFT_UC_LAUNCH);
	assert_false(div);
	/* ctaid-dependent: the same within a CTA */
	assert_int_equal(merged_class("d_cta", &inside, &div), WEFT_UC_CTA);
	assert_false(div);
	/* both sides write the same constant: all threads agree after all */
	assert_int_equal(merged_class("d_same", &inside, &div), WEFT_UC_CONST);
	assert_true(div);
}

/* selp between two addresses with the same tid stride keeps the stride
 * when the condition is uniform. */
static const char selp_ptx[] = PTX_HEAD
	".visible .entry sel(.param .u64 a, .param .u32 n)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
	" ld.param.u64 %rd1, [a];\n"          /* pc0 */
	" ld.param.u32 %r1, [n];\n"           /* pc1 */
	" mov.u32 %r2, %tid.x;\n"             /* pc2 */
	" shl.b32 %r3, %r2, 2;\n"             /* pc3: 4 tid */
	" add.s32 %r4, %r3, 64;\n"            /* pc4: 4 tid + 64 */
	" setp.gt.u32 %p1, %r1, 5;\n"         /* pc5: launch */
	" selp.b32 %r5, %r3, %r4, %p1;\n"     /* pc6: affine, stride 4 */
	" setp.gt.u32 %p2, %r2, 5;\n"         /* pc7: varying */
	" selp.b32 %r6, %r3, %r4, %p2;\n"     /* pc8: varying */
	" selp.b32 %r7, 7, 7, %p2;\n"         /* pc9: const */
	" ret;\n}\n";

static void test_selp(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(selp_ptx, "sel")), 0);
	assert_int_equal(a.u.inst[6].cls, WEFT_UC_AFFINE);
	assert_int_equal(a.u.inst[6].val.coef[0], 4);
	assert_true(a.u.inst[6].val.coef_known & 1);
	assert_int_equal(a.u.inst[8].cls, WEFT_UC_VARYING);
	assert_int_equal(a.u.inst[9].cls, WEFT_UC_CONST);
	an_free(&a);
}

/* With a launch's grid: ctaid along a dimension of one CTA is 0, so the
 * affine kernel's index (pc5, ctaid.x * ntid.x + tid.x) and address (pc8)
 * become tid plus launch-uniform values; a grid of two along x leaves
 * them per-CTA, as without a grid. */
static void test_grid(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(affine_ptx, "aff")), 0);
	struct weft_error err;
	const uint32_t one[3] = { 1, 4, 4 }, two[3] = { 2, 1, 1 };
	struct weft_uniform g;
	assert_int_equal(weft_uniform_build_grid(a.p, &a.dom, &a.loops, one, &g, &err), 0);
	assert_int_equal(g.inst[2].cls, WEFT_UC_CONST);
	assert_int_equal(g.inst[5].cls, WEFT_UC_AFFINE);
	assert_int_equal(g.inst[5].val.level, WEFT_UL_LAUNCH);
	assert_int_equal(g.inst[9].addr.level, WEFT_UL_LAUNCH);
	assert_int_equal(g.inst[9].addr.coef[0], 4);
	weft_uniform_free(&g);
	assert_int_equal(weft_uniform_build_grid(a.p, &a.dom, &a.loops, two, &g, &err), 0);
	assert_int_equal(g.inst[2].cls, WEFT_UC_CTA);
	assert_int_equal(g.inst[9].addr.level, WEFT_UL_CTA);
	assert_int_equal(a.u.inst[9].addr.level, WEFT_UL_CTA);
	weft_uniform_free(&g);
	an_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_affine),
		cmocka_unit_test(test_divergent_merge),
		cmocka_unit_test(test_selp),
		cmocka_unit_test(test_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
