/*
 * ptx_parse.c - PTX text -> struct weft_ptx_module (see ptx.h and
 * docs/ptx-subset.md for what is accepted).
 *
 * One pass over the tokens with one token of lookahead. Names are resolved
 * through hash tables (module symbols, functions, and per function a scoped
 * table of registers and variables plus a label table), so parsing is linear
 * in the size of the text. Branch targets may be forward references; they are
 * fixed up when the function's closing brace is reached.
 *
 * This file holds declarations, function bodies, the module level and the
 * entry points (weft_ptx_parse, weft_ptx_load_file); see
 * ptx_parse_int.h for how the other ptx_parse_*.c files divide the rest.
 * Errors unwind with longjmp to weft_ptx_parse(). Everything allocated is
 * reachable from the module under construction or from the parser, and both
 * are freed on that path, so a failed parse leaks nothing.
 */
#include "ptx_parse_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"

/* declarations */

struct decl {
	int type;
	uint32_t align;
	int vec;
	int ptr;
	uint32_t line, col;
};

/* Reads `.align N`, `.ptr`, `.v2`, a type and the like, up to the name. */
static void parse_decl_quals(struct weft_ptx_parser *p, struct decl *d, const char *what)
{
	memset(d, 0, sizeof(*d));
	d->vec = 1;
	d->line = p->tok.line;
	d->col = p->tok.col;
	while (p->tok.kind == WEFT_TOK_WORD && p->tok.s[0] == '.') {
		char buf[256], *pc[16];
		struct weft_ptx_tok t = p->tok;
		int n = weft_ptxp_split_dots(p, &t, buf, sizeof(buf), pc, 16);
		int want_align = 0;
		for (int i = 0; i < n; i++) {
			int ty = weft_ptxp_type_from(pc[i]);
			if (ty) {
				if (d->type)
					fail_tok(p, &t, "two types in one %s declaration", what);
				d->type = ty;
			} else if (!strcmp(pc[i], "align")) {
				want_align = 1;
			} else if (!strcmp(pc[i], "ptr")) {
				d->ptr = 1;
			} else if (d->ptr && weft_ptxp_space_from(pc[i]) >= 0) {
				/* .ptr.global: where the pointer points; a hint only */
			} else if (!strcmp(pc[i], "v2") || !strcmp(pc[i], "v4") ||
				   !strcmp(pc[i], "v8")) {
				d->vec = pc[i][1] - '0';
			} else {
				fail_tok(
					p, &t,
					"unknown qualifier '.%s' in %s declaration (see docs/ptx-subset.md)",
					pc[i], what);
			}
		}
		weft_ptxp_next(p);
		if (want_align) {
			uint64_t a = weft_ptxp_expect_uint(p, "alignment after .align");
			if (a == 0 || a > 4096 || (a & (a - 1)))
				fail(p, t.line, t.col,
				     ".align %llu is not a power of two up to 4096",
				     (unsigned long long)a);
			d->align = (uint32_t)a;
		}
	}
	if (!d->type)
		fail_tok(p, &p->tok, "missing type (e.g. .u32, .b8) in %s declaration", what);
}

/* Array dimensions `[N][M]` or `[]`. Returns the element count; *unsized for `[]`. */
static uint64_t parse_dims(struct weft_ptx_parser *p, int *unsized)
{
	uint64_t count = 1;
	*unsized = 0;
	int ndims = 0;
	while (weft_ptxp_is_punct(p, '[')) {
		struct weft_ptx_tok open = p->tok;
		weft_ptxp_next(p);
		if (weft_ptxp_is_punct(p, ']')) {
			if (ndims)
				fail_tok(p, &open, "only the first array dimension may be empty");
			*unsized = 1;
		} else {
			uint64_t n = weft_ptxp_expect_uint(p, "array size");
			if (n > ((uint64_t)1 << 40) || (count && n > ((uint64_t)1 << 40) / count))
				fail_tok(p, &open, "array too large");
			count *= n;
		}
		ndims++;
		weft_ptxp_expect_punct(p, ']', "after array size");
	}
	return count;
}

static void ibuf_put(struct weft_ptx_parser *p, uint64_t v, unsigned size)
{
	if (p->ilen + size > p->icap) {
		size_t nc = p->icap ? p->icap * 2 : 256;
		while (nc < p->ilen + size)
			nc *= 2;
		uint8_t *nb = realloc(p->ibuf, nc);
		if (!nb)
			weft_ptxp_nomem(p);
		p->ibuf = nb;
		p->icap = nc;
	}
	for (unsigned i = 0; i < size; i++)
		p->ibuf[p->ilen++] = (uint8_t)(v >> (8 * i));
}

