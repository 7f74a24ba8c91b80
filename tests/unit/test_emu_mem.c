/*
 * test_emu_mem.c - memory of the emulator: atomics and red on global and
 * shared memory (every op, lane-ordered), shared (static and dynamic),
 * per-thread .local, generic addresses through cvta, vector and narrow
 * loads/stores (sign/zero extension, truncation), 64-bit address
 * arithmetic, .const/.global module variables with initialisers and
 * weft_memcpy_to/from_symbol, out-of-bounds and misaligned accesses (error
 * content), argument checking, host copies, and .func calls (nvcc output
 * with sinf's local-memory slow path).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static const char *func_sinf_ptx =
	"\n"
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	"\n"
	".global .align 4 .b8 __cudart_i2opi_f[24] = {65, 144, 67, 60, 153, 149, 98, 219, 192, 221, 52, 245, 209, 87, 39, 252, 41, 21, 68, 78, 110, 131, 249, 162};\n"
	"\n"
	".func  (.param .b32 func_retval0) _Z4polyfi(\n"
	" .param .b32 _Z4polyfi_param_0,\n"
	" .param .b32 _Z4polyfi_param_1\n"
	")\n"
	"{\n"
	" .reg .pred  %p<7>;\n"
	" .reg .f32  %f<28>;\n"
	" .reg .b32  %r<23>;\n"
	"\n"
	"\n"
	" ld.param.f32  %f8, [_Z4polyfi_param_0];\n"
	" ld.param.u32  %r11, [_Z4polyfi_param_1];\n"
	" setp.lt.s32  %p1, %r11, 1;\n"
	" mov.f32  %f27, 0f00000000;\n"
	" @%p1 bra  $L__BB0_7;\n"
	"\n"
	" add.s32  %r13, %r11, -1;\n"
	" and.b32   %r22, %r11, 3;\n"
	" setp.lt.u32  %p2, %r13, 3;\n"
	" mov.f32  %f27, 0f00000000;\n"
	" mov.u32  %r20, 0;\n"
	" @%p2 bra  $L__BB0_4;\n"
	"\n"
	" sub.s32  %r2, %r22, %r11;\n"
	" mov.f32  %f27, 0f00000000;\n"
	" mov.u32  %r20, 0;\n"
	"\n"
	"$L__BB0_3:\n"
	" add.s32  %r15, %r20, 1;\n"
	" cvt.rn.f32.s32  %f13, %r15;\n"
	" fma.rn.f32  %f14, %f27, %f8, %f13;\n"
	" add.s32  %r16, %r20, 2;\n"
	" cvt.rn.f32.s32  %f15, %r16;\n"
	" fma.rn.f32  %f16, %f14, %f8, %f15;\n"
	" add.s32  %r17, %r20, 3;\n"
	" cvt.rn.f32.s32  %f17, %r17;\n"
	" fma.rn.f32  %f18, %f16, %f8, %f17;\n"
	" add.s32  %r20, %r20, 4;\n"
	" cvt.rn.f32.s32  %f19, %r20;\n"
	" fma.rn.f32  %f27, %f18, %f8, %f19;\n"
	" add.s32  %r18, %r2, %r20;\n"
	" setp.ne.s32  %p3, %r18, 0;\n"
	" @%p3 bra  $L__BB0_3;\n"
	"\n"
	"$L__BB0_4:\n"
	" setp.eq.s32  %p4, %r22, 0;\n"
	" @%p4 bra  $L__BB0_7;\n"
	"\n"
	" add.s32  %r21, %r20, 1;\n"
	"\n"
	"$L__BB0_6:\n"
	" .pragma \"nounroll\";\n"
	" cvt.rn.f32.s32  %f20, %r21;\n"
	" fma.rn.f32  %f27, %f27, %f8, %f20;\n"
	" add.s32  %r21, %r21, 1;\n"
	" add.s32  %r22, %r22, -1;\n"
	" setp.ne.s32  %p5, %r22, 0;\n"
	" @%p5 bra  $L__BB0_6;\n"
	"\n"
	"$L__BB0_7:\n"
	" neg.f32  %f21, %f27;\n"
	" setp.lt.f32  %p6, %f8, 0f00000000;\n"
	" selp.f32  %f22, %f21, %f27, %p6;\n"
	" st.param.f32  [func_retval0+0], %f22;\n"
	" ret;\n"
	"\n"
	"}\n"
	" // .globl fk\n"
	".visible .entry fk(\n"
	" .param .u64 fk_param_0,\n"
	" .param .u64 fk_param_1,\n"
	" .param .u32 fk_param_2\n"
	")\n"
	"{\n"
	" .local .align 4 .b8  __local_depot1[28];\n"
	" .reg .b64  %SP;\n"
	" .reg .b64  %SPL;\n"
	" .reg .pred  %p<12>;\n"
	" .reg .f32  %f<40>;\n"
	" .reg .b32  %r<64>;\n"
	" .reg .f64  %fd<3>;\n"
	" .reg .b64  %rd<31>;\n"
	"\n"
	"\n"
	" mov.u64  %SPL, __local_depot1;\n"
	" ld.param.u64  %rd9, [fk_param_0];\n"
	" ld.param.u64  %rd10, [fk_param_1];\n"
	" ld.param.u32  %r20, [fk_param_2];\n"
	" add.u64  %rd1, %SPL, 0;\n"
	" mov.u32  %r21, %ntid.x;\n"
	" mov.u32  %r22, %ctaid.x;\n"
	" mov.u32  %r23, %tid.x;\n"
	" mad.lo.s32  %r1, %r22, %r21, %r23;\n"
	" setp.ge.s32  %p1, %r1, %r20;\n"
	" @%p1 bra  $L__BB1_14;\n"
	"\n"
	" cvta.to.global.u64  %rd12, %rd9;\n"
	" cvt.s64.s32  %rd2, %r1;\n"
	" mul.wide.s32  %rd13, %r1, 4;\n"
	" add.s64  %rd14, %rd12, %rd13;\n"
	" ld.global.f32  %f1, [%rd14];\n"
	" mul.f32  %f14, %f1, 0f3F22F983;\n"
	" cvt.rni.s32.f32  %r63, %f14;\n"
	" cvt.rn.f32.s32  %f15, %r63;\n"
	" mov.f32  %f16, 0fBFC90FDA;\n"
	" fma.rn.f32  %f17, %f15, %f16, %f1;\n"
	" mov.f32  %f18, 0fB3A22168;\n"
	" fma.rn.f32  %f19, %f15, %f18, %f17;\n"
	" mov.f32  %f20, 0fA7C234C5;\n"
	" fma.rn.f32  %f37, %f15, %f20, %f19;\n"
	" abs.f32  %f3, %f1;\n"
	" setp.ltu.f32  %p2, %f3, 0f47CE4780;\n"
	" @%p2 bra  $L__BB1_9;\n"
	"\n"
	" setp.eq.f32  %p3, %f3, 0f7F800000;\n"
	" @%p3 bra  $L__BB1_8;\n"
	" bra.uni  $L__BB1_3;\n"
	"\n"
	"$L__BB1_8:\n"
	" mov.f32  %f23, 0f00000000;\n"
	" mul.rn.f32  %f37, %f1, %f23;\n"
	" mov.u32  %r63, 0;\n"
	" bra.uni  $L__BB1_9;\n"
	"\n"
	"$L__BB1_3:\n"
	" mov.b32  %r3, %f1;\n"
	" shr.u32  %r25, %r3, 23;\n"
	" and.b32   %r26, %r25, 255;\n"
	" add.s32  %r4, %r26, -128;\n"
	" shl.b32  %r27, %r3, 8;\n"
	" or.b32   %r5, %r27, -2147483648;\n"
	" shr.u32  %r6, %r4, 5;\n"
	" mov.u64  %rd30, 0;\n"
	" mov.u32  %r60, 0;\n"
	" mov.u64  %rd29, __cudart_i2opi_f;\n"
	" mov.u64  %rd28, %rd1;\n"
	"\n"
	"$L__BB1_4:\n"
	" .pragma \"nounroll\";\n"
	" ld.global.nc.u32  %r28, [%rd29];\n"
	" mad.wide.u32  %rd17, %r28, %r5, %rd30;\n"
	" shr.u64  %rd30, %rd17, 32;\n"
	" st.local.u32  [%rd28], %rd17;\n"
	" add.s64  %rd29, %rd29, 4;\n"
	" add.s64  %rd28, %rd28, 4;\n"
	" add.s32  %r60, %r60, 1;\n"
	" setp.ne.s32  %p4, %r60, 6;\n"
	" @%p4 bra  $L__BB1_4;\n"
	"\n"
	" st.local.u32  [%rd1+24], %rd30;\n"
	" mov.u32  %r29, 4;\n"
	" sub.s32  %r9, %r29, %r6;\n"
	" mov.u32  %r30, 6;\n"
	" sub.s32  %r31, %r30, %r6;\n"
	" mul.wide.s32  %rd18, %r31, 4;\n"
	" add.s64  %rd19, %rd1, %rd18;\n"
	" ld.local.u32  %r61, [%rd19];\n"
	" ld.local.u32  %r62, [%rd19+-4];\n"
	" and.b32   %r12, %r4, 31;\n"
	" setp.eq.s32  %p5, %r12, 0;\n"
	" @%p5 bra  $L__BB1_7;\n"
	"\n"
	" mov.u32  %r32, 32;\n"
	" sub.s32  %r33, %r32, %r12;\n"
	" shr.u32  %r34, %r62, %r33;\n"
	" shl.b32  %r35, %r61, %r12;\n"
	" add.s32  %r61, %r34, %r35;\n"
	" mul.wide.s32  %rd20, %r9, 4;\n"
	" add.s64  %rd21, %rd1, %rd20;\n"
	" ld.local.u32  %r36, [%rd21];\n"
	" shr.u32  %r37, %r36, %r33;\n"
	" shl.b32  %r38, %r62, %r12;\n"
	" add.s32  %r62, %r37, %r38;\n"
	"\n"
	"$L__BB1_7:\n"
	" and.b32   %r39, %r3, -2147483648;\n"
	" shr.u32  %r40, %r62, 30;\n"
	" shl.b32  %r41, %r61, 2;\n"
	" or.b32   %r42, %r40, %r41;\n"
	" shr.u32  %r43, %r42, 31;\n"
	" shr.u32  %r44, %r61, 30;\n"
	" add.s32  %r45, %r43, %r44;\n"
	" neg.s32  %r46, %r45;\n"
	" setp.eq.s32  %p6, %r39, 0;\n"
	" selp.b32  %r63, %r45, %r46, %p6;\n"
	" setp.ne.s32  %p7, %r43, 0;\n"
	" xor.b32   %r47, %r39, -2147483648;\n"
	" selp.b32  %r48, %r47, %r39, %p7;\n"
	" selp.b32  %r49, -1, 0, %p7;\n"
	" xor.b32   %r50, %r42, %r49;\n"
	" shl.b32  %r51, %r62, 2;\n"
	" xor.b32   %r52, %r51, %r49;\n"
	" cvt.u64.u32  %rd22, %r50;\n"
	" cvt.u64.u32  %rd23, %r52;\n"
	" bfi.b64  %rd24, %rd22, %rd23, 32, 32;\n"
	" cvt.rn.f64.s64  %fd1, %rd24;\n"
	" mul.f64  %fd2, %fd1, 0d3BF921FB54442D19;\n"
	" cvt.rn.f32.f64  %f21, %fd2;\n"
	" setp.eq.s32  %p8, %r48, 0;\n"
	" neg.f32  %f22, %f21;\n"
	" selp.f32  %f37, %f21, %f22, %p8;\n"
	"\n"
	"$L__BB1_9:\n"
	" and.b32   %r19, %r63, 1;\n"
	" setp.eq.s32  %p9, %r19, 0;\n"
	" selp.f32  %f7, %f37, 0f3F800000, %p9;\n"
	" mul.rn.f32  %f8, %f37, %f37;\n"
	" mov.f32  %f38, 0fB94D4153;\n"
	" @%p9 bra  $L__BB1_11;\n"
	"\n"
	" mov.f32  %f25, 0fBAB607ED;\n"
	" mov.f32  %f26, 0f37CBAC00;\n"
	" fma.rn.f32  %f38, %f26, %f8, %f25;\n"
	"\n"
	"$L__BB1_11:\n"
	" selp.f32  %f27, 0f3C0885E4, 0f3D2AAABB, %p9;\n"
	" fma.rn.f32  %f28, %f38, %f8, %f27;\n"
	" selp.f32  %f29, 0fBE2AAAA8, 0fBEFFFFFF, %p9;\n"
	" fma.rn.f32  %f30, %f28, %f8, %f29;\n"
	" mov.f32  %f31, 0f00000000;\n"
	" fma.rn.f32  %f32, %f8, %f7, %f31;\n"
	" fma.rn.f32  %f39, %f30, %f32, %f7;\n"
	" and.b32   %r54, %r63, 2;\n"
	" setp.eq.s32  %p11, %r54, 0;\n"
	" @%p11 bra  $L__BB1_13;\n"
	"\n"
	" mov.f32  %f34, 0fBF800000;\n"
	" fma.rn.f32  %f39, %f39, %f34, %f31;\n"
	"\n"
	"$L__BB1_13:\n"
	" shr.s32  %r55, %r1, 31;\n"
	" shr.u32  %r56, %r55, 30;\n"
	" add.s32  %r57, %r1, %r56;\n"
	" and.b32   %r58, %r57, -4;\n"
	" sub.s32  %r59, %r1, %r58;\n"
	" { // callseq 0, 0\n"
	" .reg .b32 temp_param_reg;\n"
	" .param .b32 param0;\n"
	" st.param.f32  [param0+0], %f1;\n"
	" .param .b32 param1;\n"
	" st.param.b32  [param1+0], %r59;\n"
	" .param .b32 retval0;\n"
	" call.uni (retval0), \n"
	" _Z4polyfi, \n"
	" (\n"
	" param0, \n"
	" param1\n"
	" );\n"
	" ld.param.f32  %f35, [retval0+0];\n"
	" } // callseq 0\n"
	" add.f32  %f36, %f39, %f35;\n"
	" cvta.to.global.u64  %rd25, %rd10;\n"
	" shl.b64  %rd26, %rd2, 2;\n"
	" add.s64  %rd27, %rd25, %rd26;\n"
	" st.global.f32  [%rd27], %f36;\n"
	"\n"
	"$L__BB1_14:\n"
	" ret;\n"
	"\n"
	"}\n"
	"\n"
	"\n"
;

static const char *atom_ptx = HEAD
	".visible .entry k(.param .u64 pbuf, .param .u64 pout)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n.reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n"
	".shared .align 4 .u32 scount;\n"
	"ld.param.u64 %rd1, [pbuf];\n"
	"ld.param.u64 %rd2, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"atom.global.add.u32 %r2, [%rd1], 1;\n"
	"mul.wide.u32 %rd3, %r1, 4;\n"
	"add.s64 %rd4, %rd2, %rd3;\n"
	"st.global.u32 [%rd4], %r2;\n"
	"sub.s32 %r3, %r1, 30;\n"
	"atom.global.min.s32 %r4, [%rd1+4], %r3;\n"
	"atom.global.max.u32 %r4, [%rd1+8], %r1;\n"
	"atom.global.inc.u32 %r4, [%rd1+12], 9;\n"
	"atom.global.dec.u32 %r4, [%rd1+16], 5;\n"
	"and.b32 %r5, %r1, 31;\n"
	"shl.b32 %r6, 1, %r5;\n"
	"atom.global.or.b32 %r4, [%rd1+20], %r6;\n"
	"atom.global.xor.b32 %r4, [%rd1+24], %r1;\n"
	"atom.global.exch.b32 %r4, [%rd1+28], %r1;\n"
	"add.s32 %r7, %r1, 1;\n"
	"atom.global.cas.b32 %r4, [%rd1+32], %r1, %r7;\n"
	"atom.global.add.f32 %f1, [%rd1+36], 0f3F000000;\n"
	"atom.global.add.u64 %rd5, [%rd1+40], 4294967296;\n"
	"atom.global.add.f64 %fd1, [%rd1+48], 0d3FD0000000000000;\n"
	"red.global.add.u32 [%rd1+56], %r1;\n"
	"atom.shared.add.u32 %r8, [scount], 2;\n"
	"red.shared.max.s32 [scount], 0;\n"
	"bar.sync 0;\n"
	"setp.ne.u32 %p1, %r1, 0;\n"
	"@%p1 bra END;\n"
	"ld.shared.u32 %r9, [scount];\n"
	"st.global.u32 [%rd1+60], %r9;\n"
	"atom.global.and.b32 %r4, [%rd1+64], 12;\n"
	"END: ret;\n}\n";

static void test_atomics(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(atom_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t buf, out;
	assert_int_equal(weft_malloc(ctx, 128, &buf, &op_err), 0);
	assert_int_equal(weft_malloc(ctx, 64 * 4, &out, &op_err), 0);
	uint32_t init[32] = { 0 };
	init[16] = 0xff; /* and target */
	assert_int_equal(weft_memcpy_htod(ctx, buf, init, sizeof(init), &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(buf), WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), 0, args, 2, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t b[32], o[64];
	assert_int_equal(weft_memcpy_dtoh(ctx, b, buf, sizeof(b), &op_err), 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(o[i], i); /* lane order, warp 0 first */
	uint32_t dec = 0;
	for (int i = 0; i < 64; i++)
		dec = (dec == 0 || dec > 5) ? 5 : dec - 1;
	assert_int_equal(b[0], 64);
	assert_int_equal((int32_t)b[1], -30);
	assert_int_equal(b[2], 63);
	assert_int_equal(b[3], 64 % 10);
	assert_int_equal(b[4], dec);
	assert_int_equal(b[5], 0xffffffffu);
	assert_int_equal(b[6], 0);
	assert_int_equal(b[7], 63);
	assert_int_equal(b[8], 64);
	assert_true(b2f(b[9]) == 32.0f);
	uint64_t u64;
	double f64;
	memcpy(&u64, &b[10], 8);
	memcpy(&f64, &b[12], 8);
	assert_int_equal(u64, 64ull << 32);
	assert_true(f64 == 16.0);
	assert_int_equal(b[14], 2016);
	assert_int_equal(b[15], 128);
	assert_int_equal(b[16], 12);
	weft_ctx_destroy(ctx);
}

/* Vector and narrow accesses, generic addressing of shared and local
 * memory through cvta, per-thread local arrays, 64-bit address math. */
static const char *mem_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n"
	".reg .pred %p<4>;\n.reg .b16 %h<8>;\n.reg .b32 %r<30>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<8>;\n"
	".shared .align 16 .b8 sm[512];\n"
	".local .align 4 .b8 arr[64];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"ld.param.u64 %rd2, [pin];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mul.wide.u32 %rd3, %r1, 32;\n"
	"add.s64 %rd4, %rd1, %rd3;\n"                    /* out + 32*tid: 8 words per thread */
	/* v4 load of in[0..3], v4 store */
	"ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd2];\n"
	"add.s32 %r2, %r2, %r1;\n"
	"st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};\n"
	/* signed byte load sign-extends, unsigned zero-extends */
	"ld.global.s8 %r6, [%rd2+16];\n"
	"ld.global.u8 %r7, [%rd2+16];\n"
	"ld.global.s16 %r8, [%rd2+18];\n"
	"st.global.u32 [%rd4+16], %r6;\n"
	"st.global.u32 [%rd4+20], %r7;\n"
	"st.global.u32 [%rd4+24], %r8;\n"
	/* shared through a generic pointer */
	"mov.u64 %rd5, sm;\n"
	"cvta.shared.u64 %rd6, %rd5;\n"
	"mul.wide.u32 %rd7, %r1, 4;\n"
	"add.s64 %rd8, %rd6, %rd7;\n"
	"st.u32 [%rd8], %r1;\n"
	"bar.sync 0;\n"
	"cvta.to.shared.u64 %rd9, %rd8;\n"
	"cvt.u32.u64 %r9, %rd9;\n"
	"xor.b32 %r10, %r9, 4;\n"                        /* neighbour's word */
	"ld.shared.u32 %r11, [%r10];\n"
	/* per-thread local array through a generic pointer, indexed by tid */
	"mov.u64 %rd10, arr;\n"
	"cvta.local.u64 %rd11, %rd10;\n"
	"and.b32 %r12, %r1, 15;\n"
	"mul.wide.u32 %rd12, %r12, 4;\n"
	"add.s64 %rd13, %rd11, %rd12;\n"
	"mul.lo.s32 %r13, %r1, 100;\n"
	"st.local.u32 [arr], 0;\n"
	"st.u32 [%rd13], %r13;\n"
	"ld.local.u32 %r14, [%rd10];\n"                   /* arr[0]: own write if tid%16==0 */
	"ld.u32 %r15, [%rd13];\n"
	"add.s32 %r16, %r14, %r15;\n"
	"add.s32 %r16, %r16, %r11;\n"
	/* 64-bit address math with a negative offset */
	"add.s64 %rd14, %rd4, 36;\n"
	"st.global.u32 [%rd14+-8], %r16;\n"
	/* st.u8 truncates */
	"cvt.u16.u32 %h1, %r1;\n"
	"st.global.u8 [%rd4+31], 0x1ff;\n"
	"ret;\n}\n";

static void test_memory_spaces(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(mem_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out, in;
	assert_int_equal(weft_malloc(ctx, 64 * 32, &out, &op_err), 0);
	assert_int_equal(weft_malloc(ctx, 32, &in, &op_err), 0);
	uint8_t inb[32] = { 0 };
	uint32_t w[4] = { 10, 20, 30, 40 };
	memcpy(inb, w, 16);
	inb[16] = 0xf0;
	inb[18] = 0x00;
	inb[19] = 0x80;
	assert_int_equal(weft_memcpy_htod(ctx, in, inb, 32, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out), WEFT_ARG(in) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), 0, args, 2, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t o[64 * 8];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t t = 0; t < 64; t++) {
		const uint32_t *r = &o[t * 8];
		assert_int_equal(r[0], 10 + t);
		assert_int_equal(r[1], 20);
		assert_int_equal(r[3], 40);
		assert_int_equal(r[4], 0xfffffff0u);
		assert_int_equal(r[5], 0xf0);
		assert_int_equal(r[6], 0xffff8000u);
		uint32_t arr0 = (t % 16 == 0) ? t * 100 : 0;
		assert_int_equal(r[7] & 0x00ffffffu, (arr0 + t * 100 + (t ^ 1)) & 0x00ffffffu);
		assert_int_equal(r[7] >> 24, 0xff);
	}
	weft_ctx_destroy(ctx);
}

/* 32-bit shared and local addresses wrap modulo 2^32 (nvcc's nw kernel:
 * `ld.shared.u32 [%r4+68]` with %r4 holding a "negative" offset): thread t
 * writes s[t] through base (t*4 - 64) + 64, reads s[t ^ 1] through
 * base - 68 * (t + 1) with the offset added back, s[t] again with an
 * atomic through the first base, and does the same in its .local frame. Without the wrap the addresses would be 2^32 + ... */
static const char *wrap_ptx = HEAD
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n"
	".shared .align 4 .b8 s[128];\n"
	".local .align 4 .b8 loc[16];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, s;\n"
	"shl.b32 %r3, %r1, 2;\n"
	"add.s32 %r4, %r2, %r3;\n"
	"add.s32 %r5, %r4, -64;\n"          /* below 0 for t < 16 */
	"add.s32 %r6, %r1, 100;\n"
	"st.shared.u32 [%r5+64], %r6;\n"
	"bar.sync 0;\n"
	"xor.b32 %r7, %r1, 1;\n"
	"shl.b32 %r8, %r7, 2;\n"
	"add.s32 %r9, %r1, 1;\n"
	"mul.lo.s32 %r10, %r9, 68;\n"
	"sub.s32 %r11, %r8, %r10;\n"          /* (t^1)*4 - 68*(t+1): negative */
	"add.s32 %r11, %r11, %r2;\n"
	"add.s32 %r12, %r11, 68;\n"
	"mul.lo.s32 %r13, %r1, 68;\n"
	"add.s32 %r12, %r12, %r13;\n"         /* wraps back to s + (t^1)*4 */
	"ld.shared.u32 %r14, [%r12];\n"
	"atom.shared.add.u32 %r17, [%r5+64], 0;\n" /* s[t], unchanged */
	"add.s32 %r14, %r14, %r17;\n"
	"mov.u32 %r18, loc;\n"
	"add.s32 %r18, %r18, -8;\n"
	"st.local.u32 [%r18+12], %r6;\n"
	"ld.local.u32 %r19, [%r18+12];\n"
	"add.s32 %r14, %r14, %r19;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r14;\n"
	"ret;\n}\n";

static void test_address_wrap32(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(wrap_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 32 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t o[32];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t t = 0; t < 32; t++)
		assert_int_equal(o[t], ((t ^ 1) + 100) + 2 * (t + 100));
	weft_ctx_destroy(ctx);
}

/* Dynamic shared memory after static; reading past it is an error. */
static const char *dyn_ptx = HEAD
	".extern .shared .align 16 .b8 dsm[];\n"
	".visible .entry k(.param .u64 pout, .param .u32 pn)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 st[12];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"ld.param.u32 %r9, [pn];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, dsm;\n"
	"shl.b32 %r3, %r1, 2;\n"
	"add.s32 %r4, %r2, %r3;\n"
	"st.shared.u32 [%r4], %r1;\n"
	"st.shared.u32 [st+8], 5;\n"
	"bar.sync 0;\n"
	"mov.u32 %r6, %dynamic_smem_size;\n"
	"shl.b32 %r7, %r9, 2;\n"
	"add.s32 %r7, %r2, %r7;\n"
	"ld.shared.u32 %r5, [%r7];\n"
	"add.s32 %r5, %r5, %r6;\n"
	"add.s32 %r5, %r5, %r2;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n"
	"ret;\n}\n";

static void test_dynamic_shared(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(dyn_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	uint32_t n = 31;
	assert_int_equal(weft_malloc(ctx, 32 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out), WEFT_ARG(n) };
	assert_int_equal(weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 128, args, 2, &op_err), 0);
	uint32_t o[32];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (int i = 0; i < 32; i++)
		assert_int_equal(o[i], 31 + 128 + 16); /* dsm starts at 16: after 12 static bytes, 16-aligned */
	n = 32; /* one word past the 128 dynamic bytes */
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 128, args, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "out-of-bounds shared load"));
	assert_non_null(strstr(op_err.message, "16 static + 128 dynamic"));
	weft_ctx_destroy(ctx);
}

