/*
 * test_launch_limits.c - hostile launches are refused before anything of
 * the asked-for size is allocated (trace/emu/host.h "launch limits"):
 *  - grid and block dimensions past CUDA's limits, products that overflow
 *    32 bits (weft_launch_check_dims, weft_launch);
 *  - static shared memory of 4 GiB (its size must not wrap to 0), static
 *    plus dynamic past 227 KB, dynamic alone past it;
 *  - local memory past 512 KB per thread, more register slots than the
 *    emulator keeps, .maxnreg past 255, .reqntid and .maxntid;
 *  - the instruction budget of a launch: a kernel that never ends stops
 *    with the kernel, CTA and thread named; the budget is per launch, not
 *    per context (--max-thread-insts is that);
 *  - shared memory allocated as it is touched still starts zeroed in every
 *    CTA, also when it grows in the middle of a warp's access;
 *  - device memory past the context's limit is refused before it is
 *    allocated, counting module variables and freed allocations; the
 *    default limit is this process's memory;
 *  - a trace whose launch record claims 2^31 threads per CTA (with valid
 *    checksums) is reported corrupt at the record's offset, not decoded.
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
#include "trace/format/trace_format.h"

#define HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

static struct weft_error err;

static struct weft_ctx *load(const char *text, struct weft_module **mod, const struct weft_ctx_options *o)
{
	struct weft_ctx *ctx = weft_ctx_create(o);
	assert_non_null(ctx);
	weft_error_clear(&err);
	if (weft_module_load_text(ctx, text, strlen(text), "limits.ptx", mod, &err)) {
		fprintf(stderr, "load failed: %s\n", err.message);
		fail();
	}
	return ctx;
}

static void expect_msg(const char *frag)
{
	if (!strstr(err.message, frag))
		fail_msg("message '%s' lacks '%s'", err.message, frag);
}

static void test_device_memory_limit(void **unused)
{
	(void)unused;
	struct weft_ctx_options o = { 0 };
	o.max_device_bytes = 8192;
	struct weft_module *mod;
	/* a 1 KiB module variable counts against the limit */
	struct weft_ctx *ctx = load(HEAD ".global .align 4 .b8 table[1024];\n", &mod, &o);
	const struct weft_ctx_stats *st = weft_ctx_stats(ctx);
	assert_int_equal(st->device_bytes_limit, 8192);
	assert_int_equal(st->device_bytes, 1024);
	uint64_t a = 0, b = 0;
	assert_int_equal(weft_malloc(ctx, 7168, &a, &err), 0);
	assert_int_equal(st->device_bytes, 8192);
	/* one byte more is refused, with the numbers, and nothing changes */
	assert_int_equal(weft_malloc(ctx, 1, &b, &err), WEFT_ERR_LIMIT);
	expect_msg("1 bytes requested with 8192 already held, beyond the limit of 8192 bytes");
	expect_msg("--max-device-mem");
	assert_int_equal(st->device_bytes, 8192);
	/* a size that would overflow the sum is refused too */
	assert_int_equal(weft_malloc(ctx, SIZE_MAX, &b, &err), WEFT_ERR_LIMIT);
	/* freeing gives the bytes back; the peak stays */
	assert_int_equal(weft_free(ctx, a, &err), 0);
	assert_int_equal(st->device_bytes, 1024);
	assert_int_equal(weft_malloc(ctx, 4096, &b, &err), 0);
	assert_int_equal(st->device_bytes_peak, 8192);
	weft_ctx_destroy(ctx);

	/* default: this process's memory, which a 2^60-byte request exceeds */
	ctx = weft_ctx_create(NULL);
	assert_non_null(ctx);
	assert_true(weft_ctx_stats(ctx)->device_bytes_limit > 0);
	assert_int_equal(weft_malloc(ctx, (size_t)1 << 60, &b, &err), WEFT_ERR_LIMIT);
	expect_msg("(this ");
	weft_ctx_destroy(ctx);
}

