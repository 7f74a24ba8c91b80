/*
 * simt_pipe.c - what each instruction of a launch's program costs the SM
 * pipeline, decided once per launch: its latency class (GPGPU-Sim's opcode
 * classes, so the GTX480 latencies and initiation intervals of that
 * configuration apply), the unit it is dispatched to, its latency to a
 * dependent instruction, how long it keeps its unit busy, the operand-
 * collector register-bank conflicts of its sources, and its events.
 */
#include <string.h>

#include "simt.h"

/* The SIMT event of each functional-unit kind (events.h weft_fu_op_of has
 * the classification rules); non-FU instructions count none. */
static const int8_t fu_event[WEFT_FU_COUNT] = {
	[WEFT_FU_INT_ALU] = SIMT_EV_INT_ALU,   [WEFT_FU_INT_MUL] = SIMT_EV_INT_MUL,
	[WEFT_FU_INT_DIV] = SIMT_EV_INT_DIV,   [WEFT_FU_FP32_ADD] = SIMT_EV_FP32_ADD,
	[WEFT_FU_FP32_MUL] = SIMT_EV_FP32_MUL, [WEFT_FU_FP32_FMA] = SIMT_EV_FP32_FMA,
	[WEFT_FU_FP64] = SIMT_EV_FP64,         [WEFT_FU_SFU] = SIMT_EV_SFU,
	[WEFT_FU_NONE] = -1,
};

static int is_f64(uint8_t t)
{
	return t == WEFT_T_F64;
}

static int is_float(uint8_t t)
{
	return weft_ptx_type_is_float((enum weft_ptx_type)t);
}

/* int / fp / dp variant of a class triple by the instruction's type */
static enum simt_lat by_type(const struct weft_inst *in, enum simt_lat i, enum simt_lat f,
			     enum simt_lat d)
{
	if (is_f64(in->type))
		return d;
	return is_float(in->type) ? f : i;
}

enum simt_lat weft_simt_lat_class_of(const struct weft_inst *in, const struct weft_inst_info *ii)
{
	(void)ii;
	switch (in->op) {
	case WEFT_OP_ADD:
	case WEFT_OP_SUB:
	case WEFT_OP_ADDC:
	case WEFT_OP_SUBC:
		return by_type(in, SIMT_LAT_INT_ADD, SIMT_LAT_FP_ADD, SIMT_LAT_DP_ADD);
	case WEFT_OP_MIN:
	case WEFT_OP_MAX:
		return by_type(in, SIMT_LAT_INT_MAX, SIMT_LAT_FP_MAX, SIMT_LAT_DP_MAX);
	case WEFT_OP_MUL:
	case WEFT_OP_MUL24:
		return by_type(in, SIMT_LAT_INT_MUL, SIMT_LAT_FP_MUL, SIMT_LAT_DP_MUL);
	case WEFT_OP_MAD:
	case WEFT_OP_MAD24:
	case WEFT_OP_MADC:
	case WEFT_OP_FMA:
		return by_type(in, SIMT_LAT_INT_MAD, SIMT_LAT_FP_MAD, SIMT_LAT_DP_MAD);
	case WEFT_OP_DIV:
		return by_type(in, SIMT_LAT_INT_DIV, SIMT_LAT_FP_DIV, SIMT_LAT_DP_DIV);
	case WEFT_OP_REM:
		/* GPGPU-Sim leaves rem at the default ALU latency; a remainder is
		 * a divide on every real machine, so weft prices it as one */
		return SIMT_LAT_INT_DIV;
	case WEFT_OP_RCP:
	case WEFT_OP_SQRT:
	case WEFT_OP_RSQRT:
	case WEFT_OP_EX2:
	case WEFT_OP_LG2:
	case WEFT_OP_SIN:
	case WEFT_OP_COS:
	case WEFT_OP_TANH:
		return SIMT_LAT_SFU;
	case WEFT_OP_SHFL:
		return SIMT_LAT_SHFL;
	default:
		return SIMT_LAT_ALU;
	}
}

/* Classes GPGPU-Sim's Fermi dispatches to its SFU pipeline: divides
 * (any type), transcendentals, and every double-precision op (the GTX480
 * configuration has no DP unit, gpgpu_num_dp_units 0). */
static int on_sfu(enum simt_lat c)
{
	switch (c) {
	case SIMT_LAT_INT_DIV:
	case SIMT_LAT_FP_DIV:
	case SIMT_LAT_DP_ADD:
	case SIMT_LAT_DP_MAX:
	case SIMT_LAT_DP_MUL:
	case SIMT_LAT_DP_MAD:
	case SIMT_LAT_DP_DIV:
	case SIMT_LAT_SFU:
		return 1;
	default:
		return 0;
	}
}

static uint32_t reg_words(const struct weft_program *p, int32_t r)
{
	if (r < 0 || (uint32_t)r >= p->nregs || !p->reg_type)
		return 1;
	enum weft_ptx_type t = (enum weft_ptx_type)p->reg_type[r];
	if (t == WEFT_T_PRED)
		return 0; /* predicates live in their own small file */
	unsigned sz = weft_ptx_type_size(t);
	return sz > 4 ? (sz + 3) / 4 : 1;
}

