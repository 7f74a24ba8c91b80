/*
 * test_vt.c - the Maven-family tile model (models/vt/) on hand-written
 * kernels and hand-built thread paths: the hardware vector length from
 * registers per uT, stripmining a CTA, what the control processor hoists
 * (scalar, unit-stride, strided, uT accesses), the active uTs and
 * fragments of each PVFB policy and of vector-SIMD predication on a loop
 * with different trip counts, density-time elements, VRF bank conflicts,
 * the memory coalescer, MIMD interleaving, the configs the study's
 * tile names give, strips of the application vector across CTA
 * boundaries (and within them for kernels with barriers or shared
 * memory, or at a sample's gap), strips built ahead on a decoder thread, CTA-uniform values in such strips, and
 * the grid padding left out of the application vector. Every expected number is derived by hand in the
 * comment beside it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_analysis_util.h"
#include "models/vt/vt.h"

extern const struct weft_model weft_model_vt;

#define HEAD ".version 7.0\n.target sm_50\n.address_size 64\n"

/* A vt state for program p as begin_launch sets it up, from config text. */
static struct vt_state *mkstate(const char *cfgtext, const struct weft_program *p, uint32_t nthreads)
{
	struct weft_config cfg;
	struct weft_error err;
	if (weft_config_load_text(cfgtext, "t.ini", NULL, 0, &cfg, &err))
		fail_msg("%s", err.message);
	void *st = NULL;
	if (weft_model_vt.init(&cfg, &st, &err))
		fail_msg("%s", err.message);
	weft_config_free(&cfg);
	struct vt_state *s = st;
	if (weft_vt_prog_build(p, &s->vp, &err) || weft_group_prog_init(&s->gp, p, &err))
		fail_msg("%s", err.message);
	s->p = p;
	s->regs_per_ut = weft_vt_regs_per_ut(&s->pp, s->vp.live_words);
	s->hvl = weft_vt_hvl(&s->pp, s->regs_per_ut);
	s->launch_threads = nthreads;
	s->threads_per_cta = nthreads;
	return s;
}

/* Hand-built CTA: every thread follows path[t] (block numbers), with
 * naddr[t] addresses 0x1000 * (t + 1) + 4 * k. */
struct hcta {
	struct weft_cta_trace cta;
	struct weft_thread_trace th[128];
	uint32_t blocks[128][16];
	uint64_t addrs[128][8];
	uint8_t spaces[128][8];
};

static void hthread(struct hcta *h, uint32_t t, const uint32_t *path, uint32_t n, uint32_t naddr)
{
	struct weft_thread_trace *th = &h->th[t];
	memcpy(h->blocks[t], path, n * sizeof(*path));
	th->nblocks = n;
	th->blocks = h->blocks[t];
	for (uint32_t k = 0; k < naddr; k++) {
		h->addrs[t][k] = 0x1000ull * (t + 1) + 4 * k;
		h->spaces[t][k] = WEFT_SPACE_GLOBAL;
	}
	th->naddrs = naddr;
	th->addrs = h->addrs[t];
	th->spaces = h->spaces[t];
	if (t + 1 > h->cta.nthreads)
		h->cta.nthreads = t + 1;
	h->cta.threads = h->th;
}

static const char *const base_cfg = "[model]\nname = vt\n";

/* ---- vector length ---- */

static void test_hvl(void **state)
{
	(void)state;
	struct vt_params pp = { .lanes = 1, .regs = 256, .max_vlen = 32, .min_regs_per_ut = 4,
				.max_regs_per_ut = 32 };
	assert_int_equal(weft_vt_regs_per_ut(&pp, 10), 10);
	assert_int_equal(weft_vt_hvl(&pp, 10), 25);  /* 256 / 10 */
	assert_int_equal(weft_vt_regs_per_ut(&pp, 2), 4); /* at least 4 */
	assert_int_equal(weft_vt_hvl(&pp, 4), 32);   /* 64, capped at 32 */
	assert_int_equal(weft_vt_regs_per_ut(&pp, 40), 32); /* at most 32 */
	assert_int_equal(weft_vt_hvl(&pp, 32), 8);   /* 256 / 32 */
	pp.regs = 32;
	assert_int_equal(weft_vt_hvl(&pp, 32), 1);   /* r32: vlen 1..8 (TOCS Table I) */
	assert_int_equal(weft_vt_hvl(&pp, 4), 8);
	pp.lanes = 4;
	pp.regs = 256;
	assert_int_equal(weft_vt_hvl(&pp, 32), 32);  /* c1v4r256: 1024 / 32 */
}

/* ---- hoisting ---- */

static const char hoist_ptx[] = HEAD
	".visible .entry hk(.param .u64 a, .param .u64 b, .param .u32 n)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<10>; .reg .f32 %f<5>; .reg .b64 %rd<12>;\n"
	" ld.param.u64 %rd1, [a];\n"        /* 0 cp_load */
	" ld.param.u64 %rd2, [b];\n"        /* 1 cp_load */
	" ld.param.u32 %r1, [n];\n"         /* 2 cp_load */
	" mov.u32 %r2, %ctaid.x;\n"         /* 3 cp */
	" mov.u32 %r3, %ntid.x;\n"          /* 4 cp */
	" mov.u32 %r4, %tid.x;\n"           /* 5 ut: the mad (a uT value) reads it */
	" mad.lo.s32 %r5, %r2, %r3, %r4;\n" /* 6 ut: the compare reads it */
	" setp.ge.s32 %p1, %r5, %r1;\n"     /* 7 ut */
	" @%p1 bra DONE;\n"                 /* 8 ut_branch (the builder makes it @%p1 exit) */
	" cvta.to.global.u64 %rd3, %rd1;\n" /* 9 cp */
	" mul.wide.s32 %rd4, %r5, 4;\n"     /* 10 cp: affine, only addresses read it */
	" add.s64 %rd5, %rd3, %rd4;\n"      /* 11 cp */
	" ld.global.f32 %f1, [%rd5];\n"     /* 12 unit stride */
	" mul.wide.s32 %rd6, %r5, 8;\n"     /* 13 cp */
	" add.s64 %rd7, %rd3, %rd6;\n"      /* 14 cp */
	" ld.global.f32 %f2, [%rd7];\n"     /* 15 strided (8 B apart, 4 B each) */
	" cvt.rzi.s32.f32 %r6, %f1;\n"      /* 16 ut */
	" mul.wide.s32 %rd8, %r6, 4;\n"     /* 17 ut (varying) */
	" add.s64 %rd9, %rd3, %rd8;\n"      /* 18 ut */
	" ld.global.f32 %f3, [%rd9];\n"     /* 19 ut_mem (indexed) */
	" add.f32 %f4, %f2, %f3;\n"         /* 20 ut */
	" cvta.to.global.u64 %rd10, %rd2;\n"/* 21 cp */
	" add.s64 %rd11, %rd10, %rd4;\n"    /* 22 cp */
	" st.global.f32 [%rd11], %f4;\n"    /* 23 unit stride */
	"DONE:\n"
	" ret;\n"                           /* 24 cp */
	"}\n";                               /* 25: the exit block the program builder appends */

static void test_hoisting(void **state)
{
	(void)state;
	struct weft_program *p = an_program(hoist_ptx, "hk");
	assert_non_null(p);
	struct vt_prog vp;
	struct weft_error err;
	assert_int_equal(weft_vt_prog_build(p, &vp, &err), 0);
	static const uint8_t want[] = {
		VT_K_CP_LOAD, VT_K_CP_LOAD, VT_K_CP_LOAD, VT_K_CP, VT_K_CP, VT_K_UT, VT_K_UT, VT_K_UT,
		VT_K_UT_BRANCH, VT_K_CP, VT_K_CP, VT_K_CP, VT_K_VUNIT, VT_K_CP, VT_K_CP, VT_K_VSTRIDE,
		VT_K_UT, VT_K_UT, VT_K_UT, VT_K_UT_MEM, VT_K_UT, VT_K_CP, VT_K_CP, VT_K_VUNIT, VT_K_CP,
		VT_K_CP,
	};
	assert_int_equal(p->ninsts, sizeof(want));
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		if (vp.pc[pc].kind != want[pc])
			fail_msg("pc %u: kind %s, expected %s", pc, weft_vt_kind_names[vp.pc[pc].kind],
				 weft_vt_kind_names[want[pc]]);
	/* units: the float add is arithmetic, the int compare simple, the
	 * indexed load on the load unit, the store on the store unit */
	assert_int_equal(vp.pc[20].unit, VT_U_ARITH);
	assert_int_equal(vp.pc[7].unit, VT_U_INT);
	assert_int_equal(vp.pc[19].unit, VT_U_LOAD);
	assert_int_equal(vp.pc[23].unit, VT_U_STORE);
	/* the mad reads ctaid and ntid as CP scalars and tid from the VRF */
	assert_int_equal(vp.pc[6].sreads, 3);
	assert_int_equal(vp.pc[6].reads, 1);
	/* the add reads two loaded vector values */
	assert_int_equal(vp.pc[20].reads, 2);
	/* the mad's result is read by the next instruction (the compare) */
	assert_int_equal(vp.pc[6].dep_next, 1);
	assert_int_equal(vp.pc[3].dep_next, 0);
	weft_vt_prog_free(&vp);
	weft_program_free(p);
}