/* One initialiser item (scalar or nested list), appended to p->ibuf. */
static void parse_init_item(struct weft_ptx_parser *p, int type, int depth)
{
	if (depth > 16)
		fail_tok(p, &p->tok, "initialiser nested too deeply");
	if (weft_ptxp_is_punct(p, '{')) {
		weft_ptxp_next(p);
		if (!weft_ptxp_is_punct(p, '}')) {
			for (;;) {
				parse_init_item(p, type, depth + 1);
				if (!weft_ptxp_is_punct(p, ','))
					break;
				weft_ptxp_next(p);
			}
		}
		weft_ptxp_expect_punct(p, '}', "to close the initialiser list");
		return;
	}
	int neg = 0;
	if (weft_ptxp_is_punct(p, '-')) {
		neg = 1;
		weft_ptxp_next(p);
	}
	if (p->tok.kind == WEFT_TOK_WORD) {
		fail_tok(
			p, &p->tok,
			"address initialiser '%.*s' is not supported (weft's PTX subset allows numeric initialisers only)",
			(int)p->tok.len, p->tok.s);
	}
	if (p->tok.kind != WEFT_TOK_NUM) {
		char b[96];
		fail_tok(p, &p->tok, "expected a number in the initialiser, found %s",
			 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
	if (type == WEFT_T_PRED)
		fail_tok(p, &p->tok, "predicate variables cannot be initialised");
	if (!weft_ptx_type_is_float(type) && weft_ptxp_lit_kind(&p->tok) != LIT_INT)
		fail_tok(p, &p->tok, "float literal '%.*s' in an integer initialiser",
			 (int)p->tok.len, p->tok.s);
	int isf;
	uint64_t v = weft_ptxp_literal_bits(p, &p->tok, neg, type, &isf);
	ibuf_put(p, v, weft_ptx_type_size(type));
	weft_ptxp_next(p);
}

/*
 * A variable declaration after its state-space directive: module-level
 * .global/.const/.shared, function-level .shared/.local, call-scope .param.
 * The current token is the first qualifier after the directive.
 */
static void parse_var(struct weft_ptx_parser *p, int space, int is_extern, int is_visible)
{
	struct decl d;
	parse_decl_quals(p, &d, "variable");
	for (;;) {
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.' || nt.s[0] == '%') {
			char b[96];
			fail_tok(p, &nt, "expected a variable name, found %s",
				 weft_ptxp_tok_desc(&nt, b, sizeof(b)));
		}
		weft_ptxp_next(p);
		int unsized;
		uint64_t count = parse_dims(p, &unsized);
		unsigned esz = weft_ptx_type_size(d.type) * (unsigned)d.vec;
		uint64_t nelem = 0;
		int has_init = 0;
		p->ilen = 0;
		if (weft_ptxp_is_punct(p, '=')) {
			struct weft_ptx_tok eq = p->tok;
			if (space == WEFT_SPACE_SHARED || space == WEFT_SPACE_LOCAL ||
			    space == WEFT_SPACE_PARAM)
				fail_tok(p, &eq, "%s variables cannot have initialisers",
					 weft_ptx_space_name(space));
			weft_ptxp_next(p);
			parse_init_item(p, d.type, 0);
			has_init = 1;
			nelem = p->ilen / weft_ptx_type_size(d.type);
			uint64_t need = unsized ? nelem : count * (uint64_t)d.vec;
			if (nelem > need)
				fail_tok(
					p, &eq,
					"too many initialisers for '%.*s': %llu given, %llu elements",
					(int)nt.len, nt.s, (unsigned long long)nelem,
					(unsigned long long)need);
			if (unsized)
				count = (nelem + (unsigned)d.vec - 1) / (unsigned)d.vec;
		}
		if (unsized && !has_init && !is_extern)
			fail_tok(
				p, &nt,
				"'%.*s[]' has no size: declare it .extern (dynamic shared memory) or give a size",
				(int)nt.len, nt.s);
		uint64_t size = unsized && !has_init ? 0 : count * esz;
		if ((space == WEFT_SPACE_GLOBAL || space == WEFT_SPACE_CONST) &&
		    size > WEFT_PTX_MAX_MODULE_VAR_BYTES)
			fail_tok(p, &nt,
				 "'%.*s' is %llu bytes; weft holds .global and .const variables of at "
				 "most %u MiB (each gets device memory when the module loads)",
				 (int)nt.len, nt.s, (unsigned long long)size,
				 WEFT_PTX_MAX_MODULE_VAR_BYTES >> 20);
		int32_t si;
		int define = 1; /* fill size, alignment and contents */
		if (p->fidx < 0) {
			int32_t old = weft_ptxp_sm_get(&p->syms_map, nt.s, nt.len);
			if (old >= 0) {
				/* `.extern` declarations and one definition may repeat */
				struct weft_ptx_symbol *o = &p->m->syms[old];
				if (!o->is_extern && !is_extern)
					fail_tok(p, &nt,
						 "'%.*s' is defined twice (first at line %u)",
						 (int)nt.len, nt.s, o->line);
				if (o->space != space)
					fail_tok(
						p, &nt,
						"'%.*s' redeclared in another state space (first at line %u)",
						(int)nt.len, nt.s, o->line);
				si = old;
				define = !is_extern;
			} else {
				si = weft_ptxp_add_symbol(p, nt.s, nt.len, space, d.type, nt.line);
				weft_ptxp_map_put(p, &p->syms_map, p->m->syms[si].name, nt.len, si);
				p->m->syms[si].is_extern = (uint8_t)is_extern;
			}
			p->m->syms[si].is_visible |= (uint8_t)is_visible;
		} else {
			si = weft_ptxp_add_symbol(p, nt.s, nt.len, space, d.type, nt.line);
			p->m->syms[si].func = p->fidx;
			p->m->syms[si].is_extern = (uint8_t)is_extern;
			weft_ptxp_declare(p, p->m->syms[si].name, nt.len, NAME_SYM, si, nt.line,
					  nt.col);
		}
		struct weft_ptx_symbol *s = &p->m->syms[si];
		if (define) {
			s->type = (uint8_t)d.type;
			s->line = nt.line;
			s->is_extern = (uint8_t)is_extern;
			s->align = d.align ? d.align : esz;
			s->size = size;
			free(s->init);
			s->init = NULL;
			if (has_init && size) {
				s->init = calloc(1, size);
				if (!s->init)
					weft_ptxp_nomem(p);
				if (p->ilen) /* `= {}` leaves no bytes (and no buffer) */
					memcpy(s->init, p->ibuf, p->ilen < size ? p->ilen : size);
			}
		}
		if (weft_ptxp_is_punct(p, ',')) {
			weft_ptxp_next(p);
			continue;
		}
		weft_ptxp_expect_punct(p, ';', "after the variable declaration");
		return;
	}
}

/* `.reg .b32 %r<42>, %x;` */
static void parse_reg_decl(struct weft_ptx_parser *p)
{
	weft_ptxp_eat_dir(p, ".reg");
	struct decl d;
	parse_decl_quals(p, &d, ".reg");
	if (d.vec != 1)
		fail(p, d.line, d.col,
		     "vector registers (.reg .v2/.v4) are not supported; declare scalar registers");
	for (;;) {
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.') {
			char b[96];
			fail_tok(p, &nt, "expected a register name, found %s",
				 weft_ptxp_tok_desc(&nt, b, sizeof(b)));
		}
		weft_ptxp_next(p);
		uint64_t count = 0;
		int range = 0;
		if (weft_ptxp_is_punct(p, '<')) {
			weft_ptxp_next(p);
			count = weft_ptxp_expect_uint(p, "register count in %name<N>");
			if (count > (1u << 24))
				fail_tok(p, &nt, "register range %.*s<%llu> is too large",
					 (int)nt.len, nt.s, (unsigned long long)count);
			weft_ptxp_expect_punct(p, '>', "after the register count");
			range = 1;
		}
		struct weft_ptx_func *f = F(p);
		/* a bound on garbage input, far above what any compiler emits */
		if (f->nregs + (range ? count : 1) > (1u << 24))
			fail_tok(p, &nt, "more than %u registers in function '%s'", 1u << 24,
				 f->name);
		for (uint64_t i = 0; i < (range ? count : 1); i++) {
			GROW(p, f->regs, f->nregs, p->cap_regs);
			struct weft_ptx_reg *r = &f->regs[f->nregs];
			if (range) {
				char nb[64];
				int n = snprintf(nb, sizeof(nb), "%llu", (unsigned long long)i);
				r->name = malloc(nt.len + (size_t)n + 1);
				if (!r->name)
					weft_ptxp_nomem(p);
				memcpy(r->name, nt.s, nt.len);
				memcpy(r->name + nt.len, nb, (size_t)n + 1);
			} else {
				r->name = weft_ptxp_xstrndup(p, nt.s, nt.len);
			}
			r->type = (uint8_t)d.type;
			f->nregs++;
			weft_ptxp_declare(p, r->name, (uint32_t)strlen(r->name), NAME_REG,
					  (int32_t)(f->nregs - 1), nt.line, nt.col);
		}
		if (weft_ptxp_is_punct(p, ',')) {
			weft_ptxp_next(p);
			continue;
		}
		weft_ptxp_expect_punct(p, ';', "after the register declaration");
		return;
	}
}

