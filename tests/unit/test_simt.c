/*
 * test_simt.c - the SIMT model's mechanisms on hand-computed cases:
 * coalescing into 128-byte segments, shared-memory bank conflicts,
 * occupancy (each of threads, CTAs, registers and shared memory binding),
 * the derived parameters (rows, LD/ST passes, L2 and DRAM service times),
 * and end to end through the emulator, trace and model: the cost of a
 * divergent if/else (both paths issue), one warp's timeline cycle by cycle
 * with its CPI stack, the Tesla-like SM's rows and its pipeline without
 * forwarding (one warp is latency bound, two fill the pipeline), L2 bank
 * queueing when 30 SMs store to one line, coalesced versus scattered
 * loads, bank conflicts by stride.
 */
#include "simt_testutil.h"

#include <math.h>

#include "models/simt/simt.h"

/* ---- coalescing ---- */

static void test_coalesce(void **st)
{
	(void)st;
	uint64_t a[32], segs[128];
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 4 * i;                 /* unit stride, aligned */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 4, 7, segs), 1);
	assert_int_equal(segs[0], 0x1000);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 128 * i;               /* one line per lane */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 4, 7, segs), 32);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 8 * i;                 /* stride 2 words */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 4, 7, segs), 2);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1004 + 4 * i;                 /* misaligned by a word */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 4, 7, segs), 2);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 16 * i;                /* float4 per lane: 512 B */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 16, 7, segs), 4);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 4 * (i % 2);           /* two words, all lanes */
	assert_int_equal(weft_simt_coalesce(a, ~0u, 4, 7, segs), 1);
	for (int i = 0; i < 32; i++)
		a[i] = 0x1000 + 128 * i;
	assert_int_equal(weft_simt_coalesce(a, 0x5u, 4, 7, segs), 2); /* only active lanes count */
	assert_int_equal(weft_simt_coalesce(a, 0, 4, 7, segs), 0);
	a[0] = 0x107e;                                   /* 4 bytes across a boundary */
	assert_int_equal(weft_simt_coalesce(a, 1, 4, 7, segs), 2);
}

/* ---- bank conflicts ---- */

static uint32_t banks_stride(uint32_t stride_words, uint32_t banks, uint32_t bytes)
{
	uint64_t a[32];
	for (int i = 0; i < 32; i++)
		a[i] = 0x400 + 4ull * stride_words * i;
	return weft_simt_bank_cycles(a, 0xffffffffull, 32, bytes, banks, NULL);
}

static void test_bank_conflicts(void **st)
{
	(void)st;
	assert_int_equal(banks_stride(1, 32, 4), 1);   /* conflict-free */
	assert_int_equal(banks_stride(2, 32, 4), 2);   /* 2-way */
	assert_int_equal(banks_stride(4, 32, 4), 4);
	assert_int_equal(banks_stride(32, 32, 4), 32); /* every lane in bank 0 */
	assert_int_equal(banks_stride(33, 32, 4), 1);  /* odd stride: no conflict */
	assert_int_equal(banks_stride(0, 32, 4), 1);   /* broadcast: same word */
	/* 8-byte accesses at unit stride touch 64 words: 2 per bank */
	assert_int_equal(banks_stride(2, 32, 8), 2);
	/* Tesla-like: 8 banks serve 4 groups of 8 lanes */
	assert_int_equal(banks_stride(1, 8, 4), 4);
	assert_int_equal(banks_stride(2, 8, 4), 8);
	assert_int_equal(banks_stride(8, 8, 4), 32);
	/* half the lanes broadcast one word, half hit distinct banks */
	uint64_t a[32], words = 0;
	for (int i = 0; i < 32; i++)
		a[i] = i < 16 ? 0 : 4 * i;
	assert_int_equal(weft_simt_bank_cycles(a, 0xffffffffull, 32, 4, 32, &words), 1);
	assert_int_equal(words, 32);
	/* lanes 0 and 1 on the same bank, different words; others inactive */
	a[0] = 0;
	a[1] = 128;
	assert_int_equal(weft_simt_bank_cycles(a, 0x3, 32, 4, 32, NULL), 2);
	assert_int_equal(weft_simt_bank_cycles(a, 0, 32, 4, 32, NULL), 0);
}

