/*
 * ptx_lex.h - tokenizer for PTX text, used only by the PTX parser.
 *
 * Tokens are produced on demand (no token array), so a `.section` block can
 * be skipped as raw text. Every token carries its 1-based line and column
 * (columns count bytes; a tab is one column). Words are identifiers,
 * directives and dotted opcodes as written ("ld.global.nc.v2.f32",
 * ".reg", "%tid.x", "$L__BB0_3", ".L1::evict_last"); the parser splits them.
 */
#ifndef WEFT_PTX_LEX_H
#define WEFT_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum weft_ptx_tok_kind {
	WEFT_TOK_EOF = 0,
	WEFT_TOK_WORD,  /* identifier, directive, opcode, register */
	WEFT_TOK_NUM,   /* numeric literal text (validated by the parser) */
	WEFT_TOK_STR,   /* "string": s/len exclude the quotes */
	WEFT_TOK_PUNCT, /* one character: , ; { } [ ] ( ) < > + - = | ! @ : */
};

struct weft_ptx_tok {
	int kind;
	const char *s; /* points into the source text */
	uint32_t len;
	uint32_t line, col;
	char c;        /* PUNCT: the character */
};

struct weft_ptx_lexer {
	const char *src;
	size_t len, pos;
	uint32_t line, col;
	const char *path; /* for messages */
};

void weft_ptx_lex_init(struct weft_ptx_lexer *lx, const char *src, size_t len,
		       const char *path);

/* Reads the next token into *t. Returns 0, or WEFT_ERR_PARSE (err filled)
 * on an unterminated comment or string or a character PTX never uses. */
int weft_ptx_lex_next(struct weft_ptx_lexer *lx, struct weft_ptx_tok *t,
		      struct weft_error *err);

/* Skips raw text up to and including the `}` that closes a block whose `{`
 * was the last token read (strings and comments are respected). line/col
 * name the `{` for the "unterminated" message. */
int weft_ptx_lex_skip_block(struct weft_ptx_lexer *lx, uint32_t line, uint32_t col,
			    struct weft_error *err);

/* Token equality helpers. */
int weft_ptx_tok_is(const struct weft_ptx_tok *t, const char *word);
int weft_ptx_tok_punct(const struct weft_ptx_tok *t, char c);

#endif
