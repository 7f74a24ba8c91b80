/*
 * test_plot.c - plot/: the report reader on the fixture reports and on
 * hostile JSON (syntax, types, caps, NUL bytes, deep nesting, duplicates),
 * the figure table against the report's own (report_fields.h and
 * models/events.h), image sizes from crafted PNG, SVG and PDF bytes, names
 * that cannot break out of a gnuplot string, every plot type's script from
 * a fixture, and the significant-digit rounding of the LaTeX and Markdown
 * tables (estimate/report_cols.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "estimate/report_cols.h"
#include "estimate/report_fields.h"
#include "models/events.h"
#include "plot/plot.h"
#include "plot/plot_image.h"
#include "plot/plot_metric.h"
#include "plot/plot_report.h"

#define FIX "tests/fixtures/plot/"

static void read_fixture(void **state)
{
	(void)state;
	struct weft_plot_report r;
	struct weft_error err;
	assert_int_equal(weft_plot_read_file(FIX "sgemm.json", &r, &err), 0);
	assert_int_equal(r.nconfigs, 3);
	assert_string_equal(r.workload, "sgemm");
	assert_string_equal(r.baseline, "fermi-sm");
	assert_string_equal(r.configs[1].name, "sgmf-core");
	assert_string_equal(r.configs[2].model, "dmt");
	assert_true(r.configs[0].baseline && !r.configs[1].baseline);
	double v;
	const char *unit;
	assert_int_equal(weft_plot_fig_value(&r.configs[0].total, "speedup", &v, &unit), 0);
	assert_true(v == 1 && unit == NULL);
	assert_int_equal(weft_plot_fig_value(&r.configs[1].total, "token_buffer", &v, &unit), 0);
	assert_string_equal(unit, "entries");
	assert_int_equal(weft_plot_fig_value(&r.configs[0].total, "nosuch", &v, &unit), -1);
	assert_true(r.configs[0].total.ncpi > 10);
	assert_int_equal(r.configs[0].nlaunches, 1);
	assert_non_null(weft_plot_config_fig(&r.configs[0], 0));
	assert_null(weft_plot_config_fig(&r.configs[0], 1));
	char label[64];
	assert_string_equal(weft_plot_report_label(&r, label, sizeof(label)), "sgemm");
	weft_plot_report_free(&r);

	assert_int_equal(weft_plot_read_file(FIX "sweep-sgemm.json", &r, &err), 0);
	assert_int_equal(r.nsweeps, 1);
	assert_string_equal(r.sweep[0], "fabric.token_buffer");
	assert_string_equal(r.configs[0].point[0], ""); /* fermi-sm: not swept */
	assert_string_equal(r.configs[3].point[0], "4");
	assert_true(r.configs[3].pointv[0] == 4);
	assert_string_equal(r.configs[3].config, "sgmf-core");
	weft_plot_report_free(&r);
}

/* Reading text must fail with code and a message holding phrase. */
static void refuse(const char *text, int code, const char *phrase)
{
	struct weft_plot_report r;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_plot_read_mem("t.json", text, strlen(text), &r, &err);
	if (rc != code || !strstr(err.message, phrase))
		fail_msg("for %.60s: rc %d, message \"%s\"; wanted %d and \"%s\"", text, rc, err.message, code,
			 phrase);
	assert_null(r.configs);
	weft_plot_report_free(&r);
}

