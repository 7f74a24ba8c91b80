/*
 * trace_testutil.h - helpers shared by the trace tests (test_trace_*.c):
 * an observer that forwards every event to the trace writer and also
 * records each thread's (pc, executed, address, space) sequence straight
 * from the warp events, and a check that a decoded CTA reproduces the
 * recorded sequences exactly.
 */
#ifndef WEFT_TRACE_TESTUTIL_H
#define WEFT_TRACE_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/format/trace.h"

struct rec_inst {
	uint32_t pc;
	uint8_t exec, has_addr, space;
	uint64_t addr;
};

struct rec_thread {
	struct rec_inst *v;
	size_t n, cap;
};

struct rec_cta {
	uint32_t launch, cta;
	uint32_t nthreads;
	struct rec_thread *th;
};

struct rec {
	const struct weft_emu_observer *w; /* the trace writer (may be NULL) */
	uint32_t launch, tpc;
	struct rec_cta *ctas;
	size_t nctas, cap;
	struct rec_cta *cur;
	uint64_t warp_insts[256], thread_insts[256];
};

static int rec_launch_begin(void *u, const struct weft_module *mod, uint32_t kernel, struct weft_dim3 grid,
			    struct weft_dim3 block, uint32_t dyn, struct weft_error *err)
{
	struct rec *r = u;
	r->tpc = block.x * block.y * block.z;
	return r->w ? r->w->launch_begin(r->w->user, mod, kernel, grid, block, dyn, err) : 0;
}

static int rec_launch_end(void *u, struct weft_error *err)
{
	struct rec *r = u;
	r->launch++;
	return r->w ? r->w->launch_end(r->w->user, err) : 0;
}

static int rec_cta_begin(void *u, uint32_t cta, struct weft_error *err)
{
	struct rec *r = u;
	if (r->nctas == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->ctas = realloc(r->ctas, r->cap * sizeof(*r->ctas));
	}
	struct rec_cta *c = &r->ctas[r->nctas++];
	c->launch = r->launch;
	c->cta = cta;
	c->nthreads = r->tpc;
	c->th = calloc(r->tpc ? r->tpc : 1, sizeof(*c->th));
	r->cur = c;
	return r->w ? r->w->cta_begin(r->w->user, cta, err) : 0;
}

static int rec_cta_end(void *u, uint32_t cta, struct weft_error *err)
{
	struct rec *r = u;
	return r->w ? r->w->cta_end(r->w->user, cta, err) : 0;
}

static int rec_warp(void *u, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct rec *r = u;
	if (r->launch < 256) {
		r->warp_insts[r->launch]++;
		r->thread_insts[r->launch] += (uint32_t)__builtin_popcount(ev->active);
	}
	uint32_t lanes = ev->active | ev->guard_false;
	for (uint32_t m = lanes; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		struct rec_thread *t = &r->cur->th[ev->warp * 32 + (uint32_t)l];
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->v = realloc(t->v, t->cap * sizeof(*t->v));
		}
		struct rec_inst *x = &t->v[t->n++];
		memset(x, 0, sizeof(*x));
		x->pc = ev->pc;
		x->exec = (ev->active >> l) & 1;
		if (x->exec && ev->addr) {
			x->has_addr = 1;
			x->addr = ev->addr[l];
			x->space = ev->space;
		}
	}
	return r->w ? r->w->warp_inst(r->w->user, ev, err) : 0;
}

/* The tee observer: r->w must be set (or NULL) before the run. */
static inline struct weft_emu_observer rec_observer(struct rec *r)
{
	struct weft_emu_observer o = { .user = r, .launch_begin = rec_launch_begin, .launch_end = rec_launch_end,
					  .cta_begin = rec_cta_begin, .cta_end = rec_cta_end, .warp_inst = rec_warp };
	return o;
}

static inline void rec_free(struct rec *r)
{
	for (size_t i = 0; i < r->nctas; i++) {
		for (uint32_t t = 0; t < r->ctas[i].nthreads; t++)
			free(r->ctas[i].th[t].v);
		free(r->ctas[i].th);
	}
	free(r->ctas);
	memset(r, 0, sizeof(*r));
}

/* 0 when c reproduces rc exactly, else -1 with the first difference on stderr. */
static inline int rec_compare(const char *what, const struct rec_cta *rc, const struct weft_program *p,
			      const struct weft_cta_trace *c)
{
	if (c->nthreads != rc->nthreads || c->cta != rc->cta) {
		fprintf(stderr, "%s: CTA %u/%u threads %u/%u\n", what, c->cta, rc->cta, c->nthreads, rc->nthreads);
		return -1;
	}
	for (uint32_t t = 0; t < c->nthreads; t++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		const struct rec_thread *rt = &rc->th[t];
		weft_thread_iter_init(&it, p, &c->threads[t]);
		size_t i = 0;
		while (weft_thread_iter_next(&it, &d)) {
			if (i >= rt->n) {
				fprintf(stderr, "%s launch %u CTA %u thread %u: trace has more than the %zu instructions\n",
					what, rc->launch, rc->cta, t, rt->n);
				return -1;
			}
			const struct rec_inst *x = &rt->v[i];
			if (d.pc != x->pc || d.exec != x->exec || d.has_addr != x->has_addr ||
			    (x->has_addr && (d.addr != x->addr || d.space != x->space))) {
				fprintf(stderr,
					"%s launch %u CTA %u thread %u inst %zu: trace pc %u exec %u addr %d:%llx sp %u, "
					"emulator pc %u exec %u addr %d:%llx sp %u\n",
					what, rc->launch, rc->cta, t, i, d.pc, d.exec, d.has_addr,
					(unsigned long long)d.addr, d.space, x->pc, x->exec, x->has_addr,
					(unsigned long long)x->addr, x->space);
				return -1;
			}
			i++;
		}
		if (i != rt->n) {
			fprintf(stderr, "%s launch %u CTA %u thread %u: trace has %zu instructions, emulator %zu\n", what,
				rc->launch, rc->cta, t, i, rt->n);
			return -1;
		}
	}
	return 0;
}

/* Reads every recorded CTA back by random access and compares. */
static inline int rec_check_trace(const char *what, const struct rec *r, const char *path)
{
	struct weft_trace *t;
	struct weft_error err;
	if (weft_trace_open(path, &t, &err)) {
		fprintf(stderr, "%s: open: %s\n", what, err.message);
		return -1;
	}
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	int rc = 0;
	for (size_t i = 0; !rc && i < r->nctas; i++) {
		const struct rec_cta *x = &r->ctas[i];
		if (weft_trace_read_cta(t, x->launch, x->cta, &c, &err)) {
			fprintf(stderr, "%s: read_cta: %s\n", what, err.message);
			rc = -1;
			break;
		}
		rc = rec_compare(what, x, weft_trace_launch(t, x->launch)->program, &c);
	}
	for (uint32_t l = 0; !rc && l < weft_trace_info(t)->nlaunches && l < 256; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		if (L->warp_insts != r->warp_insts[l] || L->thread_insts != r->thread_insts[l]) {
			fprintf(stderr, "%s: launch %u counts differ\n", what, l);
			rc = -1;
		}
	}
	weft_cta_trace_free(&c);
	weft_trace_close(t);
	return rc;
}

#endif
