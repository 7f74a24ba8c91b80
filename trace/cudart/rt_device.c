/*
 * rt_device.c - the one virtual device weft answers as (device 0; its
 * properties are documented in docs/cuda-programs.md, "The virtual
 * device"), device-wide synchronisation and reset, settings a program may
 * set and read back, kernels' attributes and occupancy, and the versions.
 *
 * Its figures are CUDA's limits for compute capability 9.0 (trace/emu/host.h,
 * from the CUDA C++ Programming Guide's table "Technical Specifications per
 * Compute Capability"), one multiprocessor (the emulator runs a grid's CTAs
 * one after another; %nsmid is 1, docs/emulator.md), device memory as the
 * context's limit (weft_ctx_options.max_device_bytes), and no caches,
 * texture units or memory clock: the emulator has none (the timing models
 * of weft-estimate do).
 */
#include "rt.h"

#include <string.h>

#include "trace/ptx/program.h"
#include "trace/ptx/ptx.h"

/* CC 9.0 figures beyond host.h's launch limits (the Programming Guide's
 * table): 64 KB of constant memory; 64K 32-bit registers per block and per
 * multiprocessor; 2048 threads and 32 blocks per multiprocessor; 228 KB of
 * shared memory per multiprocessor; 48 KB per block without the opt-in. */
#define RT_CONST_BYTES 65536u
#define RT_REGS 65536u
#define RT_THREADS_PER_SM 2048u
#define RT_BLOCKS_PER_SM 32u
#define RT_SHARED_PER_SM (228u * 1024u)
#define RT_SHARED_PER_BLOCK (48u * 1024u)
/* cudaDeviceProp.memPitch: the largest pitch cudaMallocPitch gives, 2^31-1
 * as CUDA devices report it (weft does not limit it further). */
#define RT_MEM_PITCH 2147483647u
#define RT_DEVICE_NAME "weft virtual device (PTX emulated on the CPU)"

static int check_device(int d)
{
	return d == 0 ? 0 : rt_fail(WCU_INVALID_DEVICE, "device %d: weft has one device, 0", d);
}

WCU_API int cudaGetDeviceCount(int *n)
{
	int e = rt_enter("cudaGetDeviceCount");
	if (!e && !n)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*n = 1;
	return rt_leave(e);
}

WCU_API int cudaGetDevice(int *d)
{
	int e = rt_enter("cudaGetDevice");
	if (!e && !d)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*d = 0;
	return rt_leave(e);
}

WCU_API int cudaSetDevice(int d)
{
	int e = rt_enter("cudaSetDevice");
	if (!e)
		e = check_device(d);
	return rt_leave(e);
}

WCU_API int cudaInitDevice(int d, unsigned device_flags, unsigned flags)
{
	(void)device_flags, (void)flags;
	int e = rt_enter("cudaInitDevice");
	if (!e)
		e = check_device(d);
	if (!e)
		e = rt_ready();
	return rt_leave(e);
}

WCU_API int cudaChooseDevice(int *d, const void *prop)
{
	(void)prop;
	int e = rt_enter("cudaChooseDevice");
	if (!e && !d)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*d = 0;
	return rt_leave(e);
}

static uint64_t device_memory(void)
{
	return weft_ctx_stats(rt.ctx)->device_bytes_limit;
}

static void put_int(unsigned char *p, unsigned off, int v)
{
	memcpy(p + off, &v, sizeof(v));
}

static void put_size(unsigned char *p, unsigned off, size_t v)
{
	memcpy(p + off, &v, sizeof(v));
}