/* `( .param .u64 a, .param .align 8 .b8 b[24] )` into p->tparams[which]. */
static void parse_param_list(struct weft_ptx_parser *p, int which)
{
	p->ntparams[which] = 0;
	weft_ptxp_expect_punct(p, '(', "to open the parameter list");
	if (weft_ptxp_is_punct(p, ')')) {
		weft_ptxp_next(p);
		return;
	}
	for (;;) {
		struct weft_ptx_tok pt = p->tok;
		if (!weft_ptxp_is_dir(p, ".param")) {
			char b[96];
			if (weft_ptxp_is_dir(p, ".reg"))
				fail_tok(p, &pt,
					 ".reg parameters are not supported (nvcc uses .param)");
			fail_tok(p, &pt, "expected '.param' in the parameter list, found %s",
				 weft_ptxp_tok_desc(&pt, b, sizeof(b)));
		}
		weft_ptxp_eat_dir(p, ".param");
		struct decl d;
		parse_decl_quals(p, &d, "parameter");
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.') {
			char b[96];
			fail_tok(p, &nt, "expected a parameter name, found %s",
				 weft_ptxp_tok_desc(&nt, b, sizeof(b)));
		}
		weft_ptxp_next(p);
		int unsized;
		uint64_t count = parse_dims(p, &unsized);
		if (unsized)
			fail_tok(p, &nt, "parameter '%.*s[]' needs a size", (int)nt.len, nt.s);
		uint64_t size = count * weft_ptx_type_size(d.type) * (unsigned)d.vec;
		if (size > (1u << 20))
			fail_tok(p, &nt, "parameter '%.*s' is too large", (int)nt.len, nt.s);
		GROW(p, p->tparams[which], p->ntparams[which], p->cap_tparams[which]);
		struct weft_ptxp_tparam *tp = &p->tparams[which][p->ntparams[which]++];
		memset(tp, 0, sizeof(*tp));
		tp->s = nt.s;
		tp->len = nt.len;
		tp->line = nt.line;
		tp->p.type = (uint8_t)d.type;
		tp->p.size = (uint32_t)size;
		tp->p.align = d.align ? d.align : weft_ptx_type_size(d.type) * (unsigned)d.vec;
		tp->p.is_ptr_hint = (uint8_t)d.ptr;
		if (weft_ptxp_is_punct(p, ',')) {
			weft_ptxp_next(p);
			continue;
		}
		weft_ptxp_expect_punct(p, ')', "to close the parameter list");
		return;
	}
}