static void read_hostile(void **state)
{
	(void)state;
	refuse("", WEFT_ERR_PARSE, "not valid JSON");
	refuse("{\"configs\": [", WEFT_ERR_PARSE, "not valid JSON");
	refuse("{\"configs\": [], \"configs\": []}", WEFT_ERR_PARSE, "duplicate");
	refuse("{\"configs\": [1e999]}", WEFT_ERR_PARSE, "not valid JSON");
	refuse("[]", WEFT_ERR_INPUT, "is not a weft-estimate report");
	refuse("{\"configs\": {}}", WEFT_ERR_INPUT, "configs: expected an array of configs, got an object");
	refuse("{\"configs\": []}", WEFT_ERR_INPUT, "the report is empty");
	refuse("{\"configs\": [{\"total\": {}}]}", WEFT_ERR_INPUT, "configs[0]: a config without a \"name\"");
	refuse("{\"configs\": [{\"name\": \"a\"}]}", WEFT_ERR_INPUT, "without \"total\"");
	refuse("{\"configs\": [{\"name\": \"a\\u0000b\", \"total\": {}}]}", WEFT_ERR_PARSE, "is not allowed");
	refuse("{\"configs\": [{\"name\": \"a\", \"total\": {\"speedup\": true}}]}", WEFT_ERR_INPUT,
	       "configs[0].total.speedup: expected a number or null, got a boolean");
	refuse("{\"configs\": [{\"name\": \"a\", \"total\": {\"cpi_stack\": {\"issue\": \"x\"}}}]}",
	       WEFT_ERR_INPUT, "configs[0].total.cpi_stack.issue: expected a number or null");
	refuse("{\"configs\": [{\"name\": \"a\", \"total\": {\"stats\": [{\"value\": 1}]}}]}", WEFT_ERR_INPUT,
	       "total.stats[0]: a statistic without a \"key\"");
	refuse("{\"configs\": [{\"name\": \"a\", \"baseline\": 1, \"total\": {}}]}", WEFT_ERR_INPUT,
	       "configs[0].baseline: expected true or false");
	refuse("{\"configs\": [{\"name\": \"a\", \"total\": {}, \"launches\": [{\"launch\": 0.5}]}]}",
	       WEFT_ERR_INPUT, "launches[0].launch: expected a launch index");
	refuse("{\"sweep\": [\"a.b\"], \"configs\": [{\"name\": \"a\", \"point\": {\"c.d\": 1}, \"total\": {}}]}",
	       WEFT_ERR_INPUT, "configs[0].point.c.d: a point of a key the report's \"sweep\" does not list");
	refuse("{\"sweep\": [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"], \"configs\": []}",
	       WEFT_ERR_INPUT, "9 swept keys, more than 8");
	refuse("{\"sweep\": [\"a\", \"a\"], \"configs\": []}", WEFT_ERR_INPUT, "a key listed once");

	/* a name longer than its field */
	char *big = malloc(2000);
	assert_non_null(big);
	snprintf(big, 2000, "{\"configs\": [{\"name\": \"%0300d\", \"total\": {}}]}", 0);
	refuse(big, WEFT_ERR_INPUT, "longer than the 255 this field holds");
	/* more CPI components than a stack may have */
	char *p = big + sprintf(big, "{\"configs\": [{\"name\": \"a\", \"total\": {\"cpi_stack\": {");
	for (int i = 0; i < 65; i++)
		p += sprintf(p, "%s\"c%d\": 1", i ? ", " : "", i);
	sprintf(p, "}}}]}");
	refuse(big, WEFT_ERR_INPUT, "65 components, more than the 64");
	free(big);
	/* nesting far deeper than a report's: jansson's depth limit, no crash */
	size_t n = 100000;
	char *deep = malloc(2 * n + 1);
	assert_non_null(deep);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = 0;
	refuse(deep, WEFT_ERR_PARSE, "not valid JSON");
	free(deep);
}

/* The reader's figure table agrees with the report's: every key it knows
 * is a figure weft-estimate writes, and the energy categories are the
 * models' in their order. */
