/*
 * rt_array.c - CUDA arrays (cudaMallocArray, cudaMalloc3DArray,
 * cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc), the copies into,
 * out of and between them (cudaMemcpy2DToArray and the rest of that
 * family, cudaMemcpy3D), and channel descriptors as the emulator's texel
 * formats (for arrays and for rt_texture.c's texture objects).
 *
 * An array is one device allocation with its rows packed (rt.h struct
 * rt_array: texel (x, y, z) at dptr + ((z * rows + y) * width + x) *
 * texel_bytes): CUDA leaves the layout opaque, so weft picks the simplest
 * one, which the emulator's texture and surface objects read as a packed
 * 2-D resource (rt_texture.c; trace/emu/host.h weft_tex_resource.array).
 * Sizes follow CUDA's for compute capability 9.0 (host.h
 * WEFT_MAX_TEX*_ARRAY); every size, offset and extent a program passes is
 * checked, overflow included, before anything is allocated or copied.
 *
 * The copy kind: an array is always device memory, so a kind that says
 * otherwise for the array's side is corrected, as cudaMemcpy3D documents
 * (CUDA runtime API reference); the other side follows the kind, or the
 * pointer with cudaMemcpyDefault.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

/* (rt.h) */
int rt_texel_format(const struct wcu_channel_desc *d, struct weft_tex_resource *r)
{
	const int bits[4] = { d->x, d->y, d->z, d->w };
	int n = 0;
	for (int i = 0; i < 4; i++) {
		if (bits[i] < 0)
			return rt_fail(WCU_INVALID_VALUE, "a channel of %d bits", bits[i]);
		if (bits[i] && bits[i] != bits[0])
			return rt_fail(WCU_INVALID_VALUE, "channels of %d and %d bits (weft's textures have "
				       "channels of one width)", bits[0], bits[i]);
		n += bits[i] != 0;
	}
	if (n == 0 || n == 3 || bits[0] > 255)
		return rt_fail(WCU_INVALID_VALUE, "a channel descriptor of %d, %d, %d, %d bits (1, 2 or 4 "
			       "channels of 8, 16 or 32 bits)", d->x, d->y, d->z, d->w);
	r->kind = (uint8_t)(d->f >= 0 && d->f < 256 ? d->f : 255);
	r->bits = (uint8_t)bits[0];
	r->channels = (uint8_t)n;
	return 0;
}

static int find(const void *h)
{
	for (uint32_t i = 0; i < rt.narrays; i++)
		if ((const void *)rt.arrays[i] == h)
			return (int)i;
	return -1;
}

struct rt_array *rt_array_of(const void *h)
{
	int i = h ? find(h) : -1;
	return i < 0 ? NULL : rt.arrays[i];
}

void rt_arrays_free(void)
{
	for (uint32_t i = 0; i < rt.narrays; i++)
		free(rt.arrays[i]);
	free(rt.arrays);
	rt.arrays = NULL;
	rt.narrays = rt.cap_arrays = 0;
}

static int bad_array(const void *h)
{
	return rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not a CUDA array (freed already, or from before "
		       "cudaDeviceReset?)", h);
}

/* ---- allocation ---- */

