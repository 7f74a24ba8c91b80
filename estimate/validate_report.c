/*
 * validate_report.c - the weft-validate report as CSV (one row per claim,
 * every row self-describing) and JSON, the dispatch to the table
 * (validate_table.c). The words every format uses for a claim's metric and
 * configurations are validate_describe.c, below this file and the table.
 * docs/validate.md lists the columns and keys.
 */
#include "validate_impl.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "estimate.h"
#include "report_fields.h"

int weft_val_report_format(const struct weft_val_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err)
{
	switch (fmt) {
	case WEFT_FMT_TABLE:
		weft_val_format_table(r, out);
		break;
	case WEFT_FMT_CSV:
		weft_val_format_csv(r, out);
		break;
	case WEFT_FMT_JSON:
		weft_val_format_json(r, out);
		break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "unknown report format %d", (int)fmt);
	}
	if (out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory formatting the report");
	return 0;
}

/* ---- CSV ------------------------------------------------------------------------- */

static void cstr(struct weft_sbuf *out, const char *s, int last)
{
	weft_sbuf_csv_field(out, s);
	weft_sbuf_puts(out, last ? "\n" : ",");
}

static void cnum(struct weft_sbuf *out, double v)
{
	char buf[64];
	weft_est_num(buf, sizeof(buf), v);
	weft_sbuf_printf(out, "%s,", buf);
}

static const char *metric_text(const struct weft_val_claim *c, char *buf, size_t len)
{
	if (c->metric != WEFT_VAL_ENERGY_SHARE)
		return weft_val_metric_name(c->metric);
	snprintf(buf, len, "energy_share:%s", weft_energy_cat_name((enum weft_energy_cat)c->category));
	return buf;
}

void weft_val_format_csv(const struct weft_val_report *r, struct weft_sbuf *out)
{
	static const char header[] =
		"weft_version,size,id,publication,where,workloads,baseline,config,sweep,metric,"
		"aggregate,node_nm,published,band,weft,weft_value,weft_low,weft_high,ratio,ratio_low,"
		"ratio_high,in_band,detail,mapping,note,claims_file,claims_line\n";
	weft_sbuf_puts(out, header);
	for (uint32_t i = 0; i < r->n; i++) {
		const struct weft_val_result *x = &r->results[i];
		const struct weft_val_claim *c = &x->claim;
		char buf[64];
		cstr(out, r->version, 0);
		cstr(out, r->size, 0);
		cstr(out, c->id, 0);
		cstr(out, c->publication, 0);
		cstr(out, c->where, 0);
		cstr(out, c->nitems ? c->workloads : "", 0);
		cstr(out, c->baseline.present ? c->baseline.text : "", 0);
		cstr(out, c->config.text, 0);
		cstr(out, c->sweep, 0);
		cstr(out, metric_text(c, buf, sizeof(buf)), 0);
		cstr(out, c->agg == WEFT_VAL_AGG_NONE ? "" : weft_val_agg_name(c->agg), 0);
		if (c->node_nm > 0)
			cnum(out, c->node_nm);
		else
			weft_sbuf_puts(out, ",");
		cstr(out, c->published, 0);
		cstr(out, c->band_text, 0);
		cstr(out, x->value_text, 0);
		cnum(out, x->nvalues == 1 ? x->value[0] : NAN);
		cnum(out, x->nvalues == 2 ? x->value[0] : NAN);
		cnum(out, x->nvalues == 2 ? x->value[1] : NAN);
		cnum(out, x->nvalues == 1 ? x->ratio[0] : NAN);
		cnum(out, x->nvalues == 2 ? x->ratio[0] : NAN);
		cnum(out, x->nvalues == 2 ? x->ratio[1] : NAN);
		cstr(out, weft_val_verdict_name(x->verdict), 0);
		cstr(out, x->detail, 0);
		cstr(out, c->mapping, 0);
		cstr(out, c->note, 0);
		cstr(out, c->file, 0);
		weft_sbuf_printf(out, "%u\n", c->line);
	}
}

/* ---- JSON ------------------------------------------------------------------------ */

static void jsetup(struct weft_sbuf *out, const struct weft_val_setup *s)
{
	if (!s->present) {
		weft_sbuf_puts(out, "null");
		return;
	}
	weft_sbuf_puts(out, "{\"file\": ");
	weft_sbuf_json_str(out, s->file);
	weft_sbuf_puts(out, ", \"path\": ");
	weft_sbuf_json_str(out, s->path);
	weft_sbuf_puts(out, ", \"set\": [");
	for (uint32_t i = 0; i < s->nsets; i++) {
		weft_sbuf_puts(out, i ? ", " : "");
		weft_sbuf_json_str(out, s->sets[i]);
	}
	weft_sbuf_puts(out, "]}");
}

static const char *pub_kind(enum weft_val_pub p)
{
	static const char *const k[] = { "value", "range", "below", "above", "increasing",
					  "non-decreasing", "decreasing", "non-increasing" };
	return (unsigned)p < sizeof(k) / sizeof(k[0]) ? k[p] : "?";
}

