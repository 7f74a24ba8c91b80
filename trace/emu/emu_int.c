/*
 * emu_int.c - integer, logic, shift, bit-field, move, compare and select
 * instructions of the functional emulator.
 *
 * Every handler runs one PTX instruction for all active lanes of a warp.
 * Widths are exact: registers hold values zero-extended from their width,
 * immediates may carry higher bits, so every handler reads operands through
 * the instruction type (truncate or sign-extend) before computing. Shift
 * counts are clamped as PTX specifies (C leaves shifts >= width undefined).
 * Division by zero has no PTX-defined result; weft defines it (see
 * docs/emulator.md): quotient all ones, remainder the dividend.
 */
#include <string.h>

#include "emu.h"

#define D(i) WEFT_SLOT(W, ei->d[i])
#define S(i) WEFT_SLOT(W, ei->s[i])
#define ARGS struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei, uint32_t mask
#define UNUSED_L (void)L

typedef unsigned __int128 weft_u128;
typedef __int128 weft_s128;

/* Binary op at the instruction's width, unsigned view (a, b are uint64_t
 * masked to the width; the result is masked). */
#define UBIN(expr)                                                                 \
	do {                                                                       \
		uint64_t *d_ = D(0);                                               \
		const uint64_t *A_ = S(0), *B_ = S(1);                             \
		unsigned bits_ = weft_emu_bits(ei->in.type);                       \
		if (bits_ == 32) {                                                 \
			WEFT_LANES(mask, l, {                                      \
				uint64_t a = (uint32_t)A_[l], b = (uint32_t)B_[l]; \
				d_[l] = (uint32_t)(expr);                          \
			});                                                        \
		} else {                                                           \
			uint64_t wm_ = weft_emu_wmask(bits_);                      \
			WEFT_LANES(mask, l, {                                      \
				uint64_t a = A_[l] & wm_, b = B_[l] & wm_;         \
				d_[l] = (uint64_t)(expr)&wm_;                      \
			});                                                        \
		}                                                                  \
	} while (0)

/* Signed view: a, b are int64_t sign-extended from the width. */
#define SBIN(expr)                                                                 \
	do {                                                                       \
		uint64_t *d_ = D(0);                                               \
		const uint64_t *A_ = S(0), *B_ = S(1);                             \
		unsigned bits_ = weft_emu_bits(ei->in.type);                       \
		uint64_t wm_ = weft_emu_wmask(bits_);                              \
		WEFT_LANES(mask, l, {                                              \
			int64_t a = weft_emu_sext(A_[l], bits_);                   \
			int64_t b = weft_emu_sext(B_[l], bits_);                   \
			d_[l] = (uint64_t)(expr)&wm_;                              \
		});                                                                \
	} while (0)

static int h_add(ARGS) { UNUSED_L; UBIN(a + b); return 0; }
static int h_sub(ARGS) { UNUSED_L; UBIN(a - b); return 0; }
static int h_mul_lo(ARGS) { UNUSED_L; UBIN(a * b); return 0; }
static int h_and(ARGS) { UNUSED_L; UBIN(a & b); return 0; }
static int h_or(ARGS) { UNUSED_L; UBIN(a | b); return 0; }
static int h_xor(ARGS) { UNUSED_L; UBIN(a ^ b); return 0; }
static int h_umin(ARGS) { UNUSED_L; UBIN(a < b ? a : b); return 0; }
static int h_umax(ARGS) { UNUSED_L; UBIN(a > b ? a : b); return 0; }
static int h_smin(ARGS) { UNUSED_L; SBIN(a < b ? a : b); return 0; }
static int h_smax(ARGS) { UNUSED_L; SBIN(a > b ? a : b); return 0; }

/* min.relu / max.relu (signed): the result clamped at 0 */
static int h_sminmax_relu(ARGS)
{
	UNUSED_L;
	int mx = ei->in.op == WEFT_OP_MAX;
	SBIN((mx ? (a > b ? a : b) : (a < b ? a : b)) < 0 ? 0 : (mx ? (a > b ? a : b) : (a < b ? a : b)));
	return 0;
}

