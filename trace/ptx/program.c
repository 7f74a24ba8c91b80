/*
 * program.c - static analysis of a lowered kernel (program.h): basic
 * blocks, CFG successors, immediate post-dominators (through cfg.h, the
 * same code the emulator uses for reconvergence), per-instruction facts
 * (class, registers defined and used, access width, what a trace stores),
 * and instruction text for dumps.
 */
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static const char *const class_names[WEFT_IC_COUNT] = {
	"int", "fp", "sfu", "load", "store", "atomic", "branch", "barrier", "warp", "other",
};

const char *weft_inst_class_name(enum weft_inst_class c)
{
	return (unsigned)c < WEFT_IC_COUNT ? class_names[c] : "?";
}

static int is_ctrl(int op)
{
	return op == WEFT_OP_BRA || op == WEFT_OP_BRX || op == WEFT_OP_RET || op == WEFT_OP_EXIT ||
	       op == WEFT_OP_TRAP;
}

static enum weft_inst_class classify(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_LD: case WEFT_OP_LDU: return WEFT_IC_LOAD;
	case WEFT_OP_ST: return WEFT_IC_STORE;
	/* texture fetches and surface accesses: global memory reads and
	 * writes of the buffer behind the object (ptx.h WEFT_OP_TEX) */
	case WEFT_OP_TEX: case WEFT_OP_TLD4: case WEFT_OP_SULD: return WEFT_IC_LOAD;
	case WEFT_OP_SUST: return WEFT_IC_STORE;
	case WEFT_OP_ATOM: case WEFT_OP_RED: return WEFT_IC_ATOMIC;
	case WEFT_OP_BRA: case WEFT_OP_BRX: case WEFT_OP_CALL: case WEFT_OP_RET:
	case WEFT_OP_EXIT: case WEFT_OP_TRAP:
		return WEFT_IC_BRANCH;
	case WEFT_OP_BAR: case WEFT_OP_BAR_WARP: case WEFT_OP_MEMBAR: case WEFT_OP_FENCE:
		return WEFT_IC_BARRIER;
	case WEFT_OP_SHFL: case WEFT_OP_VOTE: case WEFT_OP_ACTIVEMASK: case WEFT_OP_MATCH:
	case WEFT_OP_REDUX:
		return WEFT_IC_WARP;
	case WEFT_OP_NANOSLEEP: case WEFT_OP_PREFETCH: return WEFT_IC_OTHER;
	case WEFT_OP_RCP: case WEFT_OP_SQRT: case WEFT_OP_RSQRT: case WEFT_OP_EX2:
	case WEFT_OP_LG2: case WEFT_OP_SIN: case WEFT_OP_COS: case WEFT_OP_TANH:
	case WEFT_OP_DIV: case WEFT_OP_REM:
		return WEFT_IC_SFU;
	case WEFT_OP_ADD: case WEFT_OP_SUB: case WEFT_OP_MUL: case WEFT_OP_MAD:
	case WEFT_OP_FMA: case WEFT_OP_MIN: case WEFT_OP_MAX: case WEFT_OP_ABS:
	case WEFT_OP_NEG: case WEFT_OP_COPYSIGN: case WEFT_OP_TESTP:
		return weft_ptx_type_is_float(in->type) ? WEFT_IC_FP : WEFT_IC_INT;
	case WEFT_OP_SETP: case WEFT_OP_SET: case WEFT_OP_CVT:
		return weft_ptx_type_is_float(in->type) || weft_ptx_type_is_float(in->type2)
			       ? WEFT_IC_FP
			       : WEFT_IC_INT;
	default:
		return WEFT_IC_INT;
	}
}

static void add_reg(int32_t *arr, uint8_t *n, unsigned max, int32_t r)
{
	if (r < 0)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (arr[i] == r)
			return;
	if (*n < max)
		arr[(*n)++] = r;
}

/* The branch target pc of a bra (its label operand), or UINT32_MAX. */
static uint32_t bra_target(const struct weft_inst *in)
{
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++)
		if (in->opnd[i].kind == WEFT_OPND_LABEL && in->opnd[i].imm >= 0)
			return (uint32_t)in->opnd[i].imm;
	return UINT32_MAX;
}

