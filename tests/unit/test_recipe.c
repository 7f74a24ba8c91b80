/*
 * test_recipe.c - weft-study recipes (study/recipe.c): a whole recipe's
 * plan at two sizes (KEY.SIZE replacing KEY, lists over several lines,
 * figure options), the errors a user can make with their line, the caps,
 * the bundled recipes' plans at every size, the trace cache's key, and
 * the output folder's rules (study/study_out.c).
 */
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

#include "common/file.h"
#include "common/sbuf.h"
#include "study/recipe.h"
#include "study/study.h"
#include "study/trace_cache.h"

static const char full[] =
	"# a comment\n"
	"[study]\n"
	"title = A study\n"
	"workloads = vvadd, reduce\n"
	"workloads = sgemm\n"
	"workloads.small = vvadd\n"
	"size = default\n"
	"about = line one\n"
	"about = line two\n"
	"not_modelled = x\n"
	"\n"
	"[run a]\n"
	"configs = fermi-sm, sgmf-core\n"
	"baseline = fermi-sm\n"
	"sweep = sgmf-core:fabric.token_buffer=1,2,4\n"
	"sweep.small = sgmf-core:fabric.token_buffer=4\n"
	"set = fermi-sm:core.num_sm=1\n"
	"\n"
	"[run b]\n"
	"configs = gtx480\n"
	"workloads = reduce\n"
	"workloads.small = vvadd\n"
	"\n"
	"[figure f1]\n"
	"run = a\n"
	"kind = sweep\n"
	"metric = speedup\n"
	"key = fabric.token_buffer\n"
	"log = x\n"
	"style = paper\n"
	"format = pdf\n"
	"[figure f2]\n"
	"run = b\n"
	"kind = dist\n"
	"of = active-ut\n"
	"cdf = yes\n"
	"launch = 2\n"
	"[table t]\n"
	"run = a\n"
	"columns = config,speedup\n"
	"digits = 4\n"
	"workloads = reduce\n"
	"workloads.small = vvadd\n";

static struct weft_recipe *parse_ok(const char *text)
{
	struct weft_recipe *r;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_recipe_parse(text, strlen(text), "t.ini", &r, &err);
	if (rc)
		fail_msg("%s", err.message);
	return r;
}

static void test_plan_at_two_sizes(void **state)
{
	(void)state;
	struct weft_recipe *r = parse_ok(full);
	struct weft_study_plan *p;
	struct weft_error err;
	/* the recipe's size: default */
	assert_int_equal(weft_recipe_plan(r, WEFT_SIZE_SMALL, 0, &p, &err), 0);
	assert_int_equal(p->size, WEFT_SIZE_DEFAULT);
	assert_string_equal(p->title, "A study");
	assert_int_equal(p->workloads.n, 3);
	assert_string_equal(p->workloads.v[2], "sgemm");
	assert_int_equal(p->about.n, 2);
	assert_int_equal(p->nruns, 2);
	assert_int_equal(p->runs[0].configs.n, 2);
	assert_string_equal(p->runs[0].sweeps.v[0], "sgmf-core:fabric.token_buffer=1,2,4");
	assert_int_equal(p->runs[0].workloads.n, 3); /* the study's */
	assert_int_equal(p->runs[1].workloads.n, 1);
	assert_string_equal(p->runs[1].workloads.v[0], "reduce");
	assert_int_equal(p->nfigures, 2);
	assert_int_equal(p->figures[0].o.kind, WEFT_PLOT_SWEEP);
	assert_int_equal(p->figures[0].o.log, WEFT_LOG_X);
	assert_int_equal(p->figures[0].o.paper, 1);
	assert_string_equal(p->figures[0].format, "pdf");
	assert_int_equal(p->figures[1].run, 1);
	assert_int_equal(p->figures[1].o.cdf, 1);
	assert_int_equal(p->figures[1].o.launch, 2);
	assert_string_equal(p->figures[1].format, "png");
	assert_int_equal(p->ntables, 1);
	assert_int_equal(p->tables[0].digits, 4);
	assert_string_equal(p->tables[0].workloads.v[0], "reduce");
	weft_recipe_plan_free(p);
	/* small: every KEY.small replaces KEY */
	assert_int_equal(weft_recipe_plan(r, WEFT_SIZE_SMALL, 1, &p, &err), 0);
	assert_int_equal(p->size, WEFT_SIZE_SMALL);
	assert_int_equal(p->workloads.n, 1);
	assert_string_equal(p->runs[0].sweeps.v[0], "sgmf-core:fabric.token_buffer=4");
	assert_int_equal(p->runs[0].sweeps.n, 1);
	assert_string_equal(p->runs[1].workloads.v[0], "vvadd");
	assert_string_equal(p->tables[0].workloads.v[0], "vvadd");
	weft_recipe_plan_free(p);
	weft_recipe_free(r);
}

/* The parse must fail with an input error at line (0: no line) and a
 * message containing frag. */
