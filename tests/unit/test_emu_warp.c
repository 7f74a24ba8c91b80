/*
 * test_emu_warp.c - warp-level semantics of the emulator: shfl.sync
 * (up/down/bfly/idx, segmented widths through the packed c operand, the
 * `d|p` predicate), vote.sync (all/any/uni/ballot) and activemask in
 * divergent code, match.any/all, redux.sync, and a warp-synchronous
 * volatile shared-memory reduction without barriers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"
#define K 12 /* results per thread */

static const char *warp_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mul.lo.s32 %r2, %r1, 10;\n"
	"mul.wide.u32 %rd2, %r1, 48;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"shfl.sync.down.b32 %r3|%p1, %r2, 1, 0x1f, -1;\n"
	"selp.u32 %r4, 1, 0, %p1;\n"
	"shl.b32 %r4, %r4, 16;\n"
	"or.b32 %r3, %r3, %r4;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"shfl.sync.up.b32 %r5, %r2, 2, 0, -1;\n"
	"st.global.u32 [%rd3+4], %r5;\n"
	"shfl.sync.bfly.b32 %r6, %r2, 5, 0x1f, -1;\n"
	"st.global.u32 [%rd3+8], %r6;\n"
	"shfl.sync.idx.b32 %r7, %r2, 7, 0x1f, -1;\n"
	"st.global.u32 [%rd3+12], %r7;\n"
	"shfl.sync.idx.b32 %r8, %r2, 3, 0x181f, -1;\n"    /* width 8 */
	"st.global.u32 [%rd3+16], %r8;\n"
	"shfl.sync.up.b32 %r9, %r2, 1, 0x1800, -1;\n"     /* width 8 */
	"st.global.u32 [%rd3+20], %r9;\n"
	/* vote */
	"rem.u32 %r10, %r1, 3;\n"
	"setp.eq.u32 %p2, %r10, 0;\n"
	"vote.sync.ballot.b32 %r11, %p2, -1;\n"
	"st.global.u32 [%rd3+24], %r11;\n"
	"setp.lt.u32 %p3, %r1, 32;\n"
	"vote.sync.all.pred %p4, %p3, -1;\n"
	"vote.sync.any.pred %p5, !%p3, -1;\n"
	"vote.sync.uni.pred %p6, %p2, -1;\n"
	"selp.u32 %r12, 1, 0, %p4;\n"
	"selp.u32 %r13, 2, 0, %p5;\n"
	"selp.u32 %r14, 4, 0, %p6;\n"
	"or.b32 %r12, %r12, %r13;\n"
	"or.b32 %r12, %r12, %r14;\n"
	"st.global.u32 [%rd3+28], %r12;\n"
	/* divergent: odd lanes only */
	"and.b32 %r15, %r1, 1;\n"
	"setp.eq.u32 %p7, %r15, 0;\n"
	"mov.u32 %r16, 0;\n"
	"@%p7 bra SKIP;\n"
	"activemask.b32 %r16;\n"
	"setp.gt.u32 %p1, %r1, 20;\n"
	"vote.sync.ballot.b32 %r17, %p1, %r16;\n"
	"add.s32 %r16, %r16, %r17;\n"
	"SKIP:\n"
	"st.global.u32 [%rd3+32], %r16;\n"
	/* match, redux */
	"and.b32 %r18, %r1, 3;\n"
	"match.any.sync.b32 %r19, %r18, -1;\n"
	"st.global.u32 [%rd3+36], %r19;\n"
	"match.all.sync.b32 %r20|%p2, %r18, -1;\n"
	"selp.u32 %r21, 1, 0, %p2;\n"
	"add.s32 %r20, %r20, %r21;\n"
	"st.global.u32 [%rd3+40], %r20;\n"
	"redux.sync.add.u32 %r22, %r1, -1;\n"
	"sub.s32 %r23, 100, %r1;\n"
	"redux.sync.min.s32 %r24, %r23, -1;\n"
	"shl.b32 %r24, %r24, 16;\n"
	"add.s32 %r22, %r22, %r24;\n"
	"st.global.u32 [%rd3+44], %r22;\n"
	"ret;\n}\n";

