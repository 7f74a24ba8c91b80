/*
 * report.h - weft-estimate reports: a struct weft_est_report (estimate.h)
 * formatted as a side-by-side table for people, CSV for spreadsheets and
 * scripts, or JSON. docs/estimate.md lists every column and key with its
 * unit. Every format records the weft version, the trace's hash, the
 * sampling, and each config's path, hash and overrides, so a number in a
 * paper can be traced back to what produced it.
 *
 * The formatters append to a text buffer (sbuf.h); the caller prints it or
 * writes it with common/file.h's weft_write_atomic.
 *
 * For papers, --format latex (a booktabs tabular) and markdown (a pipe
 * table) give the totals, one row per config or sweep point, with units
 * in the headers, the columns --columns names and the significant digits
 * --digits asks for (report_cols.h; docs/estimate.md "LaTeX and Markdown").
 */
#ifndef WEFT_REPORT_H
#define WEFT_REPORT_H

#include "estimate.h"
#include "common/format.h"
#include "common/sbuf.h"

int weft_est_report_format(const struct weft_est_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err);

/* The latex and markdown tables' options. */
struct weft_est_table_opts {
	const char *columns; /* "cycles,time_s,speedup": CSV column names; NULL: the default */
	int digits;          /* significant digits, 1..WEFT_EST_MAX_DIGITS; 0: 3 */
};
#define WEFT_EST_MAX_DIGITS 15

/* As weft_est_report_format, with the tables' options (NULL: the
 * defaults). An input error when --columns names a CPI-stack component no
 * config has. */
int weft_est_report_format_opts(const struct weft_est_report *r, enum weft_format fmt,
				const struct weft_est_table_opts *o, struct weft_sbuf *out,
				struct weft_error *err);

/* Checks a --columns list before anything runs: every name a report
 * column (docs/estimate.md), one of the swept keys ("sec.key"), or
 * cpi_<component>_cycles; none twice. An input error naming the first bad
 * one, with "did you mean". */
int weft_est_columns_check(const char *columns, const char *const *sweep_keys, uint32_t nsweeps,
			   struct weft_error *err);

#endif
