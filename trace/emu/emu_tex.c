/*
 * emu_tex.c - texture fetches (tex.1d, tex.2d, tld4.2d) and surface
 * accesses (suld.b, sust.b) on the texture and surface objects of
 * host_tex.c.
 *
 * Texture fetches follow the CUDA C++ Programming Guide, appendix "Texture
 * Fetching" (docs/emulator.md "Textures and surfaces" has the long form):
 *  - normalized coordinates are scaled by the texture's width (height);
 *  - point sampling reads texel floor(x);
 *  - linear filtering reads the texels i = floor(xB), i + 1 with
 *    xB = x - 0.5 and weights 1 - a, a, where a = frac(xB) is held in
 *    9-bit fixed point with 8 fractional bits: weft rounds xB * 256 to the
 *    nearest integer q and takes i = q >> 8, a = (q & 255) / 256 (2-D: the
 *    2x2 texels with the product weights);
 *  - address modes apply to each texel index: clamp to [0, n-1], wrap
 *    (index mod n), mirror (period 2n), border (the border colour); wrap
 *    and mirror need normalized coordinates and are clamp otherwise, as
 *    are integer (.s32) coordinates, which fetch texel (x, y) unfiltered;
 *  - missing channels read 0, alpha 1 (tld4: 0).
 * Each lane's access is recorded as one global address: the texel the fetch
 * reads first, (i, j) of its footprint after the address mode (clamped into
 * the texture for border texels), so traces see the texture's traffic.
 *
 * Surfaces address bytes: x is a byte offset in the row, y the row;
 * out-of-range accesses trap, clamp or read zero / drop the store (.trap
 * .clamp .zero); an x that is not a multiple of the access size faults.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emu.h"

#define ARGS struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei, uint32_t mask

/* The object behind the lane's handle, checked once per handle and call. */
struct tobj {
	uint64_t h;
	const struct weft_emu_texobj *o;
	uint8_t *host; /* texel (0, 0) */
};

static int resolve(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		   int lane, uint64_t h, int surface, struct tobj *c)
{
	if (c->o && c->h == h)
		return 0;
	const char *want = surface ? "surface" : "texture";
	const struct weft_emu_texobj *o = weft_emu_texobj(L->ctx, h);
	if (!o)
		return weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
				      "0x%" PRIx64 " is not a live %s object of this context (create one with "
				      "weft_%s_create or a launch spec's [%s NAME]; a destroyed one stays invalid)",
				      h, want, surface ? "surf" : "tex", want);
	if (o->surface != surface)
		return weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
				      "0x%" PRIx64 " is a %s object, but this instruction takes a %s object", h,
				      o->surface ? "surface" : "texture", want);
	int a = weft_emu_alloc_find(L->ctx, o->res.dptr, o->extent);
	if (a < 0)
		return weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
				      "the memory behind %s object 0x%" PRIx64 " (%" PRIu64 " bytes at 0x%" PRIx64
				      ") is no longer allocated (freed while the object lives?)",
				      want, h, o->extent, o->res.dptr);
	const struct weft_emu_alloc *al = &L->ctx->allocs[a];
	c->h = h;
	c->o = o;
	c->host = al->host + (o->res.dptr - al->base);
	return 0;
}

/* IEEE half to float. */
static float half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023u, u;
	if (e == 31)
		u = s | 0x7f800000u | m << 13;
	else if (e)
		u = s | (e + 112) << 23 | m << 13;
	else if (!m)
		u = s;
	else { /* subnormal: normalise */
		e = 113;
		while (!(m & 1024u)) {
			m <<= 1;
			e--;
		}
		u = s | e << 23 | (m & 1023u) << 13;
	}
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t rd_u(const uint8_t *p, unsigned bytes)
{
	switch (bytes) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	default: { uint32_t v; memcpy(&v, p, 4); return v; }
	}
}

/* Whether the object's fetches return floats (float texels, or integer
 * texels read as normalized floats). */
static int float_result(const struct weft_emu_texobj *o)
{
	return o->res.kind == WEFT_CHANNEL_FLOAT || o->desc.read == WEFT_READ_NORMALIZED_FLOAT;
}

/* Channel c of the texel at p as a float result; `missing` for a channel
 * the format lacks. */
