/*
 * dmt_finish.c - the decisions of the dMT communication analysis once all
 * CTAs are in (dmt_comm.h): each static instruction's role, the most
 * common distance of shared loads and of forwarded loads, which loads
 * elevators carry (and how many cascaded elevators, or a spill to the live
 * value cache), and which instructions become removable: carried loads,
 * the stores only they read, the barriers when all shared traffic is gone,
 * and the address arithmetic that only fed removed accesses (a greatest
 * fixed point over the def-use chains of models/analysis).
 */
#include <stdlib.h>
#include <string.h>

#include "models/analysis/analysis.h"
#include "models/dataflow/dmt_internal.h"

const char *weft_dmt_removal_name(enum weft_dmt_removal r)
{
	switch (r) {
	case WEFT_DMT_KEEP: return "keep";
	case WEFT_DMT_RM_ELEVATOR_LOAD: return "elevator-load";
	case WEFT_DMT_RM_ELEVATOR_STORE: return "elevator-store";
	case WEFT_DMT_RM_BARRIER: return "barrier";
	case WEFT_DMT_RM_ADDR_ARITH: return "addr-arith";
	default: return "?";
	}
}

uint32_t weft_dmt_cascades(int32_t dtid, uint32_t token_buffer)
{
	uint32_t a = dtid < 0 ? (uint32_t)(-(int64_t)dtid) : (uint32_t)dtid;
	if (!token_buffer)
		return 0;
	return (a + token_buffer - 1) / token_buffer;
}

double weft_dmt_comm_cdf(const struct weft_dmt *d, uint32_t dist)
{
	uint64_t in = 0, all = 0;
	for (uint32_t a = 1; a < WEFT_DMT_MAX_THREADS; a++) {
		all += d->tot.abs_hist[a];
		if (a <= dist)
			in += d->tot.abs_hist[a];
	}
	return all ? (double)in / (double)all : 0.0;
}

uint32_t weft_dmt_load_writers(const struct weft_dmt *d, uint32_t load_pc, uint32_t *store_pcs,
			       uint32_t max)
{
	const struct weft_dmt_scratch *s = d->s;
	if (!s || load_pc >= d->ninsts || s->memidx[load_pc] == UINT32_MAX)
		return 0;
	uint32_t j = s->memidx[load_pc], n = 0;
	for (uint32_t i = 0; i < s->nmem; i++) /* mempc is increasing */
		if (s->edge[(size_t)i * s->nmem + j]) {
			if (n < max)
				store_pcs[n] = s->mempc[i];
			n++;
		}
	return n;
}

/* Most common entry of h; ties go to the smaller |d|, then to d > 0.
 * Only d >= lo is considered. */
static int32_t hist_mode(const uint64_t *h, int32_t lo, uint64_t *count)
{
	int32_t best = 0;
	uint64_t bc = 0;
	*count = 0;
	if (!h)
		return 0;
	for (int32_t dd = lo; dd <= (int32_t)WEFT_DMT_MAX_DIST; dd++) {
		uint64_t n = h[dd + (int32_t)WEFT_DMT_MAX_DIST];
		if (!n)
			continue;
		int32_t ad = dd < 0 ? -dd : dd, ab = best < 0 ? -best : best;
		if (n > bc || (n == bc && (ad < ab || (ad == ab && dd > best)))) {
			best = dd;
			bc = n;
		}
	}
	*count = bc;
	return best;
}

static void set_roles(struct weft_dmt *d)
{
	const struct weft_program *p = d->p;
	struct weft_dmt_scratch *s = d->s;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		uint8_t k = s->kind[pc];
		if (k == DMT_K_NONE)
			continue;
		int shared;
		if (s->acc_all[pc])
			shared = s->acc_shared[pc] == s->acc_all[pc];
		else
			shared = p->insts[pc].space == WEFT_SPACE_SHARED;
		struct weft_dmt_inst *I = &d->inst[pc];
		if (shared)
			I->role = k == DMT_K_LOAD ? WEFT_DMT_SH_LOAD
				: k == DMT_K_STORE ? WEFT_DMT_SH_STORE : WEFT_DMT_SH_ATOMIC;
		else if (k == DMT_K_LOAD)
			I->role = WEFT_DMT_LOAD;
	}
}

/* 1 when use slot j of the memory instruction at pc reads only its address
 * register (not also a stored value or the guard). */
static int address_only_use(const struct weft_program *p, uint32_t pc, uint32_t j)
{
	const struct weft_inst *in = &p->insts[pc];
	int32_t reg = p->info[pc].uses[j];
	int32_t areg = WEFT_NO_REG;
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++)
		if (in->opnd[i].kind == WEFT_OPND_ADDR)
			areg = in->opnd[i].reg;
	if (areg < 0 || reg != areg || in->guard == reg)
		return 0;
	/* loads: operand 0 is the destination (a definition, not a use) */
	int first = in->op == WEFT_OP_LD || in->op == WEFT_OP_LDU ? 1 : 0;
	for (int i = first; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		if (o->kind == WEFT_OPND_REG && (o->reg == reg || o->reg2 == reg))
			return 0;
		if (o->kind == WEFT_OPND_VEC)
			for (int v = 0; v < o->nvec && v < 4; v++)
				if (o->vec_regs[v] == reg)
					return 0;
	}
	return 1;
}

