/*
 * test_emu_par.c - parallel emulation (trace/emu/emu_par.c) and the worker
 * threads under it (common/pool.c): -j values, every worker runs once,
 * a launch runs on several threads only when its kernel allows it (global
 * atomics, fences and clock reads keep it on one), the memory it leaves,
 * its counts and the error of its first failing CTA are the same on 1
 * and 4 threads (also when small CTAs are claimed and committed in
 * batches, and the trace written of them), and the instruction budget
 * still stops a runaway CTA.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/pool.h"
#include "emu_testutil.h"
#include "trace/format/trace.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* The whole file at path (malloc'd), or NULL. */
static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *b = NULL;
	size_t cap = 0;
	*n = 0;
	for (;;) {
		if (*n == cap) {
			uint8_t *nb = realloc(b, cap ? 2 * cap : 65536);
			if (!nb) {
				free(b);
				fclose(f);
				return NULL;
			}
			b = nb;
			cap = cap ? 2 * cap : 65536;
		}
		size_t got = fread(b + *n, 1, cap - *n, f);
		*n += got;
		if (!got)
			break;
	}
	fclose(f);
	return b;
}

static void test_parse_jobs(void **state)
{
	(void)state;
	unsigned j = 99;
	assert_int_equal(weft_pool_parse_jobs("0", &j), 0);
	assert_int_equal(j, 0);
	assert_int_equal(weft_pool_parse_jobs("16", &j), 0);
	assert_int_equal(j, 16);
	assert_int_equal(weft_pool_parse_jobs("256", &j), 0);
	assert_int_equal(weft_pool_parse_jobs("257", &j), -1);
	assert_int_equal(weft_pool_parse_jobs("", &j), -1);
	assert_int_equal(weft_pool_parse_jobs("-1", &j), -1);
	assert_int_equal(weft_pool_parse_jobs("2x", &j), -1);
	assert_int_equal(weft_pool_parse_jobs("99999999999999999999", &j), -1);
	assert_true(weft_pool_jobs(0) >= 1);
	assert_int_equal(weft_pool_jobs(3), 3);
	assert_int_equal(weft_pool_jobs(100000), WEFT_POOL_MAX_JOBS);
}

static void count_worker(void *arg, unsigned w)
{
	unsigned *seen = arg;
	__atomic_fetch_add(&seen[w], 1, __ATOMIC_RELAXED);
}

static void test_pool_runs_each_worker_once(void **state)
{
	(void)state;
	unsigned seen[8] = { 0 };
	assert_int_equal(weft_pool_run(8, count_worker, seen), 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(seen[i], 1);
	memset(seen, 0, sizeof(seen));
	assert_int_equal(weft_pool_run(0, count_worker, seen), 1);
	assert_int_equal(seen[0], 1);
}

/* out[gtid] = gtid * 3 + ctaid; CTA 5 thread 7 traps when trap is set. */
static const char *plain_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 ptrap)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\nld.param.u32 %r9, [ptrap];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
	"mad.lo.s32 %r4, %r2, %r3, %r1;\n"
	"setp.eq.s32 %p1, %r2, 5;\nsetp.eq.s32 %p2, %r1, 7;\nand.pred %p1, %p1, %p2;\n"
	"setp.ne.s32 %p3, %r9, 0;\nand.pred %p1, %p1, %p3;\n"
	"@%p1 trap;\n"
	"mad.lo.s32 %r5, %r4, 3, %r2;\n"
	"mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\nret;\n}\n";

/* every thread adds 1 to out[0] (a global atomic) */
static const char *atomic_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 ptrap)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"atom.global.add.u32 %r1, [%rd1], 1;\nret;\n}\n";

/* a loop that never ends in CTA 2 */
static const char *runaway_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 ptrap)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, %ctaid.x;\nsetp.ne.s32 %p1, %r1, 2;\n"
	"@%p1 bra DONE;\nLOOP:\nadd.s32 %r2, %r2, 1;\nbra LOOP;\nDONE:\nret;\n}\n";

/* out[gtid] = gtid + ctaid; thread 3 of CTA trap - 1 traps (trap > 0) */
static const char *late_trap_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 ptrap)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\nld.param.u32 %r9, [ptrap];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
	"mad.lo.s32 %r4, %r2, %r3, %r1;\n"
	"add.s32 %r6, %r2, 1;\nsetp.eq.s32 %p1, %r6, %r9;\nsetp.eq.s32 %p2, %r1, 3;\n"
	"and.pred %p1, %p1, %p2;\n@%p1 trap;\n"
	"add.s32 %r5, %r4, %r2;\n"
	"mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\nret;\n}\n";

#define NCTA 16u
#define NTHR 64u

