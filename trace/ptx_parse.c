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
 * Errors unwind with longjmp to weft_ptx_parse(). Everything allocated is
 * reachable from the module under construction or from the parser, and both
 * are freed on that path, so a failed parse leaks nothing.
 */
#include "ptx.h"
#include "ptx_lex.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* String -> int32 hash map. Keys are not owned: they point at names that
 * live in the module or in the source text for the map's lifetime. A value
 * of -1 means "absent" (used when a scope ends), so there are no tombstones. */
struct smslot {
	const char *key;
	uint32_t len;
	int32_t val;
};
struct strmap {
	struct smslot *s;
	uint32_t cap, n;
};

static uint64_t fnv1a(const void *data, size_t len)
{
	const unsigned char *b = data;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static int32_t sm_get(const struct strmap *m, const char *key, uint32_t len)
{
	if (!m->cap)
		return -1;
	uint32_t mask = m->cap - 1;
	for (uint32_t i = (uint32_t)fnv1a(key, len) & mask;; i = (i + 1) & mask) {
		const struct smslot *s = &m->s[i];
		if (!s->key)
			return -1;
		if (s->len == len && memcmp(s->key, key, len) == 0)
			return s->val;
	}
}

/* Returns 0, or -1 on out of memory. */
static int sm_put(struct strmap *m, const char *key, uint32_t len, int32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		uint32_t nc = m->cap ? m->cap * 2 : 64;
		struct smslot *ns = calloc(nc, sizeof(*ns));
		if (!ns)
			return -1;
		for (uint32_t i = 0; i < m->cap; i++) {
			struct smslot *o = &m->s[i];
			if (!o->key)
				continue;
			uint32_t j = (uint32_t)fnv1a(o->key, o->len) & (nc - 1);
			while (ns[j].key)
				j = (j + 1) & (nc - 1);
			ns[j] = *o;
		}
		free(m->s);
		m->s = ns;
		m->cap = nc;
	}
	uint32_t mask = m->cap - 1;
	for (uint32_t i = (uint32_t)fnv1a(key, len) & mask;; i = (i + 1) & mask) {
		struct smslot *s = &m->s[i];
		if (!s->key) {
			s->key = key;
			s->len = len;
			s->val = val;
			m->n++;
			return 0;
		}
		if (s->len == len && memcmp(s->key, key, len) == 0) {
			s->val = val;
			return 0;
		}
	}
}

static void sm_free(struct strmap *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = m->n = 0;
}

/* ------------------------------------------------------------------ */

enum { NAME_REG = 0, NAME_SYM = 1 };

struct binding {
	const char *key;
	uint32_t len;
	uint8_t kind;
	uint32_t depth;
	int32_t idx;
	int32_t prev; /* binding this one shadows, -1 none */
};

struct label {
	const char *s; /* in the source text */
	uint32_t len;
	uint32_t inst;
	uint32_t line, col;
};

struct fixup {
	uint32_t inst;
	uint8_t opnd;
	const char *s;
	uint32_t len;
	uint32_t line, col;
};

struct tmp_param {
	const char *s;
	uint32_t len;
	uint32_t line;
	struct weft_ptx_param p;
};

struct parser {
	struct weft_ptx_lexer lx;
	struct weft_ptx_tok tok;
	struct weft_error *err;
	const char *path;
	jmp_buf jb;
	int rc;
	struct weft_ptx_module *m;
	uint32_t cap_funcs, cap_syms;
	struct strmap funcs_map, syms_map;
	int have_version;

	/* current function */
	int32_t fidx;
	uint32_t cap_regs, cap_insts;
	struct strmap scope_map;
	struct binding *binds;
	uint32_t nbinds, cap_binds;
	uint32_t *marks;
	uint32_t nmarks, cap_marks;
	struct strmap label_map;
	struct strmap proto_map; /* .callprototype label -> nrets << 16 | nparams */
	struct label *labels;
	uint32_t nlabels, cap_labels;
	struct fixup *fixups;
	uint32_t nfixups, cap_fixups;
	int32_t src_file;
	uint32_t src_line;

	/* scratch */
	uint8_t *ibuf;
	size_t ilen, icap;
	struct tmp_param *tparams[2];
	uint32_t ntparams[2], cap_tparams[2];
	int32_t tcall[2][256];
	uint32_t ntcall[2];
};

#define F(p) (&(p)->m->funcs[(p)->fidx])