static void metrics_match_the_report(void **state)
{
	(void)state;
	struct weft_est_figures zero;
	memset(&zero, 0, sizeof(zero));
	struct weft_est_field f[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(&zero, 0, f);
	size_t known = 0;
	for (size_t i = 0; weft_plot_metric_key(i); i++, known++) {
		int found = 0;
		for (uint32_t k = 0; k < n; k++)
			found |= strcmp(f[k].key, weft_plot_metric_key(i)) == 0;
		if (!found)
			fail_msg("plot_metric.c knows `%s`, which no report has", weft_plot_metric_key(i));
	}
	assert_int_equal(known, n - 1); /* every figure but the limiter, a string */
	assert_int_equal(WEFT_PLOT_NCATS, WEFT_CAT_COUNT);
	for (int c = 0; c < WEFT_CAT_COUNT; c++)
		assert_string_equal(weft_plot_energy_cats[c], weft_energy_cat_name((enum weft_energy_cat)c));
	const char *prefix;
	assert_true(weft_plot_si(0.0042, &prefix) == 1e3);
	assert_string_equal(prefix, "m");
	assert_true(weft_plot_si(42e6, &prefix) == 1e-6);
	assert_string_equal(prefix, "M");
}

static void image_sizes(void **state)
{
	(void)state;
	unsigned char png[33] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
				  0, 0, 0x03, 0x20, 0, 0, 0x01, 0xf4 };
	double w, h;
	char why[128];
	assert_int_equal(weft_plot_image_size(png, sizeof(png), WEFT_TERM_PNG, &w, &h, why, sizeof(why)), 0);
	assert_true(w == 800 && h == 500);
	assert_int_equal(weft_plot_image_size(png, 20, WEFT_TERM_PNG, &w, &h, why, sizeof(why)), -1);
	png[1] = 'J';
	assert_int_equal(weft_plot_image_size(png, sizeof(png), WEFT_TERM_PNG, &w, &h, why, sizeof(why)), -1);
	assert_string_equal(why, "no PNG signature");
	const char *svg = "<?xml version=\"1.0\"?>\n<svg \n width=\"336\" height=\"240\"\n viewBox=\"0 0 336 240\">"
			  "<g/></svg>\n";
	assert_int_equal(weft_plot_image_size((const unsigned char *)svg, strlen(svg), WEFT_TERM_SVG, &w, &h, why,
					      sizeof(why)),
			 0);
	assert_true(w == 336 && h == 240);
	assert_int_equal(weft_plot_image_size((const unsigned char *)svg, strlen(svg) - 8, WEFT_TERM_SVG, &w, &h,
					      why, sizeof(why)),
			 -1); /* cut before </svg> */
	const char *pdf = "%PDF-1.5\n1 0 obj << /Type /Page /MediaBox [ 0 0 252 180 ] >> endobj\n%%EOF\n";
	assert_int_equal(weft_plot_image_size((const unsigned char *)pdf, strlen(pdf), WEFT_TERM_PDF, &w, &h, why,
					      sizeof(why)),
			 0);
	assert_true(w == 3.5 && h == 2.5);
	assert_int_equal(weft_plot_image_size((const unsigned char *)"%PDF-1.5\n", 9, WEFT_TERM_PDF, &w, &h, why,
					      sizeof(why)),
			 -1);
	enum weft_plot_term t;
	struct weft_error err;
	assert_int_equal(weft_plot_term_of("a/b.Svg", &t, &err), 0);
	assert_int_equal(t, WEFT_TERM_SVG);
	assert_true(weft_plot_term_of("a.png/b", &t, &err) < 0);
}

/* A config name with quotes, a newline, a %, a backslash and a byte that
 * is not UTF-8 stays inside its gnuplot string. */
static void names_stay_quoted(void **state)
{
	(void)state;
	const char *text = "{\"baseline\": \"it's\\n50%\\u00ff\\\"q\\\\\", \"configs\": ["
			   "{\"name\": \"it's\\n50%\\u00ff\\\"q\\\\\", \"baseline\": true, \"total\": {\"speedup\": 1,"
			   " \"cpi_stack\": {\"issue\": 3, \"x'y\": 1}}},"
			   "{\"name\": \"b\", \"total\": {\"speedup\": 2, \"cpi_stack\": {\"issue\": 1}}}]}";
	struct weft_plot_report r;
	struct weft_error err;
	assert_int_equal(weft_plot_read_mem("q.json", text, strlen(text), &r, &err), 0);
	const struct weft_plot_report *rs[1] = { &r };
	for (int k = 0; k < WEFT_PLOT_NKINDS; k++) {
		if (k == WEFT_PLOT_ENERGY || k == WEFT_PLOT_SWEEP || k == WEFT_PLOT_DIST || k == WEFT_PLOT_SCATTER)
			continue; /* they need figures this report lacks */
		struct weft_plot_opts o;
		weft_plot_opts_init(&o);
		o.kind = (enum weft_plot_kind)k;
		o.output = "o'ut.png";
		struct weft_sbuf s;
		weft_sbuf_init(&s);
		if (weft_plot_script(rs, 1, &o, &s, &err) < 0)
			fail_msg("%s: %s", weft_plot_kind_name(o.kind), err.message);
		const char *t = weft_sbuf_str(&s);
		assert_non_null(strstr(t, "outfile = \"o'ut.png\""));
		/* a title or key entry, or a tic label with its % doubled */
		assert_true(strstr(t, "\"it's?50%\xc3\xbf\\\"q\\\\") ||
			    strstr(t, "\"it's?50%%\xc3\xbf\\\"q\\\\"));
		assert_null(strstr(t, "it's\n"));
		weft_sbuf_free(&s);
	}
	weft_plot_report_free(&r);
}

