/*
 * test_trace_program.c - the static program (program.h) and the shared
 * post-dominator code (cfg.h): hand-built CFGs with known (post-)dominators
 * (diamond, loop with a backward branch, nested divergence, early exit, an
 * infinite loop), and for every kernel of every bundled workload: blocks and
 * reconvergence points agree with the emulator's lowered program, and the
 * derived per-instruction facts are consistent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/ptx/cfg.h"
#include "trace/emu/emu.h"
#include "trace/ptx/program.h"
#include "trace/format/trace.h"
#include "trace_testutil.h"
#include "trace/launch/workload.h"
#include <unistd.h>

/* CSR from an edge list; edges to n mean "to the virtual exit". */
static void csr(uint32_t n, const uint32_t (*e)[2], uint32_t ne, uint32_t *start, uint32_t *adj)
{
	uint32_t k = 0;
	for (uint32_t b = 0; b < n; b++) {
		start[b] = k;
		for (uint32_t i = 0; i < ne; i++)
			if (e[i][0] == b)
				adj[k++] = e[i][1];
	}
	start[n] = k;
}

static void test_cfg_diamond(void **state)
{
	(void)state;
	/* 0 -> 1, 2; 1 -> 3; 2 -> 3; 3 -> exit */
	const uint32_t e[][2] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } };
	uint32_t start[5], adj[8], ip[4], id[4];
	csr(4, e, 4, start, adj);
	assert_int_equal(weft_cfg_ipdom(4, start, adj, ip, NULL), 0);
	assert_int_equal(ip[0], 3);
	assert_int_equal(ip[1], 3);
	assert_int_equal(ip[2], 3);
	assert_int_equal(ip[3], 4); /* virtual exit */
	assert_int_equal(weft_cfg_idom(4, 0, start, adj, id, NULL), 0);
	assert_int_equal(id[0], 0);
	assert_int_equal(id[1], 0);
	assert_int_equal(id[2], 0);
	assert_int_equal(id[3], 0);
}

static void test_cfg_loop_nested(void **state)
{
	(void)state;
	/* 0 -> 1; 1 (loop head) -> 2, 6; 2 -> 3, 4 (nested if); 3 -> 5;
	 * 4 -> 5, exit (early exit); 5 -> 1 (backward); 6 -> exit */
	const uint32_t e[][2] = { { 0, 1 }, { 1, 2 }, { 1, 6 }, { 2, 3 }, { 2, 4 }, { 3, 5 },
				  { 4, 5 }, { 4, 7 }, { 5, 1 }, { 6, 7 } };
	uint32_t start[8], adj[16], ip[7], id[7];
	csr(7, e, 10, start, adj);
	assert_int_equal(weft_cfg_ipdom(7, start, adj, ip, NULL), 0);
	assert_int_equal(ip[0], 1);
	assert_int_equal(ip[1], 7); /* the early exit: only the exit post-dominates */
	assert_int_equal(ip[2], 7);
	assert_int_equal(ip[3], 5);
	assert_int_equal(ip[4], 7);
	assert_int_equal(ip[5], 1);
	assert_int_equal(ip[6], 7);
	assert_int_equal(weft_cfg_idom(7, 0, start, adj, id, NULL), 0);
	assert_int_equal(id[5], 2);
	assert_int_equal(id[6], 1);
	assert_int_equal(id[3], 2);
}

static void test_cfg_infinite(void **state)
{
	(void)state;
	/* 0 -> 1, 2; 1 -> 1 (spins forever); 2 -> exit: 1 never reaches the exit */
	const uint32_t e[][2] = { { 0, 1 }, { 0, 2 }, { 1, 1 }, { 2, 3 } };
	uint32_t start[4], adj[8], ip[3];
	csr(3, e, 4, start, adj);
	assert_int_equal(weft_cfg_ipdom(3, start, adj, ip, NULL), 0);
	assert_int_equal(ip[1], WEFT_CFG_NONE);
	assert_int_equal(ip[0], 2);
	assert_int_equal(ip[2], 3);
}

