/*
 * test_dmt_comm.c - the dMT communication analysis (models/dataflow/
 * dmt_comm.h) on hand-written PTX kernels and on bundled workloads.
 *
 * Every case runs through the emulator with a trace writer and analyses
 * the trace read back, so the analysis sees exactly what a user's trace
 * holds. Hand-written kernels pin: a constant-distance producer/consumer
 * (with the stores, barrier and address arithmetic it makes removable), a
 * broadcast (one writer, many readers: not an elevator, but eLSU reuse),
 * barrier epochs (a value rewritten between barriers; a same-epoch store
 * of another warp is a race), lock-step order for warp-synchronous code,
 * cascaded elevators and spills for distances beyond the token buffer,
 * a barrier kept because it also orders global memory (a value passed, or
 * a word overwritten after another thread read it), a vector load from
 * two writers through a generic address, parameter sweeps by
 * weft_dmt_redecide, a guarded tree level (the publish guard goes, the
 * guard of the partial sum and of a guarded load stays), barriers decided
 * one by one (one between two removed exchanges goes, those next to a kept
 * access stay), a store kept because a kept load reads it, and a tree loop
 * that nvcc did not unroll (one distance per iteration). Workloads: reduce,
 * scan, convsep, matmul, hotspot and pathfinder at small size each show
 * their communication with the distances their source code implies and
 * which instructions go; on every bundled workload the analysis agrees
 * with the emulator's own execution order (ground truth), removed values
 * feed only removed instructions, removed branches control only removed
 * instructions, and weft_dmt_ops agrees with the totals.
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

#include "common/sbuf.h"
#include "trace/emu/host.h"
#include "models/analysis/analysis.h"
#include "models/dataflow/dmt_comm.h"
#include "models/dataflow/dmt_internal.h"
#include "trace/format/trace.h"
#include "trace/launch/workload.h"
#include "trace/launch/workload_run.h"

/* ---- running kernels into a trace ---- */

struct traced {
	char path[64];
	struct weft_trace *t;
};

static void traced_open(struct traced *tr)
{
	struct weft_error err;
	if (weft_trace_open(tr->path, &tr->t, &err))
		fail_msg("open %s: %s", tr->path, err.message);
}

static void traced_close(struct traced *tr)
{
	weft_trace_close(tr->t);
	unlink(tr->path);
}

static struct weft_trace_writer *writer_start(struct traced *tr, struct weft_ctx **ctx)
{
	snprintf(tr->path, sizeof(tr->path), "/tmp/weft-dmt-XXXXXX");
	int fd = mkstemp(tr->path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	if (weft_trace_writer_open(tr->path, 1, &w, &err))
		fail_msg("%s", err.message);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	*ctx = weft_ctx_create(&o);
	assert_non_null(*ctx);
	return w;
}

static void writer_commit(struct traced *tr, struct weft_trace_writer *w, struct weft_ctx *ctx)
{
	struct weft_error err;
	weft_ctx_destroy(ctx);
	if (weft_trace_writer_commit(w, &err))
		fail_msg("commit: %s", err.message);
	traced_open(tr);
}

/* A kernel `k(.param .u64 out)` with 4 bytes of output per thread. */
static void trace_ptx(struct traced *tr, const char *body, uint32_t nctas, uint32_t nthreads)
{
	static char text[8192];
	snprintf(text, sizeof(text),
		 ".version 8.0\n.target sm_75\n.address_size 64\n"
		 ".visible .entry k(.param .u64 pout)\n{\n"
		 ".reg .pred %%p<8>;\n.reg .b32 %%r<32>;\n.reg .b64 %%rd<16>;\n"
		 ".shared .align 4 .b32 s[256];\n"
		 "ld.param.u64 %%rd1, [pout];\n"
		 "mov.u32 %%r1, %%tid.x;\n"
		 "%s"
		 "ret;\n}\n",
		 body);
	struct weft_ctx *ctx;
	struct weft_trace_writer *w = writer_start(tr, &ctx);
	struct weft_error err;
	struct weft_module *mod;
	if (weft_module_load_text(ctx, text, strlen(text), "dmt.ptx", &mod, &err))
		fail_msg("load: %s", err.message);
	uint64_t out;
	if (weft_malloc(ctx, (size_t)nctas * nthreads * 4, &out, &err))
		fail_msg("%s", err.message);
	struct weft_arg args[] = { WEFT_ARG(out) };
	if (weft_launch(ctx, mod, "k", weft_dim3(nctas, 1, 1), weft_dim3(nthreads, 1, 1), 0, args, 1, &err))
		fail_msg("launch: %s", err.message);
	writer_commit(tr, w, ctx);
}

static void trace_workload(struct traced *tr, const char *name)
{
	struct weft_ctx *ctx;
	struct weft_trace_writer *w = writer_start(tr, &ctx);
	struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
	struct weft_workload_result res;
	struct weft_error err;
	const struct weft_workload *wl = weft_workload_find(name);
	assert_non_null(wl);
	if (weft_workload_run(wl, ctx, &ro, &res, &err))
		fail_msg("%s: %s", name, err.message);
	writer_commit(tr, w, ctx);
}

static void analyse(struct traced *tr, uint32_t launch, const struct weft_dmt_params *prm,
		    struct weft_dmt *d)
{
	struct weft_error err;
	if (weft_dmt_analyse_launch(tr->t, launch, NULL, prm, d, &err))
		fail_msg("analyse: %s", err.message);
	if (getenv("WEFT_DMT_DUMP")) {
		struct weft_sbuf b;
		weft_sbuf_init(&b);
		weft_dmt_format(d, &b);
		fputs(weft_sbuf_str(&b), stderr);
		weft_sbuf_free(&b);
	}
}

static uint64_t hist_at(const uint64_t *h, int32_t dtid)
{
	return h ? h[dtid + (int32_t)WEFT_DMT_MAX_DIST] : 0;
}

/* The n-th (0-based) instruction whose text contains `what`. */
static uint32_t find_pc(const struct weft_dmt *d, const char *what, unsigned n)
{
	char buf[160];
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		weft_program_format_inst(d->p, pc, buf, sizeof(buf));
		if (strstr(buf, what) && n-- == 0)
			return pc;
	}
	fail_msg("no instruction %s", what);
	return UINT32_MAX;
}

/* Executed instructions with opcode op, and how many of them have removal r. */
static unsigned count_op(const struct weft_dmt *d, int op, int r, unsigned *with_r)
{
	unsigned n = 0;
	*with_r = 0;
	for (uint32_t pc = 0; pc < d->ninsts; pc++)
		if (d->p->insts[pc].op == op && d->inst[pc].exec) {
			n++;
			*with_r += d->inst[pc].removal == r;
		}
	return n;
}

/* weft_dmt_ops agrees with the totals. */
static void check_ops(const struct weft_dmt *d, struct weft_dmt_ops *o)
{
	weft_dmt_ops(d, o);
	assert_int_equal(o->simt, d->tot.thread_insts);
	assert_int_equal(o->removed, d->tot.removed_total);
	assert_int_equal(o->dmt + o->removed, o->simt);
	uint64_t sum = 0;
	for (int r = 1; r < WEFT_DMT_RM_COUNT; r++) {
		assert_int_equal(o->by_reason[r], d->tot.removed_dynamic[r]);
		sum += o->by_reason[r];
	}
	assert_int_equal(sum, o->removed);
	assert_true(o->shared_removed <= o->shared_accesses);
	assert_true(o->elsu_forwarded <= d->tot.reuse_fwd);
}

/* Removed value instructions leave nothing a kept instruction reads, and a
 * removed branch controlled only removed instructions. */
static void check_closed(const struct weft_dmt *d)
{
	const struct weft_program *p = d->p;
	struct weft_error err;
	struct weft_dom dom;
	struct weft_defuse du;
	struct weft_cdep cd;
	assert_int_equal(weft_dom_build(p, &dom, &err), 0);
	assert_int_equal(weft_defuse_build(p, &dom, &du, &err), 0);
	assert_int_equal(weft_cdep_build(p, &cd, &err), 0);
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		uint8_t r = d->inst[pc].removal;
		if (r != WEFT_DMT_RM_ADDR_ARITH && r != WEFT_DMT_RM_GUARD)
			continue;
		for (uint32_t df = du.def_base[pc]; df < du.def_base[pc + 1]; df++)
			for (uint32_t x = du.du_start[df]; x < du.du_start[df + 1]; x++)
				if (!d->inst[du.use_pc[du.du[x]]].removal)
					fail_msg("%s: removed pc %u feeds kept pc %u", p->kernel, pc,
						 du.use_pc[du.du[x]]);
	}
	for (uint32_t b = 0; b < p->nblocks; b++)
		for (uint32_t x = cd.start[b]; x < cd.start[b + 1]; x++) {
			const struct weft_block *br = &p->blocks[cd.deps[x].branch];
			uint32_t bpc = br->first + br->count - 1;
			if (d->inst[bpc].removal != WEFT_DMT_RM_GUARD)
				continue;
			for (uint32_t pc = p->blocks[b].first; pc < p->blocks[b].first + p->blocks[b].count; pc++)
				if (!d->inst[pc].removal && pc != bpc && p->insts[pc].op != WEFT_OP_BRA)
					fail_msg("%s: removed branch pc %u controls kept pc %u", p->kernel, bpc, pc);
		}
	weft_cdep_free(&cd);
	weft_defuse_free(&du);
	weft_dom_free(&dom);
}

/* ---- hand-written kernels ---- */

/* Thread t stores s[t]; after a barrier, threads t >= 3 read s[t-3]. The
 * byte offset t*4 (%r2) also addresses the global output, so it stays;
 * the shared base and the sum (%r3, %r4) feed only shared addresses. */
