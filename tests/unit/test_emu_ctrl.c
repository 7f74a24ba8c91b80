/*
 * test_emu_ctrl.c - control flow and scheduling of the emulator: divergence
 * and reconvergence at immediate post-dominators (results and exact warp
 * instruction counts), nested if/else, loops with divergent trip counts,
 * predication, barriers (correct, thread-count form, bar.red, partial ->
 * error), exited threads at barriers, a spin-wait between warps (forward
 * progress), runaway loops (WEFT_ERR_LIMIT), trap, and the observer (all
 * events, or those of the pcs it wants with the launch's counts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* Runs kernel k(u64 out) over block threads (1 CTA unless grid given);
 * fills out (n u32) and returns the error code. */
static int run_out(const char *ptx, uint32_t grid, uint32_t block, uint32_t *out, uint32_t n,
		   const struct weft_ctx_options *o, struct weft_ctx_stats *st)
{
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(ptx, &mod, o);
	if (!ctx)
		return op_err.code;
	uint64_t d;
	int rc = weft_malloc(ctx, (size_t)n * 4, &d, &op_err);
	if (!rc) {
		struct weft_arg args[] = { WEFT_ARG(d) };
		rc = weft_launch(ctx, mod, "k", weft_dim3(grid, 1, 1), weft_dim3(block, 1, 1), 0, args, 1, &op_err);
	}
	if (!rc && out)
		rc = weft_memcpy_dtoh(ctx, out, d, (size_t)n * 4, &op_err);
	if (st)
		*st = *weft_ctx_stats(ctx);
	weft_ctx_destroy(ctx);
	return rc;
}

static const char *ifelse_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"and.b32 %r2, %r1, 1;\n"
	"setp.eq.s32 %p1, %r2, 0;\n"
	"@%p1 bra EVEN;\n"
	"mov.u32 %r3, 100;\n"
	"bra DONE;\n"
	"EVEN:\n"
	"mov.u32 %r3, 200;\n"
	"DONE:\n"
	"add.s32 %r3, %r3, %r1;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"ret;\n}\n";

static void test_ifelse_reconverges(void **state)
{
	(void)state;
	uint32_t out[32];
	struct weft_ctx_stats st;
	assert_int_equal(run_out(ifelse_ptx, 1, 32, out, 32, NULL, &st), 0);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(out[i], (i & 1 ? 100 : 200) + i);
	/* 5 before the branch, 2 on the odd path, 1 on the even path, and the
	 * 5 after the join once: had the paths not reconverged, 18 */
	assert_int_equal(st.warp_insts, 13);
	assert_int_equal(st.thread_insts, 4 * 32 + 16 /* guarded bra: guard-true lanes */ + 16 * 2 + 16 + 5 * 32);
}

static const char *nested_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"and.b32 %r2, %r1, 3;\n"
	"setp.lt.u32 %p1, %r2, 2;\n"
	"@!%p1 bra HI;\n"
	"setp.eq.u32 %p2, %r2, 0;\n"
	"@%p2 bra Z;\n"
	"mov.u32 %r3, 11;\n"
	"bra J1;\n"
	"Z: mov.u32 %r3, 10;\n"
	"J1: add.s32 %r3, %r3, 100;\n"
	"bra J2;\n"
	"HI: setp.eq.u32 %p3, %r2, 2;\n"
	"selp.u32 %r3, 12, 13, %p3;\n"
	"J2: mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"ret;\n}\n";

static void test_nested(void **state)
{
	(void)state;
	uint32_t out[64];
	struct weft_ctx_stats st;
	assert_int_equal(run_out(nested_ptx, 1, 64, out, 64, NULL, &st), 0);
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t m = i & 3;
		assert_int_equal(out[i], m == 0 ? 110 : m == 1 ? 111 : m == 2 ? 12 : 13);
	}
	/* per warp: 5 + inner(2 + 2 + 1 + 2) + hi(2) + tail 4 = 18 */
	assert_int_equal(st.warp_insts, 2 * 18);
}

static const char *loop_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r3, 0;\n"
	"mov.u32 %r4, 0;\n"
	"setp.eq.s32 %p1, %r1, 0;\n"
	"@%p1 bra END;\n"
	"LOOP:\n"
	"add.s32 %r3, %r3, %r4;\n"
	"add.s32 %r4, %r4, 1;\n"
	"setp.lt.u32 %p2, %r4, %r1;\n"
	"@%p2 bra LOOP;\n"
	"END:\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"ret;\n}\n";

static void test_divergent_loop(void **state)
{
	(void)state;
	uint32_t out[32];
	struct weft_ctx_stats st;
	assert_int_equal(run_out(loop_ptx, 1, 32, out, 32, NULL, &st), 0);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(out[i], i * (i - 1) / 2 * (i > 0));
	/* 6 + 31 iterations x 4 + 4 after the loop, once */
	assert_int_equal(st.warp_insts, 6 + 31 * 4 + 4);
}

