/*
 * emu_link.c - lowers a parsed kernel into the emulator's executable form.
 *
 * Done once per kernel and module (on first launch):
 *  - every `call` to a .func is inlined; the callee's registers get fresh
 *    slots, its parameters and return values become the caller's call-site
 *    .param variables, and call-site .param variables and .local depots get
 *    per-thread .local storage (one frame per thread holds them all).
 *    Recursion is an error (no stack of frames is kept).
 *  - `ret` from an inlined callee becomes a branch to the instruction after
 *    the call; `ret` from the kernel exits the thread.
 *  - every operand is resolved to a slot of the warp register file:
 *    registers, immediates and special registers (filled once), symbol
 *    addresses (constants); memory operands to base slot + offset in a
 *    resolved state space.
 *  - the lowered CFG's immediate post-dominators give each branch its
 *    reconvergence PC.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ptx/cfg.h"
#include "emu.h"

struct lk {
	struct weft_module *mod;
	const struct weft_ptx_module *m;
	struct weft_error *err;
	uint32_t kernel;
	struct weft_emu_inst *ins;
	uint32_t n, cap;
	uint8_t *stype; /* per slot: register type, NONE for constants */
	uint32_t nslots, cap_slots;
	struct weft_emu_const *consts;
	uint32_t nconsts, cap_consts;
	uint32_t *chash; /* open-addressing index of consts by value */
	uint32_t chash_cap;
	struct weft_emu_sregslot *sregs;
	uint32_t nsregs, cap_sregs;
	int32_t scratch;
	/* 64 bits: a symbol's size is (a .shared array of 4 GiB must not wrap
	 * to 0); each is checked against its limit as it grows (too_big) */
	uint64_t local_bytes;
	int64_t *shared_off; /* [nsyms]; -1 unassigned */
	uint64_t shared_static, shared_dyn;
	uint8_t *onstack;    /* [nfuncs] */
	uint8_t *reach;      /* [nfuncs] */
	uint8_t *addr_taken; /* [nfuncs] functions whose address a `mov` takes */
};

/* Symbol storage of one inlined instance of a function. */
struct inst {
	uint32_t func;
	uint32_t reg_base;
	int8_t *sp;    /* [nsyms] resolved space, -1 = not yet */
	int64_t *addr; /* [nsyms] */
	struct inst *parent;
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint32_t nc = *cap ? *cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, (size_t)nc * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

static int nomem(struct lk *k)
{
	return weft_error_set(k->err, WEFT_ERR_NOMEM, "out of memory while preparing kernel %s",
			      k->m->funcs[k->kernel].name);
}

/* *acc += add, saturating; -1 when the sum is over limit. */
static int add_capped(uint64_t *acc, uint64_t add, uint64_t limit)
{
	*acc = add > UINT64_MAX - *acc ? UINT64_MAX : *acc + add;
	return *acc > limit ? -1 : 0;
}

/* A kernel's static shared memory (what = "static shared memory", per =
 * "a block") or a thread's local frame grew past CUDA's limit (host.h)
 * with symbol sym, to total bytes. */
static int too_big(struct lk *k, int32_t sym, const char *what, uint64_t total, uint64_t limit,
		   const char *per)
{
	const struct weft_ptx_symbol *s = &k->m->syms[sym];
	char tot[32];
	if (total == UINT64_MAX)
		snprintf(tot, sizeof(tot), "over 2^64");
	else
		snprintf(tot, sizeof(tot), "%" PRIu64, total);
	return weft_error_at(k->err, WEFT_ERR_INPUT, k->m->path, s->line, 0,
			     "kernel %s: %s reaches %s bytes with `%s` (%" PRIu64 " bytes), more than the "
			     "%" PRIu64 " bytes (%" PRIu64 " KB) CUDA allows %s; make it smaller",
			     k->m->funcs[k->kernel].name, what, tot, s->name, s->size, limit, limit / 1024, per);
}

static int new_slots(struct lk *k, uint32_t count, int32_t *first)
{
	/* every PTX virtual register of the kernel and of each inlined call is
	 * a slot of 8 bytes per thread: bounded before the register file is
	 * sized by it (host.h WEFT_MAX_REG_SLOTS) */
	if ((uint64_t)k->nslots + count > WEFT_MAX_REG_SLOTS) {
		const struct weft_ptx_func *kf = &k->m->funcs[k->kernel];
		return weft_error_at(k->err, WEFT_ERR_INPUT, k->m->path, kf->line, 0,
				     "kernel %s needs more than %u register slots per thread (the PTX virtual "
				     "registers of the kernel and of every call inlined into it, and constants), "
				     "the emulator's limit (WEFT_MAX_REG_SLOTS in trace/emu/host.h); declare "
				     "fewer registers (%%r<N>) or inline less",
				     kf->name, WEFT_MAX_REG_SLOTS);
	}
	if (grow((void **)&k->stype, &k->cap_slots, k->nslots + count, 1))
		return nomem(k);
	memset(k->stype + k->nslots, WEFT_T_NONE, count);
	*first = (int32_t)k->nslots;
	k->nslots += count;
	return 0;
}

static uint32_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (uint32_t)v;
}

/* Rebuilds the open-addressing index of k->consts (value -> index + 1). */
static int const_rehash(struct lk *k, uint32_t cap)
{
	uint32_t *h = calloc(cap, sizeof(uint32_t));
	if (!h)
		return nomem(k);
	for (uint32_t i = 0; i < k->nconsts; i++) {
		uint32_t j = hash64(k->consts[i].value) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = i + 1;
	}
	free(k->chash);
	k->chash = h;
	k->chash_cap = cap;
	return 0;
}

static int const_slot(struct lk *k, uint64_t v, int32_t *slot)
{
	int rc;
	if (k->nconsts * 2 + 2 > k->chash_cap &&
	    (rc = const_rehash(k, k->chash_cap ? k->chash_cap * 2 : 256)))
		return rc;
	uint32_t j = hash64(v) & (k->chash_cap - 1);
	while (k->chash[j]) {
		const struct weft_emu_const *c = &k->consts[k->chash[j] - 1];
		if (c->value == v) {
			*slot = c->slot;
			return 0;
		}
		j = (j + 1) & (k->chash_cap - 1);
	}
	if (grow((void **)&k->consts, &k->cap_consts, k->nconsts + 1, sizeof(*k->consts)))
		return nomem(k);
	rc = new_slots(k, 1, slot);
	if (rc)
		return rc;
	k->consts[k->nconsts].slot = *slot;
	k->consts[k->nconsts].value = v;
	k->nconsts++;
	k->chash[j] = k->nconsts;
	return 0;
}

