/*
 * test_validate.c - weft-validate's library (estimate/validate.h): claims
 * files (good rows with every kind of field, and each kind of bad row with
 * its position and message), the arithmetic on synthetic figures (kernel
 * figures, means, ranges, trends, bands, judgements), and one run at small
 * size on a tiny claims file that checks the structure of the report,
 * temporary and kept traces, and its three formats, never the models'
 * numbers (the models change; see docs/validate.md).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "estimate/validate.h"

#define HEADER                                                                                  \
	"id,publication,where,workloads,baseline,config,sweep,metric,aggregate,node_nm,published," \
	"band,mapping,note\n"

static int parse(const char *text, struct weft_val_claims *out, struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	weft_error_clear(err);
	return weft_val_claims_parse(text, strlen(text), "t/claims.csv", "configs", out, err);
}

/* ---- claims: good rows -------------------------------------------------------- */

static void test_claims_good(void **unused)
{
	(void)unused;
	const char *text =
		"# a comment line\n"
		HEADER
		"\n"
		"s-avg,\"Someone & Other, A Paper, ISCA 2014\",\"Sec. 7, Fig. 10\",cfd gaussian:fan1,"
		"fermi-sm.ini,sgmf-core.ini fabric.token_buffer=16,-,speedup,mean,-,1.77,x1.5,"
		"\"cfd is CFD-1, \"\"roughly\"\"\",a note\r\n"
		"tb,P,W,nn,fermi-sm.ini,sgmf-core.ini,\"fabric.token_buffer=1:8:x2\",speedup,trend,-,"
		"non-decreasing,direction,,\n"
		"share,P,W,bfs,-,fermi-sm.ini,,energy_share:comp,geomean,,0.14,x2,,\n"
		"rng,P,W,nn backprop,fermi-sm.ini,sgmf-core.ini,-,ipj_ratio,range,-,1.2-5.7,x1.5,,\n"
		"slow,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,<1,direction,,\n"
		"area,P,W,-,-,sgmf-core.ini,-,area,-,65,54.30,x1.1,,\n"
		"aratio,P,W,-,tesla-sm.ini core.sp_per_sm=4,tesla-sm.ini core.sp_per_sm=8,-,area_ratio,-,65,"
		"1.09,x1.1,,\n";
	struct weft_val_claims cl;
	struct weft_error err;
	assert_int_equal(parse(text, &cl, &err), 0);
	assert_int_equal(cl.n, 7);

	const struct weft_val_claim *c = &cl.v[0];
	assert_string_equal(c->id, "s-avg");
	assert_string_equal(c->publication, "Someone & Other, A Paper, ISCA 2014");
	assert_string_equal(c->where, "Sec. 7, Fig. 10");
	assert_int_equal(c->nitems, 2);
	assert_string_equal(c->items[0].workload, "cfd");
	assert_string_equal(c->items[0].kernel, "");
	assert_string_equal(c->items[1].workload, "gaussian");
	assert_string_equal(c->items[1].kernel, "fan1");
	assert_true(c->baseline.present);
	assert_string_equal(c->baseline.path, "configs/fermi-sm.ini");
	assert_string_equal(c->baseline.name, "fermi-sm");
	assert_string_equal(c->config.name, "sgmf-core");
	assert_int_equal(c->config.nsets, 1);
	assert_string_equal(c->config.sets[0], "fabric.token_buffer=16");
	assert_string_equal(c->sweep, "");
	assert_int_equal(c->metric, WEFT_VAL_SPEEDUP);
	assert_int_equal(c->agg, WEFT_VAL_AGG_MEAN);
	assert_int_equal(c->pub, WEFT_VAL_PUB_VALUE);
	assert_true(c->pub_v[0] == 1.77);
	assert_int_equal(c->band, WEFT_VAL_BAND_FACTOR);
	assert_true(c->factor == 1.5);
	assert_string_equal(c->mapping, "cfd is CFD-1, \"roughly\"");
	assert_string_equal(c->note, "a note");
	assert_string_equal(c->file, "t/claims.csv");
	assert_int_equal(c->line, 4);

	c = &cl.v[1];
	assert_int_equal(c->line, 5);
	assert_int_equal(c->agg, WEFT_VAL_AGG_TREND);
	assert_int_equal(c->pub, WEFT_VAL_PUB_NONDECREASING);
	assert_int_equal(c->band, WEFT_VAL_BAND_DIRECTION);
	assert_string_equal(c->sweep_key, "fabric.token_buffer");
	assert_int_equal(c->nsweep, 4);
	assert_string_equal(c->sweep_values[3], "8");

	c = &cl.v[2];
	assert_false(c->baseline.present);
	assert_int_equal(c->metric, WEFT_VAL_ENERGY_SHARE);
	assert_int_equal(c->category, WEFT_CAT_COMP);
	assert_int_equal(c->agg, WEFT_VAL_AGG_GEOMEAN);

	c = &cl.v[3];
	assert_int_equal(c->pub, WEFT_VAL_PUB_RANGE);
	assert_true(c->pub_v[0] == 1.2 && c->pub_v[1] == 5.7);

	c = &cl.v[4];
	assert_int_equal(c->pub, WEFT_VAL_PUB_BELOW);
	assert_true(c->pub_v[0] == 1);

	c = &cl.v[5];
	assert_int_equal(c->metric, WEFT_VAL_AREA);
	assert_int_equal(c->agg, WEFT_VAL_AGG_NONE);
	assert_int_equal(c->nitems, 0);
	assert_true(c->node_nm == 65);

	c = &cl.v[6];
	assert_int_equal(c->metric, WEFT_VAL_AREA_RATIO);
	assert_string_equal(c->baseline.sets[0], "core.sp_per_sm=4");

	/* a second file appends; a repeated id is named with both places */
	const char *more = HEADER "x2,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n";
	assert_int_equal(weft_val_claims_parse(more, strlen(more), "u.csv", "configs", &cl, &err), 0);
	assert_int_equal(cl.n, 8);
	const char *dup = HEADER "tb,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n";
	assert_int_equal(weft_val_claims_parse(dup, strlen(dup), "v.csv", "configs", &cl, &err),
			 WEFT_ERR_INPUT);
	assert_int_equal(cl.n, 8); /* unchanged */
	assert_string_equal(err.file, "v.csv");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 1);
	assert_non_null(strstr(err.message, "already the id of the claim at t/claims.csv:5"));
	weft_val_claims_free(&cl);

	/* a byte-order mark and CRLF line ends, as spreadsheets save */
	const char *bom = "\xef\xbb\xbfid,publication,where,workloads,baseline,config,sweep,metric,"
			  "aggregate,node_nm,published,band,mapping,note\r\n"
			  "b,P,W,cfd,fermi-sm.ini,sgmf-core.ini,,speedup,kernel,,<1,direction,,\r\n";
	memset(&cl, 0, sizeof(cl));
	assert_int_equal(weft_val_claims_parse(bom, strlen(bom), "b.csv", "configs", &cl, &err), 0);
	assert_int_equal(cl.n, 1);
	assert_string_equal(cl.v[0].note, "");
	assert_int_equal(cl.v[0].pub, WEFT_VAL_PUB_BELOW);
	weft_val_claims_free(&cl);

	/* "./x" is relative to the claims file's directory */
	const char *rel = HEADER "r,P,W,-,-,../configs/sgmf-core.ini,-,area,-,65,54,x1.1,,\n";
	assert_int_equal(weft_val_claims_parse(rel, strlen(rel), "data/claims.csv", NULL, &cl, &err), 0);
	assert_string_equal(cl.v[0].config.path, "data/../configs/sgmf-core.ini");
	weft_val_claims_free(&cl);

	/* the bundled claims load */
	memset(&cl, 0, sizeof(cl));
	assert_int_equal(weft_val_claims_load("data/validation/claims.csv", "configs", &cl, &err), 0);
	assert_true(cl.n >= 8);
	weft_val_claims_free(&cl);
}