static void jclaim(struct weft_sbuf *out, const struct weft_val_result *x)
{
	const struct weft_val_claim *c = &x->claim;
	int f = 1;
	char buf[64];
	weft_sbuf_puts(out, "    {");
	weft_sbuf_json_key(out, 6, &f, "id");
	weft_sbuf_json_str(out, c->id);
	weft_sbuf_json_key(out, 6, &f, "publication");
	weft_sbuf_json_str(out, c->publication);
	weft_sbuf_json_key(out, 6, &f, "where");
	weft_sbuf_json_str(out, c->where);
	weft_sbuf_json_key(out, 6, &f, "claims_file");
	weft_sbuf_json_str(out, c->file);
	weft_sbuf_json_key(out, 6, &f, "claims_line");
	weft_sbuf_printf(out, "%u", c->line);
	weft_sbuf_json_key(out, 6, &f, "workloads");
	weft_sbuf_puts(out, "[");
	for (uint32_t i = 0; i < c->nitems; i++) {
		weft_sbuf_puts(out, i ? ", {\"workload\": " : "{\"workload\": ");
		weft_sbuf_json_str(out, c->items[i].workload);
		weft_sbuf_puts(out, ", \"kernel\": ");
		if (c->items[i].kernel[0])
			weft_sbuf_json_str(out, c->items[i].kernel);
		else
			weft_sbuf_puts(out, "null");
		weft_sbuf_puts(out, "}");
	}
	weft_sbuf_puts(out, "]");
	weft_sbuf_json_key(out, 6, &f, "baseline");
	jsetup(out, &c->baseline);
	weft_sbuf_json_key(out, 6, &f, "config");
	jsetup(out, &c->config);
	weft_sbuf_json_key(out, 6, &f, "sweep");
	if (c->sweep[0]) {
		weft_sbuf_puts(out, "{\"key\": ");
		weft_sbuf_json_str(out, c->sweep_key);
		weft_sbuf_puts(out, ", \"values\": [");
		for (uint32_t i = 0; i < c->nsweep; i++) {
			weft_sbuf_puts(out, i ? ", " : "");
			weft_sbuf_json_str(out, c->sweep_values[i]);
		}
		weft_sbuf_puts(out, "]}");
	} else {
		weft_sbuf_puts(out, "null");
	}
	weft_sbuf_json_key(out, 6, &f, "metric");
	weft_sbuf_json_str(out, metric_text(c, buf, sizeof(buf)));
	weft_sbuf_json_key(out, 6, &f, "aggregate");
	if (c->agg == WEFT_VAL_AGG_NONE)
		weft_sbuf_puts(out, "null");
	else
		weft_sbuf_json_str(out, weft_val_agg_name(c->agg));
	weft_sbuf_json_key(out, 6, &f, "node_nm");
	weft_est_json_num(out, c->node_nm > 0 ? c->node_nm : NAN);
	weft_sbuf_json_key(out, 6, &f, "published");
	weft_sbuf_puts(out, "{\"text\": ");
	weft_sbuf_json_str(out, c->published);
	weft_sbuf_puts(out, ", \"kind\": ");
	weft_sbuf_json_str(out, pub_kind(c->pub));
	weft_sbuf_puts(out, ", \"value\": ");
	weft_est_json_num(out, c->pub == WEFT_VAL_PUB_RANGE ? NAN : c->pub_v[0]);
	weft_sbuf_puts(out, ", \"low\": ");
	weft_est_json_num(out, c->pub == WEFT_VAL_PUB_RANGE ? c->pub_v[0] : NAN);
	weft_sbuf_puts(out, ", \"high\": ");
	weft_est_json_num(out, c->pub == WEFT_VAL_PUB_RANGE ? c->pub_v[1] : NAN);
	weft_sbuf_puts(out, "}");
	weft_sbuf_json_key(out, 6, &f, "band");
	weft_sbuf_puts(out, "{\"text\": ");
	weft_sbuf_json_str(out, c->band_text);
	weft_sbuf_puts(out, ", \"factor\": ");
	weft_est_json_num(out, c->band == WEFT_VAL_BAND_FACTOR ? c->factor : NAN);
	weft_sbuf_puts(out, "}");
	weft_sbuf_json_key(out, 6, &f, "weft");
	weft_sbuf_puts(out, "{\"text\": ");
	weft_sbuf_json_str(out, x->value_text);
	weft_sbuf_puts(out, ", \"value\": ");
	weft_est_json_num(out, x->nvalues == 1 ? x->value[0] : NAN);
	weft_sbuf_puts(out, ", \"low\": ");
	weft_est_json_num(out, x->nvalues == 2 ? x->value[0] : NAN);
	weft_sbuf_puts(out, ", \"high\": ");
	weft_est_json_num(out, x->nvalues == 2 ? x->value[1] : NAN);
	weft_sbuf_puts(out, ",\n        \"kernels\": [");
	for (uint32_t i = 0; i < x->nitem_values; i++) {
		weft_sbuf_puts(out, i ? ", {\"kernel\": " : "{\"kernel\": ");
		char name[128];
		snprintf(name, sizeof(name), "%s%s%s", c->items[i].workload, c->items[i].kernel[0] ? ":" : "",
			 c->items[i].kernel);
		weft_sbuf_json_str(out, name);
		weft_sbuf_puts(out, ", \"figure\": ");
		weft_est_json_num(out, x->item_value[i]);
		weft_sbuf_puts(out, "}");
	}
	weft_sbuf_puts(out, "],\n        \"points\": [");
	for (uint32_t p = 0; p < x->npoints; p++) {
		weft_sbuf_puts(out, p ? ", {\"value\": " : "{\"value\": ");
		weft_sbuf_json_str(out, c->sweep_values[p]);
		weft_sbuf_puts(out, ", \"figure\": ");
		weft_est_json_num(out, x->point_value[p]);
		weft_sbuf_puts(out, "}");
	}
	weft_sbuf_puts(out, "],\n        \"area_mm2\": ");
	weft_est_json_num(out, c->metric == WEFT_VAL_AREA || c->metric == WEFT_VAL_AREA_RATIO ? x->area_mm2[0] : NAN);
	weft_sbuf_puts(out, ", \"baseline_area_mm2\": ");
	weft_est_json_num(out, c->metric == WEFT_VAL_AREA_RATIO ? x->area_mm2[1] : NAN);
	weft_sbuf_puts(out, "}");
	weft_sbuf_json_key(out, 6, &f, "ratio");
	weft_est_json_num(out, x->nvalues == 1 ? x->ratio[0] : NAN);
	weft_sbuf_json_key(out, 6, &f, "ratio_low");
	weft_est_json_num(out, x->nvalues == 2 ? x->ratio[0] : NAN);
	weft_sbuf_json_key(out, 6, &f, "ratio_high");
	weft_est_json_num(out, x->nvalues == 2 ? x->ratio[1] : NAN);
	weft_sbuf_json_key(out, 6, &f, "in_band");
	weft_sbuf_puts(out, x->verdict == WEFT_VAL_IN ? "true" : x->verdict == WEFT_VAL_OUT ? "false" : "null");
	weft_sbuf_json_key(out, 6, &f, "detail");
	weft_sbuf_json_str(out, x->detail);
	weft_sbuf_json_key(out, 6, &f, "mapping");
	weft_sbuf_json_str(out, c->mapping);
	weft_sbuf_json_key(out, 6, &f, "note");
	weft_sbuf_json_str(out, c->note);
	weft_sbuf_puts(out, "\n    }");
}