static const char *oob_ptx = HEAD
	".visible .entry k(.param .u64 pout, .param .u32 pdelta)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"ld.param.u32 %r2, [pdelta];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"cvt.u64.u32 %rd4, %r2;\n"
	"add.s64 %rd3, %rd3, %rd4;\n"
	"st.global.u32 [%rd3], %r1;\n"
	"ret;\n}\n";

static void test_out_of_bounds(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(oob_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	uint32_t delta = 0;
	assert_int_equal(weft_malloc(ctx, 64 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out), WEFT_ARG(delta) };
	/* 2 CTAs of 40 threads over 64 words: the second CTA... all write
	 * words 0..39 (no ctaid), so use 65 threads in one CTA */
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(65, 1, 1), 0, args, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	char want[128];
	assert_non_null(strstr(op_err.message, "out-of-bounds global store of 4 bytes"));
	snprintf(want, sizeof(want), "address 0x%llx", (unsigned long long)(out + 256));
	assert_non_null(strstr(op_err.message, want));
	assert_non_null(strstr(op_err.message, "kernel k"));
	assert_non_null(strstr(op_err.message, "CTA (0,0,0)"));
	assert_non_null(strstr(op_err.message, "thread (64,0,0)"));
	assert_non_null(strstr(op_err.message, "PC 7"));
	snprintf(want, sizeof(want), "nearest allocation: base 0x%llx, size 256", (unsigned long long)out);
	assert_non_null(strstr(op_err.message, want));
	assert_non_null(strstr(op_err.message, "0 bytes past its end"));
	assert_non_null(strstr(op_err.message, "st.global.u32"));
	assert_int_equal(op_err.line, 15);
	assert_string_equal(op_err.file, "test.ptx");
	/* misaligned */
	delta = 2;
	rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "misaligned"));
	/* use after free */
	delta = 0;
	assert_int_equal(weft_free(ctx, out, &op_err), 0);
	rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "outside every allocation"));
	assert_int_equal(weft_free(ctx, out, &op_err), WEFT_ERR_INPUT);
	weft_ctx_destroy(ctx);
}

