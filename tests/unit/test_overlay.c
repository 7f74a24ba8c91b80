/*
 * test_overlay.c - the GPU-like FPGA overlay model (models/overlay/) on
 * hand-written PTX kernels traced by the emulator: how each PTX
 * instruction maps onto the machine and what it refuses; the issue
 * schedule with one batch (ALU instructions 64 cycles apart), with enough
 * batches to cover the pipeline and with too few; a TEX round trip's
 * latency with fewer and with more than 32 requests outstanding; the
 * link's bandwidth limiting a TEX stream (8-bit against 16-bit); stores
 * over the link; the cost of full predication (both sides of a branch,
 * loops until the last thread leaves); batches across CTA boundaries; the
 * register file and its block RAMs; and, on shader-style workloads, that
 * the utilisation breakdown sums to the cycles and that a sweep read once
 * gives, bit for bit, what each point gives alone. Every expected number
 * is derived by hand in the comment beside it (configs/overlay-ht8.ini:
 * 100 MHz, 305 ns = 30.5 cycles, an 8-bit link at 400 MHz DDR = 8 B per
 * cycle: a read request (8 B) and a 4-byte response (4 + 4 B) take 1
 * cycle each; a period is 4 cycles).
 */
#include <math.h>

#include "simt_testutil.h"

#include "test_analysis_util.h"
#include "models/overlay/overlay.h"

extern const struct weft_model weft_model_overlay;

#define HEAD ".version 7.0\n.target sm_50\n.address_size 64\n"
#define HT8 "configs/overlay-ht8.ini"
#define HT16 "configs/overlay-ht16.ini"

/* ---- helpers ---- */

/* Traces kernel `name` of ptx over grid x block threads, with one pointer
 * argument to 4 KiB of zeroed device memory when with_ptr. */
static void trace_kernel(const char *ptx, const char *name, uint32_t grid, uint32_t block, int with_ptr,
			 const char *path)
{
	struct st_kernel k;
	st_kernel_open(&k, ptx, path);
	uint64_t d = 0;
	if (with_ptr)
		d = st_kernel_alloc(&k, 4096);
	struct weft_arg args[] = { WEFT_ARG(d) };
	st_kernel_launch(&k, name, grid, block, args, with_ptr ? 1 : 0);
	st_kernel_close(&k);
}

/* The model on a trace with the config's keys plus sets. */
static void run(const char *path, const char *cfg, const char *const *sets, uint32_t nsets,
		struct weft_model_result *r)
{
	st_run(path, cfg, sets, nsets, r);
	assert_int_equal(r->nlaunches, 1);
}

/* run() with --explain: the launch's explanation text. */
static void run_explain(const char *path, const char *cfgpath, const char *const *sets, uint32_t nsets,
			struct weft_model_result *r)
{
	struct weft_config cfg;
	struct weft_error err;
	struct weft_trace *t;
	st_check(weft_config_load(cfgpath, sets, nsets, &cfg, &err), &err, "config");
	cfg.explain = 1;
	st_check(weft_trace_open(path, &t, &err), &err, "open");
	st_check(weft_model_run(&weft_model_overlay, &cfg, t, NULL, r, &err), &err, "run");
	assert_int_equal(r->nlaunches, 1);
	assert_non_null(r->launches[0].explain);
	weft_trace_close(t);
	weft_config_free(&cfg);
}

static double cpi_sum(const struct weft_launch_result *l)
{
	double s = 0;
	for (uint32_t i = 0; i < l->cpi.n; i++)
		s += l->cpi.item[i].cycles;
	return s;
}

/* ---- mapping ---- */

static const char map_ptx[] = HEAD
	".visible .entry mk(.param .u64 p)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<4>; .reg .f32 %f<6>; .reg .b64 %rd<4>;\n"
	" ld.param.u64 %rd1, [p];\n"           /* 0 const (folded) */
	" mov.u32 %r1, %tid.x;\n"              /* 1 alu */
	" mul.wide.u32 %rd2, %r1, 16;\n"       /* 2 alu */
	" add.s64 %rd3, %rd1, %rd2;\n"         /* 3 alu */
	" ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n" /* 4 tex: 1 period, 16 B */
	" fma.rn.f32 %f5, %f1, %f2, %f3;\n"    /* 5 alu, waits on %f1..%f3 */
	" setp.gt.f32 %p1, %f5, 0f00000000;\n" /* 6 alu */
	" @%p1 bra DONE;\n"                    /* 7 control */
	" st.global.f32 [%rd3], %f5;\n"        /* 8 store: 2 periods, 4 B */
	" atom.global.add.f32 %f5, [%rd1], %f4;\n" /* 9 atomic: 2 periods, waits on %f4 and %f5 */
	"DONE:\n"
	" ret;\n"                              /* 10 control */
	"}\n";