/* ---- claims: each kind of bad row --------------------------------------------------- */

struct bad {
	const char *row;         /* after HEADER (line 2 onwards) */
	uint32_t line, column;
	const char *phrase;
};

#define OKROW_TAIL "fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x2,,"

static void test_claims_bad(void **unused)
{
	(void)unused;
	static const struct bad cases[] = {
		{ "a b,P,W,cfd," OKROW_TAIL "\n", 2, 1, "column `id`: `a b`: an id is letters" },
		{ ",P,W,cfd," OKROW_TAIL "\n", 2, 1, "column `id`: empty; it is required" },
		{ "a,,W,cfd," OKROW_TAIL "\n", 2, 3, "column `publication`: empty" },
		{ "a,P\x01,W,cfd," OKROW_TAIL "\n", 2, 3, "column `publication`: a control character" },
		{ "a,P\xc3(,W,cfd," OKROW_TAIL "\n", 2, 3, "column `publication`: not UTF-8" },
		{ "a,P,W,nope," OKROW_TAIL "\n", 2, 7, "no bundled workload `nope`" },
		{ "a,P,W,sgem," OKROW_TAIL "\n", 2, 7,
		  "no bundled workload `sgem`; `weft-trace list` shows them; did you mean `sgemm` or `sgemm_shader`?" },
		{ "a,P,W,gaussian:fan9," OKROW_TAIL "\n", 2, 7, "has no kernel `fan9`; its kernels: fan1, fan2" },
		{ "a,P,W,gaussian:," OKROW_TAIL "\n", 2, 7, "write WORKLOAD or WORKLOAD:KERNEL" },
		{ "a,P,W,cfd cfd," OKROW_TAIL "\n", 2, 7, "`cfd` is listed twice" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini fabric.nope=1,-,speedup,kernel,-,1,x2,,\n", 2, 24,
		  "column `config`: override fabric.nope=1: unknown key" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini fabric.token_buffer=0,-,speedup,kernel,-,1,x2,,\n", 2,
		  24, "out of range" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini token_buffer,-,speedup,kernel,-,1,x2,,\n", 2, 24,
		  "`token_buffer` is not SEC.KEY=VALUE" },
		{ "a,P,W,cfd,fermi-sm.ini,fabric.token_buffer=1 sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n", 2,
		  24, "comes before the config file" },
		{ "a,P,W,cfd,fermi-sm.ini,missing.ini,-,speedup,kernel,-,1,x2,,\n", 2, 24,
		  "cannot open the config" },
		{ "a,P,W,cfd,-,sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n", 2, 11,
		  "column `baseline`: speedup compares two configs" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,energy_share:comp,mean,-,1,x2,,\n", 2, 11,
		  "is about one config; write -" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speed,kernel,-,1,x2,,\n", 2, 40,
		  "column `metric`: `speed` is not a metric" },
		{ "a,P,W,cfd,-,fermi-sm.ini,-,energy_share:cmp,mean,-,1,x2,,\n", 2, 28,
		  "no energy category `cmp`" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,avg,-,1,x2,,\n", 2, 48,
		  "column `aggregate`: `avg` is not an aggregate" },
		{ "a,P,W,cfd nn,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n", 2, 51,
		  "`kernel` is about one kernel and 2 are listed" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,65,1,x2,,\n", 2, 55,
		  "only area claims name a node" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,abc,x2,,\n", 2, 57,
		  "column `published`: `abc`: write a number" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,0,x2,,\n", 2, 57, "must be > 0" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,range,-,5-1,x2,,\n", 2, 56,
		  "0 < LOW < HIGH" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,mean,-,1-5,x2,,\n", 2, 55,
		  "LOW-HIGH needs aggregate range" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,range,-,1,x2,,\n", 2, 56,
		  "a range is published as LOW-HIGH" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x1,,\n", 2, 59,
		  "column `band`: `x1`: write xF with a factor F > 1" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,direction,,\n", 2, 59,
		  "band direction needs a published direction" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,<1,x2,,\n", 2, 60,
		  "is published as a direction; write direction" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,-,speedup,trend,-,increasing,direction,,\n", 2, 38,
		  "a trend needs a sweep" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,fabric.token_buffer=1:2:x2,speedup,mean,-,1,x2,,\n",
		  2, 38, "only a trend sweeps" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,fabric.token_buffer=1:2:x2,speedup,trend,-,1,x2,,\n",
		  2, 81, "a trend is published as increasing" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,fabric.token_buffer=4,speedup,trend,-,increasing,"
		  "direction,,\n",
		  2, 38, "1 value; a trend needs 2 to 32" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,\"fabric.token_buffer=1,0\",speedup,trend,-,"
		  "increasing,direction,,\n",
		  2, 38, "sweep point fabric.token_buffer=0: " },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini fabric.token_buffer=4,\"fabric.token_buffer=1,2\","
		  "speedup,trend,-,increasing,direction,,\n",
		  2, 60, "both set in column config and swept" },
		{ "a,P,W,cfd,fermi-sm.ini,sgmf-core.ini,fabric.nokey=1:2:x2,speedup,trend,-,increasing,"
		  "direction,,\n",
		  2, 38, "unknown key [fabric] nokey" },
		{ "a,P,W,-,-,sgmf-core.ini,-,area,-,-,54,x2,,\n", 2, 34,
		  "an area claim needs the published node" },
		{ "a,P,W,-,-,sgmf-core.ini,-,area,-,5,54,x2,,\n", 2, 34, "7 to 180" },
		{ "a,P,W,cfd,-,sgmf-core.ini,-,area,-,65,54,x2,,\n", 2, 7, "an area claim runs no workload" },
		{ "a,P,W,-,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,1,x2,,\n", 2, 7,
		  "speedup needs kernels" },
		{ "a,P,W,cfd," OKROW_TAIL ",extra\n", 2, 1, "15 fields, the header has 14" },
		{ "a,P,W,cfd," OKROW_TAIL "\"open\n", 2, 63, "unterminated quoted field" },
		{ "a,\"P\"x,W,cfd," OKROW_TAIL "\n", 2, 6, "text after a closing quote" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[2048];
		snprintf(text, sizeof(text), HEADER "%s", cases[i].row);
		struct weft_val_claims cl;
		struct weft_error err;
		int rc = parse(text, &cl, &err);
		if (rc != WEFT_ERR_INPUT || err.line != cases[i].line || err.column != cases[i].column ||
		    !strstr(err.message, cases[i].phrase)) {
			print_error("case %zu: rc %d at %u:%u: %s\n  expected %u:%u: %s\n", i, rc, err.line,
				    err.column, err.message, cases[i].line, cases[i].column, cases[i].phrase);
			fail();
		}
		assert_int_equal(cl.n, 0);
		assert_null(cl.v);
		assert_string_equal(err.file, "t/claims.csv");
	}

	/* the file as a whole */
	struct weft_val_claims cl;
	struct weft_error err;
	assert_int_equal(parse("", &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no header row"));
	assert_int_equal(parse(HEADER, &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no claims under the header"));
	assert_int_equal(parse("id,publication,where\n", &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "the header has no column `workloads`"));
	assert_int_equal(parse("id,id,publication\n", &cl, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.column, 4);
	assert_non_null(strstr(err.message, "column `id` appears twice"));
	assert_int_equal(parse("id,colour\n", &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "unknown column `colour`"));
	const char nul[] = HEADER "a,P\0,W\n";
	weft_error_clear(&err);
	memset(&cl, 0, sizeof(cl));
	assert_int_equal(weft_val_claims_parse(nul, sizeof(nul) - 1, "n.csv", "configs", &cl, &err),
			 WEFT_ERR_INPUT);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 4);
	assert_non_null(strstr(err.message, "a NUL byte"));
	char *big = malloc(8000);
	memset(big, 'p', 7999);
	big[7999] = '\0';
	char *text = malloc(9000);
	snprintf(text, 9000, HEADER "a,%s,W\n", big);
	assert_int_equal(parse(text, &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "a field longer than 4095 bytes"));
	snprintf(text, 9000, HEADER "a,%.600s,W,cfd," OKROW_TAIL "\n", big);
	assert_int_equal(parse(text, &cl, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "longer than the 511 allowed"));
	free(big);
	free(text);
	memset(&cl, 0, sizeof(cl));
	assert_int_equal(weft_val_claims_load("/nonexistent/claims.csv", "configs", &cl, &err),
			 WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open claims file /nonexistent/claims.csv"));
}

/* ---- published values and bands ------------------------------------------------------ */

static void test_published_and_band(void **unused)
{
	(void)unused;
	enum weft_val_pub k;
	double v[2];
	const char *why;
	assert_int_equal(weft_val_parse_published("1.77", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_VALUE);
	assert_true(v[0] == 1.77);
	assert_int_equal(weft_val_parse_published("2.5e-3", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_VALUE);
	assert_true(v[0] == 2.5e-3);
	assert_int_equal(weft_val_parse_published("1.2-5.7", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_RANGE);
	assert_true(v[0] == 1.2 && v[1] == 5.7);
	assert_int_equal(weft_val_parse_published("1e-3-2e-3", &k, v, &why), 0);
	assert_true(v[0] == 1e-3 && v[1] == 2e-3);
	assert_int_equal(weft_val_parse_published("<1", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_BELOW);
	assert_int_equal(weft_val_parse_published(">0.5", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_ABOVE);
	assert_true(v[0] == 0.5);
	assert_int_equal(weft_val_parse_published("increasing", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_INCREASING);
	assert_int_equal(weft_val_parse_published("non-increasing", &k, v, &why), 0);
	assert_int_equal(k, WEFT_VAL_PUB_NONINCREASING);
	static const char *const bad[] = { "", "-1", "0", "<", "<x", "1-", "-", "2-1", "1 ", "nan",
					   "inf", "1..5", "rising" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		if (weft_val_parse_published(bad[i], &k, v, &why) != -1 || !why) {
			print_error("published `%s` accepted\n", bad[i]);
			fail();
		}
	}
	enum weft_val_band b;
	double f;
	assert_int_equal(weft_val_parse_band("x1.5", &b, &f, &why), 0);
	assert_int_equal(b, WEFT_VAL_BAND_FACTOR);
	assert_true(f == 1.5);
	assert_int_equal(weft_val_parse_band("direction", &b, &f, &why), 0);
	assert_int_equal(b, WEFT_VAL_BAND_DIRECTION);
	static const char *const badb[] = { "", "x", "x1", "x0.5", "1.5", "X2", "xinf", "dir" };
	for (size_t i = 0; i < sizeof(badb) / sizeof(badb[0]); i++)
		assert_int_equal(weft_val_parse_band(badb[i], &b, &f, &why), -1);
}

/* ---- arithmetic -------------------------------------------------------------------------- */

static void test_item_figures(void **unused)
{
	(void)unused;
	struct weft_val_sums base = { .nlaunches = 2, .seconds = 4, .insts = 100, .energy_j = 10 };
	struct weft_val_sums cfg = { .nlaunches = 2, .seconds = 2, .insts = 100, .energy_j = 4 };
	cfg.cat_j[WEFT_CAT_COMP] = 1;
	assert_true(weft_val_item_figure(WEFT_VAL_SPEEDUP, 0, &base, &cfg) == 2);
	/* (100 / 4) / (100 / 10) */
	assert_true(fabs(weft_val_item_figure(WEFT_VAL_IPJ_RATIO, 0, &base, &cfg) - 2.5) < 1e-12);
	assert_true(weft_val_item_figure(WEFT_VAL_ENERGY_SHARE, WEFT_CAT_COMP, NULL, &cfg) == 0.25);
	/* undefined: no launch, zero time, zero energy */
	struct weft_val_sums none = { 0 };
	assert_true(isnan(weft_val_item_figure(WEFT_VAL_SPEEDUP, 0, &base, &none)));
	assert_true(isnan(weft_val_item_figure(WEFT_VAL_SPEEDUP, 0, &none, &cfg)));
	struct weft_val_sums zero = cfg;
	zero.seconds = 0;
	zero.energy_j = 0;
	assert_true(isnan(weft_val_item_figure(WEFT_VAL_SPEEDUP, 0, &base, &zero)));
	assert_true(isnan(weft_val_item_figure(WEFT_VAL_IPJ_RATIO, 0, &base, &zero)));
	assert_true(isnan(weft_val_item_figure(WEFT_VAL_ENERGY_SHARE, WEFT_CAT_COMP, NULL, &zero)));
}

static void test_aggregates(void **unused)
{
	(void)unused;
	const double x[] = { 1, 4, 2, 8 };
	double v[2];
	assert_int_equal(weft_val_aggregate(WEFT_VAL_AGG_MEAN, x, 4, v), 1);
	assert_true(v[0] == 3.75);
	assert_int_equal(weft_val_aggregate(WEFT_VAL_AGG_GEOMEAN, x, 4, v), 1);
	assert_true(fabs(v[0] - pow(64, 0.25)) < 1e-12);
	weft_val_aggregate(WEFT_VAL_AGG_MIN, x, 4, v);
	assert_true(v[0] == 1);
	weft_val_aggregate(WEFT_VAL_AGG_MAX, x, 4, v);
	assert_true(v[0] == 8);
	assert_int_equal(weft_val_aggregate(WEFT_VAL_AGG_RANGE, x, 4, v), 2);
	assert_true(v[0] == 1 && v[1] == 8);
	assert_int_equal(weft_val_aggregate(WEFT_VAL_AGG_KERNEL, x, 1, v), 1);
	assert_true(v[0] == 1);
	/* an undefined kernel makes the aggregate undefined; geomean needs > 0 */
	const double y[] = { 1, NAN, 2 };
	weft_val_aggregate(WEFT_VAL_AGG_MEAN, y, 3, v);
	assert_true(isnan(v[0]));
	weft_val_aggregate(WEFT_VAL_AGG_RANGE, y, 3, v);
	assert_true(isnan(v[0]) && isnan(v[1]));
	const double z[] = { 1, 0, 2 };
	weft_val_aggregate(WEFT_VAL_AGG_GEOMEAN, z, 3, v);
	assert_true(isnan(v[0]));
	weft_val_aggregate(WEFT_VAL_AGG_MEAN, z, 3, v);
	assert_true(v[0] == 1);
}

static void test_trends_and_bands(void **unused)
{
	(void)unused;
	const double up[] = { 1, 2, 3 }, flat[] = { 1, 2, 2 }, down[] = { 3, 2, 1 };
	const double bad[] = { 1, NAN, 3 };
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_INCREASING, up, 3), 1);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_INCREASING, flat, 3), 0);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_NONDECREASING, flat, 3), 1);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_NONDECREASING, down, 3), 0);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_DECREASING, down, 3), 1);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_NONINCREASING, up, 3), 0);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_INCREASING, bad, 3), -1);
	assert_int_equal(weft_val_trend_holds(WEFT_VAL_PUB_INCREASING, up, 1), -1);

	assert_true(weft_val_in_factor(1, 1.5));
	assert_true(weft_val_in_factor(1.5, 1.5));
	assert_true(weft_val_in_factor(1 / 1.5, 1.5));
	assert_false(weft_val_in_factor(1.5001, 1.5));
	assert_false(weft_val_in_factor(0.6666, 1.5));
	assert_false(weft_val_in_factor(NAN, 1.5));
	assert_false(weft_val_in_factor(2, 1)); /* not a band */
}