static void test_arguments(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(oob_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out = 0;
	uint32_t d32 = 0;
	struct weft_arg one[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, one, 1, &op_err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "kernel k expects 2 arguments, got 1"));
	struct weft_arg bad[] = { WEFT_ARG(d32), WEFT_ARG(d32) };
	rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, bad, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "argument 0 of kernel k (parameter pout, .u64, 8 bytes) was given 4 bytes"));
	rc = weft_launch(ctx, mod, "nope", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, bad, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "no kernel named nope"));
	rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(2048, 1, 1), 0, bad, 2, &op_err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	weft_ctx_destroy(ctx);
}

static void test_host_memory(void **state)
{
	(void)state;
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	uint64_t a, b;
	assert_int_equal(weft_malloc(ctx, 100, &a, &op_err), 0);
	assert_int_equal(weft_malloc(ctx, 10, &b, &op_err), 0);
	assert_int_equal(a % 256, 0);
	assert_int_equal(b % 256, 0);
	assert_true(b >= a + 100 + 256 - 100); /* a gap after every allocation */
	uint8_t buf[100];
	assert_int_equal(weft_memcpy_dtoh(ctx, buf, a, 100, &op_err), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(weft_memset(ctx, a + 10, 0xab, 20, &op_err), 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, buf, a, 100, &op_err), 0);
	assert_int_equal(buf[9], 0);
	assert_int_equal(buf[10], 0xab);
	assert_int_equal(buf[29], 0xab);
	assert_int_equal(buf[30], 0);
	assert_int_equal(weft_memcpy_htod(ctx, a + 90, buf, 11, &op_err), WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "nearest allocation"));
	weft_ctx_destroy(ctx);
}

