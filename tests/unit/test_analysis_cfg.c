/*
 * test_analysis_cfg.c - dominators, natural loops (nesting, two latches,
 * early exit) and trip counts on hand-written kernels (models/analysis).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_analysis_util.h"

/* B0: entry; B1 outer header; B2 inner header+latch; B3 outer latch; B4 ret */
static const char nested_ptx[] = PTX_HEAD
	".visible .entry nested(.param .u32 n)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<5>;\n"
	" ld.param.u32 %r1, [n];\n"
	" mov.u32 %r2, 0;\n"
	"L_outer:\n"
	" mov.u32 %r3, 0;\n"
	"L_inner:\n"
	" add.u32 %r3, %r3, 1;\n"
	" setp.lt.u32 %p1, %r3, %r1;\n"
	" @%p1 bra L_inner;\n"
	" add.u32 %r2, %r2, 1;\n"
	" setp.lt.u32 %p2, %r2, %r1;\n"
	" @%p2 bra L_outer;\n"
	" ret;\n}\n";

static void test_nested(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(nested_ptx, "nested")), 0);
	const struct weft_program *p = a.p;
	/* the lowered kernel ends with an unreachable `exit` block of its own */
	assert_int_equal(p->nblocks, 6);
	assert_int_equal(a.dom.idom[5], WEFT_NO_BLOCK);
	assert_int_equal(a.dom.nrpo, 5);
	/* dominators form a chain 0 <- 1 <- 2 <- 3 <- 4 */
	assert_int_equal(a.dom.idom[0], 0);
	for (uint32_t b = 1; b < 5; b++)
		assert_int_equal(a.dom.idom[b], b - 1);
	assert_true(weft_dom_dominates(&a.dom, 1, 3));
	assert_false(weft_dom_dominates(&a.dom, 3, 1));
	assert_true(weft_pdom_postdominates(p, 4, 0));
	/* two loops, the inner one nested */
	assert_int_equal(a.loops.nloops, 2);
	assert_int_equal(a.loops.nirreducible, 0);
	uint32_t lo = an_loop_of_header(&a.loops, 1), li = an_loop_of_header(&a.loops, 2);
	assert_int_not_equal(lo, WEFT_NO_LOOP);
	assert_int_not_equal(li, WEFT_NO_LOOP);
	const struct weft_loop *O = &a.loops.loops[lo], *I = &a.loops.loops[li];
	assert_int_equal(O->nblocks, 3);
	assert_int_equal(O->blocks[0], 1);
	assert_int_equal(O->blocks[2], 3);
	assert_int_equal(O->nlatches, 1);
	assert_int_equal(O->latches[0], 3);
	assert_int_equal(O->nexits, 1);
	assert_int_equal(O->exits[0].from, 3);
	assert_int_equal(O->exits[0].to, 4);
	assert_int_equal(O->parent, WEFT_NO_LOOP);
	assert_int_equal(O->depth, 1);
	assert_int_equal(O->nchildren, 1);
	assert_int_equal(I->nblocks, 1);
	assert_int_equal(I->latches[0], 2);
	assert_int_equal(I->parent, lo);
	assert_int_equal(I->depth, 2);
	assert_int_equal(a.loops.innermost[2], li);
	assert_int_equal(a.loops.innermost[3], lo);
	assert_int_equal(a.loops.innermost[0], WEFT_NO_LOOP);
	/* launch-uniform trip counts: no divergent branch */
	assert_false(a.u.loop_divergent[lo]);
	assert_false(a.u.loop_divergent[li]);

	/* trip counts from paths: n = 3 -> outer header 3 visits, inner 3 per entry */
	struct weft_trips t;
	assert_int_equal(weft_trips_init(&t, &a.loops, NULL), 0);
	uint32_t path[] = { 0, 1, 2, 2, 2, 3, 1, 2, 2, 2, 3, 1, 2, 2, 2, 3, 4 };
	weft_trips_cta_begin(&t);
	weft_trips_add_path(&t, path, sizeof(path) / sizeof(path[0]));
	/* a second thread with a shorter inner loop in its first outer iteration */
	uint32_t path2[] = { 0, 1, 2, 3, 1, 2, 2, 2, 3, 4 };
	weft_trips_add_path(&t, path2, sizeof(path2) / sizeof(path2[0]));
	weft_trips_cta_end(&t);
	assert_int_equal(t.stat[lo].entries, 2);
	assert_int_equal(t.stat[lo].min, 2);
	assert_int_equal(t.stat[lo].max, 3);
	assert_int_equal(t.stat[lo].visits, 5);
	assert_int_equal(t.stat[li].entries, 5);
	assert_int_equal(t.stat[li].min, 1);
	assert_int_equal(t.stat[li].max, 3);
	assert_int_equal(t.stat[li].hist[0], 1); /* trip 1 */
	assert_int_equal(t.stat[li].hist[1], 4); /* trips 2..3 */
	assert_int_equal(t.stat[lo].ctas, 1);
	assert_int_equal(t.stat[lo].ctas_varying, 1);
	assert_true(weft_trip_mean(&t.stat[li]) > 2.59 && weft_trip_mean(&t.stat[li]) < 2.61);

	/* CTAs counted apart and merged give what counting them together
	 * gives: t has CTA 1 (path, path2); add CTA 2 (path3: fewer outer
	 * trips, one inner trip count throughout) and CTA 3 (path alone) to t,
	 * and to u and v, merged into w that has CTA 1 */
	uint32_t path3[] = { 0, 1, 2, 2, 3, 1, 2, 2, 3, 4 };
	struct weft_trips u, v, w;
	assert_int_equal(weft_trips_init(&u, &a.loops, NULL), 0);
	assert_int_equal(weft_trips_init(&v, &a.loops, NULL), 0);
	assert_int_equal(weft_trips_init(&w, &a.loops, NULL), 0);
	weft_trips_merge(&w, &t); /* into an empty one: a copy */
	weft_trips_cta_begin(&t);
	weft_trips_add_path(&t, path3, sizeof(path3) / sizeof(path3[0]));
	weft_trips_cta_end(&t);
	weft_trips_cta_begin(&t);
	weft_trips_add_path(&t, path, sizeof(path) / sizeof(path[0]));
	weft_trips_cta_end(&t);
	weft_trips_cta_begin(&u);
	weft_trips_add_path(&u, path3, sizeof(path3) / sizeof(path3[0]));
	weft_trips_cta_end(&u);
	weft_trips_cta_begin(&v);
	weft_trips_add_path(&v, path, sizeof(path) / sizeof(path[0]));
	weft_trips_cta_end(&v);
	weft_trips_merge(&w, &u);
	weft_trips_merge(&w, &v);
	for (uint32_t k = 0; k < a.loops.nloops; k++) { /* all but the per-CTA scratch */
		assert_memory_equal(&w.stat[k], &t.stat[k], offsetof(struct weft_trip_stat, cta_min));
		assert_int_equal(w.stat[k].cta_entries, 0);
	}
	assert_int_equal(w.stat[lo].min, 2);
	assert_int_equal(w.stat[li].min, 1);
	assert_int_equal(w.stat[lo].ctas, 3);
	assert_int_equal(w.stat[lo].ctas_varying, 1);
	/* reset: as new */
	weft_trips_reset(&w);
	assert_int_equal(w.stat[lo].entries, 0);
	assert_int_equal(w.stat[li].ctas, 0);
	weft_trips_free(&u);
	weft_trips_free(&v);
	weft_trips_free(&w);
	weft_trips_free(&t);
	an_free(&a);
}