static void inst_info(const struct weft_inst *in, struct weft_inst_info *ii)
{
	memset(ii, 0, sizeof(*ii));
	ii->cls = (uint8_t)classify(in);
	int hd = weft_inst_has_dest(in);
	int mem = 0;
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		if (i == 0 && hd) {
			if (o->kind == WEFT_OPND_REG || o->kind == WEFT_OPND_SINK) {
				if (o->kind == WEFT_OPND_REG)
					add_reg(ii->defs, &ii->ndefs, 6, o->reg);
				add_reg(ii->defs, &ii->ndefs, 6, o->reg2);
			} else if (o->kind == WEFT_OPND_VEC) {
				for (int j = 0; j < o->nvec && j < 4; j++)
					add_reg(ii->defs, &ii->ndefs, 6, o->vec_regs[j]);
			}
			continue;
		}
		switch (o->kind) {
		case WEFT_OPND_REG:
			add_reg(ii->uses, &ii->nuses, 12, o->reg);
			break;
		case WEFT_OPND_ADDR:
			mem = 1;
			add_reg(ii->uses, &ii->nuses, 12, o->reg);
			break;
		case WEFT_OPND_VEC:
			for (int j = 0; j < o->nvec && j < 4; j++)
				add_reg(ii->uses, &ii->nuses, 12, o->vec_regs[j]);
			break;
		default:
			break;
		}
	}
	add_reg(ii->uses, &ii->nuses, 12, in->guard);
	switch (in->op) {
	case WEFT_OP_BRA: case WEFT_OP_BRX: case WEFT_OP_CALL: case WEFT_OP_RET:
	case WEFT_OP_EXIT: case WEFT_OP_TRAP: case WEFT_OP_NANOSLEEP: case WEFT_OP_BAR_WARP:
	case WEFT_OP_MEMBAR: case WEFT_OP_FENCE:
		mem = 0; /* the emulator never resolves an address for these */
		break;
	default:
		break;
	}
	if (mem) {
		ii->flags |= WEFT_II_ADDR;
		ii->space = in->space;
		unsigned sz = weft_ptx_type_size((enum weft_ptx_type)in->type);
		/* a texture fetch counts the bytes it returns (16 for
		 * tex.v4.f32): the texel size is the object's, not the
		 * instruction's (docs/emulator.md "Textures and surfaces") */
		if (in->op == WEFT_OP_LD || in->op == WEFT_OP_LDU || in->op == WEFT_OP_ST ||
		    in->op == WEFT_OP_TEX || in->op == WEFT_OP_TLD4 || in->op == WEFT_OP_SULD ||
		    in->op == WEFT_OP_SUST)
			sz *= in->vec ? in->vec : 1;
		ii->access_bytes = (uint8_t)(sz > 255 ? 255 : sz);
	}
	if (is_ctrl(in->op))
		ii->flags |= WEFT_II_CTRL;
	if (in->guard != WEFT_NO_REG)
		ii->flags |= is_ctrl(in->op) ? WEFT_II_GCTRL : WEFT_II_GUARD;
}

struct fmt_tables {
	struct weft_ptx_func f;
	struct weft_ptx_module m;
	char *labels; /* storage of label_at strings */
};

static void fmt_free(struct fmt_tables *t)
{
	if (!t)
		return;
	free(t->f.regs);
	free(t->f.label_at);
	free(t->m.syms);
	free(t->labels);
	free(t);
}

static int fmt_build(struct weft_program *p)
{
	struct fmt_tables *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->f.name = p->kernel;
	t->f.ninsts = p->ninsts;
	t->f.nregs = p->nregs;
	t->f.regs = calloc((size_t)p->nregs + 1, sizeof(*t->f.regs));
	t->f.label_at = calloc((size_t)p->ninsts + 1, sizeof(char *));
	t->labels = malloc((size_t)p->nblocks * 16 + 1);
	t->m.nsyms = p->nsyms;
	t->m.syms = calloc((size_t)p->nsyms + 1, sizeof(*t->m.syms));
	if (!t->f.regs || !t->f.label_at || !t->labels || !t->m.syms) {
		fmt_free(t);
		return -1;
	}
	for (uint32_t r = 0; r < p->nregs; r++) {
		t->f.regs[r].name = p->reg_names && p->reg_names[r] ? p->reg_names[r] : "%?";
		t->f.regs[r].type = p->reg_type ? p->reg_type[r] : 0;
	}
	for (uint32_t b = 0; b < p->nblocks; b++) {
		char *s = t->labels + (size_t)b * 16;
		snprintf(s, 16, "BB%u", b);
		if (p->blocks[b].first <= p->ninsts)
			t->f.label_at[p->blocks[b].first] = s;
	}
	for (uint32_t i = 0; i < p->nsyms; i++)
		t->m.syms[i].name = p->sym_names && p->sym_names[i] ? p->sym_names[i] : "?sym";
	fmt_free(p->priv);
	p->priv = t;
	return 0;
}

