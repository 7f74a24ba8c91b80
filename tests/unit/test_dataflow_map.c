/*
 * test_dataflow_map.c - mapping dataflow graphs onto fabric units
 * (models/dataflow/map.h): replication of a small graph on the SGMF core's
 * 32/32/32/12 units, partitioning of a 40-compute-node graph into two
 * sub-kernels with the live values spilled, a loop split into init, body
 * and epilogue kernels with loop-carried spills and trip counts from
 * thread paths, and every bundled workload's kernels mapped without error
 * (vvadd small enough to replicate).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "models/dataflow/graph.h"
#include "models/dataflow/map.h"
#include "test_analysis_util.h"
#include "trace/launch/workload.h"

struct dm {
	struct weft_program *p;
	struct weft_dfg_analyses a;
	struct weft_dfg g;
	struct weft_dfg_map m;
};

static int dm_build(struct dm *t, struct weft_program *p, const struct weft_dfg_units *u,
		    const struct weft_trips *trips)
{
	struct weft_error err;
	weft_error_clear(&err);
	if (!p)
		return -1;
	t->p = p;
	if (!t->a.du.ud && weft_dfg_analyses_build(p, &t->a, &err)) {
		fprintf(stderr, "analyses: %s\n", err.message);
		return -1;
	}
	if (!t->g.nodes && weft_dfg_build(p, &t->a.dom, &t->a.du, &t->a.cdep, NULL, &t->g, &err)) {
		fprintf(stderr, "graph: %s\n", err.message);
		return -1;
	}
	weft_dfg_map_free(&t->m);
	if (weft_dfg_map_build(p, &t->g, &t->a.dom, &t->a.loops, trips, u, &t->m, &err)) {
		fprintf(stderr, "map: %s\n", err.message);
		return -1;
	}
	return 0;
}

static void dm_free(struct dm *t)
{
	weft_dfg_map_free(&t->m);
	weft_dfg_free(&t->g);
	weft_dfg_analyses_free(&t->a);
	weft_program_free(t->p);
	memset(t, 0, sizeof(*t));
}

static void dm_dump(const struct dm *t)
{
	char buf[4096];
	weft_dfg_map_format(&t->m, buf, sizeof(buf));
	fprintf(stderr, "%s", buf);
}

/* ---- replication ------------------------------------------------------------ */

/* 3 compute nodes, 1 integer divide, 1 store */
static const char five_ptx[] = PTX_HEAD
	".visible .entry five(.param .u64 out)\n{\n"
	" .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n"
	" add.u32 %r2, %r1, 1;\n"
	" mul.lo.u32 %r3, %r2, 3;\n"
	" add.u32 %r4, %r3, 7;\n"
	" div.s32 %r5, %r4, 5;\n"
	" st.global.u32 [%rd1], %r5;\n"
	" ret;\n}\n";

static void test_replication(void **state)
{
	(void)state;
	struct dm t = { 0 };
	struct weft_dfg_units u;
	weft_dfg_units_sgmf(&u);
	assert_int_equal(dm_build(&t, an_program(five_ptx, "five"), &u, NULL), 0);
	assert_int_equal(t.m.nkernels, 1);
	const struct weft_dfg_kernel *K = &t.m.kernels[0];
	assert_int_equal(K->role, WEFT_DFK_WHOLE);
	assert_int_equal(K->nnodes, 5);
	assert_int_equal(K->units[WEFT_DFU_COMPUTE], 3);
	assert_int_equal(K->units[WEFT_DFU_CONTROL], 0);
	assert_int_equal(K->units[WEFT_DFU_LDST], 1);
	assert_int_equal(K->units[WEFT_DFU_SPECIAL], 1);
	assert_int_equal(K->specials[WEFT_DFS_INT_DIV], 1);
	assert_int_equal(K->delay_units, 0); /* a chain: nothing to balance */
	/* min(32/3, 32/1, 12/1, 4 integer dividers / 1) */
	assert_int_equal(K->replicas, 4);
	assert_int_equal(t.m.whole_replicas, 4);
	assert_true(t.m.whole_fits);
	assert_true(K->util[WEFT_DFU_COMPUTE] > 0.374 && K->util[WEFT_DFU_COMPUTE] < 0.376);
	/* the timing model's lists */
	assert_int_equal(K->nldst, 1);
	assert_int_equal(K->ldst[0].mem, WEFT_DFM_STORE);
	assert_int_equal(K->ldst[0].pc, an_pc(t.p, WEFT_OP_ST, 0));
	assert_int_equal(K->ldst[0].bytes, 4);
	assert_int_equal(K->nspecial, 1);
	assert_int_equal(K->special[0].pc, an_pc(t.p, WEFT_OP_DIV, 0));
	assert_int_equal(K->critical_path, 5);
	assert_int_equal(K->ninit, 1);
	assert_int_equal(K->nconst, 5); /* param, 1, 3, 7, 5 */
	assert_int_equal(t.m.config_loads, 1);
	assert_int_equal(t.m.reconfigs, 0);

	/* only the total of special units counts: min(32/3, 32, 12) */
	memset(u.special, 0, sizeof(u.special));
	assert_int_equal(dm_build(&t, t.p, &u, NULL), 0);
	assert_int_equal(t.m.kernels[0].replicas, 10);
	/* capped */
	u.max_replicas = 2;
	assert_int_equal(dm_build(&t, t.p, &u, NULL), 0);
	assert_int_equal(t.m.kernels[0].replicas, 2);
	dm_free(&t);
}