/* ---- occupancy ---- */

static struct simt_params fermi(void)
{
	struct simt_params p;
	memset(&p, 0, sizeof(p));
	p.warp_size = 32;
	p.max_threads = 1536;
	p.max_ctas = 8;
	p.registers = 32768;
	p.max_regs_per_thread = 63;
	p.shmem_bytes = 49152;
	return p;
}

static void test_occupancy(void **st)
{
	(void)st;
	struct simt_params p = fermi();
	struct weft_simt_occupancy o;
	struct weft_error err;
	/* threads: 1536 / 512 = 3 (CTAs 8, regs 32768 / (10 x 512) = 6) */
	assert_int_equal(weft_simt_occupancy(&p, 512, 0, 10, &o, &err), 0);
	assert_int_equal(o.ctas, 3);
	assert_int_equal(o.warps, 48);
	assert_int_equal(o.limit, SIMT_OCC_THREADS);
	/* CTAs: 64-thread CTAs, threads would allow 24 */
	assert_int_equal(weft_simt_occupancy(&p, 64, 0, 10, &o, &err), 0);
	assert_int_equal(o.ctas, 8);
	assert_int_equal(o.warps, 16);
	assert_int_equal(o.limit, SIMT_OCC_CTAS);
	/* registers: 32768 / (32 x 256) = 4 (threads allow 6) */
	assert_int_equal(weft_simt_occupancy(&p, 256, 0, 32, &o, &err), 0);
	assert_int_equal(o.ctas, 4);
	assert_int_equal(o.limit, SIMT_OCC_REGS);
	/* shared memory: 48 KB / 16 KB = 3 */
	assert_int_equal(weft_simt_occupancy(&p, 128, 16384, 10, &o, &err), 0);
	assert_int_equal(o.ctas, 3);
	assert_int_equal(o.limit, SIMT_OCC_SHMEM);
	/* threads are allocated in whole warps: 33 threads take 2 warps */
	assert_int_equal(weft_simt_occupancy(&p, 33, 0, 1, &o, &err), 0);
	assert_int_equal(o.warps_per_cta, 2);
	assert_int_equal(o.by[SIMT_OCC_THREADS], 24);
	/* registers are clamped to 63, then to what fits one CTA */
	assert_int_equal(weft_simt_occupancy(&p, 128, 0, 200, &o, &err), 0);
	assert_int_equal(o.regs_per_thread, 63);
	assert_int_equal(weft_simt_occupancy(&p, 1024, 0, 63, &o, &err), 0);
	assert_int_equal(o.regs_per_thread, 32);
	assert_int_equal(o.ctas, 1);
	/* a CTA that cannot fit at all */
	assert_int_equal(weft_simt_occupancy(&p, 2048, 0, 10, &o, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "max_threads"));
	assert_int_equal(weft_simt_occupancy(&p, 128, 65536, 10, &o, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "shmem_bytes"));
}

/* ---- derived parameters ---- */

static void load_params(const char *path, const char *const *sets, uint32_t n, struct simt_params *p)
{
	struct weft_config cfg;
	struct weft_error err;
	st_check(weft_config_load(path, sets, n, &cfg, &err), &err, path);
	st_check(weft_simt_params_from_config(&cfg, p, &err), &err, path);
	weft_config_free(&cfg);
}

