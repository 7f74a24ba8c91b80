/*
 * test_emu_float.c - floating-point semantics of the emulator: rounding
 * modes (.rn .rz .rm .rp) of add/mul/fma/cvt, true fused fma and mad,
 * .ftz, .sat, NaN handling of min/max and of every compare, testp,
 * copysign, approximate ops (the C library value), float<->int cvt with
 * saturation and NaN -> 0, integer rounding modes, f16 conversions and
 * half-precision arithmetic.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

struct fcase {
	const char *body;
	uint64_t a, b, c, want;
};

#define F32OUT "mov.b32 %r13, %f13; cvt.u64.u32 %rd13, %r13;"
#define R32 "cvt.u64.u32 %rd13, %r13;"
#define F64OUT "mov.b64 %rd13, %fd13;"
#define PRED "selp.u32 %r13, 1, 0, %p1; cvt.u64.u32 %rd13, %r13;"

#define ONE 0x3f800000u
#define ONEP 0x3f800001u /* 1 + 2^-23 */
#define NANF 0x7fc00000u
#define INFF 0x7f800000u

static const struct fcase cases[] = {
	/* rounding modes: 1 + 0.75 ulp */
	{ "add.rn.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x33c00000, 0, ONEP },
	{ "add.rz.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x33c00000, 0, ONE },
	{ "add.rm.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x33c00000, 0, ONE },
	{ "add.rp.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x33c00000, 0, ONEP },
	{ "add.rm.f32 %f13, %f10, %f11;" F32OUT, 0xbf800000, 0xb3c00000, 0, 0xbf800001 },
	{ "add.rp.f32 %f13, %f10, %f11;" F32OUT, 0xbf800000, 0xb3c00000, 0, 0xbf800000 },
	{ "add.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x33800000, 0, ONE }, /* tie to even */
	{ "mul.rz.f32 %f13, %f10, %f11;" F32OUT, ONEP, ONEP, 0, 0x3f800002 },
	/* true fused multiply-add: (1+2^-23)^2 - (1+2^-22) = 2^-46 */
	{ "fma.rn.f32 %f13, %f10, %f11, %f12;" F32OUT, ONEP, ONEP, 0xbf800002, 0x28800000 },
	{ "mad.rn.f32 %f13, %f10, %f11, %f12;" F32OUT, ONEP, ONEP, 0xbf800002, 0x28800000 },
	{ "mul.rn.f32 %f14, %f10, %f11; add.rn.f32 %f13, %f14, %f12;" F32OUT, ONEP, ONEP, 0xbf800002, 0 },
	{ "fma.rn.f64 %fd13, %fd10, %fd11, %fd12;" F64OUT, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000002ull, 0x3970000000000000ull },
	{ "add.rz.f64 %fd13, %fd10, %fd11;" F64OUT, 0x3ff0000000000000ull, 0x3ca8000000000000ull, 0, 0x3ff0000000000000ull },
	{ "add.rp.f64 %fd13, %fd10, %fd11;" F64OUT, 0x3ff0000000000000ull, 0x3c98000000000000ull, 0, 0x3ff0000000000001ull },
	/* ftz */
	{ "add.f32 %f13, %f10, %f11;" F32OUT, 0x00000100, 0, 0, 0x00000100 },
	{ "add.ftz.f32 %f13, %f10, %f11;" F32OUT, 0x00000100, 0, 0, 0 },
	{ "mul.ftz.f32 %f13, %f10, %f11;" F32OUT, 0x1e3ce508 /* 1e-20 */, 0x1e3ce508, 0, 0 },
	{ "mul.ftz.f32 %f13, %f10, %f11;" F32OUT, 0x9e3ce508, 0x1e3ce508, 0, 0x80000000 },
	/* sat */
	{ "add.sat.f32 %f13, %f10, %f11;" F32OUT, 0x3f000000, 0x3f333333, 0, ONE },
	{ "mul.sat.f32 %f13, %f10, %f11;" F32OUT, INFF, 0, 0, 0 },
	{ "add.sat.f32 %f13, %f10, %f11;" F32OUT, 0xc0000000, 0, 0, 0 },
	/* division and approximate ops */
	{ "div.rn.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x40400000, 0, 0x3eaaaaab },
	{ "div.approx.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x40400000, 0, 0x3eaaaaab },
	{ "div.full.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x40400000, 0, 0x3eaaaaab },
	{ "div.rz.f32 %f13, %f10, %f11;" F32OUT, ONE, 0x40400000, 0, 0x3eaaaaaa },
	{ "rcp.rn.f32 %f13, %f10;" F32OUT, 0x40800000, 0, 0, 0x3e800000 },
	{ "sqrt.rn.f32 %f13, %f10;" F32OUT, 0x40800000, 0, 0, 0x40000000 },
	{ "rsqrt.approx.f32 %f13, %f10;" F32OUT, 0x40800000, 0, 0, 0x3f000000 },
	{ "ex2.approx.f32 %f13, %f10;" F32OUT, 0x40400000, 0, 0, 0x41000000 },
	{ "lg2.approx.f32 %f13, %f10;" F32OUT, 0x41000000, 0, 0, 0x40400000 },
	{ "sin.approx.f32 %f13, %f10;" F32OUT, 0, 0, 0, 0 },
	{ "cos.approx.f32 %f13, %f10;" F32OUT, 0, 0, 0, ONE },
	{ "div.rn.f64 %fd13, %fd10, %fd11;" F64OUT, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555555ull },
	{ "sqrt.rn.f64 %fd13, %fd10;" F64OUT, 0x4010000000000000ull, 0, 0, 0x4000000000000000ull },
	/* min/max/abs/neg/copysign */
	{ "min.f32 %f13, %f10, %f11;" F32OUT, NANF, ONE, 0, ONE },
	{ "max.f32 %f13, %f10, %f11;" F32OUT, ONE, NANF, 0, ONE },
	{ "min.f32 %f13, %f10, %f11;" F32OUT, 0x80000000, 0, 0, 0x80000000 },
	{ "max.f32 %f13, %f10, %f11;" F32OUT, 0x80000000, 0, 0, 0 },
	{ "min.f64 %fd13, %fd10, %fd11;" F64OUT, 0x7ff8000000000000ull, 0x4000000000000000ull, 0, 0x4000000000000000ull },
	{ "abs.f32 %f13, %f10;" F32OUT, 0xbf800000, 0, 0, ONE },
	{ "neg.f32 %f13, %f10;" F32OUT, ONE, 0, 0, 0xbf800000 },
	{ "copysign.f32 %f13, %f10, %f11;" F32OUT, 0xbf800000, 0x40000000, 0, 0xc0000000 },
	/* testp */
	{ "testp.notanumber.f32 %p1, %f10;" PRED, NANF, 0, 0, 1 },
	{ "testp.subnormal.f32 %p1, %f10;" PRED, 0x100, 0, 0, 1 },
	{ "testp.finite.f32 %p1, %f10;" PRED, INFF, 0, 0, 0 },
	{ "testp.infinite.f64 %p1, %fd10;" PRED, 0x7ff0000000000000ull, 0, 0, 1 },
	{ "testp.normal.f32 %p1, %f10;" PRED, ONE, 0, 0, 1 },
	/* compares: ordered false on NaN, unordered true */
	{ "setp.lt.f32 %p1, %f10, %f11;" PRED, NANF, ONE, 0, 0 },
	{ "setp.ltu.f32 %p1, %f10, %f11;" PRED, NANF, ONE, 0, 1 },
	{ "setp.ne.f32 %p1, %f10, %f11;" PRED, NANF, NANF, 0, 0 },
	{ "setp.neu.f32 %p1, %f10, %f11;" PRED, NANF, NANF, 0, 1 },
	{ "setp.equ.f32 %p1, %f10, %f11;" PRED, ONE, ONE, 0, 1 },
	{ "setp.geu.f32 %p1, %f10, %f11;" PRED, 0, ONE, 0, 0 },
	{ "setp.num.f32 %p1, %f10, %f11;" PRED, NANF, ONE, 0, 0 },
	{ "setp.nan.f32 %p1, %f10, %f11;" PRED, NANF, ONE, 0, 1 },
	{ "setp.eq.f32 %p1, %f10, %f11;" PRED, 0x80000000, 0, 0, 1 },
	{ "setp.gt.f64 %p1, %fd10, %fd11;" PRED, 0x4000000000000000ull, 0x3ff0000000000000ull, 0, 1 },
	{ "setp.lt.ftz.f32 %p1, %f10, %f11;" PRED, 0x80000100, 0, 0, 0 },
	{ "set.gt.f32.f32 %f13, %f10, %f11;" F32OUT, 0x40000000, ONE, 0, ONE },
	{ "set.gt.u32.f32 %r13, %f10, %f11;" R32, 0x40000000, ONE, 0, 0xffffffff },
	{ "slct.f32.f32 %f13, %f10, %f11, %f12;" F32OUT, ONE, 0x40000000, 0x80000000, ONE },
	{ "selp.f32 %f13, %f10, %f11, %p1;" F32OUT, ONE, 0x40000000, 0, 0x40000000 },
	/* float -> int: round, saturate, NaN -> 0 */
	{ "cvt.rzi.s32.f32 %r13, %f10;" R32, 0xc02ccccd /* -2.7 */, 0, 0, (uint32_t)-2 },
	{ "cvt.rni.s32.f32 %r13, %f10;" R32, 0x40200000 /* 2.5 */, 0, 0, 2 },
	{ "cvt.rni.s32.f32 %r13, %f10;" R32, 0x40600000 /* 3.5 */, 0, 0, 4 },
	{ "cvt.rmi.s32.f32 %r13, %f10;" R32, 0xc0066666 /* -2.1 */, 0, 0, (uint32_t)-3 },
	{ "cvt.rpi.s32.f32 %r13, %f10;" R32, 0x40066666 /* 2.1 */, 0, 0, 3 },
	{ "cvt.rzi.s32.f32 %r13, %f10;" R32, NANF, 0, 0, 0 },
	{ "cvt.rzi.s32.f32 %r13, %f10;" R32, 0x501502f9 /* 1e10 */, 0, 0, 0x7fffffff },
	{ "cvt.rzi.s32.f32 %r13, %f10;" R32, 0xd01502f9, 0, 0, 0x80000000 },
	{ "cvt.rzi.u32.f32 %r13, %f10;" R32, 0xc0a00000 /* -5 */, 0, 0, 0 },
	{ "cvt.rzi.u16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x47800000 /* 65536 */, 0, 0, 0xffff },
	{ "cvt.rzi.s64.f64 %rd13, %fd10;", 0x46293e5939a08ceaull /* 1e30 */, 0, 0, 0x7fffffffffffffffull },
	{ "cvt.rzi.u64.f64 %rd13, %fd10;", 0xbff0000000000000ull, 0, 0, 0 },
	{ "cvt.rzi.u64.f32 %rd13, %f10;", 0x5f800000 /* 2^64 */, 0, 0, 0xffffffffffffffffull },
	{ "cvt.rni.s64.f64 %rd13, %fd10;", 0xc004000000000000ull /* -2.5 */, 0, 0, (uint64_t)-2ll },
	/* int -> float with rounding */
	{ "cvt.rn.f32.s32 %f13, %r10;" F32OUT, 16777217, 0, 0, 0x4b800000 },
	{ "cvt.rp.f32.s32 %f13, %r10;" F32OUT, 16777217, 0, 0, 0x4b800001 },
	{ "cvt.rz.f32.u32 %f13, %r10;" F32OUT, 0xffffffff, 0, 0, 0x4f7fffff },
	{ "cvt.rn.f32.u32 %f13, %r10;" F32OUT, 0xffffffff, 0, 0, 0x4f800000 },
	{ "cvt.rn.f64.s64 %fd13, %rd10;" F64OUT, (uint64_t)-3ll, 0, 0, 0xc008000000000000ull },
	{ "cvt.rn.f32.s64 %f13, %rd10;" F32OUT, (uint64_t)-1ll, 0, 0, 0xbf800000 },
	/* float -> float */
	{ "cvt.f64.f32 %fd13, %f10;" F64OUT, ONEP, 0, 0, 0x3ff0000020000000ull },
	{ "cvt.rn.f32.f64 %f13, %fd10;" F32OUT, 0x3ff0000018000000ull, 0, 0, ONEP },
	{ "cvt.rz.f32.f64 %f13, %fd10;" F32OUT, 0x3ff0000018000000ull, 0, 0, ONE },
	{ "cvt.rni.f32.f32 %f13, %f10;" F32OUT, 0x40200000, 0, 0, 0x40000000 },
	{ "cvt.rmi.f64.f64 %fd13, %fd10;" F64OUT, 0xc004000000000000ull, 0, 0, 0xc008000000000000ull },
	{ "cvt.sat.f32.f32 %f13, %f10;" F32OUT, 0x3fc00000, 0, 0, ONE },
	{ "cvt.ftz.f32.f32 %f13, %f10;" F32OUT, 0x100, 0, 0, 0 },
	/* f16 */
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, ONE, 0, 0, 0x3c00 },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x477ff000 /* 65520 */, 0, 0, 0x7c00 },
	{ "cvt.rz.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x477ff000, 0, 0, 0x7bff },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x477fe000 /* 65504 */, 0, 0, 0x7bff },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x33800000 /* 2^-24 */, 0, 0, 1 },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0x33000000 /* 2^-25: tie -> 0 */, 0, 0, 0 },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, 0xbeaaaaab /* -1/3 */, 0, 0, 0xb555 },
	{ "cvt.rn.f16.f32 %h1, %f10; cvt.u32.u16 %r13, %h1;" R32, NANF, 0, 0, 0x7fff },
	{ "cvt.u16.u32 %h1, %r10; cvt.f32.f16 %f13, %h1;" F32OUT, 0x3555, 0, 0, 0x3eaaa000 },
	{ "cvt.u16.u32 %h1, %r10; cvt.f32.f16 %f13, %h1;" F32OUT, 0x0001, 0, 0, 0x33800000 },
	{ "cvt.u16.u32 %h1, %r10; cvt.f32.f16 %f13, %h1;" F32OUT, 0xfc00, 0, 0, 0xff800000 },
	/* half-precision arithmetic */
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; add.f16 %h3, %h1, %h2; cvt.u32.u16 %r13, %h3;" R32, 0x3c00, 0x3c00, 0, 0x4000 },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; cvt.u16.u32 %h4, %r12; fma.rn.f16 %h3, %h1, %h2, %h4; cvt.u32.u16 %r13, %h3;" R32, 0x3c00, 0x1000, 0x3c00, 0x3c00 },
	{ "cvt.u16.u32 %h1, %r10; neg.f16 %h3, %h1; cvt.u32.u16 %r13, %h3;" R32, 0x3c00, 0, 0, 0xbc00 },
	{ "mul.f16x2 %r13, %r10, %r11;" R32, 0x40003c00, 0x40004000, 0, 0x44004000 },
	{ "fma.rn.f16x2 %r13, %r10, %r11, %r12;" R32, 0x3c003c00, 0x3c003c00, 0xbc00bc00, 0 },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; setp.lt.f16 %p1, %h1, %h2;" PRED, 0xbc00, 0x3c00, 0, 1 },
	/* bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even */
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; add.rn.bf16 %h3, %h1, %h2; cvt.u32.u16 %r13, %h3;" R32, 0x3f80, 0x3b80, 0, 0x3f80 },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; cvt.u16.u32 %h4, %r12; fma.rn.bf16 %h3, %h1, %h2, %h4; cvt.u32.u16 %r13, %h3;" R32, 0x4000, 0x4040, 0x3f80, 0x40e0 },
	{ "setp.gt.f16x2 %p1|%p2, %r10, %r11; selp.u32 %r13, 1, 0, %p1; selp.u32 %r14, 2, 0, %p2; or.b32 %r13, %r13, %r14;" R32, 0x3c004000, 0x40003c00, 0, 1 },
};

static void test_float_cases(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fcase *t = &cases[i];
		uint64_t out = 0;
		int rc = op_try(t->body, &t->a, &t->b, &t->c, 1, &out);
		if (rc) {
			fprintf(stderr, "case %zu `%s`: error %s\n", i, t->body, op_err.message);
			bad++;
		} else if (out != t->want) {
			fprintf(stderr, "case %zu `%s` a=%#llx b=%#llx c=%#llx: got %#llx want %#llx\n", i,
				t->body, (unsigned long long)t->a, (unsigned long long)t->b,
				(unsigned long long)t->c, (unsigned long long)out, (unsigned long long)t->want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The rounding mode of one instruction never leaks into the next. */
static void test_rounding_restored(void **state)
{
	(void)state;
	uint64_t a = 0x3f800000, b = 0x33c00000, c = 0, out;
	OP_RUN("add.rz.f32 %f14, %f10, %f11; add.f32 %f13, %f10, %f11;" F32OUT, &a, &b, &c, 1, &out);
	assert_int_equal(out, ONEP);
}

/* Approximate transcendental ops give the C library's value (documented). */
static void test_approx_is_libm(void **state)
{
	(void)state;
	volatile float xv = 0.7f; /* not folded at compile time (that may round differently) */
	float x = xv;
	uint64_t a = f2b(x), out;
	OP_RUN("sin.approx.ftz.f32 %f13, %f10;" F32OUT, &a, NULL, NULL, 1, &out);
	assert_int_equal(out, f2b(sinf(x)));
	OP_RUN("lg2.approx.f32 %f13, %f10;" F32OUT, &a, NULL, NULL, 1, &out);
	assert_int_equal(out, f2b(log2f(x)));
	OP_RUN("tanh.approx.f32 %f13, %f10;" F32OUT, &a, NULL, NULL, 1, &out);
	assert_int_equal(out, f2b(tanhf(x)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_float_cases),
		cmocka_unit_test(test_rounding_restored),
		cmocka_unit_test(test_approx_is_libm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