/* Turns p->tparams[which] into the function's params/rets, reusing the
 * symbols of an earlier prototype when there is one. */
static void install_params(struct weft_ptx_parser *p, int which, int had_proto, uint32_t line)
{
	struct weft_ptx_func *f = F(p);
	struct weft_ptx_param **arr = which ? &f->rets : &f->params;
	uint32_t *n = which ? &f->nrets : &f->nparams;
	uint32_t cnt = p->ntparams[which];
	if (had_proto) {
		if (*n != cnt)
			fail(p, line, 1, "'%s' redeclared with %u %s (earlier declaration has %u)",
			     f->name, cnt, which ? "return parameters" : "parameters", *n);
	} else {
		*arr = calloc(cnt ? cnt : 1, sizeof(**arr));
		if (!*arr)
			weft_ptxp_nomem(p);
	}
	uint32_t off = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		struct weft_ptxp_tparam *tp = &p->tparams[which][i];
		f = F(p);
		struct weft_ptx_param *fp = &(*arr)[i];
		int32_t si;
		if (had_proto) {
			si = fp->sym;
			struct weft_ptx_symbol *s = &p->m->syms[si];
			char *nn = weft_ptxp_xstrndup(p, tp->s, tp->len);
			free(s->name);
			s->name = nn;
			s->line = tp->line;
		} else {
			si = weft_ptxp_add_symbol(p, tp->s, tp->len, WEFT_SPACE_PARAM, tp->p.type,
						  tp->line);
			p->m->syms[si].func = p->fidx;
			f = F(p);
			*n = i + 1;
		}
		struct weft_ptx_symbol *s = &p->m->syms[si];
		s->type = tp->p.type;
		s->size = tp->p.size;
		s->align = tp->p.align;
		*fp = tp->p;
		fp->sym = si;
		uint32_t a = fp->align ? fp->align : 1;
		off = (off + a - 1) / a * a;
		fp->offset = off;
		off += fp->size;
	}
	if (!which)
		f->param_bytes = off;
}