WCU_API int cudaGetDeviceProperties(void *prop, int d)
{
	int e = rt_enter("cudaGetDeviceProperties");
	if (!e && !prop)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		e = check_device(d);
	if (!e)
		e = rt_ready();
	if (!e) {
		unsigned char *p = prop;
		memset(p, 0, WCU_PROP_BYTES);
		memcpy(p + WCU_PROP_NAME, RT_DEVICE_NAME, sizeof(RT_DEVICE_NAME));
		put_size(p, WCU_PROP_TOTAL_GLOBAL_MEM, (size_t)device_memory());
		put_size(p, WCU_PROP_SHARED_PER_BLOCK, RT_SHARED_PER_BLOCK);
		put_int(p, WCU_PROP_REGS_PER_BLOCK, (int)RT_REGS);
		put_int(p, WCU_PROP_WARP_SIZE, 32);
		put_size(p, WCU_PROP_MEM_PITCH, RT_MEM_PITCH);
		put_int(p, WCU_PROP_MAX_THREADS_PER_BLOCK, (int)WEFT_MAX_BLOCK_THREADS);
		put_int(p, WCU_PROP_MAX_THREADS_DIM, (int)WEFT_MAX_BLOCK_X);
		put_int(p, WCU_PROP_MAX_THREADS_DIM + 4, (int)WEFT_MAX_BLOCK_Y);
		put_int(p, WCU_PROP_MAX_THREADS_DIM + 8, (int)WEFT_MAX_BLOCK_Z);
		put_int(p, WCU_PROP_MAX_GRID_SIZE, (int)WEFT_MAX_GRID_X);
		put_int(p, WCU_PROP_MAX_GRID_SIZE + 4, (int)WEFT_MAX_GRID_Y);
		put_int(p, WCU_PROP_MAX_GRID_SIZE + 8, (int)WEFT_MAX_GRID_Z);
		put_size(p, WCU_PROP_TOTAL_CONST_MEM, RT_CONST_BYTES);
		put_int(p, WCU_PROP_MAJOR, RT_CC_MAJOR);
		put_int(p, WCU_PROP_MINOR, RT_CC_MINOR);
		put_int(p, WCU_PROP_MULTIPROCESSOR_COUNT, 1);
		put_int(p, WCU_PROP_UNIFIED_ADDRESSING, 1);
		put_int(p, WCU_PROP_MAX_THREADS_PER_SM, (int)RT_THREADS_PER_SM);
		put_size(p, WCU_PROP_SHARED_PER_SM, RT_SHARED_PER_SM);
		put_int(p, WCU_PROP_REGS_PER_SM, (int)RT_REGS);
		put_size(p, WCU_PROP_SHARED_PER_BLOCK_OPTIN, WEFT_MAX_SHARED_BYTES);
		put_int(p, WCU_PROP_MAX_BLOCKS_PER_SM, (int)RT_BLOCKS_PER_SM);
	}
	return rt_leave(e);
}

/* The value of attribute a, or -1 with *known = 0 when a is not an
 * attribute at all. */