/* ---- loads every CTA repeats (MIMD: a line's first miss is the launch's) ---- */

/* backprop's delta[j], j = ctaid.y * ntid.x + tid.x + 1, beside loads
 * that differ between CTAs whatever the grid */
static const char once_ptx[] = HEAD
	".visible .entry ok(.param .u64 a)\n{\n"
	" .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .b64 %rd<10>;\n"
	" .shared .align 4 .b8 sm[1024];\n"
	" ld.param.u64 %rd1, [a];\n"        /* 0 param: every CTA */
	" cvta.to.global.u64 %rd2, %rd1;\n" /* 1 */
	" mov.u32 %r1, %ctaid.y;\n"         /* 2 */
	" mov.u32 %r2, %ntid.x;\n"          /* 3 */
	" mov.u32 %r3, %tid.x;\n"           /* 4 */
	" mad.lo.s32 %r4, %r1, %r2, %r3;\n" /* 5 */
	" mul.wide.s32 %rd3, %r4, 4;\n"     /* 6 */
	" add.s64 %rd4, %rd2, %rd3;\n"      /* 7 */
	" ld.global.f32 %f1, [%rd4+4];\n"   /* 8 delta[j]: every CTA when grid y is 1 */
	" mov.u32 %r5, %ctaid.x;\n"         /* 9 */
	" mad.lo.s32 %r6, %r5, %r2, %r3;\n" /* 10 */
	" mul.wide.s32 %rd5, %r6, 4;\n"     /* 11 */
	" add.s64 %rd6, %rd2, %rd5;\n"      /* 12 */
	" ld.global.f32 %f2, [%rd6];\n"     /* 13 a[ctaid.x * ntid.x + tid.x]: its CTA's own */
	" mul.wide.u32 %rd7, %r3, 4;\n"     /* 14 */
	" mov.u64 %rd8, sm;\n"              /* 15 */
	" add.s64 %rd9, %rd8, %rd7;\n"      /* 16 */
	" ld.shared.f32 %f3, [%rd9];\n"     /* 17 sm[tid.x]: each CTA's own memory */
	" ret;\n"
	"}\n";

static void test_launch_loads(void **state)
{
	(void)state;
	struct weft_program *p = an_program(once_ptx, "ok");
	assert_non_null(p);
	struct vt_prog vp;
	struct weft_error err;
	assert_int_equal(weft_vt_prog_build(p, &vp, &err), 0);
	/* none until a launch's grid is known */
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		assert_int_equal(vp.pc[pc].launch_load, 0);
	/* a 1-D grid: ctaid.y is 0, so delta[j] is the same in every CTA */
	const uint32_t row[3] = { 8, 1, 1 };
	assert_int_equal(weft_vt_prog_launch_loads(p, row, &vp, &err), 0);
	assert_int_equal(vp.pc[0].launch_load, 1);
	assert_int_equal(vp.pc[8].launch_load, 1);
	assert_int_equal(vp.pc[13].launch_load, 0);
	assert_int_equal(vp.pc[17].launch_load, 0);
	/* two CTAs along y: delta[j] moves with ctaid.y; a[] is now the same
	 * in every CTA (one CTA along x), shared memory still each CTA's */
	const uint32_t col[3] = { 1, 2, 1 };
	assert_int_equal(weft_vt_prog_launch_loads(p, col, &vp, &err), 0);
	assert_int_equal(vp.pc[0].launch_load, 1);
	assert_int_equal(vp.pc[8].launch_load, 0);
	assert_int_equal(vp.pc[13].launch_load, 1);
	assert_int_equal(vp.pc[17].launch_load, 0);
	/* what the compiled code hoists does not depend on the grid */
	assert_int_equal(vp.pc[8].kind, VT_K_VUNIT);
	weft_vt_prog_free(&vp);
	weft_program_free(p);
}

/* ---- a loop with per-thread trip counts: PVFB policies, predication ---- */

/* B0 [0..4] falls into B1 (the loop, [5..8], back edge @p bra), then
 * B2 [9..14]; B3 is the exit block the program builder appends (on no
 * path). Thread t loops 2t + 1 times, so the loop is divergent and
 * nothing in it is hoisted. */
static const char loop_ptx[] = HEAD
	".visible .entry lk(.param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
	" mov.u32 %r1, %tid.x;\n"
	" shl.b32 %r2, %r1, 1;\n"
	" add.s32 %r2, %r2, 1;\n"
	" mov.u32 %r3, 0;\n"
	" mov.u32 %r4, 0;\n"
	"LOOP:\n"
	" add.s32 %r4, %r4, %r3;\n"
	" add.s32 %r3, %r3, 1;\n"
	" setp.lt.s32 %p1, %r3, %r2;\n"
	" @%p1 bra LOOP;\n"
	" ld.param.u64 %rd1, [out];\n"
	" cvta.to.global.u64 %rd2, %rd1;\n"
	" mul.wide.u32 %rd3, %r1, 4;\n"
	" add.s64 %rd4, %rd2, %rd3;\n"
	" st.global.u32 [%rd4], %r4;\n"
	" ret;\n"
	"}\n";

static uint32_t count_ut(const struct vt_state *s, uint32_t block)
{
	const struct weft_block *b = &s->p->blocks[block];
	uint32_t n = 0;
	for (uint32_t pc = b->first; pc < b->first + b->count; pc++) {
		uint8_t k = s->vp.pc[pc].kind;
		n += k == VT_K_UT || k == VT_K_UT_MEM || k == VT_K_UT_BRANCH;
	}
	return n;
}

struct loop_run {
	uint64_t issued, active, fragments;
	uint32_t ut[3], all[3];
};

