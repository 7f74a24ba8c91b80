/*
 * emu_exec.c - runs a lowered kernel over a grid: CTAs one after another,
 * the warps of a CTA interleaved round-robin, each warp in lock-step with a
 * SIMT reconvergence stack.
 *
 * SIMT stack: the top entry (pc, rpc, mask) runs; a divergent branch turns
 * the top into its reconvergence entry (pc = the branch's immediate
 * post-dominator) and pushes the not-taken then the taken path, each to run
 * until it reaches that pc. When the reconvergence pc equals the top's own,
 * the top is reused instead, so loops with divergent exits do not grow the
 * stack. Exited lanes leave every entry.
 *
 * Scheduling: each runnable warp runs at most `quantum` warp instructions,
 * then the next one gets a turn, so a warp spinning on a flag another warp
 * sets makes progress; nanosleep ends a warp's turn. bar.sync blocks a warp
 * until every non-exited thread of the CTA (or the thread count given) has
 * arrived; when no warp can run and some wait, the barrier can never
 * complete and the launch stops with WEFT_ERR_RUNTIME.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

#define PROGRESS_EVERY WEFT_EMU_PROGRESS_EVERY

static uint64_t sreg_value(const struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
			   uint16_t sreg, uint16_t comp)
{
	uint32_t t = W->id * 32 + (uint32_t)lane;
	const struct weft_dim3 *b = &L->block, *g = &L->grid;
	switch (sreg) {
	case WEFT_SREG_TID:
		return comp == 0 ? t % b->x : comp == 1 ? (t / b->x) % b->y : t / (b->x * b->y);
	case WEFT_SREG_NTID: return comp == 0 ? b->x : comp == 1 ? b->y : b->z;
	case WEFT_SREG_CTAID: return L->ctaid[comp < 3 ? comp : 0];
	case WEFT_SREG_NCTAID: return comp == 0 ? g->x : comp == 1 ? g->y : g->z;
	case WEFT_SREG_LANEID: return (uint32_t)lane;
	case WEFT_SREG_WARPID: return W->id;
	case WEFT_SREG_NWARPID: return L->nwarps;
	case WEFT_SREG_SMID: return 0;
	case WEFT_SREG_NSMID: return 1;
	case WEFT_SREG_GRIDID: return L->ctx->stats.launches;
	case WEFT_SREG_CLOCK: return (uint32_t)L->clock;
	case WEFT_SREG_CLOCK64: case WEFT_SREG_GLOBALTIMER: return L->clock;
	case WEFT_SREG_CLOCK_HI: return (uint32_t)(L->clock >> 32);
	case WEFT_SREG_LANEMASK_EQ: return 1u << lane;
	case WEFT_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
	case WEFT_SREG_LANEMASK_LT: return (1u << lane) - 1;
	case WEFT_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
	case WEFT_SREG_LANEMASK_GT: return (uint32_t)~((2ull << lane) - 1);
	case WEFT_SREG_DYNAMIC_SMEM_SIZE: return L->dyn_shared;
	case WEFT_SREG_TOTAL_SMEM_SIZE: return L->shared_bytes;
	default: return 0;
	}
}

static void fill_sregs(struct weft_emu_launch *L, struct weft_emu_warp *W, int only_cta)
{
	const struct weft_emu_prog *P = L->prog;
	for (uint32_t i = 0; i < P->nsregs; i++) {
		const struct weft_emu_sregslot *s = &P->sregs[i];
		int cta_dep = s->sreg == WEFT_SREG_CTAID;
		if (only_cta && !cta_dep)
			continue;
		uint64_t *r = WEFT_SLOT(W, s->slot);
		if (cta_dep) {
			uint64_t v = L->ctaid[s->comp < 3 ? s->comp : 0];
			for (int l = 0; l < 32; l++)
				r[l] = v;
			continue;
		}
		for (int l = 0; l < 32; l++)
			r[l] = sreg_value(L, W, l, s->sreg, s->comp);
	}
}

static void refresh_clock(struct weft_emu_launch *L, struct weft_emu_warp *W)
{
	const struct weft_emu_prog *P = L->prog;
	for (uint32_t i = 0; i < P->nsregs; i++) {
		const struct weft_emu_sregslot *s = &P->sregs[i];
		if (s->sreg != WEFT_SREG_CLOCK && s->sreg != WEFT_SREG_CLOCK64 &&
		    s->sreg != WEFT_SREG_GLOBALTIMER && s->sreg != WEFT_SREG_CLOCK_HI)
			continue;
		uint64_t v = sreg_value(L, W, 0, s->sreg, s->comp);
		uint64_t *r = WEFT_SLOT(W, s->slot);
		for (int l = 0; l < 32; l++)
			r[l] = v;
	}
}

static int push(struct weft_emu_launch *L, struct weft_emu_warp *W, uint32_t pc, uint32_t rpc,
		uint32_t mask)
{
	if (W->sp == W->cap) {
		uint32_t nc = W->cap * 2;
		struct weft_emu_stack *s = realloc(W->stk, nc * sizeof(*s));
		if (!s)
			return weft_error_set(L->err, WEFT_ERR_NOMEM, "out of memory (SIMT stack) in kernel %s", L->kname);
		W->stk = s;
		W->cap = nc;
	}
	W->stk[W->sp].pc = pc;
	W->stk[W->sp].rpc = rpc;
	W->stk[W->sp].mask = mask;
	W->sp++;
	return 0;
}

/* Releases barrier id if everyone it waits for has arrived. */
static void bar_check(struct weft_emu_launch *L, uint32_t id)
{
	struct weft_emu_barrier *B = &L->bars[id];
	if (!B->arrived)
		return;
	uint32_t need = B->expected ? B->expected : L->live_threads;
	if (B->arrived < need)
		return;
	for (uint32_t w = 0; w < L->nwarps; w++) {
		struct weft_emu_warp *W = &L->warps[w];
		if (W->state != WEFT_WARP_BAR || W->bar_id != id)
			continue;
		W->state = WEFT_WARP_RUN;
		if (W->bar_dst >= 0) {
			uint64_t v = B->mode == WEFT_BAR_RED_POPC ? B->red_popc
				     : B->mode == WEFT_BAR_RED_AND ? B->red_and : B->red_or;
			uint64_t *d = WEFT_SLOT(W, W->bar_dst);
			WEFT_LANES(W->bar_mask, l, d[l] = v);
		}
	}
	memset(B, 0, sizeof(*B));
}

