/*
 * rt_launch.c - kernel launches: the configuration stack nvcc's `<<<...>>>`
 * pushes and its stub pops (__cudaPushCallConfiguration,
 * __cudaPopCallConfiguration), the kernel handles (__cudaGetKernel,
 * cudaGetKernel), and the launches themselves (__cudaLaunchKernel, which
 * CUDA 13's stubs call, cudaLaunchKernel, cudaLaunchKernelExC), each run
 * to completion by the emulator before the call returns (streams are
 * serial).
 *
 * A fault in a kernel (an out-of-bounds access, a partial barrier, a
 * failed assert, an exhausted instruction budget) is sticky, as on a GPU:
 * the launch and every later call that touches the device return it. The
 * trace cannot be completed after one (docs/cuda-programs.md).
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ptx/ptx.h"

/* Depth of the per-thread configuration stack: each `<<<...>>>` pushes one
 * entry that its stub pops at once; nesting needs a launch inside argument
 * evaluation. */
#define RT_CONFIG_DEPTH 16

struct config {
	struct wcu_dim3 grid, block;
	size_t shared;
	void *stream;
};

static _Thread_local struct config configs[RT_CONFIG_DEPTH];
static _Thread_local int nconfigs;

WCU_API unsigned __cudaPushCallConfiguration(struct wcu_dim3 grid, struct wcu_dim3 block,
					     size_t shared, void *stream)
{
	int e = rt_enter("__cudaPushCallConfiguration");
	if (!e && nconfigs == RT_CONFIG_DEPTH)
		e = rt_fail(WCU_INVALID_CONFIGURATION, "more than %d launch configurations pushed and not popped",
			    RT_CONFIG_DEPTH);
	if (!e)
		configs[nconfigs++] = (struct config){ grid, block, shared, stream };
	return (unsigned)rt_leave(e);
}

WCU_API int __cudaPopCallConfiguration(struct wcu_dim3 *grid, struct wcu_dim3 *block,
				       size_t *shared, void **stream)
{
	int e = rt_enter("__cudaPopCallConfiguration");
	if (!e && nconfigs == 0)
		e = rt_fail(WCU_MISSING_CONFIGURATION, "no launch configuration was pushed");
	if (!e) {
		const struct config *c = &configs[--nconfigs];
		*grid = c->grid;
		*block = c->block;
		*shared = c->shared;
		*stream = c->stream;
	}
	return rt_leave(e);
}

static int get_kernel(void **out, const void *host_fun)
{
	struct rt_func *f = rt_func_find(host_fun);
	if (!out)
		return rt_fail(WCU_INVALID_VALUE, "the kernel handle pointer is NULL");
	if (!f)
		return rt_fail(WCU_INVALID_DEVICE_FUNCTION, "%p is not a kernel this program registered", host_fun);
	*out = f;
	return 0;
}

WCU_API int __cudaGetKernel(void **out, const void *host_fun)
{
	int e = rt_enter("__cudaGetKernel");
	if (!e)
		e = get_kernel(out, host_fun);
	return rt_leave(e);
}

WCU_API int cudaGetKernel(void **out, const void *host_fun)
{
	int e = rt_enter("cudaGetKernel");
	if (!e)
		e = get_kernel(out, host_fun);
	return rt_leave(e);
}

/* The CUDA error of a kernel fault, as a GPU reports the same fault, from
 * the emulator's wording of it (trace/emu/emu_mem.c, emu_exec.c): an
 * access outside memory, a misaligned one, a failed device-side assert;
 * anything else (a trap, a partial barrier) is the unspecified launch
 * failure. */
static int fault_code(const char *msg)
{
	if (strstr(msg, "device-side assert failed"))
		return WCU_ASSERT;
	if (strstr(msg, "misaligned "))
		return WCU_MISALIGNED_ADDRESS;
	if (strstr(msg, "out-of-bounds "))
		return WCU_ILLEGAL_ADDRESS;
	return WCU_LAUNCH_FAILURE;
}

/* What a failed weft_launch means for the program (see the header). */
static int launch_error(const struct rt_func *f, int rc, const struct weft_error *err)
{
	char msg[WEFT_ERROR_MSG_MAX];
	weft_error_format(err, msg, sizeof(msg));
	switch (rc) {
	case WEFT_ERR_INPUT: /* the launch against CUDA's limits or the kernel's bounds */
		return rt_fail(WCU_INVALID_CONFIGURATION, "%s", msg);
	case WEFT_ERR_PARSE: /* the emulator cannot run this kernel */
		return rt_failure(WCU_NOT_SUPPORTED, "kernel %s cannot run in weft's emulator: %s", f->name, msg);
	case WEFT_ERR_NOMEM:
		return rt_failure(WCU_MEMORY_ALLOCATION, "kernel %s: %s", f->name, msg);
	default:
		break;
	}
	/* stopped part way: a fault, a limit, or the trace writer */
	rt.sticky = rc == WEFT_ERR_LIMIT ? WCU_LAUNCH_TIMEOUT : rc == WEFT_ERR_RUNTIME ? fault_code(msg)
										  : WCU_UNKNOWN;
	rt.trace_broken = 1;
	snprintf(rt.trace_broken_why, sizeof(rt.trace_broken_why), "kernel %s stopped part way", f->name);
	return rt_failure(rt.sticky, "kernel %s: %s", f->name, msg);
}

