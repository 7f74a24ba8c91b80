/*
 * rt_memory.c - device and host memory: cudaMalloc / cudaFree, pitched
 * and 3-D (cudaMalloc3D) allocations, copies and fills (their Async forms run at once: streams
 * are serial), page-locked host memory (plain host memory here), and
 * what a pointer is (cudaPointerGetAttributes, cudaMemGetInfo).
 *
 * Device pointers are the emulator's device addresses (trace/emu/host.h);
 * the host cannot dereference them, so managed and mapped memory are
 * refused.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

/* The pitch cudaMallocPitch rounds rows to: 256 bytes, the alignment of
 * every weft allocation (trace/emu/host.c), so each row starts aligned as
 * the first does. */
#define RT_PITCH_ALIGN 256u

static uint64_t dev(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int rt_is_device(const void *p)
{
	uint64_t base, bytes;
	return rt.ctx && weft_mem_find(rt.ctx, dev(p), &base, &bytes) == 0;
}

/* A weft error from a copy or fill: the program's mistake. */
static int bad_range(const struct weft_error *err)
{
	return rt_fail(WCU_INVALID_VALUE, "%s", err->message);
}

int rt_copy(void *dst, const void *src, size_t bytes, int kind)
{
	struct weft_error err;
	if (!bytes)
		return 0;
	if (!dst || !src)
		return rt_fail(WCU_INVALID_VALUE, "a NULL %s pointer", dst ? "source" : "destination");
	if (kind == WCU_MEMCPY_DEFAULT) {
		int d = rt_is_device(dst), s = rt_is_device(src);
		kind = d ? (s ? WCU_MEMCPY_D2D : WCU_MEMCPY_H2D) : (s ? WCU_MEMCPY_D2H : WCU_MEMCPY_H2H);
	}
	switch (kind) {
	case WCU_MEMCPY_H2H:
		memmove(dst, src, bytes);
		return 0;
	case WCU_MEMCPY_H2D:
		return weft_memcpy_htod(rt.ctx, dev(dst), src, bytes, &err) ? bad_range(&err) : 0;
	case WCU_MEMCPY_D2H:
		return weft_memcpy_dtoh(rt.ctx, dst, dev(src), bytes, &err) ? bad_range(&err) : 0;
	case WCU_MEMCPY_D2D:
		return weft_memcpy_dtod(rt.ctx, dev(dst), dev(src), bytes, &err) ? bad_range(&err) : 0;
	}
	return rt_fail(WCU_INVALID_MEMCPY_DIRECTION, "copy kind %d is not one of cudaMemcpyKind's 0..4", kind);
}

WCU_API int cudaMalloc(void **p, size_t bytes)
{
	int e = rt_enter("cudaMalloc");
	if (!e && !p)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		e = rt_ready();
	if (!e && !bytes)
		*p = NULL;
	else if (!e) {
		struct weft_error err;
		uint64_t d;
		int rc = weft_malloc(rt.ctx, bytes, &d, &err);
		if (rc == WEFT_ERR_LIMIT)
			e = rt_fail(WCU_MEMORY_ALLOCATION, "%s", err.message);
		else if (rc)
			e = rt_failure(WCU_MEMORY_ALLOCATION, "%s", err.message);
		else
			*p = (void *)(uintptr_t)d;
	}
	return rt_leave(e);
}

WCU_API int cudaMallocAsync(void **p, size_t bytes, void *stream)
{
	int e = rt_enter("cudaMallocAsync");
	if (!e)
		e = rt_stream_check(stream);
	if (!e)
		e = cudaMalloc(p, bytes);
	return rt_leave(e);
}

WCU_API int cudaMallocAsync_ptsz(void **p, size_t bytes, void *stream)
{
	return cudaMallocAsync(p, bytes, stream);
}

WCU_API int cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	int e = rt_enter("cudaMallocPitch");
	if (!e && (!p || !pitch))
		e = rt_fail(WCU_INVALID_VALUE, "a result pointer is NULL");
	if (!e) {
		size_t w = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
		if (w < width || (height && w > SIZE_MAX / height))
			e = rt_fail(WCU_INVALID_VALUE, "%zu rows of %zu bytes overflow", height, width);
		else if (!(e = cudaMalloc(p, w * height)))
			*pitch = w;
	}
	return rt_leave(e);
}

