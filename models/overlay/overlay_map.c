/*
 * overlay_map.c - how a PTX kernel becomes work for the FPGA overlay
 * (Kingyens & Steffan, "The Potential for a GPU-Like Overlay Architecture
 * for FPGAs", IJRC 2011; docs/models/overlay.md, "From PTX to the
 * machine"), and the register file it needs.
 *
 * The study's machine runs shaders in AMD's CTM r5xx ISA: ALU instructions
 * (float4 arithmetic through one deep floating-point pipeline, operands
 * from registers or the constant file) and TEX instructions (fetches from
 * memory over the HyperTransport link, whose results a semaphore guards).
 * weft runs scalar PTX, so every PTX instruction gets one of these roles:
 *
 *   ALU      integer and floating-point arithmetic, logic, shifts,
 *            compares (setp, set), selects, moves (special registers
 *            too), cvt, cvta, isspacep, and the special functions (rcp,
 *            sqrt, div, sin, cos, ex2, lg2, ...): one batch instruction
 *            through the ALU pipeline each (assumption: one pass, as the
 *            study's pipeline takes every ALU operation)
 *   TEX      ld / ldu from global, local or generic memory: one request
 *            per executing thread over the link (the overlay has no cache
 *            and no scratchpad: per-thread .local data lives in the
 *            host's memory too, assumption)
 *   atomic   atom / red: a request carrying the operands and a response
 *            with the old value, timed as a TEX (assumption: the study's
 *            shaders have no atomics)
 *   store    st: one posted write per executing thread over the link
 *            (assumption: the study's shaders write their outputs; weft
 *            times PTX stores as the link's write packets)
 *   const    ld.param, ld.const: folded into the instruction that uses
 *            the value, as a constant-file operand (the r5xx ALU reads
 *            constants directly): no slot, no cycle
 *   control  bra, ret, exit, trap, membar, fence, prefetch, nanosleep:
 *            the batch's sequencer under full predication (every thread
 *            runs every instruction; control flow costs no slot)
 *
 * Refused (WEFT_ERR_INPUT naming the pc): a CTA barrier (bar.sync and
 * kin), shared memory (static, dynamic, or any .shared access), and
 * warp-level operations (shfl, vote, match, redux, activemask,
 * bar.warp.sync). The study's shader-style kernels have none of them: a
 * batch of 4 threads has no CTA to synchronise with and no on-chip memory
 * to share, and a warp operation needs 32 lanes in lock-step.
 *
 * A memory instruction reads its register operands through the TEX read
 * cycle, one operand (for the 4 threads) per period: a load 1 (the
 * address), a store 2 (address and value), an atomic 1 + its data
 * operands (assumption: the study's TEX reads one operand, a texture
 * coordinate). ALU instructions read up to 3 operands in their 3 read
 * cycles (PTX's 4-source bfi/prmt forms are taken as 3: assumption).
 */
#include <stdlib.h>
#include <string.h>

#include "overlay.h"
#include "models/analysis/analysis.h"

const char *const weft_overlay_kind_names[OV_K_COUNT] = {
	"alu", "tex", "atomic", "store", "const", "control",
};

static int refuse(const struct weft_program *p, uint32_t pc, const char *what, struct weft_error *err)
{
	char text[160];
	weft_program_format_inst(p, pc, text, sizeof(text));
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "kernel %s, pc %u `%s`: %s; the overlay runs shader-style kernels (one "
			      "thread per output element, no barriers, no shared memory, no warp "
			      "operations: Kingyens & Steffan, IJRC 2011), see docs/models/overlay.md",
			      p->kernel ? p->kernel : "?", pc, text, what);
}

