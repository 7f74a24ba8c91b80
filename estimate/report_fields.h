/*
 * report_fields.h - internal to the report formatters: the named, unit-
 * suffixed fields of one launch's (or the totals') figures, in report
 * order. CSV columns and JSON keys come from this one list so the two
 * formats always agree (docs/estimate.md documents them).
 */
#ifndef WEFT_REPORT_FIELDS_H
#define WEFT_REPORT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "estimate.h"
#include "common/sbuf.h"

enum weft_est_field_kind { WEFT_FIELD_NUM = 0, WEFT_FIELD_U64, WEFT_FIELD_STR };

struct weft_est_field {
	char key[40];
	enum weft_est_field_kind kind;
	double num;       /* NAN = undefined */
	uint64_t u64;
	const char *str;
};

#define WEFT_EST_MAX_FIELDS 48

/* The fields of f (one launch or the totals of a config whose area is
 * area_mm2). Returns how many. */
uint32_t weft_est_figure_fields(const struct weft_est_figures *f, double area_mm2,
				struct weft_est_field *out);

/* The CPI-stack component names of every config's totals and launches,
 * each once, in first-seen order (at most max); returns how many. CSV
 * columns cpi_<name>_cycles follow them. */
#define WEFT_EST_MAX_CPI_NAMES 64
uint32_t weft_est_cpi_names(const struct weft_est_report *r, const char **names, uint32_t max);
/* The cycles of component name in s, NAN when s lacks it. */
double weft_est_cpi_of(const struct weft_cpi_stack *s, const char *name);

/* "%.10g", or "" for NAN/inf (the caller writes null / an empty field). */
void weft_est_num(char *buf, size_t len, double v);

/* v as a JSON number ("%.10g"), or null when it is NAN or infinite. */
void weft_est_json_num(struct weft_sbuf *out, double v);

/* v with an SI prefix and 4 significant digits: "1.235 ms"; "-" for NAN. */
void weft_est_si(char *buf, size_t len, double v, const char *unit);

#endif