static const char *bar_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 sm[256];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"shl.b32 %r2, %r1, 2;\n"
	"mov.u32 %r3, sm;\n"
	"add.s32 %r4, %r3, %r2;\n"
	"mul.lo.s32 %r5, %r1, 3;\n"
	"st.shared.u32 [%r4], %r5;\n"
	"bar.sync 0;\n"
	"sub.s32 %r6, 63, %r1;\n"
	"shl.b32 %r6, %r6, 2;\n"
	"add.s32 %r6, %r3, %r6;\n"
	"ld.shared.u32 %r7, [%r6];\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r7;\n"
	"ret;\n}\n";

static void test_barrier_shared(void **state)
{
	(void)state;
	uint32_t out[128];
	assert_int_equal(run_out(bar_ptx, 2, 64, out, 64, NULL, NULL), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(out[i], (63 - i) * 3);
	/* quantum 1: warps switch after every instruction, same result */
	struct weft_ctx_options o = { 0 };
	o.quantum = 1;
	assert_int_equal(run_out(bar_ptx, 2, 64, out, 64, &o, NULL), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(out[i], (63 - i) * 3);
}

static const char *partial_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.ge.u32 %p1, %r1, 16;\n"
	"@%p1 bra SKIP;\n"
	"bar.sync 0;\n"
	"SKIP:\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r1;\n"
	"ret;\n}\n";

static void test_partial_barrier(void **state)
{
	(void)state;
	int rc = run_out(partial_ptx, 1, 32, NULL, 32, NULL, NULL);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "partial barrier"));
	assert_non_null(strstr(op_err.message, "16 of the 32"));
	assert_non_null(strstr(op_err.message, "kernel k"));
	assert_non_null(strstr(op_err.message, "CTA (0,0,0)"));
	assert_non_null(strstr(op_err.message, "bar.sync"));
	assert_int_equal(op_err.line, 13);
	/* across warps: warp 1 never reaches it */
	rc = run_out(partial_ptx, 1, 64, NULL, 64, NULL, NULL);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
}

/* Threads that exited do not count: warp 1 exits, warp 0 syncs alone. */
static const char *exited_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.ge.u32 %p1, %r1, 40;\n"
	"@%p1 exit;\n"
	"bar.sync 0;\n"
	"bar.sync 0;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r1;\n"
	"ret;\n}\n";

static void test_exited_threads_barrier(void **state)
{
	(void)state;
	uint32_t out[64] = { 0 };
	assert_int_equal(run_out(exited_ptx, 1, 64, out, 64, NULL, NULL), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(out[i], i < 40 ? i : 0);
}

/* bar.sync with a thread count, and bar.red.popc / .and / .or. */
static const char *barred_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<6>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"bar.sync 1, 96;\n"
	"and.b32 %r2, %r1, 3;\n"
	"setp.eq.u32 %p1, %r2, 0;\n"
	"bar.red.popc.u32 %r3, 0, %p1;\n"
	"setp.lt.u32 %p2, %r1, 200;\n"
	"bar.red.and.pred %p3, 0, %p2;\n"
	"selp.u32 %r4, 1000, 0, %p3;\n"
	"add.s32 %r3, %r3, %r4;\n"
	"setp.eq.u32 %p4, %r1, 5;\n"
	"bar.red.or.pred %p5, 0, !%p4;\n"
	"selp.u32 %r4, 10000, 0, %p5;\n"
	"add.s32 %r3, %r3, %r4;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"ret;\n}\n";

static void test_bar_red(void **state)
{
	(void)state;
	uint32_t out[96];
	assert_int_equal(run_out(barred_ptx, 1, 96, out, 96, NULL, NULL), 0);
	for (uint32_t i = 0; i < 96; i++)
		assert_int_equal(out[i], 24 + 1000 + 10000);
}

/* Warp 0 spins on a shared flag that warp 1 sets after some work. */
static const char *spin_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .u32 flag;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.lt.u32 %p1, %r1, 32;\n"
	"@%p1 bra WAIT;\n"
	"mov.u32 %r2, 0;\n"
	"WORK: add.s32 %r2, %r2, 1;\n"
	"setp.lt.u32 %p2, %r2, 500;\n"
	"@%p2 bra WORK;\n"
	"mov.u32 %r5, 7;\n"
	"st.volatile.shared.u32 [flag], %r5;\n"
	"bra OUT;\n"
	"WAIT: ld.volatile.shared.u32 %r5, [flag];\n"
	"setp.eq.u32 %p3, %r5, 0;\n"
	"@%p3 bra WAIT;\n"
	"OUT: mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n"
	"ret;\n}\n";