/* The role of one instruction; refusals return -1 with *why set. */
static int kind_of(const struct weft_inst *in, const struct weft_inst_info *ii, const char **why)
{
	if (in->space == WEFT_SPACE_SHARED || ii->space == WEFT_SPACE_SHARED) {
		*why = "shared memory";
		return -1;
	}
	switch (in->op) {
	case WEFT_OP_BAR:
		*why = "a CTA barrier";
		return -1;
	case WEFT_OP_BAR_WARP:
		*why = "a warp barrier (bar.warp.sync)";
		return -1;
	case WEFT_OP_LD:
	case WEFT_OP_LDU:
		return in->space == WEFT_SPACE_PARAM || in->space == WEFT_SPACE_CONST ? OV_K_CONST : OV_K_TEX;
	case WEFT_OP_ST:
		return OV_K_STORE;
	case WEFT_OP_ATOM:
	case WEFT_OP_RED:
		return OV_K_ATOMIC;
	case WEFT_OP_BRA: case WEFT_OP_BRX: case WEFT_OP_CALL: case WEFT_OP_RET: case WEFT_OP_EXIT:
	case WEFT_OP_TRAP: case WEFT_OP_MEMBAR: case WEFT_OP_FENCE: case WEFT_OP_PREFETCH:
	case WEFT_OP_NANOSLEEP:
		return OV_K_CONTROL;
	default:
		break;
	}
	if (ii->cls == WEFT_IC_WARP) {
		*why = "a warp-level operation";
		return -1;
	}
	return OV_K_ALU;
}

static uint8_t dwords(unsigned bytes)
{
	unsigned d = (bytes + 3) / 4;
	return (uint8_t)(d > 31 ? 31 : d);
}

/* Register operands a memory instruction reads besides its address. */
static unsigned data_operands(const struct weft_inst *in)
{
	unsigned n = 0;
	for (int i = weft_inst_has_dest(in) ? 1 : 0; i < in->nopnd; i++)
		if (in->opnd[i].kind != WEFT_OPND_ADDR)
			n++;
	return n;
}

void weft_overlay_prog_free(struct ov_prog *op)
{
	free(op->pc);
	free(op->sem);
	free(op->semreg_of);
	free(op->touch);
	free(op->defmask);
	free(op->tmpl);
	free(op->defsem);
	free(op->defsem_off);
	free(op->bcnt);
	free(op->blast);
	free(op->brec);
	free(op->brec_off);
	memset(op, 0, sizeof(*op));
}

static int add_sem(uint32_t *list, uint32_t *n, uint32_t k)
{
	for (uint32_t i = 0; i < *n; i++)
		if (list[i] == k)
			return 0;
	list[(*n)++] = k;
	return 1;
}