static void judge(const char *published, const char *band, enum weft_val_agg agg, const double *x,
		  uint32_t n, struct weft_val_result *r)
{
	struct weft_val_claim c;
	memset(&c, 0, sizeof(c));
	const char *why;
	assert_int_equal(weft_val_parse_published(published, &c.pub, c.pub_v, &why), 0);
	assert_int_equal(weft_val_parse_band(band, &c.band, &c.factor, &why), 0);
	c.agg = agg;
	c.nitems = n;
	memset(r, 0, sizeof(*r));
	r->claim = c;
	weft_val_judge(&c, x, n, r);
}

static void test_judge(void **unused)
{
	(void)unused;
	struct weft_val_result r;
	const double x[] = { 1.0, 2.0, 3.0 };
	/* mean 2 against 1.77 within x1.5 */
	judge("1.77", "x1.5", WEFT_VAL_AGG_MEAN, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_IN);
	assert_int_equal(r.nvalues, 1);
	assert_true(r.value[0] == 2);
	assert_true(fabs(r.ratio[0] - 2 / 1.77) < 1e-12);
	assert_string_equal(r.value_text, "2");
	/* min 1 against 1.6 within x1.5: 0.625 < 1/1.5 */
	judge("1.6", "x1.5", WEFT_VAL_AGG_MIN, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_OUT);
	/* range 1-3 against 1.2-5.7: 3 / 5.7 = 0.53 is out of x1.5, in x2 */
	judge("1.2-5.7", "x1.5", WEFT_VAL_AGG_RANGE, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_OUT);
	assert_int_equal(r.nvalues, 2);
	assert_string_equal(r.value_text, "1-3");
	judge("1.2-5.7", "x2", WEFT_VAL_AGG_RANGE, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_IN);
	assert_true(fabs(r.ratio[1] - 3 / 5.7) < 1e-12);
	/* directions */
	const double slow = 0.8;
	judge("<1", "direction", WEFT_VAL_AGG_KERNEL, &slow, 1, &r);
	assert_int_equal(r.verdict, WEFT_VAL_IN);
	assert_true(isnan(r.ratio[0]));
	judge(">1", "direction", WEFT_VAL_AGG_KERNEL, &slow, 1, &r);
	assert_int_equal(r.verdict, WEFT_VAL_OUT);
	/* trends over points */
	judge("increasing", "direction", WEFT_VAL_AGG_TREND, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_IN);
	assert_int_equal(r.nvalues, 0);
	assert_string_equal(r.value_text, "1..3 (2/2 up)");
	judge("decreasing", "direction", WEFT_VAL_AGG_TREND, x, 3, &r);
	assert_int_equal(r.verdict, WEFT_VAL_OUT);
	assert_string_equal(r.value_text, "1..3 (0/2 down)");
	/* an undefined figure: unknown, never in or out */
	const double y[] = { 1, NAN };
	judge("1", "x2", WEFT_VAL_AGG_MEAN, y, 2, &r);
	assert_int_equal(r.verdict, WEFT_VAL_UNKNOWN);
	assert_string_equal(r.value_text, "-");
	judge("increasing", "direction", WEFT_VAL_AGG_TREND, y, 2, &r);
	assert_int_equal(r.verdict, WEFT_VAL_UNKNOWN);
}

