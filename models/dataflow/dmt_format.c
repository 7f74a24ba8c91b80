/*
 * dmt_format.c - the text report of the dMT communication analysis
 * (dmt_comm.h): dynamic operations SIMT against dMT by removal reason,
 * distance distribution with its CDF, the share within one token buffer,
 * cascaded elevators and spills, memory value reuse, a table per static
 * memory instruction (per-iteration distances included), what each barrier
 * orders, and the list of removable instructions. Writes into a
 * weft_sbuf: the library never prints.
 */
#include <stdio.h>

#include "common/sbuf.h"
#include "dmt_internal.h"

#define U64(x) ((unsigned long long)(x))

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static const char *role_name(uint8_t r)
{
	switch (r) {
	case WEFT_DMT_SH_LOAD: return "ld.shared";
	case WEFT_DMT_SH_STORE: return "st.shared";
	case WEFT_DMT_SH_ATOMIC: return "atom.shared";
	case WEFT_DMT_LOAD: return "ld";
	case WEFT_DMT_BAR: return "bar";
	default: return "";
	}
}

static void format_dist(const struct weft_dmt *d, struct weft_sbuf *b)
{
	const struct weft_dmt_totals *T = &d->tot;
	uint64_t comm = T->comm;
	weft_sbuf_printf(b, "\ncommunication distance (dTID = reader - writer; 0 = own store)\n");
	weft_sbuf_printf(b, "  %8s %12s %8s %9s %10s\n", "dTID", "instances", "share", "cdf|d|", "elevators");
	uint64_t all = comm + T->self;
	for (uint32_t i = 0; i < WEFT_DMT_NDIST; i++) {
		if (!T->hist[i])
			continue;
		int32_t dt = (int32_t)i - (int32_t)WEFT_DMT_MAX_DIST;
		uint32_t a = dt < 0 ? (uint32_t)-dt : (uint32_t)dt;
		if (dt)
			weft_sbuf_printf(b, "  %8d %12llu %7.2f%% %8.2f%% %10u\n", dt,
					 (unsigned long long)T->hist[i], pct(T->hist[i], all),
					 100.0 * weft_dmt_comm_cdf(d, a), weft_dmt_cascades(dt, d->prm.token_buffer));
		else
			weft_sbuf_printf(b, "  %8d %12llu %7.2f%% %9s %10s\n", dt,
					 (unsigned long long)T->hist[i], pct(T->hist[i], all), "-", "-");
	}
	weft_sbuf_printf(b, "  within one token buffer (|dTID| <= %u): %.2f%% of %llu communicating loads\n",
			 d->prm.token_buffer, pct(T->comm_within_buffer, comm), (unsigned long long)comm);
	weft_sbuf_printf(b, "  cascaded elevators needed:");
	for (uint32_t c = 1; c < WEFT_DMT_MAX_CASC; c++)
		if (T->casc_hist[c])
			weft_sbuf_printf(b, " %u: %.2f%%", c, pct(T->casc_hist[c], comm));
	weft_sbuf_printf(b, "\n  spilled to the %llu-byte live value cache (> %u elevators): %.2f%%\n",
			 (unsigned long long)d->prm.lvc_bytes, d->prm.max_cascade, pct(T->comm_spilled, comm));
}

