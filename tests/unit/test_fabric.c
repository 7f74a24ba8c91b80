/*
 * test_fabric.c - the dataflow-fabric timing model (models/dataflow/
 * fabric*.c): its equations on hand-computed numbers (Little's law with a
 * given miss latency and buffer size, epoch throttling at an LDST unit,
 * special units, cascades, a kernel's bounds), then the model on traces of
 * hand-written PTX kernels: replication raising throughput of a
 * compute-bound kernel, partitioning into sub-kernels with its
 * reconfiguration cost and run in batches of CTAs, epochs against the reservation buffer alone,
 * elevator cascades for distances beyond the token buffer (dMT), totals =
 * sums of launches, and the configs' area; a prepared CTA holds every
 * access the replay reads (narrow and wide forms).
 */
#include <math.h>

#include "area/area.h"
#include "models/dataflow/fabric.h"
#include "simt_testutil.h"

#define PTX_HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * fmax(1.0, fabs((double)(b))))

/* ---- equations ---- */

static void test_little(void **state)
{
	(void)state;
	/* critical path 10 nodes, 16-entry buffers, 400-cycle latency: 160
	 * threads in flight -> 0.4 threads per cycle */
	assert_true(NEAR(weft_fabric_throughput(1, 10, 16, 400), 0.4));
	assert_true(NEAR(weft_fabric_throughput(2, 10, 16, 400), 0.8));
	assert_true(NEAR(weft_fabric_throughput(1, 10, 32, 400), 0.8));
	/* latency hidden: the issue rate (one thread per cycle per replica) */
	assert_true(NEAR(weft_fabric_throughput(1, 10, 16, 100), 1.0));
	assert_true(NEAR(weft_fabric_throughput(3, 10, 16, 100), 3.0));

	struct fabric_kernel_in in = { .visits = 1600, .replicas = 1, .crit_nodes = 10, .latency = 400, .wait_latency = 400,
				       .token_buffer = 16 };
	struct fabric_kernel_out out;
	weft_fabric_kernel_time(&in, &out);
	assert_true(NEAR(out.bound[FAB_B_ISSUE], 1600));
	assert_true(NEAR(out.bound[FAB_B_LATENCY], 4000));
	assert_int_equal(out.limiter, FAB_B_LATENCY);
	assert_true(NEAR(out.fill, 400));
	assert_true(NEAR(out.cycles, 4400));
	/* four replicas of a short graph: issue bound, 4x the threads per cycle */
	struct fabric_kernel_in in4 = { .visits = 1600, .replicas = 4, .crit_nodes = 10, .latency = 20, .wait_latency = 20,
					.token_buffer = 16 };
	weft_fabric_kernel_time(&in4, &out);
	assert_int_equal(out.limiter, FAB_B_ISSUE);
	assert_true(NEAR(out.cycles, 400 + 20));
	/* nothing to run: no time */
	struct fabric_kernel_in none = { .visits = 0, .replicas = 1, .crit_nodes = 3, .latency = 9, .wait_latency = 9,
					 .token_buffer = 16 };
	weft_fabric_kernel_time(&none, &out);
	assert_true(out.cycles == 0);
}

/* feeds n accesses of latency lat (every `every`-th: miss_lat) to both
 * rules' units of token buffer tb */
static double ldst_run(uint32_t tb, int n, double lat, int every, double miss_lat,
		       enum fabric_epoch_rule rule)
{
	struct fabric_ldst_q q;
	double heap[64];
	memset(&q, 0, sizeof(q));
	for (int i = 0; i < n; i++)
		fabric_ldst_feed(&q, heap, tb, every && i % every == 0 ? miss_lat : lat);
	return weft_fabric_ldst_cycles(&q, rule);
}

static void test_epochs(void **state)
{
	(void)state;
	const enum fabric_epoch_rule C = FAB_EPOCH_COMPLETION, A = FAB_EPOCH_ADMISSION;
	/* 32 L1 hits of 10 cycles through a 16-entry unit. Completion: each
	 * epoch lasts until its last thread (entered at 15) leaves at 25 */
	assert_true(NEAR(ldst_run(16, 32, 10, 0, 0, C), 50));
	/* admission: 16 entries of 10 cycles never fill, one a cycle; the last
	 * (entered at 31) leaves at 41 */
	assert_true(NEAR(ldst_run(16, 32, 10, 0, 0, A), 41));
	/* one 400-cycle miss holds its whole epoch under completion; under
	 * admission it holds one entry, the other 15 turn over */
	assert_true(NEAR(ldst_run(16, 32, 10, 32, 400, C), 400 + 25));
	assert_true(NEAR(ldst_run(16, 32, 10, 32, 400, A), 400));
	/* an open (partial) epoch counts too */
	assert_true(NEAR(ldst_run(16, 20, 10, 0, 0, C), 25 + 13));
	/* bigger epochs throttle less per thread */
	assert_true(NEAR(ldst_run(16, 64, 10, 32, 400, C), 2 * (400 + 25)));
	assert_true(NEAR(ldst_run(32, 64, 10, 32, 400, C), 2 * 400));
	/* admission with every access a miss: T in flight, one T-batch per
	 * 400 cycles: 64 misses through 16 entries enter at 0..15, 400..415,
	 * 800.., 1200..1215 and the last leaves at 1615 */
	assert_true(NEAR(ldst_run(16, 64, 400, 0, 0, A), 1615));
	assert_true(NEAR(ldst_run(32, 64, 400, 0, 0, A), 400 + 31 + 400));
	/* one-cycle accesses never wait: n cycles */
	assert_true(NEAR(ldst_run(1, 50, 1, 0, 0, A), 50));
	/* a 1-entry unit serialises: every access waits for the previous */
	assert_true(NEAR(ldst_run(1, 4, 10, 0, 0, A), 40));
	/* never slower with more entries (admission), on a mixed stream */
	double prev = 1e30;
	for (uint32_t tb = 1; tb <= 64; tb *= 2) {
		double c = ldst_run(tb, 500, 3, 7, 300, A);
		assert_true(c <= prev);
		prev = c;
	}
	/* nothing fed: no time */
	assert_true(ldst_run(16, 0, 10, 0, 0, A) == 0);
}

/* A unit fed warmed and timed accesses (fabric_ldst_q): the toggles do
 * not change the queue, the position less the warmed stretches' gains is
 * the stream weft_fabric_ldst_parts gives, and a held-latency sequence
 * with toggles (a re-feed, a run_many follower) ends as direct feeding
 * does. One entry, every access held 10 cycles: access i enters at 10 i. */
