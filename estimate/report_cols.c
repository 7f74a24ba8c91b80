/*
 * report_cols.c - the columns of the LaTeX and Markdown tables
 * (report_cols.h): which a name means, its header and unit, the SI prefix
 * of a column, and cells rounded to significant digits; and the check of a
 * --columns list before a run (report.h).
 */
#include "report_cols.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/suggest.h"
#include "report_fields.h"

/* The default columns, after `config` and the swept keys. */
static const char *const default_cols[] = {
	"cycles", "time_s", "ipc", "energy_total_j", "power_w", "area_mm2", "limiter",
	"speedup", "insts_per_j_ratio", "energy_ratio", "perf_per_area_ratio",
};

struct known {
	const char *key;
	enum weft_est_col_kind kind;
	const char *label, *unit;
};

static const struct known known[] = {
	{ "config", WEFT_COL_TEXT, "config", "" },
	{ "model", WEFT_COL_TEXT, "model", "" },
	{ "limiter", WEFT_COL_TEXT, "limiter", "" },
	{ "cycles", WEFT_COL_COUNT, "cycles", "" },
	{ "time_s", WEFT_COL_SI, "time", "s" },
	{ "thread_insts", WEFT_COL_COUNT, "thread insts", "" },
	{ "ipc", WEFT_COL_NUM, "IPC", "" },
	{ "energy_total_j", WEFT_COL_SI, "energy", "J" },
	{ "power_w", WEFT_COL_SI, "power", "W" },
	{ "area_mm2", WEFT_COL_NUM, "area", "mm2" },
	{ "insts_per_j", WEFT_COL_SI, "efficiency", "insts/J" },
	{ "insts_per_s_per_mm2", WEFT_COL_SI, "perf/area", "insts/s/mm2" },
	{ "speedup", WEFT_COL_RATIO, "speedup", "" },
	{ "insts_per_j_ratio", WEFT_COL_RATIO, "insts/J", "" },
	{ "energy_ratio", WEFT_COL_RATIO, "energy", "" },
	{ "perf_per_area_ratio", WEFT_COL_RATIO, "perf/area", "" },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* Fills col from a name that is a known column or energy_<cat>_j/_share;
 * -1 when it is neither. */
static int known_col(const char *key, struct weft_est_col *col)
{
	memset(col, 0, sizeof(*col));
	col->sweep = -1;
	col->scale = 1;
	snprintf(col->key, sizeof(col->key), "%s", key);
	for (size_t i = 0; i < NKNOWN; i++)
		if (strcmp(known[i].key, key) == 0) {
			col->kind = known[i].kind;
			snprintf(col->label, sizeof(col->label), "%s", known[i].label);
			snprintf(col->unit, sizeof(col->unit), "%s", known[i].unit);
			return 0;
		}
	for (int c = 0; c < WEFT_CAT_COUNT; c++) {
		const char *cat = weft_energy_cat_name((enum weft_energy_cat)c);
		char j[64], share[64];
		snprintf(j, sizeof(j), "energy_%s_j", cat);
		snprintf(share, sizeof(share), "energy_%s_share", cat);
		if (strcmp(key, j) == 0 || strcmp(key, share) == 0) {
			int is_share = strcmp(key, share) == 0;
			col->kind = is_share ? WEFT_COL_SHARE : WEFT_COL_SI;
			snprintf(col->label, sizeof(col->label), "%s energy", cat);
			snprintf(col->unit, sizeof(col->unit), "%s", is_share ? "%" : "J");
			return 0;
		}
	}
	return -1;
}

/* "cpi_<name>_cycles" -> name; -1 when key is not of that form. */
static int cpi_name(const char *key, char *name, size_t len)
{
	size_t n = strlen(key);
	if (n <= 11 || strncmp(key, "cpi_", 4) != 0 || strcmp(key + n - 7, "_cycles") != 0 ||
	    n - 11 >= len)
		return -1;
	snprintf(name, len, "%.*s", (int)(n - 11), key + 4);
	return 0;
}

/* Calls fn on each name of a comma-separated list; stops at a nonzero. */
static int each_name(const char *list, int (*fn)(const char *name, void *user), void *user)
{
	for (const char *p = list;;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char name[160];
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		int rc = fn(name, user);
		if (rc)
			return rc;
		if (!e)
			return 0;
		p = e + 1;
	}
}

struct check {
	const char *const *sweeps;
	uint32_t nsweeps;
	struct weft_error *err;
	char seen[WEFT_EST_MAX_COLS][160];
	uint32_t nseen;
};

static int check_one(const char *name, void *user)
{
	struct check *ck = user;
	struct weft_est_col col;
	char cpi[64];
	if (!name[0])
		return weft_error_set(ck->err, WEFT_ERR_INPUT,
				      "--columns has an empty name (names separated by commas, e.g. "
				      "config,cycles,speedup)");
	for (uint32_t i = 0; i < ck->nseen; i++)
		if (strcmp(ck->seen[i], name) == 0)
			return weft_error_set(ck->err, WEFT_ERR_INPUT, "--columns names `%s` twice", name);
	if (ck->nseen == WEFT_EST_MAX_COLS)
		return weft_error_set(ck->err, WEFT_ERR_INPUT, "--columns names more than %d columns",
				      WEFT_EST_MAX_COLS);
	snprintf(ck->seen[ck->nseen++], sizeof(ck->seen[0]), "%s", name);
	if (known_col(name, &col) == 0 || cpi_name(name, cpi, sizeof(cpi)) == 0)
		return 0;
	for (uint32_t k = 0; k < ck->nsweeps; k++)
		if (strcmp(ck->sweeps[k], name) == 0)
			return 0;
	struct weft_suggest s;
	weft_suggest_init(&s, name);
	for (size_t i = 0; i < NKNOWN; i++)
		weft_suggest_consider(&s, known[i].key);
	char cats[2 * WEFT_CAT_COUNT][64]; /* the words s keeps pointers to */
	for (int c = 0; c < WEFT_CAT_COUNT; c++) {
		snprintf(cats[2 * c], sizeof(cats[0]), "energy_%s_j", weft_energy_cat_name((enum weft_energy_cat)c));
		snprintf(cats[2 * c + 1], sizeof(cats[0]), "energy_%s_share",
			 weft_energy_cat_name((enum weft_energy_cat)c));
		weft_suggest_consider(&s, cats[2 * c]);
		weft_suggest_consider(&s, cats[2 * c + 1]);
	}
	for (uint32_t k = 0; k < ck->nsweeps; k++)
		weft_suggest_consider(&s, ck->sweeps[k]);
	char phrase[300];
	return weft_error_set(ck->err, WEFT_ERR_INPUT,
			      "--columns: unknown column `%s`%s (the CSV columns from cycles to "
			      "perf_per_area_ratio, config, model, a swept key, or cpi_COMPONENT_cycles; "
			      "docs/estimate.md)",
			      name, weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)));
}