static int make_array(void **out, const struct wcu_channel_desc *desc, struct wcu_extent ext,
		      unsigned flags)
{
	if (!out || !desc)
		return rt_fail(WCU_INVALID_VALUE, "a NULL %s", !out ? "result pointer" : "channel descriptor");
	if (flags & (WCU_ARRAY_LAYERED | WCU_ARRAY_CUBEMAP))
		return rt_unsupported("layered and cubemap CUDA arrays");
	if (flags & (WCU_ARRAY_SPARSE | WCU_ARRAY_DEFERRED_MAPPING | WCU_ARRAY_COLOR_ATTACHMENT))
		return rt_unsupported("sparse, deferred-mapping and colour-attachment CUDA arrays");
	if (flags & ~(WCU_ARRAY_SURFACE_LOAD_STORE | WCU_ARRAY_TEXTURE_GATHER))
		return rt_fail(WCU_INVALID_VALUE, "array flags %#x (cudaArray* flags are 0x1..0x80)", flags);
	if (desc->f < 0 || desc->f > 2)
		return rt_unsupported("CUDA arrays of channel format kinds other than signed, unsigned and "
				      "float (NV12, normalized and block-compressed formats)");
	struct weft_tex_resource r = { 0 };
	int e = rt_texel_format(desc, &r);
	if (e)
		return e;
	if (r.kind == WEFT_CHANNEL_FLOAT && r.bits == 8)
		return rt_fail(WCU_INVALID_VALUE, "8-bit float channels are not a CUDA format");
	if (r.bits != 8 && r.bits != 16 && r.bits != 32)
		return rt_fail(WCU_INVALID_VALUE, "%u-bit channels (8, 16 or 32)", r.bits);
	/* CUDA's array sizes (cudaMalloc3DArray): 1-D {w, 0, 0}, 2-D {w, h, 0},
	 * 3-D {w, h, d}, each dimension at least 1 */
	const char *shape;
	int bad;
	if (!ext.height && !ext.depth) {
		shape = "1-D";
		bad = !ext.width || ext.width > WEFT_MAX_TEX1D_ARRAY;
	} else if (!ext.depth) {
		shape = "2-D";
		bad = !ext.width || ext.width > WEFT_MAX_TEX2D_ARRAY_WIDTH ||
		      ext.height > WEFT_MAX_TEX2D_ARRAY_HEIGHT;
	} else {
		shape = "3-D";
		bad = !ext.width || !ext.height || ext.width > WEFT_MAX_TEX3D_ARRAY ||
		      ext.height > WEFT_MAX_TEX3D_ARRAY || ext.depth > WEFT_MAX_TEX3D_ARRAY;
	}
	if (bad)
		return rt_fail(WCU_INVALID_VALUE, "a %s CUDA array of %zu x %zu x %zu texels (CUDA's limits, "
			       "compute capability 9.0: 1-D 1..%u, 2-D %u x %u, 3-D %u each way; a height of "
			       "0 with a depth is no shape)", shape, ext.width, ext.height, ext.depth,
			       WEFT_MAX_TEX1D_ARRAY, WEFT_MAX_TEX2D_ARRAY_WIDTH, WEFT_MAX_TEX2D_ARRAY_HEIGHT,
			       WEFT_MAX_TEX3D_ARRAY);
	struct rt_array *a = calloc(1, sizeof(*a));
	if (!a)
		return rt_failure(WCU_MEMORY_ALLOCATION, "out of host memory");
	a->desc = *desc;
	a->width = ext.width;
	a->height = ext.height;
	a->depth = ext.depth;
	a->flags = flags;
	a->texel_bytes = (uint32_t)r.bits / 8u * r.channels;
	/* at most 16384^3 x 16 bytes = 2^46: no overflow */
	a->row = (uint64_t)ext.width * a->texel_bytes;
	a->rows = ext.height ? ext.height : 1;
	a->bytes = a->row * a->rows * (ext.depth ? ext.depth : 1);
	if (rt.narrays == rt.cap_arrays) {
		uint32_t nc = rt.cap_arrays ? rt.cap_arrays * 2 : 16;
		struct rt_array **q = nc > rt.cap_arrays ? realloc(rt.arrays, nc * sizeof(*q)) : NULL;
		if (!q) {
			free(a);
			return rt_failure(WCU_MEMORY_ALLOCATION, "out of host memory");
		}
		rt.arrays = q;
		rt.cap_arrays = nc;
	}
	struct weft_error err;
	int rc = weft_malloc(rt.ctx, a->bytes, &a->dptr, &err);
	if (rc) {
		free(a);
		return rc == WEFT_ERR_LIMIT ? rt_fail(WCU_MEMORY_ALLOCATION, "%s", err.message)
					    : rt_failure(WCU_MEMORY_ALLOCATION, "%s", err.message);
	}
	rt.arrays[rt.narrays++] = a;
	*out = a;
	return 0;
}