static void test_timed_stretches(void **state)
{
	(void)state;
	const enum fabric_epoch_rule C = FAB_EPOCH_COMPLETION, A = FAB_EPOCH_ADMISSION;
	/* 2 warmed, 3 timed, 1 warmed, 2 timed */
	static const int timed[] = { 0, 0, 1, 1, 1, 0, 1, 1 };
	struct fabric_ldst_q q, plain;
	double heap[4], heap2[4];
	memset(&q, 0, sizeof(q));
	memset(&plain, 0, sizeof(plain));
	uint16_t seq[16];
	uint32_t n = 0;
	for (int i = 0; i < 8; i++) {
		if (timed[i] == q.warming) { /* a unit starts timed */
			fabric_ldst_toggle(&q);
			seq[n++] = FAB_SEQ_TOGGLE;
		}
		fabric_ldst_feed(&q, heap, 1, 10);
		fabric_ldst_feed(&plain, heap2, 1, 10);
		seq[n++] = 10;
	}
	assert_true(q.last == plain.last && q.end == plain.end && q.fed == plain.fed);
	assert_true(NEAR(weft_fabric_ldst_cycles(&q, A), 80)); /* the last enters at 70 */
	double st, dr;
	/* admission: warmed 0 -> 11 and 41 -> 51 of the 71 */
	weft_fabric_ldst_parts(&q, A, &st, &dr);
	assert_true(NEAR(st, 50));
	assert_true(NEAR(dr, 9));
	/* completion: epochs of one, 10 cycles each: 5 timed epochs */
	weft_fabric_ldst_parts(&q, C, &st, &dr);
	assert_true(NEAR(st, 50));
	/* the same sequence re-fed, for each rule, ends the same */
	for (int r = 0; r < 2; r++) {
		enum fabric_epoch_rule rule = r ? C : A;
		struct fabric_ldst_q re;
		weft_fabric_ldst_refeed(&re, heap2, seq, n, 1, rule, 1);
		assert_int_equal(re.fed, 8);
		double st2, dr2;
		weft_fabric_ldst_parts(&re, rule, &st2, &dr2);
		weft_fabric_ldst_parts(&q, rule, &st, &dr);
		assert_true(NEAR(st2, st));
		assert_true(NEAR(dr2, dr));
		assert_true(re.warming == q.warming);
	}
	/* fed in two batches split inside a stretch, the same again */
	struct fabric_ldst_q b;
	memset(&b, 0, sizeof(b));
	weft_fabric_ldst_feed_batch(&b, heap2, seq, 5, 1, A, 1);
	weft_fabric_ldst_feed_batch(&b, heap2, seq + 5, n - 5, 1, A, 1);
	weft_fabric_ldst_parts(&b, A, &st, &dr);
	assert_true(NEAR(st, 50));
	assert_true(NEAR(dr, 9));
}

static void test_special_units(void **state)
{
	(void)state;
	const enum fabric_epoch_rule C = FAB_EPOCH_COMPLETION, A = FAB_EPOCH_ADMISSION;
	/* 8 blocks of 8 cycles: 16 ops enter one per cycle (the second 8 wait
	 * for free blocks at 8, then 15 is the last entry), last done at 23 */
	assert_true(NEAR(weft_fabric_special_cycles(16, 8, 8, 16, C), 23));
	assert_true(NEAR(weft_fabric_special_cycles(16, 8, 8, 16, A), 16));
	/* 80-cycle blocks: 8 per 80 cycles */
	assert_true(NEAR(weft_fabric_special_cycles(16, 8, 80, 16, A), 160));
	assert_true(NEAR(weft_fabric_special_cycles(16, 8, 80, 16, C), 80 + 80));
	assert_true(weft_fabric_special_cycles(0, 8, 8, 16, C) == 0);
	/* a 1-entry buffer serialises the blocks: one op per latency, under
	 * either rule */
	assert_true(NEAR(weft_fabric_special_cycles(10, 8, 8, 1, C), 80));
	assert_true(NEAR(weft_fabric_special_cycles(10, 8, 8, 1, A), 80));
}

static void test_cascades(void **state)
{
	(void)state;
	assert_int_equal(weft_fabric_cascades(1, 16), 1);
	assert_int_equal(weft_fabric_cascades(16, 16), 1);
	assert_int_equal(weft_fabric_cascades(17, 16), 2);
	assert_int_equal(weft_fabric_cascades(-40, 16), 3);
	assert_int_equal(weft_fabric_cascades(40, 8), 5);
	assert_int_equal(weft_fabric_cascades(40, 1), 40);
	assert_int_equal(weft_fabric_cascades(0, 16), 0);
}

/* ---- traced kernels ---- */

/* a memory that answers in one cycle and no epochs: nothing but the
 * graph limits */
static const char *const comp_sets_perfect[] = {
	"mem.l1_latency=1", "mem.l2_latency=1", "mem.dram_latency=1", "fabric.epoch_rule=admission",
};

/* out[gid] = f(gid): a chain of 6 integer ops, one store */
static const char comp_ptx[] = PTX_HEAD
	".visible .entry comp(.param .u64 out)\n{\n"
	" .reg .b32 %r<16>; .reg .b64 %rd<6>;\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
	" mad.lo.u32 %r4, %r2, %r3, %r1;\n"
	" xor.b32 %r5, %r4, 1234;\n add.u32 %r6, %r5, %r4;\n shl.b32 %r7, %r6, 3;\n"
	" sub.u32 %r8, %r7, %r5;\n"
	" mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
	" st.global.u32 [%rd3], %r8;\n ret;\n}\n";

static void trace_kernel(const char *ptx, const char *name, uint32_t grid, uint32_t block,
			 const char *path, size_t out_bytes)
{
	struct st_kernel k;
	st_kernel_open(&k, ptx, path);
	uint64_t out = st_kernel_alloc(&k, out_bytes);
	struct weft_arg args[] = { WEFT_ARG(out) };
	st_kernel_launch(&k, name, grid, block, args, 1);
	st_kernel_close(&k);
}

static void test_replication(void **state)
{
	(void)state;
	const char *tp = st_path("comp.wtr");
	trace_kernel(comp_ptx, "comp", 16, 256, tp, 16 * 256 * 4);
	struct weft_model_result r1, rn;
	const char *sets1[] = { "mem.l1_latency=1", "mem.l2_latency=1", "mem.dram_latency=1",
				"fabric.epoch_rule=admission", "fabric.max_replicas=1" };
	st_run(tp, "configs/sgmf-core.ini", comp_sets_perfect, 4, &rn);
	st_run(tp, "configs/sgmf-core.ini", sets1, 5, &r1);
	double R = st_stat(&rn.launches[0], "main_replicas");
	assert_true(R >= 2);
	assert_true(st_stat(&r1.launches[0], "main_replicas") == 1);
	assert_string_equal(rn.launches[0].limiter, "issue");
	assert_string_equal(r1.launches[0].limiter, "issue");
	/* issue bound: threads / replicas */
	assert_true(NEAR(st_stat(&rn.launches[0], "bound_issue"), 4096 / R));
	assert_true(NEAR(st_stat(&r1.launches[0], "bound_issue"), 4096));
	/* the replicas shorten the run by about their count (fill, drain and
	 * the configuration load do not shrink) */
	double speedup = r1.cycles / rn.cycles;
	assert_true(speedup > 0.8 * R && speedup <= R);
	/* same thread instructions, same functional-unit firings */
	assert_int_equal(r1.thread_insts, rn.thread_insts);
	assert_true(NEAR(st_event(&rn, &rn.launches[0], "fabric_int_alu"), st_event(&r1, &r1.launches[0], "fabric_int_alu")));
	/* totals are the sums of launches */
	assert_true(NEAR(rn.cycles, rn.launches[0].cycles));
	weft_model_result_free(&r1);
	weft_model_result_free(&rn);
	unlink(tp);
}

