/*
 * trace_cache.h - the traces weft-study replays, kept in a cache directory
 * and reused across studies (docs/weft-study.md "The trace cache").
 *
 * A trace is what the emulator made of one bundled workload at one size,
 * so its key is what that depends on and weft can name: the weft version
 * (the emulator, the workloads' input generators and the trace writer
 * belong to it), the trace format version, the workload's name, the size,
 * and the workload's PTX text (FNV-1a 64 over all of them). The file is
 * DIR/WORKLOAD-SIZE-KEY.wtr; a file found under its name is reused only
 * when it opens as a trace (its header and index checked) of that
 * workload at that size, else it is an error saying to delete it. A
 * missing one is traced and written atomically, so concurrent studies
 * sharing the cache never see a partial trace.
 */
#ifndef WEFT_STUDY_TRACE_CACHE_H
#define WEFT_STUDY_TRACE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/launch/workload.h"

struct weft_study_trace {
	char workload[64];
	enum weft_size size;
	uint64_t key;           /* the cache key (above) */
	char path[1200];
	int reused;             /* found in the cache */
	uint64_t hash, bytes;   /* FNV-1a 64 over the file (weft-estimate's trace hash) */
	uint64_t thread_insts;
	uint32_t nlaunches;
};

/* The cache directory: dir when not NULL, else $WEFT_TRACE_CACHE, else
 * $XDG_CACHE_HOME/weft/traces, else $HOME/.cache/weft/traces; made (with
 * its parents) when missing. */
int weft_study_cache_dir(const char *dir, char *out, size_t len, struct weft_error *err);

/* The cache key of a bundled workload at a size. */
uint64_t weft_study_trace_key(const struct weft_workload *wl, enum weft_size size);

/* The trace of workload at size in cache dir: reused, or traced into it. */
int weft_study_trace_get(const char *dir, const char *workload, enum weft_size size,
			 struct weft_study_trace *t, struct weft_error *err);

#endif
