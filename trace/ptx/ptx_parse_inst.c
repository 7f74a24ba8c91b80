/*
 * ptx_parse_inst.c - one PTX instruction: guard, opcode (ptx_parse_ops.c),
 * operands (registers, immediates, addresses, vectors, labels, symbols),
 * the checks the emulator relies on, and the call sequence (direct and
 * through a .callprototype); an instruction weft does not run is kept as
 * WEFT_OP_UNSUPPORTED (keep_unsupported) so that the module still loads.
 * Also `.loc` and `.pragma`. See ptx_parse_int.h.
 */
#include "ptx_parse_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks operand kinds the emulator relies on. */
static void check_operands(struct weft_ptx_parser *p, struct weft_inst *in,
			   const struct weft_ptx_tok *opt)
{
	const char *name = weft_op_name(in->op);
	int addr_at = -1;
	switch (in->op) {
	case WEFT_OP_LD:
	case WEFT_OP_LDU:
	case WEFT_OP_ATOM:
		addr_at = 1;
		break;
	case WEFT_OP_ST:
	case WEFT_OP_RED:
	case WEFT_OP_PREFETCH:
		addr_at = 0;
		break;
	default:
		break;
	}
	for (int i = 0; i < in->nopnd; i++) {
		int k = in->opnd[i].kind;
		if ((k == WEFT_OPND_ADDR) != (i == addr_at))
			fail_tok(p, opt,
				 k == WEFT_OPND_ADDR
					 ? "'%s' does not take a memory operand [..] at position %d"
					 : "'%s' needs a memory operand [..] at position %d",
				 name, i + 1);
	}
	int no_dest = in->op == WEFT_OP_ST || in->op == WEFT_OP_RED || in->op == WEFT_OP_PREFETCH ||
		      in->op == WEFT_OP_BRA || in->op == WEFT_OP_BAR ||
		      in->op == WEFT_OP_BAR_WARP || in->op == WEFT_OP_NANOSLEEP;
	if (!no_dest && in->nopnd > 0) {
		int k = in->opnd[0].kind;
		if (k != WEFT_OPND_REG && k != WEFT_OPND_SINK && k != WEFT_OPND_VEC)
			fail_tok(p, opt, "the destination of '%s' must be a register", name);
		if (in->opnd[0].neg)
			fail_tok(p, opt, "a destination cannot be negated with '!'");
	}
	if (in->op == WEFT_OP_LD || in->op == WEFT_OP_LDU || in->op == WEFT_OP_ST) {
		struct weft_operand *d = &in->opnd[in->op == WEFT_OP_ST ? 1 : 0];
		if (in->vec > 1 && (d->kind != WEFT_OPND_VEC || d->nvec != in->vec))
			fail_tok(p, opt, "'.v%d' needs a vector operand of %d registers", in->vec,
				 in->vec);
		if (in->vec == 1 && d->kind == WEFT_OPND_VEC)
			fail_tok(p, opt, "vector operand on a scalar %s (add .v2 or .v4)", name);
	}
	if (in->op == WEFT_OP_SETP && in->nopnd != (in->boolop ? 4 : 3))
		fail_tok(p, opt, "setp%s takes %d operands",
			 in->boolop ? " with .and/.or/.xor" : "", in->boolop ? 4 : 3);
	if (in->op == WEFT_OP_SET && in->nopnd != (in->boolop ? 4 : 3))
		fail_tok(p, opt, "set%s takes %d operands", in->boolop ? " with .and/.or/.xor" : "",
			 in->boolop ? 4 : 3);
	if (in->op == WEFT_OP_ATOM && in->nopnd != (in->mode == WEFT_ATOM_CAS ? 4 : 3))
		fail_tok(p, opt, "atom.%s takes %d operands",
			 in->mode == WEFT_ATOM_CAS ? "cas" : "<op>",
			 in->mode == WEFT_ATOM_CAS ? 4 : 3);
	if (in->op == WEFT_OP_BRA && in->opnd[0].kind != WEFT_OPND_LABEL)
		fail_tok(p, opt, "bra needs a label (indirect branches are not supported)");
	for (int i = 1; i < in->nopnd; i++) {
		int k = in->opnd[i].kind;
		if (k == WEFT_OPND_SINK)
			fail_tok(p, opt, "'_' can only be a destination");
		if ((k == WEFT_OPND_SYM || k == WEFT_OPND_FUNC) && in->op != WEFT_OP_MOV &&
		    in->op != WEFT_OP_CVTA)
			fail_tok(p, opt,
				 "the address of '%s' can only be taken with mov or cvta "
				 "(then use the register)",
				 k == WEFT_OPND_SYM ? p->m->syms[in->opnd[i].sym].name
						    : p->m->funcs[in->opnd[i].imm].name);
		if (k == WEFT_OPND_FUNC && in->op == WEFT_OP_CVTA)
			fail_tok(p, opt, "cvta of a function name is not supported");
	}
	/* operand counts that depend on modifiers */
	int want_lo = -1, want_hi = -1;
	switch (in->op) {
	case WEFT_OP_SHFL:
		want_lo = want_hi = in->flags & WEFT_F_SYNC ? 5 : 4;
		break;
	case WEFT_OP_VOTE:
		want_lo = want_hi = in->flags & WEFT_F_SYNC ? 3 : 2;
		break;
	case WEFT_OP_BAR:
		if (in->mode >= WEFT_BAR_RED_POPC) {
			want_lo = 3;
			want_hi = 4;
		} else {
			want_lo = 1;
			want_hi = 2;
		}
		break;
	default:
		break;
	}
	if (want_lo >= 0 && (in->nopnd < want_lo || in->nopnd > want_hi)) {
		if (want_lo == want_hi)
			fail_tok(p, opt, "'%.*s' takes %d operands, found %d", (int)opt->len,
				 opt->s, want_lo, in->nopnd);
		fail_tok(p, opt, "'%.*s' takes %d or %d operands, found %d", (int)opt->len, opt->s,
			 want_lo, want_hi, in->nopnd);
	}
	if ((in->op == WEFT_OP_MATCH || in->op == WEFT_OP_REDUX) && !(in->flags & WEFT_F_SYNC))
		fail_tok(p, opt, "'%.*s' needs .sync", (int)opt->len, opt->s);
}

