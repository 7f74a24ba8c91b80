/*
 * test_ini.c - common/ini.h: keys with their lines, and the one rule for
 * what inih would do silently: long lines, NUL bytes, syntax errors and
 * (no) continuation lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/ini.h"

struct seen {
	char text[1024];
	uint32_t nlines;
	int fail_at; /* line whose key fails, 0 = none */
};

static int on_key(void *user, const char *section, const char *key, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct seen *s = user;
	if (s->fail_at && line == (uint32_t)s->fail_at)
		return weft_error_at(err, WEFT_ERR_INPUT, "t.ini", line, 0, "refused %s", key);
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof(s->text) - n, "%u:[%s]%s=%s;", line, section, key, value);
	return 0;
}

static int on_line(void *user, const char *text, uint32_t line, struct weft_error *err)
{
	struct seen *s = user;
	(void)text;
	(void)err;
	s->nlines = line;
	return 0;
}

static int parse(const char *text, size_t len, struct seen *s, struct weft_error *err)
{
	struct weft_ini ini = { "t.ini", "test file", on_key, on_line, s };
	weft_error_clear(err);
	return weft_ini_parse(&ini, text, len, err);
}

static void test_keys_and_lines(void **state)
{
	(void)state;
	struct seen s = { .fail_at = 0 };
	struct weft_error err;
	const char *t = "; comment\n# comment\n[a]\nx = 1\n\n[b]\n  y = two words ; note\nz=3";
	assert_int_equal(parse(t, strlen(t), &s, &err), 0);
	/* the indented key is a key of its own, not a continuation */
	assert_string_equal(s.text, "4:[a]x=1;7:[b]y=two words;8:[b]z=3;");
	assert_int_equal(s.nlines, 8);
}

static void test_errors(void **state)
{
	(void)state;
	struct weft_error err;
	struct seen s = { .fail_at = 0 };

	const char *bad = "[a]\nx = 1\nnot ini\n";
	assert_int_equal(parse(bad, strlen(bad), &s, &err), WEFT_ERR_INPUT);
	assert_string_equal(err.file, "t.ini");
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "not an INI line"));

	/* a long line is an error naming its line, never truncated */
	char text[600];
	snprintf(text, sizeof(text), "[a]\nx = ");
	size_t n = strlen(text);
	memset(text + n, 'v', 400);
	snprintf(text + n + 400, sizeof(text) - n - 400, "\ny = 2\n");
	memset(&s, 0, sizeof(s));
	assert_int_equal(parse(text, strlen(text), &s, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.message, "line is too long (at most"));
	assert_string_equal(s.text, ""); /* nothing of it reached the caller */

	const char nul[] = "[a]\nx = 1\0\n";
	memset(&s, 0, sizeof(s));
	assert_int_equal(parse(nul, sizeof(nul) - 1, &s, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.message, "NUL byte in the test file"));

	/* a callback's error stops the parse and is returned */
	const char *ok = "[a]\nx = 1\ny = 2\nz = 3\n";
	memset(&s, 0, sizeof(s));
	s.fail_at = 3;
	assert_int_equal(parse(ok, strlen(ok), &s, &err), WEFT_ERR_INPUT);
	assert_string_equal(err.message, "refused y");
	assert_string_equal(s.text, "2:[a]x=1;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_and_lines),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