static void parse_error(const char *text, uint32_t line, const char *frag)
{
	struct weft_recipe *r = (void *)1;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_recipe_parse(text, strlen(text), "t.ini", &r, &err);
	if (rc != WEFT_ERR_INPUT)
		fail_msg("parsed: %s", text);
	assert_null(r);
	if (!strstr(err.message, frag))
		fail_msg("\"%s\" lacks \"%s\"", err.message, frag);
	if (line && err.line != line)
		fail_msg("\"%s\": line %u, expected %u", err.message, err.line, line);
	if (line)
		assert_int_equal(err.line, line);
}

static void plan_error(const char *text, enum weft_size size, const char *frag)
{
	struct weft_recipe *r = parse_ok(text);
	struct weft_study_plan *p = (void *)1;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_recipe_plan(r, size, 1, &p, &err), WEFT_ERR_INPUT);
	assert_null(p);
	if (!strstr(err.message, frag))
		fail_msg("\"%s\" lacks \"%s\"", err.message, frag);
	weft_recipe_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	parse_error("title = x\n", 1, "before any section");
	parse_error("[study]\ntitel = x\n", 2, "did you mean `title`?");
	parse_error("[study]\n[stduy]\n", 2, "unknown section [stduy]");
	parse_error("[study x]\n", 1, "takes no name");
	parse_error("[run]\n", 1, "needs a name");
	parse_error("[run ../x]\n", 1, "a name is letters");
	parse_error("[run .x]\n", 1, "not starting with .");
	parse_error("[study]\ntitle = a\ntitle = b\n", 3, "again (first at line 2)");
	parse_error("[study]\n[study]\n", 2, "[study] again (first at line 1)");
	parse_error("[study]\nsize.small = default\n", 2, "cannot itself depend");
	parse_error("[study]\nsize = huge\n", 2, "small, default or large");
	parse_error("[study]\nworkloads.huge = x\n", 2, "not .huge");
	parse_error("[study]\nworkloads = a,,b\n", 2, "an empty item");
	parse_error("[study]\nworkloads = a b\n", 2, "has a space");
	parse_error("[study]\ntitle =\n", 2, "has no value");
	parse_error("[figure f]\nkind = pie\n", 2, "a figure is bars");
	parse_error("[figure f]\ncdf = maybe\n", 2, "yes or no");
	parse_error("[figure f]\nlaunch = -1\n", 2, "a launch index");
	parse_error("[figure f]\nformat = gif\n", 2, "png, svg or pdf");
	parse_error("[table t]\ndigits = 16\n", 2, "1 to 15");
	parse_error("[study]\nnot a key line\n", 2, "");
	parse_error("[run a]\nconfigs = x\n", 0, "has no [study] section");
	{
		static const char nul[] = "[study]\ntitle = a\0b\n";
		struct weft_recipe *r;
		struct weft_error err;
		assert_int_equal(weft_recipe_parse(nul, sizeof(nul) - 1, "t.ini", &r, &err), WEFT_ERR_INPUT);
		assert_non_null(strstr(err.message, "NUL byte"));
	}

	const char *base = "[study]\nworkloads = vvadd\n[run a]\nconfigs = fermi-sm\n";
	char text[2048];
	plan_error("[study]\nworkloads = vvadd\n", WEFT_SIZE_SMALL, "has no [run NAME]");
	plan_error("[study]\nworkloads = vvad\n[run a]\nconfigs = fermi-sm\n", WEFT_SIZE_SMALL,
		   "did you mean `vvadd`?");
	plan_error("[study]\nworkloads = vvadd, vvadd\n[run a]\nconfigs = x\n", WEFT_SIZE_SMALL,
		   "listed twice");
	plan_error("[study]\n[run a]\nconfigs = x\n", WEFT_SIZE_SMALL, "has no workloads at size small");
	plan_error("[study]\nworkloads = vvadd\n[run a]\nbaseline = x\n", WEFT_SIZE_SMALL,
		   "needs `configs");
	snprintf(text, sizeof(text), "%s[figure f]\nkind = bars\n", base);
	plan_error(text, WEFT_SIZE_SMALL, "needs `run = NAME`");
	snprintf(text, sizeof(text), "%s[figure f]\nrun = b\nkind = bars\n", base);
	plan_error(text, WEFT_SIZE_SMALL, "no [run b]");
	snprintf(text, sizeof(text), "%s[figure f]\nrun = a\n", base);
	plan_error(text, WEFT_SIZE_SMALL, "needs `kind");
	snprintf(text, sizeof(text), "%s[figure f]\nrun = a\nkind = bars\nkey = a.b\n", base);
	plan_error(text, WEFT_SIZE_SMALL, "`key` does not apply to kind bars");
	snprintf(text, sizeof(text), "%s[table t]\nrun = a\nworkloads = reduce\n", base);
	plan_error(text, WEFT_SIZE_SMALL, "workload reduce is not one of [run a]'s");
	/* a key given only at another size does not count */
	plan_error("[study]\nworkloads.large = vvadd\n[run a]\nconfigs = x\n", WEFT_SIZE_SMALL,
		   "no workloads");
}