static void check_kernel(struct weft_module *mod, uint32_t k, const char *wl)
{
	struct weft_error err;
	struct weft_program *p;
	const struct weft_emu_prog *ep;
	int rc = weft_module_program(mod, k, &p, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", wl, err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(weft_emu_program(mod, k, &ep, &err), 0);
	assert_int_equal(p->ninsts, ep->ninsts);
	assert_int_equal(p->nblocks, ep->nblocks);
	for (uint32_t i = 0; i < p->ninsts; i++) {
		const struct weft_emu_inst *ei = &ep->insts[i];
		assert_int_equal(p->block_of[i], ei->block);
		const struct weft_block *B = &p->blocks[p->block_of[i]];
		assert_true(i >= B->first && i < B->first + B->count);
		if (ei->kind == WEFT_EK_BRA) {
			uint32_t ip = B->ipdom;
			uint32_t r = ip == WEFT_NO_BLOCK ? WEFT_EMU_NO_PC : p->blocks[ip].first;
			if (r != ei->reconv)
				fprintf(stderr, "%s pc %u: reconv %u vs emulator %u\n", wl, i, r, ei->reconv);
			assert_int_equal(r, ei->reconv);
			assert_int_equal(i, B->first + B->count - 1);
		}
		assert_int_equal(!!(p->info[i].flags & WEFT_II_ADDR), !!ei->has_addr);
		char buf[256];
		weft_program_format_inst(p, i, buf, sizeof(buf));
		assert_true(buf[0] != 0);
		assert_null(strstr(buf, "%?"));
	}
	for (uint32_t b = 0; b < p->nblocks; b++) {
		const struct weft_block *B = &p->blocks[b];
		assert_true(B->count > 0);
		for (uint32_t j = 0; j < B->nsucc; j++)
			assert_true(B->succ[j] < p->nblocks);
		if (B->nsucc == 2)
			assert_int_equal(B->succ[0], b + 1);
	}
	weft_program_free(p);
}

static void test_workload_programs(void **state)
{
	(void)state;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++) {
		struct weft_ctx *ctx = weft_ctx_create(NULL);
		struct weft_module *mod;
		struct weft_error err;
		int rc = weft_module_load_text(ctx, (*w)->ptx_text, strlen((*w)->ptx_text), (*w)->ptx_name,
					       &mod, &err);
		assert_int_equal(rc, 0);
		const struct weft_ptx_module *m = weft_module_ptx(mod);
		for (uint32_t k = 0; k < m->nfuncs; k++)
			if (m->funcs[k].is_entry)
				check_kernel(mod, k, (*w)->name);
		weft_ctx_destroy(ctx);
	}
}

/* A kernel calling a .func twice (once guarded) whose body returns early:
 * the linker inlines both, turning the callee's rets into branches and the
 * guarded call into a branch around the body. */
static const char call_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".func (.param .b32 rv) clampadd(.param .b32 a, .param .b32 b)\n{\n"
	".reg .b32 %r<6>;\n.reg .pred %p<2>;\n"
	"ld.param.b32 %r1, [a];\nld.param.b32 %r2, [b];\nadd.s32 %r3, %r1, %r2;\n"
	"setp.gt.s32 %p1, %r3, 100;\n@%p1 bra BIG;\nst.param.b32 [rv], %r3;\nret;\n"
	"BIG:\nmov.b32 %r4, 100;\nst.param.b32 [rv], %r4;\nret;\n}\n"
	".visible .entry callk(.param .u64 pout)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<5>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [pout];\ncvta.to.global.u64 %rd1, %rd1;\n"
	"mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 7;\nmov.u32 %r5, 0;\n"
	"{\n.param .b32 pa;\n.param .b32 pb;\n.param .b32 pr;\n"
	"st.param.b32 [pa], %r1;\nst.param.b32 [pb], %r2;\n"
	"call.uni (pr), clampadd, (pa, pb);\nld.param.b32 %r3, [pr];\n}\n"
	"and.b32 %r4, %r1, 1;\nsetp.eq.s32 %p1, %r4, 1;\n"
	"{\n.param .b32 pa2;\n.param .b32 pb2;\n.param .b32 pr2;\n"
	"st.param.b32 [pa2], %r3;\nst.param.b32 [pb2], %r1;\n"
	"@%p1 call.uni (pr2), clampadd, (pa2, pb2);\nld.param.b32 %r5, [pr2];\n}\n"
	"add.s32 %r6, %r3, %r5;\n"
	"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