static void append_inst(struct weft_ptx_parser *p, struct weft_inst *in)
{
	struct weft_ptx_func *f = F(p);
	GROW(p, f->insts, f->ninsts, p->cap_insts);
	f->insts[f->ninsts++] = *in;
}

/* `(a, b)` list of .param names into p->tcall[which]. */
static void parse_call_list(struct weft_ptx_parser *p, int which)
{
	p->ntcall[which] = 0;
	weft_ptxp_next(p); /* ( */
	if (weft_ptxp_is_punct(p, ')')) {
		weft_ptxp_next(p);
		return;
	}
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		const struct weft_ptxp_binding *b =
			t.kind == WEFT_TOK_WORD ? weft_ptxp_lookup_local(p, t.s, t.len) : NULL;
		if (!b || b->kind != NAME_SYM || p->m->syms[b->idx].space != WEFT_SPACE_PARAM) {
			char bd[96];
			fail_tok(p, &t,
				 "call %s %s is not a .param variable declared in this scope "
				 "(weft supports the nvcc call sequence with .param arguments)",
				 which ? "argument" : "return value",
				 weft_ptxp_tok_desc(&t, bd, sizeof(bd)));
		}
		if (p->ntcall[which] == 255)
			fail_tok(p, &t, "too many call arguments");
		p->tcall[which][p->ntcall[which]++] = b->idx;
		weft_ptxp_next(p);
		if (weft_ptxp_is_punct(p, ',')) {
			weft_ptxp_next(p);
			continue;
		}
		weft_ptxp_expect_punct(p, ')', "to close the call list");
		return;
	}
}