static long attribute(int a, int *known)
{
	*known = 1;
	switch (a) {
	case WCU_ATTR_MAX_THREADS_PER_BLOCK: return WEFT_MAX_BLOCK_THREADS;
	case WCU_ATTR_MAX_BLOCK_DIM_X: return WEFT_MAX_BLOCK_X;
	case WCU_ATTR_MAX_BLOCK_DIM_Y: return WEFT_MAX_BLOCK_Y;
	case WCU_ATTR_MAX_BLOCK_DIM_Z: return WEFT_MAX_BLOCK_Z;
	case WCU_ATTR_MAX_GRID_DIM_X: return WEFT_MAX_GRID_X;
	case WCU_ATTR_MAX_GRID_DIM_Y: return WEFT_MAX_GRID_Y;
	case WCU_ATTR_MAX_GRID_DIM_Z: return WEFT_MAX_GRID_Z;
	case WCU_ATTR_MAX_SHARED_PER_BLOCK: return RT_SHARED_PER_BLOCK;
	case WCU_ATTR_TOTAL_CONSTANT_MEMORY: return RT_CONST_BYTES;
	case WCU_ATTR_WARP_SIZE: return 32;
	case WCU_ATTR_MAX_PITCH: return RT_MEM_PITCH;
	case WCU_ATTR_MAX_REGISTERS_PER_BLOCK: return RT_REGS;
	case WCU_ATTR_CLOCK_RATE: return RT_CLOCK_KHZ;
	case WCU_ATTR_MULTIPROCESSOR_COUNT: return 1;
	case WCU_ATTR_MAX_THREADS_PER_SM: return RT_THREADS_PER_SM;
	case WCU_ATTR_UNIFIED_ADDRESSING: return 1;
	case WCU_ATTR_COMPUTE_CAPABILITY_MAJOR: return RT_CC_MAJOR;
	case WCU_ATTR_COMPUTE_CAPABILITY_MINOR: return RT_CC_MINOR;
	case WCU_ATTR_MAX_SHARED_PER_SM: return RT_SHARED_PER_SM;
	case WCU_ATTR_MAX_REGISTERS_PER_SM: return RT_REGS;
	case WCU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN: return WEFT_MAX_SHARED_BYTES;
	case WCU_ATTR_MAX_BLOCKS_PER_SM: return RT_BLOCKS_PER_SM;
	/* what the virtual device does not have or do */
	case WCU_ATTR_INTEGRATED: case WCU_ATTR_CAN_MAP_HOST_MEMORY: case WCU_ATTR_COMPUTE_MODE:
	case WCU_ATTR_CONCURRENT_KERNELS: case WCU_ATTR_ECC_ENABLED: case WCU_ATTR_PCI_BUS_ID:
	case WCU_ATTR_PCI_DEVICE_ID: case WCU_ATTR_PCI_DOMAIN_ID: case WCU_ATTR_MEMORY_CLOCK_RATE:
	case WCU_ATTR_GLOBAL_MEMORY_BUS_WIDTH: case WCU_ATTR_L2_CACHE_SIZE:
	case WCU_ATTR_ASYNC_ENGINE_COUNT: case WCU_ATTR_STREAM_PRIORITIES_SUPPORTED:
	case WCU_ATTR_MANAGED_MEMORY: case WCU_ATTR_CONCURRENT_MANAGED_ACCESS:
	case WCU_ATTR_COOPERATIVE_LAUNCH: case WCU_ATTR_MEMORY_POOLS_SUPPORTED:
	case WCU_ATTR_CLUSTER_LAUNCH:
		return 0;
	}
	/* the other attributes of enum cudaDeviceAttr (1..147 in CUDA 13.0's
	 * driver_types.h): features the virtual device does not have, as the
	 * zeroed fields of cudaGetDeviceProperties */
	if (a >= 1 && a <= WCU_ATTR_LAST)
		return 0;
	*known = 0;
	return -1;
}

WCU_API int cudaDeviceGetAttribute(int *value, int attr, int d)
{
	int e = rt_enter("cudaDeviceGetAttribute");
	if (!e && !value)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		e = check_device(d);
	if (!e) {
		int known;
		long v = attribute(attr, &known);
		if (known) {
			*value = (int)v;
		} else {
			e = rt_fail(WCU_INVALID_VALUE, "%d is not one of enum cudaDeviceAttr (1..%d)", attr,
				    WCU_ATTR_LAST);
		}
	}
	return rt_leave(e);
}

WCU_API int cudaDeviceSynchronize(void)
{
	int e = rt_enter("cudaDeviceSynchronize");
	if (!e)
		e = rt_ready();
	return rt_leave(e);
}

WCU_API int cudaDeviceReset(void)
{
	int e = rt_enter("cudaDeviceReset");
	if (!e) {
		rt_context_drop();
		rt_handles_free();
		rt_arrays_free();
		rt.sticky = 0;
	}
	return rt_leave(e);
}

WCU_API int cudaSetDeviceFlags(unsigned flags)
{
	int e = rt_enter("cudaSetDeviceFlags");
	if (!e)
		rt.device_flags = flags;
	return rt_leave(e);
}

WCU_API int cudaGetDeviceFlags(unsigned *flags)
{
	int e = rt_enter("cudaGetDeviceFlags");
	if (!e && !flags)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*flags = rt.device_flags;
	return rt_leave(e);
}

WCU_API int cudaDeviceSetCacheConfig(int config)
{
	int e = rt_enter("cudaDeviceSetCacheConfig");
	if (!e)
		rt.cache_config = config;
	return rt_leave(e);
}

WCU_API int cudaDeviceGetCacheConfig(int *config)
{
	int e = rt_enter("cudaDeviceGetCacheConfig");
	if (!e && !config)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*config = rt.cache_config;
	return rt_leave(e);
}