static const char *sym_ptx = HEAD
	".const .align 4 .b8 coef[16];\n"
	".global .align 4 .u32 tab[4] = {1, 2, 3, 4};\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"mov.u64 %rd3, coef;\n"
	"add.s64 %rd4, %rd3, %rd2;\n"
	"ld.const.u32 %r2, [%rd4];\n"
	"mov.u64 %rd5, tab;\n"
	"add.s64 %rd6, %rd5, %rd2;\n"
	"ld.global.u32 %r3, [%rd6];\n"
	"add.s32 %r4, %r2, %r3;\n"
	"st.global.u32 [%rd6], %r4;\n"
	"ld.const.u32 %r5, [coef+12];\n"
	"add.s32 %r4, %r4, %r5;\n"
	"add.s64 %rd7, %rd1, %rd2;\n"
	"st.global.u32 [%rd7], %r4;\n"
	"ret;\n}\n";

static void test_symbols(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(sym_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint32_t coef[4] = { 100, 200, 300, 400 };
	assert_int_equal(weft_memcpy_to_symbol(ctx, mod, "coef", coef, 16, 0, &op_err), 0);
	assert_int_equal(weft_memcpy_to_symbol(ctx, mod, "coef", coef, 8, 12, &op_err), WEFT_ERR_INPUT);
	assert_int_equal(weft_memcpy_to_symbol(ctx, mod, "nosuch", coef, 4, 0, &op_err), WEFT_ERR_INPUT);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 16, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(4, 1, 1), 0, args, 1, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t o[4], t[4];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, 16, &op_err), 0);
	assert_int_equal(weft_memcpy_from_symbol(ctx, mod, "tab", t, 16, 0, &op_err), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(t[i], coef[i] + (uint32_t)i + 1);
		assert_int_equal(o[i], coef[i] + (uint32_t)i + 1 + 400);
	}
	/* cudaGetSymbolAddress / Size */
	uint64_t a, sz;
	assert_int_equal(weft_module_symbol(mod, "coef", &a, &sz, &op_err), 0);
	assert_int_equal(sz, 16);
	uint32_t back[4];
	assert_int_equal(weft_memcpy_dtoh(ctx, back, a, 16, &op_err), 0);
	assert_memory_equal(back, coef, 16);
	assert_int_equal(weft_module_symbol(mod, "coef", NULL, NULL, &op_err), 0);
	assert_int_equal(weft_module_symbol(mod, "nosuch", &a, &sz, &op_err), WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "has no variable named nosuch"));
	weft_ctx_destroy(ctx);
}