static void format_insts(const struct weft_dmt *d, struct weft_sbuf *b)
{
	char txt[160];
	weft_sbuf_printf(b, "\nshared loads (mode = most common dTID; share of executed instances)\n");
	weft_sbuf_printf(b, "  %5s %10s %10s %10s %10s %6s %7s %5s %-9s %s\n", "pc", "exec", "comm", "self",
			 "nowriter", "mode", "share", "casc", "carried", "instruction");
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role != WEFT_DMT_SH_LOAD || !I->exec)
			continue;
		weft_program_format_inst(d->p, pc, txt, sizeof(txt));
		weft_sbuf_printf(b, "  %5u %10llu %10llu %10llu %10llu %6d %6.1f%% %5u %-9s %s\n", pc,
				 (unsigned long long)I->exec, (unsigned long long)I->comm,
				 (unsigned long long)I->self, (unsigned long long)I->nowriter, I->dtid,
				 100.0 * I->dtid_fraction, I->cascade,
				 I->spill ? "spill" : I->per_iter ? "per-iter" : I->elevator ? "elevator" : "no",
				 txt);
		if (I->per_iter) {
			int32_t dt[DMT_MAX_ITERS];
			uint32_t n = weft_dmt_iter_distances(d, pc, dt, DMT_MAX_ITERS);
			weft_sbuf_printf(b, "        per iteration (k-th execution): %u iterations, %.1f%% at their "
					 "distance, %u elevators; dTID", n, pct(I->iter_count, I->exec), I->elevators);
			for (uint32_t k = 0; k < n && k < DMT_MAX_ITERS; k++)
				weft_sbuf_printf(b, " %d", dt[k]);
			weft_sbuf_printf(b, "\n");
		}
	}
	weft_sbuf_printf(b, "\nmemory value reuse (eLSU forwarding; dTID to the previous thread loading the value)\n");
	if (d->tot.reuse_fwd) {
		weft_sbuf_printf(b, "  forwarding distances:");
		for (uint32_t i = WEFT_DMT_MAX_DIST + 1; i < WEFT_DMT_NDIST; i++)
			if (d->tot.reuse_hist[i])
				weft_sbuf_printf(b, " %u: %.2f%%", i - WEFT_DMT_MAX_DIST,
						 pct(d->tot.reuse_hist[i], d->tot.reuse_fwd));
		weft_sbuf_printf(b, "\n");
	}
	weft_sbuf_printf(b, "  %5s %10s %10s %10s %6s %7s %6s %s\n", "pc", "loads", "forwarded", "accesses",
			 "dTID", "share", "window", "instruction");
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		uint64_t n = I->reuse_fwd + I->reuse_groups;
		if (!I->reuse_fwd)
			continue;
		weft_program_format_inst(d->p, pc, txt, sizeof(txt));
		weft_sbuf_printf(b, "  %5u %10llu %10llu %10llu %6d %6.1f%% %6u %s\n", pc, (unsigned long long)n,
				 (unsigned long long)I->reuse_fwd, (unsigned long long)I->reuse_groups,
				 I->reuse_dtid, pct(I->reuse_dtid_count, I->reuse_fwd), I->reuse_window, txt);
	}
}

static void format_ops(const struct weft_dmt *d, struct weft_sbuf *b)
{
	struct weft_dmt_ops o;
	weft_dmt_ops(d, &o);
	weft_sbuf_printf(b, "dynamic operations (thread instructions executed, guard true): SIMT %llu, dMT %llu; "
			 "removed %llu (%.2f%%)\n", U64(o.simt), U64(o.dmt), U64(o.removed),
			 100.0 * o.removed_share);
	weft_sbuf_printf(b, "  removed by reason:");
	for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
		weft_sbuf_printf(b, " %s %llu (%.2f%%)%s", weft_dmt_removal_name(r), U64(o.by_reason[r]),
				 pct(o.by_reason[r], o.simt), r + 1 < WEFT_DMT_RM_COUNT ? "," : "\n");
	weft_sbuf_printf(b, "  memory accesses (not operations): shared %llu, removed %llu (%.2f%%); "
			 "loads %llu, forwarded by eLSUs at kept loads %llu (%.2f%%)\n",
			 U64(o.shared_accesses), U64(o.shared_removed), pct(o.shared_removed, o.shared_accesses),
			 U64(o.loads), U64(o.elsu_forwarded), pct(o.elsu_forwarded, o.loads));
}

/* What each executed barrier orders and the decision. */
static void format_bars(const struct weft_dmt *d, struct weft_sbuf *b)
{
	char txt[160];
	int any = 0;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role != WEFT_DMT_BAR || !I->exec)
			continue;
		if (!any++)
			weft_sbuf_printf(b, "\nbarriers (shared accesses in the epochs next to each)\n"
					 "  %5s %10s %5s %7s %-8s %s\n", "pc", "exec", "kept", "removed", "decision",
					 "why");
		uint32_t nk, nr, kpc;
		int gc;
		weft_dmt_barrier_orders(d, pc, &nk, &nr, &kpc, &gc);
		char why[200];
		if (I->removal)
			snprintf(why, sizeof(why), "orders only removed shared accesses");
		else if (gc)
			snprintf(why, sizeof(why), "orders a global access of one thread against another's");
		else if (nk) {
			weft_program_format_inst(d->p, kpc, txt, sizeof(txt));
			snprintf(why, sizeof(why), "orders kept pc %u: %s", kpc, txt);
		} else if (d->p->insts[pc].mode != WEFT_BAR_SYNC)
			snprintf(why, sizeof(why), "not a plain bar.sync (bar.red returns a value)");
		else
			snprintf(why, sizeof(why), "orders no shared access (not removed for communication)");
		weft_sbuf_printf(b, "  %5u %10llu %5u %7u %-8s %s\n", pc, U64(I->exec), nk, nr,
				 I->removal ? "removed" : "kept", why);
	}
}

