/*
 * test_trace_roundtrip.c - for every bundled workload at small size, the
 * trace reader reproduces exactly the per-thread instruction and address
 * streams the emulator executed.
 *
 * Each workload runs once with an observer that forwards every event both
 * to the trace writer and to a recorder that keeps, per CTA and thread, the
 * (pc, executed, address, space) sequence straight from the warp events.
 * The trace is then read back twice, by random access (weft_trace_read_cta)
 * and by the parallel decoder (weft_trace_for_each_cta, 2 threads), and
 * every thread's iterator output must equal the recorded sequence; the
 * per-launch counts must equal the emulator's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace.h"
#include "workload_run.h"

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
	const struct weft_emu_observer *w; /* the trace writer */
	uint32_t launch, tpc;
	struct rec_cta *ctas;
	size_t nctas, cap;
	struct rec_cta *cur;
	uint64_t warp_insts[64], thread_insts[64];
};

static int r_launch_begin(void *u, const struct weft_module *mod, uint32_t kernel, struct weft_dim3 grid,
			  struct weft_dim3 block, uint32_t dyn, struct weft_error *err)
{
	struct rec *r = u;
	r->tpc = block.x * block.y * block.z;
	int rc = r->w->launch_begin(r->w->user, mod, kernel, grid, block, dyn, err);
	return rc;
}

static int r_launch_end(void *u, struct weft_error *err)
{
	struct rec *r = u;
	r->launch++;
	return r->w->launch_end(r->w->user, err);
}

static int r_cta_begin(void *u, uint32_t cta, struct weft_error *err)
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
	c->th = calloc(r->tpc, sizeof(*c->th));
	r->cur = c;
	return r->w->cta_begin(r->w->user, cta, err);
}

static int r_cta_end(void *u, uint32_t cta, struct weft_error *err)
{
	struct rec *r = u;
	return r->w->cta_end(r->w->user, cta, err);
}

static int r_warp(void *u, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct rec *r = u;
	if (r->launch < 64) {
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
	return r->w->warp_inst(r->w->user, ev, err);
}

static void free_rec(struct rec *r)
{
	for (size_t i = 0; i < r->nctas; i++) {
		for (uint32_t t = 0; t < r->ctas[i].nthreads; t++)
			free(r->ctas[i].th[t].v);
		free(r->ctas[i].th);
	}
	free(r->ctas);
}

struct cmp_ctx {
	struct rec *r;
	const struct weft_program *p;
	uint32_t launch;
	size_t next; /* index into r->ctas of the next CTA of this launch */
	const char *wl;
};

static void compare_cta(const char *wl, const struct rec_cta *rc, const struct weft_program *p,
			const struct weft_cta_trace *c)
{
	assert_int_equal(c->nthreads, rc->nthreads);
	assert_int_equal(c->cta, rc->cta);
	for (uint32_t t = 0; t < c->nthreads; t++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		const struct rec_thread *rt = &rc->th[t];
		weft_thread_iter_init(&it, p, &c->threads[t]);
		size_t i = 0;
		while (weft_thread_iter_next(&it, &d)) {
			if (i >= rt->n) {
				fprintf(stderr, "%s launch %u CTA %u thread %u: trace has more than the %zu instructions\n",
					wl, rc->launch, rc->cta, t, rt->n);
				fail();
			}
			const struct rec_inst *x = &rt->v[i];
			if (d.pc != x->pc || d.exec != x->exec || d.has_addr != x->has_addr ||
			    (x->has_addr && (d.addr != x->addr || d.space != x->space))) {
				fprintf(stderr,
					"%s launch %u CTA %u thread %u inst %zu: trace pc %u exec %u addr %d:%llx sp %u, "
					"emulator pc %u exec %u addr %d:%llx sp %u\n",
					wl, rc->launch, rc->cta, t, i, d.pc, d.exec, d.has_addr,
					(unsigned long long)d.addr, d.space, x->pc, x->exec, x->has_addr,
					(unsigned long long)x->addr, x->space);
				fail();
			}
			i++;
		}
		if (i != rt->n) {
			fprintf(stderr, "%s launch %u CTA %u thread %u: trace has %zu instructions, emulator %zu\n", wl,
				rc->launch, rc->cta, t, i, rt->n);
			fail();
		}
	}
}

static int cmp_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct cmp_ctx *x = user;
	/* the recorder saw CTAs in execution order; find this one */
	while (x->next < x->r->nctas &&
	       (x->r->ctas[x->next].launch != x->launch || x->r->ctas[x->next].cta != c->cta))
		x->next++;
	assert_true(x->next < x->r->nctas);
	compare_cta(x->wl, &x->r->ctas[x->next], x->p, c);
	x->next++;
	return 0;
}

static void roundtrip(const struct weft_workload *wl)
{
	char path[] = "/tmp/weft-rt-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 1, &w, &err), 0);
	struct rec r;
	memset(&r, 0, sizeof(r));
	r.w = weft_trace_writer_observer(w);
	struct weft_emu_observer tee = { &r, r_launch_begin, r_launch_end, r_cta_begin, r_cta_end, r_warp };
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &tee;
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
	struct weft_workload_result res;
	int rc = weft_workload_run(wl, ctx, &ro, &res, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", wl->name, err.message);
	assert_int_equal(rc, 0);
	weft_trace_writer_set_workload(w, wl->name, "small");
	rc = weft_trace_writer_commit(w, &err);
	if (rc)
		fprintf(stderr, "%s: commit: %s\n", wl->name, err.message);
	assert_int_equal(rc, 0);

	struct weft_trace *t;
	rc = weft_trace_open(path, &t, &err);
	if (rc)
		fprintf(stderr, "%s: open: %s\n", wl->name, err.message);
	assert_int_equal(rc, 0);
	const struct weft_trace_info *I = weft_trace_info(t);
	assert_int_equal(I->nlaunches, res.stats.launches);
	assert_int_equal(I->thread_insts, res.stats.thread_insts);
	assert_string_equal(I->workload, wl->name);
	uint64_t wi = 0;
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		wi += L->warp_insts;
		if (l < 64) {
			assert_int_equal(L->warp_insts, r.warp_insts[l]);
			assert_int_equal(L->thread_insts, r.thread_insts[l]);
		}
	}
	assert_int_equal(wi, res.stats.warp_insts);
	/* random access, every CTA as recorded */
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	for (size_t i = 0; i < r.nctas; i++) {
		const struct rec_cta *rc_ = &r.ctas[i];
		rc = weft_trace_read_cta(t, rc_->launch, rc_->cta, &c, &err);
		if (rc)
			fprintf(stderr, "%s: read_cta: %s\n", wl->name, err.message);
		assert_int_equal(rc, 0);
		compare_cta(wl->name, rc_, weft_trace_launch(t, rc_->launch)->program, &c);
	}
	weft_cta_trace_free(&c);
	/* parallel decode in CTA order */
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		struct cmp_ctx x = { &r, weft_trace_launch(t, l)->program, l, 0, wl->name };
		rc = weft_trace_for_each_cta(t, l, NULL, 2, cmp_cb, &x, &err);
		if (rc)
			fprintf(stderr, "%s: for_each: %s\n", wl->name, err.message);
		assert_int_equal(rc, 0);
	}
	weft_trace_close(t);
	rc = weft_trace_verify(path, &err);
	if (rc)
		fprintf(stderr, "%s: verify: %s\n", wl->name, err.message);
	assert_int_equal(rc, 0);
	weft_ctx_destroy(ctx);
	free_rec(&r);
	unlink(path);
}

static void test_all_workloads(void **state)
{
	(void)state;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++)
		roundtrip(*w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_workloads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
