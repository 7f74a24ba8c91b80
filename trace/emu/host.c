/*
 * host.c - the CUDA-runtime-shaped host API (host.h): contexts, modules,
 * device allocations, copies, symbols and kernel launches over the
 * functional emulator.
 *
 * Device memory: allocations get increasing addresses from
 * WEFT_EMU_GLOBAL_BASE, 256-byte aligned, with at least 256 unmapped bytes
 * between two allocations so that an access just past one end is caught,
 * and addresses are never reused after weft_free, so a use after free is
 * caught too. Module .global/.const variables are allocations named after
 * the variable, made when the module is loaded.
 *
 * A launch is checked against CUDA's limits (host.h "launch limits":
 * dimensions and their products, shared memory, .maxnreg, .reqntid,
 * .maxntid) before anything is allocated for it, and gets its instruction
 * budget (weft_ctx_options.max_launch_insts, weft_launch_opts).
 *
 * Device memory is capped (weft_ctx_options.max_device_bytes): by default
 * at this process's memory, the machine's physical memory or a lower
 * `ulimit -v` / `ulimit -d`, since every device byte is a host byte. The
 * check comes before the allocation, so a hostile buffer size is refused
 * with its numbers instead of being allocated.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"

#define ALIGN 256u
#define GAP 256u

/* This process's memory: physical memory, lowered by an address-space or
 * data-segment rlimit; sets *why to what decided it. */
static uint64_t process_memory(const char **why)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t m = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
	*why = "this machine's physical memory";
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < m) {
		m = rl.rlim_cur;
		*why = "this process's address-space limit, ulimit -v";
	}
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < m) {
		m = rl.rlim_cur;
		*why = "this process's data-size limit, ulimit -d";
	}
	return m;
}

struct weft_ctx *weft_ctx_create(const struct weft_ctx_options *opts)
{
	struct weft_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	if (opts)
		ctx->opts = *opts;
	if (ctx->opts.max_device_bytes) {
		ctx->stats.device_bytes_limit = ctx->opts.max_device_bytes;
		ctx->device_limit_why = "the limit the caller set (weft-trace --max-device-mem)";
	} else {
		ctx->stats.device_bytes_limit = process_memory(&ctx->device_limit_why);
	}
	ctx->next_base = WEFT_EMU_GLOBAL_BASE;
	ctx->last_alloc = UINT32_MAX;
	return ctx;
}

static void module_free(struct weft_module *mod)
{
	if (!mod)
		return;
	if (mod->progs && mod->ptx)
		for (uint32_t i = 0; i < mod->ptx->nfuncs; i++)
			weft_emu_prog_free(mod->progs[i]);
	free(mod->progs);
	free(mod->sym_addr);
	weft_ptx_module_free(mod->ptx);
	free(mod);
}

void weft_ctx_destroy(struct weft_ctx *ctx)
{
	if (!ctx)
		return;
	for (uint32_t i = 0; i < ctx->nmods; i++)
		module_free(ctx->mods[i]);
	free(ctx->mods);
	for (uint32_t i = 0; i < ctx->nallocs; i++) {
		free(ctx->allocs[i].host);
		free(ctx->allocs[i].name);
	}
	free(ctx->allocs);
	weft_emu_texobjs_free(ctx);
	free(ctx);
}

const struct weft_ctx_stats *weft_ctx_stats(const struct weft_ctx *ctx)
{
	return &ctx->stats;
}