static void test_mapping(void **state)
{
	(void)state;
	struct weft_program *p = an_program(map_ptx, "mk");
	assert_non_null(p);
	struct ov_prog op;
	struct weft_error err;
	assert_int_equal(weft_overlay_prog_build(p, &op, &err), 0);
	static const uint8_t kind[] = { OV_K_CONST, OV_K_ALU, OV_K_ALU, OV_K_ALU, OV_K_TEX, OV_K_ALU,
					OV_K_ALU, OV_K_CONTROL, OV_K_STORE, OV_K_ATOMIC, OV_K_CONTROL };
	assert_true(p->ninsts >= sizeof(kind));
	for (uint32_t pc = 0; pc < sizeof(kind); pc++)
		assert_int_equal(op.pc[pc].kind, kind[pc]);
	assert_int_equal(op.kinds[OV_K_ALU], 5);
	assert_int_equal(op.pc[4].slots, 1);
	assert_int_equal(op.pc[4].resp_dw, 4);    /* a float4: 16 B back per thread */
	assert_int_equal(op.pc[8].slots, 2);      /* address and value */
	assert_int_equal(op.pc[8].req_dw, 1);
	assert_int_equal(op.pc[9].slots, 2);
	assert_int_equal(op.pc[9].req_dw, 1);     /* the operand out */
	assert_int_equal(op.pc[9].resp_dw, 1);    /* the old value back */
	/* semaphores: %f1..%f4 from the TEX, %f5 from the atomic */
	assert_int_equal(op.nsemregs, 5);
	assert_int_equal(op.pc[5].nsem, 4);       /* fma reads %f1 %f2 %f3, writes %f5 (as the atomic) */
	assert_int_equal(op.pc[6].nsem, 1);       /* setp reads %f5 (the atomic writes it) */
	assert_int_equal(op.pc[3].nsem, 0);
	assert_int_equal(op.pc[9].nsem, 2);       /* reads %f4, writes %f5 */
	weft_overlay_prog_free(&op);
	weft_program_free(p);
}

static void refused(const char *ptx, const char *kernel, const char *phrase)
{
	struct weft_program *p = an_program(ptx, kernel);
	assert_non_null(p);
	struct ov_prog op;
	struct weft_error err;
	assert_int_equal(weft_overlay_prog_build(p, &op, &err), WEFT_ERR_INPUT);
	if (!strstr(err.message, phrase) || !strstr(err.message, "shader-style")) {
		fprintf(stderr, "message lacks \"%s\": %s\n", phrase, err.message);
		fail();
	}
	weft_program_free(p);
}

static void test_refusals(void **state)
{
	(void)state;
	refused(HEAD ".visible .entry b()\n{\n bar.sync 0;\n ret;\n}\n", "b", "a CTA barrier");
	refused(HEAD ".visible .entry s(.param .u32 x)\n{\n .reg .b32 %r<3>; .shared .align 4 .b8 buf[64];\n"
		" mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n st.shared.u32 [%r2], %r1;\n ret;\n}\n",
		"s", "shared memory");
	refused(HEAD ".visible .entry w()\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, %tid.x;\n"
		" shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n ret;\n}\n", "w", "warp-level");
}

/* ---- the issue schedule ---- */

/* 10 ALU instructions, each reading the one before (a chain; with no
 * hazard detection the rule is the same for independent ones). */
static const char alu_ptx[] = HEAD
	".visible .entry alu10()\n{\n .reg .b32 %r<12>;\n"
	" mov.u32 %r1, %tid.x;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n add.s32 %r4, %r3, 1;\n"
	" add.s32 %r5, %r4, 1;\n add.s32 %r6, %r5, 1;\n add.s32 %r7, %r6, 1;\n add.s32 %r8, %r7, 1;\n"
	" add.s32 %r9, %r8, 1;\n add.s32 %r10, %r9, 1;\n ret;\n}\n";