static int sreg_slot(struct lk *k, uint16_t sreg, uint16_t comp, int32_t *slot)
{
	for (uint32_t i = 0; i < k->nsregs; i++)
		if (k->sregs[i].sreg == sreg && k->sregs[i].comp == comp) {
			*slot = k->sregs[i].slot;
			return 0;
		}
	if (grow((void **)&k->sregs, &k->cap_sregs, k->nsregs + 1, sizeof(*k->sregs)))
		return nomem(k);
	int rc = new_slots(k, 1, slot);
	if (rc)
		return rc;
	k->sregs[k->nsregs].slot = *slot;
	k->sregs[k->nsregs].sreg = sreg;
	k->sregs[k->nsregs].comp = comp;
	k->nsregs++;
	return 0;
}

static int lk_err(struct lk *k, const struct weft_inst *in, enum weft_err code, const char *what,
		  const char *detail)
{
	char buf[200];
	const struct weft_ptx_func *kf = &k->m->funcs[k->kernel];
	weft_ptx_format_inst(k->m, kf, in, buf, sizeof(buf));
	return weft_error_at(k->err, code, k->m->path, in->pos.line, in->pos.column,
			     "%s `%s` in kernel %s: %s", what, buf, kf->name, detail);
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	if (a == 0)
		a = 1;
	return (v + a - 1) / a * a;
}

/* Resolves a symbol to (space, address in that space) for instance ic. */
static int resolve(struct lk *k, struct inst *ic, int32_t sym, int *space, int64_t *addr)
{
	const struct weft_ptx_symbol *s = &k->m->syms[sym];
	if (ic->sp[sym] >= 0) {
		*space = ic->sp[sym];
		*addr = ic->addr[sym];
		return 0;
	}
	switch (s->space) {
	case WEFT_SPACE_GLOBAL:
	case WEFT_SPACE_CONST:
		*space = s->space;
		*addr = (int64_t)k->mod->sym_addr[sym];
		return 0;
	case WEFT_SPACE_SHARED:
		if (k->shared_off[sym] < 0) { /* not seen by the pre-pass */
			if (s->is_extern) {
				k->shared_off[sym] = -2;
			} else {
				k->shared_static = align_up(k->shared_static, s->align);
				k->shared_off[sym] = (int64_t)k->shared_static;
				if (add_capped(&k->shared_static, s->size, WEFT_MAX_SHARED_BYTES))
					return too_big(k, sym, "static shared memory", k->shared_static,
						       WEFT_MAX_SHARED_BYTES, "a block");
			}
		}
		*space = WEFT_SPACE_SHARED;
		*addr = k->shared_off[sym] == -2 ? -2 : k->shared_off[sym];
		return 0;
	case WEFT_SPACE_LOCAL:
	case WEFT_SPACE_PARAM: {
		/* a .local depot or a call-site .param: per-instance frame storage */
		uint32_t al = s->align ? s->align : 1;
		k->local_bytes = align_up(k->local_bytes, al);
		ic->sp[sym] = WEFT_SPACE_LOCAL;
		ic->addr[sym] = (int64_t)k->local_bytes;
		if (add_capped(&k->local_bytes, s->size ? s->size : 8, WEFT_MAX_LOCAL_BYTES))
			return too_big(k, sym, "local memory per thread (.local variables, call frames)",
				       k->local_bytes, WEFT_MAX_LOCAL_BYTES, "a thread");
		*space = WEFT_SPACE_LOCAL;
		*addr = ic->addr[sym];
		return 0;
	}
	default:
		*space = s->space;
		*addr = 0;
		return 0;
	}
}

static struct inst *inst_new(struct lk *k, uint32_t func, struct inst *parent)
{
	struct inst *ic = calloc(1, sizeof(*ic));
	if (!ic)
		return NULL;
	ic->func = func;
	ic->parent = parent;
	ic->sp = malloc(k->m->nsyms ? k->m->nsyms : 1);
	ic->addr = calloc(k->m->nsyms ? k->m->nsyms : 1, sizeof(int64_t));
	if (!ic->sp || !ic->addr) {
		free(ic->sp);
		free(ic->addr);
		free(ic);
		return NULL;
	}
	memset(ic->sp, -1, k->m->nsyms ? k->m->nsyms : 1);
	return ic;
}

static void inst_free(struct inst *ic)
{
	if (!ic)
		return;
	free(ic->sp);
	free(ic->addr);
	free(ic);
}

static int is_mem_op(int op)
{
	return op == WEFT_OP_LD || op == WEFT_OP_LDU || op == WEFT_OP_ST || op == WEFT_OP_ATOM ||
	       op == WEFT_OP_RED || op == WEFT_OP_CVTA || op == WEFT_OP_ISSPACEP || op == WEFT_OP_PREFETCH;
}

static int is_tex_op(int op)
{
	return op == WEFT_OP_TEX || op == WEFT_OP_TLD4 || op == WEFT_OP_SULD || op == WEFT_OP_SUST;
}

static int push_inst(struct lk *k, struct weft_emu_inst **out)
{
	if (grow((void **)&k->ins, &k->cap, k->n + 1, sizeof(*k->ins)))
		return nomem(k);
	struct weft_emu_inst *ei = &k->ins[k->n++];
	memset(ei, 0, sizeof(*ei));
	ei->guard = -1;
	ei->d2 = -1;
	ei->abase = -1;
	for (int i = 0; i < 4; i++)
		ei->d[i] = k->scratch;
	for (int i = 0; i < 6; i++)
		ei->s[i] = k->scratch;
	ei->target = WEFT_EMU_NO_PC;
	ei->reconv = WEFT_EMU_NO_PC;
	ei->dbits = 64;
	*out = ei;
	return 0;
}

static int32_t reg_slot(struct inst *ic, int32_t r)
{
	return r == WEFT_NO_REG ? -1 : (int32_t)ic->reg_base + r;
}

