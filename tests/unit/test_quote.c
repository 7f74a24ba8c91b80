/*
 * test_quote.c - common/quote.h: the one JSON string and CSV field rule,
 * written to a stream and, through sbuf.h, into a text buffer; both must
 * give the same bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/quote.h"
#include "common/sbuf.h"

/* What f-writer fn makes of s, as a malloc'd string. */
static char *to_string(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, s);
	fclose(f);
	return buf;
}

static void check_json(const char *s, const char *want)
{
	char *got = to_string(weft_quote_json, s);
	assert_string_equal(got, want);
	free(got);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_json_str(&b, s);
	assert_string_equal(weft_sbuf_str(&b), want);
	weft_sbuf_free(&b);
}

static void check_csv(const char *s, const char *want)
{
	char *got = to_string(weft_quote_csv, s);
	assert_string_equal(got, want);
	free(got);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_csv_field(&b, s);
	assert_string_equal(weft_sbuf_str(&b), want);
	weft_sbuf_free(&b);
}

static void test_json(void **state)
{
	(void)state;
	check_json("", "\"\"");
	check_json("plain text", "\"plain text\"");
	check_json("a\"b\\c", "\"a\\\"b\\\\c\"");
	check_json("tab\tnl\n\x01", "\"tab\\u0009nl\\u000a\\u0001\"");
	check_json("caf\xc3\xa9 \x7f", "\"caf\xc3\xa9 \x7f\""); /* UTF-8 and DEL as they are */
	char *got = to_string(weft_quote_json, NULL);
	assert_string_equal(got, "\"\"");
	free(got);
	char e[8];
	assert_string_equal(weft_quote_json_char('x', e), "x");
	assert_string_equal(weft_quote_json_char(0x1f, e), "\\u001f");
}

static void test_csv(void **state)
{
	(void)state;
	check_csv("plain", "plain");
	check_csv("", "");
	check_csv("a,b", "\"a,b\"");
	check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
	check_csv("two\nlines", "\"two\nlines\"");
	check_csv("cr\r", "\"cr\r\"");
	assert_false(weft_quote_csv_needed("a b;c"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