/* ---- partitioning ----------------------------------------------------------- */

/* x = tid * 2; 38 adds chained from x; the last add also reads x: 40
 * compute nodes, and x lives across the whole chain */
static struct weft_program *chain40(void)
{
	static char text[8192];
	size_t n = (size_t)snprintf(text, sizeof(text),
				    PTX_HEAD ".visible .entry c40(.param .u64 out)\n{\n"
					     " .reg .b32 %%r<64>; .reg .b64 %%rd<2>;\n"
					     " ld.param.u64 %%rd1, [out];\n"
					     " mov.u32 %%r50, %%tid.x;\n"
					     " mul.lo.u32 %%r1, %%r50, 2;\n");
	for (int i = 2; i <= 39; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " add.u32 %%r%d, %%r%d, %d;\n", i, i - 1, i);
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      " add.u32 %%r40, %%r39, %%r1;\n"
			      " st.global.u32 [%%rd1], %%r40;\n ret;\n}\n");
	return an_program(text, "c40");
}

static void test_partition(void **state)
{
	(void)state;
	struct dm t = { 0 };
	assert_int_equal(dm_build(&t, chain40(), NULL, NULL), 0);
	assert_int_equal(t.g.units[WEFT_DFU_COMPUTE], 40);
	assert_false(t.m.whole_fits);
	assert_int_equal(t.m.whole_replicas, 0);
	assert_int_equal(t.m.nkernels, 2);
	assert_int_equal(t.m.partitioned, 1);
	const struct weft_dfg_kernel *A = &t.m.kernels[0], *B = &t.m.kernels[1];
	assert_int_equal(A->nparts, 2);
	assert_int_equal(B->part, 1);
	assert_int_equal(A->segment, B->segment);
	/* greedy in program order: the mul and 31 adds, then 8 adds and the store */
	assert_int_equal(A->units[WEFT_DFU_COMPUTE], 32);
	assert_int_equal(B->units[WEFT_DFU_COMPUTE], 8);
	/* live across the cut: x and the 31st add */
	assert_int_equal(A->spill_stores, 2);
	assert_int_equal(A->spill_loads, 0);
	assert_int_equal(B->spill_loads, 2);
	assert_int_equal(B->spill_stores, 0);
	assert_int_equal(A->units[WEFT_DFU_LDST], 2);
	assert_int_equal(B->units[WEFT_DFU_LDST], 3);
	assert_int_equal(t.m.spill_loads, 2);
	assert_int_equal(t.m.spill_stores, 2);
	uint32_t nst = 0, nld = 0;
	for (uint32_t i = 0; i < B->nldst; i++) {
		nld += B->ldst[i].mem == WEFT_DFM_SPILL_LOAD;
		nst += B->ldst[i].mem == WEFT_DFM_STORE;
		if (B->ldst[i].mem == WEFT_DFM_SPILL_LOAD)
			assert_int_equal(B->ldst[i].pc, WEFT_DFG_NONE);
	}
	assert_int_equal(nld, 2);
	assert_int_equal(nst, 1);
	/* paths: A = 32 nodes + its spill store; B = spill load, 8 adds, store */
	assert_int_equal(A->critical_path, 33);
	assert_int_equal(B->critical_path, 10);
	/* x arrives at 1 and waits for the 38th add (done at 8): 7 slots */
	assert_int_equal(B->delay_slots, 7);
	assert_int_equal(A->replicas, 1);
	assert_int_equal(B->replicas, 4); /* 8 compute: 32/8 */
	assert_int_equal(t.m.config_loads, 2);
	assert_int_equal(t.m.reconfigs, 1);
	dm_free(&t);
}