/* Copies the PTX instruction with registers renumbered into slots. */
static void copy_renumbered(struct weft_emu_inst *ei, const struct weft_inst *src, struct inst *ic)
{
	ei->in = *src;
	ei->in.call_rets = NULL;
	ei->in.call_args = NULL;
	ei->in.ncall_rets = ei->in.ncall_args = 0;
	if (src->guard != WEFT_NO_REG)
		ei->in.guard = reg_slot(ic, src->guard);
	for (int i = 0; i < src->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		struct weft_operand *o = &ei->in.opnd[i];
		if (o->kind == WEFT_OPND_REG || o->kind == WEFT_OPND_ADDR) {
			if (o->reg != WEFT_NO_REG)
				o->reg = reg_slot(ic, o->reg);
			if (o->kind == WEFT_OPND_REG && o->reg2 != WEFT_NO_REG)
				o->reg2 = reg_slot(ic, o->reg2);
		} else if (o->kind == WEFT_OPND_VEC) {
			for (int j = 0; j < o->nvec && j < 4; j++)
				if (o->vec_regs[j] >= 0)
					o->vec_regs[j] = reg_slot(ic, o->vec_regs[j]);
		}
	}
}

static int src_slot(struct lk *k, struct inst *ic, struct weft_emu_inst *ei,
		    const struct weft_operand *o, int32_t *slot)
{
	int rc;
	switch (o->kind) {
	case WEFT_OPND_REG:
		*slot = reg_slot(ic, o->reg);
		return 0;
	case WEFT_OPND_IMM:
		return const_slot(k, (uint64_t)o->imm, slot);
	case WEFT_OPND_SREG:
		if (o->sreg == WEFT_SREG_CLOCK || o->sreg == WEFT_SREG_CLOCK64 ||
		    o->sreg == WEFT_SREG_GLOBALTIMER || o->sreg == WEFT_SREG_CLOCK_HI)
			ei->reads_clock = 1;
		return sreg_slot(k, o->sreg, o->comp, slot);
	case WEFT_OPND_SYM: {
		int sp;
		int64_t a;
		rc = resolve(k, ic, o->sym, &sp, &a);
		if (rc)
			return rc;
		if (a == -2) /* extern shared: placed after the static ones */
			a = k->shared_dyn;
		return const_slot(k, (uint64_t)(a + o->imm), slot);
	}
	case WEFT_OPND_SINK:
		*slot = k->scratch;
		return 0;
	case WEFT_OPND_FUNC: /* a function's address (for indirect calls) */
		return const_slot(k, WEFT_EMU_FUNC_BASE + 16ull * (uint64_t)o->imm, slot);
	default:
		return lk_err(k, &ei->in, WEFT_ERR_PARSE, "unsupported operand in", "operand kind not handled by the emulator");
	}
}

static int select_fn(struct lk *k, struct weft_emu_inst *ei)
{
	const struct weft_inst *in = &ei->in;
	int op = in->op;
	weft_emu_fn fn = NULL;
	if (is_tex_op(op)) {
		fn = weft_emu_tex_fn(in);
	} else if (is_mem_op(op)) {
		fn = weft_emu_mem_fn(in);
		weft_emu_fn sp = weft_emu_mem_special(ei);
		if (fn && sp)
			fn = sp;
	} else if (op == WEFT_OP_SHFL || op == WEFT_OP_VOTE || op == WEFT_OP_ACTIVEMASK ||
		   op == WEFT_OP_MATCH || op == WEFT_OP_REDUX) {
		fn = weft_emu_warp_fn(in);
	} else if (op == WEFT_OP_CVT || op == WEFT_OP_TESTP || op == WEFT_OP_FMA ||
		   op == WEFT_OP_RCP || op == WEFT_OP_SQRT || op == WEFT_OP_RSQRT ||
		   op == WEFT_OP_EX2 || op == WEFT_OP_LG2 || op == WEFT_OP_SIN || op == WEFT_OP_COS ||
		   op == WEFT_OP_TANH || op == WEFT_OP_COPYSIGN ||
		   ((op == WEFT_OP_ADD || op == WEFT_OP_SUB || op == WEFT_OP_MUL || op == WEFT_OP_MAD ||
		     op == WEFT_OP_DIV || op == WEFT_OP_ABS || op == WEFT_OP_NEG || op == WEFT_OP_MIN ||
		     op == WEFT_OP_MAX) && weft_ptx_type_is_float(in->type))) {
		fn = weft_emu_float_fn(in);
	} else {
		fn = weft_emu_int_fn(in);
	}
	if (!fn) {
		char d[120];
		snprintf(d, sizeof(d), "%s.%s is not supported by the emulator",
			 weft_op_name(op), weft_ptx_type_name(in->type));
		return lk_err(k, in, WEFT_ERR_PARSE, "unsupported instruction", d);
	}
	ei->fn = fn;
	return 0;
}

struct fix {
	uint32_t idx;   /* lowered instruction */
	uint32_t label; /* instruction index in the source function */
};

static int emit_func(struct lk *k, struct inst *ic);

