/*
 * test_file.c - common/file.h: whole-file reads, and atomic writes (whole
 * and streamed) on both of their paths, the unnamed O_TMPFILE file and the
 * named fallback (forced with weft_file_out_force_named): the file appears
 * only on commit, with the mode the umask gives a new file, replaces an
 * old one whole, failures name the step and leave nothing behind, a writer
 * killed before commit leaves nothing (unnamed) or a temporary file that
 * the next write of the same path removes (named), and a live writer's
 * temporary file is never removed.
 */
#define _GNU_SOURCE /* O_TMPFILE for the probe */

#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/file.h"

static char dir[] = "/tmp/weft-test-file.XXXXXX";
static int have_tmpfile; /* whether dir's filesystem has O_TMPFILE */
static int forced_named; /* the mode of the test running */

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
#ifdef O_TMPFILE
	int fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
	have_tmpfile = fd >= 0;
	if (fd >= 0)
		close(fd);
#endif
	if (!have_tmpfile)
		fprintf(stderr, "test_file: %s has no O_TMPFILE; only the named fallback is tested\n", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The group runs twice: unnamed files where the filesystem allows, then the
 * named fallback. */
static int use_unnamed(void **state)
{
	(void)state;
	forced_named = 0;
	weft_file_out_force_named(0);
	return 0;
}

static int use_named(void **state)
{
	(void)state;
	forced_named = 1;
	weft_file_out_force_named(1);
	return 0;
}

/* How many entries dir holds (besides . and ..); their names, space
 * separated, into names when given. */
static int entries_in(const char *d, char *names, size_t cap)
{
	DIR *dp = opendir(d);
	assert_non_null(dp);
	int n = 0;
	if (names)
		names[0] = '\0';
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		if (names && strlen(names) + strlen(e->d_name) + 2 < cap) {
			strcat(names, e->d_name);
			strcat(names, " ");
		}
	}
	closedir(dp);
	return n;
}

static int entries(void)
{
	return entries_in(dir, NULL, 0);
}

static void path_in(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", dir, name);
}

static void assert_content(const char *path, const char *want)
{
	char *data;
	size_t len;
	assert_int_equal(weft_file_read(path, &data, &len), WEFT_FILE_OK);
	assert_int_equal(len, strlen(want));
	assert_string_equal(data, want);
	free(data);
}

/* Whether the current mode is the unnamed one (what open should give). */
static int expect_unnamed(void)
{
	return have_tmpfile && !forced_named;
}

static void test_write_atomic(void **state)
{
	(void)state;
	char path[256];
	path_in(path, sizeof(path), "out.csv");
	struct weft_error err;
	assert_int_equal(weft_write_atomic(path, "a,b\n", 4, &err), 0);
	assert_content(path, "a,b\n");
	assert_int_equal(entries(), 1); /* no temporary file beside it */
	/* replacing an existing file */
	assert_int_equal(weft_write_atomic(path, "x", 1, &err), 0);
	assert_content(path, "x");
	assert_int_equal(entries(), 1);
	/* an empty file */
	assert_int_equal(weft_write_atomic(path, "", 0, &err), 0);
	assert_content(path, "");
	unlink(path);

	/* a relative path (no directory part) */
	char cwd[512];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(weft_write_atomic("rel.txt", "r", 1, &err), 0);
	assert_int_equal(chdir(cwd), 0);
	path_in(path, sizeof(path), "rel.txt");
	assert_content(path, "r");
	assert_int_equal(entries(), 1);
	unlink(path);

	/* a missing directory: an input error naming the path */
	path_in(path, sizeof(path), "no/such/out.csv");
	assert_int_equal(weft_write_atomic(path, "x", 1, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no/such/out.csv"));
	assert_non_null(strstr(err.message, "does the directory exist"));
	assert_int_equal(entries(), 0);
}

/* The mode is 0666 less the umask, as for any new file, on both paths. */
static void test_mode(void **state)
{
	(void)state;
	char path[256];
	path_in(path, sizeof(path), "m.txt");
	struct weft_error err;
	static const mode_t masks[] = { 022, 027, 077, 002 };
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		mode_t old = umask(masks[i]);
		int rc = weft_write_atomic(path, "m", 1, &err);
		umask(old);
		assert_int_equal(rc, 0);
		struct stat st;
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0666 & ~masks[i]);
		unlink(path);
	}
}