static const char *PRODCONS =
	"shl.b32 %r2, %r1, 2;\n"
	"mov.u32 %r3, s;\n"
	"add.s32 %r4, %r3, %r2;\n"
	"st.shared.u32 [%r4], %r1;\n"
	"bar.sync 0;\n"
	"setp.lt.u32 %p1, %r1, 3;\n"
	"@%p1 bra DONE;\n"
	"ld.shared.u32 %r5, [%r4+-12];\n"
	"cvt.u64.u32 %rd2, %r2;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n"
	"DONE:\n";

static void test_producer_consumer(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr, PRODCONS, 2, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	uint32_t ld = find_pc(&d, "ld.shared", 0), st = find_pc(&d, "st.shared", 0);
	uint32_t bar = find_pc(&d, "bar.sync", 0);
	const struct weft_dmt_inst *L = &d.inst[ld];
	assert_int_equal(L->role, WEFT_DMT_SH_LOAD);
	assert_int_equal(L->exec, 2 * 61);
	assert_int_equal(L->comm, 2 * 61);
	assert_int_equal(L->self + L->nowriter + L->racy + L->mixed, 0);
	assert_int_equal(L->dtid, 3);
	assert_int_equal(L->dtid_count, 2 * 61);
	assert_true(L->dtid_fraction == 1.0);
	assert_int_equal(L->cascade, 1);
	assert_true(L->elevator);
	assert_false(L->spill);
	assert_int_equal(L->removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[st].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[bar].removal, WEFT_DMT_RM_BARRIER);
	/* address arithmetic: only the shared base and the sum */
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r3", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r4", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "shl.b32 %r2", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r1", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_ADDR_ARITH], 2);
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_ADDR_ARITH], 2 * 2 * 64);
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_ELEVATOR_LOAD], 2 * 61);
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_ELEVATOR_STORE], 2 * 64);
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_BARRIER], 2 * 64);
	assert_int_equal(d.tot.removed_total, 2 * (61 + 64 + 64 + 2 * 64));
	/* totals and CDF */
	assert_int_equal(d.tot.ctas, 2);
	assert_int_equal(d.tot.comm, 2 * 61);
	assert_int_equal(hist_at(d.tot.hist, 3), 2 * 61);
	assert_int_equal(d.tot.abs_hist[3], 2 * 61);
	assert_int_equal(d.tot.comm_within_buffer, 2 * 61);
	assert_int_equal(d.tot.casc_hist[1], 2 * 61);
	assert_int_equal(d.tot.carried, 2 * 61);
	assert_int_equal(d.tot.local, 0);
	assert_int_equal(d.tot.elevator_nodes, 1);
	assert_true(weft_dmt_comm_cdf(&d, 2) == 0.0);
	assert_true(weft_dmt_comm_cdf(&d, 3) == 1.0);
	/* each thread reads a different address: no reuse */
	assert_int_equal(d.tot.reuse_fwd, 0);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* As the producer/consumer, but the threads also read their neighbour's
 * global output after the barrier: the barrier orders global memory too,
 * so it stays although the shared traffic is carried. */
/* Each thread stores its id to shared and global memory, meets the
 * barrier, and all but the first three load what the thread three before
 * stored: communication across a barrier in both spaces. */
static const char STORE_BAR_LOAD[] =
	"shl.b32 %r2, %r1, 2;\n"
	"mov.u32 %r3, s;\n"
	"add.s32 %r4, %r3, %r2;\n"
	"st.shared.u32 [%r4], %r1;\n"
	"cvt.u64.u32 %rd2, %r2;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r1;\n"
	"bar.sync 0;\n"
	"setp.lt.u32 %p1, %r1, 3;\n"
	"@%p1 bra DONE;\n"
	"ld.shared.u32 %r5, [%r4+-12];\n"
	"ld.global.u32 %r6, [%rd3+-4];\n"
	"DONE:\n";

