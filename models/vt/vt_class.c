/*
 * vt_class.c - the static side of the vt model: what a vector-thread
 * compiler would hoist to the control processor (CP), which lane unit and
 * latency each instruction has, how many registers a microthread (uT)
 * needs and the hardware vector length that follows, and the small cost
 * functions of the lanes, the coalescer and the MIMD interleaving
 * (docs/models/vt.md gives each rule with its source).
 *
 * Hoisting, from the uniformity/affine analysis (models/analysis):
 *   - a value uniform over the launch or the CTA is computed once per
 *     stripmine on the CP (VT_K_CP); a load from a uniform address is a CP
 *     scalar load (VT_K_CP_LOAD);
 *   - a load or store whose address is affine in the thread index is a
 *     vector memory operation: unit-stride when the stride in tid.x equals
 *     the access size (VT_K_VUNIT), strided otherwise (VT_K_VSTRIDE);
 *   - an affine value whose every reader is hoisted or is the address of a
 *     vector memory operation is CP address arithmetic (the CP computes the
 *     base of each stripmine); an affine value a uT reads is a uT value;
 *   - everything else is a uT instruction; a branch whose condition is not
 *     uniform is a uT branch (VT) or a flag operation (vector-SIMD).
 * Atomics and stores to a uniform address stay uT accesses. Nothing inside
 * a loop whose exit is divergent (trip counts differ between threads) is
 * hoisted: its instructions are uT instructions and its accesses uT
 * accesses.
 */
#include <stdlib.h>
#include <string.h>

#include "vt.h"
#include "models/analysis/analysis.h"

const char *const weft_vt_kind_names[VT_K_COUNT] = {
	"cp", "cp_load", "vector_unit_stride", "vector_strided", "ut", "ut_mem", "ut_branch",
};

static int uniform_cls(uint8_t c)
{
	return c == WEFT_UC_CONST || c == WEFT_UC_LAUNCH || c == WEFT_UC_CTA;
}

static int32_t addr_reg(const struct weft_inst *in)
{
	for (uint32_t j = 0; j < in->nopnd && j < WEFT_PTX_MAX_OPERANDS; j++)
		if (in->opnd[j].kind == WEFT_OPND_ADDR)
			return in->opnd[j].reg;
	return WEFT_NO_REG;
}

static void unit_of(const struct weft_inst *in, const struct weft_inst_info *ii, struct vt_pcinfo *pi)
{
	enum weft_fu_op fu = weft_fu_op_of(in, ii);
	pi->fu = (uint8_t)fu;
	pi->unit = VT_U_ARITH;
	switch (fu) {
	case WEFT_FU_INT_ALU:
		pi->unit = VT_U_INT;
		pi->lat = VT_LAT_INT;
		break;
	case WEFT_FU_INT_MUL:
		pi->lat = VT_LAT_INT_MUL;
		break;
	case WEFT_FU_INT_DIV:
		pi->lat = VT_LAT_INT_DIV;
		break;
	case WEFT_FU_FP32_ADD:
	case WEFT_FU_FP64:
		pi->lat = VT_LAT_FP_ADD;
		break;
	case WEFT_FU_FP32_MUL:
	case WEFT_FU_FP32_FMA:
		pi->lat = VT_LAT_FP_MUL;
		break;
	case WEFT_FU_SFU:
		pi->lat = (in->op == WEFT_OP_DIV || in->op == WEFT_OP_RCP) ? VT_LAT_FP_DIV : VT_LAT_FP_SQRT;
		break;
	default:
		pi->lat = VT_LAT_INT;
		if (ii->cls == WEFT_IC_LOAD || ii->cls == WEFT_IC_ATOMIC) {
			pi->unit = VT_U_LOAD;
			pi->lat = VT_LAT_LOAD;
		} else if (ii->cls == WEFT_IC_STORE) {
			pi->unit = VT_U_STORE;
		} else {
			pi->unit = VT_U_NONE;
		}
	}
	pi->is_store = ii->cls == WEFT_IC_STORE;
}

void weft_vt_prog_free(struct vt_prog *vp)
{
	free(vp->pc);
	memset(vp, 0, sizeof(*vp));
}

/* The analyses the tables are read from: dominators, loops and the
 * uniformity of p's values. */
struct vt_flow {
	struct weft_dom dom;
	struct weft_loops loops;
	struct weft_uniform u;
};

