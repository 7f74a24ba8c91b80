/*
 * rt_exit.c - the end of the run, from the library's destructor: it runs
 * when the program returns from main or calls exit(), after the program's
 * own atexit handlers and C++ destructors (which may still free device
 * memory), whether or not the program freed anything. It commits the trace
 * of every launch (atomically: the file appears complete or not at all;
 * common/file.h), writes the summary WEFT_CUDART_REPORT names, and frees
 * the library's state. Later calls get cudaErrorCudartUnloading.
 *
 * Not run, so no trace is written, when the program is killed by a signal,
 * calls _exit(), or crashes; nor in a child the program forked (only the
 * process that loaded the library writes).
 *
 * The report is text, one `key value` line each (read by `weft-trace exec`,
 * trace/cli/cmd_exec.c):
 *
 *   weft-cudart-report 1
 *   launches N / ctas N / thread_insts N / warp_insts N / emu_seconds S
 *   device_bytes_peak N
 *   failures N
 *   first_failure TEXT            (when failures > 0)
 *   trace written PATH | trace not-written WHY | trace none
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/sbuf.h"

/* Commits or drops the trace; "written PATH", "not-written WHY" or "none"
 * into what. */
static void finish_trace(char *what, size_t len)
{
	if (!rt.tw) {
		snprintf(what, len, "none");
		return;
	}
	if (rt.trace_broken) {
		weft_trace_writer_abort(rt.tw);
		rt.tw = NULL;
		snprintf(what, len, "not-written %s", rt.trace_broken_why);
		fprintf(stderr, "weft-cudart: trace %s not written: %s\n", rt.trace_path, rt.trace_broken_why);
		return;
	}
	struct weft_error err;
	int rc = weft_trace_writer_commit(rt.tw, &err);
	rt.tw = NULL;
	if (rc) {
		rt.failures++;
		snprintf(what, len, "not-written %s", err.message);
		fprintf(stderr, "weft-cudart: trace %s not written: %s\n", rt.trace_path, err.message);
		return;
	}
	snprintf(what, len, "written %s", rt.trace_path);
}

static void write_report(const char *trace)
{
	struct rt_totals t;
	struct weft_sbuf b;
	rt_totals(&t);
	weft_sbuf_init(&b);
	weft_sbuf_printf(&b, "weft-cudart-report 1\n");
	weft_sbuf_printf(&b, "launches %llu\nctas %llu\nthread_insts %llu\nwarp_insts %llu\n",
			 (unsigned long long)t.launches, (unsigned long long)t.ctas,
			 (unsigned long long)t.thread_insts, (unsigned long long)t.warp_insts);
	weft_sbuf_printf(&b, "emu_seconds %.6f\ndevice_bytes_peak %llu\nfailures %u\n", t.emu_seconds,
			 (unsigned long long)t.device_bytes_peak, rt.failures);
	if (rt.failures) {
		/* one line: a message never holds a newline, but be sure */
		for (char *c = rt.first_failure; *c; c++)
			if (*c == '\n')
				*c = ' ';
		weft_sbuf_printf(&b, "first_failure %s\n", rt.first_failure);
	}
	weft_sbuf_printf(&b, "trace %s\n", trace);
	struct weft_error err;
	if (b.failed)
		fprintf(stderr, "weft-cudart: out of memory writing the report %s\n", rt.report_path);
	else if (weft_write_atomic(rt.report_path, b.data, b.len, &err))
		fprintf(stderr, "weft-cudart: %s\n", err.message);
	weft_sbuf_free(&b);
}

__attribute__((destructor)) static void rt_finish(void)
{
	if (rt.pid != getpid())
		return; /* a forked child: the parent writes */
	rt_enter("exit");
	if (rt.finished) {
		rt_leave(0);
		return;
	}
	/* the figures before the context goes */
	char trace[PATH_MAX + 600];
	rt_context_drop();
	finish_trace(trace, sizeof(trace));
	if (rt.report_path[0])
		write_report(trace);
	rt_handles_free();
	rt_arrays_free();
	rt_registry_free();
	for (uint32_t i = 0; i < rt.npinned; i++)
		free(rt.pinned[i]);
	free(rt.pinned);
	rt_print_free();
	rt.pinned = NULL;
	rt.npinned = 0;
	rt.finished = 1;
	rt_leave(0);
}
