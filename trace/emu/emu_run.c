/*
 * emu_run.c - weft_emu_run: a launch's counts and instruction budget, then
 * its CTAs on one thread (emu_exec.c) or, when the context allows several
 * and the kernel and the observer allow it, on several (emu_par.c).
 */
#include "emu.h"

int weft_emu_run(struct weft_emu_launch *L)
{
	const struct weft_emu_prog *P = L->prog;
	struct weft_ctx *ctx = L->ctx;
	const struct weft_emu_observer *obs = ctx->opts.observer;

	L->nthreads = L->block.x * L->block.y * L->block.z;
	L->nwarps = (L->nthreads + 31) / 32;
	/* both at most WEFT_MAX_SHARED_BYTES (weft_launch, weft_emu_link) */
	L->shared_bytes = P->shared_dyn_offset + L->dyn_shared;
	L->local_bytes = P->local_bytes;
	L->next_progress = ctx->stats.warp_insts + WEFT_EMU_PROGRESS_EVERY;
	L->cnt = &ctx->stats;
	L->obs_warp = obs ? obs->warp_inst : NULL;
	L->obs_user = obs ? obs->user : NULL;
	L->want = NULL; /* until the observer's launch_want, after launch_begin */
	L->want_n = 0;
	L->wi0 = ctx->stats.warp_insts;
	/* the instruction budget: stop once the context's count passes stop_at */
	uint64_t budget = L->budget ? L->budget : WEFT_DEFAULT_LAUNCH_INSTS;
	L->budget = budget;
	L->ti0 = ctx->stats.thread_insts;
	L->stop_at = budget > UINT64_MAX - L->ti0 ? UINT64_MAX : L->ti0 + budget;
	if (ctx->opts.max_thread_insts && ctx->opts.max_thread_insts < L->stop_at)
		L->stop_at = ctx->opts.max_thread_insts;
	uint32_t total = L->grid.x * L->grid.y * L->grid.z;
	const char *why;
	if (ctx->opts.jobs > 1 && total > 1 && weft_emu_par_safe(P, ctx->opts.print != NULL, &why) &&
	    (!obs || (obs->worker_open && obs->worker_cta_begin && obs->worker_warp_inst && obs->worker_cta_end &&
		      obs->cta_commit && obs->worker_close)))
		return weft_emu_run_par(L, ctx->opts.jobs);
	return weft_emu_run_serial(L);
}