void weft_dmt_format(const struct weft_dmt *d, struct weft_sbuf *b)
{
	const struct weft_dmt_totals *T = &d->tot;
	weft_sbuf_printf(b, "dMT communication: kernel %s, %llu CTAs, %llu threads\n", d->p->kernel,
			 (unsigned long long)T->ctas, (unsigned long long)T->threads);
	weft_sbuf_printf(b, "  token_buffer %u, max_cascade %u, min_fraction %.3g, lock-step width %u\n",
			 d->prm.token_buffer, d->prm.max_cascade, d->prm.min_fraction, d->prm.warp_width);
	format_ops(d, b);
	uint64_t rd = T->comm + T->self + T->nowriter;
	weft_sbuf_printf(b, "shared-load values: %llu; from another thread %llu (%.2f%%), own store %llu (%.2f%%), "
			 "no store %llu (%.2f%%); racy %llu, mixed writers %llu\n",
			 (unsigned long long)rd, (unsigned long long)T->comm, pct(T->comm, rd),
			 (unsigned long long)T->self, pct(T->self, rd), (unsigned long long)T->nowriter,
			 pct(T->nowriter, rd), (unsigned long long)T->racy, (unsigned long long)T->mixed);
	weft_sbuf_printf(b, "carried by elevators: %llu (%.2f%% of shared-load values), %u elevator nodes; "
			 "kept in the thread: %llu (%.2f%%)\n",
			 (unsigned long long)T->carried, pct(T->carried, rd), T->elevator_nodes,
			 (unsigned long long)T->local, pct(T->local, rd));
	if (T->per_iter_loads)
		weft_sbuf_printf(b, "loads carried with one distance per loop iteration (unrolled for their "
				 "elevators): %u\n", T->per_iter_loads);
	if (T->global_comm || T->global_order)
		weft_sbuf_printf(b, "global memory between threads of the CTA across barriers (they stay): "
				 "%llu loads of another thread's store, %llu stores after another thread's "
				 "access\n", (unsigned long long)T->global_comm, (unsigned long long)T->global_order);
	weft_sbuf_printf(b, "loads (global/const/shared): %llu; forwarded by eLSUs %llu (%.2f%%), "
			 "within one token buffer %.2f%% of those\n",
			 (unsigned long long)T->loads, (unsigned long long)T->reuse_fwd,
			 pct(T->reuse_fwd, T->loads), pct(T->reuse_within_buffer, T->reuse_fwd));
	if (T->comm || T->self)
		format_dist(d, b);
	format_insts(d, b);
	format_bars(d, b);
	weft_sbuf_printf(b, "\nremovable instructions: %llu of %llu thread instructions (%.2f%%)\n",
			 (unsigned long long)T->removed_total, (unsigned long long)T->thread_insts,
			 pct(T->removed_total, T->thread_insts));
	for (int r = 1; r < WEFT_DMT_RM_COUNT; r++)
		weft_sbuf_printf(b, "  %-15s %4u static %12llu dynamic\n", weft_dmt_removal_name(r),
				 T->removed_static[r], (unsigned long long)T->removed_dynamic[r]);
	char txt[160];
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (!I->removal)
			continue;
		weft_program_format_inst(d->p, pc, txt, sizeof(txt));
		weft_sbuf_printf(b, "  %5u %-15s %10llu %-11s %s\n", pc, weft_dmt_removal_name(I->removal),
				 (unsigned long long)I->exec, role_name(I->role), txt);
	}
}
