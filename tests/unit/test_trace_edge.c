/*
 * test_trace_edge.c - trace encoding edge cases, each checked by a full
 * round trip against the emulator's own events (trace_testutil.h): whole
 * CTAs that exit at once, threads that exit immediately, 1024-thread CTAs,
 * 3-D grids and blocks, partial warps, guarded loads and stores, many
 * launches (programs shared between launches, and between two modules of
 * the same text), chunks that split inside a
 * launch, every zstd level extreme; plus CTA sampling and the parallel
 * decoder's order.
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

#include "trace/emu/host.h"
#include "trace/format/trace.h"
#include "trace_edge_ptx.h"
#include "trace/format/trace_format.h"
#include "trace/format/trace_read.h"
#include "trace_testutil.h"

struct launch_desc {
	struct weft_dim3 grid, block;
};

/* far: the tee moves the accesses of odd warps 2^40 bytes up (the
 * writer and the recorder both see the moved addresses), so that a CTA's
 * addresses of one space lie further apart than the decoder's 4-byte
 * offsets reach (trace.h: it keeps that CTA's in full). */
static int far_warp(void *u, const struct weft_warp_event *ev, struct weft_error *err)
{
	if (!ev->addr || !(ev->warp & 1))
		return rec_warp(u, ev, err);
	uint64_t moved[32];
	for (int l = 0; l < 32; l++)
		moved[l] = ev->addr[l] + ((uint64_t)1 << 40);
	struct weft_warp_event e = *ev;
	e.addr = moved;
	return rec_warp(u, &e, err);
}

/* Whether every CTA of the trace at path decodes to the form asked for:
 * full addresses (wide) or offsets (compact). */
static void check_addr_form(const char *path, int wide)
{
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	int seen = 0;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++)
		for (uint32_t k = 0; k < weft_trace_launch(t, l)->nctas; k++) {
			assert_int_equal(weft_trace_read_cta(t, l, k, &c, &err), 0);
			const struct wt_ctapriv *q = c.priv;
			uint32_t na = 0;
			for (uint32_t i = 0; i < c.nthreads; i++)
				na += c.threads[i].naddrs;
			if (!na || (c.nthreads <= 32 && wide))
				continue; /* no access, or no odd warp to move */
			assert_int_equal(q->wide, wide);
			assert_int_equal(c.threads[0].addrs != NULL, wide);
			seen++;
		}
	assert_true(seen > 0);
	weft_cta_trace_free(&c);
	weft_trace_close(t);
}

/* Runs the edge kernel for each launch in ds through the writer and the
 * recorder, then reads the trace back and compares. */