/* nvcc output: a __noinline__ .func with several returns, and sinf whose
 * large-argument path uses a .local depot. */
static float poly_ref(float x, int n)
{
	float r = 0.f;
	for (int i = 0; i < n; i++)
		r = r * x + (float)(i + 1);
	return x < 0.f ? -r : r;
}

static void test_func_call_and_sinf(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(func_sinf_ptx, &mod, NULL);
	assert_non_null(ctx);
	enum { N = 96 };
	float in[N], out[N];
	for (int i = 0; i < N; i++)
		in[i] = (i % 3 == 0) ? 1.0e6f + (float)i * 1234.5f : (float)(i - 40) * 0.37f;
	uint64_t din, dout;
	int n = N;
	assert_int_equal(weft_malloc(ctx, sizeof(in), &din, &op_err), 0);
	assert_int_equal(weft_malloc(ctx, sizeof(out), &dout, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(ctx, din, in, sizeof(in), &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout), WEFT_ARG(n) };
	int rc = weft_launch(ctx, mod, "fk", weft_dim3(2, 1, 1), weft_dim3(64, 1, 1), 0, args, 3, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, out, dout, sizeof(out), &op_err), 0);
	for (int i = 0; i < N; i++) {
		double want = sin((double)in[i]) + (double)poly_ref(in[i], i % 4);
		double tol = 1e-5 * (1.0 + fabs(want));
		if (fabs(out[i] - want) > tol)
			fprintf(stderr, "i=%d in=%g got %.9g want %.9g\n", i, in[i], out[i], want);
		assert_true(fabs(out[i] - want) <= tol);
	}
	weft_ctx_destroy(ctx);
}

