/*
 * workload_run.h - runs one bundled workload (workload.h) end to end: make the
 * inputs, load the embedded PTX into a context, run the kernels, and when
 * asked, run the CPU reference under host performance counters and compare.
 *
 *     struct weft_ctx *ctx = weft_ctx_create(&opts);
 *     struct weft_workload_result r;
 *     struct weft_workload_run_opts o = { WEFT_SIZE_SMALL, 1 };
 *     int rc = weft_workload_run(weft_workload_find("vvadd"), ctx, &o, &r, &err);
 *
 * Errors are prefixed with the workload name ("vvadd: ..."). A failed
 * verification returns WEFT_ERR_VERIFY and still fills the result.
 */
#ifndef WEFT_WORKLOAD_RUN_H
#define WEFT_WORKLOAD_RUN_H

#include "trace/emu/host.h"
#include "common/hostperf.h"
#include "workload.h"

struct weft_workload_run_opts {
	enum weft_size size;
	int verify; /* run the CPU reference (timed) and compare */
};

enum weft_verify_outcome {
	WEFT_VERIFY_NOT_RUN = 0,
	WEFT_VERIFY_PASS,
	WEFT_VERIFY_FAIL,
};

struct weft_workload_result {
	const struct weft_workload *workload;
	enum weft_size size;
	struct weft_ctx_stats stats;      /* the context's totals after the run */
	double setup_seconds;             /* making inputs (wall) */
	int host_measured;                /* host is valid */
	struct weft_hostperf host;        /* the CPU reference under counters */
	enum weft_verify_outcome verify;
};

/* Runs wl in ctx (a fresh context is expected: its stats are reported as
 * the workload's). Returns 0, WEFT_ERR_VERIFY (result filled, err says the
 * first mismatch) or another negative weft_err. */
int weft_workload_run(const struct weft_workload *wl, struct weft_ctx *ctx,
		      const struct weft_workload_run_opts *opts,
		      struct weft_workload_result *res, struct weft_error *err);

#endif
