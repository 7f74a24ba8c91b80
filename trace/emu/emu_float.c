/*
 * emu_float.c - floating-point arithmetic, compare, testp and cvt of the
 * functional emulator.
 *
 * f32/f64 arithmetic is IEEE-754 in C (the build uses -ffp-contract=off so a
 * PTX mul followed by add is never fused, and -frounding-math so fesetround
 * is honoured for .rz/.rm/.rp). fma/mad are true fused multiply-adds
 * (fma; for f32 round-to-nearest an exact double evaluation, see fmaf_rn). .ftz flushes f32 subnormal inputs and results to signed
 * zero; .sat clamps to [0,1] with NaN -> +0. Approximate instructions
 * (.approx div/rcp/sqrt, rsqrt, ex2, lg2, sin, cos, tanh) return the C
 * library's value for the same inputs: close to, but not bit-identical with,
 * the hardware (docs/emulator.md). f16 and bf16 conversions and arithmetic
 * are done in software with the requested rounding.
 */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "emu.h"

#define D(i) WEFT_SLOT(W, ei->d[i])
#define S(i) WEFT_SLOT(W, ei->s[i])
#define ARGS struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei, uint32_t mask

static inline float ftzf(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	if (!(u & 0x7f800000u) && (u & 0x7fffffu)) {
		u &= 0x80000000u;
		memcpy(&x, &u, 4);
	}
	return x;
}
static inline float satf(float x)
{
	if (!(x > 0.0f))
		return 0.0f;
	return x > 1.0f ? 1.0f : x;
}
static inline double satd(double x)
{
	if (!(x > 0.0))
		return 0.0;
	return x > 1.0 ? 1.0 : x;
}

static int set_round(int rnd)
{
	if (rnd != WEFT_RND_RZ && rnd != WEFT_RND_RM && rnd != WEFT_RND_RP)
		return -1;
	int old = fegetround();
	switch (rnd) {
	case WEFT_RND_RZ: fesetround(FE_TOWARDZERO); break;
	case WEFT_RND_RM: fesetround(FE_DOWNWARD); break;
	default: fesetround(FE_UPWARD); break;
	}
	return old;
}
static void restore_round(int old)
{
	if (old >= 0)
		fesetround(old);
}

