/*
 * report_impl.h - internal to the report module: one formatter per format
 * (report_table.c, report_csv.c, report_json.c, report_latex.c,
 * report_md.c); report.c dispatches.
 */
#ifndef WEFT_REPORT_IMPL_H
#define WEFT_REPORT_IMPL_H

#include "estimate.h"
#include "report.h"
#include "common/sbuf.h"

void weft_est_format_table(const struct weft_est_report *r, struct weft_sbuf *out);
void weft_est_format_csv(const struct weft_est_report *r, struct weft_sbuf *out);
void weft_est_format_json(const struct weft_est_report *r, struct weft_sbuf *out);
int weft_est_format_latex(const struct weft_est_report *r, const struct weft_est_table_opts *o,
			  struct weft_sbuf *out, struct weft_error *err);
int weft_est_format_markdown(const struct weft_est_report *r, const struct weft_est_table_opts *o,
			     struct weft_sbuf *out, struct weft_error *err);

#endif