static void parse_body(struct weft_ptx_parser *p)
{
	struct weft_ptx_tok open = p->tok;
	struct weft_ptx_func *f = F(p);
	p->src_file = -1;
	p->src_line = 0;
	p->cap_regs = f->nregs;
	p->cap_insts = f->ninsts;
	weft_ptxp_scope_push(p);
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct weft_ptx_symbol *s = &p->m->syms[f->params[i].sym];
		weft_ptxp_declare(p, s->name, (uint32_t)strlen(s->name), NAME_SYM, f->params[i].sym,
				  s->line, 1);
	}
	for (uint32_t i = 0; i < f->nrets; i++) {
		struct weft_ptx_symbol *s = &p->m->syms[f->rets[i].sym];
		weft_ptxp_declare(p, s->name, (uint32_t)strlen(s->name), NAME_SYM, f->rets[i].sym,
				  s->line, 1);
	}
	weft_ptxp_scope_push(p);
	weft_ptxp_next(p);
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		if (t.kind == WEFT_TOK_EOF)
			fail(p, open.line, open.col,
			     "unterminated function body of '%s': no '}' matches this '{'",
			     F(p)->name);
		if (weft_ptxp_is_punct(p, '}')) {
			weft_ptxp_scope_pop(p);
			weft_ptxp_next(p);
			if (p->nmarks == 1)
				break;
			continue;
		}
		if (weft_ptxp_is_punct(p, '{')) {
			if (p->nmarks > 64)
				fail_tok(p, &t, "blocks nested too deeply");
			weft_ptxp_scope_push(p);
			weft_ptxp_next(p);
			continue;
		}
		if (weft_ptxp_is_punct(p, ';')) {
			weft_ptxp_next(p);
			continue;
		}
		if (t.kind == WEFT_TOK_WORD && t.s[0] == '.') {
			int is_extern = 0;
			if (weft_ptxp_is_word(p, ".extern")) {
				is_extern = 1;
				weft_ptxp_next(p);
				t = p->tok;
			}
			if (weft_ptxp_is_dir(p, ".reg") && !is_extern) {
				parse_reg_decl(p);
			} else if (weft_ptxp_is_dir(p, ".shared") ||
				   weft_ptxp_is_dir(p, ".local") || weft_ptxp_is_dir(p, ".param")) {
				int sp = weft_ptxp_is_dir(p, ".shared")	 ? WEFT_SPACE_SHARED
					 : weft_ptxp_is_dir(p, ".local") ? WEFT_SPACE_LOCAL
									 : WEFT_SPACE_PARAM;
				weft_ptxp_eat_dir(p, sp == WEFT_SPACE_SHARED  ? ".shared"
						     : sp == WEFT_SPACE_LOCAL ? ".local"
									      : ".param");
				parse_var(p, sp, is_extern, 0);
			} else if (weft_ptxp_is_word(p, ".loc") && !is_extern) {
				weft_ptxp_parse_loc(p);
			} else if (weft_ptxp_is_word(p, ".pragma") && !is_extern) {
				weft_ptxp_parse_pragma(p);
			} else {
				fail_tok(
					p, &t,
					"unknown directive '%.*s' in a function body (see docs/ptx-subset.md)",
					(int)t.len, t.s);
			}
			continue;
		}
		if (t.kind == WEFT_TOK_WORD && t.s[0] != '%') {
			struct weft_ptx_tok nx = weft_ptxp_peek(p);
			if (weft_ptx_tok_punct(&nx, ':')) {
				weft_ptxp_next(p);
				weft_ptxp_next(p);
				if (weft_ptxp_is_word(p, ".callprototype")) {
					weft_ptxp_parse_callprototype(p, &t);
					continue;
				}
				if (weft_ptxp_is_word(p, ".branchtargets")) {
					/* the jump table of brx.idx, which is kept as
					 * unsupported: its labels are not needed */
					while (!weft_ptxp_is_punct(p, ';')) {
						if (p->tok.kind == WEFT_TOK_EOF)
							fail_tok(p, &t, "unterminated .branchtargets list");
						weft_ptxp_next(p);
					}
					weft_ptxp_next(p);
					continue;
				}
				int32_t old = weft_ptxp_sm_get(&p->label_map, t.s, t.len);
				if (old >= 0)
					fail_tok(p, &t,
						 "label '%.*s' defined twice (first at line %u)",
						 (int)t.len, t.s, p->labels[old].line);
				GROW(p, p->labels, p->nlabels, p->cap_labels);
				struct weft_ptxp_label *l = &p->labels[p->nlabels];
				l->s = t.s;
				l->len = t.len;
				l->inst = F(p)->ninsts;
				l->line = t.line;
				l->col = t.col;
				weft_ptxp_map_put(p, &p->label_map, t.s, t.len,
						  (int32_t)p->nlabels);
				p->nlabels++;
				continue;
			}
		}
		weft_ptxp_parse_instruction(p);
	}
	/* resolve branch targets and build label_at */
	f = F(p);
	for (uint32_t i = 0; i < p->nfixups; i++) {
		struct weft_ptxp_fixup *fx = &p->fixups[i];
		int32_t l = weft_ptxp_sm_get(&p->label_map, fx->s, fx->len);
		if (l < 0)
			fail(p, fx->line, fx->col, "undefined label '%.*s' in function '%s'",
			     (int)fx->len, fx->s, f->name);
		f->insts[fx->inst].opnd[fx->opnd].imm = p->labels[l].inst;
	}
	char **la = calloc(f->ninsts + 1, sizeof(char *));
	if (!la)
		weft_ptxp_nomem(p);
	f->label_at = la;
	for (uint32_t i = 0; i < p->nlabels; i++) {
		struct weft_ptxp_label *l = &p->labels[i];
		if (!la[l->inst])
			la[l->inst] = weft_ptxp_xstrndup(p, l->s, l->len);
	}
	/* per-function state */
	weft_ptxp_sm_free(&p->scope_map);
	weft_ptxp_sm_free(&p->label_map);
	weft_ptxp_sm_free(&p->proto_map);
	p->nbinds = p->nmarks = p->nlabels = p->nfixups = 0;
}

