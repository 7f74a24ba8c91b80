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

static void jstr(struct weft_sbuf *out, const char *s)
{
	weft_sbuf_puts(out, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"')
			weft_sbuf_puts(out, "\\\"");
		else if (*p == '\\')
			weft_sbuf_puts(out, "\\\\");
		else if (*p == '\n')
			weft_sbuf_puts(out, "\\n");
		else if (*p == '\t')
			weft_sbuf_puts(out, "\\t");
		else if (*p < 0x20)
			weft_sbuf_printf(out, "\\u%04x", *p);
		else
			weft_sbuf_printf(out, "%c", *p);
	}
	weft_sbuf_puts(out, "\"");
}

static void jnum(struct weft_sbuf *out, double v)
{
	char buf[64];
	weft_est_num(buf, sizeof(buf), v);
	weft_sbuf_puts(out, buf[0] ? buf : "null");
}

/* `"key": ` at the given indent, after a comma unless first. */
static void key(struct weft_sbuf *out, int indent, int *first, const char *k)
{
	weft_sbuf_printf(out, "%s\n%*s", *first ? "" : ",", indent, "");
	*first = 0;
	jstr(out, k);
	weft_sbuf_puts(out, ": ");
}

/* A sweep value: a JSON number when it reads as a finite one, else a
 * string (enum and string keys, booleans as written). */
static void jvalue(struct weft_sbuf *out, const char *v)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (*v && !*end && !errno && isfinite(d) && strspn(v, "0123456789+-.eE") == strlen(v))
		jnum(out, d);
	else
		jstr(out, v);
}