WCU_API int cudaFree(void *p)
{
	int e = rt_enter("cudaFree");
	if (!e && p)
		e = rt_ready();
	if (!e && p) {
		struct weft_error err;
		if (weft_free(rt.ctx, dev(p), &err))
			e = rt_fail(WCU_INVALID_VALUE, "%s", err.message);
	}
	return rt_leave(e);
}

WCU_API int cudaFreeAsync(void *p, void *stream)
{
	int e = rt_enter("cudaFreeAsync");
	if (!e)
		e = rt_stream_check(stream);
	if (!e)
		e = cudaFree(p);
	return rt_leave(e);
}

WCU_API int cudaFreeAsync_ptsz(void *p, void *stream)
{
	return cudaFreeAsync(p, stream);
}

static int copy_api(const char *api, void *dst, const void *src, size_t bytes, int kind,
		    const void *stream, int check_stream)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_ready();
	if (!e && check_stream)
		e = rt_stream_check(stream);
	if (!e)
		e = rt_copy(dst, src, bytes, kind);
	return rt_leave(e);
}

WCU_API int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
	return copy_api("cudaMemcpy", dst, src, bytes, kind, NULL, 0);
}

WCU_API int cudaMemcpy_ptds(void *dst, const void *src, size_t bytes, int kind)
{
	return copy_api("cudaMemcpy", dst, src, bytes, kind, NULL, 0);
}

WCU_API int cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream)
{
	return copy_api("cudaMemcpyAsync", dst, src, bytes, kind, stream, 1);
}

WCU_API int cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t bytes, int kind, void *stream)
{
	return copy_api("cudaMemcpyAsync", dst, src, bytes, kind, stream, 1);
}

static int copy2d(const char *api, void *dst, size_t dpitch, const void *src, size_t spitch,
		  size_t width, size_t height, int kind, const void *stream, int check_stream)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_ready();
	if (!e && check_stream)
		e = rt_stream_check(stream);
	if (!e && (width > dpitch || width > spitch))
		e = rt_fail(WCU_INVALID_PITCH_VALUE, "width %zu is more than a pitch (%zu, %zu)", width, dpitch,
			    spitch);
	for (size_t r = 0; !e && r < height && width; r++)
		e = rt_copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
	return rt_leave(e);
}

WCU_API int cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			 size_t height, int kind)
{
	return copy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			      size_t height, int kind)
{
	return copy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, NULL, 0);
}

WCU_API int cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			      size_t height, int kind, void *stream)
{
	return copy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, stream, 1);
}

WCU_API int cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
				   size_t width, size_t height, int kind, void *stream)
{
	return copy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, stream, 1);
}

static int fill(const char *api, void *p, size_t pitch, int value, size_t width, size_t height,
		const void *stream, int check_stream)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_ready();
	if (!e && check_stream)
		e = rt_stream_check(stream);
	if (!e && width > pitch)
		e = rt_fail(WCU_INVALID_PITCH_VALUE, "width %zu is more than the pitch %zu", width, pitch);
	for (size_t r = 0; !e && r < height && width; r++) {
		struct weft_error err;
		if (weft_memset(rt.ctx, dev((char *)p + r * pitch), value, width, &err))
			e = bad_range(&err);
	}
	return rt_leave(e);
}

WCU_API int cudaMemset(void *p, int value, size_t bytes)
{
	return fill("cudaMemset", p, bytes, value, bytes, 1, NULL, 0);
}

WCU_API int cudaMemset_ptds(void *p, int value, size_t bytes)
{
	return fill("cudaMemset", p, bytes, value, bytes, 1, NULL, 0);
}

WCU_API int cudaMemsetAsync(void *p, int value, size_t bytes, void *stream)
{
	return fill("cudaMemsetAsync", p, bytes, value, bytes, 1, stream, 1);
}

WCU_API int cudaMemsetAsync_ptsz(void *p, int value, size_t bytes, void *stream)
{
	return fill("cudaMemsetAsync", p, bytes, value, bytes, 1, stream, 1);
}