WCU_API int cudaMallocArray(void **array, const struct wcu_channel_desc *desc, size_t width, size_t height,
			    unsigned flags)
{
	int e = rt_enter("cudaMallocArray");
	if (!e)
		e = rt_ready();
	if (!e) {
		struct wcu_extent ext = { width, height, 0 };
		e = make_array(array, desc, ext, flags);
	}
	return rt_leave(e);
}

WCU_API int cudaMalloc3DArray(void **array, const struct wcu_channel_desc *desc, struct wcu_extent ext,
			      unsigned flags)
{
	int e = rt_enter("cudaMalloc3DArray");
	if (!e)
		e = rt_ready();
	if (!e)
		e = make_array(array, desc, ext, flags);
	return rt_leave(e);
}

WCU_API int cudaFreeArray(void *array)
{
	int e = rt_enter("cudaFreeArray");
	if (!e && array)
		e = rt_ready();
	int i = !e && array ? find(array) : -1;
	if (!e && array && i < 0)
		e = bad_array(array);
	if (!e && array) {
		struct weft_error err;
		if (weft_free(rt.ctx, rt.arrays[i]->dptr, &err))
			e = rt_failure(WCU_UNKNOWN, "the memory of CUDA array %p: %s", array, err.message);
		free(rt.arrays[i]);
		rt.arrays[i] = rt.arrays[--rt.narrays];
	}
	return rt_leave(e);
}

WCU_API int cudaArrayGetInfo(struct wcu_channel_desc *desc, struct wcu_extent *ext, unsigned *flags,
			     void *array)
{
	int e = rt_enter("cudaArrayGetInfo");
	if (!e)
		e = rt_ready();
	struct rt_array *a = e ? NULL : rt_array_of(array);
	if (!e && !a)
		e = bad_array(array);
	if (!e) {
		if (desc)
			*desc = a->desc;
		if (ext) {
			ext->width = a->width;
			ext->height = a->height;
			ext->depth = a->depth;
		}
		if (flags)
			*flags = a->flags;
	}
	return rt_leave(e);
}

WCU_API int cudaGetChannelDesc(struct wcu_channel_desc *desc, const void *array)
{
	int e = rt_enter("cudaGetChannelDesc");
	if (!e && !desc)
		e = rt_fail(WCU_INVALID_VALUE, "a NULL result pointer");
	if (!e)
		e = rt_ready();
	struct rt_array *a = e ? NULL : rt_array_of(array);
	if (!e && !a)
		e = bad_array(array);
	if (!e)
		*desc = a->desc;
	return rt_leave(e);
}

/* ---- copies ---- */

/* One side of a copy: an array, or memory with a pitch and (3-D) rows per
 * slice. x is in bytes, y in rows, z in slices. */
struct side {
	const char *name; /* "source", "destination" */
	struct rt_array *a;
	char *p;
	size_t pitch, slice_rows;
	size_t x, y, z;
	int dev;          /* device memory (from the kind, or the pointer) */
};