int weft_overlay_prog_build(const struct weft_program *p, struct ov_prog *op, struct weft_error *err)
{
	memset(op, 0, sizeof(*op));
	if (p->shared_static_bytes) {
		for (uint32_t pc = 0; pc < p->ninsts; pc++)
			if (p->insts[pc].space == WEFT_SPACE_SHARED)
				return refuse(p, pc, "shared memory", err);
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "kernel %s declares %u bytes of shared memory; the overlay runs "
				      "shader-style kernels (no shared memory: Kingyens & Steffan, IJRC "
				      "2011), see docs/models/overlay.md",
				      p->kernel ? p->kernel : "?", p->shared_static_bytes);
	}
	op->ninsts = p->ninsts;
	op->pc = calloc((size_t)p->ninsts + 1, sizeof(*op->pc));
	op->semreg_of = malloc(((size_t)p->nregs + 1) * sizeof(*op->semreg_of));
	op->sem = malloc(((size_t)p->ninsts * 18 + 1) * sizeof(*op->sem));
	op->touch = calloc((size_t)p->ninsts + 1, sizeof(*op->touch));
	op->defmask = calloc((size_t)p->ninsts + 1, sizeof(*op->defmask));
	op->tmpl = calloc((size_t)p->ninsts + 1, sizeof(*op->tmpl));
	op->defsem = malloc(((size_t)p->ninsts * 6 + 1) * sizeof(*op->defsem));
	op->defsem_off = calloc((size_t)p->ninsts + 1, sizeof(*op->defsem_off));
	op->nblocks = p->nblocks;
	op->bcnt = calloc((size_t)p->nblocks + 1, sizeof(*op->bcnt));
	op->blast = calloc((size_t)p->nblocks + 1, 1);
	op->brec = malloc(((size_t)p->ninsts + 1) * sizeof(*op->brec));
	op->brec_off = calloc((size_t)p->nblocks + 1, sizeof(*op->brec_off));
	if (!op->pc || !op->semreg_of || !op->sem || !op->touch || !op->defmask || !op->tmpl ||
	    !op->defsem || !op->defsem_off || !op->bcnt || !op->blast || !op->brec || !op->brec_off) {
		weft_overlay_prog_free(op);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s's overlay tables",
				      p->kernel);
	}
	for (uint32_t r = 0; r < p->nregs; r++)
		op->semreg_of[r] = UINT32_MAX;
	/* roles, and the registers a round trip writes (they get semaphores) */
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst *in = &p->insts[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		const char *why = "";
		int k = kind_of(in, ii, &why);
		if (k < 0) {
			int rc = refuse(p, pc, why, err);
			weft_overlay_prog_free(op);
			return rc;
		}
		struct ov_pcinfo *pi = &op->pc[pc];
		pi->kind = (uint8_t)k;
		for (uint32_t u = 0; u < ii->nuses; u++)
			if (ii->uses[u] >= 0)
				op->touch[pc] |= 1ull << (ii->uses[u] % 64);
		for (uint32_t d = 0; d < ii->ndefs; d++)
			if (ii->defs[d] >= 0) {
				op->touch[pc] |= 1ull << (ii->defs[d] % 64);
				op->defmask[pc] |= 1ull << (ii->defs[d] % 64);
			}
		op->kinds[k]++;
		unsigned data = data_operands(in);
		unsigned tsz = weft_ptx_type_size((enum weft_ptx_type)in->type);
		switch (k) {
		case OV_K_TEX:
			pi->slots = 1;
			pi->resp_dw = dwords(ii->access_bytes);
			break;
		case OV_K_STORE:
			pi->slots = 2;
			pi->req_dw = dwords(ii->access_bytes);
			break;
		case OV_K_ATOMIC:
			pi->slots = (uint8_t)(1 + (data > 2 ? 2 : data));
			pi->req_dw = dwords(data * tsz);
			pi->resp_dw = weft_inst_has_dest(in) ? dwords(tsz) : 0;
			break;
		default:
			break;
		}
		if (k == OV_K_TEX || k == OV_K_ATOMIC)
			for (uint32_t d = 0; d < ii->ndefs; d++)
				if (ii->defs[d] >= 0 && (uint32_t)ii->defs[d] < p->nregs &&
				    op->semreg_of[ii->defs[d]] == UINT32_MAX)
					op->semreg_of[ii->defs[d]] = op->nsemregs++;
	}
	/* per issued instruction: the semaphore registers it reads or writes */
	uint32_t off = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_inst_info *ii = &p->info[pc];
		struct ov_pcinfo *pi = &op->pc[pc];
		pi->sem_off = off;
		if (pi->kind >= OV_K_CONST)
			continue;
		uint32_t n = 0;
		for (uint32_t u = 0; u < ii->nuses; u++)
			if (ii->uses[u] >= 0 && (uint32_t)ii->uses[u] < p->nregs &&
			    op->semreg_of[ii->uses[u]] != UINT32_MAX)
				add_sem(op->sem + off, &n, op->semreg_of[ii->uses[u]]);
		for (uint32_t d = 0; d < ii->ndefs; d++)
			if (ii->defs[d] >= 0 && (uint32_t)ii->defs[d] < p->nregs &&
			    op->semreg_of[ii->defs[d]] != UINT32_MAX)
				add_sem(op->sem + off, &n, op->semreg_of[ii->defs[d]]);
		pi->nsem = (uint8_t)n;
		off += n;
	}
	/* records' static bits, round trips' semaphore registers */
	uint32_t doff = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct ov_pcinfo *pi = &op->pc[pc];
		const struct weft_inst_info *ii = &p->info[pc];
		uint32_t cls = pi->kind == OV_K_ALU ? OV_RC_ALU : pi->kind == OV_K_STORE ? OV_RC_STORE : OV_RC_RT;
		op->tmpl[pc] = cls | (uint32_t)pi->req_dw << 13 | (uint32_t)pi->resp_dw << 18 |
			       (uint32_t)pi->slots << 23;
		op->defsem_off[pc] = doff;
		if (pi->kind == OV_K_TEX || pi->kind == OV_K_ATOMIC)
			for (uint32_t d = 0; d < ii->ndefs; d++)
				if (ii->defs[d] >= 0 && (uint32_t)ii->defs[d] < p->nregs &&
				    op->semreg_of[ii->defs[d]] != UINT32_MAX)
					op->defsem[doff++] = op->semreg_of[ii->defs[d]];
	}
	op->defsem_off[p->ninsts] = doff;
	/* per block: kinds, and the pcs that issue */
	uint32_t roff = 0;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		const struct weft_block *B = &p->blocks[b];
		op->brec_off[b] = roff;
		for (uint32_t pc = B->first; pc < B->first + B->count; pc++) {
			uint8_t k = op->pc[pc].kind;
			if (pc + 1 < B->first + B->count)
				op->bcnt[b][k]++;
			else
				op->blast[b] = k;
			if (k < OV_K_CONST)
				op->brec[roff++] = pc;
		}
	}
	op->brec_off[p->nblocks] = roff;
	/* registers per thread: the liveness analysis's largest count */
	struct weft_dom dom;
	struct weft_liveness lv;
	memset(&dom, 0, sizeof(dom));
	memset(&lv, 0, sizeof(lv));
	int rc = weft_dom_build(p, &dom, err);
	if (!rc)
		rc = weft_liveness_build(p, &dom, &lv, err);
	if (!rc)
		op->live_words = lv.max_words;
	weft_liveness_free(&lv);
	weft_dom_free(&dom);
	if (rc)
		weft_overlay_prog_free(op);
	return rc;
}

