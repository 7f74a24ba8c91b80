/*
 * emu_memops.c - memory instructions of the functional emulator: ld/ldu/st
 * (scalar and .v2/.v4), atom and red, cvta, isspacep, prefetch.
 *
 * Every lane's address is resolved and bounds-checked (emu_mem.c) and kept
 * in W->addr for observers. Loads narrower than their destination register
 * sign- or zero-extend by the instruction type; stores write the low bytes.
 * Atomics run lane by lane in lane order, so results are deterministic.
 */
#include <math.h>
#include <string.h>

#include "emu.h"

/* Addresses in the .shared and .local state spaces are 32 bits wide: the
 * sum of a base register and an offset wraps modulo 2^32 as the hardware's
 * 32-bit address adder does (nvcc's `ld.shared.u32 [%r4+68]` with %r4 a
 * "negative" offset; PTX ISA, "State Spaces": shared and local windows are
 * addressed with 32-bit offsets). Generic and global addresses are 64-bit. */
static inline uint64_t amask(int space)
{
	return space == WEFT_SPACE_SHARED || space == WEFT_SPACE_LOCAL ? 0xffffffffull : ~0ull;
}

#define D(i) WEFT_SLOT(W, ei->d[i])
#define S(i) WEFT_SLOT(W, ei->s[i])
#define ARGS struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei, uint32_t mask

static inline uint64_t rd(const uint8_t *p, unsigned n)
{
	switch (n) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}
static inline void wr(uint8_t *p, unsigned n, uint64_t v)
{
	switch (n) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* Scalar 32-bit global load, the most common memory instruction. */
static int h_ld_global32(ARGS)
{
	const uint64_t *B = WEFT_SLOT(W, ei->abase);
	uint64_t *d = D(0);
	int64_t off = ei->aoff;
	uint8_t rs = WEFT_SPACE_GLOBAL;
	WEFT_LANES(mask, l, {
		uint64_t a = B[l] + (uint64_t)off;
		W->addr[l] = a;
		const uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, 4, 0, &rs);
		if (!p)
			return WEFT_ERR_RUNTIME;
		uint32_t v;
		memcpy(&v, p, 4);
		d[l] = v;
	});
	W->addr_space = rs;
	return 0;
}

/* Shared-memory load of 32-bit elements (scalar, .v2, .v4) into 32-bit
 * registers: the tile loads of matrix and stencil kernels. */
static int h_ld_shared32(ARGS)
{
	const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;
	uint64_t off = (uint64_t)ei->aoff;
	unsigned nv = ei->nd, total = 4 * nv;
	uint64_t *d0 = WEFT_SLOT(W, ei->d[0]), *d1 = WEFT_SLOT(W, ei->d[1]);
	uint64_t *d2 = WEFT_SLOT(W, ei->d[2]), *d3 = WEFT_SLOT(W, ei->d[3]);
	uint64_t sz = L->shared_cap;
	const uint8_t *sh = L->shared;
	WEFT_LANES(mask, l, {
		uint64_t a = (uint32_t)((B ? B[l] : 0) + off);
		W->addr[l] = a;
		const uint8_t *p;
		if (a < sz && total <= sz - a && !(a & (total - 1))) {
			p = sh + a;
		} else {
			uint8_t rs;
			p = weft_emu_mem_slow(L, W, ei, l, WEFT_SPACE_SHARED, a, total, 0, &rs);
			if (!p)
				return WEFT_ERR_RUNTIME;
			/* the slow path may have grown (moved) the shared buffer */
			sz = L->shared_cap;
			sh = L->shared;
		}
		uint32_t v[4];
		memcpy(v, p, 4);
		d0[l] = v[0];
		if (nv > 1) {
			memcpy(v + 1, p + 4, 4);
			d1[l] = v[1];
			if (nv > 2) {
				memcpy(v + 2, p + 8, 8);
				d2[l] = v[2];
				d3[l] = v[3];
			}
		}
	});
	W->addr_space = WEFT_SPACE_SHARED;
	return 0;
}

/* Scalar loads and stores of one element size (any space), the common
 * case of h_ld/h_st without the per-lane size switch. */