static void test_global_keeps_barrier(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr, STORE_BAR_LOAD, 2, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_int_equal(d.tot.global_comm, 2 * 61);
	assert_int_equal(d.inst[find_pc(&d, "ld.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.bars_kept_global, 1);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Per barrier with global memory: every thread reads its partner's output
 * word, then (after B1) overwrites its own: a write after another thread's
 * read, which B1 orders, so B1 stays although the shared exchange it also
 * orders is carried. B2 orders only a carried exchange: it goes. */
static void test_global_orders_barrier(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "cvt.u64.u32 %rd2, %r2;\n"
		  "add.s64 %rd3, %rd1, %rd2;\n"
		  "xor.b32 %r7, %r2, 4;\n"
		  "cvt.u64.u32 %rd4, %r7;\n"
		  "add.s64 %rd5, %rd1, %rd4;\n"
		  "st.shared.u32 [%r4], %r1;\n"        /* exchange 1 */
		  "ld.global.u32 %r6, [%rd5];\n"       /* out[t ^ 1] */
		  "bar.sync 0;\n"                      /* B1 */
		  "add.s32 %r5, %r2, 4;\n"
		  "and.b32 %r5, %r5, 252;\n"
		  "add.s32 %r11, %r3, %r5;\n"
		  "ld.shared.u32 %r8, [%r11];\n"       /* dTID -1 */
		  "st.global.u32 [%rd3], %r8;\n"       /* out[t]: its partner read it before B1 */
		  "st.shared.u32 [%r4+256], %r8;\n"    /* exchange 2 */
		  "bar.sync 0;\n"                      /* B2 */
		  "ld.shared.u32 %r9, [%r11+256];\n"   /* dTID -1 */
		  "add.s32 %r10, %r9, %r6;\n"
		  "st.global.u32 [%rd3], %r10;\n",     /* its own word again: no ordering */
		  2, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	check_closed(&d);
	assert_int_equal(d.tot.global_comm, 0);
	assert_int_equal(d.tot.global_order, 2 * 64);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(d.inst[find_pc(&d, "ld.shared", i)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
		assert_int_equal(d.inst[find_pc(&d, "st.shared", i)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	}
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 1)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.tot.bars_kept_global, 1);
	assert_int_equal(d.tot.bars_kept_shared, 0);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_dmt_format(&d, &b);
	assert_non_null(strstr(weft_sbuf_str(&b), "orders a global access of one thread against another's"));
	weft_sbuf_free(&b);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Global words through atomics, only some of them written: even threads
 * add to out[t], and after the barrier every thread reads its partner's
 * word out[t ^ 1]. Odd threads read a word an atomic of the CTA wrote in
 * the epoch before (read after write: global communication, so the
 * barrier stays); even threads read an odd word no thread of the CTA
 * writes, which passes nothing (the analysis tracks only words the CTA
 * stores to, atomics included). */
static void test_global_atomic_words(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "cvt.u64.u32 %rd2, %r2;\n"
		  "add.s64 %rd3, %rd1, %rd2;\n"
		  "and.b32 %r3, %r1, 1;\n"
		  "setp.eq.u32 %p1, %r3, 0;\n"
		  "@%p1 atom.global.add.u32 %r4, [%rd3], 1;\n"
		  "bar.sync 0;\n"
		  "xor.b32 %r7, %r2, 4;\n"
		  "cvt.u64.u32 %rd4, %r7;\n"
		  "add.s64 %rd5, %rd1, %rd4;\n"
		  "ld.global.u32 %r6, [%rd5];\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_int_equal(d.tot.global_comm, 32);
	assert_int_equal(d.tot.global_order, 0);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.bars_kept_global, 1);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Memory value reuse inside one barrier epoch: every thread loads out[0]
 * with the same instruction, warp 0 before its barrier (epoch 0), warp 1
 * after its own (epoch 1). Between the two, every thread of the CTA has
 * run up to a barrier (and the CTA's stores before it would be visible),
 * so an eLSU does not hand warp 0's value to warp 1: one group per warp,
 * each forwarded 31 times at distance 1. */
static void test_reuse_per_epoch(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "setp.lt.u32 %p1, %r1, 32;\n"
		  "@%p1 bra A;\n"
		  "bar.sync 0;\n"                    /* warp 1: before its load */
		  "A:\n"
		  "ld.global.u32 %r6, [%rd1];\n"     /* warp 0: epoch 0; warp 1: epoch 1 */
		  "@%p1 bar.sync 0;\n",              /* warp 0: after its load */
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	const struct weft_dmt_inst *L = &d.inst[find_pc(&d, "ld.global", 0)];
	assert_int_equal(L->exec, 64);
	assert_int_equal(L->reuse_groups, 2);
	assert_int_equal(L->reuse_fwd, 62);
	assert_int_equal(hist_at(L->reuse_hist, 1), 62);
	assert_int_equal(L->reuse_window, 32);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Thread 0 writes s[0]; after a barrier every thread reads it. */
static void test_broadcast(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "setp.ne.u32 %p1, %r1, 0;\n"
		  "mov.u32 %r2, 42;\n"
		  "@!%p1 st.shared.u32 [s], %r2;\n"
		  "bar.sync 0;\n"
		  "ld.shared.u32 %r5, [s];\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	const struct weft_dmt_inst *L = &d.inst[find_pc(&d, "ld.shared", 0)];
	assert_int_equal(L->exec, 64);
	assert_int_equal(L->self, 1);
	assert_int_equal(L->comm, 63);
	for (int32_t t = 0; t < 64; t++)
		assert_int_equal(hist_at(L->hist, t), 1);
	assert_false(L->elevator); /* 1/64 of the instances share a distance */
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	/* memory value reuse: one access, forwarded 63 times at distance 1 */
	assert_int_equal(L->reuse_groups, 1);
	assert_int_equal(L->reuse_fwd, 63);
	assert_int_equal(L->reuse_dtid, 1);
	assert_int_equal(hist_at(L->reuse_hist, 1), 63);
	assert_int_equal(L->reuse_window, 64);
	assert_int_equal(d.tot.reuse_within_buffer, 63);
	assert_int_equal(d.tot.comm_within_buffer, 16);
	assert_int_equal(d.tot.casc_hist[1], 16);
	assert_int_equal(d.tot.casc_hist[4], 15);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Epochs: s[t] written in epoch 0 (A) and rewritten in epoch 2 (B);
 * reads of the neighbours in epochs 1 and 3 see A and B; in epoch 3 the
 * threads write s[t] again (C) and read s[t ^ 32]: the other warp's C is
 * a same-epoch race, so the value comes from B. */
static void test_barrier_epochs(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.shared.u32 [%r4], %r1;\n"      /* A, epoch 0 */
		  "bar.sync 0;\n"
		  "ld.shared.u32 %r5, [%r4+4];\n"    /* s[t+1]: A of t+1 */
		  "bar.sync 0;\n"
		  "st.shared.u32 [%r4], %r5;\n"      /* B, epoch 2 */
		  "ld.shared.u32 %r6, [%r4];\n"      /* own B */
		  "bar.sync 0;\n"
		  "ld.shared.u32 %r7, [%r4+8];\n"    /* s[t+2]: B of t+2 */
		  "st.shared.u32 [%r4], %r7;\n"      /* C, epoch 3 */
		  "xor.b32 %r8, %r2, 128;\n"
		  "add.s32 %r9, %r3, %r8;\n"
		  "ld.shared.u32 %r10, [%r9];\n",    /* s[t^32]: race with C */
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	const struct weft_dmt_inst *L1 = &d.inst[find_pc(&d, "ld.shared", 0)];
	const struct weft_dmt_inst *L2 = &d.inst[find_pc(&d, "ld.shared", 1)];
	const struct weft_dmt_inst *L3 = &d.inst[find_pc(&d, "ld.shared", 2)];
	const struct weft_dmt_inst *L4 = &d.inst[find_pc(&d, "ld.shared", 3)];
	/* s[t+1] for t = 63 reads s[64], never written (the array is 256 words) */
	assert_int_equal(L1->comm, 63);
	assert_int_equal(L1->nowriter, 1);
	assert_int_equal(hist_at(L1->hist, -1), 63);
	assert_int_equal(L2->self, 64);
	assert_int_equal(L2->comm, 0);
	assert_int_equal(L3->comm, 62);
	assert_int_equal(L3->nowriter, 2);
	assert_int_equal(hist_at(L3->hist, -2), 62);
	assert_int_equal(L3->racy, 0);
	/* warp 1 reads warp 0's C of the same epoch (a race): B instead */
	assert_int_equal(L4->comm, 64);
	assert_int_equal(L4->racy, 32);
	assert_int_equal(hist_at(L4->hist, -32), 32);
	assert_int_equal(hist_at(L4->hist, 32), 32);
	/* A is read only by the carried s[t+1] load (63 of 64 at -1); B also
	 * by the racy load, which no elevator carries; C is never read */
	assert_true(L1->elevator && L2->elevator && L3->elevator);
	assert_false(L4->elevator);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 1)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 2)].removal, WEFT_DMT_KEEP);
	/* the first barrier orders only A and its carried reader: it goes; the
	 * other two are next to the kept stores B and C */
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 1)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 2)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_BARRIER], 1);
	assert_int_equal(d.tot.bars_kept_shared, 2);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Lanes of one group in different epochs. With groups of 64 lanes the
 * two emulated warps of the CTA run in one group, and they reach barrier
 * 0 on different paths: warp 0 at A (then stores s[t] in epoch 1), warp 1
 * after storing s[t] in epoch 0 at B, where it then reads s[t - 32] in
 * epoch 1. The taken path runs first in the group, so warp 0's epoch-1
 * stores come before warp 1's epoch-0 ones: the analysis, which holds one
 * epoch's records at a time, keeps them in the group's queue until epoch 1
 * and replays them before the load that follows them in lock-step order
 * (dTID 32, not racy: the same group). After the join, warp 0 reads
 * s[t + 32] (epoch 2, dTID -32). */
static void test_epoch_ahead(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "setp.lt.u32 %p1, %r1, 32;\n"
		  "@%p1 bra A;\n"
		  "st.shared.u32 [%r4], %r1;\n"      /* warp 1: epoch 0 */
		  "bar.sync 0;\n"                    /* B */
		  "sub.s32 %r5, %r4, 128;\n"
		  "ld.shared.u32 %r6, [%r5];\n"      /* warp 1, epoch 1: s[t - 32] */
		  "bra.uni J;\n"
		  "A:\n"
		  "bar.sync 0;\n"                    /* A */
		  "st.shared.u32 [%r4], %r1;\n"      /* warp 0: epoch 1 */
		  "J:\n"
		  "bar.sync 0;\n"
		  "@%p1 ld.shared.u32 %r7, [%r4+128];\n", /* warp 0, epoch 2: s[t + 32] */
		  1, 64);
	struct weft_dmt_params prm;
	weft_dmt_params_default(&prm);
	prm.warp_width = 64;
	struct weft_dmt d;
	analyse(&tr, 0, &prm, &d);
	const struct weft_dmt_inst *L1 = &d.inst[find_pc(&d, "ld.shared", 0)];
	const struct weft_dmt_inst *L2 = &d.inst[find_pc(&d, "ld.shared", 1)];
	assert_int_equal(L1->exec, 32);
	assert_int_equal(L1->comm, 32);
	assert_int_equal(hist_at(L1->hist, 32), 32);
	assert_int_equal(L1->racy, 0);
	assert_int_equal(L1->nowriter, 0);
	assert_int_equal(L2->exec, 32);
	assert_int_equal(L2->comm, 32);
	assert_int_equal(hist_at(L2->hist, -32), 32);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Warp-synchronous code: lanes store s[t], then (no barrier) read
 * s[t ^ 1]. In lock-step (width 32) the neighbour's store came first;
 * without lock-step (width 1) it is a same-epoch store of another thread. */
static void test_lock_step(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.volatile.shared.u32 [%r4], %r1;\n"
		  "xor.b32 %r8, %r2, 4;\n"
		  "add.s32 %r9, %r3, %r8;\n"
		  "ld.volatile.shared.u32 %r10, [%r9];\n",
		  1, 32);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	const struct weft_dmt_inst *L = &d.inst[find_pc(&d, "ld.volatile.shared", 0)];
	assert_int_equal(L->comm, 32);
	assert_int_equal(L->racy, 0);
	assert_int_equal(hist_at(L->hist, 1), 16);
	assert_int_equal(hist_at(L->hist, -1), 16);
	weft_dmt_free(&d);
	struct weft_dmt_params prm;
	weft_dmt_params_default(&prm);
	prm.warp_width = 1;
	analyse(&tr, 0, &prm, &d);
	L = &d.inst[find_pc(&d, "ld.volatile.shared", 0)];
	assert_int_equal(L->comm, 0);
	assert_int_equal(L->nowriter, 32);
	/* races are seen from the later thread of each pair (replay order) */
	assert_int_equal(L->racy, 16);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* A generic 8-byte load of s[t & ~1], s[(t & ~1) + 1]: resolved to shared,
 * its bytes come from two threads (mixed); the first byte's writer gives
 * dTID 0 for even and 1 for odd threads. */
static void test_generic_vector(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.shared.u32 [%r4], %r1;\n"
		  "bar.sync 0;\n"
		  "and.b32 %r5, %r2, -8;\n"
		  "add.s32 %r7, %r3, %r5;\n"
		  "cvt.u64.u32 %rd2, %r7;\n"
		  "cvta.shared.u64 %rd3, %rd2;\n"
		  "ld.v2.u32 {%r8, %r9}, [%rd3];\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	const struct weft_dmt_inst *L = &d.inst[find_pc(&d, "ld.v2", 0)];
	assert_int_equal(L->role, WEFT_DMT_SH_LOAD);
	assert_int_equal(L->exec, 64);
	assert_int_equal(L->mixed, 64);
	assert_int_equal(L->self, 32);
	assert_int_equal(L->comm, 32);
	assert_int_equal(hist_at(L->hist, 1), 32);
	assert_false(L->elevator); /* half at 0, half at 1 */
	/* both threads of a pair load the same 8 bytes of the same stores */
	assert_int_equal(L->reuse_fwd, 32);
	assert_int_equal(L->reuse_dtid, 1);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* A tree level written with guards: the upper half publishes its sum,
 * then the lower half adds it; a second level reads with a guarded load.
 * The publish guard controls only the removed store: its compare and
 * branch go. The receive guard also controls the partial sum (kept work):
 * it stays. The guarded load is removed, but its value goes on into the
 * kept add, so its elevator stays predicated and the compare stays. */
static void test_guard_tree_level(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "add.u32 %r2, %r1, 1;\n"
		  "shl.b32 %r3, %r1, 2;\n"
		  "mov.u32 %r4, s;\n"
		  "add.s32 %r5, %r4, %r3;\n"
		  "setp.ge.u32 %p3, %r1, 32;\n"
		  "@!%p3 bra PUB;\n"
		  "st.shared.u32 [%r5], %r2;\n"        /* the upper half publishes */
		  "PUB:\n"
		  "bar.sync 0;\n"
		  "setp.lt.u32 %p1, %r1, 32;\n"
		  "@!%p1 bra RECV;\n"
		  "ld.shared.u32 %r6, [%r5+128];\n"    /* s[tid + 32]: dTID -32 */
		  "add.s32 %r2, %r2, %r6;\n"           /* the partial sum */
		  "st.shared.u32 [%r5], %r2;\n"
		  "RECV:\n"
		  "bar.sync 0;\n"
		  "setp.lt.u32 %p4, %r1, 16;\n"
		  "mov.u32 %r8, 0;\n"
		  "@%p4 ld.shared.u32 %r8, [%r5+64];\n" /* s[tid + 16]: dTID -16 */
		  "add.s32 %r2, %r2, %r8;\n"
		  "cvt.u64.u32 %rd2, %r3;\n"
		  "add.s64 %rd3, %rd1, %rd2;\n"
		  "st.global.u32 [%rd3], %r2;\n",
		  2, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	check_closed(&d);
	uint32_t l1 = find_pc(&d, "ld.shared", 0), l2 = find_pc(&d, "ld.shared", 1);
	assert_int_equal(d.inst[l1].dtid, -32);
	assert_int_equal(d.inst[l2].dtid, -16);
	assert_int_equal(d.inst[l1].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[l2].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 1)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 1)].removal, WEFT_DMT_RM_BARRIER);
	/* the publish guard goes */
	assert_int_equal(d.inst[find_pc(&d, "setp.ge.u32 %p3", 0)].removal, WEFT_DMT_RM_GUARD);
	assert_int_equal(d.inst[find_pc(&d, "bra", 0)].removal, WEFT_DMT_RM_GUARD);
	/* the receive guard and the partial sums stay */
	assert_int_equal(d.inst[find_pc(&d, "setp.lt.u32 %p1", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bra", 1)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r2, %r2, %r6", 0)].removal, WEFT_DMT_KEEP);
	/* the guarded load's predicate and its constant stay */
	assert_int_equal(d.inst[find_pc(&d, "setp.lt.u32 %p4", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r8, 0", 0)].removal, WEFT_DMT_KEEP);
	/* shared addresses go; the byte offset also addresses the output */
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r4, s", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r5", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "shl.b32 %r3", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_GUARD], 2);
	/* the compare runs in every thread, the branch is taken by the lower half */
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_GUARD], 2 * (64 + 32));
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Three exchanges: the first beside a kept broadcast, the second and third
 * carried. B1 orders the kept store of the broadcast: it stays. B2 stays
 * too: the broadcast load is in the epoch before it (the rule looks at the
 * neighbouring epochs, not at which accesses conflict). B3 sits between
 * two removed exchanges only: it goes. */