/* The address of row (y + r, z + s) at byte x, checked: 0 or the error. */
static int side_check(const struct side *s, size_t wb, size_t h, size_t d)
{
	if (s->a) {
		const struct rt_array *a = s->a;
		uint64_t slices = a->depth ? a->depth : 1;
		if (s->x > a->row || wb > a->row - s->x || s->y > a->rows || h > a->rows - s->y ||
		    s->z > slices || d > slices - s->z)
			return rt_fail(WCU_INVALID_VALUE, "%zu bytes x %zu rows x %zu slices at (%zu bytes, %zu, "
				       "%zu) are outside the %s CUDA array (%llu bytes x %llu rows x %llu "
				       "slices)", wb, h, d, s->x, s->y, s->z, s->name,
				       (unsigned long long)a->row, (unsigned long long)a->rows,
				       (unsigned long long)slices);
		return 0;
	}
	if (!s->p)
		return rt_fail(WCU_INVALID_VALUE, "a NULL %s pointer", s->name);
	if (s->x > s->pitch || wb > s->pitch - s->x)
		return rt_fail(WCU_INVALID_PITCH_VALUE, "%zu bytes at byte %zu are more than the %s pitch "
			       "%zu", wb, s->x, s->name, s->pitch);
	if (d > 1 && (s->y > s->slice_rows || h > s->slice_rows - s->y))
		return rt_fail(WCU_INVALID_VALUE, "%zu rows at row %zu are more than the %s's %zu rows "
			       "per slice (its cudaPitchedPtr ysize)", h, s->y, s->name, s->slice_rows);
	/* the last byte's offset must not overflow */
	uint64_t zz, rr, off;
	if (__builtin_add_overflow((uint64_t)s->z, (uint64_t)(d ? d - 1 : 0), &zz) ||
	    __builtin_mul_overflow(zz, (uint64_t)s->slice_rows, &rr) ||
	    __builtin_add_overflow(rr, (uint64_t)s->y + (h ? h - 1 : 0), &rr) ||
	    __builtin_mul_overflow(rr, (uint64_t)s->pitch, &off) ||
	    __builtin_add_overflow(off, (uint64_t)s->x + wb, &off) ||
	    off > UINTPTR_MAX - (uintptr_t)s->p)
		return rt_fail(WCU_INVALID_VALUE, "the %s region (%zu rows x %zu slices of pitch %zu) "
			       "overflows the address space", s->name, h, d, s->pitch);
	return 0;
}

static void *side_at(const struct side *s, size_t r, size_t k)
{
	if (s->a) {
		const struct rt_array *a = s->a;
		uint64_t off = ((s->z + k) * a->rows + s->y + r) * a->row + s->x;
		return (void *)(uintptr_t)(a->dptr + off);
	}
	return s->p + ((s->z + k) * s->slice_rows + s->y + r) * s->pitch + s->x;
}

/* Copies wb bytes x h rows x d slices from *src to *dst. */
static int copy_region(struct side *src, struct side *dst, size_t wb, size_t h, size_t d, int kind)
{
	if (kind < WCU_MEMCPY_H2H || kind > WCU_MEMCPY_DEFAULT)
		return rt_fail(WCU_INVALID_MEMCPY_DIRECTION, "copy kind %d is not one of cudaMemcpyKind's 0..4",
			       kind);
	if (!wb || !h || !d)
		return 0;
	int e = side_check(src, wb, h, d);
	if (!e)
		e = side_check(dst, wb, h, d);
	if (e)
		return e;
	src->dev = src->a ? 1 : kind == WCU_MEMCPY_DEFAULT ? rt_is_device(src->p)
							: kind == WCU_MEMCPY_D2H || kind == WCU_MEMCPY_D2D;
	dst->dev = dst->a ? 1 : kind == WCU_MEMCPY_DEFAULT ? rt_is_device(dst->p)
							: kind == WCU_MEMCPY_H2D || kind == WCU_MEMCPY_D2D;
	int k = src->dev ? (dst->dev ? WCU_MEMCPY_D2D : WCU_MEMCPY_D2H)
			 : (dst->dev ? WCU_MEMCPY_H2D : WCU_MEMCPY_H2H);
	for (size_t s = 0; !e && s < d; s++)
		for (size_t r = 0; !e && r < h; r++)
			e = rt_copy(side_at(dst, r, s), side_at(src, r, s), wb, k);
	return e;
}

static int array_side(struct side *s, const char *name, const void *h, size_t x, size_t y, size_t z)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->a = rt_array_of(h);
	if (!s->a)
		return bad_array(h);
	s->x = x;
	s->y = y;
	s->z = z;
	return 0;
}

static void mem_side(struct side *s, const char *name, const void *p, size_t pitch, size_t slice_rows)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->p = (char *)(uintptr_t)p;
	s->pitch = pitch;
	s->slice_rows = slice_rows;
}

static int begin(const char *api, const void *stream, int check_stream)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_ready();
	if (!e && check_stream)
		e = rt_stream_check(stream);
	return e;
}

