/*
 * report_csv.c - the weft-estimate report as CSV (RFC 4180): one row per
 * config and launch plus a `total` row per config. Every row repeats the
 * provenance columns (weft version, trace hash, sampling, config hash and
 * overrides) so rows stay self-describing when CSVs from several runs are
 * concatenated. Units are in the column names (docs/estimate.md). With
 * --sweep, one column per swept key (named sec.key) follows `overrides`,
 * holding the point's value (empty where that sweep does not apply). The
 * CPI stacks close each row: one column cpi_<component>_cycles per
 * component any config reports (empty where a model has no such
 * component). A random sample's report ends each row with ci_confidence
 * and <figure>_low,<figure>_high per interval (sample_ci.h), filled on the
 * total rows.
 */
#include "report_fields.h"
#include "report_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const prov_cols[] = { "weft_version", "trace", "trace_hash", "trace_bytes",
					 "sampling", "config", "config_path", "model", "config_hash",
					 "overrides", "baseline", "launch", "kernel" };

static void figures_row(struct weft_sbuf *out, const struct weft_est_report *r,
			const struct weft_est_config *c, const struct weft_est_figures *f,
			const char *const *cpi_names, uint32_t ncpi)
{
	char buf[64];
	weft_sbuf_csv_field(out, r->version);
	weft_sbuf_puts(out, ",");
	weft_sbuf_csv_field(out, r->trace_path);
	weft_sbuf_printf(out, ",%s:%016" PRIx64 ",%" PRIu64 ",", WEFT_EST_TRACE_HASH, r->trace_hash,
			 r->trace_bytes);
	weft_sbuf_csv_field(out, r->sampling);
	weft_sbuf_puts(out, ",");
	weft_sbuf_csv_field(out, c->name);
	weft_sbuf_puts(out, ",");
	weft_sbuf_csv_field(out, c->path);
	weft_sbuf_puts(out, ",");
	weft_sbuf_csv_field(out, c->model);
	weft_sbuf_printf(out, ",fnv1a64:%016" PRIx64 ",", c->hash);
	weft_sbuf_csv_field(out, c->overrides);
	weft_sbuf_puts(out, ",");
	for (uint32_t k = 0; k < r->nsweeps; k++) {
		weft_sbuf_csv_field(out, c->point[k]);
		weft_sbuf_puts(out, ",");
	}
	weft_sbuf_csv_field(out, r->configs[r->baseline].name);
	if (f->launch == WEFT_EST_TOTAL)
		weft_sbuf_puts(out, ",total,");
	else
		weft_sbuf_printf(out, ",%u,", f->launch);
	weft_sbuf_csv_field(out, f->kernel);
	struct weft_est_field fields[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(f, c->area_mm2, fields);
	for (uint32_t i = 0; i < n; i++) {
		weft_sbuf_puts(out, ",");
		switch (fields[i].kind) {
		case WEFT_FIELD_NUM:
			weft_est_num(buf, sizeof(buf), fields[i].num);
			weft_sbuf_puts(out, buf);
			break;
		case WEFT_FIELD_U64:
			weft_sbuf_printf(out, "%" PRIu64, fields[i].u64);
			break;
		case WEFT_FIELD_STR:
			weft_sbuf_csv_field(out, fields[i].str);
			break;
		}
	}
	for (uint32_t k = 0; k < ncpi; k++) {
		weft_est_num(buf, sizeof(buf), weft_est_cpi_of(f->cpi, cpi_names[k]));
		weft_sbuf_printf(out, ",%s", buf);
	}
	if (r->has_ci) {
		/* the totals' intervals; empty on launch rows */
		if (f->launch == WEFT_EST_TOTAL)
			weft_est_num(buf, sizeof(buf), r->confidence);
		else
			buf[0] = 0;
		weft_sbuf_printf(out, ",%s", buf);
		for (int m = 0; m < WEFT_CI_COUNT; m++) {
			const struct weft_est_interval *iv = &c->ci[m];
			char lo[64] = "", hi[64] = "";
			if (f->launch == WEFT_EST_TOTAL) {
				weft_est_num(lo, sizeof(lo), iv->lo);
				weft_est_num(hi, sizeof(hi), iv->hi);
			}
			weft_sbuf_printf(out, ",%s,%s", lo, hi);
		}
	}
	weft_sbuf_puts(out, "\n");
}

void weft_est_format_csv(const struct weft_est_report *r, struct weft_sbuf *out)
{
	for (size_t i = 0; i < sizeof(prov_cols) / sizeof(prov_cols[0]); i++) {
		weft_sbuf_printf(out, "%s%s", i ? "," : "", prov_cols[i]);
		if (strcmp(prov_cols[i], "overrides") == 0)
			for (uint32_t k = 0; k < r->nsweeps; k++) {
				weft_sbuf_puts(out, ",");
				weft_sbuf_csv_field(out, r->sweep_keys[k]);
			}
	}
	struct weft_est_figures zero;
	memset(&zero, 0, sizeof(zero));
	struct weft_est_field fields[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(&zero, 0, fields);
	for (uint32_t i = 0; i < n; i++)
		weft_sbuf_printf(out, ",%s", fields[i].key);
	const char *cpi_names[WEFT_EST_MAX_CPI_NAMES];
	uint32_t ncpi = weft_est_cpi_names(r, cpi_names, WEFT_EST_MAX_CPI_NAMES);
	for (uint32_t k = 0; k < ncpi; k++)
		weft_sbuf_printf(out, ",cpi_%s_cycles", cpi_names[k]);
	if (r->has_ci) {
		weft_sbuf_puts(out, ",ci_confidence");
		for (int m = 0; m < WEFT_CI_COUNT; m++)
			weft_sbuf_printf(out, ",%s_low,%s_high", weft_est_ci_keys[m], weft_est_ci_keys[m]);
	}
	weft_sbuf_puts(out, "\n");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		for (uint32_t l = 0; l < c->nlaunches; l++)
			figures_row(out, r, c, &c->launches[l], cpi_names, ncpi);
		figures_row(out, r, c, &c->total, cpi_names, ncpi);
	}
}