/* PTX min/max: a NaN operand yields the other operand; -0 < +0. */
static inline double pmin(double a, double b, int nanmode)
{
	if (isnan(a) || isnan(b)) {
		if (nanmode)
			return NAN;
		return isnan(a) ? b : a;
	}
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}
static inline double pmax(double a, double b, int nanmode)
{
	if (isnan(a) || isnan(b)) {
		if (nanmode)
			return NAN;
		return isnan(a) ? b : a;
	}
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static inline float f32_op(int op, float a, float b, float c, int nanmode)
{
	switch (op) {
	case WEFT_OP_ADD: return a + b;
	case WEFT_OP_SUB: return a - b;
	case WEFT_OP_MUL: return a * b;
	case WEFT_OP_FMA: case WEFT_OP_MAD: return fmaf(a, b, c);
	case WEFT_OP_DIV: return a / b;
	case WEFT_OP_MIN: return (float)pmin(a, b, nanmode);
	case WEFT_OP_MAX: return (float)pmax(a, b, nanmode);
	case WEFT_OP_ABS: return fabsf(a);
	case WEFT_OP_NEG: return -a;
	case WEFT_OP_RCP: return 1.0f / a;
	case WEFT_OP_SQRT: return sqrtf(a);
	case WEFT_OP_RSQRT: return (float)(1.0 / sqrt((double)a));
	case WEFT_OP_EX2: return exp2f(a);
	case WEFT_OP_LG2: return log2f(a);
	case WEFT_OP_SIN: return sinf(a);
	case WEFT_OP_COS: return cosf(a);
	case WEFT_OP_TANH: return tanhf(a);
	case WEFT_OP_COPYSIGN: return copysignf(b, a);
	default: return NAN;
	}
}

static inline double f64_op(int op, double a, double b, double c, int nanmode)
{
	switch (op) {
	case WEFT_OP_ADD: return a + b;
	case WEFT_OP_SUB: return a - b;
	case WEFT_OP_MUL: return a * b;
	case WEFT_OP_FMA: case WEFT_OP_MAD: return fma(a, b, c);
	case WEFT_OP_DIV: return a / b;
	case WEFT_OP_MIN: return pmin(a, b, nanmode);
	case WEFT_OP_MAX: return pmax(a, b, nanmode);
	case WEFT_OP_ABS: return fabs(a);
	case WEFT_OP_NEG: return -a;
	case WEFT_OP_RCP: return 1.0 / a;
	case WEFT_OP_SQRT: return sqrt(a);
	case WEFT_OP_RSQRT: return 1.0 / sqrt(a);
	case WEFT_OP_EX2: return exp2(a);
	case WEFT_OP_LG2: return log2(a);
	case WEFT_OP_SIN: return sin(a);
	case WEFT_OP_COS: return cos(a);
	case WEFT_OP_TANH: return tanh(a);
	case WEFT_OP_COPYSIGN: return copysign(b, a);
	default: return NAN;
	}
}

/* fmaf in round-to-nearest without a libm call: the product of two floats
 * is exact in double; the sum is rounded once to double and then to float,
 * which equals the single rounding of the exact value unless the double sum
 * was inexact and lands exactly on a float rounding tie, or the result is
 * tiny (float subnormal range): those rare cases take libm's fmaf. */
static inline float fmaf_rn(float a, float b, float c)
{
	double p = (double)a * (double)b;
	double s = p + (double)c;
	double bb = s - p;
	double e = (p - (s - bb)) + ((double)c - bb);
	if (e == 0)
		return (float)s;
	uint64_t u;
	memcpy(&u, &s, 8);
	if ((u & 0x1fffffffull) != 0x10000000ull && fabs(s) >= 0x1p-125)
		return (float)s;
	return fmaf(a, b, c);
}

/* Fast paths: round-to-nearest, no ftz/sat. */
static int h_fadd32(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, d[l] = weft_emu_f32b(weft_emu_f32v(A[l]) + weft_emu_f32v(B[l])));
	return 0;
}
static int h_fsub32(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, d[l] = weft_emu_f32b(weft_emu_f32v(A[l]) - weft_emu_f32v(B[l])));
	return 0;
}
static int h_fmul32(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, d[l] = weft_emu_f32b(weft_emu_f32v(A[l]) * weft_emu_f32v(B[l])));
	return 0;
}
static int h_ffma32(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	WEFT_LANES(mask, l, d[l] = weft_emu_f32b(fmaf_rn(weft_emu_f32v(A[l]), weft_emu_f32v(B[l]), weft_emu_f32v(C[l]))));
	return 0;
}
static int h_fadd64(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, d[l] = weft_emu_f64b(weft_emu_f64v(A[l]) + weft_emu_f64v(B[l])));
	return 0;
}
static int h_fmul64(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, d[l] = weft_emu_f64b(weft_emu_f64v(A[l]) * weft_emu_f64v(B[l])));
	return 0;
}
static int h_ffma64(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	WEFT_LANES(mask, l, d[l] = weft_emu_f64b(fma(weft_emu_f64v(A[l]), weft_emu_f64v(B[l]), weft_emu_f64v(C[l]))));
	return 0;
}

static int h_f32_gen(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int op = ei->in.op, ftz = (ei->in.flags & WEFT_F_FTZ) != 0, sat = (ei->in.flags & WEFT_F_SAT) != 0;
	int nanmode = (ei->in.flags & WEFT_F_NAN) != 0;
	int old = set_round(ei->in.rnd);
	WEFT_LANES(mask, l, {
		float a = weft_emu_f32v(A[l]), b = weft_emu_f32v(B[l]), c = weft_emu_f32v(C[l]);
		if (ftz) {
			a = ftzf(a);
			b = ftzf(b);
			c = ftzf(c);
		}
		float r = f32_op(op, a, b, c, nanmode);
		if (ftz)
			r = ftzf(r);
		if (sat)
			r = satf(r);
		d[l] = weft_emu_f32b(r);
	});
	restore_round(old);
	return 0;
}