static int alloc_new(struct weft_ctx *ctx, size_t bytes, const char *name, uint64_t *out,
		     struct weft_error *err)
{
	uint64_t held = ctx->stats.device_bytes, limit = ctx->stats.device_bytes_limit;
	if (bytes > limit || held > limit - bytes)
		return weft_error_set(err, WEFT_ERR_LIMIT,
				      "device memory limit: %s%s%zu bytes requested with %" PRIu64
				      " already held, beyond the limit of %" PRIu64
				      " bytes (%s); give a smaller size, or set the limit with "
				      "--max-device-mem",
				      name ? name : "", name ? ": " : "", bytes, held, limit,
				      ctx->device_limit_why);
	if (ctx->nallocs == ctx->cap_allocs) {
		uint32_t nc = ctx->cap_allocs ? ctx->cap_allocs * 2 : 64;
		struct weft_emu_alloc *a = realloc(ctx->allocs, nc * sizeof(*a));
		if (!a)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory (allocation table)");
		ctx->allocs = a;
		ctx->cap_allocs = nc;
	}
	uint8_t *host = calloc(bytes ? bytes : 1, 1);
	char *nm = name ? strdup(name) : NULL;
	if (!host || (name && !nm)) {
		free(host);
		free(nm);
		return weft_error_set(err, WEFT_ERR_NOMEM,
				      "out of memory: cannot allocate %zu bytes of device memory", bytes);
	}
	uint64_t base = ctx->next_base;
	ctx->next_base = (base + bytes + ALIGN - 1) / ALIGN * ALIGN + GAP;
	/* bases only grow, so appending keeps the table sorted */
	struct weft_emu_alloc *a = &ctx->allocs[ctx->nallocs++];
	a->base = base;
	a->size = bytes;
	a->host = host;
	a->name = nm;
	ctx->stats.device_bytes += bytes;
	if (ctx->stats.device_bytes > ctx->stats.device_bytes_peak)
		ctx->stats.device_bytes_peak = ctx->stats.device_bytes;
	*out = base;
	return 0;
}

int weft_malloc(struct weft_ctx *ctx, size_t bytes, uint64_t *dptr, struct weft_error *err)
{
	return alloc_new(ctx, bytes, NULL, dptr, err);
}

int weft_free(struct weft_ctx *ctx, uint64_t dptr, struct weft_error *err)
{
	if (!dptr) /* as cudaFree(NULL) */
		return 0;
	for (uint32_t i = 0; i < ctx->nallocs; i++) {
		if (ctx->allocs[i].base != dptr)
			continue;
		if (ctx->allocs[i].name)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "weft_free: 0x%" PRIx64 " is module variable %s, which cannot be freed",
					      dptr, ctx->allocs[i].name);
		free(ctx->allocs[i].host);
		ctx->stats.device_bytes -= ctx->allocs[i].size;
		memmove(&ctx->allocs[i], &ctx->allocs[i + 1], (ctx->nallocs - i - 1) * sizeof(*ctx->allocs));
		ctx->nallocs--;
		ctx->last_alloc = UINT32_MAX;
		return 0;
	}
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "weft_free: 0x%" PRIx64 " is not the start of a live allocation "
			      "(already freed, or a pointer into the middle of one?)",
			      dptr);
}

/* Host pointer for [addr, addr+bytes) inside one allocation. */
static uint8_t *host_range(struct weft_ctx *ctx, const char *what, uint64_t addr, size_t bytes,
			   struct weft_error *err)
{
	int i = weft_emu_alloc_find(ctx, addr, bytes);
	if (i < 0) {
		char near[400];
		weft_emu_alloc_nearest(ctx, addr, near, sizeof(near));
		weft_error_set(err, WEFT_ERR_INPUT,
			       "%s: device range [0x%" PRIx64 ", 0x%" PRIx64 ") (%zu bytes) is not inside one allocation; %s",
			       what, addr, addr + bytes, bytes, near);
		return NULL;
	}
	return ctx->allocs[i].host + (addr - ctx->allocs[i].base);
}

int weft_memcpy_htod(struct weft_ctx *ctx, uint64_t dst, const void *src, size_t bytes,
		     struct weft_error *err)
{
	if (!bytes)
		return 0;
	uint8_t *p = host_range(ctx, "weft_memcpy_htod", dst, bytes, err);
	if (!p)
		return WEFT_ERR_INPUT;
	memcpy(p, src, bytes);
	return 0;
}

