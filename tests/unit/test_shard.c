/*
 * test_shard.c - sharded runs and their merge (estimate/shard.h): --shard
 * K/N parsed; the trace-read count a shard records is the one one process
 * reads; the N parts of a run merged in any order format exactly as the
 * one-process report (table, CSV, JSON, --explain, a baseline in another
 * shard, a shard with no points); every number reads back bit for bit
 * (NaN, infinities, -0, the smallest subnormal); and every refusal of the
 * reader and the merge, with what it names: a missing or repeated shard,
 * a part of another run, another weft, a damaged, truncated or edited part
 * (edited parts are resealed here with a correct checksum so the checks
 * behind it are reached), and the caps.
 */
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/hash.h"
#include "estimate/estimate.h"
#include "estimate/report.h"
#include "estimate/shard.h"
#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"
#include "trace_file_testutil.h"

static char trace_path[64];

static int make_trace(void **state)
{
	(void)state;
	if (testutil_trace_small("bfs", trace_path, sizeof(trace_path)))
		return -1;
	return 0;
}

static int drop_trace(void **state)
{
	(void)state;
	unlink(trace_path);
	return 0;
}

/* The run every test shards: the SIMT, SGMF and dMT models (the fabric's
 * in-process replay cache off, so this process's earlier runs cannot
 * change how often the trace is read), two swept keys, --explain, and a
 * baseline in the middle. 2 + 4 + 2 = 8 points. */
static const char *const cfgs[] = { "configs/fermi-sm.ini", "configs/sgmf-core.ini",
				    "configs/dmt-cgra.ini" };
static const char *const sets[] = { "sgmf-core:fabric.replay_cache=false" };
static const char *const sweeps[] = { "sgmf-core:fabric.token_buffer=2,8", "tech.node_nm=40,45" };

static struct weft_est_request request(uint32_t k, uint32_t n)
{
	struct weft_est_request req = { .trace_path = trace_path, .config_paths = cfgs, .nconfigs = 3,
					.overrides = sets, .noverrides = 1,
					.baseline = "sgmf-core[fabric.token_buffer=8,tech.node_nm=40]",
					.sweeps = sweeps, .nsweeps = 2, .explain = 1,
					.shard = k, .nshards = n };
	return req;
}

/* Shard k of n written as a part into *out (malloc'd text); --explain
 * unless CSV (which cannot hold it). */
static void make_part(uint32_t k, uint32_t n, enum weft_format fmt, char **out)
{
	struct weft_est_request req = request(k, n);
	req.explain = fmt != WEFT_FMT_CSV;
	struct weft_est_report rep;
	struct weft_error err;
	if (weft_estimate_run(&req, &rep, &err))
		fail_msg("shard %u/%u: %s", k, n, err.message);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	if (weft_est_shard_write(&rep, fmt, &b, &err))
		fail_msg("write: %s", err.message);
	weft_est_report_free(&rep);
	*out = strdup(weft_sbuf_str(&b));
	weft_sbuf_free(&b);
}

static char *format(const struct weft_est_report *r, enum weft_format fmt)
{
	struct weft_sbuf b;
	struct weft_error err;
	weft_sbuf_init(&b);
	if (weft_est_report_format(r, fmt, &b, &err))
		fail_msg("format: %s", err.message);
	char *s = strdup(weft_sbuf_str(&b));
	weft_sbuf_free(&b);
	return s;
}

/* Merges texts[order[i]] (names "p<i>"); 0 or the error. */
static int merge(char **texts, const uint32_t *order, uint32_t n, struct weft_est_report *rep,
		 enum weft_format *fmt, struct weft_error *err)
{
	struct weft_est_merge *m;
	assert_int_equal(weft_est_merge_new(&m, err), 0);
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		char name[16];
		snprintf(name, sizeof(name), "p%u", order[i]);
		rc = weft_est_merge_add_text(m, name, texts[order[i]], strlen(texts[order[i]]), err);
	}
	if (!rc)
		rc = weft_est_merge_finish(m, rep, fmt, err);
	weft_est_merge_free(m);
	return rc;
}

/* ---- --shard K/N ------------------------------------------------------------ */