static void test_spin_wait_progress(void **state)
{
	(void)state;
	uint32_t out[64];
	struct weft_ctx_options o = { 0 };
	o.max_thread_insts = 10000000;
	assert_int_equal(run_out(spin_ptx, 1, 64, out, 64, &o, NULL), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(out[i], 7);
}

static const char *runaway_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<4>;\n"
	"mov.u32 %r1, 0;\n"
	"L: add.s32 %r1, %r1, 1;\n"
	"bra L;\n"
	"}\n";

static void test_runaway_limit(void **state)
{
	(void)state;
	struct weft_ctx_options o = { 0 };
	o.max_thread_insts = 100000;
	int rc = run_out(runaway_ptx, 1, 32, NULL, 1, &o, NULL);
	assert_int_equal(rc, WEFT_ERR_LIMIT);
	assert_non_null(strstr(op_err.message, "kernel k exceeded --max-thread-insts 100000"));
	assert_non_null(strstr(op_err.message, "infinite loop?"));
}

static const char *trap_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.eq.u32 %p1, %r1, 3;\n"
	"@%p1 trap;\n"
	"ret;\n}\n";

static void test_trap(void **state)
{
	(void)state;
	int rc = run_out(trap_ptx, 1, 32, NULL, 1, NULL, NULL);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "trap"));
	assert_non_null(strstr(op_err.message, "thread (3,0,0)"));
}

/* Predicated (guarded) non-branch instructions. */
static const char *pred_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, 5;\n"
	"setp.gt.u32 %p1, %r1, 10;\n"
	"@%p1 mov.u32 %r2, 9;\n"
	"@!%p1 add.s32 %r2, %r2, %r1;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r2;\n"
	"ret;\n}\n";

static void test_predication(void **state)
{
	(void)state;
	uint32_t out[32];
	struct weft_ctx_stats st;
	assert_int_equal(run_out(pred_ptx, 1, 32, out, 32, NULL, &st), 0);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(out[i], i > 10 ? 9 : 5 + i);
	assert_int_equal(st.warp_insts, 10);
	assert_int_equal(st.thread_insts, 8 * 32 + 21 + 11);
}

/* Observer: every warp instruction, CTA and launch boundaries, addresses. */
struct obs_count {
	int launches, ctas_b, ctas_e, ends;
	uint64_t insts, stores, store_lanes;
	int addr_ok;
};
static int ob_lb(void *u, const struct weft_module *m, uint32_t k, struct weft_dim3 g, struct weft_dim3 b,
		 uint32_t dyn, struct weft_error *e)
{
	(void)m, (void)k, (void)g, (void)b, (void)dyn, (void)e;
	((struct obs_count *)u)->launches++;
	return 0;
}
static int ob_le(void *u, struct weft_error *e)
{
	(void)e;
	((struct obs_count *)u)->ends++;
	return 0;
}
static int ob_cb(void *u, uint32_t c, struct weft_error *e)
{
	(void)c, (void)e;
	((struct obs_count *)u)->ctas_b++;
	return 0;
}
static int ob_ce(void *u, uint32_t c, struct weft_error *e)
{
	(void)c, (void)e;
	((struct obs_count *)u)->ctas_e++;
	return 0;
}
static int ob_wi(void *u, const struct weft_warp_event *ev, struct weft_error *e)
{
	(void)e;
	struct obs_count *o = u;
	o->insts++;
	if (ev->inst->op == WEFT_OP_ST) {
		o->stores++;
		o->store_lanes += (uint64_t)__builtin_popcount(ev->active);
		if (!ev->addr || ev->space != WEFT_SPACE_GLOBAL || ev->access_bytes != 4)
			o->addr_ok = 0;
		else
			for (int l = 0; l < 32; l++)
				if ((ev->active >> l) & 1)
					if (ev->addr[l] != ev->addr[0] + (uint64_t)l * 4)
						o->addr_ok = 0;
	}
	return 0;
}

static void test_observer(void **state)
{
	(void)state;
	struct obs_count c = { 0 };
	c.addr_ok = 1;
	struct weft_emu_observer ob = { .user = &c, .launch_begin = ob_lb, .launch_end = ob_le,
					  .cta_begin = ob_cb, .cta_end = ob_ce, .warp_inst = ob_wi };
	struct weft_ctx_options o = { 0 };
	o.observer = &ob;
	struct weft_ctx_stats st;
	uint32_t out[96];
	assert_int_equal(run_out(ifelse_ptx, 3, 32, out, 32, &o, &st), 0);
	assert_int_equal(c.launches, 1);
	assert_int_equal(c.ends, 1);
	assert_int_equal(c.ctas_b, 3);
	assert_int_equal(c.ctas_e, 3);
	assert_int_equal(c.insts, st.warp_insts);
	assert_int_equal(c.stores, 3);
	assert_int_equal(c.store_lanes, 96);
	assert_true(c.addr_ok);
	assert_int_equal(st.ctas, 3);
	assert_int_equal(st.launches, 1);
}


/* An observer that wants the events of some pcs only (launch_want):
 * events per pc, the active lanes they carry, and the counts it is handed
 * (launch_counts); workers (jobs > 1) keep their own and add them at
 * their commits, which come one at a time. */