static void bars_check_all(struct weft_emu_launch *L)
{
	for (uint32_t i = 0; i < 16; i++)
		if (L->bars[i].arrived)
			bar_check(L, i);
}

static int do_exit(struct weft_emu_launch *L, struct weft_emu_warp *W, uint32_t lanes)
{
	W->exited |= lanes;
	for (uint32_t i = 0; i < W->sp; i++)
		W->stk[i].mask &= ~lanes;
	L->live_threads -= (uint32_t)weft_emu_popc32(lanes);
	bars_check_all(L);
	return 0;
}

static uint32_t lane_value(struct weft_emu_warp *W, int32_t slot, uint32_t mask)
{
	int l = mask ? __builtin_ctz(mask) : 0;
	return (uint32_t)WEFT_SLOT(W, slot)[l];
}

static int do_bar(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		  uint32_t pc, uint32_t g)
{
	int mode = ei->in.mode;
	int red = mode >= WEFT_BAR_RED_POPC;
	uint32_t id = ei->ns >= 1 ? lane_value(W, ei->s[0], g) : 0;
	uint32_t count = 0;
	if ((!red && ei->ns >= 2) || (red && ei->ns >= 3))
		count = lane_value(W, ei->s[1], g);
	if (id >= 16)
		return weft_emu_fault(L, W, g ? __builtin_ctz(g) : -1, ei, WEFT_ERR_RUNTIME,
				      "barrier number %u out of range (0..15)", id);
	struct weft_emu_barrier *B = &L->bars[id];
	if (!B->arrived) {
		B->pc = pc;
		B->expected = count;
		B->mode = (uint8_t)mode;
		B->red_and = 1;
	}
	B->arrived += (uint32_t)weft_emu_popc32(g);
	if (red) {
		const uint64_t *P = WEFT_SLOT(W, ei->s[ei->ns - 1]);
		uint32_t pm = 0;
		WEFT_LANES(g, l, pm |= (uint32_t)(P[l] & 1) << l);
		if ((ei->sneg >> (ei->ns - 1)) & 1)
			pm = ~pm & g;
		B->red_popc += (uint32_t)weft_emu_popc32(pm);
		if (pm != g)
			B->red_and = 0;
		if (pm)
			B->red_or = 1;
	}
	if (mode == WEFT_BAR_ARRIVE) {
		bar_check(L, id);
		return 0;
	}
	W->state = WEFT_WARP_BAR;
	W->bar_id = id;
	W->bar_mask = g;
	W->bar_dst = red ? ei->d[0] : -1;
	bar_check(L, id);
	return 0;
}

