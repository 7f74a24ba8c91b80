/*
 * dmt_arith.c - the address arithmetic and boundary checks that only
 * served removed instructions (dmt_comm.h, reasons ADDR_ARITH and GUARD).
 *
 * Once the shared loads, their stores and the barriers are decided
 * (dmt_finish.c), one greatest fixed point over the def-use chains and the
 * control dependence of models/analysis decides what else goes:
 *
 *   candidates  value instructions (integer, float, special: compares,
 *               predicate logic, selects, movs, guarded or not) and
 *               conditional branches that are kept so far;
 *   vanishing   a removed store or barrier; a removed load whose defined
 *               values are only used as served below (a copy through
 *               shared memory: its value goes on into a removed store);
 *               a candidate still in the set;
 *   served use  an address operand of a removed memory instruction (the
 *               access is gone, the elevator needs no address); the guard
 *               of a vanishing instruction; any operand of a candidate in
 *               the set; the stored value of a removed store when the
 *               value comes from a removed load (the elevators pass it on).
 *
 * Start with every candidate in the set and drop, until nothing changes:
 * a value candidate with a use that is not served; a branch whose
 * control-dependent blocks (Ferrante-Ottenstein-Warren, both edges) hold
 * an instruction that is neither vanishing, an unconditional bra, nor the
 * branch itself; and mark a removed load as not vanishing when one of its
 * values has a use that is not served (an elevator edge that a kept
 * instruction consumes stays predicated as the load was, so its guard
 * stays, and so does any branch around it).
 *
 * What is left in the set goes: a value candidate that reaches the address
 * of a removed access is ADDR_ARITH; one that reaches only guards and
 * branch conditions is GUARD; a branch in the set is GUARD, with the
 * unconditional branches of the blocks it controlled and the values there
 * that feed only removed instructions. A value that reaches nothing
 * elsewhere (dead code) stays.
 */
#include <stdlib.h>
#include <string.h>

#include "models/analysis/analysis.h"
#include "dmt_internal.h"

/* Roles of a register in a use site. */
enum { U_ADDR = 1, U_GUARD = 2, U_VALUE = 4 };

static unsigned use_roles(const struct weft_program *p, uint32_t pc, int32_t reg)
{
	const struct weft_inst *in = &p->insts[pc];
	unsigned r = 0;
	int hd = weft_inst_has_dest(in);
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		if (i == 0 && hd)
			continue;
		if (o->kind == WEFT_OPND_ADDR && o->reg == reg)
			r |= U_ADDR;
		else if (o->kind == WEFT_OPND_REG && o->reg == reg)
			r |= U_VALUE;
		else if (o->kind == WEFT_OPND_VEC)
			for (int v = 0; v < o->nvec && v < 4; v++)
				if (o->vec_regs[v] == reg)
					r |= U_VALUE;
	}
	if (in->guard == reg)
		r |= U_GUARD;
	return r ? r : U_VALUE; /* unknown: the strictest role */
}

/* Kinds of instructions in the fixed point. */
enum { K_OTHER = 0, K_VAL, K_BR, K_UBR, K_RLOAD, K_RVAN };

struct arith {
	const struct weft_program *p;
	const struct weft_defuse *du;
	uint8_t *kind;      /* [ninsts] K_* */
	uint8_t *in;        /* [ninsts] candidate (K_VAL, K_BR) in the set, or K_RLOAD vanishing */
	uint8_t *role;      /* [nuses] U_* */
	uint32_t *rstart;   /* [nblocks + 1] region of the branch ending each block */
	uint32_t *region;   /* blocks */
};

static int vanishing(const struct arith *a, uint32_t c)
{
	return a->kind[c] == K_RVAN || (a->in[c] && a->kind[c] != K_OTHER && a->kind[c] != K_UBR);
}

static int removed_mem(const struct arith *a, uint32_t c)
{
	return a->kind[c] == K_RLOAD || (a->kind[c] == K_RVAN && (a->p->info[c].flags & WEFT_II_ADDR));
}