#define WANT_N 6 /* pcs it has a wish for; later pcs are delivered */
struct obs_want {
	int filter;
	uint8_t want[WANT_N];
	uint64_t per_pc[64], lanes, events;
	uint64_t given_thread, given_warp;
	int given;
};
static int ow_count(struct obs_want *o, const struct weft_warp_event *ev)
{
	if (ev->pc >= 64)
		return 1;
	o->per_pc[ev->pc]++;
	o->events++;
	o->lanes += (uint64_t)__builtin_popcount(ev->active);
	return 0;
}
static int ow_wi(void *u, const struct weft_warp_event *ev, struct weft_error *e)
{
	(void)e;
	return ow_count(u, ev);
}
static const uint8_t *ow_want(void *u, uint32_t *n)
{
	struct obs_want *o = u;
	*n = WANT_N;
	return o->filter ? o->want : NULL;
}
static void ow_counts(void *u, uint64_t t, uint64_t w)
{
	struct obs_want *o = u;
	o->given_thread = t;
	o->given_warp = w;
	o->given++;
}
static void *ow_open(void *u, struct weft_error *e)
{
	(void)u, (void)e;
	return calloc(1, sizeof(struct obs_want));
}
static int ow_wcb(void *w, uint32_t c, struct weft_error *e)
{
	(void)w, (void)c, (void)e;
	return 0;
}
static int ow_commit(void *u, void *w, uint32_t c, struct weft_error *e)
{
	(void)c, (void)e;
	struct obs_want *o = u, *r = w;
	for (int pc = 0; pc < 64; pc++)
		o->per_pc[pc] += r->per_pc[pc];
	o->events += r->events;
	o->lanes += r->lanes;
	memset(r, 0, sizeof(*r));
	return 0;
}
static void ow_close(void *u, void *w)
{
	(void)u;
	free(w);
}

static void test_observer_want(void **state)
{
	(void)state;
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct obs_want all = { 0 }, some = { 0 };
		some.filter = 1;
		for (int pc = 0; pc < WANT_N; pc++)
			some.want[pc] = pc % 2 == 0;
		struct weft_ctx_stats st[2];
		struct obs_want *o[2] = { &all, &some };
		for (int k = 0; k < 2; k++) {
			struct weft_emu_observer ob = { .user = o[k], .warp_inst = ow_wi, .launch_want = ow_want,
							  .launch_counts = ow_counts };
			if (jobs > 1) {
				ob.worker_open = ow_open;
				ob.worker_cta_begin = ow_wcb;
				ob.worker_warp_inst = ow_wi;
				/* nothing to finish: a commit moves everything the
				 * recorder counted so far (the test checks totals) */
				ob.worker_cta_end = ow_wcb;
				ob.cta_commit = ow_commit;
				ob.worker_close = ow_close;
			}
			struct weft_ctx_options opt = { 0 };
			opt.observer = &ob;
			opt.jobs = jobs;
			uint32_t out[96];
			assert_int_equal(run_out(ifelse_ptx, 3, 32, out, 96, &opt, &st[k]), 0);
			assert_int_equal(o[k]->given, 1);
			/* the counts handed over are the launch's, filtered or not */
			assert_int_equal(o[k]->given_warp, st[k].warp_insts);
			assert_int_equal(o[k]->given_thread, st[k].thread_insts);
		}
		if (jobs > 1)
			assert_int_equal(st[1].parallel_launches, 1);
		/* unfiltered: every instruction; filtered: the wanted pcs and
		 * those past the wish list, each as often */
		assert_int_equal(all.events, st[0].warp_insts);
		assert_int_equal(all.lanes, st[0].thread_insts);
		assert_true(some.events < all.events);
		for (int pc = 0; pc < 64; pc++) {
			int wanted = pc >= WANT_N || some.want[pc];
			assert_int_equal(some.per_pc[pc], wanted ? all.per_pc[pc] : 0);
		}
	}
}

/* nvcc -O3 output of `if (i >= n) return; s[i] = a[i]; __syncthreads();
 * a[i] = s[(i+1)%n];`: the returning lanes branch to the kernel's shared
 * final `ret`; they must exit rather than wait there. */
static const char *early_ret_ptx =
	"\n"
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	"\n"
	" // .globl er\n"
	"\n"
	".visible .entry er(\n"
	" .param .u64 er_param_0,\n"
	" .param .u32 er_param_1\n"
	")\n"
	"{\n"
	" .reg .pred  %p<2>;\n"
	" .reg .f32  %f<3>;\n"
	" .reg .b32  %r<10>;\n"
	" .reg .b64  %rd<5>;\n"
	" // demoted variable\n"
	" .shared .align 4 .b8 _ZZ2erE1s[1024];\n"
	"\n"
	" ld.param.u64  %rd1, [er_param_0];\n"
	" ld.param.u32  %r2, [er_param_1];\n"
	" mov.u32  %r1, %tid.x;\n"
	" setp.ge.s32  %p1, %r1, %r2;\n"
	" @%p1 bra  $L__BB0_2;\n"
	"\n"
	" cvta.to.global.u64  %rd2, %rd1;\n"
	" mul.wide.s32  %rd3, %r1, 4;\n"
	" add.s64  %rd4, %rd2, %rd3;\n"
	" ld.global.f32  %f1, [%rd4];\n"
	" shl.b32  %r3, %r1, 2;\n"
	" mov.u32  %r4, _ZZ2erE1s;\n"
	" add.s32  %r5, %r4, %r3;\n"
	" st.shared.f32  [%r5], %f1;\n"
	" bar.sync  0;\n"
	" add.s32  %r6, %r1, 1;\n"
	" rem.s32  %r7, %r6, %r2;\n"
	" shl.b32  %r8, %r7, 2;\n"
	" add.s32  %r9, %r4, %r8;\n"
	" ld.shared.f32  %f2, [%r9];\n"
	" st.global.f32  [%rd4], %f2;\n"
	"\n"
	"$L__BB0_2:\n"
	" ret;\n"
	"\n"
	"}\n"
	"\n"
	"\n"