WCU_API int cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
	return fill("cudaMemset2D", p, pitch, value, width, height, NULL, 0);
}

WCU_API int cudaMemset2D_ptds(void *p, size_t pitch, int value, size_t width, size_t height)
{
	return fill("cudaMemset2D", p, pitch, value, width, height, NULL, 0);
}

WCU_API int cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
			      void *stream)
{
	return fill("cudaMemset2DAsync", p, pitch, value, width, height, stream, 1);
}

WCU_API int cudaMemset2DAsync_ptsz(void *p, size_t pitch, int value, size_t width, size_t height,
				   void *stream)
{
	return fill("cudaMemset2DAsync", p, pitch, value, width, height, stream, 1);
}

/* ---- 3-D pitched memory: cudaMalloc3D, cudaMemset3D ---- */

WCU_API int cudaMalloc3D(struct wcu_pitched_ptr *pp, struct wcu_extent ext)
{
	int e = rt_enter("cudaMalloc3D");
	if (!e && !pp)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	size_t rows = 0;
	if (!e && __builtin_mul_overflow(ext.height, ext.depth, &rows))
		e = rt_fail(WCU_INVALID_VALUE, "%zu x %zu rows overflow", ext.height, ext.depth);
	size_t pitch = 0;
	void *p = NULL;
	if (!e && (e = cudaMallocPitch(&p, &pitch, ext.width, rows)) == 0) {
		pp->ptr = p;
		pp->pitch = pitch;
		pp->xsize = ext.width;
		pp->ysize = ext.height;
	}
	return rt_leave(e);
}

static int fill3d(const char *api, struct wcu_pitched_ptr pp, int value, struct wcu_extent ext,
		  const void *stream, int check_stream)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_ready();
	if (!e && check_stream)
		e = rt_stream_check(stream);
	if (!e && ext.depth > 1 && ext.height > pp.ysize)
		e = rt_fail(WCU_INVALID_VALUE, "%zu rows per slice are more than the pitched pointer's ysize "
			    "%zu", ext.height, pp.ysize);
	size_t slice = 0;
	if (!e && ext.depth > 1 && __builtin_mul_overflow(pp.pitch, pp.ysize, &slice))
		e = rt_fail(WCU_INVALID_VALUE, "pitch %zu x %zu rows overflow", pp.pitch, pp.ysize);
	for (size_t z = 0; !e && z < ext.depth; z++) {
		if (z && slice > (UINTPTR_MAX - (uintptr_t)pp.ptr) / z)
			e = rt_fail(WCU_INVALID_VALUE, "slice %zu is past the address space", z);
		else
			e = fill(api, (char *)pp.ptr + slice * z, pp.pitch, value, ext.width, ext.height, NULL, 0);
	}
	return rt_leave(e);
}

WCU_API int cudaMemset3D(struct wcu_pitched_ptr pp, int value, struct wcu_extent ext)
{
	return fill3d("cudaMemset3D", pp, value, ext, NULL, 0);
}

WCU_API int cudaMemset3D_ptds(struct wcu_pitched_ptr pp, int value, struct wcu_extent ext)
{
	return fill3d("cudaMemset3D", pp, value, ext, NULL, 0);
}

WCU_API int cudaMemset3DAsync(struct wcu_pitched_ptr pp, int value, struct wcu_extent ext, void *stream)
{
	return fill3d("cudaMemset3DAsync", pp, value, ext, stream, 1);
}

WCU_API int cudaMemset3DAsync_ptsz(struct wcu_pitched_ptr pp, int value, struct wcu_extent ext,
				   void *stream)
{
	return fill3d("cudaMemset3DAsync", pp, value, ext, stream, 1);
}

/* ---- host memory: page-locked memory is ordinary memory here ---- */