/* Reads a NUL-terminated string from device memory (at most len-1 chars). */
static void device_string(struct weft_emu_launch *L, uint64_t addr, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	while (n + 1 < len) {
		int i = weft_emu_alloc_find(L->ctx, addr + n, 1);
		if (i < 0)
			break;
		char c = (char)L->ctx->allocs[i].host[addr + n - L->ctx->allocs[i].base];
		if (!c)
			break;
		buf[n++] = c;
	}
	buf[n] = 0;
	if (!n)
		snprintf(buf, len, "?");
}

/* A failed device-side assert(): __assertfail's message, file and line. */
static int assert_failed(struct weft_emu_launch *L, struct weft_emu_warp *W, int lane,
			 const struct weft_emu_inst *ei)
{
	const uint8_t *frame = L->local + (size_t)(W->id * 32 + (uint32_t)lane) * L->local_bytes;
	uint64_t msg = 0, file = 0;
	uint32_t line = 0;
	if ((uint64_t)ei->aoff + 8 <= L->local_bytes && (uint64_t)ei->target + 8 <= L->local_bytes &&
	    (uint64_t)ei->reconv + 4 <= L->local_bytes) {
		memcpy(&msg, frame + ei->aoff, 8);
		memcpy(&file, frame + ei->target, 8);
		memcpy(&line, frame + ei->reconv, 4);
	}
	char m[200], f[200];
	device_string(L, msg, m, sizeof(m));
	device_string(L, file, f, sizeof(f));
	return weft_emu_fault(L, W, lane, ei, WEFT_ERR_RUNTIME, "device-side assert failed: `%s` (%s:%u)", m, f,
			      line);
}

/* The context's --max-thread-insts or the launch's instruction budget ran
 * out at ei of lane `lane` (ti: the context's count). */
static int out_of_insts(struct weft_emu_launch *L, const struct weft_emu_warp *W, int lane,
			const struct weft_emu_inst *ei, uint64_t ti)
{
	uint64_t limit = L->ctx->opts.max_thread_insts;
	if (L->in_worker) /* a parallel worker counts its CTA alone (emu_par.c) */
		ti += L->ti0;
	if (limit && ti > limit)
		return weft_emu_fault(L, W, lane, ei, WEFT_ERR_LIMIT,
				      "kernel %s exceeded --max-thread-insts %" PRIu64
				      " (thread instructions executed in this context; infinite loop?); "
				      "raise the limit if the kernel is just long",
				      L->kname, limit);
	/* what set the budget, which is what to raise */
	char from[300];
	if (L->budget_from)
		snprintf(from, sizeof(from), "%s", L->budget_from);
	else if (L->ctx->opts.max_launch_insts)
		snprintf(from, sizeof(from), "--max-launch-insts");
	else
		snprintf(from, sizeof(from), "--max-launch-insts, default %llu",
			 (unsigned long long)WEFT_DEFAULT_LAUNCH_INSTS);
	return weft_emu_fault(L, W, lane, ei, WEFT_ERR_LIMIT,
			      "kernel %s ran out of its launch's instruction budget of %" PRIu64
			      " thread instructions (%s) in CTA %u of %u: a loop that never ends? "
			      "If the kernel is just long, raise %s",
			      L->kname, L->budget, from, L->cta_linear, L->grid.x * L->grid.y * L->grid.z,
			      L->budget_from ? "it there" : "it with --max-launch-insts N");
}