static void test_one_batch_schedule(void **state)
{
	(void)state;
	const char *path = st_path("alu10-1.wtr");
	trace_kernel(alu_ptx, "alu10", 1, 4, 0, path);
	struct weft_model_result r;
	const char *sets[] = { "overlay.batches=1" };
	run(path, HT8, sets, 1, &r);
	const struct weft_launch_result *l = &r.launches[0];
	/* one batch: its ALU instructions issue at periods 0, 16, ..., 144
	 * (each waits until the one before has left the 64-stage pipeline,
	 * 64 cycles = 16 periods); the last leaves at 576 + 64 = 640 */
	assert_true(l->cycles == 640);
	assert_true(st_cpi(l, "alu") == 10 * 4);
	assert_true(st_cpi(l, "inside_alu") == 150 * 4);
	assert_true(st_cpi(l, "semwait") == 0 && st_cpi(l, "not_alu") == 0);
	assert_true(fabs(st_stat(l, "alu_utilisation") - 100.0 * 10 / 160) < 1e-9);
	assert_string_equal(l->limiter, "inside_alu");
	weft_model_result_free(&r);
	/* 4 batches of the same stream, one after another: each frees when
	 * its last ALU instruction leaves the pipeline (period 160) and the
	 * next starts there; the 2nd to 4th take the 1st's recorded timing
	 * (overlay_solo.c), which must be the timing itself */
	path = st_path("alu10-1x16.wtr");
	trace_kernel(alu_ptx, "alu10", 1, 16, 0, path);
	run(path, HT8, sets, 1, &r);
	l = &r.launches[0];
	assert_true(l->cycles == 4 * 640);
	assert_true(st_cpi(l, "alu") == 4 * 10 * 4);
	assert_true(st_cpi(l, "inside_alu") == 4 * 150 * 4);
	weft_model_result_free(&r);
}

static void test_batches_hide_pipeline(void **state)
{
	(void)state;
	struct weft_model_result r;
	/* 16 batches: batch b issues its k-th ALU instruction at period
	 * 16 k + b, one issue every period (100% busy) for 160 periods; the
	 * last (batch 15, period 159) leaves the pipeline at 636 + 64 = 700 */
	const char *path = st_path("alu10-16.wtr");
	trace_kernel(alu_ptx, "alu10", 1, 64, 0, path);
	const char *s16[] = { "overlay.batches=16" };
	run(path, HT8, s16, 1, &r);
	assert_true(r.launches[0].cycles == 700);
	assert_true(st_cpi(&r.launches[0], "alu") == 160 * 4);
	assert_true(st_cpi(&r.launches[0], "inside_alu") == 15 * 4);
	assert_string_equal(r.launches[0].limiter, "alu");
	weft_model_result_free(&r);
	/* 8 batches cover half the pipeline: 8 issues per 16 periods; batch 7
	 * issues last at period 144 + 7 = 151 and leaves at 604 + 64 = 668 */
	path = st_path("alu10-8.wtr");
	trace_kernel(alu_ptx, "alu10", 1, 32, 0, path);
	const char *s8[] = { "overlay.batches=8" };
	run(path, HT8, s8, 1, &r);
	assert_true(r.launches[0].cycles == 668);
	assert_true(st_cpi(&r.launches[0], "alu") == 80 * 4);
	assert_true(st_cpi(&r.launches[0], "inside_alu") == 87 * 4);
	weft_model_result_free(&r);
	/* the same 32 threads on 32 contexts (8 batches) take no less; on 4
	 * contexts, 2 rounds of 4 batches: each round 10 issues per batch at
	 * 16-period spacing, the second round starts when the first frees */
	const char *s32[] = { "overlay.batches=32" };
	run(path, HT8, s32, 1, &r);
	assert_true(r.launches[0].cycles == 668);
	weft_model_result_free(&r);
	const char *s4[] = { "overlay.batches=4" };
	run(path, HT8, s4, 1, &r);
	/* round 1: batch b at 16k + b, last 147, leaves at 588 + 64 = 652 =
	 * period 163, when all 4 contexts free (batch 3 frees last; batches
	 * 0-2 free at 160-162 and start round 2 there): round 2 batch b at
	 * 160 + b + 16k, last 160 + 3 + 144 = 307, leaving at 1228 + 64 = 1292 */
	assert_true(r.launches[0].cycles == 1292);
	weft_model_result_free(&r);
}

/* ---- TEX ---- */

/* One load per thread (all the same word) and one ALU instruction using it. */
static const char ld1_ptx[] = HEAD
	".visible .entry ld1(.param .u64 p)\n{\n .reg .f32 %f<3>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [p];\n ld.global.f32 %f1, [%rd1];\n add.f32 %f2, %f1, %f1;\n ret;\n}\n";

