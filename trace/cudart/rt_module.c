/*
 * rt_module.c - the program's device code: the fatbinaries nvcc's startup
 * code registers (__cudaRegisterFatBinary and End, __cudaUnregisterFatBinary),
 * the kernels and variables in them (__cudaRegisterFunction,
 * __cudaRegisterVar), and each fatbinary's PTX, loaded into the emulator
 * at its first use.
 *
 * The fatbinary is user input. The wrapper nvcc passes and the fatbinary it
 * points to must each lie inside a segment the dynamic loader mapped from
 * the program or one of its libraries (dl_iterate_phdr); the bytes from the
 * fatbinary to the end of that segment are all the parser may read.
 */
#define _GNU_SOURCE /* dl_iterate_phdr, dladdr */
#include "rt.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/file.h"
#include "trace/fatbin/fatbin.h"

/* A kernel or variable name longer than this is refused (mangled C++ names
 * of deeply nested templates run to a few thousand bytes). */
#define RT_MAX_NAME 16384u

struct readable {
	uintptr_t addr;
	size_t avail;
	int found;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *user)
{
	struct readable *r = user;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R))
			continue;
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (r->addr >= lo && r->addr < hi) {
			r->avail = hi - r->addr;
			r->found = 1;
			return 1;
		}
	}
	return 0;
}

/* The readable bytes from p to the end of the loaded segment holding it;
 * 0 when p is in none. */
static size_t readable_bytes(const void *p)
{
	struct readable r = { (uintptr_t)p, 0, 0 };
	dl_iterate_phdr(find_segment, &r);
	return r.found ? r.avail : 0;
}