static int run_warp(struct weft_emu_launch *L, struct weft_emu_warp *W, uint32_t quantum)
{
	const struct weft_emu_prog *P = L->prog;
	const struct weft_emu_inst *insts = P->insts;
	struct weft_ctx *ctx = L->ctx;
	struct weft_ctx_stats *cnt = L->cnt;
	int (*obs_fn)(void *, const struct weft_warp_event *, struct weft_error *) = L->obs_warp;
	uint64_t stop_at = L->stop_at;
	uint64_t ti = cnt->thread_insts, wi = cnt->warp_insts;
	int rc = 0;

	while (quantum && W->state == WEFT_WARP_RUN) {
		if (W->sp == 0) {
			W->state = WEFT_WARP_DONE;
			break;
		}
		struct weft_emu_stack *t = &W->stk[W->sp - 1];
		if (t->mask == 0 || t->pc == t->rpc) {
			W->sp--;
			continue;
		}
		uint32_t pc = t->pc;
		if (pc >= P->ninsts) {
			rc = weft_emu_fault(L, W, -1, NULL, WEFT_ERR_INTERNAL,
					    "internal error: warp %u ran past the end of the program (pc %u)", W->id, pc);
			break;
		}
		const struct weft_emu_inst *ei = &insts[pc];
		uint32_t mask = t->mask, g = mask;
		if (ei->guard >= 0) {
			const uint64_t *p = WEFT_SLOT(W, ei->guard);
			uint32_t gm = 0;
			WEFT_LANES(mask, l, gm |= (uint32_t)(p[l] & 1) << l);
			g = ei->in.guard_neg ? mask & ~gm : gm;
		}
		quantum--;
		wi++;
		ti += (uint32_t)weft_emu_popc32(g);
		L->clock++;
		W->insts++;
		if (ti > stop_at) {
			cnt->thread_insts = ti;
			cnt->warp_insts = wi;
			return out_of_insts(L, W, g ? __builtin_ctz(g) : __builtin_ctz(mask), ei, ti);
		}
		switch (ei->kind) {
		case WEFT_EK_ALU:
			if (g) {
				if (ei->reads_clock)
					refresh_clock(L, W);
				rc = ei->fn(L, W, ei, g);
			}
			t->pc = pc + 1;
			break;
		case WEFT_EK_BRA: {
			uint32_t nt = mask & ~g;
			if (nt == 0) {
				t->pc = ei->target;
			} else if (g == 0) {
				t->pc = pc + 1;
			} else {
				uint32_t r = ei->reconv;
				if (r == t->rpc) {
					t->pc = pc + 1;
					t->mask = nt;
				} else {
					t->pc = r;
					rc = push(L, W, pc + 1, r, nt);
				}
				if (!rc)
					rc = push(L, W, ei->target, r, g);
			}
			break;
		}
		case WEFT_EK_EXIT:
			if (g)
				do_exit(L, W, g);
			t = &W->stk[W->sp - 1];
			t->pc = pc + 1;
			break;
		case WEFT_EK_TRAP:
			if (g && ei->is_assert)
				rc = assert_failed(L, W, __builtin_ctz(g), ei);
			else if (g)
				rc = weft_emu_fault(L, W, __builtin_ctz(g), ei, WEFT_ERR_RUNTIME,
						    "trap instruction executed (the kernel aborted)");
			t->pc = pc + 1;
			break;
		case WEFT_EK_BAR:
			t->pc = pc + 1;
			if (g)
				rc = do_bar(L, W, ei, pc, g);
			break;
		case WEFT_EK_YIELD:
			t->pc = pc + 1;
			quantum = 0;
			break;
		default:
			t->pc = pc + 1;
			break;
		}
		if (rc)
			break;
		/* unlikely: the emulation alone, without an observer, ran 3 more
		 * instructions per warp instruction than before the want check
		 * without the hint, 1 more with it (callgrind, gaussian default:
		 * run_warp 106.0M, 109.4M, 107.2M) */
		if (__builtin_expect(obs_fn != NULL, 0) && (!L->want || pc >= L->want_n || L->want[pc])) {
			struct weft_warp_event ev;
			ev.func = P->kernel;
			ev.pc = pc;
			ev.inst = &ei->in;
			ev.cta_linear = L->cta_linear;
			ev.warp = W->id;
			ev.active = g;
			ev.guard_false = mask & ~g;
			ev.space = ei->has_addr ? W->addr_space : 0;
			ev.access_bytes = (uint8_t)(ei->elem_bytes *
						    (ei->in.op == WEFT_OP_ST ? ei->ns
						     : (ei->in.op == WEFT_OP_LD || ei->in.op == WEFT_OP_LDU) ? ei->nd
						     : (ei->in.op >= WEFT_OP_TEX && ei->in.op <= WEFT_OP_SUST) ? ei->in.vec
						     : 1));
			ev.addr = ei->has_addr && g ? W->addr : NULL;
			cnt->thread_insts = ti;
			cnt->warp_insts = wi;
			if (obs_fn(L->obs_user, &ev, L->err)) {
				rc = L->err && L->err->code ? L->err->code : WEFT_ERR_INPUT;
				if (L->err && !L->err->code)
					weft_error_set(L->err, WEFT_ERR_INPUT, "the trace observer stopped kernel %s", L->kname);
				break;
			}
		}
		if (wi >= L->next_progress) {
			L->next_progress = wi + PROGRESS_EVERY;
			if (ctx->opts.progress && !L->in_worker) {
				uint32_t total = L->grid.x * L->grid.y * L->grid.z;
				ctx->opts.progress(ctx->opts.progress_user, L->kname, L->cta_linear, total, ti);
			}
		}
	}
	cnt->thread_insts = ti;
	cnt->warp_insts = wi;
	if (!rc && W->state == WEFT_WARP_RUN && W->sp == 0)
		W->state = WEFT_WARP_DONE;
	return rc;
}

