/*
 * test_model_many.c - weft_model_run_many (models/model_many.c): several
 * configurations from one read of the trace give, bit for bit, what
 * weft_model_run gives for each alone, for the SIMT model (configs that
 * replay themselves, configs that follow another's replay, with CTA
 * sampling, over several launches) and the fabric models (SGMF, dMT:
 * token-buffer points share a replay, others replay); a model without
 * the per-CTA ops falls back to one pass per config; errors leave every
 * result empty.
 */
#include "simt_testutil.h"

#include "models/dataflow/fabric.h"
#include "models/simt/simt.h"

struct cfg_spec {
	const char *path;
	const char *sets[3];
	uint32_t nsets;
};

static void load_cfgs(const struct cfg_spec *specs, uint32_t n, struct weft_config *cfgs)
{
	struct weft_error err;
	for (uint32_t i = 0; i < n; i++)
		st_check(weft_config_load(specs[i].path, specs[i].sets, specs[i].nsets, &cfgs[i], &err), &err,
			 specs[i].path);
}

/* Bitwise equality of two results (doubles compared by their bytes). */
static void assert_same(const struct weft_model_result *a, const struct weft_model_result *b,
			const char *what)
{
	if (memcmp(&a->cycles, &b->cycles, sizeof(double)) || memcmp(&a->seconds, &b->seconds, sizeof(double)) ||
	    a->thread_insts != b->thread_insts || a->nlaunches != b->nlaunches ||
	    memcmp(&a->clock_hz, &b->clock_hz, sizeof(double))) {
		fprintf(stderr, "%s: totals differ: cycles %.17g vs %.17g, launches %u vs %u\n", what,
			a->cycles, b->cycles, a->nlaunches, b->nlaunches);
		fail();
	}
	assert_ptr_equal(a->model, b->model);
	uint32_t ne = a->model->nevents;
	assert_memory_equal(a->events, b->events, ne * sizeof(double));
	assert_int_equal(a->ncomponents, b->ncomponents);
	assert_memory_equal(a->components, b->components, a->ncomponents * sizeof(a->components[0]));
	assert_int_equal(a->nstats, b->nstats);
	assert_memory_equal(a->stats, b->stats, a->nstats * sizeof(a->stats[0]));
	assert_string_equal(a->sampling, b->sampling);
	for (uint32_t l = 0; l < a->nlaunches; l++) {
		const struct weft_launch_result *x = &a->launches[l], *y = &b->launches[l];
		if (memcmp(&x->cycles, &y->cycles, sizeof(double)) || x->thread_insts != y->thread_insts) {
			fprintf(stderr, "%s, launch %u: cycles %.17g vs %.17g, insts %llu vs %llu\n", what, l,
				x->cycles, y->cycles, (unsigned long long)x->thread_insts,
				(unsigned long long)y->thread_insts);
			fail();
		}
		assert_int_equal(x->launch, y->launch);
		assert_string_equal(x->kernel, y->kernel);
		assert_string_equal(x->limiter, y->limiter);
		assert_memory_equal(&x->cpi, &y->cpi, sizeof(x->cpi));
		assert_memory_equal(x->events, y->events, ne * sizeof(double));
		assert_int_equal(x->nstats, y->nstats);
		assert_memory_equal(x->stats, y->stats, x->nstats * sizeof(x->stats[0]));
	}
}

/* Runs specs[] through run_many on the trace and each alone through
 * weft_model_run; asserts identical results and the number of passes
 * (WANT_AT_MOST_1: 0 or 1, when a replay cache may spare the read). */
#define WANT_AT_MOST_1 UINT32_MAX
static void check_many(const char *trace, const struct cfg_spec *specs, uint32_t n,
		       const struct weft_cta_sample *sample, uint32_t want_passes)
{
	struct weft_error err;
	struct weft_config cfgs[16];
	const struct weft_config *cp[16];
	struct weft_model_result many[16], one;
	assert_true(n <= 16);
	memset(cfgs, 0, sizeof(cfgs));
	load_cfgs(specs, n, cfgs);
	for (uint32_t i = 0; i < n; i++)
		cp[i] = &cfgs[i];
	const struct weft_model *m = weft_model_find(cfgs[0].model);
	assert_non_null(m);
	struct weft_trace *t;
	st_check(weft_trace_open(trace, &t, &err), &err, "trace open");
	uint32_t passes = 99;
	st_check(weft_model_run_many(m, cp, n, t, sample, many, &passes, &err), &err, "run_many");
	if (want_passes == WANT_AT_MOST_1)
		assert_true(passes <= 1);
	else
		assert_int_equal(passes, want_passes);
	for (uint32_t i = 0; i < n; i++) {
		st_check(weft_model_run(m, &cfgs[i], t, sample, &one, &err), &err, "model run");
		char what[160];
		snprintf(what, sizeof(what), "%s %s (%s)", trace, specs[i].path,
			 specs[i].nsets ? specs[i].sets[0] : "");
		assert_same(&many[i], &one, what);
		weft_model_result_free(&one);
		weft_model_result_free(&many[i]);
		weft_config_free(&cfgs[i]);
	}
	weft_trace_close(t);
}