void weft_val_format_json(const struct weft_val_report *r, struct weft_sbuf *out)
{
	int f = 1;
	weft_sbuf_puts(out, "{");
	weft_sbuf_json_key(out, 2, &f, "weft_version");
	weft_sbuf_json_str(out, r->version);
	weft_sbuf_json_key(out, 2, &f, "size");
	weft_sbuf_json_str(out, r->size);
	weft_sbuf_json_key(out, 2, &f, "trace_dir");
	if (r->trace_dir[0])
		weft_sbuf_json_str(out, r->trace_dir);
	else
		weft_sbuf_puts(out, "null");
	weft_sbuf_json_key(out, 2, &f, "traces");
	weft_sbuf_puts(out, "[");
	for (uint32_t t = 0; t < r->ntraces; t++) {
		const struct weft_val_trace *x = &r->traces[t];
		weft_sbuf_puts(out, t ? ",\n    {\"workload\": " : "\n    {\"workload\": ");
		weft_sbuf_json_str(out, x->workload);
		weft_sbuf_puts(out, ", \"path\": ");
		if (x->path[0])
			weft_sbuf_json_str(out, x->path);
		else
			weft_sbuf_puts(out, "null");
		weft_sbuf_printf(out,
				 ", \"reused\": %s, \"hash\": \"%s:%016" PRIx64 "\", \"bytes\": %" PRIu64
				 ", \"launches\": %u}",
				 x->reused ? "true" : "false", WEFT_EST_TRACE_HASH, x->hash, x->bytes,
				 x->nlaunches);
	}
	weft_sbuf_puts(out, r->ntraces ? "\n  ]" : "]");
	weft_sbuf_json_key(out, 2, &f, "summary");
	weft_sbuf_printf(out, "{\"claims\": %u, \"in_band\": %u, \"out_of_band\": %u, \"unknown\": %u}",
			 r->n, r->nin, r->nout, r->nunknown);
	weft_sbuf_json_key(out, 2, &f, "claims");
	weft_sbuf_puts(out, "[");
	for (uint32_t i = 0; i < r->n; i++) {
		weft_sbuf_puts(out, i ? ",\n" : "\n");
		jclaim(out, &r->results[i]);
	}
	weft_sbuf_puts(out, r->n ? "\n  ]\n}\n" : "]\n}\n");
}