int weft_est_columns_check(const char *columns, const char *const *sweep_keys, uint32_t nsweeps,
			   struct weft_error *err)
{
	struct check ck;
	memset(&ck, 0, sizeof(ck));
	ck.sweeps = sweep_keys;
	ck.nsweeps = nsweeps;
	ck.err = err;
	return each_name(columns, check_one, &ck);
}

/* The figure of config c a column reads, NAN when it has none. */
static double col_value(const struct weft_est_config *c, const struct weft_est_col *col)
{
	if (col->cpi[0])
		return weft_est_cpi_of(c->total.cpi, col->cpi);
	struct weft_est_field f[WEFT_EST_MAX_FIELDS];
	uint32_t n = weft_est_figure_fields(&c->total, c->area_mm2, f);
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(f[i].key, col->key) == 0)
			return f[i].kind == WEFT_FIELD_U64 ? (double)f[i].u64 : f[i].num;
	return NAN;
}

struct build {
	const struct weft_est_report *r;
	struct weft_est_col *cols;
	uint32_t n;
	struct weft_error *err;
};

static int add_col(const char *name, void *user)
{
	struct build *b = user;
	const struct weft_est_report *r = b->r;
	if (b->n == WEFT_EST_MAX_COLS)
		return weft_error_set(b->err, WEFT_ERR_INPUT, "more than %d columns", WEFT_EST_MAX_COLS);
	struct weft_est_col *col = &b->cols[b->n];
	if (known_col(name, col) < 0) {
		memset(col, 0, sizeof(*col));
		col->sweep = -1;
		col->scale = 1;
		snprintf(col->key, sizeof(col->key), "%s", name);
		for (uint32_t k = 0; k < r->nsweeps; k++)
			if (strcmp(r->sweep_keys[k], name) == 0)
				col->sweep = (int)k;
		if (col->sweep >= 0) {
			col->kind = WEFT_COL_TEXT;
			snprintf(col->label, sizeof(col->label), "%s", name);
		} else if (cpi_name(name, col->cpi, sizeof(col->cpi)) == 0) {
			int found = 0;
			struct weft_suggest s;
			weft_suggest_init(&s, col->cpi);
			for (uint32_t i = 0; i < r->nconfigs && !found; i++)
				for (uint32_t k = 0; r->configs[i].total.cpi && k < r->configs[i].total.cpi->n; k++) {
					const char *cn = r->configs[i].total.cpi->item[k].name;
					found |= strcmp(cn, col->cpi) == 0;
					weft_suggest_consider(&s, cn);
				}
			if (!found) {
				char phrase[300];
				return weft_error_set(b->err, WEFT_ERR_INPUT,
						      "--columns %s: no config's CPI stack has a component "
						      "`%s`%s",
						      name, col->cpi,
						      weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)));
			}
			col->kind = WEFT_COL_COUNT;
			snprintf(col->label, sizeof(col->label), "%s cycles", col->cpi);
		} else {
			const char *keys[WEFT_EST_MAX_SWEEPS];
			for (uint32_t k = 0; k < r->nsweeps; k++)
				keys[k] = r->sweep_keys[k];
			return weft_est_columns_check(name, keys, r->nsweeps, b->err);
		}
	}
	/* one SI prefix (or the % of a share) for the whole column */
	if (col->kind == WEFT_COL_SI) {
		static const char *const p[] = { "p", "n", "u", "m", "", "k", "M", "G", "T", "P" };
		double mx = 0;
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			double v = fabs(col_value(&r->configs[i], col));
			if (isfinite(v) && v > mx)
				mx = v;
		}
		int e3 = mx > 0 ? (int)floor(log10(mx) / 3) : 0;
		e3 = e3 < -4 ? -4 : e3 > 5 ? 5 : e3;
		col->scale = pow(10, -3 * e3);
		snprintf(col->prefix, sizeof(col->prefix), "%s", p[e3 + 4]);
	} else if (col->kind == WEFT_COL_SHARE) {
		col->scale = 100;
	}
	b->n++;
	return 0;
}