static int grow(void *pp, uint32_t *cap, uint32_t n)
{
	void ***p = pp;
	if (n < *cap)
		return 0;
	uint32_t nc = *cap ? *cap * 2 : 16;
	void **q = realloc(*p, nc * sizeof(void *));
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

static struct rt_fatbin *fatbin_of(void **handle)
{
	for (uint32_t i = 0; i < rt.nfatbins; i++)
		if ((void *)rt.fatbins[i] == (void *)handle)
			return rt.fatbins[i];
	return NULL;
}

/* Refuses the registration of fb: its kernels fail with this at launch. */
static void refuse(struct rt_fatbin *fb, int code, const char *fmt, const char *arg)
{
	fb->data = NULL;
	fb->load_rc = code;
	snprintf(fb->load_msg, sizeof(fb->load_msg), fmt, arg);
	if (code == WCU_NOT_SUPPORTED)
		rt_unsupported(fb->load_msg);
	else
		rt_failure(code, "%s", fb->load_msg);
}

WCU_API void **__cudaRegisterFatBinary(void *wrapper)
{
	static struct rt_fatbin none; /* the handle when even a record cannot be made */
	if (rt_enter("__cudaRegisterFatBinary") == WCU_CUDART_UNLOADING) {
		rt_leave(0);
		return (void **)&none;
	}
	struct rt_fatbin *fb = calloc(1, sizeof(*fb));
	if (!fb || grow(&rt.fatbins, &rt.cap_fatbins, rt.nfatbins)) {
		free(fb);
		rt_failure(WCU_MEMORY_ALLOCATION, "out of memory registering a fatbinary");
		rt_leave(WCU_MEMORY_ALLOCATION);
		none.load_rc = WCU_MEMORY_ALLOCATION;
		return (void **)&none;
	}
	fb->id = rt.nfatbins;
	rt.fatbins[rt.nfatbins++] = fb;
	Dl_info dl;
	const char *obj = wrapper && dladdr(wrapper, &dl) && dl.dli_fname && *dl.dli_fname
				  ? dl.dli_fname : "program";
	const char *slash = strrchr(obj, '/');
	snprintf(fb->object, sizeof(fb->object), "%s", slash ? slash + 1 : obj);

	/* __fatBinC_Wrapper_t: int magic, int version, the fatbinary's
	 * address, a filename or prelinked fatbinaries (fatbinary_section.h) */
	const unsigned char *w = wrapper;
	if (readable_bytes(w) < 16 + sizeof(void *)) {
		refuse(fb, WCU_INVALID_KERNEL_IMAGE, "the fatbinary wrapper of %s is not in the program's memory", fb->object);
	} else {
		uint32_t magic, version;
		const void *data;
		memcpy(&magic, w, 4);
		memcpy(&version, w + 4, 4);
		memcpy(&data, w + 8, sizeof(data));
		if (magic != WEFT_FATBIN_WRAPPER_MAGIC)
			refuse(fb, WCU_INVALID_KERNEL_IMAGE, "%s: the fatbinary wrapper's magic is wrong (not built by nvcc?)",
			       fb->object);
		else if (version == WEFT_FATBIN_WRAPPER_LINK_VERSION)
			refuse(fb, WCU_NOT_SUPPORTED,
			       "relocatable device code (%s was built with nvcc -rdc=true or -dc); build without it",
			       fb->object);
		else if (version != WEFT_FATBIN_WRAPPER_VERSION)
			refuse(fb, WCU_INVALID_KERNEL_IMAGE, "%s: unknown fatbinary wrapper version", fb->object);
		else if (!(fb->avail = readable_bytes(data)))
			refuse(fb, WCU_INVALID_KERNEL_IMAGE, "the fatbinary of %s is not in the program's memory",
			       fb->object);
		else
			fb->data = data;
	}
	rt_leave(0);
	return (void **)fb;
}

WCU_API void __cudaRegisterFatBinaryEnd(void **handle)
{
	rt_enter("__cudaRegisterFatBinaryEnd");
	rt_leave(0);
	(void)handle;
}

WCU_API void __cudaUnregisterFatBinary(void **handle)
{
	if (!rt_enter("__cudaUnregisterFatBinary")) {
		struct rt_fatbin *fb = fatbin_of(handle);
		if (fb)
			fb->unregistered = 1;
	}
	rt_leave(0);
}

WCU_API char __cudaInitModule(void **handle)
{
	rt_enter("__cudaInitModule");
	rt_leave(0);
	(void)handle;
	return 1;
}

/* A copy of a name the program passed, at most RT_MAX_NAME bytes. */
static char *name_copy(const char *s)
{
	if (!s || !readable_bytes(s))
		return NULL;
	size_t n = strnlen(s, RT_MAX_NAME + 1);
	return n > RT_MAX_NAME ? NULL : strndup(s, n);
}

WCU_API void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
				    const char *device_name, int thread_limit, void *tid, void *bid,
				    void *bdim, void *gdim, int *wsize)
{
	(void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
	if (rt_enter("__cudaRegisterFunction")) {
		rt_leave(0);
		return;
	}
	struct rt_fatbin *fb = fatbin_of(handle);
	struct rt_func *f = calloc(1, sizeof(*f));
	if (!fb || !f || grow(&rt.funcs, &rt.cap_funcs, rt.nfuncs) || !(f->name = name_copy(device_name))) {
		free(f);
		rt_failure(fb ? WCU_MEMORY_ALLOCATION : WCU_INVALID_RESOURCE_HANDLE,
			   "kernel %.200s not registered (%s)", device_name && readable_bytes(device_name) ? device_name : "?",
			   fb ? "out of memory, or a name longer than 16384 bytes" : "unknown fatbinary handle");
		rt_leave(0);
		return;
	}
	f->host_fun = host_fun;
	f->fb = fb;
	rt.funcs[rt.nfuncs++] = f;
	rt_leave(0);
}

static void register_var(void **handle, const void *host_var, const char *name, size_t size,
			 int managed)
{
	struct rt_fatbin *fb = fatbin_of(handle);
	struct rt_var *v = calloc(1, sizeof(*v));
	if (!fb || !v || grow(&rt.vars, &rt.cap_vars, rt.nvars) || !(v->name = name_copy(name))) {
		free(v);
		rt_failure(fb ? WCU_MEMORY_ALLOCATION : WCU_INVALID_RESOURCE_HANDLE,
			   "variable %.200s not registered (%s)", name && readable_bytes(name) ? name : "?",
			   fb ? "out of memory, or a name longer than 16384 bytes" : "unknown fatbinary handle");
		return;
	}
	v->host_var = host_var;
	v->fb = fb;
	v->size = size;
	v->managed = managed;
	rt.vars[rt.nvars++] = v;
	if (managed)
		rt_unsupported("__managed__ variables (managed memory: device memory lives in weft's "
			       "emulator, at addresses the host cannot use)");
}

WCU_API void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
			       const char *device_name, int ext, size_t size, int constant, int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	if (!rt_enter("__cudaRegisterVar"))
		register_var(handle, host_var, device_name, size, 0);
	rt_leave(0);
}

WCU_API void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
				      const char *device_name, int ext, size_t size, int constant,
				      int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	if (!rt_enter("__cudaRegisterManagedVar"))
		register_var(handle, host_var_ptr, device_name, size, 1);
	rt_leave(0);
}

