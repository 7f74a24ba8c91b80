/*
 * report_fields.c - the fields of a launch's figures as CSV columns and
 * JSON keys (report_fields.h), and number formatting shared by the
 * formatters.
 */
#include "report_fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct weft_est_field *num(struct weft_est_field *f, const char *key, double v)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->kind = WEFT_FIELD_NUM;
	f->num = v;
	return f + 1;
}

uint32_t weft_est_figure_fields(const struct weft_est_figures *g, double area_mm2,
				struct weft_est_field *out)
{
	struct weft_est_field *f = out;
	f = num(f, "cycles", g->cycles);
	f = num(f, "time_s", g->seconds);
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "thread_insts");
	f->kind = WEFT_FIELD_U64;
	f->u64 = g->thread_insts;
	f++;
	f = num(f, "ipc", g->ipc);
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "limiter");
	f->kind = WEFT_FIELD_STR;
	f->str = g->limiter;
	f++;
	for (int c = 0; c < WEFT_CAT_COUNT; c++) {
		char key[40];
		snprintf(key, sizeof(key), "energy_%s_j", weft_energy_cat_name((enum weft_energy_cat)c));
		f = num(f, key, g->energy_j[c]);
	}
	f = num(f, "energy_total_j", g->energy_total_j);
	for (int c = 0; c < WEFT_CAT_COUNT; c++) {
		char key[40];
		snprintf(key, sizeof(key), "energy_%s_share", weft_energy_cat_name((enum weft_energy_cat)c));
		f = num(f, key, g->energy_total_j > 0 ? g->energy_j[c] / g->energy_total_j : NAN);
	}
	f = num(f, "power_w", g->power_w);
	f = num(f, "area_mm2", area_mm2);
	f = num(f, "insts_per_j", g->insts_per_j);
	f = num(f, "insts_per_s_per_mm2", g->perf_per_area);
	f = num(f, "speedup", g->speedup);
	f = num(f, "insts_per_j_ratio", g->insts_per_j_ratio);
	f = num(f, "energy_ratio", g->energy_ratio);
	f = num(f, "perf_per_area_ratio", g->perf_per_area_ratio);
	return (uint32_t)(f - out);
}

static void add_names(const struct weft_cpi_stack *s, const char **names, uint32_t *n,
		      uint32_t max)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t k = 0;
		while (k < *n && strcmp(names[k], s->item[i].name) != 0)
			k++;
		if (k == *n && *n < max)
			names[(*n)++] = s->item[i].name;
	}
}

uint32_t weft_est_cpi_names(const struct weft_est_report *r, const char **names, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		add_names(c->total.cpi, names, &n, max);
		for (uint32_t l = 0; l < c->nlaunches; l++)
			add_names(c->launches[l].cpi, names, &n, max);
	}
	return n;
}

double weft_est_cpi_of(const struct weft_cpi_stack *s, const char *name)
{
	if (s)
		for (uint32_t i = 0; i < s->n; i++)
			if (strcmp(s->item[i].name, name) == 0)
				return s->item[i].cycles;
	return NAN;
}

void weft_est_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		buf[0] = 0;
	else
		snprintf(buf, len, "%.10g", v);
}

void weft_est_json_num(struct weft_sbuf *out, double v)
{
	char buf[64];
	weft_est_num(buf, sizeof(buf), v);
	weft_sbuf_puts(out, buf[0] ? buf : "null");
}

void weft_est_si(char *buf, size_t len, double v, const char *unit)
{
	static const char *const prefix[] = { "f", "p", "n", "u", "m", "", "k", "M", "G", "T" };
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0 %s", unit);
		return;
	}
	int e3 = (int)floor(log10(fabs(v)) / 3);
	if (e3 < -5)
		e3 = -5;
	if (e3 > 4)
		e3 = 4;
	double m = v / pow(10, 3 * e3);
	/* rounding to 4 digits may carry into the next prefix: 999.96 -> 1000 */
	if (fabs(m) >= 999.95 && e3 < 4) {
		e3++;
		m = v / pow(10, 3 * e3);
	}
	snprintf(buf, len, "%.4g %s%s", m, prefix[e3 + 5], unit);
}