static void test_stream(void **state)
{
	(void)state;
	char path[256];
	path_in(path, sizeof(path), "t.bin");
	struct weft_file_out o;
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(o.unnamed, expect_unnamed());
	assert_int_equal(weft_file_out_write(&o, "abc", 3), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "def", 3), WEFT_OUT_OK);
	assert_int_equal(access(path, F_OK), -1); /* nothing at path before commit */
	/* unnamed: no name at all in the directory; named: the temporary one */
	assert_int_equal(entries(), o.unnamed ? 0 : 1);
	assert_content(o.tmp, "abcdef"); /* o->tmp opens it either way */
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_OK);
	weft_file_out_free(&o);
	assert_content(path, "abcdef");
	assert_int_equal(entries(), 1);

	/* abandoned: the temporary file goes, the old file stays */
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "zzz", 3), WEFT_OUT_OK);
	weft_file_out_free(&o);
	assert_int_equal(entries(), 1);
	assert_content(path, "abcdef");

	/* replaced: the old content until commit, the new one after */
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "new", 3), WEFT_OUT_OK);
	assert_content(path, "abcdef");
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_OK);
	weft_file_out_free(&o);
	assert_content(path, "new");
	assert_int_equal(entries(), 1);
	unlink(path);

	/* rename onto a directory fails at the rename step and cleans up */
	path_in(path, sizeof(path), "sub");
	assert_int_equal(mkdir(path, 0755), 0);
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/x", path);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_RENAME);
	assert_string_equal(weft_file_out_step_name(WEFT_OUT_RENAME), "rename");
	weft_file_out_free(&o);
	char names[512];
	assert_int_equal(entries_in(dir, names, sizeof(names)), 1); /* only sub */
	rmdir(sub);
	rmdir(path);

	/* a missing directory fails at create; free is still safe */
	path_in(path, sizeof(path), "no/t.bin");
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_CREATE);
	weft_file_out_free(&o);
	assert_string_equal(weft_file_out_step_name(WEFT_OUT_LINK), "link");
	assert_string_equal(weft_file_out_step_name(99), "?");
}

/* The directory removed under an open writer: an unnamed file cannot be
 * linked (the link step fails); there is nothing to clean up. */
static void test_link_fails(void **state)
{
	(void)state;
	if (!expect_unnamed())
		skip();
	char d[300], path[320];
	path_in(d, sizeof(d), "gone");
	assert_int_equal(mkdir(d, 0755), 0);
	snprintf(path, sizeof(path), "%s/f", d);
	struct weft_file_out o;
	assert_int_equal(weft_file_out_open(&o, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&o, "x", 1), WEFT_OUT_OK);
	assert_int_equal(rmdir(d), 0); /* empty: the unnamed file has no name */
	assert_int_equal(weft_file_out_commit(&o), WEFT_OUT_LINK);
	weft_file_out_free(&o);
	assert_int_equal(entries(), 0);
}

/* A child opens a writer for path, writes, and dies by SIGKILL before
 * commit. */
static void killed_writer(const char *path)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct weft_file_out o;
		if (weft_file_out_open(&o, path) != 0 || weft_file_out_write(&o, "partial", 7) != 0)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
}

/* What a killed writer leaves, and how the next write of the same path
 * deals with it; a live writer's temporary file is never touched. */
