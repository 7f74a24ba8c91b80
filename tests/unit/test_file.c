/*
 * test_file.c - common/file.h: whole-file reads, and atomic writes (whole
 * and streamed): the file appears only on commit, with an ordinary mode,
 * no temporary file is left behind, and failures name the step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/file.h"

static char dir[] = "/tmp/weft-test-file.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* How many entries dir holds (besides . and ..). */
static int entries(void)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) -eq 0", dir);
	if (system(cmd) == 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) -eq 1", dir);
	return system(cmd) == 0 ? 1 : 2;
}

static void test_write_atomic(void **state)
{
	(void)state;
	char path[256];
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	struct weft_error err;
	assert_int_equal(weft_write_atomic(path, "a,b\n", 4, &err), 0);
	char *data;
	size_t len;
	assert_int_equal(weft_file_read(path, &data, &len), WEFT_FILE_OK);
	assert_int_equal(len, 4);
	assert_string_equal(data, "a,b\n");
	free(data);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_mode & 0044); /* not left 0600 by mkstemp */
	assert_int_equal(entries(), 1); /* no temporary file beside it */
	/* replacing an existing file */
	assert_int_equal(weft_write_atomic(path, "x", 1, &err), 0);
	assert_int_equal(weft_file_read(path, &data, &len), WEFT_FILE_OK);
	assert_string_equal(data, "x");
	free(data);
	unlink(path);

	/* a missing directory: an input error naming the temporary file */
	snprintf(path, sizeof(path), "%s/no/such/out.csv", dir);
	assert_int_equal(weft_write_atomic(path, "x", 1, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no/such/out.csv.tmp.XXXXXX"));
	assert_non_null(strstr(err.message, "does the directory exist"));
}

static void test_stream(void **state)
{
	(void)state;
	char path[256];
	snprintf(path, sizeof(path), "%s/t.bin", dir);
	struct weft_file_out o;
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "abc", 3), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "def", 3), WEFT_OUT_OK);
	assert_int_equal(access(path, F_OK), -1); /* nothing at path before commit */
	assert_int_equal(access(o.tmp, F_OK), 0);
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_OK);
	weft_file_out_free(&o);
	char *data;
	size_t len;
	assert_int_equal(weft_file_read(path, &data, &len), WEFT_FILE_OK);
	assert_string_equal(data, "abcdef");
	free(data);
	assert_int_equal(entries(), 1);

	/* abandoned: the temporary file goes, the old file stays */
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "zzz", 3), WEFT_OUT_OK);
	weft_file_out_free(&o);
	assert_int_equal(entries(), 1);
	assert_int_equal(weft_file_read(path, &data, &len), WEFT_FILE_OK);
	assert_string_equal(data, "abcdef");
	free(data);
	unlink(path);

	/* rename onto a directory fails at the rename step and cleans up */
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/x", path);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_RENAME);
	assert_string_equal(weft_file_out_step_name(WEFT_OUT_RENAME), "rename");
	weft_file_out_free(&o);
	assert_int_equal(entries(), 1); /* only sub */
	rmdir(sub);
	rmdir(path);

	/* a missing directory fails at create; free is still safe */
	snprintf(path, sizeof(path), "%s/no/t.bin", dir);
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_CREATE);
	weft_file_out_free(&o);
}

static void test_read(void **state)
{
	(void)state;
	char *data;
	size_t len;
	assert_int_equal(weft_file_read("/nonexistent/weft", &data, &len), WEFT_FILE_OPEN);
	assert_null(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