/* 40 chained adds: two sub-kernels on 32 compute units */
static void chain_ptx(char *text, size_t len, int nadds)
{
	size_t n = (size_t)snprintf(text, len,
				    PTX_HEAD ".visible .entry chain(.param .u64 out)\n{\n"
					     " .reg .b32 %%r<64>; .reg .b64 %%rd<4>;\n"
					     " ld.param.u64 %%rd1, [out];\n"
					     " mov.u32 %%r50, %%tid.x;\n"
					     " mul.lo.u32 %%r1, %%r50, 2;\n");
	for (int i = 2; i <= nadds - 1; i++)
		n += (size_t)snprintf(text + n, len - n, " add.u32 %%r%d, %%r%d, %d;\n", i, i - 1, i);
	snprintf(text + n, len - n,
		 " add.u32 %%r%d, %%r%d, %%r1;\n"
		 " mul.wide.u32 %%rd2, %%r50, 4;\n add.s64 %%rd3, %%rd1, %%rd2;\n"
		 " st.global.u32 [%%rd3], %%r%d;\n ret;\n}\n",
		 nadds, nadds - 1, nadds);
}

static void test_partition(void **state)
{
	(void)state;
	static char t40[8192], t20[8192];
	chain_ptx(t40, sizeof(t40), 40);
	chain_ptx(t20, sizeof(t20), 20);
	const char *p40 = st_path("c40.wtr"), *p20 = st_path("c20.wtr");
	trace_kernel(t40, "chain", 4, 256, p40, 1024 * 4);
	trace_kernel(t20, "chain", 4, 256, p20, 1024 * 4);
	struct weft_model_result a, b;
	st_run(p40, "configs/sgmf-core.ini", NULL, 0, &a);
	st_run(p20, "configs/sgmf-core.ini", NULL, 0, &b);
	const struct weft_launch_result *A = &a.launches[0], *B = &b.launches[0];
	assert_true(st_stat(A, "kernels") == 2);
	assert_true(st_stat(A, "partitioned_segments") == 1);
	assert_true(st_stat(A, "config_loads") == 2);
	assert_true(st_stat(B, "kernels") == 1);
	assert_true(st_stat(B, "config_loads") == 1);
	/* each configuration load: l2_latency + config_bytes / bytes per cycle */
	double load = 310 + 8192.0 / 128;
	assert_true(st_stat(A, "bound_reconfig") >= 2 * load);
	assert_true(st_stat(B, "bound_reconfig") >= load);
	assert_true(st_stat(A, "bound_reconfig") - st_stat(B, "bound_reconfig") >= load);
	/* the spilled live values cost L1 accesses and reservation entries
	 * that the unpartitioned chain does not have */
	assert_true(st_event(&a, A, "fabric_l1_word") > st_event(&b, B, "fabric_l1_word"));
	assert_true(st_event(&a, A, "fabric_config_byte") == 2 * 8192);
	assert_true(a.cycles > b.cycles);
	weft_model_result_free(&a);
	weft_model_result_free(&b);
	unlink(p40);
	unlink(p20);
}

/* fabric.partition_batch: a partitioned kernel's sub-kernels run for a
 * batch of whole CTAs at a time; each batch reloads both configurations and
 * fills both sub-kernels again, and only a batch's spills are live, so with
 * an L1 that holds one batch's spills and not all threads' they stay on chip. */
static void test_partition_batches(void **state)
{
	(void)state;
	static char t40[8192];
	chain_ptx(t40, sizeof(t40), 40);
	const char *p = st_path("c40b.wtr");
	trace_kernel(t40, "chain", 4, 256, p, 1024 * 4);
	/* 1024 threads x the spilled words x 4 B is more than 2 KB; a CTA's is not */
	const char *all[] = { "mem.l1_bytes=2048" };
	const char *zero[] = { "mem.l1_bytes=2048", "fabric.partition_batch=0" };
	const char *two[] = { "mem.l1_bytes=2048", "fabric.partition_batch=512" };
	const char *one[] = { "mem.l1_bytes=2048", "fabric.partition_batch=100" };
	struct weft_model_result a, z, b2, b1;
	st_run(p, "configs/sgmf-core.ini", all, 1, &a);
	st_run(p, "configs/sgmf-core.ini", zero, 2, &z);
	st_run(p, "configs/sgmf-core.ini", two, 2, &b2);
	st_run(p, "configs/sgmf-core.ini", one, 2, &b1);
	const struct weft_launch_result *A = &a.launches[0], *Z = &z.launches[0], *B2 = &b2.launches[0],
					*B1 = &b1.launches[0];
	/* 0 is the default: all the core's threads in one batch */
	assert_true(a.cycles == z.cycles);
	assert_true(st_stat(Z, "partition_batches") == 1);
	assert_true(st_stat(Z, "config_loads") == 2);
	/* 512 threads = 2 CTAs a batch: 2 batches; 100 threads: a CTA at least, 4 batches */
	assert_true(st_stat(B2, "partition_batches") == 2);
	assert_true(st_stat(B2, "config_loads") == 4);
	assert_true(st_stat(B1, "partition_batches") == 4);
	assert_true(st_stat(B1, "config_loads") == 8);
	assert_true(st_event(&b1, B1, "fabric_config_byte") == 8 * 8192);
	/* each extra batch adds two configuration loads and two fills */
	double load = st_stat(Z, "bound_reconfig") > 0 ? 310 + 8192.0 / 128 : 0;
	assert_true(st_stat(B2, "bound_reconfig") >= st_stat(Z, "bound_reconfig") + 2 * load);
	assert_true(b1.cycles > b2.cycles && b2.cycles > a.cycles);
	/* spills: the L1 holds one CTA's, not all 1024 threads': fewer L2
	 * transactions, none for one CTA a batch */
	assert_true(st_event(&a, A, "l2_access") > st_event(&b2, B2, "l2_access"));
	assert_true(st_event(&b2, B2, "l2_access") >= st_event(&b1, B1, "l2_access"));
	/* the same work: the same thread visits to the L1 */
	assert_true(NEAR(st_event(&a, A, "fabric_l1_word"), st_event(&b1, B1, "fabric_l1_word")));
	weft_model_result_free(&a);
	weft_model_result_free(&z);
	weft_model_result_free(&b2);
	weft_model_result_free(&b1);
	unlink(p);
}

static void test_epoch_throttling(void **state)
{
	(void)state;
	/* a streaming load + store: cold misses every 32 threads */
	const char *tp = st_path("stream.wtr");
	static const char ptx[] = PTX_HEAD
		".visible .entry stream(.param .u64 out)\n{\n"
		" .reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
		" ld.param.u64 %rd1, [out];\n"
		" mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
		" mad.lo.u32 %r4, %r2, %r3, %r1;\n"
		" mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
		" ld.global.u32 %r5, [%rd3];\n add.u32 %r6, %r5, 1;\n"
		" st.global.u32 [%rd3], %r6;\n ret;\n}\n";
	trace_kernel(ptx, "stream", 8, 256, tp, 8 * 256 * 4);
	struct weft_model_result e, n, e32;
	const char *completion[] = { "fabric.epoch_rule=completion" };
	const char *tb32[] = { "fabric.epoch_rule=completion", "fabric.token_buffer=32" };
	st_run(tp, "configs/sgmf-core.ini", completion, 1, &e);
	st_run(tp, "configs/sgmf-core.ini", NULL, 0, &n);
	st_run(tp, "configs/sgmf-core.ini", tb32, 2, &e32);
	double le = st_stat(&e.launches[0], "bound_ldst"), ln = st_stat(&n.launches[0], "bound_ldst");
	double l32 = st_stat(&e32.launches[0], "bound_ldst");
	/* completion: an epoch with a DRAM miss holds the next epoch for the
	 * miss latency: slower than admission (the reservation buffer alone),
	 * less so with bigger epochs */
	assert_true(le > 1.5 * ln);
	assert_true(l32 < le);
	assert_string_equal(e.launches[0].limiter, "ldst");
	/* the cache sees the same accesses either way */
	assert_true(NEAR(st_event(&e, &e.launches[0], "fabric_l1_word"), 2 * 2048));
	assert_true(NEAR(st_event(&e, &e.launches[0], "fabric_l1_word"),
			 st_event(&n, &n.launches[0], "fabric_l1_word")));
	assert_true(NEAR(st_event(&e, &e.launches[0], "dram_access"),
			 st_event(&e32, &e32.launches[0], "dram_access")));
	/* 8 KB read and written back: 64 lines each way */
	assert_true(NEAR(st_stat(&e.launches[0], "dram_bytes"), 2 * 8192));
	weft_model_result_free(&e);
	weft_model_result_free(&n);
	weft_model_result_free(&e32);
	unlink(tp);
}

