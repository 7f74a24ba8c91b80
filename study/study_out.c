/*
 * study_out.c - the output folder of a study (study.h): DIR.tmp made
 * empty and marked, filled by the study, then renamed onto DIR. A folder
 * is only removed or replaced when it carries weft-study's marker file,
 * so a typo in -o never deletes someone's data.
 */
#define _XOPEN_SOURCE 700
#include "study.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) ? -1 : 0;
}

int weft_study_rmtree(const char *path, struct weft_error *err)
{
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return weft_error_set(err, WEFT_ERR_IO, "cannot remove %s: %s", path, strerror(errno));
	return 0;
}

static int is_study(const char *dir)
{
	char m[2100];
	struct stat st;
	snprintf(m, sizeof(m), "%s/%s", dir, WEFT_STUDY_MARKER);
	return lstat(m, &st) == 0 && S_ISREG(st.st_mode);
}

int weft_study_out_begin(const char *out, char *tmp, size_t len, struct weft_error *err)
{
	struct stat st;
	if (!out[0])
		return weft_error_set(err, WEFT_ERR_INPUT, "-o needs a folder name");
	if ((size_t)snprintf(tmp, len, "%s.tmp", out) >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "output folder name too long: %s", out);
	if (lstat(out, &st) == 0 && !(S_ISDIR(st.st_mode) && is_study(out)))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s exists and is not a weft-study folder (no %s in it); name "
				      "another with -o, or remove it",
				      out, WEFT_STUDY_MARKER);
	if (lstat(tmp, &st) == 0) {
		if (!(S_ISDIR(st.st_mode) && is_study(tmp)))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "%s exists and is not a weft-study folder; remove it or "
					      "name another output with -o",
					      tmp);
		int rc = weft_study_rmtree(tmp, err); /* left by a killed study */
		if (rc)
			return rc;
	}
	if (mkdir(tmp, 0777) != 0)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot make %s: %s (does its parent exist and is it writable?)", tmp,
				      strerror(errno));
	char m[2100];
	snprintf(m, sizeof(m), "%s/%s", tmp, WEFT_STUDY_MARKER);
	static const char text[] = "a folder written by weft-study (docs/weft-study.md); weft-study "
				   "replaces it when asked to write here again\n";
	return weft_write_atomic(m, text, sizeof(text) - 1, err);
}

int weft_study_out_publish(const char *out, const char *tmp, struct weft_error *err)
{
	struct stat st;
	char old[1100];
	int had = 0;
	if (lstat(out, &st) == 0) {
		if (!(S_ISDIR(st.st_mode) && is_study(out)))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "%s appeared while the study ran and is not a weft-study "
					      "folder; the study is in %s",
					      out, tmp);
		snprintf(old, sizeof(old), "%s.old", out);
		if (lstat(old, &st) == 0 && is_study(old)) {
			int rc = weft_study_rmtree(old, err);
			if (rc)
				return rc;
		}
		if (rename(out, old) != 0)
			return weft_error_set(err, WEFT_ERR_IO, "cannot move the previous %s aside: %s",
					      out, strerror(errno));
		had = 1;
	}
	if (rename(tmp, out) != 0) {
		int e = errno;
		if (had)
			rename(old, out);
		return weft_error_set(err, WEFT_ERR_IO, "cannot rename %s to %s: %s (the study is in %s)",
				      tmp, out, strerror(e), tmp);
	}
	return had ? weft_study_rmtree(old, err) : 0;
}