static _Noreturn void fail_code(struct parser *p, int code, uint32_t line, uint32_t col,
				const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static _Noreturn void fail_code(struct parser *p, int code, uint32_t line, uint32_t col,
				const char *fmt, ...)
{
	char msg[WEFT_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	weft_error_at(p->err, code, p->path, line, col, "%s", msg);
	p->rc = code;
	longjmp(p->jb, 1);
}
#define fail(p, line, col, ...) fail_code((p), WEFT_ERR_PARSE, (line), (col), __VA_ARGS__)
#define fail_tok(p, t, ...) fail_code((p), WEFT_ERR_PARSE, (t)->line, (t)->col, __VA_ARGS__)

static _Noreturn void nomem(struct parser *p)
{
	fail_code(p, WEFT_ERR_NOMEM, p->tok.line, p->tok.col,
		  "out of memory while parsing the PTX module");
}

#define GROW(p, arr, n, cap)                                                        \
	do {                                                                        \
		if ((n) >= (cap)) {                                                 \
			uint32_t nc_ = (cap) ? (cap) * 2 : 8;                       \
			void *na_ = realloc((arr), (size_t)nc_ * sizeof(*(arr)));   \
			if (!na_)                                                   \
				nomem(p);                                           \
			(arr) = na_;                                                \
			(cap) = nc_;                                                \
		}                                                                   \
	} while (0)

static char *xstrndup(struct parser *p, const char *s, size_t n)
{
	char *r = malloc(n + 1);
	if (!r)
		nomem(p);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

static void put(struct parser *p, struct strmap *m, const char *k, uint32_t len, int32_t v)
{
	if (sm_put(m, k, len, v))
		nomem(p);
}

/* ------------------------------------------------------------------ */
/* tokens */

static void next(struct parser *p)
{
	int rc = weft_ptx_lex_next(&p->lx, &p->tok, p->err);
	if (rc) {
		p->rc = rc;
		longjmp(p->jb, 1);
	}
}

static struct weft_ptx_tok peek(struct parser *p)
{
	struct weft_ptx_lexer save = p->lx;
	struct weft_ptx_tok t;
	struct weft_error e;
	if (weft_ptx_lex_next(&save, &t, &e))
		t.kind = WEFT_TOK_EOF; /* the error is reported when really read */
	return t;
}

static int is_punct(struct parser *p, char c)
{
	return weft_ptx_tok_punct(&p->tok, c);
}

static int is_word(struct parser *p, const char *w)
{
	return weft_ptx_tok_is(&p->tok, w);
}

/* A directive, also when glued to its first qualifier as inline asm in
 * CUDA headers writes it (`.reg.b32 f;`). */
static int is_dir(struct parser *p, const char *w)
{
	size_t n = strlen(w);
	return p->tok.kind == WEFT_TOK_WORD && p->tok.len >= n && !memcmp(p->tok.s, w, n) &&
	       (p->tok.len == n || p->tok.s[n] == '.');
}

/* Consumes a directive matched by is_dir(): the whole token, or just the
 * directive part of a glued one (the rest stays as the current token). */
static void eat_dir(struct parser *p, const char *w)
{
	uint32_t n = (uint32_t)strlen(w);
	if (p->tok.len == n) {
		next(p);
		return;
	}
	p->tok.s += n;
	p->tok.len -= n;
	p->tok.col += n;
}

/* A short printable rendering of the current token for messages. */
static const char *tok_desc(const struct weft_ptx_tok *t, char *buf, size_t n)
{
	switch (t->kind) {
	case WEFT_TOK_EOF:
		snprintf(buf, n, "end of file");
		break;
	case WEFT_TOK_STR:
		snprintf(buf, n, "string \"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->s);
		break;
	default:
		snprintf(buf, n, "'%.*s'", (int)(t->len > 60 ? 60 : t->len), t->s);
	}
	return buf;
}

static void expect_punct(struct parser *p, char c, const char *what)
{
	if (!is_punct(p, c)) {
		char b[96];
		fail_tok(p, &p->tok, "expected '%c' %s, found %s", c, what,
			 tok_desc(&p->tok, b, sizeof(b)));
	}
	next(p);
}

/* ------------------------------------------------------------------ */
/* literals */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses an integer literal (decimal, 0x hex, 0b binary, 0 octal, optional U
 * suffix). Returns 0 on success. */
static int parse_int_text(const char *s, uint32_t len, uint64_t *out)
{
	if (len && (s[len - 1] == 'U' || s[len - 1] == 'u'))
		len--;
	if (!len)
		return -1;
	unsigned base = 10;
	uint32_t i = 0;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (len > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		i = 2;
	} else if (len > 1 && s[0] == '0') {
		base = 8;
		i = 1;
	}
	uint64_t v = 0;
	for (; i < len; i++) {
		int d = hexval((unsigned char)s[i]);
		if (d < 0 || (unsigned)d >= base)
			return -1;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return -1;
		v = v * base + (unsigned)d;
	}
	*out = v;
	return 0;
}

enum lit_kind { LIT_INT, LIT_F32, LIT_F64, LIT_DEC };

static int lit_kind(const struct weft_ptx_tok *t)
{
	if (t->len >= 2 && t->s[0] == '0' && (t->s[1] == 'f' || t->s[1] == 'F'))
		return LIT_F32;
	if (t->len >= 2 && t->s[0] == '0' && (t->s[1] == 'd' || t->s[1] == 'D'))
		return LIT_F64;
	if (t->len >= 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X'))
		return LIT_INT;
	for (uint32_t i = 0; i < t->len; i++)
		if (t->s[i] == '.' || t->s[i] == 'e' || t->s[i] == 'E')
			return LIT_DEC;
	return LIT_INT;
}

static uint16_t f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000;
	int32_t exp = (int32_t)((x >> 23) & 0xff);
	uint32_t man = x & 0x7fffff;
	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	int32_t e = exp - 127 + 15;
	if (e >= 0x1f)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		uint32_t shift = (uint32_t)(14 - e);
		uint32_t h = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* may carry into the exponent: still correct (to inf) */
	return (uint16_t)(sign | h);
}

static uint16_t f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

static uint64_t float_bits(double d, float fsingle, int use_single, int type)
{
	uint64_t u = 0;
	if (type == WEFT_T_F64) {
		memcpy(&u, &d, 8);
		return u;
	}
	float f = use_single ? fsingle : (float)d;
	if (type == WEFT_T_F16 || type == WEFT_T_F16X2)
		return f32_to_f16(f);
	if (type == WEFT_T_BF16)
		return f32_to_bf16(f);
	uint32_t w;
	memcpy(&w, &f, 4);
	return w;
}

/* Converts a numeric token (with a preceding '-' if neg) to the bits of an
 * immediate of type `type`. *is_float tells whether the bits are a float. */
static uint64_t literal_bits(struct parser *p, const struct weft_ptx_tok *t, int neg, int type,
			     int *is_float)
{
	int k = lit_kind(t);
	*is_float = 0;
	if (k == LIT_INT) {
		uint64_t v;
		if (parse_int_text(t->s, t->len, &v))
			fail_tok(p, t, "bad integer literal '%.*s' (use decimal, 0x hex, 0b binary or 0 octal)",
				 (int)t->len, t->s);
		if (neg)
			v = (uint64_t)0 - v;
		if (weft_ptx_type_is_float(type)) {
			*is_float = 1;
			double d = neg ? (double)(int64_t)v : (double)v;
			return float_bits(d, 0, 0, type);
		}
		return v;
	}
	int ft = type;
	if (k == LIT_DEC && !weft_ptx_type_is_float(ft))
		fail_tok(p, t, "decimal float literal '%.*s' in an operation on .%s (write the bits as 0f/0d hex)",
			 (int)t->len, t->s, weft_ptx_type_name(type));
	if (!weft_ptx_type_is_float(ft))
		ft = weft_ptx_type_size(type) == 8 ? WEFT_T_F64
		   : weft_ptx_type_size(type) == 2 ? WEFT_T_F16 : WEFT_T_F32;
	*is_float = 1;
	if (k == LIT_F32 || k == LIT_F64) {
		uint32_t nd = k == LIT_F32 ? 8 : 16;
		if (t->len != nd + 2)
			fail_tok(p, t, "bad float literal '%.*s' (0f needs 8 hex digits, 0d needs 16)",
				 (int)t->len, t->s);
		uint64_t v = 0;
		for (uint32_t i = 2; i < t->len; i++) {
			int h = hexval((unsigned char)t->s[i]);
			if (h < 0)
				fail_tok(p, t, "bad hex digit in float literal '%.*s'", (int)t->len, t->s);
			v = v << 4 | (uint64_t)h;
		}
		if (k == LIT_F32) {
			uint32_t w = (uint32_t)v ^ (neg ? 0x80000000u : 0);
			float f;
			memcpy(&f, &w, 4);
			if (ft == WEFT_T_F32)
				return w;
			return float_bits((double)f, f, 1, ft);
		}
		v ^= neg ? 0x8000000000000000ull : 0;
		if (ft == WEFT_T_F64)
			return v;
		double d;
		memcpy(&d, &v, 8);
		return float_bits(d, 0, 0, ft);
	}
	/* decimal float: convert straight to the target precision */
	char buf[300];
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	char *end;
	double d = 0;
	float f = 0;
	if (ft == WEFT_T_F64)
		d = strtod(buf, &end);
	else
		f = strtof(buf, &end);
	if (*end)
		fail_tok(p, t, "bad float literal '%.*s'", (int)t->len, t->s);
	if (neg) {
		d = -d;
		f = -f;
	}
	return float_bits(d, f, 1, ft);
}

static uint64_t expect_uint(struct parser *p, const char *what)
{
	uint64_t v;
	if (p->tok.kind != WEFT_TOK_NUM || lit_kind(&p->tok) != LIT_INT ||
	    parse_int_text(p->tok.s, p->tok.len, &v)) {
		char b[96];
		fail_tok(p, &p->tok, "expected an integer %s, found %s", what,
			 tok_desc(&p->tok, b, sizeof(b)));
	}
	next(p);
	return v;
}

/* ------------------------------------------------------------------ */
/* types and names */

static int type_from(const char *s)
{
	static const struct { const char *n; int t; } tab[] = {
		{ "b8", WEFT_T_B8 }, { "b16", WEFT_T_B16 }, { "b32", WEFT_T_B32 }, { "b64", WEFT_T_B64 },
		{ "u8", WEFT_T_U8 }, { "u16", WEFT_T_U16 }, { "u32", WEFT_T_U32 }, { "u64", WEFT_T_U64 },
		{ "s8", WEFT_T_S8 }, { "s16", WEFT_T_S16 }, { "s32", WEFT_T_S32 }, { "s64", WEFT_T_S64 },
		{ "f16", WEFT_T_F16 }, { "f16x2", WEFT_T_F16X2 }, { "bf16", WEFT_T_BF16 },
		{ "f32", WEFT_T_F32 }, { "f64", WEFT_T_F64 }, { "pred", WEFT_T_PRED },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(s, tab[i].n) == 0)
			return tab[i].t;
	return WEFT_T_NONE;
}

static int space_from(const char *s)
{
	if (!strcmp(s, "global"))
		return WEFT_SPACE_GLOBAL;
	if (!strcmp(s, "shared") || !strcmp(s, "shared::cta"))
		return WEFT_SPACE_SHARED;
	if (!strcmp(s, "local"))
		return WEFT_SPACE_LOCAL;
	if (!strcmp(s, "const"))
		return WEFT_SPACE_CONST;
	if (!strcmp(s, "param"))
		return WEFT_SPACE_PARAM;
	return -1;
}

/* Splits a dotted word into NUL-terminated pieces in buf. Returns the count.
 * A leading '.' gives no empty first piece. */
static int split_dots(struct parser *p, const struct weft_ptx_tok *t, char *buf, size_t bufsz,
		      char **pieces, int maxp)
{
	if (t->len + 1 > bufsz)
		fail_tok(p, t, "'%.40s...' is too long", t->s);
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	int n = 0;
	char *s = buf;
	if (*s == '.')
		s++;
	for (;;) {
		if (n == maxp)
			fail_tok(p, t, "too many modifiers in '%.*s'", (int)t->len, t->s);
		pieces[n++] = s;
		char *d = strchr(s, '.');
		if (!d)
			break;
		*d = 0;
		s = d + 1;
	}
	for (int i = 0; i < n; i++)
		if (!pieces[i][0])
			fail_tok(p, t, "empty modifier in '%.*s' (two dots in a row?)", (int)t->len, t->s);
	return n;
}

/* ------------------------------------------------------------------ */
/* module tables */

static int32_t add_symbol(struct parser *p, const char *name, uint32_t len, int space, int type,
			  uint32_t line)
{
	struct weft_ptx_module *m = p->m;
	GROW(p, m->syms, m->nsyms, p->cap_syms);
	struct weft_ptx_symbol *s = &m->syms[m->nsyms];
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(p, name, len);
	m->nsyms++;
	s->space = (uint8_t)space;
	s->type = (uint8_t)type;
	s->func = -1;
	s->line = line;
	return (int32_t)(m->nsyms - 1);
}

/* Scoped names of the current function. */
static void scope_push(struct parser *p)
{
	GROW(p, p->marks, p->nmarks, p->cap_marks);
	p->marks[p->nmarks++] = p->nbinds;
}

static void scope_pop(struct parser *p)
{
	uint32_t mark = p->marks[--p->nmarks];
	while (p->nbinds > mark) {
		struct binding *b = &p->binds[--p->nbinds];
		put(p, &p->scope_map, b->key, b->len, b->prev);
	}
}

static void declare(struct parser *p, const char *key, uint32_t len, int kind, int32_t idx,
		    uint32_t line, uint32_t col)
{
	int32_t prev = sm_get(&p->scope_map, key, len);
	if (prev >= 0 && p->binds[prev].depth == p->nmarks)
		fail(p, line, col, "'%.*s' is declared twice in the same scope", (int)len, key);
	GROW(p, p->binds, p->nbinds, p->cap_binds);
	struct binding *b = &p->binds[p->nbinds];
	b->key = key;
	b->len = len;
	b->kind = (uint8_t)kind;
	b->depth = p->nmarks;
	b->idx = idx;
	b->prev = prev;
	put(p, &p->scope_map, key, len, (int32_t)p->nbinds);
	p->nbinds++;
}

/* Returns the binding of a name in the current function, or NULL. */
static const struct binding *lookup_local(struct parser *p, const char *s, uint32_t len)
{
	if (p->fidx < 0)
		return NULL;
	int32_t b = sm_get(&p->scope_map, s, len);
	return b >= 0 ? &p->binds[b] : NULL;
}

/* ------------------------------------------------------------------ */
/* declarations */

struct decl {
	int type;
	uint32_t align;
	int vec;
	int ptr;
	uint32_t line, col;
};

/* Reads `.align N`, `.ptr`, `.v2`, a type and the like, up to the name. */
static void parse_decl_quals(struct parser *p, struct decl *d, const char *what)
{
	memset(d, 0, sizeof(*d));
	d->vec = 1;
	d->line = p->tok.line;
	d->col = p->tok.col;
	while (p->tok.kind == WEFT_TOK_WORD && p->tok.s[0] == '.') {
		char buf[256], *pc[16];
		struct weft_ptx_tok t = p->tok;
		int n = split_dots(p, &t, buf, sizeof(buf), pc, 16);
		int want_align = 0;
		for (int i = 0; i < n; i++) {
			int ty = type_from(pc[i]);
			if (ty) {
				if (d->type)
					fail_tok(p, &t, "two types in one %s declaration", what);
				d->type = ty;
			} else if (!strcmp(pc[i], "align")) {
				want_align = 1;
			} else if (!strcmp(pc[i], "ptr")) {
				d->ptr = 1;
			} else if (d->ptr && space_from(pc[i]) >= 0) {
				/* .ptr.global: where the pointer points; a hint only */
			} else if (!strcmp(pc[i], "v2") || !strcmp(pc[i], "v4") || !strcmp(pc[i], "v8")) {
				d->vec = pc[i][1] - '0';
			} else {
				fail_tok(p, &t, "unknown qualifier '.%s' in %s declaration (see docs/ptx-subset.md)",
					 pc[i], what);
			}
		}
		next(p);
		if (want_align) {
			uint64_t a = expect_uint(p, "alignment after .align");
			if (a == 0 || a > 4096 || (a & (a - 1)))
				fail(p, t.line, t.col, ".align %llu is not a power of two up to 4096",
				     (unsigned long long)a);
			d->align = (uint32_t)a;
		}
	}
	if (!d->type)
		fail_tok(p, &p->tok, "missing type (e.g. .u32, .b8) in %s declaration", what);
}

/* Array dimensions `[N][M]` or `[]`. Returns the element count; *unsized for `[]`. */
static uint64_t parse_dims(struct parser *p, int *unsized)
{
	uint64_t count = 1;
	*unsized = 0;
	int ndims = 0;
	while (is_punct(p, '[')) {
		struct weft_ptx_tok open = p->tok;
		next(p);
		if (is_punct(p, ']')) {
			if (ndims)
				fail_tok(p, &open, "only the first array dimension may be empty");
			*unsized = 1;
		} else {
			uint64_t n = expect_uint(p, "array size");
			if (n > ((uint64_t)1 << 40) || (count && n > ((uint64_t)1 << 40) / count))
				fail_tok(p, &open, "array too large");
			count *= n;
		}
		ndims++;
		expect_punct(p, ']', "after array size");
	}
	return count;
}

static void ibuf_put(struct parser *p, uint64_t v, unsigned size)
{
	if (p->ilen + size > p->icap) {
		size_t nc = p->icap ? p->icap * 2 : 256;
		while (nc < p->ilen + size)
			nc *= 2;
		uint8_t *nb = realloc(p->ibuf, nc);
		if (!nb)
			nomem(p);
		p->ibuf = nb;
		p->icap = nc;
	}
	for (unsigned i = 0; i < size; i++)
		p->ibuf[p->ilen++] = (uint8_t)(v >> (8 * i));
}

/* One initialiser item (scalar or nested list), appended to p->ibuf. */
static void parse_init_item(struct parser *p, int type, int depth)
{
	if (depth > 16)
		fail_tok(p, &p->tok, "initialiser nested too deeply");
	if (is_punct(p, '{')) {
		next(p);
		if (!is_punct(p, '}')) {
			for (;;) {
				parse_init_item(p, type, depth + 1);
				if (!is_punct(p, ','))
					break;
				next(p);
			}
		}
		expect_punct(p, '}', "to close the initialiser list");
		return;
	}
	int neg = 0;
	if (is_punct(p, '-')) {
		neg = 1;
		next(p);
	}
	if (p->tok.kind == WEFT_TOK_WORD) {
		fail_tok(p, &p->tok,
			 "address initialiser '%.*s' is not supported (weft's PTX subset allows numeric initialisers only)",
			 (int)p->tok.len, p->tok.s);
	}
	if (p->tok.kind != WEFT_TOK_NUM) {
		char b[96];
		fail_tok(p, &p->tok, "expected a number in the initialiser, found %s",
			 tok_desc(&p->tok, b, sizeof(b)));
	}
	if (type == WEFT_T_PRED)
		fail_tok(p, &p->tok, "predicate variables cannot be initialised");
	if (!weft_ptx_type_is_float(type) && lit_kind(&p->tok) != LIT_INT)
		fail_tok(p, &p->tok, "float literal '%.*s' in an integer initialiser", (int)p->tok.len,
			 p->tok.s);
	int isf;
	uint64_t v = literal_bits(p, &p->tok, neg, type, &isf);
	ibuf_put(p, v, weft_ptx_type_size(type));
	next(p);
}

/*
 * A variable declaration after its state-space directive: module-level
 * .global/.const/.shared, function-level .shared/.local, call-scope .param.
 * The current token is the first qualifier after the directive.
 */
static void parse_var(struct parser *p, int space, int is_extern, int is_visible)
{
	struct decl d;
	parse_decl_quals(p, &d, "variable");
	for (;;) {
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.' || nt.s[0] == '%') {
			char b[96];
			fail_tok(p, &nt, "expected a variable name, found %s", tok_desc(&nt, b, sizeof(b)));
		}
		next(p);
		int unsized;
		uint64_t count = parse_dims(p, &unsized);
		unsigned esz = weft_ptx_type_size(d.type) * (unsigned)d.vec;
		uint64_t nelem = 0;
		int has_init = 0;
		p->ilen = 0;
		if (is_punct(p, '=')) {
			struct weft_ptx_tok eq = p->tok;
			if (space == WEFT_SPACE_SHARED || space == WEFT_SPACE_LOCAL || space == WEFT_SPACE_PARAM)
				fail_tok(p, &eq, "%s variables cannot have initialisers",
					 weft_ptx_space_name(space));
			next(p);
			parse_init_item(p, d.type, 0);
			has_init = 1;
			nelem = p->ilen / weft_ptx_type_size(d.type);
			uint64_t need = unsized ? nelem : count * (uint64_t)d.vec;
			if (nelem > need)
				fail_tok(p, &eq, "too many initialisers for '%.*s': %llu given, %llu elements",
					 (int)nt.len, nt.s, (unsigned long long)nelem,
					 (unsigned long long)need);
			if (unsized)
				count = (nelem + (unsigned)d.vec - 1) / (unsigned)d.vec;
		}
		if (unsized && !has_init && !is_extern)
			fail_tok(p, &nt, "'%.*s[]' has no size: declare it .extern (dynamic shared memory) or give a size",
				 (int)nt.len, nt.s);
		uint64_t size = unsized && !has_init ? 0 : count * esz;
		int32_t si;
		int define = 1; /* fill size, alignment and contents */
		if (p->fidx < 0) {
			int32_t old = sm_get(&p->syms_map, nt.s, nt.len);
			if (old >= 0) {
				/* `.extern` declarations and one definition may repeat */
				struct weft_ptx_symbol *o = &p->m->syms[old];
				if (!o->is_extern && !is_extern)
					fail_tok(p, &nt, "'%.*s' is defined twice (first at line %u)",
						 (int)nt.len, nt.s, o->line);
				if (o->space != space)
					fail_tok(p, &nt, "'%.*s' redeclared in another state space (first at line %u)",
						 (int)nt.len, nt.s, o->line);
				si = old;
				define = !is_extern;
			} else {
				si = add_symbol(p, nt.s, nt.len, space, d.type, nt.line);
				put(p, &p->syms_map, p->m->syms[si].name, nt.len, si);
				p->m->syms[si].is_extern = (uint8_t)is_extern;
			}
			p->m->syms[si].is_visible |= (uint8_t)is_visible;
		} else {
			si = add_symbol(p, nt.s, nt.len, space, d.type, nt.line);
			p->m->syms[si].func = p->fidx;
			p->m->syms[si].is_extern = (uint8_t)is_extern;
			declare(p, p->m->syms[si].name, nt.len, NAME_SYM, si, nt.line, nt.col);
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
					nomem(p);
				memcpy(s->init, p->ibuf, p->ilen < size ? p->ilen : size);
			}
		}
		if (is_punct(p, ',')) {
			next(p);
			continue;
		}
		expect_punct(p, ';', "after the variable declaration");
		return;
	}
}

/* `.reg .b32 %r<42>, %x;` */
static void parse_reg_decl(struct parser *p)
{
	eat_dir(p, ".reg");
	struct decl d;
	parse_decl_quals(p, &d, ".reg");
	if (d.vec != 1)
		fail(p, d.line, d.col, "vector registers (.reg .v2/.v4) are not supported; declare scalar registers");
	for (;;) {
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.') {
			char b[96];
			fail_tok(p, &nt, "expected a register name, found %s", tok_desc(&nt, b, sizeof(b)));
		}
		next(p);
		uint64_t count = 0;
		int range = 0;
		if (is_punct(p, '<')) {
			next(p);
			count = expect_uint(p, "register count in %name<N>");
			if (count > (1u << 24))
				fail_tok(p, &nt, "register range %.*s<%llu> is too large", (int)nt.len, nt.s,
					 (unsigned long long)count);
			expect_punct(p, '>', "after the register count");
			range = 1;
		}
		struct weft_ptx_func *f = F(p);
		/* a bound on garbage input, far above what any compiler emits */
		if (f->nregs + (range ? count : 1) > (1u << 24))
			fail_tok(p, &nt, "more than %u registers in function '%s'", 1u << 24, f->name);
		for (uint64_t i = 0; i < (range ? count : 1); i++) {
			GROW(p, f->regs, f->nregs, p->cap_regs);
			struct weft_ptx_reg *r = &f->regs[f->nregs];
			if (range) {
				char nb[64];
				int n = snprintf(nb, sizeof(nb), "%llu", (unsigned long long)i);
				r->name = malloc(nt.len + (size_t)n + 1);
				if (!r->name)
					nomem(p);
				memcpy(r->name, nt.s, nt.len);
				memcpy(r->name + nt.len, nb, (size_t)n + 1);
			} else {
				r->name = xstrndup(p, nt.s, nt.len);
			}
			r->type = (uint8_t)d.type;
			f->nregs++;
			declare(p, r->name, (uint32_t)strlen(r->name), NAME_REG, (int32_t)(f->nregs - 1),
				nt.line, nt.col);
		}
		if (is_punct(p, ',')) {
			next(p);
			continue;
		}
		expect_punct(p, ';', "after the register declaration");
		return;
	}
}

/* `( .param .u64 a, .param .align 8 .b8 b[24] )` into p->tparams[which]. */
static void parse_param_list(struct parser *p, int which)
{
	p->ntparams[which] = 0;
	expect_punct(p, '(', "to open the parameter list");
	if (is_punct(p, ')')) {
		next(p);
		return;
	}
	for (;;) {
		struct weft_ptx_tok pt = p->tok;
		if (!is_dir(p, ".param")) {
			char b[96];
			if (is_dir(p, ".reg"))
				fail_tok(p, &pt, ".reg parameters are not supported (nvcc uses .param)");
			fail_tok(p, &pt, "expected '.param' in the parameter list, found %s",
				 tok_desc(&pt, b, sizeof(b)));
		}
		eat_dir(p, ".param");
		struct decl d;
		parse_decl_quals(p, &d, "parameter");
		struct weft_ptx_tok nt = p->tok;
		if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.') {
			char b[96];
			fail_tok(p, &nt, "expected a parameter name, found %s", tok_desc(&nt, b, sizeof(b)));
		}
		next(p);
		int unsized;
		uint64_t count = parse_dims(p, &unsized);
		if (unsized)
			fail_tok(p, &nt, "parameter '%.*s[]' needs a size", (int)nt.len, nt.s);
		uint64_t size = count * weft_ptx_type_size(d.type) * (unsigned)d.vec;
		if (size > (1u << 20))
			fail_tok(p, &nt, "parameter '%.*s' is too large", (int)nt.len, nt.s);
		GROW(p, p->tparams[which], p->ntparams[which], p->cap_tparams[which]);
		struct tmp_param *tp = &p->tparams[which][p->ntparams[which]++];
		memset(tp, 0, sizeof(*tp));
		tp->s = nt.s;
		tp->len = nt.len;
		tp->line = nt.line;
		tp->p.type = (uint8_t)d.type;
		tp->p.size = (uint32_t)size;
		tp->p.align = d.align ? d.align : weft_ptx_type_size(d.type) * (unsigned)d.vec;
		tp->p.is_ptr_hint = (uint8_t)d.ptr;
		if (is_punct(p, ',')) {
			next(p);
			continue;
		}
		expect_punct(p, ')', "to close the parameter list");
		return;
	}
}

