/*
 * test_trace_roundtrip.c - for every bundled workload at small size, the
 * trace reader reproduces exactly the per-thread instruction and address
 * streams the emulator executed.
 *
 * Each workload runs once with an observer that forwards every event both
 * to the trace writer and to a recorder that keeps, per CTA and thread, the
 * (pc, executed, address, space) sequence straight from the warp events
 * (trace_testutil.h). The trace is then read back twice, by random access
 * (weft_trace_read_cta) and by the parallel decoder
 * (weft_trace_for_each_cta, 2 threads), and every thread's iterator output
 * must equal the recorded sequence; the per-launch counts must equal the
 * emulator's, and verify must pass.
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

#include "trace/format/trace.h"
#include "trace_testutil.h"
#include "trace/launch/workload_run.h"

struct cmp_ctx {
	struct rec *r;
	const struct weft_program *p;
	uint32_t launch;
	size_t next; /* index into r->ctas of the next CTA of this launch */
	const char *wl;
};

static int cmp_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct cmp_ctx *x = user;
	/* the recorder saw CTAs in execution order; find this one */
	while (x->next < x->r->nctas &&
	       (x->r->ctas[x->next].launch != x->launch || x->r->ctas[x->next].cta != c->cta))
		x->next++;
	if (x->next >= x->r->nctas)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u not recorded or out of order", c->cta);
	if (rec_compare(x->wl, &x->r->ctas[x->next], x->p, c))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u differs", c->cta);
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
	struct weft_emu_observer tee = rec_observer(&r);
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

	/* random access, every CTA as recorded, and the per-launch counts */
	assert_int_equal(rec_check_trace(wl->name, &r, path), 0);

	struct weft_trace *t;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	const struct weft_trace_info *I = weft_trace_info(t);
	assert_int_equal(I->nlaunches, res.stats.launches);
	assert_int_equal(I->thread_insts, res.stats.thread_insts);
	assert_string_equal(I->workload, wl->name);
	assert_string_equal(I->size, "small");
	uint64_t wi = 0;
	for (uint32_t l = 0; l < I->nlaunches; l++)
		wi += weft_trace_launch(t, l)->warp_insts;
	assert_int_equal(wi, res.stats.warp_insts);
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
	rec_free(&r);
	unlink(path);
}

static void test_all_workloads(void **state)
{
	(void)state;
	int n = 0;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++, n++)
		roundtrip(*w);
	assert_true(n >= 18);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_workloads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