static void test_check_dims(void **unused)
{
	(void)unused;
	char why[300];
	assert_int_equal(weft_launch_check_dims(weft_dim3(1, 1, 1), weft_dim3(1024, 1, 1), why, sizeof(why)), 0);
	assert_int_equal(weft_launch_check_dims(weft_dim3(0x7fffffffu, 1, 1), weft_dim3(1, 1024, 1), why, sizeof(why)), 0);
	assert_int_equal(weft_launch_check_dims(weft_dim3(1, 65535, 65535), weft_dim3(16, 1, 64), why, sizeof(why)), 0);
	struct {
		struct weft_dim3 g, b;
		const char *frag;
	} bad[] = {
		{ { 1, 1, 1 }, { 0, 1, 1 }, "must be at least 1" },
		{ { 1, 0, 1 }, { 1, 1, 1 }, "must be at least 1" },
		{ { 1, 1, 1 }, { 2147483648u, 1, 1 }, "exceeds CUDA's block dimensions" },
		{ { 1, 1, 1 }, { 1, 1, 65 }, "exceeds CUDA's block dimensions" },
		{ { 1, 1, 1 }, { 64, 32, 1 }, "more than 1024 threads (2048)" },
		/* 1024^2 * 64: each dimension is fine, the product is not */
		{ { 1, 1, 1 }, { 1024, 1024, 64 }, "more than 1024 threads (67108864)" },
		{ { 0x80000000u, 1, 1 }, { 1, 1, 1 }, "exceeds CUDA's grid dimensions" },
		{ { 1, 65536, 1 }, { 1, 1, 1 }, "exceeds CUDA's grid dimensions" },
		/* within every dimension, but 2^31 * 2^32 CTAs overflow 32 bits */
		{ { 0x7fffffffu, 65535, 65535 }, { 1, 1, 1 }, "CTAs; weft runs at most 4294967295" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		if (weft_launch_check_dims(bad[i].g, bad[i].b, why, sizeof(why)) != -1 || !strstr(why, bad[i].frag))
			fail_msg("case %zu: '%s' lacks '%s'", i, why, bad[i].frag);
	}
}

/* One kernel `k(out)` whose body is given; out is a u32 array. */
static const char *kernel(char *buf, size_t len, const char *decls, const char *body)
{
	snprintf(buf, len,
		 HEAD "%s.visible .entry k(.param .u64 pout)\n{\n.reg .pred %%p<4>;\n.reg .b32 %%r<16>;\n"
		      ".reg .b64 %%rd<8>;\n%s"
		      "ld.param.u64 %%rd1, [pout];\nmov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, %%ctaid.x;\n%sret;\n}\n",
		 "", decls, body);
	return buf;
}

static int launch(const char *text, struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn,
		  const struct weft_ctx_options *o, const struct weft_launch_opts *lo)
{
	struct weft_module *mod;
	struct weft_ctx *ctx = load(text, &mod, o);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 4096, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	weft_error_clear(&err);
	int rc = weft_launch_ex(ctx, mod, "k", grid, block, dyn, args, 1, lo, &err);
	weft_ctx_destroy(ctx);
	return rc;
}

static void test_launch_dims(void **unused)
{
	(void)unused;
	char text[2048];
	kernel(text, sizeof(text), "", "");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, NULL), 0);
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(1024, 1024, 64), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("launch of kernel k: block (1024,1024,64) has more than 1024 threads");
	assert_int_equal(launch(text, weft_dim3(0x7fffffffu, 65535, 65535), weft_dim3(1, 1, 1), 0, NULL, NULL),
			 WEFT_ERR_INPUT);
	expect_msg("weft runs at most 4294967295 CTAs");
}

static void test_shared_limits(void **unused)
{
	(void)unused;
	char text[2048];
	/* 4 GiB of static shared: 2^32 wrapped to 0 in 32 bits */
	kernel(text, sizeof(text), ".shared .align 4 .b8 big[4294967296];\n",
	       "mov.u32 %r3, big;\nst.shared.u32 [%r3], %r1;\n");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("kernel k: static shared memory reaches 4294967296 bytes with `big`");
	expect_msg("232448 bytes (227 KB) CUDA allows a block");
	assert_int_equal(err.line, 9); /* the declaration: after HEAD, the entry line, {, three .reg lines */
	/* static within the limit, dynamic takes it past */
	kernel(text, sizeof(text), ".shared .align 4 .b8 tile[200000];\n",
	       "mov.u32 %r3, tile;\nst.shared.u32 [%r3], %r1;\n");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 32448, NULL, NULL), 0);
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 32449, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("200000 bytes of static and 32449 of dynamic shared memory (232449 in all)");
	/* dynamic alone */
	kernel(text, sizeof(text), "", "");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0xffffffffu, NULL, NULL),
			 WEFT_ERR_INPUT);
	expect_msg("4294967295 bytes of dynamic shared memory exceed the 232448 bytes");
}

