/*
 * report_json.c - the weft-estimate report as JSON: provenance at the top,
 * then one object per config with its area breakdown, totals, launches and
 * model statistics. The figure keys are the CSV column names
 * (report_fields.c); undefined figures are null (docs/estimate.md). With
 * --sweep: a top-level "sweep" (the swept keys) and per config its file
 * config's name ("config") and its point ({"sec.key": value}, numbers as
 * numbers).
 */
#include "report_fields.h"
#include "report_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sweep value: a JSON number when it reads as a finite one, else a
 * string (enum and string keys, booleans as written). */
static void jvalue(struct weft_sbuf *out, const char *v)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (*v && !*end && !errno && isfinite(d) && strspn(v, "0123456789+-.eE") == strlen(v))
		weft_est_json_num(out, d);
	else
		weft_sbuf_json_str(out, v);
}

static void figures(struct weft_sbuf *out, int ind, const struct weft_est_figures *f,
		    double area_mm2)
{
	int first = 1;
	weft_sbuf_puts(out, "{");
	if (f->launch != WEFT_EST_TOTAL) {
		weft_sbuf_json_key(out, ind + 2, &first, "launch");
		weft_sbuf_printf(out, "%u", f->launch);
		weft_sbuf_json_key(out, ind + 2, &first, "kernel");
		weft_sbuf_json_str(out, f->kernel);
	}
	struct weft_est_field fields[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(f, area_mm2, fields);
	for (uint32_t i = 0; i < n; i++) {
		weft_sbuf_json_key(out, ind + 2, &first, fields[i].key);
		switch (fields[i].kind) {
		case WEFT_FIELD_NUM:
			weft_est_json_num(out, fields[i].num);
			break;
		case WEFT_FIELD_U64:
			weft_sbuf_printf(out, "%" PRIu64, fields[i].u64);
			break;
		case WEFT_FIELD_STR:
			weft_sbuf_json_str(out, fields[i].str);
			break;
		}
	}
	weft_sbuf_json_key(out, ind + 2, &first, "cpi_stack");
	weft_sbuf_puts(out, "{");
	for (uint32_t k = 0; f->cpi && k < f->cpi->n; k++) {
		weft_sbuf_printf(out, "%s", k ? ", " : "");
		weft_sbuf_json_str(out, f->cpi->item[k].name);
		weft_sbuf_puts(out, ": ");
		weft_est_json_num(out, f->cpi->item[k].cycles);
	}
	weft_sbuf_puts(out, "}");
	weft_sbuf_json_key(out, ind + 2, &first, "stats");
	weft_sbuf_puts(out, "[");
	for (uint32_t s = 0; s < f->nstats; s++) {
		weft_sbuf_printf(out, "%s\n%*s{\"key\": ", s ? "," : "", ind + 4, "");
		weft_sbuf_json_str(out, f->stats[s].key);
		weft_sbuf_puts(out, ", \"value\": ");
		weft_est_json_num(out, f->stats[s].value);
		weft_sbuf_puts(out, ", \"unit\": ");
		weft_sbuf_json_str(out, f->stats[s].unit);
		weft_sbuf_puts(out, "}");
	}
	if (f->nstats)
		weft_sbuf_printf(out, "\n%*s", ind + 2, "");
	weft_sbuf_puts(out, "]");
	if (f->explain) {
		weft_sbuf_json_key(out, ind + 2, &first, "explain");
		weft_sbuf_json_str(out, f->explain);
	}
	weft_sbuf_printf(out, "\n%*s}", ind, "");
}

static void config(struct weft_sbuf *out, const struct weft_est_report *r,
		   const struct weft_est_config *c, uint32_t idx)
{
	const int ind = 6;
	int first = 1;
	char hash[40];
	weft_sbuf_puts(out, "{");
	weft_sbuf_json_key(out, ind, &first, "name");
	weft_sbuf_json_str(out, c->name);
	weft_sbuf_json_key(out, ind, &first, "path");
	weft_sbuf_json_str(out, c->path);
	weft_sbuf_json_key(out, ind, &first, "model");
	weft_sbuf_json_str(out, c->model);
	weft_sbuf_json_key(out, ind, &first, "config_hash");
	snprintf(hash, sizeof(hash), "fnv1a64:%016" PRIx64, c->hash);
	weft_sbuf_json_str(out, hash);
	weft_sbuf_json_key(out, ind, &first, "overrides");
	weft_sbuf_json_str(out, c->overrides);
	if (r->nsweeps) {
		weft_sbuf_json_key(out, ind, &first, "config");
		weft_sbuf_json_str(out, c->config);
		weft_sbuf_json_key(out, ind, &first, "point");
		weft_sbuf_puts(out, "{");
		int any = 0;
		for (uint32_t k = 0; k < r->nsweeps; k++) {
			if (!c->point[k][0])
				continue;
			weft_sbuf_puts(out, any ? ", " : "");
			weft_sbuf_json_str(out, r->sweep_keys[k]);
			weft_sbuf_puts(out, ": ");
			jvalue(out, c->point[k]);
			any = 1;
		}
		weft_sbuf_puts(out, "}");
	}
	weft_sbuf_json_key(out, ind, &first, "baseline");
	weft_sbuf_puts(out, idx == r->baseline ? "true" : "false");
	weft_sbuf_json_key(out, ind, &first, "clock_hz");
	weft_est_json_num(out, c->clock_hz);
	weft_sbuf_json_key(out, ind, &first, "static_power_w");
	weft_est_json_num(out, c->static_w);
	weft_sbuf_json_key(out, ind, &first, "energy_basis");
	weft_sbuf_json_str(out, c->energy_basis);
	weft_sbuf_json_key(out, ind, &first, "area_basis");
	weft_sbuf_json_str(out, c->area_basis);
	weft_sbuf_json_key(out, ind, &first, "area_mm2");
	weft_est_json_num(out, c->area_mm2);
	weft_sbuf_json_key(out, ind, &first, "area_components");
	weft_sbuf_puts(out, "[");
	for (uint32_t a = 0; a < c->narea; a++) {
		const struct weft_est_area_item *it = &c->area_items[a];
		weft_sbuf_printf(out, "%s\n%*s{\"name\": ", a ? "," : "", ind + 2, "");
		weft_sbuf_json_str(out, it->name);
		weft_sbuf_puts(out, ", \"count\": ");
		weft_est_json_num(out, it->count);
		weft_sbuf_puts(out, ", \"area_mm2\": ");
		weft_est_json_num(out, it->area_mm2);
		weft_sbuf_puts(out, ", \"why\": ");
		weft_sbuf_json_str(out, it->why);
		weft_sbuf_puts(out, "}");
	}
	if (c->narea)
		weft_sbuf_printf(out, "\n%*s", ind, "");
	weft_sbuf_puts(out, "]");
	weft_sbuf_json_key(out, ind, &first, "total");
	figures(out, ind, &c->total, c->area_mm2);
	if (r->has_ci) {
		/* the totals' intervals (sample_ci.h) */
		weft_sbuf_json_key(out, ind, &first, "interval");
		weft_sbuf_puts(out, "{");
		for (int m = 0; m < WEFT_CI_COUNT; m++) {
			const struct weft_est_interval *iv = &c->ci[m];
			weft_sbuf_printf(out, "%s\n%*s", m ? "," : "", ind + 2, "");
			weft_sbuf_json_str(out, weft_est_ci_keys[m]);
			weft_sbuf_puts(out, ": {\"value\": ");
			weft_est_json_num(out, iv->value);
			weft_sbuf_puts(out, ", \"half\": ");
			weft_est_json_num(out, iv->half);
			weft_sbuf_puts(out, ", \"low\": ");
			weft_est_json_num(out, iv->lo);
			weft_sbuf_puts(out, ", \"high\": ");
			weft_est_json_num(out, iv->hi);
			weft_sbuf_puts(out, ", \"df\": ");
			weft_est_json_num(out, iv->df);
			weft_sbuf_puts(out, "}");
		}
		weft_sbuf_printf(out, "\n%*s}", ind, "");
	}
	weft_sbuf_json_key(out, ind, &first, "launches");
	weft_sbuf_puts(out, "[");
	for (uint32_t l = 0; l < c->nlaunches; l++) {
		weft_sbuf_printf(out, "%s\n%*s", l ? "," : "", ind + 2, "");
		figures(out, ind + 2, &c->launches[l], c->area_mm2);
	}
	if (c->nlaunches)
		weft_sbuf_printf(out, "\n%*s", ind, "");
	weft_sbuf_printf(out, "]\n%*s}", ind - 2, "");
}

void weft_est_format_json(const struct weft_est_report *r, struct weft_sbuf *out)
{
	int first = 1;
	char hash[48];
	weft_sbuf_puts(out, "{");
	weft_sbuf_json_key(out, 2, &first, "weft_version");
	weft_sbuf_json_str(out, r->version);
	weft_sbuf_json_key(out, 2, &first, "trace");
	weft_sbuf_puts(out, "{\"path\": ");
	weft_sbuf_json_str(out, r->trace_path);
	snprintf(hash, sizeof(hash), "%s:%016" PRIx64, WEFT_EST_TRACE_HASH, r->trace_hash);
	weft_sbuf_puts(out, ", \"hash\": ");
	weft_sbuf_json_str(out, hash);
	weft_sbuf_printf(out, ", \"bytes\": %" PRIu64 ", \"workload\": ", r->trace_bytes);
	weft_sbuf_json_str(out, r->workload);
	weft_sbuf_puts(out, ", \"size\": ");
	weft_sbuf_json_str(out, r->size);
	weft_sbuf_printf(out, ", \"launches\": %u}", r->nlaunches);
	weft_sbuf_json_key(out, 2, &first, "sampling");
	weft_sbuf_json_str(out, r->sampling);
	if (r->has_ci) {
		weft_sbuf_json_key(out, 2, &first, "interval");
		weft_sbuf_puts(out, "{\"confidence\": ");
		weft_est_json_num(out, r->confidence);
		weft_sbuf_printf(out, ", \"method\": \"%s, Student t\", "
				 "\"groups_per_launch\": %u, \"ctas_read\": %llu, \"ctas_total\": %llu, "
				 "\"until\": ",
				 r->ci_method == WEFT_CI_METHOD_JACKKNIFE ? "delete-a-group jackknife"
									  : "random groups",
				 r->ci_groups, (unsigned long long)r->ctas_read,
				 (unsigned long long)r->ctas_total);
		if (r->until > 0)
			weft_est_json_num(out, r->until);
		else
			weft_sbuf_puts(out, "null");
		weft_sbuf_printf(out, ", \"rounds\": %u}", r->rounds);
	}
	weft_sbuf_json_key(out, 2, &first, "baseline");
	weft_sbuf_json_str(out, r->nconfigs ? r->configs[r->baseline].name : "");
	if (r->nsweeps) {
		weft_sbuf_json_key(out, 2, &first, "sweep");
		weft_sbuf_puts(out, "[");
		for (uint32_t k = 0; k < r->nsweeps; k++) {
			weft_sbuf_puts(out, k ? ", " : "");
			weft_sbuf_json_str(out, r->sweep_keys[k]);
		}
		weft_sbuf_printf(out, "]");
		weft_sbuf_json_key(out, 2, &first, "trace_passes");
		weft_sbuf_printf(out, "%u", r->trace_passes);
	}
	weft_sbuf_json_key(out, 2, &first, "configs");
	weft_sbuf_puts(out, "[");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		weft_sbuf_printf(out, "%s\n    ", i ? "," : "");
		config(out, r, &r->configs[i], i);
	}
	if (r->nconfigs)
		weft_sbuf_puts(out, "\n  ");
	weft_sbuf_puts(out, "]\n}\n");
}