/* Turns p->tparams[which] into the function's params/rets, reusing the
 * symbols of an earlier prototype when there is one. */
static void install_params(struct parser *p, int which, int had_proto, uint32_t line)
{
	struct weft_ptx_func *f = F(p);
	struct weft_ptx_param **arr = which ? &f->rets : &f->params;
	uint32_t *n = which ? &f->nrets : &f->nparams;
	uint32_t cnt = p->ntparams[which];
	if (had_proto) {
		if (*n != cnt)
			fail(p, line, 1, "'%s' redeclared with %u %s (earlier declaration has %u)", f->name,
			     cnt, which ? "return parameters" : "parameters", *n);
	} else {
		*arr = calloc(cnt ? cnt : 1, sizeof(**arr));
		if (!*arr)
			nomem(p);
	}
	uint32_t off = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		struct tmp_param *tp = &p->tparams[which][i];
		f = F(p);
		struct weft_ptx_param *fp = &(*arr)[i];
		int32_t si;
		if (had_proto) {
			si = fp->sym;
			struct weft_ptx_symbol *s = &p->m->syms[si];
			char *nn = xstrndup(p, tp->s, tp->len);
			free(s->name);
			s->name = nn;
			s->line = tp->line;
		} else {
			si = add_symbol(p, tp->s, tp->len, WEFT_SPACE_PARAM, tp->p.type, tp->line);
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

/* ------------------------------------------------------------------ */
/* instructions */

struct opdef {
	const char *name;
	uint16_t op;
	uint8_t tmin, tmax; /* type suffixes */
	uint8_t omin, omax; /* operands */
};

static const struct opdef opdefs[] = {
	{ "add", WEFT_OP_ADD, 1, 1, 3, 3 }, { "sub", WEFT_OP_SUB, 1, 1, 3, 3 },
	{ "mul", WEFT_OP_MUL, 1, 1, 3, 3 }, { "mad", WEFT_OP_MAD, 1, 1, 4, 4 },
	{ "mul24", WEFT_OP_MUL24, 1, 1, 3, 3 }, { "mad24", WEFT_OP_MAD24, 1, 1, 4, 4 },
	{ "div", WEFT_OP_DIV, 1, 1, 3, 3 }, { "rem", WEFT_OP_REM, 1, 1, 3, 3 },
	{ "abs", WEFT_OP_ABS, 1, 1, 2, 2 }, { "neg", WEFT_OP_NEG, 1, 1, 2, 2 },
	{ "min", WEFT_OP_MIN, 1, 1, 3, 3 }, { "max", WEFT_OP_MAX, 1, 1, 3, 3 },
	{ "addc", WEFT_OP_ADDC, 1, 1, 3, 3 }, { "subc", WEFT_OP_SUBC, 1, 1, 3, 3 },
	{ "madc", WEFT_OP_MADC, 1, 1, 4, 4 }, { "popc", WEFT_OP_POPC, 1, 1, 2, 2 },
	{ "clz", WEFT_OP_CLZ, 1, 1, 2, 2 }, { "brev", WEFT_OP_BREV, 1, 1, 2, 2 },
	{ "bfe", WEFT_OP_BFE, 1, 1, 4, 4 }, { "bfi", WEFT_OP_BFI, 1, 1, 5, 5 },
	{ "prmt", WEFT_OP_PRMT, 1, 1, 4, 4 }, { "sad", WEFT_OP_SAD, 1, 1, 4, 4 },
	{ "and", WEFT_OP_AND, 1, 1, 3, 3 }, { "or", WEFT_OP_OR, 1, 1, 3, 3 },
	{ "xor", WEFT_OP_XOR, 1, 1, 3, 3 }, { "not", WEFT_OP_NOT, 1, 1, 2, 2 },
	{ "cnot", WEFT_OP_CNOT, 1, 1, 2, 2 }, { "shl", WEFT_OP_SHL, 1, 1, 3, 3 },
	{ "shr", WEFT_OP_SHR, 1, 1, 3, 3 }, { "shf", WEFT_OP_SHF, 1, 1, 4, 4 },
	{ "lop3", WEFT_OP_LOP3, 1, 1, 5, 5 }, { "fma", WEFT_OP_FMA, 1, 1, 4, 4 },
	{ "rcp", WEFT_OP_RCP, 1, 1, 2, 2 }, { "sqrt", WEFT_OP_SQRT, 1, 1, 2, 2 },
	{ "rsqrt", WEFT_OP_RSQRT, 1, 1, 2, 2 }, { "ex2", WEFT_OP_EX2, 1, 1, 2, 2 },
	{ "lg2", WEFT_OP_LG2, 1, 1, 2, 2 }, { "sin", WEFT_OP_SIN, 1, 1, 2, 2 },
	{ "cos", WEFT_OP_COS, 1, 1, 2, 2 }, { "tanh", WEFT_OP_TANH, 1, 1, 2, 2 },
	{ "copysign", WEFT_OP_COPYSIGN, 1, 1, 3, 3 }, { "testp", WEFT_OP_TESTP, 1, 1, 2, 2 },
	{ "setp", WEFT_OP_SETP, 1, 1, 3, 4 }, { "set", WEFT_OP_SET, 2, 2, 3, 4 },
	{ "selp", WEFT_OP_SELP, 1, 1, 4, 4 }, { "slct", WEFT_OP_SLCT, 2, 2, 4, 4 },
	{ "cvt", WEFT_OP_CVT, 2, 2, 2, 2 }, { "cvta", WEFT_OP_CVTA, 1, 1, 2, 2 },
	{ "mov", WEFT_OP_MOV, 1, 1, 2, 2 }, { "ld", WEFT_OP_LD, 1, 1, 2, 2 },
	{ "ldu", WEFT_OP_LDU, 1, 1, 2, 2 }, { "st", WEFT_OP_ST, 1, 1, 2, 2 },
	{ "prefetch", WEFT_OP_PREFETCH, 0, 0, 1, 1 }, { "prefetchu", WEFT_OP_PREFETCH, 0, 0, 1, 1 },
	{ "isspacep", WEFT_OP_ISSPACEP, 0, 0, 2, 2 }, { "atom", WEFT_OP_ATOM, 1, 1, 3, 4 },
	{ "red", WEFT_OP_RED, 1, 1, 2, 2 }, { "bra", WEFT_OP_BRA, 0, 0, 1, 1 },
	{ "brx", WEFT_OP_BRX, 0, 0, 2, 2 }, { "call", WEFT_OP_CALL, 0, 0, 0, 0 },
	{ "ret", WEFT_OP_RET, 0, 0, 0, 0 }, { "exit", WEFT_OP_EXIT, 0, 0, 0, 0 },
	{ "trap", WEFT_OP_TRAP, 0, 0, 0, 0 }, { "bar", WEFT_OP_BAR, 0, 1, 0, 4 },
	{ "barrier", WEFT_OP_BAR, 0, 1, 0, 4 }, { "membar", WEFT_OP_MEMBAR, 0, 0, 0, 0 },
	{ "fence", WEFT_OP_FENCE, 0, 0, 0, 0 }, { "nanosleep", WEFT_OP_NANOSLEEP, 1, 1, 1, 1 },
	{ "shfl", WEFT_OP_SHFL, 1, 1, 4, 5 }, { "vote", WEFT_OP_VOTE, 1, 1, 2, 3 },
	{ "activemask", WEFT_OP_ACTIVEMASK, 1, 1, 1, 1 }, { "match", WEFT_OP_MATCH, 1, 1, 3, 3 },
	{ "redux", WEFT_OP_REDUX, 1, 1, 3, 3 }, { "bfind", WEFT_OP_BFIND, 1, 1, 2, 2 },
	{ "dp4a", WEFT_OP_DP4A, 2, 2, 4, 4 }, { "dp2a", WEFT_OP_DP2A, 2, 2, 4, 4 },
};

static int op_in(int op, const int *list)
{
	for (; *list; list++)
		if (*list == op)
			return 1;
	return 0;
}

#define OPS(...) ((const int[]){ __VA_ARGS__, 0 })

static int piece_in(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

/* Applies one opcode modifier. Returns 0 if it does not apply to this op. */
static int apply_mod(struct weft_inst *in, const char *s, int *types, int *ntypes, int *tmax_over)
{
	int op = in->op, i;
	int ty = type_from(s);
	if (ty) {
		if (*ntypes == 2) {
			*tmax_over = 1;
			return 1;
		}
		types[(*ntypes)++] = ty;
		return 1;
	}
	static const char *const rnd[] = { "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", NULL };
	if ((i = piece_in(s, rnd)) >= 0) {
		if (i < 4 && op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA,
					   WEFT_OP_DIV, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_CVT))) {
			in->rnd = (uint8_t)(WEFT_RND_RN + i);
			return 1;
		}
		if (i >= 4 && op == WEFT_OP_CVT) {
			in->rnd = (uint8_t)(WEFT_RND_RN + i);
			return 1;
		}
		return 0;
	}
	if (op == WEFT_OP_SETP || op == WEFT_OP_SET) {
		static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
						   "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
						   NULL };
		static const char *const bo[] = { "and", "or", "xor", NULL };
		if ((i = piece_in(s, cmp)) >= 0) {
			if (in->cmp)
				return 0;
			in->cmp = (uint8_t)(WEFT_CMP_EQ + i);
			return 1;
		}
		if ((i = piece_in(s, bo)) >= 0) {
			in->boolop = (uint8_t)(WEFT_BOOL_AND + i);
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_MUL24, WEFT_OP_MAD24, WEFT_OP_MADC,
			  WEFT_OP_DP2A))) {
		static const char *const mm[] = { "lo", "hi", "wide", NULL };
		if ((i = piece_in(s, mm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_REDUX))) {
		static const char *const ao[] = { "add", "inc", "dec", "min", "max", "and", "or", "xor",
						  "exch", "cas", NULL };
		if ((i = piece_in(s, ao)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
		if (!strcmp(s, "noftz") && op != WEFT_OP_REDUX)
			return 1;
	}
	if (op == WEFT_OP_SHFL) {
		static const char *const sm[] = { "up", "down", "bfly", "idx", NULL };
		if ((i = piece_in(s, sm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_VOTE) {
		static const char *const vm[] = { "all", "any", "uni", "ballot", NULL };
		if ((i = piece_in(s, vm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_MATCH) {
		if (!strcmp(s, "any")) {
			in->mode = WEFT_MATCH_ANY;
			return 1;
		}
		if (!strcmp(s, "all")) {
			in->mode = WEFT_MATCH_ALL;
			return 1;
		}
	}
	if (op == WEFT_OP_SHF) {
		if (!strcmp(s, "l")) {
			in->mode &= 1;
			return 1;
		}
		if (!strcmp(s, "r")) {
			in->mode |= 2;
			return 1;
		}
		if (!strcmp(s, "wrap")) {
			in->mode &= 2;
			return 1;
		}
		if (!strcmp(s, "clamp")) {
			in->mode |= 1;
			return 1;
		}
	}
	if (op == WEFT_OP_TESTP) {
		static const char *const tm[] = { "finite", "infinite", "number", "notanumber", "normal",
						  "subnormal", NULL };
		if ((i = piece_in(s, tm)) >= 0) {
			in->mode = (uint8_t)i;
			return 1;
		}
	}
	if (op == WEFT_OP_PRMT) {
		static const char *const pm[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL };
		if ((i = piece_in(s, pm)) >= 0) {
			in->mode = (uint8_t)(WEFT_PRMT_F4E + i);
			return 1;
		}
	}
	if (op == WEFT_OP_BAR) {
		if (!strcmp(s, "sync")) {
			in->mode = WEFT_BAR_SYNC;
			in->flags |= WEFT_F_SYNC;
			return 1;
		}
		if (!strcmp(s, "arrive")) {
			in->mode = WEFT_BAR_ARRIVE;
			return 1;
		}
		if (!strcmp(s, "red")) {
			in->mode = WEFT_BAR_RED_POPC;
			return 1;
		}
		if (in->mode >= WEFT_BAR_RED_POPC) {
			if (!strcmp(s, "popc")) {
				in->mode = WEFT_BAR_RED_POPC;
				return 1;
			}
			if (!strcmp(s, "and")) {
				in->mode = WEFT_BAR_RED_AND;
				return 1;
			}
			if (!strcmp(s, "or")) {
				in->mode = WEFT_BAR_RED_OR;
				return 1;
			}
		}
		if (!strcmp(s, "aligned")) {
			in->flags |= WEFT_F_ALIGNED;
			return 1;
		}
		if (!strcmp(s, "cta"))
			return 1;
		return 0;
	}
	if (op == WEFT_OP_CVTA && !strcmp(s, "to")) {
		in->mode = WEFT_CVTA_FROM_GENERIC;
		return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_CVTA,
			  WEFT_OP_PREFETCH, WEFT_OP_ISSPACEP))) {
		int sp = space_from(s);
		if (sp >= 0) {
			in->space = (uint8_t)sp;
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST))) {
		if (!strcmp(s, "v2") || !strcmp(s, "v4")) {
			in->vec = (uint8_t)(s[1] - '0');
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST)) && !strcmp(s, "volatile")) {
		in->flags |= WEFT_F_VOLATILE;
		return 1;
	}
	if (op == WEFT_OP_LD && !strcmp(s, "nc")) {
		in->flags |= WEFT_F_NC;
		return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_FENCE))) {
		static const char *const mo[] = { "acquire", "release", "relaxed", "acq_rel", NULL };
		if ((i = piece_in(s, mo)) >= 0) {
			in->flags |= WEFT_F_ACQUIRE << i;
			return 1;
		}
		if (!strcmp(s, "weak") || !strcmp(s, "mmio") || (op == WEFT_OP_FENCE && !strcmp(s, "sc")))
			return 1;
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_ST, WEFT_OP_ATOM, WEFT_OP_RED, WEFT_OP_FENCE,
			  WEFT_OP_MEMBAR))) {
		/* scopes: accepted, the emulator is sequentially consistent */
		static const char *const sc[] = { "gpu", "cta", "sys", "cluster", NULL };
		if ((i = piece_in(s, sc)) >= 0 || (op == WEFT_OP_MEMBAR && !strcmp(s, "gl"))) {
			/* ld/st/atom scopes are ignored (the emulator is sequentially
			 * consistent); membar/fence keep theirs for timing models */
			if (op == WEFT_OP_MEMBAR || op == WEFT_OP_FENCE)
				in->mode = (uint8_t)(i < 0 ? WEFT_SCOPE_GPU : i);
			return 1;
		}
	}
	if (op_in(op, OPS(WEFT_OP_LD, WEFT_OP_LDU, WEFT_OP_ST, WEFT_OP_PREFETCH, WEFT_OP_ATOM,
			  WEFT_OP_RED))) {
		/* cache hints: no functional effect */
		static const char *const ch[] = { "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1", "L2", NULL };
		if (piece_in(s, ch) >= 0)
			return 1;
		if ((!strncmp(s, "L1::", 4) || !strncmp(s, "L2::", 4)) && strcmp(s, "L2::cache_hint"))
			return 1;
	}
	if (!strcmp(s, "ftz") &&
	    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA, WEFT_OP_DIV,
			  WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_RSQRT, WEFT_OP_EX2, WEFT_OP_LG2, WEFT_OP_SIN,
			  WEFT_OP_COS, WEFT_OP_TANH, WEFT_OP_ABS, WEFT_OP_NEG, WEFT_OP_MIN, WEFT_OP_MAX,
			  WEFT_OP_SETP, WEFT_OP_SET, WEFT_OP_SLCT, WEFT_OP_CVT, WEFT_OP_TESTP,
			  WEFT_OP_COPYSIGN))) {
		in->flags |= WEFT_F_FTZ;
		return 1;
	}
	if (!strcmp(s, "sat") &&
	    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MUL, WEFT_OP_MAD, WEFT_OP_FMA, WEFT_OP_CVT,
			  WEFT_OP_MAD24, WEFT_OP_MUL24))) {
		in->flags |= WEFT_F_SAT;
		return 1;
	}
	if (!strcmp(s, "cc") &&
	    op_in(op, OPS(WEFT_OP_ADD, WEFT_OP_SUB, WEFT_OP_MAD, WEFT_OP_ADDC, WEFT_OP_SUBC, WEFT_OP_MADC))) {
		in->flags |= WEFT_F_CC;
		return 1;
	}
	if (!strcmp(s, "approx") &&
	    op_in(op, OPS(WEFT_OP_DIV, WEFT_OP_RCP, WEFT_OP_SQRT, WEFT_OP_RSQRT, WEFT_OP_EX2, WEFT_OP_LG2,
			  WEFT_OP_SIN, WEFT_OP_COS, WEFT_OP_TANH))) {
		in->flags |= WEFT_F_APPROX;
		return 1;
	}
	if (!strcmp(s, "full") && op == WEFT_OP_DIV) {
		in->flags |= WEFT_F_FULL;
		return 1;
	}
	if (!strcmp(s, "uni") && op_in(op, OPS(WEFT_OP_BRA, WEFT_OP_CALL, WEFT_OP_RET, WEFT_OP_BRX))) {
		in->flags |= WEFT_F_UNI;
		return 1;
	}
	if (!strcmp(s, "sync") &&
	    op_in(op, OPS(WEFT_OP_SHFL, WEFT_OP_VOTE, WEFT_OP_MATCH, WEFT_OP_REDUX, WEFT_OP_BAR_WARP))) {
		in->flags |= WEFT_F_SYNC;
		return 1;
	}
	if (!strcmp(s, "NaN") && op_in(op, OPS(WEFT_OP_MIN, WEFT_OP_MAX))) {
		in->flags |= WEFT_F_NAN;
		return 1;
	}
	if (!strcmp(s, "relu") && op == WEFT_OP_CVT) {
		in->flags |= WEFT_F_RELU;
		return 1;
	}
	if (!strcmp(s, "shiftamt") && op == WEFT_OP_BFIND) {
		in->flags |= WEFT_F_SHIFTAMT;
		return 1;
	}
	if (op == WEFT_OP_BRX && !strcmp(s, "idx"))
		return 1;
	if (op == WEFT_OP_FENCE && !strcmp(s, "acq_rel")) {
		in->flags |= WEFT_F_ACQ_REL;
		return 1;
	}
	return 0;
}