static int h_f64_gen(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int op = ei->in.op, sat = (ei->in.flags & WEFT_F_SAT) != 0;
	int nanmode = (ei->in.flags & WEFT_F_NAN) != 0;
	int old = set_round(ei->in.rnd);
	WEFT_LANES(mask, l, {
		double r = f64_op(op, weft_emu_f64v(A[l]), weft_emu_f64v(B[l]), weft_emu_f64v(C[l]), nanmode);
		if (sat)
			r = satd(r);
		d[l] = weft_emu_f64b(r);
	});
	restore_round(old);
	return 0;
}

/* ---- f16 / bf16 ---- */

static uint16_t f16_ftz(uint16_t h);

static double f16_to_double(uint16_t h)
{
	int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;
	if (e == 0)
		v = ldexp((double)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp((double)(m | 0x400), e - 25);
	return s ? -v : v;
}

/* Rounds a non-negative value already scaled so that the result is an
 * integer n, with the PTX rounding mode (neg: the value is negative). */
static double round_int(double n, int rnd, int neg)
{
	double f = floor(n), frac = n - f;
	switch (rnd) {
	case WEFT_RND_RZ: return f;
	case WEFT_RND_RM: return (neg && frac > 0) ? f + 1 : f;
	case WEFT_RND_RP: return (!neg && frac > 0) ? f + 1 : f;
	default:
		if (frac > 0.5 || (frac == 0.5 && fmod(f, 2.0) != 0))
			return f + 1;
		return f;
	}
}

static uint16_t double_to_f16(double x, int rnd)
{
	uint16_t s = signbit(x) ? 0x8000 : 0;
	if (isnan(x))
		return 0x7fff;
	double a = fabs(x);
	if (isinf(a))
		return s | 0x7c00;
	if (a == 0)
		return s;
	int e;
	frexp(a, &e); /* a = m * 2^e, m in [0.5,1): exponent of leading bit e-1 */
	int E = e - 1;
	if (E < -14)
		E = -14;
	double q = ldexp(1.0, E - 10);
	double n = round_int(a / q, rnd, s != 0);
	double r = n * q;
	if (r > 65504.0) {
		int to_inf = rnd == WEFT_RND_RN || rnd == WEFT_RND_NONE ||
			     (rnd == WEFT_RND_RP && !s) || (rnd == WEFT_RND_RM && s);
		return s | (to_inf ? 0x7c00 : 0x7bff);
	}
	if (r < ldexp(1.0, -14))
		return s | (uint16_t)(r / ldexp(1.0, -24));
	frexp(r, &e);
	E = e - 1;
	uint16_t mant = (uint16_t)(r / ldexp(1.0, E - 10) - 1024.0);
	return s | (uint16_t)((E + 15) << 10) | mant;
}

static uint16_t float_to_bf16(float f, int rnd)
{
	uint32_t u = (uint32_t)weft_emu_f32b(f);
	if (isnan(f))
		return 0x7fff;
	uint32_t lo = u & 0xffff, hi = u >> 16;
	int neg = (u >> 31) != 0;
	switch (rnd) {
	case WEFT_RND_RZ: return (uint16_t)hi;
	case WEFT_RND_RM: return (uint16_t)((neg && lo) ? hi + 1 : hi);
	case WEFT_RND_RP: return (uint16_t)((!neg && lo) ? hi + 1 : hi);
	default: return (uint16_t)((u + 0x7fff + (hi & 1)) >> 16);
	}
}

static double to_double(int t, uint64_t v, int ftz)
{
	switch (t) {
	case WEFT_T_F32: {
		float f = weft_emu_f32v(v);
		return ftz ? ftzf(f) : f;
	}
	case WEFT_T_F64: return weft_emu_f64v(v);
	case WEFT_T_F16: return f16_to_double((uint16_t)v);
	case WEFT_T_BF16: return weft_emu_f32v((v & 0xffff) << 16);
	default: return 0;
	}
}

static int is_flt(int t)
{
	return t == WEFT_T_F16 || t == WEFT_T_BF16 || t == WEFT_T_F32 || t == WEFT_T_F64 ||
	       t == WEFT_T_F16X2;
}

static double round_integral(double x, int rnd)
{
	switch (rnd) {
	case WEFT_RND_RNI: return nearbyint(x);
	case WEFT_RND_RMI: return floor(x);
	case WEFT_RND_RPI: return ceil(x);
	default: return trunc(x);
	}
}

/* Encodes x (already rounded to the format where that matters) into the
 * float type t with rounding rnd (fenv already set for f32). */
static uint64_t from_double(int t, double x, int rnd, int ftz, int sat)
{
	if (sat)
		x = satd(x);
	switch (t) {
	case WEFT_T_F32: {
		float f = (float)x;
		if (ftz)
			f = ftzf(f);
		return weft_emu_f32b(f);
	}
	case WEFT_T_F64: return weft_emu_f64b(x);
	case WEFT_T_F16: return double_to_f16(x, rnd);
	case WEFT_T_BF16: return float_to_bf16((float)x, rnd);
	default: return 0;
	}
}

uint64_t weft_emu_cvt1(const struct weft_inst *in, uint64_t v)
{
	int dt = in->type, st = in->type2, rnd = in->rnd;
	int ftz = (in->flags & WEFT_F_FTZ) != 0, sat = (in->flags & WEFT_F_SAT) != 0;
	int sf = is_flt(st), df = is_flt(dt);
	unsigned sb = weft_emu_bits(st), db = weft_emu_bits(dt);
	if (!sf && !df) {
		if (weft_emu_signed(st)) {
			int64_t x = weft_emu_sext(v, sb);
			if (sat) {
				if (weft_emu_signed(dt)) {
					int64_t mx = db == 64 ? INT64_MAX : (int64_t)((1ull << (db - 1)) - 1);
					int64_t mn = -mx - 1;
					x = x > mx ? mx : x < mn ? mn : x;
				} else {
					uint64_t mx = weft_emu_wmask(db);
					if (x < 0)
						x = 0;
					else if ((uint64_t)x > mx)
						x = (int64_t)mx;
				}
			}
			return (uint64_t)x & weft_emu_wmask(db);
		} else {
			uint64_t x = v & weft_emu_wmask(sb);
			if (sat) {
				uint64_t mx = weft_emu_signed(dt) ? weft_emu_wmask(db - 1) : weft_emu_wmask(db);
				if (x > mx)
					x = mx;
			}
			return x & weft_emu_wmask(db);
		}
	}
	if (!sf) { /* int -> float */
		if (dt == WEFT_T_F32) {
			float f = weft_emu_signed(st) ? (float)weft_emu_sext(v, sb) : (float)(v & weft_emu_wmask(sb));
			if (sat)
				f = satf(f);
			return weft_emu_f32b(f);
		}
		double x = weft_emu_signed(st) ? (double)weft_emu_sext(v, sb) : (double)(v & weft_emu_wmask(sb));
		return from_double(dt, x, rnd, 0, sat);
	}
	double x = to_double(st, v, ftz);
	if (!df) { /* float -> int: round, saturate, NaN -> 0 */
		if (isnan(x))
			return 0;
		x = round_integral(x, rnd);
		if (weft_emu_signed(dt)) {
			int64_t r;
			if (db == 64) {
				if (x >= 9223372036854775808.0)
					r = INT64_MAX;
				else if (x < -9223372036854775808.0)
					r = INT64_MIN;
				else
					r = (int64_t)x;
			} else {
				double mx = (double)((1ll << (db - 1)) - 1), mn = -mx - 1;
				r = x > mx ? (int64_t)mx : x < mn ? (int64_t)mn : (int64_t)x;
			}
			return (uint64_t)r & weft_emu_wmask(db);
		}
		uint64_t r;
		if (x <= 0)
			r = 0;
		else if (db == 64)
			r = x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
		else {
			double mx = (double)weft_emu_wmask(db);
			r = x > mx ? weft_emu_wmask(db) : (uint64_t)x;
		}
		return r;
	}
	/* float -> float */
	if (rnd >= WEFT_RND_RNI)
		x = round_integral(x, rnd);
	if ((in->flags & WEFT_F_RELU) && !isnan(x) && x < 0)
		x = 0;
	return from_double(dt, x, rnd, ftz, sat);
}

static int h_cvt(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	const struct weft_inst *in = &ei->in;
	int dt = in->type, st = in->type2;
	if (!is_flt(dt) && !is_flt(st) && !(in->flags & WEFT_F_SAT) &&
	    !(weft_emu_signed(dt) && weft_emu_bits(dt) < ei->dbits)) {
		unsigned sb = weft_emu_bits(st);
		uint64_t dm = weft_emu_wmask(weft_emu_bits(dt));
		if (weft_emu_signed(st))
			WEFT_LANES(mask, l, d[l] = (uint64_t)weft_emu_sext(A[l], sb) & dm);
		else {
			uint64_t sm = weft_emu_wmask(sb) & dm;
			WEFT_LANES(mask, l, d[l] = A[l] & sm);
		}
		return 0;
	}
	if (dt == WEFT_T_F64 && st == WEFT_T_F32 && !(in->flags & (WEFT_F_FTZ | WEFT_F_SAT))) {
		WEFT_LANES(mask, l, d[l] = weft_emu_f64b((double)weft_emu_f32v(A[l])));
		return 0;
	}
	/* common conversions in round-to-nearest, no ftz/sat */
	if (!(in->flags & (WEFT_F_FTZ | WEFT_F_SAT | WEFT_F_RELU)) &&
	    (in->rnd == WEFT_RND_RN || in->rnd == WEFT_RND_NONE)) {
		if (dt == WEFT_T_F32 && st == WEFT_T_S32) {
			WEFT_LANES(mask, l, d[l] = weft_emu_f32b((float)(int32_t)A[l]));
			return 0;
		}
		if (dt == WEFT_T_F32 && st == WEFT_T_U32) {
			WEFT_LANES(mask, l, d[l] = weft_emu_f32b((float)(uint32_t)A[l]));
			return 0;
		}
		if (dt == WEFT_T_F64 && st == WEFT_T_S32) {
			WEFT_LANES(mask, l, d[l] = weft_emu_f64b((double)(int32_t)A[l]));
			return 0;
		}
		if (dt == WEFT_T_F64 && st == WEFT_T_U32) {
			WEFT_LANES(mask, l, d[l] = weft_emu_f64b((double)(uint32_t)A[l]));
			return 0;
		}
		if (dt == WEFT_T_F32 && st == WEFT_T_F64) {
			WEFT_LANES(mask, l, d[l] = weft_emu_f32b((float)weft_emu_f64v(A[l])));
			return 0;
		}
	}
	if (dt == WEFT_T_S32 && (st == WEFT_T_F32 || st == WEFT_T_F64) && in->rnd == WEFT_RND_RZI &&
	    !(in->flags & WEFT_F_FTZ)) {
		/* truncate, saturate, NaN -> 0 */
		WEFT_LANES(mask, l, {
			double x = st == WEFT_T_F32 ? (double)weft_emu_f32v(A[l]) : weft_emu_f64v(A[l]);
			int32_t r = x != x ? 0 : x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)x;
			d[l] = (uint32_t)r;
		});
		return 0;
	}
	int old = -1;
	if (dt == WEFT_T_F32 || dt == WEFT_T_F64)
		old = set_round(in->rnd);
	if (dt == WEFT_T_F16X2 && ei->ns >= 2) {
		const uint64_t *B = S(1);
		struct weft_inst t = *in;
		t.type = WEFT_T_F16;
		WEFT_LANES(mask, l, d[l] = (weft_emu_cvt1(&t, A[l]) << 16) | weft_emu_cvt1(&t, B[l]));
	} else if (weft_emu_signed(dt) && weft_emu_bits(dt) < ei->dbits) {
		/* a signed result narrower than its register is sign-extended
		 * to the register's width (PTX's relaxed destination rule) */
		unsigned db = weft_emu_bits(dt);
		uint64_t rm = weft_emu_wmask(ei->dbits);
		WEFT_LANES(mask, l, d[l] = (uint64_t)weft_emu_sext(weft_emu_cvt1(in, A[l]), db) & rm);
	} else {
		WEFT_LANES(mask, l, d[l] = weft_emu_cvt1(in, A[l]));
	}
	restore_round(old);
	return 0;
}