static const char *rec_ptx = HEAD
	".func (.param .b32 rv) f(.param .b32 a)\n{\n"
	".reg .b32 %r<4>;\n"
	"ld.param.b32 %r1, [a];\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\n"
	"st.param.b32 [p0], %r1;\n"
	"call.uni (r0), f, (p0);\n"
	"ld.param.b32 %r2, [r0];\n}\n"
	"st.param.b32 [rv], %r2;\n"
	"ret;\n}\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<4>;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\n"
	"st.param.b32 [p0], 1;\n"
	"call.uni (r0), f, (p0);\n"
	"ld.param.b32 %r2, [r0];\n}\n"
	"ret;\n}\n";

static void test_recursion_rejected(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(rec_ptx, &mod, NULL);
	if (!ctx) { /* the parser may reject it already */
		skip();
		return;
	}
	uint64_t out = 0;
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 1, &op_err);
	assert_int_equal(rc, WEFT_ERR_PARSE);
	assert_non_null(strstr(op_err.message, "recursively"));
	weft_ctx_destroy(ctx);
}


/* With -lineinfo the fault names the CUDA source line too. */
static const char *loc_ptx = HEAD
	".file 1 \"/src/oob.cu\"\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	".loc 1 2 0\n"
	"ld.param.u64 %rd1, [pout];\n"
	".loc 1 7 5\n"
	"st.global.u32 [%rd1+4096], %r1;\n"
	"ret;\n}\n";