static void figures(struct weft_sbuf *out, int ind, const struct weft_est_figures *f,
		    double area_mm2)
{
	int first = 1;
	weft_sbuf_puts(out, "{");
	if (f->launch != WEFT_EST_TOTAL) {
		key(out, ind + 2, &first, "launch");
		weft_sbuf_printf(out, "%u", f->launch);
		key(out, ind + 2, &first, "kernel");
		jstr(out, f->kernel);
	}
	struct weft_est_field fields[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(f, area_mm2, fields);
	for (uint32_t i = 0; i < n; i++) {
		key(out, ind + 2, &first, fields[i].key);
		switch (fields[i].kind) {
		case WEFT_FIELD_NUM:
			jnum(out, fields[i].num);
			break;
		case WEFT_FIELD_U64:
			weft_sbuf_printf(out, "%" PRIu64, fields[i].u64);
			break;
		case WEFT_FIELD_STR:
			jstr(out, fields[i].str);
			break;
		}
	}
	key(out, ind + 2, &first, "cpi_stack");
	weft_sbuf_puts(out, "{");
	for (uint32_t k = 0; f->cpi && k < f->cpi->n; k++) {
		weft_sbuf_printf(out, "%s", k ? ", " : "");
		jstr(out, f->cpi->item[k].name);
		weft_sbuf_puts(out, ": ");
		jnum(out, f->cpi->item[k].cycles);
	}
	weft_sbuf_puts(out, "}");
	key(out, ind + 2, &first, "stats");
	weft_sbuf_puts(out, "[");
	for (uint32_t s = 0; s < f->nstats; s++) {
		weft_sbuf_printf(out, "%s\n%*s{\"key\": ", s ? "," : "", ind + 4, "");
		jstr(out, f->stats[s].key);
		weft_sbuf_puts(out, ", \"value\": ");
		jnum(out, f->stats[s].value);
		weft_sbuf_puts(out, ", \"unit\": ");
		jstr(out, f->stats[s].unit);
		weft_sbuf_puts(out, "}");
	}
	if (f->nstats)
		weft_sbuf_printf(out, "\n%*s", ind + 2, "");
	weft_sbuf_printf(out, "]\n%*s}", ind, "");
}

static void config(struct weft_sbuf *out, const struct weft_est_report *r,
		   const struct weft_est_config *c, uint32_t idx)
{
	const int ind = 6;
	int first = 1;
	char hash[40];
	weft_sbuf_puts(out, "{");
	key(out, ind, &first, "name");
	jstr(out, c->name);
	key(out, ind, &first, "path");
	jstr(out, c->path);
	key(out, ind, &first, "model");
	jstr(out, c->model);
	key(out, ind, &first, "config_hash");
	snprintf(hash, sizeof(hash), "fnv1a64:%016" PRIx64, c->hash);
	jstr(out, hash);
	key(out, ind, &first, "overrides");
	jstr(out, c->overrides);
	if (r->nsweeps) {
		key(out, ind, &first, "config");
		jstr(out, c->config);
		key(out, ind, &first, "point");
		weft_sbuf_puts(out, "{");
		int any = 0;
		for (uint32_t k = 0; k < r->nsweeps; k++) {
			if (!c->point[k][0])
				continue;
			weft_sbuf_puts(out, any ? ", " : "");
			jstr(out, r->sweep_keys[k]);
			weft_sbuf_puts(out, ": ");
			jvalue(out, c->point[k]);
			any = 1;
		}
		weft_sbuf_puts(out, "}");
	}
	key(out, ind, &first, "baseline");
	weft_sbuf_puts(out, idx == r->baseline ? "true" : "false");
	key(out, ind, &first, "clock_hz");
	jnum(out, c->clock_hz);
	key(out, ind, &first, "static_power_w");
	jnum(out, c->static_w);
	key(out, ind, &first, "energy_basis");
	jstr(out, c->energy_basis);
	key(out, ind, &first, "area_basis");
	jstr(out, c->area_basis);
	key(out, ind, &first, "area_mm2");
	jnum(out, c->area_mm2);
	key(out, ind, &first, "area_components");
	weft_sbuf_puts(out, "[");
	for (uint32_t a = 0; a < c->narea; a++) {
		const struct weft_est_area_item *it = &c->area_items[a];
		weft_sbuf_printf(out, "%s\n%*s{\"name\": ", a ? "," : "", ind + 2, "");
		jstr(out, it->name);
		weft_sbuf_puts(out, ", \"count\": ");
		jnum(out, it->count);
		weft_sbuf_puts(out, ", \"area_mm2\": ");
		jnum(out, it->area_mm2);
		weft_sbuf_puts(out, ", \"why\": ");
		jstr(out, it->why);
		weft_sbuf_puts(out, "}");
	}
	if (c->narea)
		weft_sbuf_printf(out, "\n%*s", ind, "");
	weft_sbuf_puts(out, "]");
	key(out, ind, &first, "total");
	figures(out, ind, &c->total, c->area_mm2);
	key(out, ind, &first, "launches");
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
	key(out, 2, &first, "weft_version");
	jstr(out, r->version);
	key(out, 2, &first, "trace");
	weft_sbuf_puts(out, "{\"path\": ");
	jstr(out, r->trace_path);
	snprintf(hash, sizeof(hash), "%s:%016" PRIx64, WEFT_EST_TRACE_HASH, r->trace_hash);
	weft_sbuf_puts(out, ", \"hash\": ");
	jstr(out, hash);
	weft_sbuf_printf(out, ", \"bytes\": %" PRIu64 ", \"workload\": ", r->trace_bytes);
	jstr(out, r->workload);
	weft_sbuf_puts(out, ", \"size\": ");
	jstr(out, r->size);
	weft_sbuf_printf(out, ", \"launches\": %u}", r->nlaunches);
	key(out, 2, &first, "sampling");
	jstr(out, r->sampling);
	key(out, 2, &first, "baseline");
	jstr(out, r->nconfigs ? r->configs[r->baseline].name : "");
	if (r->nsweeps) {
		key(out, 2, &first, "sweep");
		weft_sbuf_puts(out, "[");
		for (uint32_t k = 0; k < r->nsweeps; k++) {
			weft_sbuf_puts(out, k ? ", " : "");
			jstr(out, r->sweep_keys[k]);
		}
		weft_sbuf_printf(out, "]");
		key(out, 2, &first, "trace_passes");
		weft_sbuf_printf(out, "%u", r->trace_passes);
	}
	key(out, 2, &first, "configs");
	weft_sbuf_puts(out, "[");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		weft_sbuf_printf(out, "%s\n    ", i ? "," : "");
		config(out, r, &r->configs[i], i);
	}
	if (r->nconfigs)
		weft_sbuf_puts(out, "\n  ");
	weft_sbuf_puts(out, "]\n}\n");
}
