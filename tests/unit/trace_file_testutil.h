/*
 * trace_file_testutil.h - a bundled workload traced at small size into a
 * fresh temporary file (mkstemp under /tmp), for the tests that estimate,
 * shard or calibrate against a real trace. The trace is the one
 * weft-validate and weft-study make (weft_est_trace_workload); the caller
 * unlinks path when done.
 */
#ifndef WEFT_TRACE_FILE_TESTUTIL_H
#define WEFT_TRACE_FILE_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "estimate/estimate.h"
#include "trace/launch/workload_run.h"

/* 0, or -1 with the reason on stderr. path must hold at least 64 bytes. */
static inline int testutil_trace_small(const char *workload, char *path, size_t len)
{
	snprintf(path, len, "/tmp/weft-test-%s-XXXXXX", workload);
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	struct weft_error err;
	if (weft_est_trace_workload(weft_workload_find(workload), WEFT_SIZE_SMALL, path, &err)) {
		fprintf(stderr, "%s: %s\n", workload, err.message);
		return -1;
	}
	return 0;
}

#endif
