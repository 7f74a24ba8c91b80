/*
 * simt_testutil.h - helpers for the SIMT model tests (test_simt*.c): trace
 * a PTX kernel or a bundled workload into a temporary .wtr file with the
 * real emulator and trace writer, run a timing model on it with a config
 * from configs/ plus --set overrides, and look up a launch's statistics.
 * Header-only (static functions): each test binary is one file.
 */
#ifndef WEFT_SIMT_TESTUTIL_H
#define WEFT_SIMT_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace/emu/host.h"
#include "models/model.h"
#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"

static inline void st_check(int rc, const struct weft_error *err, const char *what)
{
	if (rc) {
		fprintf(stderr, "%s failed: %s\n", what, err->message);
		fail();
	}
}

/* A temporary directory for the test's traces, removed by st_tmp_done. */
static char st_dir[64];

static inline const char *st_path(const char *name)
{
	static char p[4][160];
	static int k;
	if (!st_dir[0]) {
		snprintf(st_dir, sizeof(st_dir), "/tmp/weft-test-simt-XXXXXX");
		assert_non_null(mkdtemp(st_dir));
	}
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", st_dir, name);
	return p[k];
}

static inline void st_tmp_done(const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		unlink(st_path(names[i]));
	if (st_dir[0])
		rmdir(st_dir);
}

/* Tracing a hand-written kernel. */
struct st_kernel {
	struct weft_trace_writer *w;
	struct weft_ctx *ctx;
	struct weft_module *mod;
	struct weft_error err;
};

static inline void st_kernel_open(struct st_kernel *k, const char *ptx, const char *trace_path)
{
	memset(k, 0, sizeof(*k));
	st_check(weft_trace_writer_open(trace_path, 1, &k->w, &k->err), &k->err, "trace writer open");
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(k->w);
	k->ctx = weft_ctx_create(&o);
	assert_non_null(k->ctx);
	st_check(weft_module_load_text(k->ctx, ptx, strlen(ptx), "test.ptx", &k->mod, &k->err), &k->err,
		 "PTX load");
}

static inline uint64_t st_kernel_alloc(struct st_kernel *k, size_t bytes)
{
	uint64_t d;
	st_check(weft_malloc(k->ctx, bytes, &d, &k->err), &k->err, "malloc");
	return d;
}

static inline void st_kernel_launch(struct st_kernel *k, const char *name, uint32_t grid, uint32_t block,
			     const struct weft_arg *args, uint32_t nargs)
{
	st_check(weft_launch(k->ctx, k->mod, name, weft_dim3(grid, 1, 1), weft_dim3(block, 1, 1), 0,
			     args, nargs, &k->err),
		 &k->err, "launch");
}

static inline void st_kernel_close(struct st_kernel *k)
{
	st_check(weft_trace_writer_commit(k->w, &k->err), &k->err, "trace commit");
	weft_ctx_destroy(k->ctx);
}

/* Traces a bundled workload at a size. */
static inline void st_trace_workload(const char *name, enum weft_size size, const char *trace_path)
{
	struct weft_error err;
	struct weft_trace_writer *w;
	const struct weft_workload *wl = weft_workload_find(name);
	assert_non_null(wl);
	st_check(weft_trace_writer_open(trace_path, 1, &w, &err), &err, "trace writer open");
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_workload_run_opts ro = { size, 0 };
	struct weft_workload_result res;
	st_check(weft_workload_run(wl, ctx, &ro, &res, &err), &err, name);
	st_check(weft_trace_writer_commit(w, &err), &err, "trace commit");
	weft_ctx_destroy(ctx);
}

/* Runs the model a config names on a trace, on the CTAs `sample` picks
 * (NULL: all). */
static inline void st_run_sample(const char *trace_path, const char *config, const char *const *sets,
				 uint32_t nsets, const struct weft_cta_sample *sample,
				 struct weft_model_result *r)
{
	struct weft_error err;
	struct weft_config cfg;
	struct weft_trace *t;
	memset(r, 0, sizeof(*r));
	st_check(weft_config_load(config, sets, nsets, &cfg, &err), &err, config);
	st_check(weft_trace_open(trace_path, &t, &err), &err, "trace open");
	const struct weft_model *m = weft_model_find(cfg.model);
	assert_non_null(m);
	struct weft_cta_sample s;
	memset(&s, 0, sizeof(s));
	s.kind = WEFT_SAMPLE_ALL;
	st_check(weft_model_run(m, &cfg, t, sample ? sample : &s, r, &err), &err, "model run");
	weft_trace_close(t);
	weft_config_free(&cfg);
}

/* Runs the model a config names on a trace (all CTAs). */
static inline void st_run(const char *trace_path, const char *config, const char *const *sets,
			  uint32_t nsets, struct weft_model_result *r)
{
	st_run_sample(trace_path, config, sets, nsets, NULL, r);
}

static inline double st_stat(const struct weft_launch_result *l, const char *key)
{
	for (uint32_t i = 0; i < l->nstats; i++)
		if (!strcmp(l->stats[i].key, key))
			return l->stats[i].value;
	fprintf(stderr, "no stat %s\n", key);
	fail();
	return 0;
}

/* A CPI-stack component of a launch (0 when the model did not report it). */
static inline double st_cpi(const struct weft_launch_result *l, const char *name)
{
	for (uint32_t i = 0; i < l->cpi.n; i++)
		if (!strcmp(l->cpi.item[i].name, name))
			return l->cpi.item[i].cycles;
	return 0;
}

static inline double st_event(const struct weft_model_result *r, const struct weft_launch_result *l,
		       const char *name)
{
	for (uint32_t i = 0; i < r->model->nevents; i++)
		if (!strcmp(r->model->events[i].name, name))
			return l->events[i];
	fprintf(stderr, "no event %s\n", name);
	fail();
	return 0;
}

#endif