static void test_parse_shard(void **state)
{
	(void)state;
	struct weft_error err;
	uint32_t k = 99, n = 99;
	assert_int_equal(weft_est_parse_shard("0/1", &k, &n, &err), 0);
	assert_true(k == 0 && n == 1);
	assert_int_equal(weft_est_parse_shard("4095/4096", &k, &n, &err), 0);
	assert_true(k == 4095 && n == 4096);
	assert_int_equal(weft_est_parse_shard("007/08", &k, &n, &err), 0);
	assert_true(k == 7 && n == 8);
	static const struct { const char *s, *msg; } bad[] = {
		{ "3/3", "K must be less than N (shards are numbered 0 to 2)" },
		{ "0/0", "N must be at least 1" },
		{ "0/4097", "at most 4096 shards" },
		{ "1", "bad --shard `1`" }, { "/3", "bad --shard" }, { "1/", "bad --shard" },
		{ "-1/3", "bad --shard" }, { "1/+3", "bad --shard" }, { "1/3/4", "bad --shard" },
		{ " 1/3", "bad --shard" }, { "1/3 ", "bad --shard" }, { "", "bad --shard" },
		{ "1234567890/3", "bad --shard" }, { "a/b", "give K/N with 0 <= K < N" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (weft_est_parse_shard(bad[i].s, &k, &n, &err) != WEFT_ERR_INPUT)
			fail_msg("`%s` accepted", bad[i].s);
		if (!strstr(err.message, bad[i].msg))
			fail_msg("`%s`: %s", bad[i].s, err.message);
	}
	assert_true(weft_est_shard_owns(7, 1, 3) && !weft_est_shard_owns(7, 0, 3));
	assert_true(weft_est_shard_owns(7, 0, 0));
}

static void test_model_passes(void **state)
{
	(void)state;
	const struct weft_model *simt = weft_model_find("simt");
	struct weft_model plain = *simt;
	plain.begin_launch = NULL; /* as a model without the per-CTA ops */
	assert_int_equal(weft_est_model_passes(simt, 0, 5), 0);
	assert_int_equal(weft_est_model_passes(simt, 1, 5), 1);
	assert_int_equal(weft_est_model_passes(simt, 9, 5), 1);
	assert_int_equal(weft_est_model_passes(simt, 9, 0), 0);
	assert_int_equal(weft_est_model_passes(&plain, 9, 5), 9);
	assert_int_equal(weft_est_model_passes(&plain, 1, 0), 1);
}

/* ---- merged = one process ---------------------------------------------------- */

static void test_merge_equals_one_process(void **state)
{
	(void)state;
	struct weft_error err;
	static const enum weft_format fmts[] = { WEFT_FMT_TABLE, WEFT_FMT_CSV, WEFT_FMT_JSON };
	/* 3 shards in several orders, and 11 (3 of them without a point) */
	static const uint32_t orders[][3] = { { 0, 1, 2 }, { 2, 0, 1 }, { 1, 2, 0 } };
	for (size_t f = 0; f < 3; f++) {
		struct weft_est_request req = request(0, 0);
		req.explain = fmts[f] != WEFT_FMT_CSV;
		struct weft_est_report one;
		if (weft_estimate_run(&req, &one, &err))
			fail_msg("one process: %s", err.message);
		assert_int_equal(one.nconfigs, 8);
		assert_int_equal(one.baseline, 4);
		char *want = format(&one, fmts[f]);
		char *parts[11];
		for (uint32_t k = 0; k < 3; k++)
			make_part(k, 3, fmts[f], &parts[k]);
		for (size_t o = 0; o < 3; o++) {
			struct weft_est_report rep;
			enum weft_format got_fmt;
			if (merge(parts, orders[o], 3, &rep, &got_fmt, &err))
				fail_msg("merge: %s", err.message);
			assert_int_equal(got_fmt, fmts[f]);
			assert_int_equal(rep.trace_passes, one.trace_passes);
			char *got = format(&rep, fmts[f]);
			assert_string_equal(got, want);
			free(got);
			weft_est_report_free(&rep);
		}
		for (uint32_t k = 0; k < 3; k++)
			free(parts[k]);
		uint32_t all[11];
		for (uint32_t k = 0; k < 11; k++) {
			make_part(k, 11, fmts[f], &parts[k]);
			all[k] = 10 - k;
		}
		struct weft_est_report rep;
		enum weft_format got_fmt;
		if (merge(parts, all, 11, &rep, &got_fmt, &err))
			fail_msg("merge of 11: %s", err.message);
		char *got = format(&rep, fmts[f]);
		assert_string_equal(got, want);
		free(got);
		weft_est_report_free(&rep);
		for (uint32_t k = 0; k < 11; k++)
			free(parts[k]);
		free(want);
		weft_est_report_free(&one);
	}
}

/* ---- numbers read back bit for bit ------------------------------------------- */

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0 || (isnan(a) && isnan(b));
}

