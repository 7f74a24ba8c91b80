/*
 * test_trace_prep.c - weft_trace_for_each_cta_prep (trace.h): a per-CTA
 * preparation on the decoder threads, then use in CTA order.
 *
 * bfs at default size (launches of 2 to 4 chunks, so that with 2 or 3
 * threads chunks are decoded and prepared ahead of use) is read with 1, 2
 * and 3 threads: use must see every chosen CTA once, in increasing order,
 * with the result prepared from that very CTA, the same as
 * weft_trace_for_each_cta hands out; the buffers prep allocates must all
 * be released by the end of each call. A preparation that fails on one
 * CTA of a later chunk must make every thread count return the same
 * error after using exactly the CTAs before it.
 *
 * Work-helping: with 2 threads the calling thread decodes and prepares a
 * piece itself when the one it is to use next is not ready. A decoder
 * thread whose preparation waits until the calling thread has prepared a
 * CTA would otherwise never finish (it gives up after 5 s and the test
 * fails); the result must still be every CTA in order, and a failure on
 * the CTA the calling thread prepares must come back after exactly the
 * CTAs before it.
 *
 * A compact preparation (struct weft_cta_prep compact): use is passed
 * only the CTA's header (threads NULL) with every thread count, and the
 * results are the same as with the plain walk; with a decode-ahead budget
 * too small for two decoded CTAs, one decoder thread works ahead and the
 * calling thread prepares nothing.
 *
 * Kept results (struct weft_cta_prep keep): a walk of every launch again
 * allocates nothing, and the results are released only when another
 * keeping preparation comes or the trace closes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "estimate/estimate.h"
#include "trace/format/trace.h"
#include "trace/format/trace_read.h"
#include "trace/launch/workload_run.h"

static char path[64];
static atomic_long allocs, frees;

/* What the test prepares: the CTA's id and a digest of its threads, in a
 * buffer of its own (so that a missing release shows). */
struct prepared {
	uint32_t cta, nthreads;
	uint64_t *digest;
};

static uint64_t digest(const struct weft_cta_trace *c)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		const struct weft_thread_trace *th = &c->threads[t];
		for (uint32_t i = 0; i < th->nblocks; i++)
			h = (h ^ th->blocks[i]) * 1099511628211ull;
		for (uint32_t i = 0; i < th->naddrs; i++)
			h = (h ^ weft_thread_addr(th, i)) * 1099511628211ull;
	}
	return h;
}

struct run {
	uint32_t fail_cta;  /* prep fails on this CTA (UINT32_MAX: never) */
	uint32_t used, last;
	uint64_t sum;       /* of the digests use saw */
	int bad;
};

static int prep_fn(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	const struct run *r = user;
	struct prepared *p = out;
	if (c->cta == r->fail_cta)
		return weft_error_set(err, WEFT_ERR_INPUT, "test: preparing CTA %u fails", c->cta);
	if (!p->digest) {
		p->digest = malloc(sizeof(*p->digest));
		if (!p->digest)
			return weft_error_set(err, WEFT_ERR_NOMEM, "test: out of memory");
		atomic_fetch_add(&allocs, 1);
	}
	p->cta = c->cta;
	p->nthreads = c->nthreads;
	*p->digest = digest(c);
	return 0;
}

static void release_fn(void *out)
{
	struct prepared *p = out;
	if (p->digest)
		atomic_fetch_add(&frees, 1);
	free(p->digest);
	p->digest = NULL;
}

static int use_fn(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	struct run *r = user;
	const struct prepared *p = prepared;
	if (p->cta != c->cta || *p->digest != digest(c) || (r->used && c->cta <= r->last))
		r->bad = 1;
	r->used++;
	r->last = c->cta;
	r->sum += *p->digest;
	return 0;
}

static int plain_fn(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct run *r = user;
	r->used++;
	r->sum += digest(c);
	return 0;
}