/* Lowers one non-call instruction. */
static int lower(struct lk *k, struct inst *ic, const struct weft_inst *src, uint32_t pc,
		 struct fix **fixes, uint32_t *nfix, uint32_t *capfix)
{
	struct weft_emu_inst *ei;
	int rc = push_inst(k, &ei);
	if (rc)
		return rc;
	uint32_t idx = k->n - 1;
	copy_renumbered(ei, src, ic);
	ei->src_func = ic->func;
	ei->src_pc = pc;
	if (src->guard != WEFT_NO_REG)
		ei->guard = reg_slot(ic, src->guard);
	int op = src->op;
	switch (op) {
	case WEFT_OP_BRA:
		ei->kind = WEFT_EK_BRA;
		break;
	case WEFT_OP_EXIT: ei->kind = WEFT_EK_EXIT; return 0;
	case WEFT_OP_TRAP: ei->kind = WEFT_EK_TRAP; return 0;
	case WEFT_OP_BAR: ei->kind = WEFT_EK_BAR; break;
	case WEFT_OP_NANOSLEEP: ei->kind = WEFT_EK_YIELD; return 0;
	case WEFT_OP_BAR_WARP: case WEFT_OP_MEMBAR: case WEFT_OP_FENCE:
		ei->kind = WEFT_EK_NOP;
		return 0;
	case WEFT_OP_BRX:
		return lk_err(k, src, WEFT_ERR_PARSE, "unsupported instruction",
			      "indirect branches (brx.idx) are not supported by the emulator");
	case WEFT_OP_UNSUPPORTED: { /* the parser kept it: the module's other kernels run */
		const struct weft_ptx_func *kf = &k->m->funcs[k->kernel];
		int64_t u = src->opnd[0].imm;
		if (u < 0 || (uint64_t)u >= k->m->nunsup)
			return lk_err(k, src, WEFT_ERR_PARSE, "unsupported instruction",
				      "not supported by the emulator");
		const struct weft_ptx_unsup *us = &k->m->unsup[u];
		char in_fn[300] = "";
		if (ic->func != k->kernel)
			snprintf(in_fn, sizeof(in_fn), " (in function %s, which it calls)",
				 k->m->funcs[ic->func].name);
		return weft_error_at(k->err, WEFT_ERR_PARSE, k->m->path, us->line, us->column,
				     "%s; kernel %s cannot run%s: `%s;` is not supported (the module's "
				     "kernels that do not reach it run)",
				     us->message, kf->name, in_fn, us->text);
	}
	default:
		ei->kind = WEFT_EK_ALU;
		break;
	}
	int hd = weft_inst_has_dest(src);
	for (int i = 0; i < src->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &src->opnd[i];
		ei = &k->ins[idx];
		if (i == 0 && hd) {
			if (o->kind == WEFT_OPND_REG) {
				ei->d[0] = reg_slot(ic, o->reg);
				ei->nd = 1;
				if (o->reg2 != WEFT_NO_REG)
					ei->d2 = reg_slot(ic, o->reg2);
				ei->dbits = (uint8_t)weft_emu_bits(k->m->funcs[ic->func].regs[o->reg].type);
				if (k->m->funcs[ic->func].regs[o->reg].type == WEFT_T_PRED)
					ei->dbits = 64;
			} else if (o->kind == WEFT_OPND_SINK) {
				ei->d[0] = k->scratch;
				ei->nd = 1;
			} else if (o->kind == WEFT_OPND_VEC) {
				ei->nd = o->nvec;
				for (int j = 0; j < o->nvec && j < 4; j++) {
					ei->d[j] = o->vec_regs[j] >= 0 ? reg_slot(ic, o->vec_regs[j]) : k->scratch;
					if (o->vec_regs[j] >= 0)
						ei->dbits = (uint8_t)weft_emu_bits(k->m->funcs[ic->func].regs[o->vec_regs[j]].type);
				}
			} else {
				return lk_err(k, src, WEFT_ERR_PARSE, "unsupported destination in",
					      "the destination must be a register, a vector or `_`");
			}
			continue;
		}
		switch (o->kind) {
		case WEFT_OPND_ADDR: {
			ei->has_addr = 1;
			ei->abase = o->reg == WEFT_NO_REG ? -1 : reg_slot(ic, o->reg);
			ei->aoff = o->imm;
			ei->space = src->space;
			if (o->sym >= 0) {
				int sp;
				int64_t a;
				rc = resolve(k, ic, o->sym, &sp, &a);
				if (rc)
					return rc;
				ei = &k->ins[idx];
				ei->aoff += a == -2 ? (int64_t)k->shared_dyn : a;
				ei->space = (uint8_t)sp;
			}
			ei->in.space = ei->space;
			break;
		}
		case WEFT_OPND_LABEL:
			if (grow((void **)fixes, capfix, *nfix + 1, sizeof(**fixes)))
				return nomem(k);
			(*fixes)[*nfix].idx = idx;
			(*fixes)[*nfix].label = (uint32_t)o->imm;
			(*nfix)++;
			break;
		case WEFT_OPND_VEC:
			for (int j = 0; j < o->nvec && j < 4 && ei->ns < 6; j++) {
				ei->s[ei->ns++] = o->vec_regs[j] >= 0 ? reg_slot(ic, o->vec_regs[j]) : k->scratch;
			}
			break;
		case WEFT_OPND_NONE:
			break;
		default: {
			int32_t slot;
			if (ei->ns >= 6)
				return lk_err(k, src, WEFT_ERR_PARSE, "unsupported instruction", "too many operands");
			rc = src_slot(k, ic, ei, o, &slot);
			if (rc)
				return rc;
			ei = &k->ins[idx];
			if (o->neg)
				ei->sneg |= (uint8_t)(1u << ei->ns);
			ei->s[ei->ns++] = slot;
			break;
		}
		}
	}
	ei = &k->ins[idx];
	if (ei->has_addr || op == WEFT_OP_ATOM || op == WEFT_OP_RED)
		ei->elem_bytes = (uint8_t)weft_ptx_type_size(src->type);
	if (ei->kind == WEFT_EK_ALU)
		return select_fn(k, ei);
	return 0;
}