#define LD_SCALAR(name, T, ST)                                                             \
	static int name(ARGS)                                                              \
	{                                                                                  \
		const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;       \
		uint64_t off = (uint64_t)ei->aoff;                                         \
		uint64_t *d = WEFT_SLOT(W, ei->d[0]);                                      \
		int sg = weft_emu_signed(ei->in.type);                                     \
		uint64_t dm = weft_emu_wmask(ei->dbits);                                   \
		uint8_t rs = ei->space;                                                    \
		uint64_t am = amask(ei->space);                                            \
		WEFT_LANES(mask, l, {                                                      \
			uint64_t a = ((B ? B[l] : 0) + off) & am;                          \
			W->addr[l] = a;                                                    \
			const uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, sizeof(T), 0, &rs); \
			if (!p)                                                            \
				return WEFT_ERR_RUNTIME;                                   \
			T v;                                                               \
			memcpy(&v, p, sizeof(T));                                          \
			d[l] = (sg ? (uint64_t)(int64_t)(ST)v : (uint64_t)v) & dm;         \
		});                                                                        \
		W->addr_space = rs;                                                        \
		return 0;                                                                  \
	}
LD_SCALAR(h_ld1, uint8_t, int8_t)
LD_SCALAR(h_ld2, uint16_t, int16_t)
LD_SCALAR(h_ld4, uint32_t, int32_t)
LD_SCALAR(h_ld8, uint64_t, int64_t)

#define ST_SCALAR(name, T)                                                                 \
	static int name(ARGS)                                                              \
	{                                                                                  \
		const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;       \
		uint64_t off = (uint64_t)ei->aoff;                                         \
		const uint64_t *S0 = WEFT_SLOT(W, ei->s[0]);                               \
		uint8_t rs = ei->space;                                                    \
		uint64_t am = amask(ei->space);                                            \
		WEFT_LANES(mask, l, {                                                      \
			uint64_t a = ((B ? B[l] : 0) + off) & am;                          \
			W->addr[l] = a;                                                    \
			uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, sizeof(T), 1, &rs); \
			if (!p)                                                            \
				return WEFT_ERR_RUNTIME;                                   \
			T v = (T)S0[l];                                                    \
			memcpy(p, &v, sizeof(T));                                          \
		});                                                                        \
		W->addr_space = rs;                                                        \
		return 0;                                                                  \
	}
ST_SCALAR(h_st1, uint8_t)
ST_SCALAR(h_st2, uint16_t)
ST_SCALAR(h_st4, uint32_t)
ST_SCALAR(h_st8, uint64_t)

static int h_ld(ARGS)
{
	const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;
	int64_t off = ei->aoff;
	unsigned eb = ei->elem_bytes, nv = ei->nd, total = eb * nv;
	int sg = weft_emu_signed(ei->in.type);
	unsigned ebits = eb * 8;
	uint64_t dm = weft_emu_wmask(ei->dbits);
	uint8_t rs = ei->space;
	if (!B && ei->space != WEFT_SPACE_LOCAL && ei->space != WEFT_SPACE_GENERIC) {
		/* one address for every lane (kernel parameters, [symbol]) */
		uint64_t a = (uint64_t)off & amask(ei->space), v[4];
		const uint8_t *p = weft_emu_mem(L, W, ei, __builtin_ctz(mask), ei->space, a, total, 0, &rs);
		if (!p)
			return WEFT_ERR_RUNTIME;
		for (unsigned i = 0; i < nv; i++) {
			v[i] = rd(p + i * eb, eb);
			if (sg && ebits < 64)
				v[i] = (uint64_t)weft_emu_sext(v[i], ebits);
			v[i] &= dm;
		}
		WEFT_LANES(mask, l, W->addr[l] = a);
		for (unsigned i = 0; i < nv; i++) {
			uint64_t *d = WEFT_SLOT(W, ei->d[i]), x = v[i];
			WEFT_LANES(mask, l, d[l] = x);
		}
		W->addr_space = rs;
		return 0;
	}
	uint64_t am = amask(ei->space);
	WEFT_LANES(mask, l, {
		uint64_t a = ((B ? B[l] : 0) + (uint64_t)off) & am;
		W->addr[l] = a;
		const uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, total, 0, &rs);
		if (!p)
			return WEFT_ERR_RUNTIME;
		for (unsigned i = 0; i < nv; i++) {
			uint64_t v = rd(p + i * eb, eb);
			if (sg && ebits < 64)
				v = (uint64_t)weft_emu_sext(v, ebits);
			WEFT_SLOT(W, ei->d[i])[l] = v & dm;
		}
	});
	W->addr_space = rs;
	return 0;
}