static void test_numbers_exact(void **state)
{
	(void)state;
	struct weft_est_request req = request(0, 1);
	req.explain = 0;
	req.nsweeps = 0;
	req.baseline = NULL;
	struct weft_est_report rep;
	struct weft_error err;
	if (weft_estimate_run(&req, &rep, &err))
		fail_msg("%s", err.message);
	static const double odd[] = { NAN, INFINITY, -INFINITY, -0.0, 5e-324, DBL_MAX, 0.1,
				      1.0 / 3, 123456789.123456789, -2.5e-300 };
	struct weft_est_config *c = &rep.configs[1];
	double *slots[] = { &c->total.cycles, &c->total.seconds, &c->total.ipc, &c->total.energy_j[0],
			    &c->total.power_w, &c->clock_hz, &c->static_w, &c->area_mm2,
			    &c->launches[0].insts_per_j, &c->launches[1].perf_per_area };
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		*slots[i] = odd[i];
	c->total.thread_insts = (uint64_t)INT64_MAX;
	struct weft_est_report copy = rep;
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	if (weft_est_shard_write(&rep, WEFT_FMT_JSON, &b, &err))
		fail_msg("%s", err.message);
	struct weft_est_report back;
	enum weft_format fmt;
	char *texts[] = { strdup(weft_sbuf_str(&b)) };
	static const uint32_t order[] = { 0 };
	if (merge(texts, order, 1, &back, &fmt, &err))
		fail_msg("%s", err.message);
	const struct weft_est_config *d = &back.configs[1];
	const double *got[] = { &d->total.cycles, &d->total.seconds, &d->total.ipc,
				&d->total.energy_j[0], &d->total.power_w, &d->clock_hz, &d->static_w,
				&d->area_mm2, &d->launches[0].insts_per_j, &d->launches[1].perf_per_area };
	for (size_t i = 0; i < sizeof(got) / sizeof(got[0]); i++)
		if (!same_bits(*got[i], odd[i]))
			fail_msg("value %zu: wrote %a, read %a", i, odd[i], *got[i]);
	assert_true(d->total.thread_insts == (uint64_t)INT64_MAX);
	/* every other figure too */
	for (uint32_t i = 0; i < copy.nconfigs; i++) {
		const struct weft_est_config *x = &copy.configs[i], *y = &back.configs[i];
		assert_int_equal(x->nlaunches, y->nlaunches);
		assert_int_equal(x->narea, y->narea);
		for (uint32_t a = 0; a < x->narea; a++) {
			assert_true(same_bits(x->area_items[a].count, y->area_items[a].count));
			assert_true(same_bits(x->area_items[a].area_mm2, y->area_items[a].area_mm2));
			assert_string_equal(x->area_items[a].why, y->area_items[a].why);
		}
		for (uint32_t l = 0; l <= x->nlaunches; l++) {
			const struct weft_est_figures *f = l < x->nlaunches ? &x->launches[l] : &x->total;
			const struct weft_est_figures *g = l < x->nlaunches ? &y->launches[l] : &y->total;
			assert_int_equal(f->launch, g->launch);
			assert_string_equal(f->kernel, g->kernel);
			assert_string_equal(f->limiter, g->limiter);
			for (int k = 0; k < WEFT_CAT_COUNT; k++)
				assert_true(same_bits(f->energy_j[k], g->energy_j[k]));
			assert_true(same_bits(f->energy_total_j, g->energy_total_j));
			assert_int_equal(f->cpi->n, g->cpi->n);
			for (uint32_t k = 0; k < f->cpi->n; k++) {
				assert_string_equal(f->cpi->item[k].name, g->cpi->item[k].name);
				assert_true(same_bits(f->cpi->item[k].cycles, g->cpi->item[k].cycles));
			}
			assert_int_equal(f->nstats, g->nstats);
			for (uint32_t k = 0; k < f->nstats; k++) {
				assert_string_equal(f->stats[k].key, g->stats[k].key);
				assert_true(same_bits(f->stats[k].value, g->stats[k].value));
				assert_string_equal(f->stats[k].unit, g->stats[k].unit);
			}
			assert_true((f->explain == NULL) == (g->explain == NULL));
		}
	}
	free(texts[0]);
	weft_sbuf_free(&b);
	weft_est_report_free(&back);
	weft_est_report_free(&rep);
}

/* ---- refusals ---------------------------------------------------------------- */