int weft_memcpy_dtoh(struct weft_ctx *ctx, void *dst, uint64_t src, size_t bytes,
		     struct weft_error *err)
{
	if (!bytes)
		return 0;
	uint8_t *p = host_range(ctx, "weft_memcpy_dtoh", src, bytes, err);
	if (!p)
		return WEFT_ERR_INPUT;
	memcpy(dst, p, bytes);
	return 0;
}

int weft_memset(struct weft_ctx *ctx, uint64_t dst, int value, size_t bytes, struct weft_error *err)
{
	if (!bytes)
		return 0;
	uint8_t *p = host_range(ctx, "weft_memset", dst, bytes, err);
	if (!p)
		return WEFT_ERR_INPUT;
	memset(p, value, bytes);
	return 0;
}

int weft_memcpy_dtod(struct weft_ctx *ctx, uint64_t dst, uint64_t src, size_t bytes,
		     struct weft_error *err)
{
	if (!bytes)
		return 0;
	uint8_t *d = host_range(ctx, "weft_memcpy_dtod (destination)", dst, bytes, err);
	if (!d)
		return WEFT_ERR_INPUT;
	uint8_t *s = host_range(ctx, "weft_memcpy_dtod (source)", src, bytes, err);
	if (!s)
		return WEFT_ERR_INPUT;
	memmove(d, s, bytes);
	return 0;
}

int weft_mem_find(struct weft_ctx *ctx, uint64_t addr, uint64_t *base, uint64_t *bytes)
{
	int i = weft_emu_alloc_find(ctx, addr, 0);
	if (i < 0)
		return -1;
	*base = ctx->allocs[i].base;
	*bytes = ctx->allocs[i].size;
	return 0;
}

static int module_add(struct weft_ctx *ctx, struct weft_ptx_module *m, struct weft_module **out,
		      struct weft_error *err)
{
	struct weft_module *mod = calloc(1, sizeof(*mod));
	if (!mod) {
		weft_ptx_module_free(m);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory loading a module");
	}
	static uint64_t next_uid;
	mod->ctx = ctx;
	mod->ptx = m;
	mod->uid = __atomic_add_fetch(&next_uid, 1, __ATOMIC_RELAXED);
	mod->sym_addr = calloc(m->nsyms ? m->nsyms : 1, sizeof(uint64_t));
	mod->progs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(*mod->progs));
	if (!mod->sym_addr || !mod->progs) {
		module_free(mod);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory loading a module");
	}
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const struct weft_ptx_symbol *s = &m->syms[i];
		if (s->space != WEFT_SPACE_GLOBAL && s->space != WEFT_SPACE_CONST)
			continue;
		uint64_t a;
		int rc = alloc_new(ctx, s->size, s->name, &a, err);
		if (rc) {
			module_free(mod);
			return rc;
		}
		mod->sym_addr[i] = a;
		if (s->init && s->size)
			memcpy(ctx->allocs[ctx->nallocs - 1].host, s->init, s->size);
	}
	if (ctx->nmods == ctx->cap_mods) {
		uint32_t nc = ctx->cap_mods ? ctx->cap_mods * 2 : 8;
		struct weft_module **mm = realloc(ctx->mods, nc * sizeof(*mm));
		if (!mm) {
			module_free(mod);
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory loading a module");
		}
		ctx->mods = mm;
		ctx->cap_mods = nc;
	}
	ctx->mods[ctx->nmods++] = mod;
	*out = mod;
	return 0;
}

int weft_module_load_text(struct weft_ctx *ctx, const char *text, size_t len, const char *path,
			  struct weft_module **out, struct weft_error *err)
{
	struct weft_ptx_module *m = NULL;
	*out = NULL;
	int rc = weft_ptx_parse(text, len, path, &m, err);
	if (rc)
		return rc;
	return module_add(ctx, m, out, err);
}

int weft_module_load_file(struct weft_ctx *ctx, const char *path, struct weft_module **out,
			  struct weft_error *err)
{
	struct weft_ptx_module *m = NULL;
	*out = NULL;
	int rc = weft_ptx_load_file(path, &m, err);
	if (rc)
		return rc;
	return module_add(ctx, m, out, err);
}