static int h_st(ARGS)
{
	const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;
	int64_t off = ei->aoff;
	unsigned eb = ei->elem_bytes, nv = ei->ns, total = eb * nv;
	uint8_t rs = ei->space;
	uint64_t am = amask(ei->space);
	WEFT_LANES(mask, l, {
		uint64_t a = ((B ? B[l] : 0) + (uint64_t)off) & am;
		W->addr[l] = a;
		uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, total, 1, &rs);
		if (!p)
			return WEFT_ERR_RUNTIME;
		for (unsigned i = 0; i < nv; i++)
			wr(p + i * eb, eb, WEFT_SLOT(W, ei->s[i])[l]);
	});
	W->addr_space = rs;
	return 0;
}

/* New value of an atomic read-modify-write. */
static uint64_t atom_new(int op, int t, uint64_t old, uint64_t b, uint64_t c)
{
	unsigned bits = weft_emu_bits(t);
	uint64_t wm = weft_emu_wmask(bits);
	old &= wm;
	b &= wm;
	switch (op) {
	case WEFT_ATOM_ADD:
		if (t == WEFT_T_F16)
			return weft_emu_f16_add((uint16_t)old, (uint16_t)b);
		if (t == WEFT_T_F16X2)
			return weft_emu_f16_add((uint16_t)old, (uint16_t)b) |
			       ((uint64_t)weft_emu_f16_add((uint16_t)(old >> 16), (uint16_t)(b >> 16)) << 16);
		if (t == WEFT_T_F32)
			return weft_emu_f32b(weft_emu_f32v(old) + weft_emu_f32v(b));
		if (t == WEFT_T_F64)
			return weft_emu_f64b(weft_emu_f64v(old) + weft_emu_f64v(b));
		return (old + b) & wm;
	case WEFT_ATOM_INC: return old >= b ? 0 : (old + 1) & wm;
	case WEFT_ATOM_DEC: return (old == 0 || old > b) ? b : old - 1;
	case WEFT_ATOM_MIN:
	case WEFT_ATOM_MAX: {
		int mx = op == WEFT_ATOM_MAX;
		if (t == WEFT_T_F32) {
			float x = weft_emu_f32v(old), y = weft_emu_f32v(b);
			if (isnan(x)) return b;
			if (isnan(y)) return old;
			return (mx ? y > x : y < x) ? b : old;
		}
		if (t == WEFT_T_F64) {
			double x = weft_emu_f64v(old), y = weft_emu_f64v(b);
			if (isnan(x)) return b;
			if (isnan(y)) return old;
			return (mx ? y > x : y < x) ? b : old;
		}
		if (weft_emu_signed(t)) {
			int64_t x = weft_emu_sext(old, bits), y = weft_emu_sext(b, bits);
			return (mx ? y > x : y < x) ? b : old;
		}
		return (mx ? b > old : b < old) ? b : old;
	}
	case WEFT_ATOM_AND: return old & b;
	case WEFT_ATOM_OR: return old | b;
	case WEFT_ATOM_XOR: return old ^ b;
	case WEFT_ATOM_EXCH: return b;
	case WEFT_ATOM_CAS: return old == b ? (c & wm) : old;
	default: return old;
	}
}

static int h_atom(ARGS)
{
	const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;
	int64_t off = ei->aoff;
	int red = ei->in.op == WEFT_OP_RED;
	const uint64_t *X = S(0), *Y = S(1);
	uint64_t *d = red ? NULL : D(0);
	unsigned eb = ei->elem_bytes;
	int op = ei->in.mode, t = ei->in.type;
	uint8_t rs = ei->space;
	uint64_t am = amask(ei->space);
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint64_t a = ((B ? B[l] : 0) + (uint64_t)off) & am;
		W->addr[l] = a;
		uint8_t *p = weft_emu_mem(L, W, ei, l, ei->space, a, eb, 1, &rs);
		if (!p)
			return WEFT_ERR_RUNTIME;
		uint64_t old = rd(p, eb);
		wr(p, eb, atom_new(op, t, old, X[l], Y[l]));
		if (d)
			d[l] = old;
	}
	W->addr_space = rs;
	return 0;
}

static uint64_t window(int space)
{
	switch (space) {
	case WEFT_SPACE_SHARED: return WEFT_EMU_SHARED_BASE;
	case WEFT_SPACE_LOCAL: return WEFT_EMU_LOCAL_BASE;
	case WEFT_SPACE_PARAM: return WEFT_EMU_PARAM_BASE;
	default: return 0;
	}
}

