/*
 * test_suggest.c - common/suggest.h: which valid words a mistyped one is
 * told about, and the wording of the "did you mean" phrase.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/suggest.h"

/* The phrase for typed among the NULL-terminated words, quoted with `. */
static const char *phrase(const char *typed, const char *const *words)
{
	static char buf[256];
	struct weft_suggest s;
	weft_suggest_init(&s, typed);
	for (const char *const *w = words; *w; w++)
		weft_suggest_consider(&s, *w);
	return weft_suggest_phrase(&s, "`", "`", buf, sizeof(buf));
}

static void test_closest(void **state)
{
	(void)state;
	static const char *const wl[] = { "vvadd", "sgemm", "scan", "reduce", "nn", NULL };
	assert_string_equal(phrase("sgem", wl), "; did you mean `sgemm`?");
	assert_string_equal(phrase("sgemmm", wl), "; did you mean `sgemm`?");
	assert_string_equal(phrase("nosuch", wl), "");    /* nothing close */
	assert_string_equal(phrase("", wl), "");          /* nothing typed */
	assert_string_equal(phrase("sgemm", wl), "");     /* not a typo at all */
}

static void test_ranking(void **state)
{
	(void)state;
	/* the fewest edits win; equals are all named, in the order considered */
	static const char *const types[] = { "u8", "s8", "u32", "s32", "f32", "f64", NULL };
	assert_string_equal(phrase("i32", types), "; did you mean `u32`, `s32` or `f32`?");
	/* two neighbours swapped count as one edit: f32 (swap) before f64 (2) */
	assert_string_equal(phrase("f23", types), "; did you mean `f32`?");
	/* a prefix of 3 or more counts as one edit: random (prefix) before ramp (2) */
	static const char *const inits[] = { "zero", "ramp", "random", "file", NULL };
	assert_string_equal(phrase("rand", inits), "; did you mean `random`?");
	/* a word given twice is named once */
	static const char *const twice[] = { "args", "args", "kernel", NULL };
	assert_string_equal(phrase("argz", twice), "; did you mean `args`?");
}

static void test_at_most_max(void **state)
{
	(void)state;
	static const char *const micro[] = { "micro_a1", "micro_b22", "micro_c333", "micro_d4444",
					     "micro_e55555", NULL };
	/* five words the typed one begins: the first WEFT_SUGGEST_MAX (4) */
	assert_int_equal(WEFT_SUGGEST_MAX, 4);
	assert_string_equal(phrase("micro", micro),
			    "; did you mean `micro_a1`, `micro_b22`, `micro_c333` or `micro_d4444`?");
}

static void test_quotes_and_room(void **state)
{
	(void)state;
	struct weft_suggest s;
	char buf[64];
	weft_suggest_init(&s, "z");
	weft_suggest_consider(&s, "x");
	weft_suggest_consider(&s, "y");
	assert_string_equal(weft_suggest_phrase(&s, "[buffer ", "]", buf, sizeof(buf)),
			    "; did you mean [buffer x] or [buffer y]?");
	/* too little room: cut short, still a string */
	char small[12];
	assert_string_equal(weft_suggest_phrase(&s, "[buffer ", "]", small, sizeof(small)),
			    "; did you m");
	weft_suggest_init(&s, NULL);
	weft_suggest_consider(&s, "x");
	assert_string_equal(weft_suggest_phrase(&s, "`", "`", buf, sizeof(buf)), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_at_most_max),
		cmocka_unit_test(test_quotes_and_room),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