static int deadlock(struct weft_emu_launch *L)
{
	struct weft_emu_warp *W = NULL;
	uint32_t waiting = 0, other = 0;
	for (uint32_t w = 0; w < L->nwarps; w++)
		if (L->warps[w].state == WEFT_WARP_BAR) {
			if (!W)
				W = &L->warps[w];
			if (L->warps[w].bar_id == W->bar_id)
				waiting++;
			else
				other++;
		}
	if (!W)
		return weft_emu_fault(L, NULL, -1, NULL, WEFT_ERR_INTERNAL,
				      "internal error: no warp can run and none waits at a barrier");
	struct weft_emu_barrier *B = &L->bars[W->bar_id];
	uint32_t need = B->expected ? B->expected : L->live_threads;
	const struct weft_emu_inst *ei = &L->prog->insts[B->pc];
	return weft_emu_fault(L, W, __builtin_ctz(W->bar_mask), ei, WEFT_ERR_RUNTIME,
			      "partial barrier: barrier %u was reached by %u of the %u threads it waits for "
			      "(%u warp(s) wait there, %u at other barriers; %u thread(s) of the CTA exited); the "
			      "others can never arrive because they wait at another barrier or are on the other "
			      "side of a divergent branch (e.g. `if (tid < 16) __syncthreads();`). Make every "
			      "thread of the CTA reach the same barrier",
			      W->bar_id, B->arrived, need, waiting, other, L->nthreads - L->live_threads);
}

static int run_cta(struct weft_emu_launch *L, uint32_t quantum)
{
	for (;;) {
		int any = 0, alive = 0;
		for (uint32_t w = 0; w < L->nwarps; w++) {
			struct weft_emu_warp *W = &L->warps[w];
			if (W->state == WEFT_WARP_DONE)
				continue;
			alive = 1;
			if (W->state != WEFT_WARP_RUN)
				continue;
			any = 1;
			int rc = run_warp(L, W, quantum);
			if (rc)
				return rc;
		}
		if (!alive)
			return 0;
		if (!any)
			return deadlock(L);
	}
}

int weft_emu_launch_alloc(struct weft_emu_launch *L)
{
	const struct weft_emu_prog *P = L->prog;
	L->shared_cap = 0;
	L->shared = NULL; /* allocated as the CTA touches it (weft_emu_mem_slow) */
	L->acache = calloc(P->ninsts, sizeof(*L->acache));
	size_t per_warp = (size_t)P->nslots * 32;
	L->warps = calloc(L->nwarps, sizeof(*L->warps));
	L->regs = calloc((size_t)L->nwarps * per_warp, sizeof(uint64_t));
	L->local = calloc((size_t)L->nthreads * (L->local_bytes ? L->local_bytes : 1), 1);
	if (!L->warps || !L->regs || !L->local || !L->acache)
		return weft_error_set(L->err, WEFT_ERR_NOMEM,
				      "out of memory setting up kernel %s (%u threads per CTA, %u bytes of shared memory)",
				      L->kname, L->nthreads, L->shared_bytes);
	for (uint32_t w = 0; w < L->nwarps; w++) {
		struct weft_emu_warp *W = &L->warps[w];
		W->id = w;
		W->r = L->regs + w * per_warp;
		W->cap = 16;
		W->stk = malloc(W->cap * sizeof(*W->stk));
		if (!W->stk)
			return weft_error_set(L->err, WEFT_ERR_NOMEM, "out of memory setting up kernel %s", L->kname);
		uint32_t first = w * 32, n = L->nthreads - first > 32 ? 32 : L->nthreads - first;
		W->valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
		for (uint32_t i = 0; i < P->nconsts; i++) {
			uint64_t *r = WEFT_SLOT(W, P->consts[i].slot);
			for (int l = 0; l < 32; l++)
				r[l] = P->consts[i].value;
		}
		fill_sregs(L, W, 0);
	}
	return 0;
}

