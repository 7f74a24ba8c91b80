/*
 * test_wl_util.c - the workload helpers: the float tolerance rule (NaN,
 * infinities, abs + rel), mismatch messages (first index, both values,
 * count of differing elements), exact integer checks, allocation failure,
 * and the seeded RNG's determinism and ranges.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/launch/wl_util.h"

static void test_close_rule(void **unused)
{
	(void)unused;
	assert_true(weft_wl_close(1.0, 1.0, 0, 0));
	assert_false(weft_wl_close(1.0, nextafter(1.0, 2.0), 0, 0));
	assert_true(weft_wl_close(1.0 + 1e-6, 1.0, 1e-6, 1e-12));  /* rel part */
	assert_true(weft_wl_close(1e-7, 0.0, 0, 1e-6));            /* abs part */
	assert_false(weft_wl_close(2e-6, 0.0, 0.5, 1e-6));         /* rel of |ref|=0 adds nothing */
	assert_true(weft_wl_close(NAN, NAN, 0, 0));
	assert_false(weft_wl_close(NAN, 1.0, 1, 1));
	assert_false(weft_wl_close(1.0, NAN, 1, 1));
	assert_true(weft_wl_close(INFINITY, INFINITY, 0, 0));
	assert_false(weft_wl_close(INFINITY, -INFINITY, 1, 1));
	assert_false(weft_wl_close(INFINITY, 1e30, 1, 1));
}

static void test_check_f32_message(void **unused)
{
	(void)unused;
	struct weft_error err;
	float dev[5] = { 1, 2, 3.5f, 4, 9 }, ref[5] = { 1, 2, 3.25f, 4, 5 };

	weft_error_clear(&err);
	assert_int_equal(weft_wl_check_f32("out", dev, dev, 5, 0, 0, &err), 0);
	assert_int_equal(weft_wl_check_f32("out", dev, ref, 5, 1e-5, 1e-6, &err), WEFT_ERR_VERIFY);
	assert_int_equal(err.code, WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "out[2] = 3.5 (device) vs 3.25 (reference)"));
	assert_non_null(strstr(err.message, "|diff| 0.25"));
	assert_non_null(strstr(err.message, "2 of 5 elements differ"));
}

static void test_check_f64(void **unused)
{
	(void)unused;
	struct weft_error err;
	double dev[2] = { 1.0, 2.0 + 1e-12 }, ref[2] = { 1.0, 2.0 };
	assert_int_equal(weft_wl_check_f64("x", dev, ref, 2, 1e-9, 0, &err), 0);
	assert_int_equal(weft_wl_check_f64("x", dev, ref, 2, 1e-15, 0, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "x[1]"));
}

static void test_check_ints(void **unused)
{
	(void)unused;
	struct weft_error err;
	int32_t a[3] = { -1, 7, 3 }, b[3] = { -1, 8, 3 };
	uint32_t ua[2] = { 4000000000u, 1 }, ub[2] = { 4000000000u, 2 };

	assert_int_equal(weft_wl_check_i32("cost", a, a, 3, &err), 0);
	assert_int_equal(weft_wl_check_i32("cost", a, b, 3, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "cost[1] = 7 (device) vs 8 (reference)"));
	assert_non_null(strstr(err.message, "1 of 3 elements differ"));
	assert_int_equal(weft_wl_check_u32("n", ua, ub, 2, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "n[1] = 1 (device) vs 2 (reference)"));
	const uint8_t ba[4] = { 0, 255, 3, 9 }, bb[4] = { 0, 255, 4, 8 };
	assert_int_equal(weft_wl_check_u8("bits", ba, ba, 4, &err), 0);
	assert_int_equal(weft_wl_check_u8("bits", ba, bb, 4, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "bits[2] = 3 (device) vs 4 (reference)"));
	assert_non_null(strstr(err.message, "2 of 4 elements differ"));
	const int32_t neg[1] = { -5 }, pos[1] = { 5 };
	assert_int_equal(weft_wl_check_i32("s", neg, pos, 1, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "s[0] = -5 (device) vs 5 (reference)"));
}

static void test_report_float(void **unused)
{
	(void)unused;
	struct weft_error err;
	assert_int_equal(weft_wl_report_float("c[17].re", 1.5, 1.25, 1e-5, 1e-5, &err),
			 WEFT_ERR_VERIFY);
	assert_string_equal(err.message, "c[17].re = 1.5 (device) vs 1.25 (reference), |diff| 0.25 "
					 "> tolerance 1e-05 + 1e-05*|ref|");
}

static void test_alloc(void **unused)
{
	(void)unused;
	struct weft_error err;
	unsigned char *p = weft_wl_alloc(10000, 3, &err);
	assert_non_null(p);
	for (size_t i = 0; i < 30000; i++)
		assert_int_equal(p[i], 0);
	free(p);
	weft_error_clear(&err);
	assert_null(weft_wl_alloc(SIZE_MAX / 2, 4, &err)); /* overflows size_t */
	assert_int_equal(err.code, WEFT_ERR_NOMEM);
	assert_non_null(strstr(err.message, "out of host memory"));
}

static void test_rng(void **unused)
{
	(void)unused;
	struct weft_rng a, b;
	weft_rng_seed(&a, 42);
	weft_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++) {
		float f = weft_rng_float(&a, -1.0f, 1.0f);
		assert_true(f == weft_rng_float(&b, -1.0f, 1.0f));
		assert_true(f >= -1.0f && f < 1.0f);
		uint32_t u = weft_rng_below(&a, 7);
		assert_int_equal(u, weft_rng_below(&b, 7));
		assert_true(u < 7);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_rule),  cmocka_unit_test(test_check_f32_message),
		cmocka_unit_test(test_check_f64),   cmocka_unit_test(test_check_ints),
		cmocka_unit_test(test_report_float), cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_rng),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