static void run_edge(int far, const char *what, const struct launch_desc *ds, int n, int level)
{
	char path[] = "/tmp/weft-edge-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, level, &w, &err), 0);
	struct rec r;
	memset(&r, 0, sizeof(r));
	r.w = weft_trace_writer_observer(w);
	struct weft_emu_observer obs = rec_observer(&r);
	if (far)
		obs.warp_inst = far_warp;
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &obs;
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_module *mod;
	int rc = weft_module_load_text(ctx, trace_edge_ptx, strlen(trace_edge_ptx), "edge.ptx", &mod, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", what, err.message);
	assert_int_equal(rc, 0);
	for (int i = 0; i < n; i++) {
		uint64_t threads = (uint64_t)ds[i].grid.x * ds[i].grid.y * ds[i].grid.z * ds[i].block.x *
				   ds[i].block.y * ds[i].block.z;
		uint64_t out;
		assert_int_equal(weft_malloc(ctx, threads * 64 + 64, &out, &err), 0);
		struct weft_arg args[] = { WEFT_ARG(out) };
		rc = weft_launch(ctx, mod, "edge", ds[i].grid, ds[i].block, 0, args, 1, &err);
		if (rc)
			fprintf(stderr, "%s: launch %d: %s\n", what, i, err.message);
		assert_int_equal(rc, 0);
		assert_int_equal(weft_free(ctx, out, &err), 0);
	}
	rc = weft_trace_writer_commit(w, &err);
	if (rc)
		fprintf(stderr, "%s: commit: %s\n", what, err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(rec_check_trace(what, &r, path), 0);
	rc = weft_trace_verify(path, &err);
	if (rc)
		fprintf(stderr, "%s: verify: %s\n", what, err.message);
	assert_int_equal(rc, 0);
	if (far >= 0)
		check_addr_form(path, far);
	weft_ctx_destroy(ctx);
	rec_free(&r);
	unlink(path);
}

static void test_empty_and_early_exit(void **state)
{
	(void)state;
	/* CTA 1 exits at once; tid % 5 == 3 exits at its first branch */
	struct launch_desc d[] = { { { 3, 1, 1 }, { 40, 1, 1 } } };
	run_edge(0, "empty CTAs", d, 1, 0);
}

/* A CTA's addresses as 4-byte offsets from each space's base, or in full
 * when its warps' accesses lie 2^40 bytes apart: decoded the same either
 * way (rec_check_trace), in the form asked for (check_addr_form). */
static void test_addr_forms(void **state)
{
	(void)state;
	struct launch_desc d[] = { { { 3, 1, 1 }, { 96, 1, 1 } } };
	run_edge(0, "compact addresses", d, 1, 0);
	run_edge(1, "addresses 2^40 apart", d, 1, 0);
}

static void test_big_cta(void **state)
{
	(void)state;
	struct launch_desc d[] = { { { 2, 1, 1 }, { 1024, 1, 1 } }, { { 1, 1, 1 }, { 32, 32, 1 } } };
	run_edge(0, "1024-thread CTAs", d, 2, 0);
}

static void test_3d(void **state)
{
	(void)state;
	struct launch_desc d[] = { { { 3, 2, 2 }, { 5, 3, 2 } }, { { 2, 3, 4 }, { 1, 1, 1 } } };
	run_edge(0, "3-D grids", d, 2, 0);
}

static void test_many_launches(void **state)
{
	(void)state;
	struct launch_desc d[100];
	for (int i = 0; i < 100; i++) {
		d[i].grid = weft_dim3((uint32_t)(i % 4) + 1, 1, 1);
		d[i].block = weft_dim3((uint32_t)(i % 33) + 1, 1, 1);
	}
	run_edge(0, "many launches", d, 100, 0);
}

static void test_many_chunks(void **state)
{
	(void)state;
	/* enough CTAs that a launch spans several chunks */
	struct launch_desc d[] = { { { 600, 1, 1 }, { 256, 1, 1 } } };
	run_edge(0, "many chunks", d, 1, 1);
	struct launch_desc e[] = { { { 5, 1, 1 }, { 64, 1, 1 } } };
	run_edge(0, "level 19", e, 1, 19);
}

/* docs/trace-format.md: zlib's CRC-32 (check value of "123456789") */
/* Two modules of the same text, launched A, B, A: the writer keeps a
 * kernel's program per (module, kernel) and finds the bytes it wrote
 * before, so B's launch and A's second refer to A's first (one program in
 * the file), and each launch decodes as it ran. */
static void test_two_modules(void **state)
{
	(void)state;
	char path[] = "/tmp/weft-edge2-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 0, &w, &err), 0);
	struct rec r;
	memset(&r, 0, sizeof(r));
	r.w = weft_trace_writer_observer(w);
	struct weft_emu_observer obs = rec_observer(&r);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &obs;
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_module *m[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(weft_module_load_text(ctx, trace_edge_ptx, strlen(trace_edge_ptx), "edge.ptx",
						       &m[i], &err), 0);
	assert_int_not_equal(weft_module_uid(m[0]), weft_module_uid(m[1]));
	for (int i = 0; i < 3; i++) {
		uint64_t out;
		assert_int_equal(weft_malloc(ctx, 2 * 48 * 64 + 64, &out, &err), 0);
		struct weft_arg args[] = { WEFT_ARG(out) };
		assert_int_equal(weft_launch(ctx, m[i & 1], "edge", weft_dim3(2, 1, 1), weft_dim3(48, 1, 1), 0,
					     args, 1, &err), 0);
		assert_int_equal(weft_free(ctx, out, &err), 0);
	}
	assert_int_equal(weft_trace_writer_commit(w, &err), 0);
	assert_int_equal(rec_check_trace("two modules", &r, path), 0);
	struct weft_trace *t;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	assert_int_equal(weft_trace_info(t)->nlaunches, 3);
	assert_ptr_equal(weft_trace_launch(t, 1)->program, weft_trace_launch(t, 0)->program);
	assert_ptr_equal(weft_trace_launch(t, 2)->program, weft_trace_launch(t, 0)->program);
	weft_trace_close(t);
	weft_ctx_destroy(ctx);
	rec_free(&r);
	unlink(path);
}

static void test_crc(void **state)
{
	(void)state;
	assert_int_equal(weft_trace_crc32(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(weft_trace_crc32(weft_trace_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
	assert_int_equal(weft_trace_crc32(0, "", 0), 0);
}

/* ---- sampling ---- */

static void test_sampling(void **state)
{
	(void)state;
	uint32_t ids[100];
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_EVERY, .every = 7 };
	uint32_t n = weft_cta_sample_select(&s, 100, ids);
	assert_int_equal(n, 15);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(ids[i], i * 7);
	s.kind = WEFT_SAMPLE_RANDOM;
	s.count = 10;
	s.seed = 42;
	n = weft_cta_sample_select(&s, 100, ids);
	assert_int_equal(n, 10);
	for (uint32_t i = 1; i < n; i++)
		assert_true(ids[i] > ids[i - 1]);
	assert_true(ids[n - 1] < 100);
	uint32_t again[100];
	assert_int_equal(weft_cta_sample_select(&s, 100, again), 10);
	assert_memory_equal(ids, again, 10 * sizeof(uint32_t));
	s.seed = 43;
	weft_cta_sample_select(&s, 100, again);
	assert_true(memcmp(ids, again, 10 * sizeof(uint32_t)) != 0);
	s.count = 1000; /* more than there are: all of them */
	assert_int_equal(weft_cta_sample_select(&s, 100, ids), 100);
	assert_int_equal(weft_cta_sample_select(NULL, 5, ids), 5);
	char buf[80];
	s.count = 10;
	s.seed = 42;
	weft_cta_sample_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "random 10 CTAs (seed 42)");
	s.kind = WEFT_SAMPLE_EVERY;
	s.every = 4;
	weft_cta_sample_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "every 4th CTA (CTA 0, 4, ...)");
	s.kind = WEFT_SAMPLE_ALL;
	weft_cta_sample_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "all CTAs");
}

struct order {
	uint32_t last;
	int first;
	uint32_t n;
	const uint32_t *want;
};

static int order_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct order *o = user;
	if (o->want && c->cta != o->want[o->n])
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u out of order (want %u)", c->cta, o->want[o->n]);
	if (!o->first && c->cta <= o->last)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u after %u", c->cta, o->last);
	o->first = 0;
	o->last = c->cta;
	o->n++;
	return 0;
}

/* A callback that reads another CTA by random access meanwhile. */
struct peek {
	struct weft_trace *t;
	struct weft_cta_trace other;
	uint32_t next;
	uint32_t sum_threads;
};

static int peek_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct peek *p = user;
	if (c->cta != p->next)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u, expected %u", c->cta, p->next);
	uint32_t before = c->threads[c->nthreads - 1].nblocks;
	int rc = weft_trace_read_cta(p->t, 0, (c->cta * 7919u) % 700u, &p->other, err);
	if (rc)
		return rc;
	if (c->threads[c->nthreads - 1].nblocks != before)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u changed under the callback", c->cta);
	p->next++;
	p->sum_threads += c->nthreads;
	return 0;
}

/* A callback that checks each CTA against its random-access decoding. */
struct same {
	struct weft_trace *t;
	struct weft_cta_trace ref;
	uint32_t next;
};

static int same_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct same *p = user;
	if (c->cta != p->next++)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u out of order", c->cta);
	int rc = weft_trace_read_cta(p->t, 0, c->cta, &p->ref, err);
	if (rc)
		return rc;
	if (p->ref.nthreads != c->nthreads)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u: thread counts differ", c->cta);
	for (uint32_t k = 0; k < c->nthreads; k++) {
		const struct weft_thread_trace *a = &c->threads[k], *b = &p->ref.threads[k];
		if (a->nblocks != b->nblocks || a->naddrs != b->naddrs || a->nguards != b->nguards ||
		    memcmp(a->blocks, b->blocks, a->nblocks * sizeof(uint32_t)) ||
		    memcmp(a->spaces, b->spaces, a->naddrs) || memcmp(a->guards, b->guards, a->nguards))
			return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u thread %u differs", c->cta, k);
		for (uint32_t i = 0; i < a->naddrs; i++)
			if (weft_thread_addr(a, i) != weft_thread_addr(b, i))
				return weft_error_set(err, WEFT_ERR_INTERNAL, "CTA %u thread %u address %u differs",
						      c->cta, k, i);
	}
	return 0;
}