static void test_barrier_per_barrier(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.shared.u32 [%r4+256], %r1;\n"   /* read by the broadcast */
		  "st.shared.u32 [%r4], %r1;\n"       /* exchange 1 */
		  "bar.sync 0;\n"                     /* B1 */
		  "ld.shared.u32 %r10, [%r3+256];\n"  /* broadcast: kept */
		  "add.s32 %r5, %r2, 4;\n"
		  "and.b32 %r5, %r5, 252;\n"
		  "add.s32 %r6, %r3, %r5;\n"
		  "ld.shared.u32 %r7, [%r6];\n"       /* s[(t + 1) % 64]: dTID -1 */
		  "add.s32 %r7, %r7, %r10;\n"
		  "st.shared.u32 [%r4+512], %r7;\n"   /* exchange 2 */
		  "bar.sync 0;\n"                     /* B2 */
		  "add.s32 %r11, %r2, 8;\n"
		  "and.b32 %r11, %r11, 252;\n"
		  "add.s32 %r12, %r3, %r11;\n"
		  "ld.shared.u32 %r13, [%r12+512];\n" /* dTID -2 */
		  "st.shared.u32 [%r4+768], %r13;\n"  /* exchange 3 */
		  "bar.sync 0;\n"                     /* B3 */
		  "ld.shared.u32 %r14, [%r6+768];\n"  /* dTID -1 */
		  "cvt.u64.u32 %rd2, %r2;\n"
		  "add.s64 %rd3, %rd1, %rd2;\n"
		  "st.global.u32 [%rd3], %r14;\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	check_closed(&d);
	assert_int_equal(d.inst[find_pc(&d, "ld.shared", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_KEEP);
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(d.inst[find_pc(&d, "ld.shared", i)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(d.inst[find_pc(&d, "st.shared", i)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 1)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 2)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.tot.bars_kept_shared, 2);
	assert_int_equal(d.tot.bars_kept_global, 0);
	assert_int_equal(d.tot.removed_dynamic[WEFT_DMT_RM_BARRIER], 64);
	/* the report says why each stays */
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_dmt_format(&d, &b);
	assert_non_null(strstr(weft_sbuf_str(&b), "orders only removed shared accesses"));
	assert_non_null(strstr(weft_sbuf_str(&b), "orders kept pc"));
	weft_sbuf_free(&b);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* One store read by a carried load and by a broadcast that no elevator
 * carries: the store stays (a kept load reads it), and with it its
 * address and the barrier; only the carried load's own index goes. */
static void test_store_kept_by_kept_load(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.shared.u32 [%r4], %r1;\n"
		  "bar.sync 0;\n"
		  "add.s32 %r5, %r2, 4;\n"
		  "and.b32 %r5, %r5, 252;\n"
		  "add.s32 %r6, %r3, %r5;\n"
		  "ld.shared.u32 %r7, [%r6];\n"       /* s[(t + 1) % 64]: carried */
		  "ld.shared.u32 %r8, [%r3+4];\n"     /* s[1] in every thread: kept */
		  "add.s32 %r9, %r7, %r8;\n"
		  "cvt.u64.u32 %rd2, %r2;\n"
		  "add.s64 %rd3, %rd1, %rd2;\n"
		  "st.global.u32 [%rd3], %r9;\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	check_closed(&d);
	uint32_t st = find_pc(&d, "st.shared", 0), bc = find_pc(&d, "ld.shared", 1);
	assert_int_equal(d.inst[find_pc(&d, "ld.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[bc].removal, WEFT_DMT_KEEP);
	uint32_t w[4];
	assert_int_equal(weft_dmt_load_writers(&d, bc, w, 4), 1);
	assert_int_equal(w[0], st);
	assert_int_equal(d.inst[st].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r4", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r3", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r5", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "and.b32 %r5", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r6", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_ADDR_ARITH], 3);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_ELEVATOR_STORE], 0);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* A reduction tree as a loop nvcc did not unroll: one static load reads
 * s[t + d] with d = 32, 16, .., 1, a different distance per iteration,
 * so no one distance covers 90% of its instances; per iteration (the
 * thread's k-th execution) each is constant. Carried per iteration: the
 * stores, both barriers and the address arithmetic go; the guard stays
 * (it controls the partial sum). */
static const char *TREE_LOOP =
	"shl.b32 %r2, %r1, 2;\n"
	"mov.u32 %r3, s;\n"
	"add.s32 %r4, %r3, %r2;\n"
	"add.u32 %r5, %r1, 1;\n"
	"st.shared.u32 [%r4], %r5;\n"
	"mov.u32 %r10, 32;\n"
	"LOOP:\n"
	"bar.sync 0;\n"
	"setp.ge.u32 %p1, %r1, %r10;\n"
	"@%p1 bra NEXT;\n"
	"shl.b32 %r11, %r10, 2;\n"
	"add.s32 %r12, %r4, %r11;\n"
	"ld.shared.u32 %r6, [%r12];\n"   /* s[t + d]: dTID -d */
	"ld.shared.u32 %r7, [%r4];\n"    /* own partial sum */
	"add.s32 %r8, %r6, %r7;\n"
	"st.shared.u32 [%r4], %r8;\n"
	"NEXT:\n"
	"shr.u32 %r10, %r10, 1;\n"
	"setp.ne.u32 %p2, %r10, 0;\n"
	"@%p2 bra LOOP;\n"
	"bar.sync 0;\n"
	"setp.ne.u32 %p3, %r1, 0;\n"
	"@%p3 bra DONE;\n"
	"ld.shared.u32 %r9, [s];\n"
	"st.global.u32 [%rd1], %r9;\n"
	"DONE:\n";

static void test_tree_loop_per_iteration(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr, TREE_LOOP, 2, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	check_closed(&d);
	uint32_t ld = find_pc(&d, "ld.shared.u32 %r6", 0);
	const struct weft_dmt_inst *L = &d.inst[ld];
	assert_int_equal(L->exec, 2 * (32 + 16 + 8 + 4 + 2 + 1));
	assert_int_equal(L->dtid, -32);
	assert_true(L->dtid_fraction < 0.9);
	assert_true(L->per_iter);
	assert_true(L->elevator);
	assert_int_equal(L->niters, 6);
	assert_int_equal(L->iter_count, L->exec);
	assert_int_equal(L->cascade, 2);             /* 32 needs two 16-entry elevators */
	assert_int_equal(L->elevators, 2 + 5 * 1);   /* the six unrolled copies */
	assert_int_equal(L->removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	int32_t dt[8];
	assert_int_equal(weft_dmt_iter_distances(&d, ld, dt, 8), 6);
	for (int k = 0; k < 6; k++)
		assert_int_equal(dt[k], -(32 >> k));
	assert_int_equal(d.inst[find_pc(&d, "ld.shared.u32 %r7", 0)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[find_pc(&d, "ld.shared.u32 %r9", 0)].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 1)].removal, WEFT_DMT_RM_ELEVATOR_STORE);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 1)].removal, WEFT_DMT_RM_BARRIER);
	assert_int_equal(d.inst[find_pc(&d, "shl.b32 %r11", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r12", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r4", 0)].removal, WEFT_DMT_RM_ADDR_ARITH);
	assert_int_equal(d.inst[find_pc(&d, "setp.ge.u32 %p1", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "add.s32 %r8", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "mov.u32 %r10", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.per_iter_loads, 1);
	assert_int_equal(d.tot.elevator_nodes, 7);
	assert_int_equal(d.tot.carried, L->exec);
	/* an iteration's distance beyond max_cascade elevators spills the load */
	struct weft_dmt_params prm;
	weft_dmt_params_default(&prm);
	prm.max_cascade = 1;
	struct weft_error err;
	assert_int_equal(weft_dmt_redecide(&d, &prm, &err), 0);
	assert_true(L->per_iter && L->spill);
	assert_int_equal(L->removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	/* back to the defaults: the same as a fresh analysis */
	weft_dmt_params_default(&prm);
	assert_int_equal(weft_dmt_redecide(&d, &prm, &err), 0);
	struct weft_dmt fresh;
	analyse(&tr, 0, NULL, &fresh);
	for (uint32_t pc = 0; pc < d.ninsts; pc++)
		assert_int_equal(d.inst[pc].removal, fresh.inst[pc].removal);
	assert_int_equal(d.tot.removed_total, fresh.tot.removed_total);
	weft_dmt_free(&fresh);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* The report names the distances, the removable instructions and reasons. */
static void test_format(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr, PRODCONS, 1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_dmt_format(&d, &b);
	const char *t = weft_sbuf_str(&b);
	assert_false(b.failed);
	assert_non_null(strstr(t, "kernel k, 1 CTAs, 64 threads"));
	assert_non_null(strstr(t, "within one token buffer (|dTID| <= 16): 100.00% of 61"));
	assert_non_null(strstr(t, "elevator-load"));
	assert_non_null(strstr(t, "elevator-store"));
	assert_non_null(strstr(t, "barrier"));
	assert_non_null(strstr(t, "addr-arith"));
	assert_non_null(strstr(t, "ld.shared.u32 %r5"));
	assert_non_null(strstr(t, "guard"));
	/* dynamic operations against the SIMT baseline */
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	char want[160];
	snprintf(want, sizeof(want), "SIMT %llu, dMT %llu; removed %llu", (unsigned long long)o.simt,
		 (unsigned long long)o.dmt, (unsigned long long)o.removed);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "orders only removed shared accesses"));
	assert_true(o.removed_share > 0 && o.removed_share < 1);
	assert_int_equal(o.shared_removed, o.shared_accesses);
	weft_sbuf_free(&b);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* Distance 40: three 16-entry elevators; spills when at most two may chain. */
static void test_cascades(void **state)
{
	(void)state;
	assert_int_equal(weft_dmt_cascades(0, 16), 0);
	assert_int_equal(weft_dmt_cascades(1, 16), 1);
	assert_int_equal(weft_dmt_cascades(16, 16), 1);
	assert_int_equal(weft_dmt_cascades(17, 16), 2);
	assert_int_equal(weft_dmt_cascades(-33, 16), 3);
	assert_int_equal(weft_dmt_cascades(40, 1), 40);
	struct traced tr;
	trace_ptx(&tr,
		  "shl.b32 %r2, %r1, 2;\n"
		  "mov.u32 %r3, s;\n"
		  "add.s32 %r4, %r3, %r2;\n"
		  "st.shared.u32 [%r4], %r1;\n"
		  "bar.sync 0;\n"
		  "setp.lt.u32 %p1, %r1, 40;\n"
		  "@%p1 bra DONE;\n"
		  "ld.shared.u32 %r5, [%r4+-160];\n"
		  "DONE:\n",
		  1, 64);
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	uint32_t ld = find_pc(&d, "ld.shared", 0);
	assert_int_equal(d.inst[ld].dtid, 40);
	assert_int_equal(d.inst[ld].cascade, 3);
	assert_true(d.inst[ld].elevator);
	assert_false(d.inst[ld].spill);
	assert_int_equal(d.inst[ld].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.tot.casc_hist[3], 24);
	assert_int_equal(d.tot.elevator_nodes, 3);
	assert_int_equal(d.tot.comm_within_buffer, 0);
	assert_int_equal(d.tot.comm_spilled, 0);
	weft_dmt_free(&d);

	struct weft_dmt_params prm;
	weft_dmt_params_default(&prm);
	prm.max_cascade = 2;
	analyse(&tr, 0, &prm, &d);
	assert_true(d.inst[ld].elevator);
	assert_true(d.inst[ld].spill);
	assert_int_equal(d.inst[ld].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "st.shared", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.inst[find_pc(&d, "bar.sync", 0)].removal, WEFT_DMT_KEEP);
	assert_int_equal(d.tot.comm_spilled, 24);
	assert_int_equal(d.tot.elevator_nodes, 0);
	assert_int_equal(d.tot.removed_total, 0);
	weft_dmt_free(&d);

	prm.max_cascade = 16;
	prm.token_buffer = 64;
	analyse(&tr, 0, &prm, &d);
	assert_int_equal(d.inst[ld].cascade, 1);
	assert_int_equal(d.tot.comm_within_buffer, 24);

	/* the same decisions from one replay of the CTAs */
	struct weft_error err;
	prm.token_buffer = 16;
	prm.max_cascade = 2;
	assert_int_equal(weft_dmt_redecide(&d, &prm, &err), 0);
	assert_int_equal(d.inst[ld].cascade, 3);
	assert_true(d.inst[ld].spill);
	assert_int_equal(d.tot.comm_spilled, 24);
	assert_int_equal(d.tot.removed_total, 0);
	assert_int_equal(d.tot.ctas, 1);
	prm.max_cascade = 16;
	assert_int_equal(weft_dmt_redecide(&d, &prm, &err), 0);
	assert_false(d.inst[ld].spill);
	assert_int_equal(d.inst[ld].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.tot.casc_hist[3], 24);
	assert_true(d.tot.removed_total > 0);
	prm.warp_width = 8;
	assert_int_equal(weft_dmt_redecide(&d, &prm, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "warp_width"));
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* A token-buffer sweep by weft_dmt_redecide equals fresh analyses. */
static void test_redecide_sweep(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "reduce");
	struct weft_dmt once;
	analyse(&tr, 0, NULL, &once);
	static const uint32_t tbs[] = { 1, 2, 4, 8, 16, 32 };
	for (unsigned i = 0; i < sizeof(tbs) / sizeof(tbs[0]); i++) {
		struct weft_dmt_params prm;
		weft_dmt_params_default(&prm);
		prm.token_buffer = tbs[i];
		struct weft_error err;
		assert_int_equal(weft_dmt_redecide(&once, &prm, &err), 0);
		struct weft_dmt fresh;
		analyse(&tr, 0, &prm, &fresh);
		assert_int_equal(once.tot.removed_total, fresh.tot.removed_total);
		assert_int_equal(once.tot.comm_within_buffer, fresh.tot.comm_within_buffer);
		assert_int_equal(once.tot.comm_spilled, fresh.tot.comm_spilled);
		assert_int_equal(once.tot.elevator_nodes, fresh.tot.elevator_nodes);
		assert_memory_equal(once.tot.casc_hist, fresh.tot.casc_hist, sizeof(once.tot.casc_hist));
		for (uint32_t pc = 0; pc < once.ninsts; pc++) {
			assert_int_equal(once.inst[pc].removal, fresh.inst[pc].removal);
			assert_int_equal(once.inst[pc].cascade, fresh.inst[pc].cascade);
		}
		/* token buffer 1: distances 128, 64 and 32 need more than 16
		 * elevators and spill; from 8 on nothing spills */
		if (tbs[i] == 1)
			assert_int_equal(once.tot.comm_spilled, hist_at(once.tot.hist, -128) +
					 hist_at(once.tot.hist, -64) + hist_at(once.tot.hist, -32));
		if (tbs[i] >= 8)
			assert_int_equal(once.tot.comm_spilled, 0);
		weft_dmt_free(&fresh);
	}
	weft_dmt_free(&once);
	traced_close(&tr);
}

static void test_params(void **state)
{
	(void)state;
	struct traced tr;
	trace_ptx(&tr, "", 1, 32);
	struct weft_dmt_params prm;
	weft_dmt_params_default(&prm);
	assert_int_equal(prm.token_buffer, 16);
	assert_int_equal(prm.max_cascade, 16);
	assert_int_equal(prm.lvc_bytes, 65536);
	struct weft_dmt d;
	struct weft_error err;
	prm.token_buffer = 0;
	assert_int_equal(weft_dmt_analyse_launch(tr.t, 0, NULL, &prm, &d, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "token_buffer"));
	weft_dmt_params_default(&prm);
	prm.min_fraction = 0;
	assert_int_equal(weft_dmt_analyse_launch(tr.t, 0, NULL, &prm, &d, &err), WEFT_ERR_INPUT);
	assert_int_equal(weft_dmt_analyse_launch(tr.t, 5, NULL, NULL, &d, &err), WEFT_ERR_INPUT);
	traced_close(&tr);
}

/* A kernel of n copies of `line`, its static program built by the emulator. */
static struct weft_program *repeated_kernel(struct weft_ctx *ctx, const char *line, uint32_t n)
{
	size_t cap = (size_t)n * (strlen(line) + 2) + 512, len = 0;
	char *t = malloc(cap);
	assert_non_null(t);
	len += (size_t)snprintf(t + len, cap - len,
				".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry big()\n{\n"
				"\t.reg .b32 %%r<2>;\n\t.shared .align 4 .b8 sbuf[64];\n\tmov.u32 %%r1, 1;\n");
	for (uint32_t i = 0; i < n; i++)
		len += (size_t)snprintf(t + len, cap - len, "\t%s\n", line);
	len += (size_t)snprintf(t + len, cap - len, "\tret;\n}\n");
	struct weft_module *mod;
	struct weft_error err;
	assert_int_equal(weft_module_load_text(ctx, t, len, "big.ptx", &mod, &err), 0);
	free(t);
	struct weft_program *p;
	assert_int_equal(weft_module_program(mod, 0, &p, &err), 0);
	return p;
}

/* A kernel with more memory instructions or barriers than the analysis
 * takes is refused before its tables of pairs are sized (a trace's program
 * is hostile input: a few KB of file can hold 100000 of them). */
static void test_kernel_limits(void **state)
{
	(void)state;
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	assert_non_null(ctx);
	struct weft_dmt d;
	struct weft_error err;
	struct weft_program *p = repeated_kernel(ctx, "st.shared.u32 [sbuf], %r1;", WEFT_DMT_MAX_MEM_INSTS);
	assert_int_equal(weft_dmt_init(&d, p, NULL, &err), 0);
	weft_dmt_free(&d);
	weft_program_free(p);
	p = repeated_kernel(ctx, "st.shared.u32 [sbuf], %r1;", WEFT_DMT_MAX_MEM_INSTS + 1);
	assert_int_equal(weft_dmt_init(&d, p, NULL, &err), WEFT_ERR_LIMIT);
	assert_non_null(strstr(err.message, "has 4097 memory instructions and 0 barriers"));
	weft_program_free(p);
	p = repeated_kernel(ctx, "bar.sync 0;", WEFT_DMT_MAX_BARRIERS + 1);
	assert_int_equal(weft_dmt_init(&d, p, NULL, &err), WEFT_ERR_LIMIT);
	assert_non_null(strstr(err.message, "has 0 memory instructions and 4097 barriers"));
	weft_program_free(p);
	weft_ctx_destroy(ctx);
}

/* ---- bundled workloads ---- */

/* Shared loads whose mode distance is dtid and that elevators carry. */
static unsigned carried_at(const struct weft_dmt *d, int32_t dtid)
{
	unsigned n = 0;
	for (uint32_t pc = 0; pc < d->ninsts; pc++)
		n += d->inst[pc].elevator && d->inst[pc].dtid == dtid;
	return n;
}

static unsigned removed_bars(const struct weft_dmt *d)
{
	return d->tot.removed_static[WEFT_DMT_RM_BARRIER];
}

/* reduce_smem: the tree reads s[tid + d], d = 128, 64 (barriers) and then
 * 32 .. 1 warp-synchronously: thread tid receives from tid + d. */
static void test_reduce(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "reduce");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	for (int32_t k = 128; k >= 1; k /= 2) {
		assert_int_equal(carried_at(&d, -k), 1);
		assert_true(hist_at(d.tot.hist, -k) > 0);
	}
	assert_int_equal(d.tot.racy, 0);
	assert_int_equal(d.tot.nowriter, 0);
	/* 8 + 4 + 2 elevators for 128, 64, 32 and one each for 16 .. 1 */
	assert_int_equal(d.tot.elevator_nodes, 8 + 4 + 2 + 5);
	/* 128 needs 8 elevators, 64 four, 32 two */
	assert_true(d.tot.casc_hist[8] > 0 && d.tot.casc_hist[4] > 0 && d.tot.casc_hist[2] > 0);
	/* all shared traffic is carried: every barrier and store goes */
	check_closed(&d);
	unsigned n, r;
	n = count_op(&d, WEFT_OP_BAR, WEFT_DMT_RM_BARRIER, &r);
	assert_int_equal(n, 3);
	assert_int_equal(r, 3);
	n = count_op(&d, WEFT_OP_ST, WEFT_DMT_RM_ELEVATOR_STORE, &r);
	assert_int_equal(r, n - 1); /* all but the global partial */
	assert_true(d.tot.removed_static[WEFT_DMT_RM_ADDR_ARITH] > 0);
	/* the level guards (tid < d, tid < 32, tid == 0) also control the
	 * partial sums, which stay: no compare goes */
	n = count_op(&d, WEFT_OP_SETP, WEFT_DMT_KEEP, &r);
	assert_int_equal(r, n);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_GUARD], 0);
	n = count_op(&d, WEFT_OP_ADD, WEFT_DMT_KEEP, &r);
	assert_true(r >= 8); /* the first phase's sums, 2 tree levels, 6 warp steps */
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	assert_int_equal(o.shared_removed, o.shared_accesses);
	assert_int_equal(o.elsu_forwarded, 0);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* scan_block (Blelloch): each level reads tile[offset * (2 tid + 1) - 1],
 * written by a thread about twice as far along at the level before, so
 * the distance grows with tid: communication at every distance up to 128,
 * not a constant per instruction. */
static void test_scan(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "scan");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_true(d.tot.comm > d.tot.self);
	unsigned distinct = 0;
	for (uint32_t a = 1; a < WEFT_DMT_MAX_THREADS; a++) {
		if (d.tot.abs_hist[a])
			distinct++;
		if (a > 255)
			assert_int_equal(d.tot.abs_hist[a], 0);
	}
	assert_true(distinct >= 128);
	assert_true(d.tot.abs_hist[1] > 0 && d.tot.abs_hist[128] > 0);
	assert_true(weft_dmt_comm_cdf(&d, 16) < 0.5);
	assert_int_equal(d.tot.racy, 0);
	/* every barrier has a kept tile access next to it */
	check_closed(&d);
	unsigned r, n = count_op(&d, WEFT_OP_BAR, WEFT_DMT_KEEP, &r);
	assert_int_equal(r, n);
	assert_int_equal(d.tot.bars_kept_shared, n);
	assert_int_equal(removed_bars(&d), 0);
	/* the tree is unrolled: no loop left to carry per iteration */
	assert_int_equal(d.tot.per_iter_loads, 0);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_GUARD], 0);
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* conv_rows: thread tx of a 16-wide row reads s[ty][tx + 16 i + j] for
 * j = -8..8, written by thread (tx + j) mod 16 of the same row: distances
 * within one row (|dTID| <= 15), and +-1 for the neighbouring taps in 15
 * of 16 threads. The filter taps (.const) are read by every thread. */
static void test_convsep(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "convsep");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_true(d.tot.comm > 0);
	for (uint32_t a = 16; a < WEFT_DMT_MAX_THREADS; a++)
		assert_int_equal(d.tot.abs_hist[a], 0);
	assert_int_equal(d.tot.comm_within_buffer, d.tot.comm);
	assert_true(carried_at(&d, 1) > 0 && carried_at(&d, -1) > 0);
	for (uint32_t pc = 0; pc < d.ninsts; pc++)
		if (d.inst[pc].elevator && d.inst[pc].dtid)
			assert_true(d.inst[pc].dtid_fraction >= 15.0 / 16 - 1e-9);
	/* c_kernel taps: one access per CTA, forwarded to the next thread */
	unsigned taps = 0;
	for (uint32_t pc = 0; pc < d.ninsts; pc++)
		if (d.p->insts[pc].space == WEFT_SPACE_CONST && d.inst[pc].reuse_fwd) {
			taps++;
			assert_int_equal(d.inst[pc].reuse_dtid, 1);
			assert_int_equal(d.inst[pc].reuse_groups, d.tot.ctas);
		}
	assert_true(taps >= 17);
	/* the tile's stores are read by taps no elevator carries: they, the
	 * barrier and the addresses stay */
	check_closed(&d);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_ELEVATOR_STORE], 0);
	assert_int_equal(removed_bars(&d), 0);
	assert_int_equal(d.tot.bars_kept_shared, 1);
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	assert_int_equal(o.removed, d.tot.removed_dynamic[WEFT_DMT_RM_ELEVATOR_LOAD]);
	/* the const taps are forwarded: memory accesses, not operations */
	assert_true(o.elsu_forwarded > 0);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* matmul_tiled: As[ty][j] is read by the 16 threads of a row (forwarded
 * at distance 1), Bs[j][tx] by the 16 threads of a column (distance 16). */