/* Inlines `call` src (instruction i of ic's function) to callee. */
static int inline_call(struct lk *k, struct inst *ic, const struct weft_inst *src, uint32_t i,
		       uint32_t callee)
{
	const struct weft_ptx_func *cf = &k->m->funcs[callee];
	char d[300];
	int rc = 0;
	(void)i;
	if (cf->is_extern || cf->ninsts == 0) {
		snprintf(d, sizeof(d), "function %s has no body in this module (external functions, e.g. malloc, are not supported)", cf->name);
		return lk_err(k, src, WEFT_ERR_PARSE, "unsupported call", d);
	}
	if (k->onstack[callee]) {
		snprintf(d, sizeof(d), "function %s is called recursively; the emulator inlines calls and cannot run recursion", cf->name);
		return lk_err(k, src, WEFT_ERR_PARSE, "unsupported call", d);
	}
	if (src->ncall_args != cf->nparams || src->ncall_rets != cf->nrets) {
		snprintf(d, sizeof(d), "function %s takes %u parameters and %u return values, the call passes %u and %u",
			 cf->name, cf->nparams, cf->nrets, src->ncall_args, src->ncall_rets);
		return lk_err(k, src, WEFT_ERR_PARSE, "bad call", d);
	}
	struct inst *child = inst_new(k, callee, ic);
	if (!child)
		return nomem(k);
	int32_t base;
	if ((rc = new_slots(k, cf->nregs, &base))) {
		inst_free(child);
		return rc;
	}
	for (uint32_t r = 0; r < cf->nregs; r++)
		k->stype[base + r] = cf->regs[r].type;
	child->reg_base = (uint32_t)base;
	for (uint32_t j = 0; j < cf->nparams && !rc; j++) {
		int sp;
		int64_t a;
		rc = resolve(k, ic, src->call_args[j], &sp, &a);
		child->sp[cf->params[j].sym] = (int8_t)sp;
		child->addr[cf->params[j].sym] = a;
	}
	for (uint32_t j = 0; j < cf->nrets && !rc; j++) {
		int sp;
		int64_t a;
		rc = resolve(k, ic, src->call_rets[j], &sp, &a);
		child->sp[cf->rets[j].sym] = (int8_t)sp;
		child->addr[cf->rets[j].sym] = a;
	}
	if (!rc) {
		k->onstack[callee] = 1;
		rc = emit_func(k, child);
		k->onstack[callee] = 0;
	}
	inst_free(child);
	return rc;
}

/* A synthesised branch (target patched by the caller). */
static int push_branch(struct lk *k, struct inst *ic, const struct weft_inst *src, uint32_t i,
		       int32_t guard, int neg, uint32_t *idx)
{
	struct weft_emu_inst *ei;
	int rc = push_inst(k, &ei);
	if (rc)
		return rc;
	copy_renumbered(ei, src, ic);
	ei->in.op = WEFT_OP_BRA;
	ei->in.nopnd = 0;
	ei->in.guard = guard >= 0 ? guard : WEFT_NO_REG;
	ei->in.guard_neg = (uint8_t)neg;
	ei->guard = guard;
	ei->kind = WEFT_EK_BRA;
	ei->src_func = ic->func;
	ei->src_pc = i;
	*idx = k->n - 1;
	return 0;
}

/* An indirect call (`call (r), %rd, (a), proto;`, emitted with -G): the
 * pointer comes from `mov.u64 %rd, func`, whose value is
 * WEFT_EMU_FUNC_BASE + 16 * func. It becomes a chain that compares the
 * pointer with every address-taken function of a matching signature and
 * runs that function inlined; no match is a trap. */
static int indirect_call(struct lk *k, struct inst *ic, const struct weft_inst *src, uint32_t i)
{
	int rc;
	int32_t ptr = reg_slot(ic, src->opnd[0].reg), pred;
	uint32_t *ends = NULL, nends = 0;
	if ((rc = new_slots(k, 1, &pred)))
		return rc;
	k->stype[pred] = WEFT_T_PRED;
	uint32_t skip = WEFT_EMU_NO_PC;
	if (src->guard != WEFT_NO_REG && (rc = push_branch(k, ic, src, i, reg_slot(ic, src->guard),
							  !src->guard_neg, &skip)))
		return rc;
	ends = calloc(k->m->nfuncs + 1, sizeof(uint32_t));
	if (!ends)
		return nomem(k);
	for (uint32_t f = 0; f < k->m->nfuncs && !rc; f++) {
		const struct weft_ptx_func *cf = &k->m->funcs[f];
		if (!k->addr_taken[f] || cf->is_entry || cf->is_extern || !cf->ninsts ||
		    cf->nparams != src->ncall_args || cf->nrets != src->ncall_rets)
			continue;
		/* setp.ne.u64 pred, ptr, addr(f); @pred bra next; <f>; bra end; next: */
		struct weft_emu_inst *ei;
		if ((rc = push_inst(k, &ei)))
			break;
		uint32_t sidx = k->n - 1;
		copy_renumbered(ei, src, ic);
		ei->in.op = WEFT_OP_SETP;
		ei->in.type = WEFT_T_U64;
		ei->in.cmp = WEFT_CMP_NE;
		ei->in.boolop = WEFT_BOOL_NONE;
		ei->in.guard = WEFT_NO_REG;
		ei->in.nopnd = 3;
		memset(ei->in.opnd, 0, sizeof(ei->in.opnd));
		for (int j = 0; j < 3; j++) {
			ei->in.opnd[j].reg = ei->in.opnd[j].reg2 = WEFT_NO_REG;
			ei->in.opnd[j].sym = -1;
		}
		ei->in.opnd[0].kind = WEFT_OPND_REG;
		ei->in.opnd[0].reg = pred;
		ei->in.opnd[1].kind = WEFT_OPND_REG;
		ei->in.opnd[1].reg = ptr;
		ei->in.opnd[2].kind = WEFT_OPND_IMM;
		ei->in.opnd[2].imm = (int64_t)(WEFT_EMU_FUNC_BASE + 16ull * f);
		ei->kind = WEFT_EK_ALU;
		ei->src_func = ic->func;
		ei->src_pc = i;
		ei->d[0] = pred;
		ei->nd = 1;
		ei->s[0] = ptr;
		int32_t cs;
		if ((rc = const_slot(k, WEFT_EMU_FUNC_BASE + 16ull * f, &cs)))
			break;
		ei = &k->ins[sidx];
		ei->s[1] = cs;
		ei->ns = 2;
		if ((rc = select_fn(k, ei)))
			break;
		uint32_t next;
		if ((rc = push_branch(k, ic, src, i, pred, 0, &next)))
			break;
		if ((rc = inline_call(k, ic, src, i, f)))
			break;
		if ((rc = push_branch(k, ic, src, i, -1, 0, &ends[nends])))
			break;
		nends++;
		k->ins[next].target = k->n;
	}
	if (!rc) { /* no function matched: trap */
		struct weft_emu_inst *ei;
		if (!(rc = push_inst(k, &ei))) {
			copy_renumbered(ei, src, ic);
			ei->kind = WEFT_EK_TRAP;
			ei->in.op = WEFT_OP_TRAP;
			ei->in.nopnd = 0;
			ei->in.guard = WEFT_NO_REG;
			ei->src_func = ic->func;
			ei->src_pc = i;
		}
	}
	if (!rc) {
		for (uint32_t e = 0; e < nends; e++)
			k->ins[ends[e]].target = k->n;
		if (skip != WEFT_EMU_NO_PC)
			k->ins[skip].target = k->n;
	}
	free(ends);
	return rc;
}

