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

#include "cfg.h"
#include "emu.h"
#include "program.h"
#include "workload.h"

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
		cmocka_unit_test(test_class_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