static int h_add_s32_sat(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	int sub = ei->in.op == WEFT_OP_SUB;
	WEFT_LANES(mask, l, {
		int64_t r = (int64_t)(int32_t)A[l] + (sub ? -(int64_t)(int32_t)B[l] : (int64_t)(int32_t)B[l]);
		if (r > INT32_MAX) r = INT32_MAX;
		if (r < INT32_MIN) r = INT32_MIN;
		d[l] = (uint32_t)(int32_t)r;
	});
	return 0;
}

/* add.cc / addc / sub.cc / subc: carry (borrow for sub) per lane in W->carry. */
static int h_carry_addsub(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	unsigned bits = weft_emu_bits(ei->in.type);
	int op = ei->in.op;
	int use_cf = op == WEFT_OP_ADDC || op == WEFT_OP_SUBC;
	int sub = op == WEFT_OP_SUB || op == WEFT_OP_SUBC;
	int set_cf = (ei->in.flags & WEFT_F_CC) != 0;
	uint32_t cf = W->carry, ncf = W->carry;
	WEFT_LANES(mask, l, {
		uint64_t c = use_cf ? (cf >> l) & 1 : 0;
		uint64_t r, out;
		if (bits == 32) {
			uint64_t a = (uint32_t)A[l], b = (uint32_t)B[l];
			if (sub) {
				r = a - b - c;
				out = a < b + c;
			} else {
				r = a + b + c;
				out = r >> 32;
			}
			r = (uint32_t)r;
		} else {
			uint64_t a = A[l], b = B[l];
			if (sub) {
				r = a - b - c;
				out = (a < b) || (a - b < c);
			} else {
				r = a + b;
				out = r < a;
				uint64_t r2 = r + c;
				out |= r2 < r;
				r = r2;
			}
		}
		d[l] = r;
		if (set_cf)
			ncf = (ncf & ~(1u << l)) | ((uint32_t)out << l);
	});
	if (set_cf)
		W->carry = ncf;
	return 0;
}

/* mul.hi / mul.wide / mad.* (integer). */
static inline uint64_t mul_hi_u(uint64_t a, uint64_t b, unsigned bits)
{
	if (bits == 64)
		return (uint64_t)(((weft_u128)a * b) >> 64);
	return (a * b) >> bits;
}
static inline uint64_t mul_hi_s(int64_t a, int64_t b, unsigned bits)
{
	if (bits == 64)
		return (uint64_t)(((weft_s128)a * b) >> 64);
	return (uint64_t)((a * b) >> bits);
}

static int h_mul_hi(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	if (weft_emu_signed(ei->in.type))
		WEFT_LANES(mask, l, d[l] = mul_hi_s(weft_emu_sext(A[l], bits), weft_emu_sext(B[l], bits), bits) & wm);
	else
		WEFT_LANES(mask, l, d[l] = mul_hi_u(A[l] & wm, B[l] & wm, bits) & wm);
	return 0;
}

static int h_mul_wide(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits), dm = weft_emu_wmask(bits * 2);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	if (bits == 32 && ei->in.type == WEFT_T_S32)
		WEFT_LANES(mask, l, d[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]));
	else if (bits == 32)
		WEFT_LANES(mask, l, d[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l]);
	else if (weft_emu_signed(ei->in.type))
		WEFT_LANES(mask, l, d[l] = (uint64_t)(weft_emu_sext(A[l], bits) * weft_emu_sext(B[l], bits)) & dm);
	else
		WEFT_LANES(mask, l, d[l] = ((A[l] & wm) * (B[l] & wm)) & dm);
	return 0;
}