int rt_launch(struct rt_func *f, struct wcu_dim3 grid, struct wcu_dim3 block, void **args,
	      size_t shared, const void *stream)
{
	struct weft_module *mod;
	int e = rt_ready();
	if (e || (e = rt_stream_check(stream)) || (e = rt_module(f->fb, &mod)))
		return e;
	const struct weft_ptx_module *m = weft_module_ptx(mod);
	int k = weft_ptx_find_func(m, f->name);
	if (k < 0 || !m->funcs[k].is_entry)
		return rt_failure(WCU_INVALID_DEVICE_FUNCTION, "kernel %s is not in the PTX of %s", f->name,
				  f->fb->object);
	const struct weft_ptx_func *pf = &m->funcs[k];
	if (shared > WEFT_MAX_SHARED_BYTES)
		return rt_fail(WCU_INVALID_VALUE, "kernel %s: %zu bytes of dynamic shared memory, beyond %u",
			       f->name, shared, WEFT_MAX_SHARED_BYTES);
	if (pf->nparams && !args)
		return rt_fail(WCU_INVALID_VALUE, "kernel %s takes %u arguments; the argument array is NULL",
			       f->name, pf->nparams);
	struct weft_arg *a = calloc(pf->nparams ? pf->nparams : 1, sizeof(*a));
	if (!a)
		return rt_failure(WCU_MEMORY_ALLOCATION, "out of memory for the arguments of %s", f->name);
	for (uint32_t i = 0; i < pf->nparams; i++)
		a[i] = (struct weft_arg){ args[i], pf->params[i].size };
	struct weft_error err;
	rt_print_flush(NULL); /* nothing kept from before */
	int rc = weft_launch(rt.ctx, mod, f->name, weft_dim3(grid.x, grid.y, grid.z),
			     weft_dim3(block.x, block.y, block.z), (uint32_t)shared, a, pf->nparams, &err);
	free(a);
	rt_print_flush(f->name);
	return rc ? launch_error(f, rc, &err) : 0;
}

WCU_API int __cudaLaunchKernel(const void *handle, struct wcu_dim3 grid, struct wcu_dim3 block,
			       void **args, size_t shared, void *stream)
{
	int e = rt_enter("__cudaLaunchKernel");
	if (!e) {
		struct rt_func *f = rt_func_from_handle(handle);
		e = f ? rt_launch(f, grid, block, args, shared, stream)
		      : rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not a kernel handle", handle);
	}
	return rt_leave(e);
}

WCU_API int __cudaLaunchKernel_ptsz(const void *handle, struct wcu_dim3 grid, struct wcu_dim3 block,
				    void **args, size_t shared, void *stream)
{
	return __cudaLaunchKernel(handle, grid, block, args, shared, stream);
}

WCU_API int cudaLaunchKernel(const void *host_fun, struct wcu_dim3 grid, struct wcu_dim3 block,
			     void **args, size_t shared, void *stream)
{
	int e = rt_enter("cudaLaunchKernel");
	if (!e) {
		struct rt_func *f = rt_func_find(host_fun);
		e = f ? rt_launch(f, grid, block, args, shared, stream)
		      : rt_fail(WCU_INVALID_DEVICE_FUNCTION, "%p is not a kernel this program registered", host_fun);
	}
	return rt_leave(e);
}

WCU_API int cudaLaunchKernel_ptsz(const void *host_fun, struct wcu_dim3 grid, struct wcu_dim3 block,
				  void **args, size_t shared, void *stream)
{
	return cudaLaunchKernel(host_fun, grid, block, args, shared, stream);
}

WCU_API int cudaLaunchKernelExC(const struct wcu_launch_config *cfg, const void *host_fun, void **args)
{
	int e = rt_enter("cudaLaunchKernelExC");
	if (!e && !cfg)
		e = rt_fail(WCU_INVALID_VALUE, "the launch configuration is NULL");
	if (!e && cfg->num_attrs) {
		int id = -1;
		if (cfg->attrs)
			memcpy(&id, cfg->attrs, sizeof(id));
		char what[160];
		snprintf(what, sizeof(what), "launch attributes (%u given, the first of id %d)", cfg->num_attrs, id);
		e = rt_unsupported(what);
	}
	if (!e) {
		struct rt_func *f = rt_func_find(host_fun);
		e = f ? rt_launch(f, cfg->grid, cfg->block, args, cfg->dynamic_smem_bytes, cfg->stream)
		      : rt_fail(WCU_INVALID_DEVICE_FUNCTION, "%p is not a kernel this program registered", host_fun);
	}
	return rt_leave(e);
}

WCU_API int cudaLaunchKernelExC_ptsz(const struct wcu_launch_config *cfg, const void *host_fun,
				     void **args)
{
	return cudaLaunchKernelExC(cfg, host_fun, args);
}

WCU_API int cudaLaunchCooperativeKernel(const void *host_fun, struct wcu_dim3 grid,
					struct wcu_dim3 block, void **args, size_t shared, void *stream)
{
	(void)host_fun, (void)grid, (void)block, (void)args, (void)shared, (void)stream;
	int e = rt_enter("cudaLaunchCooperativeKernel");
	if (!e)
		e = rt_unsupported("cooperative launches (grid-wide synchronisation: weft runs a grid's "
				   "CTAs one after another)");
	return rt_leave(e);
}

WCU_API int cudaLaunchCooperativeKernel_ptsz(const void *host_fun, struct wcu_dim3 grid,
					     struct wcu_dim3 block, void **args, size_t shared,
					     void *stream)
{
	return cudaLaunchCooperativeKernel(host_fun, grid, block, args, shared, stream);
}