const struct weft_ptx_module *weft_module_ptx(const struct weft_module *mod)
{
	return mod->ptx;
}

uint64_t weft_module_uid(const struct weft_module *mod)
{
	return mod->uid;
}

static int symbol_range(struct weft_ctx *ctx, struct weft_module *mod, const char *symbol,
			size_t bytes, size_t offset, const char *what, uint8_t **out,
			struct weft_error *err)
{
	int i = weft_ptx_find_symbol(mod->ptx, symbol);
	if (i < 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: module %s has no variable named %s", what,
				      mod->ptx->path ? mod->ptx->path : "<ptx>", symbol);
	const struct weft_ptx_symbol *s = &mod->ptx->syms[i];
	if (s->space != WEFT_SPACE_GLOBAL && s->space != WEFT_SPACE_CONST)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %s is a .%s variable; only .global and .const variables can be copied",
				      what, symbol, weft_ptx_space_name(s->space));
	if (offset > s->size || bytes > s->size - offset)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %zu bytes at offset %zu do not fit in %s (%" PRIu64 " bytes)", what,
				      bytes, offset, symbol, s->size);
	int a = weft_emu_alloc_find(ctx, mod->sym_addr[i], s->size ? s->size : 0);
	if (a < 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "%s: variable %s has no device memory", what, symbol);
	*out = ctx->allocs[a].host + offset;
	return 0;
}

int weft_module_symbol(struct weft_module *mod, const char *symbol, uint64_t *dptr,
		       uint64_t *bytes, struct weft_error *err)
{
	uint8_t *p;
	int rc = symbol_range(mod->ctx, mod, symbol, 0, 0, "weft_module_symbol", &p, err);
	if (rc)
		return rc;
	int i = weft_ptx_find_symbol(mod->ptx, symbol);
	if (dptr)
		*dptr = mod->sym_addr[i];
	if (bytes)
		*bytes = mod->ptx->syms[i].size;
	return 0;
}

int weft_memcpy_to_symbol(struct weft_ctx *ctx, struct weft_module *mod, const char *symbol,
			  const void *src, size_t bytes, size_t offset, struct weft_error *err)
{
	uint8_t *p;
	int rc = symbol_range(ctx, mod, symbol, bytes, offset, "weft_memcpy_to_symbol", &p, err);
	if (rc)
		return rc;
	memcpy(p, src, bytes);
	return 0;
}

int weft_memcpy_from_symbol(struct weft_ctx *ctx, struct weft_module *mod, const char *symbol,
			    void *dst, size_t bytes, size_t offset, struct weft_error *err)
{
	uint8_t *p;
	int rc = symbol_range(ctx, mod, symbol, bytes, offset, "weft_memcpy_from_symbol", &p, err);
	if (rc)
		return rc;
	memcpy(dst, p, bytes);
	return 0;
}

static int no_kernel(struct weft_module *mod, const char *name, struct weft_error *err)
{
	char list[600] = "";
	size_t n = 0;
	for (uint32_t i = 0; i < mod->ptx->nfuncs && n + 2 < sizeof(list); i++) {
		if (!mod->ptx->funcs[i].is_entry)
			continue;
		int w = snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", mod->ptx->funcs[i].name);
		if (w < 0)
			break;
		n += (size_t)w;
		if (n >= sizeof(list))
			n = sizeof(list) - 1;
	}
	return weft_error_set(err, WEFT_ERR_INPUT, "no kernel named %s in module %s (kernels: %s)", name,
			      mod->ptx->path ? mod->ptx->path : "<ptx>", n ? list : "none");
}

