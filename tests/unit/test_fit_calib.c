/*
 * test_fit_calib.c - the calibration fits of a model description to a data
 * CSV (area.h, weft_area_fit_run): exact recovery of known coefficients from
 * synthetic data (weighted and not, with a fixed term and a `where` filter),
 * leave-one-out and standard errors on cases small enough to check by hand,
 * points that are not identifiable, the feature expressions, every error a
 * hostile or mistaken file gets, and the bundled Maven models.
 */
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

#include "area/area.h"

#define NEAR(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

static char data_path[64], model_path[64];

/* Writes text to a fresh temporary file; its name into path. */
static void write_tmp(char *path, const char *text)
{
	strcpy(path, "/tmp/weft-test-fit.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

/* Fits model text to data text; returns the code, r filled. */
static int run(const char *data, const char *model, struct weft_calib_report *r,
	       struct weft_error *err)
{
	write_tmp(data_path, data);
	write_tmp(model_path, model);
	weft_error_clear(err);
	int rc = weft_area_fit_run(data_path, model_path, r, err);
	unlink(data_path);
	unlink(model_path);
	return rc;
}

/* y = 2 + 3 a + 0.5 a b + 4 [kind == x], exactly, at 9 points */
static const char synth_csv[] = "# a comment line\n"
				"name,a,b,kind,y,note\n"
				"p1,1,1,x,,skip me\n"
				"p2,1,2,y,,\n"
				"p3,2,1,x,,\n"
				"p4,2,3,y,,\n"
				"p5,3,2,x,,\n"
				"p6,4,1,y,,\n"
				"p7,5,5,x,,\n"
				"p8,6,2,y,,\n"
				"p9,7,3,y,,\n";

static char *synth_data(void)
{
	static char buf[1024];
	char *o = buf;
	const char *p = strchr(synth_csv, '\n') + 1; /* after the comment */
	o += sprintf(o, "# a comment line\n");
	const char *nl = strchr(p, '\n');
	o += sprintf(o, "%.*s\n", (int)(nl - p), p);
	for (p = nl + 1; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		char name[8], kind[4];
		int a, b;
		assert_int_equal(sscanf(p, "%7[^,],%d,%d,%3[^,]", name, &a, &b, kind), 4);
		double y = 2 + 3.0 * a + 0.5 * a * b + 4 * (kind[0] == 'x');
		o += sprintf(o, "%s,%d,%d,%s,%.17g,\n", name, a, b, kind, y);
	}
	return buf;
}

static const char synth_model[] = "[model]\n"
				  "name = synth\n"
				  "response = y\n"
				  "unit = u\n"
				  "weights = relative\n"
				  "[term one]\n"
				  "feature = 1\n"
				  "[term a]\n"
				  "feature = a\n"
				  "unit = u per a\n"
				  "[term ab]\n"
				  "feature = a * b\n"
				  "[term x]\n"
				  "feature = kind == \"x\"\n";

static void test_exact_recovery(void **unused)
{
	(void)unused;
	struct weft_calib_report r;
	struct weft_error err;
	const double want[4] = { 2, 3, 0.5, 4 };
	for (int weights = 0; weights < 2; weights++) {
		char model[1024];
		snprintf(model, sizeof(model), "%s", synth_model);
		if (weights)
			memcpy(strstr(model, "relative"), "none    ", 8);
		assert_int_equal(run(synth_data(), model, &r, &err), 0);
		assert_int_equal(r.npts, 9);
		assert_int_equal(r.nterms, 4);
		assert_int_equal(r.dof, 5);
		assert_int_equal(r.relative, !weights);
		assert_string_equal(r.label, "name"); /* default: the first column */
		assert_string_equal(r.pts[0].label, "p1");
		assert_int_equal(r.pts[0].line, 3);
		for (int j = 0; j < 4; j++) {
			NEAR(r.terms[j].coef, want[j], 1e-9);
			assert_true(r.terms[j].std_err < 1e-6);
		}
		NEAR(r.r2, 1, 1e-12);
		assert_true(r.mape_pct < 1e-9);
		assert_int_equal(r.nloo, 9);
		for (uint32_t i = 0; i < r.npts; i++) {
			assert_true(r.pts[i].loo_ok);
			NEAR(r.pts[i].loo_pred, r.pts[i].observed, 1e-8);
		}
		NEAR(r.loo_q2, 1, 1e-9);
		assert_non_null(weft_area_fit_term(&r, "ab"));
		assert_null(weft_area_fit_term(&r, "nope"));
		assert_string_equal(weft_area_fit_term(&r, "a")->unit, "u per a");
		weft_area_fit_free(&r);
	}

	/* a fixed term is taken off, the rest recovered; a where filter */
	const char *model = "[model]\nresponse = y\nwhere = a < 7\n"
			    "[term one]\nfeature = 1\n"
			    "[term a]\nfeature = a\nfixed = 3\nsource = test: the known value\n"
			    "[term a2]\nfeature = a\n"
			    "[term ab]\nfeature = a * b\n"
			    "[term x]\nfeature = kind == \"x\"\n";
	assert_int_equal(run(synth_data(), model, &r, &err), 0);
	assert_int_equal(r.npts, 8);
	assert_int_equal(r.nskipped, 1);
	assert_int_equal(r.nfitted, 4);
	const struct weft_calib_term *t = weft_area_fit_term(&r, "a");
	assert_true(t->fixed);
	assert_true(t->coef == 3);
	assert_true(isnan(t->std_err));
	assert_string_equal(t->source, "test: the known value");
	NEAR(weft_area_fit_term(&r, "one")->coef, 2, 1e-9);
	NEAR(weft_area_fit_term(&r, "a2")->coef, 0, 1e-9);
	NEAR(weft_area_fit_term(&r, "ab")->coef, 0.5, 1e-9);
	NEAR(weft_area_fit_term(&r, "x")->coef, 4, 1e-9);
	NEAR(r.pts[7].fitted, 2 + 3 * 6 + 0.5 * 12, 1e-9); /* p8, fixed part included */
	weft_area_fit_free(&r);
}

/* Hand-checked: a constant fits the mean (weights none) and leaves each
 * point out to the mean of the others; a line through 3 points. */
static void test_loo_by_hand(void **unused)
{
	(void)unused;
	struct weft_calib_report r;
	struct weft_error err;
	const char *model = "[model]\nresponse = y\nweights = none\n[term c]\nfeature = 1\n";
	assert_int_equal(run("k,y\na,1\nb,2\nc,3\nd,6\n", model, &r, &err), 0);
	NEAR(r.terms[0].coef, 3, 1e-12);
	/* s^2 = (4 + 1 + 0 + 9) / 3; se = sqrt(s^2 / 4) */
	NEAR(r.terms[0].std_err, sqrt(14.0 / 12.0), 1e-12);
	NEAR(r.r2, 0, 1e-12);
	NEAR(r.rmse, sqrt(14.0 / 4), 1e-12);
	/* |rel err|: 2/1, 1/2, 0, 3/6 */
	NEAR(r.mape_pct, 100 * (2 + 0.5 + 0 + 0.5) / 4, 1e-9);
	NEAR(r.pts[3].loo_pred, 2, 1e-12);        /* mean(1, 2, 3) */
	NEAR(r.pts[3].loo_rel_err, (2 - 6) / 6.0, 1e-12);
	NEAR(r.pts[0].loo_pred, 11 / 3.0, 1e-12); /* mean(2, 3, 6) */
	/* PRESS: (11/3-1)^2 + (10/3-2)^2 + (3-3)^2 + (2-6)^2 */
	double press = pow(8 / 3.0, 2) + pow(4 / 3.0, 2) + 0 + 16;
	NEAR(r.loo_q2, 1 - press / 14, 1e-12);
	weft_area_fit_free(&r);

	/* relative weights: c = sum(1/y) / sum(1/y^2) */
	model = "[model]\nresponse = y\n[term c]\nfeature = 1\n";
	assert_int_equal(run("k,y\na,1\nb,2\nc,4\n", model, &r, &err), 0);
	NEAR(r.terms[0].coef, 1.75 / 1.3125, 1e-12);
	/* without 4: (1 + 1/2) / (1 + 1/4); without 1: (1/2 + 1/4) / (1/4 + 1/16) */
	NEAR(r.pts[2].loo_pred, 1.5 / 1.25, 1e-12);
	NEAR(r.pts[0].loo_pred, 0.75 / 0.3125, 1e-12);
	weft_area_fit_free(&r);

	/* y = a + b x through (0,1), (1,3): leaving out (2,2) predicts 5 */
	model = "[model]\nresponse = y\nweights = none\n[term a]\nfeature = 1\n[term b]\nfeature = x\n";
	assert_int_equal(run("k,x,y\np,0,1\nq,1,3\ns,2,2\n", model, &r, &err), 0);
	NEAR(r.terms[0].coef, 1.5, 1e-12); /* least squares: y = 1.5 + 0.5 x */
	NEAR(r.terms[1].coef, 0.5, 1e-12);
	NEAR(r.pts[2].loo_pred, 5, 1e-12);
	NEAR(r.pts[2].loo_rel_err, 1.5, 1e-12);
	NEAR(r.pts[0].loo_pred, 4, 1e-12); /* through (1,3), (2,2): y = 4 - x */
	NEAR(r.pts[0].loo_rel_err, 3, 1e-12);
	weft_area_fit_free(&r);
}

/* A term only one point has: that point's leave-one-out fit is not
 * determined, and the report says which terms it lacks. */
static void test_not_identifiable(void **unused)
{
	(void)unused;
	struct weft_calib_report r;
	struct weft_error err;
	const char *model = "[model]\nresponse = y\n[term c]\nfeature = 1\n[term rare]\n"
			    "feature = special\n[term two]\nfeature = x\n";
	assert_int_equal(run("k,x,special,y\na,1,0,2\nb,2,0,3\nc,3,0,4.1\nd,4,1,9\n", model, &r, &err),
			 0);
	assert_int_equal(r.nloo, 3);
	assert_false(r.pts[3].loo_ok);
	assert_non_null(strstr(r.pts[3].loo_note, "not identifiable: without it, term rare's feature is 0"));
	assert_true(r.pts[0].loo_ok);
	NEAR(r.pts[3].fitted, 9, 1e-9); /* its own term fits it exactly */
	weft_area_fit_free(&r);

	/* two points with the same design: c and x dependent once the third goes */
	model = "[model]\nresponse = y\n[term c]\nfeature = 1\n[term slope]\nfeature = x\n";
	assert_int_equal(run("k,x,y\na,1,2\nb,1,2.2\nc,2,3\n", model, &r, &err), 0);
	assert_false(r.pts[2].loo_ok);
	assert_non_null(strstr(r.pts[2].loo_note, "terms c, slope are linearly dependent over these 2 points"));
	assert_true(r.pts[0].loo_ok); /* b and c still differ in x */
	weft_area_fit_free(&r);
}

static void test_expressions(void **unused)
{
	(void)unused;
	struct weft_calib_report r;
	struct weft_error err;
	/* y = 1 + f with f exercising each operator; the fit recovers 1, 1 */
	const char *f = "(-(a) + 2*a) ^ 2/a + max(a,0) - min(a, 0)-a + log2(4)*(a>=1) "
			"- sqrt(4)*(a>0&&!(a<=0)) + abs(-1)*(b!=\"q\"||a==2) + empty(n)-1+(a < 0)";
	/* = a + a - 0 - a + 2 - 2 + (b != q || a == 2) + empty(n) - 1  = a + [..] + e - 1 */
	char model[1024], data[512];
	snprintf(model, sizeof(model),
		 "[model]\nresponse = y\nweights = none\n[term one]\nfeature = 1\n[term f]\nfeature = %s\n",
		 f);
	char *o = data;
	o += sprintf(data, "k,a,b,n,y\n");
	static const struct { int a; const char *b, *n; } rows[] = {
		{ 1, "q", "" }, { 2, "q", "1" }, { 3, "z", "" }, { 4, "q", "5" }, { 5, "z", "x" },
	};
	for (int i = 0; i < 5; i++) {
		int g = (strcmp(rows[i].b, "q") != 0 || rows[i].a == 2);
		int e = rows[i].n[0] == 0;
		double fv = rows[i].a + g + e - 1;
		o += sprintf(o, "r%d,%d,%s,%s,%g\n", i, rows[i].a, rows[i].b, rows[i].n, 1 + fv);
	}
	assert_int_equal(run(data, model, &r, &err), 0);
	NEAR(r.terms[0].coef, 1, 1e-9);
	NEAR(r.terms[1].coef, 1, 1e-9);
	weft_area_fit_free(&r);
}

/* Each fault: the code and a phrase of the message, and the line where the
 * message names one. */
static void expect_error(const char *data, const char *model, int code, const char *phrase,
			 uint32_t line)
{
	struct weft_calib_report r;
	struct weft_error err;
	int rc = run(data, model, &r, &err);
	weft_area_fit_free(&r);
	if (rc != code || !strstr(err.message, phrase) || (line && err.line != line)) {
		fprintf(stderr, "expected %d \"%s\" line %u, got %d \"%s\" line %u\n", code, phrase,
			line, rc, err.message, err.line);
		fail();
	}
}

static void test_errors(void **unused)
{
	(void)unused;
	const char *d = "k,x,z,y\na,1,2,3\nb,2,2,5\nc,3,,7.5\n";
	const char *m1 = "[model]\nresponse = y\n[term c]\nfeature = 1\n";
	char m[4096];
	/* the model file */
	expect_error(d, "[model]\nresponse = y\n", WEFT_ERR_INPUT, "no [term NAME] sections", 0);
	expect_error(d, "[term c]\nfeature = 1\n", WEFT_ERR_INPUT, "no [model] section", 0);
	expect_error(d, "[model]\nname = x\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "[model] has no `response = COLUMN`", 1);
	expect_error(d, "[model]\nresponse = y\nwieghts = none\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "unknown key `wieghts` in [model]; did you mean `weights`?", 3);
	expect_error(d, "[model]\nresponse = y\nweights = some\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "weights = some: expected relative or none", 3);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeatur = 1\n", WEFT_ERR_INPUT,
		     "unknown key `featur` in [term c]; did you mean `feature`?", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nunit = u\n", WEFT_ERR_INPUT,
		     "[term c] has no `feature = EXPRESSION`", 3);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1\n[term c]\nfeature = x\n",
		     WEFT_ERR_INPUT, "a second [term c] (first on line 3)", 5);
	expect_error(d, "[model]\nresponse = y\n[term 9c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "a term name is a letter", 3);
	expect_error(d, "[model]\nresponse = y\n[terms c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "unknown section [terms c]", 3);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1\nfeature = 2\n", WEFT_ERR_INPUT,
		     "`feature` is given twice (first on line 4)", 5);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1\nfixed = 2\n", WEFT_ERR_INPUT,
		     "is fixed but cites no `source`", 5);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1\nfixed = abc\n", WEFT_ERR_INPUT,
		     "fixed = abc is not a number", 5);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1\nfixed = 2\nsource = t\n",
		     WEFT_ERR_INPUT, "every term is fixed", 0);
	expect_error(d, "response = y\n", WEFT_ERR_INPUT, "outside a section", 1);
	expect_error(d, "[model]\nresponse = y\nthis is not ini\n", WEFT_ERR_INPUT, "not an INI line", 3);
	memset(m, 'x', sizeof(m));
	memcpy(m, "[model]\nabout = ", 16);
	m[400] = '\n';
	m[401] = 0;
	expect_error(d, m, WEFT_ERR_INPUT, "line is too long", 2);
	/* too many terms */
	size_t off = (size_t)sprintf(m, "[model]\nresponse = y\n");
	for (int j = 0; j < 17; j++)
		off += (size_t)sprintf(m + off, "[term t%d]\nfeature = x\n", j);
	expect_error(d, m, WEFT_ERR_INPUT, "more than 16 terms", 35);

	/* features against the data */
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = xx + 1\n", WEFT_ERR_INPUT,
		     "the data has no column `xx`; did you mean `x`?", 4);
	expect_error(d, "[model]\nresponse = why\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "response = why: ", 2);
	expect_error(d, "[model]\nresponse = y\nlabel = kk\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "label = kk: ", 3);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = (x + 1\n", WEFT_ERR_INPUT,
		     "expected `)`", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = x +\n", WEFT_ERR_INPUT,
		     "the expression ends where a number", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = x 2\n", WEFT_ERR_INPUT,
		     "unexpected `2` after a complete expression (at character 3", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = \"a\" == x\n", WEFT_ERR_INPUT,
		     "text may only be compared with a column", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = exp(x)\n", WEFT_ERR_INPUT,
		     "unknown function `exp`", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = x == \"a\n", WEFT_ERR_INPUT,
		     "without its closing", 4);
	off = (size_t)sprintf(m, "[model]\nresponse = y\n[term c]\nfeature = ");
	for (int j = 0; j < 30; j++)
		m[off++] = '(';
	strcpy(m + off, "1\n");
	expect_error(d, m, WEFT_ERR_INPUT, "nested more than 24 deep", 4);
	off = (size_t)sprintf(m, "[model]\nresponse = y\n[term c]\nfeature = 1");
	for (int j = 0; j < 60; j++)
		off += (size_t)sprintf(m + off, "+1");
	strcpy(m + off, "\n");
	expect_error(d, m, WEFT_ERR_INPUT, "more than 96 operators", 4);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = z\n", WEFT_ERR_INPUT,
		     "column z is empty where the feature needs a number", 4);
	expect_error("k,x,z,y\na,1,q,3\n", "[model]\nresponse = y\n[term c]\nfeature = z\n",
		     WEFT_ERR_INPUT, "column z: 'q' is not a number", 2);
	expect_error(d, "[model]\nresponse = y\n[term c]\nfeature = 1 / (x - 2)\n", WEFT_ERR_INPUT,
		     "not a finite number", 3);
	expect_error(d, "[model]\nresponse = y\nwhere = x > 5\n[term c]\nfeature = 1\n", WEFT_ERR_INPUT,
		     "the `where` filter left none", 0);
	expect_error("k,y\na,0\nb,1\n", m1, WEFT_ERR_INPUT, "the response y is 0", 2);
	expect_error("k,y\na,\n", m1, WEFT_ERR_INPUT, "column y is empty", 2);
	expect_error("k,y\na,1,2\n", m1, WEFT_ERR_INPUT, "3 fields, the header has 2", 2);
	expect_error("k,y\n", m1, WEFT_ERR_INPUT, "no data rows", 0);

	/* fits the data cannot determine */
	expect_error(d, "[model]\nresponse = y\n[term a]\nfeature = x\n[term b]\nfeature = 2 * x\n",
		     WEFT_ERR_INPUT, "the features of terms a, b are linearly dependent over these 3 points", 0);
	expect_error(d, "[model]\nresponse = y\n[term a]\nfeature = x\n[term b]\nfeature = x * 0\n",
		     WEFT_ERR_INPUT, "term b's feature is 0 at every point", 0);
	expect_error("k,x,y\na,1,1\nb,2,2\n",
		     "[model]\nresponse = y\n[term a]\nfeature = 1\n[term b]\nfeature = x\n[term c]\nfeature = x^2\n",
		     WEFT_ERR_INPUT, "2 points cannot fix 3 coefficients", 0);

	/* magnitudes the fit cannot hold */
	expect_error("k,x,y\na,1e200,1\nb,2,2\n", "[model]\nresponse = y\n[term a]\nfeature = x\n",
		     WEFT_ERR_INPUT, "magnitude beyond 1e+-150", 2);
	expect_error("k,x,y\na,1,1e-200\nb,2,2\n", "[model]\nresponse = y\n[term a]\nfeature = x\n",
		     WEFT_ERR_INPUT, "magnitude beyond 1e+-150", 2);

	/* files */
	struct weft_calib_report r;
	struct weft_error err;
	write_tmp(data_path, d);
	strcpy(model_path, "/tmp/weft-test-fit.XXXXXX");
	int fd = mkstemp(model_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[model]\nresponse = y\0\n", 22), 22);
	close(fd);
	assert_int_equal(weft_area_fit_run(data_path, model_path, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "NUL byte in the model description"));
	weft_area_fit_free(&r);
	unlink(model_path);
	unlink(data_path);
	assert_int_equal(weft_area_fit_run("/nonexistent/d.csv", "/nonexistent/m.model", &r, &err),
			 WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open the model description"));
	weft_area_fit_free(&r);
	assert_int_equal(weft_area_fit_run("/tmp", "/tmp", &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "is a directory"));
	weft_area_fit_free(&r);
	write_tmp(model_path, m1);
	assert_int_equal(weft_area_fit_run("/nonexistent/d.csv", model_path, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open the table"));
	weft_area_fit_free(&r);
	assert_int_equal(weft_area_fit_run("/dev/zero", model_path, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "is not a regular file"));
	weft_area_fit_free(&r);
	unlink(model_path);
}

/* The bundled models fit the 18 tiles; the one single-lane-per-core
 * exception (vt-c1v4) alone separates the tile constant from the per-core
 * term in area and power, so its leave-one-out is not identifiable there. */
static void test_bundled(void **unused)
{
	(void)unused;
	static const char *const models[3] = { "data/calibration/maven_area.model",
					       "data/calibration/maven_power.model",
					       "data/calibration/maven_cycle.model" };
	for (int k = 0; k < 3; k++) {
		struct weft_calib_report r;
		struct weft_error err;
		int rc = weft_area_fit_run("data/calibration/maven_tiles_65nm.csv", models[k], &r, &err);
		if (rc)
			fprintf(stderr, "%s: %s\n", models[k], err.message);
		assert_int_equal(rc, 0);
		assert_int_equal(r.npts, 18);
		assert_true(r.r2 > 0.9);
		assert_true(r.nloo >= 17);
		const struct weft_calib_point *last = &r.pts[17];
		assert_string_equal(last->label, "vt-c1v4r256+bi+2s");
		assert_int_equal(last->loo_ok, k == 2);
		/* a tile the table lacks, vt-c4v1r64, predicted from its components;
		 * and a row of the table predicted as the fit did */
		static const char *const hdr[] = { "config", "pattern", "cores", "lanes_per_core",
						   "phys_regs_per_core_or_lane", "banked",
						   "per_bank_int_alus", "density_time", "pvfb" };
		const char *const vt64[] = { "vt-c4v1r64", "vt", "4", "1", "64", "0", "0", "0", "fifo" };
		const char *const c1v4[] = { "c1v4", "vt", "1", "4", "256", "1", "1", "0", "2-stack" };
		double v32 = 0, v64 = 0, v128 = 0, vc = 0;
		assert_int_equal(weft_area_fit_predict(&r, hdr, vt64, 9, &v64, &err), 0);
		const char *const vt32[] = { "x", "vt", "4", "1", "32", "0", "0", "0", "fifo" };
		const char *const vt128[] = { "x", "vt", "4", "1", "128", "0", "0", "0", "fifo" };
		assert_int_equal(weft_area_fit_predict(&r, hdr, vt32, 9, &v32, &err), 0);
		assert_int_equal(weft_area_fit_predict(&r, hdr, vt128, 9, &v128, &err), 0);
		NEAR(v32, r.pts[7].fitted, 1e-9 * fabs(v32)); /* vt-c4v1r32 */
		NEAR(v64, (2 * v32 + v128) / 3, 1e-9 * fabs(v64)); /* linear in registers */
		assert_int_equal(weft_area_fit_predict(&r, hdr, c1v4, 9, &vc, &err), 0);
		NEAR(vc, last->fitted, 1e-9 * fabs(vc));
		/* a column the features need and the row lacks */
		assert_int_equal(weft_area_fit_predict(&r, hdr, vt64, 4, &vc, &err), WEFT_ERR_INPUT);
		assert_non_null(strstr(err.message, "the data has no column `phys_regs_per_core_or_lane`"));
		weft_area_fit_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_recovery),
		cmocka_unit_test(test_loo_by_hand),
		cmocka_unit_test(test_not_identifiable),
		cmocka_unit_test(test_expressions),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bundled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