static void test_matmul(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "matmul");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	unsigned at1 = 0, at16 = 0;
	for (uint32_t pc = 0; pc < d.ninsts; pc++) {
		const struct weft_dmt_inst *I = &d.inst[pc];
		if (I->role != WEFT_DMT_SH_LOAD)
			continue;
		assert_true(I->comm > 0);
		assert_int_equal(I->reuse_dtid_count, I->reuse_fwd);
		assert_int_equal(I->reuse_fwd, I->exec / 16 * 15);
		at1 += I->reuse_dtid == 1;
		at16 += I->reuse_dtid == 16;
	}
	assert_int_equal(at1, 16);
	assert_int_equal(at16, 16);
	/* the tiles are written by every thread of a row/column: the
	 * distance depends on the reader, so no elevator carries them */
	assert_int_equal(d.tot.carried, 0);
	assert_int_equal(d.tot.reuse_within_buffer, d.tot.reuse_fwd);
	/* nothing is removed; the forwarded tile loads save accesses only */
	check_closed(&d);
	assert_int_equal(d.tot.bars_kept_shared, 2);
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	assert_int_equal(o.removed, 0);
	assert_int_equal(o.dmt, o.simt);
	assert_int_equal(o.elsu_forwarded, d.tot.reuse_fwd);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* hotspot_step: the 5-point stencil reads t_s of the west/east (+-1) and
 * north/south (+-16) neighbours; t_s[ty][tx] and p_s are the thread's own. */