/* ---- one run at small size ------------------------------------------------------------- */

static const char tiny[] =
	HEADER
	"sp,P,W,vvadd cmult,fermi-sm.ini,sgmf-core.ini,-,speedup,mean,-,1,x1000000,m,n\n"
	"one,P,W,cmult,fermi-sm.ini,sgmf-core.ini fabric.token_buffer=4,-,ipj_ratio,kernel,-,1,"
	"x1000000,,\n"
	"tr,P,W,vvadd cmult,fermi-sm.ini,sgmf-core.ini,fabric.token_buffer=1:4:x2,speedup,trend,-,"
	"non-decreasing,direction,,\n"
	"sh,P,W,vvadd,-,fermi-sm.ini,-,energy_share:static,max,-,0.5,x1000000,,\n"
	"self,P,W,vvadd,tesla-sm.ini,tesla-sm.ini core.sp_per_sm=16,-,speedup,kernel,-,1,x1000000,,\n"
	"ar,P,W,-,tesla-sm.ini core.sp_per_sm=4,tesla-sm.ini,-,area_ratio,-,65,1,x1.5,,\n";

static void check_report(const struct weft_val_report *rep)
{
	assert_int_equal(rep->n, 6);
	assert_string_equal(rep->size, "small");
	assert_int_equal(rep->ntraces, 2); /* vvadd and cmult, each traced once */
	assert_int_equal(rep->nin + rep->nout + rep->nunknown, 6);
	for (uint32_t i = 0; i < rep->n; i++) {
		const struct weft_val_result *r = &rep->results[i];
		if (r->verdict == WEFT_VAL_UNKNOWN) {
			print_error("claim %s not computed: %s\n", r->claim.id, r->detail);
			fail();
		}
		assert_true(r->detail[0] != '\0');
	}
	const struct weft_val_result *r = &rep->results[0];
	assert_string_equal(r->claim.id, "sp");
	assert_int_equal(r->nitem_values, 2);
	assert_true(r->item_value[0] > 0 && r->item_value[1] > 0);
	assert_true(fabs(r->value[0] - (r->item_value[0] + r->item_value[1]) / 2) < 1e-12);
	assert_true(fabs(r->ratio[0] - r->value[0]) < 1e-12); /* published 1 */
	assert_non_null(strstr(r->detail, "vvadd "));
	assert_non_null(strstr(r->detail, "geomean"));
	r = &rep->results[2];
	assert_int_equal(r->npoints, 3);
	assert_int_equal(r->nvalues, 0);
	for (uint32_t p = 0; p < 3; p++)
		assert_true(r->point_value[p] > 0);
	assert_non_null(strstr(r->detail, "fabric.token_buffer"));
	r = &rep->results[3];
	assert_true(r->value[0] > 0 && r->value[0] < 1); /* a share */
	r = &rep->results[4]; /* two configs of the same file name */
	assert_true(r->value[0] > 0);
	r = &rep->results[5];
	assert_true(r->area_mm2[0] > 0 && r->area_mm2[1] > 0);
	assert_true(fabs(r->value[0] - r->area_mm2[0] / r->area_mm2[1]) < 1e-12);
}