/* Decodes the opcode word into in->op, types and modifiers. */
static void decode_opcode(struct parser *p, struct weft_inst *in, const struct weft_ptx_tok *t)
{
	char buf[256], *pc[24];
	int n = split_dots(p, t, buf, sizeof(buf), pc, 24);
	const struct opdef *def = NULL;
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (!strcmp(pc[0], opdefs[i].name)) {
			def = &opdefs[i];
			break;
		}
	if (!def)
		fail_tok(p, t, "unknown opcode '%.*s' (not in weft's PTX subset, see docs/ptx-subset.md)",
			 (int)t->len, t->s);
	in->op = def->op;
	in->vec = 1;
	int first = 1;
	if (def->op == WEFT_OP_BAR && n > 1 && !strcmp(pc[1], "warp")) {
		in->op = WEFT_OP_BAR_WARP;
		first = 2;
		if (n < 3 || strcmp(pc[2], "sync"))
			fail_tok(p, t, "expected 'bar.warp.sync', found '%.*s'", (int)t->len, t->s);
	}
	if (def->op == WEFT_OP_BRX)
		fail_tok(p, t, "'%.*s' (indirect branch through a .branchtargets table) is not supported by weft; "
			 "compile the switch without jump tables or see docs/ptx-subset.md", (int)t->len, t->s);
	int types[2] = { 0, 0 }, ntypes = 0, over = 0;
	for (int i = first; i < n; i++) {
		if (!strcmp(pc[i], "L2::cache_hint"))
			fail_tok(p, t, "'.L2::cache_hint' (extra cache-policy operand) is not supported in '%.*s'",
				 (int)t->len, t->s);
		if (!apply_mod(in, pc[i], types, &ntypes, &over))
			fail_tok(p, t, "unknown modifier '.%s' on '%s' (in '%.*s'; see docs/ptx-subset.md)",
				 pc[i], pc[0], (int)t->len, t->s);
	}
	int tmin = def->tmin, tmax = def->tmax;
	if (in->op == WEFT_OP_BAR_WARP)
		tmin = tmax = 0;
	if (over || ntypes > tmax)
		fail_tok(p, t, "too many type suffixes in '%.*s'", (int)t->len, t->s);
	if (ntypes < tmin)
		fail_tok(p, t, "missing type suffix (e.g. .u32 or .f32) in '%.*s'", (int)t->len, t->s);
	if (ntypes >= 1)
		in->type = (uint8_t)types[0];
	if (ntypes == 2)
		in->type2 = (uint8_t)types[1];
	if (in->op == WEFT_OP_SETP)
		in->type2 = in->type;
	if ((in->op == WEFT_OP_SETP || in->op == WEFT_OP_SET) && !in->cmp)
		fail_tok(p, t, "missing comparison (.eq .lt ...) in '%.*s'", (int)t->len, t->s);
	if (in->op == WEFT_OP_BAR && in->mode == WEFT_BAR_RED_POPC && in->type != WEFT_T_U32)
		fail_tok(p, t, "bar.red.popc needs .u32 in '%.*s'", (int)t->len, t->s);
}