/* Performance and other attributes between a function header and its body. */
static void parse_func_attrs(struct weft_ptx_parser *p)
{
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		struct weft_ptx_func *f = F(p);
		if (weft_ptxp_is_word(p, ".maxntid") || weft_ptxp_is_word(p, ".reqntid") ||
		    weft_ptxp_is_word(p, ".reqnctapercluster")) {
			uint32_t *dst = weft_ptxp_is_word(p, ".maxntid")   ? f->maxntid
					: weft_ptxp_is_word(p, ".reqntid") ? f->reqntid
									   : NULL;
			weft_ptxp_next(p);
			for (int i = 0; i < 3; i++) {
				uint64_t v = weft_ptxp_expect_uint(p, "thread count");
				if (v > UINT32_MAX)
					fail_tok(p, &t, "value out of range");
				if (dst)
					dst[i] = (uint32_t)v;
				if (!weft_ptxp_is_punct(p, ','))
					break;
				weft_ptxp_next(p);
			}
			f = F(p);
			if (dst)
				for (int i = 0; i < 3; i++)
					if (!dst[i])
						dst[i] = 1;
		} else if (weft_ptxp_is_word(p, ".minnctapersm") ||
			   weft_ptxp_is_word(p, ".maxnreg") ||
			   weft_ptxp_is_word(p, ".maxclusterrank") ||
			   weft_ptxp_is_word(p, ".maxntidx")) {
			int which = weft_ptxp_is_word(p, ".minnctapersm") ? 0
				    : weft_ptxp_is_word(p, ".maxnreg")	  ? 1
									  : 2;
			weft_ptxp_next(p);
			uint64_t v = weft_ptxp_expect_uint(p, "count");
			if (v > UINT32_MAX)
				fail_tok(p, &t, "value out of range");
			f = F(p);
			if (which == 0)
				f->minnctapersm = (uint32_t)v;
			else if (which == 1)
				f->maxnreg = (uint32_t)v;
		} else if (weft_ptxp_is_word(p, ".noreturn") ||
			   weft_ptxp_is_word(p, ".explicitcluster")) {
			weft_ptxp_next(p);
		} else if (weft_ptxp_is_word(p, ".pragma")) {
			weft_ptxp_parse_pragma(p);
		} else {
			return;
		}
	}
}