static void flow_free(struct vt_flow *f)
{
	weft_uniform_free(&f->u);
	weft_loops_free(&f->loops);
	weft_dom_free(&f->dom);
}

/* Builds f for p (on a launch grid of nctaid[3] CTAs, or NULL for the
 * program alone); flow_free frees it, after a failure too. */
static int flow_build(const struct weft_program *p, const uint32_t *nctaid, struct vt_flow *f,
		      struct weft_error *err)
{
	memset(f, 0, sizeof(*f));
	int rc = weft_dom_build(p, &f->dom, err);
	if (!rc)
		rc = weft_loops_build(p, &f->dom, &f->loops, err);
	if (!rc)
		rc = nctaid ? weft_uniform_build_grid(p, &f->dom, &f->loops, nctaid, &f->u, err)
			    : weft_uniform_build(p, &f->dom, &f->loops, &f->u, err);
	return rc;
}

int weft_vt_prog_build(const struct weft_program *p, struct vt_prog *vp, struct weft_error *err)
{
	memset(vp, 0, sizeof(*vp));
	struct vt_flow f;
	struct weft_liveness lv;
	memset(&lv, 0, sizeof(lv));
	uint8_t *needed = NULL;
	int rc = flow_build(p, NULL, &f, err);
	if (!rc)
		rc = weft_liveness_build(p, &f.dom, &lv, err);
	if (!rc) {
		vp->pc = calloc((size_t)p->ninsts + 1, sizeof(*vp->pc));
		needed = calloc((size_t)p->nregs + 1, 1);
		if (!vp->pc || !needed)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s's vt tables",
					    p->kernel);
	}
	if (rc)
		goto out;
	vp->ninsts = p->ninsts;
	vp->live_words = lv.max_words;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		const struct weft_uinst *ui = &f.u.inst[pc];
		struct vt_pcinfo *pi = &vp->pc[pc];
		unit_of(in, ii, pi);
		for (uint32_t k = 0; k < ii->nuses; k++)
			if (ii->uses[k] != in->guard)
				pi->sreads++;
		pi->writes = ii->ndefs;
		int guard_ok = !ui->guard_cls || uniform_cls(ui->guard_cls);
		if (ui->is_mem) {
			if (ii->cls == WEFT_IC_ATOMIC)
				pi->kind = VT_K_UT_MEM;
			else if (uniform_cls(ui->addr_cls))
				pi->kind = (ii->cls == WEFT_IC_LOAD && guard_ok) ? VT_K_CP_LOAD : VT_K_UT_MEM;
			else if (ui->addr_cls == WEFT_UC_AFFINE)
				pi->kind = ui->unit_stride ? VT_K_VUNIT : VT_K_VSTRIDE;
			else
				pi->kind = VT_K_UT_MEM;
		} else if (ii->cls == WEFT_IC_BRANCH) {
			pi->kind = ui->divergent ? VT_K_UT_BRANCH : VT_K_CP;
		} else if ((uniform_cls(ui->cls) || ui->cls == WEFT_UC_AFFINE) && guard_ok) {
			pi->kind = VT_K_CP; /* affine: revisited below */
		} else if (ui->cls == WEFT_UC_NONE && guard_ok && pi->unit == VT_U_NONE) {
			pi->kind = VT_K_CP; /* barriers, fences: control-thread work */
		} else {
			pi->kind = VT_K_UT;
		}
	}
	/* inside a loop whose trip count differs between threads nothing is
	 * hoisted: the CP cannot run the loop for the whole vector, and
	 * values carried around it differ between uTs */
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		uint32_t b = p->block_of[pc];
		uint32_t l = b < f.loops.nblocks ? f.loops.innermost[b] : WEFT_NO_LOOP;
		int div = 0;
		for (; l != WEFT_NO_LOOP && !div; l = f.loops.loops[l].parent)
			div = f.u.loop_divergent[l];
		if (!div)
			continue;
		struct vt_pcinfo *pi = &vp->pc[pc];
		if (pi->kind == VT_K_CP)
			pi->kind = p->info[pc].cls == WEFT_IC_BRANCH ? VT_K_UT_BRANCH : VT_K_UT;
		else if (pi->kind == VT_K_CP_LOAD || pi->kind == VT_K_VUNIT || pi->kind == VT_K_VSTRIDE)
			pi->kind = VT_K_UT_MEM;
	}
	/* affine values a uT reads stay uT values (to a fixed point) */
	for (int changed = 1; changed;) {
		changed = 0;
		memset(needed, 0, (size_t)p->nregs + 1);
		for (uint32_t pc = 0; pc < p->ninsts; pc++) {
			const struct weft_inst_info *ii = &p->info[pc];
			uint8_t k = vp->pc[pc].kind;
			if (k == VT_K_CP || k == VT_K_CP_LOAD)
				continue;
			int32_t areg = (k == VT_K_VUNIT || k == VT_K_VSTRIDE) ? addr_reg(&p->insts[pc])
									       : WEFT_NO_REG;
			for (uint32_t j = 0; j < ii->nuses; j++) {
				int32_t r = ii->uses[j];
				if (r >= 0 && (uint32_t)r < p->nregs && r != areg)
					needed[r] = 1;
			}
		}
		for (uint32_t pc = 0; pc < p->ninsts; pc++) {
			const struct weft_inst_info *ii = &p->info[pc];
			if (vp->pc[pc].kind != VT_K_CP || f.u.inst[pc].cls != WEFT_UC_AFFINE)
				continue;
			for (uint32_t j = 0; j < ii->ndefs; j++) {
				int32_t r = ii->defs[j];
				if (r >= 0 && (uint32_t)r < p->nregs && needed[r]) {
					vp->pc[pc].kind = VT_K_UT;
					changed = 1;
					break;
				}
			}
		}
	}
	/* vector register reads: sources some non-hoisted instruction defines */
	memset(needed, 0, (size_t)p->nregs + 1);
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst_info *ii = &p->info[pc];
		if (vp->pc[pc].kind == VT_K_CP || vp->pc[pc].kind == VT_K_CP_LOAD)
			continue;
		for (uint32_t j = 0; j < ii->ndefs; j++)
			if (ii->defs[j] >= 0 && (uint32_t)ii->defs[j] < p->nregs)
				needed[ii->defs[j]] = 1;
	}
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst_info *ii = &p->info[pc];
		for (uint32_t k = 0; k < ii->nuses; k++) {
			int32_t r = ii->uses[k];
			if (r != p->insts[pc].guard && r >= 0 && (uint32_t)r < p->nregs && needed[r])
				vp->pc[pc].reads++;
		}
	}
	/* does the next instruction of the block read a result? */
	for (uint32_t pc = 0; pc + 1 < p->ninsts; pc++) {
		const struct weft_inst_info *a = &p->info[pc], *b = &p->info[pc + 1];
		if (a->block != b->block)
			continue;
		for (uint32_t i = 0; i < a->ndefs && !vp->pc[pc].dep_next; i++)
			for (uint32_t j = 0; j < b->nuses; j++)
				if (a->defs[i] == b->uses[j]) {
					vp->pc[pc].dep_next = 1;
					break;
				}
	}
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_uinst *ui = &f.u.inst[pc];
		struct vt_pcinfo *pi = &vp->pc[pc];
		vp->kinds[pi->kind]++;
		/* a value or address uniform over each CTA: a strip spanning
		 * two CTAs has two of them */
		pi->cta_uni = (pi->kind == VT_K_CP && ui->cls == WEFT_UC_CTA) ||
			      (pi->kind == VT_K_CP_LOAD && ui->addr_cls == WEFT_UC_CTA);
		pi->uni_load = p->info[pc].cls == WEFT_IC_LOAD &&
			       (in->space == WEFT_SPACE_PARAM || (ui->is_mem && uniform_cls(ui->addr_cls)));
		if (in->op == WEFT_OP_BAR || in->space == WEFT_SPACE_SHARED ||
		    p->info[pc].space == WEFT_SPACE_SHARED)
			vp->cta_scope = 1;
	}
	if (p->shared_static_bytes)
		vp->cta_scope = 1;