/* ---- loops ----------------------------------------------------------------- */

/* if (tid odd) r = 30 adds on tid else r = 30 xors on tid; store r: both
 * definitions of r reach one mux after the branch */
static struct weft_program *two_arms(void)
{
	static char text[8192];
	size_t n = (size_t)snprintf(text, sizeof(text),
				    PTX_HEAD ".visible .entry arms(.param .u64 out)\n{\n"
					     " .reg .pred %%p<2>; .reg .b32 %%r<80>; .reg .b64 %%rd<2>;\n"
					     " ld.param.u64 %%rd1, [out];\n"
					     " mov.u32 %%r1, %%tid.x;\n and.b32 %%r2, %%r1, 1;\n"
					     " setp.eq.u32 %%p1, %%r2, 0;\n mov.u32 %%r70, %%r1;\n"
					     " @%%p1 bra EVEN;\n");
	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " add.u32 %%r70, %%r70, %d;\n", i + 3);
	n += (size_t)snprintf(text + n, sizeof(text) - n, " bra DONE;\nEVEN:\n");
	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " xor.b32 %%r70, %%r70, %d;\n", i + 5);
	snprintf(text + n, sizeof(text) - n, "DONE:\n st.global.u32 [%%rd1], %%r70;\n ret;\n}\n");
	return an_program(text, "arms");
}

/* A mux cut from its definitions: each definition is stored, predicated,
 * into one shared slot (only the taken arm's store happens), so the mux's
 * sub-kernel loads one value for all of them, not one per definition. */
static void test_mux_slot(void **state)
{
	(void)state;
	struct dm t = { 0 };
	struct weft_dfg_units u;
	weft_dfg_units_sgmf(&u);
	u.n[WEFT_DFU_COMPUTE] = 24; /* neither arm fits beside the other */
	assert_int_equal(dm_build(&t, two_arms(), &u, NULL), 0);
	assert_true(t.m.nkernels >= 3);
	const struct weft_dfg_kernel *L = &t.m.kernels[t.m.nkernels - 1];
	uint32_t mux = 0, from_outside = 0, mux_node = 0;
	for (uint32_t i = 0; i < L->nnodes; i++) {
		const struct weft_dfg_node *nd = &t.g.nodes[L->nodes[i]];
		if (nd->kind != WEFT_DFN_MUX)
			continue;
		mux++;
		mux_node = L->nodes[i];
		for (uint32_t k = 0; k < nd->nin; k++) {
			uint32_t src = t.g.edges[nd->in_start + k].from;
			int member = 0;
			for (uint32_t j = 0; j < L->nnodes; j++)
				member |= L->nodes[j] == src;
			from_outside += !member && t.g.nodes[src].unit != WEFT_DFU_EDGE;
		}
	}
	if (mux != 1 || from_outside < 2)
		dm_dump(&t);
	assert_int_equal(mux, 1);
	/* its definitions (and their labels) come from earlier kernels ... */
	assert_true(from_outside >= 2);
	/* ... through one spill load naming the mux, none per definition */
	const struct weft_dfg_node *mx = &t.g.nodes[mux_node];
	uint32_t slot = 0, per_def = 0;
	for (uint32_t i = 0; i < L->nldst; i++) {
		if (L->ldst[i].mem != WEFT_DFM_SPILL_LOAD)
			continue;
		slot += L->ldst[i].node == mux_node;
		for (uint32_t k = 0; k < mx->nin; k++)
			per_def += L->ldst[i].node == t.g.edges[mx->in_start + k].from;
	}
	assert_int_equal(slot, 1);
	assert_int_equal(per_def, 0);
	dm_free(&t);
}

static const char loop_ptx[] = PTX_HEAD
	".visible .entry lp(.param .u32 n, .param .u64 in, .param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<6>;\n"
	" ld.param.u32 %r1, [n];\n"
	" ld.param.u64 %rd1, [in];\n"
	" ld.param.u64 %rd2, [out];\n"
	" mov.u32 %r9, %tid.x;\n"
	" mul.lo.u32 %r2, %r9, 2;\n"      /* init: i = 2 tid */
	" mov.u32 %r3, 0;\n"              /* sum = 0 (a constant) */
	"L:\n"
	" mul.wide.u32 %rd3, %r2, 4;\n"
	" add.s64 %rd4, %rd1, %rd3;\n"
	" ld.global.u32 %r4, [%rd4];\n"
	" add.u32 %r3, %r3, %r4;\n"
	" add.u32 %r2, %r2, 1;\n"
	" setp.lt.u32 %p1, %r2, %r1;\n"
	" @%p1 bra L;\n"
	" st.global.u32 [%rd2], %r3;\n"   /* epilogue */
	" ret;\n}\n";

