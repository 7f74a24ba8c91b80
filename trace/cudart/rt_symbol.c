/*
 * rt_symbol.c - the program's __device__ and __constant__ variables, named
 * by the address of their host shadow as cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol (and their Async forms), cudaGetSymbolAddress and
 * cudaGetSymbolSize take them; the variable lives in its module, loaded at
 * first use.
 */
#include "rt.h"

#include <string.h>

/* The device address and size of the variable behind host shadow sym. */
static int resolve(const void *sym, uint64_t *addr, uint64_t *size)
{
	int e = rt_ready();
	if (e)
		return e;
	struct rt_var *v = rt_var_find(sym);
	if (!v)
		return rt_fail(WCU_INVALID_SYMBOL, "%p is not a __device__ or __constant__ variable this program "
			       "registered", sym);
	if (v->managed)
		return rt_unsupported("__managed__ variables");
	struct weft_module *mod;
	if ((e = rt_module(v->fb, &mod)))
		return e;
	struct weft_error err;
	if (weft_module_symbol(mod, v->name, addr, size, &err))
		return rt_failure(WCU_INVALID_SYMBOL, "variable %s: %s", v->name, err.message);
	return 0;
}

/* A copy of count bytes at offset into (to) or out of (!to) variable sym. */
static int symbol_copy(int to, const void *sym, void *host, size_t count, size_t offset, int kind,
		       const void *stream, int check_stream)
{
	uint64_t addr, size;
	int e = resolve(sym, &addr, &size);
	if (!e && check_stream)
		e = rt_stream_check(stream);
	if (e)
		return e;
	if (offset > size || count > size - offset)
		return rt_fail(WCU_INVALID_VALUE, "%zu bytes at offset %zu do not fit in the variable (%llu bytes)",
			       count, offset, (unsigned long long)size);
	/* the other side is host memory for the default kinds, device memory for D2D */
	if (kind != WCU_MEMCPY_D2D && kind != WCU_MEMCPY_DEFAULT &&
	    kind != (to ? WCU_MEMCPY_H2D : WCU_MEMCPY_D2H))
		return rt_fail(WCU_INVALID_MEMCPY_DIRECTION, "copy kind %d cannot copy %s a symbol", kind,
			       to ? "to" : "from");
	void *d = (void *)(uintptr_t)(addr + offset);
	if (kind == WCU_MEMCPY_DEFAULT)
		kind = rt_is_device(host) ? WCU_MEMCPY_D2D : to ? WCU_MEMCPY_H2D : WCU_MEMCPY_D2H;
	if (kind == WCU_MEMCPY_D2D)
		return to ? rt_copy(d, host, count, WCU_MEMCPY_D2D) : rt_copy(host, d, count, WCU_MEMCPY_D2D);
	return to ? rt_copy(d, host, count, WCU_MEMCPY_H2D) : rt_copy(host, d, count, WCU_MEMCPY_D2H);
}

WCU_API int cudaMemcpyToSymbol(const void *sym, const void *src, size_t count, size_t offset, int kind)
{
	int e = rt_enter("cudaMemcpyToSymbol");
	if (!e)
		e = symbol_copy(1, sym, (void *)src, count, offset, kind, NULL, 0);
	return rt_leave(e);
}

WCU_API int cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t count, size_t offset,
				    int kind)
{
	return cudaMemcpyToSymbol(sym, src, count, offset, kind);
}

WCU_API int cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t count, size_t offset,
				    int kind, void *stream)
{
	int e = rt_enter("cudaMemcpyToSymbolAsync");
	if (!e)
		e = symbol_copy(1, sym, (void *)src, count, offset, kind, stream, 1);
	return rt_leave(e);
}

WCU_API int cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *src, size_t count,
					 size_t offset, int kind, void *stream)
{
	return cudaMemcpyToSymbolAsync(sym, src, count, offset, kind, stream);
}

WCU_API int cudaMemcpyFromSymbol(void *dst, const void *sym, size_t count, size_t offset, int kind)
{
	int e = rt_enter("cudaMemcpyFromSymbol");
	if (!e)
		e = symbol_copy(0, sym, dst, count, offset, kind, NULL, 0);
	return rt_leave(e);
}

WCU_API int cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t count, size_t offset,
				      int kind)
{
	return cudaMemcpyFromSymbol(dst, sym, count, offset, kind);
}

WCU_API int cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t count, size_t offset,
				      int kind, void *stream)
{
	int e = rt_enter("cudaMemcpyFromSymbolAsync");
	if (!e)
		e = symbol_copy(0, sym, dst, count, offset, kind, stream, 1);
	return rt_leave(e);
}

WCU_API int cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *sym, size_t count, size_t offset,
					   int kind, void *stream)
{
	return cudaMemcpyFromSymbolAsync(dst, sym, count, offset, kind, stream);
}

WCU_API int cudaGetSymbolAddress(void **p, const void *sym)
{
	uint64_t addr, size;
	int e = rt_enter("cudaGetSymbolAddress");
	if (!e && !p)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && !(e = resolve(sym, &addr, &size)))
		*p = (void *)(uintptr_t)addr;
	return rt_leave(e);
}

WCU_API int cudaGetSymbolSize(size_t *bytes, const void *sym)
{
	uint64_t addr, size;
	int e = rt_enter("cudaGetSymbolSize");
	if (!e && !bytes)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && !(e = resolve(sym, &addr, &size)))
		*bytes = (size_t)size;
	return rt_leave(e);
}