static void test_tex_latency(void **state)
{
	(void)state;
	const char *path = st_path("ld1-1.wtr");
	trace_kernel(ld1_ptx, "ld1", 1, 4, 1, path);
	struct weft_model_result r;
	const char *s1[] = { "overlay.batches=1" };
	run(path, HT8, s1, 1, &r);
	const struct weft_launch_result *l = &r.launches[0];
	/* period 0: no ALU instruction is ready (not_alu); the TEX slot at
	 * cycle 3 sends 4 requests: request j leaves at 4 + j, arrives 30.5
	 * cycles later and its response takes cycle 34.5 + j .. 35.5 + j; the
	 * last result is written at 38.5, so the add issues at period 10
	 * (cycle 40; periods 1-9 semwait) and leaves the pipeline at 104
	 * (periods 11-25 inside_alu) */
	assert_true(l->cycles == 104);
	assert_true(st_cpi(l, "not_alu") == 1 * 4);
	assert_true(st_cpi(l, "semwait") == 9 * 4);
	assert_true(st_cpi(l, "alu") == 1 * 4);
	assert_true(st_cpi(l, "inside_alu") == 15 * 4);
	assert_true(st_stat(l, "tex_requests") == 4);
	/* request j: issued at 3, done at 35.5 + j: mean latency 34 */
	assert_true(fabs(st_stat(l, "tex_latency_avg") - 34.0) < 1e-9);
	assert_true(fabs(st_stat(l, "tex_latency_unloaded") - 32.5) < 1e-9);
	weft_model_result_free(&r);
}

static void test_tex_outstanding(void **state)
{
	(void)state;
	const char *path = st_path("ld1-9.wtr");
	trace_kernel(ld1_ptx, "ld1", 1, 36, 1, path);
	struct weft_model_result r;
	/* 9 batches, 36 requests. Batches 0-7 issue their TEX at periods 0-7
	 * (cycles 3, 7, ..., 31): the outgoing link is busy from 3 to 35,
	 * request j (0..31) done at 35.5 + j. Batch 8's TEX at period 8
	 * (cycle 35) finds 32 requests outstanding, and waits for 4 tags:
	 * the 4th oldest frees at 38.5, so it issues at period 9 (cycle 39)
	 * and its requests are done at 71.5 .. 74.5; its add issues at
	 * period 19 (cycle 76; batches 0-7's adds at 10-17) and leaves the
	 * pipeline at 140 */
	const char *s32[] = { "overlay.batches=9" };
	run(path, HT8, s32, 1, &r);
	assert_true(r.launches[0].cycles == 140);
	assert_true(st_stat(&r.launches[0], "tex_outstanding_peak") == 32);
	weft_model_result_free(&r);
	/* with 64 tags, batch 8 issues at period 8 (cycle 35): requests
	 * leave at 36 .. 39, the responses queue behind the first 32 (in use
	 * until 66.5) and are done at 67.5 .. 70.5; the add issues at period
	 * 18 (cycle 72), leaves at 136 */
	const char *s64[] = { "overlay.batches=9", "tex.max_outstanding=64" };
	run(path, HT8, s64, 2, &r);
	assert_true(r.launches[0].cycles == 136);
	assert_true(st_stat(&r.launches[0], "tex_outstanding_peak") == 36);
	weft_model_result_free(&r);
	/* with 4 tags, every TEX waits for the previous one's 4 requests:
	 * batch b's requests are done at 38.5 + 36 b .. ; one batch at a time */
	const char *s4[] = { "overlay.batches=9", "tex.max_outstanding=4" };
	run(path, HT8, s4, 2, &r);
	assert_true(r.launches[0].cycles > 9 * 32);
	assert_true(st_stat(&r.launches[0], "tex_outstanding_peak") == 4);
	assert_true(st_cpi(&r.launches[0], "semwait") > st_cpi(&r.launches[0], "alu"));
	weft_model_result_free(&r);
}

/* 8 independent float2 loads per thread, then one add. */
static const char ld8_ptx[] = HEAD
	".visible .entry ld8(.param .u64 p)\n{\n .reg .f32 %f<20>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [p];\n"
	" ld.global.v2.f32 {%f1, %f2}, [%rd1];\n ld.global.v2.f32 {%f3, %f4}, [%rd1+8];\n"
	" ld.global.v2.f32 {%f5, %f6}, [%rd1+16];\n ld.global.v2.f32 {%f7, %f8}, [%rd1+24];\n"
	" ld.global.v2.f32 {%f9, %f10}, [%rd1+32];\n ld.global.v2.f32 {%f11, %f12}, [%rd1+40];\n"
	" ld.global.v2.f32 {%f13, %f14}, [%rd1+48];\n ld.global.v2.f32 {%f15, %f16}, [%rd1+56];\n"
	" add.f32 %f17, %f15, %f16;\n ret;\n}\n";