/* Type that an immediate operand at position idx is written in. */
static int opnd_type(const struct weft_inst *in, int idx)
{
	switch (in->op) {
	case WEFT_OP_CVT:
		return idx >= 1 ? in->type2 : in->type;
	case WEFT_OP_SET:
		return idx == 1 || idx == 2 ? in->type2 : in->type;
	case WEFT_OP_SLCT:
		return idx == 3 ? in->type2 : in->type;
	case WEFT_OP_SETP:
		return idx >= 3 ? WEFT_T_PRED : in->type2;
	case WEFT_OP_SELP:
		return idx == 3 ? WEFT_T_PRED : in->type;
	case WEFT_OP_SHL: case WEFT_OP_SHR:
		return idx == 2 ? WEFT_T_U32 : in->type;
	case WEFT_OP_MUL: case WEFT_OP_MAD:
		/* mul.wide.s32: sources are the narrow type, imm is an integer anyway */
		return in->type;
	default:
		return in->type;
	}
}

static const struct {
	const char *name;
	uint16_t sreg;
	uint8_t has_comp;
} sregs[] = {
	{ "%tid", WEFT_SREG_TID, 1 }, { "%ntid", WEFT_SREG_NTID, 1 },
	{ "%ctaid", WEFT_SREG_CTAID, 1 }, { "%nctaid", WEFT_SREG_NCTAID, 1 },
	{ "%laneid", WEFT_SREG_LANEID, 0 }, { "%warpid", WEFT_SREG_WARPID, 0 },
	{ "%nwarpid", WEFT_SREG_NWARPID, 0 }, { "%smid", WEFT_SREG_SMID, 0 },
	{ "%nsmid", WEFT_SREG_NSMID, 0 }, { "%gridid", WEFT_SREG_GRIDID, 0 },
	{ "%clock", WEFT_SREG_CLOCK, 0 }, { "%clock64", WEFT_SREG_CLOCK64, 0 },
	{ "%globaltimer", WEFT_SREG_GLOBALTIMER, 0 },
	{ "%lanemask_eq", WEFT_SREG_LANEMASK_EQ, 0 }, { "%lanemask_le", WEFT_SREG_LANEMASK_LE, 0 },
	{ "%lanemask_lt", WEFT_SREG_LANEMASK_LT, 0 }, { "%lanemask_ge", WEFT_SREG_LANEMASK_GE, 0 },
	{ "%lanemask_gt", WEFT_SREG_LANEMASK_GT, 0 },
	{ "%dynamic_smem_size", WEFT_SREG_DYNAMIC_SMEM_SIZE, 0 },
	{ "%total_smem_size", WEFT_SREG_TOTAL_SMEM_SIZE, 0 },
};

/* Special register by name; returns 1 and fills o if t names one. */
static int parse_sreg(struct parser *p, const struct weft_ptx_tok *t, struct weft_operand *o)
{
	uint32_t base = 0;
	while (base < t->len && t->s[base] != '.')
		base++;
	if (base > 7 && !memcmp(t->s, "%envreg", 7)) {
		uint64_t n;
		if (base == t->len && !parse_int_text(t->s + 7, base - 7, &n) && n < 32) {
			o->kind = WEFT_OPND_SREG;
			o->sreg = WEFT_SREG_ENVREG;
			o->comp = (uint16_t)n;
			return 1;
		}
		return 0;
	}
	for (size_t i = 0; i < sizeof(sregs) / sizeof(sregs[0]); i++) {
		size_t n = strlen(sregs[i].name);
		if (n != base || memcmp(t->s, sregs[i].name, n))
			continue;
		o->kind = WEFT_OPND_SREG;
		o->sreg = sregs[i].sreg;
		if (sregs[i].has_comp) {
			if (t->len != base + 2 || (t->s[base + 1] != 'x' && t->s[base + 1] != 'y' &&
						   t->s[base + 1] != 'z'))
				fail_tok(p, t, "special register '%.*s' needs a component .x, .y or .z",
					 (int)t->len, t->s);
			o->comp = (uint16_t)(t->s[base + 1] - 'x');
		} else if (t->len != base) {
			fail_tok(p, t, "special register '%.*s' has no components", (int)t->len, t->s);
		}
		return 1;
	}
	return 0;
}

static int32_t expect_reg(struct parser *p, const struct weft_ptx_tok *t)
{
	if (t->kind != WEFT_TOK_WORD || t->s[0] == '.') {
		char b[96];
		fail_tok(p, t, "expected a register, found %s", tok_desc(t, b, sizeof(b)));
	}
	const struct binding *b = lookup_local(p, t->s, t->len);
	if (!b || b->kind != NAME_REG) {
		if (t->s[0] != '%') {
			char d[96];
			fail_tok(p, t, "expected a register, found %s", tok_desc(t, d, sizeof(d)));
		}
		fail_tok(p, t, "register '%.*s' not declared (add it to a .reg declaration)", (int)t->len,
			 t->s);
	}
	return b->idx;
}

/* A register operand: %name, or a plain name declared with .reg (inline
 * asm in the CUDA headers names its temporaries `f`, `r`). */
