/*
 * emu_mem.c - memory windows of the functional emulator and the runtime
 * error messages that name where a fault happened.
 *
 * Global memory is a sorted table of allocations (weft_malloc and module
 * .global/.const variables), never reused after free, each separated from
 * the next by a gap so an access just past the end of one never lands in
 * another. Shared, local and param memory are per-CTA / per-thread buffers
 * reached either through their own state space (offsets from 0) or through
 * a generic window (WEFT_EMU_*_BASE + offset). Every access is checked
 * against its window and for natural alignment.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

int weft_emu_alloc_find(struct weft_ctx *ctx, uint64_t addr, uint64_t bytes)
{
	uint32_t n = ctx->nallocs;
	/* last_alloc is a hint that parallel workers (emu_par.c) share: read
	 * and written atomically, any value it holds is checked before use */
	uint32_t last = __atomic_load_n(&ctx->last_alloc, __ATOMIC_RELAXED);
	if (last < n) {
		const struct weft_emu_alloc *a = &ctx->allocs[last];
		if (addr >= a->base && addr - a->base < a->size && bytes <= a->size - (addr - a->base))
			return (int)last;
	}
	uint32_t lo = 0, hi = n;
	while (lo < hi) { /* first allocation with base > addr */
		uint32_t mid = (lo + hi) / 2;
		if (ctx->allocs[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct weft_emu_alloc *a = &ctx->allocs[lo - 1];
	if (addr - a->base < a->size && bytes <= a->size - (addr - a->base)) {
		__atomic_store_n(&ctx->last_alloc, lo - 1, __ATOMIC_RELAXED);
		return (int)(lo - 1);
	}
	return -1;
}

void weft_emu_alloc_nearest(const struct weft_ctx *ctx, uint64_t addr, char *buf, size_t len)
{
	const struct weft_emu_alloc *best = NULL;
	uint64_t bestd = UINT64_MAX;
	for (uint32_t i = 0; i < ctx->nallocs; i++) {
		const struct weft_emu_alloc *a = &ctx->allocs[i];
		uint64_t d;
		if (addr < a->base)
			d = a->base - addr;
		else if (addr >= a->base + a->size)
			d = addr - (a->base + a->size) + 1;
		else
			d = 0;
		if (d < bestd) {
			bestd = d;
			best = a;
		}
	}
	if (!best) {
		snprintf(buf, len, "no device allocations exist");
		return;
	}
	char nm[160] = "";
	if (best->name)
		snprintf(nm, sizeof(nm), " (module variable %s)", best->name);
	if (addr < best->base)
		snprintf(buf, len,
			 "nearest allocation: base 0x%" PRIx64 ", size %" PRIu64 "%s; the address is %" PRIu64
			 " bytes before its start",
			 best->base, best->size, nm, best->base - addr);
	else if (addr >= best->base + best->size)
		snprintf(buf, len,
			 "nearest allocation: base 0x%" PRIx64 ", size %" PRIu64 "%s; the address is %" PRIu64
			 " bytes past its end (offset %" PRIu64 ")",
			 best->base, best->size, nm, addr - (best->base + best->size), addr - best->base);
	else
		snprintf(buf, len,
			 "nearest allocation: base 0x%" PRIx64 ", size %" PRIu64 "%s; the access starts at offset %" PRIu64
			 " and runs past its end",
			 best->base, best->size, nm, addr - best->base);
}

void weft_emu_where(const struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
		    const struct weft_emu_inst *ei, char *buf, size_t len)
{
	char thr[96] = "", pos[512] = "";
	if (W && lane >= 0) {
		uint32_t t = W->id * 32 + (uint32_t)lane;
		uint32_t bx = L->block.x, by = L->block.y;
		snprintf(thr, sizeof(thr), ", thread (%u,%u,%u)", t % bx, (t / bx) % by, t / (bx * by));
	} else if (W) {
		snprintf(thr, sizeof(thr), ", warp %u", W->id);
	}
	if (ei) {
		const struct weft_ptx_module *m = L->mod->ptx;
		char inst[160], src[300] = "";
		/* format the instruction as written: ei->in has registers renumbered */
		const struct weft_ptx_func *sf = &m->funcs[ei->src_func];
		if (ei->src_pc < sf->ninsts)
			weft_ptx_format_inst(m, sf, &sf->insts[ei->src_pc], inst, sizeof(inst));
		else
			snprintf(inst, sizeof(inst), "end of kernel");
		if (ei->in.pos.src_line && ei->in.pos.src_file >= 0 &&
		    (uint32_t)ei->in.pos.src_file < m->nfiles && m->files[ei->in.pos.src_file])
			snprintf(src, sizeof(src), ", %s:%u", m->files[ei->in.pos.src_file], ei->in.pos.src_line);
		else if (ei->in.pos.src_line)
			snprintf(src, sizeof(src), ", source line %u", ei->in.pos.src_line);
		const char *fn = m->funcs[ei->src_func].name;
		snprintf(pos, sizeof(pos), ", PC %u (%s:%u%s%s%s): `%s`",
			 (unsigned)(ei - L->prog->insts), m->path ? m->path : "<ptx>", ei->in.pos.line, src,
			 ei->src_func != L->prog->kernel ? " in inlined function " : "",
			 ei->src_func != L->prog->kernel ? fn : "", inst);
	}
	snprintf(buf, len, "kernel %s, CTA (%u,%u,%u)%s%s", L->kname, L->ctaid[0], L->ctaid[1],
		 L->ctaid[2], thr, pos);
}

int weft_emu_fault(struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
		   const struct weft_emu_inst *ei, enum weft_err code, const char *fmt, ...)
{
	char what[600], where[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	weft_emu_where(L, W, lane, ei, where, sizeof(where));
	const char *file = L->mod->ptx->path;
	uint32_t line = ei ? ei->in.pos.line : 0, col = ei ? ei->in.pos.column : 0;
	/* message: what first, then where; the file:line position is separate */
	return weft_error_at(L->err, code, file, line, col, "%.500s; at %.500s", what, where);
}

static const char *space_word(int s)
{
	switch (s) {
	case WEFT_SPACE_GLOBAL: return "global";
	case WEFT_SPACE_SHARED: return "shared";
	case WEFT_SPACE_LOCAL: return "local";
	case WEFT_SPACE_CONST: return "const";
	case WEFT_SPACE_PARAM: return "param";
	default: return "generic";
	}
}

/* Grows the CTA's shared buffer to cover [0, need) (need <= shared_bytes),
 * zeroing the new part: doubling, in 4 KiB steps, never past shared_bytes. */
static int shared_grow(struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
		       const struct weft_emu_inst *ei, uint64_t need)
{
	uint64_t cap = L->shared_cap ? (uint64_t)L->shared_cap * 2 : 4096;
	if (cap < need)
		cap = (need + 4095) / 4096 * 4096;
	if (cap > L->shared_bytes)
		cap = L->shared_bytes;
	uint8_t *p = realloc(L->shared, (size_t)cap);
	if (!p)
		return weft_emu_fault(L, W, lane, ei, WEFT_ERR_NOMEM,
				      "out of memory growing shared memory to %" PRIu64 " bytes", cap);
	memset(p + L->shared_cap, 0, (size_t)(cap - L->shared_cap));
	L->shared = p;
	L->shared_cap = (uint32_t)cap;
	return 0;
}

uint8_t *weft_emu_mem_slow(struct weft_emu_launch *L, struct weft_emu_warp *W,
			   const struct weft_emu_inst *ei, int lane, int space, uint64_t addr,
			   uint32_t bytes, int write, uint8_t *rspace)
{
	const char *acc = write ? "store" : "load";
	uint64_t a = addr;
	int s = space;
	if (s == WEFT_SPACE_GENERIC) {
		if (a - WEFT_EMU_SHARED_BASE < WEFT_EMU_WINDOW_SIZE) {
			s = WEFT_SPACE_SHARED;
			a -= WEFT_EMU_SHARED_BASE;
		} else if (a - WEFT_EMU_LOCAL_BASE < WEFT_EMU_WINDOW_SIZE) {
			s = WEFT_SPACE_LOCAL;
			a -= WEFT_EMU_LOCAL_BASE;
		} else if (a - WEFT_EMU_PARAM_BASE < WEFT_EMU_WINDOW_SIZE) {
			s = WEFT_SPACE_PARAM;
			a -= WEFT_EMU_PARAM_BASE;
		} else {
			s = WEFT_SPACE_GLOBAL;
		}
	}
	*rspace = (uint8_t)s;
	if (bytes > 1 && (a & (bytes - 1))) {
		weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
			       "misaligned %s %s of %u bytes at address 0x%" PRIx64
			       " (must be a multiple of %u)",
			       space_word(s), acc, bytes, addr, bytes);
		return NULL;
	}
	switch (s) {
	case WEFT_SPACE_SHARED:
		if (a < L->shared_bytes && bytes <= L->shared_bytes - a) {
			if (a + bytes > L->shared_cap && shared_grow(L, W, lane, ei, a + bytes))
				return NULL;
			return L->shared + a;
		}
		weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
			       "out-of-bounds shared %s of %u bytes at shared offset 0x%" PRIx64
			       " (the CTA has %u bytes of shared memory: %u static + %u dynamic)",
			       acc, bytes, a, L->shared_bytes, L->prog->shared_dyn_offset, L->dyn_shared);
		return NULL;
	case WEFT_SPACE_LOCAL:
		if (a < L->local_bytes && bytes <= L->local_bytes - a)
			return L->local + (size_t)(W->id * 32 + (uint32_t)lane) * L->local_bytes + a;
		weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
			       "out-of-bounds local %s of %u bytes at local offset 0x%" PRIx64
			       " (the thread's local frame has %u bytes)",
			       acc, bytes, a, L->local_bytes);
		return NULL;
	case WEFT_SPACE_PARAM:
		if (write) {
			weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
				       "store to kernel parameter memory at offset 0x%" PRIx64
				       " (kernel parameters are read-only)", a);
			return NULL;
		}
		if (a < L->param_bytes && bytes <= L->param_bytes - a)
			return L->param + a;
		weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
			       "out-of-bounds param load of %u bytes at offset 0x%" PRIx64
			       " (the kernel has %u bytes of parameters)",
			       bytes, a, L->param_bytes);
		return NULL;
	default: {
		int i = weft_emu_alloc_find(L->ctx, a, bytes);
		if (i >= 0) {
			const struct weft_emu_alloc *al = &L->ctx->allocs[i];
			if (ei) {
				struct weft_emu_acache *c = &L->acache[ei - L->prog->insts];
				c->base = al->base;
				c->size = al->size;
				c->host = al->host;
			}
			return al->host + (a - al->base);
		}
		char near[400];
		weft_emu_alloc_nearest(L->ctx, a, near, sizeof(near));
		weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME,
			       "out-of-bounds %s %s of %u bytes at address 0x%" PRIx64 " (outside every allocation; %s)",
			       space_word(space == WEFT_SPACE_GENERIC ? WEFT_SPACE_GLOBAL : space), acc,
			       bytes, a, near);
		return NULL;
	}
	}
}