static void test_hotspot(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "hotspot");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_int_equal(carried_at(&d, 1), 1);
	assert_int_equal(carried_at(&d, -1), 1);
	assert_int_equal(carried_at(&d, 16), 1);
	assert_int_equal(carried_at(&d, -16), 1);
	assert_true(carried_at(&d, 0) >= 2);
	assert_int_equal(d.tot.comm_within_buffer, d.tot.comm);
	/* all three barriers go; of the guards only `if (computed) t_s = t_new`
	 * (a copy through shared memory) goes: its compare and branch; the
	 * stencil's range checks also guard its arithmetic and stay */
	check_closed(&d);
	unsigned n, r;
	n = count_op(&d, WEFT_OP_BAR, WEFT_DMT_RM_BARRIER, &r);
	assert_int_equal(n, 3);
	assert_int_equal(r, 3);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_GUARD], 2);
	uint32_t copy = find_pc(&d, "ld.shared.f32 %f29", 0);
	assert_int_equal(d.inst[copy].removal, WEFT_DMT_RM_ELEVATOR_LOAD);
	assert_int_equal(d.inst[copy - 1].removal, WEFT_DMT_RM_GUARD); /* @%p27 bra */
	assert_int_equal(d.inst[copy - 2].removal, WEFT_DMT_RM_GUARD); /* setp %p27 */
	assert_int_equal(d.inst[find_pc(&d, "@%p25 bra", 0)].removal, WEFT_DMT_KEEP);
	/* the clamped neighbour indices fed only the removed loads */
	n = count_op(&d, WEFT_OP_MIN, WEFT_DMT_RM_ADDR_ARITH, &r);
	assert_true(n >= 2 && r == n);
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	assert_int_equal(o.shared_removed, o.shared_accesses);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* pathfinder_step: min over prev[tx - 1], prev[tx], prev[tx + 1]. */
static void test_pathfinder(void **state)
{
	(void)state;
	struct traced tr;
	trace_workload(&tr, "pathfinder");
	struct weft_dmt d;
	analyse(&tr, 0, NULL, &d);
	assert_int_equal(carried_at(&d, 1), 1);
	assert_int_equal(carried_at(&d, -1), 1);
	assert_true(d.tot.comm > 0);
	for (uint32_t a = 2; a < WEFT_DMT_MAX_THREADS; a++)
		assert_int_equal(d.tot.abs_hist[a], 0);
	/* as hotspot: every barrier, and the guard of `prev[tx] = result[tx]` */
	check_closed(&d);
	unsigned n, r;
	n = count_op(&d, WEFT_OP_BAR, WEFT_DMT_RM_BARRIER, &r);
	assert_int_equal(n, 3);
	assert_int_equal(r, 3);
	assert_int_equal(d.tot.removed_static[WEFT_DMT_RM_GUARD], 2);
	uint32_t copy = find_pc(&d, "ld.shared.u32 %r58", 0);
	assert_int_equal(d.inst[copy - 1].removal, WEFT_DMT_RM_GUARD);
	assert_int_equal(d.inst[copy - 2].removal, WEFT_DMT_RM_GUARD);
	/* the `computed` flag also decides the final store: it stays */
	assert_int_equal(d.inst[find_pc(&d, "mov.u16 %rs7, 1", 0)].removal, WEFT_DMT_KEEP);
	struct weft_dmt_ops o;
	check_ops(&d, &o);
	weft_dmt_free(&d);
	traced_close(&tr);
}

