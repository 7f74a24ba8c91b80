/*
 * fitexpr.h - the feature expressions of a calibration model
 * (docs/calibration.md): a small arithmetic over the columns of a data
 * CSV, compiled once against the CSV's header and evaluated per row.
 *
 * Syntax, lowest precedence first:
 *   a || b, a && b            logic (0 is false; the result is 0 or 1)
 *   a == b, != < <= > >=      comparison, 0 or 1; COLUMN == "text" and
 *                             COLUMN != "text" compare the field's text
 *   a + b, a - b, a * b, a / b
 *   -a, !a, a ^ b             (^ binds tightest, right to left)
 *   NUMBER, COLUMN, (a), min(a, b), max(a, b), log2(a), sqrt(a), abs(a),
 *   empty(COLUMN)             1 where the field is blank, else 0
 * A COLUMN used as a number must hold one in every row the expression
 * reaches (`&&` and `||` do not evaluate their right side when the left one
 * decides). Text is at most WEFT_FEXPR_MAX_TEXT bytes, at most
 * WEFT_FEXPR_MAX_NODES operators and operands, nested at most
 * WEFT_FEXPR_MAX_DEPTH deep: all checked, so hostile input is refused with
 * the byte column of the fault, not followed.
 */
#ifndef WEFT_FITEXPR_H
#define WEFT_FITEXPR_H

#include <stdint.h>

#include "common/error.h"

#define WEFT_FEXPR_MAX_TEXT 400
#define WEFT_FEXPR_MAX_NODES 96
#define WEFT_FEXPR_MAX_DEPTH 24
#define WEFT_FEXPR_MAX_STR 64

struct weft_fexpr_node {
	uint8_t op;
	int16_t a, b;                 /* operand nodes, -1 when none */
	int32_t col;                  /* column index (COLUMN, empty(), text compare) */
	double num;
	char str[WEFT_FEXPR_MAX_STR]; /* text compare */
};

struct weft_fexpr {
	struct weft_fexpr_node n[WEFT_FEXPR_MAX_NODES];
	uint32_t nn;
	int root;
};

/* Compiles text with its columns named by header[0..ncols-1]. On error the
 * message says what is wrong and at which byte column of text (1-based),
 * with a "did you mean" for a mistyped column; the caller adds the file and
 * line it came from. */
int weft_fexpr_compile(const char *text, const char *const *header, uint32_t ncols,
		       struct weft_fexpr *e, struct weft_error *err);

/* Evaluates e on one row (fields[0..ncols-1]). A column that is blank or
 * not a number where a number is needed, or a result that is not finite
 * (a division by zero), is an error naming path:line and the column. */
int weft_fexpr_eval(const struct weft_fexpr *e, const char *const *fields, const char *const *header,
		    const char *path, uint32_t line, double *out, struct weft_error *err);

/* 1 when e uses column col. */
int weft_fexpr_uses(const struct weft_fexpr *e, int col);

#endif