static int h_mad(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int sg = weft_emu_signed(ei->in.type);
	int mode = ei->in.mode;
	int cc = (ei->in.flags & WEFT_F_CC) != 0, usecf = ei->in.op == WEFT_OP_MADC;
	int sat = (ei->in.flags & WEFT_F_SAT) != 0;
	if (mode == WEFT_MUL_LO && bits == 32 && !cc && !usecf) {
		WEFT_LANES(mask, l, d[l] = (uint32_t)((uint32_t)A[l] * (uint32_t)B[l] + (uint32_t)C[l]));
		return 0;
	}
	if (mode == WEFT_MUL_WIDE) {
		uint64_t dm = weft_emu_wmask(bits * 2);
		if (bits == 32 && sg)
			WEFT_LANES(mask, l, d[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + C[l]);
		else if (bits == 32)
			WEFT_LANES(mask, l, d[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
		else if (sg)
			WEFT_LANES(mask, l, d[l] = ((uint64_t)(weft_emu_sext(A[l], bits) * weft_emu_sext(B[l], bits)) + C[l]) & dm);
		else
			WEFT_LANES(mask, l, d[l] = ((A[l] & wm) * (B[l] & wm) + C[l]) & dm);
		return 0;
	}
	uint32_t cf = W->carry, ncf = W->carry;
	WEFT_LANES(mask, l, {
		uint64_t p;
		if (mode == WEFT_MUL_HI)
			p = sg ? mul_hi_s(weft_emu_sext(A[l], bits), weft_emu_sext(B[l], bits), bits) & wm
			       : mul_hi_u(A[l] & wm, B[l] & wm, bits) & wm;
		else
			p = ((A[l] & wm) * (B[l] & wm)) & wm;
		uint64_t c = C[l] & wm, in = usecf ? (cf >> l) & 1 : 0;
		uint64_t r, out;
		if (sat && sg && bits == 32) {
			int64_t s = (int64_t)(int32_t)p + (int32_t)c;
			if (s > INT32_MAX) s = INT32_MAX;
			if (s < INT32_MIN) s = INT32_MIN;
			r = (uint32_t)(int32_t)s;
			out = 0;
		} else if (bits == 64) {
			r = p + c;
			out = r < p;
			uint64_t r2 = r + in;
			out |= r2 < r;
			r = r2;
		} else {
			r = p + c + in;
			out = (r >> bits) & 1;
			r &= wm;
		}
		d[l] = r;
		if (cc)
			ncf = (ncf & ~(1u << l)) | ((uint32_t)out << l);
	});
	if (cc)
		W->carry = ncf;
	return 0;
}

/* mul24 / mad24: 24-bit operands, 48-bit product; .lo = bits 31..0,
 * .hi = bits 47..16. */
static int h_mul24(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	const uint64_t *C = ei->in.op == WEFT_OP_MAD24 ? S(2) : NULL;
	int sg = weft_emu_signed(ei->in.type);
	int hi = ei->in.mode == WEFT_MUL_HI;
	WEFT_LANES(mask, l, {
		int64_t p;
		if (sg)
			p = weft_emu_sext(A[l] & 0xffffff, 24) * weft_emu_sext(B[l] & 0xffffff, 24);
		else
			p = (int64_t)((A[l] & 0xffffff) * (B[l] & 0xffffff));
		uint32_t r = hi ? (uint32_t)((uint64_t)p >> 16) : (uint32_t)p;
		if (C)
			r += (uint32_t)C[l];
		d[l] = r;
	});
	return 0;
}

static int h_div(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	int rem = ei->in.op == WEFT_OP_REM;
	if (weft_emu_signed(ei->in.type)) {
		int64_t mn = bits == 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
		SBIN(b == 0 ? (rem ? a : -1)
			    : (b == -1 && a == mn) ? (rem ? 0 : a) : (rem ? a % b : a / b));
		(void)mn;
	} else {
		UBIN(b == 0 ? (rem ? a : wm) : (rem ? a % b : a / b));
	}
	return 0;
}

static int h_iabs(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, {
		int64_t a = weft_emu_sext(A[l], bits);
		d[l] = (a < 0 ? 0 - (uint64_t)a : (uint64_t)a) & wm;
	});
	return 0;
}

static int h_ineg(ARGS)
{
	UNUSED_L;
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, d[l] = (0 - A[l]) & wm);
	return 0;
}

static int h_not(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	if (ei->in.type == WEFT_T_PRED) {
		WEFT_LANES(mask, l, d[l] = (A[l] & 1) ^ 1);
	} else {
		uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
		WEFT_LANES(mask, l, d[l] = ~A[l] & wm);
	}
	return 0;
}

static int h_cnot(ARGS)
{
	UNUSED_L;
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, d[l] = (A[l] & wm) == 0);
	return 0;
}

