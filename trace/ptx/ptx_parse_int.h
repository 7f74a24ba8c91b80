/*
 * ptx_parse_int.h - shared state of the PTX parser's files (internal: only
 * trace/ptx_parse*.c include it).
 *
 * The parser is split by purpose: ptx_parse_util.c (name tables, tokens,
 * errors, literals, scopes), ptx_parse_ops.c (opcode table and modifiers),
 * ptx_parse_opnd.c (operands), ptx_parse_tex.c (texture and surface
 * instructions), ptx_parse_inst.c (calls, one instruction), ptx_parse.c
 * (declarations, function bodies, the module, weft_ptx_parse()). Errors
 * unwind with longjmp to weft_ptx_parse() through weft_ptxp_fail_code().
 */
#ifndef WEFT_PTX_PARSE_INT_H
#define WEFT_PTX_PARSE_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/hash.h"
#include "ptx.h"
#include "ptx_lex.h"

/* String -> int32 hash map. Keys are not owned: they point at names that
 * live in the module or in the source text for the map's lifetime. A value
 * of -1 means "absent" (used when a scope ends), so there are no tombstones. */
struct weft_ptxp_slot {
	const char *key;
	uint32_t len;
	int32_t val;
};
struct weft_ptxp_map {
	struct weft_ptxp_slot *s;
	uint32_t cap, n;
};

/* What a scoped name refers to. */
enum { NAME_REG = 0, NAME_SYM = 1 };

struct weft_ptxp_binding {
	const char *key;
	uint32_t len;
	uint8_t kind;
	uint32_t depth;
	int32_t idx;
	int32_t prev; /* binding this one shadows, -1 none */
};

struct weft_ptxp_label {
	const char *s; /* in the source text */
	uint32_t len;
	uint32_t inst;
	uint32_t line, col;
};

struct weft_ptxp_fixup {
	uint32_t inst;
	uint8_t opnd;
	const char *s;
	uint32_t len;
	uint32_t line, col;
};

struct weft_ptxp_tparam {
	const char *s;
	uint32_t len;
	uint32_t line;
	struct weft_ptx_param p;
};

struct weft_ptx_parser {
	struct weft_ptx_lexer lx;
	struct weft_ptx_tok tok;
	struct weft_error *err;
	const char *path;
	jmp_buf jb;
	int rc;
	struct weft_ptx_module *m;
	uint32_t cap_funcs, cap_syms;
	struct weft_ptxp_map funcs_map, syms_map;
	int have_version;

	/* current function */
	int32_t fidx;
	uint32_t cap_regs, cap_insts;
	struct weft_ptxp_map scope_map;
	struct weft_ptxp_binding *binds;
	uint32_t nbinds, cap_binds;
	uint32_t *marks;
	uint32_t nmarks, cap_marks;
	struct weft_ptxp_map label_map;
	struct weft_ptxp_map proto_map; /* .callprototype label -> nrets << 16 | nparams */
	struct weft_ptxp_label *labels;
	uint32_t nlabels, cap_labels;
	struct weft_ptxp_fixup *fixups;
	uint32_t nfixups, cap_fixups;
	int32_t src_file;
	uint32_t src_line;

	/* scratch */
	uint8_t *ibuf;
	size_t ilen, icap;
	struct weft_ptxp_tparam *tparams[2];
	uint32_t ntparams[2], cap_tparams[2];
	int32_t tcall[2][256];
	uint32_t ntcall[2];

	/* set by weft_ptxp_unsupported: the failing instruction is kept as
	 * WEFT_OP_UNSUPPORTED instead of failing the module */
	int defer;
	uint32_t cap_unsup;
};

/* The function being parsed (funcs may move when it grows). */
#define F(p) (&(p)->m->funcs[(p)->fidx])

/* Parse errors at a position / at a token; never return. */
#define fail(p, line, col, ...) weft_ptxp_fail_code((p), WEFT_ERR_PARSE, (line), (col), __VA_ARGS__)
#define fail_tok(p, t, ...) \
	weft_ptxp_fail_code((p), WEFT_ERR_PARSE, (t)->line, (t)->col, __VA_ARGS__)

/* Makes room for one more element in a growing array (doubling). */
#define GROW(p, arr, n, cap)                                                      \
	do {                                                                      \
		if ((n) >= (cap)) {                                               \
			uint32_t nc_ = (cap) ? (cap)*2 : 8;                       \
			void *na_ = realloc((arr), (size_t)nc_ * sizeof(*(arr))); \
			if (!na_)                                                 \
				weft_ptxp_nomem(p);                               \
			(arr) = na_;                                              \
			(cap) = nc_;                                              \
		}                                                                 \
	} while (0)

enum lit_kind { LIT_INT, LIT_F32, LIT_F64, LIT_DEC };

/* One opcode family: name, op, allowed type-suffix and operand counts. */
struct weft_ptxp_opdef {
	const char *name;
	uint16_t op;
	uint8_t tmin, tmax; /* type suffixes */
	uint8_t omin, omax; /* operands */
};
const struct weft_ptxp_opdef *weft_ptxp_opdef(int op);