uint32_t weft_emu_fcmp(int cmp, int type, int ftz, const uint64_t *A, const uint64_t *B,
		       uint32_t mask)
{
	uint32_t r = 0;
#define FC(expr)                                                              \
	do {                                                                  \
		if (type == WEFT_T_F16)                                       \
			WEFT_LANES(mask, l, {                                 \
				double a = f16_to_double((uint16_t)A[l]);     \
				double b = f16_to_double((uint16_t)B[l]);     \
				if (ftz) {                                    \
					a = f16_to_double(f16_ftz((uint16_t)A[l])); \
					b = f16_to_double(f16_ftz((uint16_t)B[l])); \
				}                                             \
				r |= (uint32_t)(expr) << l;                   \
			});                                                   \
		else if (type == WEFT_T_F32)                                  \
			WEFT_LANES(mask, l, {                                 \
				double a = ftz ? ftzf(weft_emu_f32v(A[l])) : weft_emu_f32v(A[l]); \
				double b = ftz ? ftzf(weft_emu_f32v(B[l])) : weft_emu_f32v(B[l]); \
				r |= (uint32_t)(expr) << l;                   \
			});                                                   \
		else                                                          \
			WEFT_LANES(mask, l, {                                 \
				double a = weft_emu_f64v(A[l]), b = weft_emu_f64v(B[l]);        \
				r |= (uint32_t)(expr) << l;                   \
			});                                                   \
	} while (0)
	switch (cmp) {
	case WEFT_CMP_EQ: FC(a == b); break;
	case WEFT_CMP_NE: FC(a < b || a > b); break;
	case WEFT_CMP_LT: FC(a < b); break;
	case WEFT_CMP_LE: FC(a <= b); break;
	case WEFT_CMP_GT: FC(a > b); break;
	case WEFT_CMP_GE: FC(a >= b); break;
	case WEFT_CMP_EQU: FC(!(a < b || a > b)); break;
	case WEFT_CMP_NEU: FC(a != b); break;
	case WEFT_CMP_LTU: FC(!(a >= b)); break;
	case WEFT_CMP_LEU: FC(!(a > b)); break;
	case WEFT_CMP_GTU: FC(!(a <= b)); break;
	case WEFT_CMP_GEU: FC(!(a < b)); break;
	case WEFT_CMP_NUM: FC(!isnan(a) && !isnan(b)); break;
	case WEFT_CMP_NAN: FC(isnan(a) || isnan(b)); break;
	default: break;
	}
#undef FC
	return r;
}