static int h_cvta(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	uint64_t base = window(ei->in.space);
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	if (ei->in.mode == WEFT_CVTA_FROM_GENERIC)
		WEFT_LANES(mask, l, d[l] = (A[l] - base) & wm);
	else
		WEFT_LANES(mask, l, d[l] = (A[l] + base) & wm);
	return 0;
}

static int h_isspacep(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	const uint64_t *A = S(0);
	int sp = ei->in.space;
	WEFT_LANES(mask, l, {
		uint64_t a = A[l];
		int in_sh = a - WEFT_EMU_SHARED_BASE < WEFT_EMU_WINDOW_SIZE;
		int in_lo = a - WEFT_EMU_LOCAL_BASE < WEFT_EMU_WINDOW_SIZE;
		int in_pa = a - WEFT_EMU_PARAM_BASE < WEFT_EMU_WINDOW_SIZE;
		int r;
		switch (sp) {
		case WEFT_SPACE_SHARED: r = in_sh; break;
		case WEFT_SPACE_LOCAL: r = in_lo; break;
		case WEFT_SPACE_PARAM: r = in_pa; break;
		default: r = !in_sh && !in_lo && !in_pa; break;
		}
		d[l] = r;
	});
	return 0;
}

static int h_prefetch(ARGS)
{
	(void)L;
	const uint64_t *B = ei->abase >= 0 ? WEFT_SLOT(W, ei->abase) : NULL;
	uint64_t am = amask(ei->space);
	WEFT_LANES(mask, l, W->addr[l] = ((B ? B[l] : 0) + (uint64_t)ei->aoff) & am);
	W->addr_space = ei->space;
	return 0;
}

weft_emu_fn weft_emu_mem_fn(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_LD: case WEFT_OP_LDU:
		return h_ld;
	case WEFT_OP_ST: return h_st;
	case WEFT_OP_ATOM: case WEFT_OP_RED: {
		int t = in->type;
		if (t == WEFT_T_BF16 || in->vec > 1)
			return NULL;
		if ((t == WEFT_T_F16 || t == WEFT_T_F16X2) && in->mode != WEFT_ATOM_ADD &&
		    in->mode != WEFT_ATOM_EXCH && in->mode != WEFT_ATOM_CAS)
			return NULL;
		if ((in->mode == WEFT_ATOM_INC || in->mode == WEFT_ATOM_DEC) && weft_emu_bits(t) != 32)
			return NULL;
		return h_atom;
	}
	case WEFT_OP_CVTA: return h_cvta;
	case WEFT_OP_ISSPACEP: return h_isspacep;
	case WEFT_OP_PREFETCH: return h_prefetch;
	default: return NULL;
	}
}

/* Picks the specialised scalar global load when it applies (called by the
 * linker once the operands are resolved). */
weft_emu_fn weft_emu_mem_special(const struct weft_emu_inst *ei)
{
	if ((ei->in.op == WEFT_OP_LD || ei->in.op == WEFT_OP_LDU) && ei->nd == 1 &&
	    ei->elem_bytes == 4 && ei->dbits == 32 && ei->abase >= 0 &&
	    (ei->space == WEFT_SPACE_GLOBAL || ei->space == WEFT_SPACE_GENERIC))
		return h_ld_global32;
	if ((ei->in.op == WEFT_OP_LD || ei->in.op == WEFT_OP_LDU) && ei->space == WEFT_SPACE_SHARED &&
	    ei->elem_bytes == 4 && ei->dbits == 32 && (ei->nd == 1 || ei->nd == 2 || ei->nd == 4))
		return h_ld_shared32;
	/* scalar loads with a per-lane address (uniform ones stay in h_ld,
	 * which reads them once) */
	if ((ei->in.op == WEFT_OP_LD || ei->in.op == WEFT_OP_LDU) && ei->nd == 1 && ei->abase >= 0) {
		switch (ei->elem_bytes) {
		case 1: return h_ld1;
		case 2: return h_ld2;
		case 4: return h_ld4;
		case 8: return h_ld8;
		default: break;
		}
	}
	if (ei->in.op == WEFT_OP_ST && ei->ns == 1) {
		switch (ei->elem_bytes) {
		case 1: return h_st1;
		case 2: return h_st2;
		case 4: return h_st4;
		case 8: return h_st8;
		default: break;
		}
	}
	return NULL;
}
