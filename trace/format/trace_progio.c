/*
 * trace_progio.c - (de)serialises a struct weft_program into the payload of
 * a trace LNCH record (docs/trace-format.md "Static program"). On reading,
 * blocks, successors and post-dominators are recomputed by
 * weft_program_analyse and must agree with the stored ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_format.h"

static void put_inst(struct wt_buf *b, const struct weft_inst *in)
{
	weft_trace_buf_u32(b, in->op);
	uint8_t f8[10] = { in->type, in->type2, in->space, in->vec, in->cmp, in->boolop, in->rnd, in->mode,
			   in->nopnd, in->guard_neg };
	weft_trace_buf_bytes(b, f8, sizeof(f8));
	weft_trace_buf_u32(b, (uint32_t)in->guard);
	weft_trace_buf_u32(b, in->flags);
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		uint8_t o8[4] = { o->kind, o->neg, o->imm_is_float, o->nvec };
		weft_trace_buf_bytes(b, o8, 4);
		weft_trace_buf_u32(b, (uint32_t)o->sreg | (uint32_t)o->comp << 16);
		weft_trace_buf_u32(b, (uint32_t)o->reg);
		weft_trace_buf_u32(b, (uint32_t)o->reg2);
		weft_trace_buf_u32(b, (uint32_t)o->sym);
		for (int j = 0; j < 4; j++)
			weft_trace_buf_u32(b, (uint32_t)o->vec_regs[j]);
		weft_trace_buf_u64(b, (uint64_t)o->imm);
	}
	weft_trace_buf_u32(b, in->pos.line);
	weft_trace_buf_u32(b, in->pos.column);
	weft_trace_buf_u32(b, (uint32_t)in->pos.src_file);
	weft_trace_buf_u32(b, in->pos.src_line);
}

int weft_trace_program_write(struct wt_buf *b, const struct weft_program *p)
{
	weft_trace_buf_str(b, p->kernel);
	weft_trace_buf_u64(b, p->ptx_hash);
	weft_trace_buf_u32(b, p->param_bytes);
	weft_trace_buf_u32(b, p->shared_static_bytes);
	weft_trace_buf_u32(b, p->local_bytes);
	weft_trace_buf_u32(b, p->ninsts);
	for (uint32_t i = 0; i < p->ninsts; i++)
		put_inst(b, &p->insts[i]);
	weft_trace_buf_u32(b, p->nregs);
	for (uint32_t r = 0; r < p->nregs; r++) {
		wt_buf_u8(b, p->reg_type[r]);
		weft_trace_buf_str(b, p->reg_names ? p->reg_names[r] : NULL);
	}
	weft_trace_buf_u32(b, p->nfiles);
	for (uint32_t i = 0; i < p->nfiles; i++)
		weft_trace_buf_str(b, p->files[i]);
	weft_trace_buf_u32(b, p->nsyms);
	for (uint32_t i = 0; i < p->nsyms; i++)
		weft_trace_buf_str(b, p->sym_names ? p->sym_names[i] : NULL);
	weft_trace_buf_u32(b, p->nblocks);
	for (uint32_t i = 0; i < p->nblocks; i++) {
		const struct weft_block *B = &p->blocks[i];
		weft_trace_buf_u32(b, B->first);
		weft_trace_buf_u32(b, B->count);
		weft_trace_buf_u32(b, B->nsucc);
		weft_trace_buf_u32(b, B->succ[0]);
		weft_trace_buf_u32(b, B->succ[1]);
		weft_trace_buf_u32(b, B->ipdom);
	}
	return b->oom ? -1 : 0;
}

/* Counts must fit in what is left of the payload (each element takes at
 * least `min` bytes), so a corrupt count cannot ask for huge allocations. */
static int fits(struct wt_rd *r, uint64_t count, size_t min)
{
	if (count > (uint64_t)(r->end - r->p) / min) {
		r->bad = 1;
		return 0;
	}
	return 1;
}