static int is_reg_tok(struct parser *p, const struct weft_ptx_tok *t)
{
	if (t->kind != WEFT_TOK_WORD || t->s[0] == '.')
		return 0;
	if (t->s[0] == '%')
		return 1;
	const struct binding *b = lookup_local(p, t->s, t->len);
	return b && b->kind == NAME_REG;
}

/* Resolves a variable name to a symbol index, or -1. */
static int32_t find_sym(struct parser *p, const struct weft_ptx_tok *t)
{
	const struct binding *b = lookup_local(p, t->s, t->len);
	if (b)
		return b->kind == NAME_SYM ? b->idx : -1;
	return sm_get(&p->syms_map, t->s, t->len);
}

/* Optional `+imm`, `+-imm` or `-imm` after an address base or symbol. */
static int64_t parse_offset(struct parser *p)
{
	int neg = 0;
	if (is_punct(p, '+')) {
		next(p);
		if (is_punct(p, '-')) {
			neg = 1;
			next(p);
		}
	} else if (is_punct(p, '-')) {
		neg = 1;
		next(p);
	} else {
		return 0;
	}
	struct weft_ptx_tok t = p->tok;
	uint64_t v = expect_uint(p, "offset");
	if (v > (uint64_t)INT64_MAX)
		fail_tok(p, &t, "offset out of range");
	return neg ? -(int64_t)v : (int64_t)v;
}

static void parse_address(struct parser *p, struct weft_operand *o)
{
	struct weft_ptx_tok open = p->tok;
	next(p);
	o->kind = WEFT_OPND_ADDR;
	struct weft_ptx_tok t = p->tok;
	if (is_reg_tok(p, &t)) {
		o->reg = expect_reg(p, &t);
		next(p);
	} else if (t.kind == WEFT_TOK_WORD) {
		o->sym = find_sym(p, &t);
		if (o->sym < 0)
			fail_tok(p, &t, "undefined variable '%.*s' in address", (int)t.len, t.s);
		next(p);
	} else if (t.kind == WEFT_TOK_NUM) {
		uint64_t v = expect_uint(p, "address");
		o->imm = (int64_t)v;
	} else {
		char b[96];
		fail_tok(p, &t, "expected a register, variable or number after '[', found %s",
			 tok_desc(&t, b, sizeof(b)));
	}
	if (t.kind != WEFT_TOK_NUM)
		o->imm = parse_offset(p);
	if (!is_punct(p, ']')) {
		char b[96];
		fail_tok(p, &p->tok, "expected ']' after address (opened at column %u), found %s",
			 open.col, tok_desc(&p->tok, b, sizeof(b)));
	}
	next(p);
}

static void add_fixup(struct parser *p, const struct weft_ptx_tok *t, int opnd)
{
	GROW(p, p->fixups, p->nfixups, p->cap_fixups);
	struct fixup *fx = &p->fixups[p->nfixups++];
	fx->inst = F(p)->ninsts;
	fx->opnd = (uint8_t)opnd;
	fx->s = t->s;
	fx->len = t->len;
	fx->line = t->line;
	fx->col = t->col;
}

static void parse_operand(struct parser *p, struct weft_inst *in, int idx)
{
	struct weft_operand *o = &in->opnd[idx];
	o->reg = o->reg2 = WEFT_NO_REG;
	o->sym = -1;
	for (int i = 0; i < 4; i++)
		o->vec_regs[i] = WEFT_NO_REG;
	struct weft_ptx_tok t = p->tok;
	if (is_punct(p, '{')) {
		next(p);
		o->kind = WEFT_OPND_VEC;
		for (;;) {
			struct weft_ptx_tok e = p->tok;
			if (o->nvec == 4)
				fail_tok(p, &e, "vector operand with more than 4 elements");
			if (weft_ptx_tok_is(&e, "_"))
				o->vec_regs[o->nvec++] = WEFT_NO_REG;
			else if (is_reg_tok(p, &e))
				o->vec_regs[o->nvec++] = expect_reg(p, &e);
			else {
				char b[96];
				fail_tok(p, &e, "vector operand elements must be registers or '_', found %s",
					 tok_desc(&e, b, sizeof(b)));
			}
			next(p);
			if (is_punct(p, ',')) {
				next(p);
				continue;
			}
			expect_punct(p, '}', "to close the vector operand");
			break;
		}
	} else if (is_punct(p, '[')) {
		parse_address(p, o);
	} else if (is_punct(p, '!')) {
		next(p);
		struct weft_ptx_tok r = p->tok;
		o->kind = WEFT_OPND_REG;
		o->reg = expect_reg(p, &r);
		o->neg = 1;
		next(p);
	} else if (is_punct(p, '-') || t.kind == WEFT_TOK_NUM) {
		int neg = 0;
		if (is_punct(p, '-')) {
			neg = 1;
			next(p);
			if (p->tok.kind != WEFT_TOK_NUM) {
				char b[96];
				fail_tok(p, &p->tok, "expected a number after '-', found %s",
					 tok_desc(&p->tok, b, sizeof(b)));
			}
		}
		int isf;
		o->kind = WEFT_OPND_IMM;
		o->imm = (int64_t)literal_bits(p, &p->tok, neg, opnd_type(in, idx), &isf);
		o->imm_is_float = (uint8_t)isf;
		next(p);
	} else if (weft_ptx_tok_is(&t, "_")) {
		o->kind = WEFT_OPND_SINK;
		next(p);
	} else if (is_reg_tok(p, &t)) {
		if (t.s[0] != '%' || !parse_sreg(p, &t, o)) {
			o->kind = WEFT_OPND_REG;
			o->reg = expect_reg(p, &t);
		}
		next(p);
	} else if (t.kind == WEFT_TOK_WORD && t.s[0] != '.') {
		if (in->op == WEFT_OP_BRA) {
			o->kind = WEFT_OPND_LABEL;
			add_fixup(p, &t, idx);
			next(p);
		} else {
			int32_t s = find_sym(p, &t);
			if (s >= 0) {
				o->kind = WEFT_OPND_SYM;
				o->sym = s;
			} else {
				int32_t fi = sm_get(&p->funcs_map, t.s, t.len);
				if (fi < 0)
					fail_tok(p, &t, "undefined symbol '%.*s' (declare it before use)",
						 (int)t.len, t.s);
				o->kind = WEFT_OPND_FUNC;
				o->imm = fi;
			}
			next(p);
			if (o->kind == WEFT_OPND_SYM)
				o->imm = parse_offset(p);
		}
	} else {
		char b[96];
		fail_tok(p, &t, "expected an operand, found %s", tok_desc(&t, b, sizeof(b)));
	}
	if (idx == 0 && is_punct(p, '|')) {
		if (o->kind != WEFT_OPND_REG && o->kind != WEFT_OPND_SINK)
			fail_tok(p, &p->tok, "'|' must follow a destination register");
		next(p);
		struct weft_ptx_tok r = p->tok;
		if (weft_ptx_tok_is(&r, "_"))
			o->reg2 = WEFT_NO_REG;
		else
			o->reg2 = expect_reg(p, &r);
		next(p);
	}
}

/* Checks operand kinds the emulator relies on. */
static void check_operands(struct parser *p, struct weft_inst *in, const struct weft_ptx_tok *opt)
{
	const char *name = weft_op_name(in->op);
	int addr_at = -1;
	switch (in->op) {
	case WEFT_OP_LD: case WEFT_OP_LDU: case WEFT_OP_ATOM:
		addr_at = 1;
		break;
	case WEFT_OP_ST: case WEFT_OP_RED: case WEFT_OP_PREFETCH:
		addr_at = 0;
		break;
	default:
		break;
	}
	for (int i = 0; i < in->nopnd; i++) {
		int k = in->opnd[i].kind;
		if ((k == WEFT_OPND_ADDR) != (i == addr_at))
			fail_tok(p, opt, k == WEFT_OPND_ADDR
					 ? "'%s' does not take a memory operand [..] at position %d"
					 : "'%s' needs a memory operand [..] at position %d",
				 name, i + 1);
	}
	int no_dest = in->op == WEFT_OP_ST || in->op == WEFT_OP_RED || in->op == WEFT_OP_PREFETCH ||
		      in->op == WEFT_OP_BRA || in->op == WEFT_OP_BAR || in->op == WEFT_OP_BAR_WARP ||
		      in->op == WEFT_OP_NANOSLEEP;
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
			fail_tok(p, opt, "'.v%d' needs a vector operand of %d registers", in->vec, in->vec);
		if (in->vec == 1 && d->kind == WEFT_OPND_VEC)
			fail_tok(p, opt, "vector operand on a scalar %s (add .v2 or .v4)", name);
	}
	if (in->op == WEFT_OP_SETP && in->nopnd != (in->boolop ? 4 : 3))
		fail_tok(p, opt, "setp%s takes %d operands", in->boolop ? " with .and/.or/.xor" : "",
			 in->boolop ? 4 : 3);
	if (in->op == WEFT_OP_SET && in->nopnd != (in->boolop ? 4 : 3))
		fail_tok(p, opt, "set%s takes %d operands", in->boolop ? " with .and/.or/.xor" : "",
			 in->boolop ? 4 : 3);
	if (in->op == WEFT_OP_ATOM && in->nopnd != (in->mode == WEFT_ATOM_CAS ? 4 : 3))
		fail_tok(p, opt, "atom.%s takes %d operands", in->mode == WEFT_ATOM_CAS ? "cas" : "<op>",
			 in->mode == WEFT_ATOM_CAS ? 4 : 3);
	if (in->op == WEFT_OP_BRA && in->opnd[0].kind != WEFT_OPND_LABEL)
		fail_tok(p, opt, "bra needs a label (indirect branches are not supported)");
	for (int i = 1; i < in->nopnd; i++) {
		int k = in->opnd[i].kind;
		if (k == WEFT_OPND_SINK)
			fail_tok(p, opt, "'_' can only be a destination");
		if ((k == WEFT_OPND_SYM || k == WEFT_OPND_FUNC) && in->op != WEFT_OP_MOV &&
		    in->op != WEFT_OP_CVTA)
			fail_tok(p, opt, "the address of '%s' can only be taken with mov or cvta "
				 "(then use the register)", k == WEFT_OPND_SYM
				 ? p->m->syms[in->opnd[i].sym].name : p->m->funcs[in->opnd[i].imm].name);
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
			fail_tok(p, opt, "'%.*s' takes %d operands, found %d", (int)opt->len, opt->s, want_lo,
				 in->nopnd);
		fail_tok(p, opt, "'%.*s' takes %d or %d operands, found %d", (int)opt->len, opt->s, want_lo,
			 want_hi, in->nopnd);
	}
	if ((in->op == WEFT_OP_MATCH || in->op == WEFT_OP_REDUX) && !(in->flags & WEFT_F_SYNC))
		fail_tok(p, opt, "'%.*s' needs .sync", (int)opt->len, opt->s);
}

static void append_inst(struct parser *p, struct weft_inst *in)
{
	struct weft_ptx_func *f = F(p);
	GROW(p, f->insts, f->ninsts, p->cap_insts);
	f->insts[f->ninsts++] = *in;
}

/* `(a, b)` list of .param names into p->tcall[which]. */
static void parse_call_list(struct parser *p, int which)
{
	p->ntcall[which] = 0;
	next(p); /* ( */
	if (is_punct(p, ')')) {
		next(p);
		return;
	}
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		const struct binding *b = t.kind == WEFT_TOK_WORD ? lookup_local(p, t.s, t.len) : NULL;
		if (!b || b->kind != NAME_SYM || p->m->syms[b->idx].space != WEFT_SPACE_PARAM) {
			char bd[96];
			fail_tok(p, &t, "call %s %s is not a .param variable declared in this scope "
				 "(weft supports the nvcc call sequence with .param arguments)",
				 which ? "argument" : "return value", tok_desc(&t, bd, sizeof(bd)));
		}
		if (p->ntcall[which] == 255)
			fail_tok(p, &t, "too many call arguments");
		p->tcall[which][p->ntcall[which]++] = b->idx;
		next(p);
		if (is_punct(p, ',')) {
			next(p);
			continue;
		}
		expect_punct(p, ')', "to close the call list");
		return;
	}
}