/* Address arithmetic that only fed removed accesses' addresses. */
static int remove_addr_arith(struct weft_dmt *d, struct weft_error *err)
{
	const struct weft_program *p = d->p;
	struct weft_dom dom;
	struct weft_defuse du;
	int rc = weft_dom_build(p, &dom, err);
	if (rc)
		return rc;
	rc = weft_defuse_build(p, &dom, &du, err);
	if (rc) {
		weft_dom_free(&dom);
		return rc;
	}
	uint8_t *addr_use = calloc(du.nuses + 1, 1);
	uint8_t *cand = calloc(d->ninsts + 1, 1), *feeds = calloc(d->ninsts + 1, 1);
	if (!addr_use || !cand || !feeds) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		goto out;
	}
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		uint8_t r = d->inst[pc].removal;
		if (r == WEFT_DMT_RM_ELEVATOR_LOAD || r == WEFT_DMT_RM_ELEVATOR_STORE)
			for (uint32_t u = du.use_base[pc]; u < du.use_base[pc + 1]; u++)
				addr_use[u] = (uint8_t)address_only_use(p, pc, u - du.use_base[pc]);
		const struct weft_inst_info *ii = &p->info[pc];
		cand[pc] = (ii->cls == WEFT_IC_INT || ii->cls == WEFT_IC_FP || ii->cls == WEFT_IC_SFU) &&
			   ii->ndefs > 0 && !(ii->flags & (WEFT_II_ADDR | WEFT_II_CTRL)) &&
			   d->inst[pc].removal == WEFT_DMT_KEEP;
	}
	/* greatest fixed point: drop candidates with a use outside the set */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			if (!cand[pc])
				continue;
			for (uint32_t df = du.def_base[pc]; df < du.def_base[pc + 1] && cand[pc]; df++)
				for (uint32_t x = du.du_start[df]; x < du.du_start[df + 1]; x++) {
					uint32_t u = du.du[x];
					if (!addr_use[u] && !cand[du.use_pc[u]]) {
						cand[pc] = 0;
						changed = 1;
						break;
					}
				}
		}
	}
	/* ... that reach a removed address (not merely dead code) */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			if (!cand[pc] || feeds[pc])
				continue;
			for (uint32_t df = du.def_base[pc]; df < du.def_base[pc + 1] && !feeds[pc]; df++)
				for (uint32_t x = du.du_start[df]; x < du.du_start[df + 1]; x++) {
					uint32_t u = du.du[x];
					if (addr_use[u] || feeds[du.use_pc[u]]) {
						feeds[pc] = 1;
						changed = 1;
						break;
					}
				}
		}
	}
	for (uint32_t pc = 0; pc < d->ninsts; pc++)
		if (cand[pc] && feeds[pc])
			d->inst[pc].removal = WEFT_DMT_RM_ADDR_ARITH;
	rc = 0;
out:
	free(addr_use), free(cand), free(feeds);
	weft_defuse_free(&du);
	weft_dom_free(&dom);
	return rc;
}

static void totals(struct weft_dmt *d)
{
	struct weft_dmt_totals *T = &d->tot;
	uint32_t tb = d->prm.token_buffer;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role == WEFT_DMT_SH_LOAD)
			T->sh_loads += I->exec;
		if (I->role == WEFT_DMT_SH_STORE)
			T->sh_stores += I->exec;
		T->comm += I->comm, T->self += I->self, T->nowriter += I->nowriter;
		T->racy += I->racy, T->mixed += I->mixed;
		if (I->elevator && I->dtid)
			T->carried += I->dtid_count;
		if (I->elevator && !I->dtid)
			T->local += I->dtid_count;
		if (I->removal == WEFT_DMT_RM_ELEVATOR_LOAD)
			T->elevator_nodes += I->cascade;
		T->loads += I->reuse_fwd + I->reuse_groups;
		T->reuse_fwd += I->reuse_fwd;
		T->reuse_groups += I->reuse_groups;
		for (uint32_t b = 0; b < WEFT_DMT_NDIST; b++) {
			int32_t dt = (int32_t)b - (int32_t)WEFT_DMT_MAX_DIST;
			uint32_t a = dt < 0 ? (uint32_t)-dt : (uint32_t)dt;
			if (I->hist && I->hist[b]) {
				uint64_t n = I->hist[b];
				T->hist[b] += n;
				if (dt) {
					T->abs_hist[a] += n;
					if (a <= tb)
						T->comm_within_buffer += n;
					uint32_t cs = weft_dmt_cascades(dt, tb);
					T->casc_hist[cs] += n;
					if (cs > d->prm.max_cascade)
						T->comm_spilled += n;
				}
			}
			if (I->reuse_hist && I->reuse_hist[b]) {
				T->reuse_hist[b] += I->reuse_hist[b];
				if (a <= tb)
					T->reuse_within_buffer += I->reuse_hist[b];
			}
		}
		if (I->removal) {
			T->removed_static[I->removal]++;
			T->removed_dynamic[I->removal] += I->exec;
			T->removed_total += I->exec;
		}
	}
}