static const struct weft_cta_prep prep = { sizeof(struct prepared), prep_fn, release_fn, NULL, 0 };

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/weft-test-prep-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	struct weft_error err;
	if (weft_est_trace_workload(weft_workload_find("bfs"), WEFT_SIZE_DEFAULT, path, &err)) {
		fprintf(stderr, "bfs: %s\n", err.message);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void test_same_as_plain(void **state)
{
	(void)state;
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	const struct weft_cta_sample every3 = { .kind = WEFT_SAMPLE_EVERY, .every = 3 };
	const struct weft_cta_sample *samples[] = { NULL, &every3 };
	uint32_t multi = 0;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
		multi += weft_trace_launch(t, l)->nchunks > 1;
		for (int k = 0; k < 2; k++) {
			struct run plain = { UINT32_MAX, 0, 0, 0, 0 };
			assert_int_equal(weft_trace_for_each_cta(t, l, samples[k], 1, plain_fn, &plain, &err), 0);
			for (unsigned n = 1; n <= 3; n++) {
				struct run r = { UINT32_MAX, 0, 0, 0, 0 };
				atomic_store(&allocs, 0);
				atomic_store(&frees, 0);
				assert_int_equal(
					weft_trace_for_each_cta_prep(t, l, samples[k], n, &prep, use_fn, &r, &err), 0);
				assert_false(r.bad);
				assert_int_equal(r.used, plain.used);
				assert_true(r.sum == plain.sum);
				assert_true(atomic_load(&allocs) > 0);
				assert_int_equal(atomic_load(&allocs), atomic_load(&frees));
			}
		}
	}
	assert_true(multi > 0); /* some launch was prepared ahead */
	weft_trace_close(t);
}

/* The first launch of t whose CTAs span two chunks or more (the test
 * fails when there is none). */
static uint32_t multichunk_launch(struct weft_trace *t)
{
	uint32_t l = 0;
	while (l < weft_trace_info(t)->nlaunches && weft_trace_launch(t, l)->nchunks < 2)
		l++;
	assert_true(l < weft_trace_info(t)->nlaunches);
	return l;
}

static void test_failure_after_earlier_ctas(void **state)
{
	(void)state;
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	uint32_t l = multichunk_launch(t);
	/* a CTA past the first chunk, not the last CTA */
	uint32_t fail = weft_trace_launch(t, l)->nctas - 2;
	for (unsigned n = 1; n <= 3; n++) {
		struct run r = { fail, 0, 0, 0, 0 };
		atomic_store(&allocs, 0);
		atomic_store(&frees, 0);
		memset(&err, 0, sizeof(err));
		int rc = weft_trace_for_each_cta_prep(t, l, NULL, n, &prep, use_fn, &r, &err);
		assert_int_equal(rc, WEFT_ERR_INPUT);
		char want[64];
		snprintf(want, sizeof(want), "test: preparing CTA %u fails", fail);
		assert_string_equal(err.message, want);
		assert_false(r.bad);
		assert_int_equal(r.used, fail); /* CTAs 0 .. fail-1, all of them */
		assert_int_equal(atomic_load(&allocs), atomic_load(&frees));
	}
	struct run r = { UINT32_MAX, 0, 0, 0, 0 };
	assert_int_equal(weft_trace_for_each_cta_prep(t, l, NULL, 2, NULL, use_fn, &r, &err),
			 WEFT_ERR_INTERNAL);
	weft_trace_close(t);
}

/* test_caller_helps: the thread that calls for_each, and whether a
 * decoder thread's preparation gave up waiting for it */
static pthread_t caller;
static atomic_int caller_prepared, gave_up;

static int wait_prep_fn(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	if (pthread_equal(pthread_self(), caller)) {
		atomic_fetch_add(&caller_prepared, 1);
	} else {
		/* a decoder thread: hold its piece until the caller prepared one */
		for (int k = 0; k < 5000 && !atomic_load(&caller_prepared); k++)
			usleep(1000);
		if (!atomic_load(&caller_prepared))
			atomic_store(&gave_up, 1);
	}
	return prep_fn(user, c, out, err);
}

