/*
 * trace_workload.c - a bundled workload run once into a trace file, for the
 * drivers that trace what they estimate (weft-validate's traces,
 * weft-study's trace cache): the library's counterpart of
 * `weft-trace run WORKLOAD -o FILE`, without its messages.
 */
#include "estimate.h"

#include <string.h>

#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"

int weft_est_trace_workload(const struct weft_workload *wl, enum weft_size size, const char *path,
			    struct weft_error *err)
{
	struct weft_trace_writer *tw;
	int rc = weft_trace_writer_open(path, 0, &tw, err);
	if (rc < 0)
		return rc;
	struct weft_ctx_options opts;
	memset(&opts, 0, sizeof(opts));
	opts.observer = weft_trace_writer_observer(tw);
	struct weft_ctx *ctx = weft_ctx_create(&opts);
	if (!ctx) {
		weft_trace_writer_abort(tw);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory creating the emulator context");
	}
	struct weft_workload_run_opts o = { size, 0 };
	struct weft_workload_result res;
	rc = weft_workload_run(wl, ctx, &o, &res, err);
	if (rc < 0) {
		weft_trace_writer_abort(tw);
	} else {
		weft_trace_writer_set_workload(tw, wl->name, weft_size_name(size));
		rc = weft_trace_writer_commit(tw, err);
	}
	weft_ctx_destroy(ctx);
	if (rc < 0)
		weft_error_prefix(err, "tracing %s at size %s: ", wl->name, weft_size_name(size));
	return rc;
}