int weft_launch_check_dims(struct weft_dim3 grid, struct weft_dim3 block, char *why, size_t len)
{
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z) {
		snprintf(why, len, "grid (%u,%u,%u) and block (%u,%u,%u) must be at least 1 in every dimension",
			 grid.x, grid.y, grid.z, block.x, block.y, block.z);
		return -1;
	}
	/* the product in 64 bits: three 32-bit factors cannot overflow it */
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	if (block.x > WEFT_MAX_BLOCK_X || block.y > WEFT_MAX_BLOCK_Y || block.z > WEFT_MAX_BLOCK_Z) {
		snprintf(why, len,
			 "block (%u,%u,%u) exceeds CUDA's block dimensions (x and y at most %u and %u, z at most %u)",
			 block.x, block.y, block.z, WEFT_MAX_BLOCK_X, WEFT_MAX_BLOCK_Y, WEFT_MAX_BLOCK_Z);
		return -1;
	}
	if (threads > WEFT_MAX_BLOCK_THREADS) {
		snprintf(why, len, "block (%u,%u,%u) has more than %u threads (%" PRIu64 "), CUDA's limit per block",
			 block.x, block.y, block.z, WEFT_MAX_BLOCK_THREADS, threads);
		return -1;
	}
	if (grid.x > WEFT_MAX_GRID_X || grid.y > WEFT_MAX_GRID_Y || grid.z > WEFT_MAX_GRID_Z) {
		snprintf(why, len,
			 "grid (%u,%u,%u) exceeds CUDA's grid dimensions (x at most 2^31-1, y and z at most %u)",
			 grid.x, grid.y, grid.z, WEFT_MAX_GRID_Y);
		return -1;
	}
	/* the grid's CTA count fits 64 bits (2^31 * 2^16 * 2^16) but not 32 */
	uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;
	if (ctas > UINT32_MAX) {
		snprintf(why, len,
			 "grid (%u,%u,%u) has %" PRIu64 " CTAs; weft runs at most %u CTAs per launch",
			 grid.x, grid.y, grid.z, ctas, UINT32_MAX);
		return -1;
	}
	return 0;
}

/* The kernel's own bounds (.maxnreg, .reqntid, .maxntid) against block. */
static int check_kernel_bounds(const struct weft_ptx_module *mod, const struct weft_ptx_func *f,
			       struct weft_dim3 block, struct weft_error *err)
{
	const char *path = mod->path ? mod->path : "<ptx>";
	if (f->maxnreg > WEFT_MAX_REGS_PER_THREAD)
		return weft_error_at(err, WEFT_ERR_INPUT, path, f->line, 0,
				     "kernel %s: .maxnreg %u is more than the %u registers CUDA allows a "
				     "thread; lower it or remove the directive",
				     f->name, f->maxnreg, WEFT_MAX_REGS_PER_THREAD);
	const uint32_t *r = f->reqntid, *m = f->maxntid;
	if (r[0] && (block.x != r[0] || block.y != (r[1] ? r[1] : 1) || block.z != (r[2] ? r[2] : 1)))
		return weft_error_at(err, WEFT_ERR_INPUT, path, f->line, 0,
				     "kernel %s requires blocks of (%u,%u,%u) threads (.reqntid) but the launch "
				     "gives (%u,%u,%u); launch it with that block",
				     f->name, r[0], r[1] ? r[1] : 1, r[2] ? r[2] : 1, block.x, block.y, block.z);
	if (m[0]) {
		uint64_t most = (uint64_t)m[0] * (m[1] ? m[1] : 1) * (m[2] ? m[2] : 1);
		if ((uint64_t)block.x * block.y * block.z > most)
			return weft_error_at(err, WEFT_ERR_INPUT, path, f->line, 0,
					     "kernel %s allows at most %" PRIu64 " threads per block (.maxntid "
					     "%u,%u,%u) but the launch gives (%u,%u,%u); use a smaller block",
					     f->name, most, m[0], m[1] ? m[1] : 1, m[2] ? m[2] : 1, block.x,
					     block.y, block.z);
	}
	return 0;
}

int weft_launch(struct weft_ctx *ctx, struct weft_module *mod, const char *name,
		struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		const struct weft_arg *args, uint32_t nargs, struct weft_error *err)
{
	return weft_launch_ex(ctx, mod, name, grid, block, dyn_shared, args, nargs, NULL, err);
}