static void parse_call(struct weft_ptx_parser *p, struct weft_inst *in)
{
	p->ntcall[0] = p->ntcall[1] = 0;
	if (weft_ptxp_is_punct(p, '(')) {
		parse_call_list(p, 0);
		weft_ptxp_expect_punct(p, ',', "after the call's return list");
	}
	struct weft_ptx_tok t = p->tok;
	if (t.kind != WEFT_TOK_WORD) {
		char b[96];
		fail_tok(p, &t, "expected the called function's name, found %s",
			 weft_ptxp_tok_desc(&t, b, sizeof(b)));
	}
	int indirect = weft_ptxp_is_reg_tok(p, &t);
	int32_t fi = -1, ri = WEFT_NO_REG;
	if (indirect) {
		ri = weft_ptxp_expect_reg(p, &t);
	} else {
		fi = weft_ptxp_sm_get(&p->funcs_map, t.s, t.len);
		if (fi < 0)
			fail_tok(p, &t,
				 "call to undeclared function '%.*s' (declare it with .func first)",
				 (int)t.len, t.s);
	}
	weft_ptxp_next(p);
	int32_t proto = -1;
	if (weft_ptxp_is_punct(p, ',')) {
		weft_ptxp_next(p);
		if (weft_ptxp_is_punct(p, '(')) {
			parse_call_list(p, 1);
			if (weft_ptxp_is_punct(p, ','))
				weft_ptxp_next(p);
		}
		if (!weft_ptxp_is_punct(p, ';')) {
			struct weft_ptx_tok pt = p->tok;
			proto = pt.kind == WEFT_TOK_WORD
					? weft_ptxp_sm_get(&p->proto_map, pt.s, pt.len)
					: -1;
			if (proto < 0) {
				char b[96];
				fail_tok(
					p, &pt,
					"expected '(' with the call's arguments or a .callprototype label, found %s",
					weft_ptxp_tok_desc(&pt, b, sizeof(b)));
			}
			if (!indirect)
				fail_tok(p, &pt, "a direct call to '%.*s' takes no prototype",
					 (int)t.len, t.s);
			weft_ptxp_next(p);
		}
	}
	weft_ptxp_expect_punct(p, ';', "after the call");
	if (indirect) {
		if (proto < 0)
			fail_tok(
				p, &t,
				"indirect call through '%.*s' needs a .callprototype label after the arguments",
				(int)t.len, t.s);
		uint32_t nr = (uint32_t)proto >> 16, np = (uint32_t)proto & 0xffff;
		if (p->ntcall[1] != np || p->ntcall[0] != nr)
			fail_tok(
				p, &t,
				"indirect call passes %u arguments and receives %u return values, its prototype has %u and %u",
				p->ntcall[1], p->ntcall[0], np, nr);
	} else {
		const struct weft_ptx_func *callee = &p->m->funcs[fi];
		if (callee->is_entry)
			fail_tok(p, &t, "cannot call the kernel '%s'", callee->name);
		if (p->ntcall[1] != callee->nparams)
			fail_tok(p, &t, "call to '%s' passes %u arguments, it takes %u",
				 callee->name, p->ntcall[1], callee->nparams);
		if (p->ntcall[0] != callee->nrets)
			fail_tok(p, &t, "call to '%s' receives %u return values, it returns %u",
				 callee->name, p->ntcall[0], callee->nrets);
	}
	in->nopnd = 1;
	in->opnd[0].kind = indirect ? WEFT_OPND_REG : WEFT_OPND_FUNC;
	in->opnd[0].imm = indirect ? 0 : fi;
	in->opnd[0].reg = ri;
	in->opnd[0].reg2 = WEFT_NO_REG;
	in->opnd[0].sym = -1;
	for (int i = 0; i < 4; i++)
		in->opnd[0].vec_regs[i] = WEFT_NO_REG;
	in->ncall_rets = (uint8_t)p->ntcall[0];
	in->ncall_args = (uint8_t)p->ntcall[1];
	/* allocate and append in one step so that nothing leaks on error */
	struct weft_ptx_func *f = F(p);
	GROW(p, f->insts, f->ninsts, p->cap_insts);
	int32_t *r = malloc(sizeof(int32_t) * (p->ntcall[0] + 1));
	int32_t *a = malloc(sizeof(int32_t) * (p->ntcall[1] + 1));
	if (!r || !a) {
		free(r);
		free(a);
		weft_ptxp_nomem(p);
	}
	memcpy(r, p->tcall[0], sizeof(int32_t) * p->ntcall[0]);
	memcpy(a, p->tcall[1], sizeof(int32_t) * p->ntcall[1]);
	in->call_rets = r;
	in->call_args = a;
	f->insts[f->ninsts++] = *in;
}

