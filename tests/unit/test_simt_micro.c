/*
 * test_simt_micro.c - each SIMT timing mechanism pinned by a bundled
 * microkernel (trace/workloads/micro_*, docs/workloads.md "Microkernels")
 * against cycles worked out by hand from the model's equations and the
 * configs/fermi-sm.ini parameters (issue 9 "Done when": within 10%).
 *
 * The parameters the hand computations use (1.4 GHz cycles): R = 2 issue
 * cycles per warp instruction on each of 2 schedulers; a dependent
 * instruction may issue pipeline_latency 12 + the unit latency later:
 * alu 2 (14), int add/mul 8 (20), f32 fma 10 (22); ld.param is a
 * constant-cache access, 12 + 70 = 82; a global load that misses to DRAM
 * 12 + 550 = 562; shared memory 12 + 52 = 64; a global store is done when
 * the L2 acknowledges it, 350 after it reaches the L1; the LD/ST unit takes
 * 2 cycles per pass (a conflict-free shared access or one L1 transaction);
 * 64 L1 MSHRs. Register-bank conflicts (rf_banks) are left out of the hand
 * computations: the exact checks run with core.rf_banks=0, the 10%
 * checks with the config as it is.
 *
 * A common head: the kernels start with their ld.param loads (82 to the
 * first use), address arithmetic and a global load to DRAM; where it
 * matters it is spelled out below.
 */
#include <math.h>

#include "simt_testutil.h"

static const char *const no_banks[] = { "core.rf_banks=0" };

static double cycles_of(const char *trace, const char *const *sets, uint32_t n, uint32_t launch,
			struct weft_launch_result *out)
{
	struct weft_model_result r;
	st_run(st_path(trace), "configs/fermi-sm.ini", sets, n, &r);
	assert_true(launch < r.nlaunches);
	double c = r.launches[launch].cycles;
	if (out) {
		/* the launch's figures outlive r: its stats in a copy of ours
		 * (a test keeps at most two launches at a time); what else it
		 * owns is not read */
		static struct weft_stat kept[2][WEFT_MAX_STATS];
		static unsigned nkept;
		struct weft_stat *k = kept[nkept++ % 2];
		*out = r.launches[launch];
		memcpy(k, out->stats, out->nstats * sizeof(*k));
		out->stats = k;
		out->events = NULL;
		out->explain = NULL;
	}
	weft_model_result_free(&r);
	return c;
}

static void within(const char *what, double got, double want, double tol)
{
	printf("  %-34s %9.0f cycles, hand-computed %9.0f (%+.1f%%)\n", what, got, want,
	       100 * (got - want) / want);
	assert_true(fabs(got - want) <= tol * want);
}

static void trace(const char *wl, const char *file)
{
	st_trace_workload(wl, WEFT_SIZE_SMALL, st_path(file));
}

/*
 * One warp, 256 dependent fma.rn.f32. Head: ld.param x4 at 0, 2, 4, 6;
 * cvta (needs the first, ready 82) at 82; mov tid 84; mul.wide 98 (mov +
 * 14); add.s64 118 (+ 20); ld.global 138, its data 138 + 562 = 700. The
 * chain: the k-th fma at 700 + 22 (k - 1), the last at 6310. Tail: cvta
 * 6312, add.s64 6326, st 6346 (its address + 20), acknowledged at
 * 6346 + 350 = 6696.
 */
static void test_fma_chain(void **st)
{
	(void)st;
	trace("micro_fma_chain", "fc.wtr");
	struct weft_launch_result l;
	double exact = cycles_of("fc.wtr", no_banks, 1, 0, NULL);
	assert_true(exact == 6696);
	within("fma chain, one warp", cycles_of("fc.wtr", NULL, 0, 0, &l), 6696, 0.10);
	/* scheduler 0 waits 20 of every 22 cycles of the chain on the fma
	 * before (dependency); scheduler 1 has no warp (idle) */
	assert_true(st_cpi(&l, "dependency") > 0.9 * 255 * 20 / 2);
	assert_true(fabs(st_cpi(&l, "idle") - l.cycles / 2) < 1e-6);
}