/* One loop (header B1) with two latches: B1 itself and B2. */
static const char two_latch_ptx[] = PTX_HEAD
	".visible .entry twolatch()\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<5>;\n"
	" mov.u32 %r2, 0;\n"
	"L_h:\n"
	" add.u32 %r2, %r2, 1;\n"
	" and.b32 %r3, %r2, 1;\n"
	" setp.eq.u32 %p1, %r3, 0;\n"
	" @%p1 bra L_h;\n"
	" setp.lt.u32 %p2, %r2, 10;\n"
	" @%p2 bra L_h;\n"
	" ret;\n}\n";

static void test_two_latches(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(two_latch_ptx, "twolatch")), 0);
	assert_int_equal(a.p->nblocks, 5); /* + the linker's trailing exit */
	assert_int_equal(a.loops.nloops, 1);
	const struct weft_loop *L = &a.loops.loops[0];
	assert_int_equal(L->header, 1);
	assert_int_equal(L->nlatches, 2);
	assert_int_equal(L->latches[0], 1);
	assert_int_equal(L->latches[1], 2);
	assert_int_equal(L->nblocks, 2);
	assert_int_equal(L->nexits, 1);
	assert_int_equal(L->exits[0].to, 3);
	/* the counter depends only on constants: every branch is uniform */
	assert_false(a.u.loop_divergent[0]);
	assert_int_equal(a.u.inst[an_pc(a.p, WEFT_OP_SETP, 1)].cls, WEFT_UC_LAUNCH);
	an_free(&a);
}