static int host_alloc(void **p, size_t bytes, unsigned flags)
{
	if (!p)
		return rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (flags & WCU_HOST_ALLOC_MAPPED)
		return rt_unsupported("mapped host memory (cudaHostAllocMapped: device code cannot reach "
				      "host memory in weft)");
	if (rt.npinned == rt.cap_pinned) {
		uint32_t nc = rt.cap_pinned ? rt.cap_pinned * 2 : 16;
		void **q = realloc(rt.pinned, nc * sizeof(*q));
		if (!q)
			return rt_failure(WCU_MEMORY_ALLOCATION, "out of memory");
		rt.pinned = q;
		rt.cap_pinned = nc;
	}
	void *m = malloc(bytes ? bytes : 1);
	if (!m)
		return rt_fail(WCU_MEMORY_ALLOCATION, "%zu bytes of host memory could not be allocated", bytes);
	rt.pinned[rt.npinned++] = m;
	*p = m;
	return 0;
}

WCU_API int cudaMallocHost(void **p, size_t bytes)
{
	int e = rt_enter("cudaMallocHost");
	if (!e)
		e = host_alloc(p, bytes, 0);
	return rt_leave(e);
}

WCU_API int cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
	int e = rt_enter("cudaHostAlloc");
	if (!e)
		e = host_alloc(p, bytes, flags);
	return rt_leave(e);
}

WCU_API int cudaFreeHost(void *p)
{
	int e = rt_enter("cudaFreeHost");
	if (!e && p) {
		uint32_t i = 0;
		while (i < rt.npinned && rt.pinned[i] != p)
			i++;
		if (i == rt.npinned)
			e = rt_fail(WCU_INVALID_VALUE, "%p was not allocated by cudaMallocHost or cudaHostAlloc", p);
		else {
			free(p);
			rt.pinned[i] = rt.pinned[--rt.npinned];
		}
	}
	return rt_leave(e);
}

WCU_API int cudaHostRegister(void *p, size_t bytes, unsigned flags)
{
	(void)p, (void)bytes;
	int e = rt_enter("cudaHostRegister");
	/* cudaHostRegisterMapped (driver_types.h) is 0x02, as cudaHostAllocMapped */
	if (!e && (flags & WCU_HOST_ALLOC_MAPPED))
		e = rt_unsupported("mapped host memory (cudaHostRegisterMapped)");
	return rt_leave(e);
}

WCU_API int cudaHostUnregister(void *p)
{
	(void)p;
	return rt_leave(rt_enter("cudaHostUnregister"));
}

WCU_API int cudaHostGetDevicePointer(void **d, void *h, unsigned flags)
{
	(void)d, (void)h, (void)flags;
	int e = rt_enter("cudaHostGetDevicePointer");
	if (!e)
		e = rt_unsupported("mapped host memory (device code cannot reach host memory in weft)");
	return rt_leave(e);
}

WCU_API int cudaMallocManaged(void **p, size_t bytes, unsigned flags)
{
	(void)p, (void)bytes, (void)flags;
	int e = rt_enter("cudaMallocManaged");
	if (!e)
		e = rt_unsupported("managed memory (device memory lives in weft's emulator, at addresses "
				   "the host cannot use)");
	return rt_leave(e);
}

WCU_API int cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	int e = rt_enter("cudaMemGetInfo");
	if (!e)
		e = rt_ready();
	if (!e && (!free_bytes || !total))
		e = rt_fail(WCU_INVALID_VALUE, "a result pointer is NULL");
	if (!e) {
		const struct weft_ctx_stats *s = weft_ctx_stats(rt.ctx);
		uint64_t lim = s->device_bytes_limit;
		*total = (size_t)lim;
		*free_bytes = (size_t)(lim > s->device_bytes ? lim - s->device_bytes : 0);
	}
	return rt_leave(e);
}

WCU_API int cudaPointerGetAttributes(struct wcu_pointer_attributes *a, const void *p)
{
	int e = rt_enter("cudaPointerGetAttributes");
	if (!e && !a)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e) {
		memset(a, 0, sizeof(*a));
		if (rt_is_device(p)) {
			a->type = WCU_MEMTYPE_DEVICE;
			a->device_pointer = (void *)p;
		} else {
			for (uint32_t i = 0; i < rt.npinned; i++)
				if (rt.pinned[i] == p)
					a->type = WCU_MEMTYPE_HOST;
			a->device = -1;
			if (a->type == WCU_MEMTYPE_HOST)
				a->host_pointer = (void *)p;
		}
	}
	return rt_leave(e);
}