/* obs: an observer for the run (a trace writer's), or NULL */
static int run_obs(const char *ptx, unsigned jobs, uint32_t ncta, uint32_t ntid, uint32_t trap,
		   uint64_t budget, uint32_t *out, struct weft_ctx_stats *st, char *msg, size_t msglen,
		   const struct weft_emu_observer *obs)
{
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.jobs = jobs;
	o.max_launch_insts = budget;
	o.observer = obs;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(ptx, &mod, &o);
	if (!ctx)
		return -1;
	uint64_t d;
	int rc = weft_malloc(ctx, (uint64_t)ncta * ntid * 4, &d, &op_err);
	if (!rc) {
		struct weft_arg args[] = { WEFT_ARG(d), WEFT_ARG(trap) };
		rc = weft_launch(ctx, mod, "k", weft_dim3(ncta, 1, 1), weft_dim3(ntid, 1, 1), 0, args, 2,
				 &op_err);
	}
	if (msg)
		snprintf(msg, msglen, "%s", rc ? op_err.message : "");
	if (out && weft_memcpy_dtoh(ctx, out, d, (uint64_t)ncta * ntid * 4, &op_err))
		rc = -2;
	*st = *weft_ctx_stats(ctx);
	weft_ctx_destroy(ctx);
	return rc;
}

static int run_grid(const char *ptx, unsigned jobs, uint32_t ncta, uint32_t ntid, uint32_t trap,
		    uint64_t budget, uint32_t *out, struct weft_ctx_stats *st, char *msg, size_t msglen)
{
	return run_obs(ptx, jobs, ncta, ntid, trap, budget, out, st, msg, msglen, NULL);
}

static int run(const char *ptx, unsigned jobs, uint32_t trap, uint64_t budget, uint32_t *out,
	       struct weft_ctx_stats *st, char *msg, size_t msglen)
{
	return run_grid(ptx, jobs, NCTA, NTHR, trap, budget, out, st, msg, msglen);
}

static void test_same_memory_and_counts(void **state)
{
	(void)state;
	static uint32_t a[NCTA * NTHR], b[NCTA * NTHR];
	struct weft_ctx_stats s1, s4;
	assert_int_equal(run(plain_ptx, 1, 0, 0, a, &s1, NULL, 0), 0);
	assert_int_equal(run(plain_ptx, 4, 0, 0, b, &s4, NULL, 0), 0);
	assert_memory_equal(a, b, sizeof(a));
	for (uint32_t i = 0; i < NCTA * NTHR; i++)
		assert_int_equal(a[i], i * 3 + i / NTHR);
	assert_int_equal(s1.parallel_launches, 0);
	assert_int_equal(s4.parallel_launches, 1);
	assert_int_equal(s1.thread_insts, s4.thread_insts);
	assert_int_equal(s1.warp_insts, s4.warp_insts);
	assert_int_equal(s1.ctas, NCTA);
	assert_int_equal(s4.ctas, NCTA);
}

static void test_first_error_in_cta_order(void **state)
{
	(void)state;
	char m1[1024], m4[1024];
	struct weft_ctx_stats s1, s4;
	assert_int_equal(run(plain_ptx, 1, 1, 0, NULL, &s1, m1, sizeof(m1)), WEFT_ERR_RUNTIME);
	assert_int_equal(run(plain_ptx, 4, 1, 0, NULL, &s4, m4, sizeof(m4)), WEFT_ERR_RUNTIME);
	assert_string_equal(m1, m4);
	assert_non_null(strstr(m1, "CTA (5,0,0)"));
	/* the CTAs before the failing one count, none after it */
	assert_int_equal(s4.ctas, 5);
	assert_int_equal(s1.ctas, 5);
}

/* Many small CTAs: workers claim them in batches (emu_par.c batch_size)
 * and commit a batch in one turn; memory, counts and the first error in
 * CTA order (a CTA in the middle of a batch) stay those of one thread. */