int weft_est_cols(const struct weft_est_report *r, const struct weft_est_table_opts *o,
		  struct weft_est_col *cols, uint32_t *n, struct weft_error *err)
{
	struct build b = { r, cols, 0, err };
	*n = 0;
	int rc = 0;
	if (o && o->columns) {
		rc = each_name(o->columns, add_col, &b);
	} else {
		rc = add_col("config", &b);
		for (uint32_t k = 0; rc == 0 && k < r->nsweeps; k++)
			rc = add_col(r->sweep_keys[k], &b);
		for (size_t i = 0; rc == 0 && i < sizeof(default_cols) / sizeof(default_cols[0]); i++)
			rc = add_col(default_cols[i], &b);
	}
	*n = b.n;
	return rc;
}

void weft_est_col_header(const struct weft_est_report *r, const struct weft_est_col *col,
			 enum weft_est_col_syntax syn, char *label, size_t llen, char *unit,
			 size_t ulen)
{
	unit[0] = 0;
	if (col->kind == WEFT_COL_RATIO) {
		snprintf(label, llen, "%s vs %s", col->label, r->configs[r->baseline].name);
		return;
	}
	snprintf(label, llen, "%s", col->label);
	if (!col->unit[0] && !col->prefix[0])
		return;
	const char *pre = col->prefix;
	if (strcmp(pre, "u") == 0)
		pre = syn == WEFT_COL_LATEX ? "$\\mu$" : "\xc2\xb5";
	const char *u = col->unit;
	char ubuf[48];
	if (strstr(u, "mm2")) { /* mm2, insts/s/mm2 */
		snprintf(ubuf, sizeof(ubuf), "%.*smm%s", (int)(strstr(u, "mm2") - u), u,
			 syn == WEFT_COL_LATEX ? "\\textsuperscript{2}" : "\xc2\xb2");
		u = ubuf;
	} else if (strcmp(u, "%") == 0 && syn == WEFT_COL_LATEX) {
		u = "\\%";
	}
	snprintf(unit, ulen, "%s%s", pre, u);
}