static void test_fault_source_line(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(loc_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 16, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(1, 1, 1), 0, args, 1, &op_err);
	assert_int_equal(rc, WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "/src/oob.cu:7"));
	weft_ctx_destroy(ctx);
}


/* Indirect calls (nvcc -G emits them for libcu++ atomics): the pointer comes
 * from `mov.u64 %rd, func`; lanes with different targets diverge. */
static const char *indirect_ptx = HEAD
	".func (.param .b32 rv) f1(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 100;\nst.param.b32 [rv], %r2;\nret;\n}\n"
	".func (.param .b32 rv) f2(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [a];\nmul.lo.s32 %r2, %r1, 3;\nst.param.b32 [rv], %r2;\nret;\n}\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [pout];\n"
	"mov.u32 %r1, %tid.x;\n"
	"and.b32 %r2, %r1, 1;\n"
	"setp.eq.u32 %p1, %r2, 0;\n"
	"mov.u64 %rd2, f1;\n"
	"mov.u64 %rd3, f2;\n"
	"selp.b64 %rd4, %rd2, %rd3, %p1;\n"
	"{\n.param .b32 p0;\n.param .b32 r0;\n"
	"st.param.b32 [p0], %r1;\n"
	"proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"call (r0), %rd4, (p0), proto;\n"
	"ld.param.b32 %r3, [r0];\n}\n"
	"mul.wide.u32 %rd5, %r1, 4;\n"
	"add.s64 %rd6, %rd1, %rd5;\n"
	"st.global.u32 [%rd6], %r3;\n"
	"ret;\n}\n";