static const struct weft_cta_prep wait_prep = { sizeof(struct prepared), wait_prep_fn, release_fn, NULL, 0 };

static void test_caller_helps(void **state)
{
	(void)state;
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	uint32_t l = 0;
	while (l < weft_trace_info(t)->nlaunches && weft_trace_launch(t, l)->nctas < 4)
		l++;
	assert_true(l < weft_trace_info(t)->nlaunches);
	t->fe_piece_bytes = 1; /* pieces of one CTA: piece j is CTA j */
	struct run plain = { UINT32_MAX, 0, 0, 0, 0 };
	assert_int_equal(weft_trace_for_each_cta(t, l, NULL, 1, plain_fn, &plain, &err), 0);
	caller = pthread_self();
	/* every CTA; then a failure on CTA 1, which the caller prepares when
	 * the decoder thread took CTA 0 first */
	uint32_t fails[] = { UINT32_MAX, 1 };
	for (int k = 0; k < 2; k++) {
		struct run r = { fails[k], 0, 0, 0, 0 };
		atomic_store(&caller_prepared, 0);
		atomic_store(&gave_up, 0);
		atomic_store(&allocs, 0);
		atomic_store(&frees, 0);
		memset(&err, 0, sizeof(err));
		int rc = weft_trace_for_each_cta_prep(t, l, NULL, 2, &wait_prep, use_fn, &r, &err);
		assert_false(atomic_load(&gave_up));
		assert_true(atomic_load(&caller_prepared) > 0);
		assert_false(r.bad);
		assert_int_equal(atomic_load(&allocs), atomic_load(&frees));
		if (k == 0) {
			assert_int_equal(rc, 0);
			assert_int_equal(r.used, plain.used);
			assert_true(r.sum == plain.sum);
		} else {
			assert_int_equal(rc, WEFT_ERR_INPUT);
			assert_string_equal(err.message, "test: preparing CTA 1 fails");
			assert_int_equal(r.used, 1);
		}
	}
	t->fe_piece_bytes = 0;
	weft_trace_close(t);
}

/* compact: use must get the header only */
static atomic_int prepared_by_caller;

static int compact_prep_fn(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	if (pthread_equal(pthread_self(), caller))
		atomic_fetch_add(&prepared_by_caller, 1);
	return prep_fn(user, c, out, err);
}

static uint64_t compact_fn(const void *user, const struct weft_trace_launch *L)
{
	(void)user;
	(void)L;
	return sizeof(struct prepared) + sizeof(uint64_t);
}

static int compact_use_fn(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	struct run *r = user;
	const struct prepared *p = prepared;
	if (c->threads || c->priv || p->cta != c->cta || p->nthreads != c->nthreads ||
	    (r->used && c->cta <= r->last))
		r->bad = 1;
	r->used++;
	r->last = c->cta;
	r->sum += *p->digest;
	return 0;
}

static const struct weft_cta_prep compact_prep = { sizeof(struct prepared), compact_prep_fn, release_fn,
						   compact_fn, 0 };

