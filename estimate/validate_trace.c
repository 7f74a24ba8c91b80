/*
 * validate_trace.c - the traces weft-validate replays (validate_impl.h):
 * a directory to hold them (the user's, kept, or a temporary one, removed),
 * and one trace per bundled workload and size, reused when the directory
 * already holds it. Tracing runs the workload through the emulator with a
 * trace writer as its observer, as `weft-trace run WORKLOAD -o FILE` does
 * (without --verify: the emulator's results are checked by make check).
 */
#include "validate_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "estimate.h"
#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"

int weft_val_tdir_open(const char *dir, struct weft_val_tdir *d, struct weft_error *err)
{
	memset(d, 0, sizeof(*d));
	if (dir) {
		if (!dir[0])
			return weft_error_set(err, WEFT_ERR_INPUT, "--trace-dir needs a directory name");
		if ((size_t)snprintf(d->path, sizeof(d->path), "%s", dir) >= sizeof(d->path))
			return weft_error_set(err, WEFT_ERR_INPUT, "trace directory name too long: %s", dir);
		struct stat st;
		if (stat(dir, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "--trace-dir %s is not a directory; name a directory "
						      "(made when missing)",
						      dir);
			return 0;
		}
		if (mkdir(dir, 0777) != 0)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "cannot make trace directory %s: %s (does its parent exist "
					      "and is it writable?)",
					      dir, strerror(errno));
		return 0;
	}
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !tmp[0])
		tmp = "/tmp";
	snprintf(d->path, sizeof(d->path), "%s/weft-validate.XXXXXX", tmp);
	if (!mkdtemp(d->path))
		return weft_error_set(err, WEFT_ERR_IO,
				      "cannot make a temporary directory under %s: %s (set TMPDIR to a "
				      "writable directory, or give --trace-dir DIR)",
				      tmp, strerror(errno));
	d->temp = 1;
	return 0;
}

void weft_val_tdir_close(struct weft_val_tdir *d, const struct weft_val_trace *traces, uint32_t n)
{
	if (!d->temp || !d->path[0])
		return;
	for (uint32_t i = 0; i < n; i++)
		if (traces[i].path[0])
			unlink(traces[i].path);
	rmdir(d->path);
	d->path[0] = '\0';
}

/* The trace at path, when it is one of workload at size: 1; not: 0 with
 * why; unreadable: negative. */
static int usable(const char *path, const char *workload, const char *size, uint32_t *nlaunches,
		  struct weft_error *err)
{
	struct weft_trace *t;
	int rc = weft_trace_open(path, &t, err);
	if (rc < 0) {
		char buf[WEFT_ERROR_MSG_MAX + 300];
		weft_error_format(err, buf, sizeof(buf));
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s; delete %s (weft-validate traces it again) or give another "
				      "--trace-dir",
				      buf, path);
	}
	const struct weft_trace_info *info = weft_trace_info(t);
	int ok = strcmp(info->workload, workload) == 0 && strcmp(info->size, size) == 0;
	if (!ok)
		weft_error_set(err, WEFT_ERR_INPUT,
			       "%s is a trace of %s%s%s, not of %s at size %s; delete it (weft-validate "
			       "traces it again) or give another --trace-dir",
			       path, info->workload[0] ? info->workload : "a launch spec",
			       info->size[0] ? " at size " : "", info->size, workload, size);
	*nlaunches = info->nlaunches;
	weft_trace_close(t);
	return ok ? 1 : WEFT_ERR_INPUT;
}

int weft_val_trace_get(const struct weft_val_tdir *d, const char *workload, enum weft_size size,
		       struct weft_val_trace *t, struct weft_error *err)
{
	memset(t, 0, sizeof(*t));
	const struct weft_workload *wl = weft_workload_find(workload);
	if (!wl) {
		char hint[160];
		return weft_error_set(err, WEFT_ERR_INPUT, "no bundled workload `%s`%s", workload,
				      weft_workload_suggest(workload, hint, sizeof(hint)));
	}
	snprintf(t->workload, sizeof(t->workload), "%s", workload);
	const char *sz = weft_size_name(size);
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/%s-%s.wtr", d->path, workload, sz) >=
	    sizeof(t->path))
		return weft_error_set(err, WEFT_ERR_INPUT, "trace path too long under %s", d->path);
	struct stat st;
	int rc;
	if (!d->temp && stat(t->path, &st) == 0) {
		rc = usable(t->path, workload, sz, &t->nlaunches, err);
		if (rc < 0)
			return rc;
		t->reused = 1;
	} else {
		rc = weft_est_trace_workload(wl, size, t->path, err);
		if (rc < 0) {
			t->path[0] = '\0';
			return rc;
		}
		rc = usable(t->path, workload, sz, &t->nlaunches, err);
		if (rc < 0)
			return rc;
	}
	return weft_est_hash_file(t->path, &t->hash, &t->bytes, err);
}