struct rt_func *rt_func_find(const void *host_fun)
{
	for (uint32_t i = 0; i < rt.nfuncs; i++)
		if (rt.funcs[i]->host_fun == host_fun)
			return rt.funcs[i];
	return NULL;
}

struct rt_func *rt_func_from_handle(const void *handle)
{
	for (uint32_t i = 0; i < rt.nfuncs; i++)
		if ((const void *)rt.funcs[i] == handle)
			return rt.funcs[i];
	return NULL;
}

struct rt_var *rt_var_find(const void *host_var)
{
	for (uint32_t i = 0; i < rt.nvars; i++)
		if (rt.vars[i]->host_var == host_var)
			return rt.vars[i];
	return NULL;
}

/* Writes the module's PTX under WEFT_CUDART_PTX_DIR (best effort: a
 * failure is reported, the run goes on). */
static void dump_ptx(const char *name, const char *text, size_t len)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", rt.ptx_dir, name) >= (int)sizeof(path))
		return;
	struct weft_error err;
	if (weft_write_atomic(path, text, len, &err))
		rt_failure(WCU_UNKNOWN, "WEFT_CUDART_PTX_DIR: %s", err.message);
}

/* Extracts and loads fb's PTX into the current context. */
static int load(struct rt_fatbin *fb, struct weft_module **mod)
{
	struct weft_fatbin f;
	struct weft_error err;
	int code = 0, i;
	char *text = NULL, path[160];
	size_t len;
	if (weft_fatbin_parse(fb->data, fb->avail, &f, &err)) {
		code = WCU_INVALID_KERNEL_IMAGE;
		goto fail;
	}
	if ((i = weft_fatbin_pick_ptx(&f, RT_CC_MAJOR * 10 + RT_CC_MINOR, &err)) < 0) {
		code = WCU_NO_KERNEL_IMAGE;
		weft_fatbin_free(&f);
		goto fail;
	}
	snprintf(path, sizeof(path), "%s-%u.compute_%u.ptx", fb->object, fb->id, f.entries[i].arch);
	int rc = weft_fatbin_ptx_text(fb->data, &f, (uint32_t)i, &text, &len, &err);
	weft_fatbin_free(&f);
	if (rc) {
		code = rc == WEFT_ERR_NOMEM ? WCU_MEMORY_ALLOCATION : WCU_INVALID_KERNEL_IMAGE;
		goto fail;
	}
	if (rt.ptx_dir[0])
		dump_ptx(path, text, len);
	rc = weft_module_load_text(rt.ctx, text, len, path, mod, &err);
	free(text);
	if (rc) {
		code = rc == WEFT_ERR_NOMEM ? WCU_MEMORY_ALLOCATION
		       : rc == WEFT_ERR_LIMIT ? WCU_MEMORY_ALLOCATION : WCU_INVALID_PTX;
		goto fail;
	}
	return 0;
fail: {
	char msg[WEFT_ERROR_MSG_MAX];
	weft_error_format(&err, msg, sizeof(msg));
	fb->load_rc = code;
	snprintf(fb->load_msg, sizeof(fb->load_msg), "the device code of %s (fatbinary %u): %s", fb->object,
		 fb->id, msg);
	return rt_failure(code, "%s", fb->load_msg);
	}
}

int rt_module(struct rt_fatbin *fb, struct weft_module **mod)
{
	if (fb->load_rc)
		return rt_failure(fb->load_rc, "%s (reported before)", fb->load_msg);
	if (fb->mod && fb->mod_gen == rt.ctx_gen) {
		*mod = fb->mod;
		return 0;
	}
	int e = load(fb, &fb->mod);
	if (e)
		return e;
	fb->mod_gen = rt.ctx_gen;
	*mod = fb->mod;
	return 0;
}

void rt_registry_free(void)
{
	for (uint32_t i = 0; i < rt.nfuncs; i++) {
		free(rt.funcs[i]->name);
		free(rt.funcs[i]);
	}
	for (uint32_t i = 0; i < rt.nvars; i++) {
		free(rt.vars[i]->name);
		free(rt.vars[i]);
	}
	for (uint32_t i = 0; i < rt.nfatbins; i++)
		free(rt.fatbins[i]);
	free(rt.funcs);
	free(rt.vars);
	free(rt.fatbins);
	rt.funcs = NULL;
	rt.vars = NULL;
	rt.fatbins = NULL;
	rt.nfuncs = rt.nvars = rt.nfatbins = 0;
}