static void test_killed_writer(void **state)
{
	(void)state;
	char path[256], names[1024];
	path_in(path, sizeof(path), "k.wtr");
	killed_writer(path);
	/* unnamed: nothing at all; named: the partial temporary file */
	assert_int_equal(entries_in(dir, names, sizeof(names)), expect_unnamed() ? 0 : 1);
	if (!expect_unnamed())
		assert_non_null(strstr(names, "k.wtr.tmp.weft-"));

	/* a SIGKILL between link and rename leaves a complete copy under a
	 * temporary name: made by hand here, as are names that only look alike */
	char stale[300], other[300], close5[300], longer[300], otherbase[300];
	path_in(stale, sizeof(stale), "k.wtr.tmp.weft-Ab3dE9");
	path_in(other, sizeof(other), "k.wtr.tmp.backup");
	path_in(close5, sizeof(close5), "k.wtr.tmp.weft-Ab3dE");
	path_in(longer, sizeof(longer), "k.wtr.tmp.weft-Ab3dE9x");
	path_in(otherbase, sizeof(otherbase), "j.wtr.tmp.weft-Ab3dE9");
	struct weft_error err;
	assert_int_equal(weft_write_atomic(stale, "copy", 4, &err), 0);
	assert_int_equal(weft_write_atomic(other, "keep", 4, &err), 0);
	assert_int_equal(weft_write_atomic(close5, "keep", 4, &err), 0);
	assert_int_equal(weft_write_atomic(longer, "keep", 4, &err), 0);
	assert_int_equal(weft_write_atomic(otherbase, "keep", 4, &err), 0);

	/* a live writer of the same path, holding its temporary file */
	struct weft_file_out live;
	assert_int_equal(weft_file_out_open(&live, path), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_write(&live, "live", 4), WEFT_OUT_OK);
	/* that open removed the killed writer's file and the stale copy */
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(entries_in(dir, names, sizeof(names)), live.unnamed ? 4 : 5);

	/* a second writer of the same path leaves the live one's file alone */
	struct weft_file_out second;
	assert_int_equal(weft_file_out_open(&second, path), WEFT_OUT_OK);
	if (!live.unnamed)
		assert_content(live.tmp, "live");
	assert_int_equal(weft_file_out_write(&second, "second", 6), WEFT_OUT_OK);
	assert_int_equal(weft_file_out_commit(&live), WEFT_OUT_OK);
	weft_file_out_free(&live);
	assert_content(path, "live");
	assert_int_equal(weft_file_out_commit(&second), WEFT_OUT_OK);
	weft_file_out_free(&second);
	assert_content(path, "second");
	/* the look-alikes stay: k.wtr, other, close5, longer, otherbase */
	assert_int_equal(entries_in(dir, names, sizeof(names)), 5);
	assert_content(other, "keep");
	assert_content(close5, "keep");
	assert_content(longer, "keep");
	assert_content(otherbase, "keep");
	unlink(path);
	unlink(other);
	unlink(close5);
	unlink(longer);
	unlink(otherbase);

	/* another user's leftover stays (as root, make one) */
	if (geteuid() == 0) {
		assert_int_equal(weft_write_atomic(stale, "theirs", 6, &err), 0);
		assert_int_equal(chown(stale, 65534, 65534), 0);
		assert_int_equal(weft_write_atomic(path, "mine", 4, &err), 0);
		assert_content(stale, "theirs");
		unlink(stale);
		unlink(path);
	}
	assert_int_equal(entries(), 0);
}

static void test_read(void **state)
{
	(void)state;
	char *data;
	size_t len;
	assert_int_equal(weft_file_read("/nonexistent/weft", &data, &len), WEFT_FILE_OPEN);
	assert_null(data);
}

#define UNNAMED(t) { #t " (unnamed file)", t, use_unnamed, NULL, NULL }
#define NAMED(t) { #t " (named fallback)", t, use_named, NULL, NULL }
#define BOTH(t) UNNAMED(t), NAMED(t)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_write_atomic),
		BOTH(test_mode),
		BOTH(test_stream),
		UNNAMED(test_link_fails),
		BOTH(test_killed_writer),
		cmocka_unit_test(test_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