static int h_testp(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	int t = ei->in.type, mode = ei->in.mode;
	WEFT_LANES(mask, l, {
		double x = t == WEFT_T_F32 ? (double)weft_emu_f32v(A[l]) : weft_emu_f64v(A[l]);
		int c = t == WEFT_T_F32 ? fpclassify(weft_emu_f32v(A[l])) : fpclassify(x);
		int r;
		switch (mode) {
		case WEFT_TESTP_FINITE: r = isfinite(x); break;
		case WEFT_TESTP_INFINITE: r = isinf(x); break;
		case WEFT_TESTP_NUMBER: r = !isnan(x); break;
		case WEFT_TESTP_NOTANUMBER: r = isnan(x); break;
		case WEFT_TESTP_NORMAL: r = c == FP_NORMAL; break;
		default: r = c == FP_SUBNORMAL; break;
		}
		d[l] = r != 0;
	});
	return 0;
}

/* Half precision arithmetic (.f16, .f16x2): each half is computed in double
 * (exact for add, sub and mul of halves) and rounded once to f16; fma is
 * the double fma rounded to f16 (a double rounding is possible in rare
 * cases). */
static uint16_t f16_ftz(uint16_t h)
{
	return ((h & 0x7c00) == 0 && (h & 0x3ff)) ? (uint16_t)(h & 0x8000) : h;
}

