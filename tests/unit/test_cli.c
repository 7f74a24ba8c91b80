/*
 * test_cli.c - cli/cli.h, the messages and exit statuses every weft CLI
 * shares: each message is one line naming the program (and command), a
 * usage error points to the right --help, and a weft_error code maps to
 * docs/cli.md's exit status. cli.o is not in libweft.a: the Makefile links
 * it into this test on its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "common/version.h"

/* What fd (1 or 2) receives while the test runs one call, through a
 * temporary file. */
struct capture {
	FILE *stream, *tmp;
	int fd, saved;
	char text[2048];
};

static void capture_start(struct capture *c, FILE *stream)
{
	memset(c, 0, sizeof(*c));
	c->stream = stream;
	c->fd = fileno(stream);
	fflush(stream);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(c->fd);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), c->fd) >= 0);
}

static const char *capture_end(struct capture *c)
{
	fflush(c->stream);
	assert_true(dup2(c->saved, c->fd) >= 0);
	close(c->saved);
	rewind(c->tmp);
	size_t n = fread(c->text, 1, sizeof(c->text) - 1, c->tmp);
	c->text[n] = '\0';
	fclose(c->tmp);
	return c->text;
}

static void test_exit_status(void **state)
{
	(void)state;
	struct weft_error err;
	static const struct {
		enum weft_err code;
		int plain, checked;
	} table[] = {
		{ WEFT_OK, 0, 0 },           { WEFT_ERR_INPUT, 2, 2 },   { WEFT_ERR_PARSE, 2, 2 },
		{ WEFT_ERR_RUNTIME, 2, 2 },  { WEFT_ERR_LIMIT, 2, 2 },   { WEFT_ERR_IO, 2, 2 },
		{ WEFT_ERR_VERIFY, 2, 1 },   { WEFT_ERR_NOMEM, 3, 3 },   { WEFT_ERR_INTERNAL, 3, 3 },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		weft_error_clear(&err);
		err.code = table[i].code;
		assert_int_equal(weft_cli_exit_status(&err, 0), table[i].plain);
		assert_int_equal(weft_cli_exit_status(&err, 1), table[i].checked);
	}
}

static void test_usage(void **state)
{
	(void)state;
	struct capture c;
	weft_cli_start("weft-x");
	capture_start(&c, stderr);
	int rc = weft_cli_usage("unknown option `%s`", "--bogus");
	assert_int_equal(rc, 2);
	assert_string_equal(capture_end(&c), "weft-x: unknown option `--bogus`; see `weft-x --help`\n");

	weft_cli_command("fit");
	capture_start(&c, stderr);
	weft_cli_usage("%s", "which file?");
	assert_string_equal(capture_end(&c), "weft-x fit: which file?; see `weft-x fit --help`\n");

	/* `help` has no --help: its errors point to the program's */
	weft_cli_command("help");
	capture_start(&c, stderr);
	weft_cli_usage("unknown command `%s`", "frob");
	assert_string_equal(capture_end(&c), "weft-x help: unknown command `frob`; see `weft-x --help`\n");
}

static void test_fail(void **state)
{
	(void)state;
	struct capture c;
	struct weft_error err;
	weft_cli_start("weft-x");
	weft_cli_command("run");
	weft_error_at(&err, WEFT_ERR_INPUT, "a.ini", 6, 0, "unknown key `k`");
	capture_start(&c, stderr);
	assert_int_equal(weft_cli_fail(&err), 2);
	assert_string_equal(capture_end(&c), "weft-x run: a.ini:6: unknown key `k`\n");

	/* a failed check: bad input, unless the check was what was asked */
	weft_error_set(&err, WEFT_ERR_VERIFY, "t.wtr is corrupt at byte offset 9");
	capture_start(&c, stderr);
	assert_int_equal(weft_cli_fail(&err), 2);
	assert_int_equal(weft_cli_fail_check(&err), 1);
	assert_string_equal(capture_end(&c), "weft-x run: t.wtr is corrupt at byte offset 9\n"
					     "weft-x run: t.wtr is corrupt at byte offset 9\n");

	/* a library bug that set no message still says something */
	weft_error_clear(&err);
	err.code = WEFT_ERR_INTERNAL;
	weft_cli_command(NULL);
	capture_start(&c, stderr);
	assert_int_equal(weft_cli_fail(&err), 3);
	const char *text = capture_end(&c);
	assert_true(strncmp(text, "weft-x: ", 8) == 0);
	assert_non_null(strstr(text, "(code -8)\n"));
}

static void test_say_nomem_version_help(void **state)
{
	(void)state;
	struct capture c;
	weft_cli_start("weft-y");
	capture_start(&c, stderr);
	weft_cli_say("--launch %u: the trace has %u launches", 5u, 2u);
	assert_int_equal(weft_cli_nomem(NULL), 3);
	weft_cli_command("show");
	assert_int_equal(weft_cli_nomem("creating the context"), 3);
	assert_string_equal(capture_end(&c), "weft-y: --launch 5: the trace has 2 launches\n"
					     "weft-y: out of memory\n"
					     "weft-y show: out of memory creating the context\n");
	capture_start(&c, stdout);
	assert_int_equal(weft_cli_version(), 0);
	assert_int_equal(weft_cli_help("usage: weft-y\n"), 0);
	assert_string_equal(capture_end(&c), "weft-y " WEFT_VERSION "\nusage: weft-y\n");
}

/* --help, --version and an option error: answered alike by every CLI */
static void test_common_option(void **state)
{
	(void)state;
	static const struct weft_opt opts[] = { WEFT_OPT_HELP_VERSION, { 0 } };
	char a0[] = "weft-z", a1[] = "--help", a2[] = "--version", a3[] = "--verfy";
	char *argv[] = { a0, a1, a2, a3, NULL };
	struct weft_optp p;
	struct capture out, err;
	weft_cli_start("weft-z");
	weft_opt_init(&p, 4, argv, 1);
	capture_start(&out, stdout);
	int id = weft_opt_next(&p, opts);
	assert_int_equal(id, WEFT_OPT_ID_HELP);
	assert_int_equal(weft_cli_common_option(&p, id, "usage: weft-z\n"), 0);
	id = weft_opt_next(&p, opts);
	assert_int_equal(id, WEFT_OPT_ID_VERSION);
	assert_int_equal(weft_cli_common_option(&p, id, "usage: weft-z\n"), 0);
	assert_string_equal(capture_end(&out), "usage: weft-z\nweft-z " WEFT_VERSION "\n");
	capture_start(&err, stderr);
	id = weft_opt_next(&p, opts);
	assert_int_equal(id, WEFT_OPT_ERROR);
	assert_int_equal(weft_cli_common_option(&p, id, "usage: weft-z\n"), 2);
	assert_string_equal(capture_end(&err), "weft-z: unknown option `--verfy`; see `weft-z --help`\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_say_nomem_version_help),
		cmocka_unit_test(test_common_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