static void test_local_regs_directives(void **unused)
{
	(void)unused;
	char text[2048];
	kernel(text, sizeof(text), ".local .align 4 .b8 depot[600000];\n",
	       "mov.u64 %rd2, depot;\nst.local.u32 [%rd2], %r1;\n");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("local memory per thread (.local variables, call frames) reaches 600000 bytes with `depot`");
	expect_msg("524288 bytes (512 KB) CUDA allows a thread");
	kernel(text, sizeof(text), ".reg .b32 %q<70000>;\n", "mov.u32 %q69999, %r1;\n");
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("kernel k needs more than 65536 register slots per thread");
	/* directives come after the parameter list */
	const char *maxnreg = HEAD ".visible .entry k(.param .u64 pout)\n.maxnreg 256\n{\nret;\n}\n";
	assert_int_equal(launch(maxnreg, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("kernel k: .maxnreg 256 is more than the 255 registers CUDA allows a thread");
	const char *req = HEAD ".visible .entry k(.param .u64 pout)\n.reqntid 64, 1, 1\n{\nret;\n}\n";
	assert_int_equal(launch(req, weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), 0, NULL, NULL), 0);
	assert_int_equal(launch(req, weft_dim3(1, 1, 1), weft_dim3(32, 2, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("kernel k requires blocks of (64,1,1) threads (.reqntid) but the launch gives (32,2,1)");
	const char *most = HEAD ".visible .entry k(.param .u64 pout)\n.maxntid 128, 1, 1\n{\nret;\n}\n";
	assert_int_equal(launch(most, weft_dim3(1, 1, 1), weft_dim3(64, 2, 1), 0, NULL, NULL), 0);
	assert_int_equal(launch(most, weft_dim3(1, 1, 1), weft_dim3(256, 1, 1), 0, NULL, NULL), WEFT_ERR_INPUT);
	expect_msg("allows at most 128 threads per block (.maxntid 128,1,1)");
}

/* Spins forever: a loop on a register nothing changes. */
static const char *spin_body = "mov.u32 %r3, 0;\n$Lspin:\nadd.u32 %r4, %r3, 1;\nsetp.eq.u32 %p1, %r3, 0;\n"
			       "@%p1 bra $Lspin;\n";

static void test_budget(void **unused)
{
	(void)unused;
	char text[2048];
	kernel(text, sizeof(text), "", spin_body);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.max_launch_insts = 100000;
	assert_int_equal(launch(text, weft_dim3(3, 1, 1), weft_dim3(64, 1, 1), 0, &o, NULL), WEFT_ERR_LIMIT);
	expect_msg("kernel k ran out of its launch's instruction budget of 100000 thread instructions "
		   "(--max-launch-insts) in CTA 0 of 3");
	expect_msg("raise it with --max-launch-insts N");
	expect_msg("at kernel k, CTA (0,0,0), thread (");
	/* a launch's own budget, smaller than the context's, names its source */
	struct weft_launch_opts lo = { 5000, "max_insts at x.ini:7" };
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, &o, &lo), WEFT_ERR_LIMIT);
	expect_msg("budget of 5000 thread instructions (max_insts at x.ini:7)");
	expect_msg("raise it there");
	/* the context's total (--max-thread-insts) is the other limit */
	memset(&o, 0, sizeof(o));
	o.max_thread_insts = 3000;
	assert_int_equal(launch(text, weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, &o, NULL), WEFT_ERR_LIMIT);
	expect_msg("kernel k exceeded --max-thread-insts 3000");

	/* per launch: three launches of 32 * 9 instructions each fit a budget
	 * of 300, though together they are past it */
	kernel(text, sizeof(text), "", "add.u32 %r3, %r1, %r2;\nadd.u32 %r3, %r3, 1;\n");
	struct weft_module *mod;
	o.max_launch_insts = 300;
	struct weft_ctx *ctx = load(text, &mod, &o);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 64, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	for (int i = 0; i < 3; i++)
		assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &err), 0);
	assert_true(weft_ctx_stats(ctx)->thread_insts > 300);
	weft_ctx_destroy(ctx);
}

/* After touching shared[0] (so the buffer exists: 4 KiB), every thread
 * reads shared[base + 4 * (63 - tid)], which must be 0 in every CTA,
 * stores what it read to out[ctaid * 64 + tid], then writes ctaid + 1
 * there. With base 3904 lane 0 reads past the first 4 KiB, so the warp's
 * load grows (moves) the buffer at its first lane and lanes 16.. read
 * below 4 KiB again: from the moved buffer, not the old one. */
static const char *zero_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 pbase)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".extern .shared .align 16 .b8 dsm[];\n"
	"ld.param.u64 %rd1, [pout];\nld.param.u32 %r9, [pbase];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
	"mov.u32 %r3, dsm;\nld.shared.u32 %r8, [%r3];\n"
	"mov.u32 %r4, 63;\nsub.u32 %r4, %r4, %r1;\nshl.b32 %r4, %r4, 2;\n"
	"add.s32 %r3, %r3, %r4;\nadd.s32 %r3, %r3, %r9;\n"
	"ld.shared.u32 %r5, [%r3];\n"
	"shl.b32 %r6, %r2, 6;\nadd.s32 %r6, %r6, %r1;\nmul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n"
	"add.s32 %r7, %r2, 1;\nst.shared.u32 [%r3], %r7;\n"
	"ret;\n}\n";

