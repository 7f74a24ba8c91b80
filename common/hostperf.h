/*
 * hostperf.h - host-CPU baseline: run a callback under the host's performance
 * counters (issue 2 item 7).
 *
 * Counters are programmed through libpfm4 (pfm_get_os_event_encoding with
 * PFM_OS_PERF_EVENT) and read with perf_event_open(2) on the calling thread,
 * user-level only. Hardware counters (cycles, instructions) are often missing
 * in VMs and containers or blocked by perf_event_paranoid; then the software
 * counters (task-clock, page-faults, context-switches) still work. Wall time
 * (CLOCK_MONOTONIC) is always measured. Every counter records whether it was
 * available and, if not, why, so the output can say which were measured.
 *
 *     struct weft_hostperf hp;
 *     weft_hostperf_measure(fn, arg, &hp, &err);
 *     const struct weft_hostperf_counter *c = weft_hostperf_get(&hp, "cycles");
 *     if (c && c->available) ... c->value ...
 */
#ifndef WEFT_HOSTPERF_H
#define WEFT_HOSTPERF_H

#include <stdint.h>

#include "error.h"

/* cycles, instructions, task-clock, page-faults, context-switches */
#define WEFT_HOSTPERF_MAX 5

struct weft_hostperf_counter {
	char name[24];     /* "cycles", "instructions", "task-clock", ... */
	char event[48];    /* the libpfm4 event string, e.g. "perf::CYCLES" */
	char unit[8];      /* "" (a count) or "ns" (task-clock) */
	int hardware;      /* 1 for a hardware PMU counter */
	int available;     /* 1: value was measured */
	int scaled;        /* 1: the kernel multiplexed it; value extrapolated */
	uint64_t value;    /* 0 when not available */
	char reason[160];  /* when not available: why (e.g. "not supported") */
};

struct weft_hostperf {
	struct weft_hostperf_counter counters[WEFT_HOSTPERF_MAX];
	unsigned ncounters;
	double wall_seconds; /* CLOCK_MONOTONIC around the callback; always set */
};

/* Runs fn(arg) once under the counters. Counters that cannot be opened are
 * marked unavailable with a reason; that is not an error. Returns 0, or a
 * negative weft_err only when even the wall clock fails (never in
 * practice). */
int weft_hostperf_measure(void (*fn)(void *arg), void *arg, struct weft_hostperf *out,
			  struct weft_error *err);

/* The counter with that name, or NULL. */
const struct weft_hostperf_counter *weft_hostperf_get(const struct weft_hostperf *hp,
						      const char *name);

/* How many counters were available (hardware ones only when hw != 0). */
unsigned weft_hostperf_available(const struct weft_hostperf *hp, int hw);

#endif
