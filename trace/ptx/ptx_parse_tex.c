/*
 * ptx_parse_tex.c - texture and surface instructions on texture and
 * surface objects: the modifiers of tex, tld4, suld.b and sust.b and their
 * operands `d, [h, {c}]` / `[h, {c}], d` (ptx.h, WEFT_OP_TEX; the forms
 * are in docs/ptx-subset.md "Textures and surfaces"). Forms weft does not
 * run (3-D, layered and cube geometries, mipmap levels, texture references,
 * samplers, offsets, depth compare, formatted surface stores) are kept as
 * unsupported instructions (weft_ptxp_unsupported), so that the module's
 * other kernels still run. See ptx_parse_int.h.
 */
#include "ptx_parse_int.h"

#include <stdio.h>
#include <string.h>

static int word_in(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

void weft_ptxp_decode_tex(struct weft_ptx_parser *p, struct weft_inst *in,
			  const struct weft_ptx_tok *t)
{
	char buf[256], *pc[24];
	int n = weft_ptxp_split_dots(p, t, buf, sizeof(buf), pc, 24);
	static const char *const geoms[] = { "1d", "2d", NULL };
	static const char *const other_geoms[] = { "3d", "a1d", "a2d", "cube", "acube", "2dms",
						   "a2dms", NULL };
	static const char *const comps[] = { "r", "g", "b", "a", NULL };
	static const char *const oobs[] = { "trap", "clamp", "zero", NULL };
	static const char *const cache[] = { "ca", "cg", "cs", "cv", "lu", "wb", "wt", NULL };
	int op = in->op, surf = op == WEFT_OP_SULD || op == WEFT_OP_SUST;
	int geom = op == WEFT_OP_TLD4 ? WEFT_TEX_2D : -1, comp = -1, oob = WEFT_SURF_TRAP, b = 0;
	int types[2] = { 0, 0 }, ntypes = 0, i, k;
	in->space = WEFT_SPACE_GLOBAL;
	in->vec = 1;
	for (i = 1; i < n; i++) {
		const char *s = pc[i];
		int ty = weft_ptxp_type_from(s);
		if (ty) {
			if (ntypes == 2)
				fail_tok(p, t, "too many type suffixes in '%.*s'", (int)t->len, t->s);
			types[ntypes++] = ty;
		} else if ((k = word_in(s, geoms)) >= 0 && (op != WEFT_OP_TLD4 || k == WEFT_TEX_2D)) {
			geom = k;
		} else if (word_in(s, other_geoms) >= 0 || word_in(s, geoms) >= 0) {
			weft_ptxp_unsupported(p, t,
					      "'.%s' textures and surfaces are not supported by weft (in "
					      "'%.*s'): it runs tex.1d, tex.2d, tld4.2d, suld.b and sust.b "
					      "on 1-D and 2-D objects",
					      s, (int)t->len, t->s);
		} else if (!strcmp(s, "v4") || (surf && !strcmp(s, "v2"))) {
			in->vec = (uint8_t)(s[1] - '0');
		} else if (op == WEFT_OP_TEX && !strcmp(s, "base")) {
			/* the base level: what weft's single-level textures are */
		} else if (op == WEFT_OP_TEX && (!strcmp(s, "level") || !strcmp(s, "grad"))) {
			weft_ptxp_unsupported(p, t,
					      "'%.*s': mipmapped textures (.level, .grad) are not "
					      "supported by weft",
					      (int)t->len, t->s);
		} else if (op == WEFT_OP_TLD4 && (k = word_in(s, comps)) >= 0) {
			comp = k;
		} else if (surf && !strcmp(s, "b")) {
			b = 1;
		} else if (surf && (k = word_in(s, oobs)) >= 0) {
			oob = k;
		} else if (surf && word_in(s, cache) >= 0) {
			/* cache operators: no functional effect */
		} else if (surf && !strcmp(s, "p")) {
			weft_ptxp_unsupported(p, t,
					      "'%.*s': formatted surface accesses (.p) are not supported "
					      "by weft; it runs the raw-bytes form (.b)",
					      (int)t->len, t->s);
		} else {
			weft_ptxp_unsupported(
				p, t, "unknown modifier '.%s' on '%s' (in '%.*s'; see docs/ptx-subset.md)",
				s, pc[0], (int)t->len, t->s);
		}
	}
	if (geom < 0)
		fail_tok(p, t, "'%.*s' needs a geometry (.1d or .2d)", (int)t->len, t->s);
	if (surf) {
		if (!b)
			fail_tok(p, t, "'%.*s' needs .b (raw bytes) or .p", (int)t->len, t->s);
		if (ntypes != 1)
			fail_tok(p, t, "'%.*s' needs one type (.b8, .b16, .b32 or .b64)", (int)t->len,
				 t->s);
		int ty = types[0];
		if (ty != WEFT_T_B8 && ty != WEFT_T_B16 && ty != WEFT_T_B32 && ty != WEFT_T_B64)
			fail_tok(p, t, "'%.*s': surfaces take .b8, .b16, .b32 or .b64", (int)t->len,
				 t->s);
		if (ty == WEFT_T_B64 && in->vec == 4)
			fail_tok(p, t, "'%.*s': .v4 of .b64 is not a PTX surface access", (int)t->len,
				 t->s);
		in->type = (uint8_t)ty;
		in->mode = (uint8_t)(geom | oob << 4);
		return;
	}
	if (in->vec != 4)
		fail_tok(p, t, "'%.*s' needs .v4 (four destination components)", (int)t->len, t->s);
	if (op == WEFT_OP_TLD4 && comp < 0)
		fail_tok(p, t, "'%.*s' needs the component gathered (.r, .g, .b or .a)", (int)t->len,
			 t->s);
	if (ntypes != 2)
		fail_tok(p, t, "'%.*s' needs a destination and a coordinate type (e.g. .f32.f32)",
			 (int)t->len, t->s);
	if (types[0] != WEFT_T_F32 && types[0] != WEFT_T_S32 && types[0] != WEFT_T_U32)
		weft_ptxp_unsupported(p, t,
				      "'%.*s': weft's textures return .f32, .s32 or .u32 components",
				      (int)t->len, t->s);
	if (types[1] != WEFT_T_F32 && (types[1] != WEFT_T_S32 || op == WEFT_OP_TLD4))
		fail_tok(p, t, "'%.*s': coordinates are .f32%s", (int)t->len, t->s,
			 op == WEFT_OP_TLD4 ? "" : " or .s32");
	in->type = (uint8_t)types[0];
	in->type2 = (uint8_t)types[1];
	in->mode = (uint8_t)(op == WEFT_OP_TLD4 ? comp : geom);
}

/* A data operand: a vector of vec registers, or a register when vec is 1. */
static void data_operand(struct weft_ptx_parser *p, struct weft_inst *in, int idx,
			 const struct weft_ptx_tok *opt)
{
	struct weft_ptx_tok at = p->tok;
	/* parsed in the last slot, where a `|` after it is left to us */
	const int tmp = WEFT_PTX_MAX_OPERANDS - 1;
	weft_ptxp_parse_operand(p, in, tmp);
	in->opnd[idx] = in->opnd[tmp];
	memset(&in->opnd[tmp], 0, sizeof(in->opnd[tmp]));
	in->opnd[tmp].reg = in->opnd[tmp].reg2 = WEFT_NO_REG;
	in->opnd[tmp].sym = -1;
	for (int j = 0; j < 4; j++)
		in->opnd[tmp].vec_regs[j] = WEFT_NO_REG;
	if (weft_ptxp_is_punct(p, '|'))
		weft_ptxp_unsupported(p, &p->tok,
				      "'%.*s': the residency predicate (d|p) is not supported",
				      (int)opt->len, opt->s);
	const struct weft_operand *o = &in->opnd[idx];
	if (o->kind == WEFT_OPND_VEC && o->nvec == in->vec)
		return;
	if (o->kind == WEFT_OPND_REG && in->vec == 1 && !o->neg)
		return;
	fail_tok(p, &at, "'%.*s' needs %s of %u register%s here", (int)opt->len, opt->s,
		 in->vec > 1 ? "a vector" : "a register or a vector", in->vec, in->vec > 1 ? "s" : "");
}

void weft_ptxp_parse_tex_operands(struct weft_ptx_parser *p, struct weft_inst *in,
				  const struct weft_ptx_tok *opt)
{
	int st = in->op == WEFT_OP_SUST, a = st ? 0 : 1;
	int dims = in->op == WEFT_OP_TLD4 ? 2 : WEFT_SURF_GEOM(in->mode) + 1;
	for (int i = 0; i < WEFT_PTX_MAX_OPERANDS; i++) {
		in->opnd[i].reg = in->opnd[i].reg2 = WEFT_NO_REG;
		in->opnd[i].sym = -1;
		for (int j = 0; j < 4; j++)
			in->opnd[i].vec_regs[j] = WEFT_NO_REG;
	}
	if (!st) {
		data_operand(p, in, 0, opt);
		weft_ptxp_expect_punct(p, ',', "after the destination");
	}
	struct weft_ptx_tok open = p->tok;
	weft_ptxp_expect_punct(p, '[', "before the texture or surface object");
	struct weft_ptx_tok h = p->tok;
	struct weft_operand *ao = &in->opnd[a];
	ao->kind = WEFT_OPND_ADDR;
	ao->reg = weft_ptxp_texture_handle(p, &h);
	weft_ptxp_next(p);
	weft_ptxp_expect_punct(p, ',', "after the object, before the coordinates");
	if (!weft_ptxp_is_punct(p, '{')) {
		if (p->tok.kind == WEFT_TOK_WORD && p->tok.s[0] != '.')
			weft_ptxp_unsupported(p, &p->tok,
					      "'%.*s' with a sampler operand (independent texturing mode) "
					      "is not supported",
					      (int)opt->len, opt->s);
		fail_tok(p, &p->tok, "'%.*s' needs its coordinates as a vector {...}", (int)opt->len,
			 opt->s);
	}
	struct weft_ptx_tok c = p->tok;
	weft_ptxp_parse_operand(p, in, a + 1);
	if (in->opnd[a + 1].nvec != dims)
		fail_tok(p, &c, "'%.*s' takes %d coordinate%s", (int)opt->len, opt->s, dims,
			 dims > 1 ? "s" : "");
	for (int j = 0; j < dims; j++)
		if (in->opnd[a + 1].vec_regs[j] == WEFT_NO_REG)
			fail_tok(p, &c, "a coordinate cannot be '_'");
	if (weft_ptxp_is_punct(p, ','))
		weft_ptxp_unsupported(p, &p->tok,
				      "'%.*s' with a sampler operand (independent texturing mode) is "
				      "not supported",
				      (int)opt->len, opt->s);
	if (!weft_ptxp_is_punct(p, ']'))
		fail_tok(p, &p->tok, "expected ']' after the coordinates (opened at column %u)",
			 open.col);
	weft_ptxp_next(p);
	if (st) {
		weft_ptxp_expect_punct(p, ',', "after the surface address");
		data_operand(p, in, 2, opt);
	} else if (weft_ptxp_is_punct(p, ',')) {
		weft_ptxp_unsupported(p, &p->tok,
				      "'%.*s' with texel offsets or a depth compare value is not "
				      "supported",
				      (int)opt->len, opt->s);
	}
	in->nopnd = 3;
	if (!weft_ptxp_is_punct(p, ';')) {
		char b[96];
		fail_tok(p, &p->tok, "expected ';' after '%.*s', found %s", (int)opt->len, opt->s,
			 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
}