;

static void test_early_return_then_barrier(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(early_ret_ptx, &mod, NULL);
	assert_non_null(ctx);
	float a[64];
	for (int i = 0; i < 64; i++)
		a[i] = (float)i;
	uint64_t d;
	int n = 20;
	assert_int_equal(weft_malloc(ctx, sizeof(a), &d, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(ctx, d, a, sizeof(a), &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(d), WEFT_ARG(n) };
	int rc = weft_launch(ctx, mod, "er", weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), 0, args, 2, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, a, d, sizeof(a), &op_err), 0);
	for (int i = 0; i < 64; i++)
		assert_true(a[i] == (i < n ? (float)((i + 1) % n) : (float)i));
	weft_ctx_destroy(ctx);
}


/* nanosleep ends a warp's turn: with a huge quantum the spinning warp
 * still lets the other one run. */
static const char *sleep_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .u32 flag;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.lt.u32 %p1, %r1, 32;\n"
	"@%p1 bra WAIT;\n"
	"mov.u32 %r5, 9;\n"
	"st.volatile.shared.u32 [flag], %r5;\n"
	"bra OUT;\n"
	"WAIT: nanosleep.u32 100;\n"
	"ld.volatile.shared.u32 %r5, [flag];\n"
	"setp.eq.u32 %p3, %r5, 0;\n"
	"@%p3 bra WAIT;\n"
	"OUT: mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n"
	"ret;\n}\n";

static void test_nanosleep_yields(void **state)
{
	(void)state;
	uint32_t out[64];
	struct weft_ctx_options o = { 0 };
	o.max_thread_insts = 1000000;
	o.quantum = 100000000;
	int rc = run_out(sleep_ptx, 1, 64, out, 64, &o, NULL);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(out[i], 9);
}


/* Producer/consumer with a named barrier: warp 0 writes and bar.arrive's,
 * warp 1 bar.sync's (64 threads) and reads. */
static const char *arrive_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 buf[128];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"and.b32 %r2, %r1, 31;\n"
	"shl.b32 %r3, %r2, 2;\n"
	"mov.u32 %r4, buf;\n"
	"add.s32 %r4, %r4, %r3;\n"
	"setp.ge.u32 %p1, %r1, 32;\n"
	"@%p1 bra CONSUME;\n"
	"mul.lo.s32 %r5, %r1, 7;\n"
	"st.shared.u32 [%r4], %r5;\n"
	"bar.arrive 1, 64;\n"
	"mov.u32 %r6, 0;\n"
	"bra OUT;\n"
	"CONSUME: bar.sync 1, 64;\n"
	"ld.shared.u32 %r6, [%r4];\n"
	"OUT: mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r6;\n"
	"ret;\n}\n";

static void test_bar_arrive(void **state)
{
	(void)state;
	uint32_t out[64];
	/* warp 1 reaches its bar.sync first under quantum 1, or after warp 0 */
	for (uint32_t q = 1; q <= 64; q *= 64) {
		struct weft_ctx_options o = { 0 };
		o.quantum = q;
		int rc = run_out(arrive_ptx, 1, 64, out, 64, &o, NULL);
		if (rc)
			fprintf(stderr, "%s\n", op_err.message);
		assert_int_equal(rc, 0);
		for (uint32_t i = 0; i < 64; i++)
			assert_int_equal(out[i], i < 32 ? 0 : (i - 32) * 7);
	}
}


/* nvcc output of `if (i == 3) printf(...); assert(a[i] < n); a[i] += 1;`:
 * printf output is discarded, a failed assert stops the launch with its
 * message, file and line. */