static void test_indirect_call(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(indirect_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 32 * 4, &out, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint32_t o[32];
	assert_int_equal(weft_memcpy_dtoh(ctx, o, out, sizeof(o), &op_err), 0);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(o[i], (i & 1) ? i * 3 : i + 100);
	weft_ctx_destroy(ctx);
}


/* Half-precision atomic adds (atomicAdd on __half / __half2). */
static const char *atomh_ptx = HEAD
	".visible .entry k(.param .u64 ph, .param .u64 ph2)\n{\n"
	".reg .b16 %rs<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [ph];\n"
	"ld.param.u64 %rd2, [ph2];\n"
	"mov.b16 %rs1, 0x3800;\n"
	"atom.global.add.noftz.f16 %rs2, [%rd1], %rs1;\n"
	"mov.b32 %r1, 0x34003c00;\n"
	"atom.global.add.noftz.f16x2 %r2, [%rd2], %r1;\n"
	"ret;\n}\n";

static void test_atomic_half(void **state)
{
	(void)state;
	struct weft_module *mod;
	struct weft_ctx *ctx = mod_load(atomh_ptx, &mod, NULL);
	assert_non_null(ctx);
	uint64_t h, h2;
	assert_int_equal(weft_malloc(ctx, 2, &h, &op_err), 0);
	assert_int_equal(weft_malloc(ctx, 4, &h2, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(h), WEFT_ARG(h2) };
	int rc = weft_launch(ctx, mod, "k", weft_dim3(2, 1, 1), weft_dim3(32, 1, 1), 0, args, 2, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	uint16_t a, b[2];
	assert_int_equal(weft_memcpy_dtoh(ctx, &a, h, 2, &op_err), 0);
	assert_int_equal(weft_memcpy_dtoh(ctx, b, h2, 4, &op_err), 0);
	assert_int_equal(a, 0x5000);    /* 64 x 0.5 = 32 */
	assert_int_equal(b[0], 0x5400); /* 64 x 1 = 64 */
	assert_int_equal(b[1], 0x4c00); /* 64 x 0.25 = 16 */
	weft_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_memory_spaces),
		cmocka_unit_test(test_address_wrap32),
		cmocka_unit_test(test_dynamic_shared),
		cmocka_unit_test(test_out_of_bounds),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_host_memory),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_func_call_and_sinf),
		cmocka_unit_test(test_recursion_rejected),
		cmocka_unit_test(test_fault_source_line),
		cmocka_unit_test(test_indirect_call),
		cmocka_unit_test(test_atomic_half),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
