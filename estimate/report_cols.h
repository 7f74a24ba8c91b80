/*
 * report_cols.h - internal to the report formatters: the columns of the
 * tables for papers (--format latex and markdown, report_latex.c and
 * report_md.c). One row per config or sweep point (its totals), the
 * columns chosen with --columns by their CSV names (docs/estimate.md "LaTeX
 * and Markdown"): each column has a header with its unit, one SI prefix
 * for the whole column where the unit takes one (time in ms, energy in
 * uJ), and cells rounded to the significant digits asked for. Counts
 * (cycles, thread instructions, CPI-stack cycles) are whole numbers.
 */
#ifndef WEFT_REPORT_COLS_H
#define WEFT_REPORT_COLS_H

#include "estimate.h"
#include "report.h"

enum weft_est_col_kind {
	WEFT_COL_TEXT = 0, /* config, model, limiter, a swept key's value */
	WEFT_COL_COUNT,    /* a whole number */
	WEFT_COL_NUM,      /* digits significant, a fixed unit */
	WEFT_COL_SI,       /* digits significant, an SI prefix for the column */
	WEFT_COL_RATIO,    /* against the baseline */
	WEFT_COL_SHARE,    /* a fraction, as % */
};

/* How a unit is written: its prefix (SI_MICRO, ...) as LaTeX or text. */
enum weft_est_col_syntax { WEFT_COL_LATEX = 0, WEFT_COL_MARKDOWN };

#define WEFT_EST_MAX_COLS 96

struct weft_est_col {
	char key[136];          /* the CSV name: "time_s", "fabric.token_buffer", "cpi_l1_cycles" */
	enum weft_est_col_kind kind;
	char label[96];         /* "time", "speedup" */
	char unit[24];          /* "s", "J", "mm2", "" */
	int sweep;              /* index of the swept key, or -1 */
	char cpi[64];           /* a CPI component's name, or "" */
	double scale;           /* what cells are multiplied by (SI, or 100 for a share) */
	char prefix[8];         /* "m", "u", "" */
};

/* The columns of r's table: o->columns (checked against r: a CPI
 * component no config has is an input error with "did you mean"), or the
 * default list. Fills cols[0..*n). */
int weft_est_cols(const struct weft_est_report *r, const struct weft_est_table_opts *o,
		  struct weft_est_col *cols, uint32_t *n, struct weft_error *err);

/* The header of col: "time (ms)", "speedup vs fermi-sm", with the unit
 * written for syntax (LaTeX: $\mu$, mm\textsuperscript{2}; Markdown: µ, mm²).
 * The label part is plain text the caller escapes; the unit part is
 * returned separately, already in the syntax. */
void weft_est_col_header(const struct weft_est_report *r, const struct weft_est_col *col,
			 enum weft_est_col_syntax syn, char *label, size_t llen, char *unit,
			 size_t ulen);

/* The cell of config c in col, as plain text (the caller escapes it): a
 * number rounded to digits significant digits (no exponent), a whole
 * number, text; "" when undefined. Returns 1 for a number (right-aligned). */
int weft_est_col_cell(const struct weft_est_report *r, const struct weft_est_config *c,
		      const struct weft_est_col *col, int digits, char *buf, size_t len);

/* The provenance as comment lines, each "open TEXT close": the weft
 * version, trace (path, hash, bytes), workload, sampling, and each config's
 * path, model, hash and overrides. Control characters become '?', and
 * "--" becomes "- -" (an HTML comment may not hold it). */
void weft_est_col_provenance(const struct weft_est_report *r, struct weft_sbuf *out,
			     const char *open, const char *close);

/* v rounded to digits significant digits, written without an exponent. */
void weft_est_sig(double v, int digits, char *buf, size_t len);

#endif
