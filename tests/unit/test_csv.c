/*
 * test_csv.c - common/csv.h: the record reader (fields with line and
 * column, quoting, syntax errors) and the data-table loader,
 * weft_csv_load_rows (rows made by a callback, required columns, faults
 * named at file:line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/csv.h"

struct row {
	char name[16];
	double value;
	uint32_t line;
};

static int make(void *dst, const void *prev, uint32_t n, const struct weft_csv *c, uint32_t r,
		const int *ix, struct weft_error *err)
{
	struct row *row = dst;
	const struct row *rows = prev;
	int rc;
	if ((rc = weft_csv_check_name(c, r, ix[0], "thing", sizeof(row->name), err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[1], 0, &row->value, err)) < 0)
		return rc;
	for (uint32_t k = 0; k < n; k++)
		if (!strcmp(rows[k].name, c->rows[r][ix[0]]))
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0, "twice");
	snprintf(row->name, sizeof(row->name), "%s", c->rows[r][ix[0]]);
	row->line = c->lines[r];
	return 0;
}

static const char *const cols[] = { "name", "value" };
static const struct weft_csv_rows spec = { "test table", cols, 2, sizeof(struct row), make };

static char path[64];

/* Writes text to a temporary file and loads it. */
static int load(const char *text, struct row **rows, uint32_t *n, struct weft_error *err)
{
	snprintf(path, sizeof(path), "/tmp/weft-test-csv.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	void *v = (void *)1;
	weft_error_clear(err);
	int rc = weft_csv_load_rows(path, &spec, &v, n, err);
	*rows = v;
	unlink(path);
	if (rc < 0) {
		assert_null(v);
		assert_int_equal(*n, 0);
	}
	return rc;
}

static void test_rows(void **state)
{
	(void)state;
	struct row *rows;
	uint32_t n;
	struct weft_error err;
	assert_int_equal(load("# comment\nvalue,extra,name\n1.5,x,a\n\n2,y,b\n", &rows, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].name, "a");
	assert_true(rows[0].value == 1.5);
	assert_int_equal(rows[0].line, 3);
	assert_string_equal(rows[1].name, "b");
	assert_int_equal(rows[1].line, 5);
	free(rows);

	assert_int_equal(load("name,value\n", &rows, &n, &err), 0); /* no rows */
	assert_int_equal(n, 0);
	free(rows);
}

static void test_faults(void **state)
{
	(void)state;
	struct row *rows;
	uint32_t n;
	struct weft_error err;
	assert_int_equal(load("name,valu\na,1\n", &rows, &n, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no column `value`"));

	assert_int_equal(load("name,value\na,1\nb,x1\n", &rows, &n, &err), WEFT_ERR_INPUT);
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "'x1' is not a number"));

	assert_int_equal(load("name,value\na,1\na,2\n", &rows, &n, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.message, "twice");

	assert_int_equal(load("name,value\na,1,2\n", &rows, &n, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.line, 2);

	void *v;
	assert_int_equal(weft_csv_load_rows("/nonexistent/t.csv", &spec, &v, &n, &err),
			 WEFT_ERR_INPUT);
	assert_true(strncmp(err.message, "test table: ", 12) == 0);
	assert_null(v);
}

static void test_reader(void **state)
{
	(void)state;
	struct weft_csv_reader rd;
	struct weft_csv_record r;
	struct weft_error err;
	const char *t = "# c\r\na,\"b, \"\"q\"\"\"\r\n\n\"two\nlines\",x\n";
	weft_csv_reader_init(&rd, "t.csv", "test file", t, strlen(t));
	assert_int_equal(weft_csv_next(&rd, &r, &err), 1);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.line, 2);
	assert_string_equal(r.f[0].s, "a");
	assert_string_equal(r.f[1].s, "b, \"q\"");
	assert_int_equal(r.f[1].col, 3);
	weft_csv_record_free(&r);
	assert_int_equal(weft_csv_next(&rd, &r, &err), 1);
	assert_int_equal(r.line, 4);
	assert_string_equal(r.f[0].s, "two\nlines");
	assert_int_equal(r.f[1].line, 5);
	weft_csv_record_free(&r);
	assert_int_equal(weft_csv_next(&rd, &r, &err), 0);

	static const struct {
		const char *text;
		uint32_t line, col;
		const char *msg;
	} bad[] = {
		{ "a,\"open\n", 1, 3, "unterminated quoted field" },
		{ "a,\"b\"c\n", 1, 6, "text after a closing quote" },
		{ "a\nb\0\n", 2, 2, "a NUL byte; a test file is text" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text);
		if (i == 2)
			len = 6;
		weft_csv_reader_init(&rd, "t.csv", "test file", bad[i].text, len);
		int rc;
		while ((rc = weft_csv_next(&rd, &r, &err)) > 0)
			weft_csv_record_free(&r);
		weft_csv_record_free(&r);
		assert_int_equal(rc, WEFT_ERR_INPUT);
		assert_int_equal(err.line, bad[i].line);
		assert_int_equal(err.column, bad[i].col);
		assert_non_null(strstr(err.message, bad[i].msg));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