static void test_run_small(void **unused)
{
	(void)unused;
	struct weft_val_claims cl;
	struct weft_error err;
	assert_int_equal(parse(tiny, &cl, &err), 0);

	/* a temporary trace directory: removed, paths not reported */
	struct weft_val_request req = { .claims = &cl, .size = WEFT_SIZE_SMALL };
	struct weft_val_report rep;
	int rc = weft_val_run(&req, &rep, &err);
	if (rc)
		print_error("%s\n", err.message);
	assert_int_equal(rc, 0);
	check_report(&rep);
	assert_string_equal(rep.trace_dir, "");
	for (uint32_t t = 0; t < rep.ntraces; t++) {
		assert_string_equal(rep.traces[t].path, "");
		assert_false(rep.traces[t].reused);
		assert_true(rep.traces[t].bytes > 0);
	}
	double first = rep.results[0].value[0];

	const enum weft_format fmts[] = { WEFT_FMT_TABLE, WEFT_FMT_CSV, WEFT_FMT_JSON };
	const char *marks[] = { "\nsp ", "\n0.1.0,small,sp,", "\"id\": \"sp\"" };
	for (int f = 0; f < 3; f++) {
		struct weft_sbuf text;
		weft_sbuf_init(&text);
		assert_int_equal(weft_val_report_format(&rep, fmts[f], &text, &err), 0);
		if (!strstr(weft_sbuf_str(&text), marks[f])) {
			print_error("format %d lacks `%s`:\n%s\n", f, marks[f], weft_sbuf_str(&text));
			fail();
		}
		weft_sbuf_free(&text);
	}
	weft_val_report_free(&rep);

	/* a kept trace directory: made, kept, and reused by the next run */
	char dir[] = "/tmp/weft-test-validate.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/traces", dir);
	req.trace_dir = sub;
	assert_int_equal(weft_val_run(&req, &rep, &err), 0);
	assert_string_equal(rep.trace_dir, sub);
	char path[256];
	snprintf(path, sizeof(path), "%s/vvadd-small.wtr", sub);
	assert_int_equal(access(path, R_OK), 0);
	assert_false(rep.traces[0].reused);
	weft_val_report_free(&rep);
	assert_int_equal(weft_val_run(&req, &rep, &err), 0);
	check_report(&rep);
	assert_true(rep.traces[0].reused && rep.traces[1].reused);
	assert_true(rep.results[0].value[0] == first); /* same traces, same figures */
	weft_val_report_free(&rep);

	/* --only: a subset, in claims order; an unknown id lists the ids */
	const char *only[] = { "ar", "sp" };
	req.only = only;
	req.nonly = 2;
	assert_int_equal(weft_val_run(&req, &rep, &err), 0);
	assert_int_equal(rep.n, 2);
	assert_string_equal(rep.results[0].claim.id, "sp");
	assert_string_equal(rep.results[1].claim.id, "ar");
	weft_val_report_free(&rep);
	const char *nope[] = { "nope" };
	req.only = nope;
	req.nonly = 1;
	assert_int_equal(weft_val_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "--only nope: no claim has this id; the ids: sp, one"));
	req.only = NULL;
	req.nonly = 0;

	/* a file under the trace's name that is not that trace */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a trace", f);
	fclose(f);
	assert_int_equal(weft_val_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "delete"));
	/* a trace directory that is a file */
	req.trace_dir = path;
	assert_int_equal(weft_val_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "is not a directory"));

	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	weft_val_claims_free(&cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claims_good),
		cmocka_unit_test(test_claims_bad),
		cmocka_unit_test(test_published_and_band),
		cmocka_unit_test(test_item_figures),
		cmocka_unit_test(test_aggregates),
		cmocka_unit_test(test_trends_and_bands),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_run_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