/* cudaMemcpy2DToArray and its forms: width bytes x height rows. */
static int to_array_2d(const char *api, void *dst, size_t wo, size_t ho, const void *src, size_t spitch,
		       size_t width, size_t height, int kind, const void *stream, int check_stream)
{
	int e = begin(api, stream, check_stream);
	struct side s, d;
	if (!e)
		e = array_side(&d, "destination", dst, wo, ho, 0);
	if (!e) {
		mem_side(&s, "source", src, spitch, 0);
		e = copy_region(&s, &d, width, height, 1, kind);
	}
	return rt_leave(e);
}

static int from_array_2d(const char *api, void *dst, size_t dpitch, const void *src, size_t wo, size_t ho,
			 size_t width, size_t height, int kind, const void *stream, int check_stream)
{
	int e = begin(api, stream, check_stream);
	struct side s, d;
	if (!e)
		e = array_side(&s, "source", src, wo, ho, 0);
	if (!e) {
		mem_side(&d, "destination", dst, dpitch, 0);
		e = copy_region(&s, &d, width, height, 1, kind);
	}
	return rt_leave(e);
}

/* The deprecated 1-D forms: count bytes from (wo bytes, ho rows) on, read
 * through the array's packed rows in order (a copy may run on past a
 * row's end into the next row, never past the array's end). */
static int linear_1d(const char *api, void *mem, void *array, size_t wo, size_t ho, size_t count, int to,
		     int kind, const void *stream, int check_stream)
{
	int e = begin(api, stream, check_stream);
	struct rt_array *a = e ? NULL : rt_array_of(array);
	if (!e && !a)
		e = bad_array(array);
	uint64_t off = 0;
	if (!e && (wo > a->row || ho > a->rows * (a->depth ? a->depth : 1) ||
		   (off = (uint64_t)ho * a->row + wo) > a->bytes || count > a->bytes - off))
		e = rt_fail(WCU_INVALID_VALUE, "%zu bytes at (%zu bytes, row %zu) run past the CUDA array's "
			    "%llu bytes", count, wo, ho, (unsigned long long)a->bytes);
	if (!e) {
		struct side as, ms;
		memset(&as, 0, sizeof(as));
		as.name = to ? "destination" : "source";
		/* as one row of the array's whole bytes */
		struct rt_array flat = *a;
		flat.row = a->bytes;
		flat.rows = 1;
		flat.depth = 0;
		as.a = &flat;
		as.x = (size_t)off;
		mem_side(&ms, to ? "source" : "destination", mem, count, 0);
		e = to ? copy_region(&ms, &as, count, 1, 1, kind) : copy_region(&as, &ms, count, 1, 1, kind);
	}
	return rt_leave(e);
}

static int array_to_array(const char *api, void *dst, size_t wd, size_t hd, const void *src, size_t ws,
			  size_t hs, size_t width, size_t height, int kind)
{
	int e = begin(api, NULL, 0);
	struct side s, d;
	if (!e)
		e = array_side(&s, "source", src, ws, hs, 0);
	if (!e)
		e = array_side(&d, "destination", dst, wd, hd, 0);
	if (!e)
		e = copy_region(&s, &d, width, height, 1, kind);
	return rt_leave(e);
}