out:
	free(needed);
	weft_liveness_free(&lv);
	flow_free(&f);
	if (rc)
		weft_vt_prog_free(vp);
	return rc;
}

/* Whether the load at pc reads, in every CTA of the launch, the memory
 * its thread of the same index reads in every other: a parameter, or an
 * address outside shared and local memory that is a known or
 * launch-uniform base plus known or launch-uniform multiples of tid (no
 * ctaid, no loaded per-thread data). A generic load may still reach
 * shared memory: the replay checks the space it took (vt_replay.c). */
static int same_in_every_cta(const struct weft_program *p, const struct weft_uinst *ui, uint32_t pc)
{
	if (p->info[pc].cls != WEFT_IC_LOAD)
		return 0;
	/* shared and local memory are each CTA's (each thread's) own */
	uint8_t sp = p->insts[pc].space;
	if (sp == WEFT_SPACE_SHARED || sp == WEFT_SPACE_LOCAL || p->info[pc].space == WEFT_SPACE_SHARED ||
	    p->info[pc].space == WEFT_SPACE_LOCAL)
		return 0;
	if (sp == WEFT_SPACE_PARAM)
		return 1;
	if (!ui->is_mem)
		return 0;
	if (ui->addr.form != WEFT_U_UNIFORM && ui->addr.form != WEFT_U_AFFINE)
		return 0;
	return ui->addr.level <= WEFT_UL_LAUNCH;
}