/* Thread t stores s[t], and after a barrier threads t >= D read s[t - D]:
 * communication at distance D. */
static void shift_ptx(char *text, size_t len, int dist)
{
	snprintf(text, len,
		 PTX_HEAD ".visible .entry shift(.param .u64 out)\n{\n"
		 " .reg .pred %%p<4>; .reg .b32 %%r<16>; .reg .b64 %%rd<6>;\n"
		 " .shared .align 4 .b32 s[256];\n"
		 " ld.param.u64 %%rd1, [out];\n"
		 " mov.u32 %%r1, %%tid.x;\n"
		 " shl.b32 %%r2, %%r1, 2;\n mov.u32 %%r3, s;\n add.s32 %%r4, %%r3, %%r2;\n"
		 " st.shared.u32 [%%r4], %%r1;\n bar.sync 0;\n"
		 " setp.lt.u32 %%p1, %%r1, %d;\n @%%p1 bra DONE;\n"
		 " ld.shared.u32 %%r5, [%%r4+-%d];\n"
		 " cvt.u64.u32 %%rd2, %%r2;\n add.s64 %%rd3, %%rd1, %%rd2;\n"
		 " st.global.u32 [%%rd3], %%r5;\n"
		 "DONE:\n ret;\n}\n",
		 dist, 4 * dist);
}

static void test_elevator_cascades(void **state)
{
	(void)state;
	static char text[4096];
	shift_ptx(text, sizeof(text), 20);
	const char *tp = st_path("shift.wtr");
	trace_kernel(text, "shift", 2, 256, tp, 256 * 4);
	struct weft_model_result d16, d32, dsp, sg;
	const char *tb32[] = { "fabric.token_buffer=32" };
	const char *casc1[] = { "dmt.max_cascade=1" };
	st_run(tp, "configs/dmt-cgra.ini", NULL, 0, &d16);
	st_run(tp, "configs/dmt-cgra.ini", tb32, 1, &d32);
	st_run(tp, "configs/dmt-cgra.ini", casc1, 1, &dsp);
	st_run(tp, "configs/mt-cgra.ini", NULL, 0, &sg);
	const struct weft_launch_result *A = &d16.launches[0], *B = &d32.launches[0], *C = &dsp.launches[0];
	double readers = 2 * (256 - 20);
	/* dTID 20 > 16 entries: two cascaded elevators; 32 entries: one */
	assert_true(st_stat(A, "dmt_elevator_nodes") == 2);
	assert_true(st_stat(B, "dmt_elevator_nodes") == 1);
	/* every thread visit passes the elevators (the first 20 threads with
	 * the constant: predication) */
	assert_true(NEAR(st_event(&d16, A, "fabric_elevator"), 2 * 512));
	assert_true(NEAR(st_event(&d32, B, "fabric_elevator"), 512));
	assert_true(NEAR(st_stat(A, "dmt_comm"), readers));
	assert_true(st_stat(A, "dmt_comm_within_buffer") == 0);
	assert_true(st_stat(B, "dmt_comm_within_buffer") == 100);
	/* at most one elevator: the values spill to the live value cache */
	assert_true(NEAR(st_stat(C, "dmt_lvc_values"), readers));
	assert_true(NEAR(st_event(&dsp, C, "fabric_lvc_access"), 2 * readers));
	assert_true(st_event(&dsp, C, "fabric_elevator") == 0);
	/* removed: the shared load and store, the barrier, the shared address
	 * arithmetic; the MT-CGRA executes all of them */
	assert_true(st_stat(A, "dmt_removed_insts") > 0);
	assert_true(NEAR(d16.thread_insts + st_stat(A, "dmt_removed_insts"), (double)sg.thread_insts));
	assert_true(NEAR(st_stat(A, "dmt_removed_barrier"), 512));
	assert_true(NEAR(st_stat(A, "dmt_removed_elevator_load"), readers));
	assert_true(st_event(&d16, A, "shmem_access") == 0);
	assert_true(NEAR(st_event(&sg, &sg.launches[0], "shmem_access"), 512 + readers));
	weft_model_result_free(&d16);
	weft_model_result_free(&d32);
	weft_model_result_free(&dsp);
	weft_model_result_free(&sg);
	unlink(tp);
}

/* A sweep restores the replay from an earlier run: the same results as a
 * fresh replay, for token buffers that are powers of two and others. */
static void test_replay_cache(void **state)
{
	(void)state;
	const char *tp = st_path("mm.wtr");
	st_trace_workload("matmul", WEFT_SIZE_SMALL, tp);
	weft_fabric_cache_clear();
	static const char *const tbs[] = { "fabric.token_buffer=16", "fabric.token_buffer=4",
					   "fabric.token_buffer=5", "fabric.token_buffer=256" };
	for (int i = 0; i < 4; i++) {
		const char *fresh[] = { tbs[i], "fabric.replay_cache=false" };
		const char *cached[] = { tbs[i] };
		struct weft_model_result a, b, c;
		st_run(tp, "configs/sgmf-core.ini", fresh, 2, &a);
		st_run(tp, "configs/sgmf-core.ini", cached, 1, &b); /* stores (or restores) */
		st_run(tp, "configs/sgmf-core.ini", cached, 1, &c); /* restores */
		assert_int_equal(a.nlaunches, c.nlaunches);
		for (uint32_t l = 0; l < a.nlaunches; l++) {
			assert_true(a.launches[l].cycles == b.launches[l].cycles);
			assert_true(a.launches[l].cycles == c.launches[l].cycles);
			assert_string_equal(a.launches[l].limiter, c.launches[l].limiter);
			for (uint32_t e = 0; e < a.model->nevents; e++)
				assert_true(a.launches[l].events[e] == c.launches[l].events[e]);
		}
		weft_model_result_free(&a);
		weft_model_result_free(&b);
		weft_model_result_free(&c);
	}
	/* a different memory parameter is a different replay */
	const char *l1[] = { "mem.l1_latency=20" };
	struct weft_model_result d, e;
	st_run(tp, "configs/sgmf-core.ini", l1, 1, &d);
	st_run(tp, "configs/sgmf-core.ini", NULL, 0, &e);
	assert_true(d.cycles != e.cycles);
	weft_model_result_free(&d);
	weft_model_result_free(&e);
	weft_fabric_cache_clear();
	unlink(tp);
}

/* A run alone in its process (weft_config.alone) stores no replay and
 * times the same; the same run not alone stores its launches. */