/* A search loop with an early exit on a thread-dependent condition:
 * B0 entry, B1 header (exit when i >= 100), B2 body (break when found),
 * B3 latch, B4 found, B5 done, B6 store. */
static const char early_ptx[] = PTX_HEAD
	".visible .entry early(.param .u64 a, .param .u64 o)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
	" ld.param.u64 %rd1, [a];\n"
	" mov.u32 %r1, %tid.x;\n"
	" mov.u32 %r2, 0;\n"
	"L_h:\n"
	" setp.ge.u32 %p1, %r2, 100;\n"
	" @%p1 bra L_done;\n"
	" mul.wide.u32 %rd2, %r2, 4;\n"
	" add.s64 %rd3, %rd1, %rd2;\n"
	" ld.global.u32 %r3, [%rd3];\n"
	" setp.eq.u32 %p2, %r3, %r1;\n"
	" @%p2 bra L_found;\n"
	" add.u32 %r2, %r2, 1;\n"
	" bra.uni L_h;\n"
	"L_found:\n"
	" mov.u32 %r5, %r2;\n"
	" bra.uni L_out;\n"
	"L_done:\n"
	" mov.u32 %r5, 4294967295;\n"
	"L_out:\n"
	" ld.param.u64 %rd4, [o];\n"
	" mul.wide.u32 %rd5, %r1, 4;\n"
	" add.s64 %rd6, %rd4, %rd5;\n"
	" st.global.u32 [%rd6], %r5;\n"
	" ret;\n}\n";

static void test_early_exit(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(early_ptx, "early")), 0);
	const struct weft_program *p = a.p;
	assert_int_equal(p->nblocks, 8); /* + the linker's trailing exit */
	assert_int_equal(a.loops.nloops, 1);
	const struct weft_loop *L = &a.loops.loops[0];
	assert_int_equal(L->header, 1);
	assert_int_equal(L->nblocks, 3);
	assert_int_equal(L->nlatches, 1);
	assert_int_equal(L->latches[0], 3);
	assert_int_equal(L->nexits, 2);
	assert_int_equal(L->exits[0].from, 1);
	assert_int_equal(L->exits[0].to, 5);
	assert_int_equal(L->exits[1].from, 2);
	assert_int_equal(L->exits[1].to, 4);
	/* B6 joins found and done: dominated by B1 only */
	assert_int_equal(a.dom.idom[6], 1);
	assert_int_equal(a.dom.idom[4], 2);
	/* the loop counter is uniform among the threads still searching ... */
	assert_int_equal(a.u.inst[an_pc(p, WEFT_OP_SETP, 0)].cls, WEFT_UC_LAUNCH);
	assert_false(a.u.block_divergent[1]);
	/* ... the found test depends on tid: divergent, and the loop with it */
	assert_true(a.u.block_divergent[2]);
	assert_true(a.u.loop_divergent[0]);
	/* so the counter read after leaving the loop varies per thread */
	uint32_t mv = an_pc(p, WEFT_OP_MOV, 2); /* mov %r5, %r2 */
	assert_int_equal(p->block_of[mv], 4);
	if (a.u.inst[mv].cls != WEFT_UC_VARYING)
		an_dump(&a);
	assert_int_equal(a.u.inst[mv].cls, WEFT_UC_VARYING);
	/* the load address base+4*i is uniform; the data loaded is not */
	uint32_t ld = an_pc(p, WEFT_OP_LD, 1);
	assert_int_equal(a.u.inst[ld].addr_cls, WEFT_UC_LAUNCH);
	assert_int_equal(a.u.inst[ld].cls, WEFT_UC_VARYING);
	/* the store is affine unit-stride in tid.x */
	uint32_t st = an_pc(p, WEFT_OP_ST, 0);
	assert_int_equal(a.u.inst[st].addr_cls, WEFT_UC_AFFINE);
	assert_true(a.u.inst[st].unit_stride);

	/* control dependence: each side on its branch edge; the header on the
	 * body's "not found" edge (it runs again only then); the join on none */
	struct weft_cdep cd;
	assert_int_equal(weft_cdep_build(p, &cd, NULL), 0);
	static const uint32_t want_branch[7] = { 9, 2, 1, 2, 2, 1, 9 };
	static const uint32_t want_k[7] = { 9, 0, 0, 0, 1, 1, 9 };
	for (uint32_t b = 0; b < 7; b++) {
		uint32_t n = cd.start[b + 1] - cd.start[b];
		assert_int_equal(n, want_branch[b] == 9 ? 0 : 1);
		if (n) {
			assert_int_equal(cd.deps[cd.start[b]].branch, want_branch[b]);
			assert_int_equal(cd.deps[cd.start[b]].succ_index, want_k[b]);
		}
	}
	weft_cdep_free(&cd);

	/* trip counts: thread 0 finds at i = 2 (3 header visits), thread 1
	 * runs to the end (101 visits) */
	struct weft_trips t;
	assert_int_equal(weft_trips_init(&t, &a.loops, NULL), 0);
	uint32_t found[] = { 0, 1, 2, 3, 1, 2, 3, 1, 2, 4, 6 };
	uint32_t done[1 + 3 * 100 + 3];
	uint32_t n = 0;
	done[n++] = 0;
	for (int i = 0; i < 100; i++)
		done[n++] = 1, done[n++] = 2, done[n++] = 3;
	done[n++] = 1, done[n++] = 5, done[n++] = 6;
	weft_trips_cta_begin(&t);
	weft_trips_add_path(&t, found, sizeof(found) / sizeof(found[0]));
	weft_trips_add_path(&t, done, n);
	weft_trips_cta_end(&t);
	assert_int_equal(t.stat[0].entries, 2);
	assert_int_equal(t.stat[0].min, 3);
	assert_int_equal(t.stat[0].max, 101);
	assert_int_equal(t.stat[0].hist[6], 1); /* 64..127 */
	assert_int_equal(t.stat[0].ctas_varying, 1);
	/* a path that ends inside the loop (thread exited) still counts */
	weft_trips_cta_begin(&t);
	uint32_t cut[] = { 0, 1, 2, 3, 1 };
	weft_trips_add_path(&t, cut, 5);
	weft_trips_cta_end(&t);
	assert_int_equal(t.stat[0].entries, 3);
	assert_int_equal(t.stat[0].min, 2);
	weft_trips_free(&t);
	an_free(&a);
}