static void parse_one(struct weft_ptx_parser *p)
{
	struct weft_inst in;
	memset(&in, 0, sizeof(in));
	in.guard = WEFT_NO_REG;
	in.pos.line = p->tok.line;
	in.pos.column = p->tok.col;
	in.pos.src_file = p->src_file;
	in.pos.src_line = p->src_line;
	if (weft_ptxp_is_punct(p, '@')) {
		weft_ptxp_next(p);
		if (weft_ptxp_is_punct(p, '!')) {
			in.guard_neg = 1;
			weft_ptxp_next(p);
		}
		struct weft_ptx_tok g = p->tok;
		in.guard = weft_ptxp_expect_reg(p, &g);
		if (F(p)->regs[in.guard].type != WEFT_T_PRED)
			fail_tok(p, &g, "guard '%.*s' is not a .pred register", (int)g.len, g.s);
		weft_ptxp_next(p);
	}
	struct weft_ptx_tok opt = p->tok;
	if (opt.kind != WEFT_TOK_WORD || opt.s[0] == '.' || opt.s[0] == '%') {
		char b[96];
		fail_tok(p, &opt, "expected an instruction opcode, found %s",
			 weft_ptxp_tok_desc(&opt, b, sizeof(b)));
	}
	weft_ptxp_decode_opcode(p, &in, &opt);
	if (weft_ptxp_is_tex_op(in.op)) {
		weft_ptxp_decode_tex(p, &in, &opt);
		weft_ptxp_next(p);
		weft_ptxp_parse_tex_operands(p, &in, &opt);
		weft_ptxp_next(p); /* ; */
		append_inst(p, &in);
		return;
	}
	weft_ptxp_next(p);
	if (in.op == WEFT_OP_CALL) {
		parse_call(p, &in);
		return;
	}
	const struct weft_ptxp_opdef *def =
		weft_ptxp_opdef(in.op == WEFT_OP_BAR_WARP ? WEFT_OP_BAR : in.op);
	int omin = def->omin, omax = def->omax;
	if (in.op == WEFT_OP_BAR_WARP)
		omin = omax = 1;
	if (!weft_ptxp_is_punct(p, ';')) {
		for (;;) {
			if (in.nopnd == WEFT_PTX_MAX_OPERANDS || in.nopnd >= omax)
				fail_tok(p, &p->tok,
					 "too many operands for '%.*s' (takes at most %d)",
					 (int)opt.len, opt.s, omax);
			weft_ptxp_parse_operand(p, &in, in.nopnd);
			in.nopnd++;
			if (weft_ptxp_is_punct(p, ',')) {
				weft_ptxp_next(p);
				continue;
			}
			if (!weft_ptxp_is_punct(p, ';')) {
				char b[96];
				fail_tok(p, &p->tok,
					 "expected ',' or ';' after an operand of '%.*s', found %s",
					 (int)opt.len, opt.s,
					 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
			}
			break;
		}
	}
	if (in.nopnd < omin)
		fail_tok(p, &opt, "'%.*s' needs %d operands, found %d", (int)opt.len, opt.s, omin,
			 in.nopnd);
	check_operands(p, &in, &opt);
	weft_ptxp_next(p); /* ; */
	append_inst(p, &in);
}

/* The text of the instruction from start to the `;` at end: whitespace
 * runs become one space, at most 160 bytes (then "..."). */
static char *inst_text(struct weft_ptx_parser *p, const char *start, const char *end)
{
	size_t cap = 164, n = 0;
	char *s = malloc(cap);
	if (!s)
		weft_ptxp_nomem(p);
	for (const char *c = start; c < end && n < 160; c++) {
		int ws = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
		if (ws && (n == 0 || s[n - 1] == ' '))
			continue;
		s[n++] = ws ? ' ' : *c;
	}
	while (n && s[n - 1] == ' ')
		n--;
	if (n == 160)
		memcpy(s + n - 3, "...", 3);
	s[n] = 0;
	return s;
}

/* The instruction starting at token start failed with a deferrable error
 * (p->err): skip it to its `;` and keep it as WEFT_OP_UNSUPPORTED with the
 * message, so the module loads and the error comes when a kernel that
 * reaches it is launched. A `}` that closes the function (or the end of the
 * file) before the `;` makes the error a parse error after all. */
static void keep_unsupported(struct weft_ptx_parser *p, const struct weft_ptx_tok *start)
{
	struct weft_ptx_unsup u;
	memset(&u, 0, sizeof(u));
	u.line = p->err->line;
	u.column = p->err->column;
	char msg[WEFT_ERROR_MSG_MAX];
	snprintf(msg, sizeof(msg), "%s", p->err->message);
	/* vector operands have braces; a `}` that closes none ends the body */
	int depth = 0;
	while (!weft_ptxp_is_punct(p, ';') || depth > 0) {
		if (p->tok.kind == WEFT_TOK_EOF || (weft_ptxp_is_punct(p, '}') && depth == 0))
			weft_ptxp_fail_code(p, WEFT_ERR_PARSE, u.line, u.column, "%s", msg);
		depth += weft_ptxp_is_punct(p, '{') - weft_ptxp_is_punct(p, '}');
		weft_ptxp_next(p);
	}
	const char *end = p->tok.s;
	weft_ptxp_next(p); /* ; */
	struct weft_ptx_module *m = p->m;
	struct weft_ptx_func *f = F(p);
	GROW(p, m->unsup, m->nunsup, p->cap_unsup);
	GROW(p, f->insts, f->ninsts, p->cap_insts);
	u.func = (uint32_t)p->fidx;
	u.inst = f->ninsts;
	/* in the table before allocating, so the module frees what is made */
	struct weft_ptx_unsup *up = &m->unsup[m->nunsup++];
	*up = u;
	up->message = weft_ptxp_xstrndup(p, msg, strlen(msg));
	up->text = inst_text(p, start->s, end);
	struct weft_inst in;
	memset(&in, 0, sizeof(in));
	in.op = WEFT_OP_UNSUPPORTED;
	in.guard = WEFT_NO_REG;
	in.vec = 1;
	for (int i = 0; i < WEFT_PTX_MAX_OPERANDS; i++) {
		in.opnd[i].reg = in.opnd[i].reg2 = WEFT_NO_REG;
		in.opnd[i].sym = -1;
		for (int j = 0; j < 4; j++)
			in.opnd[i].vec_regs[j] = WEFT_NO_REG;
	}
	in.opnd[0].imm = m->nunsup - 1;
	in.pos.line = start->line;
	in.pos.column = start->col;
	in.pos.src_file = p->src_file;
	in.pos.src_line = p->src_line;
	f->insts[f->ninsts++] = in;
	weft_error_clear(p->err);
	p->rc = 0;
}

/* One instruction (guard, opcode, operands, `;`). An instruction weft does
 * not run (weft_ptxp_unsupported) is kept as WEFT_OP_UNSUPPORTED; every
 * other error unwinds to weft_ptx_parse as before. */
void weft_ptxp_parse_instruction(struct weft_ptx_parser *p)
{
	jmp_buf outer;
	memcpy(outer, p->jb, sizeof(jmp_buf));
	const struct weft_ptx_tok start = p->tok;
	const uint32_t nfix = p->nfixups;
	p->defer = 0;
	if (setjmp(p->jb)) {
		memcpy(p->jb, outer, sizeof(jmp_buf));
		if (!p->defer)
			longjmp(p->jb, 1);
		p->defer = 0;
		p->nfixups = nfix; /* labels the dropped operands named */
		keep_unsupported(p, &start);
		return;
	}
	parse_one(p);
	memcpy(p->jb, outer, sizeof(jmp_buf));
}

/* `.loc file line col [, function_name L, inlined_at f l c]` (no ';'). */
void weft_ptxp_parse_loc(struct weft_ptx_parser *p)
{
	struct weft_ptx_tok t = p->tok;
	weft_ptxp_next(p);
	uint64_t file = weft_ptxp_expect_uint(p, "file number after .loc");
	uint64_t line = weft_ptxp_expect_uint(p, "line after .loc");
	(void)weft_ptxp_expect_uint(p, "column after .loc");
	if (file > 65535 || line > UINT32_MAX)
		fail_tok(p, &t, ".loc numbers out of range");
	while (weft_ptxp_is_punct(p, ',')) {
		weft_ptxp_next(p);
		if (weft_ptxp_is_word(p, "function_name")) {
			weft_ptxp_next(p);
			if (p->tok.kind != WEFT_TOK_WORD)
				fail_tok(p, &p->tok,
					 "expected a label after function_name in .loc");
			weft_ptxp_next(p);
		} else if (weft_ptxp_is_word(p, "inlined_at")) {
			weft_ptxp_next(p);
			for (int i = 0; i < 3; i++)
				(void)weft_ptxp_expect_uint(p, "number after inlined_at");
		} else {
			char b[96];
			fail_tok(p, &p->tok, "unknown .loc attribute %s",
				 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
		}
	}
	p->src_file = (int32_t)file;
	p->src_line = (uint32_t)line;
}

/* `.pragma "a"[, "b"];` */
void weft_ptxp_parse_pragma(struct weft_ptx_parser *p)
{
	weft_ptxp_next(p);
	for (;;) {
		if (p->tok.kind != WEFT_TOK_STR)
			fail_tok(p, &p->tok, "expected a string after .pragma");
		weft_ptxp_next(p);
		if (!weft_ptxp_is_punct(p, ','))
			break;
		weft_ptxp_next(p);
	}
	weft_ptxp_expect_punct(p, ';', "after .pragma");
}

/* Counts the `.param` entries of a parenthesised prototype list. */
static uint32_t proto_list(struct weft_ptx_parser *p)
{
	uint32_t n = 0;
	weft_ptxp_next(p); /* ( */
	while (!weft_ptxp_is_punct(p, ')')) {
		if (p->tok.kind == WEFT_TOK_EOF || weft_ptxp_is_punct(p, ';'))
			fail_tok(p, &p->tok, "expected ')' to close the .callprototype list");
		if (weft_ptxp_is_dir(p, ".param"))
			n++;
		weft_ptxp_next(p);
	}
	weft_ptxp_next(p);
	if (n > 255)
		fail_tok(p, &p->tok, "too many parameters in .callprototype");
	return n;
}

/* `name: .callprototype (.param .b32 _) _ (.param .b64 _, ...);` declares
 * the signature used by indirect calls. */
void weft_ptxp_parse_callprototype(struct weft_ptx_parser *p, const struct weft_ptx_tok *name)
{
	weft_ptxp_next(p);
	uint32_t nr = 0, np = 0;
	if (weft_ptxp_is_punct(p, '('))
		nr = proto_list(p);
	if (!weft_ptxp_is_word(p, "_"))
		fail_tok(p, &p->tok, "expected '_' in the .callprototype");
	weft_ptxp_next(p);
	if (weft_ptxp_is_punct(p, '('))
		np = proto_list(p);
	while (weft_ptxp_is_word(p, ".noreturn"))
		weft_ptxp_next(p);
	weft_ptxp_expect_punct(p, ';', "after the .callprototype");
	if (weft_ptxp_sm_get(&p->proto_map, name->s, name->len) >= 0)
		fail_tok(p, name, ".callprototype '%.*s' defined twice", (int)name->len, name->s);
	weft_ptxp_map_put(p, &p->proto_map, name->s, name->len, (int32_t)(nr << 16 | np));
}
