/*
 * test_emu_int.c - integer semantics of the emulator at every width:
 * wrap-around and saturation, carry chains, mul.hi/wide, mul24, division by
 * zero, clamped shifts, bit-field ops (bfe bfi prmt brev popc clz bfind
 * lop3 shf), min/max/abs/neg/sad, integer cvt with .sat, setp/selp/set/slct
 * and predicate logic. Each case is one PTX snippet run by one thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

struct icase {
	const char *body;
	uint64_t a, b, c, want;
};

#define R32 "cvt.u64.u32 %rd13, %r13;\n"

static const struct icase cases[] = {
	{ "add.s32 %r13, %r10, %r11;" R32, 0x7fffffff, 1, 0, 0x80000000 },
	{ "add.sat.s32 %r13, %r10, %r11;" R32, 0x7fffffff, 1, 0, 0x7fffffff },
	{ "sub.sat.s32 %r13, %r10, %r11;" R32, 0x80000000, 1, 0, 0x80000000 },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; sub.u16 %h3, %h1, %h2; cvt.u32.u16 %r13, %h3;" R32, 0, 1, 0, 0xffff },
	{ "add.s64 %rd13, %rd10, %rd11;", 0xffffffffffffffffull, 2, 0, 1 },
	/* carry chains */
	{ "add.cc.u32 %r13, %r10, %r11; addc.u32 %r14, %r12, 0; mov.b64 %rd13, {%r13, %r14};", 0xffffffff, 1, 5, 0x600000000ull },
	{ "add.cc.u32 %r13, %r10, %r11; addc.cc.u32 %r14, %r12, 0; addc.u32 %r15, 0, 0; cvt.u64.u32 %rd13, %r15;", 0xffffffff, 1, 0xffffffff, 1 },
	{ "sub.cc.u32 %r13, %r10, %r11; subc.u32 %r14, %r12, 0; mov.b64 %rd13, {%r13, %r14};", 0, 1, 5, 0x4ffffffffull },
	{ "mad.lo.cc.u32 %r13, %r10, %r11, %r12; madc.hi.u32 %r14, %r10, %r11, 0; mov.b64 %rd13, {%r13, %r14};", 0xffffffff, 1, 1, 0x100000000ull },
	{ "add.cc.u64 %rd14, %rd10, %rd11; addc.u64 %rd13, %rd12, 0;", 0xffffffffffffffffull, 1, 7, 8 },
	/* mul */
	{ "mul.hi.u32 %r13, %r10, %r11;" R32, 0xffffffff, 0xffffffff, 0, 0xfffffffe },
	{ "mul.hi.s32 %r13, %r10, %r11;" R32, 0xffffffff, 0xffffffff, 0, 0 },
	{ "mul.hi.u64 %rd13, %rd10, %rd11;", 0xffffffffffffffffull, 2, 0, 1 },
	{ "mul.hi.s64 %rd13, %rd10, %rd11;", 0xffffffffffffffffull, 2, 0, 0xffffffffffffffffull },
	{ "mul.lo.s64 %rd13, %rd10, %rd11;", 0x100000001ull, 0x100000001ull, 0, 0x200000001ull },
	{ "mul.wide.s32 %rd13, %r10, %r11;", 0xfffffffe, 3, 0, (uint64_t)-6ll },
	{ "mul.wide.u32 %rd13, %r10, %r11;", 0xffffffff, 0xffffffff, 0, 0xfffffffe00000001ull },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; mul.wide.s16 %r13, %h1, %h2;" R32, 0xffff, 0x7fff, 0, 0xffff8001 },
	{ "mad.wide.u32 %rd13, %r10, %r11, %rd12;", 0xffffffff, 2, 5, 0x1fffffffe + 5ull },
	{ "mad.hi.s32 %r13, %r10, %r11, %r12;" R32, 0x40000000, 8, 3, 5 },
	{ "mul24.lo.s32 %r13, %r10, %r11;" R32, 0x00ffffff, 2, 0, 0xfffffffe },
	{ "mul24.hi.u32 %r13, %r10, %r11;" R32, 0xffffff, 0xffffff, 0, 0xfffffe00 },
	{ "mad24.lo.u32 %r13, %r10, %r11, %r12;" R32, 0x1000001, 3, 4, 7 },
	/* div/rem, including the defined division by zero */
	{ "div.u32 %r13, %r10, %r11;" R32, 7, 0, 0, 0xffffffff },
	{ "rem.u32 %r13, %r10, %r11;" R32, 7, 0, 0, 7 },
	{ "div.s32 %r13, %r10, %r11;" R32, 0x80000000, 0xffffffff, 0, 0x80000000 },
	{ "rem.s32 %r13, %r10, %r11;" R32, (uint32_t)-7, 2, 0, (uint32_t)-1 },
	{ "div.s32 %r13, %r10, %r11;" R32, (uint32_t)-7, 2, 0, (uint32_t)-3 },
	{ "div.u64 %rd13, %rd10, %rd11;", 0xffffffffffffffffull, 3, 0, 0x5555555555555555ull },
	{ "rem.s64 %rd13, %rd10, %rd11;", (uint64_t)-9ll, 4, 0, (uint64_t)-1ll },
	/* shifts clamp */
	{ "shl.b32 %r13, %r10, %r11;" R32, 1, 32, 0, 0 },
	{ "shl.b32 %r13, %r10, %r11;" R32, 1, 31, 0, 0x80000000 },
	{ "shr.u32 %r13, %r10, %r11;" R32, 0x80000000, 40, 0, 0 },
	{ "shr.s32 %r13, %r10, %r11;" R32, 0x80000000, 40, 0, 0xffffffff },
	{ "shr.s32 %r13, %r10, %r11;" R32, 0x80000000, 4, 0, 0xf8000000 },
	{ "shr.b32 %r13, %r10, %r11;" R32, 0x80000000, 4, 0, 0x08000000 },
	{ "shl.b64 %rd13, %rd10, %r11;", 1, 64, 0, 0 },
	{ "shr.s64 %rd13, %rd10, %r11;", 0x8000000000000000ull, 100, 0, 0xffffffffffffffffull },
	{ "cvt.u16.u32 %h1, %r10; shl.b16 %h2, %h1, 4; cvt.u32.u16 %r13, %h2;" R32, 0xabcd, 0, 0, 0xbcd0 },
	/* bit fields */
	{ "bfe.u32 %r13, %r10, %r11, %r12;" R32, 0xf0f0, 4, 8, 0x0f },
	{ "bfe.s32 %r13, %r10, %r11, %r12;" R32, 0xf0, 4, 4, 0xffffffff },
	{ "bfe.u32 %r13, %r10, %r11, %r12;" R32, 0xc0000000, 30, 8, 3 },
	{ "bfe.s32 %r13, %r10, %r11, %r12;" R32, 0x80000000, 28, 8, 0xfffffff8 },
	{ "bfe.u64 %rd13, %rd10, %r11, %r12;", 0xabcd000000000000ull, 48, 16, 0xabcd },
	{ "bfi.b32 %r13, %r10, %r11, %r12, 4;" R32, 0xff, 0, 8, 0xf00 },
	{ "bfi.b32 %r13, %r10, %r11, %r12, 8;" R32, 0xff, 0xffffffff, 28, 0xffffffff },
	{ "prmt.b32 %r13, %r10, %r11, %r12;" R32, 0x03020100, 0x07060504, 0x5140, 0x05010400 },
	{ "prmt.b32 %r13, %r10, %r11, %r12;" R32, 0x80, 0, 0x8888, 0xffffffff },
	{ "prmt.b32.f4e %r13, %r10, %r11, %r12;" R32, 0x03020100, 0x07060504, 1, 0x04030201 },
	{ "prmt.b32.b4e %r13, %r10, %r11, %r12;" R32, 0x03020100, 0x07060504, 0, 0x05060700 },
	{ "brev.b32 %r13, %r10;" R32, 1, 0, 0, 0x80000000 },
	{ "brev.b64 %rd13, %rd10;", 1, 0, 0, 0x8000000000000000ull },
	{ "popc.b32 %r13, %r10;" R32, 0xff00ff, 0, 0, 16 },
	{ "popc.b64 %r13, %rd10;" R32, 0xffffffffffffffffull, 0, 0, 64 },
	{ "clz.b32 %r13, %r10;" R32, 1, 0, 0, 31 },
	{ "clz.b32 %r13, %r10;" R32, 0, 0, 0, 32 },
	{ "clz.b64 %r13, %rd10;" R32, 1, 0, 0, 63 },
	{ "bfind.u32 %r13, %r10;" R32, 0x10, 0, 0, 4 },
	{ "bfind.u32 %r13, %r10;" R32, 0, 0, 0, 0xffffffff },
	{ "bfind.s32 %r13, %r10;" R32, 0xfffffff0, 0, 0, 3 },
	{ "bfind.shiftamt.u32 %r13, %r10;" R32, 0x10, 0, 0, 27 },
	{ "lop3.b32 %r13, %r10, %r11, %r12, 0x96;" R32, 0xf0f0, 0xff00, 0x1234, 0xf0f0 ^ 0xff00 ^ 0x1234 },
	{ "lop3.b32 %r13, %r10, %r11, %r12, 0x80;" R32, 0xf0f0, 0xff00, 0xffff, 0xf000 },
	{ "shf.l.wrap.b32 %r13, %r10, %r11, %r12;" R32, 0x80000000, 1, 1, 3 },
	{ "shf.l.wrap.b32 %r13, %r10, %r11, %r12;" R32, 0x80000000, 1, 33, 3 },
	{ "shf.r.clamp.b32 %r13, %r10, %r11, %r12;" R32, 0x1234, 0xabcd, 40, 0xabcd },
	{ "shf.r.wrap.b32 %r13, %r10, %r11, %r12;" R32, 0x10, 0x1, 4, 0x10000001 },
	/* min/max/abs/neg/sad */
	{ "min.s32 %r13, %r10, %r11;" R32, 0xffffffff, 1, 0, 0xffffffff },
	{ "min.u32 %r13, %r10, %r11;" R32, 0xffffffff, 1, 0, 1 },
	{ "max.s64 %rd13, %rd10, %rd11;", (uint64_t)-5ll, 3, 0, 3 },
	{ "max.u64 %rd13, %rd10, %rd11;", (uint64_t)-5ll, 3, 0, (uint64_t)-5ll },
	{ "abs.s32 %r13, %r10;" R32, 0x80000000, 0, 0, 0x80000000 },
	{ "abs.s32 %r13, %r10;" R32, (uint32_t)-9, 0, 0, 9 },
	{ "neg.s32 %r13, %r10;" R32, 5, 0, 0, (uint32_t)-5 },
	{ "neg.s64 %rd13, %rd10;", 5, 0, 0, (uint64_t)-5ll },
	{ "sad.u32 %r13, %r10, %r11, %r12;" R32, 3, 10, 100, 107 },
	{ "sad.s32 %r13, %r10, %r11, %r12;" R32, (uint32_t)-3, 4, 1, 8 },
	{ "not.b32 %r13, %r10;" R32, 0xf0f0f0f0, 0, 0, 0x0f0f0f0f },
	{ "cnot.b32 %r13, %r10;" R32, 0, 0, 0, 1 },
	{ "cnot.b32 %r13, %r10;" R32, 7, 0, 0, 0 },
	/* integer cvt */
	{ "cvt.s32.s8 %r13, %r10;" R32, 0x80, 0, 0, 0xffffff80 },
	{ "cvt.u32.u8 %r13, %r10;" R32, 0x1ff, 0, 0, 0xff },
	{ "cvt.sat.s8.s32 %r13, %r10;" R32, 300, 0, 0, 127 },
	{ "cvt.sat.s8.s32 %r13, %r10;" R32, (uint32_t)-300, 0, 0, 0xffffff80 },
	{ "cvt.sat.u8.s32 %r13, %r10;" R32, (uint32_t)-5, 0, 0, 0 },
	{ "cvt.sat.u32.s64 %r13, %rd10;" R32, 0x100000000ull, 0, 0, 0xffffffff },
	{ "cvt.sat.s32.u32 %r13, %r10;" R32, 0x80000000, 0, 0, 0x7fffffff },
	{ "cvt.s64.s32 %rd13, %r10;", 0xffffffff, 0, 0, 0xffffffffffffffffull },
	/* a signed result narrower than its register is sign-extended */
	{ "cvt.s8.s32 %r13, %r10;" R32, 0x1ff80, 0, 0, 0xffffff80 },
	{ "cvt.u8.s32 %r13, %r10;" R32, 0x1ff80, 0, 0, 0x80 },
	{ "cvt.rzi.s16.f32 %r13, %r10;" R32, 0xc0a00000 /* -5.0 */, 0, 0, 0xfffffffb },
	{ "cvt.u64.u32 %rd13, %r10;", 0xffffffff, 0, 0, 0xffffffffull },
	{ "cvt.s64.s16 %rd13, %rd10;", 0x8000, 0, 0, 0xffffffffffff8000ull },
	/* compare, select */
	{ "setp.lt.s64 %p1, %rd10, %rd11; selp.u32 %r13, 1, 2, %p1;" R32, (uint64_t)-1ll, 1, 0, 1 },
	{ "setp.lo.u64 %p1, %rd10, %rd11; selp.u32 %r13, 1, 2, %p1;" R32, (uint64_t)-1ll, 1, 0, 2 },
	{ "setp.hs.u32 %p1, %r10, %r11; selp.u32 %r13, 1, 2, %p1;" R32, 5, 5, 0, 1 },
	{ "setp.gt.s16 %p1, %rd10, %rd11; selp.u32 %r13, 1, 2, %p1;" R32, 0, 0, 0, 2 },
	{ "setp.ne.s32 %p3, %r12, 0; setp.lt.and.s32 %p1|%p2, %r10, %r11, %p3; selp.u32 %r13, 1, 0, %p1; selp.u32 %r14, 2, 0, %p2; or.b32 %r13, %r13, %r14;" R32, 1, 2, 1, 1 },
	{ "setp.ne.s32 %p3, %r12, 0; setp.lt.and.s32 %p1|%p2, %r10, %r11, %p3; selp.u32 %r13, 1, 0, %p1; selp.u32 %r14, 2, 0, %p2; or.b32 %r13, %r13, %r14;" R32, 3, 2, 1, 2 },
	{ "setp.ne.s32 %p3, %r12, 0; setp.lt.or.s32 %p1, %r10, %r11, !%p3; selp.u32 %r13, 1, 0, %p1;" R32, 3, 2, 0, 1 },
	{ "setp.eq.s32 %p1, %r10, 1; setp.eq.s32 %p2, %r11, 1; xor.pred %p3, %p1, %p2; not.pred %p4, %p3; selp.u32 %r13, 1, 0, %p4;" R32, 1, 1, 0, 1 },
	{ "setp.eq.s32 %p1, %r10, 1; setp.eq.s32 %p2, %r11, 1; and.pred %p3, %p1, !%p2; selp.u32 %r13, 1, 0, %p3;" R32, 1, 0, 0, 1 },
	{ "setp.eq.s32 %p1, %r10, 1; setp.eq.s32 %p2, %r11, 1; or.pred %p3, !%p1, %p2; selp.u32 %r13, 1, 0, %p3;" R32, 1, 0, 0, 0 },
	{ "set.lt.u32.s32 %r13, %r10, %r11;" R32, (uint32_t)-1, 0, 0, 0xffffffff },
	{ "set.ge.u32.u32 %r13, %r10, %r11;" R32, (uint32_t)-1, 0, 0, 0xffffffff },
	{ "slct.s32.s32 %r13, %r10, %r11, %r12;" R32, 10, 20, (uint32_t)-1, 20 },
	{ "slct.s32.s32 %r13, %r10, %r11, %r12;" R32, 10, 20, 0, 10 },
	{ "mov.b64 {%r13, %r14}, %rd10; mov.b64 %rd13, {%r14, %r13};", 0x1111111122222222ull, 0, 0, 0x2222222211111111ull },
	{ "cvt.u16.u32 %h1, %r10; cvt.u16.u32 %h2, %r11; mov.b32 %r13, {%h1, %h2};" R32, 0xaaaa, 0xbbbb, 0, 0xbbbbaaaa },
	{ "mov.u32 %r13, -1;" R32, 0, 0, 0, 0xffffffff },
	/* dot products */
	{ "dp4a.u32.u32 %r13, %r10, %r11, %r12;" R32, 0x01020304, 0x01010101, 10, 20 },
	{ "dp4a.s32.s32 %r13, %r10, %r11, %r12;" R32, 0xff020304, 0x02010101, 0, (uint32_t)(-2 + 2 + 3 + 4) },
	{ "dp4a.s32.u32 %r13, %r10, %r11, %r12;" R32, 0x000000ff, 0x000000ff, 1, (uint32_t)(-255 + 1) },
	{ "dp2a.lo.u32.u32 %r13, %r10, %r11, %r12;" R32, 0x00030002, 0x00000504, 0, 2 * 4 + 3 * 5 },
	{ "dp2a.hi.s32.s32 %r13, %r10, %r11, %r12;" R32, 0xffff0002, 0x05040000, 7, (uint32_t)(7 + 2 * 4 - 5) },
	{ "and.b64 %rd13, %rd10, 0xff00;", 0xffffffffffffffffull, 0, 0, 0xff00 },
};

static void test_int_cases(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct icase *t = &cases[i];
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

/* Per-lane carry: each lane's carry chain is independent. */
static void test_carry_per_lane(void **state)
{
	(void)state;
	uint64_t a[32], b[32], out[32];
	for (int i = 0; i < 32; i++) {
		a[i] = (i & 1) ? 0xffffffff : 1;
		b[i] = 1;
	}
	OP_RUN("add.cc.u32 %r13, %r10, %r11; addc.u32 %r14, 0, 0; cvt.u64.u32 %rd13, %r14;", a, b, NULL, 32, out);
	for (int i = 0; i < 32; i++)
		assert_int_equal(out[i], (uint64_t)(i & 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_cases),
		cmocka_unit_test(test_carry_per_lane),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
