/*
 * test_sweep.c - --sweep parsing and points (estimate/sweep.h): lists,
 * ranges, CONFIG: targets, the syntax errors, the cartesian product's
 * order (first sweep slowest), "did you mean" for an unknown key, and
 * weft_estimate_run's points end to end on a small traced workload
 * (names, values, hashes, a config without the key run once, the baseline
 * naming a point).
 */
#include "simt_testutil.h"

#include "estimate/estimate.h"
#include "estimate/sweep.h"

static void parse_ok(const char *spec, struct weft_est_sweep *s)
{
	struct weft_error err;
	st_check(weft_est_parse_sweep(spec, s, &err), &err, spec);
}

static void parse_bad(const char *spec, const char *phrase)
{
	struct weft_est_sweep s;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_est_parse_sweep(spec, &s, &err);
	if (rc != WEFT_ERR_INPUT || !strstr(err.message, phrase)) {
		fprintf(stderr, "--sweep %s: rc %d, message \"%s\", expected \"%s\"\n", spec, rc,
			err.message, phrase);
		fail();
	}
	assert_null(s.values);
}

static void test_parse_list(void **st)
{
	(void)st;
	struct weft_est_sweep s;
	parse_ok("fabric.token_buffer=1,2,4,8", &s);
	assert_string_equal(s.target, "");
	assert_string_equal(s.section, "fabric");
	assert_string_equal(s.key, "token_buffer");
	assert_int_equal(s.nvalues, 4);
	assert_string_equal(s.values[0], "1");
	assert_string_equal(s.values[3], "8");
	weft_est_sweep_free(&s);

	parse_ok("sgmf-core:tech.node_nm=65", &s);
	assert_string_equal(s.target, "sgmf-core");
	assert_string_equal(s.section, "tech");
	assert_int_equal(s.nvalues, 1);
	weft_est_sweep_free(&s);

	/* strings are taken as written (the config checks them) */
	parse_ok("mem.l1_write=back,through", &s);
	assert_int_equal(s.nvalues, 2);
	assert_string_equal(s.values[1], "through");
	weft_est_sweep_free(&s);
}

static void test_parse_ranges(void **st)
{
	(void)st;
	struct weft_est_sweep s;
	parse_ok("fabric.token_buffer=1:32:x2", &s);
	assert_int_equal(s.nvalues, 6);
	const char *want[] = { "1", "2", "4", "8", "16", "32" };
	for (int i = 0; i < 6; i++)
		assert_string_equal(s.values[i], want[i]);
	weft_est_sweep_free(&s);

	parse_ok("fabric.token_buffer=1:16:+1", &s);
	assert_int_equal(s.nvalues, 16);
	assert_string_equal(s.values[15], "16");
	weft_est_sweep_free(&s);

	/* the end is reached despite rounding; a range may end between steps */
	parse_ok("core.clock_mhz=0.1:0.5:+0.1", &s);
	assert_int_equal(s.nvalues, 5);
	assert_string_equal(s.values[4], "0.5");
	weft_est_sweep_free(&s);
	parse_ok("core.num_sm=1:10:x3", &s);
	assert_int_equal(s.nvalues, 3); /* 1 3 9 */
	assert_string_equal(s.values[2], "9");
	weft_est_sweep_free(&s);

	/* ranges and values mix */
	parse_ok("core.num_sm=1:4:x2,15", &s);
	assert_int_equal(s.nvalues, 4);
	assert_string_equal(s.values[3], "15");
	weft_est_sweep_free(&s);
}

static void test_parse_errors(void **st)
{
	(void)st;
	parse_bad("core.num_sm", "expected [CONFIG:]section.key=v1,v2,...");
	parse_bad("num_sm=1,2", "expected [CONFIG:]section.key=v1,v2,...");
	parse_bad(".num_sm=1", "expected [CONFIG:]section.key=v1,v2,...");
	parse_bad("core.=1", "expected [CONFIG:]section.key=v1,v2,...");
	parse_bad("core.num_sm=", "no values after `=`");
	parse_bad("core.num_sm=1,,2", "an empty value in the list");
	parse_bad("core.num_sm=1,", "an empty value in the list");
	parse_bad("core.num_sm=2,1,2", "value `2` is listed twice");
	parse_bad("core.num_sm=1:4:x2,4", "value `4` is listed twice");
	parse_bad("core.num_sm=1:8", "bad range `1:8`");
	parse_bad("core.num_sm=1:8:*2", "bad range `1:8:*2`");
	parse_bad("core.num_sm=a:8:+1", "bad range");
	parse_bad("core.num_sm=8:1:+1", "ends before it starts");
	parse_bad("core.num_sm=1:8:x1", "needs a factor > 1 and a start > 0");
	parse_bad("core.num_sm=0:8:x2", "needs a factor > 1 and a start > 0");
	parse_bad("core.num_sm=1:8:+0", "needs a step > 0");
	parse_bad("core.num_sm=1:100000:+1", "more than 4096 values");
	parse_bad(":core.num_sm=1", "bad config name before `:`");
}

/* The product's order: nested loops in command-line order, the last sweep
 * the fastest. */