static void parse_function(struct weft_ptx_parser *p, int is_entry, int is_visible, int is_extern)
{
	struct weft_ptx_tok dir = p->tok;
	weft_ptxp_next(p);
	int has_rets = 0;
	if (!is_entry && weft_ptxp_is_punct(p, '(')) {
		parse_param_list(p, 1);
		has_rets = 1;
	}
	if (!has_rets)
		p->ntparams[1] = 0;
	struct weft_ptx_tok nt = p->tok;
	if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.' || nt.s[0] == '%') {
		char b[96];
		fail_tok(p, &nt, "expected a function name after %.*s, found %s", (int)dir.len,
			 dir.s, weft_ptxp_tok_desc(&nt, b, sizeof(b)));
	}
	weft_ptxp_next(p);
	p->ntparams[0] = 0;
	if (weft_ptxp_is_punct(p, '('))
		parse_param_list(p, 0);
	int32_t fi = weft_ptxp_sm_get(&p->funcs_map, nt.s, nt.len);
	int had_proto = fi >= 0;
	struct weft_ptx_module *m = p->m;
	if (fi < 0) {
		if (weft_ptxp_sm_get(&p->syms_map, nt.s, nt.len) >= 0)
			fail_tok(p, &nt, "'%.*s' is already a variable", (int)nt.len, nt.s);
		GROW(p, m->funcs, m->nfuncs, p->cap_funcs);
		struct weft_ptx_func *f = &m->funcs[m->nfuncs];
		memset(f, 0, sizeof(*f));
		f->name = weft_ptxp_xstrndup(p, nt.s, nt.len);
		fi = (int32_t)m->nfuncs++;
		weft_ptxp_map_put(p, &p->funcs_map, f->name, nt.len, fi);
		f->is_extern = 1;
	} else if (m->funcs[fi].is_entry != is_entry) {
		fail_tok(p, &nt, "'%.*s' declared both as .entry and .func", (int)nt.len, nt.s);
	}
	p->fidx = fi;
	struct weft_ptx_func *f = F(p);
	f->is_entry = (uint8_t)is_entry;
	f->is_visible |= (uint8_t)is_visible;
	if (!had_proto)
		f->line = nt.line;
	install_params(p, 1, had_proto, nt.line);
	install_params(p, 0, had_proto, nt.line);
	parse_func_attrs(p);
	f = F(p);
	if (weft_ptxp_is_punct(p, ';')) {
		weft_ptxp_next(p);
	} else if (weft_ptxp_is_punct(p, '{')) {
		if (!f->is_extern)
			fail_tok(p, &nt, "function '%s' is defined twice", f->name);
		if (is_extern)
			fail_tok(p, &nt, ".extern function '%s' cannot have a body", f->name);
		f->is_extern = 0;
		f->line = nt.line;
		parse_body(p);
	} else {
		char b[96];
		fail_tok(p, &p->tok, "expected '{' or ';' after the header of '%s', found %s",
			 f->name, weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
	p->fidx = -1;
}

/* ------------------------------------------------------------------ */
/* module */

static void parse_version(struct weft_ptx_parser *p)
{
	weft_ptxp_next(p);
	struct weft_ptx_tok v = p->tok;
	unsigned maj = 0, min = 0;
	int ok = v.kind == WEFT_TOK_NUM && v.len < 16;
	if (ok) {
		char b[16];
		memcpy(b, v.s, v.len);
		b[v.len] = 0;
		char *dot = strchr(b, '.');
		ok = dot && dot != b && dot[1] && strspn(b, "0123456789.") == v.len &&
		     !strchr(dot + 1, '.');
		if (ok) {
			maj = (unsigned)atoi(b);
			min = (unsigned)atoi(dot + 1);
		}
	}
	if (!ok)
		fail_tok(p, &v, "expected a version like 9.0 after .version");
	if (maj < 7 || maj > 9)
		fail_tok(
			p, &v,
			"PTX ISA version %u.%u is not supported (weft reads 7.x to 9.x; regenerate with nvcc 11-13)",
			maj, min);
	p->m->version_major = maj;
	p->m->version_minor = min;
	p->have_version = 1;
	weft_ptxp_next(p);
}

static void parse_target(struct weft_ptx_parser *p)
{
	weft_ptxp_next(p);
	struct weft_ptx_tok t = p->tok;
	if (t.kind != WEFT_TOK_WORD || t.len < 4 || memcmp(t.s, "sm_", 3))
		fail_tok(p, &t, "expected a target like sm_75 after .target");
	free(p->m->target);
	p->m->target = NULL;
	p->m->target = weft_ptxp_xstrndup(p, t.s, t.len);
	weft_ptxp_next(p);
	while (weft_ptxp_is_punct(p, ',')) {
		weft_ptxp_next(p);
		if (p->tok.kind != WEFT_TOK_WORD)
			fail_tok(p, &p->tok, "expected a target option after ',' in .target");
		weft_ptxp_next(p);
	}
}

static void parse_file(struct weft_ptx_parser *p)
{
	struct weft_ptx_tok t = p->tok;
	weft_ptxp_next(p);
	uint64_t n = weft_ptxp_expect_uint(p, "file number after .file");
	if (n > 65535)
		fail_tok(p, &t, ".file number %llu too large", (unsigned long long)n);
	if (p->tok.kind != WEFT_TOK_STR)
		fail_tok(p, &p->tok, "expected a file name string after .file %llu",
			 (unsigned long long)n);
	struct weft_ptx_module *m = p->m;
	if (n >= m->nfiles) {
		char **nf = realloc(m->files, (size_t)(n + 1) * sizeof(char *));
		if (!nf)
			weft_ptxp_nomem(p);
		for (uint64_t i = m->nfiles; i <= n; i++)
			nf[i] = NULL;
		m->files = nf;
		m->nfiles = (uint32_t)n + 1;
	}
	char *name = weft_ptxp_xstrndup(p, p->tok.s, p->tok.len);
	free(m->files[n]);
	m->files[n] = name;
	weft_ptxp_next(p);
	while (weft_ptxp_is_punct(p, ',')) { /* timestamp, size */
		weft_ptxp_next(p);
		(void)weft_ptxp_expect_uint(p, "number in .file");
	}
}

static void parse_module(struct weft_ptx_parser *p)
{
	weft_ptxp_next(p);
	while (p->tok.kind != WEFT_TOK_EOF) {
		struct weft_ptx_tok t = p->tok;
		if (weft_ptxp_is_punct(p, ';')) {
			weft_ptxp_next(p);
			continue;
		}
		if (t.kind != WEFT_TOK_WORD || t.s[0] != '.') {
			char b[96];
			fail_tok(
				p, &t,
				"expected a directive (.version, .entry, .global ...) at module scope, found %s",
				weft_ptxp_tok_desc(&t, b, sizeof(b)));
		}
		if (weft_ptxp_is_word(p, ".version")) {
			parse_version(p);
		} else if (weft_ptxp_is_word(p, ".target")) {
			parse_target(p);
		} else if (weft_ptxp_is_word(p, ".address_size")) {
			weft_ptxp_next(p);
			struct weft_ptx_tok a = p->tok;
			uint64_t v = weft_ptxp_expect_uint(p, "after .address_size");
			if (v != 64 && v != 32)
				fail_tok(p, &a, ".address_size must be 32 or 64");
			if (v != 64)
				fail_tok(
					p, &a,
					".address_size 32 is not supported (weft emulates 64-bit PTX)");
			p->m->address_size = (uint32_t)v;
		} else if (weft_ptxp_is_word(p, ".file")) {
			parse_file(p);
		} else if (weft_ptxp_is_word(p, ".loc")) {
			weft_ptxp_parse_loc(p);
		} else if (weft_ptxp_is_word(p, ".pragma")) {
			weft_ptxp_parse_pragma(p);
		} else if (weft_ptxp_is_word(p, ".section")) {
			weft_ptxp_next(p);
			if (p->tok.kind != WEFT_TOK_WORD)
				fail_tok(p, &p->tok, "expected a section name after .section");
			weft_ptxp_next(p);
			if (!weft_ptxp_is_punct(p, '{'))
				fail_tok(p, &p->tok, "expected '{' after the .section name");
			int rc = weft_ptx_lex_skip_block(&p->lx, p->tok.line, p->tok.col, p->err);
			if (rc) {
				p->rc = rc;
				longjmp(p->jb, 1);
			}
			weft_ptxp_next(p);
		} else {
			int vis = 0, ext = 0;
			while (weft_ptxp_is_word(p, ".visible") || weft_ptxp_is_word(p, ".weak") ||
			       weft_ptxp_is_word(p, ".extern") || weft_ptxp_is_word(p, ".common")) {
				if (weft_ptxp_is_word(p, ".visible") ||
				    weft_ptxp_is_word(p, ".weak") ||
				    weft_ptxp_is_word(p, ".common"))
					vis = 1;
				else
					ext = 1;
				weft_ptxp_next(p);
			}
			struct weft_ptx_tok d = p->tok;
			if (weft_ptxp_is_word(p, ".entry") || weft_ptxp_is_word(p, ".func")) {
				parse_function(p, weft_ptxp_is_word(p, ".entry"), vis, ext);
			} else if (weft_ptxp_is_dir(p, ".global") ||
				   weft_ptxp_is_dir(p, ".const") ||
				   weft_ptxp_is_dir(p, ".shared") ||
				   weft_ptxp_is_dir(p, ".local")) {
				static const char *const dirs[] = { ".global", ".const", ".shared",
								    ".local" };
				int k = 0;
				while (!weft_ptxp_is_dir(p, dirs[k]))
					k++;
				weft_ptxp_eat_dir(p, dirs[k]);
				if (k == 0 && (weft_ptxp_is_word(p, ".texref") ||
					       weft_ptxp_is_word(p, ".surfref") ||
					       weft_ptxp_is_word(p, ".samplerref"))) {
					/* a texture reference (CUDA before 12): skipped;
					 * instructions naming it are kept as unsupported
					 * (ptx_parse_opnd.c), so its kernels are refused
					 * at launch and the others run */
					int depth = 0;
					while (!weft_ptxp_is_punct(p, ';') || depth) {
						if (p->tok.kind == WEFT_TOK_EOF)
							fail_tok(p, &d, "unterminated texture reference declaration");
						depth += weft_ptxp_is_punct(p, '{') - weft_ptxp_is_punct(p, '}');
						weft_ptxp_next(p);
					}
					weft_ptxp_next(p);
					continue;
				}
				parse_var(p, weft_ptxp_space_from(dirs[k] + 1), ext, vis);
			} else {
				fail_tok(
					p, &d,
					"unknown directive '%.*s' at module scope (not in weft's PTX subset, see docs/ptx-subset.md)",
					(int)d.len, d.s);
			}
		}
	}
}

static void parser_free(struct weft_ptx_parser *p)
{
	weft_ptxp_sm_free(&p->funcs_map);
	weft_ptxp_sm_free(&p->syms_map);
	weft_ptxp_sm_free(&p->scope_map);
	weft_ptxp_sm_free(&p->label_map);
	weft_ptxp_sm_free(&p->proto_map);
	free(p->binds);
	free(p->marks);
	free(p->labels);
	free(p->fixups);
	free(p->ibuf);
	free(p->tparams[0]);
	free(p->tparams[1]);
	free(p);
}

/* The setjmp frame: everything after it is reached through p only. */
static int run(struct weft_ptx_parser *p, const char *text, size_t len)
{
	if (setjmp(p->jb))
		return p->rc ? p->rc : WEFT_ERR_PARSE;
	p->m->path = weft_ptxp_xstrndup(p, p->path, strlen(p->path));
	p->m->hash = weft_fnv1a(WEFT_FNV1A_INIT, text, len);
	parse_module(p);
	if (!p->have_version)
		fail(p, 1, 1,
		     "not a PTX module: no .version directive (is %s a PTX file from nvcc -ptx?)",
		     p->path);
	if (!p->m->target)
		fail(p, 1, 1, "no .target directive in the PTX module");
	if (!p->m->address_size)
		p->m->address_size = 64;
	return 0;
}

int weft_ptx_parse(const char *text, size_t len, const char *path, struct weft_ptx_module **out,
		   struct weft_error *err)
{
	struct weft_error local;
	if (!err)
		err = &local;
	weft_error_clear(err);
	if (out)
		*out = NULL;
	if (!path)
		path = "<ptx>";
	if (!text && len)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "weft_ptx_parse: NULL text");
	if (!out)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "weft_ptx_parse: NULL out");
	struct weft_ptx_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory parsing %s", path);
	p->err = err;
	p->path = path;
	p->fidx = -1;
	p->m = calloc(1, sizeof(*p->m));
	if (!p->m) {
		free(p);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory parsing %s", path);
	}
	weft_ptx_lex_init(&p->lx, text ? text : "", len, path);
	int rc = run(p, text ? text : "", len);
	if (rc) {
		weft_ptx_module_free(p->m);
		parser_free(p);
		return rc;
	}
	*out = p->m;
	parser_free(p);
	return 0;
}

int weft_ptx_load_file(const char *path, struct weft_ptx_module **out, struct weft_error *err)
{
	*out = NULL;
	char *buf;
	size_t len;
	int st = weft_file_read(path, &buf, &len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_at(err, WEFT_ERR_IO, path, 0, 0,
				     "cannot open PTX file: %s (check the path)", strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_at(err, WEFT_ERR_IO, path, 0, 0, "read error on PTX file: %s", strerror(errno));
	int rc = weft_ptx_parse(buf, len, path, out, err);
	free(buf);
	return rc;
}