static uint16_t f16_op(int op, uint16_t a, uint16_t b, uint16_t c, int ftz, int sat, int nanmode, int rnd)
{
	if (ftz) {
		a = f16_ftz(a);
		b = f16_ftz(b);
		c = f16_ftz(c);
	}
	double x = f16_to_double(a), y = f16_to_double(b), z = f16_to_double(c), r;
	switch (op) {
	case WEFT_OP_ADD: r = x + y; break;
	case WEFT_OP_SUB: r = x - y; break;
	case WEFT_OP_MUL: r = x * y; break;
	case WEFT_OP_FMA: case WEFT_OP_MAD: r = fma(x, y, z); break;
	case WEFT_OP_NEG: return (uint16_t)(a ^ 0x8000);
	case WEFT_OP_ABS: return (uint16_t)(a & 0x7fff);
	case WEFT_OP_MIN: r = pmin(x, y, nanmode); break;
	case WEFT_OP_MAX: r = pmax(x, y, nanmode); break;
	default: r = NAN; break;
	}
	if (sat)
		r = satd(r);
	uint16_t h = double_to_f16(r, rnd == WEFT_RND_NONE ? WEFT_RND_RN : rnd);
	return ftz ? f16_ftz(h) : h;
}

/* Rounds x to bf16 (8-bit exponent like f32, 7 fraction bits) with the
 * PTX rounding mode: scaled to an integer at the bf16 quantum and rounded
 * once, so there is no double rounding through f32. */