/* Clears what decide() computes; keeps what the CTAs accumulated. */
static void reset_decisions(struct weft_dmt *d)
{
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		struct weft_dmt_inst *I = &d->inst[pc];
		I->removal = WEFT_DMT_KEEP;
		I->elevator = I->spill = 0;
	}
	struct weft_dmt_totals *T = &d->tot;
	uint64_t ctas = T->ctas, threads = T->threads, ti = T->thread_insts, gc = T->global_comm;
	memset(T, 0, sizeof(*T));
	T->ctas = ctas, T->threads = threads, T->thread_insts = ti, T->global_comm = gc;
}

static int decide(struct weft_dmt *d, struct weft_error *err)
{
	struct weft_dmt_scratch *s = d->s;
	const struct weft_program *p = d->p;
	reset_decisions(d);
	set_roles(d);
	/* shared loads: distance and elevators */
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		struct weft_dmt_inst *I = &d->inst[pc];
		I->dtid = hist_mode(I->hist, -(int32_t)WEFT_DMT_MAX_DIST, &I->dtid_count);
		I->dtid_fraction = I->exec ? (double)I->dtid_count / (double)I->exec : 0.0;
		I->cascade = weft_dmt_cascades(I->dtid, d->prm.token_buffer);
		I->reuse_dtid = hist_mode(I->reuse_hist, 1, &I->reuse_dtid_count);
		if (I->role != WEFT_DMT_SH_LOAD || !I->exec || !I->dtid_count)
			continue;
		/* a share of the executed instances; the test uses integers so that
		 * a fraction of exactly min_fraction passes */
		if ((double)I->dtid_count >= d->prm.min_fraction * (double)I->exec - 1e-9) {
			I->elevator = 1;
			I->spill = I->cascade > d->prm.max_cascade;
			if (!I->spill)
				I->removal = WEFT_DMT_RM_ELEVATOR_LOAD;
		}
	}
	/* stores read only by carried loads */
	for (uint32_t i = 0; i < s->nmem; i++) {
		uint32_t pc = s->mempc[i];
		struct weft_dmt_inst *I = &d->inst[pc];
		if (I->role != WEFT_DMT_SH_STORE || !I->exec)
			continue;
		uint32_t readers = 0, carried = 0;
		for (uint32_t j = 0; j < s->nmem; j++) {
			if (!s->edge[(size_t)i * s->nmem + j])
				continue;
			readers++;
			carried += d->inst[s->mempc[j]].removal == WEFT_DMT_RM_ELEVATOR_LOAD;
		}
		if (readers && readers == carried)
			I->removal = WEFT_DMT_RM_ELEVATOR_STORE;
	}
	/* barriers: only when all shared traffic of the kernel is removed */
	uint32_t nshared = 0, nremoved = 0;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		if (!s->acc_shared[pc])
			continue;
		nshared++;
		nremoved += d->inst[pc].removal != WEFT_DMT_KEEP;
	}
	if (nshared && nshared == nremoved && !d->tot.global_comm)
		for (uint32_t pc = 0; pc < d->ninsts; pc++)
			if (s->is_bar[pc] && p->insts[pc].mode == WEFT_BAR_SYNC)
				d->inst[pc].removal = WEFT_DMT_RM_BARRIER;
	int rc = remove_addr_arith(d, err);
	if (rc)
		return rc;
	totals(d);
	return 0;
}

int weft_dmt_finish(struct weft_dmt *d, struct weft_error *err)
{
	if (!d->s || d->finished)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "dmt: weft_dmt_finish called twice");
	int rc = decide(d, err);
	if (!rc)
		d->finished = 1;
	return rc;
}

int weft_dmt_redecide(struct weft_dmt *d, const struct weft_dmt_params *prm, struct weft_error *err)
{
	if (!d->s || !d->finished)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "dmt: weft_dmt_redecide before weft_dmt_finish");
	int rc = dmt_params_check(prm, err);
	if (rc)
		return rc;
	if (prm->warp_width != d->prm.warp_width)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "dmt: warp_width %u differs from the %u the CTAs were replayed with; "
				      "analyse the trace again to change it",
				      prm->warp_width, d->prm.warp_width);
	d->prm = *prm;
	return decide(d, err);
}