static void test_loop_split(void **state)
{
	(void)state;
	struct dm t = { 0 };
	struct weft_program *p = an_program(loop_ptx, "lp");
	assert_non_null(p);
	struct weft_error err;
	assert_int_equal(weft_dfg_analyses_build(p, &t.a, &err), 0);
	/* two threads: 3 and 1 iterations */
	uint32_t H = p->block_of[an_pc(p, WEFT_OP_LD, 3)], E = p->block_of[an_pc(p, WEFT_OP_ST, 0)];
	uint32_t path0[] = { 0, H, H, H, E }, path1[] = { 0, H, E };
	struct weft_trips tr;
	assert_int_equal(weft_trips_init(&tr, &t.a.loops, &err), 0);
	weft_trips_cta_begin(&tr);
	weft_trips_add_path(&tr, path0, 5);
	weft_trips_add_path(&tr, path1, 3);
	weft_trips_cta_end(&tr);
	assert_int_equal(dm_build(&t, p, NULL, &tr), 0);
	if (t.m.nkernels != 3)
		dm_dump(&t);
	assert_int_equal(t.m.nkernels, 3);
	assert_int_equal(t.m.nsegments, 3);
	const struct weft_dfg_kernel *I = &t.m.kernels[0], *B = &t.m.kernels[1], *X = &t.m.kernels[2];
	assert_int_equal(I->role, WEFT_DFK_INIT);
	assert_int_equal(B->role, WEFT_DFK_BODY);
	assert_int_equal(X->role, WEFT_DFK_EPILOGUE);
	assert_int_equal(B->loop, 0);
	assert_int_equal(I->loop, WEFT_NO_LOOP);
	/* init: the mul, its value stored for the body */
	assert_int_equal(I->units[WEFT_DFU_COMPUTE], 1);
	assert_int_equal(I->spill_stores, 1);
	/* body, one configuration: i's initial value is loaded once per entry;
	 * around the back edge i, sum and the loop condition travel as tokens
	 * (no spill); sum is stored for the epilogue */
	if (B->spill_loads != 1 || B->spill_stores != 1)
		dm_dump(&t);
	assert_int_equal(B->spill_loads, 1);
	assert_int_equal(B->spill_stores, 1);
	assert_int_equal(B->units[WEFT_DFU_COMPUTE], 5); /* mul.wide, add.s64, 2 adds, setp */
	assert_int_equal(B->units[WEFT_DFU_CONTROL], 4); /* label, branch, mux i, mux sum */
	assert_int_equal(B->units[WEFT_DFU_LDST], 1 + 1 + 1);
	/* epilogue: sum loaded, then stored to memory */
	assert_int_equal(X->spill_loads, 1);
	assert_int_equal(X->spill_stores, 0);
	assert_int_equal(X->units[WEFT_DFU_LDST], 2);
	/* trip counts per thread */
	assert_true(B->has_trips);
	assert_int_equal(B->trip_entries, 2);
	assert_int_equal(B->trip_visits, 4);
	assert_int_equal(B->trip_min, 1);
	assert_int_equal(B->trip_max, 3);
	assert_true(B->trip_mean > 1.99 && B->trip_mean < 2.01);
	assert_int_equal(B->reps, 3);
	assert_false(I->has_trips);
	assert_int_equal(I->reps, 1);
	/* one configuration each; the body stays loaded across iterations */
	assert_int_equal(t.m.config_loads, 3);
	assert_int_equal(t.m.reconfigs, 2);
	assert_int_equal(t.m.spill_loads, 2);
	assert_int_equal(t.m.spill_stores, 2);
	/* per thread: the body runs 3 times for thread 0, once for thread 1 */
	uint64_t it[3];
	weft_dfg_map_thread_iters(&t.m, &t.a.loops, path0, 5, it);
	assert_int_equal(it[0], 1);
	assert_int_equal(it[1], 3);
	assert_int_equal(it[2], 1);
	weft_dfg_map_thread_iters(&t.m, &t.a.loops, path1, 3, it);
	assert_int_equal(it[1], 1);

	/* a body cut in two reloads both parts every iteration */
	struct weft_dfg_units u;
	weft_dfg_units_sgmf(&u);
	u.n[WEFT_DFU_COMPUTE] = 3;
	assert_int_equal(dm_build(&t, p, &u, &tr), 0);
	uint32_t body_parts = 0;
	for (uint32_t k = 0; k < t.m.nkernels; k++)
		body_parts += t.m.kernels[k].role == WEFT_DFK_BODY;
	assert_int_equal(body_parts, 2);
	assert_int_equal(t.m.config_loads, 1 + 2 * 3 + 1);
	/* ... and its loop-carried values go through memory: more spills than
	 * the one-configuration body's */
	assert_true(t.m.spill_loads > 2 + 3 && t.m.spill_stores > 2 + 2);

	/* loops kept whole: one configuration, no loop-carried spills */
	weft_dfg_units_sgmf(&u);
	u.split_loops = 0;
	assert_int_equal(dm_build(&t, p, &u, &tr), 0);
	assert_int_equal(t.m.nkernels, 1);
	assert_int_equal(t.m.kernels[0].role, WEFT_DFK_WHOLE);
	assert_int_equal(t.m.spill_loads, 0);
	assert_int_equal(t.m.spill_stores, 0);
	weft_trips_free(&tr);
	dm_free(&t);
}