void weft_emu_launch_free(struct weft_emu_launch *L)
{
	if (L->warps)
		for (uint32_t w = 0; w < L->nwarps; w++)
			free(L->warps[w].stk);
	free(L->warps);
	free(L->acache);
	free(L->regs);
	free(L->shared);
	free(L->local);
	L->acache = NULL;
	L->regs = NULL;
	L->warps = NULL;
	L->shared = NULL;
	L->shared_cap = 0;
	L->local = NULL;
}

int weft_emu_cta(struct weft_emu_launch *L, uint32_t c, uint32_t quantum)
{
	L->cta_linear = c;
	L->ctaid[0] = c % L->grid.x;
	L->ctaid[1] = (c / L->grid.x) % L->grid.y;
	L->ctaid[2] = c / (L->grid.x * L->grid.y);
	/* shared memory starts zeroed in every CTA (what exists of it:
	 * the part earlier CTAs touched); local frames are
	 * zeroed once per launch (calloc) and not per CTA: they can be
	 * large (every inlined call has its own frame) and threads write
	 * before they read */
	if (L->shared_cap)
		memset(L->shared, 0, L->shared_cap);
	memset(L->bars, 0, sizeof(L->bars));
	L->live_threads = L->nthreads;
	for (uint32_t w = 0; w < L->nwarps; w++) {
		struct weft_emu_warp *W = &L->warps[w];
		W->exited = ~W->valid;
		W->carry = 0;
		W->state = WEFT_WARP_RUN;
		W->sp = 1;
		W->stk[0].pc = 0;
		W->stk[0].rpc = WEFT_EMU_NO_PC;
		W->stk[0].mask = W->valid;
		fill_sregs(L, W, 1);
	}
	return run_cta(L, quantum);
}

void weft_emu_obs_want(struct weft_emu_launch *L, const struct weft_emu_observer *obs)
{
	L->want = NULL;
	L->want_n = 0;
	if (obs && obs->launch_want && obs->launch_counts)
		L->want = obs->launch_want(obs->user, &L->want_n);
}

void weft_emu_obs_counts(struct weft_emu_launch *L, const struct weft_emu_observer *obs)
{
	if (obs && obs->launch_want && obs->launch_counts)
		obs->launch_counts(obs->user, L->ctx->stats.thread_insts - L->ti0,
				   L->ctx->stats.warp_insts - L->wi0);
}

int weft_emu_run_serial(struct weft_emu_launch *L)
{
	const struct weft_emu_prog *P = L->prog;
	struct weft_ctx *ctx = L->ctx;
	const struct weft_emu_observer *obs = ctx->opts.observer;
	uint32_t quantum = ctx->opts.quantum ? ctx->opts.quantum : 64;
	uint32_t total = L->grid.x * L->grid.y * L->grid.z;
	int rc;
	if ((rc = weft_emu_launch_alloc(L)))
		goto out;
	if (obs && obs->launch_begin &&
	    (rc = obs->launch_begin(obs->user, L->mod, P->kernel, L->grid, L->block, L->dyn_shared, L->err)))
		goto out;
	weft_emu_obs_want(L, obs);
	for (uint32_t c = 0; c < total; c++) {
		if (obs && obs->cta_begin && (rc = obs->cta_begin(obs->user, c, L->err)))
			goto out;
		rc = weft_emu_cta(L, c, quantum);
		if (rc)
			goto out;
		if (obs && obs->cta_end && (rc = obs->cta_end(obs->user, c, L->err)))
			goto out;
		ctx->stats.ctas++;
	}
	weft_emu_obs_counts(L, obs);
	if (obs && obs->launch_end && (rc = obs->launch_end(obs->user, L->err)))
		goto out;
out:
	weft_emu_launch_free(L);
	return rc;
}