int weft_vt_prog_launch_loads(const struct weft_program *p, const uint32_t nctaid[3], struct vt_prog *vp,
			      struct weft_error *err)
{
	struct vt_flow f;
	int rc = flow_build(p, nctaid, &f, err);
	if (!rc)
		for (uint32_t pc = 0; pc < p->ninsts && pc < vp->ninsts; pc++)
			vp->pc[pc].launch_load = (uint8_t)same_in_every_cta(p, &f.u.inst[pc], pc);
	flow_free(&f);
	return rc;
}

uint32_t weft_vt_regs_per_ut(const struct vt_params *pp, uint32_t live_words)
{
	uint32_t r = live_words;
	if (r < pp->min_regs_per_ut)
		r = pp->min_regs_per_ut;
	if (r > pp->max_regs_per_ut)
		r = pp->max_regs_per_ut;
	return r ? r : 1;
}

uint32_t weft_vt_hvl(const struct vt_params *pp, uint32_t regs_per_ut)
{
	uint64_t v = (uint64_t)pp->lanes * pp->regs / (regs_per_ut ? regs_per_ut : 1);
	if (v > pp->max_vlen)
		v = pp->max_vlen;
	if (v > WEFT_GROUP_MAX_WIDTH)
		v = WEFT_GROUP_MAX_WIDTH;
	return v ? (uint32_t)v : 1;
}

uint32_t weft_vt_elems(const struct vt_params *pp, uint32_t vl, uint32_t active)
{
	if (pp->density && pp->lanes == 1)
		return active;
	return (vl + pp->lanes - 1) / pp->lanes;
}

static uint32_t cdiv(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : a;
}

void weft_vt_vinst_cost(const struct vt_params *pp, const struct vt_pcinfo *pi, uint32_t elems,
			struct vt_vcost *out)
{
	memset(out, 0, sizeof(*out));
	out->rf_reads = (double)pi->reads * elems;
	out->rf_writes = (double)pi->writes * elems;
	/* cycles each element stays in its bank: a 2r1w bank serves r reads
	 * and w writes of one element in max(ceil(r/2), ceil(w/1)) cycles;
	 * the unified 6r3w file serves any one instruction's element per cycle */
	uint32_t per = 1;
	if (pp->banked) {
		uint32_t a = cdiv(pi->reads, pp->bank_reads), b = cdiv(pi->writes, pp->bank_writes);
		per = a > b ? a : b;
		if (per < 1)
			per = 1;
	}
	out->busy = (double)elems * per;
	out->conflicts = (double)elems * (per - 1);
}

uint32_t weft_vt_coalesce(const struct vt_params *pp, const uint64_t *addr, uint32_t n,
			  uint64_t *out)
{
	if (!pp->coalescer || pp->lanes < 2) {
		if (out)
			memcpy(out, addr, sizeof(*addr) * n);
		return n;
	}
	uint32_t acc = 0;
	uint64_t blk[WEFT_GROUP_MAX_WIDTH];
	uint32_t bs = pp->port_bytes ? pp->port_bytes : 16;
	for (uint32_t i = 0; i < n; i += pp->lanes) {
		uint32_t m = 0;
		for (uint32_t j = i; j < n && j < i + pp->lanes; j++) {
			uint64_t b = addr[j] / bs;
			uint32_t k = 0;
			while (k < m && blk[k] != b)
				k++;
			if (k == m) {
				blk[m++] = b;
				if (out)
					out[acc + k] = addr[j];
			}
		}
		acc += m;
	}
	return acc;
}

uint32_t weft_vt_mimd_inst_cycles(uint32_t u, uint32_t lat)
{
	if (!u)
		u = 1;
	if (lat < 1)
		lat = 1;
	return u * cdiv(lat, u);
}
