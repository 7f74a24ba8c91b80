/*
 * test_analysis_defuse.c - reaching definitions and def-use chains
 * (models/analysis/defuse.c): predicated definitions are may-definitions,
 * unpredicated ones kill, loops carry definitions around, uninitialised
 * reads are flagged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_analysis_util.h"

static const char pred_ptx[] = PTX_HEAD
	".visible .entry pred()\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<9>;\n"
	" mov.u32 %r1, %tid.x;\n"        /* pc0 */
	" mov.u32 %r2, 5;\n"             /* pc1 */
	" setp.lt.u32 %p1, %r1, 16;\n"   /* pc2 */
	" @%p1 mov.u32 %r2, 7;\n"        /* pc3: may-def of r2 */
	" add.u32 %r3, %r2, 1;\n"        /* pc4: r2 from pc1 or pc3 */
	" mov.u32 %r2, 9;\n"             /* pc5: kills both */
	" add.u32 %r4, %r2, %r3;\n"      /* pc6: r2 from pc5 only */
	" add.u32 %r5, %r7, 1;\n"        /* pc7: r7 never written */
	" ret;\n}\n";

/* Reaching definitions (as pcs) of the use of register `reg` at pc. */
static uint32_t reaching(const struct an_all *a, uint32_t pc, int32_t reg, uint32_t *pcs, int *undef)
{
	const struct weft_inst_info *ii = &a->p->info[pc];
	for (uint32_t k = 0; k < ii->nuses; k++) {
		if (ii->uses[k] != reg)
			continue;
		uint32_t u = a->du.use_base[pc] + k, n = 0;
		for (uint32_t j = a->du.ud_start[u]; j < a->du.ud_start[u + 1]; j++)
			pcs[n++] = a->du.def_pc[a->du.ud[j]];
		*undef = a->du.use_undef[u];
		return n;
	}
	return UINT32_MAX;
}

static void test_predicated(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(pred_ptx, "pred")), 0);
	const struct weft_program *p = a.p;
	assert_int_equal(p->insts[3].guard != WEFT_NO_REG, 1);
	int32_t r2 = p->info[1].defs[0], r3 = p->info[4].defs[0];
	uint32_t pcs[8];
	int undef = -1;
	assert_int_equal(reaching(&a, 4, r2, pcs, &undef), 2);
	assert_int_equal(pcs[0], 1);
	assert_int_equal(pcs[1], 3);
	assert_false(undef);
	assert_int_equal(reaching(&a, 6, r2, pcs, &undef), 1);
	assert_int_equal(pcs[0], 5);
	assert_int_equal(reaching(&a, 6, r3, pcs, &undef), 1);
	assert_int_equal(pcs[0], 4);
	/* the guard of pc3 is defined by the setp */
	assert_int_equal(reaching(&a, 3, p->insts[3].guard, pcs, &undef), 1);
	assert_int_equal(pcs[0], 2);
	/* uninitialised read */
	int32_t r7 = p->info[7].uses[0];
	assert_int_equal(reaching(&a, 7, r7, pcs, &undef), 0);
	assert_true(undef);
	/* def -> uses: pc1's r2 reaches only pc4; pc5's r2 only pc6 */
	uint32_t d1 = a.du.def_base[1], d5 = a.du.def_base[5];
	assert_int_equal(a.du.du_start[d1 + 1] - a.du.du_start[d1], 1);
	assert_int_equal(a.du.use_pc[a.du.du[a.du.du_start[d1]]], 4);
	assert_int_equal(a.du.du_start[d5 + 1] - a.du.du_start[d5], 1);
	assert_int_equal(a.du.use_pc[a.du.du[a.du.du_start[d5]]], 6);
	/* dataflow depth: tid -> setp -> @p mov -> add -> add */
	uint64_t depth[16], maxd = 0;
	assert_true(p->ninsts <= 16);
	assert_int_equal(weft_dfg_depth(p, &a.dom, &a.du, NULL, depth, &maxd, NULL), 0);
	assert_int_equal(depth[2], 2);
	assert_int_equal(depth[3], 3);
	assert_int_equal(depth[4], 4);
	assert_int_equal(depth[6], 5);
	assert_int_equal(depth[7], 1);
	assert_int_equal(maxd, 5);
	uint32_t lat[16];
	for (uint32_t i = 0; i < 16; i++)
		lat[i] = 2;
	assert_int_equal(weft_dfg_depth(p, &a.dom, &a.du, lat, depth, &maxd, NULL), 0);
	assert_int_equal(maxd, 10);
	/* live registers (r7 is read uninitialised: live from the entry) */
	struct weft_liveness lv;
	assert_int_equal(weft_liveness_build(p, &a.dom, &lv, NULL), 0);
	static const uint32_t want_words[8] = { 1, 2, 3, 2, 2, 2, 3, 1 };
	for (uint32_t pc = 0; pc < 8; pc++)
		assert_int_equal(lv.words_at[pc], want_words[pc]);
	assert_int_equal(lv.preds_at[3], 1); /* the guard */
	assert_int_equal(lv.preds_at[4], 0);
	assert_int_equal(lv.max_words, 3);
	assert_int_equal(lv.max_preds, 1);
	weft_liveness_free(&lv);
	/* uniformity: r2 after the tid-guarded def differs between threads */
	assert_int_equal(a.u.inst[3].guard_cls, WEFT_UC_VARYING); /* a compare of tid */
	assert_int_equal(a.u.inst[3].cls, WEFT_UC_VARYING);
	assert_int_equal(a.u.inst[4].cls, WEFT_UC_VARYING);
	assert_int_equal(a.u.inst[5].cls, WEFT_UC_CONST);
	assert_int_equal(a.u.inst[6].cls, WEFT_UC_VARYING);
	an_free(&a);
}