/* Emits the body of ic->func (inlining its calls). */
static int emit_func(struct lk *k, struct inst *ic)
{
	const struct weft_ptx_func *f = &k->m->funcs[ic->func];
	uint32_t *pcmap = malloc(((size_t)f->ninsts + 1) * sizeof(uint32_t));
	struct fix *fixes = NULL;
	uint32_t nfix = 0, capfix = 0;
	uint32_t *rets = NULL, nrets = 0, caprets = 0;
	int rc = 0;
	if (!pcmap)
		return nomem(k);
	for (uint32_t i = 0; i < f->ninsts && !rc; i++) {
		const struct weft_inst *src = &f->insts[i];
		pcmap[i] = k->n;
		if (src->op == WEFT_OP_CALL) {
			const struct weft_operand *fo = &src->opnd[0];
			if (fo->kind == WEFT_OPND_REG) {
				rc = indirect_call(k, ic, src, i);
				if (rc)
					break;
				continue;
			}
			if (fo->kind != WEFT_OPND_FUNC) {
				rc = lk_err(k, src, WEFT_ERR_PARSE, "unsupported call", "the call target is not a function");
				break;
			}
			uint32_t callee = (uint32_t)fo->imm;
			const struct weft_ptx_func *cf = &k->m->funcs[callee];
			if ((cf->is_extern || cf->ninsts == 0) && !strcmp(cf->name, "vprintf") &&
			    src->ncall_args == 2 && src->ncall_rets <= 1) {
				/* device printf: one instruction, the call, whose
				 * handler formats each lane's text (emu_printf.c) */
				struct weft_emu_inst *ei;
				if ((rc = push_inst(k, &ei)))
					break;
				uint32_t idx = k->n - 1;
				copy_renumbered(ei, src, ic);
				ei->kind = WEFT_EK_ALU;
				ei->fn = weft_emu_printf;
				ei->in.nopnd = 0;
				ei->src_func = ic->func;
				ei->src_pc = i;
				if (src->guard != WEFT_NO_REG)
					ei->guard = reg_slot(ic, src->guard);
				int64_t a[3] = { 0, 0, 0 };
				int sp[3] = { WEFT_SPACE_LOCAL, WEFT_SPACE_LOCAL, WEFT_SPACE_LOCAL };
				for (int j = 0; j < 2 && !rc; j++)
					rc = resolve(k, ic, src->call_args[j], &sp[j], &a[j]);
				if (!rc && src->ncall_rets)
					rc = resolve(k, ic, src->call_rets[0], &sp[2], &a[2]);
				if (rc)
					break;
				ei = &k->ins[idx];
				if (sp[0] == WEFT_SPACE_LOCAL && sp[1] == WEFT_SPACE_LOCAL && sp[2] == WEFT_SPACE_LOCAL) {
					ei->is_printf = 1;
					ei->aoff = a[0];
					ei->target = (uint32_t)a[1];
					ei->reconv = src->ncall_rets ? (uint32_t)a[2] : WEFT_EMU_NO_PC;
				}
				continue;
			}
			if ((cf->is_extern || cf->ninsts == 0) && !strcmp(cf->name, "__assertfail") &&
			    src->ncall_args >= 3) {
				/* assert(): a trap that reports the message */
				struct weft_emu_inst *ei;
				if ((rc = push_inst(k, &ei)))
					break;
				uint32_t idx = k->n - 1;
				copy_renumbered(ei, src, ic);
				ei->kind = WEFT_EK_TRAP;
				ei->in.op = WEFT_OP_TRAP;
				ei->in.nopnd = 0;
				ei->src_func = ic->func;
				ei->src_pc = i;
				if (src->guard != WEFT_NO_REG)
					ei->guard = reg_slot(ic, src->guard);
				int64_t a[3];
				int sp[3];
				for (int j = 0; j < 3 && !rc; j++)
					rc = resolve(k, ic, src->call_args[j], &sp[j], &a[j]);
				if (rc)
					break;
				ei = &k->ins[idx];
				if (sp[0] == WEFT_SPACE_LOCAL && sp[1] == WEFT_SPACE_LOCAL && sp[2] == WEFT_SPACE_LOCAL) {
					ei->is_assert = 1;
					ei->aoff = a[0];
					ei->target = (uint32_t)a[1];
					ei->reconv = (uint32_t)a[2];
				}
				continue;
			}
			uint32_t skip = WEFT_EMU_NO_PC;
			if (src->guard != WEFT_NO_REG) { /* @p call: branch around the body */
				struct weft_emu_inst *ei;
				if ((rc = push_inst(k, &ei)))
					break;
				copy_renumbered(ei, src, ic);
				ei->in.op = WEFT_OP_BRA;
				ei->in.nopnd = 0;
				ei->in.guard_neg = !src->guard_neg;
				ei->guard = reg_slot(ic, src->guard);
				ei->kind = WEFT_EK_BRA;
				ei->src_func = ic->func;
				ei->src_pc = i;
				skip = k->n - 1;
			}
			rc = inline_call(k, ic, src, i, callee);
			if (!rc && skip != WEFT_EMU_NO_PC)
				k->ins[skip].target = k->n;
			continue;
		}
		if (src->op == WEFT_OP_RET) {
			if (!ic->parent) {
				struct weft_emu_inst *ei;
				if ((rc = push_inst(k, &ei)))
					break;
				copy_renumbered(ei, src, ic);
				ei->kind = WEFT_EK_EXIT;
				ei->src_func = ic->func;
				ei->src_pc = i;
				if (src->guard != WEFT_NO_REG)
					ei->guard = reg_slot(ic, src->guard);
				continue;
			}
			if (src->guard == WEFT_NO_REG && i + 1 == f->ninsts)
				continue; /* falls into the continuation */
			struct weft_emu_inst *ei;
			if ((rc = push_inst(k, &ei)))
				break;
			copy_renumbered(ei, src, ic);
			ei->in.op = WEFT_OP_BRA;
			ei->kind = WEFT_EK_BRA;
			ei->src_func = ic->func;
			ei->src_pc = i;
			if (src->guard != WEFT_NO_REG)
				ei->guard = reg_slot(ic, src->guard);
			if (grow((void **)&rets, &caprets, nrets + 1, sizeof(*rets))) {
				rc = nomem(k);
				break;
			}
			rets[nrets++] = k->n - 1;
			continue;
		}
		rc = lower(k, ic, src, i, &fixes, &nfix, &capfix);
	}
	if (!rc) {
		pcmap[f->ninsts] = k->n;
		for (uint32_t i = 0; i < nfix; i++) {
			struct weft_emu_inst *ei = &k->ins[fixes[i].idx];
			uint32_t lab = fixes[i].label;
			ei->target = lab <= f->ninsts ? pcmap[lab] : k->n;
			for (int j = 0; j < ei->in.nopnd; j++)
				if (ei->in.opnd[j].kind == WEFT_OPND_LABEL)
					ei->in.opnd[j].imm = ei->target;
		}
		for (uint32_t i = 0; i < nrets; i++)
			k->ins[rets[i]].target = k->n;
	}
	free(pcmap);
	free(fixes);
	free(rets);
	return rc;
}

