/*
 * fitexpr.c - compiling and evaluating feature expressions (fitexpr.h) by
 * recursive descent into a fixed array of nodes: every limit (text length,
 * node count, nesting) is checked before it is reached.
 */
#include "fitexpr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"

enum {
	FX_NUM, FX_COL, FX_STREQ, FX_STRNE, FX_EMPTY,
	FX_NEG, FX_NOT, FX_LOG2, FX_SQRT, FX_ABS,
	FX_ADD, FX_SUB, FX_MUL, FX_DIV, FX_POW, FX_MIN, FX_MAX,
	FX_EQ, FX_NE, FX_LT, FX_LE, FX_GT, FX_GE, FX_AND, FX_OR,
};

struct parser {
	const char *s, *p;
	const char *const *header;
	uint32_t ncols;
	struct weft_fexpr *e;
	int depth;
	struct weft_error *err;
};

static int fail(struct parser *ps, const char *at, const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg);
	return weft_error_set(ps->err, WEFT_ERR_INPUT, "%s (at character %u of `%s`)", msg,
			      (unsigned)(at - ps->s) + 1, ps->s);
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int node(struct parser *ps, int op, int a, int b)
{
	if (ps->e->nn == WEFT_FEXPR_MAX_NODES)
		return fail(ps, ps->p, "more than %s operators and operands", "96");
	struct weft_fexpr_node *n = &ps->e->n[ps->e->nn];
	memset(n, 0, sizeof(*n));
	n->op = (uint8_t)op;
	n->a = (int16_t)a;
	n->b = (int16_t)b;
	n->col = -1;
	return (int)ps->e->nn++;
}

static int accept(struct parser *ps, const char *tok)
{
	skip_space(ps);
	size_t n = strlen(tok);
	if (strncmp(ps->p, tok, n))
		return 0;
	/* `<` must not take the first half of `<=`, nor `!` of `!=` */
	if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') &&
	    ps->p[1] == '=')
		return 0;
	ps->p += n;
	return 1;
}

static int expr(struct parser *ps);

static int column(struct parser *ps, const char *at, const char *name)
{
	for (uint32_t i = 0; i < ps->ncols; i++)
		if (!strcmp(ps->header[i], name))
			return (int)i;
	struct weft_suggest sg;
	weft_suggest_init(&sg, name);
	for (uint32_t i = 0; i < ps->ncols; i++)
		weft_suggest_consider(&sg, ps->header[i]);
	char hint[256], msg[400];
	weft_suggest_phrase(&sg, "`", "`", hint, sizeof(hint));
	snprintf(msg, sizeof(msg), "the data has no column `%.64s`%s", name, hint);
	return fail(ps, at, "%s", msg);
}

/* A name: letters, digits, '_' and '.', starting with a letter or '_'. */
static int name(struct parser *ps, char *buf, size_t len)
{
	skip_space(ps);
	const char *q = ps->p;
	if (!(isalpha((unsigned char)*q) || *q == '_'))
		return 0;
	while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
		q++;
	if ((size_t)(q - ps->p) >= len)
		return fail(ps, ps->p, "a name longer than %s characters", "63");
	memcpy(buf, ps->p, (size_t)(q - ps->p));
	buf[q - ps->p] = 0;
	ps->p = q;
	return 1;
}

static int string_lit(struct parser *ps, char *buf)
{
	skip_space(ps);
	if (*ps->p != '"')
		return 0;
	const char *start = ps->p++;
	size_t n = 0;
	while (*ps->p && *ps->p != '"') {
		if (n + 1 >= WEFT_FEXPR_MAX_STR)
			return fail(ps, start, "a string longer than %s characters", "63");
		buf[n++] = *ps->p++;
	}
	if (*ps->p != '"')
		return fail(ps, start, "%s", "a string without its closing \"");
	ps->p++;
	buf[n] = 0;
	return 1;
}

static int call(struct parser *ps, const char *at, const char *fn)
{
	static const struct {
		const char *name;
		int op, nargs;
	} fns[] = { { "min", FX_MIN, 2 },   { "max", FX_MAX, 2 }, { "log2", FX_LOG2, 1 },
		    { "sqrt", FX_SQRT, 1 }, { "abs", FX_ABS, 1 }, { "empty", FX_EMPTY, 1 } };
	int k = -1;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(fns[i].name, fn))
			k = (int)i;
	if (k < 0)
		return fail(ps, at, "unknown function `%s` (min, max, log2, sqrt, abs, empty)", fn);
	if (fns[k].op == FX_EMPTY) {
		char col[64];
		int rc = name(ps, col, sizeof(col));
		if (rc < 0)
			return rc;
		if (rc == 0)
			return fail(ps, ps->p, "%s", "empty() takes a column name");
		int c = column(ps, at, col);
		if (c < 0)
			return c;
		if (!accept(ps, ")"))
			return fail(ps, ps->p, "%s", "expected `)` after empty(COLUMN");
		int n = node(ps, FX_EMPTY, -1, -1);
		if (n >= 0)
			ps->e->n[n].col = c;
		return n;
	}
	int a = expr(ps), b = -1;
	if (a < 0)
		return a;
	if (fns[k].nargs == 2) {
		if (!accept(ps, ","))
			return fail(ps, ps->p, "%s() takes two arguments: expected `,`", fn);
		if ((b = expr(ps)) < 0)
			return b;
	}
	if (!accept(ps, ")"))
		return fail(ps, ps->p, "expected `)` to close %s(", fn);
	return node(ps, fns[k].op, a, b);
}