static void test_rows(void **st)
{
	(void)st;
	struct simt_params p;
	load_params("configs/fermi-sm.ini", NULL, 0, &p);
	assert_int_equal(p.lanes_per_sched, 16);
	assert_int_equal(p.issue_cycles, 2);       /* 32 threads on 16 lanes */
	assert_int_equal(p.l1_tx_cycles, 2);       /* 32 banks x 4 B = 128 B: one pass of 2 cycles */
	assert_true(p.l2_service == 4);            /* 128 B / 64 B per L2 clock, 2 core clocks each */
	/* a 128 B line on one of 6 channels of 177.4 GB/s at 1.4 GHz */
	assert_true(fabs(p.dram_line_cycles - 128 / (177.4e9 / 6) * 1.4e9) < 1e-9);
	assert_int_equal(p.noc_flits, 5);          /* 8 B request + (128 + 8) B reply in 40 B flits */
	assert_int_equal(p.policy, SIMT_SCHED_GTO);
	assert_int_equal(p.lat[SIMT_LAT_FP_MAD], 10);
	assert_int_equal(p.init[SIMT_LAT_SFU], 16);
	load_params("configs/tesla-sm.ini", NULL, 0, &p);
	assert_int_equal(p.issue_cycles, 4);       /* 32 threads on 8 SPs: 4 rows */
	assert_true(p.warp_serial);
	assert_false(p.caches);
	assert_int_equal(p.policy, SIMT_SCHED_LRR);
	const char *sets[] = { "core.sp_per_sm=16" };
	load_params("configs/tesla-sm.ini", sets, 1, &p);
	assert_int_equal(p.issue_cycles, 2);
	const char *sets2[] = { "core.sp_per_sm=12" };
	load_params("configs/tesla-sm.ini", sets2, 1, &p);
	assert_int_equal(p.issue_cycles, 3);       /* ceil(32 / 12) */
}