static void parse_call(struct parser *p, struct weft_inst *in)
{
	p->ntcall[0] = p->ntcall[1] = 0;
	if (is_punct(p, '(')) {
		parse_call_list(p, 0);
		expect_punct(p, ',', "after the call's return list");
	}
	struct weft_ptx_tok t = p->tok;
	if (t.kind != WEFT_TOK_WORD) {
		char b[96];
		fail_tok(p, &t, "expected the called function's name, found %s", tok_desc(&t, b, sizeof(b)));
	}
	int indirect = is_reg_tok(p, &t);
	int32_t fi = -1, ri = WEFT_NO_REG;
	if (indirect) {
		ri = expect_reg(p, &t);
	} else {
		fi = sm_get(&p->funcs_map, t.s, t.len);
		if (fi < 0)
			fail_tok(p, &t, "call to undeclared function '%.*s' (declare it with .func first)",
				 (int)t.len, t.s);
	}
	next(p);
	int32_t proto = -1;
	if (is_punct(p, ',')) {
		next(p);
		if (is_punct(p, '(')) {
			parse_call_list(p, 1);
			if (is_punct(p, ','))
				next(p);
		}
		if (!is_punct(p, ';')) {
			struct weft_ptx_tok pt = p->tok;
			proto = pt.kind == WEFT_TOK_WORD ? sm_get(&p->proto_map, pt.s, pt.len) : -1;
			if (proto < 0) {
				char b[96];
				fail_tok(p, &pt, "expected '(' with the call's arguments or a .callprototype label, found %s",
					 tok_desc(&pt, b, sizeof(b)));
			}
			if (!indirect)
				fail_tok(p, &pt, "a direct call to '%.*s' takes no prototype", (int)t.len, t.s);
			next(p);
		}
	}
	expect_punct(p, ';', "after the call");
	if (indirect) {
		if (proto < 0)
			fail_tok(p, &t, "indirect call through '%.*s' needs a .callprototype label after the arguments",
				 (int)t.len, t.s);
		uint32_t nr = (uint32_t)proto >> 16, np = (uint32_t)proto & 0xffff;
		if (p->ntcall[1] != np || p->ntcall[0] != nr)
			fail_tok(p, &t, "indirect call passes %u arguments and receives %u return values, its prototype has %u and %u",
				 p->ntcall[1], p->ntcall[0], np, nr);
	} else {
		const struct weft_ptx_func *callee = &p->m->funcs[fi];
		if (callee->is_entry)
			fail_tok(p, &t, "cannot call the kernel '%s'", callee->name);
		if (p->ntcall[1] != callee->nparams)
			fail_tok(p, &t, "call to '%s' passes %u arguments, it takes %u", callee->name,
				 p->ntcall[1], callee->nparams);
		if (p->ntcall[0] != callee->nrets)
			fail_tok(p, &t, "call to '%s' receives %u return values, it returns %u", callee->name,
				 p->ntcall[0], callee->nrets);
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
		nomem(p);
	}
	memcpy(r, p->tcall[0], sizeof(int32_t) * p->ntcall[0]);
	memcpy(a, p->tcall[1], sizeof(int32_t) * p->ntcall[1]);
	in->call_rets = r;
	in->call_args = a;
	f->insts[f->ninsts++] = *in;
}

static void parse_instruction(struct parser *p)
{
	struct weft_inst in;
	memset(&in, 0, sizeof(in));
	in.guard = WEFT_NO_REG;
	in.pos.line = p->tok.line;
	in.pos.column = p->tok.col;
	in.pos.src_file = p->src_file;
	in.pos.src_line = p->src_line;
	if (is_punct(p, '@')) {
		next(p);
		if (is_punct(p, '!')) {
			in.guard_neg = 1;
			next(p);
		}
		struct weft_ptx_tok g = p->tok;
		in.guard = expect_reg(p, &g);
		if (F(p)->regs[in.guard].type != WEFT_T_PRED)
			fail_tok(p, &g, "guard '%.*s' is not a .pred register", (int)g.len, g.s);
		next(p);
	}
	struct weft_ptx_tok opt = p->tok;
	if (opt.kind != WEFT_TOK_WORD || opt.s[0] == '.' || opt.s[0] == '%') {
		char b[96];
		fail_tok(p, &opt, "expected an instruction opcode, found %s", tok_desc(&opt, b, sizeof(b)));
	}
	decode_opcode(p, &in, &opt);
	next(p);
	if (in.op == WEFT_OP_CALL) {
		parse_call(p, &in);
		return;
	}
	const struct opdef *def = NULL;
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (opdefs[i].op == (in.op == WEFT_OP_BAR_WARP ? WEFT_OP_BAR : in.op)) {
			def = &opdefs[i];
			break;
		}
	int omin = def->omin, omax = def->omax;
	if (in.op == WEFT_OP_BAR_WARP)
		omin = omax = 1;
	if (!is_punct(p, ';')) {
		for (;;) {
			if (in.nopnd == WEFT_PTX_MAX_OPERANDS || in.nopnd >= omax)
				fail_tok(p, &p->tok, "too many operands for '%.*s' (takes at most %d)",
					 (int)opt.len, opt.s, omax);
			parse_operand(p, &in, in.nopnd);
			in.nopnd++;
			if (is_punct(p, ',')) {
				next(p);
				continue;
			}
			if (!is_punct(p, ';')) {
				char b[96];
				fail_tok(p, &p->tok, "expected ',' or ';' after an operand of '%.*s', found %s",
					 (int)opt.len, opt.s, tok_desc(&p->tok, b, sizeof(b)));
			}
			break;
		}
	}
	if (in.nopnd < omin)
		fail_tok(p, &opt, "'%.*s' needs %d operands, found %d", (int)opt.len, opt.s, omin, in.nopnd);
	check_operands(p, &in, &opt);
	next(p); /* ; */
	append_inst(p, &in);
}

/* `.loc file line col [, function_name L, inlined_at f l c]` (no ';'). */
static void parse_loc(struct parser *p)
{
	struct weft_ptx_tok t = p->tok;
	next(p);
	uint64_t file = expect_uint(p, "file number after .loc");
	uint64_t line = expect_uint(p, "line after .loc");
	(void)expect_uint(p, "column after .loc");
	if (file > 65535 || line > UINT32_MAX)
		fail_tok(p, &t, ".loc numbers out of range");
	while (is_punct(p, ',')) {
		next(p);
		if (is_word(p, "function_name")) {
			next(p);
			if (p->tok.kind != WEFT_TOK_WORD)
				fail_tok(p, &p->tok, "expected a label after function_name in .loc");
			next(p);
		} else if (is_word(p, "inlined_at")) {
			next(p);
			for (int i = 0; i < 3; i++)
				(void)expect_uint(p, "number after inlined_at");
		} else {
			char b[96];
			fail_tok(p, &p->tok, "unknown .loc attribute %s", tok_desc(&p->tok, b, sizeof(b)));
		}
	}
	p->src_file = (int32_t)file;
	p->src_line = (uint32_t)line;
}

/* `.pragma "a"[, "b"];` */
static void parse_pragma(struct parser *p)
{
	next(p);
	for (;;) {
		if (p->tok.kind != WEFT_TOK_STR)
			fail_tok(p, &p->tok, "expected a string after .pragma");
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';', "after .pragma");
}

/* Counts the `.param` entries of a parenthesised prototype list. */
static uint32_t proto_list(struct parser *p)
{
	uint32_t n = 0;
	next(p); /* ( */
	while (!is_punct(p, ')')) {
		if (p->tok.kind == WEFT_TOK_EOF || is_punct(p, ';'))
			fail_tok(p, &p->tok, "expected ')' to close the .callprototype list");
		if (is_dir(p, ".param"))
			n++;
		next(p);
	}
	next(p);
	if (n > 255)
		fail_tok(p, &p->tok, "too many parameters in .callprototype");
	return n;
}

/* `name: .callprototype (.param .b32 _) _ (.param .b64 _, ...);` declares
 * the signature used by indirect calls. */
static void parse_callprototype(struct parser *p, const struct weft_ptx_tok *name)
{
	next(p);
	uint32_t nr = 0, np = 0;
	if (is_punct(p, '('))
		nr = proto_list(p);
	if (!is_word(p, "_"))
		fail_tok(p, &p->tok, "expected '_' in the .callprototype");
	next(p);
	if (is_punct(p, '('))
		np = proto_list(p);
	while (is_word(p, ".noreturn"))
		next(p);
	expect_punct(p, ';', "after the .callprototype");
	if (sm_get(&p->proto_map, name->s, name->len) >= 0)
		fail_tok(p, name, ".callprototype '%.*s' defined twice", (int)name->len, name->s);
	put(p, &p->proto_map, name->s, name->len, (int32_t)(nr << 16 | np));
}

static void parse_body(struct parser *p)
{
	struct weft_ptx_tok open = p->tok;
	struct weft_ptx_func *f = F(p);
	p->src_file = -1;
	p->src_line = 0;
	p->cap_regs = f->nregs;
	p->cap_insts = f->ninsts;
	scope_push(p);
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct weft_ptx_symbol *s = &p->m->syms[f->params[i].sym];
		declare(p, s->name, (uint32_t)strlen(s->name), NAME_SYM, f->params[i].sym, s->line, 1);
	}
	for (uint32_t i = 0; i < f->nrets; i++) {
		struct weft_ptx_symbol *s = &p->m->syms[f->rets[i].sym];
		declare(p, s->name, (uint32_t)strlen(s->name), NAME_SYM, f->rets[i].sym, s->line, 1);
	}
	scope_push(p);
	next(p);
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		if (t.kind == WEFT_TOK_EOF)
			fail(p, open.line, open.col,
			     "unterminated function body of '%s': no '}' matches this '{'", F(p)->name);
		if (is_punct(p, '}')) {
			scope_pop(p);
			next(p);
			if (p->nmarks == 1)
				break;
			continue;
		}
		if (is_punct(p, '{')) {
			if (p->nmarks > 64)
				fail_tok(p, &t, "blocks nested too deeply");
			scope_push(p);
			next(p);
			continue;
		}
		if (is_punct(p, ';')) {
			next(p);
			continue;
		}
		if (t.kind == WEFT_TOK_WORD && t.s[0] == '.') {
			int is_extern = 0;
			if (is_word(p, ".extern")) {
				is_extern = 1;
				next(p);
				t = p->tok;
			}
			if (is_dir(p, ".reg") && !is_extern) {
				parse_reg_decl(p);
			} else if (is_dir(p, ".shared") || is_dir(p, ".local") || is_dir(p, ".param")) {
				int sp = is_dir(p, ".shared") ? WEFT_SPACE_SHARED
				       : is_dir(p, ".local") ? WEFT_SPACE_LOCAL : WEFT_SPACE_PARAM;
				eat_dir(p, sp == WEFT_SPACE_SHARED ? ".shared"
					   : sp == WEFT_SPACE_LOCAL ? ".local" : ".param");
				parse_var(p, sp, is_extern, 0);
			} else if (is_word(p, ".loc") && !is_extern) {
				parse_loc(p);
			} else if (is_word(p, ".pragma") && !is_extern) {
				parse_pragma(p);
			} else {
				fail_tok(p, &t, "unknown directive '%.*s' in a function body (see docs/ptx-subset.md)",
					 (int)t.len, t.s);
			}
			continue;
		}
		if (t.kind == WEFT_TOK_WORD && t.s[0] != '%') {
			struct weft_ptx_tok nx = peek(p);
			if (weft_ptx_tok_punct(&nx, ':')) {
				next(p);
				next(p);
				if (is_word(p, ".callprototype")) {
					parse_callprototype(p, &t);
					continue;
				}
				int32_t old = sm_get(&p->label_map, t.s, t.len);
				if (old >= 0)
					fail_tok(p, &t, "label '%.*s' defined twice (first at line %u)", (int)t.len,
						 t.s, p->labels[old].line);
				GROW(p, p->labels, p->nlabels, p->cap_labels);
				struct label *l = &p->labels[p->nlabels];
				l->s = t.s;
				l->len = t.len;
				l->inst = F(p)->ninsts;
				l->line = t.line;
				l->col = t.col;
				put(p, &p->label_map, t.s, t.len, (int32_t)p->nlabels);
				p->nlabels++;
				continue;
			}
		}
		parse_instruction(p);
	}
	/* resolve branch targets and build label_at */
	f = F(p);
	for (uint32_t i = 0; i < p->nfixups; i++) {
		struct fixup *fx = &p->fixups[i];
		int32_t l = sm_get(&p->label_map, fx->s, fx->len);
		if (l < 0)
			fail(p, fx->line, fx->col, "undefined label '%.*s' in function '%s'", (int)fx->len,
			     fx->s, f->name);
		f->insts[fx->inst].opnd[fx->opnd].imm = p->labels[l].inst;
	}
	char **la = calloc(f->ninsts + 1, sizeof(char *));
	if (!la)
		nomem(p);
	f->label_at = la;
	for (uint32_t i = 0; i < p->nlabels; i++) {
		struct label *l = &p->labels[i];
		if (!la[l->inst])
			la[l->inst] = xstrndup(p, l->s, l->len);
	}
	/* per-function state */
	sm_free(&p->scope_map);
	sm_free(&p->label_map);
	sm_free(&p->proto_map);
	p->nbinds = p->nmarks = p->nlabels = p->nfixups = 0;
}