static int h_shl(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	WEFT_LANES(mask, l, {
		uint32_t n = (uint32_t)B[l];
		d[l] = n >= bits ? 0 : (A[l] << n) & wm;
	});
	return 0;
}

static int h_shr(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	if (weft_emu_signed(ei->in.type)) {
		WEFT_LANES(mask, l, {
			uint32_t n = (uint32_t)B[l];
			int64_t a = weft_emu_sext(A[l], bits);
			d[l] = (uint64_t)(a >> (n >= bits ? bits - 1 : n)) & wm;
		});
	} else {
		WEFT_LANES(mask, l, {
			uint32_t n = (uint32_t)B[l];
			d[l] = n >= bits ? 0 : (A[l] & wm) >> n;
		});
	}
	return 0;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b:a}. */
static int h_shf(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int mode = ei->in.mode;
	WEFT_LANES(mask, l, {
		uint64_t v = ((B[l] & 0xffffffffull) << 32) | (A[l] & 0xffffffffull);
		uint32_t c = (uint32_t)C[l];
		uint32_t n = (mode == WEFT_SHF_L_WRAP || mode == WEFT_SHF_R_WRAP) ? (c & 31) : (c > 32 ? 32 : c);
		if (mode == WEFT_SHF_L_WRAP || mode == WEFT_SHF_L_CLAMP)
			d[l] = (uint32_t)((v << n) >> 32);
		else
			d[l] = (uint32_t)(v >> n);
	});
	return 0;
}

static int h_lop3(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2), *LUT = S(3);
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	WEFT_LANES(mask, l, {
		uint32_t lut = (uint32_t)LUT[l] & 0xff;
		uint64_t a = A[l], b = B[l], c = C[l], r = 0;
		for (int i = 0; i < 8; i++)
			if (lut & (1u << i))
				r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
		d[l] = r & wm;
	});
	return 0;
}

static int h_popc(ARGS)
{
	UNUSED_L;
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, d[l] = (uint32_t)__builtin_popcountll(A[l] & wm));
	return 0;
}

static int h_clz(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, {
		uint64_t a = A[l] & wm;
		d[l] = a ? (uint32_t)(__builtin_clzll(a) - (64 - bits)) : bits;
	});
	return 0;
}

static int h_brev(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, {
		uint64_t a = A[l], r = 0;
		for (unsigned i = 0; i < bits; i++)
			r |= ((a >> i) & 1) << (bits - 1 - i);
		d[l] = r;
	});
	return 0;
}

/* bfind: position of the most significant non-sign bit, 0xffffffff if none. */
static int h_bfind(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	int sg = weft_emu_signed(ei->in.type);
	int shamt = (ei->in.flags & WEFT_F_SHIFTAMT) != 0;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	WEFT_LANES(mask, l, {
		uint64_t a = A[l] & wm;
		if (sg && ((a >> (bits - 1)) & 1))
			a = ~a & wm;
		uint32_t r;
		if (!a)
			r = 0xffffffffu;
		else {
			r = 63 - (uint32_t)__builtin_clzll(a);
			if (shamt)
				r = bits - 1 - r;
		}
		d[l] = r;
	});
	return 0;
}

static int h_bfe(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	int sg = weft_emu_signed(ei->in.type);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	WEFT_LANES(mask, l, {
		uint64_t a = A[l] & wm;
		unsigned pos = (unsigned)B[l] & 0xff, len = (unsigned)C[l] & 0xff, msb = bits - 1;
		uint64_t sbit = 0;
		if (sg && len != 0) {
			unsigned sb = pos + len - 1 > msb ? msb : pos + len - 1;
			sbit = (a >> sb) & 1;
		}
		uint64_t r = 0;
		for (unsigned i = 0; i <= msb; i++) {
			uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
			r |= bit << i;
		}
		d[l] = r;
	});
	return 0;
}

static int h_bfi(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2), *E = S(3);
	WEFT_LANES(mask, l, {
		uint64_t a = A[l], f = B[l] & wm;
		unsigned pos = (unsigned)C[l] & 0xff, len = (unsigned)E[l] & 0xff;
		for (unsigned i = 0; i < len && pos + i <= bits - 1; i++)
			f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
		d[l] = f;
	});
	return 0;
}