int weft_overlay_check_launch(const struct weft_trace_launch *L, struct weft_error *err)
{
	if (L->dyn_shared)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "kernel %s is launched with %u bytes of dynamic shared memory; the "
				      "overlay runs shader-style kernels (no shared memory: Kingyens & "
				      "Steffan, IJRC 2011), see docs/models/overlay.md",
				      L->program->kernel ? L->program->kernel : "?", L->dyn_shared);
	return 0;
}

uint32_t weft_overlay_regs(const struct ov_params *pp, uint32_t live_words)
{
	if (pp->regs_per_thread)
		return pp->regs_per_thread;
	return live_words ? live_words : 1;
}

/* Stratix II block RAMs (Altera, Stratix II Device Handbook, vol. 1,
 * "TriMatrix Memory"): an M-RAM holds 4K words of 144 bits (of which 128
 * data bits: 64 KB), an M4K 128 words of 36 bits (4 Kbit; 32 data bits
 * used per word here). The register file reads one 128-bit register of
 * each of the batch's 4 threads per cycle, so each thread lane has its own
 * RAMs (Kingyens & Steffan 2011, Figure 7: four M-RAMs), each holding that
 * lane's registers of every batch. */
#define MRAM_WORDS 4096u
#define M4K_WORDS 128u
#define M4K_PER_WORD 4u /* 128-bit register / 32 data bits of a 36-bit M4K word */

void weft_overlay_regfile(uint32_t batches, uint32_t regs, struct ov_regfile *out)
{
	uint64_t words = (uint64_t)batches * regs; /* per thread lane */
	out->bytes_per_batch = (double)OV_BATCH * regs * OV_REG_BYTES;
	out->bytes = out->bytes_per_batch * batches;
	out->mram = (uint32_t)(OV_BATCH * ((words + MRAM_WORDS - 1) / MRAM_WORDS));
	out->m4k = (uint32_t)(OV_BATCH * M4K_PER_WORD * ((words + M4K_WORDS - 1) / M4K_WORDS));
}
