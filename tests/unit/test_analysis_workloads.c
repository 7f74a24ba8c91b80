/*
 * test_analysis_workloads.c - the analyses on bundled workloads: vvadd's
 * global accesses are affine unit-stride; bsearch's loop diverges and its
 * trip counts (measured on the emulated threads' block paths) vary; the
 * trip count of matmul's shared-tile loop is the same for every thread.
 * The Maven-study workloads keep the shapes they were written to have:
 * bsearch_cmv's search loop is one block of selects whose only divergence is
 * its exit; viterbi's step loop runs the same trip count in every warp while
 * a branch inside it diverges (lanes 0-3 fill the branch-metric table);
 * rsort's histogram kernel counts in its per-thread loop and sums with
 * shared and global atomics.
 *
 * Thread paths come from an emulator observer: a lane that reaches the
 * first instruction of a block (executed or predicated off) enters it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "trace/emu/host.h"
#include "test_analysis_util.h"
#include "trace/launch/workload.h"
#include "trace/launch/workload_run.h"

struct paths {
	struct an_all a;
	int have;
	uint32_t nthreads;     /* per CTA */
	uint32_t **path;       /* [nthreads] */
	uint32_t *len, *cap;
	struct weft_trips trips;
	uint64_t ctas;
};

static int on_launch(void *user, const struct weft_module *mod, uint32_t kernel,
		     struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		     struct weft_error *err)
{
	(void)grid, (void)dyn_shared;
	struct paths *s = user;
	if (s->have) /* the tests below look at the first launch only */
		return 0;
	struct weft_program *p = NULL;
	int rc = weft_module_program((struct weft_module *)mod, kernel, &p, err);
	if (rc)
		return rc;
	if (an_build(&s->a, p))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "analysis failed");
	if (weft_trips_init(&s->trips, &s->a.loops, err))
		return WEFT_ERR_NOMEM;
	s->nthreads = block.x * block.y * block.z;
	s->path = calloc(s->nthreads, sizeof(*s->path));
	s->len = calloc(s->nthreads, sizeof(*s->len));
	s->cap = calloc(s->nthreads, sizeof(*s->cap));
	s->have = 1;
	return 0;
}

static int on_launch_end(void *user, struct weft_error *err)
{
	(void)err;
	struct paths *s = user;
	s->have = s->have ? 2 : 0;
	return 0;
}

static int on_cta_end(void *user, uint32_t cta, struct weft_error *err)
{
	(void)cta, (void)err;
	struct paths *s = user;
	if (s->have != 1)
		return 0;
	weft_trips_cta_begin(&s->trips);
	for (uint32_t t = 0; t < s->nthreads; t++) {
		weft_trips_add_path(&s->trips, s->path[t], s->len[t]);
		s->len[t] = 0;
	}
	weft_trips_cta_end(&s->trips);
	s->ctas++;
	return 0;
}

static int on_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct paths *s = user;
	if (s->have != 1)
		return 0;
	const struct weft_program *p = s->a.p;
	uint32_t b = p->block_of[ev->pc];
	if (p->blocks[b].first != ev->pc)
		return 0;
	uint32_t lanes = ev->active | ev->guard_false;
	for (uint32_t l = 0; l < 32; l++) {
		if (!(lanes >> l & 1))
			continue;
		uint32_t t = ev->warp * 32 + l;
		if (t >= s->nthreads)
			return weft_error_set(err, WEFT_ERR_INTERNAL, "lane outside the CTA");
		if (s->len[t] == s->cap[t]) {
			s->cap[t] = s->cap[t] ? 2 * s->cap[t] : 64;
			s->path[t] = realloc(s->path[t], s->cap[t] * sizeof(uint32_t));
			if (!s->path[t])
				return WEFT_ERR_NOMEM;
		}
		s->path[t][s->len[t]++] = b;
	}
	return 0;
}