/* A loop: the counter's use in the header is reached by the initial
 * definition and by the increment around the back edge. */
static const char loop_ptx[] = PTX_HEAD
	".visible .entry lp(.param .u32 n)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<9>;\n"
	" ld.param.u32 %r1, [n];\n"      /* pc0 */
	" mov.u32 %r2, 0;\n"             /* pc1 */
	"L_h:\n"
	" setp.ge.u32 %p1, %r2, %r1;\n"  /* pc2 */
	" @%p1 bra L_x;\n"               /* pc3 */
	" add.u32 %r2, %r2, 1;\n"        /* pc4 */
	" bra.uni L_h;\n"                /* pc5 */
	"L_x:\n"
	" add.u32 %r3, %r2, 0;\n"        /* pc6 */
	" ret;\n}\n";

static void test_loop_carried(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(loop_ptx, "lp")), 0);
	int32_t r2 = a.p->info[1].defs[0];
	uint32_t pcs[8];
	int undef = -1;
	assert_int_equal(reaching(&a, 2, r2, pcs, &undef), 2);
	assert_int_equal(pcs[0], 1);
	assert_int_equal(pcs[1], 4);
	assert_int_equal(reaching(&a, 4, r2, pcs, &undef), 2);
	assert_int_equal(reaching(&a, 6, r2, pcs, &undef), 2);
	assert_false(undef);
	/* the counter is launch-uniform (depends on the parameter bound) */
	assert_int_equal(a.u.inst[4].cls, WEFT_UC_LAUNCH);
	assert_int_equal(a.u.inst[6].cls, WEFT_UC_LAUNCH);
	assert_false(a.u.loop_divergent[0]);
	/* the loop-carried increment does not feed itself: depth stays finite */
	uint64_t depth[16], maxd = 0;
	assert_int_equal(weft_dfg_depth(a.p, &a.dom, &a.du, NULL, depth, &maxd, NULL), 0);
	assert_int_equal(depth[4], 2); /* add after mov %r2, 0 */
	an_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_predicated),
		cmocka_unit_test(test_loop_carried),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
