/*
 * ptx_parse_opnd.c - one operand of a PTX instruction: registers (also
 * plain names declared with .reg), special registers and predefined
 * identifiers, immediates, addresses [reg+imm] / [sym+imm] / [imm],
 * vectors {..}, labels, symbols and function names, the `d|p` second
 * destination, and the 64-bit register holding a texture or surface
 * object. See ptx_parse_int.h.
 */
#include "ptx_parse_int.h"

#include <stdio.h>
#include <string.h>

int32_t weft_ptxp_expect_reg(struct weft_ptx_parser *p, const struct weft_ptx_tok *t)
{
	if (t->kind != WEFT_TOK_WORD || t->s[0] == '.') {
		char b[96];
		fail_tok(p, t, "expected a register, found %s",
			 weft_ptxp_tok_desc(t, b, sizeof(b)));
	}
	const struct weft_ptxp_binding *b = weft_ptxp_lookup_local(p, t->s, t->len);
	if (!b || b->kind != NAME_REG) {
		if (t->s[0] != '%') {
			char d[96];
			fail_tok(p, t, "expected a register, found %s",
				 weft_ptxp_tok_desc(t, d, sizeof(d)));
		}
		fail_tok(p, t, "register '%.*s' not declared (add it to a .reg declaration)",
			 (int)t->len, t->s);
	}
	return b->idx;
}

/* A register operand: %name, or a plain name declared with .reg (inline
 * asm in the CUDA headers names its temporaries `f`, `r`). */
int weft_ptxp_is_reg_tok(struct weft_ptx_parser *p, const struct weft_ptx_tok *t)
{
	if (t->kind != WEFT_TOK_WORD || t->s[0] == '.')
		return 0;
	if (t->s[0] == '%')
		return 1;
	const struct weft_ptxp_binding *b = weft_ptxp_lookup_local(p, t->s, t->len);
	return b && b->kind == NAME_REG;
}

/* Resolves a variable name to a symbol index, or -1. */
static int32_t find_sym(struct weft_ptx_parser *p, const struct weft_ptx_tok *t)
{
	const struct weft_ptxp_binding *b = weft_ptxp_lookup_local(p, t->s, t->len);
	if (b)
		return b->kind == NAME_SYM ? b->idx : -1;
	return weft_ptxp_sm_get(&p->syms_map, t->s, t->len);
}

/* Optional `+imm`, `+-imm` or `-imm` after an address base or symbol. */
static int64_t parse_offset(struct weft_ptx_parser *p)
{
	int neg = 0;
	if (weft_ptxp_is_punct(p, '+')) {
		weft_ptxp_next(p);
		if (weft_ptxp_is_punct(p, '-')) {
			neg = 1;
			weft_ptxp_next(p);
		}
	} else if (weft_ptxp_is_punct(p, '-')) {
		neg = 1;
		weft_ptxp_next(p);
	} else {
		return 0;
	}
	struct weft_ptx_tok t = p->tok;
	uint64_t v = weft_ptxp_expect_uint(p, "offset");
	if (v > (uint64_t)INT64_MAX)
		fail_tok(p, &t, "offset out of range");
	return neg ? -(int64_t)v : (int64_t)v;
}