static void test_product_order(void **st)
{
	(void)st;
	const uint32_t counts[3] = { 2, 3, 2 };
	uint32_t idx[3];
	uint32_t k = 0;
	for (uint32_t a = 0; a < 2; a++)
		for (uint32_t b = 0; b < 3; b++)
			for (uint32_t c = 0; c < 2; c++, k++) {
				weft_est_sweep_point(counts, 3, k, idx);
				assert_int_equal(idx[0], a);
				assert_int_equal(idx[1], b);
				assert_int_equal(idx[2], c);
			}
	weft_est_sweep_point(counts, 0, 0, idx); /* no sweeps: one point, nothing written */
}

static void test_suggest(void **st)
{
	(void)st;
	char buf[512];
	const char *models[] = { "simt", "sgmf" };
	weft_est_sweep_suggest("fabric", "token_bufer", models, 2, buf, sizeof(buf));
	assert_string_equal(buf, "; did you mean fabric.token_buffer?");
	weft_est_sweep_suggest("core", "num_smm", models, 1, buf, sizeof(buf));
	assert_string_equal(buf, "; did you mean core.num_sm?");
	/* the right key in the wrong section */
	weft_est_sweep_suggest("mem", "node_nm", models, 1, buf, sizeof(buf));
	assert_string_equal(buf, "; did you mean tech.node_nm?");
	/* nothing close: the sections */
	weft_est_sweep_suggest("zzz", "qqqqqqqqqqqq", models, 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, "[core]"));
	assert_non_null(strstr(buf, "[fabric]"));
}

/* weft_estimate_run with sweeps on a small trace. */
static void test_estimate_points(void **st)
{
	(void)st;
	st_trace_workload("vvadd", WEFT_SIZE_SMALL, st_path("vvadd.wtr"));
	const char *cfgs[] = { "configs/tesla-sm.ini", "configs/fermi-sm.ini" };
	const char *sweeps[] = { "fermi-sm:core.num_sm=1,2", "tech.node_nm=40,45" };
	struct weft_est_request req = {
		.trace_path = st_path("vvadd.wtr"),
		.config_paths = cfgs,
		.nconfigs = 2,
		.baseline = "fermi-sm[core.num_sm=2,tech.node_nm=45]",
		.sample = { .kind = WEFT_SAMPLE_ALL },
		.sweeps = sweeps,
		.nsweeps = 2,
	};
	struct weft_est_report rep;
	struct weft_error err;
	st_check(weft_estimate_run(&req, &rep, &err), &err, "estimate");
	/* tesla-sm: 2 points (node); fermi-sm: 2 x 2, num_sm slowest */
	assert_int_equal(rep.nconfigs, 6);
	assert_int_equal(rep.nsweeps, 2);
	assert_string_equal(rep.sweep_keys[0], "core.num_sm");
	assert_string_equal(rep.sweep_keys[1], "tech.node_nm");
	const char *names[] = { "tesla-sm[tech.node_nm=40]",
				"tesla-sm[tech.node_nm=45]",
				"fermi-sm[core.num_sm=1,tech.node_nm=40]",
				"fermi-sm[core.num_sm=1,tech.node_nm=45]",
				"fermi-sm[core.num_sm=2,tech.node_nm=40]",
				"fermi-sm[core.num_sm=2,tech.node_nm=45]" };
	for (int i = 0; i < 6; i++)
		assert_string_equal(rep.configs[i].name, names[i]);
	assert_string_equal(rep.configs[0].config, "tesla-sm");
	assert_string_equal(rep.configs[0].point[0], "");
	assert_string_equal(rep.configs[0].point[1], "40");
	assert_string_equal(rep.configs[4].point[0], "2");
	assert_string_equal(rep.configs[4].overrides, "core.num_sm=2,tech.node_nm=40");
	assert_int_equal(rep.baseline, 5);
	assert_true(rep.configs[5].total.speedup == 1);
	/* hashes differ per point */
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < i; j++)
			assert_true(rep.configs[i].hash != rep.configs[j].hash);
	/* the node changes energy and area, not the timing; two SMs have
	 * more area than one */
	assert_true(rep.configs[2].total.cycles == rep.configs[3].total.cycles);
	assert_true(rep.configs[4].area_mm2 > rep.configs[2].area_mm2);
	/* one read of the trace per model: both configs are simt */
	assert_int_equal(rep.trace_passes, 1);
	weft_est_report_free(&rep);

	/* a swept config's bare name is its first point */
	req.baseline = "fermi-sm";
	st_check(weft_estimate_run(&req, &rep, &err), &err, "estimate");
	assert_int_equal(rep.baseline, 2);
	weft_est_report_free(&rep);

	/* errors: a key nobody has; a point out of range */
	const char *bad1[] = { "core.num_smm=1,2" };
	req.sweeps = bad1;
	req.nsweeps = 1;
	req.baseline = NULL;
	weft_error_clear(&err);
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "did you mean core.num_sm?"));
	assert_int_equal(rep.nconfigs, 0);
	const char *bad2[] = { "core.num_sm=1,0" };
	req.sweeps = bad2;
	weft_error_clear(&err);
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "--sweep point tesla-sm[core.num_sm=0]"));
}

static int teardown(void **st)
{
	(void)st;
	static const char *const names[] = { "vvadd.wtr" };
	st_tmp_done(names, 1);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_ranges),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_product_order),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_estimate_points),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
