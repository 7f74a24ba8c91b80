/*
 * test_bits.c - common/bits.h: weft_popcount64 (the POPCNT instruction on
 * x86 CPUs that have it, the compiler's count elsewhere) against a count
 * one bit at a time, on the edge masks and on pseudo-random ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/bits.h"

static unsigned count_slowly(uint64_t v)
{
	unsigned n = 0;
	for (int i = 0; i < 64; i++)
		n += (unsigned)((v >> i) & 1);
	return n;
}

static void test_popcount_edges(void **state)
{
	(void)state;
	assert_int_equal(weft_popcount64(0), 0);
	assert_int_equal(weft_popcount64(UINT64_MAX), 64);
	assert_int_equal(weft_popcount64(0x8000000000000001ull), 2);
	assert_int_equal(weft_popcount64(0xffffffffull), 32);
	assert_int_equal(weft_popcount64(0xffffffff00000000ull), 32);
	for (int i = 0; i < 64; i++) {
		assert_int_equal(weft_popcount64(1ull << i), 1);
		assert_int_equal(weft_popcount64(~(1ull << i)), 63);
		/* the low i lanes of a group: a partial last warp's mask */
		assert_int_equal(weft_popcount64((1ull << i) - 1), i);
	}
}

static void test_popcount_random(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64 */
	for (int k = 0; k < 100000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* sparse, dense and even masks too */
		uint64_t m[3] = { x, x & (x >> 3), x | (x << 5) };
		for (int j = 0; j < 3; j++)
			assert_int_equal(weft_popcount64(m[j]), count_slowly(m[j]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_popcount_edges),
		cmocka_unit_test(test_popcount_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
