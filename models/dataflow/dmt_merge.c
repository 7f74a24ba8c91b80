/*
 * dmt_merge.c - analyses of disjoint sets of a launch's CTAs joined into
 * one (dmt_comm.h). The per-CTA passes (dmt_comm.c) depend only on the
 * CTA, the program and the parameters, and what they add to an analysis
 * is sums (instances, histograms, the per-iteration table), maxima (reuse
 * windows) and set bits (store -> load edges, what each barrier orders).
 * So the CTAs of a launch can be analysed on several threads, each into an
 * analysis of its own, and joined afterwards: the result is the one
 * weft_dmt_add_cta of every CTA on a single analysis gives, in any order
 * (weft_dmt_analyse_launch). A join scans whole tables; it runs once per
 * thread and launch, not per CTA.
 */
#include <string.h>

#include "dmt_internal.h"

/* adds histogram *from (NULL: none) to *to; where *to has none yet, *from
 * moves there (a join holds no second copy of a histogram) */
static void hist_merge(uint64_t **to, uint64_t **from)
{
	if (!*from)
		return;
	if (!*to) {
		*to = *from;
		*from = NULL;
		return;
	}
	for (uint32_t b = 0; b < WEFT_DMT_NDIST; b++)
		(*to)[b] += (*from)[b];
}

int weft_dmt_merge(struct weft_dmt *d, struct weft_dmt *part, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_dmt_scratch *ps = part->s;
	if (!s || !ps || d->finished || part->finished || d->p != part->p || d->ninsts != part->ninsts ||
	    d->prm.warp_width != part->prm.warp_width)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "dmt: weft_dmt_merge of a finished analysis or of another kernel's");
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		struct weft_dmt_inst *P = &part->inst[pc];
		if (!P->exec)
			continue; /* nothing else is counted for an instruction never executed */
		struct weft_dmt_inst *I = &d->inst[pc];
		I->exec += P->exec;
		I->comm += P->comm, I->self += P->self, I->nowriter += P->nowriter;
		I->mixed += P->mixed, I->racy += P->racy;
		I->reuse_fwd += P->reuse_fwd, I->reuse_groups += P->reuse_groups;
		if (P->reuse_window > I->reuse_window)
			I->reuse_window = P->reuse_window;
		s->acc_all[pc] += ps->acc_all[pc];
		s->acc_shared[pc] += ps->acc_shared[pc];
		hist_merge(&I->hist, &P->hist);
		hist_merge(&I->reuse_hist, &P->reuse_hist);
	}
	size_t nedge = (size_t)s->nmem * s->nmem, nadj = (size_t)s->nbar * s->nmem;
	for (size_t i = 0; i < nedge; i++)
		s->edge[i] |= ps->edge[i];
	for (size_t i = 0; i < nadj; i++)
		s->bar_adj[i] |= ps->bar_adj[i];
	for (uint32_t b = 0; b < s->nbar; b++)
		s->bar_gcomm[b] |= ps->bar_gcomm[b];
	d->tot.thread_insts += part->tot.thread_insts;
	d->tot.ctas += part->tot.ctas;
	d->tot.threads += part->tot.threads;
	d->tot.global_comm += part->tot.global_comm;
	d->tot.global_order += part->tot.global_order;
	if (weft_dmt_iter_merge(s, ps, d->ninsts))
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory joining the per-iteration tables");
	return 0;
}