static void test_alone_stores_nothing(void **state)
{
	(void)state;
	const char *tp = st_path("mm-alone.wtr");
	st_trace_workload("matmul", WEFT_SIZE_SMALL, tp);
	struct weft_model_result r[2];
	for (int alone = 1; alone >= 0; alone--) {
		weft_fabric_cache_clear();
		struct weft_error err;
		struct weft_config cfg;
		struct weft_trace *t;
		st_check(weft_config_load("configs/sgmf-core.ini", NULL, 0, &cfg, &err), &err, "config");
		cfg.alone = alone;
		st_check(weft_trace_open(tp, &t, &err), &err, "trace open");
		struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
		st_check(weft_model_run(weft_model_find(cfg.model), &cfg, t, &all, &r[alone], &err), &err, "run");
		weft_trace_close(t);
		weft_config_free(&cfg);
		if (alone)
			assert_int_equal(weft_fabric_cache_bytes(), 0);
		else
			assert_true(weft_fabric_cache_bytes() > 0);
	}
	assert_true(r[0].cycles == r[1].cycles);
	for (uint32_t e = 0; e < r[0].model->nevents; e++)
		assert_true(r[0].events[e] == r[1].events[e]);
	weft_model_result_free(&r[0]);
	weft_model_result_free(&r[1]);
	weft_fabric_cache_clear();
	unlink(tp);
}

static double stat_of(const struct weft_launch_result *r, const char *key)
{
	for (uint32_t i = 0; i < r->nstats; i++)
		if (!strcmp(r->stats[i].key, key))
			return r->stats[i].value;
	fail_msg("no stat %s", key);
	return NAN;
}

/* Runs sgmf-core on trace tp three ways: r[0] every CTA, r[1] sample smp
 * warmed, r[2] the same sample unwarmed. */
static void run_full_warm_cold(const char *tp, struct weft_cta_sample smp, struct weft_model_result r[3])
{
	for (int k = 0; k < 3; k++) {
		struct weft_error err;
		struct weft_config cfg;
		struct weft_trace *t;
		st_check(weft_config_load("configs/sgmf-core.ini", NULL, 0, &cfg, &err), &err, "config");
		cfg.alone = 1;
		st_check(weft_trace_open(tp, &t, &err), &err, "trace open");
		struct weft_cta_sample s1 = smp;
		s1.warm = k == 1;
		if (k == 0)
			s1.kind = WEFT_SAMPLE_ALL;
		st_check(weft_model_run(weft_model_find(cfg.model), &cfg, t, &s1, &r[k], &err), &err, "run");
		weft_trace_close(t);
		weft_config_free(&cfg);
	}
}

/* A random sample warmed with every other CTA feeds those CTAs' accesses
 * to the LDST units and counts their latencies (fabric_warm.c): its LDST
 * bound and mean memory latency are the full replay's, where the same
 * sample unwarmed has its own. */
static void test_warmed_sample_ldst(void **state)
{
	(void)state;
	const char *tp = st_path("nn-warm.wtr");
	st_trace_workload("nn", WEFT_SIZE_SMALL, tp);
	weft_fabric_cache_clear();
	struct weft_model_result r[3];
	struct weft_cta_sample smp = { .kind = WEFT_SAMPLE_RANDOM, .count = 6, .seed = 1 };
	run_full_warm_cold(tp, smp, r);
	assert_int_equal(r[0].nlaunches, 1);
	const struct weft_launch_result *full = &r[0].launches[0], *warm = &r[1].launches[0],
					*cold = &r[2].launches[0];
	assert_true(stat_of(warm, "bound_ldst") == stat_of(full, "bound_ldst"));
	assert_true(stat_of(warm, "avg_mem_latency") == stat_of(full, "avg_mem_latency"));
	assert_true(stat_of(cold, "avg_mem_latency") != stat_of(full, "avg_mem_latency"));
	assert_true(stat_of(cold, "bound_ldst") != stat_of(full, "bound_ldst"));
	for (int k = 0; k < 3; k++)
		weft_model_result_free(&r[k]);
	weft_fabric_cache_clear();
	unlink(tp);
}

/* A sub-kernel that one CTA's thread alone enters (bfs's first expand:
 * only the source node's thread walks its edges) costs a launch its fill
 * and its loop chain once, whichever CTA holds that thread. A warmed
 * sample that does not read that CTA still saw it (fabric_warm.c): its
 * loop bound and configuration loads are the full replay's, where the
 * same sample unwarmed has no loop at all. */
static void test_warmed_sample_extremes(void **state)
{
	(void)state;
	const char *tp = st_path("bfs-warm.wtr");
	st_trace_workload("bfs", WEFT_SIZE_SMALL, tp);
	weft_fabric_cache_clear();
	/* a seed whose one-CTA sample of the two-CTA launch 0 is CTA 1 (the
	 * source node is in CTA 0) */
	struct weft_cta_sample smp = { .kind = WEFT_SAMPLE_RANDOM, .count = 1 };
	uint32_t pick = 0;
	for (smp.seed = 1; smp.seed < 64; smp.seed++) {
		weft_cta_sample_select(&smp, 2, &pick);
		if (pick == 1)
			break;
	}
	assert_int_equal(pick, 1);
	struct weft_model_result r[3];
	run_full_warm_cold(tp, smp, r);
	const struct weft_launch_result *full = &r[0].launches[0], *warm = &r[1].launches[0],
					*cold = &r[2].launches[0];
	assert_true(stat_of(full, "bound_loop") > 0);
	assert_true(stat_of(warm, "bound_loop") == stat_of(full, "bound_loop"));
	assert_true(stat_of(warm, "config_loads") == stat_of(full, "config_loads"));
	assert_true(stat_of(cold, "bound_loop") == 0);
	/* what the missing thread adds is the loop and its fills: the warmed
	 * sample's cycles are within 1% of the full replay's, the unwarmed
	 * sample's are not */
	assert_true(fabs(warm->cycles - full->cycles) < 0.01 * full->cycles);
	assert_true(fabs(cold->cycles - full->cycles) > 0.05 * full->cycles);
	for (int k = 0; k < 3; k++)
		weft_model_result_free(&r[k]);
	weft_fabric_cache_clear();
	unlink(tp);
}

/* nn's last CTA holds 120 threads of grid padding (20 CTAs x 256 threads
 * for 5000 records at small size): threads that check the bound and
 * exit. A sample expands by working threads and counts the padding's
 * visits once whenever the last CTA was read or warmed, so its executed
 * instructions (every working thread of nn runs the same code) are the
 * full replay's; an unwarmed sample without the last CTA does not know
 * the padding and expands by CTAs. */
static void test_sample_grid_padding(void **state)
{
	(void)state;
	const char *tp = st_path("nn-pad.wtr");
	st_trace_workload("nn", WEFT_SIZE_SMALL, tp);
	weft_fabric_cache_clear();
	int seen[2] = { 0, 0 }; /* samples with / without the last CTA */
	for (uint64_t seed = 1; seed < 16 && !(seen[0] && seen[1]); seed++) {
		struct weft_cta_sample smp = { .kind = WEFT_SAMPLE_RANDOM, .count = 6, .seed = seed };
		uint32_t ctas[6];
		uint32_t n = weft_cta_sample_select(&smp, 20, ctas);
		int has_last = n && ctas[n - 1] == 19;
		if (seen[!has_last])
			continue;
		seen[!has_last] = 1;
		struct weft_model_result r[3];
		run_full_warm_cold(tp, smp, r);
		double full = stat_of(&r[0].launches[0], "executed_insts");
		assert_true(full == 126320);
		assert_true(fabs(stat_of(&r[1].launches[0], "executed_insts") - full) < 1e-6 * full);
		if (has_last)
			assert_true(fabs(stat_of(&r[2].launches[0], "executed_insts") - full) < 1e-6 * full);
		else
			assert_true(fabs(stat_of(&r[2].launches[0], "executed_insts") - full) > 1e-3 * full);
		for (int k = 0; k < 3; k++)
			weft_model_result_free(&r[k]);
	}
	assert_true(seen[0] && seen[1]);
	weft_fabric_cache_clear();
	unlink(tp);
}

