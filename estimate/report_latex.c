/*
 * report_latex.c - the weft-estimate report as a LaTeX table for a paper:
 * the provenance as % comments, then a booktabs tabular (\toprule,
 * \midrule, \bottomrule; the document needs \usepackage{booktabs}) with
 * one row per config or sweep point, the columns of report_cols.h (units
 * in the headers, numbers right-aligned at the digits asked for). Every
 * character LaTeX treats specially in a name is escaped, so a config
 * named `a_b#1` prints as written. tests/cli/run.sh compiles it with
 * pdflatex where that is installed.
 */
#include "report_cols.h"
#include "report_impl.h"

#include <stdio.h>
#include <stdlib.h>

/* s with LaTeX's special characters escaped; brackets braced so that a
 * cell starting with `[` is not taken for \\'s optional argument; the
 * plus-minus sign of an interval (UTF-8 C2 B1, report_cols.c) as $\pm$;
 * other bytes outside printable ASCII as '?'. */
static void tex(struct weft_sbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (p[0] == 0xc2 && p[1] == 0xb1) {
			weft_sbuf_puts(out, "$\\pm$");
			p++;
			continue;
		}
		switch (*p) {
		case '#': case '$': case '%': case '&': case '_': case '{': case '}':
			weft_sbuf_printf(out, "\\%c", *p);
			break;
		case '~':
			weft_sbuf_puts(out, "\\textasciitilde{}");
			break;
		case '^':
			weft_sbuf_puts(out, "\\textasciicircum{}");
			break;
		case '\\':
			weft_sbuf_puts(out, "\\textbackslash{}");
			break;
		case '[': case ']':
			weft_sbuf_printf(out, "{%c}", *p);
			break;
		case '<':
			weft_sbuf_puts(out, "\\textless{}");
			break;
		case '>':
			weft_sbuf_puts(out, "\\textgreater{}");
			break;
		case '|':
			weft_sbuf_puts(out, "\\textbar{}");
			break;
		case '"':
			weft_sbuf_puts(out, "\\textquotedbl{}");
			break;
		default:
			weft_sbuf_printf(out, "%c", *p < 0x20 || *p >= 0x7f ? '?' : *p);
		}
	}
}

int weft_est_format_latex(const struct weft_est_report *r, const struct weft_est_table_opts *o,
			  struct weft_sbuf *out, struct weft_error *err)
{
	struct weft_est_col *cols = calloc(WEFT_EST_MAX_COLS, sizeof(*cols));
	uint32_t n = 0;
	if (!cols)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory formatting the report");
	int rc = weft_est_cols(r, o, cols, &n, err);
	if (rc < 0) {
		free(cols);
		return rc;
	}
	int digits = o->digits > 0 ? o->digits : 3;
	weft_est_col_provenance(r, out, "% ", "");
	weft_sbuf_puts(out, "% needs \\usepackage{booktabs}\n\\begin{tabular}{");
	for (uint32_t k = 0; k < n; k++)
		weft_sbuf_puts(out, cols[k].kind == WEFT_COL_TEXT ? "l" : "r");
	weft_sbuf_puts(out, "}\n\\toprule\n");
	for (uint32_t k = 0; k < n; k++) {
		char label[256], unit[64];
		weft_est_col_header(r, &cols[k], WEFT_COL_LATEX, label, sizeof(label), unit, sizeof(unit));
		weft_sbuf_puts(out, k ? " & " : "");
		tex(out, label);
		if (unit[0])
			weft_sbuf_printf(out, " (%s)", unit); /* already LaTeX */
	}
	weft_sbuf_puts(out, " \\\\\n\\midrule\n");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		for (uint32_t k = 0; k < n; k++) {
			char cell[512];
			weft_est_col_cell(r, &r->configs[i], &cols[k], digits, cell, sizeof(cell));
			weft_sbuf_puts(out, k ? " & " : "");
			if (cell[0])
				tex(out, cell);
			else
				weft_sbuf_puts(out, "--");
		}
		weft_sbuf_puts(out, " \\\\\n");
	}
	weft_sbuf_puts(out, "\\bottomrule\n\\end{tabular}\n");
	free(cols);
	return 0;
}
