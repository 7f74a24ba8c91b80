/*
 * test_strdist.c - common/strdist.h: edit distances and the "did you
 * mean" rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/strdist.h"

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(weft_edit_distance("", ""), 0);
	assert_int_equal(weft_edit_distance("abc", ""), 3);
	assert_int_equal(weft_edit_distance("", "abc"), 3);
	assert_int_equal(weft_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(weft_edit_distance("num_sm", "num_sms"), 1);
	assert_int_equal(weft_edit_distance("flaw", "lawn"), 2);
	char longer[WEFT_EDIT_MAX + 2];
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = 0;
	assert_int_equal(weft_edit_distance(longer, "x"), WEFT_EDIT_FAR);
	longer[WEFT_EDIT_MAX] = 0; /* exactly the longest measured */
	assert_int_equal(weft_edit_distance(longer, "x"), WEFT_EDIT_MAX - 1);
}

static void test_edit_close(void **state)
{
	(void)state;
	assert_true(weft_edit_close("simpt", "simt", 1));
	assert_true(weft_edit_close("ab", "xy", 2));        /* at least 2 */
	assert_false(weft_edit_close("abc", "xyz", 3));
	assert_true(weft_edit_close("stillmakerrr", "stillmaker", 2));
	assert_true(weft_edit_close("gpuwattch40", "gpu", 8)); /* a prefix */
	assert_false(weft_edit_close("ab", "abcdefghij", 8)); /* prefix too short */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_edit_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