/* fermi-sm replays itself; the clock and DRAM-bandwidth points follow it
 * (their replay is the same); num_sm, L1 latency and the other SMs replay
 * on their own. */
static const struct cfg_spec simt_specs[] = {
	{ "configs/fermi-sm.ini", { NULL }, 0 },
	{ "configs/fermi-sm.ini", { "core.clock_mhz=700" }, 1 },
	{ "configs/fermi-sm.ini", { "core.num_sm=3" }, 1 },
	{ "configs/fermi-sm.ini", { "mem.dram_gbps=20", "tech.node_nm=65" }, 2 },
	{ "configs/fermi-sm.ini", { "core.l1_latency=20" }, 1 },
	{ "configs/gtx480.ini", { NULL }, 0 },
	{ "configs/tesla-sm.ini", { NULL }, 0 },
	{ "configs/tesla-sm.ini", { "core.clock_mhz=500" }, 1 },
};
#define NSIMT (sizeof(simt_specs) / sizeof(simt_specs[0]))

static void test_simt_many_equals_single(void **st)
{
	(void)st;
	static const char *const wls[] = { "bfs", "hotspot", "reduce", "bsearch" };
	for (size_t w = 0; w < sizeof(wls) / sizeof(wls[0]); w++) {
		char name[64];
		snprintf(name, sizeof(name), "%s.wtr", wls[w]);
		st_trace_workload(wls[w], WEFT_SIZE_SMALL, st_path(name));
		check_many(st_path(name), simt_specs, NSIMT, NULL, 1);
	}
}

/* The fabric models: token-buffer points (powers of two or not) follow one
 * replay; unit counts re-time it; a memory latency replays. Fresh (cache
 * cleared) and with the process's replay cache warm. */
static void test_fabric_many_equals_single(void **st)
{
	(void)st;
	static const struct cfg_spec sgmf[] = {
		{ "configs/sgmf-core.ini", { NULL }, 0 },
		{ "configs/sgmf-core.ini", { "fabric.token_buffer=1" }, 1 },
		{ "configs/sgmf-core.ini", { "fabric.token_buffer=3" }, 1 },
		{ "configs/sgmf-core.ini", { "fabric.token_buffer=32" }, 1 },
		{ "configs/sgmf-core.ini", { "fabric.compute_units=8" }, 1 },
		{ "configs/sgmf-core.ini", { "mem.l1_latency=20", "fabric.token_buffer=5" }, 2 },
		{ "configs/sgmf-15core.ini", { NULL }, 0 },
	};
	static const struct cfg_spec dmt[] = {
		{ "configs/dmt-cgra.ini", { NULL }, 0 },
		{ "configs/dmt-cgra.ini", { "fabric.token_buffer=2" }, 1 },
		{ "configs/dmt-cgra.ini", { "fabric.token_buffer=7" }, 1 },
	};
	static const char *const wls[] = { "bfs", "hotspot", "reduce" };
	for (size_t w = 0; w < sizeof(wls) / sizeof(wls[0]); w++) {
		char name[64];
		snprintf(name, sizeof(name), "%s.wtr", wls[w]);
		st_trace_workload(wls[w], WEFT_SIZE_SMALL, st_path(name));
		for (int warm = 0; warm < 2; warm++) {
			if (!warm)
				weft_fabric_cache_clear();
			uint32_t want = warm ? WANT_AT_MOST_1 : 1;
			check_many(st_path(name), sgmf, sizeof(sgmf) / sizeof(sgmf[0]), NULL, want);
			check_many(st_path(name), dmt, sizeof(dmt) / sizeof(dmt[0]), NULL, want);
		}
	}
	weft_fabric_cache_clear();
}

static void test_simt_many_sampled(void **st)
{
	(void)st;
	st_trace_workload("hotspot", WEFT_SIZE_SMALL, st_path("hs.wtr"));
	struct weft_cta_sample every = { .kind = WEFT_SAMPLE_EVERY, .every = 3 };
	check_many(st_path("hs.wtr"), simt_specs, NSIMT, &every, 1);
	struct weft_cta_sample rnd = { .kind = WEFT_SAMPLE_RANDOM, .count = 2, .seed = 5 };
	check_many(st_path("hs.wtr"), simt_specs, NSIMT, &rnd, 1);
}

/* Who follows whom: only configs whose simulation parameters match (the
 * clock too: it sets the DRAM channel time in cycles). */
