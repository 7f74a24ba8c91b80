/*
 * test_simt_sched.c - the SIMT schedulers' search arrays (models/simt/simt.h
 * simt_sched key/code, simt_sm.c hot_sync): beside each scheduler's warp
 * list the search reads a code (the unit a ready warp issues to, draining,
 * at a barrier) and a key (dep_end, last_end) per entry instead of the
 * warps. Every change of a warp's state, dependence time, unit or drain
 * time must reach its entry, or a warp issues early, late or never.
 *
 * The test drives the model through its per-CTA ops and, after every CTA is
 * dispatched (the machine has run until a slot freed: issues, barrier
 * releases, warps draining and leaving their lists), compares every entry
 * with its warp (weft_simt_sched_mismatches). Workloads: micro_barrier
 * (8 warps, 128 barriers), micro_diverge (divergence), bfs and hotspot at
 * small size (draining warps, shared-memory barriers, many CTAs per SM);
 * configs: fermi-sm and gtx480 (GTO, 2 schedulers) and tesla-sm (LRR).
 */
#include "simt_testutil.h"

#include "models/simt/simt.h"

struct drive {
	const struct weft_model *m;
	void *state;
	uint32_t checks, bad;
};

static int one_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct drive *d = user;
	int rc = d->m->consume_cta(d->state, c, err);
	if (rc)
		return rc;
	d->checks++;
	d->bad += weft_simt_sched_mismatches(d->state);
	return 0;
}

/* Replays trace_path under config CTA by CTA; returns the mismatches seen
 * (and asserts some checks ran). */
static uint32_t drive(const char *trace_path, const char *config)
{
	struct weft_error err;
	struct weft_config cfg;
	struct weft_trace *t;
	st_check(weft_config_load(config, NULL, 0, &cfg, &err), &err, config);
	st_check(weft_trace_open(trace_path, &t, &err), &err, "trace open");
	struct drive d = { weft_model_find(cfg.model), NULL, 0, 0 };
	assert_non_null(d.m);
	assert_string_equal(d.m->name, "simt");
	st_check(d.m->init(&cfg, &d.state, &err), &err, "init");
	struct weft_cta_sample all;
	memset(&all, 0, sizeof(all));
	all.kind = WEFT_SAMPLE_ALL;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
		st_check(d.m->begin_launch(d.state, t, l, &all, &err) < 0, &err, "begin_launch");
		st_check(weft_trace_for_each_cta(t, l, &all, 1, one_cta, &d, &err), &err, "CTAs");
		st_check(d.m->end_launch(d.state, t, l, &all, &err), &err, "end_launch");
		d.bad += weft_simt_sched_mismatches(d.state);
	}
	d.m->free(d.state);
	weft_trace_close(t);
	weft_config_free(&cfg);
	assert_true(d.checks > 0);
	return d.bad;
}

static const char *const configs[] = { "configs/fermi-sm.ini", "configs/gtx480.ini",
				       "configs/tesla-sm.ini" };

static void check_workload(const char *w, enum weft_size size, const char *file)
{
	st_trace_workload(w, size, st_path(file));
	for (unsigned i = 0; i < sizeof(configs) / sizeof(*configs); i++) {
		uint32_t bad = drive(st_path(file), configs[i]);
		if (bad)
			fprintf(stderr, "%s under %s: %u list entries disagree with their warps\n", w,
				configs[i], bad);
		assert_int_equal(bad, 0);
	}
}

static void test_barrier(void **st)
{
	(void)st;
	check_workload("micro_barrier", WEFT_SIZE_DEFAULT, "ba.wtr");
}

static void test_diverge(void **st)
{
	(void)st;
	check_workload("micro_diverge", WEFT_SIZE_DEFAULT, "dv.wtr");
}

static void test_bfs(void **st)
{
	(void)st;
	check_workload("bfs", WEFT_SIZE_SMALL, "bfs.wtr");
}

static void test_hotspot(void **st)
{
	(void)st;
	check_workload("hotspot", WEFT_SIZE_SMALL, "hs.wtr");
}

static int teardown(void **st)
{
	(void)st;
	const char *names[] = { "ba.wtr", "dv.wtr", "bfs.wtr", "hs.wtr" };
	st_tmp_done(names, 4);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_diverge),
		cmocka_unit_test(test_bfs),
		cmocka_unit_test(test_hotspot),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