static void test_shared_lazy_zeroed(void **unused)
{
	(void)unused;
	struct weft_module *mod;
	struct weft_ctx *ctx = load(zero_ptx, &mod, NULL);
	uint64_t out;
	uint32_t host[4 * 64];
	assert_int_equal(weft_malloc(ctx, sizeof(host), &out, &err), 0);
	uint32_t bases[] = { 3904, 0, 200000 };
	for (size_t k = 0; k < sizeof(bases) / sizeof(bases[0]); k++) {
		uint32_t base = bases[k];
		struct weft_arg args[] = { WEFT_ARG(out), WEFT_ARG(base) };
		memset(host, 0xab, sizeof(host));
		assert_int_equal(weft_memcpy_htod(ctx, out, host, sizeof(host), &err), 0);
		/* the most dynamic shared memory a block may have */
		if (weft_launch(ctx, mod, "k", weft_dim3(4, 1, 1), weft_dim3(64, 1, 1), WEFT_MAX_SHARED_BYTES, args, 2,
				&err))
			fail_msg("%s", err.message);
		assert_int_equal(weft_memcpy_dtoh(ctx, host, out, sizeof(host), &err), 0);
		for (int i = 0; i < 4 * 64; i++)
			if (host[i] != 0)
				fail_msg("base %u: CTA %d thread %d read %u from shared memory, not 0", base, i / 64,
					 i % 64, host[i]);
	}
	/* one byte past the block's shared memory is still out of bounds */
	uint32_t base = WEFT_MAX_SHARED_BYTES - 4 * 63;
	struct weft_arg args[] = { WEFT_ARG(out), WEFT_ARG(base) };
	assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), WEFT_MAX_SHARED_BYTES - 16,
				     args, 2, &err),
			 WEFT_ERR_RUNTIME);
	expect_msg("out-of-bounds shared load");
	weft_ctx_destroy(ctx);
}

/* A trace of one small launch, then its launch record patched to claim
 * 2^31 threads per CTA, with the record's CRC-32 recomputed. */
static void test_trace_huge_block(void **unused)
{
	(void)unused;
	char dir[] = "/tmp/weft-limits-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128], bad[128];
	snprintf(path, sizeof(path), "%s/t.wtr", dir);
	snprintf(bad, sizeof(bad), "%s/huge.wtr", dir);
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 3, &w, &err), 0);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	char text[2048];
	kernel(text, sizeof(text), "", "add.u32 %r3, %r1, %r2;\n");
	struct weft_module *mod;
	struct weft_ctx *ctx = load(text, &mod, &o);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 64, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(2, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &err), 0);
	weft_ctx_destroy(ctx);
	assert_int_equal(weft_trace_writer_commit(w, &err), 0);

	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static uint8_t b[1 << 16];
	size_t n = fread(b, 1, sizeof(b), f);
	fclose(f);
	/* the first record, at offset 16, is the launch: tag, length, then
	 * index, grid x y z, block x y z */
	assert_int_equal(wt_get32(b + 16), WT_TAG_LNCH);
	uint32_t len = wt_get32(b + 20);
	assert_true(24 + (size_t)len + 4 <= n);
	assert_int_equal(wt_get32(b + 24 + 16), 32);
	wt_put32(b + 24 + 16, 0x80000000u);
	wt_put32(b + 24 + len, weft_trace_crc32(0, b + 16, 8 + (size_t)len));
	f = fopen(bad, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);

	struct weft_trace *t = NULL;
	weft_error_clear(&err);
	assert_int_equal(weft_trace_open(bad, &t, &err), WEFT_ERR_VERIFY);
	assert_null(t);
	expect_msg("is corrupt at byte offset 16: launch record 0: block (2147483648,1,1) exceeds CUDA's block dimensions");
	weft_error_clear(&err);
	assert_int_equal(weft_trace_verify(bad, &err), WEFT_ERR_VERIFY);
	expect_msg("block (2147483648,1,1)");
	/* the untouched trace still opens */
	assert_int_equal(weft_trace_open(path, &t, &err), 0);
	weft_trace_close(t);
	unlink(path);
	unlink(bad);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_dims),
		cmocka_unit_test(test_launch_dims),
		cmocka_unit_test(test_shared_limits),
		cmocka_unit_test(test_local_regs_directives),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_shared_lazy_zeroed),
		cmocka_unit_test(test_trace_huge_block),
		cmocka_unit_test(test_device_memory_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