WCU_API int cudaMemcpy2DToArray(void *dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t width,
				size_t height, int kind)
{
	return to_array_2d("cudaMemcpy2DToArray", dst, wo, ho, src, spitch, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2DToArray_ptds(void *dst, size_t wo, size_t ho, const void *src, size_t spitch,
				     size_t width, size_t height, int kind)
{
	return to_array_2d("cudaMemcpy2DToArray", dst, wo, ho, src, spitch, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2DToArrayAsync(void *dst, size_t wo, size_t ho, const void *src, size_t spitch,
				     size_t width, size_t height, int kind, void *stream)
{
	return to_array_2d("cudaMemcpy2DToArrayAsync", dst, wo, ho, src, spitch, width, height, kind, stream,
			   1);
}

WCU_API int cudaMemcpy2DToArrayAsync_ptsz(void *dst, size_t wo, size_t ho, const void *src, size_t spitch,
					  size_t width, size_t height, int kind, void *stream)
{
	return to_array_2d("cudaMemcpy2DToArrayAsync", dst, wo, ho, src, spitch, width, height, kind, stream,
			   1);
}

WCU_API int cudaMemcpy2DFromArray(void *dst, size_t dpitch, const void *src, size_t wo, size_t ho,
				  size_t width, size_t height, int kind)
{
	return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, wo, ho, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, const void *src, size_t wo, size_t ho,
				       size_t width, size_t height, int kind)
{
	return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, wo, ho, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, const void *src, size_t wo, size_t ho,
				       size_t width, size_t height, int kind, void *stream)
{
	return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wo, ho, width, height, kind,
			     stream, 1);
}

WCU_API int cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t wo, size_t ho,
					    size_t width, size_t height, int kind, void *stream)
{
	return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wo, ho, width, height, kind,
			     stream, 1);
}

WCU_API int cudaMemcpy2DArrayToArray(void *dst, size_t wd, size_t hd, const void *src, size_t ws, size_t hs,
				     size_t width, size_t height, int kind)
{
	return array_to_array("cudaMemcpy2DArrayToArray", dst, wd, hd, src, ws, hs, width, height, kind);
}

WCU_API int cudaMemcpy2DArrayToArray_ptds(void *dst, size_t wd, size_t hd, const void *src, size_t ws,
					  size_t hs, size_t width, size_t height, int kind)
{
	return array_to_array("cudaMemcpy2DArrayToArray", dst, wd, hd, src, ws, hs, width, height, kind);
}

WCU_API int cudaMemcpyToArray(void *dst, size_t wo, size_t ho, const void *src, size_t count, int kind)
{
	return linear_1d("cudaMemcpyToArray", (void *)(uintptr_t)src, dst, wo, ho, count, 1, kind, NULL, 0);
}

WCU_API int cudaMemcpyToArray_ptds(void *dst, size_t wo, size_t ho, const void *src, size_t count, int kind)
{
	return linear_1d("cudaMemcpyToArray", (void *)(uintptr_t)src, dst, wo, ho, count, 1, kind, NULL, 0);
}

WCU_API int cudaMemcpyToArrayAsync(void *dst, size_t wo, size_t ho, const void *src, size_t count, int kind,
				   void *stream)
{
	return linear_1d("cudaMemcpyToArrayAsync", (void *)(uintptr_t)src, dst, wo, ho, count, 1, kind, stream,
			 1);
}

WCU_API int cudaMemcpyToArrayAsync_ptsz(void *dst, size_t wo, size_t ho, const void *src, size_t count,
					int kind, void *stream)
{
	return linear_1d("cudaMemcpyToArrayAsync", (void *)(uintptr_t)src, dst, wo, ho, count, 1, kind, stream,
			 1);
}

WCU_API int cudaMemcpyFromArray(void *dst, const void *src, size_t wo, size_t ho, size_t count, int kind)
{
	return linear_1d("cudaMemcpyFromArray", dst, (void *)(uintptr_t)src, wo, ho, count, 0, kind, NULL, 0);
}

WCU_API int cudaMemcpyFromArray_ptds(void *dst, const void *src, size_t wo, size_t ho, size_t count, int kind)
{
	return linear_1d("cudaMemcpyFromArray", dst, (void *)(uintptr_t)src, wo, ho, count, 0, kind, NULL, 0);
}

WCU_API int cudaMemcpyFromArrayAsync(void *dst, const void *src, size_t wo, size_t ho, size_t count, int kind,
				     void *stream)
{
	return linear_1d("cudaMemcpyFromArrayAsync", dst, (void *)(uintptr_t)src, wo, ho, count, 0, kind,
			 stream, 1);
}

WCU_API int cudaMemcpyFromArrayAsync_ptsz(void *dst, const void *src, size_t wo, size_t ho, size_t count,
					  int kind, void *stream)
{
	return linear_1d("cudaMemcpyFromArrayAsync", dst, (void *)(uintptr_t)src, wo, ho, count, 0, kind,
			 stream, 1);
}

WCU_API int cudaMemcpyArrayToArray(void *dst, size_t wd, size_t hd, const void *src, size_t ws, size_t hs,
				   size_t count, int kind)
{
	/* count bytes along one row (the 1-D form of cudaMemcpy2DArrayToArray) */
	return array_to_array("cudaMemcpyArrayToArray", dst, wd, hd, src, ws, hs, count, 1, kind);
}

WCU_API int cudaMemcpyArrayToArray_ptds(void *dst, size_t wd, size_t hd, const void *src, size_t ws,
					size_t hs, size_t count, int kind)
{
	return array_to_array("cudaMemcpyArrayToArray", dst, wd, hd, src, ws, hs, count, 1, kind);
}

/* cudaMemcpy3D: positions and the extent's width in the array's texels
 * when an array takes part, in bytes otherwise (CUDA runtime API
 * reference, cudaMemcpy3D). */
static int copy3d(const char *api, const struct wcu_memcpy3d_parms *p, const void *stream, int check_stream)
{
	int e = begin(api, stream, check_stream);
	if (!e && !p)
		e = rt_fail(WCU_INVALID_VALUE, "a NULL cudaMemcpy3DParms");
	if (!e && (!p->src_array == !p->src_ptr.ptr || !p->dst_array == !p->dst_ptr.ptr))
		e = rt_fail(WCU_INVALID_VALUE, "give exactly one of srcArray and srcPtr, and one of dstArray and "
			    "dstPtr (%s)", !p->src_array == !p->src_ptr.ptr ? "source" : "destination");
	struct side s, d;
	uint64_t eb = 1; /* bytes per element of the extent */
	if (!e && p->src_array)
		e = array_side(&s, "source", p->src_array, 0, p->src_pos.y, p->src_pos.z);
	if (!e && p->dst_array)
		e = array_side(&d, "destination", p->dst_array, 0, p->dst_pos.y, p->dst_pos.z);
	if (!e && p->src_array && p->dst_array && s.a->texel_bytes != d.a->texel_bytes)
		e = rt_fail(WCU_INVALID_VALUE, "arrays of %u- and %u-byte elements", s.a->texel_bytes,
			    d.a->texel_bytes);
	if (!e) {
		eb = p->src_array ? s.a->texel_bytes : p->dst_array ? d.a->texel_bytes : 1;
		if (p->src_array) {
			s.x = p->src_pos.x > SIZE_MAX / eb ? SIZE_MAX : p->src_pos.x * eb;
		} else {
			mem_side(&s, "source", p->src_ptr.ptr, p->src_ptr.pitch, p->src_ptr.ysize);
			s.x = p->src_pos.x;
			s.y = p->src_pos.y;
			s.z = p->src_pos.z;
		}
		if (p->dst_array) {
			d.x = p->dst_pos.x > SIZE_MAX / eb ? SIZE_MAX : p->dst_pos.x * eb;
		} else {
			mem_side(&d, "destination", p->dst_ptr.ptr, p->dst_ptr.pitch, p->dst_ptr.ysize);
			d.x = p->dst_pos.x;
			d.y = p->dst_pos.y;
			d.z = p->dst_pos.z;
		}
		if (p->extent.width > SIZE_MAX / eb)
			e = rt_fail(WCU_INVALID_VALUE, "an extent %zu elements wide overflows", p->extent.width);
	}
	if (!e)
		e = copy_region(&s, &d, p->extent.width * eb, p->extent.height, p->extent.depth, p->kind);
	return rt_leave(e);
}

WCU_API int cudaMemcpy3D(const struct wcu_memcpy3d_parms *p)
{
	return copy3d("cudaMemcpy3D", p, NULL, 0);
}

WCU_API int cudaMemcpy3D_ptds(const struct wcu_memcpy3d_parms *p)
{
	return copy3d("cudaMemcpy3D", p, NULL, 0);
}

WCU_API int cudaMemcpy3DAsync(const struct wcu_memcpy3d_parms *p, void *stream)
{
	return copy3d("cudaMemcpy3DAsync", p, stream, 1);
}

WCU_API int cudaMemcpy3DAsync_ptsz(const struct wcu_memcpy3d_parms *p, void *stream)
{
	return copy3d("cudaMemcpy3DAsync", p, stream, 1);
}