static void test_link_bandwidth(void **state)
{
	(void)state;
	const char *path = st_path("ld8.wtr");
	trace_kernel(ld8_ptx, "ld8", 1, 64, 1, path);
	struct weft_model_result r8, r16;
	const char *sets[] = { "overlay.batches=16" };
	run(path, HT8, sets, 1, &r8);
	run(path, HT16, sets, 1, &r16);
	const struct weft_launch_result *a = &r8.launches[0], *b = &r16.launches[0];
	/* 16 batches x 8 TEX x 4 threads = 512 responses of 4 + 8 B: on the
	 * 8-bit link (8 B per cycle) 1.5 cycles each, 768 cycles, more than
	 * the TEX slots need (one TEX of 4 requests per period: 512 cycles).
	 * The first response starts at 3 + 1 + 30.5 = 34.5 and the link then
	 * never idles (each new request arrives 31.5 cycles after it is sent,
	 * behind more than 31 of queued responses): the last ends at 802.5,
	 * its batch's add issues at 804 and leaves the pipeline at 868 */
	assert_true(st_stat(a, "tex_requests") == 512);
	assert_true(st_stat(a, "link_in_bytes") == 512 * 12);
	assert_true(a->cycles == 868);
	assert_true(fabs(st_stat(a, "link_in_utilisation") - 100.0 * 768 / 868) < 1e-9);
	/* the 16-bit link carries a response in 0.75 cycles: the TEX slots
	 * (the last TEX no earlier than period 127, cycle 511: done after 511
	 * + 2 + 30.5 + 0.75, then the add's 64) and the tags limit instead,
	 * well under the 8-bit link's time */
	assert_true(b->cycles >= 608 && b->cycles < 0.8 * a->cycles);
	assert_true(st_stat(b, "link_in_utilisation") < 60);
	assert_string_equal(a->limiter, "not_alu");
	weft_model_result_free(&r8);
	weft_model_result_free(&r16);
	/* --explain names the limiter on the memory side: the 8-bit link (busy
	 * 88% of the launch), not the 16-bit one */
	run_explain(path, HT8, sets, 1, &r8);
	run_explain(path, HT16, sets, 1, &r16);
	assert_non_null(strstr(r8.launches[0].explain, "regime: memory instructions (not_alu)"));
	assert_non_null(strstr(r8.launches[0].explain, "over the 8-bit link"));
	assert_non_null(strstr(r8.launches[0].explain, ": the link limits"));
	assert_non_null(strstr(r16.launches[0].explain, "over the 16-bit link"));
	assert_null(strstr(r16.launches[0].explain, "the link limits"));
	weft_model_result_free(&r8);
	weft_model_result_free(&r16);
}

/* One ALU result stored by every thread. */
static const char st_ptx[] = HEAD
	".visible .entry st1(.param .u64 p)\n{\n .reg .f32 %f<2>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [p];\n mov.f32 %f1, 0f3F800000;\n st.global.f32 [%rd1], %f1;\n ret;\n}\n";

static void test_store(void **state)
{
	(void)state;
	const char *path = st_path("st1.wtr");
	trace_kernel(st_ptx, "st1", 1, 4, 1, path);
	struct weft_model_result r;
	const char *s1[] = { "overlay.batches=1" };
	run(path, HT8, s1, 1, &r);
	const struct weft_launch_result *l = &r.launches[0];
	/* the mov issues at period 0; the store reads %f1, which the mov
	 * writes: it waits until the mov has left the pipeline (cycle 64),
	 * then issues in the TEX slot of period 16 (cycle 67): 4 write
	 * packets of 8 + 4 B, 1.5 cycles each, on the link until 73. The
	 * batch frees at period 17; the launch ends when the last packet is
	 * sent, period 19 (cycle 76). Periods 1-18 have no ALU instruction
	 * to issue: not_alu. */
	assert_true(l->cycles == 76);
	assert_true(st_cpi(l, "alu") == 4);
	assert_true(st_cpi(l, "not_alu") == 18 * 4);
	assert_true(st_stat(l, "store_insts") == 1);
	assert_true(st_stat(l, "link_out_bytes") == 4 * 12);
	weft_model_result_free(&r);
	/* 3 batches on one context: batch 2 starts at period 17 (cycle 68)
	 * with the link busy 5 more cycles (its writes end at 73); its store
	 * issues at period 33 (cycle 135, the link free), writes until 141,
	 * and it frees at period 34 (cycle 136): batch 3 finds the link busy 5
	 * more cycles too, so it takes batch 2's recorded timing: store at
	 * cycle 203, writes until 209, launch end at period 53 (cycle 212) */
	path = st_path("st1-12.wtr");
	trace_kernel(st_ptx, "st1", 1, 12, 1, path);
	run(path, HT8, s1, 1, &r);
	l = &r.launches[0];
	assert_true(l->cycles == 212);
	assert_true(st_cpi(l, "alu") == 3 * 4);
	assert_true(st_cpi(l, "not_alu") == (53 - 3) * 4);
	assert_true(st_stat(l, "link_out_bytes") == 12 * 12);
	weft_model_result_free(&r);
}