/* The decode-ahead plan: two slots per decoder (the caller's thread, which
 * decodes when its next piece is not ready, counted) within the byte
 * budget, no more workers than can use them, and the caller's thread alone
 * when two pieces do not fit or there is nothing to overlap. */
static void test_ahead_plan(void **state)
{
	(void)state;
	const uint64_t M = 1 << 20;
	struct {
		unsigned workers;
		uint32_t nwork;
		uint64_t item, budget;
		unsigned want_workers;
		uint32_t want_slots;
	} c[] = {
		{ 1, 10, M, 16 * M, 1, 4 },     /* two cores: two decoders, 2 slots each */
		{ 1, 10, 5 * M, 16 * M, 1, 3 }, /* three fit */
		{ 7, 100, M, 16 * M, 7, 16 },   /* 2 slots per decoder fit */
		{ 31, 100, M, 16 * M, 15, 16 }, /* 16 slots fit: 15 workers can use them */
		{ 3, 100, 9 * M, 16 * M, 0, 0 }, /* not two pieces: inline */
		{ 3, 100, 8 * M, 16 * M, 1, 2 }, /* exactly two */
		{ 3, 1, M, 16 * M, 0, 0 },      /* one piece: nothing to overlap */
		{ 8, 3, 0, 16 * M, 3, 8 },      /* no estimate: by threads, at most one per piece */
		{ 0, 100, M, 16 * M, 0, 0 },    /* -j 1 */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned w;
		uint32_t s;
		weft_trace_fe_plan(c[i].workers, c[i].nwork, c[i].item, c[i].budget, &w, &s);
		assert_int_equal(w, c[i].want_workers);
		assert_int_equal(s, c[i].want_slots);
	}
}