int weft_launch_ex(struct weft_ctx *ctx, struct weft_module *mod, const char *name,
		   struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		   const struct weft_arg *args, uint32_t nargs, const struct weft_launch_opts *lopts,
		   struct weft_error *err)
{
	const struct weft_ptx_module *m = mod->ptx;
	if (mod->ctx != ctx)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "launch of kernel %s: module %s was loaded into another context", name,
				      m->path ? m->path : "<ptx>");
	int k = weft_ptx_find_func(m, name);
	if (k < 0 || !m->funcs[k].is_entry)
		return no_kernel(mod, name, err);
	const struct weft_ptx_func *f = &m->funcs[k];
	char why[300];
	if (weft_launch_check_dims(grid, block, why, sizeof(why)))
		return weft_error_set(err, WEFT_ERR_INPUT, "launch of kernel %s: %s", name, why);
	if (dyn_shared > WEFT_MAX_SHARED_BYTES)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "launch of kernel %s: %u bytes of dynamic shared memory exceed the %u bytes "
				      "(227 KB) CUDA allows a block",
				      name, dyn_shared, WEFT_MAX_SHARED_BYTES);
	int rc = check_kernel_bounds(m, f, block, err);
	if (rc)
		return rc;
	if (nargs != f->nparams)
		return weft_error_set(err, WEFT_ERR_INPUT, "kernel %s expects %u argument%s, got %u", name,
				      f->nparams, f->nparams == 1 ? "" : "s", nargs);
	for (uint32_t i = 0; i < nargs; i++) {
		const struct weft_ptx_param *p = &f->params[i];
		if (args[i].size != p->size || (!args[i].data && p->size))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "argument %u of kernel %s (parameter %s, .%s, %u bytes) was given %zu bytes",
					      i, name, m->syms[p->sym].name, weft_ptx_type_name(p->type), p->size,
					      args[i].size);
	}
	const struct weft_emu_prog *prog;
	rc = weft_emu_program(mod, (uint32_t)k, &prog, err);
	if (rc)
		return rc;
	/* static shared is at most the limit (weft_emu_link); with the dynamic
	 * part the block's total must be too */
	uint64_t shared = (uint64_t)prog->shared_dyn_offset + dyn_shared;
	if (shared > WEFT_MAX_SHARED_BYTES)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "launch of kernel %s: %u bytes of static and %u of dynamic shared memory "
				      "(%" PRIu64 " in all) exceed the %u bytes (227 KB) CUDA allows a block",
				      name, prog->shared_dyn_offset, dyn_shared, shared, WEFT_MAX_SHARED_BYTES);
	uint8_t *param = calloc(f->param_bytes ? f->param_bytes : 1, 1);
	if (!param)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory (parameters of %s)", name);
	for (uint32_t i = 0; i < nargs; i++) {
		const struct weft_ptx_param *p = &f->params[i];
		if (p->offset + p->size <= f->param_bytes && p->size)
			memcpy(param + p->offset, args[i].data, p->size);
	}
	struct weft_emu_launch L;
	memset(&L, 0, sizeof(L));
	L.ctx = ctx;
	L.mod = mod;
	L.prog = prog;
	L.kname = f->name;
	L.grid = grid;
	L.block = block;
	L.dyn_shared = dyn_shared;
	L.param = param;
	L.param_bytes = f->param_bytes;
	/* the launch's instruction budget: the smaller of the context's and
	 * this launch's */
	uint64_t budget = ctx->opts.max_launch_insts ? ctx->opts.max_launch_insts : WEFT_DEFAULT_LAUNCH_INSTS;
	L.budget_from = NULL;
	if (lopts && lopts->max_insts && lopts->max_insts < budget) {
		budget = lopts->max_insts;
		L.budget_from = lopts->max_insts_from;
	}
	L.budget = budget;
	struct weft_error local_err;
	L.err = err ? err : &local_err;
	weft_error_clear(L.err);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ctx->stats.launches++;
	rc = weft_emu_run(&L);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ctx->stats.emu_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	free(param);
	return rc;
}