/* ---- predication ---- */

/* threads with tid < split take one side, the others the other; then a
 * loop that runs tid + 1 times */
static const char pred_ptx[] = HEAD
	".visible .entry pk(.param .u64 p)\n{\n .reg .pred %p<3>; .reg .b32 %r<12>;\n"
	" mov.u32 %r1, %tid.x;\n"            /* alu */
	" and.b32 %r2, %r1, 1;\n"            /* alu */
	" setp.eq.s32 %p1, %r2, 0;\n"        /* alu */
	" @%p1 bra EVEN;\n"
	" add.s32 %r3, %r1, 1;\n add.s32 %r3, %r3, 1;\n add.s32 %r3, %r3, 1;\n add.s32 %r3, %r3, 1;\n"
	" bra.uni JOIN;\n"
	"EVEN:\n"
	" add.s32 %r3, %r1, 2;\n add.s32 %r3, %r3, 2;\n add.s32 %r3, %r3, 2;\n add.s32 %r3, %r3, 2;\n"
	"JOIN:\n"
	" mov.u32 %r4, 0;\n"                 /* alu */
	"LOOP:\n"
	" add.s32 %r4, %r4, 1;\n"            /* alu */
	" setp.le.u32 %p2, %r4, %r1;\n"      /* alu */
	" @%p2 bra LOOP;\n"
	" ret;\n}\n";

static void test_predication(void **state)
{
	(void)state;
	const char *path = st_path("pred.wtr");
	trace_kernel(pred_ptx, "pk", 1, 4, 1, path);
	struct weft_model_result r;
	const char *s1[] = { "overlay.batches=1" };
	run(path, HT8, s1, 1, &r);
	const struct weft_launch_result *l = &r.launches[0];
	/* every thread runs every instruction: both sides of the branch (8
	 * adds, 2 threads each do real work), and the loop 4 times (thread t
	 * iterates t + 1 times): 3 + 8 + 1 + 4 x 2 = 20 ALU batch
	 * instructions; threads executing: 3 x 4 + 8 x 2 + 4 + 2 x (4 + 3 +
	 * 2 + 1) = 52 of 80 slots */
	assert_true(st_stat(l, "alu_insts") == 20);
	assert_true(st_stat(l, "alu_thread_insts") == 52);
	assert_true(fabs(st_stat(l, "alu_lane_efficiency") - 100.0 * 52 / 80) < 1e-9);
	/* one batch: 20 ALU instructions 16 periods apart, the last leaving
	 * the pipeline at 19 x 64 + 64 = 1280 */
	assert_true(l->cycles == 1280);
	weft_model_result_free(&r);
}

/* ---- CTAs ---- */

static void test_across_ctas(void **state)
{
	(void)state;
	/* batches do not stop at CTA boundaries: 2 CTAs of 4 threads on 2
	 * contexts run as one CTA of 8 threads does (both batches start at
	 * period 0: 20 ALU instructions in 2 interleaved chains) */
	const char *a = st_path("alu10-2x4.wtr"), *b = st_path("alu10-1x8.wtr");
	trace_kernel(alu_ptx, "alu10", 2, 4, 0, a);
	trace_kernel(alu_ptx, "alu10", 1, 8, 0, b);
	struct weft_model_result ra, rb;
	const char *s2[] = { "overlay.batches=2" };
	run(a, HT8, s2, 1, &ra);
	run(b, HT8, s2, 1, &rb);
	/* batch 1 issues at 16 k + 1: last at 145, leaves at 580 + 64 = 644 */
	assert_true(ra.launches[0].cycles == 644);
	assert_true(rb.launches[0].cycles == 644);
	assert_memory_equal(&ra.launches[0].cpi, &rb.launches[0].cpi, sizeof(ra.launches[0].cpi));
	weft_model_result_free(&ra);
	weft_model_result_free(&rb);
}

/* ---- shared streams ---- */

/* 16 threads, 4 groups: threads 0-5 run a guarded add (group 0 all 4
 * lanes, group 1 two, groups 2 and 3 none: the same records but for the
 * executing lanes), threads 0-7 branch past two adds (groups 2 and 3 run
 * them: the same stream). */