static const char *printf_assert_ptx =
	"\n"
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	"\n"
	" // .globl pa\n"
	".extern .func  (.param .b32 func_retval0) vprintf\n"
	"(\n"
	" .param .b64 vprintf_param_0,\n"
	" .param .b64 vprintf_param_1\n"
	")\n"
	";\n"
	".extern .func __assertfail\n"
	"(\n"
	" .param .b64 __assertfail_param_0,\n"
	" .param .b64 __assertfail_param_1,\n"
	" .param .b32 __assertfail_param_2,\n"
	" .param .b64 __assertfail_param_3,\n"
	" .param .b64 __assertfail_param_4\n"
	")\n"
	";\n"
	".global .align 1 .b8 __unnamed_1[20] = {118, 111, 105, 100, 32, 112, 97, 40, 105, 110, 116, 32, 42, 44, 32, 105, 110, 116, 41};\n"
	".global .align 1 .b8 $str[10] = {104, 101, 108, 108, 111, 32, 37, 100, 10};\n"
	".global .align 1 .b8 $str$1[9] = {97, 91, 105, 93, 32, 60, 32, 110};\n"
	".global .align 1 .b8 $str$2[6] = {112, 97, 46, 99, 117};\n"
	"\n"
	".visible .entry pa(\n"
	" .param .u64 pa_param_0,\n"
	" .param .u32 pa_param_1\n"
	")\n"
	"{\n"
	" .local .align 8 .b8  __local_depot0[8];\n"
	" .reg .b64  %SP;\n"
	" .reg .b64  %SPL;\n"
	" .reg .pred  %p<3>;\n"
	" .reg .b32  %r<10>;\n"
	" .reg .b64  %rd<15>;\n"
	"\n"
	"\n"
	" mov.u64  %SPL, __local_depot0;\n"
	" cvta.local.u64  %SP, %SPL;\n"
	" ld.param.u64  %rd2, [pa_param_0];\n"
	" ld.param.u32  %r5, [pa_param_1];\n"
	" mov.u32  %r1, %tid.x;\n"
	" setp.ne.s32  %p1, %r1, 3;\n"
	" @%p1 bra  $L__BB0_2;\n"
	"\n"
	" add.u64  %rd3, %SP, 0;\n"
	" add.u64  %rd4, %SPL, 0;\n"
	" mov.u32  %r6, 3;\n"
	" st.local.u32  [%rd4], %r6;\n"
	" mov.u64  %rd5, $str;\n"
	" cvta.global.u64  %rd6, %rd5;\n"
	" { // callseq 0, 0\n"
	" .reg .b32 temp_param_reg;\n"
	" .param .b64 param0;\n"
	" st.param.b64  [param0+0], %rd6;\n"
	" .param .b64 param1;\n"
	" st.param.b64  [param1+0], %rd3;\n"
	" .param .b32 retval0;\n"
	" call.uni (retval0), \n"
	" vprintf, \n"
	" (\n"
	" param0, \n"
	" param1\n"
	" );\n"
	" ld.param.b32  %r7, [retval0+0];\n"
	" } // callseq 0\n"
	"\n"
	"$L__BB0_2:\n"
	" cvta.to.global.u64  %rd7, %rd2;\n"
	" mul.wide.s32  %rd8, %r1, 4;\n"
	" add.s64  %rd1, %rd7, %rd8;\n"
	" ld.global.u32  %r9, [%rd1];\n"
	" setp.lt.s32  %p2, %r9, %r5;\n"
	" @%p2 bra  $L__BB0_4;\n"
	"\n"
	" mov.u64  %rd9, $str$1;\n"
	" cvta.global.u64  %rd10, %rd9;\n"
	" mov.u64  %rd11, $str$2;\n"
	" cvta.global.u64  %rd12, %rd11;\n"
	" mov.u64  %rd13, __unnamed_1;\n"
	" cvta.global.u64  %rd14, %rd13;\n"
	" { // callseq 1, 0\n"
	" .reg .b32 temp_param_reg;\n"
	" .param .b64 param0;\n"
	" st.param.b64  [param0+0], %rd10;\n"
	" .param .b64 param1;\n"
	" st.param.b64  [param1+0], %rd12;\n"
	" .param .b32 param2;\n"
	" st.param.b32  [param2+0], 6;\n"
	" .param .b64 param3;\n"
	" st.param.b64  [param3+0], %rd14;\n"
	" .param .b64 param4;\n"
	" st.param.b64  [param4+0], 1;\n"
	" call.uni \n"
	" __assertfail, \n"
	" (\n"
	" param0, \n"
	" param1, \n"
	" param2, \n"
	" param3, \n"
	" param4\n"
	" );\n"
	" } // callseq 1\n"
	" ld.global.u32  %r9, [%rd1];\n"
	"\n"
	"$L__BB0_4:\n"
	" add.s32  %r8, %r9, 1;\n"
	" st.global.u32  [%rd1], %r8;\n"
	" ret;\n"
	"\n"
	"}\n"
	"\n"
	"\n"
;

/* Device printf's text, gathered by weft_ctx_options.print. */
struct printed {
	char text[8192];
	size_t n;
	int calls;
};

static void on_print(void *user, const char *text, size_t len)
{
	struct printed *p = user;
	assert_true(len <= WEFT_PRINTF_MAX_TEXT);
	if (len > sizeof(p->text) - 1 - p->n)
		len = sizeof(p->text) - 1 - p->n;
	memcpy(p->text + p->n, text, len);
	p->n += len;
	p->text[p->n] = 0;
	p->calls++;
}

