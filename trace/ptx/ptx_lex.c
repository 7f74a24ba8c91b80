/*
 * ptx_lex.c - PTX tokenizer (see ptx_lex.h).
 *
 * Linear in the text size. The lexer is a small value type, so the parser
 * peeks ahead by copying it.
 */
#include "ptx_lex.h"

#include <string.h>

void weft_ptx_lex_init(struct weft_ptx_lexer *lx, const char *src, size_t len,
		       const char *path)
{
	lx->src = src;
	lx->len = len;
	lx->pos = 0;
	lx->line = 1;
	lx->col = 1;
	lx->path = path;
	/* a UTF-8 byte order mark some editors add */
	if (len >= 3 && (unsigned char)src[0] == 0xef && (unsigned char)src[1] == 0xbb &&
	    (unsigned char)src[2] == 0xbf)
		lx->pos = 3;
}

static int at(const struct weft_ptx_lexer *lx, size_t off)
{
	size_t i = lx->pos + off;
	return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static void bump(struct weft_ptx_lexer *lx)
{
	if (lx->src[lx->pos] == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->pos++;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}
static int is_word_start(int c)
{
	return is_alpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}
static int is_word_char(int c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.';
}

/* Skips blanks and comments. */
static int skip_space(struct weft_ptx_lexer *lx, struct weft_error *err)
{
	for (;;) {
		int c = at(lx, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			bump(lx);
		} else if (c == '/' && at(lx, 1) == '/') {
			while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
				bump(lx);
		} else if (c == '/' && at(lx, 1) == '*') {
			uint32_t l = lx->line, co = lx->col;
			bump(lx);
			bump(lx);
			for (;;) {
				if (lx->pos >= lx->len)
					return weft_error_at(err, WEFT_ERR_PARSE, lx->path, l, co,
							     "unterminated /* comment (add the closing */)");
				if (lx->src[lx->pos] == '*' && at(lx, 1) == '/') {
					bump(lx);
					bump(lx);
					break;
				}
				bump(lx);
			}
		} else {
			return 0;
		}
	}
}

static int lex_string(struct weft_ptx_lexer *lx, struct weft_ptx_tok *t, struct weft_error *err)
{
	bump(lx); /* opening quote */
	t->s = lx->src + lx->pos;
	size_t start = lx->pos;
	for (;;) {
		int c = at(lx, 0);
		if (c < 0 || c == '\n')
			return weft_error_at(err, WEFT_ERR_PARSE, lx->path, t->line, t->col,
					     "unterminated string literal (add the closing \")");
		if (c == '\\' && at(lx, 1) >= 0 && at(lx, 1) != '\n') {
			bump(lx);
			bump(lx);
			continue;
		}
		if (c == '"')
			break;
		bump(lx);
	}
	t->len = (uint32_t)(lx->pos - start);
	bump(lx);
	t->kind = WEFT_TOK_STR;
	return 0;
}

int weft_ptx_lex_next(struct weft_ptx_lexer *lx, struct weft_ptx_tok *t, struct weft_error *err)
{
	int rc = skip_space(lx, err);
	if (rc)
		return rc;
	memset(t, 0, sizeof(*t));
	t->line = lx->line;
	t->col = lx->col;
	t->s = lx->src + lx->pos;
	int c = at(lx, 0);
	if (c < 0) {
		t->kind = WEFT_TOK_EOF;
		return 0;
	}
	size_t start = lx->pos;
	if (is_word_start(c)) {
		bump(lx);
		for (;;) {
			int d = at(lx, 0);
			if (is_word_char(d)) {
				bump(lx);
			} else if (d == ':' && at(lx, 1) == ':' && is_word_char(at(lx, 2))) {
				/* .L1::evict_last, .shared::cta */
				bump(lx);
				bump(lx);
			} else {
				break;
			}
		}
		t->kind = WEFT_TOK_WORD;
		t->len = (uint32_t)(lx->pos - start);
		if (t->len > 4096)
			return weft_error_at(err, WEFT_ERR_PARSE, lx->path, t->line, t->col,
					     "identifier longer than 4096 characters");
		return 0;
	}
	if (is_digit(c)) {
		int hexish = c == '0' && (at(lx, 1) == 'x' || at(lx, 1) == 'X' || at(lx, 1) == 'f' ||
					  at(lx, 1) == 'F' || at(lx, 1) == 'd' || at(lx, 1) == 'D');
		bump(lx);
		for (;;) {
			int d = at(lx, 0);
			if (is_alpha(d) || is_digit(d) || d == '.' || d == '_') {
				bump(lx);
			} else if ((d == '+' || d == '-') && !hexish &&
				   (lx->src[lx->pos - 1] == 'e' || lx->src[lx->pos - 1] == 'E')) {
				bump(lx); /* exponent sign of 1.5e-3 */
			} else {
				break;
			}
		}
		t->kind = WEFT_TOK_NUM;
		t->len = (uint32_t)(lx->pos - start);
		if (t->len > 256)
			return weft_error_at(err, WEFT_ERR_PARSE, lx->path, t->line, t->col,
					     "numeric literal longer than 256 characters");
		return 0;
	}
	if (c == '"') {
		t->line = lx->line;
		return lex_string(lx, t, err);
	}
	if (strchr(",;{}[]()<>+-=|!@:", c) && c != 0) {
		bump(lx);
		t->kind = WEFT_TOK_PUNCT;
		t->c = (char)c;
		t->len = 1;
		return 0;
	}
	if (c >= 0x21 && c < 0x7f)
		return weft_error_at(err, WEFT_ERR_PARSE, lx->path, t->line, t->col,
				     "unexpected character '%c' (not valid PTX here)", c);
	return weft_error_at(err, WEFT_ERR_PARSE, lx->path, t->line, t->col,
			     "unexpected byte 0x%02x (PTX is ASCII text; is this the right file?)", c);
}

int weft_ptx_lex_skip_block(struct weft_ptx_lexer *lx, uint32_t line, uint32_t col,
			    struct weft_error *err)
{
	int depth = 1;
	while (lx->pos < lx->len) {
		int c = at(lx, 0);
		if (c == '/' && (at(lx, 1) == '/' || at(lx, 1) == '*')) {
			int rc = skip_space(lx, err);
			if (rc)
				return rc;
			continue;
		}
		if (c == '"') {
			/* strings may hold braces; an unterminated one ends at the line */
			bump(lx);
			while (lx->pos < lx->len && at(lx, 0) != '"' && at(lx, 0) != '\n') {
				if (at(lx, 0) == '\\' && at(lx, 1) >= 0 && at(lx, 1) != '\n')
					bump(lx);
				bump(lx);
			}
			if (lx->pos < lx->len && at(lx, 0) == '"')
				bump(lx);
			continue;
		}
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0) {
			bump(lx);
			return 0;
		}
		bump(lx);
	}
	return weft_error_at(err, WEFT_ERR_PARSE, lx->path, line, col,
			     "unterminated block: no '}' matches this '{'");
}

int weft_ptx_tok_is(const struct weft_ptx_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == WEFT_TOK_WORD && t->len == n && memcmp(t->s, word, n) == 0;
}

int weft_ptx_tok_punct(const struct weft_ptx_tok *t, char c)
{
	return t->kind == WEFT_TOK_PUNCT && t->c == c;
}
