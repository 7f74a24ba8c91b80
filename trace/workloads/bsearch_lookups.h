/*
 * bsearch_lookups.h - the lookups of the bsearch family (bsearch.c and
 * bsearch_cmv.c): nq binary-search lookups into n sorted (key, value)
 * pairs, absent keys giving -1. Both workloads search the same keys for the
 * same queries (one seed, one generator) and are checked against one CPU
 * reference, the ordinary branching binary search; they differ only in the
 * kernel that runs (its name is the state's `kernel`). The functions have
 * the signatures of struct weft_workload's hooks (trace/launch/workload.h).
 */
#ifndef WEFT_WL_BSEARCH_LOOKUPS_H
#define WEFT_WL_BSEARCH_LOOKUPS_H

#include <stdint.h>

#include "trace/launch/workload.h"

struct weft_wl_bsearch {
	const char *kernel; /* the .entry the lookups launch */
	int n, nq;
	int32_t *keys, *vals, *queries, *out_dev, *out_ref;
};

/* Draws the table and the queries for size and sets s->kernel. */
int weft_wl_bsearch_setup(struct weft_wl_bsearch *s, enum weft_size size, const char *kernel,
			  struct weft_error *err);
int weft_wl_bsearch_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			       struct weft_error *err);
void weft_wl_bsearch_run_reference(void *state);
int weft_wl_bsearch_verify(void *state, struct weft_error *err);
void weft_wl_bsearch_teardown(void *state);

#endif