static uint16_t double_to_bf16(double x, int rnd)
{
	uint16_t s = signbit(x) ? 0x8000 : 0;
	if (isnan(x))
		return 0x7fff;
	double a = fabs(x);
	if (isinf(a))
		return s | 0x7f80;
	if (a == 0)
		return s;
	int e;
	frexp(a, &e);
	int E = e - 1;
	if (E < -126)
		E = -126;
	double q = ldexp(1.0, E - 7);
	double r = round_int(a / q, rnd, s != 0) * q;
	const double maxv = ldexp(255.0, 120); /* (2 - 2^-7) * 2^127 */
	if (r > maxv) {
		int to_inf = rnd == WEFT_RND_RN || rnd == WEFT_RND_NONE ||
			     (rnd == WEFT_RND_RP && !s) || (rnd == WEFT_RND_RM && s);
		return s | (to_inf ? 0x7f80 : 0x7f7f);
	}
	return s | (uint16_t)(weft_emu_f32b((float)r) >> 16); /* r is exact in f32 */
}

static int h_bf16(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int op = ei->in.op, nanmode = (ei->in.flags & WEFT_F_NAN) != 0;
	int rnd = ei->in.rnd == WEFT_RND_NONE ? WEFT_RND_RN : ei->in.rnd;
	WEFT_LANES(mask, l, {
		uint16_t ha = (uint16_t)A[l];
		double x = weft_emu_f32v((A[l] & 0xffff) << 16), y = weft_emu_f32v((B[l] & 0xffff) << 16);
		double z = weft_emu_f32v((C[l] & 0xffff) << 16), r;
		switch (op) {
		case WEFT_OP_ADD: r = x + y; break;
		case WEFT_OP_SUB: r = x - y; break;
		case WEFT_OP_MUL: r = x * y; break;
		case WEFT_OP_FMA: case WEFT_OP_MAD: r = fma(x, y, z); break;
		case WEFT_OP_MIN: r = pmin(x, y, nanmode); break;
		case WEFT_OP_MAX: r = pmax(x, y, nanmode); break;
		case WEFT_OP_NEG: d[l] = (uint16_t)(ha ^ 0x8000); continue;
		default: d[l] = (uint16_t)(ha & 0x7fff); continue; /* abs */
		}
		d[l] = double_to_bf16(r, rnd);
	});
	return 0;
}

uint16_t weft_emu_f16_add(uint16_t a, uint16_t b)
{
	return f16_op(WEFT_OP_ADD, a, b, 0, 0, 0, 0, WEFT_RND_RN);
}