static void run_workload(const char *name, struct paths *s)
{
	memset(s, 0, sizeof(*s));
	struct weft_emu_observer obs = { .user = s, .launch_begin = on_launch,
					 .launch_end = on_launch_end, .cta_end = on_cta_end,
					 .warp_inst = on_inst };
	struct weft_ctx_options o = { .observer = &obs };
	struct weft_ctx *ctx = weft_ctx_create(&o);
	assert_non_null(ctx);
	struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
	struct weft_workload_result res;
	struct weft_error err;
	int rc = weft_workload_run(weft_workload_find(name), ctx, &ro, &res, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(s->have, 2);
	weft_ctx_destroy(ctx);
}

static void paths_free(struct paths *s)
{
	for (uint32_t t = 0; t < s->nthreads; t++)
		free(s->path[t]);
	free(s->path), free(s->len), free(s->cap);
	weft_trips_free(&s->trips);
	an_free(&s->a);
}

static void test_vvadd(void **state)
{
	(void)state;
	struct paths s;
	run_workload("vvadd", &s);
	unsigned nglobal = 0;
	for (uint32_t pc = 0; pc < s.a.p->ninsts; pc++) {
		const struct weft_uinst *u = &s.a.u.inst[pc];
		if (!u->is_mem || s.a.p->insts[pc].space != WEFT_SPACE_GLOBAL)
			continue;
		nglobal++;
		if (!u->unit_stride)
			an_dump(&s.a);
		assert_int_equal(u->addr_cls, WEFT_UC_AFFINE);
		assert_int_equal(u->addr_stride[0], 4);
		assert_true(u->unit_stride);
	}
	assert_int_equal(nglobal, 3); /* two loads, one store */
	assert_int_equal(s.a.loops.nloops, 0);
	paths_free(&s);
}

static void test_bsearch(void **state)
{
	(void)state;
	struct paths s;
	run_workload("bsearch", &s);
	assert_int_equal(s.a.loops.nloops, 1);
	assert_true(s.a.u.loop_divergent[0]);
	const struct weft_trip_stat *t = &s.trips.stat[0];
	assert_true(t->entries > 0);
	assert_true(t->min < t->max);
	assert_true(t->ctas_varying > 0);
	/* a binary search over 1000 keys visits the header at most
	 * ceil(log2(1001)) + 1 = 11 times */
	assert_true(t->max <= 11);
	paths_free(&s);
}

/* the number of instructions with opcode op in block b */
static unsigned ops_in_block(const struct weft_program *p, uint32_t b, int op)
{
	unsigned n = 0;
	for (uint32_t pc = p->blocks[b].first; pc < p->ninsts && p->block_of[pc] == b; pc++)
		n += p->insts[pc].op == op;
	return n;
}

static void test_bsearch_cmv(void **state)
{
	(void)state;
	struct paths s;
	run_workload("bsearch_cmv", &s);
	assert_int_equal(s.a.loops.nloops, 1);
	const struct weft_loop *l = &s.a.loops.loops[0];
	/* no branch inside the body: the loop is a single block, its latch */
	assert_int_equal(l->nblocks, 1);
	assert_true(ops_in_block(s.a.p, l->header, WEFT_OP_SELP) >= 3);
	assert_int_equal(ops_in_block(s.a.p, l->header, WEFT_OP_BRA), 1);
	/* the exit still depends on the data */
	assert_true(s.a.u.loop_divergent[0]);
	const struct weft_trip_stat *t = &s.trips.stat[0];
	assert_true(t->entries > 0);
	assert_true(t->min < t->max);
	assert_true(t->ctas_varying > 0);
	/* no early exit on a hit, so a hit still moves lo past hi: at most
	 * ceil(log2(1001)) = 10 iterations over 1000 keys */
	assert_true(t->max <= 10);
	paths_free(&s);
}

static void test_viterbi(void **state)
{
	(void)state;
	struct paths s;
	run_workload("viterbi", &s); /* the first launch: viterbi_acs */
	/* the step loop: the one holding the second bar.warp.sync (the first
	 * orders the initial metrics) */
	uint32_t bar = an_pc(s.a.p, WEFT_OP_BAR_WARP, 1);
	assert_int_not_equal(bar, UINT32_MAX);
	uint32_t li = s.a.loops.innermost[s.a.p->block_of[bar]];
	assert_int_not_equal(li, WEFT_NO_LOOP);
	assert_false(s.a.u.loop_divergent[li]);
	const struct weft_trip_stat *t = &s.trips.stat[li];
	assert_true(t->entries > 0);
	assert_int_equal(t->min, t->max);
	assert_int_equal(t->ctas_varying, 0);
	const struct weft_loop *l = &s.a.loops.loops[li];
	unsigned divergent = 0, shared_loads = 0;
	for (uint32_t i = 0; i < l->nblocks; i++)
		divergent += s.a.u.block_divergent[l->blocks[i]];
	for (uint32_t pc = 0; pc < s.a.p->ninsts; pc++)
		if (weft_loop_contains(&s.a.loops, li, s.a.p->block_of[pc]) &&
		    s.a.p->insts[pc].op == WEFT_OP_LD &&
		    s.a.p->insts[pc].space == WEFT_SPACE_SHARED)
			shared_loads++;
	assert_true(divergent > 0);
	/* per step: two path metrics and two branch-metric table lookups */
	assert_true(shared_loads >= 4);
	paths_free(&s);
}

static void test_rsort(void **state)
{
	(void)state;
	struct paths s;
	run_workload("rsort", &s); /* the first launch: rsort_hist */
	unsigned shared_atoms = 0, global_atoms = 0;
	for (uint32_t pc = 0; pc < s.a.p->ninsts; pc++) {
		const struct weft_inst *in = &s.a.p->insts[pc];
		if (in->op != WEFT_OP_ATOM && in->op != WEFT_OP_RED)
			continue;
		shared_atoms += in->space == WEFT_SPACE_SHARED;
		global_atoms += in->space == WEFT_SPACE_GLOBAL;
	}
	assert_true(shared_atoms > 0);
	assert_true(global_atoms > 0);
	assert_true(s.a.loops.nloops >= 1);
	paths_free(&s);
}

static void test_matmul(void **state)
{
	(void)state;
	struct paths s;
	run_workload("matmul", &s);
	/* the tile loop: the only loop holding a barrier */
	uint32_t bar = an_pc(s.a.p, WEFT_OP_BAR, 0);
	assert_int_not_equal(bar, UINT32_MAX);
	uint32_t li = s.a.loops.innermost[s.a.p->block_of[bar]];
	assert_int_not_equal(li, WEFT_NO_LOOP);
	assert_false(s.a.u.loop_divergent[li]);
	const struct weft_trip_stat *t = &s.trips.stat[li];
	assert_true(t->entries > 0);
	assert_int_equal(t->min, t->max);
	assert_int_equal(t->ctas_varying, 0);
	paths_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vvadd),
		cmocka_unit_test(test_bsearch),
		cmocka_unit_test(test_matmul),
		cmocka_unit_test(test_bsearch_cmv),
		cmocka_unit_test(test_viterbi),
		cmocka_unit_test(test_rsort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