static void test_caps(void **state)
{
	(void)state;
	struct weft_sbuf b;
	/* 65 list items of one key at one size */
	weft_sbuf_init(&b);
	weft_sbuf_puts(&b, "[study]\nworkloads = vvadd\n[run a]\n");
	for (int i = 0; i < 65; i++)
		weft_sbuf_printf(&b, "configs = a%d\n", i);
	plan_error(b.data, WEFT_SIZE_SMALL, "more than 64 values of `configs`");
	weft_sbuf_free(&b);
	/* 17 runs */
	weft_sbuf_init(&b);
	weft_sbuf_puts(&b, "[study]\n");
	for (int i = 0; i < 17; i++)
		weft_sbuf_printf(&b, "[run r%d]\n", i);
	parse_error(b.data, 18, "more than 16 [run] sections");
	weft_sbuf_free(&b);
	/* more values than the file may hold */
	weft_sbuf_init(&b);
	weft_sbuf_puts(&b, "[study]\n");
	for (int i = 0; i < 4100; i++)
		weft_sbuf_puts(&b, "about = x\n");
	parse_error(b.data, 4098, "more than 4096 values");
	weft_sbuf_free(&b);
	/* a file over the size cap */
	struct weft_recipe *r;
	struct weft_error err;
	assert_int_equal(weft_recipe_parse("", WEFT_RECIPE_MAX_BYTES + 1u, "big.ini", &r, &err),
			 WEFT_ERR_INPUT);
}

static void test_bundled_recipes_plan(void **state)
{
	(void)state;
	static const char *const names[] = { "sgmf", "dmt", "maven", "overlay", "tesla" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[1400];
		struct weft_error err;
		weft_error_clear(&err);
		if (weft_recipe_resolve(names[i], path, sizeof(path), &err))
			fail_msg("%s: %s", names[i], err.message);
		struct weft_recipe *r;
		if (weft_recipe_load(path, &r, &err))
			fail_msg("%s: %s", path, err.message);
		for (int s = WEFT_SIZE_SMALL; s <= WEFT_SIZE_LARGE; s++) {
			struct weft_study_plan *p;
			if (weft_recipe_plan(r, (enum weft_size)s, 1, &p, &err))
				fail_msg("%s at %d: %s", path, s, err.message);
			assert_true(p->nruns > 0 && p->nfigures > 0 && p->ntables > 0);
			weft_recipe_plan_free(p);
		}
		weft_recipe_free(r);
	}
	char path[1400];
	struct weft_error err;
	assert_int_equal(weft_recipe_resolve("sgfm", path, sizeof(path), &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "did you mean `sgmf`?"));
}

static void test_trace_key(void **state)
{
	(void)state;
	const struct weft_workload *v = weft_workload_find("vvadd"), *r = weft_workload_find("reduce");
	assert_non_null(v);
	assert_non_null(r);
	uint64_t a = weft_study_trace_key(v, WEFT_SIZE_SMALL);
	assert_true(a == weft_study_trace_key(v, WEFT_SIZE_SMALL));
	assert_true(a != weft_study_trace_key(v, WEFT_SIZE_DEFAULT));
	assert_true(a != weft_study_trace_key(r, WEFT_SIZE_SMALL));
	/* the PTX is part of the key */
	struct weft_workload w = *v;
	w.ptx_text = "// another kernel\n";
	assert_true(a != weft_study_trace_key(&w, WEFT_SIZE_SMALL));
}

static void test_out_folder(void **state)
{
	(void)state;
	char dir[] = "/tmp/weft-test-recipe.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char out[256], tmp[300], path[400];
	struct weft_error err;
	snprintf(out, sizeof(out), "%s/s", dir);
	/* first study */
	assert_int_equal(weft_study_out_begin(out, tmp, sizeof(tmp), &err), 0);
	snprintf(path, sizeof(path), "%s/a", tmp);
	assert_int_equal(weft_write_atomic(path, "1", 1, &err), 0);
	assert_int_equal(weft_study_out_publish(out, tmp, &err), 0);
	snprintf(path, sizeof(path), "%s/a", out);
	assert_int_equal(access(path, F_OK), 0);
	/* a killed second study left its tmp: removed at the next begin */
	assert_int_equal(weft_study_out_begin(out, tmp, sizeof(tmp), &err), 0);
	snprintf(path, sizeof(path), "%s/b", tmp);
	assert_int_equal(weft_write_atomic(path, "2", 1, &err), 0);
	assert_int_equal(weft_study_out_begin(out, tmp, sizeof(tmp), &err), 0);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(weft_study_out_publish(out, tmp, &err), 0);
	snprintf(path, sizeof(path), "%s/a", out);
	assert_int_not_equal(access(path, F_OK), 0); /* replaced, not merged */
	/* a folder that is not a study is never touched */
	snprintf(path, sizeof(path), "%s/theirs", dir);
	assert_int_equal(mkdir(path, 0777), 0);
	assert_int_equal(weft_study_out_begin(path, tmp, sizeof(tmp), &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "is not a weft-study folder"));
	assert_int_equal(weft_study_rmtree(dir, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_at_two_sizes), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_caps),              cmocka_unit_test(test_bundled_recipes_plan),
		cmocka_unit_test(test_trace_key),         cmocka_unit_test(test_out_folder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