/* prmt.b32{.mode} d, a, b, c. */
static int h_prmt(ARGS)
{
	UNUSED_L;
	static const uint8_t tab[6][4][4] = {
		/* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
		/* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
		/* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
		/* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
		/* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
		/* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
	};
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int mode = ei->in.mode;
	WEFT_LANES(mask, l, {
		uint64_t src = ((B[l] & 0xffffffffull) << 32) | (A[l] & 0xffffffffull);
		uint32_t c = (uint32_t)C[l], r = 0;
		for (int i = 0; i < 4; i++) {
			uint32_t byte;
			if (mode == WEFT_PRMT_DEFAULT) {
				uint32_t sel = (c >> (4 * i)) & 0xf;
				byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
				if (sel & 8)
					byte = (byte & 0x80) ? 0xff : 0;
			} else {
				byte = (uint32_t)(src >> (8 * tab[mode - 1][c & 3][i])) & 0xff;
			}
			r |= byte << (8 * i);
		}
		d[l] = r;
	});
	return 0;
}

static int h_sad(ARGS)
{
	UNUSED_L;
	unsigned bits = weft_emu_bits(ei->in.type);
	uint64_t wm = weft_emu_wmask(bits);
	int sg = weft_emu_signed(ei->in.type);
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	WEFT_LANES(mask, l, {
		uint64_t diff;
		if (sg) {
			int64_t a = weft_emu_sext(A[l], bits), b = weft_emu_sext(B[l], bits);
			diff = a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
		} else {
			uint64_t a = A[l] & wm, b = B[l] & wm;
			diff = a > b ? a - b : b - a;
		}
		d[l] = (C[l] + diff) & wm;
	});
	return 0;
}

/* mov: scalar, or pack/unpack of vector operands ({%r1,%r2}). */
static int h_mov(ARGS)
{
	UNUSED_L;
	const uint64_t *A = S(0);
	if (ei->nd == 1 && ei->ns == 1) {
		uint64_t *d = D(0);
		if (ei->in.type == WEFT_T_PRED) {
			WEFT_LANES(mask, l, d[l] = A[l] != 0);
		} else {
			uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
			if (wm == ~0ull)
				WEFT_LANES(mask, l, d[l] = A[l]);
			else
				WEFT_LANES(mask, l, d[l] = A[l] & wm);
		}
		return 0;
	}
	unsigned bits = weft_emu_bits(ei->in.type);
	if (ei->nd > 1) { /* unpack */
		unsigned ew = bits / ei->nd;
		uint64_t em = weft_emu_wmask(ew);
		uint64_t tmp[32];
		WEFT_LANES(mask, l, tmp[l] = A[l]);
		for (int i = 0; i < ei->nd; i++) {
			uint64_t *d = D(i);
			WEFT_LANES(mask, l, d[l] = (tmp[l] >> (i * ew)) & em);
		}
	} else { /* pack */
		unsigned ew = bits / ei->ns;
		uint64_t em = weft_emu_wmask(ew);
		uint64_t tmp[32] = { 0 };
		for (int i = 0; i < ei->ns; i++) {
			const uint64_t *s = S(i);
			WEFT_LANES(mask, l, tmp[l] |= (s[l] & em) << (i * ew));
		}
		uint64_t *d = D(0);
		WEFT_LANES(mask, l, d[l] = tmp[l]);
	}
	return 0;
}

static int h_selp(ARGS)
{
	UNUSED_L;
	uint64_t wm = ei->in.type == WEFT_T_PRED ? 1 : weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int neg = (ei->sneg >> 2) & 1;
	WEFT_LANES(mask, l, d[l] = (((C[l] & 1) ^ (uint64_t)neg) ? A[l] : B[l]) & wm);
	return 0;
}

static int h_slct(ARGS)
{
	UNUSED_L;
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	if (ei->in.type2 == WEFT_T_F32) {
		int ftz = (ei->in.flags & WEFT_F_FTZ) != 0;
		WEFT_LANES(mask, l, {
			uint32_t c = (uint32_t)C[l];
			if (ftz && !(c & 0x7f800000))
				c &= 0x80000000u;
			float f;
			memcpy(&f, &c, 4);
			d[l] = (f >= 0.0f ? A[l] : B[l]) & wm;
		});
	} else {
		WEFT_LANES(mask, l, d[l] = ((int32_t)C[l] >= 0 ? A[l] : B[l]) & wm);
	}
	return 0;
}

/* Integer compare into a lane mask. */
static uint32_t icmp(int cmp, int type, const uint64_t *A, const uint64_t *B, uint32_t mask)
{
	unsigned bits = weft_emu_bits(type);
	uint64_t wm = weft_emu_wmask(bits);
	uint32_t r = 0;
	int sg = weft_emu_signed(type);
	if (sg && (cmp == WEFT_CMP_LT || cmp == WEFT_CMP_LE || cmp == WEFT_CMP_GT || cmp == WEFT_CMP_GE)) {
#define SC(op) WEFT_LANES(mask, l, r |= (uint32_t)(weft_emu_sext(A[l], bits) op weft_emu_sext(B[l], bits)) << l)
		switch (cmp) {
		case WEFT_CMP_LT: SC(<); break;
		case WEFT_CMP_LE: SC(<=); break;
		case WEFT_CMP_GT: SC(>); break;
		default: SC(>=); break;
		}
#undef SC
		return r;
	}
#define UC(op) WEFT_LANES(mask, l, r |= (uint32_t)((A[l] & wm) op (B[l] & wm)) << l)
	switch (cmp) {
	case WEFT_CMP_EQ: UC(==); break;
	case WEFT_CMP_NE: UC(!=); break;
	case WEFT_CMP_LT: case WEFT_CMP_LO: UC(<); break;
	case WEFT_CMP_LE: case WEFT_CMP_LS: UC(<=); break;
	case WEFT_CMP_GT: case WEFT_CMP_HI: UC(>); break;
	case WEFT_CMP_GE: case WEFT_CMP_HS: UC(>=); break;
	default: break;
	}
#undef UC
	return r;
}

static uint32_t cmp_mask(const struct weft_emu_inst *ei, struct weft_emu_warp *W, uint32_t mask)
{
	int t = ei->in.op == WEFT_OP_SETP ? ei->in.type : ei->in.type2;
	if (t == WEFT_T_F32 || t == WEFT_T_F64 || t == WEFT_T_F16)
		return weft_emu_fcmp(ei->in.cmp, t, (ei->in.flags & WEFT_F_FTZ) != 0, S(0), S(1), mask);
	return icmp(ei->in.cmp, t, S(0), S(1), mask);
}

static uint32_t pred_mask(struct weft_emu_warp *W, int slot, int neg, uint32_t mask)
{
	const uint64_t *P = WEFT_SLOT(W, slot);
	uint32_t r = 0;
	WEFT_LANES(mask, l, r |= (uint32_t)(P[l] & 1) << l);
	return neg ? ~r & mask : r;
}

static uint32_t boolop(int op, uint32_t x, uint32_t c)
{
	switch (op) {
	case WEFT_BOOL_AND: return x & c;
	case WEFT_BOOL_OR: return x | c;
	case WEFT_BOOL_XOR: return x ^ c;
	default: return x;
	}
}

/* setp.f16x2 p|q, a, b: p compares the low halves, q the high halves. */
static int h_setp_f16x2(ARGS)
{
	UNUSED_L;
	const uint64_t *A = S(0), *B = S(1);
	uint64_t ah[32], bh[32];
	WEFT_LANES(mask, l, {
		ah[l] = (A[l] >> 16) & 0xffff;
		bh[l] = (B[l] >> 16) & 0xffff;
	});
	int ftz = (ei->in.flags & WEFT_F_FTZ) != 0;
	uint32_t lo = weft_emu_fcmp(ei->in.cmp, WEFT_T_F16, ftz, A, B, mask);
	uint32_t hi = weft_emu_fcmp(ei->in.cmp, WEFT_T_F16, ftz, ah, bh, mask);
	if (ei->in.boolop != WEFT_BOOL_NONE && ei->ns >= 3) {
		const uint64_t *P = S(2);
		uint32_t c = 0;
		WEFT_LANES(mask, l, c |= (uint32_t)(P[l] & 1) << l);
		if ((ei->sneg >> 2) & 1)
			c = ~c & mask;
		lo = ei->in.boolop == WEFT_BOOL_AND ? lo & c : ei->in.boolop == WEFT_BOOL_OR ? lo | c : lo ^ c;
		hi = ei->in.boolop == WEFT_BOOL_AND ? hi & c : ei->in.boolop == WEFT_BOOL_OR ? hi | c : hi ^ c;
	}
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = (lo >> l) & 1);
	if (ei->d2 >= 0) {
		uint64_t *q = WEFT_SLOT(W, ei->d2);
		WEFT_LANES(mask, l, q[l] = (hi >> l) & 1);
	}
	return 0;
}

static int h_setp(ARGS)
{
	UNUSED_L;
	uint32_t r = cmp_mask(ei, W, mask);
	uint32_t nr = ~r & mask;
	if (ei->in.boolop != WEFT_BOOL_NONE && ei->ns >= 3) {
		uint32_t c = pred_mask(W, ei->s[2], (ei->sneg >> 2) & 1, mask);
		r = boolop(ei->in.boolop, r, c) & mask;
		nr = boolop(ei->in.boolop, nr, c) & mask;
	}
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = (r >> l) & 1);
	if (ei->d2 >= 0) {
		uint64_t *q = WEFT_SLOT(W, ei->d2);
		WEFT_LANES(mask, l, q[l] = (nr >> l) & 1);
	}
	return 0;
}