static int primary(struct parser *ps)
{
	skip_space(ps);
	const char *at = ps->p;
	char buf[64];
	if (accept(ps, "(")) {
		int a = expr(ps);
		if (a < 0)
			return a;
		if (!accept(ps, ")"))
			return fail(ps, ps->p, "%s", "expected `)`");
		return a;
	}
	if (isdigit((unsigned char)*at) || *at == '.') {
		char *end;
		errno = 0;
		double v = strtod(at, &end);
		if (end == at || errno || !isfinite(v))
			return fail(ps, at, "%s", "a malformed number");
		ps->p = end;
		int n = node(ps, FX_NUM, -1, -1);
		if (n >= 0)
			ps->e->n[n].num = v;
		return n;
	}
	int rc = name(ps, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	if (rc > 0) {
		if (accept(ps, "("))
			return call(ps, at, buf);
		int c = column(ps, at, buf);
		if (c < 0)
			return c;
		skip_space(ps);
		int neg = 0;
		if (accept(ps, "==") || (neg = accept(ps, "!="))) {
			const char *sat = ps->p;
			char lit[WEFT_FEXPR_MAX_STR];
			int s = string_lit(ps, lit);
			if (s < 0)
				return s;
			if (s == 0) {
				/* a numeric comparison: rewind to the operator */
				ps->p = sat - 2;
			} else {
				int n = node(ps, neg ? FX_STRNE : FX_STREQ, -1, -1);
				if (n >= 0) {
					ps->e->n[n].col = c;
					memcpy(ps->e->n[n].str, lit, sizeof(lit));
				}
				return n;
			}
		}
		int n = node(ps, FX_COL, -1, -1);
		if (n >= 0)
			ps->e->n[n].col = c;
		return n;
	}
	if (*at == '"')
		return fail(ps, at, "%s",
			    "text may only be compared with a column: COLUMN == \"text\" or COLUMN != \"text\"");
	if (!*at)
		return fail(ps, at, "%s", "the expression ends where a number, column or `(` was expected");
	return fail(ps, at, "unexpected `%.1s`: expected a number, column, function or `(`", at);
}

static int unary(struct parser *ps);

static int power(struct parser *ps)
{
	int a = primary(ps);
	if (a < 0)
		return a;
	if (accept(ps, "^")) {
		int b = unary(ps);
		if (b < 0)
			return b;
		return node(ps, FX_POW, a, b);
	}
	return a;
}

static int unary(struct parser *ps)
{
	if (++ps->depth > WEFT_FEXPR_MAX_DEPTH)
		return fail(ps, ps->p, "nested more than %s deep", "24");
	int r;
	if (accept(ps, "-")) {
		r = unary(ps);
		r = r < 0 ? r : node(ps, FX_NEG, r, -1);
	} else if (accept(ps, "!")) {
		r = unary(ps);
		r = r < 0 ? r : node(ps, FX_NOT, r, -1);
	} else {
		r = power(ps);
	}
	ps->depth--;
	return r;
}

static int binary_level(struct parser *ps, int level);

/* Levels 0 ||, 1 &&, 2 comparison (one, not chained), 3 + -, 4 * /. */
static int binary_level(struct parser *ps, int level)
{
	static const struct {
		const char *tok;
		int op, level;
	} ops[] = { { "||", FX_OR, 0 }, { "&&", FX_AND, 1 }, { "==", FX_EQ, 2 }, { "!=", FX_NE, 2 },
		    { "<=", FX_LE, 2 }, { ">=", FX_GE, 2 }, { "<", FX_LT, 2 },   { ">", FX_GT, 2 },
		    { "+", FX_ADD, 3 },  { "-", FX_SUB, 3 },  { "*", FX_MUL, 4 },  { "/", FX_DIV, 4 } };
	if (level > 4)
		return unary(ps);
	int a = binary_level(ps, level + 1);
	while (a >= 0) {
		int op = -1;
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && op < 0; i++)
			if (ops[i].level == level && accept(ps, ops[i].tok))
				op = ops[i].op;
		if (op < 0)
			break;
		int b = binary_level(ps, level + 1);
		if (b < 0)
			return b;
		a = node(ps, op, a, b);
		if (level == 2)
			break;
	}
	return a;
}