/*
 * The same chain in 32 warps (16 per scheduler). Hiding a 22-cycle
 * dependency at one issue every 2 cycles takes 11 warps per scheduler.
 * Loose round robin: the 16 warps take turns, 16 x 2 = 32 cycles per fma
 * round, issue bound: 256 x 32 = 8192 cycles of chain. Greedy-then-oldest
 * keeps issuing the oldest 11 warps (they fill the 22 cycles exactly) and
 * starves the youngest 5 until those finish: 256 x 22 = 5632 cycles for
 * the old, then 5632 for the young, latency bound (the price GTO pays on
 * identical warps). The head is the one-warp head plus the 32 warps' 128
 * ld.param sharing the LD/ST unit (256 cycles); the tail as the one warp:
 *   LRR: 700 + 256 + 8192 + 386 = 9534;  GTO: 700 + 256 + 2 x 5632 + 386 = 12606.
 */
static void test_fma_hidden(void **st)
{
	(void)st;
	trace("micro_fma_hidden", "fh.wtr");
	const char *lrr[] = { "core.rf_banks=0", "core.scheduler=lrr" };
	struct weft_launch_result l;
	within("fma chain, 32 warps, LRR", cycles_of("fh.wtr", lrr, 2, 0, &l), 9534, 0.10);
	/* hidden: the schedulers issue almost all the time */
	assert_true(st_cpi(&l, "issue") > 0.8 * l.cycles);
	assert_true(st_cpi(&l, "dependency") < 0.02 * l.cycles);
	within("fma chain, 32 warps, GTO", cycles_of("fh.wtr", NULL, 0, 0, &l), 12606, 0.10);
	/* the starved warps' tail is dependency */
	assert_true(st_cpi(&l, "dependency") > 0.2 * l.cycles);
}

/*
 * A pointer chase, one warp, 64 dependent ld.global.u64 to distinct lines
 * (every one a DRAM miss): one miss in flight. The first load issues when
 * its pointer (ld.param) is ready, at 82; each next one 562 later; the
 * result is stored when the last arrives, 82 + 64 x 562 = 36050, and
 * acknowledged 350 later: 36400.
 */
static void test_chase(void **st)
{
	(void)st;
	trace("micro_chase", "ch.wtr");
	struct weft_launch_result l;
	within("pointer chase, 64 hops", cycles_of("ch.wtr", NULL, 0, 0, &l), 36400, 0.10);
	assert_true(fabs(cycles_of("ch.wtr", no_banks, 1, 0, NULL) - 36400) <= 4);
	/* the wait is DRAM latency, with one miss at a time: no queueing */
	assert_true(st_cpi(&l, "dram") > 0.45 * l.cycles);
	assert_true(st_cpi(&l, "dram_queue") + st_cpi(&l, "mshr") < 0.001 * l.cycles);
}

/*
 * Streaming limited by the MSHRs: 32 warps each load 16 distinct lines
 * (512 in all) before using them. 64 MSHRs hold 64 lines in flight, each
 * for a DRAM round trip, so the SM streams 64 x 128 B per 562 cycles
 * (14.6 B/cycle, far below the GTX480's 126.7 B/cycle of DRAM): 512 / 64
 * = 8 rounds; the LD/ST unit issues a round's requests 2 cycles apart, so
 * the last round's last request leaves 2 x 64 after its first. Head 138
 * (ld.param 82, mov, mul.wide, add.s64), the rounds, then the last warp's
 * 15 dependent add.f32 (20 each), add.s64, and the store's
 * acknowledgement: 138 + 8 x 562 + 128 + 300 + 20 + 350 = 5432. Twice the
 * MSHRs: 4 rounds of 128: 138 + 4 x 562 + 256 + 670 = 3312.
 */
static void test_stream_mshr(void **st)
{
	(void)st;
	trace("micro_stream", "st.wtr");
	struct weft_launch_result l;
	within("stream, 64 MSHRs", cycles_of("st.wtr", NULL, 0, 0, &l), 5432, 0.10);
	assert_string_equal(l.limiter, "mshr");
	assert_true(st_stat(&l, "mshr_full_waits") > 0);
	const char *more[] = { "mem.l1_mshrs=128" };
	within("stream, 128 MSHRs", cycles_of("st.wtr", more, 1, 0, NULL), 3312, 0.10);
}