static void test_bad_units(void **state)
{
	(void)state;
	struct dm t = { 0 };
	struct weft_dfg_units u;
	weft_dfg_units_sgmf(&u);
	u.n[WEFT_DFU_SPECIAL] = 0;
	struct weft_program *p = an_program(five_ptx, "five");
	struct weft_error err;
	assert_int_equal(weft_dfg_analyses_build(p, &t.a, &err), 0);
	assert_int_equal(weft_dfg_build(p, &t.a.dom, &t.a.du, &t.a.cdep, NULL, &t.g, &err), 0);
	assert_int_equal(weft_dfg_map_build(p, &t.g, &t.a.dom, &t.a.loops, NULL, &u, &t.m, &err),
			 WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "special"));
	t.p = p;
	dm_free(&t);
}

/* ---- bundled workloads --------------------------------------------------------- */

static void test_workloads(void **state)
{
	(void)state;
	int saw_vvadd = 0;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++) {
		struct weft_error err;
		weft_error_clear(&err);
		struct weft_ctx *ctx = weft_ctx_create(NULL);
		struct weft_module *mod = NULL;
		assert_non_null(ctx);
		if (weft_module_load_text(ctx, (*w)->ptx_text, strlen((*w)->ptx_text), (*w)->ptx_name, &mod,
					  &err)) {
			fprintf(stderr, "%s: %s\n", (*w)->name, err.message);
			fail();
		}
		const struct weft_ptx_module *pm = weft_module_ptx(mod);
		for (uint32_t f = 0; f < pm->nfuncs; f++) {
			if (!pm->funcs[f].is_entry)
				continue;
			struct weft_program *p = NULL;
			assert_int_equal(weft_module_program(mod, f, &p, &err), 0);
			struct dm t = { 0 };
			if (dm_build(&t, p, NULL, NULL)) {
				fprintf(stderr, "%s/%s failed\n", (*w)->name, pm->funcs[f].name);
				fail();
			}
			assert_true(t.m.nkernels >= 1);
			for (uint32_t k = 0; k < t.m.nkernels; k++) {
				const struct weft_dfg_kernel *K = &t.m.kernels[k];
				assert_true(K->replicas >= 1);
				for (unsigned u = 0; u < WEFT_DFU_COUNT; u++)
					assert_true(K->units[u] <= t.m.units.n[u]);
				for (uint32_t i = 0; i < K->nldst; i++)
					if (K->ldst[i].pc != WEFT_DFG_NONE)
						assert_true(p->info[K->ldst[i].pc].flags & WEFT_II_ADDR);
				assert_true(K->critical_path >= 1);
			}
			if (!strcmp((*w)->name, "vvadd")) {
				saw_vvadd = 1;
				assert_true(t.m.whole_fits);
				assert_int_equal(t.m.nkernels, 1);
				assert_true(t.m.kernels[0].replicas >= 2);
				assert_int_equal(t.m.kernels[0].nldst, 3);
			}
			dm_free(&t);
		}
		weft_ctx_destroy(ctx);
	}
	assert_true(saw_vvadd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replication),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_mux_slot),
		cmocka_unit_test(test_loop_split),
		cmocka_unit_test(test_bad_units),
		cmocka_unit_test(test_workloads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