int weft_trace_program_read(struct wt_rd *r, struct weft_program **out, char *why, size_t whylen)
{
	struct weft_program *p = calloc(1, sizeof(*p));
	*out = NULL;
	if (!p)
		return WEFT_ERR_NOMEM;
	p->kernel = weft_trace_rd_str(r);
	p->ptx_hash = weft_trace_rd_u64(r);
	p->param_bytes = weft_trace_rd_u32(r);
	p->shared_static_bytes = weft_trace_rd_u32(r);
	p->local_bytes = weft_trace_rd_u32(r);
	uint32_t n = weft_trace_rd_u32(r);
	if (r->bad || !fits(r, n, 34))
		goto bad;
	p->insts = calloc((size_t)n + 1, sizeof(*p->insts));
	if (!p->insts)
		goto nomem;
	p->ninsts = n;
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		struct weft_inst *in = &p->insts[i];
		in->op = (uint16_t)weft_trace_rd_u32(r);
		in->type = wt_rd_u8(r);
		in->type2 = wt_rd_u8(r);
		in->space = wt_rd_u8(r);
		in->vec = wt_rd_u8(r);
		in->cmp = wt_rd_u8(r);
		in->boolop = wt_rd_u8(r);
		in->rnd = wt_rd_u8(r);
		in->mode = wt_rd_u8(r);
		in->nopnd = wt_rd_u8(r);
		in->guard_neg = wt_rd_u8(r);
		in->guard = (int32_t)weft_trace_rd_u32(r);
		in->flags = weft_trace_rd_u32(r);
		/* an unsupported instruction never runs, so no trace holds one */
		if (in->nopnd > WEFT_PTX_MAX_OPERANDS || in->op >= WEFT_OP_COUNT ||
		    in->op == WEFT_OP_UNSUPPORTED) {
			snprintf(why, whylen, "instruction %u: bad opcode or operand count", i);
			goto bad;
		}
		if (in->space >= WEFT_SPACE_COUNT) {
			snprintf(why, whylen, "instruction %u: state space %u (there are %u)", i, in->space,
				 (unsigned)WEFT_SPACE_COUNT);
			goto bad;
		}
		for (int j = 0; j < in->nopnd; j++) {
			struct weft_operand *o = &in->opnd[j];
			o->kind = wt_rd_u8(r);
			o->neg = wt_rd_u8(r);
			o->imm_is_float = wt_rd_u8(r);
			o->nvec = wt_rd_u8(r);
			uint32_t sc = weft_trace_rd_u32(r);
			o->sreg = (uint16_t)sc;
			o->comp = (uint16_t)(sc >> 16);
			o->reg = (int32_t)weft_trace_rd_u32(r);
			o->reg2 = (int32_t)weft_trace_rd_u32(r);
			o->sym = (int32_t)weft_trace_rd_u32(r);
			for (int k = 0; k < 4; k++)
				o->vec_regs[k] = (int32_t)weft_trace_rd_u32(r);
			o->imm = (int64_t)weft_trace_rd_u64(r);
		}
		in->pos.line = weft_trace_rd_u32(r);
		in->pos.column = weft_trace_rd_u32(r);
		in->pos.src_file = (int32_t)weft_trace_rd_u32(r);
		in->pos.src_line = weft_trace_rd_u32(r);
	}
	uint32_t nr = weft_trace_rd_u32(r);
	if (r->bad || !fits(r, nr, 5))
		goto bad;
	p->reg_type = calloc((size_t)nr + 1, 1);
	p->reg_names = calloc((size_t)nr + 1, sizeof(char *));
	if (!p->reg_type || !p->reg_names)
		goto nomem;
	p->nregs = nr;
	for (uint32_t i = 0; i < nr && !r->bad; i++) {
		p->reg_type[i] = wt_rd_u8(r);
		p->reg_names[i] = weft_trace_rd_str(r);
	}
	uint32_t nf = weft_trace_rd_u32(r);
	if (r->bad || !fits(r, nf, 4))
		goto bad;
	p->files = calloc((size_t)nf + 1, sizeof(char *));
	if (!p->files)
		goto nomem;
	p->nfiles = nf;
	for (uint32_t i = 0; i < nf && !r->bad; i++)
		p->files[i] = weft_trace_rd_str(r);
	uint32_t ns = weft_trace_rd_u32(r);
	if (r->bad || !fits(r, ns, 4))
		goto bad;
	p->sym_names = calloc((size_t)ns + 1, sizeof(char *));
	if (!p->sym_names)
		goto nomem;
	p->nsyms = ns;
	for (uint32_t i = 0; i < ns && !r->bad; i++)
		p->sym_names[i] = weft_trace_rd_str(r);
	/* registers and symbols named by instructions must exist */
	for (uint32_t i = 0; i < n; i++) {
		const struct weft_inst *in = &p->insts[i];
		int ok = in->guard == WEFT_NO_REG || (in->guard >= 0 && (uint32_t)in->guard < nr);
		for (int j = 0; j < in->nopnd; j++) {
			const struct weft_operand *o = &in->opnd[j];
			/* a symbol's address, or a memory operand [sym+imm] (sym -1: none) */
			if ((o->kind == WEFT_OPND_SYM && (o->sym < 0 || (uint32_t)o->sym >= ns)) ||
			    (o->kind == WEFT_OPND_ADDR && (o->sym < -1 || (o->sym >= 0 && (uint32_t)o->sym >= ns)))) {
				snprintf(why, whylen, "instruction %u names a symbol outside the %u stored", i, ns);
				goto bad;
			}
			if (o->kind == WEFT_OPND_REG || o->kind == WEFT_OPND_ADDR || o->kind == WEFT_OPND_SINK) {
				if (o->reg != WEFT_NO_REG && (o->reg < 0 || (uint32_t)o->reg >= nr) && o->kind != WEFT_OPND_SINK)
					ok = 0;
				if (o->reg2 != WEFT_NO_REG && (o->reg2 < 0 || (uint32_t)o->reg2 >= nr))
					ok = 0;
			}
			if (o->kind == WEFT_OPND_VEC)
				for (int k = 0; k < o->nvec && k < 4; k++)
					if (o->vec_regs[k] >= (int32_t)nr)
						ok = 0;
		}
		if (!ok) {
			snprintf(why, whylen, "instruction %u names a register outside the %u stored", i, nr);
			goto bad;
		}
	}
	uint32_t nb = weft_trace_rd_u32(r);
	if (r->bad || !fits(r, nb, 24))
		goto bad;
	struct weft_block *sb = calloc((size_t)nb + 1, sizeof(*sb));
	if (!sb)
		goto nomem;
	for (uint32_t i = 0; i < nb; i++) {
		sb[i].first = weft_trace_rd_u32(r);
		sb[i].count = weft_trace_rd_u32(r);
		sb[i].nsucc = weft_trace_rd_u32(r);
		sb[i].succ[0] = weft_trace_rd_u32(r);
		sb[i].succ[1] = weft_trace_rd_u32(r);
		sb[i].ipdom = weft_trace_rd_u32(r);
	}
	if (r->bad) {
		free(sb);
		goto bad;
	}
	struct weft_error e;
	if (weft_program_analyse(p, &e)) {
		free(sb);
		snprintf(why, whylen, "the stored program does not analyse: %s", e.message);
		goto bad;
	}
	int agree = nb == p->nblocks;
	for (uint32_t i = 0; agree && i < nb; i++) {
		const struct weft_block *a = &sb[i], *c = &p->blocks[i];
		agree = a->first == c->first && a->count == c->count && a->nsucc == c->nsucc &&
			a->ipdom == c->ipdom;
		for (uint32_t j = 0; agree && j < a->nsucc && j < 2; j++)
			agree = a->succ[j] == c->succ[j];
	}
	free(sb);
	if (!agree) {
		snprintf(why, whylen, "the stored blocks and post-dominators disagree with the program's analysis");
		goto bad;
	}
	*out = p;
	return 0;
nomem:
	weft_program_free(p);
	return WEFT_ERR_NOMEM;
bad:
	if (!why[0])
		snprintf(why, whylen, "malformed static program");
	weft_program_free(p);
	return WEFT_ERR_VERIFY;
}