static void test_printf_and_assert(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct printed pr = { { 0 }, 0, 0 };
	struct weft_ctx_options o = { 0 };
	o.print = on_print;
	o.print_user = &pr;
	struct weft_ctx *ctx = mod_load(printf_assert_ptx, &mod, &o);
	assert_non_null(ctx);
	int a[32];
	for (int i = 0; i < 32; i++)
		a[i] = i;
	uint64_t d;
	int n = 100;
	assert_int_equal(weft_malloc(ctx, sizeof(a), &d, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(ctx, d, a, sizeof(a), &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(d), WEFT_ARG(n) };
	int rc = weft_launch(ctx, mod, "pa", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 2, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, a, d, sizeof(a), &op_err), 0);
	for (int i = 0; i < 32; i++)
		assert_int_equal(a[i], i + 1);
	/* only thread 3 reaches printf("hello %d\n", 3) */
	assert_string_equal(pr.text, "hello 3\n");
	assert_int_equal(pr.calls, 1);
	n = 20;
	rc = weft_launch(ctx, mod, "pa", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "device-side assert failed: `a[i] < n` (pa.cu:6)"));
	assert_non_null(strstr(op_err.message, "thread (19,0,0)"));
	assert_string_equal(pr.text, "hello 3\nhello 3\n"); /* printed before the assert */
	weft_ctx_destroy(ctx);
}

/* A kernel calling vprintf(fmt, args) as nvcc does, with fmt a global
 * string and args a 24-byte local buffer holding the 64-bit values v[3];
 * printf's result is stored to out[0]. */
static char *printf_kernel(const char *fmt, const int64_t v[3])
{
	static char ptx[32768];
	size_t n = 0, len = strlen(fmt) + 1;
	n += (size_t)snprintf(ptx + n, sizeof(ptx) - n,
			      ".version 7.0\n.target sm_75\n.address_size 64\n"
			      ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 p0, .param .b64 p1);\n"
			      ".global .align 1 .b8 fmt[%zu] = {", len);
	for (size_t i = 0; i < len; i++)
		n += (size_t)snprintf(ptx + n, sizeof(ptx) - n, "%s%u", i ? ", " : "", (unsigned char)fmt[i]);
	n += (size_t)snprintf(ptx + n, sizeof(ptx) - n,
			      "};\n.visible .entry k(.param .u64 out)\n{\n"
			      " .local .align 8 .b8 depot[24];\n .reg .b64 %%SP, %%SPL, %%rd<8>;\n .reg .b32 %%r<2>;\n"
			      " mov.u64 %%SPL, depot;\n cvta.local.u64 %%SP, %%SPL;\n"
			      " mov.u64 %%rd1, %lld;\n st.local.u64 [%%SPL], %%rd1;\n"
			      " mov.u64 %%rd1, %lld;\n st.local.u64 [%%SPL+8], %%rd1;\n"
			      " mov.u64 %%rd1, %lld;\n st.local.u64 [%%SPL+16], %%rd1;\n"
			      " mov.u64 %%rd2, fmt;\n cvta.global.u64 %%rd3, %%rd2;\n"
			      " { .param .b64 param0; st.param.b64 [param0], %%rd3;\n"
			      "   .param .b64 param1; st.param.b64 [param1], %%SP;\n"
			      "   .param .b32 retval0;\n"
			      "   call.uni (retval0), vprintf, (param0, param1);\n"
			      "   ld.param.b32 %%r1, [retval0]; }\n"
			      " ld.param.u64 %%rd4, [out];\n cvta.to.global.u64 %%rd5, %%rd4;\n"
			      " st.global.u32 [%%rd5], %%r1;\n ret;\n}\n",
			      (long long)v[0], (long long)v[1], (long long)v[2]);
	return ptx;
}

static int run_printf(const char *fmt, const int64_t v[3], struct printed *pr, int *ret)
{
	struct weft_module *mod;
	struct weft_ctx_options o = { 0 };
	o.print = on_print;
	o.print_user = pr;
	memset(pr, 0, sizeof(*pr));
	struct weft_ctx *ctx = mod_load(printf_kernel(fmt, v), &mod, &o);
	assert_non_null(ctx);
	uint64_t d;
	assert_int_equal(weft_malloc(ctx, 4, &d, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(d) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 1, &op_err);
	*ret = -1;
	if (!rc)
		assert_int_equal(weft_memcpy_dtoh(ctx, ret, d, 4, &op_err), 0);
	weft_ctx_destroy(ctx);
	return rc;
}

/* The format string is the kernel's: %n writes nothing, what is not a
 * conversion weft rebuilds (positional arguments, '*', widths of more than
 * 3 digits, unknown letters, a lone '%') is copied as text, arguments are
 * read at their aligned offsets, a bad %s pointer faults, and a call's
 * text stops at WEFT_PRINTF_MAX_TEXT bytes. */
static void test_printf_hostile(void **state)
{
	(void)state;
	struct printed pr;
	int ret;
	/* %n takes the 8 bytes at 0 (and writes nothing), %zd those at 8, %d
	 * the 4 at 16 */
	const int64_t v[3] = { 0x4141414141414141, -5, 77 };
	assert_int_equal(run_printf("a%nb%5$d|%*d|%99999d|%zd|%%|%k|%d|end%", v, &pr, &ret), 0);
	assert_string_equal(pr.text, "ab%5$d|%*d|%99999d|-5|%|%k|77|end%");
	assert_int_equal(ret, 3);
	/* %c and %x: 4-byte arguments at 0 and 4; %s of NULL at 8 */
	const int64_t w[3] = { 'Q' | (int64_t)0xabc << 32, 0, 0 };
	assert_int_equal(run_printf("%c %x %s", w, &pr, &ret), 0);
	assert_string_equal(pr.text, "Q abc (null)");
	/* a %s pointer outside memory faults, naming the address */
	const int64_t bad[3] = { 0x10, 0, 0 };
	assert_int_equal(run_printf("[%s]", bad, &pr, &ret), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "0x10"));
	assert_int_equal(pr.calls, 0);
	/* 5 x 999 characters: cut at WEFT_PRINTF_MAX_TEXT, ending in "..." */
	const int64_t five[3] = { 1 | (int64_t)2 << 32, 3 | (int64_t)4 << 32, 5 };
	assert_int_equal(run_printf("%999d%999d%999d%999d%999d!", five, &pr, &ret), 0);
	assert_int_equal(pr.n, WEFT_PRINTF_MAX_TEXT);
	assert_int_equal(memcmp(pr.text + pr.n - 3, "...", 3), 0);
	assert_int_equal(ret, 5);
	/* arguments beyond the thread's local frame (the buffer, then the call's
	 * parameters): an out-of-bounds local load */
	assert_int_equal(run_printf("%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", v, &pr, &ret), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "out-of-bounds local load"));
}