static void test_fe_plan_compact(void **state)
{
	(void)state;
	const uint64_t M = 1 << 20;
	struct {
		unsigned workers;
		uint32_t nwork;
		uint64_t cta, item, budget;
		unsigned want_workers;
		uint32_t want_slots;
		int want_helps;
	} c[] = {
		{ 1, 10, M, M, 16 * M, 1, 4, 1 },          /* two decoders, the caller's, 2 slots each */
		{ 1, 10, 10 * M, 3 * M, 16 * M, 1, 2, 0 }, /* two decoded CTAs do not fit: one thread ahead */
		{ 3, 100, 5 * M, M, 16 * M, 2, 4, 0 },     /* 3 decoders leave one slot: 2 threads, 4 slots */
		{ 7, 100, 0, 0, 16 * M, 7, 16, 1 },        /* no estimates: by threads */
		{ 7, 100, M, M, 16 * M, 7, 8, 1 },         /* 8 decoders (8 MiB) and the 8 slots left */
		{ 1, 10, UINT64_MAX, UINT64_MAX, 16 * M, 1, 2, 0 }, /* hostile sizes saturate */
		{ 3, 1, M, M, 16 * M, 0, 0, 0 },           /* one piece: nothing to overlap */
		{ 0, 100, M, M, 16 * M, 0, 0, 0 },         /* -j 1 */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned w;
		uint32_t s;
		int h;
		weft_trace_fe_plan_compact(c[i].workers, c[i].nwork, c[i].cta, c[i].item, c[i].budget, &w, &s, &h);
		assert_int_equal(w, c[i].want_workers);
		assert_int_equal(s, c[i].want_slots);
		assert_int_equal(h, c[i].want_helps);
	}
}

