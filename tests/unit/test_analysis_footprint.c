/*
 * test_analysis_footprint.c - distinct lines and words per state space
 * (models/analysis/footprint.c), including accesses straddling a line, the
 * address 0, table growth, and per-CTA counting of shared memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "models/analysis/analysis.h"

static void test_footprint(void **state)
{
	(void)state;
	struct weft_footprint f;
	weft_footprint_init(&f);
	/* 32 threads x 4 bytes, unit stride: one line, 32 words */
	for (uint64_t t = 0; t < 32; t++)
		assert_int_equal(weft_footprint_add(&f, WEFT_SPACE_GLOBAL, 0x1000 + 4 * t, 4), 0);
	/* the same again: nothing new */
	for (uint64_t t = 0; t < 32; t++)
		weft_footprint_add(&f, WEFT_SPACE_GLOBAL, 0x1000 + 4 * t, 4);
	/* an 8-byte access straddling a line boundary: 2 lines, 2 words */
	weft_footprint_add(&f, WEFT_SPACE_GLOBAL, 0x2000 - 4, 8);
	/* address 0 */
	weft_footprint_add(&f, WEFT_SPACE_CONST, 0, 4);
	/* shared: the same 16 words in two CTAs count twice */
	for (int cta = 0; cta < 2; cta++) {
		for (uint64_t t = 0; t < 16; t++)
			weft_footprint_add(&f, WEFT_SPACE_SHARED, 4 * t, 4);
		weft_footprint_cta_end(&f);
	}
	weft_footprint_finish(&f);
	assert_int_equal(f.accesses[WEFT_SPACE_GLOBAL], 65);
	assert_int_equal(f.bytes[WEFT_SPACE_GLOBAL], 64 * 4 + 8);
	assert_int_equal(f.lines[WEFT_SPACE_GLOBAL], 3);
	assert_int_equal(f.words[WEFT_SPACE_GLOBAL], 34);
	assert_int_equal(f.lines[WEFT_SPACE_CONST], 1);
	assert_int_equal(f.words[WEFT_SPACE_CONST], 1);
	assert_int_equal(f.lines[WEFT_SPACE_SHARED], 2);
	assert_int_equal(f.words[WEFT_SPACE_SHARED], 32);
	weft_footprint_free(&f);

	/* growth: 100000 distinct keys */
	struct weft_addrset s;
	weft_addrset_init(&s);
	for (uint64_t k = 0; k < 100000; k++)
		assert_int_equal(weft_addrset_add(&s, k * 7919), 0);
	for (uint64_t k = 0; k < 100000; k += 3)
		weft_addrset_add(&s, k * 7919);
	assert_int_equal(weft_addrset_count(&s), 100000);
	weft_addrset_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_footprint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