static const char share_ptx[] = HEAD
	".visible .entry sh()\n{\n .reg .pred %p<3>; .reg .b32 %r<6>;\n"
	" mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 6;\n @%p1 add.s32 %r2, %r1, 1;\n"
	" setp.lt.u32 %p2, %r1, 8;\n @%p2 bra DONE;\n add.s32 %r3, %r1, 2;\n add.s32 %r4, %r3, 2;\n"
	"DONE:\n ret;\n}\n";

static void test_shared_streams(void **state)
{
	(void)state;
	const char *path = st_path("share.wtr");
	trace_kernel(share_ptx, "sh", 1, 16, 0, path);
	struct weft_error err;
	struct weft_trace *t;
	st_check(weft_trace_open(path, &t, &err), &err, "open");
	const struct weft_program *p = weft_trace_launch(t, 0)->program;
	struct ov_prog op;
	struct weft_group_prog gp;
	struct weft_group_iter it;
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	st_check(weft_overlay_prog_build(p, &op, &err), &err, "prog");
	st_check(weft_group_prog_init(&gp, p, &err), &err, "group prog");
	st_check(weft_trace_read_cta(t, 0, 0, &c, &err), &err, "read");
	struct ov_cta *oc;
	st_check(weft_overlay_decode_cta(&op, &gp, &it, &c, 0, &oc, &err), &err, "decode");
	assert_int_equal(oc->ngroups, 4);
	const struct ov_span *g = oc->grp;
	/* groups 0 and 1: mov, setp, add, setp (4 ALU records; the branch is
	 * the sequencer's); groups 2 and 3 add the two adds */
	assert_true(g[0].n == 4 && g[1].n == 4 && g[2].n == 6 && g[3].n == 6);
	/* 0 and 1 differ in the add's executing lanes only: both stored */
	assert_true(g[0].off != g[1].off);
	assert_int_equal(OV_R_EXEC(oc->rec[g[0].off + 2]), 4);
	assert_int_equal(OV_R_EXEC(oc->rec[g[1].off + 2]), 2);
	assert_int_equal(OV_R_EXEC(oc->rec[g[2].off + 2]), 0);
	/* 3 is 2's stream, stored once */
	assert_true(g[3].off == g[2].off);
	assert_true(oc->nrec == 4 + 4 + 6);
	assert_true(oc->nlog == 4 + 4 + 6 + 6);
	/* every thread-level count is of all four groups */
	assert_true(oc->cnt.insts[OV_K_ALU] == 20);
	assert_true(oc->cnt.exec[OV_K_ALU] == 3 * 16 + 6 + 2 * 8); /* mov, setps; add; adds */
	weft_overlay_cta_ref(oc);
	weft_overlay_cta_unref(oc);
	weft_cta_trace_free(&c);
	weft_group_prog_free(&gp);
	weft_overlay_prog_free(&op);
	weft_trace_close(t);
}

/* ---- resources ---- */

static void test_regfile(void **state)
{
	(void)state;
	struct ov_regfile rf;
	/* the study's: 4 threads x 128 registers x 16 B = 8 KB per batch; 32
	 * batches = 256 KB = four 64 KB M-RAMs (one per thread lane) */
	weft_overlay_regfile(32, 128, &rf);
	assert_true(rf.bytes_per_batch == 8192 && rf.bytes == 262144);
	assert_int_equal(rf.mram, 4);
	assert_int_equal(rf.m4k, 512);   /* 4 lanes x 4 wide x 4096 / 128 deep */
	weft_overlay_regfile(64, 128, &rf);
	assert_int_equal(rf.mram, 8);    /* 8192 registers per lane: 2 M-RAMs each */
	/* 15 registers (the study's matmatmult): 960 B per batch; still one
	 * M-RAM per lane (480 of its 4096 words), or 16 x ceil(480 / 128) M4Ks */
	weft_overlay_regfile(32, 15, &rf);
	assert_true(rf.bytes_per_batch == 960);
	assert_int_equal(rf.mram, 4);
	assert_int_equal(rf.m4k, 64);
	struct ov_params pp;
	memset(&pp, 0, sizeof(pp));
	assert_int_equal(weft_overlay_regs(&pp, 27), 27);   /* 0: the kernel's */
	pp.regs_per_thread = 128;
	assert_int_equal(weft_overlay_regs(&pp, 27), 128);
}

/* ---- workloads: breakdown, sweeps ---- */