static double chan_f(const struct weft_emu_texobj *o, const uint8_t *p, int c, double missing)
{
	const struct weft_tex_resource *r = &o->res;
	if (c >= r->channels)
		return missing;
	unsigned cb = r->bits / 8u;
	uint32_t v = rd_u(p + (unsigned)c * cb, cb);
	if (r->kind == WEFT_CHANNEL_FLOAT) {
		if (cb == 2)
			return half_to_float((uint16_t)v);
		float f;
		memcpy(&f, &v, 4);
		return f;
	}
	/* normalized float (CUDA Programming Guide, "Texture Memory": an
	 * unsigned 8-bit 0xff reads 1.0; signed ones map to [-1.0, 1.0]) */
	if (r->kind == WEFT_CHANNEL_UNSIGNED)
		return (double)v / (cb == 1 ? 255.0 : 65535.0);
	int32_t sv = cb == 1 ? (int8_t)v : (int16_t)v;
	double d = (double)sv / (cb == 1 ? 127.0 : 32767.0);
	return d < -1.0 ? -1.0 : d;
}

/* Channel c as an integer result (element-type reads of integer texels). */
static uint32_t chan_i(const struct weft_emu_texobj *o, const uint8_t *p, int c, uint32_t missing)
{
	const struct weft_tex_resource *r = &o->res;
	if (c >= r->channels)
		return missing;
	unsigned cb = r->bits / 8u;
	uint32_t v = rd_u(p + (unsigned)c * cb, cb);
	if (r->kind == WEFT_CHANNEL_SIGNED && cb < 4)
		v = (uint32_t)(cb == 1 ? (int32_t)(int8_t)v : (int32_t)(int16_t)v);
	return v;
}

/* The border colour's channel c as an integer result: truncated toward 0
 * and saturated to 32 bits (NaN: 0). */
static uint32_t border_i(const struct weft_emu_texobj *o, int c)
{
	float f = o->desc.border[c];
	if (!(f == f))
		return 0;
	if (f >= 2147483647.0f)
		return 0x7fffffffu;
	if (f <= -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)f;
}

/* A texel index after the address mode over n texels; *out is set for a
 * border texel (the index returned is then clamped, for the address). */