static void test_compact(void **state)
{
	(void)state;
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	caller = pthread_self();
	const struct weft_cta_sample every3 = { .kind = WEFT_SAMPLE_EVERY, .every = 3 };
	const struct weft_cta_sample *samples[] = { NULL, &every3 };
	/* the default budget, then one too small for two decoded CTAs */
	uint64_t aheads[] = { 0, 1 };
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
		for (int k = 0; k < 2; k++) {
			struct run plain = { UINT32_MAX, 0, 0, 0, 0 };
			assert_int_equal(weft_trace_for_each_cta(t, l, samples[k], 1, plain_fn, &plain, &err), 0);
			for (int a = 0; a < 2; a++) {
				t->fe_ahead_bytes = aheads[a];
				t->fe_piece_bytes = a; /* and pieces of one CTA */
				for (unsigned n = 1; n <= 3; n++) {
					struct run r = { UINT32_MAX, 0, 0, 0, 0 };
					atomic_store(&allocs, 0);
					atomic_store(&frees, 0);
					atomic_store(&prepared_by_caller, 0);
					assert_int_equal(weft_trace_for_each_cta_prep(t, l, samples[k], n, &compact_prep,
										      compact_use_fn, &r, &err),
							 0);
					assert_false(r.bad);
					assert_int_equal(r.used, plain.used);
					assert_true(r.sum == plain.sum);
					assert_int_equal(atomic_load(&allocs), atomic_load(&frees));
					if (a == 1 && n == 2 && plain.used > 1)
						assert_int_equal(atomic_load(&prepared_by_caller), 0);
				}
			}
			t->fe_ahead_bytes = t->fe_piece_bytes = 0;
		}
	}
	/* a failure comes back after exactly the CTAs before it */
	uint32_t l = multichunk_launch(t);
	uint32_t fail = weft_trace_launch(t, l)->nctas - 2;
	for (unsigned n = 1; n <= 3; n++) {
		struct run r = { fail, 0, 0, 0, 0 };
		memset(&err, 0, sizeof(err));
		assert_int_equal(weft_trace_for_each_cta_prep(t, l, NULL, n, &compact_prep, compact_use_fn, &r, &err),
				 WEFT_ERR_INPUT);
		assert_false(r.bad);
		assert_int_equal(r.used, fail);
	}
	weft_trace_close(t);
}

/* Kept results (struct weft_cta_prep keep): every launch, walked again
 * with the same thread count, allocates nothing once the walk has kept
 * what the largest needed, and releases nothing until another keeping
 * preparation comes (its results released first) or the trace closes;
 * the results are those of the plain walk all along. */
static int prep_fn2(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	return prep_fn(user, c, out, err);
}

static const struct weft_cta_prep kept_prep = { sizeof(struct prepared), prep_fn, release_fn, NULL, 1 };
static const struct weft_cta_prep kept_prep2 = { sizeof(struct prepared), prep_fn2, release_fn, NULL, 1 };

/* Walks every launch of t with p and n threads, checking each against
 * the plain walk. */
static void walk_all(struct weft_trace *t, const struct weft_cta_prep *p, unsigned n)
{
	struct weft_error err;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
		struct run plain = { UINT32_MAX, 0, 0, 0, 0 };
		assert_int_equal(weft_trace_for_each_cta(t, l, NULL, 1, plain_fn, &plain, &err), 0);
		struct run r = { UINT32_MAX, 0, 0, 0, 0 };
		assert_int_equal(weft_trace_for_each_cta_prep(t, l, NULL, n, p, use_fn, &r, &err), 0);
		assert_false(r.bad);
		assert_int_equal(r.used, plain.used);
		assert_true(r.sum == plain.sum);
	}
}

static void test_kept(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 3; n++) {
		struct weft_trace *t;
		struct weft_error err;
		assert_int_equal(weft_trace_open(path, &t, &err), 0);
		atomic_store(&allocs, 0);
		atomic_store(&frees, 0);
		walk_all(t, &kept_prep, n);
		long first = atomic_load(&allocs);
		assert_true(first > 0);
		assert_int_equal(atomic_load(&frees), 0); /* kept, not released per launch */
		walk_all(t, &kept_prep, n);
		assert_int_equal(atomic_load(&allocs), first); /* reused: nothing allocated again */
		assert_int_equal(atomic_load(&frees), 0);
		/* a preparation that does not keep leaves them as they are */
		walk_all(t, &prep, n);
		assert_int_equal(atomic_load(&allocs) - atomic_load(&frees), first);
		/* another keeping preparation: the first one's released first */
		long before = atomic_load(&frees);
		walk_all(t, &kept_prep2, n);
		assert_true(atomic_load(&frees) >= before + first);
		weft_trace_close(t); /* and the second one's at the close */
		assert_int_equal(atomic_load(&allocs), atomic_load(&frees));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_plain),
		cmocka_unit_test(test_failure_after_earlier_ctas),
		cmocka_unit_test(test_caller_helps),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_kept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