WCU_API int cudaDeviceSetSharedMemConfig(int config)
{
	(void)config;
	return rt_leave(rt_enter("cudaDeviceSetSharedMemConfig"));
}

WCU_API int cudaDeviceGetSharedMemConfig(int *config)
{
	int e = rt_enter("cudaDeviceGetSharedMemConfig");
	if (!e && !config)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*config = 0;
	return rt_leave(e);
}

WCU_API int cudaDeviceSetLimit(int limit, size_t value)
{
	int e = rt_enter("cudaDeviceSetLimit");
	if (!e && (limit < 0 || limit >= (int)WCU_LIMIT_COUNT))
		e = rt_fail(WCU_UNSUPPORTED_LIMIT, "limit %d is not one of enum cudaLimit", limit);
	if (!e)
		rt.limits[limit] = value;
	return rt_leave(e);
}

WCU_API int cudaDeviceGetLimit(size_t *value, int limit)
{
	int e = rt_enter("cudaDeviceGetLimit");
	if (!e && !value)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && (limit < 0 || limit >= (int)WCU_LIMIT_COUNT))
		e = rt_fail(WCU_UNSUPPORTED_LIMIT, "limit %d is not one of enum cudaLimit", limit);
	if (!e)
		*value = rt.limits[limit];
	return rt_leave(e);
}

WCU_API int cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	int e = rt_enter("cudaDeviceGetStreamPriorityRange");
	if (!e) {
		if (least)
			*least = 0;
		if (greatest)
			*greatest = 0;
	}
	return rt_leave(e);
}

WCU_API int cudaDeviceCanAccessPeer(int *can, int d, int peer)
{
	int e = rt_enter("cudaDeviceCanAccessPeer");
	if (!e && !can)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && !(e = check_device(d)) && !(e = check_device(peer)))
		*can = 0;
	return rt_leave(e);
}

static int version(const char *api, int *v)
{
	int e = rt_enter(api);
	if (!e && !v)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*v = WCU_RUNTIME_VERSION;
	return rt_leave(e);
}

WCU_API int cudaRuntimeGetVersion(int *v)
{
	return version("cudaRuntimeGetVersion", v);
}

WCU_API int cudaDriverGetVersion(int *v)
{
	return version("cudaDriverGetVersion", v);
}

WCU_API int cudaProfilerStart(void)
{
	return rt_leave(rt_enter("cudaProfilerStart"));
}

WCU_API int cudaProfilerStop(void)
{
	return rt_leave(rt_enter("cudaProfilerStop"));
}

/* ---- kernels' attributes ---- */

static int kernel_of(const void *host_fun, struct rt_func **f)
{
	if (!(*f = rt_func_find(host_fun)))
		return rt_fail(WCU_INVALID_DEVICE_FUNCTION, "%p is not a kernel this program registered", host_fun);
	return 0;
}

WCU_API int cudaFuncSetCacheConfig(const void *host_fun, int config)
{
	(void)config;
	struct rt_func *f;
	int e = rt_enter("cudaFuncSetCacheConfig");
	if (!e)
		e = kernel_of(host_fun, &f);
	return rt_leave(e);
}

WCU_API int cudaFuncSetSharedMemConfig(const void *host_fun, int config)
{
	(void)config;
	struct rt_func *f;
	int e = rt_enter("cudaFuncSetSharedMemConfig");
	if (!e)
		e = kernel_of(host_fun, &f);
	return rt_leave(e);
}

WCU_API int cudaFuncSetAttribute(const void *host_fun, int attr, int value)
{
	struct rt_func *f;
	int e = rt_enter("cudaFuncSetAttribute");
	if (!e)
		e = kernel_of(host_fun, &f);
	if (!e && attr == WCU_FUNC_ATTR_MAX_DYNAMIC_SHARED && (value < 0 || (unsigned)value > WEFT_MAX_SHARED_BYTES))
		e = rt_fail(WCU_INVALID_VALUE, "%d bytes of dynamic shared memory: the most is %u", value,
			    WEFT_MAX_SHARED_BYTES);
	return rt_leave(e);
}