static void test_warp_ops(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(warp_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 32 * K * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t o[32 * K];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	uint32_t ballot3 = 0;
	for (int l = 0; l < 32; l++)
		if (l % 3 == 0)
			ballot3 |= 1u << l;
	for (uint32_t l = 0; l < 32; l++) {
		const uint32_t *r = &o[l * K];
		uint32_t base = l & ~7u;
		assert_int_equal(r[0], l < 31 ? ((l + 1) * 10) | 0x10000 : l * 10);
		assert_int_equal(r[1], l >= 2 ? (l - 2) * 10 : l * 10);
		assert_int_equal(r[2], (l ^ 5) * 10);
		assert_int_equal(r[3], 70);
		assert_int_equal(r[4], (base + 3) * 10);
		assert_int_equal(r[5], l > base ? (l - 1) * 10 : l * 10);
		assert_int_equal(r[6], ballot3);
		assert_int_equal(r[7], 1 | 0 | 0); /* all true, any(!p) false, uni false */
		uint32_t odd = 0xaaaaaaaau, gt20 = odd & ~((1u << 21) - 1);
		assert_int_equal(r[8], (l & 1) ? odd + gt20 : 0);
		assert_int_equal(r[9], 0x11111111u << (l & 3));
		assert_int_equal(r[10], 0);
		assert_int_equal(r[11], 496 + (69u << 16));
	}
	weft_ctx_destroy(ctx);
}

/* The classic warp-synchronous tail: volatile shared memory, no barrier,
 * shrinking active sets. */
static const char *vred_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<8>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 s[128];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, s;\n"
	"shl.b32 %r3, %r1, 2;\n"
	"add.s32 %r4, %r2, %r3;\n"
	"st.volatile.shared.u32 [%r4], %r1;\n"
	"setp.ge.u32 %p1, %r1, 16;\n"
	"@%p1 bra DONE;\n"
	"ld.volatile.shared.u32 %r5, [%r4];\n"
	"ld.volatile.shared.u32 %r6, [%r4+64];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"st.volatile.shared.u32 [%r4], %r5;\n"
	"setp.ge.u32 %p2, %r1, 8;\n"
	"@%p2 bra DONE;\n"
	"ld.volatile.shared.u32 %r5, [%r4];\n"
	"ld.volatile.shared.u32 %r6, [%r4+32];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"st.volatile.shared.u32 [%r4], %r5;\n"
	"setp.ge.u32 %p3, %r1, 4;\n"
	"@%p3 bra DONE;\n"
	"ld.volatile.shared.u32 %r5, [%r4];\n"
	"ld.volatile.shared.u32 %r6, [%r4+16];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"st.volatile.shared.u32 [%r4], %r5;\n"
	"setp.ge.u32 %p4, %r1, 2;\n"
	"@%p4 bra DONE;\n"
	"ld.volatile.shared.u32 %r5, [%r4];\n"
	"ld.volatile.shared.u32 %r6, [%r4+8];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"st.volatile.shared.u32 [%r4], %r5;\n"
	"setp.ge.u32 %p5, %r1, 1;\n"
	"@%p5 bra DONE;\n"
	"ld.volatile.shared.u32 %r5, [%r4];\n"
	"ld.volatile.shared.u32 %r6, [%r4+4];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"st.volatile.shared.u32 [%r4], %r5;\n"
	"DONE:\n"
	"ld.volatile.shared.u32 %r7, [s];\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r7;\n"
	"ret;\n}\n";

static void test_volatile_warp_reduction(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(vred_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 32 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &op_err), 0);
	uint32_t o[32];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (int l = 0; l < 32; l++)
		assert_int_equal(o[l], 496);
	weft_ctx_destroy(ctx);
}

/* Special registers: lane masks, warp ids, ctaid/nctaid in a 2-D grid. */
static const char *sreg_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, %tid.y;\n"
	"mov.u32 %r3, %ntid.x;\n"
	"mad.lo.s32 %r4, %r2, %r3, %r1;\n"           /* linear thread id */
	"mov.u32 %r5, %ctaid.x;\n"
	"mov.u32 %r6, %ctaid.y;\n"
	"mov.u32 %r7, %nctaid.x;\n"
	"mad.lo.s32 %r8, %r6, %r7, %r5;\n"           /* linear cta id */
	"mov.u32 %r9, %ntid.y;\n"
	"mul.lo.s32 %r9, %r9, %r3;\n"
	"mad.lo.s32 %r10, %r8, %r9, %r4;\n"          /* global linear id */
	"mul.wide.u32 %rd2, %r10, 16;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"mov.u32 %r11, %laneid;\n"
	"mov.u32 %r12, %warpid;\n"
	"mov.u32 %r13, %lanemask_lt;\n"
	"mov.u32 %r14, %lanemask_ge;\n"
	"st.global.v4.u32 [%rd3], {%r11, %r12, %r13, %r14};\n"
	"ret;\n}\n";

static void test_special_registers(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(sreg_ptx, &mod, NULL);
	assert_non_null(ctx);
	enum { BX = 8, BY = 6, GX = 2, GY = 3, N = BX * BY * GX * GY };
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, N * 16, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(GX, GY, 1), weft_dim3(BX, BY, 1), 0, args, 1, &op_err), 0);
	uint32_t o[N * 4];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t t = i % (BX * BY), lane = t % 32;
		assert_int_equal(o[i * 4 + 0], lane);
		assert_int_equal(o[i * 4 + 1], t / 32);
		assert_int_equal(o[i * 4 + 2], (1u << lane) - 1);
		assert_int_equal(o[i * 4 + 3], ~((1u << lane) - 1));
	}
	weft_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warp_ops),
		cmocka_unit_test(test_volatile_warp_reduction),
		cmocka_unit_test(test_special_registers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