static void parse_address(struct weft_ptx_parser *p, struct weft_operand *o)
{
	struct weft_ptx_tok open = p->tok;
	weft_ptxp_next(p);
	o->kind = WEFT_OPND_ADDR;
	struct weft_ptx_tok t = p->tok;
	if (weft_ptxp_is_reg_tok(p, &t)) {
		o->reg = weft_ptxp_expect_reg(p, &t);
		weft_ptxp_next(p);
	} else if (t.kind == WEFT_TOK_WORD) {
		o->sym = find_sym(p, &t);
		if (o->sym < 0)
			fail_tok(p, &t, "undefined variable '%.*s' in address", (int)t.len, t.s);
		weft_ptxp_next(p);
	} else if (t.kind == WEFT_TOK_NUM) {
		uint64_t v = weft_ptxp_expect_uint(p, "address");
		o->imm = (int64_t)v;
	} else {
		char b[96];
		fail_tok(p, &t, "expected a register, variable or number after '[', found %s",
			 weft_ptxp_tok_desc(&t, b, sizeof(b)));
	}
	if (t.kind != WEFT_TOK_NUM)
		o->imm = parse_offset(p);
	if (!weft_ptxp_is_punct(p, ']')) {
		char b[96];
		fail_tok(p, &p->tok, "expected ']' after address (opened at column %u), found %s",
			 open.col, weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
	weft_ptxp_next(p);
}

static void add_fixup(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, int opnd)
{
	GROW(p, p->fixups, p->nfixups, p->cap_fixups);
	struct weft_ptxp_fixup *fx = &p->fixups[p->nfixups++];
	fx->inst = F(p)->ninsts;
	fx->opnd = (uint8_t)opnd;
	fx->s = t->s;
	fx->len = t->len;
	fx->line = t->line;
	fx->col = t->col;
}

void weft_ptxp_parse_operand(struct weft_ptx_parser *p, struct weft_inst *in, int idx)
{
	struct weft_operand *o = &in->opnd[idx];
	o->reg = o->reg2 = WEFT_NO_REG;
	o->sym = -1;
	for (int i = 0; i < 4; i++)
		o->vec_regs[i] = WEFT_NO_REG;
	struct weft_ptx_tok t = p->tok;
	if (weft_ptxp_is_punct(p, '{')) {
		weft_ptxp_next(p);
		o->kind = WEFT_OPND_VEC;
		for (;;) {
			struct weft_ptx_tok e = p->tok;
			if (o->nvec == 4)
				fail_tok(p, &e, "vector operand with more than 4 elements");
			if (weft_ptx_tok_is(&e, "_"))
				o->vec_regs[o->nvec++] = WEFT_NO_REG;
			else if (weft_ptxp_is_reg_tok(p, &e))
				o->vec_regs[o->nvec++] = weft_ptxp_expect_reg(p, &e);
			else {
				char b[96];
				fail_tok(
					p, &e,
					"vector operand elements must be registers or '_', found %s",
					weft_ptxp_tok_desc(&e, b, sizeof(b)));
			}
			weft_ptxp_next(p);
			if (weft_ptxp_is_punct(p, ',')) {
				weft_ptxp_next(p);
				continue;
			}
			weft_ptxp_expect_punct(p, '}', "to close the vector operand");
			break;
		}
	} else if (weft_ptxp_is_punct(p, '[')) {
		parse_address(p, o);
	} else if (weft_ptxp_is_punct(p, '!')) {
		weft_ptxp_next(p);
		struct weft_ptx_tok r = p->tok;
		o->kind = WEFT_OPND_REG;
		o->reg = weft_ptxp_expect_reg(p, &r);
		o->neg = 1;
		weft_ptxp_next(p);
	} else if (weft_ptxp_is_punct(p, '-') || t.kind == WEFT_TOK_NUM) {
		int neg = 0;
		if (weft_ptxp_is_punct(p, '-')) {
			neg = 1;
			weft_ptxp_next(p);
			if (p->tok.kind != WEFT_TOK_NUM) {
				char b[96];
				fail_tok(p, &p->tok, "expected a number after '-', found %s",
					 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
			}
		}
		int isf;
		o->kind = WEFT_OPND_IMM;
		o->imm = (int64_t)weft_ptxp_literal_bits(p, &p->tok, neg,
							 weft_inst_imm_type(in, idx), &isf);
		o->imm_is_float = (uint8_t)isf;
		weft_ptxp_next(p);
	} else if (weft_ptx_tok_is(&t, "_")) {
		o->kind = WEFT_OPND_SINK;
		weft_ptxp_next(p);
	} else if (weft_ptxp_is_reg_tok(p, &t)) {
		if (t.s[0] != '%' || !weft_ptxp_parse_sreg(p, &t, o)) {
			o->kind = WEFT_OPND_REG;
			o->reg = weft_ptxp_expect_reg(p, &t);
		}
		weft_ptxp_next(p);
	} else if (t.kind == WEFT_TOK_WORD && t.s[0] != '.') {
		if (in->op == WEFT_OP_BRA) {
			o->kind = WEFT_OPND_LABEL;
			add_fixup(p, &t, idx);
			weft_ptxp_next(p);
		} else {
			int32_t s = find_sym(p, &t);
			if (s >= 0) {
				o->kind = WEFT_OPND_SYM;
				o->sym = s;
			} else {
				int32_t fi = weft_ptxp_sm_get(&p->funcs_map, t.s, t.len);
				if (fi < 0 && weft_ptx_tok_is(&t, "WARP_SZ")) {
					/* the predefined constant nvcc emits for
					 * warpSize (PTX ISA, "Predefined
					 * Identifiers"): 32 threads */
					o->kind = WEFT_OPND_IMM;
					o->imm = 32;
					weft_ptxp_next(p);
					goto done;
				}
				if (fi < 0)
					fail_tok(p, &t,
						 "undefined symbol '%.*s' (declare it before use)",
						 (int)t.len, t.s);
				o->kind = WEFT_OPND_FUNC;
				o->imm = fi;
			}
			weft_ptxp_next(p);
			if (o->kind == WEFT_OPND_SYM)
				o->imm = parse_offset(p);
		}
	} else {
		char b[96];
		fail_tok(p, &t, "expected an operand, found %s",
			 weft_ptxp_tok_desc(&t, b, sizeof(b)));
	}
done:
	if (idx == 0 && weft_ptxp_is_punct(p, '|')) {
		if (o->kind != WEFT_OPND_REG && o->kind != WEFT_OPND_SINK)
			fail_tok(p, &p->tok, "'|' must follow a destination register");
		weft_ptxp_next(p);
		struct weft_ptx_tok r = p->tok;
		if (weft_ptx_tok_is(&r, "_"))
			o->reg2 = WEFT_NO_REG;
		else
			o->reg2 = weft_ptxp_expect_reg(p, &r);
		weft_ptxp_next(p);
	}
}

/* The object operand of a texture or surface instruction: a 64-bit
 * register holding the handle. A name that is not a register is a texture
 * reference (.texref), which weft does not run. */
int32_t weft_ptxp_texture_handle(struct weft_ptx_parser *p, const struct weft_ptx_tok *t)
{
	if (t->kind == WEFT_TOK_WORD && t->s[0] != '.' && !weft_ptxp_is_reg_tok(p, t))
		weft_ptxp_unsupported(p, t,
				      "texture or surface reference '%.*s': weft runs texture and "
				      "surface objects (a .u64 handle, cudaCreateTextureObject), not "
				      ".texref/.surfref references",
				      (int)t->len, t->s);
	int32_t r = weft_ptxp_expect_reg(p, t);
	int ty = F(p)->regs[r].type;
	if (ty != WEFT_T_B64 && ty != WEFT_T_U64 && ty != WEFT_T_S64)
		fail_tok(p, t, "the texture or surface object '%.*s' must be a 64-bit register",
			 (int)t->len, t->s);
	return r;
}