/* s into out with control characters as '?' and "--" as "- -". */
static void comment_text(struct weft_sbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		weft_sbuf_printf(out, "%c", *p < 0x20 || *p == 0x7f ? '?' : *p);
		if (*p == '-' && p[1] == '-')
			weft_sbuf_puts(out, " ");
	}
}

void weft_est_col_provenance(const struct weft_est_report *r, struct weft_sbuf *out,
			     const char *open, const char *close)
{
	struct weft_sbuf line;
	weft_sbuf_init(&line);
	weft_sbuf_printf(&line, "weft-estimate %s: trace %s (%s:%016" PRIx64 ", %" PRIu64 " bytes)",
			 r->version, r->trace_path, WEFT_EST_TRACE_HASH, r->trace_hash, r->trace_bytes);
	if (r->workload[0])
		weft_sbuf_printf(&line, ", workload %s, size %s", r->workload, r->size);
	weft_sbuf_printf(&line, ", %u launch%s, sampling: %s", r->nlaunches, r->nlaunches == 1 ? "" : "es",
			 r->sampling);
	weft_sbuf_puts(out, open);
	comment_text(out, weft_sbuf_str(&line));
	weft_sbuf_printf(out, "%s\n", close);
	if (r->has_ci) {
		char d[256];
		weft_est_ci_describe(r, d, sizeof(d));
		weft_sbuf_puts(out, open);
		comment_text(out, d);
		weft_sbuf_printf(out, ", shown as +- half-width%s\n", close);
	}
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		line.len = 0;
		if (line.data)
			line.data[0] = 0;
		weft_sbuf_printf(&line, "config %s%s: %s, model %s, fnv1a64:%016" PRIx64 ", overrides %s",
				 c->name, i == r->baseline ? " (baseline)" : "", c->path, c->model, c->hash,
				 c->overrides[0] ? c->overrides : "none");
		weft_sbuf_puts(out, open);
		comment_text(out, weft_sbuf_str(&line));
		weft_sbuf_printf(out, "%s\n", close);
	}
	if (line.failed)
		out->failed = 1;
	weft_sbuf_free(&line);
}

void weft_est_sig(double v, int digits, char *buf, size_t len)
{
	if (!isfinite(v)) {
		buf[0] = 0;
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	int e = (int)floor(log10(fabs(v)));
	double q = pow(10, e - digits + 1);
	double rv = round(v / q) * q;
	if (rv != 0)
		e = (int)floor(log10(fabs(rv))); /* 9.996 -> 10.0 */
	int decimals = digits - 1 - e;
	if (decimals < 0)
		snprintf(buf, len, "%.0f", rv);
	else
		snprintf(buf, len, "%.*f", decimals > 17 ? 17 : decimals, rv);
}

int weft_est_col_cell(const struct weft_est_report *r, const struct weft_est_config *c,
		      const struct weft_est_col *col, int digits, char *buf, size_t len)
{
	if (col->kind == WEFT_COL_TEXT) {
		const char *s = col->sweep >= 0 ? c->point[col->sweep]
				: strcmp(col->key, "config") == 0 ? c->name
				: strcmp(col->key, "model") == 0 ? c->model
								 : c->total.limiter;
		snprintf(buf, len, "%s", s);
		return 0;
	}
	double v = col_value(c, col);
	if (col->kind == WEFT_COL_COUNT) {
		if (isfinite(v))
			snprintf(buf, len, "%.0f", v);
		else
			buf[0] = 0;
	} else {
		weft_est_sig(v * col->scale, digits, buf, len);
	}
	/* a random sample: the figure's interval as +- half-width, in the
	 * column's unit and digits */
	for (int m = 0; r->has_ci && m < WEFT_CI_COUNT; m++) {
		const struct weft_est_interval *iv = &c->ci[m];
		if (strcmp(col->key, weft_est_ci_keys[m]) != 0 || !isfinite(iv->half) || iv->half == 0)
			continue;
		char h[64];
		size_t used = strlen(buf);
		if (col->kind == WEFT_COL_COUNT)
			snprintf(h, sizeof(h), "%.0f", iv->half);
		else
			weft_est_sig(iv->half * col->scale, digits, h, sizeof(h));
		snprintf(buf + used, len - used, " \u00b1 %s", h);
	}
	return 1;
}
