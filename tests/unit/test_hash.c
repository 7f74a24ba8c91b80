/*
 * test_hash.c - common/hash.h: FNV-1a 64 against published vectors, and
 * chaining.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/hash.h"

static void test_fnv1a_vectors(void **state)
{
	(void)state;
	/* from the FNV reference test suite */
	assert_true(weft_fnv1a(WEFT_FNV1A_INIT, "", 0) == 0xcbf29ce484222325ull);
	assert_true(weft_fnv1a(WEFT_FNV1A_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(weft_fnv1a(WEFT_FNV1A_INIT, "foobar", 6) == 0x85944171f73967e8ull);
	/* chaining pieces equals hashing the whole */
	uint64_t h = weft_fnv1a(weft_fnv1a(WEFT_FNV1A_INIT, "foo", 3), "bar", 3);
	assert_true(h == weft_fnv1a(WEFT_FNV1A_INIT, "foobar", 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a_vectors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