/* Every plot type's script from the fixtures, and what each needs. */
static void every_kind(void **state)
{
	(void)state;
	static const char *const files[] = { FIX "sgemm.json", FIX "reduce.json", FIX "sweep-sgemm.json",
					     FIX "vt-bsearch.json", FIX "overlay-util.json" };
	struct weft_plot_report r[5];
	struct weft_error err;
	for (int i = 0; i < 5; i++)
		assert_int_equal(weft_plot_read_file(files[i], &r[i], &err), 0);
	const struct weft_plot_report *two[2] = { &r[0], &r[1] }, *sweep[1] = { &r[2] }, *vt[1] = { &r[3] },
				      *ov[1] = { &r[4] };
	struct {
		enum weft_plot_kind k;
		const struct weft_plot_report *const *rs;
		uint32_t n;
		const char *want;
	} cases[] = {
		{ WEFT_PLOT_BARS, two, 2, "title \"dmt-cgra\"" },
		{ WEFT_PLOT_ENERGY, two, 2, "title \"DRAM\"" },
		{ WEFT_PLOT_CPI, two, 2, "set x2tics scale 0 (\"sgemm\"" },
		{ WEFT_PLOT_SWEEP, sweep, 1, "set logscale x 2" },
		{ WEFT_PLOT_DIST, vt, 1, "\"76-100\"" },
		{ WEFT_PLOT_SCATTER, two, 2, "set label \"sgmf-core\"" },
		{ WEFT_PLOT_UTIL, ov, 1, "title \"semwait\"" },
		{ WEFT_PLOT_UTIL, vt, 1, "% issue)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct weft_plot_opts o;
		weft_plot_opts_init(&o);
		o.kind = cases[i].k;
		o.output = "f.png";
		struct weft_sbuf s;
		weft_sbuf_init(&s);
		if (weft_plot_script(cases[i].rs, cases[i].n, &o, &s, &err) < 0)
			fail_msg("%s: %s", weft_plot_kind_name(o.kind), err.message);
		if (!strstr(weft_sbuf_str(&s), cases[i].want))
			fail_msg("%s: the script lacks \"%s\"", weft_plot_kind_name(o.kind), cases[i].want);
		assert_non_null(strstr(weft_sbuf_str(&s), "\nunset output\n"));
		weft_sbuf_free(&s);
	}
	/* what a plot needs and a report lacks is an input error naming it */
	struct weft_plot_opts o;
	weft_plot_opts_init(&o);
	o.kind = WEFT_PLOT_DIST;
	o.output = "f.png";
	struct weft_sbuf s;
	weft_sbuf_init(&s);
	assert_int_equal(weft_plot_script(two, 1, &o, &s, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "they come from the vt model"));
	o.kind = WEFT_PLOT_SWEEP;
	assert_int_equal(weft_plot_script(two, 1, &o, &s, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "has no sweep"));
	o.kind = WEFT_PLOT_BARS;
	o.launch = 3;
	assert_int_equal(weft_plot_script(two, 1, &o, &s, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "has no launch 3"));
	weft_sbuf_free(&s);
	for (int i = 0; i < 5; i++)
		weft_plot_report_free(&r[i]);
}

static void significant_digits(void **state)
{
	(void)state;
	static const struct {
		double v;
		int d;
		const char *want;
	} c[] = {
		{ 1234.5, 3, "1230" }, { 0.0012345, 3, "0.00123" }, { 9.996, 3, "10.0" }, { 0, 3, "0" },
		{ -2.5, 2, "-2.5" }, { 1, 4, "1.000" }, { 0.12086, 5, "0.12086" }, { 999.96, 4, "1000" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		weft_est_sig(c[i].v, c[i].d, buf, sizeof(buf));
		if (strcmp(buf, c[i].want) != 0)
			fail_msg("%g at %d digits: \"%s\", wanted \"%s\"", c[i].v, c[i].d, buf, c[i].want);
	}
	weft_est_sig(0.0 / 0.0, 3, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_fixture),
		cmocka_unit_test(read_hostile),
		cmocka_unit_test(metrics_match_the_report),
		cmocka_unit_test(image_sizes),
		cmocka_unit_test(names_stay_quoted),
		cmocka_unit_test(every_kind),
		cmocka_unit_test(significant_digits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