/* Extra operand-read cycles: the collector reads one operand per bank per
 * rf_read_cycles; distinct source registers in one bank serialise
 * (bank = register number mod rf_banks; adding the warp id, as GPGPU-Sim
 * does, shifts every bank alike and so changes no conflict). */
static uint32_t bank_extra(const struct simt_params *sp, const struct weft_program *p,
			   const struct weft_inst_info *ii)
{
	if (sp->rf_banks < 2)
		return 0;
	uint32_t count[64] = { 0 }, worst = 0;
	for (uint32_t u = 0; u < ii->nuses; u++) {
		int32_t r = ii->uses[u];
		if (r < 0 || (uint32_t)r >= p->nregs || !reg_words(p, r))
			continue;
		int dup = 0;
		for (uint32_t v = 0; v < u && !dup; v++)
			dup = ii->uses[v] == r;
		if (dup)
			continue;
		uint32_t b = (uint32_t)r % sp->rf_banks % 64;
		if (++count[b] > worst)
			worst = count[b];
	}
	return worst > 1 ? (worst - 1) * sp->rf_read_cycles : 0;
}

/* Source operands that are not registers, GPGPU-Sim's way (its power model
 * counts them as operand-collector activity): every operand after the
 * first that is not a register or register vector. */
static uint8_t nonreg_operands(const struct weft_inst *in)
{
	uint8_t n = 0;
	for (uint32_t i = 1; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		uint8_t k = in->opnd[i].kind;
		if (k != WEFT_OPND_NONE && k != WEFT_OPND_REG && k != WEFT_OPND_VEC && k != WEFT_OPND_SINK)
			n++;
	}
	return n;
}

void weft_simt_pc_build(const struct simt_params *sp, const struct weft_program *p, struct simt_pc *pcs,
		   uint32_t *deps)
{
	uint32_t nd = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		struct simt_pc *x = &pcs[pc];
		memset(x, 0, sizeof(*x));
		uint32_t r = 0, w = 0;
		for (uint32_t u = 0; u < ii->nuses; u++)
			r += reg_words(p, ii->uses[u]);
		for (uint32_t d = 0; d < ii->ndefs; d++)
			w += reg_words(p, ii->defs[d]);
		x->cls = ii->cls;
		x->comp_ev = fu_event[weft_fu_op_of(in, ii)];
		x->rf_reads = (uint8_t)(r > 255 ? 255 : r);
		x->rf_writes = (uint8_t)(w > 255 ? 255 : w);
		x->nonreg = nonreg_operands(in);
		x->bytes = ii->access_bytes;
		x->space = ii->space;
		x->is_store = ii->cls == WEFT_IC_STORE;
		x->is_atomic = ii->cls == WEFT_IC_ATOMIC;
		x->is_barrier = in->op == WEFT_OP_BAR && in->mode != WEFT_BAR_ARRIVE;
		x->is_ctrl = (ii->flags & WEFT_II_CTRL) != 0;
		enum simt_lat c = weft_simt_lat_class_of(in, ii);
		x->lat_class = (uint8_t)c;
		int mem = ii->cls == WEFT_IC_LOAD || ii->cls == WEFT_IC_STORE || ii->cls == WEFT_IC_ATOMIC;
		if (mem) {
			x->unit = SIMT_U_LDST;
			x->wait_cpi = SIMT_CPI_L1;
		} else if (sp->sfu_units && on_sfu(c)) {
			x->unit = SIMT_U_SFU;
			x->wait_cpi = SIMT_CPI_SFU;
		} else {
			x->unit = SIMT_U_SP;
			x->wait_cpi = on_sfu(c) ? SIMT_CPI_SFU : SIMT_CPI_DEPENDENCY;
		}
		x->latency = sp->pipeline_latency + sp->lat[c];
		uint32_t ii_cyc = sp->init[c];
		x->occupy = ii_cyc > sp->issue_cycles ? ii_cyc : sp->issue_cycles;
		x->bank_extra = bank_extra(sp, p, ii);
		/* the scoreboard: what it reads, then what it writes (no
		 * overtaking a pending write), each list without repeats */
		x->dep0 = nd;
		for (uint32_t k = 0; k < (uint32_t)ii->nuses + ii->ndefs; k++) {
			int is_def = k >= ii->nuses;
			int32_t r = is_def ? ii->defs[k - ii->nuses] : ii->uses[k];
			if (r < 0 || (uint32_t)r >= p->nregs)
				continue;
			int dup = 0;
			for (uint32_t j = is_def ? x->dep0 + x->nusedep : x->dep0; j < nd && !dup; j++)
				dup = deps[j] == (uint32_t)r;
			if (dup)
				continue;
			deps[nd++] = (uint32_t)r;
			if (!is_def)
				x->nusedep++;
		}
		x->ndep = (uint8_t)(nd - x->dep0);
	}
}