/* weft_model_run_many over several configurations (one read of the trace,
 * followers restored from the leader's replay, their LDST units fed by the
 * leader as it replays, for their own token buffer and epoch rule) gives
 * what weft_model_run gives for each. The 64 MiB L2 makes a replay too big
 * for the replay cache (its 8 MiB): those followers find no entry and
 * replay on their own, dropping what the leader fed them. */
static void run_many_check(const char *workload, enum weft_size size, const char *const (*sets)[2],
			   int N, const struct weft_cta_sample *smp);

static void test_run_many(void **state)
{
	(void)state;
	static const char *const sets[][2] = {
		{ "fabric.token_buffer=16", NULL }, { "fabric.token_buffer=4", NULL },
		{ "fabric.token_buffer=5", NULL },  { "mem.l1_latency=20", NULL },
		{ "fabric.compute_units=16", NULL }, { "fabric.replay_cache=false", "fabric.token_buffer=3" },
		{ "fabric.token_buffer=7", "fabric.epoch_rule=completion" },
		{ "mem.l2_bytes=67108864", NULL }, { "mem.l2_bytes=67108864", "fabric.token_buffer=2" },
		{ "mem.l2_bytes=67108864", "fabric.epoch_rule=completion" },
	};
	run_many_check("hotspot", WEFT_SIZE_SMALL, sets, 10, NULL);
}

/* The same over a launch of 4.8 M accesses (matmul at default size), more
 * than the leader keeps at once (FAB_SEQ_MAX, 1 M): it feeds its followers
 * in several batches and the cache entry gets no sequence. */
static void test_run_many_long(void **state)
{
	(void)state;
	static const char *const sets[][2] = {
		{ "fabric.token_buffer=16", NULL }, { "fabric.token_buffer=3", NULL },
		{ "fabric.token_buffer=5", "fabric.epoch_rule=completion" },
	};
	run_many_check("matmul", WEFT_SIZE_DEFAULT, sets, 3, NULL);
}

/* A windowed sample over configurations whose fills differ (1 and 15
 * cores: the fill warms until every L1 has turned over) in one walk
 * (one job: model_many.c hands every configuration the longest fill):
 * each configuration warms only its own fill and windows, so it reports
 * what it reports alone. nn at default size: its first window comes
 * early, so a fill runs on past it (trace.h warm_fill). */
static void test_run_many_windowed(void **state)
{
	(void)state;
	static const char *const sets[][2] = {
		{ "fabric.token_buffer=16", NULL },
		{ "fabric.cores=15", NULL },
	};
	struct weft_cta_sample smp = { .kind = WEFT_SAMPLE_RANDOM, .count = 8, .seed = 1, .warm = 1,
				       .warm_window = WEFT_WARM_WINDOW_GRID };
	run_many_check("nn", WEFT_SIZE_DEFAULT, sets, 2, &smp);
}

static void run_many_check(const char *workload, enum weft_size size, const char *const (*sets)[2],
			   int N, const struct weft_cta_sample *smp)
{
	const char *tp = st_path("many.wtr");
	st_trace_workload(workload, size, tp);
	struct weft_error err;
	struct weft_config cfg[16];
	const struct weft_config *cp[16];
	assert_true(N <= 16);
	for (int i = 0; i < N; i++) {
		uint32_t ns = sets[i][1] ? 2 : 1;
		st_check(weft_config_load("configs/sgmf-core.ini", sets[i], ns, &cfg[i], &err), &err, "cfg");
		cp[i] = &cfg[i];
	}
	struct weft_trace *t;
	st_check(weft_trace_open(tp, &t, &err), &err, "open");
	if (smp)
		weft_trace_set_jobs(t, 1); /* one walk for every configuration */
	const struct weft_model *m = weft_model_find("sgmf");
	struct weft_cta_sample all;
	memset(&all, 0, sizeof(all));
	if (smp)
		all = *smp;
	struct weft_model_result many[16];
	uint32_t passes = 0;
	weft_fabric_cache_clear();
	st_check(weft_model_run_many(m, cp, N, t, &all, many, &passes, &err), &err, "run_many");
	assert_int_equal(passes, 1);
	weft_fabric_cache_clear();
	for (int i = 0; i < N; i++) {
		struct weft_model_result one;
		st_check(weft_model_run(m, cp[i], t, &all, &one, &err), &err, "run");
		assert_int_equal(one.nlaunches, many[i].nlaunches);
		assert_true(one.cycles == many[i].cycles);
		assert_int_equal(one.thread_insts, many[i].thread_insts);
		for (uint32_t l = 0; l < one.nlaunches; l++)
			for (uint32_t e = 0; e < m->nevents; e++)
				assert_true(one.launches[l].events[e] == many[i].launches[l].events[e]);
		weft_model_result_free(&one);
		weft_model_result_free(&many[i]);
		weft_config_free(&cfg[i]);
	}
	weft_trace_close(t);
	weft_fabric_cache_clear();
	unlink(tp);
}

/* ---- configs ---- */

/* Thread t runs (t mod 8) + 1 iterations of acc += i * 3, then stores acc. */
static const char loop_ptx[] = PTX_HEAD
	".visible .entry loopk(.param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 7;\n add.u32 %r2, %r2, 1;\n"
	" mov.u32 %r3, 0;\n mov.u32 %r4, 0;\n"
	"LOOP:\n mad.lo.u32 %r4, %r3, 3, %r4;\n add.u32 %r3, %r3, 1;\n"
	" setp.lt.u32 %p1, %r3, %r2;\n @%p1 bra LOOP;\n"
	" mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
	" st.global.u32 [%rd3], %r4;\n ret;\n}\n";

/* split_loops = false keeps a loop in one configuration: no init / body /
 * epilogue kernels and no spilled loop-carried values; the loop's nodes
 * fire once per iteration, the rest once per thread; a thread's
 * iterations chain. A kernel whose loop does not fit is refused with the
 * reason, not cut. */