static void test_schema(void **st)
{
	(void)st;
	const struct weft_model *m = weft_model_find("simt");
	assert_non_null(m);
	assert_ptr_equal(m, &weft_model_simt);
	for (const struct weft_config_key *k = m->keys; k->section; k++) {
		assert_non_null(k->def);
		assert_non_null(k->doc);
		assert_true(strlen(k->doc) > 10);
	}
	struct weft_config cfg;
	struct weft_error err;
	const char *bad[] = { "core.sp_per_sm=1" };
	assert_int_equal(weft_config_load("configs/fermi-sm.ini", bad, 1, &cfg, &err), 0);
	void *state = NULL;
	assert_int_equal(m->init(&cfg, &state, &err), WEFT_ERR_INPUT); /* 1 lane, 2 schedulers */
	assert_non_null(strstr(err.message, "schedulers"));
	weft_config_free(&cfg);
	const char *typo[] = { "core.sp_per_smm=8" };
	assert_int_equal(weft_config_load("configs/fermi-sm.ini", typo, 1, &cfg, &err), WEFT_ERR_INPUT);
	const char *range[] = { "core.warp_size=65" };
	assert_int_equal(weft_config_load("configs/fermi-sm.ini", range, 1, &cfg, &err), WEFT_ERR_INPUT);
	/* components without a trace */
	assert_int_equal(weft_config_load("configs/tesla-sm.ini", NULL, 0, &cfg, &err), 0);
	assert_int_equal(m->init(&cfg, &state, &err), 0);
	struct weft_component comp[8];
	uint32_t n = 0;
	assert_int_equal(m->components(state, comp, 8, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(comp[2].name, "tesla_sp_quadratic");
	assert_true(comp[2].count == 64);
	m->free(state);
	weft_config_free(&cfg);
}

/* ---- end to end ---- */

#define PTX_HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

/* One warp; odd lanes add four times, even lanes multiply four times (or,
 * with UNIFORM, every lane takes the multiply path). */
static const char *ifelse_ptx(int uniform)
{
	static char buf[2048];
	snprintf(buf, sizeof(buf),
		 PTX_HEAD
		 ".visible .entry ifelse(.param .u64 p_out)\n{\n"
		 "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<5>;\n"
		 "  mov.u32 %%r1, %%tid.x;\n"
		 "  and.b32 %%r2, %%r1, 1;\n"
		 "  %s\n"
		 "  @%%p1 bra EVEN;\n"
		 "  add.s32 %%r3, %%r1, 1;\n  add.s32 %%r3, %%r3, 2;\n"
		 "  add.s32 %%r3, %%r3, 3;\n  add.s32 %%r3, %%r3, 4;\n"
		 "  bra DONE;\n"
		 "EVEN:\n"
		 "  mul.lo.s32 %%r3, %%r1, 3;\n  mul.lo.s32 %%r3, %%r3, 5;\n"
		 "  mul.lo.s32 %%r3, %%r3, 7;\n  mul.lo.s32 %%r3, %%r3, 9;\n"
		 "DONE:\n"
		 "  ld.param.u64 %%rd1, [p_out];\n"
		 "  cvta.to.global.u64 %%rd2, %%rd1;\n"
		 "  mul.wide.u32 %%rd3, %%r1, 4;\n"
		 "  add.s64 %%rd4, %%rd2, %%rd3;\n"
		 "  st.global.u32 [%%rd4], %%r3;\n"
		 "  ret;\n}\n",
		 uniform ? "setp.lt.u32 %p1, %r1, 64;" : "setp.eq.s32 %p1, %r2, 0;");
	return buf;
}

static void trace_ifelse_grid(int uniform, uint32_t ctas, uint32_t threads, const char *path)
{
	struct st_kernel k;
	st_kernel_open(&k, ifelse_ptx(uniform), path);
	uint64_t out = st_kernel_alloc(&k, 4 * threads);
	struct weft_arg args[] = { WEFT_ARG(out) };
	st_kernel_launch(&k, "ifelse", ctas, threads, args, 1);
	st_kernel_close(&k);
}

static void trace_ifelse(int uniform, uint32_t threads, const char *path)
{
	trace_ifelse_grid(uniform, 1, threads, path);
}

/*
 * Blocks: entry 4 instructions (mov, and, setp, bra), odd path 5 (4 adds,
 * bra), even path 4 (muls), join 6 (ld.param, cvta, mul.wide, add, st,
 * ret). Divergent warp: 4 + 5 + 4 + 6 = 19 warp instructions. A thread
 * instruction is one executed with its guard true, so odd lanes (whose
 * guarded bra is off) run 3 + 5 + 6 = 14 and even lanes 4 + 4 + 6 = 14:
 * 448 either way. Uniform: 4 + 4 + 6 = 14 warp instructions, 448 thread
 * instructions. Divergence costs the 5 warp instructions of the other path.
 */
static void test_divergence_cost(void **st)
{
	(void)st;
	struct weft_model_result r;
	trace_ifelse(0, 32, st_path("div.wtr"));
	st_run(st_path("div.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
	const struct weft_launch_result *l = &r.launches[0];
	assert_int_equal(l->thread_insts, 448);
	assert_true(st_stat(l, "warp_insts") == 19);
	assert_true(st_event(&r, l, "simt_warp_fetch_decode") == 19);
	assert_true(st_event(&r, l, "int_mul") == 16 * 4 + 32);  /* even path + mul.wide */
	/* the register file reads whole warp rows: mov 0, and 1, setp 1, bra 0
	 * (predicates have their own file), 4 adds 1 each, bra 0, 4 muls 1
	 * each, ld.param 0, cvta 2 (64-bit), mul.wide 1, add.s64 4, st 3, ret 0
	 * = 20 words x 32 lanes */
	assert_true(st_event(&r, l, "simt_rf_read") == 20 * 32);
	assert_true(st_event(&r, l, "simt_pipeline") == 448);     /* per active lane */
	/* 19 warp instructions of 2 issue cycles over 2 schedulers */
	assert_true(st_stat(l, "bound_issue") == 19);
	assert_true(fabs(st_stat(l, "simd_efficiency") - 100.0 * 448 / (19 * 32)) < 1e-9);
	/* register pressure peaks across mul.wide: r3 + rd2 + rd3 live after it
	 * = 1 + 2 + 2 words (a result may reuse a dying operand's register) */
	assert_true(st_stat(l, "regs_per_thread") == 5);
	/* the idle lanes' issue slots are divergence in the CPI stack: of the
	 * 38 issue cycles (19 averaged over the 2 schedulers), the entry's 4
	 * and the join's 6 instructions carry 32 lanes, each path's (5 and 4)
	 * 16: 14.5 warp instructions' worth of work (a branch counts the
	 * lanes it was issued for), so issue 14.5 and divergence 4.5 */
	assert_true(fabs(st_cpi(l, "issue") - 14.5) < 1e-9);
	assert_true(fabs(st_cpi(l, "divergence") - 4.5) < 1e-9);
	weft_model_result_free(&r);

	trace_ifelse(1, 32, st_path("uni.wtr"));
	st_run(st_path("uni.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
	l = &r.launches[0];
	assert_int_equal(l->thread_insts, 448);
	assert_true(st_stat(l, "warp_insts") == 14);
	assert_true(st_stat(l, "bound_issue") == 14);
	assert_true(st_stat(l, "simd_efficiency") == 100);
	assert_true(st_cpi(l, "divergence") == 0);
	weft_model_result_free(&r);
}

/*
 * One warp of the uniform if/else on a Fermi SM, cycle by cycle (R = 2
 * issue cycles; an instruction's dependents may issue pipeline_latency 12
 * + its unit latency later: alu 2, int_mul 8, int_add 8; ld.param is a
 * constant-cache hit, 12 + 70; the store is acknowledged by the L2 350
 * cycles after it reaches the L1):
 *
 *     0 mov r1=tid       ready 14      94 ld.param rd1      ready 176
 *    14 and r2           ready 28     176 cvta rd2          ready 190
 *    16 setp p1 (r1)     ready 30     178 mul.wide rd3 (r1) ready 198
 *    30 @p1 bra                       198 add.s64 rd4       ready 218
 *    32 mul r3           ready 52     218 st [rd4], r3      acked 568
 *    52 mul r3           ready 72     220 ret
 *    72 mul r3           ready 92
 *    92 mul r3           ready 112
 *
 * The warp is done when its store is acknowledged: 568 cycles. Scheduler
 * 0: 28 cycles issuing; waits 2..14, 18..30 (dependency, 12 each), 34..52,
 * 54..72, 74..92 (18 each), 180..198, 200..218 (18 each): 114 dependency;
 * 96..176 on the constant cache: 80 l1; 222..568 for the acknowledgement:
 * 346 l2. Scheduler 1 has no warp: 568 idle. The stack is their mean.
 */
static void test_one_warp_timeline(void **st)
{
	(void)st;
	struct weft_model_result r;
	trace_ifelse(1, 32, st_path("uni.wtr"));
	st_run(st_path("uni.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
	const struct weft_launch_result *l = &r.launches[0];
	assert_true(l->cycles == 568);
	assert_true(fabs(st_cpi(l, "issue") - 14) < 1e-9);
	assert_true(fabs(st_cpi(l, "dependency") - 57) < 1e-9);
	assert_true(fabs(st_cpi(l, "l1") - 40) < 1e-9);
	assert_true(fabs(st_cpi(l, "l2") - 173) < 1e-9);
	assert_true(fabs(st_cpi(l, "idle") - 284) < 1e-9);
	assert_true(fabs(weft_cpi_total(&l->cpi) - l->cycles) < 1e-9);
	assert_string_equal(l->limiter, "idle");
	/* the totals carry the same stack */
	assert_true(fabs(weft_cpi_total(&r.cpi) - r.cycles) < 1e-9);
	weft_model_result_free(&r);

	/* loose round robin changes nothing for one warp; an L2 twice as far
	 * adds 350 to the acknowledgement */
	const char *sets[] = { "core.scheduler=lrr", "core.l2_latency=700" };
	st_run(st_path("uni.wtr"), "configs/fermi-sm.ini", sets, 1, &r);
	assert_true(r.launches[0].cycles == 568);
	weft_model_result_free(&r);
	st_run(st_path("uni.wtr"), "configs/fermi-sm.ini", sets + 1, 1, &r);
	assert_true(r.launches[0].cycles == 568 + 350);
	weft_model_result_free(&r);
}

/* Tesla-like SM: 4 rows per warp instruction; without forwarding each
 * instruction of a warp waits for the previous one's writeback (7 cycles:
 * 4 rows + 4 stages - 1), so one warp takes 13 x 7 + 7 = 98 cycles (its
 * 14 instructions issue 7 apart, the last completes 7 later) against 14 x
 * 4 = 56 of issue; two warps fill the pipeline under round robin: each
 * pair of instructions takes 8 cycles (the second warp is ready 3 cycles
 * before its turn), so the second warp's last issues at 13 x 8 + 4 = 108
 * and completes at 115. */
static void test_tesla_rows(void **st)
{
	(void)st;
	struct weft_model_result r;
	trace_ifelse(1, 32, st_path("t1.wtr"));
	st_run(st_path("t1.wtr"), "configs/tesla-sm.ini", NULL, 0, &r);
	const struct weft_launch_result *l = &r.launches[0];
	assert_true(st_stat(l, "bound_issue") == 14 * 4);
	assert_true(l->cycles == 98);
	assert_true(fabs(st_cpi(l, "issue") - 56) < 1e-9);
	/* the 3 cycles of every 7 the warp waits: 12 times on an ALU result, once
	 * on ld.param (the constant cache: l1), once on the store to the banked
	 * memory (shmem) */
	assert_true(fabs(st_cpi(l, "dependency") - 36) < 1e-9);
	assert_true(fabs(st_cpi(l, "l1") - 3) < 1e-9);
	assert_true(fabs(st_cpi(l, "shmem") - 3) < 1e-9);
	/* the store went to the banked memory (no caches): 32 words, 4 groups */
	assert_true(st_event(&r, l, "shmem_access") == 32);
	assert_true(st_event(&r, l, "l1_access") == 0);
	assert_true(st_stat(l, "shmem_passes_per_access") == 4);
	weft_model_result_free(&r);

	trace_ifelse(1, 64, st_path("t2.wtr"));
	st_run(st_path("t2.wtr"), "configs/tesla-sm.ini", NULL, 0, &r);
	l = &r.launches[0];
	assert_true(st_stat(l, "bound_issue") == 2 * 14 * 4);
	assert_true(l->cycles == 115);
	assert_string_equal(l->limiter, "issue");
	weft_model_result_free(&r);
}

/* 30 one-warp CTAs. On the 15-SM GTX480 each SM gets 2 (the first wave
 * deals CTAs round robin), one per scheduler, and all 30 warps run the
 * one-warp timeline above in step: every CTA stores to the same 128-byte
 * line (the kernel indexes by tid only), so the 30 stores reach that
 * line's L2 bank together and queue, 4 cycles each (128 B / 64 B per
 * 700 MHz L2 cycle): the last is acknowledged 29 x 4 = 116 cycles late.
 * The line is written back to DRAM once. */
static void test_multi_sm(void **st)
{
	(void)st;
	struct weft_model_result r;
	trace_ifelse_grid(1, 30, 32, st_path("g30.wtr"));
	st_run(st_path("g30.wtr"), "configs/gtx480.ini", NULL, 0, &r);
	const struct weft_launch_result *l = &r.launches[0];
	assert_int_equal(l->thread_insts, 30 * 448);
	assert_true(st_stat(l, "bound_issue") == 28); /* 30 x 14 x 2 over 30 schedulers */
	assert_true(l->cycles == 568 + 29 * 4);
	assert_true(st_cpi(l, "l2_queue") > 0);
	assert_true(st_stat(l, "dram_bytes") == 128);
	assert_true(st_event(&r, l, "l1_access") == 30);
	assert_true(st_event(&r, l, "l2_access") == 30);
	assert_true(st_event(&r, l, "noc_flit") == 30 * 5);
	weft_model_result_free(&r);

	/* one SM holds 8 of them at a time (max_ctas): 4 waves */
	st_run(st_path("g30.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
	l = &r.launches[0];
	assert_true(st_stat(l, "bound_issue") == 15 * 28);
	assert_true(st_stat(l, "resident_ctas") == 8);
	assert_true(l->cycles > 4 * 568 && l->cycles < 4 * 568 + 400);
	weft_model_result_free(&r);

	/* every 2nd CTA: counts, cycles and the stack are scaled by 30 / 15 */
	struct weft_cta_sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.kind = WEFT_SAMPLE_EVERY;
	smp.every = 2;
	st_run_sample(st_path("g30.wtr"), "configs/gtx480.ini", NULL, 0, &smp, &r);
	l = &r.launches[0];
	assert_true(st_stat(l, "ctas_read") == 15);
	assert_int_equal(l->thread_insts, 30 * 448);
	assert_true(st_event(&r, l, "simt_warp_fetch_decode") == 30 * 14);
	assert_true(fabs(weft_cpi_total(&l->cpi) - l->cycles) < 1e-9 * l->cycles);
	weft_model_result_free(&r);
}

/* A sample's cycles (simt.c sampled_cycles): hotspot at default size,
 * fermi-sm, 144 CTAs of 4 resident. With 3R CTAs or more read, the
 * sample's own cycles plus the CTAs not read at its steady pace are
 * nearer the full replay's than its cycles scaled by N / n, which count
 * its start and drain N / n times (measured: every 3rd CTA 230249
 * against 232194, every 4th 232056 against 233968, the full replay
 * 228652); the CPI stack adds up to them. With fewer, N / n. */
static void test_sample_steady_pace(void **st)
{
	(void)st;
	const char *tp = st_path("hotspot_pace.wtr");
	st_trace_workload("hotspot", WEFT_SIZE_DEFAULT, tp);
	struct weft_model_result r;
	st_run(tp, "configs/fermi-sm.ini", NULL, 0, &r);
	const struct weft_launch_result *l = &r.launches[0];
	assert_true(st_stat(l, "resident_ctas") == 4);
	assert_true(st_stat(l, "ctas_read") == 144);
	double full = l->cycles;
	weft_model_result_free(&r);
	struct weft_cta_sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.kind = WEFT_SAMPLE_EVERY;
	for (uint32_t k = 3; k <= 4; k++) {
		smp.every = k;
		st_run_sample(tp, "configs/fermi-sm.ini", NULL, 0, &smp, &r);
		l = &r.launches[0];
		double n = st_stat(l, "ctas_read"), own = st_stat(l, "cycles_read");
		assert_true(n == 144 / k);
		assert_true(own > 0 && own < full);
		double scaled = own * 144 / n;
		assert_true(fabs(l->cycles - full) < fabs(scaled - full));
		assert_true(fabs(weft_cpi_total(&l->cpi) - l->cycles) < 1e-9 * l->cycles);
		weft_model_result_free(&r);
	}
	/* 9 CTAs read, fewer than 3 x 4: N / n */
	smp.every = 16;
	st_run_sample(tp, "configs/fermi-sm.ini", NULL, 0, &smp, &r);
	l = &r.launches[0];
	assert_true(st_stat(l, "ctas_read") == 9);
	assert_true(fabs(l->cycles - st_stat(l, "cycles_read") * 144 / 9) < 1e-9 * l->cycles);
	weft_model_result_free(&r);
	unlink(tp);
}

/* One load per lane at a stride of `stride` words. */
static const char *strided_ptx =
	PTX_HEAD
	".visible .entry strided(.param .u64 p_in, .param .u32 p_stride)\n{\n"
	"  .reg .b32 %r<6>;\n  .reg .b64 %rd<5>;\n"
	"  mov.u32 %r1, %tid.x;\n"
	"  ld.param.u32 %r2, [p_stride];\n"
	"  mul.lo.s32 %r3, %r1, %r2;\n"
	"  ld.param.u64 %rd1, [p_in];\n"
	"  cvta.to.global.u64 %rd2, %rd1;\n"
	"  mul.wide.u32 %rd3, %r3, 4;\n"
	"  add.s64 %rd4, %rd2, %rd3;\n"
	"  ld.global.u32 %r4, [%rd4];\n"
	"  ret;\n}\n";

static void test_coalescing_e2e(void **st)
{
	(void)st;
	const uint32_t strides[] = { 1, 2, 32 }, tx[] = { 1, 2, 32 };
	for (int i = 0; i < 3; i++) {
		struct st_kernel k;
		st_kernel_open(&k, strided_ptx, st_path("co.wtr"));
		uint64_t in = st_kernel_alloc(&k, 32 * 32 * 4);
		uint32_t s = strides[i];
		struct weft_arg args[] = { WEFT_ARG(in), WEFT_ARG(s) };
		st_kernel_launch(&k, "strided", 1, 32, args, 2);
		st_kernel_close(&k);
		struct weft_model_result r;
		st_run(st_path("co.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
		const struct weft_launch_result *l = &r.launches[0];
		assert_true(st_event(&r, l, "l1_access") == tx[i]);
		assert_true(st_event(&r, l, "l2_access") == tx[i]);       /* cold L1: all miss */
		assert_true(st_event(&r, l, "dram_access") == tx[i] * 4); /* 128 B lines, 32 B units */
		/* the LD/ST unit takes one pass (2 cycles) per transaction */
		assert_true(st_stat(l, "bound_ldst") == 2.0 * (2 + tx[i])); /* + 2 ld.param */
		/* a DRAM round trip: dram_latency + pipeline_latency, plus the
		 * passes before the last transaction and any channel queueing */
		assert_true(st_stat(l, "load_latency_avg") >= 562 + 2.0 * (tx[i] - 1));
		assert_true(st_stat(l, "load_latency_avg") < 562 + 2.0 * (tx[i] - 1) + 40);
		weft_model_result_free(&r);
	}
}

/* One shared-memory load per lane at a stride of `stride` words. */
static const char *shared_ptx =
	PTX_HEAD
	".visible .entry shstride(.param .u32 p_stride)\n{\n"
	"  .shared .align 4 .b8 buf[8192];\n"
	"  .reg .b32 %r<8>;\n"
	"  mov.u32 %r1, %tid.x;\n"
	"  ld.param.u32 %r2, [p_stride];\n"
	"  mul.lo.s32 %r3, %r1, %r2;\n"
	"  shl.b32 %r4, %r3, 2;\n"
	"  mov.u32 %r5, buf;\n"
	"  add.s32 %r6, %r5, %r4;\n"
	"  ld.shared.u32 %r7, [%r6];\n"
	"  ret;\n}\n";

static void test_banks_e2e(void **st)
{
	(void)st;
	const uint32_t strides[] = { 0, 1, 2, 32 }, cyc[] = { 1, 1, 2, 32 };
	for (int i = 0; i < 4; i++) {
		struct st_kernel k;
		st_kernel_open(&k, shared_ptx, st_path("sh.wtr"));
		uint32_t s = strides[i];
		struct weft_arg args[] = { WEFT_ARG(s) };
		st_kernel_launch(&k, "shstride", 1, 32, args, 1);
		st_kernel_close(&k);
		struct weft_model_result r;
		st_run(st_path("sh.wtr"), "configs/fermi-sm.ini", NULL, 0, &r);
		const struct weft_launch_result *l = &r.launches[0];
		assert_true(st_stat(l, "shmem_passes_per_access") == cyc[i]);
		assert_true(st_stat(l, "bound_ldst") == 2.0 * (1 + cyc[i])); /* + ld.param */
		/* conflicts beyond the first pass delay the load: bank_conflict */
		assert_true((st_cpi(l, "bank_conflict") > 0) == (cyc[i] > 1));
		assert_true(st_event(&r, l, "shmem_access") == 32);
		assert_true(st_event(&r, l, "l1_access") == 0);
		weft_model_result_free(&r);
	}
}

static int teardown(void **st)
{
	(void)st;
	const char *names[] = { "div.wtr", "uni.wtr", "t1.wtr", "t2.wtr", "co.wtr", "sh.wtr", "g30.wtr" };
	st_tmp_done(names, 7);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coalesce),
		cmocka_unit_test(test_bank_conflicts),
		cmocka_unit_test(test_occupancy),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_divergence_cost),
		cmocka_unit_test(test_one_warp_timeline),
		cmocka_unit_test(test_tesla_rows),
		cmocka_unit_test(test_multi_sm),
		cmocka_unit_test(test_sample_steady_pace),
		cmocka_unit_test(test_coalescing_e2e),
		cmocka_unit_test(test_banks_e2e),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