static int64_t address(int64_t i, int64_t n, int mode, int normalized, int *out)
{
	*out = 0;
	if (!normalized && (mode == WEFT_ADDRESS_WRAP || mode == WEFT_ADDRESS_MIRROR))
		mode = WEFT_ADDRESS_CLAMP; /* wrap and mirror need normalized coordinates */
	switch (mode) {
	case WEFT_ADDRESS_WRAP: {
		int64_t m = i % n;
		return m < 0 ? m + n : m;
	}
	case WEFT_ADDRESS_MIRROR: {
		int64_t m = i % (2 * n);
		if (m < 0)
			m += 2 * n;
		return m < n ? m : 2 * n - 1 - m;
	}
	default:
		/* border: the clamped index names the address */
		*out = mode == WEFT_ADDRESS_BORDER && (i < 0 || i >= n);
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* A float coordinate as an integer for floor(): NaN reads 0, and the range
 * is bounded so that infinities stay finite (every address mode maps
 * them into the texture). */
static int64_t floor_coord(double v)
{
	if (!(v == v))
		return 0;
	if (v > 1e12)
		return (int64_t)1e12;
	if (v < -1e12)
		return (int64_t)-1e12;
	return (int64_t)floor(v);
}

/* xB = x - 0.5 in 1/256 texel steps: the 9-bit fixed-point weights. */
static int64_t quantize(float x)
{
	float xb = x - 0.5f;
	return floor_coord((double)xb * 256.0 + 0.5);
}

struct texel {
	const uint8_t *p; /* NULL: a border texel */
};

static struct texel texel_at(const struct tobj *c, int64_t i, int64_t j, int normalized,
			     uint64_t *addr)
{
	const struct weft_emu_texobj *o = c->o;
	int64_t w = (int64_t)o->res.width, h = o->res.height ? (int64_t)o->res.height : 1;
	int ox, oy;
	int64_t ii = address(i, w, o->desc.address[0], normalized, &ox);
	int64_t jj = address(j, h, o->desc.address[1], normalized, &oy);
	uint64_t off = (uint64_t)jj * o->pitch + (uint64_t)ii * o->texel_bytes;
	if (addr)
		*addr = o->res.dptr + off;
	struct texel t = { ox || oy ? NULL : c->host + off };
	return t;
}

static int h_tex(ARGS)
{
	const uint64_t *H = WEFT_SLOT(W, ei->abase);
	int twod = ei->in.mode == WEFT_TEX_2D;
	const uint64_t *X = WEFT_SLOT(W, ei->s[0]), *Y = twod ? WEFT_SLOT(W, ei->s[1]) : NULL;
	int icoord = ei->in.type2 == WEFT_T_S32;
	uint64_t *D[4];
	for (int k = 0; k < 4; k++)
		D[k] = WEFT_SLOT(W, ei->d[k]);
	struct tobj c = { 0, NULL, NULL };
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		if (resolve(L, W, ei, l, H[l], 0, &c))
			return WEFT_ERR_RUNTIME;
		const struct weft_emu_texobj *o = c.o;
		int fres = float_result(o), norm = o->desc.normalized && !icoord;
		struct texel t[4];
		double wt[4] = { 1, 0, 0, 0 };
		int nt = 1;
		if (icoord) {
			t[0] = texel_at(&c, (int32_t)X[l], twod ? (int32_t)Y[l] : 0, 0, &W->addr[l]);
		} else {
			float x = weft_emu_f32v(X[l]), y = twod ? weft_emu_f32v(Y[l]) : 0.0f;
			if (norm) {
				x *= (float)o->res.width;
				if (twod)
					y *= (float)(o->res.height ? o->res.height : 1);
			}
			if (o->desc.filter == WEFT_FILTER_POINT) {
				t[0] = texel_at(&c, floor_coord(x), twod ? floor_coord(y) : 0, norm, &W->addr[l]);
			} else {
				int64_t qx = quantize(x), qy = twod ? quantize(y) : 0;
				int64_t i0 = qx >> 8, j0 = qy >> 8; /* arithmetic shift: floor */
				double ax = (double)(qx & 255) / 256.0, ay = (double)(qy & 255) / 256.0;
				t[0] = texel_at(&c, i0, j0, norm, &W->addr[l]);
				t[1] = texel_at(&c, i0 + 1, j0, norm, NULL);
				wt[0] = (1 - ax) * (1 - ay);
				wt[1] = ax * (1 - ay);
				nt = 2;
				if (twod) {
					t[2] = texel_at(&c, i0, j0 + 1, norm, NULL);
					t[3] = texel_at(&c, i0 + 1, j0 + 1, norm, NULL);
					wt[2] = (1 - ax) * ay;
					wt[3] = ax * ay;
					nt = 4;
				}
			}
		}
		for (int k = 0; k < 4; k++) {
			if (!fres) { /* integer results: point sampling only */
				D[k][l] = t[0].p ? chan_i(o, t[0].p, k, k == 3) : border_i(o, k);
				continue;
			}
			double v = 0;
			for (int q = 0; q < nt; q++) /* zero weights add nothing (not even NaN) */
				if (wt[q] != 0)
					v += wt[q] * (t[q].p ? chan_f(o, t[q].p, k, k == 3 ? 1.0 : 0.0)
							     : (double)o->desc.border[k]);
			D[k][l] = weft_emu_f32b((float)v);
		}
	}
	W->addr_space = WEFT_SPACE_GLOBAL;
	return 0;
}

/* tld4: the four texels of the bilinear footprint, one channel each, in
 * the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) (PTX ISA tld4:
 * counter-clockwise from the lower left). */
static int h_tld4(ARGS)
{
	const uint64_t *H = WEFT_SLOT(W, ei->abase);
	const uint64_t *X = WEFT_SLOT(W, ei->s[0]), *Y = WEFT_SLOT(W, ei->s[1]);
	int comp = ei->in.mode & 3;
	static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
	struct tobj c = { 0, NULL, NULL };
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		if (resolve(L, W, ei, l, H[l], 0, &c))
			return WEFT_ERR_RUNTIME;
		const struct weft_emu_texobj *o = c.o;
		int fres = float_result(o), norm = o->desc.normalized;
		float x = weft_emu_f32v(X[l]), y = weft_emu_f32v(Y[l]);
		if (norm) {
			x *= (float)o->res.width;
			y *= (float)(o->res.height ? o->res.height : 1);
		}
		int64_t i0 = quantize(x) >> 8, j0 = quantize(y) >> 8;
		(void)texel_at(&c, i0, j0, norm, &W->addr[l]);
		for (int k = 0; k < 4; k++) {
			struct texel t = texel_at(&c, i0 + di[k], j0 + dj[k], norm, NULL);
			uint64_t *d = WEFT_SLOT(W, ei->d[k]);
			if (fres)
				d[l] = weft_emu_f32b(t.p ? (float)chan_f(o, t.p, comp, 0.0) : o->desc.border[comp]);
			else
				d[l] = t.p ? chan_i(o, t.p, comp, 0) : border_i(o, comp);
		}
	}
	W->addr_space = WEFT_SPACE_GLOBAL;
	return 0;
}