/* text with edit applied to its JSON and the checksum made right again. */
typedef void (*edit_fn)(json_t *doc);
static char *reseal(const char *text, edit_fn edit)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	json_object_del(doc, "checksum");
	edit(doc);
	char *canon = json_dumps(doc, JSON_COMPACT);
	char sum[40];
	snprintf(sum, sizeof(sum), "fnv1a64:%016llx",
		 (unsigned long long)weft_fnv1a(WEFT_FNV1A_INIT, canon, strlen(canon)));
	free(canon);
	json_object_set_new(doc, "checksum", json_string(sum));
	char *out = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	return out;
}

static json_t *res0(json_t *doc)
{
	return json_array_get(json_object_get(doc, "results"), 0);
}
static json_t *run_of(json_t *doc)
{
	return json_object_get(doc, "run");
}
static void e_version(json_t *d) { json_object_set_new(run_of(d), "weft_version", json_string("9.9.9")); }
static void e_format_version(json_t *d) { json_object_set_new(d, "weft_shard_part", json_integer(2)); }
static void e_extra_key(json_t *d) { json_object_set_new(res0(d), "bogus", json_true()); }
static void e_long_kernel(json_t *d)
{
	char k[100];
	memset(k, 'k', sizeof(k) - 1);
	k[sizeof(k) - 1] = 0;
	json_object_set_new(json_object_get(res0(d), "total"), "kernel", json_string(k));
}
static void e_cycles_type(json_t *d) { json_object_set_new(json_object_get(res0(d), "total"), "cycles", json_string("lots")); }
static void e_energy_short(json_t *d) { json_array_remove(json_object_get(json_object_get(res0(d), "total"), "energy_j"), 0); }
static void e_cpi_over(json_t *d)
{
	json_t *cpi = json_object_get(json_object_get(res0(d), "total"), "cpi");
	for (int i = 0; i < WEFT_MAX_CPI + 1; i++)
		json_array_append_new(cpi, json_pack("[sf]", "x", 1.0));
}
static void e_stat_shape(json_t *d) { json_array_append_new(json_object_get(json_object_get(res0(d), "total"), "stats"), json_pack("[sf]", "x", 1.0)); }
static void e_point_index(json_t *d) { json_object_set_new(res0(d), "point", json_integer(1)); }
static void e_result_gone(json_t *d) { json_array_remove(json_object_get(d, "results"), 0); }
static void e_shard_big(json_t *d) { json_object_set_new(d, "shard", json_integer(5)); }
static void e_baseline_big(json_t *d) { json_object_set_new(run_of(d), "baseline", json_integer(8)); }
static void e_csv_explain(json_t *d) { json_object_set_new(run_of(d), "format", json_string("csv")); }
static void e_launches_over(json_t *d)
{
	json_t *l = json_object_get(res0(d), "launches");
	json_array_append(l, json_array_get(l, 0));
}
static void e_total_launch(json_t *d) { json_object_set_new(json_object_get(res0(d), "total"), "launch", json_integer(0)); }
static void e_neg_insts(json_t *d) { json_object_set_new(json_object_get(res0(d), "total"), "thread_insts", json_integer(-1)); }
static void e_hash(json_t *d)
{
	json_object_set_new(json_object_get(run_of(d), "trace"), "hash", json_string("fnv1a64-file:XYZ"));
}
static void e_trace_hash(json_t *d)
{
	json_object_set_new(json_object_get(run_of(d), "trace"), "hash",
			    json_string("fnv1a64-file:0123456789abcdef"));
}
static void e_explain_type(json_t *d)
{
	json_object_set_new(json_array_get(json_object_get(res0(d), "launches"), 0), "explain", json_integer(1));
}

static void expect_refused(char **parts, const uint32_t *order, uint32_t n, const char *phrase)
{
	struct weft_est_report rep;
	enum weft_format fmt;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = merge(parts, order, n, &rep, &fmt, &err);
	if (rc != WEFT_ERR_INPUT)
		fail_msg("`%s`: rc %d (%s)", phrase, rc, err.message);
	char msg[1400];
	weft_error_format(&err, msg, sizeof(msg));
	if (!strstr(msg, phrase))
		fail_msg("wanted `%s` in: %s", phrase, msg);
}