/* 1 when every use of every value pc defines is served. */
static int defs_served(const struct arith *a, const struct weft_dmt *d, uint32_t pc)
{
	const struct weft_defuse *du = a->du;
	for (uint32_t df = du->def_base[pc]; df < du->def_base[pc + 1]; df++)
		for (uint32_t x = du->du_start[df]; x < du->du_start[df + 1]; x++) {
			uint32_t u = du->du[x], c = du->use_pc[u];
			unsigned r = a->role[u];
			if (a->in[c] && (a->kind[c] == K_VAL || a->kind[c] == K_BR))
				continue;
			if ((r & U_ADDR) && !removed_mem(a, c))
				return 0;
			if ((r & U_GUARD) && !vanishing(a, c))
				return 0;
			if ((r & U_VALUE) && !(a->kind[pc] == K_RLOAD &&
					       d->inst[c].removal == WEFT_DMT_RM_ELEVATOR_STORE))
				return 0;
		}
	return 1;
}

static int region_vanishes(const struct arith *a, uint32_t br)
{
	const struct weft_program *p = a->p;
	uint32_t blk = p->block_of[br];
	for (uint32_t i = a->rstart[blk]; i < a->rstart[blk + 1]; i++) {
		const struct weft_block *b = &p->blocks[a->region[i]];
		for (uint32_t pc = b->first; pc < b->first + b->count; pc++)
			if (pc != br && a->kind[pc] != K_UBR && !vanishing(a, pc))
				return 0;
	}
	return 1;
}

/* Regions: the blocks control dependent on the branch that ends block a. */
static int build_regions(struct arith *a, const struct weft_cdep *cd, struct weft_error *err)
{
	uint32_t nb = a->p->nblocks;
	a->rstart = calloc((size_t)nb + 2, sizeof(uint32_t));
	a->region = malloc(((size_t)cd->ndeps + 1) * sizeof(uint32_t));
	uint32_t *fill = calloc((size_t)nb + 1, sizeof(uint32_t));
	if (!a->rstart || !a->region || !fill) {
		free(fill);
		return weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
	}
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t x = cd->start[b]; x < cd->start[b + 1]; x++)
			a->rstart[cd->deps[x].branch + 1]++;
	for (uint32_t b = 0; b < nb; b++)
		a->rstart[b + 1] += a->rstart[b];
	/* a block may depend on both edges of one branch: listed twice, harmless */
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t x = cd->start[b]; x < cd->start[b + 1]; x++) {
			uint32_t br = cd->deps[x].branch;
			a->region[a->rstart[br] + fill[br]++] = b;
		}
	free(fill);
	return 0;
}

static void classify(struct arith *a, const struct weft_dmt *d)
{
	const struct weft_program *p = a->p;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		uint8_t r = d->inst[pc].removal;
		uint8_t k = K_OTHER;
		if (r == WEFT_DMT_RM_ELEVATOR_LOAD)
			k = K_RLOAD;
		else if (r)
			k = K_RVAN;
		else if (in->op == WEFT_OP_BRA)
			k = in->guard != WEFT_NO_REG ? K_BR : K_UBR;
		else if ((ii->cls == WEFT_IC_INT || ii->cls == WEFT_IC_FP || ii->cls == WEFT_IC_SFU) &&
			 ii->ndefs > 0 && !(ii->flags & (WEFT_II_ADDR | WEFT_II_CTRL)))
			k = K_VAL;
		a->kind[pc] = k;
		a->in[pc] = k == K_VAL || k == K_BR || k == K_RLOAD;
	}
}

static void fixed_point(struct arith *a, const struct weft_dmt *d)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			if (!a->in[pc])
				continue;
			int keep = a->kind[pc] == K_BR ? region_vanishes(a, pc) : defs_served(a, d, pc);
			if (!keep) {
				a->in[pc] = 0;
				changed = 1;
			}
		}
	}
}

/* Which values in the set reach a removed address (bit 1) or a guard or
 * branch condition that goes (bit 2). */
static void reach(const struct arith *a, const struct weft_dmt *d, uint8_t *feeds)
{
	const struct weft_defuse *du = a->du;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			if (a->kind[pc] != K_VAL || !a->in[pc] || feeds[pc] == 3)
				continue;
			uint8_t f = feeds[pc];
			for (uint32_t df = du->def_base[pc]; df < du->def_base[pc + 1]; df++)
				for (uint32_t x = du->du_start[df]; x < du->du_start[df + 1]; x++) {
					uint32_t u = du->du[x], c = du->use_pc[u];
					unsigned r = a->role[u];
					if (a->kind[c] == K_VAL && a->in[c])
						f |= feeds[c];
					else if (a->kind[c] == K_BR && a->in[c])
						f |= 2;
					else {
						if ((r & U_ADDR) && removed_mem(a, c))
							f |= 1;
						if ((r & U_GUARD) && vanishing(a, c))
							f |= 2;
					}
				}
			if (f != feeds[pc]) {
				feeds[pc] = f;
				changed = 1;
			}
		}
	}
}