/*
 * 8 warps (4 per scheduler), 64 iterations of: st.shared, bar.sync,
 * ld.shared, add, bar.sync, loop counter. Per iteration:
 *   barrier 1 -> barrier 2 (82): the 8 ld.shared share the LD/ST unit
 *     (the last 14 after the release), its data 64 later, then the add
 *     and the bar (2 + 2);
 *   barrier 2 -> barrier 1 (120): each warp's add.s32 counter (20),
 *     setp (14), then each scheduler issues bra, st.shared and bar for
 *     its 4 warps (12 slots: the last store 22 cycles after the first
 *     bra), and the last store is written 64 later.
 * The loop starts when the loaded value arrives (the one-warp head, 700);
 * after it the exit test (34) and the acknowledged store (350):
 *   700 + 64 x (82 + 120) + 34 + 350 = 14012.
 */
static void test_barrier(void **st)
{
	(void)st;
	trace("micro_barrier", "ba.wtr");
	struct weft_launch_result l;
	within("barrier-heavy loop", cycles_of("ba.wtr", NULL, 0, 0, &l), 14012, 0.10);
	assert_true(st_stat(&l, "barriers") == 128);
	assert_true(st_cpi(&l, "barrier") > 0.2 * l.cycles);
}

/*
 * One warp, 32 independent ld.shared then a chain of 31 dependent adds,
 * launched at stride 1 (conflict-free) and stride 32 (all lanes in one
 * bank: 32 passes of 2 cycles per load). In order, the adds start after
 * the last load has issued: at stride 1 its data (66 after the first
 * load) comes later than the last issue (62); at stride 32 the last load
 * issues 31 x 64 = 1984 after the first. The difference is 1984 + 2 - 66
 * = 1920 cycles. Stride 1 by hand: head 58, 32 pairs of add + st.shared
 * (22 each) 704, bar.sync 66 (the last store is written), 64 of loads,
 * 620 of adds, the store's address 20 and acknowledgement 350: 1882.
 */
static void test_bank_conflicts(void **st)
{
	(void)st;
	trace("micro_bank", "bk.wtr");
	struct weft_launch_result l0, l1;
	double c0 = cycles_of("bk.wtr", NULL, 0, 0, &l0);
	double c1 = cycles_of("bk.wtr", NULL, 0, 1, &l1);
	within("shared loads, stride 1", c0, 1882, 0.10);
	within("shared loads, stride 32", c1, 1882 + 1920, 0.10);
	within("stride 32 - stride 1", c1 - c0, 1920, 0.10);
	assert_true(st_stat(&l0, "shmem_passes_per_access") < 1.01);
	assert_true(st_stat(&l1, "shmem_passes_per_access") > 16);
	assert_true(st_cpi(&l0, "bank_conflict") == 0);
	assert_true(st_cpi(&l1, "bank_conflict") > 0.2 * c1);
}

/*
 * One warp; lane i runs i + 1 iterations; in each, even lanes take a
 * mul/add path, odd lanes a 4-fma path (IPDOM: the taken path first, then
 * the other, both issued with half the lanes). The loop's chain per
 * iteration while both paths run: mul, add, mul, add (4 x 20), the two
 * bra.uni, the 4 fma (the first waits for the last add: the scoreboard is
 * per warp register) 22 each, the counter add, setp (20), bra (14), setp,
 * bra (14): 200 cycles, 31 times; the last iteration (lane 31, the odd
 * path) about 150. Head 700, tail (address, store, acknowledgement) 370:
 *   700 + 31 x 200 + 150 + 370 = 7420.
 */
static void test_divergent_loop(void **st)
{
	(void)st;
	trace("micro_diverge", "dv.wtr");
	struct weft_launch_result l;
	within("divergent loop", cycles_of("dv.wtr", NULL, 0, 0, &l), 7420, 0.10);
	/* 528 of 32 x 32 lane-iterations work: the idle lanes' issue slots */
	assert_true(st_stat(&l, "simd_efficiency") < 50);
	assert_true(st_cpi(&l, "divergence") > 0.5 * st_cpi(&l, "issue"));
}

static int teardown(void **st)
{
	(void)st;
	const char *names[] = { "fc.wtr", "fh.wtr", "ch.wtr", "st.wtr", "ba.wtr", "bk.wtr", "dv.wtr" };
	st_tmp_done(names, 7);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fma_chain),      cmocka_unit_test(test_fma_hidden),
		cmocka_unit_test(test_chase),          cmocka_unit_test(test_stream_mshr),
		cmocka_unit_test(test_barrier),        cmocka_unit_test(test_bank_conflicts),
		cmocka_unit_test(test_divergent_loop),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