/* 64 CTAs of one thread each print their %ctaid.x on 4 worker threads:
 * the text comes out in CTA order, as one thread prints it, because a
 * printing launch runs on one thread (emu_par.c); without a print handler
 * the same launch runs in parallel. */
static const char *printf_ctas_ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".extern .func (.param .b32 func_retval0) vprintf (.param .b64 p0, .param .b64 p1);\n"
	".global .align 1 .b8 fmt[4] = {37, 100, 59, 0};\n" /* "%d;" */
	".visible .entry k()\n{\n"
	" .local .align 8 .b8 depot[8];\n .reg .b64 %SP, %SPL, %rd<4>;\n .reg .b32 %r<2>;\n"
	" mov.u64 %SPL, depot;\n cvta.local.u64 %SP, %SPL;\n"
	" mov.u32 %r1, %ctaid.x;\n st.local.u32 [%SPL], %r1;\n"
	" mov.u64 %rd2, fmt;\n cvta.global.u64 %rd3, %rd2;\n"
	" { .param .b64 param0; st.param.b64 [param0], %rd3;\n"
	"   .param .b64 param1; st.param.b64 [param1], %SP;\n"
	"   .param .b32 retval0;\n"
	"   call.uni (retval0), vprintf, (param0, param1);\n }\n"
	" ret;\n}\n";

static void test_printf_cta_order(void **state)
{
	(void)state;
	for (int printing = 1; printing >= 0; printing--) {
		struct weft_module *mod;
		struct printed pr;
		memset(&pr, 0, sizeof(pr));
		struct weft_ctx_options o = { 0 };
		o.jobs = 4;
		if (printing) {
			o.print = on_print;
			o.print_user = &pr;
		}
		struct weft_ctx *ctx = mod_load(printf_ctas_ptx, &mod, &o);
		assert_non_null(ctx);
		int rc = weft_launch(ctx, mod, "k", weft_dim3(64, 1, 1), weft_dim3(1, 1, 1), 0, NULL, 0, &op_err);
		if (rc)
			fprintf(stderr, "%s\n", op_err.message);
		assert_int_equal(rc, 0);
		const struct weft_ctx_stats *st = weft_ctx_stats(ctx);
		assert_int_equal(st->ctas, 64);
		if (printing) {
			char want[512];
			size_t n = 0;
			for (int c = 0; c < 64; c++)
				n += (size_t)snprintf(want + n, sizeof(want) - n, "%d;", c);
			assert_string_equal(pr.text, want);
			assert_int_equal(pr.calls, 64);
			assert_int_equal(st->parallel_launches, 0);
		} else {
			assert_int_equal(pr.calls, 0);
			assert_int_equal(st->parallel_launches, 1);
		}
		weft_ctx_destroy(ctx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifelse_reconverges),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_divergent_loop),
		cmocka_unit_test(test_barrier_shared),
		cmocka_unit_test(test_partial_barrier),
		cmocka_unit_test(test_exited_threads_barrier),
		cmocka_unit_test(test_bar_red),
		cmocka_unit_test(test_spin_wait_progress),
		cmocka_unit_test(test_runaway_limit),
		cmocka_unit_test(test_trap),
		cmocka_unit_test(test_predication),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_observer_want),
		cmocka_unit_test(test_early_return_then_barrier),
		cmocka_unit_test(test_nanosleep_yields),
		cmocka_unit_test(test_bar_arrive),
		cmocka_unit_test(test_printf_and_assert),
		cmocka_unit_test(test_printf_hostile),
		cmocka_unit_test(test_printf_cta_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