/* Marks functions reachable from the kernel and the shared symbols they use. */
static void mark_reach(struct lk *k, uint32_t f, uint8_t *used)
{
	if (k->reach[f])
		return;
	k->reach[f] = 1;
	const struct weft_ptx_func *fn = &k->m->funcs[f];
	for (uint32_t i = 0; i < fn->ninsts; i++) {
		const struct weft_inst *in = &fn->insts[i];
		for (int j = 0; j < in->nopnd && j < WEFT_PTX_MAX_OPERANDS; j++) {
			const struct weft_operand *o = &in->opnd[j];
			if ((o->kind == WEFT_OPND_SYM || o->kind == WEFT_OPND_ADDR) && o->sym >= 0 &&
			    (uint32_t)o->sym < k->m->nsyms)
				used[o->sym] = 1;
			if (o->kind == WEFT_OPND_FUNC && o->imm >= 0 && (uint64_t)o->imm < k->m->nfuncs) {
				if (in->op != WEFT_OP_CALL)
					k->addr_taken[o->imm] = 1;
				mark_reach(k, (uint32_t)o->imm, used);
			}
		}
	}
}

/* Basic blocks of the lowered program and each branch's reconvergence pc:
 * the start of the immediate post-dominator of its block (cfg.h, the code
 * the static program and the models use too, so that traces replay with
 * the emulator's reconvergence points). */
static int reconvergence(struct lk *k, struct weft_emu_prog *p)
{
	uint32_t n = k->n;
	uint8_t *leader = calloc(n + 1, 1);
	uint32_t *bof = malloc((n + 1) * sizeof(uint32_t));
	if (!leader || !bof) {
		free(leader);
		free(bof);
		return nomem(k);
	}
	leader[0] = 1;
	for (uint32_t i = 0; i < n; i++) {
		const struct weft_emu_inst *ei = &k->ins[i];
		if (ei->kind == WEFT_EK_BRA && ei->target < n)
			leader[ei->target] = 1;
		if (ei->kind == WEFT_EK_BRA || ei->kind == WEFT_EK_EXIT || ei->kind == WEFT_EK_TRAP)
			leader[i + 1] = 1;
	}
	uint32_t nb = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (leader[i])
			nb++;
		bof[i] = nb - 1;
		k->ins[i].block = nb - 1;
	}
	uint32_t X = nb; /* the virtual exit, as cfg.h numbers it */
	uint32_t *start = malloc((nb + 1) * sizeof(uint32_t));
	uint32_t *gs = malloc((nb + 1) * sizeof(uint32_t)); /* CSR successor lists */
	uint32_t *adj = malloc((2 * (size_t)nb + 1) * sizeof(uint32_t));
	uint32_t *ipdom = malloc((nb + 1) * sizeof(uint32_t));
	int rc = 0;
	if (!start || !gs || !adj || !ipdom) {
		rc = nomem(k);
		goto out;
	}
	for (uint32_t i = 0, b = 0; i < n; i++)
		if (leader[i])
			start[b++] = i;
	start[nb] = n;
	uint32_t ne = 0;
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t last = (b + 1 < nb ? start[b + 1] : n) - 1;
		const struct weft_emu_inst *ei = &k->ins[last];
		uint32_t fall = last + 1 < n ? bof[last + 1] : X;
		gs[b] = ne;
		switch (ei->kind) {
		case WEFT_EK_BRA: {
			uint32_t tb = ei->target < n ? bof[ei->target] : X;
			adj[ne++] = tb;
			if (ei->guard >= 0 && tb != fall)
				adj[ne++] = fall;
			break;
		}
		case WEFT_EK_EXIT: case WEFT_EK_TRAP:
			adj[ne++] = X;
			if (ei->guard >= 0 && fall != X)
				adj[ne++] = fall;
			break;
		default:
			adj[ne++] = fall;
			break;
		}
	}
	gs[nb] = ne;
	if ((rc = weft_cfg_ipdom(nb, gs, adj, ipdom, k->err)))
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		struct weft_emu_inst *ei = &k->ins[i];
		if (ei->kind != WEFT_EK_BRA)
			continue;
		uint32_t r = ipdom[bof[i]];
		ei->reconv = (r == WEFT_CFG_NONE || r >= nb) ? WEFT_EMU_NO_PC : start[r];
	}
	p->nblocks = nb;
out:
	free(leader);
	free(bof);
	free(start);
	free(gs);
	free(adj);
	free(ipdom);
	return rc;
}