/* 1 when every use of pc's values is in a removed instruction. */
static int uses_removed(const struct arith *a, const struct weft_dmt *d, uint32_t pc)
{
	const struct weft_defuse *du = a->du;
	for (uint32_t df = du->def_base[pc]; df < du->def_base[pc + 1]; df++)
		for (uint32_t x = du->du_start[df]; x < du->du_start[df + 1]; x++)
			if (!d->inst[du->use_pc[du->du[x]]].removal)
				return 0;
	return 1;
}

static void mark(const struct arith *a, struct weft_dmt *d, const uint8_t *feeds)
{
	const struct weft_program *p = a->p;
	for (uint32_t pc = 0; pc < d->ninsts; pc++) {
		if (a->kind[pc] == K_BR && a->in[pc])
			d->inst[pc].removal = WEFT_DMT_RM_GUARD;
		else if (a->kind[pc] == K_VAL && a->in[pc] && feeds[pc])
			d->inst[pc].removal = feeds[pc] & 1 ? WEFT_DMT_RM_ADDR_ARITH : WEFT_DMT_RM_GUARD;
	}
	/* what a removed branch controlled: its jumps, and values that feed
	 * nothing kept (dead code under the guard) */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t pc = 0; pc < d->ninsts; pc++) {
			if (a->kind[pc] != K_BR || !a->in[pc])
				continue;
			uint32_t blk = p->block_of[pc];
			for (uint32_t i = a->rstart[blk]; i < a->rstart[blk + 1]; i++) {
				const struct weft_block *b = &p->blocks[a->region[i]];
				for (uint32_t x = b->first; x < b->first + b->count; x++) {
					if (d->inst[x].removal)
						continue;
					if (a->kind[x] == K_UBR ||
					    (a->kind[x] == K_VAL && a->in[x] && uses_removed(a, d, x))) {
						d->inst[x].removal = WEFT_DMT_RM_GUARD;
						changed = 1;
					}
				}
			}
		}
	}
}

int weft_dmt_remove_arith(struct weft_dmt *d, struct weft_error *err)
{
	const struct weft_program *p = d->p;
	struct weft_dom dom;
	struct weft_defuse du;
	struct weft_cdep cd;
	struct arith a;
	memset(&a, 0, sizeof(a));
	int rc = weft_dom_build(p, &dom, err);
	if (rc)
		return rc;
	rc = weft_defuse_build(p, &dom, &du, err);
	if (rc) {
		weft_dom_free(&dom);
		return rc;
	}
	rc = weft_cdep_build(p, &cd, err);
	if (rc) {
		weft_defuse_free(&du);
		weft_dom_free(&dom);
		return rc;
	}
	uint8_t *feeds = calloc((size_t)d->ninsts + 1, 1);
	a.p = p;
	a.du = &du;
	a.kind = calloc((size_t)d->ninsts + 1, 1);
	a.in = calloc((size_t)d->ninsts + 1, 1);
	a.role = calloc((size_t)du.nuses + 1, 1);
	if (!feeds || !a.kind || !a.in || !a.role) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "dmt: out of memory");
		goto out;
	}
	if ((rc = build_regions(&a, &cd, err)))
		goto out;
	for (uint32_t u = 0; u < du.nuses; u++) {
		uint32_t pc = du.use_pc[u];
		a.role[u] = (uint8_t)use_roles(p, pc, p->info[pc].uses[u - du.use_base[pc]]);
	}
	classify(&a, d);
	fixed_point(&a, d);
	reach(&a, d, feeds);
	mark(&a, d, feeds);
	rc = 0;
out:
	free(feeds), free(a.kind), free(a.in), free(a.role), free(a.rstart), free(a.region);
	weft_cdep_free(&cd);
	weft_defuse_free(&du);
	weft_dom_free(&dom);
	return rc;
}