static int h_set(ARGS)
{
	UNUSED_L;
	uint32_t r = cmp_mask(ei, W, mask);
	if (ei->in.boolop != WEFT_BOOL_NONE && ei->ns >= 3) {
		uint32_t c = pred_mask(W, ei->s[2], (ei->sneg >> 2) & 1, mask);
		r = boolop(ei->in.boolop, r, c);
	}
	uint64_t one = ei->in.type == WEFT_T_F32 ? 0x3f800000u : 0xffffffffu;
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = ((r >> l) & 1) ? one : 0);
	return 0;
}

/* Predicate logic with negated sources (`and.pred %p3, %p1, !%p2`). */
static int h_pred_logic(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1);
	uint64_t na = ei->sneg & 1, nb = (ei->sneg >> 1) & 1;
	int op = ei->in.op;
	WEFT_LANES(mask, l, {
		uint64_t a = (A[l] & 1) ^ na, b = (B[l] & 1) ^ nb;
		d[l] = op == WEFT_OP_AND ? (a & b) : op == WEFT_OP_OR ? (a | b) : op == WEFT_OP_XOR ? (a ^ b)
		     : op == WEFT_OP_NOT ? (a ^ 1) : a;
	});
	return 0;
}

/* dp4a.atype.btype d, a, b, c: c + the four byte products of a and b;
 * dp2a.{lo,hi}: c + the two 16-bit halves of a times bytes 0,1 (lo) or
 * 2,3 (hi) of b. Bytes/halves are signed per their type; the sum wraps at
 * 32 bits. */