static void test_kept_loops(void **state)
{
	(void)state;
	const char *tp = st_path("loop.wtr");
	trace_kernel(loop_ptx, "loopk", 4, 256, tp, 4 * 256 * 4);
	struct weft_model_result split, kept;
	const char *keep[] = { "fabric.split_loops=false" };
	st_run(tp, "configs/sgmf-core.ini", NULL, 0, &split);
	st_run(tp, "configs/sgmf-core.ini", keep, 1, &kept);
	assert_true(st_stat(&split.launches[0], "kernels") >= 2);
	assert_true(st_stat(&kept.launches[0], "kernels") == 1);
	/* 1024 threads, 4.5 iterations each: the loop's mad, add and setp fire
	 * per iteration, the rest (and, add, mul.wide, add.s64) once per
	 * thread */
	double iters = 1024 * 4.5;
	assert_true(NEAR(st_event(&kept, &kept.launches[0], "fabric_int_mul"), iters + 1024));
	assert_true(NEAR(st_event(&kept, &kept.launches[0], "fabric_int_alu"), 2 * iters + 3 * 1024));
	/* no loop-carried spills: no L1 words beyond the 1024 stores */
	assert_true(NEAR(st_event(&kept, &kept.launches[0], "fabric_l1_word"), 1024));
	assert_true(st_event(&split, &split.launches[0], "fabric_l1_word") > 1024 + iters);
	/* a thread's 8 iterations one after another */
	assert_true(st_stat(&kept.launches[0], "bound_loop") >= 8 * 3);
	assert_null(kept.launches[0].explain); /* not asked for */
	weft_model_result_free(&split);
	weft_model_result_free(&kept);

	/* --explain: the launch as the model saw it, only when asked */
	{
		struct weft_error e2;
		struct weft_config c2;
		struct weft_trace *t2;
		struct weft_model_result r2;
		st_check(weft_config_load("configs/sgmf-core.ini", keep, 1, &c2, &e2), &e2, "load");
		c2.explain = 1;
		st_check(weft_trace_open(tp, &t2, &e2), &e2, "open");
		struct weft_cta_sample all2 = { .kind = WEFT_SAMPLE_ALL };
		st_check(weft_model_run(weft_model_find("sgmf"), &c2, t2, &all2, &r2, &e2), &e2, "run");
		const char *x = r2.launches[0].explain;
		assert_non_null(x);
		assert_non_null(strstr(x, "kernel loopk"));
		assert_non_null(strstr(x, "1 kernel(s) in 1 segment(s)"));
		assert_non_null(strstr(x, "set by"));
		assert_non_null(strstr(x, "limiter"));
		weft_model_result_free(&r2);
		weft_trace_close(t2);
		weft_config_free(&c2);
	}

	/* too big for one configuration: refused, with what to do */
	struct weft_error err;
	struct weft_config cfg;
	struct weft_trace *t;
	const char *tiny[] = { "fabric.split_loops=false", "fabric.compute_units=2" };
	st_check(weft_config_load("configs/sgmf-core.ini", tiny, 2, &cfg, &err), &err, "load");
	st_check(weft_trace_open(tp, &t, &err), &err, "open");
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	struct weft_model_result r;
	assert_int_equal(weft_model_run(weft_model_find("sgmf"), &cfg, t, &all, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "split_loops = true"));
	assert_non_null(strstr(err.message, "loopk"));
	weft_trace_close(t);
	weft_config_free(&cfg);
	unlink(tp);
}

static void test_area_sgmf_core(void **state)
{
	(void)state;
	struct weft_error err;
	struct weft_config cfg;
	struct weft_area_report rep;
	st_check(weft_config_load("configs/sgmf-core.ini", NULL, 0, &cfg, &err), &err, "sgmf-core");
	st_check(weft_area_of_config(&cfg, 65, &rep, &err), &err, "area");
	/* the synthesised SGMF core (data/calibration/sgmf_core_65nm.csv):
	 * 54.30 mm^2, reproduced from its components within 0.01 mm^2 */
	assert_true(fabs(rep.total_mm2 - 54.30) < 0.01);
	assert_true(rep.nlines == 8);
	weft_config_free(&cfg);
	/* mt-cgra is the same machine */
	st_check(weft_config_load("configs/mt-cgra.ini", NULL, 0, &cfg, &err), &err, "mt-cgra");
	st_check(weft_area_of_config(&cfg, 65, &rep, &err), &err, "area");
	assert_true(fabs(rep.total_mm2 - 54.30) < 0.01);
	weft_config_free(&cfg);
	/* 15 cores: 15 x the core (the L2 and memory controllers are not
	 * counted: docs/models/dataflow.md) */
	st_check(weft_config_load("configs/sgmf-15core.ini", NULL, 0, &cfg, &err), &err, "15core");
	st_check(weft_area_of_config(&cfg, 65, &rep, &err), &err, "area");
	assert_true(fabs(rep.total_mm2 - 15 * 54.30) < 0.15);
	weft_config_free(&cfg);
	/* dMT-CGRA: 140 units, 50 KB token buffers, 64 KB LVC: larger */
	st_check(weft_config_load("configs/dmt-cgra.ini", NULL, 0, &cfg, &err), &err, "dmt");
	st_check(weft_area_of_config(&cfg, 65, &rep, &err), &err, "area");
	assert_true(rep.total_mm2 > 54.30 && rep.total_mm2 < 2 * 54.30);
	weft_config_free(&cfg);
}

static void test_bad_config(void **state)
{
	(void)state;
	struct weft_error err;
	struct weft_config cfg;
	const struct weft_model *m = weft_model_find("sgmf");
	assert_non_null(m);
	assert_non_null(weft_model_find("dmt"));
	const char *sets[] = { "fabric.int_div_units=12" };
	st_check(weft_config_load("configs/sgmf-core.ini", sets, 1, &cfg, &err), &err, "load");
	void *st = NULL;
	assert_int_equal(m->init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "special_units"));
	weft_config_free(&cfg);
	/* dmt keys are not sgmf keys */
	const char *dset[] = { "dmt.max_cascade=2" };
	assert_int_equal(weft_config_load("configs/sgmf-core.ini", dset, 1, &cfg, &err), WEFT_ERR_INPUT);
}

/* ---- the prepared CTA (trace.h compact) ---- */

/* Every access weft_fabric_acc_at gives for c, prepared in pr, is the one
 * the thread iterator reads from the decoded CTA (pc, space, address), in
 * the fabric's order (the j-th access of each thread that has one, by
 * thread id, before any (j+1)-th), and there are no more: the prepared
 * CTA holds all the replay reads of the accesses once the walk has
 * dropped the decoded CTA. */
static void check_prepared(const struct weft_program *p, const struct weft_cta_trace *c,
			   const struct fabric_prepared *pr)
{
	assert_int_equal(pr->nthreads, c->nthreads);
	size_t total = 0;
	for (uint32_t t = 0; t < c->nthreads; t++)
		total += c->threads[t].naddrs;
	struct fabric_acc *want = calloc(total + 1, sizeof(*want));
	size_t *start = calloc(c->nthreads + 1, sizeof(*start));
	uint32_t *n = calloc(c->nthreads + 1, sizeof(*n));
	assert_true(want && start && n);
	size_t k = 0;
	uint32_t maxn = 0;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst in;
		weft_thread_iter_init(&it, p, &c->threads[t]);
		start[t] = k;
		while (weft_thread_iter_next(&it, &in)) {
			if (!in.has_addr)
				continue;
			assert_true(k < total);
			want[k].pc = in.pc;
			want[k].space = in.space;
			want[k].addr = in.addr;
			k++;
		}
		n[t] = (uint32_t)(k - start[t]);
		if (n[t] > maxn)
			maxn = n[t];
	}
	assert_true(pr->nacc == k);
	size_t i = 0;
	for (uint32_t j = 0; j < maxn; j++)
		for (uint32_t t = 0; t < c->nthreads; t++) {
			if (n[t] <= j)
				continue;
			assert_true(i < pr->nacc);
			struct fabric_acc a = weft_fabric_acc_at(pr, i++);
			const struct fabric_acc *w = &want[start[t] + j];
			assert_int_equal(a.pc, w->pc);
			assert_int_equal(a.space, w->space);
			assert_true(a.addr == w->addr);
		}
	assert_true(i == pr->nacc);
	free(want);
	free(start);
	free(n);
}