/* suld.b / sust.b: the byte address of (x bytes, y rows), after the
 * out-of-range mode; NULL with *zero set for .zero, NULL with the error
 * filled for a fault. */
static uint8_t *surf_at(struct weft_emu_launch *L, struct weft_emu_warp *W,
			const struct weft_emu_inst *ei, int l, const struct tobj *c, int64_t x, int64_t y,
			uint32_t size, int *zero)
{
	static const char *const oob_names[] = { "trap", "clamp", "zero" };
	const struct weft_emu_texobj *o = c->o;
	int64_t wb = (int64_t)(o->res.width * o->texel_bytes), h = o->res.height ? (int64_t)o->res.height : 1;
	int oob = WEFT_SURF_OOB(ei->in.mode), st = ei->in.op == WEFT_OP_SUST;
	*zero = 0;
	if (x % size) {
		weft_emu_fault(L, W, l, ei, WEFT_ERR_RUNTIME,
			       "misaligned surface %s of %u bytes at x = %" PRId64 " bytes (must be a multiple "
			       "of %u)",
			       st ? "store" : "load", size, x, size);
		return NULL;
	}
	if (x < 0 || x + size > wb || y < 0 || y >= h) {
		if (oob == WEFT_SURF_TRAP || (int64_t)size > wb) {
			weft_emu_fault(L, W, l, ei, WEFT_ERR_RUNTIME,
				       "out-of-range surface %s of %u bytes at (x %" PRId64 " bytes, y %" PRId64
				       ") of surface 0x%" PRIx64 " (%" PRId64 " bytes x %" PRId64 " rows; .%s)",
				       st ? "store" : "load", size, x, y, c->h, wb, h, oob_names[oob % 3]);
			return NULL;
		}
		*zero = oob == WEFT_SURF_ZERO;
		x = x < 0 ? 0 : x + size > wb ? (wb - size) / size * size : x;
		y = y < 0 ? 0 : y >= h ? h - 1 : y;
	}
	uint64_t off = (uint64_t)y * o->pitch + (uint64_t)x;
	W->addr[l] = o->res.dptr + off;
	return c->host + off;
}

static int h_surf(ARGS)
{
	const uint64_t *H = WEFT_SLOT(W, ei->abase);
	int twod = WEFT_SURF_GEOM(ei->in.mode) == WEFT_TEX_2D, st = ei->in.op == WEFT_OP_SUST;
	const uint64_t *X = WEFT_SLOT(W, ei->s[0]), *Y = twod ? WEFT_SLOT(W, ei->s[1]) : NULL;
	unsigned eb = ei->elem_bytes, nv = ei->in.vec, dims = twod ? 2 : 1;
	uint64_t dm = weft_emu_wmask(ei->dbits);
	struct tobj c = { 0, NULL, NULL };
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m), zero;
		if (resolve(L, W, ei, l, H[l], 1, &c))
			return WEFT_ERR_RUNTIME;
		uint8_t *p = surf_at(L, W, ei, l, &c, (int32_t)X[l], twod ? (int32_t)Y[l] : 0, eb * nv, &zero);
		if (!p)
			return WEFT_ERR_RUNTIME;
		for (unsigned k = 0; k < nv; k++) {
			if (st) {
				if (zero)
					break; /* .zero drops the store */
				uint64_t v = WEFT_SLOT(W, ei->s[dims + k])[l];
				for (unsigned b = 0; b < eb; b++)
					p[k * eb + b] = (uint8_t)(v >> (8 * b));
			} else {
				uint64_t v = 0;
				for (unsigned b = 0; b < eb && !zero; b++)
					v |= (uint64_t)p[k * eb + b] << (8 * b);
				WEFT_SLOT(W, ei->d[k])[l] = v & dm;
			}
		}
	}
	W->addr_space = WEFT_SPACE_GLOBAL;
	return 0;
}

weft_emu_fn weft_emu_tex_fn(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_TEX: return h_tex;
	case WEFT_OP_TLD4: return h_tld4;
	case WEFT_OP_SULD: case WEFT_OP_SUST: return h_surf;
	default: return NULL;
	}
}