static void test_parallel_order(void **state)
{
	(void)state;
	char path[] = "/tmp/weft-order-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 1, &w, &err), 0);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_module *mod;
	assert_int_equal(weft_module_load_text(ctx, trace_edge_ptx, strlen(trace_edge_ptx), "edge.ptx", &mod, &err), 0);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 700 * 256 * 64, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "edge", weft_dim3(700, 1, 1), weft_dim3(256, 1, 1), 0, args, 1, &err), 0);
	assert_int_equal(weft_trace_writer_commit(w, &err), 0);
	weft_ctx_destroy(ctx);
	struct weft_trace *t;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	assert_true(weft_trace_launch(t, 0)->nchunks > 1);
	unsigned threads[] = { 1, 2, 3, 8 };
	for (int i = 0; i < 4; i++) {
		struct order ord = { 0, 1, 0, NULL };
		assert_int_equal(weft_trace_for_each_cta(t, 0, NULL, threads[i], order_cb, &ord, &err), 0);
		assert_int_equal(ord.n, 700);
		uint32_t want[700];
		struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 50, .seed = 7 };
		uint32_t nw = weft_cta_sample_select(&s, 700, want);
		struct order o2 = { 0, 1, 0, want };
		assert_int_equal(weft_trace_for_each_cta(t, 0, &s, threads[i], order_cb, &o2, &err), 0);
		assert_int_equal(o2.n, nw);
		struct weft_cta_sample e = { .kind = WEFT_SAMPLE_EVERY, .every = 9 };
		struct order o3 = { 0, 1, 0, NULL };
		assert_int_equal(weft_trace_for_each_cta(t, 0, &e, threads[i], order_cb, &o3, &err), 0);
		assert_int_equal(o3.n, (700 + 8) / 9);
	}
	/* random access from inside the callback does not disturb the walk */
	for (int i = 0; i < 2; i++) {
		struct peek pk = { t, { 0 }, 0, 0 };
		weft_cta_trace_init(&pk.other);
		assert_int_equal(weft_trace_for_each_cta(t, 0, NULL, threads[i], peek_cb, &pk, &err), 0);
		assert_int_equal(pk.next, 700);
		weft_cta_trace_free(&pk.other);
	}
	/* chunks cut in pieces of one CTA, and a decode-ahead budget too small
	 * for two: the same CTAs, in order, decoded the same */
	uint64_t pieces[] = { 1, 0, 1 }, aheads[] = { 0, 1, 1 };
	for (int k = 0; k < 3; k++) {
		t->fe_piece_bytes = pieces[k];
		t->fe_ahead_bytes = aheads[k];
		for (int i = 0; i < 4; i++) {
			struct same sm = { t, { 0 }, 0 };
			weft_cta_trace_init(&sm.ref);
			assert_int_equal(weft_trace_for_each_cta(t, 0, NULL, threads[i], same_cb, &sm, &err), 0);
			assert_int_equal(sm.next, 700);
			weft_cta_trace_free(&sm.ref);
		}
	}
	t->fe_piece_bytes = t->fe_ahead_bytes = 0;
	/* the callback's error stops the walk and comes back */
	uint32_t bad[1] = { 5 };
	struct order ob = { 0, 1, 0, bad };
	assert_int_equal(weft_trace_for_each_cta(t, 0, NULL, 2, order_cb, &ob, &err), WEFT_ERR_INTERNAL);
	assert_non_null(strstr(err.message, "out of order"));
	/* out of range requests */
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	assert_int_equal(weft_trace_read_cta(t, 0, 700, &c, &err), WEFT_ERR_INPUT);
	assert_int_equal(weft_trace_read_cta(t, 1, 0, &c, &err), WEFT_ERR_INPUT);
	assert_int_equal(weft_trace_read_cta(t, 0, 699, &c, &err), 0);
	assert_int_equal(c.cta, 699);
	weft_cta_trace_free(&c);
	weft_trace_close(t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_early_exit),
		cmocka_unit_test(test_addr_forms),
		cmocka_unit_test(test_big_cta),
		cmocka_unit_test(test_3d),
		cmocka_unit_test(test_many_launches),
		cmocka_unit_test(test_many_chunks),
		cmocka_unit_test(test_two_modules),
		cmocka_unit_test(test_crc),
		cmocka_unit_test(test_sampling),
		cmocka_unit_test(test_parallel_order),
		cmocka_unit_test(test_ahead_plan),
		cmocka_unit_test(test_fe_plan_compact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