static int expr(struct parser *ps)
{
	if (++ps->depth > WEFT_FEXPR_MAX_DEPTH)
		return fail(ps, ps->p, "nested more than %s deep", "24");
	int r = binary_level(ps, 0);
	ps->depth--;
	return r;
}

int weft_fexpr_compile(const char *text, const char *const *header, uint32_t ncols,
		       struct weft_fexpr *e, struct weft_error *err)
{
	memset(e, 0, sizeof(*e));
	e->root = -1;
	size_t len = strlen(text);
	if (len > WEFT_FEXPR_MAX_TEXT)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "an expression of %zu characters (at most %d)", len,
				      WEFT_FEXPR_MAX_TEXT);
	struct parser ps = { text, text, header, ncols, e, 0, err };
	int r = expr(&ps);
	if (r < 0)
		return r;
	skip_space(&ps);
	if (*ps.p)
		return fail(&ps, ps.p, "unexpected `%.1s` after a complete expression", ps.p);
	e->root = r;
	return 0;
}

static int is_blank(const char *s)
{
	while (*s == ' ')
		s++;
	return *s == 0;
}

static int eval(const struct weft_fexpr *e, int i, const char *const *f, const char *const *header,
		const char *path, uint32_t line, double *out, struct weft_error *err)
{
	const struct weft_fexpr_node *n = &e->n[i];
	double a = 0, b = 0;
	int rc;
	switch (n->op) {
	case FX_NUM:
		*out = n->num;
		return 0;
	case FX_COL: {
		const char *s = f[n->col];
		while (*s == ' ')
			s++;
		if (!*s)
			return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
					     "column %s is empty where the feature needs a number "
					     "(test it with empty(%s) first)",
					     header[n->col], header[n->col]);
		char *end;
		errno = 0;
		double v = strtod(s, &end);
		while (*end == ' ')
			end++;
		if (*end || errno || !isfinite(v))
			return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
					     "column %s: '%.64s' is not a number, and the feature "
					     "uses it as one",
					     header[n->col], s);
		*out = v;
		return 0;
	}
	case FX_STREQ:
	case FX_STRNE:
		*out = (strcmp(f[n->col], n->str) == 0) == (n->op == FX_STREQ);
		return 0;
	case FX_EMPTY:
		*out = is_blank(f[n->col]);
		return 0;
	case FX_AND:
	case FX_OR:
		if ((rc = eval(e, n->a, f, header, path, line, &a, err)) < 0)
			return rc;
		if ((n->op == FX_AND) == (a == 0)) {
			*out = n->op == FX_OR;
			return 0;
		}
		if ((rc = eval(e, n->b, f, header, path, line, &b, err)) < 0)
			return rc;
		*out = b != 0;
		return 0;
	default:
		break;
	}
	if ((rc = eval(e, n->a, f, header, path, line, &a, err)) < 0)
		return rc;
	if (n->b >= 0 && (rc = eval(e, n->b, f, header, path, line, &b, err)) < 0)
		return rc;
	double v = 0;
	switch (n->op) {
	case FX_NEG: v = -a; break;
	case FX_NOT: v = a == 0; break;
	case FX_LOG2: v = log2(a); break;
	case FX_SQRT: v = sqrt(a); break;
	case FX_ABS: v = fabs(a); break;
	case FX_ADD: v = a + b; break;
	case FX_SUB: v = a - b; break;
	case FX_MUL: v = a * b; break;
	case FX_DIV: v = a / b; break;
	case FX_POW: v = pow(a, b); break;
	case FX_MIN: v = a < b ? a : b; break;
	case FX_MAX: v = a > b ? a : b; break;
	case FX_EQ: v = a == b; break;
	case FX_NE: v = a != b; break;
	case FX_LT: v = a < b; break;
	case FX_LE: v = a <= b; break;
	case FX_GT: v = a > b; break;
	case FX_GE: v = a >= b; break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "feature expression: bad node %d", n->op);
	}
	if (!isfinite(v))
		return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
				     "the feature is not a finite number here (a division by zero, "
				     "log2 or sqrt of a negative number?)");
	*out = v;
	return 0;
}

int weft_fexpr_eval(const struct weft_fexpr *e, const char *const *fields, const char *const *header,
		    const char *path, uint32_t line, double *out, struct weft_error *err)
{
	if (e->root < 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "feature expression not compiled");
	return eval(e, e->root, fields, header, path, line, out, err);
}

int weft_fexpr_uses(const struct weft_fexpr *e, int col)
{
	for (uint32_t i = 0; i < e->nn; i++)
		if (e->n[i].col == col)
			return 1;
	return 0;
}