static int h_dp(ARGS)
{
	UNUSED_L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	int sa = weft_emu_signed(ei->in.type), sb = weft_emu_signed(ei->in.type2);
	int two = ei->in.op == WEFT_OP_DP2A, hi = ei->in.mode == WEFT_MUL_HI;
	WEFT_LANES(mask, l, {
		uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
		int64_t acc = (int64_t)(int32_t)(uint32_t)C[l];
		if (two) {
			for (int i = 0; i < 2; i++) {
				uint32_t ah = (a >> (16 * i)) & 0xffff, bb = (b >> (8 * (i + (hi ? 2 : 0)))) & 0xff;
				int64_t x = sa ? weft_emu_sext(ah, 16) : (int64_t)ah;
				int64_t y = sb ? weft_emu_sext(bb, 8) : (int64_t)bb;
				acc += x * y;
			}
		} else {
			for (int i = 0; i < 4; i++) {
				uint32_t ab = (a >> (8 * i)) & 0xff, bb = (b >> (8 * i)) & 0xff;
				int64_t x = sa ? weft_emu_sext(ab, 8) : (int64_t)ab;
				int64_t y = sb ? weft_emu_sext(bb, 8) : (int64_t)bb;
				acc += x * y;
			}
		}
		d[l] = (uint32_t)acc;
	});
	return 0;
}

