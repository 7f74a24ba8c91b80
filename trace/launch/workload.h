/*
 * workload.h - bundled workloads: CUDA kernels (committed as PTX) with a host
 * driver, a CPU reference and a verification.
 *
 * Adding a workload: write trace/workloads/NAME.cu, run `make ptx` to commit
 * NAME.ptx, write trace/workloads/NAME.c defining
 * `const struct weft_workload weft_workload_NAME` (the PTX text is embedded at
 * build time as `weft_ptx_NAME`, declared with WEFT_WORKLOAD_PTX(NAME)). The
 * Makefile lists every trace/workloads/NAME.ptx in the workload table it
 * generates (build/gen/registry.c); nothing else needs editing.
 *
 * Life cycle (trace/launch/workload_run.c drives it): setup(size) makes the inputs
 * deterministically (seeded); run_device() runs the kernels through the host
 * API; run_reference() computes the same result on the CPU (timed under host
 * performance counters); verify() compares the two. All functions get the
 * workload's private state, state_size bytes, zeroed by the framework;
 * teardown() frees what setup allocated inside it.
 */
#ifndef WEFT_WORKLOAD_H
#define WEFT_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"

enum weft_size { WEFT_SIZE_SMALL = 0, WEFT_SIZE_DEFAULT, WEFT_SIZE_LARGE };
const char *weft_size_name(enum weft_size s);
int weft_size_parse(const char *s, enum weft_size *out); /* 0 or -1 */

struct weft_workload {
	const char *name;
	const char *description;   /* one line */
	const char *ptx_name;      /* "vvadd.ptx", for messages */
	const char *ptx_text;      /* embedded PTX */
	const char *tolerance;     /* "exact" or e.g. "rel 1e-5 / abs 1e-6": documented in docs/workloads.md */
	size_t state_size;
	int (*setup)(void *state, enum weft_size size, struct weft_error *err);
	int (*run_device)(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err);
	void (*run_reference)(void *state);
	/* 0 when equal, else WEFT_ERR_VERIFY with the first mismatch (index,
	 * device value, reference value) in err. */
	int (*verify)(void *state, struct weft_error *err);
	void (*teardown)(void *state);
};

/* Declares the embedded PTX text of a workload (generated from NAME.ptx). */
#define WEFT_WORKLOAD_PTX(name) extern const char weft_ptx_##name[]

/* NULL-terminated table of all bundled workloads, in `list` order. */
extern const struct weft_workload *const weft_workloads[];
const struct weft_workload *weft_workload_find(const char *name);
/* For a name weft_workload_find does not know: "; did you mean `sgemm`?"
 * (common/suggest.h) naming the closest bundled workloads, or "" when none
 * is close; written into buf, which it returns. */
const char *weft_workload_suggest(const char *name, char *buf, size_t len);

#endif