/* ptx_parse_util.c: name tables */
int32_t weft_ptxp_sm_get(const struct weft_ptxp_map *m, const char *key, uint32_t len);
int weft_ptxp_sm_put(struct weft_ptxp_map *m, const char *key, uint32_t len, int32_t val);
void weft_ptxp_sm_free(struct weft_ptxp_map *m);
void weft_ptxp_map_put(struct weft_ptx_parser *p, struct weft_ptxp_map *m, const char *k,
		       uint32_t len, int32_t v);

/* ptx_parse_util.c: errors and allocation (all unwind on failure) */
_Noreturn void weft_ptxp_fail_code(struct weft_ptx_parser *p, int code, uint32_t line, uint32_t col,
				   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
_Noreturn void weft_ptxp_nomem(struct weft_ptx_parser *p);
/* An instruction weft does not run, at token t: inside
 * weft_ptxp_parse_instruction the instruction is skipped to its `;` and kept
 * as WEFT_OP_UNSUPPORTED with this message (the error comes at launch). */
_Noreturn void weft_ptxp_unsupported(struct weft_ptx_parser *p, const struct weft_ptx_tok *t,
				     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *weft_ptxp_xstrndup(struct weft_ptx_parser *p, const char *s, size_t n);

/* ptx_parse_util.c: tokens */
void weft_ptxp_next(struct weft_ptx_parser *p);
struct weft_ptx_tok weft_ptxp_peek(struct weft_ptx_parser *p);
int weft_ptxp_is_punct(struct weft_ptx_parser *p, char c);
int weft_ptxp_is_word(struct weft_ptx_parser *p, const char *w);
int weft_ptxp_is_dir(struct weft_ptx_parser *p, const char *w);
void weft_ptxp_eat_dir(struct weft_ptx_parser *p, const char *w);
const char *weft_ptxp_tok_desc(const struct weft_ptx_tok *t, char *buf, size_t n);
void weft_ptxp_expect_punct(struct weft_ptx_parser *p, char c, const char *what);
int weft_ptxp_split_dots(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, char *buf,
			 size_t bufsz, char **pieces, int maxp);

/* ptx_parse_util.c: literals and names of types and spaces */
int weft_ptxp_parse_int_text(const char *s, uint32_t len, uint64_t *out);
int weft_ptxp_lit_kind(const struct weft_ptx_tok *t);
uint64_t weft_ptxp_literal_bits(struct weft_ptx_parser *p, const struct weft_ptx_tok *t, int neg,
				int type, int *is_float);
uint64_t weft_ptxp_expect_uint(struct weft_ptx_parser *p, const char *what);
int weft_ptxp_type_from(const char *s);
int weft_ptxp_space_from(const char *s);

/* ptx_parse_util.c: symbols and the scoped names of the current function */
int32_t weft_ptxp_add_symbol(struct weft_ptx_parser *p, const char *name, uint32_t len, int space,
			     int type, uint32_t line);
void weft_ptxp_scope_push(struct weft_ptx_parser *p);
void weft_ptxp_scope_pop(struct weft_ptx_parser *p);
void weft_ptxp_declare(struct weft_ptx_parser *p, const char *key, uint32_t len, int kind,
		       int32_t idx, uint32_t line, uint32_t col);
const struct weft_ptxp_binding *weft_ptxp_lookup_local(struct weft_ptx_parser *p, const char *s,
						       uint32_t len);

/* ptx_parse_ops.c */
void weft_ptxp_decode_opcode(struct weft_ptx_parser *p, struct weft_inst *in,
			     const struct weft_ptx_tok *t);
int weft_ptxp_parse_sreg(struct weft_ptx_parser *p, const struct weft_ptx_tok *t,
			 struct weft_operand *o);

/* ptx_parse_opnd.c */
int32_t weft_ptxp_expect_reg(struct weft_ptx_parser *p, const struct weft_ptx_tok *t);
int weft_ptxp_is_reg_tok(struct weft_ptx_parser *p, const struct weft_ptx_tok *t);
/* Operand idx of in at the current token (advances past it). */
void weft_ptxp_parse_operand(struct weft_ptx_parser *p, struct weft_inst *in, int idx);
int32_t weft_ptxp_texture_handle(struct weft_ptx_parser *p, const struct weft_ptx_tok *t);

/* ptx_parse_tex.c */
static inline int weft_ptxp_is_tex_op(int op)
{
	return op == WEFT_OP_TEX || op == WEFT_OP_TLD4 || op == WEFT_OP_SULD || op == WEFT_OP_SUST;
}
/* The modifiers of a texture or surface opcode t (in->op set). */
void weft_ptxp_decode_tex(struct weft_ptx_parser *p, struct weft_inst *in,
			  const struct weft_ptx_tok *t);
/* Its operands, up to (not past) the `;`. */
void weft_ptxp_parse_tex_operands(struct weft_ptx_parser *p, struct weft_inst *in,
				  const struct weft_ptx_tok *opt);

/* ptx_parse_inst.c */
void weft_ptxp_parse_instruction(struct weft_ptx_parser *p);
void weft_ptxp_parse_loc(struct weft_ptx_parser *p);
void weft_ptxp_parse_pragma(struct weft_ptx_parser *p);
void weft_ptxp_parse_callprototype(struct weft_ptx_parser *p, const struct weft_ptx_tok *name);

#endif