int weft_emu_link(struct weft_module *mod, uint32_t func, struct weft_emu_prog **out,
		  struct weft_error *err)
{
	struct lk k;
	memset(&k, 0, sizeof(k));
	k.mod = mod;
	k.m = mod->ptx;
	k.err = err;
	k.kernel = func;
	*out = NULL;
	const struct weft_ptx_func *kf = &k.m->funcs[func];
	uint32_t ns = k.m->nsyms ? k.m->nsyms : 1;
	k.shared_off = malloc(ns * sizeof(int64_t));
	k.onstack = calloc(k.m->nfuncs + 1, 1);
	k.reach = calloc(k.m->nfuncs + 1, 1);
	k.addr_taken = calloc(k.m->nfuncs + 1, 1);
	uint8_t *used = calloc(ns, 1);
	struct inst *top = NULL;
	struct weft_emu_prog *p = calloc(1, sizeof(*p));
	int rc = 0;
	if (!k.shared_off || !k.onstack || !k.reach || !k.addr_taken || !used || !p) {
		rc = nomem(&k);
		goto fail;
	}
	for (uint32_t i = 0; i < ns; i++)
		k.shared_off[i] = -1;
	/* shared layout: module and function-scope .shared variables used by
	 * the kernel or the functions it calls, in declaration order; extern
	 * (dynamic) shared after them */
	mark_reach(&k, func, used);
	uint32_t dyn_align = 16;
	for (uint32_t i = 0; i < k.m->nsyms; i++) {
		const struct weft_ptx_symbol *s = &k.m->syms[i];
		if (s->space != WEFT_SPACE_SHARED)
			continue;
		if (!used[i] && !(s->func >= 0 && k.reach[s->func]))
			continue;
		if (s->is_extern) {
			if (s->align > dyn_align)
				dyn_align = s->align;
			k.shared_off[i] = -2;
			continue;
		}
		k.shared_static = align_up(k.shared_static, s->align ? s->align : 1);
		k.shared_off[i] = (int64_t)k.shared_static;
		if (add_capped(&k.shared_static, s->size, WEFT_MAX_SHARED_BYTES)) {
			rc = too_big(&k, (int32_t)i, "static shared memory", k.shared_static,
				     WEFT_MAX_SHARED_BYTES, "a block");
			goto fail;
		}
	}
	k.shared_dyn = align_up(k.shared_static, dyn_align);

	top = inst_new(&k, func, NULL);
	if (!top) {
		rc = nomem(&k);
		goto fail;
	}
	if ((rc = new_slots(&k, 1, &k.scratch)))
		goto fail;
	int32_t base;
	if ((rc = new_slots(&k, kf->nregs, &base)))
		goto fail;
	for (uint32_t r = 0; r < kf->nregs; r++)
		k.stype[base + r] = kf->regs[r].type;
	top->reg_base = (uint32_t)base;
	for (uint32_t j = 0; j < kf->nparams; j++) {
		top->sp[kf->params[j].sym] = WEFT_SPACE_PARAM;
		top->addr[kf->params[j].sym] = kf->params[j].offset;
	}
	k.onstack[func] = 1;
	if ((rc = emit_func(&k, top)))
		goto fail;
	/* implicit exit at the end of the kernel */
	struct weft_emu_inst *ei;
	if ((rc = push_inst(&k, &ei)))
		goto fail;
	ei->kind = WEFT_EK_EXIT;
	ei->in.op = WEFT_OP_EXIT;
	ei->in.guard = WEFT_NO_REG;
	ei->src_func = func;
	ei->src_pc = kf->ninsts;
	if (k.n > 1)
		ei->in.pos = k.ins[k.n - 2].in.pos;
	else
		ei->in.pos.line = kf->line;

	for (uint32_t i = 0; i < k.n; i++)
		if (k.ins[i].kind == WEFT_EK_BRA && k.ins[i].target > k.n - 1)
			k.ins[i].target = k.n - 1;

	/* A branch to an unguarded exit is an exit: `@p bra $L_ret` with
	 * `$L_ret: ret;` becomes `@p exit`. This is nvcc's early return (`if
	 * (i >= n) return; ... __syncthreads();`): the returning lanes leave at
	 * once instead of waiting at the shared final `ret` (the branch's
	 * reconvergence point) while the others wait at the barrier. Observers
	 * see the rewritten instruction (op exit). */
	for (uint32_t i = 0; i < k.n; i++) {
		struct weft_emu_inst *e = &k.ins[i];
		if (e->kind != WEFT_EK_BRA || e->target >= k.n)
			continue;
		const struct weft_emu_inst *t = &k.ins[e->target];
		if (t->kind != WEFT_EK_EXIT || t->guard >= 0)
			continue;
		e->kind = WEFT_EK_EXIT;
		e->in.op = WEFT_OP_EXIT;
		e->in.nopnd = 0;
		e->target = WEFT_EMU_NO_PC;
	}
	if ((rc = reconvergence(&k, p)))
		goto fail;
	p->kernel = func;
	p->name = kf->name;
	p->insts = k.ins;
	p->ninsts = k.n;
	p->nregs = k.nslots;
	p->reg_type = k.stype;
	p->nslots = k.nslots;
	p->scratch_slot = k.scratch;
	p->consts = k.consts;
	p->nconsts = k.nconsts;
	p->sregs = k.sregs;
	p->nsregs = k.nsregs;
	/* each at most its limit (too_big), so they fit 32 bits */
	p->local_bytes = (uint32_t)align_up(k.local_bytes, 8);
	p->shared_static = (uint32_t)k.shared_static;
	p->shared_dyn_offset = (uint32_t)k.shared_dyn;
	k.ins = NULL;
	k.stype = NULL;
	k.consts = NULL;
	k.sregs = NULL;
	*out = p;
	p = NULL;
fail:
	inst_free(top);
	free(k.shared_off);
	free(k.onstack);
	free(k.reach);
	free(k.addr_taken);
	free(used);
	free(k.ins);
	free(k.stype);
	free(k.consts);
	free(k.chash);
	free(k.sregs);
	free(p);
	return rc;
}

void weft_emu_prog_free(struct weft_emu_prog *p)
{
	if (!p)
		return;
	free(p->insts);
	free(p->reg_type);
	free(p->consts);
	free(p->sregs);
	free(p);
}

int weft_emu_program(struct weft_module *mod, uint32_t kernel, const struct weft_emu_prog **out,
		     struct weft_error *err)
{
	if (kernel >= mod->ptx->nfuncs)
		return weft_error_set(err, WEFT_ERR_INPUT, "no function %u in module %s", kernel,
				      mod->ptx->path ? mod->ptx->path : "<ptx>");
	if (!mod->progs[kernel]) {
		int rc = weft_emu_link(mod, kernel, &mod->progs[kernel], err);
		if (rc)
			return rc;
	}
	*out = mod->progs[kernel];
	return 0;
}
