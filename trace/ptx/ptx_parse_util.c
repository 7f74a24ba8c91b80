/*
 * ptx_parse_util.c - the PTX parser's plumbing: name hash tables, token
 * helpers, error unwinding, numeric literals (integers, 0f/0d and decimal
 * floats converted to an instruction's type), dotted-word splitting and the
 * scoped name table of a function. See ptx_parse_int.h.
 */
#include "ptx_parse_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int32_t weft_ptxp_sm_get(const struct weft_ptxp_map *m, const char *key, uint32_t len)
{
	if (!m->cap)
		return -1;
	uint32_t mask = m->cap - 1;
	for (uint32_t i = (uint32_t)weft_fnv1a(WEFT_FNV1A_INIT, key, len) & mask;; i = (i + 1) & mask) {
		const struct weft_ptxp_slot *s = &m->s[i];
		if (!s->key)
			return -1;
		if (s->len == len && memcmp(s->key, key, len) == 0)
			return s->val;
	}
}

/* Returns 0, or -1 on out of memory. */
int weft_ptxp_sm_put(struct weft_ptxp_map *m, const char *key, uint32_t len, int32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		uint32_t nc = m->cap ? m->cap * 2 : 64;
		struct weft_ptxp_slot *ns = calloc(nc, sizeof(*ns));
		if (!ns)
			return -1;
		for (uint32_t i = 0; i < m->cap; i++) {
			struct weft_ptxp_slot *o = &m->s[i];
			if (!o->key)
				continue;
			uint32_t j = (uint32_t)weft_fnv1a(WEFT_FNV1A_INIT, o->key, o->len) & (nc - 1);
			while (ns[j].key)
				j = (j + 1) & (nc - 1);
			ns[j] = *o;
		}
		free(m->s);
		m->s = ns;
		m->cap = nc;
	}
	uint32_t mask = m->cap - 1;
	for (uint32_t i = (uint32_t)weft_fnv1a(WEFT_FNV1A_INIT, key, len) & mask;; i = (i + 1) & mask) {
		struct weft_ptxp_slot *s = &m->s[i];
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

void weft_ptxp_sm_free(struct weft_ptxp_map *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = m->n = 0;
}

_Noreturn void weft_ptxp_fail_code(struct weft_ptx_parser *p, int code, uint32_t line, uint32_t col,
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

_Noreturn void weft_ptxp_unsupported(struct weft_ptx_parser *p, const struct weft_ptx_tok *t,
				     const char *fmt, ...)
{
	char msg[WEFT_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->defer = 1;
	weft_ptxp_fail_code(p, WEFT_ERR_PARSE, t->line, t->col, "%s", msg);
}

_Noreturn void weft_ptxp_nomem(struct weft_ptx_parser *p)
{
	weft_ptxp_fail_code(p, WEFT_ERR_NOMEM, p->tok.line, p->tok.col,
			    "out of memory while parsing the PTX module");
}

char *weft_ptxp_xstrndup(struct weft_ptx_parser *p, const char *s, size_t n)
{
	char *r = malloc(n + 1);
	if (!r)
		weft_ptxp_nomem(p);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

void weft_ptxp_map_put(struct weft_ptx_parser *p, struct weft_ptxp_map *m, const char *k,
		       uint32_t len, int32_t v)
{
	if (weft_ptxp_sm_put(m, k, len, v))
		weft_ptxp_nomem(p);
}

/* ------------------------------------------------------------------ */
/* tokens */

void weft_ptxp_next(struct weft_ptx_parser *p)
{
	int rc = weft_ptx_lex_next(&p->lx, &p->tok, p->err);
	if (rc) {
		p->rc = rc;
		longjmp(p->jb, 1);
	}
}

struct weft_ptx_tok weft_ptxp_peek(struct weft_ptx_parser *p)
{
	struct weft_ptx_lexer save = p->lx;
	struct weft_ptx_tok t;
	struct weft_error e;
	if (weft_ptx_lex_next(&save, &t, &e))
		t.kind = WEFT_TOK_EOF; /* the error is reported when really read */
	return t;
}

int weft_ptxp_is_punct(struct weft_ptx_parser *p, char c)
{
	return weft_ptx_tok_punct(&p->tok, c);
}

int weft_ptxp_is_word(struct weft_ptx_parser *p, const char *w)
{
	return weft_ptx_tok_is(&p->tok, w);
}

/* A directive, also when glued to its first qualifier as inline asm in
 * CUDA headers writes it (`.reg.b32 f;`). */
int weft_ptxp_is_dir(struct weft_ptx_parser *p, const char *w)
{
	size_t n = strlen(w);
	return p->tok.kind == WEFT_TOK_WORD && p->tok.len >= n && !memcmp(p->tok.s, w, n) &&
	       (p->tok.len == n || p->tok.s[n] == '.');
}

/* Consumes a directive matched by weft_ptxp_is_dir(): the whole token, or just the
 * directive part of a glued one (the rest stays as the current token). */
void weft_ptxp_eat_dir(struct weft_ptx_parser *p, const char *w)
{
	uint32_t n = (uint32_t)strlen(w);
	if (p->tok.len == n) {
		weft_ptxp_next(p);
		return;
	}
	p->tok.s += n;
	p->tok.len -= n;
	p->tok.col += n;
}

/* A short printable rendering of the current token for messages. */
const char *weft_ptxp_tok_desc(const struct weft_ptx_tok *t, char *buf, size_t n)
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

void weft_ptxp_expect_punct(struct weft_ptx_parser *p, char c, const char *what)
{
	if (!weft_ptxp_is_punct(p, c)) {
		char b[96];
		fail_tok(p, &p->tok, "expected '%c' %s, found %s", c, what,
			 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
	weft_ptxp_next(p);
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
int weft_ptxp_parse_int_text(const char *s, uint32_t len, uint64_t *out)
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

int weft_ptxp_lit_kind(const struct weft_ptx_tok *t)
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
uint64_t weft_ptxp_literal_bits(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, int neg,
				int type, int *is_float)
{
	int k = weft_ptxp_lit_kind(t);
	*is_float = 0;
	if (k == LIT_INT) {
		uint64_t v;
		if (weft_ptxp_parse_int_text(t->s, t->len, &v))
			fail_tok(
				p, t,
				"bad integer literal '%.*s' (use decimal, 0x hex, 0b binary or 0 octal)",
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
		fail_tok(
			p, t,
			"decimal float literal '%.*s' in an operation on .%s (write the bits as 0f/0d hex)",
			(int)t->len, t->s, weft_ptx_type_name(type));
	if (!weft_ptx_type_is_float(ft))
		ft = weft_ptx_type_size(type) == 8   ? WEFT_T_F64
		     : weft_ptx_type_size(type) == 2 ? WEFT_T_F16
						     : WEFT_T_F32;
	*is_float = 1;
	if (k == LIT_F32 || k == LIT_F64) {
		uint32_t nd = k == LIT_F32 ? 8 : 16;
		if (t->len != nd + 2)
			fail_tok(p, t,
				 "bad float literal '%.*s' (0f needs 8 hex digits, 0d needs 16)",
				 (int)t->len, t->s);
		uint64_t v = 0;
		for (uint32_t i = 2; i < t->len; i++) {
			int h = hexval((unsigned char)t->s[i]);
			if (h < 0)
				fail_tok(p, t, "bad hex digit in float literal '%.*s'", (int)t->len,
					 t->s);
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

uint64_t weft_ptxp_expect_uint(struct weft_ptx_parser *p, const char *what)
{
	uint64_t v;
	if (p->tok.kind != WEFT_TOK_NUM || weft_ptxp_lit_kind(&p->tok) != LIT_INT ||
	    weft_ptxp_parse_int_text(p->tok.s, p->tok.len, &v)) {
		char b[96];
		fail_tok(p, &p->tok, "expected an integer %s, found %s", what,
			 weft_ptxp_tok_desc(&p->tok, b, sizeof(b)));
	}
	weft_ptxp_next(p);
	return v;
}

/* ------------------------------------------------------------------ */
/* types and names */

int weft_ptxp_type_from(const char *s)
{
	static const struct {
		const char *n;
		int t;
	} tab[] = {
		{ "b8", WEFT_T_B8 },   { "b16", WEFT_T_B16 },	  { "b32", WEFT_T_B32 },
		{ "b64", WEFT_T_B64 }, { "u8", WEFT_T_U8 },	  { "u16", WEFT_T_U16 },
		{ "u32", WEFT_T_U32 }, { "u64", WEFT_T_U64 },	  { "s8", WEFT_T_S8 },
		{ "s16", WEFT_T_S16 }, { "s32", WEFT_T_S32 },	  { "s64", WEFT_T_S64 },
		{ "f16", WEFT_T_F16 }, { "f16x2", WEFT_T_F16X2 }, { "bf16", WEFT_T_BF16 },
		{ "f32", WEFT_T_F32 }, { "f64", WEFT_T_F64 },	  { "pred", WEFT_T_PRED },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(s, tab[i].n) == 0)
			return tab[i].t;
	return WEFT_T_NONE;
}

int weft_ptxp_space_from(const char *s)
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
int weft_ptxp_split_dots(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, char *buf,
			 size_t bufsz, char **pieces, int maxp)
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
			fail_tok(p, t, "empty modifier in '%.*s' (two dots in a row?)", (int)t->len,
				 t->s);
	return n;
}

/* ------------------------------------------------------------------ */
/* module tables */

int32_t weft_ptxp_add_symbol(struct weft_ptx_parser *p, const char *name, uint32_t len, int space,
			     int type, uint32_t line)
{
	struct weft_ptx_module *m = p->m;
	GROW(p, m->syms, m->nsyms, p->cap_syms);
	struct weft_ptx_symbol *s = &m->syms[m->nsyms];
	memset(s, 0, sizeof(*s));
	s->name = weft_ptxp_xstrndup(p, name, len);
	m->nsyms++;
	s->space = (uint8_t)space;
	s->type = (uint8_t)type;
	s->func = -1;
	s->line = line;
	return (int32_t)(m->nsyms - 1);
}

/* Scoped names of the current function. */
void weft_ptxp_scope_push(struct weft_ptx_parser *p)
{
	GROW(p, p->marks, p->nmarks, p->cap_marks);
	p->marks[p->nmarks++] = p->nbinds;
}

void weft_ptxp_scope_pop(struct weft_ptx_parser *p)
{
	uint32_t mark = p->marks[--p->nmarks];
	while (p->nbinds > mark) {
		struct weft_ptxp_binding *b = &p->binds[--p->nbinds];
		weft_ptxp_map_put(p, &p->scope_map, b->key, b->len, b->prev);
	}
}

void weft_ptxp_declare(struct weft_ptx_parser *p, const char *key, uint32_t len, int kind,
		       int32_t idx, uint32_t line, uint32_t col)
{
	int32_t prev = weft_ptxp_sm_get(&p->scope_map, key, len);
	if (prev >= 0 && p->binds[prev].depth == p->nmarks)
		fail(p, line, col, "'%.*s' is declared twice in the same scope", (int)len, key);
	GROW(p, p->binds, p->nbinds, p->cap_binds);
	struct weft_ptxp_binding *b = &p->binds[p->nbinds];
	b->key = key;
	b->len = len;
	b->kind = (uint8_t)kind;
	b->depth = p->nmarks;
	b->idx = idx;
	b->prev = prev;
	weft_ptxp_map_put(p, &p->scope_map, key, len, (int32_t)p->nbinds);
	p->nbinds++;
}

/* Returns the binding of a name in the current function, or NULL. */
const struct weft_ptxp_binding *weft_ptxp_lookup_local(struct weft_ptx_parser *p, const char *s,
						       uint32_t len)
{
	if (p->fidx < 0)
		return NULL;
	int32_t b = weft_ptxp_sm_get(&p->scope_map, s, len);
	return b >= 0 ? &p->binds[b] : NULL;
}