static void test_workload_sweep(void **state)
{
	(void)state;
	static const char *const wls[] = { "matmatmult", "sgemm_shader", "photon" };
	static const char *const pts[] = { "overlay.batches=1", "overlay.batches=2",
					   "overlay.batches=4", "overlay.batches=8",
					   "overlay.batches=16", "overlay.batches=32",
					   "overlay.batches=64" };
	for (size_t w = 0; w < sizeof(wls) / sizeof(wls[0]); w++) {
		char name[64];
		snprintf(name, sizeof(name), "%s.wtr", wls[w]);
		const char *path = st_path(name);
		st_trace_workload(wls[w], WEFT_SIZE_SMALL, path);
		struct weft_config cfgs[14];
		const struct weft_config *cp[14];
		struct weft_error err;
		uint32_t n = 0;
		for (int link = 0; link < 2; link++)
			for (size_t k = 0; k < 7; k++) {
				st_check(weft_config_load(link ? HT16 : HT8, &pts[k], 1, &cfgs[n], &err), &err,
					 pts[k]);
				cp[n] = &cfgs[n];
				n++;
			}
		struct weft_trace *t;
		st_check(weft_trace_open(path, &t, &err), &err, "open");
		struct weft_model_result many[14], one;
		uint32_t passes = 0;
		st_check(weft_model_run_many(&weft_model_overlay, cp, n, t, NULL, many, &passes, &err),
			 &err, "run_many");
		assert_int_equal(passes, 1);
		double prev = 0;
		for (uint32_t i = 0; i < n; i++) {
			st_check(weft_model_run(&weft_model_overlay, &cfgs[i], t, NULL, &one, &err), &err,
				 "run");
			/* the sweep read once is what each point gives alone */
			assert_true(memcmp(&many[i].cycles, &one.cycles, sizeof(double)) == 0);
			for (uint32_t l = 0; l < one.nlaunches; l++) {
				const struct weft_launch_result *x = &many[i].launches[l], *y = &one.launches[l];
				assert_memory_equal(&x->cpi, &y->cpi, sizeof(x->cpi));
				assert_int_equal(x->nstats, y->nstats);
				assert_memory_equal(x->stats, y->stats, x->nstats * sizeof(x->stats[0]));
				/* the breakdown sums to the cycles: alu + semwait +
				 * inside_alu + not_alu = 100% */
				assert_true(fabs(cpi_sum(x) - x->cycles) <= 1e-9 * x->cycles);
				assert_true(fabs(st_stat(x, "alu_utilisation") -
						 100.0 * st_cpi(x, "alu") / x->cycles) < 1e-9);
				/* every thread instruction of the trace is counted */
				assert_int_equal(x->thread_insts, weft_trace_launch(t, l)->thread_insts);
			}
			/* more batches never take longer by more than rounding of the
			 * round robin (checked loosely: within 1%) on one link */
			if (i % 7)
				assert_true(many[i].cycles <= prev * 1.01);
			prev = many[i].cycles;
			weft_model_result_free(&one);
			weft_model_result_free(&many[i]);
			weft_config_free(&cfgs[i]);
		}
		weft_trace_close(t);
		unlink(path);
	}
}

static void test_refused_workload(void **state)
{
	(void)state;
	/* matmul stages tiles in shared memory between barriers: refused */
	const char *path = st_path("matmul.wtr");
	st_trace_workload("matmul", WEFT_SIZE_SMALL, path);
	struct weft_config cfg;
	struct weft_error err;
	struct weft_trace *t;
	st_check(weft_config_load(HT8, NULL, 0, &cfg, &err), &err, "config");
	st_check(weft_trace_open(path, &t, &err), &err, "open");
	struct weft_model_result r;
	assert_int_equal(weft_model_run(&weft_model_overlay, &cfg, t, NULL, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "shader-style"));
	weft_trace_close(t);
	weft_config_free(&cfg);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_one_batch_schedule),
		cmocka_unit_test(test_batches_hide_pipeline),
		cmocka_unit_test(test_tex_latency),
		cmocka_unit_test(test_tex_outstanding),
		cmocka_unit_test(test_link_bandwidth),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_predication),
		cmocka_unit_test(test_across_ctas),
		cmocka_unit_test(test_shared_streams),
		cmocka_unit_test(test_regfile),
		cmocka_unit_test(test_workload_sweep),
		cmocka_unit_test(test_refused_workload),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	static const char *const names[] = { "alu10-1.wtr", "alu10-16.wtr", "alu10-8.wtr", "ld1-1.wtr",
					     "ld1-9.wtr", "ld8.wtr", "st1.wtr", "pred.wtr",
					     "alu10-2x4.wtr", "alu10-1x8.wtr", "share.wtr" };
	st_tmp_done(names, (int)(sizeof(names) / sizeof(names[0])));
	return rc;
}