static int h_f16(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int op = ei->in.op, ftz = (ei->in.flags & WEFT_F_FTZ) != 0, sat = (ei->in.flags & WEFT_F_SAT) != 0;
	int nanmode = (ei->in.flags & WEFT_F_NAN) != 0, rnd = ei->in.rnd;
	int two = ei->in.type == WEFT_T_F16X2;
	WEFT_LANES(mask, l, {
		uint64_t r = f16_op(op, (uint16_t)A[l], (uint16_t)B[l], (uint16_t)C[l], ftz, sat, nanmode, rnd);
		if (two)
			r |= (uint64_t)f16_op(op, (uint16_t)(A[l] >> 16), (uint16_t)(B[l] >> 16),
					      (uint16_t)(C[l] >> 16), ftz, sat, nanmode, rnd) << 16;
		d[l] = r;
	});
	return 0;
}

weft_emu_fn weft_emu_float_fn(const struct weft_inst *in)
{
	int t = in->type, op = in->op;
	int plain = in->rnd <= WEFT_RND_RN && !(in->flags & (WEFT_F_FTZ | WEFT_F_SAT));
	if (op == WEFT_OP_CVT)
		return h_cvt;
	if (op == WEFT_OP_TESTP)
		return (t == WEFT_T_F32 || t == WEFT_T_F64) ? h_testp : NULL;
	if (t == WEFT_T_BF16) {
		switch (op) {
		case WEFT_OP_ADD: case WEFT_OP_SUB: case WEFT_OP_MUL: case WEFT_OP_FMA:
		case WEFT_OP_MAD: case WEFT_OP_NEG: case WEFT_OP_ABS: case WEFT_OP_MIN:
		case WEFT_OP_MAX:
			return h_bf16;
		default: return NULL;
		}
	}
	if (t == WEFT_T_F16 || t == WEFT_T_F16X2) {
		switch (op) {
		case WEFT_OP_ADD: case WEFT_OP_SUB: case WEFT_OP_MUL: case WEFT_OP_FMA:
		case WEFT_OP_MAD: case WEFT_OP_NEG: case WEFT_OP_ABS: case WEFT_OP_MIN:
		case WEFT_OP_MAX:
			return h_f16;
		default: return NULL;
		}
	}
	if (t == WEFT_T_F32) {
		if (plain) {
			switch (op) {
			case WEFT_OP_ADD: return h_fadd32;
			case WEFT_OP_SUB: return h_fsub32;
			case WEFT_OP_MUL: return h_fmul32;
			case WEFT_OP_FMA: case WEFT_OP_MAD: return h_ffma32;
			default: break;
			}
		}
		switch (op) {
		case WEFT_OP_ADD: case WEFT_OP_SUB: case WEFT_OP_MUL: case WEFT_OP_FMA:
		case WEFT_OP_MAD: case WEFT_OP_DIV: case WEFT_OP_MIN: case WEFT_OP_MAX:
		case WEFT_OP_ABS: case WEFT_OP_NEG: case WEFT_OP_RCP: case WEFT_OP_SQRT:
		case WEFT_OP_RSQRT: case WEFT_OP_EX2: case WEFT_OP_LG2: case WEFT_OP_SIN:
		case WEFT_OP_COS: case WEFT_OP_TANH: case WEFT_OP_COPYSIGN:
			return h_f32_gen;
		default: return NULL;
		}
	}
	if (t == WEFT_T_F64) {
		if (plain) {
			switch (op) {
			case WEFT_OP_ADD: return h_fadd64;
			case WEFT_OP_MUL: return h_fmul64;
			case WEFT_OP_FMA: case WEFT_OP_MAD: return h_ffma64;
			default: break;
			}
		}
		switch (op) {
		case WEFT_OP_ADD: case WEFT_OP_SUB: case WEFT_OP_MUL: case WEFT_OP_FMA:
		case WEFT_OP_MAD: case WEFT_OP_DIV: case WEFT_OP_MIN: case WEFT_OP_MAX:
		case WEFT_OP_ABS: case WEFT_OP_NEG: case WEFT_OP_RCP: case WEFT_OP_SQRT:
		case WEFT_OP_RSQRT: case WEFT_OP_EX2: case WEFT_OP_LG2: case WEFT_OP_SIN:
		case WEFT_OP_COS: case WEFT_OP_TANH: case WEFT_OP_COPYSIGN:
			return h_f64_gen;
		default: return NULL;
		}
	}
	return NULL;
}