static void test_inlined_calls(void **state)
{
	(void)state;
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	struct weft_module *mod;
	struct weft_error err;
	int rc = weft_module_load_text(ctx, call_ptx, strlen(call_ptx), "call.ptx", &mod, &err);
	if (rc)
		fprintf(stderr, "%s\n", err.message);
	assert_int_equal(rc, 0);
	int k = weft_ptx_find_func(weft_module_ptx(mod), "callk");
	assert_true(k >= 0);
	check_kernel(mod, (uint32_t)k, "call.ptx");
	struct weft_program *p;
	assert_int_equal(weft_module_program(mod, (uint32_t)k, &p, &err), 0);
	/* callee registers are named after their function */
	int callee = 0, nbra = 0;
	for (uint32_t r = 0; r < p->nregs; r++)
		if (p->reg_names[r] && strncmp(p->reg_names[r], "clampadd:%r", 11) == 0)
			callee = 1;
	assert_true(callee);
	/* every branch, synthesised ones included, names its target */
	for (uint32_t i = 0; i < p->ninsts; i++) {
		if (p->insts[i].op != WEFT_OP_BRA)
			continue;
		nbra++;
		char buf[128];
		weft_program_format_inst(p, i, buf, sizeof(buf));
		assert_non_null(strstr(buf, "BB"));
	}
	assert_true(nbra >= 4); /* 2 x (callee branch + early ret) + the guarded call's skip */
	assert_string_equal(p->kernel, "callk");
	weft_program_free(p);
	weft_ctx_destroy(ctx);

	/* and a trace of it reproduces the emulator's streams */
	char path[] = "/tmp/weft-call-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 0, &w, &err), 0);
	struct rec r;
	memset(&r, 0, sizeof(r));
	r.w = weft_trace_writer_observer(w);
	struct weft_emu_observer obs = rec_observer(&r);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &obs;
	ctx = weft_ctx_create(&o);
	assert_int_equal(weft_module_load_text(ctx, call_ptx, strlen(call_ptx), "call.ptx", &mod, &err), 0);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 4 * 64, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "callk", weft_dim3(2, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &err), 0);
	uint32_t res[64];
	assert_int_equal(weft_memcpy_dtoh(ctx, res, out, sizeof(res), &err), 0);
	for (uint32_t t = 0; t < 32; t++) { /* both CTAs: tid.x 0..31 */
		uint32_t a = t + 7 * t > 100 ? 100 : t + 7 * t;
		uint32_t b = (t & 1) ? (a + t > 100 ? 100 : a + t) : 0;
		assert_int_equal(res[t], a + b);
		assert_int_equal(res[32 + t], 0); /* out is indexed by tid.x only */
	}
	assert_int_equal(weft_trace_writer_commit(w, &err), 0);
	assert_int_equal(rec_check_trace("call.ptx", &r, path), 0);
	assert_int_equal(weft_trace_verify(path, &err), 0);
	weft_ctx_destroy(ctx);
	rec_free(&r);
	unlink(path);
}

static void test_class_names(void **state)
{
	(void)state;
	assert_string_equal(weft_inst_class_name(WEFT_IC_LOAD), "load");
	assert_string_equal(weft_inst_class_name(WEFT_IC_COUNT), "?");
	for (int c = 0; c < WEFT_IC_COUNT; c++)
		assert_string_not_equal(weft_inst_class_name((enum weft_inst_class)c), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_diamond),
		cmocka_unit_test(test_cfg_loop_nested),
		cmocka_unit_test(test_cfg_infinite),
		cmocka_unit_test(test_workload_programs),
		cmocka_unit_test(test_inlined_calls),
		cmocka_unit_test(test_class_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