int weft_program_analyse(struct weft_program *p, struct weft_error *err)
{
	uint32_t n = p->ninsts;
	free(p->info);
	free(p->block_of);
	free(p->blocks);
	free(p->iflags);
	p->iflags = NULL;
	p->info = NULL;
	p->block_of = NULL;
	p->blocks = NULL;
	p->nblocks = 0;
	p->info = calloc((size_t)n + 1, sizeof(*p->info));
	p->block_of = malloc(((size_t)n + 1) * sizeof(uint32_t));
	uint8_t *leader = calloc((size_t)n + 1, 1);
	uint32_t *start = NULL, *adj = NULL, *ipdom = NULL;
	int rc = 0;
	if (!p->info || !p->block_of || !leader)
		goto nomem;
	for (uint32_t i = 0; i < n; i++) {
		const struct weft_inst *in = &p->insts[i];
		inst_info(in, &p->info[i]);
		if (in->op == WEFT_OP_BRA) {
			uint32_t t = bra_target(in);
			if (t >= n) {
				rc = weft_error_set(err, WEFT_ERR_INPUT,
						    "kernel %s: branch at pc %u has no target inside the program (%u instructions)",
						    p->kernel ? p->kernel : "?", i, n);
				goto out;
			}
			leader[t] = 1;
		}
		if (is_ctrl(in->op))
			leader[i + 1] = 1;
	}
	if (n)
		leader[0] = 1;
	uint32_t nb = 0;
	for (uint32_t i = 0; i < n; i++) {
		nb += leader[i];
		p->block_of[i] = nb - 1;
		p->info[i].block = nb - 1;
	}
	p->blocks = calloc((size_t)nb + 1, sizeof(*p->blocks));
	start = malloc(((size_t)nb + 1) * sizeof(uint32_t));
	adj = malloc(((size_t)nb * 2 + 1) * sizeof(uint32_t));
	ipdom = malloc(((size_t)nb + 1) * sizeof(uint32_t));
	if (!p->blocks || !start || !adj || !ipdom)
		goto nomem;
	p->nblocks = nb;
	for (uint32_t i = 0, b = 0; i < n; i++)
		if (leader[i])
			p->blocks[b++].first = i;
	uint32_t ne = 0;
	for (uint32_t b = 0; b < nb; b++) {
		struct weft_block *B = &p->blocks[b];
		uint32_t end = b + 1 < nb ? p->blocks[b + 1].first : n;
		B->count = end - B->first;
		const struct weft_inst *last = &p->insts[end - 1];
		uint32_t fall = end < n ? b + 1 : WEFT_NO_BLOCK;
		int guarded = last->guard != WEFT_NO_REG;
		int to_exit = 0;
		B->nsucc = 0;
		switch (last->op) {
		case WEFT_OP_BRA: {
			uint32_t tb = p->block_of[bra_target(last)];
			if (guarded && fall != WEFT_NO_BLOCK && fall != tb)
				B->succ[B->nsucc++] = fall;
			B->succ[B->nsucc++] = tb;
			if (guarded && fall == WEFT_NO_BLOCK)
				to_exit = 1;
			break;
		}
		case WEFT_OP_BRX: /* indirect: targets unknown statically */
			to_exit = 1;
			break;
		case WEFT_OP_RET: case WEFT_OP_EXIT: case WEFT_OP_TRAP:
			to_exit = 1;
			if (guarded && fall != WEFT_NO_BLOCK)
				B->succ[B->nsucc++] = fall;
			break;
		default:
			if (fall != WEFT_NO_BLOCK)
				B->succ[B->nsucc++] = fall;
			else
				to_exit = 1;
			break;
		}
		/* a guarded branch to its own fall-through: the guard does not
		 * show in the path, so the trace stores it */
		if (last->op == WEFT_OP_BRA && guarded && B->nsucc == 1) {
			p->info[end - 1].flags &= (uint8_t)~WEFT_II_GCTRL;
			p->info[end - 1].flags |= WEFT_II_GUARD;
		}
		start[b] = ne;
		for (uint32_t j = 0; j < B->nsucc; j++)
			adj[ne++] = B->succ[j];
		if (to_exit && B->nsucc)
			adj[ne++] = nb;
	}
	start[nb] = ne;
	if ((rc = weft_cfg_ipdom(nb, start, adj, ipdom, err)))
		goto out;
	for (uint32_t b = 0; b < nb; b++)
		p->blocks[b].ipdom = ipdom[b] >= nb ? WEFT_NO_BLOCK : ipdom[b];
	p->iflags = malloc((size_t)n + 1);
	if (!p->iflags)
		goto nomem;
	for (uint32_t i = 0; i < n; i++)
		p->iflags[i] = p->info[i].flags & (WEFT_II_ADDR | WEFT_II_GUARD | WEFT_II_GCTRL);
	if (fmt_build(p))
		goto nomem;
	goto out;
nomem:
	rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory analysing kernel %s",
			    p->kernel ? p->kernel : "?");
out:
	free(leader);
	free(start);
	free(adj);
	free(ipdom);
	return rc;
}

void weft_program_free(struct weft_program *p)
{
	if (!p)
		return;
	free(p->kernel);
	free(p->insts);
	free(p->info);
	free(p->block_of);
	free(p->blocks);
	free(p->iflags);
	free(p->reg_type);
	if (p->reg_names)
		for (uint32_t r = 0; r < p->nregs; r++)
			free(p->reg_names[r]);
	free(p->reg_names);
	if (p->files)
		for (uint32_t i = 0; i < p->nfiles; i++)
			free(p->files[i]);
	free(p->files);
	if (p->sym_names)
		for (uint32_t i = 0; i < p->nsyms; i++)
			free(p->sym_names[i]);
	free(p->sym_names);
	fmt_free(p->priv);
	free(p);
}

void weft_program_format_inst(const struct weft_program *p, uint32_t pc, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = 0;
	if (!p || pc >= p->ninsts)
		return;
	const struct fmt_tables *t = p->priv;
	weft_ptx_format_inst(t ? &t->m : NULL, t ? &t->f : NULL, &p->insts[pc], buf, len);
}