#define MANY 3000u
static void test_batches_keep_order(void **state)
{
	(void)state;
	static uint32_t a[MANY * 32], b[MANY * 32];
	struct weft_ctx_stats s1, s2;
	assert_int_equal(run_grid(late_trap_ptx, 1, MANY, 32, 0, 0, a, &s1, NULL, 0), 0);
	assert_int_equal(run_grid(late_trap_ptx, 2, MANY, 32, 0, 0, b, &s2, NULL, 0), 0);
	assert_memory_equal(a, b, sizeof(a));
	for (uint32_t i = 0; i < MANY * 32; i++)
		assert_int_equal(a[i], i + i / 32);
	assert_int_equal(s2.parallel_launches, 1);
	assert_int_equal(s1.thread_insts, s2.thread_insts);
	assert_int_equal(s1.warp_insts, s2.warp_insts);
	assert_int_equal(s2.ctas, MANY);
	char m1[1024], m2[1024];
	for (uint32_t at = 2345; at <= 2346; at++) {
		assert_int_equal(run_grid(late_trap_ptx, 1, MANY, 32, at, 0, NULL, &s1, m1, sizeof(m1)),
				 WEFT_ERR_RUNTIME);
		assert_int_equal(run_grid(late_trap_ptx, 2, MANY, 32, at, 0, NULL, &s2, m2, sizeof(m2)),
				 WEFT_ERR_RUNTIME);
		assert_string_equal(m1, m2);
		assert_int_equal(s1.ctas, at - 1);
		assert_int_equal(s2.ctas, at - 1);
	}
}

/* The trace of many small CTAs written by batches: the writer keeps each
 * CTA a worker encoded until its commit (trace_write.c struct wt_done),
 * so the file is the one thread's, byte for byte; and when a CTA in the
 * middle of a batch traps, the CTAs encoded after it (and the other
 * worker's, claimed later) are dropped: the same error, and the writer
 * frees them (the SAN=1 build's leak check). */
static int write_grid(unsigned jobs, uint32_t trap, const char *path, char *msg, size_t msglen)
{
	struct weft_error err;
	struct weft_trace_writer *w;
	if (weft_trace_writer_open(path, 1, &w, &err))
		return -1;
	struct weft_ctx_stats st;
	int rc = run_obs(late_trap_ptx, jobs, MANY, 32, trap, 0, NULL, &st, msg, msglen,
			 weft_trace_writer_observer(w));
	if (rc) {
		weft_trace_writer_abort(w);
		return rc;
	}
	if (st.ctas != MANY)
		rc = -3;
	if (weft_trace_writer_commit(w, &err))
		return -4;
	return rc;
}

static void test_batches_write_the_same_trace(void **state)
{
	(void)state;
	char p1[] = "/tmp/weft-par1-XXXXXX", p2[] = "/tmp/weft-par2-XXXXXX";
	int f1 = mkstemp(p1), f2 = mkstemp(p2);
	assert_true(f1 >= 0 && f2 >= 0);
	close(f1);
	close(f2);
	assert_int_equal(write_grid(1, 0, p1, NULL, 0), 0);
	assert_int_equal(write_grid(2, 0, p2, NULL, 0), 0);
	size_t n1, n2;
	uint8_t *b1 = read_all(p1, &n1), *b2 = read_all(p2, &n2);
	assert_non_null(b1);
	assert_non_null(b2);
	assert_int_equal(n1, n2);
	assert_memory_equal(b1, b2, n1);
	free(b1);
	free(b2);
	char m1[1024], m2[1024];
	for (uint32_t at = 2345; at <= 2346; at++) {
		assert_int_equal(write_grid(1, at, p1, m1, sizeof(m1)), WEFT_ERR_RUNTIME);
		assert_int_equal(write_grid(2, at, p2, m2, sizeof(m2)), WEFT_ERR_RUNTIME);
		assert_string_equal(m1, m2);
	}
	unlink(p1);
	unlink(p2);
}

static void test_atomics_stay_on_one_thread(void **state)
{
	(void)state;
	static uint32_t a[NCTA * NTHR];
	struct weft_ctx_stats s;
	assert_int_equal(run(atomic_ptx, 4, 0, 0, a, &s, NULL, 0), 0);
	assert_int_equal(s.parallel_launches, 0);
	assert_int_equal(a[0], NCTA * NTHR);
}

static void test_runaway_cta_stops(void **state)
{
	(void)state;
	char m1[1024], m4[1024];
	struct weft_ctx_stats s1, s4;
	assert_int_equal(run(runaway_ptx, 1, 0, 100000, NULL, &s1, m1, sizeof(m1)), WEFT_ERR_LIMIT);
	assert_int_equal(run(runaway_ptx, 4, 0, 100000, NULL, &s4, m4, sizeof(m4)), WEFT_ERR_LIMIT);
	assert_non_null(strstr(m1, "instruction budget"));
	assert_non_null(strstr(m4, "instruction budget"));
	assert_non_null(strstr(m4, "in CTA 2 of 16"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_jobs),
		cmocka_unit_test(test_pool_runs_each_worker_once),
		cmocka_unit_test(test_same_memory_and_counts),
		cmocka_unit_test(test_batches_keep_order),
		cmocka_unit_test(test_batches_write_the_same_trace),
		cmocka_unit_test(test_first_error_in_cta_order),
		cmocka_unit_test(test_atomics_stay_on_one_thread),
		cmocka_unit_test(test_runaway_cta_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
