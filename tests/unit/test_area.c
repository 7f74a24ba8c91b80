/*
 * test_area.c - component area tables (nearest-node rows, scaling, missing
 * rows), the area of the bundled configs, and the Tesla-like SM fit: the
 * refit reproduces the coefficients committed to data/area/components.csv,
 * matches the absolute synthesis row, and reports leave-one-out honestly.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "area/area.h"

#define NEAR(a, b, rel) assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

static void test_table_and_sum(void **unused)
{
	(void)unused;
	char path[] = "/tmp/weft-test-area.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("component,node_nm,area_mm2,unit,source\n"
	      "x,65,2,unit,test\n"
	      "x,40,1,unit,test\n"
	      "y,65,4,unit,test\n",
	      f);
	fclose(f);
	struct weft_area_table t;
	struct weft_error err;
	assert_int_equal(weft_area_table_load(path, &t, &err), 0);
	/* exact node, then nearest node in log distance */
	assert_true(weft_area_table_find(&t, "x", 40)->area_mm2 == 1);
	assert_true(weft_area_table_find(&t, "x", 45)->area_mm2 == 1);
	assert_true(weft_area_table_find(&t, "x", 60)->area_mm2 == 2);
	assert_null(weft_area_table_find(&t, "z", 40));

	struct weft_component c[2] = { { .name = "x", .count = 3, .why = "three" },
					{ .name = "y", .count = 0.5, .why = "half" } };
	struct weft_area_report r;
	assert_int_equal(weft_area_of_components(&t, c, 2, 65, WEFT_SCALING_CLASSIC, &r, &err), 0);
	NEAR(r.total_mm2, 3 * 2 + 0.5 * 4, 1e-12);
	assert_int_equal(r.nscaled, 0);
	assert_string_equal(r.lines[1].why, "half");
	/* at 32.5 nm: x from its 40 nm row, y from 65 nm, classic (L'/L)^2 */
	assert_int_equal(weft_area_of_components(&t, c, 2, 32.5, WEFT_SCALING_CLASSIC, &r, &err), 0);
	NEAR(r.lines[0].mm2, 3 * 1 * pow(32.5 / 40, 2), 1e-12);
	NEAR(r.lines[1].mm2, 0.5 * 4 * 0.25, 1e-12);
	assert_int_equal(r.nscaled, 2);
	assert_non_null(strstr(r.scaling_note, "classic"));

	struct weft_component z = { .name = "z", .count = 1 };
	assert_int_equal(weft_area_of_components(&t, &z, 1, 40, WEFT_SCALING_CLASSIC, &r, &err),
			 WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no area for component z at 40 nm"));
	assert_string_equal(err.file, path);
	/* a component the model priced (no row: the table is not consulted),
	 * here at 65 nm with a negative term beside it; scaled like a row */
	struct weft_component p[2] = {
		{ .name = "z", .count = 2, .priced_nm = 65, .mm2_per_unit = 0.5, .unit = "core",
		  .source = "fit: test" },
		{ .name = "x", .count = 1, .priced_nm = 65, .mm2_per_unit = -0.25, .unit = "core",
		  .source = "fit: a difference" }
	};
	assert_int_equal(weft_area_of_components(&t, p, 2, 65, WEFT_SCALING_CLASSIC, &r, &err), 0);
	NEAR(r.total_mm2, 2 * 0.5 - 0.25, 1e-12);
	assert_int_equal(r.nscaled, 0);
	assert_string_equal(r.lines[0].source, "fit: test");
	assert_string_equal(r.lines[1].unit, "core");
	assert_int_equal(weft_area_of_components(&t, p, 1, 32.5, WEFT_SCALING_CLASSIC, &r, &err), 0);
	NEAR(r.lines[0].mm2, 2 * 0.5 * 0.25, 1e-12);
	assert_true(r.lines[0].scaled && r.lines[0].from_node_nm == 65);
	weft_area_table_free(&t);
	remove(path);
}