/* 1 when c's threads do not all make the same number of accesses. */
static int uneven(const struct weft_cta_trace *c)
{
	for (uint32_t t = 1; t < c->nthreads; t++)
		if (c->threads[t].naddrs != c->threads[0].naddrs)
			return 1;
	return 0;
}

/* A workload's small trace (at st_path(name)), open, and a sgmf-core
 * model state for preparing its CTAs. */
struct prep_fixture {
	char path[160];
	struct weft_trace *t;
	const struct weft_model *model;
	struct weft_config cfg;
	void *st;
};

static struct fabric_state *prep_open(struct prep_fixture *f, const char *workload, const char *name)
{
	struct weft_error err;
	snprintf(f->path, sizeof(f->path), "%s", st_path(name));
	st_trace_workload(workload, WEFT_SIZE_SMALL, f->path);
	st_check(weft_trace_open(f->path, &f->t, &err), &err, "open");
	f->model = weft_model_find("sgmf");
	assert_non_null(f->model);
	st_check(weft_config_load("configs/sgmf-core.ini", NULL, 0, &f->cfg, &err), &err, "load");
	f->st = NULL;
	st_check(f->model->init(&f->cfg, &f->st, &err), &err, "init");
	return f->st;
}

static void prep_close(struct prep_fixture *f)
{
	f->model->free(f->st);
	weft_config_free(&f->cfg);
	weft_trace_close(f->t);
	unlink(f->path);
}

static void test_prepared_holds_accesses(void **state)
{
	(void)state;
	struct prep_fixture fx;
	struct fabric_state *s = prep_open(&fx, "hotspot", "prep.wtr"); /* shared and global accesses */
	struct weft_error err;
	struct weft_trace *t = fx.t;
	const struct weft_trace_launch *L = weft_trace_launch(t, 0);
	st_check(weft_fabric_launch_begin(s, L->program, &err), &err, "begin");
	struct fabric_prepared pr;
	memset(&pr, 0, sizeof(pr));
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	int narrow = 0;
	for (uint32_t k = 0; k < L->nctas; k += 7) {
		st_check(weft_trace_read_cta(t, 0, k, &c, &err), &err, "read");
		st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare");
		narrow += !pr.wide && pr.nkeys > 1;
		check_prepared(L->program, &c, &pr);
	}
	assert_true(narrow > 0); /* the usual, narrow, form was checked */
	/* offsets are from a space's first address, either way: one thread's
	 * global addresses 1 GiB lower stay narrow, 3 GiB lower go wide */
	uint32_t m = c.nthreads / 2;
	struct weft_thread_trace keep = c.threads[m];
	uint64_t *addrs = malloc((keep.naddrs + 1) * sizeof(*addrs));
	uint8_t *spaces = malloc(keep.naddrs + 1);
	assert_true(addrs && spaces && keep.naddrs > 2);
	c.threads[m].addrs = addrs;
	c.threads[m].spaces = spaces;
	for (int gib = 1; gib <= 3; gib += 2) {
		for (uint32_t j = 0; j < keep.naddrs; j++) {
			spaces[j] = keep.spaces[j];
			addrs[j] = weft_thread_addr(&keep, j) - (keep.spaces[j] != WEFT_SPACE_SHARED ? (uint64_t)gib << 30 : 0);
		}
		st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare lower");
		assert_int_equal(pr.wide, gib == 3);
		check_prepared(L->program, &c, &pr);
	}
	/* a pc whose accesses are in two spaces: keyed by (pc, space), narrow */
	for (uint32_t j = 0; j < keep.naddrs; j++) {
		spaces[j] = keep.spaces[j];
		addrs[j] = weft_thread_addr(&keep, j);
	}
	spaces[0] = keep.spaces[0] == WEFT_SPACE_LOCAL ? WEFT_SPACE_GLOBAL : WEFT_SPACE_LOCAL;
	st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare two spaces");
	assert_false(pr.wide);
	assert_true(pr.nkeys > 1);
	check_prepared(L->program, &c, &pr);
	spaces[0] = keep.spaces[0];
	/* wide from thread m on: its global addresses 8 GiB further */
	for (uint32_t j = 0; j < keep.naddrs; j++)
		addrs[j] = weft_thread_addr(&keep, j) + (keep.spaces[j] != WEFT_SPACE_SHARED ? 8ull << 30 : 0);
	st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare wide");
	assert_true(pr.wide);
	check_prepared(L->program, &c, &pr);
	/* wide from the middle of the CTA: a space no instruction has (the
	 * narrow accesses before it rewritten whole) */
	for (uint32_t j = 0; j < keep.naddrs; j++)
		addrs[j] = weft_thread_addr(&keep, j);
	spaces[keep.naddrs / 2] = 200;
	st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare converted");
	assert_true(pr.wide);
	check_prepared(L->program, &c, &pr);
	/* and narrow again for the next CTA */
	c.threads[m] = keep;
	st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare again");
	assert_false(pr.wide);
	check_prepared(L->program, &c, &pr);
	free(addrs);
	free(spaces);
	weft_fabric_prepared_free(&pr);
	weft_cta_trace_free(&c);
	prep_close(&fx);
}

/* A divergent kernel's CTAs, whose threads make different numbers of
 * accesses (more than one reordering block of threads each): prepared in
 * the fabric's order, a thread leaving it after its last access. */
static void test_prepared_order_divergent(void **state)
{
	(void)state;
	struct prep_fixture fx;
	struct fabric_state *s = prep_open(&fx, "bfs", "prep_bfs.wtr");
	struct weft_error err;
	struct weft_trace *t = fx.t;
	struct fabric_prepared pr;
	memset(&pr, 0, sizeof(pr));
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	int checked = 0;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		st_check(weft_fabric_launch_begin(s, L->program, &err), &err, "begin");
		for (uint32_t k = 0; k < L->nctas; k++) {
			st_check(weft_trace_read_cta(t, l, k, &c, &err), &err, "read");
			if (!uneven(&c) || c.nthreads <= 64)
				continue;
			st_check(weft_fabric_prepare_cta(s, &c, &pr, &err), &err, "prepare");
			check_prepared(L->program, &c, &pr);
			checked++;
		}
	}
	assert_true(checked > 0);
	weft_fabric_prepared_free(&pr);
	weft_cta_trace_free(&c);
	prep_close(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_little),
		cmocka_unit_test(test_epochs),
		cmocka_unit_test(test_timed_stretches),
		cmocka_unit_test(test_special_units),
		cmocka_unit_test(test_cascades),
		cmocka_unit_test(test_replication),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_partition_batches),
		cmocka_unit_test(test_epoch_throttling),
		cmocka_unit_test(test_elevator_cascades),
		cmocka_unit_test(test_replay_cache),
		cmocka_unit_test(test_alone_stores_nothing),
		cmocka_unit_test(test_warmed_sample_ldst),
		cmocka_unit_test(test_warmed_sample_extremes),
		cmocka_unit_test(test_sample_grid_padding),
		cmocka_unit_test(test_run_many),
		cmocka_unit_test(test_run_many_long),
		cmocka_unit_test(test_run_many_windowed),
		cmocka_unit_test(test_kept_loops),
		cmocka_unit_test(test_area_sgmf_core),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_prepared_holds_accesses),
		cmocka_unit_test(test_prepared_order_divergent),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	weft_fabric_cache_clear();
	st_tmp_done(NULL, 0);
	return rc;
}