static void test_simt_follow(void **st)
{
	(void)st;
	struct weft_error err;
	struct weft_config cfgs[4];
	const struct cfg_spec specs[] = {
		{ "configs/fermi-sm.ini", { NULL }, 0 },
		{ "configs/fermi-sm.ini", { "tech.node_nm=65", "core.area_basis=tesla" }, 2 },
		{ "configs/fermi-sm.ini", { "core.clock_mhz=700" }, 1 },
		{ "configs/tesla-sm.ini", { NULL }, 0 },
	};
	load_cfgs(specs, 4, cfgs);
	void *s[4];
	for (int i = 0; i < 4; i++)
		st_check(weft_model_simt.init(&cfgs[i], &s[i], &err), &err, "init");
	assert_int_equal(weft_model_simt.follow(s[1], s[0]), 1);
	assert_int_equal(weft_model_simt.follow(s[2], s[0]), 0);
	assert_int_equal(weft_model_simt.follow(s[3], s[0]), 0);
	/* the clock changes the timing, not the warp streams: copied from s[0];
	 * the Tesla-like SM (no caches) builds its own */
	assert_ptr_equal(((struct simt_state *)s[2])->stream_src, s[0]);
	assert_null(((struct simt_state *)s[3])->stream_src);
	/* a follower is no leader */
	assert_int_equal(weft_model_simt.follow(s[2], s[1]), 0);
	for (int i = 0; i < 4; i++) {
		weft_model_simt.free(s[i]);
		weft_config_free(&cfgs[i]);
	}
}

/* A model without the per-CTA ops: one pass per config, same results. */
static void test_fallback_without_cta_ops(void **st)
{
	(void)st;
	struct weft_model plain = weft_model_simt;
	plain.begin_launch = NULL;
	plain.consume_cta = NULL;
	plain.end_launch = NULL;
	plain.follow = NULL;
	st_trace_workload("bfs", WEFT_SIZE_SMALL, st_path("bfs2.wtr"));
	struct weft_error err;
	struct weft_config cfgs[3];
	const struct weft_config *cp[3];
	struct weft_model_result many[3], one;
	load_cfgs(simt_specs, 3, cfgs);
	for (int i = 0; i < 3; i++)
		cp[i] = &cfgs[i];
	struct weft_trace *t;
	st_check(weft_trace_open(st_path("bfs2.wtr"), &t, &err), &err, "trace open");
	uint32_t passes = 0;
	st_check(weft_model_run_many(&plain, cp, 3, t, NULL, many, &passes, &err), &err, "run_many");
	assert_int_equal(passes, 3);
	for (int i = 0; i < 3; i++) {
		st_check(weft_model_run(&weft_model_simt, &cfgs[i], t, NULL, &one, &err), &err, "run");
		many[i].model = &weft_model_simt; /* the copy's address differs */
		assert_same(&many[i], &one, "fallback");
		weft_model_result_free(&one);
		weft_model_result_free(&many[i]);
		weft_config_free(&cfgs[i]);
	}
	/* n == 0 does nothing */
	assert_int_equal(weft_model_run_many(&weft_model_simt, cp, 0, t, NULL, many, &passes, &err), 0);
	assert_int_equal(passes, 0);
	weft_trace_close(t);
}

/* A config that fails (one CTA cannot fit) fails the run and leaves every
 * result empty, the error naming the config. */
static void test_many_error(void **st)
{
	(void)st;
	st_trace_workload("hotspot", WEFT_SIZE_SMALL, st_path("hs2.wtr"));
	struct weft_error err;
	struct weft_config cfgs[2];
	const struct cfg_spec specs[] = {
		{ "configs/fermi-sm.ini", { NULL }, 0 },
		{ "configs/fermi-sm.ini", { "core.max_threads=32" }, 1 },
	};
	load_cfgs(specs, 2, cfgs);
	const struct weft_config *cp[2] = { &cfgs[0], &cfgs[1] };
	struct weft_model_result res[2];
	struct weft_trace *t;
	st_check(weft_trace_open(st_path("hs2.wtr"), &t, &err), &err, "trace open");
	weft_error_clear(&err);
	int rc = weft_model_run_many(&weft_model_simt, cp, 2, t, NULL, res, NULL, &err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "fermi-sm.ini"));
	assert_null(res[0].launches);
	assert_null(res[1].launches);
	assert_null(res[0].events);
	weft_trace_close(t);
	weft_config_free(&cfgs[0]);
	weft_config_free(&cfgs[1]);
}

static int teardown(void **st)
{
	(void)st;
	static const char *const names[] = { "bfs.wtr", "hotspot.wtr", "reduce.wtr", "bsearch.wtr",
					     "hs.wtr", "bfs2.wtr", "hs2.wtr" };
	st_tmp_done(names, (int)(sizeof(names) / sizeof(names[0])));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simt_many_equals_single),
		cmocka_unit_test(test_simt_many_sampled),
		cmocka_unit_test(test_fabric_many_equals_single),
		cmocka_unit_test(test_simt_follow),
		cmocka_unit_test(test_fallback_without_cta_ops),
		cmocka_unit_test(test_many_error),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