static void test_fit_reproduces_table(void **unused)
{
	(void)unused;
	struct weft_fit_report r;
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_area_fit_tesla_sm("data/calibration/configurable_sm_65nm.csv", &r, &err) != 0)
		fail_msg("%s", err.message);
	assert_int_equal(r.ncoef, 3);
	assert_int_equal(r.npts, 4);
	struct weft_area_table t;
	assert_int_equal(weft_area_table_load("data/area/components.csv", &t, &err), 0);
	static const char *const names[3] = { "tesla_sm_fixed", "tesla_sp", "tesla_sp_quadratic" };
	for (int j = 0; j < 3; j++) {
		const struct weft_area_row *row = weft_area_table_find(&t, names[j], 65);
		assert_non_null(row);
		assert_true(row->node_nm == 65);
		if (fabs(row->area_mm2 - r.coef[j]) > 1e-6 * fabs(r.coef[j]))
			fail_msg("%s: table %.9g, refit %.9g", names[j], row->area_mm2, r.coef[j]);
		assert_non_null(strstr(row->source, "derived: least-squares fit (weft-area fit"));
	}
	weft_area_table_free(&t);
	/* the absolute row is matched; the ratios are within a few percent */
	assert_true(fabs(r.pts[0].rel_err) < 1e-6);
	for (uint32_t i = 1; i < 4; i++)
		assert_true(fabs(r.pts[i].rel_err) < 0.06);
	/* quadratic growth: c > 0 and A(32)/A(16) > A(16)/A(8) */
	assert_true(r.coef[2] > 0);
	assert_true(r.pts[3].fitted > r.pts[2].fitted);
	assert_true(r.r2 > 0.9 && r.r2 <= 1);
	/* leaving the absolute row out cannot fix the scale */
	assert_false(r.pts[0].loo_ok);
	for (uint32_t i = 1; i < 4; i++)
		assert_true(r.pts[i].loo_ok);
	assert_true(r.loo_mape_pct > r.mape_pct);
}

static void test_fit_bad_data(void **unused)
{
	(void)unused;
	struct weft_fit_report r;
	struct weft_error err;
	assert_int_equal(weft_area_fit_tesla_sm("/nonexistent/sm.csv", &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open"));
}

static double config_area(const char *path, const char *const *sets, uint32_t n, double node)
{
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_config_load(path, sets, n, &cfg, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	struct weft_area_report r;
	if (weft_area_of_config(&cfg, node, &r, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	weft_config_free(&cfg);
	return r.total_mm2;
}

static void test_bundled_configs(void **unused)
{
	(void)unused;
	/* Tesla-like: 16 SMs x 8 SPs is the synthesised 25.41 mm^2 */
	const char *sixteen[] = { "core.num_sm=16" };
	NEAR(config_area("configs/tesla-sm.ini", sixteen, 1, 0), 25.41, 1e-6);
	NEAR(config_area("configs/tesla-sm.ini", NULL, 0, 0), 25.41 / 16, 1e-6);
	/* at 40 nm with the classic rule: x (40/65)^2 */
	const char *classic[] = { "tech.scaling_rule=classic" };
	NEAR(config_area("configs/tesla-sm.ini", classic, 1, 40), 25.41 / 16 * pow(40.0 / 65, 2), 1e-6);
	/* doubling SPs grows the SM super-linearly per SP */
	const char *sp16[] = { "core.sp_per_sm=16" };
	double a8 = config_area("configs/tesla-sm.ini", NULL, 0, 0);
	double a16 = config_area("configs/tesla-sm.ini", sp16, 1, 0);
	assert_true(a16 > a8 && a16 < 2 * a8);
	/* GTX480: 15 SMs of the GF100 die share */
	NEAR(config_area("configs/gtx480.ini", NULL, 0, 0), 15 * 33.07, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_and_sum),
		cmocka_unit_test(test_fit_reproduces_table),
		cmocka_unit_test(test_fit_bad_data),
		cmocka_unit_test(test_bundled_configs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
