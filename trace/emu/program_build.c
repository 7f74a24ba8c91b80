/*
 * program_build.c - the static program (program.h) of a loaded module's
 * kernel, built from the emulator's lowered form (emu.h struct
 * weft_emu_prog), so that its pcs are exactly the pcs observers see in
 * struct weft_warp_event.pc.
 *
 * Registers are the emulator's register slots; each slot that an
 * instruction names gets the PTX name of the register it came from (the
 * kernel's own registers keep "%r12"; registers of inlined callees become
 * "callee:%r3"). Branches that the linker synthesised (an inlined `ret`, a
 * guarded `call` jumping around the inlined body) get a label operand
 * holding their target so that the program is self-contained.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "host.h"
#include "trace/ptx/program.h"

static char *dupstr(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Names slot `slot` after register `reg` of function `f` (first one wins). */
static int name_slot(struct weft_program *p, const struct weft_ptx_module *m, uint32_t kernel,
		     uint32_t f, int32_t reg, int32_t slot)
{
	if (slot < 0 || (uint32_t)slot >= p->nregs || reg < 0 || p->reg_names[slot])
		return 0;
	const struct weft_ptx_func *fn = &m->funcs[f];
	if ((uint32_t)reg >= fn->nregs)
		return 0;
	char buf[320];
	if (f == kernel)
		snprintf(buf, sizeof(buf), "%s", fn->regs[reg].name);
	else
		snprintf(buf, sizeof(buf), "%s:%s", fn->name, fn->regs[reg].name);
	p->reg_names[slot] = dupstr(buf);
	return p->reg_names[slot] ? 0 : -1;
}

/* Pairs the registers of the source instruction with the lowered one's. */
static int name_regs(struct weft_program *p, const struct weft_ptx_module *m, uint32_t kernel,
		     const struct weft_emu_inst *ei)
{
	if (ei->src_func >= m->nfuncs || ei->src_pc >= m->funcs[ei->src_func].ninsts)
		return 0;
	const struct weft_inst *src = &m->funcs[ei->src_func].insts[ei->src_pc];
	const struct weft_inst *lo = &ei->in;
	uint32_t f = ei->src_func;
	int rc = 0;
	if (src->guard != WEFT_NO_REG)
		rc |= name_slot(p, m, kernel, f, src->guard, lo->guard);
	if (src->op != lo->op)
		return rc; /* synthesised branch: operands differ */
	for (int i = 0; i < src->nopnd && i < lo->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *a = &src->opnd[i], *b = &lo->opnd[i];
		if (a->kind != b->kind)
			continue;
		if (a->kind == WEFT_OPND_REG || a->kind == WEFT_OPND_ADDR || a->kind == WEFT_OPND_SINK) {
			if (a->kind != WEFT_OPND_SINK)
				rc |= name_slot(p, m, kernel, f, a->reg, b->reg);
			if (a->kind != WEFT_OPND_ADDR)
				rc |= name_slot(p, m, kernel, f, a->reg2, b->reg2);
		} else if (a->kind == WEFT_OPND_VEC) {
			for (int j = 0; j < a->nvec && j < 4; j++)
				rc |= name_slot(p, m, kernel, f, a->vec_regs[j], b->vec_regs[j]);
		}
	}
	return rc;
}

int weft_module_program(struct weft_module *mod, uint32_t kernel, struct weft_program **out,
			struct weft_error *err)
{
	const struct weft_emu_prog *ep;
	int rc;
	*out = NULL;
	if ((rc = weft_emu_program(mod, kernel, &ep, err)))
		return rc;
	const struct weft_ptx_module *m = mod->ptx;
	struct weft_program *p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	p->kernel = dupstr(ep->name ? ep->name : m->funcs[kernel].name);
	p->ptx_hash = m->hash;
	p->ninsts = ep->ninsts;
	p->nregs = ep->nregs;
	p->insts = calloc((size_t)ep->ninsts + 1, sizeof(*p->insts));
	p->reg_type = calloc((size_t)ep->nregs + 1, 1);
	p->reg_names = calloc((size_t)ep->nregs + 1, sizeof(char *));
	if (!p->kernel || !p->insts || !p->reg_type || !p->reg_names)
		goto nomem;
	memcpy(p->reg_type, ep->reg_type, ep->nregs);
	for (uint32_t i = 0; i < ep->ninsts; i++) {
		const struct weft_emu_inst *ei = &ep->insts[i];
		struct weft_inst *in = &p->insts[i];
		*in = ei->in;
		in->call_rets = in->call_args = NULL;
		in->ncall_rets = in->ncall_args = 0;
		if (ei->kind == WEFT_EK_BRA) {
			/* make sure the target is in a label operand */
			int found = 0;
			for (int j = 0; j < in->nopnd && j < WEFT_PTX_MAX_OPERANDS; j++)
				if (in->opnd[j].kind == WEFT_OPND_LABEL) {
					in->opnd[j].imm = ei->target;
					found = 1;
				}
			if (!found) {
				memset(&in->opnd[0], 0, sizeof(in->opnd[0]));
				in->opnd[0].kind = WEFT_OPND_LABEL;
				in->opnd[0].reg = in->opnd[0].reg2 = WEFT_NO_REG;
				in->opnd[0].sym = -1;
				in->opnd[0].imm = ei->target;
				in->nopnd = 1;
			}
			in->op = WEFT_OP_BRA;
		}
		if (name_regs(p, m, kernel, ei))
			goto nomem;
	}
	for (uint32_t r = 0; r < p->nregs; r++)
		if (!p->reg_names[r]) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%%slot%u", r);
			if (!(p->reg_names[r] = dupstr(buf)))
				goto nomem;
		}
	p->nfiles = m->nfiles;
	if (m->nfiles) {
		p->files = calloc(m->nfiles, sizeof(char *));
		if (!p->files)
			goto nomem;
		for (uint32_t i = 0; i < m->nfiles; i++)
			if (m->files[i] && !(p->files[i] = dupstr(m->files[i])))
				goto nomem;
	}
	p->nsyms = m->nsyms;
	if (m->nsyms) {
		p->sym_names = calloc(m->nsyms, sizeof(char *));
		if (!p->sym_names)
			goto nomem;
		for (uint32_t i = 0; i < m->nsyms; i++)
			if (m->syms[i].name && !(p->sym_names[i] = dupstr(m->syms[i].name)))
				goto nomem;
	}
	p->param_bytes = m->funcs[kernel].param_bytes;
	p->shared_static_bytes = ep->shared_static;
	p->local_bytes = ep->local_bytes;
	if ((rc = weft_program_analyse(p, err))) {
		weft_program_free(p);
		return rc;
	}
	*out = p;
	return 0;
nomem:
	weft_program_free(p);
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory building the program of kernel %u",
			      kernel);
}