weft_emu_fn weft_emu_int_fn(const struct weft_inst *in)
{
	int t = in->type;
	int sg = weft_emu_signed(t);
	int negsrc = 0;
	for (int i = 1; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++)
		negsrc |= in->opnd[i].neg;
	if (t == WEFT_T_PRED && negsrc &&
	    (in->op == WEFT_OP_AND || in->op == WEFT_OP_OR || in->op == WEFT_OP_XOR ||
	     in->op == WEFT_OP_NOT || in->op == WEFT_OP_MOV))
		return h_pred_logic;
	switch (in->op) {
	case WEFT_OP_ADD:
		if (in->flags & WEFT_F_CC)
			return h_carry_addsub;
		if (in->flags & WEFT_F_SAT)
			return t == WEFT_T_S32 ? h_add_s32_sat : NULL;
		return h_add;
	case WEFT_OP_SUB:
		if (in->flags & WEFT_F_CC)
			return h_carry_addsub;
		if (in->flags & WEFT_F_SAT)
			return t == WEFT_T_S32 ? h_add_s32_sat : NULL;
		return h_sub;
	case WEFT_OP_ADDC: case WEFT_OP_SUBC:
		return h_carry_addsub;
	case WEFT_OP_MUL:
		if (in->mode == WEFT_MUL_HI) return h_mul_hi;
		if (in->mode == WEFT_MUL_WIDE) return weft_emu_bits(t) <= 32 ? h_mul_wide : NULL;
		return h_mul_lo;
	case WEFT_OP_MAD: case WEFT_OP_MADC:
		if (in->mode == WEFT_MUL_WIDE && weft_emu_bits(t) > 32) return NULL;
		return h_mad;
	case WEFT_OP_MUL24: case WEFT_OP_MAD24: return h_mul24;
	case WEFT_OP_DIV: case WEFT_OP_REM: return h_div;
	case WEFT_OP_ABS: return h_iabs;
	case WEFT_OP_NEG: return h_ineg;
	case WEFT_OP_MIN:
		if (in->flags & WEFT_F_RELU)
			return sg ? h_sminmax_relu : NULL;
		return sg ? h_smin : h_umin;
	case WEFT_OP_MAX:
		if (in->flags & WEFT_F_RELU)
			return sg ? h_sminmax_relu : NULL;
		return sg ? h_smax : h_umax;
	case WEFT_OP_POPC: return h_popc;
	case WEFT_OP_CLZ: return h_clz;
	case WEFT_OP_BREV: return h_brev;
	case WEFT_OP_BFIND: return h_bfind;
	case WEFT_OP_BFE: return h_bfe;
	case WEFT_OP_BFI: return h_bfi;
	case WEFT_OP_PRMT: return h_prmt;
	case WEFT_OP_SAD: return h_sad;
	case WEFT_OP_AND: return h_and;
	case WEFT_OP_OR: return h_or;
	case WEFT_OP_XOR: return h_xor;
	case WEFT_OP_NOT: return h_not;
	case WEFT_OP_CNOT: return h_cnot;
	case WEFT_OP_SHL: return h_shl;
	case WEFT_OP_SHR: return h_shr;
	case WEFT_OP_SHF: return h_shf;
	case WEFT_OP_LOP3: return h_lop3;
	case WEFT_OP_MOV: return h_mov;
	case WEFT_OP_SELP: return h_selp;
	case WEFT_OP_SLCT: return h_slct;
	case WEFT_OP_SETP: return t == WEFT_T_F16X2 ? h_setp_f16x2 : h_setp;
	case WEFT_OP_SET: return h_set;
	case WEFT_OP_DP4A: case WEFT_OP_DP2A: return h_dp;
	default: return NULL;
	}
}