static void run_loop(const char *cfg, struct loop_run *r)
{
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	assert_int_equal(p->nblocks, 4);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	/* thread 0: one trip; thread 1: three trips; 2 addresses each
	 * (ld.param, st) */
	static const uint32_t p0[] = { 0, 1, 2 }, p1[] = { 0, 1, 1, 1, 2 };
	hthread(h, 0, p0, 3, 2);
	hthread(h, 1, p1, 5, 2);
	struct vt_state *s = mkstate(cfg, p, 2);
	assert_int_equal(s->hvl, 2);
	struct weft_error err;
	if (weft_vt_cta(s, &h->cta, &err))
		fail_msg("%s", err.message);
	r->issued = s->ls.ut_insts_issued;
	r->active = s->ls.ut_active;
	r->fragments = s->ls.fragments;
	for (uint32_t b = 0; b < 3; b++) {
		r->ut[b] = count_ut(s, b);
		r->all[b] = p->blocks[b].count;
	}
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

#define LOOP_CFG(pol) "[model]\nname = vt\n[tile]\nmax_vlen = 2\npvfb = " pol "\n"

static void test_pvfb_policies(void **state)
{
	(void)state;
	struct loop_run f, one, two, pred;
	run_loop(LOOP_CFG("fifo"), &f);
	run_loop(LOOP_CFG("1stack"), &one);
	run_loop(LOOP_CFG("2stack"), &two);
	run_loop("[model]\nname = vt\n[tile]\nmax_vlen = 2\npattern = vsimd\n", &pred);
	const uint32_t *u = one.ut, *a = one.all;
	/* 1-stack: B0 and the first B1 with both uTs (only their uT
	 * instructions go to the lanes); trips 2 and 3 of B1 are thread 1's
	 * fragment alone, where nothing can use the CP: every instruction
	 * is a uT instruction; thread 0 waits at B2 until thread 1 arrives
	 * and they merge: B2 once with both. */
	assert_int_equal(one.fragments, 5);
	assert_int_equal(one.issued, u[0] + u[1] + 2 * a[1] + u[2]);
	assert_int_equal(one.active, 2 * u[0] + 2 * u[1] + 2 * a[1] + 2 * u[2]);
	/* 2-stack: thread 1's backward branch waits on the next-iteration
	 * stack, so thread 0 runs B2 alone first (a partial fragment: all
	 * of B2's instructions are uT instructions); thread 1 then loops and
	 * runs B2 alone, the only live uT, so a whole vector again. */
	assert_int_equal(two.fragments, 6);
	assert_int_equal(two.issued, u[0] + u[1] + 2 * a[1] + a[2] + u[2]);
	assert_int_equal(two.active, 2 * u[0] + 2 * u[1] + 2 * a[1] + a[2] + u[2]);
	/* FIFO: no merging either; thread 0's B2 is queued first */
	assert_int_equal(f.fragments, 6);
	assert_int_equal(f.issued, two.issued);
	assert_int_equal(f.active, two.active);
	/* vector-SIMD predication: every block is issued for both uTs while
	 * any iterates (three B1s), B2 once; hoisted work stays on the CP */
	assert_int_equal(pred.issued, pred.ut[0] + 3 * pred.ut[1] + pred.ut[2]);
	assert_int_equal(pred.active, 2 * pred.issued);
	assert_int_equal(u[1], a[1]); /* nothing of the divergent loop is hoisted */
	assert_true(u[2] < a[2]);     /* B2's address arithmetic and store are */
}

/* ---- stripmining ---- */

static const char line_ptx[] = HEAD
	".visible .entry sk()\n{\n"
	" .reg .b32 %r<4>;\n"
	" mov.u32 %r1, %tid.x;\n"         /* ut: feeds a varying value */
	" add.s32 %r2, %r1, 1;\n"         /* ut */
	" mul.lo.s32 %r3, %r2, %r2;\n"    /* ut: quadratic in tid, varying */
	" ret;\n"
	"}\n";

static void test_stripmining(void **state)
{
	(void)state;
	struct weft_program *p = an_program(line_ptx, "sk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 70; t++)
		hthread(h, t, p0, 1, 0);
	struct vt_state *s = mkstate(base_cfg, p, 70);
	/* at most 2 live registers -> 4 per uT -> 256 / 4 = 64, capped at 32 */
	assert_int_equal(s->regs_per_ut, 4);
	assert_int_equal(s->hvl, 32);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	/* 70 uTs = 32 + 32 + 6: three strips on cores 0, 1, 2 */
	assert_int_equal(s->ls.strips, 3);
	assert_int_equal(s->ls.partial_strips, 1);
	assert_true(s->ls.core_time[0] > 0 && s->ls.core_time[2] > 0);
	assert_true(s->ls.core_time[3] == 0);
	/* buckets are shares of the strip's vector length: the last strip's
	 * 6 active uTs of 6 are 76-100% */
	assert_int_equal(s->ls.bucket[3], s->ls.ut_insts_issued);
	assert_int_equal(s->ls.ut_active, 70 * 3); /* mov, add, mul per uT */
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

/* ---- density-time, bank conflicts, coalescer ---- */

static void test_lane_costs(void **state)
{
	(void)state;
	struct vt_params pp = { .lanes = 1, .bank_reads = 2, .bank_writes = 1 };
	assert_int_equal(weft_vt_elems(&pp, 32, 5), 32);
	pp.density = 1;
	assert_int_equal(weft_vt_elems(&pp, 32, 5), 5); /* only the active uTs */
	pp.lanes = 4;
	assert_int_equal(weft_vt_elems(&pp, 32, 5), 8); /* multilane: no density time */
	pp.density = 0;
	assert_int_equal(weft_vt_elems(&pp, 30, 30), 8); /* ceil(30 / 4) */

	struct vt_pcinfo fma = { .reads = 3, .writes = 1 }, add = { .reads = 2, .writes = 1 };
	struct vt_pcinfo two_out = { .reads = 1, .writes = 2 };
	struct vt_vcost c;
	weft_vt_vinst_cost(&pp, &fma, 8, &c); /* unified 6r3w: one element per cycle */
	assert_true(c.busy == 8 && c.conflicts == 0 && c.rf_reads == 24 && c.rf_writes == 8);
	pp.banked = 1;
	weft_vt_vinst_cost(&pp, &fma, 8, &c); /* 3 reads on 2 ports: 2 cycles per element */
	assert_true(c.busy == 16 && c.conflicts == 8);
	weft_vt_vinst_cost(&pp, &add, 8, &c);
	assert_true(c.busy == 8 && c.conflicts == 0);
	weft_vt_vinst_cost(&pp, &two_out, 8, &c); /* 2 writes on 1 port */
	assert_true(c.busy == 16 && c.conflicts == 8);

	struct vt_params mc = { .lanes = 4, .coalescer = 1, .port_bytes = 16 };
	const uint64_t addr[8] = { 0, 4, 8, 12, 16, 20, 100, 200 };
	/* cycle 1: one 16-B block; cycle 2: blocks 1, 1, 6, 12 -> 3 */
	uint64_t made[8];
	assert_int_equal(weft_vt_coalesce(&mc, addr, 8, made), 4);
	assert_true(made[0] == 0 && made[1] == 16 && made[2] == 100 && made[3] == 200);
	assert_int_equal(weft_vt_coalesce(&mc, addr, 3, NULL), 1);
	mc.coalescer = 0;
	assert_int_equal(weft_vt_coalesce(&mc, addr, 8, made), 8);
	assert_true(made[5] == 20);
	mc.coalescer = 1;
	mc.lanes = 1;
	assert_int_equal(weft_vt_coalesce(&mc, addr, 8, NULL), 8);
}

/* ---- data cache: vector accesses, misses, the MSHR bound ---- */

static const char mem_ptx[] = HEAD
	".visible .entry mk(.param .u64 a)\n{\n"
	" .reg .b32 %r<2>; .reg .f32 %f<2>; .reg .b64 %rd<5>;\n"
	" ld.param.u64 %rd1, [a];\n"        /* CP scalar load */
	" mov.u32 %r1, %tid.x;\n"
	" mul.wide.u32 %rd2, %r1, 4;\n"
	" add.s64 %rd3, %rd1, %rd2;\n"
	" ld.global.f32 %f1, [%rd3];\n"     /* unit-stride vector load */
	" st.global.f32 [%rd3], %f1;\n"     /* unit-stride vector store */
	" ret;\n"
	"}\n";

static void test_dcache(void **state)
{
	(void)state;
	struct weft_program *p = an_program(mem_ptx, "mk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 32; t++) {
		hthread(h, t, p0, 1, 3);
		h->addrs[t][0] = 0x100;               /* the parameter */
		h->addrs[t][1] = h->addrs[t][2] = 0x10000 + 4 * t;
	}
	struct vt_state *s = mkstate(base_cfg, p, 32);
	assert_int_equal(s->hvl, 32);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	/* 1 scalar access + 128 B loaded in 16-B accesses (8) + 8 stored */
	assert_int_equal(s->ls.dcache_accesses, 17);
	/* cold: the parameter's line and the two 64-B lines of the array;
	 * the store hits the lines the load brought. Each array line takes
	 * 8 accesses while in flight (the miss, 3 more loads, 4 stores): an
	 * MSHR holds the miss and 4 secondaries, so the 5th further access
	 * waits for the line: one overflow per line */
	assert_int_equal(s->ls.misses, 3);
	assert_int_equal(s->ls.secondary, 14);
	assert_int_equal(s->ls.secondary_overflows, 2);
	assert_int_equal(s->ls.vmem_ops[0], 2);
	double cpi[VT_C_COUNT];
	/* the strip: the load unit is busy 32 cycles (one element per cycle
	 * on one lane), the store unit 32, its refills 5 x 50 / 8 = 31.25;
	 * the tile's 5 refills fit the 8 MSHRs: one 50-cycle round, above
	 * the strip's 32 */
	double cyc = weft_vt_launch_cycles(s, cpi);
	assert_true(s->ls.core_time[0] == 32);
	assert_true(cyc == 50 && cpi[VT_C_MEM] == 50 - 32 && cpi[VT_C_LOAD] == 32 / 4.0);
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

/* ---- the coalescer and the MSHRs' secondary misses ---- */

static const char gather_ptx[] = HEAD
	".visible .entry gk(.param .u64 a)\n{\n"
	" .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
	" ld.param.u64 %rd1, [a];\n"
	" mov.u32 %r1, %tid.x;\n"
	" mul.lo.s32 %r2, %r1, %r1;\n"       /* quadratic: a varying address */
	" mul.wide.u32 %rd2, %r2, 4;\n"
	" add.s64 %rd3, %rd1, %rd2;\n"
	" ld.global.u32 %r3, [%rd3];\n"      /* a uT load */
	" ret;\n"
	"}\n";

static void gather_run(int mc, uint64_t out[4])
{
	struct weft_program *p = an_program(gather_ptx, "gk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 16; t++) {
		hthread(h, t, p0, 1, 2);
		h->addrs[t][0] = 0x100;
		h->addrs[t][1] = 0x10000 + 4 * t; /* as traced: 16 words of one line */
	}
	struct vt_state *s = mkstate(mc ? "[model]\nname = vt\n[tile]\ncores = 1\nlanes = 4\ncoalescer = true\n"
					: "[model]\nname = vt\n[tile]\ncores = 1\nlanes = 4\n", p, 16);
	assert_int_equal(s->vp.pc[5].kind, VT_K_UT_MEM);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	out[0] = s->ls.dcache_accesses;
	out[1] = s->ls.misses;
	out[2] = s->ls.secondary_overflows;
	out[3] = s->ls.coalesced_saved;
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

static void test_coalescer_mshr(void **state)
{
	(void)state;
	uint64_t off[4], on[4];
	gather_run(0, off);
	gather_run(1, on);
	/* without the coalescer: the parameter + 16 word accesses; the line's
	 * miss and 15 more accesses while in flight: the 5th waits for the
	 * line (one overflow), the rest hit it */
	assert_true(off[0] == 17 && off[1] == 2 && off[2] == 1 && off[3] == 0);
	/* with it: 4 lanes x 4 B per cycle are one 16-B block: 4 accesses,
	 * the miss + 3 secondaries, no overflow; 12 accesses merged */
	assert_true(on[0] == 5 && on[1] == 2 && on[2] == 0 && on[3] == 12);
}

/* ---- MIMD interleaving ---- */

static void test_mimd(void **state)
{
	(void)state;
	assert_int_equal(weft_vt_mimd_inst_cycles(1, 3), 3);  /* alone: wait the latency */
	assert_int_equal(weft_vt_mimd_inst_cycles(4, 3), 4);  /* hidden by 3 other uTs */
	assert_int_equal(weft_vt_mimd_inst_cycles(4, 1), 4);  /* but issues every 4th cycle */
	assert_int_equal(weft_vt_mimd_inst_cycles(2, 3), 4);
	assert_int_equal(weft_vt_mimd_inst_cycles(8, 52), 56); /* a refill: 7 turns */

	struct weft_program *p = an_program(line_ptx, "sk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 8; t++)
		hthread(h, t, p0, 1, 0);
	/* one core, 64 registers: 2 uTs of 32 registers, 4 threads each */
	struct vt_state *s = mkstate("[model]\nname = vt\n[tile]\npattern = mimd\ncores = 1\nregs = 64\n",
				     p, 8);
	assert_int_equal(s->uts_per_core, 2);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	/* a slot: spawn 10 + join 10, then 4 threads x (4 instructions + 2
	 * loop overhead) x 2 cycles (every other cycle is the other uT's):
	 * 20 + 48 = 68 */
	assert_true(s->ls.slot_time[0] == 68 && s->ls.slot_time[1] == 68);
	assert_true(s->ls.core_time[0] == 68);
	/* every uT executes everything, the hoistable mov/adds included */
	assert_int_equal(s->ls.thread_insts, 8 * 4);
	double cpi[VT_C_COUNT], sum = 0;
	double cyc = weft_vt_launch_cycles(s, cpi);
	for (int k = 0; k < VT_C_COUNT; k++)
		sum += cpi[k];
	assert_true(cyc == 68 && sum == 68);
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

/* ---- configs ---- */

static void test_configs(void **state)
{
	(void)state;
	struct weft_config cfg;
	struct weft_error err;
	struct vt_params pp;
	assert_int_equal(weft_config_load("configs/maven/vt-c4v1r256+bi+2s+d.ini", NULL, 0, &cfg, &err), 0);
	assert_int_equal(weft_vt_params_from_config(&cfg, &pp, &err), 0);
	assert_true(pp.pattern == VT_PAT_VT && pp.cores == 4 && pp.lanes == 1 && pp.regs == 256);
	assert_true(pp.banked && pp.bank_alus && pp.density && !pp.coalescer && pp.arith_units == 3);
	assert_int_equal(pp.pvfb, WEFT_DIV_PVFB_2STACK);
	void *st = NULL;
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), 0);
	/* TOCS Table I: 1.36 ns */
	assert_true(fabs(((struct vt_state *)st)->pp.clock_hz - 1e9 / 1.36) < 1e5);
	weft_model_vt.free(st);
	weft_config_free(&cfg);
	assert_int_equal(weft_config_load("configs/maven/mimd-c4r64.ini", NULL, 0, &cfg, &err), 0);
	assert_int_equal(weft_vt_params_from_config(&cfg, &pp, &err), 0);
	assert_true(pp.pattern == VT_PAT_MIMD && pp.regs == 64);
	weft_config_free(&cfg);
	/* +d on a multilane core, +mc on single-lane cores and +bi without +b are refused */
	assert_int_equal(weft_config_load_text("[model]\nname = vt\n[tile]\nlanes = 4\ncores = 1\n"
					       "density_time = true\n", "d.ini", NULL, 0, &cfg, &err), 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "density_time"));
	weft_config_free(&cfg);
	assert_int_equal(weft_config_load_text("[model]\nname = vt\n[tile]\ncoalescer = true\n", "m.ini",
					       NULL, 0, &cfg, &err), 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "coalescer"));
	weft_config_free(&cfg);
	assert_int_equal(weft_config_load_text("[model]\nname = vt\n[tile]\nbank_alus = true\n", "b.ini",
					       NULL, 0, &cfg, &err), 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "tile.bank_alus"));
	weft_config_free(&cfg);
}

/* ---- the application vector across CTAs ---- */

/* A vt state as begin_launch leaves it for a launch of nctas CTAs of
 * tpc threads. */
static struct vt_state *mklaunch(const char *cfg, const struct weft_program *p, uint32_t nctas,
				 uint32_t tpc)
{
	struct vt_state *s = mkstate(cfg, p, nctas * tpc);
	s->threads_per_cta = tpc;
	s->nctas = nctas;
	s->last_cta = -1;
	/* a 1-D grid, as begin_launch sets the loads every CTA repeats */
	const uint32_t grid[3] = { nctas, 1, 1 };
	struct weft_error err;
	if (weft_vt_prog_launch_loads(p, grid, &s->vp, &err))
		fail_msg("%s", err.message);
	return s;
}

/* A MIMD sample: threads go to cores by their place in the launch, so a
 * sample that reads CTAs 0 and 1 of 4 (2 cores, one uT each: core 0 holds
 * CTAs 0-1, core 1 CTAs 2-3) holds all of core 0's threads and none of
 * core 1's. A slot's threads read count as they are (here all of core
 * 0's) and the others go at the tile's rate (core 1's, the same threads),
 * so the sample's core time, expanded by the launch's 4 / 2 CTAs, is the
 * full replay's; the launch-wide expansion alone gave twice that. */
static void test_mimd_sample(void **state)
{
	(void)state;
	struct weft_program *p = an_program(line_ptx, "sk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 8; t++)
		hthread(h, t, p0, 1, 0);
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 2\nregs = 32\n";
	struct vt_state *full = mklaunch(cfg, p, 4, 8), *smp = mklaunch(cfg, p, 4, 8);
	assert_int_equal(full->uts_per_core, 1);
	struct weft_error err;
	for (uint32_t c = 0; c < 4; c++) {
		h->cta.cta = c;
		full->ls.ctas++;
		assert_int_equal(weft_vt_cta(full, &h->cta, &err), 0);
		if (c < 2) {
			smp->ls.ctas++;
			assert_int_equal(weft_vt_cta(smp, &h->cta, &err), 0);
		}
	}
	assert_true(full->ls.slot_read[0] == 16 && full->ls.slot_read[1] == 16);
	assert_true(smp->ls.slot_read[0] == 16 && smp->ls.slot_read[1] == 0);
	double cpi[VT_C_COUNT];
	double cf = weft_vt_launch_cycles(full, cpi), cs = weft_vt_launch_cycles(smp, cpi);
	assert_true(cf == full->ls.core_time[0] && full->ls.core_time[0] == full->ls.core_time[1]);
	assert_true(smp->ls.core_time[0] == full->ls.core_time[0]);
	assert_true(fabs(cs * 4 / 2 - cf) <= 1e-9 * cf);
	weft_model_vt.free(full);
	weft_model_vt.free(smp);
	free(h);
	weft_program_free(p);
}

/* CTA c of a 4 x 8 launch of the loop kernel lk: every thread the path
 * given, the parameter, and a store to a line of its own (every store
 * misses: the threads of one path cost the same, but for the first
 * thread's parameter miss) */
static void lk_cta(struct hcta *h, uint32_t c, const uint32_t *path, uint32_t n)
{
	memset(h, 0, sizeof(*h));
	for (uint32_t t = 0; t < 8; t++) {
		hthread(h, t, path, n, 2);
		h->addrs[t][0] = 0x100;
		h->spaces[t][0] = WEFT_SPACE_PARAM;
		h->addrs[t][1] = 0x100000 + 256ull * (c * 8 + t);
	}
	h->cta.cta = c;
}

/* Replays the launch of 4 CTAs (with a grid: its CTAs, and their places
 * in it) of 8 lk threads (heavy: CTAs with three trips) into full, and
 * into smp with the CTAs in read timed and the others warmed (in CTA
 * order, as the walk hands them over); returns the two launches' cycles,
 * the sample's expanded by CTAs / CTAs read. */
static void lk_sample_grid(const char *cfg, const struct weft_program *p, unsigned heavy, unsigned read,
			   const uint32_t *grid, double *full_cycles, double *smp_cycles,
			   struct vt_state **smp_out)
{
	static const uint32_t p0[] = { 0, 1, 2 }, p1[] = { 0, 1, 1, 1, 2 };
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	/* 4 CTAs, or the grid's */
	uint32_t nctas = grid ? grid[0] * grid[1] * grid[2] : 4;
	struct vt_state *full = mklaunch(cfg, p, nctas, 8), *smp = mklaunch(cfg, p, nctas, 8);
	for (int d = 0; grid && d < 3; d++)
		full->grid[d] = smp->grid[d] = grid[d];
	if (grid) {
		(void)weft_vt_grid_place(grid, 0, &full->nplaces);
		smp->nplaces = full->nplaces;
	}
	struct weft_error err;
	for (uint32_t c = 0; c < nctas; c++) {
		if (heavy >> c & 1)
			lk_cta(h, c, p1, 5);
		else
			lk_cta(h, c, p0, 3);
		full->ls.ctas++;
		assert_int_equal(weft_vt_cta(full, &h->cta, &err), 0);
		if (read >> c & 1) {
			smp->ls.ctas++;
			assert_int_equal(weft_vt_cta(smp, &h->cta, &err), 0);
		} else {
			assert_int_equal(weft_vt_warm_cta(smp, &h->cta, &err), 0);
		}
	}
	double cpi[VT_C_COUNT];
	*full_cycles = weft_vt_launch_cycles(full, cpi);
	*smp_cycles = weft_vt_launch_cycles(smp, cpi) * nctas / (double)smp->ls.ctas;
	weft_model_vt.free(full);
	if (smp_out)
		*smp_out = smp;
	else
		weft_model_vt.free(smp);
	free(h);
}

static void lk_sample(const char *cfg, const struct weft_program *p, unsigned heavy, unsigned read,
		      double *full_cycles, double *smp_cycles, struct vt_state **smp_out)
{
	lk_sample_grid(cfg, p, heavy, read, NULL, full_cycles, smp_cycles, smp_out);
}

/* The miss a launch pays once: the first thread's parameter load. In a
 * sample it is counted as it is, not expanded: with CTA 0 read (it was
 * doubled) and with CTA 0 warmed (it was left out), the sample of equal
 * threads is the full replay exactly. */
static void test_mimd_sample_once(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 1\nregs = 32\n";
	double cf, cs;
	lk_sample(cfg, p, 0, 0x3, &cf, &cs, NULL);
	assert_true(fabs(cs - cf) <= 1e-9 * cf);
	lk_sample(cfg, p, 0, 0xc, &cf, &cs, NULL);
	assert_true(fabs(cs - cf) <= 1e-9 * cf);
	weft_program_free(p);
}

/* A core of two uT slots (regs 64): slot 0 holds CTAs 0-1, slot 1 CTAs
 * 2-3, CTAs 0 and 2 three trips a thread, 1 and 3 one: the slots are
 * equal. A sample of CTAs 0 and 3 reads a heavy CTA of slot 0 and a light
 * one of slot 1. Each slot's own ratio gave slot 0 twice the heavy CTA
 * (the selection of the noisiest slot that made hotspot on mimd-c4r256
 * +0.14% in every seed); the threads a slot did not read now go at the
 * core's rate, so the estimate is nearer the full replay, and still
 * above it. */
static void test_mimd_sample_pooled(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 1\nregs = 64\n";
	double cf, cs;
	struct vt_state *smp;
	lk_sample(cfg, p, 0x5, 0x9, &cf, &cs, &smp);
	assert_int_equal(smp->uts_per_core, 2);
	assert_true(smp->ls.slot_read[0] == 8 && smp->ls.slot_read[1] == 8);
	/* the per-slot ratio: spawn and join once, the rest times 16 / 8 */
	double sj = (double)smp->pp.spawn_cycles + smp->pp.join_cycles;
	double per_slot = sj + (smp->ls.slot_time[0] - sj) * 2;
	assert_true(cs > cf);
	assert_true(cs < per_slot);
	weft_model_vt.free(smp);
	weft_program_free(p);
}

/* A CTA's place in its grid: along each dimension first, inside or last
 * (x fastest), two places along a dimension of two CTAs, one of one. */
static void test_grid_place(void **state)
{
	(void)state;
	uint32_t np;
	const uint32_t g[3] = { 12, 12, 1 }, row[3] = { 5, 1, 1 }, two[3] = { 2, 3, 1 };
	assert_int_equal(weft_vt_grid_place(g, 0, &np), 0);
	assert_int_equal(np, 9);
	assert_int_equal(weft_vt_grid_place(g, 5, NULL), 1);       /* top row, inside column */
	assert_int_equal(weft_vt_grid_place(g, 11, NULL), 2);      /* top right corner */
	assert_int_equal(weft_vt_grid_place(g, 12 * 5, NULL), 3);  /* left edge, inside row */
	assert_int_equal(weft_vt_grid_place(g, 12 * 5 + 3, NULL), 4);
	assert_int_equal(weft_vt_grid_place(g, 143, NULL), 8);     /* bottom right */
	assert_int_equal(weft_vt_grid_place(row, 4, &np), 2);
	assert_int_equal(np, 3);
	assert_int_equal(weft_vt_grid_place(two, 1, &np), 1);
	assert_int_equal(weft_vt_grid_place(two, 3, NULL), 1 + 2);  /* x last, y inside */
	assert_int_equal(np, 6);
}

/* Post-stratified by the CTA's place in the grid: a row of 4 CTAs whose
 * inside ones (1, 2) take three trips a thread and whose edge ones (0, 3)
 * one, as a stencil's edge CTAs skip their missing neighbours. A sample
 * reading CTAs 0, 1 and 3 leaves CTA 2 to estimate: at the rate of the
 * threads read with its tid (one heavy CTA of three) it was below the
 * full replay; at the rate of the threads read with its tid in its place
 * (CTA 1's) it is the full replay exactly. One core: its departure from
 * the tile's rates is zero, so the composite adds nothing. */
static void test_mimd_sample_by_place(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 1\nregs = 32\n";
	const uint32_t row[3] = { 4, 1, 1 };
	double cf, cs, ct;
	lk_sample_grid(cfg, p, 0x6, 0xb, row, &cf, &cs, NULL);
	assert_true(fabs(cs - cf) <= 1e-9 * cf);
	/* without the grid (one place): below */
	lk_sample(cfg, p, 0x6, 0xb, &cf, &ct, NULL);
	assert_true(ct < cf - 1);
	weft_program_free(p);
}

/* The composite: a row of 8 CTAs on two cores (4 each), core 1's CTAs
 * (4-7) three trips a thread, core 0's one; a sample reads CTAs 1, 2, 5
 * and 6, all inside the row. The tile's rate of an inside thread is half
 * heavy, so core 1's unread CTAs (4 inside, 7 last: no last CTA read, so
 * at the tile's rate of its tid) at the tile's rates are below the full
 * replay. Core 1's two units both depart from those rates by the same
 * (heavy less the mean), so the spread of its departure is zero and its
 * weight one: its CTAs go at its own rate and the estimate is the full
 * replay exactly. */
static void test_mimd_sample_composite(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 2\nregs = 32\n";
	const uint32_t row[3] = { 8, 1, 1 };
	double cf, cs;
	lk_sample_grid(cfg, p, 0xf0, 0x66, row, &cf, &cs, NULL);
	assert_true(fabs(cs - cf) <= 1e-9 * cf);
	weft_program_free(p);
}

/* Post-stratified by thread index: 3 CTAs of 8 lk threads on a core of
 * two uT slots (regs 64) of 12 threads each, so slot 0 holds CTA 0 and
 * CTA 1's threads 0-3, slot 1 CTA 1's threads 4-7 and CTA 2; threads 0-3
 * of every CTA take three trips, 4-7 one. Slot 0 has 8 heavy threads and
 * 4 light, slot 1 4 and 8: slot 0 is the core. A sample reading CTA 2
 * alone (CTAs 0 and 1 warmed) has read nothing of slot 0; at the rate of
 * the threads read (half heavy) its 12 threads were 6 heavy and 6 light
 * (the earlier rule: below the full replay, as nn's slots that start
 * half-way into a cache line were); at the rate of the threads read with
 * the same index in their CTA they are 8 and 4, the full replay's core
 * time exactly, and the launch's once-paid parameter miss, seen by CTA 0
 * thread 0 while warming, is counted in slot 0 as in the full replay. */
static void test_mimd_sample_by_tid(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	static const uint32_t p0[] = { 0, 1, 2 }, p1[] = { 0, 1, 1, 1, 2 };
	const char *cfg = "[model]\nname = vt\n[tile]\npattern = mimd\ncores = 1\nregs = 64\n";
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	struct vt_state *full = mklaunch(cfg, p, 3, 8), *smp = mklaunch(cfg, p, 3, 8);
	assert_int_equal(smp->uts_per_core, 2);
	struct weft_error err;
	for (uint32_t c = 0; c < 3; c++) {
		memset(h, 0, sizeof(*h));
		for (uint32_t t = 0; t < 8; t++) {
			if (t < 4)
				hthread(h, t, p1, 5, 2);
			else
				hthread(h, t, p0, 3, 2);
			h->addrs[t][0] = 0x100;
			h->spaces[t][0] = WEFT_SPACE_PARAM;
			h->addrs[t][1] = 0x100000 + 256ull * (c * 8 + t);
		}
		h->cta.cta = c;
		full->ls.ctas++;
		assert_int_equal(weft_vt_cta(full, &h->cta, &err), 0);
		if (c == 2) {
			smp->ls.ctas++;
			assert_int_equal(weft_vt_cta(smp, &h->cta, &err), 0);
		} else {
			assert_int_equal(weft_vt_warm_cta(smp, &h->cta, &err), 0);
		}
	}
	assert_true(smp->ls.slot_read[0] == 0 && smp->ls.slot_read[1] == 8);
	double cpi[VT_C_COUNT];
	double cf = weft_vt_launch_cycles(full, cpi);
	double cs = weft_vt_launch_cycles(smp, cpi) * 3;
	assert_true(full->ls.slot_time[0] > full->ls.slot_time[1]);
	assert_true(cf == full->ls.slot_time[0]);
	assert_true(fabs(cs - cf) <= 1e-9 * cf);
	weft_model_vt.free(full);
	weft_model_vt.free(smp);
	free(h);
	weft_program_free(p);
}

/* A vector tile's sample expands by working threads: a launch of 4 CTAs
 * of 8 threads whose last CTA has 3 threads of grid padding has 29
 * working threads. A sample of CTAs 0 and 1 (16 working threads read)
 * expands by 29 / 16, not 4 / 2 (which counted no padding), and one of
 * CTAs 2 and 3 (13 read, the padding read) by 29 / 13, not 4 / 2 (which
 * counted the padding in every CTA); without the padding known first, or
 * unsampled, or on MIMD tiles, the CTAs' ratio as before. */
static void test_vector_work_factor(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	struct vt_state *s = mklaunch("[model]\nname = vt\n[tile]\npattern = vsimd\n", p, 4, 8);
	s->ls.ctas = 2;
	assert_true(weft_vt_work_factor(s, 4, 8) == 2.0);
	s->tail_known = 1;
	s->tail_padding = 3;
	assert_true(fabs(weft_vt_work_factor(s, 4, 8) - 29.0 / 16) < 1e-12);
	s->ls.padding_threads = 3;
	assert_true(fabs(weft_vt_work_factor(s, 4, 8) - 29.0 / 13) < 1e-12);
	s->ls.ctas = 4;
	assert_true(weft_vt_work_factor(s, 4, 8) == 1.0);
	s->ls.ctas = 2;
	s->pp.pattern = VT_PAT_MIMD;
	assert_true(weft_vt_work_factor(s, 4, 8) == 2.0);
	weft_model_vt.free(s);
	weft_program_free(p);
}

/* loop kernel lk threads: even ones one trip, odd ones three; the
 * parameter and the store address, the store's unit-stride by the
 * application-vector index k */
static void lk_thread(struct hcta *h, uint32_t t, uint32_t k)
{
	static const uint32_t p0[] = { 0, 1, 2 }, p1[] = { 0, 1, 1, 1, 2 };
	if (k % 2)
		hthread(h, t, p1, 5, 2);
	else
		hthread(h, t, p0, 3, 2);
	h->addrs[t][0] = 0x100;
	h->spaces[t][0] = WEFT_SPACE_PARAM;
	h->addrs[t][1] = 0x10000 + 4 * k;
}

#define LK_CFG "[model]\nname = vt\n[tile]\nmax_vlen = 4\npvfb = 1stack\n"

static void test_cross_cta_strips(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	struct weft_error err;
	/* one CTA of 6 uTs: strips [0..3] and [4, 5] */
	for (uint32_t t = 0; t < 6; t++)
		lk_thread(h, t, t);
	struct vt_state *one = mklaunch(LK_CFG, p, 1, 6);
	assert_int_equal(one->hvl, 4);
	assert_int_equal(one->vp.cta_scope, 0);
	assert_int_equal(weft_vt_cta(one, &h->cta, &err), 0);
	assert_int_equal(one->ls.strips, 2);
	assert_int_equal(one->ls.partial_strips, 1);
	assert_int_equal(one->ls.cross_cta_strips, 0);
	/* the same 6 uTs as two CTAs of 3: the application vector is the
	 * same, so the strips are the same: [0..3] takes CTA 0's three uTs
	 * and CTA 1's first; [4, 5] is partial only because the launch ends
	 * (per-CTA strips would be two partial strips of 3) */
	struct vt_state *two = mklaunch(LK_CFG, p, 2, 3);
	memset(h, 0, sizeof(*h));
	for (uint32_t t = 0; t < 3; t++)
		lk_thread(h, t, t);
	h->cta.cta = 0;
	assert_int_equal(weft_vt_cta(two, &h->cta, &err), 0);
	assert_int_equal(two->ls.strips, 0); /* the 3 uTs wait for the next CTA */
	assert_int_equal(two->strip_n, 3);
	/* the decoder reuses the CTA's buffers: scribble over them (a path of
	 * a block that does not exist) before CTA 1 comes */
	memset(h, 0xff, sizeof(*h));
	memset(&h->cta, 0, sizeof(h->cta));
	memset(h->th, 0, sizeof(h->th));
	for (uint32_t t = 0; t < 3; t++)
		lk_thread(h, t, 3 + t);
	h->cta.cta = 1;
	if (weft_vt_cta(two, &h->cta, &err))
		fail_msg("%s", err.message);
	assert_int_equal(two->ls.strips, 2);
	assert_int_equal(two->ls.partial_strips, 1);
	assert_int_equal(two->ls.cross_cta_strips, 1);
	assert_int_equal(two->strip_n, 0);
	assert_int_equal(two->ls.ut_insts_issued, one->ls.ut_insts_issued);
	assert_int_equal(two->ls.ut_active, one->ls.ut_active);
	assert_int_equal(two->ls.fragments, one->ls.fragments);
	assert_int_equal(two->ls.cp_insts, one->ls.cp_insts); /* lk has nothing CTA-uniform */
	assert_int_equal(two->ls.dcache_accesses, one->ls.dcache_accesses);
	assert_int_equal(two->ls.thread_insts, one->ls.thread_insts);
	assert_true(two->ls.core_time[0] == one->ls.core_time[0]);
	assert_true(two->ls.core_time[1] == one->ls.core_time[1]);
	weft_model_vt.free(one);
	weft_model_vt.free(two);
	free(h);
	weft_program_free(p);
}

/* Strips built ahead (weft_vt_prep_cta, as a decoder thread does) give
 * the launch exactly what the in-order replay gives, whether a prepared
 * strip is taken (its start is where a strip starts) or not (a sample
 * that starts or resumes elsewhere): CTAs of 6 lk uTs, strips of 4 (CTA
 * k's first whole strip starts at its uT (4 - 6k mod 4) mod 4: 0, 2, 0,
 * 2, ...). */
/* prep: 0 none, 1 weft_vt_prep_cta, 2 weft_vt_prep_cta_compact and the
 * replay passed only the CTA's header, its traces scribbled over first
 * (as the walk drops the decoded CTA); aligned: as a warmed sample sets
 * it. */
static struct vt_state *lk_run_with(const struct weft_program *p, const uint32_t *ctas, uint32_t n,
				    int prep, int aligned, uint32_t share, uint32_t *nprepared)
{
	struct hcta *h = calloc(1, sizeof(*h));
	struct vt_prep *pr = calloc(1, sizeof(*pr));
	assert_non_null(h);
	assert_non_null(pr);
	struct vt_state *s = mklaunch(LK_CFG, p, 5, 6);
	s->aligned = aligned;
	s->prep_share = share;
	struct weft_error err;
	*nprepared = 0;
	for (uint32_t i = 0; i < n; i++) {
		memset(h, 0, sizeof(*h));
		for (uint32_t t = 0; t < 6; t++)
			lk_thread(h, t, 6 * ctas[i] + t);
		h->cta.cta = ctas[i];
		if (prep) {
			if ((prep == 2 ? weft_vt_prep_cta_compact : weft_vt_prep_cta)(s, &h->cta, pr, &err))
				fail_msg("%s", err.message);
			*nprepared += pr->nstrips;
		}
		struct weft_cta_trace hdr = h->cta;
		if (prep == 2) {
			hdr.threads = NULL;
			hdr.priv = NULL;
			memset(h, 0xff, sizeof(*h));
		}
		if (weft_vt_cta_prep(s, &hdr, prep ? pr : NULL, &err))
			fail_msg("%s", err.message);
	}
	assert_int_equal(weft_vt_flush(s, &err), 0);
	weft_vt_prep_free(pr);
	free(pr);
	free(h);
	return s;
}

static struct vt_state *lk_run(const struct weft_program *p, const uint32_t *ctas, uint32_t n,
			       int prep, uint32_t *nprepared)
{
	return lk_run_with(p, ctas, n, prep, 0, 0, nprepared);
}

static void lk_same(const struct vt_state *a, const struct vt_state *b)
{
	assert_true(a->ls.strips > 0 && a->ls.dcache_accesses > 0);
	assert_int_equal(b->ls.strips, a->ls.strips);
	assert_int_equal(b->ls.partial_strips, a->ls.partial_strips);
	assert_int_equal(b->ls.cross_cta_strips, a->ls.cross_cta_strips);
	assert_int_equal(b->ls.ut_insts_issued, a->ls.ut_insts_issued);
	assert_int_equal(b->ls.ut_active, a->ls.ut_active);
	assert_int_equal(b->ls.fragments, a->ls.fragments);
	assert_int_equal(b->ls.thread_insts, a->ls.thread_insts);
	assert_int_equal(b->ls.padding_threads, a->ls.padding_threads);
	assert_int_equal(b->ls.dcache_accesses, a->ls.dcache_accesses);
	assert_int_equal(b->ls.misses, a->ls.misses);
	assert_int_equal(b->ls.secondary, a->ls.secondary);
	assert_memory_equal(b->ls.ev, a->ls.ev, sizeof(a->ls.ev));
	assert_memory_equal(b->ls.core_time, a->ls.core_time, sizeof(a->ls.core_time));
	assert_memory_equal(b->ls.core_cpi, a->ls.core_cpi, sizeof(a->ls.core_cpi));
}

/* A compact preparation (trace.h compact) holds all the in-order replay
 * reads of a CTA: replayed from its header alone, the decoded traces
 * scribbled over, the launch is what the plain replay gives, for a full
 * replay (every CTA: uTs before the first whole strip and after the last
 * copied, strips carried into the next CTA) and a warmed sample's gap
 * (aligned); where the replay would need a uT of a whole strip it did not
 * take (a gap without alignment), it fails rather than read the CTA. */
static void test_compact_strips(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	static const uint32_t all[] = { 0, 1, 2, 3, 4 }, gap[] = { 0, 2, 3 };
	uint32_t np0, np1;
	/* every strip built ahead (share 5), and the replay building the
	 * strips at positions k mod 5 >= share from copies */
	for (uint32_t share = 0; share <= 5; share += 1) {
		struct vt_state *a = lk_run_with(p, all, 5, 0, 0, share, &np0);
		struct vt_state *b = lk_run_with(p, all, 5, 2, 0, share, &np1);
		assert_int_equal(np1, 5);
		lk_same(a, b);
		weft_model_vt.free(a);
		weft_model_vt.free(b);
		a = lk_run_with(p, gap, 3, 0, 1, share, &np0);
		b = lk_run_with(p, gap, 3, 2, 1, share, &np1);
		assert_int_equal(np1, 3);
		lk_same(a, b);
		weft_model_vt.free(a);
		weft_model_vt.free(b);
	}
	/* CTA 1 first, not aligned: its strip starts at uT 0, not at 2 */
	struct hcta *h = calloc(1, sizeof(*h));
	struct vt_prep *pr = calloc(1, sizeof(*pr));
	assert_true(h && pr);
	struct vt_state *s = mklaunch(LK_CFG, p, 5, 6);
	struct weft_error err;
	for (uint32_t t = 0; t < 6; t++)
		lk_thread(h, t, 6 + t);
	h->cta.cta = 1;
	assert_int_equal(weft_vt_prep_cta_compact(s, &h->cta, pr, &err), 0);
	struct weft_cta_trace hdr = h->cta;
	hdr.threads = NULL;
	assert_int_equal(weft_vt_cta_prep(s, &hdr, pr, &err), WEFT_ERR_INTERNAL);
	weft_vt_prep_free(pr);
	free(pr);
	free(h);
	weft_model_vt.free(s);
	weft_program_free(p);
}

/* A strip's access list reads back what was pushed: narrow (a few 4 GiB
 * regions), and wide once a list has more than VT_ACC_REGIONS regions
 * (the accesses before rewritten whole), and narrow again once emptied. */
static void test_acc_list(void **state)
{
	(void)state;
	struct vt_accs a;
	memset(&a, 0, sizeof(a));
	for (int round = 0; round < 2; round++) {
		uint32_t nreg = round ? 3 : VT_ACC_REGIONS + 40, n = 5000;
		weft_vt_acc_reset(&a);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t addr = (uint64_t)(i % nreg) << 32 | (uint64_t)i * 2654435761u % 0xffffffffu;
			if (i % nreg == 1)
				addr |= 1ull << 62; /* a shared region (vt_replay.c dc_addr) */
			assert_int_equal(weft_vt_acc_push(&a, addr, i % 3 == 0), 0);
		}
		assert_int_equal(a.wide, !round);
		assert_int_equal(a.n, n);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t addr = (uint64_t)(i % nreg) << 32 | (uint64_t)i * 2654435761u % 0xffffffffu;
			if (i % nreg == 1)
				addr |= 1ull << 62;
			int w;
			assert_true(weft_vt_acc_at(&a, i, &w) == addr);
			assert_int_equal(w, i % 3 == 0);
		}
	}
	weft_vt_accs_free(&a);
}

static void test_prepared_strips(void **state)
{
	(void)state;
	struct weft_program *p = an_program(loop_ptx, "lk");
	assert_non_null(p);
	static const uint32_t all[] = { 0, 1, 2, 3, 4 }, gap[] = { 0, 2, 3 }, late[] = { 1, 2 };
	static const struct {
		const uint32_t *ctas;
		uint32_t n, prepared;
	} cases[] = {
		/* every CTA prepares one whole strip ([0..3], [2..5], [0..3],
		 * [2..5], [0..3]) */
		{ all, 5, 5 },
		{ gap, 3, 3 },
		/* CTA 1 first: a strip starts at its uT 0, not 2 */
		{ late, 2, 2 },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint32_t np0, np1;
		struct vt_state *a = lk_run(p, cases[c].ctas, cases[c].n, 0, &np0);
		struct vt_state *b = lk_run(p, cases[c].ctas, cases[c].n, 1, &np1);
		assert_int_equal(np0, 0);
		assert_int_equal(np1, cases[c].prepared);
		lk_same(a, b);
		weft_model_vt.free(a);
		weft_model_vt.free(b);
	}
	weft_program_free(p);
}

/* sk with a barrier between its two halves */
static const char bar_ptx[] = HEAD
	".visible .entry bk()\n{\n"
	" .reg .b32 %r<4>;\n"
	" mov.u32 %r1, %tid.x;\n"
	" add.s32 %r2, %r1, 1;\n"
	" bar.sync 0;\n"
	" mul.lo.s32 %r3, %r2, %r2;\n"
	" ret;\n"
	"}\n";

/* shared memory, no barrier */
static const char shm_ptx[] = HEAD
	".visible .entry hk2()\n{\n"
	" .reg .b32 %r<2>; .shared .align 4 .b8 buf[256];\n"
	" mov.u32 %r1, %tid.x;\n"
	" st.shared.u32 [buf], %r1;\n"
	" ret;\n"
	"}\n";

/* Strips of 4 over CTAs of 3 uTs fed in the order ctas[0..n-1] (of
 * nctas): out = strips, partial, cross-CTA. */
static void strips_over(const char *ptx, const char *kernel, uint32_t nctas, const uint32_t *ctas,
			uint32_t n, uint64_t out[3])
{
	struct weft_program *p = an_program(ptx, kernel);
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	static const uint32_t p0[] = { 0 };
	struct vt_state *s = mklaunch("[model]\nname = vt\n[tile]\nmax_vlen = 4\n", p, nctas, 3);
	assert_int_equal(s->hvl, 4);
	struct weft_error err;
	for (uint32_t i = 0; i < n; i++) {
		memset(h, 0, sizeof(*h));
		for (uint32_t t = 0; t < 3; t++)
			hthread(h, t, p0, 1, 0);
		h->cta.cta = ctas[i];
		if (weft_vt_cta(s, &h->cta, &err))
			fail_msg("%s", err.message);
	}
	/* what end_launch does when the sample's last CTA is not the launch's */
	assert_int_equal(weft_vt_flush(s, &err), 0);
	out[0] = s->ls.strips;
	out[1] = s->ls.partial_strips;
	out[2] = s->ls.cross_cta_strips;
	assert_int_equal(s->ls.ut_active, 3 * n * 3); /* every uT's 3 uT instructions ran once */
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

static void test_barrier_strips(void **state)
{
	(void)state;
	static const uint32_t all[] = { 0, 1, 2 }, gap[] = { 0, 2 };
	uint64_t o[3];
	/* no barrier: 9 uTs = 4 + 4 + 1, two strips crossing a CTA boundary */
	strips_over(line_ptx, "sk", 3, all, 3, o);
	assert_true(o[0] == 3 && o[1] == 1 && o[2] == 2);
	/* with a barrier the CTA's uTs run the stripmine loop's phases
	 * together: each CTA is a partial strip of 3 */
	strips_over(bar_ptx, "bk", 3, all, 3, o);
	assert_true(o[0] == 3 && o[1] == 3 && o[2] == 0);
	/* a sample's gap (CTA 1 not read) ends the strip: 3, then 3 */
	strips_over(line_ptx, "sk", 3, gap, 2, o);
	assert_true(o[0] == 2 && o[1] == 2 && o[2] == 0);
	/* the sample's last CTA is not the launch's: the flush runs it */
	strips_over(line_ptx, "sk", 3, all, 2, o);
	assert_true(o[0] == 2 && o[1] == 1 && o[2] == 1);
	/* shared memory alone also keeps strips in their CTA */
	struct weft_program *p = an_program(shm_ptx, "hk2");
	assert_non_null(p);
	struct vt_prog vp;
	struct weft_error err;
	assert_int_equal(weft_vt_prog_build(p, &vp, &err), 0);
	assert_int_equal(vp.cta_scope, 1);
	weft_vt_prog_free(&vp);
	weft_program_free(p);
}

/* a CTA-uniform value read by the uTs */
static const char ctau_ptx[] = HEAD
	".visible .entry ck()\n{\n"
	" .reg .b32 %r<5>;\n"
	" mov.u32 %r1, %ctaid.x;\n"      /* cp, uniform over each CTA */
	" mov.u32 %r2, %tid.x;\n"
	" add.s32 %r3, %r1, %r2;\n"
	" mul.lo.s32 %r4, %r3, %r3;\n"   /* ut */
	" ret;\n"
	"}\n";

static void test_cta_uniform_segments(void **state)
{
	(void)state;
	struct weft_program *p = an_program(ctau_ptx, "ck");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	static const uint32_t p0[] = { 0 };
	struct vt_state *s = mklaunch("[model]\nname = vt\n[tile]\nmax_vlen = 4\n", p, 2, 3);
	assert_int_equal(s->vp.pc[0].kind, VT_K_CP);
	assert_int_equal(s->vp.pc[0].cta_uni, 1);
	uint32_t cp = 0; /* hoisted instructions on the path (block 0) */
	for (uint32_t pc = 0; pc < p->blocks[0].count; pc++) {
		uint8_t k = s->vp.pc[pc].kind;
		cp += k == VT_K_CP || k == VT_K_CP_LOAD;
		assert_int_equal(s->vp.pc[pc].cta_uni, pc == 0);
	}
	struct weft_error err;
	for (uint32_t c = 0; c < 2; c++) {
		memset(h, 0, sizeof(*h));
		for (uint32_t t = 0; t < 3; t++)
			hthread(h, t, p0, 1, 0);
		h->cta.cta = c;
		assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	}
	/* strips [CTA 0: 0..2, CTA 1: 0] and [CTA 1: 1, 2]: the first has two
	 * ctaid values, so the CP computes that one twice */
	assert_int_equal(s->ls.strips, 2);
	assert_int_equal(s->ls.cp_insts, 2 * (s->pp.strip_overhead + cp) + 1);
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

/* ---- grid padding ---- */

/* B0 [0..3] ends with the bounds check's @%p1 exit (the builder turns
 * the branch to a bare ret into it); B1 [4..9] stores; B2 the exit block */
static const char pad_ptx[] = HEAD
	".visible .entry pk(.param .u64 a, .param .u32 n)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
	" ld.param.u32 %r1, [n];\n"
	" mov.u32 %r2, %tid.x;\n"
	" setp.ge.u32 %p1, %r2, %r1;\n"
	" @%p1 bra DONE;\n"
	" ld.param.u64 %rd1, [a];\n"
	" mul.wide.u32 %rd2, %r2, 4;\n"
	" add.s64 %rd3, %rd1, %rd2;\n"
	" mul.lo.u32 %r3, %r2, %r2;\n"    /* a uT instruction */
	" st.global.u32 [%rd3], %r3;\n"
	"DONE:\n"
	" ret;\n"
	"}\n";

/* 8 threads of pk in CTA `cta` of nctas; bit t of quiet: thread t leaves
 * at the bounds check (path B0, the parameter n its only access). */
static void pad_run(uint32_t quiet, uint32_t cta, uint32_t nctas, struct vt_launch *out)
{
	struct weft_program *p = an_program(pad_ptx, "pk");
	assert_non_null(p);
	assert_int_equal(p->nblocks, 3);
	assert_int_equal(p->blocks[1].first, 4);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	static const uint32_t work[] = { 0, 1 }, leave[] = { 0 };
	for (uint32_t t = 0; t < 8; t++) {
		int q = (quiet >> t) & 1;
		hthread(h, t, q ? leave : work, q ? 1 : 2, q ? 1 : 3);
		h->spaces[t][0] = h->spaces[t][1] = WEFT_SPACE_PARAM;
	}
	h->cta.cta = cta;
	struct vt_state *s = mklaunch("[model]\nname = vt\n[tile]\nmax_vlen = 4\n", p, nctas, 8);
	assert_int_equal(s->hvl, 4);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	assert_int_equal(weft_vt_flush(s, &err), 0);
	*out = s->ls;
	out->slot_time = NULL;
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

static void test_grid_padding(void **state)
{
	(void)state;
	struct vt_launch l;
	/* n = 6 in 8 threads: threads 6 and 7 are padding; the application
	 * vector is [0..3] + [4, 5], and every issued uT instruction has all
	 * of its strip's uTs active (kept, the last strip's 4 uTs would have
	 * 2 active in B1: the 26-50% bucket) */
	pad_run(0xc0, 0, 1, &l);
	assert_int_equal(l.padding_threads, 2);
	assert_int_equal(l.strips, 2);
	assert_int_equal(l.partial_strips, 1);
	assert_true(l.ut_insts_issued > 0);
	assert_int_equal(l.bucket[3], l.ut_insts_issued);
	/* the trace's instruction count still includes them: a working
	 * thread executes pc 0-2 and 4-9 (its exit's guard is false), a
	 * padding thread pc 0-3: 6 x 9 + 2 x 4 */
	assert_int_equal(l.thread_insts, 6 * 9 + 2 * 4);
	/* kept in (the old rule), the buckets spread: the control */
	pad_run(0xc0, 0, 2, &l); /* CTA 0 of 2 is not the last CTA */
	assert_int_equal(l.padding_threads, 0);
	assert_true(l.bucket[3] < l.ut_insts_issued);
	/* every thread leaves at the check (n = 0): nothing of the launch
	 * does anything, so there is nothing to pad; all 8 stay */
	pad_run(0xff, 0, 1, &l);
	assert_int_equal(l.padding_threads, 0);
	assert_int_equal(l.strips, 2);
	/* a quiet thread followed by working ones is not padding (only the
	 * launch's tail is); the tail behind the last worker is */
	pad_run(0x84, 0, 1, &l);
	assert_int_equal(l.padding_threads, 1);
	/* the last CTA of several */
	pad_run(0xf0, 2, 3, &l);
	assert_int_equal(l.padding_threads, 4);
	assert_int_equal(l.strips, 1);
}

/* threads whose only effect is reading: a search whose every thread
 * loads its own element and stores nothing (gk) is not padding */
static void test_padding_readers(void **state)
{
	(void)state;
	struct weft_program *p = an_program(gather_ptx, "gk");
	assert_non_null(p);
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	static const uint32_t p0[] = { 0 };
	for (uint32_t t = 0; t < 8; t++) {
		hthread(h, t, p0, 1, 2);
		h->spaces[t][0] = WEFT_SPACE_PARAM;
	}
	struct vt_state *s = mklaunch(base_cfg, p, 1, 8);
	struct weft_error err;
	assert_int_equal(weft_vt_cta(s, &h->cta, &err), 0);
	assert_int_equal(s->ls.padding_threads, 0);
	assert_int_equal(s->ls.strips, 1);
	assert_int_equal(s->ls.ut_active, 8 * s->ls.ut_insts_issued);
	weft_model_vt.free(s);
	free(h);
	weft_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hvl),
		cmocka_unit_test(test_hoisting),
		cmocka_unit_test(test_launch_loads),
		cmocka_unit_test(test_pvfb_policies),
		cmocka_unit_test(test_stripmining),
		cmocka_unit_test(test_lane_costs),
		cmocka_unit_test(test_dcache),
		cmocka_unit_test(test_coalescer_mshr),
		cmocka_unit_test(test_mimd),
		cmocka_unit_test(test_mimd_sample),
		cmocka_unit_test(test_mimd_sample_once),
		cmocka_unit_test(test_mimd_sample_pooled),
		cmocka_unit_test(test_mimd_sample_by_tid),
		cmocka_unit_test(test_grid_place),
		cmocka_unit_test(test_mimd_sample_by_place),
		cmocka_unit_test(test_mimd_sample_composite),
		cmocka_unit_test(test_vector_work_factor),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_cross_cta_strips),
		cmocka_unit_test(test_prepared_strips),
		cmocka_unit_test(test_compact_strips),
		cmocka_unit_test(test_acc_list),
		cmocka_unit_test(test_barrier_strips),
		cmocka_unit_test(test_cta_uniform_segments),
		cmocka_unit_test(test_grid_padding),
		cmocka_unit_test(test_padding_readers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