/* ---- ground truth: the emulator's own execution order ----
 *
 * An observer beside the trace writer replays every shared access in the
 * order the emulator ran it (warps interleaved as it scheduled them) and
 * notes, for each load, the thread whose store its first byte returned.
 * For race-free kernels that writer must be the one the analysis finds
 * from the trace alone (barrier epochs + lock-step): every workload's
 * per-instruction distance histogram must match exactly. */

#define GT_SHARED_MAX (256u * 1024u)

struct gt {
	const struct weft_emu_observer *w;
	uint32_t launch, nthreads_x, nthreads_y;
	struct weft_dim3 block;
	int32_t *writer;          /* [GT_SHARED_MAX] tid + 1 of the last store, 0 none */
	uint32_t *writer_pc;      /* [GT_SHARED_MAX] its pc */
	uint64_t **pairs;         /* per launch: load pc * 65536 + store pc, per byte read */
	uint64_t *npairs, *cappairs;
	uint64_t **keys;          /* per launch: pc * 4096 + (dTID + 1023), or + 2047 for none */
	uint64_t *nkeys, *capkeys;
	uint32_t nlaunches;
};

static int gt_launch_begin(void *user, const struct weft_module *mod, uint32_t kernel, struct weft_dim3 grid,
			   struct weft_dim3 block, uint32_t dyn_shared, struct weft_error *err)
{
	struct gt *g = user;
	g->block = block;
	g->keys = realloc(g->keys, (g->nlaunches + 1) * sizeof(*g->keys));
	g->nkeys = realloc(g->nkeys, (g->nlaunches + 1) * sizeof(*g->nkeys));
	g->capkeys = realloc(g->capkeys, (g->nlaunches + 1) * sizeof(*g->capkeys));
	g->keys[g->nlaunches] = NULL;
	g->nkeys[g->nlaunches] = g->capkeys[g->nlaunches] = 0;
	g->pairs = realloc(g->pairs, (g->nlaunches + 1) * sizeof(*g->pairs));
	g->npairs = realloc(g->npairs, (g->nlaunches + 1) * sizeof(*g->npairs));
	g->cappairs = realloc(g->cappairs, (g->nlaunches + 1) * sizeof(*g->cappairs));
	g->pairs[g->nlaunches] = NULL;
	g->npairs[g->nlaunches] = g->cappairs[g->nlaunches] = 0;
	g->launch = g->nlaunches++;
	return g->w->launch_begin(g->w->user, mod, kernel, grid, block, dyn_shared, err);
}

static int gt_launch_end(void *user, struct weft_error *err)
{
	struct gt *g = user;
	return g->w->launch_end(g->w->user, err);
}

static int gt_cta_begin(void *user, uint32_t cta, struct weft_error *err)
{
	struct gt *g = user;
	memset(g->writer, 0, GT_SHARED_MAX * sizeof(int32_t));
	memset(g->writer_pc, 0, GT_SHARED_MAX * sizeof(uint32_t));
	return g->w->cta_begin(g->w->user, cta, err);
}

static int gt_cta_end(void *user, uint32_t cta, struct weft_error *err)
{
	struct gt *g = user;
	return g->w->cta_end(g->w->user, cta, err);
}