/* An early return inside a loop: the linker turns the branch to the final
 * ret into a guarded exit, so threads leave the loop (and the kernel) at
 * different iterations. */
static const char early_ret_ptx[] = PTX_HEAD
	".visible .entry eret(.param .u64 a)\n{\n"
	" .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
	" ld.param.u64 %rd1, [a];\n"
	" mov.u32 %r1, %tid.x;\n"
	" mov.u32 %r2, 0;\n"
	"L_h:\n"
	" setp.eq.u32 %p1, %r2, %r1;\n"
	" @%p1 bra L_ret;\n"
	" add.u32 %r2, %r2, 1;\n"
	" setp.lt.u32 %p2, %r2, 64;\n"
	" @%p2 bra L_h;\n"
	" st.global.u32 [%rd1], %r2;\n"
	"L_ret:\n"
	" ret;\n}\n";

static void test_early_return(void **state)
{
	(void)state;
	struct an_all a;
	assert_int_equal(an_build(&a, an_program(early_ret_ptx, "eret")), 0);
	assert_int_equal(a.loops.nloops, 1);
	uint32_t ex = an_pc(a.p, WEFT_OP_EXIT, 0);
	assert_int_not_equal(ex, UINT32_MAX);
	assert_int_not_equal(a.p->insts[ex].guard, WEFT_NO_REG);
	assert_true(weft_loop_contains(&a.loops, 0, a.p->block_of[ex]));
	assert_true(a.u.inst[ex].divergent);
	assert_true(a.u.block_divergent[a.p->block_of[ex]]);
	/* the latch test depends only on the counter, yet threads leave the
	 * loop at different iterations */
	uint32_t latch = an_pc(a.p, WEFT_OP_BRA, 0);
	assert_false(a.u.inst[latch].divergent);
	assert_true(a.u.loop_divergent[0]);
	an_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_two_latches),
		cmocka_unit_test(test_early_exit),
		cmocka_unit_test(test_early_return),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
