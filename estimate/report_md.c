/*
 * report_md.c - the weft-estimate report as a Markdown (GitHub) pipe
 * table: the provenance in an HTML comment line each, then one row per
 * config or sweep point with the columns of report_cols.h (units in the
 * headers, numbers right-aligned at the digits asked for). Characters
 * Markdown would read as markup in a name (| * _ ` [ ] < > \) are
 * backslash-escaped.
 */
#include "report_cols.h"
#include "report_impl.h"

#include <stdlib.h>
#include <string.h>

static void md(struct weft_sbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (strchr("|*_`[]<>\\#", *p))
			weft_sbuf_printf(out, "\\%c", *p);
		else
			weft_sbuf_printf(out, "%c", *p < 0x20 || *p == 0x7f ? ' ' : *p);
	}
}

int weft_est_format_markdown(const struct weft_est_report *r, const struct weft_est_table_opts *o,
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
	weft_est_col_provenance(r, out, "<!-- ", " -->");
	weft_sbuf_puts(out, "|");
	for (uint32_t k = 0; k < n; k++) {
		char label[256], unit[64];
		weft_est_col_header(r, &cols[k], WEFT_COL_MARKDOWN, label, sizeof(label), unit, sizeof(unit));
		weft_sbuf_puts(out, " ");
		md(out, label);
		if (unit[0])
			weft_sbuf_printf(out, " (%s)", unit);
		weft_sbuf_puts(out, " |");
	}
	weft_sbuf_puts(out, "\n|");
	for (uint32_t k = 0; k < n; k++)
		weft_sbuf_puts(out, cols[k].kind == WEFT_COL_TEXT ? ":---|" : "---:|");
	weft_sbuf_puts(out, "\n");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		weft_sbuf_puts(out, "|");
		for (uint32_t k = 0; k < n; k++) {
			char cell[512];
			weft_est_col_cell(r, &r->configs[i], &cols[k], digits, cell, sizeof(cell));
			weft_sbuf_puts(out, " ");
			if (cell[0])
				md(out, cell);
			else
				weft_sbuf_puts(out, "-");
			weft_sbuf_puts(out, " |");
		}
		weft_sbuf_puts(out, "\n");
	}
	free(cols);
	return 0;
}
