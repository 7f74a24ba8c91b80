/*
 * trace_cache.c - weft-study's trace cache (trace_cache.h): the key, the
 * directory, and a trace reused or made. Tracing runs the workload through
 * the emulator with a trace writer as its observer, as `weft-trace run
 * WORKLOAD --size SIZE -o FILE` does.
 */
#include "trace_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hash.h"
#include "common/version.h"
#include "estimate/estimate.h"
#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"

uint64_t weft_study_trace_key(const struct weft_workload *wl, enum weft_size size)
{
	char head[128];
	int n = snprintf(head, sizeof(head), "weft %s\ntrace format %d\n", WEFT_VERSION,
			 WEFT_TRACE_VERSION);
	uint64_t h = weft_fnv1a(WEFT_FNV1A_INIT, head, (size_t)n);
	h = weft_fnv1a(h, wl->name, strlen(wl->name) + 1);
	const char *sz = weft_size_name(size);
	h = weft_fnv1a(h, sz, strlen(sz) + 1);
	return weft_fnv1a(h, wl->ptx_text, strlen(wl->ptx_text));
}

/* mkdir -p */
static int make_dirs(char *path, struct weft_error *err)
{
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = 0;
		struct stat st;
		if (stat(path, &st) != 0) {
			if (mkdir(path, 0777) != 0 && errno != EEXIST) {
				int e = errno;
				*p = c;
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "cannot make the trace cache directory %s: %s (give "
						      "--trace-cache DIR)",
						      path, strerror(e));
			}
		} else if (!S_ISDIR(st.st_mode)) {
			weft_error_set(err, WEFT_ERR_INPUT,
				       "%s is not a directory; give --trace-cache DIR (the trace cache)", path);
			*p = c;
			return WEFT_ERR_INPUT;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

int weft_study_cache_dir(const char *dir, char *out, size_t len, struct weft_error *err)
{
	const char *env = getenv("WEFT_TRACE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");
	int n;
	if (dir && !dir[0])
		return weft_error_set(err, WEFT_ERR_INPUT, "--trace-cache needs a directory name");
	if (dir)
		n = snprintf(out, len, "%s", dir);
	else if (env && env[0])
		n = snprintf(out, len, "%s", env);
	else if (xdg && xdg[0] == '/')
		n = snprintf(out, len, "%s/weft/traces", xdg);
	else if (home && home[0] == '/')
		n = snprintf(out, len, "%s/.cache/weft/traces", home);
	else
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "no trace cache directory: HOME is not set; give --trace-cache DIR");
	if (n < 0 || (size_t)n >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace cache directory name too long");
	while (n > 1 && out[n - 1] == '/')
		out[--n] = 0;
	return make_dirs(out, err);
}

int weft_study_trace_get(const char *dir, const char *workload, enum weft_size size,
			 struct weft_study_trace *t, struct weft_error *err)
{
	memset(t, 0, sizeof(*t));
	const struct weft_workload *wl = weft_workload_find(workload);
	if (!wl) {
		char hint[160];
		return weft_error_set(err, WEFT_ERR_INPUT, "no bundled workload `%s`%s", workload,
				      weft_workload_suggest(workload, hint, sizeof(hint)));
	}
	snprintf(t->workload, sizeof(t->workload), "%s", workload);
	t->size = size;
	t->key = weft_study_trace_key(wl, size);
	const char *sz = weft_size_name(size);
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/%s-%s-%016llx.wtr", dir, workload, sz,
			     (unsigned long long)t->key) >= sizeof(t->path))
		return weft_error_set(err, WEFT_ERR_INPUT, "trace path too long under %s", dir);
	struct stat st;
	int rc = 0;
	if (stat(t->path, &st) == 0)
		t->reused = 1;
	else
		rc = weft_est_trace_workload(wl, size, t->path, err);
	if (rc < 0)
		return rc;
	struct weft_trace *tr;
	rc = weft_trace_open(t->path, &tr, err);
	if (rc < 0) {
		char buf[WEFT_ERROR_MSG_MAX + 300];
		weft_error_format(err, buf, sizeof(buf));
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s; delete %s (weft-study traces it again) or give another "
				      "--trace-cache",
				      buf, t->path);
	}
	const struct weft_trace_info *info = weft_trace_info(tr);
	int ok = strcmp(info->workload, workload) == 0 && strcmp(info->size, sz) == 0;
	if (!ok)
		weft_error_set(err, WEFT_ERR_INPUT,
			       "%s is a trace of %s%s%s, not of %s at size %s; delete it (weft-study traces "
			       "it again)",
			       t->path, info->workload[0] ? info->workload : "a launch spec",
			       info->size[0] ? " at size " : "", info->size, workload, sz);
	t->nlaunches = info->nlaunches;
	t->thread_insts = info->thread_insts;
	weft_trace_close(tr);
	if (!ok)
		return WEFT_ERR_INPUT;
	return weft_est_hash_file(t->path, &t->hash, &t->bytes, err);
}