static int gt_warp(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct gt *g = user;
	if (ev->addr && ev->space == WEFT_SPACE_SHARED) {
		int op = ev->inst->op;
		int ld = op == WEFT_OP_LD || op == WEFT_OP_LDU, st = op == WEFT_OP_ST;
		int at = op == WEFT_OP_ATOM || op == WEFT_OP_RED;
		for (uint32_t l = 0; l < 32; l++) {
			if (!(ev->active >> l & 1))
				continue;
			uint64_t a = ev->addr[l];
			if (a >= 0x00007e0000000000ull)
				a -= 0x00007e0000000000ull;
			assert_true(a + ev->access_bytes <= GT_SHARED_MAX);
			int32_t tid = (int32_t)(ev->warp * 32 + l);
			if (ld || at) {
				int32_t w = g->writer[a];
				uint64_t key = (uint64_t)ev->pc * 4096 + (w ? (uint64_t)(tid - (w - 1) + 1023) : 2047);
				uint64_t *n = &g->nkeys[g->launch], *c = &g->capkeys[g->launch];
				if (*n == *c) {
					*c = *c ? 2 * *c : 1024;
					g->keys[g->launch] = realloc(g->keys[g->launch], *c * sizeof(uint64_t));
				}
				g->keys[g->launch][(*n)++] = key;
				for (uint32_t b = 0; b < ev->access_bytes; b++) {
					if (!g->writer[a + b])
						continue;
					n = &g->npairs[g->launch], c = &g->cappairs[g->launch];
					if (*n == *c) {
						*c = *c ? 2 * *c : 1024;
						g->pairs[g->launch] = realloc(g->pairs[g->launch], *c * sizeof(uint64_t));
					}
					g->pairs[g->launch][(*n)++] = (uint64_t)ev->pc * 65536 + g->writer_pc[a + b];
				}
			}
			if (st || at)
				for (uint32_t b = 0; b < ev->access_bytes; b++) {
					g->writer[a + b] = tid + 1;
					g->writer_pc[a + b] = ev->pc;
				}
		}
	}
	return g->w->warp_inst(g->w->user, ev, err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Returns the shared loads compared. */
static uint64_t check_ground_truth(const struct weft_workload *wl)
{
	struct traced tr;
	snprintf(tr.path, sizeof(tr.path), "/tmp/weft-dmt-XXXXXX");
	int fd = mkstemp(tr.path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(tr.path, 1, &w, &err), 0);
	struct gt g;
	memset(&g, 0, sizeof(g));
	g.w = weft_trace_writer_observer(w);
	g.writer = malloc(GT_SHARED_MAX * sizeof(int32_t));
	g.writer_pc = malloc(GT_SHARED_MAX * sizeof(uint32_t));
	struct weft_emu_observer obs = { .user = &g, .launch_begin = gt_launch_begin, .launch_end = gt_launch_end,
					  .cta_begin = gt_cta_begin, .cta_end = gt_cta_end, .warp_inst = gt_warp };
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &obs;
	o.quantum = 1; /* warps interleaved instruction by instruction */
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
	struct weft_workload_result res;
	if (weft_workload_run(wl, ctx, &ro, &res, &err))
		fail_msg("%s: %s", wl->name, err.message);
	writer_commit(&tr, w, ctx);
	uint64_t total = 0;
	for (uint32_t l = 0; l < g.nlaunches; l++) {
		struct weft_dmt d;
		analyse(&tr, l, NULL, &d);
		uint64_t *k = g.keys[l], n = g.nkeys[l], mine = 0;
		if (n)
			qsort(k, n, sizeof(uint64_t), cmp_u64);
		for (uint64_t i = 0; i < n;) {
			uint64_t j = i;
			while (j < n && k[j] == k[i])
				j++;
			uint32_t pc = (uint32_t)(k[i] / 4096), b = (uint32_t)(k[i] % 4096);
			const struct weft_dmt_inst *I = &d.inst[pc];
			uint64_t got = b == 2047 ? I->nowriter : I->hist ? I->hist[b] : 0;
			if (got != j - i)
				fail_msg("%s launch %u pc %u dTID %d: emulator order %llu, analysis %llu", wl->name, l,
					 pc, b == 2047 ? 9999 : (int)b - 1023, (unsigned long long)(j - i),
					 (unsigned long long)got);
			i = j;
		}
		for (uint32_t pc = 0; pc < d.ninsts; pc++)
			mine += d.inst[pc].comm + d.inst[pc].self + d.inst[pc].nowriter;
		assert_int_equal(mine, n);
		assert_int_equal(d.tot.racy, 0);
		check_closed(&d);
		struct weft_dmt_ops o;
		check_ops(&d, &o);
		total += n;
		/* the producing stores of each load (every byte), as sets */
		uint64_t *pr = g.pairs[l], np = g.npairs[l];
		if (np)
			qsort(pr, np, sizeof(uint64_t), cmp_u64);
		uint64_t ndistinct = 0;
		for (uint64_t i = 0; i < np; i++) {
			if (i && pr[i] == pr[i - 1])
				continue;
			ndistinct++;
			uint32_t lpc = (uint32_t)(pr[i] / 65536), spc = (uint32_t)(pr[i] % 65536);
			uint32_t ws[64], nw = weft_dmt_load_writers(&d, lpc, ws, 64), found = 0;
			for (uint32_t x = 0; x < nw && x < 64; x++)
				found |= ws[x] == spc;
			if (!found)
				fail_msg("%s launch %u: load pc %u read store pc %u in emulator order, not in the analysis",
					 wl->name, l, lpc, spc);
		}
		uint64_t nedges = 0;
		for (uint32_t pc = 0; pc < d.ninsts; pc++)
			nedges += weft_dmt_load_writers(&d, pc, NULL, 0);
		assert_int_equal(nedges, ndistinct);
		free(pr);
		weft_dmt_free(&d);
		free(k);
	}
	free(g.keys), free(g.nkeys), free(g.capkeys), free(g.writer), free(g.writer_pc);
	free(g.pairs), free(g.npairs), free(g.cappairs);
	traced_close(&tr);
	return total;
}

static void test_ground_truth(void **state)
{
	(void)state;
	unsigned with_shared = 0;
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++)
		with_shared += check_ground_truth(*wl) > 0;
	/* reduce, scan, convsep, matmul, hotspot, pathfinder at least */
	assert_true(with_shared >= 6);
}

/* ---- analyses joined (dmt_merge.c): the same as one analysis of every CTA ---- */

struct split {
	struct weft_dmt *d;
	uint32_t odd; /* add the CTAs whose id has this parity (2: every CTA) */
};

static int add_parity(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct split *sp = user;
	return sp->odd == 2 || c->cta % 2 == sp->odd ? weft_dmt_add_cta(sp->d, c, err) : 0;
}

/* The report and the counts the fabric model reads agree between a and b. */
static void assert_same_analysis(const struct weft_dmt *a, const struct weft_dmt *b, const char *what)
{
	struct weft_sbuf x, y;
	weft_sbuf_init(&x);
	weft_sbuf_init(&y);
	weft_dmt_format(a, &x);
	weft_dmt_format(b, &y);
	if (strcmp(weft_sbuf_str(&x), weft_sbuf_str(&y)))
		fail_msg("%s: the reports differ:\n%s\n----\n%s", what, weft_sbuf_str(&x), weft_sbuf_str(&y));
	weft_sbuf_free(&x);
	weft_sbuf_free(&y);
	assert_memory_equal(&a->tot, &b->tot, sizeof(a->tot));
	for (uint32_t pc = 0; pc < a->ninsts; pc++) {
		const struct weft_dmt_inst *I = &a->inst[pc], *J = &b->inst[pc];
		assert_int_equal(I->exec, J->exec);
		assert_int_equal(I->removal, J->removal);
		assert_int_equal(I->comm, J->comm);
		assert_int_equal(I->racy, J->racy);
		assert_int_equal(I->reuse_fwd, J->reuse_fwd);
		assert_int_equal(I->reuse_groups, J->reuse_groups);
		assert_int_equal(I->reuse_window, J->reuse_window);
		assert_int_equal(I->per_iter, J->per_iter);
		assert_int_equal(!I->hist, !J->hist);
		if (I->hist)
			assert_memory_equal(I->hist, J->hist, WEFT_DMT_NDIST * sizeof(uint64_t));
		assert_int_equal(!I->reuse_hist, !J->reuse_hist);
		if (I->reuse_hist)
			assert_memory_equal(I->reuse_hist, J->reuse_hist, WEFT_DMT_NDIST * sizeof(uint64_t));
	}
}

/* weft_dmt_analyse_launch analyses CTAs on several threads and joins the
 * analyses (weft_dmt_merge): on workloads with communication, barriers,
 * per-iteration loads, eLSU reuse and global ordering (reduce, scan,
 * hotspot, pathfinder, matmul, the kernel of test_global_keeps_barrier and
 * TREE_LOOP),
 * the odd CTAs' analysis joined with the even ones' (in that order), and
 * the analysis at 3 threads, equal one analysis of every CTA in order. */
static void test_join_equals_serial(void **state)
{
	(void)state;
	const char *wls[] = { "reduce", "scan", "hotspot", "pathfinder", "matmul", NULL };
	for (int w = 0; w <= 6; w++) {
		struct traced tr;
		if (w < 5) {
			trace_workload(&tr, wls[w]);
		} else if (w == 6) {
			trace_ptx(&tr, TREE_LOOP, 3, 64);
		} else {
			trace_ptx(&tr, STORE_BAR_LOAD, 5, 64);
		}
		const char *what = w < 5 ? wls[w] : w == 5 ? "global ordering kernel" : "tree loop kernel";
		struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
		struct weft_error err;
		for (uint32_t l = 0; l < weft_trace_info(tr.t)->nlaunches; l++) {
			const struct weft_program *p = weft_trace_launch(tr.t, l)->program;
			struct weft_dmt one, odd, even, joined, threads;
			assert_int_equal(weft_dmt_init(&one, p, NULL, &err), 0);
			assert_int_equal(weft_dmt_init(&odd, p, NULL, &err), 0);
			assert_int_equal(weft_dmt_init(&even, p, NULL, &err), 0);
			assert_int_equal(weft_dmt_init(&joined, p, NULL, &err), 0);
			struct split s1 = { &one, 2 }, so = { &odd, 1 }, se = { &even, 0 };
			/* one analysis, every CTA in order */
			assert_int_equal(weft_trace_for_each_cta(tr.t, l, &all, 1, add_parity, &s1, &err), 0);
			assert_int_equal(weft_trace_for_each_cta(tr.t, l, &all, 1, add_parity, &so, &err), 0);
			assert_int_equal(weft_trace_for_each_cta(tr.t, l, &all, 1, add_parity, &se, &err), 0);
			assert_int_equal(weft_dmt_merge(&joined, &odd, &err), 0);
			assert_int_equal(weft_dmt_merge(&joined, &even, &err), 0);
			assert_int_equal(weft_dmt_finish(&one, &err), 0);
			assert_int_equal(weft_dmt_finish(&joined, &err), 0);
			assert_same_analysis(&one, &joined, what);
			weft_trace_set_jobs(tr.t, 3);
			assert_int_equal(weft_dmt_analyse_launch(tr.t, l, NULL, NULL, &threads, &err), 0);
			assert_same_analysis(&one, &threads, what);
			/* a finished analysis takes no more */
			assert_int_equal(weft_dmt_merge(&joined, &odd, &err), WEFT_ERR_INTERNAL);
			weft_dmt_free(&one);
			weft_dmt_free(&odd);
			weft_dmt_free(&even);
			weft_dmt_free(&joined);
			weft_dmt_free(&threads);
		}
		traced_close(&tr);
	}
}

/* WEFT_DMT_TRACE="a.wtr b.wtr ...": instead of the tests, one markdown row
 * per trace (all launches summed, default parameters): SIMT and dMT thread
 * instructions, the removed share, the share of each reason, and the eLSU
 * forwarded loads of kept loads (the table of docs/models/dmt.md). With
 * WEFT_DMT_DUMP also each launch's report. */
static int table_rows(const char *paths)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", paths);
	printf("| workload | SIMT ops | dMT ops | removed |");
	for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
		printf(" %s |", weft_dmt_removal_name(r));
	printf(" eLSU-forwarded loads |\n");
	for (char *save = NULL, *path = strtok_r(buf, " ", &save); path; path = strtok_r(NULL, " ", &save)) {
		struct weft_trace *t;
		struct weft_error err;
		if (weft_trace_open(path, &t, &err)) {
			fprintf(stderr, "%s\n", err.message);
			return 2;
		}
		struct weft_dmt_ops sum;
		memset(&sum, 0, sizeof(sum));
		for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++) {
			struct weft_dmt d;
			struct weft_dmt_ops o;
			if (weft_dmt_analyse_launch(t, l, NULL, NULL, &d, &err)) {
				fprintf(stderr, "%s\n", err.message);
				weft_trace_close(t);
				return 2;
			}
			if (getenv("WEFT_DMT_DUMP")) {
				struct weft_sbuf b;
				weft_sbuf_init(&b);
				weft_dmt_format(&d, &b);
				fputs(weft_sbuf_str(&b), stderr);
				weft_sbuf_free(&b);
			}
			weft_dmt_ops(&d, &o);
			sum.simt += o.simt, sum.dmt += o.dmt, sum.removed += o.removed;
			for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
				sum.by_reason[r] += o.by_reason[r];
			sum.loads += o.loads, sum.elsu_forwarded += o.elsu_forwarded;
			weft_dmt_free(&d);
		}
		weft_trace_close(t);
		double S = sum.simt ? (double)sum.simt : 1.0;
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		const char *dot = strstr(base, ".wtr");
		printf("| %.*s | %llu | %llu | %.1f%% |", (int)(dot ? dot - base : (long)strlen(base)), base,
		       (unsigned long long)sum.simt,
		       (unsigned long long)sum.dmt, 100.0 * (double)sum.removed / S);
		for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
			printf(" %.1f%% |", 100.0 * (double)sum.by_reason[r] / S);
		printf(" %llu (%.1f%%) |\n", (unsigned long long)sum.elsu_forwarded,
		       sum.loads ? 100.0 * (double)sum.elsu_forwarded / (double)sum.loads : 0.0);
	}
	return 0;
}

int main(void)
{
	if (getenv("WEFT_DMT_TRACE"))
		return table_rows(getenv("WEFT_DMT_TRACE"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_producer_consumer),
		cmocka_unit_test(test_global_keeps_barrier),
		cmocka_unit_test(test_global_orders_barrier),
		cmocka_unit_test(test_global_atomic_words),
		cmocka_unit_test(test_reuse_per_epoch),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_barrier_epochs),
		cmocka_unit_test(test_epoch_ahead),
		cmocka_unit_test(test_lock_step),
		cmocka_unit_test(test_generic_vector),
		cmocka_unit_test(test_guard_tree_level),
		cmocka_unit_test(test_barrier_per_barrier),
		cmocka_unit_test(test_store_kept_by_kept_load),
		cmocka_unit_test(test_tree_loop_per_iteration),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_cascades),
		cmocka_unit_test(test_redecide_sweep),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_kernel_limits),
		cmocka_unit_test(test_reduce),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_convsep),
		cmocka_unit_test(test_matmul),
		cmocka_unit_test(test_hotspot),
		cmocka_unit_test(test_pathfinder),
		cmocka_unit_test(test_ground_truth),
		cmocka_unit_test(test_join_equals_serial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