WCU_API int cudaFuncGetName(const char **name, const void *host_fun)
{
	struct rt_func *f;
	int e = rt_enter("cudaFuncGetName");
	if (!e && !name)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && !(e = kernel_of(host_fun, &f)))
		*name = f->name;
	return rt_leave(e);
}

/* The static program of kernel f: its shared and local bytes and registers. */
static int program_of(struct rt_func *f, struct weft_program **prog)
{
	struct weft_module *mod;
	int e = rt_ready();
	if (e || (e = rt_module(f->fb, &mod)))
		return e;
	const struct weft_ptx_module *m = weft_module_ptx(mod);
	int k = weft_ptx_find_func(m, f->name);
	struct weft_error err;
	if (k < 0)
		return rt_failure(WCU_INVALID_DEVICE_FUNCTION, "kernel %s is not in the PTX of %s", f->name,
				  f->fb->object);
	if (weft_module_program(mod, (uint32_t)k, prog, &err))
		return rt_failure(WCU_NOT_SUPPORTED, "kernel %s cannot run in weft's emulator: %s", f->name,
				  err.message);
	return 0;
}

WCU_API int cudaFuncGetAttributes(struct wcu_func_attributes *a, const void *host_fun)
{
	struct rt_func *f;
	struct weft_program *prog = NULL;
	int e = rt_enter("cudaFuncGetAttributes");
	if (!e && !a)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && !(e = kernel_of(host_fun, &f)) && !(e = program_of(f, &prog))) {
		memset(a, 0, sizeof(*a));
		a->shared_size_bytes = prog->shared_static_bytes;
		a->local_size_bytes = prog->local_bytes;
		a->max_threads_per_block = (int)WEFT_MAX_BLOCK_THREADS;
		/* PTX virtual registers, an upper bound of what ptxas would allocate */
		a->num_regs = prog->nregs < WEFT_MAX_REGS_PER_THREAD ? (int)prog->nregs : (int)WEFT_MAX_REGS_PER_THREAD;
		a->ptx_version = RT_CC_MAJOR * 10 + RT_CC_MINOR;
		a->binary_version = RT_CC_MAJOR * 10 + RT_CC_MINOR;
		a->max_dynamic_shared_size_bytes = (int)(WEFT_MAX_SHARED_BYTES - prog->shared_static_bytes);
		weft_program_free(prog);
	}
	return rt_leave(e);
}

/* Blocks of `threads` threads and `shared` bytes that fit one
 * multiprocessor of the virtual device at once. */
static int occupancy(int *n, const void *host_fun, int threads, size_t dyn_shared)
{
	struct rt_func *f;
	struct weft_program *prog = NULL;
	int e;
	if (!n)
		return rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (threads <= 0 || (unsigned)threads > WEFT_MAX_BLOCK_THREADS)
		return rt_fail(WCU_INVALID_VALUE, "a block of %d threads", threads);
	if ((e = kernel_of(host_fun, &f)) || (e = program_of(f, &prog)))
		return e;
	unsigned warps = ((unsigned)threads + 31) / 32;
	unsigned by_threads = RT_THREADS_PER_SM / (warps * 32);
	uint64_t shared = (uint64_t)prog->shared_static_bytes + dyn_shared;
	unsigned by_shared = shared ? (unsigned)(RT_SHARED_PER_SM / shared) : RT_BLOCKS_PER_SM;
	weft_program_free(prog);
	unsigned b = by_threads < by_shared ? by_threads : by_shared;
	*n = (int)(b < RT_BLOCKS_PER_SM ? b : RT_BLOCKS_PER_SM);
	return 0;
}

WCU_API int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *host_fun, int threads,
							  size_t dyn_shared)
{
	int e = rt_enter("cudaOccupancyMaxActiveBlocksPerMultiprocessor");
	if (!e)
		e = occupancy(n, host_fun, threads, dyn_shared);
	return rt_leave(e);
}

WCU_API int cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *host_fun,
								   int threads, size_t dyn_shared,
								   unsigned flags)
{
	(void)flags;
	int e = rt_enter("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
	if (!e)
		e = occupancy(n, host_fun, threads, dyn_shared);
	return rt_leave(e);
}