/* Performance and other attributes between a function header and its body. */
static void parse_func_attrs(struct parser *p)
{
	for (;;) {
		struct weft_ptx_tok t = p->tok;
		struct weft_ptx_func *f = F(p);
		if (is_word(p, ".maxntid") || is_word(p, ".reqntid") || is_word(p, ".reqnctapercluster")) {
			uint32_t *dst = is_word(p, ".maxntid") ? f->maxntid
				      : is_word(p, ".reqntid") ? f->reqntid : NULL;
			next(p);
			for (int i = 0; i < 3; i++) {
				uint64_t v = expect_uint(p, "thread count");
				if (v > UINT32_MAX)
					fail_tok(p, &t, "value out of range");
				if (dst)
					dst[i] = (uint32_t)v;
				if (!is_punct(p, ','))
					break;
				next(p);
			}
			f = F(p);
			if (dst)
				for (int i = 0; i < 3; i++)
					if (!dst[i])
						dst[i] = 1;
		} else if (is_word(p, ".minnctapersm") || is_word(p, ".maxnreg") ||
			   is_word(p, ".maxclusterrank") || is_word(p, ".maxntidx")) {
			int which = is_word(p, ".minnctapersm") ? 0 : is_word(p, ".maxnreg") ? 1 : 2;
			next(p);
			uint64_t v = expect_uint(p, "count");
			if (v > UINT32_MAX)
				fail_tok(p, &t, "value out of range");
			f = F(p);
			if (which == 0)
				f->minnctapersm = (uint32_t)v;
			else if (which == 1)
				f->maxnreg = (uint32_t)v;
		} else if (is_word(p, ".noreturn") || is_word(p, ".explicitcluster")) {
			next(p);
		} else if (is_word(p, ".pragma")) {
			parse_pragma(p);
		} else {
			return;
		}
	}
}

static void parse_function(struct parser *p, int is_entry, int is_visible, int is_extern)
{
	struct weft_ptx_tok dir = p->tok;
	next(p);
	int has_rets = 0;
	if (!is_entry && is_punct(p, '(')) {
		parse_param_list(p, 1);
		has_rets = 1;
	}
	if (!has_rets)
		p->ntparams[1] = 0;
	struct weft_ptx_tok nt = p->tok;
	if (nt.kind != WEFT_TOK_WORD || nt.s[0] == '.' || nt.s[0] == '%') {
		char b[96];
		fail_tok(p, &nt, "expected a function name after %.*s, found %s", (int)dir.len, dir.s,
			 tok_desc(&nt, b, sizeof(b)));
	}
	next(p);
	p->ntparams[0] = 0;
	if (is_punct(p, '('))
		parse_param_list(p, 0);
	int32_t fi = sm_get(&p->funcs_map, nt.s, nt.len);
	int had_proto = fi >= 0;
	struct weft_ptx_module *m = p->m;
	if (fi < 0) {
		if (sm_get(&p->syms_map, nt.s, nt.len) >= 0)
			fail_tok(p, &nt, "'%.*s' is already a variable", (int)nt.len, nt.s);
		GROW(p, m->funcs, m->nfuncs, p->cap_funcs);
		struct weft_ptx_func *f = &m->funcs[m->nfuncs];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(p, nt.s, nt.len);
		fi = (int32_t)m->nfuncs++;
		put(p, &p->funcs_map, f->name, nt.len, fi);
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
	if (is_punct(p, ';')) {
		next(p);
	} else if (is_punct(p, '{')) {
		if (!f->is_extern)
			fail_tok(p, &nt, "function '%s' is defined twice", f->name);
		if (is_extern)
			fail_tok(p, &nt, ".extern function '%s' cannot have a body", f->name);
		f->is_extern = 0;
		f->line = nt.line;
		parse_body(p);
	} else {
		char b[96];
		fail_tok(p, &p->tok, "expected '{' or ';' after the header of '%s', found %s", f->name,
			 tok_desc(&p->tok, b, sizeof(b)));
	}
	p->fidx = -1;
}

/* ------------------------------------------------------------------ */
/* module */

static void parse_version(struct parser *p)
{
	next(p);
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
		fail_tok(p, &v, "PTX ISA version %u.%u is not supported (weft reads 7.x to 9.x; regenerate with nvcc 11-13)",
			 maj, min);
	p->m->version_major = maj;
	p->m->version_minor = min;
	p->have_version = 1;
	next(p);
}

static void parse_target(struct parser *p)
{
	next(p);
	struct weft_ptx_tok t = p->tok;
	if (t.kind != WEFT_TOK_WORD || t.len < 4 || memcmp(t.s, "sm_", 3))
		fail_tok(p, &t, "expected a target like sm_75 after .target");
	free(p->m->target);
	p->m->target = NULL;
	p->m->target = xstrndup(p, t.s, t.len);
	next(p);
	while (is_punct(p, ',')) {
		next(p);
		if (p->tok.kind != WEFT_TOK_WORD)
			fail_tok(p, &p->tok, "expected a target option after ',' in .target");
		next(p);
	}
}

static void parse_file(struct parser *p)
{
	struct weft_ptx_tok t = p->tok;
	next(p);
	uint64_t n = expect_uint(p, "file number after .file");
	if (n > 65535)
		fail_tok(p, &t, ".file number %llu too large", (unsigned long long)n);
	if (p->tok.kind != WEFT_TOK_STR)
		fail_tok(p, &p->tok, "expected a file name string after .file %llu", (unsigned long long)n);
	struct weft_ptx_module *m = p->m;
	if (n >= m->nfiles) {
		char **nf = realloc(m->files, (size_t)(n + 1) * sizeof(char *));
		if (!nf)
			nomem(p);
		for (uint64_t i = m->nfiles; i <= n; i++)
			nf[i] = NULL;
		m->files = nf;
		m->nfiles = (uint32_t)n + 1;
	}
	char *name = xstrndup(p, p->tok.s, p->tok.len);
	free(m->files[n]);
	m->files[n] = name;
	next(p);
	while (is_punct(p, ',')) { /* timestamp, size */
		next(p);
		(void)expect_uint(p, "number in .file");
	}
}

static void parse_module(struct parser *p)
{
	next(p);
	while (p->tok.kind != WEFT_TOK_EOF) {
		struct weft_ptx_tok t = p->tok;
		if (is_punct(p, ';')) {
			next(p);
			continue;
		}
		if (t.kind != WEFT_TOK_WORD || t.s[0] != '.') {
			char b[96];
			fail_tok(p, &t, "expected a directive (.version, .entry, .global ...) at module scope, found %s",
				 tok_desc(&t, b, sizeof(b)));
		}
		if (is_word(p, ".version")) {
			parse_version(p);
		} else if (is_word(p, ".target")) {
			parse_target(p);
		} else if (is_word(p, ".address_size")) {
			next(p);
			struct weft_ptx_tok a = p->tok;
			uint64_t v = expect_uint(p, "after .address_size");
			if (v != 64 && v != 32)
				fail_tok(p, &a, ".address_size must be 32 or 64");
			if (v != 64)
				fail_tok(p, &a, ".address_size 32 is not supported (weft emulates 64-bit PTX)");
			p->m->address_size = (uint32_t)v;
		} else if (is_word(p, ".file")) {
			parse_file(p);
		} else if (is_word(p, ".loc")) {
			parse_loc(p);
		} else if (is_word(p, ".pragma")) {
			parse_pragma(p);
		} else if (is_word(p, ".section")) {
			next(p);
			if (p->tok.kind != WEFT_TOK_WORD)
				fail_tok(p, &p->tok, "expected a section name after .section");
			next(p);
			if (!is_punct(p, '{'))
				fail_tok(p, &p->tok, "expected '{' after the .section name");
			int rc = weft_ptx_lex_skip_block(&p->lx, p->tok.line, p->tok.col, p->err);
			if (rc) {
				p->rc = rc;
				longjmp(p->jb, 1);
			}
			next(p);
		} else {
			int vis = 0, ext = 0;
			while (is_word(p, ".visible") || is_word(p, ".weak") || is_word(p, ".extern") ||
			       is_word(p, ".common")) {
				if (is_word(p, ".visible") || is_word(p, ".weak") || is_word(p, ".common"))
					vis = 1;
				else
					ext = 1;
				next(p);
			}
			struct weft_ptx_tok d = p->tok;
			if (is_word(p, ".entry") || is_word(p, ".func")) {
				parse_function(p, is_word(p, ".entry"), vis, ext);
			} else if (is_dir(p, ".global") || is_dir(p, ".const") || is_dir(p, ".shared") ||
				   is_dir(p, ".local")) {
				static const char *const dirs[] = { ".global", ".const", ".shared", ".local" };
				int k = 0;
				while (!is_dir(p, dirs[k]))
					k++;
				eat_dir(p, dirs[k]);
				parse_var(p, space_from(dirs[k] + 1), ext, vis);
			} else {
				fail_tok(p, &d, "unknown directive '%.*s' at module scope (not in weft's PTX subset, see docs/ptx-subset.md)",
					 (int)d.len, d.s);
			}
		}
	}
}

static void parser_free(struct parser *p)
{
	sm_free(&p->funcs_map);
	sm_free(&p->syms_map);
	sm_free(&p->scope_map);
	sm_free(&p->label_map);
	sm_free(&p->proto_map);
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
static int run(struct parser *p, const char *text, size_t len)
{
	if (setjmp(p->jb))
		return p->rc ? p->rc : WEFT_ERR_PARSE;
	p->m->path = xstrndup(p, p->path, strlen(p->path));
	p->m->hash = fnv1a(text, len);
	parse_module(p);
	if (!p->have_version)
		fail(p, 1, 1, "not a PTX module: no .version directive (is %s a PTX file from nvcc -ptx?)",
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
	struct parser *p = calloc(1, sizeof(*p));
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