static void test_refusals(void **state)
{
	(void)state;
	char *p[3];
	for (uint32_t k = 0; k < 3; k++)
		make_part(k, 3, WEFT_FMT_TABLE, &p[k]);
	static const uint32_t o012[] = { 0, 1, 2 }, o01[] = { 0, 1 }, o011[] = { 0, 1, 1 };
	expect_refused(p, o01, 2, "1 of the 3 shards is missing (shard 2; the parts given start with p0)");
	expect_refused(p, o011, 3, "p1: shard 1 of 3 again: p1 is that shard's part already");
	expect_refused(p, o01, 0, "no shard parts to merge");

	static const struct { edit_fn edit; const char *phrase; } edits[] = {
		{ e_version, "a part made by weft 9.9.9" },
		{ e_format_version, "a shard part of another format" },
		{ e_extra_key, "results[0]: unexpected key \"bogus\"" },
		{ e_long_kernel, "results[0].total: \"kernel\" is 99 bytes long, more than the 63" },
		{ e_cycles_type, "results[0].total: \"cycles\" is not a number" },
		{ e_energy_short, "\"energy_j\" has 10 categories, not 11" },
		{ e_cpi_over, "\"cpi\" has" },
		{ e_stat_shape, "a \"stats\" element is not [key, value, unit]" },
		{ e_point_index, "results[0]: holds point 1 where this shard's point 0 belongs" },
		{ e_result_gone, "2 results where shard 0 of 3 over 8 points has 3" },
		{ e_shard_big, "shard 5 of 3: K must be less than N" },
		{ e_baseline_big, "run: \"baseline\" is point 8 of 8" },
		{ e_csv_explain, "--explain with --format csv" },
		{ e_launches_over, "\"launches\" has" },
		{ e_total_launch, "the totals have a \"launch\"" },
		{ e_neg_insts, "\"thread_insts\" is -1, outside 0" },
		{ e_hash, "\"hash\" is not fnv1a64-file:<16 hex digits>" },
		{ e_explain_type, "\"explain\" is not a string" },
	};
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *q[1] = { reseal(p[0], edits[i].edit) };
		static const uint32_t o0[] = { 0 };
		expect_refused(q, o0, 1, edits[i].phrase);
		free(q[0]);
	}
	/* another run: the first field that differs, with both values */
	char *q[3] = { p[0], reseal(p[1], e_trace_hash), p[2] };
	expect_refused(q, o012, 3,
		       "p1: not a part of the same run as p0: their trace.hash differs");
	expect_refused(q, o012, 3, "\"fnv1a64-file:0123456789abcdef\" here");
	free(q[1]);

	/* damaged: a digit changed without resealing, a cut, not JSON, not a part */
	char *d = strdup(p[1]);
	char *c = strstr(d, "\"cycles\":");
	c[9] = c[9] == '9' ? '8' : '9';
	q[1] = d;
	expect_refused(q, o012, 3, "p1: the part's checksum does not match its content");
	d[strlen(d) / 2] = 0;
	expect_refused(q, o012, 3, "the shard part ends too early: truncated");
	strcpy(d, "{\"a\": 1, \"a\": 2}");
	expect_refused(q, o012, 3, "duplicate object key");
	strcpy(d, "[1, 2]");
	expect_refused(q, o012, 3, "not a weft-estimate shard part");
	strcpy(d, "");
	expect_refused(q, o012, 3, "an empty file, not a shard part");
	free(d);

	/* the size cap is checked before the text is touched */
	struct weft_est_merge *m;
	struct weft_error err;
	assert_int_equal(weft_est_merge_new(&m, &err), 0);
	assert_int_equal(weft_est_merge_add_text(m, "big", "", (size_t)WEFT_EST_PART_MAX_BYTES + 1, &err),
			 WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "more than the 268435456 a shard part may have"));
	weft_est_merge_free(m);
	for (uint32_t k = 0; k < 3; k++)
		free(p[k]);
}

/* A shard report is a part: the formatters refuse it. */
static void test_shard_report_is_not_a_report(void **state)
{
	(void)state;
	struct weft_est_request req = request(1, 2);
	struct weft_est_report rep;
	struct weft_error err;
	if (weft_estimate_run(&req, &rep, &err))
		fail_msg("%s", err.message);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	assert_int_equal(weft_est_report_format(&rep, WEFT_FMT_TABLE, &b, &err), WEFT_ERR_INTERNAL);
	weft_sbuf_free(&b);
	/* every point is named, only shard 1's were run */
	assert_int_equal(rep.nconfigs, 8);
	for (uint32_t i = 0; i < 8; i++) {
		assert_true(rep.configs[i].name[0] && rep.configs[i].path[0] && rep.configs[i].hash);
		assert_int_equal(rep.configs[i].nlaunches > 0, i % 2 == 1);
	}
	weft_est_report_free(&rep);
	req = request(2, 2);
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "K must be less than N"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_shard),
		cmocka_unit_test(test_model_passes),
		cmocka_unit_test(test_merge_equals_one_process),
		cmocka_unit_test(test_numbers_exact),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_shard_report_is_not_a_report),
	};
	return cmocka_run_group_tests(tests, make_trace, drop_trace);
}
