/*
 * validate_claims.c - loading and checking claims files (validate.h,
 * data/validation/README.md). Every field is checked on its own (syntax,
 * length, UTF-8 text), then against the others (a trend needs a sweep, a
 * speedup needs a baseline, ...), then against weft: the workloads must be
 * bundled, the kernels must be their entry points, and every configuration
 * must load with its overrides and every sweep point. An error names
 * file:line:column and the column, says what is wrong and what to write.
 */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "models/config.h"
#include "sweep.h"
#include "validate_impl.h"

const char *const weft_val_columns[WEFT_VAL_NCOLUMNS] = {
	"id",     "publication", "where",     "workloads", "baseline",  "config", "sweep",
	"metric", "aggregate",   "node_nm",   "published", "band",      "mapping", "note",
};

enum col {
	C_ID = 0, C_PUB, C_WHERE, C_WORKLOADS, C_BASELINE, C_CONFIG, C_SWEEP, C_METRIC,
	C_AGG, C_NODE, C_PUBLISHED, C_BAND, C_MAPPING, C_NOTE,
};

/* What one row's checks need. */
struct rowctx {
	const char *path;
	const char *configs_dir;
	const struct weft_csv_record *rec;
	const int *map;            /* column -> field index */
	struct weft_error *err;
};

static const struct weft_csv_field *fld(const struct rowctx *x, int col)
{
	return &x->rec->f[x->map[col]];
}

static int ferr(const struct rowctx *x, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int ferr(const struct rowctx *x, int col, const char *fmt, ...)
{
	char msg[WEFT_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	const struct weft_csv_field *f = fld(x, col);
	return weft_error_at(x->err, WEFT_ERR_INPUT, x->path, f->line, f->col, "column `%s`: %s",
			     weft_val_columns[col], msg);
}

/* ---- text ---------------------------------------------------------------- */

/* 0 when s is valid UTF-8 without control characters; else the byte
 * offset of the first bad byte + 1, negated for a control character. */
static long text_fault(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		if (c < 0x20 || c == 0x7f)
			return -(long)(p - (const unsigned char *)s) - 1;
		uint32_t need = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
				: (c & 0xf8) == 0xf0 ? 3 : 9;
		if (need == 9 || (need == 1 && c < 0xc2) || (need == 3 && c > 0xf4))
			return (long)(p - (const unsigned char *)s) + 1;
		for (uint32_t k = 1; k <= need; k++)
			if ((p[k] & 0xc0) != 0x80)
				return (long)(p - (const unsigned char *)s) + 1;
		p += need + 1;
	}
	return 0;
}

/* Checks a free-text field and copies it (trimmed) into out. */
static int text(const struct rowctx *x, int col, int required, char *out, size_t len)
{
	const struct weft_csv_field *f = fld(x, col);
	long bad = text_fault(f->s);
	if (bad < 0)
		return ferr(x, col, "a control character (byte %ld of the field); write plain text on "
				    "one line",
			    -bad);
	if (bad > 0)
		return ferr(x, col, "not UTF-8 (byte %ld of the field); save the file as UTF-8", bad);
	const char *s = f->s;
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	if (required && n == 0)
		return ferr(x, col, "empty; it is required");
	if (n >= len)
		return ferr(x, col, "%zu bytes, longer than the %zu allowed; shorten it", n, len - 1);
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

static int is_dash(const char *s)
{
	return strcmp(s, "-") == 0 || s[0] == '\0';
}

/* Splits s at spaces into at most max words of at most wlen bytes. */
static int words(const char *s, char (*w)[128], uint32_t max, uint32_t *n)
{
	*n = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		size_t k = strcspn(s, " ");
		if (*n == max || k >= 128)
			return -1;
		memcpy(w[*n], s, k);
		w[*n][k] = '\0';
		(*n)++;
		s += k;
	}
	return 0;
}

/* ---- one column each ------------------------------------------------------- */

static int parse_id(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc = text(x, C_ID, 1, c->id, sizeof(c->id));
	if (rc < 0)
		return rc;
	for (const char *p = c->id; *p; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (*p >= '0' && *p <= '9') || (p != c->id && (*p == '-' || *p == '_' || *p == '.'));
		if (!ok)
			return ferr(x, C_ID,
				    "`%s`: an id is letters, digits, '-', '_' and '.', starting with a "
				    "letter or digit (e.g. sgmf1-speedup-avg)",
				    c->id);
	}
	return 0;
}

/* Whether the PTX text has an entry point named kernel. */
static int has_entry(const char *ptx, const char *kernel)
{
	size_t k = strlen(kernel);
	for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
		const char *q = p + 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, kernel, k) == 0 &&
		    (q[k] == '(' || q[k] == ' ' || q[k] == '\t' || q[k] == '\n' || q[k] == '\r'))
			return 1;
	}
	return 0;
}

static void entries(const char *ptx, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
		const char *q = p + 7;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t k = strcspn(q, "( \t\r\n");
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s%.*s", used ? ", " : "", (int)k, q);
	}
}

static int parse_workloads(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc = text(x, C_WORKLOADS, 0, c->workloads, sizeof(c->workloads));
	if (rc < 0)
		return rc;
	if (is_dash(c->workloads))
		return 0;
	char w[WEFT_VAL_MAX_ITEMS + 1][128];
	uint32_t n;
	if (words(c->workloads, w, WEFT_VAL_MAX_ITEMS + 1, &n) < 0 || n > WEFT_VAL_MAX_ITEMS)
		return ferr(x, C_WORKLOADS, "more than %d kernels, or one longer than 127 bytes",
			    WEFT_VAL_MAX_ITEMS);
	for (uint32_t i = 0; i < n; i++) {
		struct weft_val_item *it = &c->items[i];
		char *colon = strchr(w[i], ':');
		if (colon)
			*colon = '\0';
		if (strlen(w[i]) >= sizeof(it->workload) ||
		    (colon && (strlen(colon + 1) >= sizeof(it->kernel) || !colon[1])))
			return ferr(x, C_WORKLOADS,
				    "`%s%s%s`: write WORKLOAD or WORKLOAD:KERNEL (e.g. gaussian:fan1)",
				    w[i], colon ? ":" : "", colon ? colon + 1 : "");
		const struct weft_workload *wl = weft_workload_find(w[i]);
		if (!wl) {
			char hint[160];
			return ferr(x, C_WORKLOADS,
				    "no bundled workload `%s`; `weft-trace list` shows them%s", w[i],
				    weft_workload_suggest(w[i], hint, sizeof(hint)));
		}
		snprintf(it->workload, sizeof(it->workload), "%s", w[i]);
		it->kernel[0] = '\0';
		if (colon) {
			if (!has_entry(wl->ptx_text, colon + 1)) {
				char list[512];
				entries(wl->ptx_text, list, sizeof(list));
				return ferr(x, C_WORKLOADS, "workload %s has no kernel `%s`; its kernels: %s",
					    w[i], colon + 1, list);
			}
			snprintf(it->kernel, sizeof(it->kernel), "%s", colon + 1);
		}
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(c->items[j].workload, it->workload) == 0 &&
			    strcmp(c->items[j].kernel, it->kernel) == 0)
				return ferr(x, C_WORKLOADS, "`%s%s%s` is listed twice", it->workload,
					    it->kernel[0] ? ":" : "", it->kernel);
	}
	c->nitems = n;
	return 0;
}

/* "sec.key=value": a section, a key and a value, no spaces, no CONFIG: */
static int check_assign(const char *s)
{
	const char *eq = strchr(s, '=');
	const char *dot = strchr(s, '.');
	if (!eq || !dot || dot > eq || dot == s || dot + 1 == eq || !eq[1])
		return -1;
	if (memchr(s, ':', (size_t)(eq - s)))
		return -1;
	return 0;
}

static int resolve(const struct rowctx *x, const char *file, char *out, size_t len)
{
	if (file[0] == '/') {
		snprintf(out, len, "%s", file);
	} else if (strncmp(file, "./", 2) == 0 || strncmp(file, "../", 3) == 0) {
		const char *slash = strrchr(x->path, '/');
		if (slash)
			snprintf(out, len, "%.*s/%s", (int)(slash - x->path), x->path, file);
		else
			snprintf(out, len, "%s", file);
	} else {
		char dir[1024];
		if (x->configs_dir) {
			snprintf(dir, sizeof(dir), "%s", x->configs_dir);
		} else {
			struct weft_error e;
			if (weft_val_configs_dir(dir, sizeof(dir), &e) < 0)
				return weft_error_set(x->err, e.code, "%s", e.message);
		}
		if ((size_t)snprintf(out, len, "%s/%s", dir, file) >= len)
			return weft_error_set(x->err, WEFT_ERR_INPUT, "config path too long: %s/%s", dir,
					      file);
	}
	return 0;
}

static int parse_setup(const struct rowctx *x, int col, struct weft_val_setup *s)
{
	memset(s, 0, sizeof(*s));
	int rc = text(x, col, col == C_CONFIG, s->text, sizeof(s->text));
	if (rc < 0)
		return rc;
	if (is_dash(s->text))
		return 0;
	char w[WEFT_VAL_MAX_SETS + 2][128];
	uint32_t n;
	if (words(s->text, w, WEFT_VAL_MAX_SETS + 2, &n) < 0 || n > WEFT_VAL_MAX_SETS + 1)
		return ferr(x, col, "write FILE.ini then at most %d SEC.KEY=VALUE overrides of up to "
				    "127 bytes each (e.g. sgmf-core.ini fabric.token_buffer=16)",
			    WEFT_VAL_MAX_SETS);
	if (strchr(w[0], '='))
		return ferr(x, col, "`%s` comes before the config file; write FILE.ini first (e.g. "
				    "sgmf-core.ini fabric.token_buffer=16)",
			    w[0]);
	snprintf(s->file, sizeof(s->file), "%s", w[0]);
	rc = resolve(x, s->file, s->path, sizeof(s->path));
	if (rc < 0)
		return rc;
	weft_est_config_name(s->file, s->name, sizeof(s->name));
	for (uint32_t i = 1; i < n; i++) {
		if (check_assign(w[i]) < 0)
			return ferr(x, col, "`%s` is not SEC.KEY=VALUE (e.g. fabric.token_buffer=16)",
				    w[i]);
		for (uint32_t j = 1; j < i; j++) {
			size_t k = (size_t)(strchr(w[j], '=') - w[j]);
			if (strncmp(w[j], w[i], k + 1) == 0)
				return ferr(x, col, "`%.*s` is set twice", (int)k, w[j]);
		}
		snprintf(s->sets[s->nsets++], sizeof(s->sets[0]), "%s", w[i]);
	}
	s->present = 1;
	return 0;
}

static int parse_sweep(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc = text(x, C_SWEEP, 0, c->sweep, sizeof(c->sweep));
	if (rc < 0)
		return rc;
	if (is_dash(c->sweep)) {
		c->sweep[0] = '\0';
		return 0;
	}
	struct weft_est_sweep sw;
	struct weft_error e;
	if (weft_est_parse_sweep(c->sweep, &sw, &e) < 0)
		return ferr(x, C_SWEEP, "%s", e.message);
	if (sw.target[0]) {
		weft_est_sweep_free(&sw);
		return ferr(x, C_SWEEP, "`%s`: a claim's sweep applies to its config; write SEC.KEY=LIST "
					"without CONFIG: (e.g. fabric.token_buffer=1,2,4,8,16,32)",
			    c->sweep);
	}
	if (sw.nvalues < 2 || sw.nvalues > WEFT_VAL_MAX_POINTS) {
		uint32_t nv = sw.nvalues;
		weft_est_sweep_free(&sw);
		return ferr(x, C_SWEEP, "%u value%s; a trend needs 2 to %d", nv, nv == 1 ? "" : "s",
			    WEFT_VAL_MAX_POINTS);
	}
	snprintf(c->sweep_key, sizeof(c->sweep_key), "%s.%s", sw.section, sw.key);
	for (uint32_t i = 0; i < sw.nvalues; i++)
		snprintf(c->sweep_values[i], sizeof(c->sweep_values[i]), "%s", sw.values[i]);
	c->nsweep = sw.nvalues;
	weft_est_sweep_free(&sw);
	return 0;
}

static int parse_metric(const struct rowctx *x, struct weft_val_claim *c)
{
	char m[64];
	int rc = text(x, C_METRIC, 1, m, sizeof(m));
	if (rc < 0)
		return rc;
	static const char hint[] =
		"one of speedup, ipj_ratio, energy_share:CATEGORY (e.g. energy_share:comp), area, "
		"area_ratio";
	if (strncmp(m, "energy_share:", 13) == 0) {
		int cat = weft_energy_cat_parse(m + 13);
		if (cat < 0) {
			char list[256] = "";
			for (int i = 0; i < WEFT_CAT_COUNT; i++) {
				size_t u = strlen(list);
				snprintf(list + u, sizeof(list) - u, "%s%s", i ? " " : "",
					 weft_energy_cat_name((enum weft_energy_cat)i));
			}
			return ferr(x, C_METRIC, "`%s`: no energy category `%s`; the categories: %s", m,
				    m + 13, list);
		}
		c->metric = WEFT_VAL_ENERGY_SHARE;
		c->category = cat;
		return 0;
	}
	for (int i = WEFT_VAL_SPEEDUP; i <= WEFT_VAL_AREA_RATIO; i++)
		if (i != WEFT_VAL_ENERGY_SHARE && strcmp(m, weft_val_metric_name((enum weft_val_metric)i)) == 0) {
			c->metric = (enum weft_val_metric)i;
			return 0;
		}
	return ferr(x, C_METRIC, "`%s` is not a metric; write %s", m, hint);
}

static int parse_agg(const struct rowctx *x, struct weft_val_claim *c)
{
	char a[64];
	int rc = text(x, C_AGG, 0, a, sizeof(a));
	if (rc < 0)
		return rc;
	if (is_dash(a)) {
		c->agg = WEFT_VAL_AGG_NONE;
		return 0;
	}
	for (int i = WEFT_VAL_AGG_KERNEL; i <= WEFT_VAL_AGG_TREND; i++)
		if (strcmp(a, weft_val_agg_name((enum weft_val_agg)i)) == 0) {
			c->agg = (enum weft_val_agg)i;
			return 0;
		}
	return ferr(x, C_AGG, "`%s` is not an aggregate; write kernel, mean, geomean, min, max, "
				"range, trend, or - for area claims",
		    a);
}

static int parse_node(const struct rowctx *x, struct weft_val_claim *c)
{
	char s[64];
	int rc = text(x, C_NODE, 0, s, sizeof(s));
	if (rc < 0)
		return rc;
	c->node_nm = 0;
	if (is_dash(s))
		return 0;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < 7 || v > 180)
		return ferr(x, C_NODE, "`%s`: write the published technology node in nm, 7 to 180 "
				       "(e.g. 65), or - when the claim is not about area",
			    s);
	c->node_nm = v;
	return 0;
}

static int parse_pub_band(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc = text(x, C_PUBLISHED, 1, c->published, sizeof(c->published));
	if (rc < 0)
		return rc;
	const char *why;
	if (weft_val_parse_published(c->published, &c->pub, c->pub_v, &why) < 0)
		return ferr(x, C_PUBLISHED, "`%s`: %s", c->published, why);
	rc = text(x, C_BAND, 1, c->band_text, sizeof(c->band_text));
	if (rc < 0)
		return rc;
	if (weft_val_parse_band(c->band_text, &c->band, &c->factor, &why) < 0)
		return ferr(x, C_BAND, "`%s`: %s", c->band_text, why);
	return 0;
}

/* ---- the columns against each other ---------------------------------------- */

static int is_trend(enum weft_val_pub p)
{
	return p >= WEFT_VAL_PUB_INCREASING;
}

static int cross_check(const struct rowctx *x, struct weft_val_claim *c)
{
	int area = c->metric == WEFT_VAL_AREA || c->metric == WEFT_VAL_AREA_RATIO;
	int needs_base = c->metric == WEFT_VAL_SPEEDUP || c->metric == WEFT_VAL_IPJ_RATIO ||
			 c->metric == WEFT_VAL_AREA_RATIO;
	const char *mname = weft_val_metric_name(c->metric);
	if (!c->config.present)
		return ferr(x, C_CONFIG, "every claim needs a config (e.g. sgmf-core.ini)");
	if (needs_base && !c->baseline.present)
		return ferr(x, C_BASELINE, "%s compares two configs; name the baseline (e.g. "
					   "fermi-sm.ini)",
			    mname);
	if (!needs_base && c->baseline.present)
		return ferr(x, C_BASELINE, "%s is about one config; write - here", mname);
	if (area) {
		if (c->nitems)
			return ferr(x, C_WORKLOADS, "an area claim runs no workload; write -");
		if (c->agg != WEFT_VAL_AGG_NONE)
			return ferr(x, C_AGG, "an area claim has no aggregate; write -");
		if (c->node_nm == 0)
			return ferr(x, C_NODE, "an area claim needs the published node in nm (e.g. 65)");
		if (c->sweep[0])
			return ferr(x, C_SWEEP, "an area claim has no sweep; write -");
	} else {
		if (!c->nitems)
			return ferr(x, C_WORKLOADS, "%s needs kernels: bundled workloads, or "
						    "WORKLOAD:KERNEL (e.g. cfd nn gaussian:fan1)",
				    mname);
		if (c->agg == WEFT_VAL_AGG_NONE)
			return ferr(x, C_AGG, "%s needs an aggregate over its kernels: kernel, mean, "
					      "geomean, min, max, range or trend",
				    mname);
		if (c->node_nm != 0)
			return ferr(x, C_NODE, "only area claims name a node; write -");
		if (c->agg == WEFT_VAL_AGG_KERNEL && c->nitems != 1)
			return ferr(x, C_AGG, "`kernel` is about one kernel and %u are listed; use "
					      "mean, min, max, ... or list one",
				    c->nitems);
	}
	if (c->agg == WEFT_VAL_AGG_TREND && !c->sweep[0])
		return ferr(x, C_SWEEP, "a trend needs a sweep of the config (e.g. "
					"fabric.token_buffer=1,2,4,8,16,32)");
	if (c->agg != WEFT_VAL_AGG_TREND && c->sweep[0])
		return ferr(x, C_SWEEP, "only a trend sweeps; write - (or aggregate trend)");
	if ((c->agg == WEFT_VAL_AGG_TREND) != is_trend(c->pub))
		return ferr(x, C_PUBLISHED, "`%s`: %s", c->published,
			    c->agg == WEFT_VAL_AGG_TREND
				    ? "a trend is published as increasing, non-decreasing, "
				      "decreasing or non-increasing"
				    : "increasing/decreasing needs aggregate trend and a sweep");
	if ((c->agg == WEFT_VAL_AGG_RANGE) != (c->pub == WEFT_VAL_PUB_RANGE))
		return ferr(x, C_PUBLISHED, "`%s`: %s", c->published,
			    c->agg == WEFT_VAL_AGG_RANGE ? "a range is published as LOW-HIGH (e.g. "
							   "1.2-5.7)"
							 : "LOW-HIGH needs aggregate range");
	int directional = c->pub == WEFT_VAL_PUB_BELOW || c->pub == WEFT_VAL_PUB_ABOVE ||
			  is_trend(c->pub);
	if (c->band == WEFT_VAL_BAND_DIRECTION && !directional)
		return ferr(x, C_BAND, "band direction needs a published direction (<1, >1, "
				       "increasing, ...); for a number use a factor (e.g. x1.5)");
	if (c->band == WEFT_VAL_BAND_FACTOR && directional)
		return ferr(x, C_BAND, "`%s` is published as a direction; write direction",
			    c->published);
	return 0;
}

/* ---- the claim against weft: configs and sweep points load ------------------ */

static int load_setup(const struct rowctx *x, int col, const struct weft_val_setup *s,
		      const char *extra)
{
	const char *ov[WEFT_VAL_MAX_SETS + 1];
	for (uint32_t i = 0; i < s->nsets; i++)
		ov[i] = s->sets[i];
	uint32_t n = s->nsets;
	if (extra)
		ov[n++] = extra;
	struct weft_config cfg;
	struct weft_error e;
	weft_error_clear(&e);
	int rc = weft_config_load(s->path, ov, n, &cfg, &e);
	if (rc < 0) {
		char buf[WEFT_ERROR_MSG_MAX + 300];
		weft_error_format(&e, buf, sizeof(buf));
		if (e.code == WEFT_ERR_NOMEM)
			return weft_error_set(x->err, e.code, "%s", buf);
		/* the config loader words overrides as the CLIs' --set */
		const char *msg = strncmp(buf, "--set ", 6) == 0 ? buf + 6 : buf;
		const char *what = msg != buf ? "override " : "";
		if (extra)
			return ferr(x, col, "sweep point %s", msg);
		return ferr(x, col, "%s%s", what, msg);
	}
	weft_config_free(&cfg);
	return 0;
}

static int check_against_weft(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc = 0;
	if (c->baseline.present)
		rc = load_setup(x, C_BASELINE, &c->baseline, NULL);
	if (rc == 0)
		rc = load_setup(x, C_CONFIG, &c->config, NULL);
	if (rc < 0 || !c->sweep[0])
		return rc;
	for (uint32_t i = 0; i < c->config.nsets; i++) {
		size_t k = strlen(c->sweep_key);
		if (strncmp(c->config.sets[i], c->sweep_key, k) == 0 && c->config.sets[i][k] == '=')
			return ferr(x, C_SWEEP, "%s is both set in column config and swept; drop one",
				    c->sweep_key);
	}
	for (uint32_t i = 0; i < c->nsweep && rc == 0; i++) {
		char a[200];
		snprintf(a, sizeof(a), "%s=%s", c->sweep_key, c->sweep_values[i]);
		rc = load_setup(x, C_SWEEP, &c->config, a);
	}
	return rc;
}

/* ---- rows and files ---------------------------------------------------------- */

static int parse_row(const struct rowctx *x, struct weft_val_claim *c)
{
	int rc;
	if ((rc = parse_id(x, c)) < 0 || (rc = text(x, C_PUB, 1, c->publication, sizeof(c->publication))) < 0 ||
	    (rc = text(x, C_WHERE, 1, c->where, sizeof(c->where))) < 0 ||
	    (rc = parse_workloads(x, c)) < 0 || (rc = parse_setup(x, C_BASELINE, &c->baseline)) < 0 ||
	    (rc = parse_setup(x, C_CONFIG, &c->config)) < 0 || (rc = parse_sweep(x, c)) < 0 ||
	    (rc = parse_metric(x, c)) < 0 || (rc = parse_agg(x, c)) < 0 ||
	    (rc = parse_node(x, c)) < 0 || (rc = parse_pub_band(x, c)) < 0 ||
	    (rc = text(x, C_MAPPING, 0, c->mapping, sizeof(c->mapping))) < 0 ||
	    (rc = text(x, C_NOTE, 0, c->note, sizeof(c->note))) < 0)
		return rc;
	if ((rc = cross_check(x, c)) < 0)
		return rc;
	return check_against_weft(x, c);
}

static int read_header(const char *path, const struct weft_csv_record *h, int *map,
		       struct weft_error *err)
{
	for (int i = 0; i < WEFT_VAL_NCOLUMNS; i++)
		map[i] = -1;
	for (uint32_t j = 0; j < h->n; j++) {
		const struct weft_csv_field *f = &h->f[j];
		const char *s = f->s;
		while (*s == ' ')
			s++;
		size_t n = strlen(s);
		while (n && s[n - 1] == ' ')
			n--;
		int i = 0;
		while (i < WEFT_VAL_NCOLUMNS &&
		       !(strlen(weft_val_columns[i]) == n && strncmp(weft_val_columns[i], s, n) == 0))
			i++;
		if (i == WEFT_VAL_NCOLUMNS) {
			char list[512] = "";
			for (int k = 0; k < WEFT_VAL_NCOLUMNS; k++) {
				size_t u = strlen(list);
				snprintf(list + u, sizeof(list) - u, "%s%s", k ? "," : "",
					 weft_val_columns[k]);
			}
			return weft_error_at(err, WEFT_ERR_INPUT, path, f->line, f->col,
					     "unknown column `%.*s` in the header; the columns are %s "
					     "(data/validation/README.md)",
					     (int)(n > 64 ? 64 : n), s, list);
		}
		if (map[i] >= 0)
			return weft_error_at(err, WEFT_ERR_INPUT, path, f->line, f->col,
					     "column `%s` appears twice in the header", weft_val_columns[i]);
		map[i] = (int)j;
	}
	for (int i = 0; i < WEFT_VAL_NCOLUMNS; i++)
		if (map[i] < 0)
			return weft_error_at(err, WEFT_ERR_INPUT, path, h->line, 1,
					     "the header has no column `%s`; every column of "
					     "data/validation/README.md is required",
					     weft_val_columns[i]);
	return 0;
}

static int push(struct weft_val_claims *out, uint32_t *cap, const struct weft_val_claim *c)
{
	if (out->n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 16;
		struct weft_val_claim *nv = realloc(out->v, (size_t)nc * sizeof(*nv));
		if (!nv)
			return -1;
		out->v = nv;
		*cap = nc;
	}
	out->v[out->n++] = *c;
	return 0;
}

int weft_val_claims_parse(const char *text, size_t len, const char *path, const char *configs_dir,
			  struct weft_val_claims *out, struct weft_error *err)
{
	/* a UTF-8 byte-order mark (spreadsheets write one) is not part of the header */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	struct weft_csv_reader csv;
	weft_csv_reader_init(&csv, path, "claims file", text, len);
	struct weft_csv_record rec;
	int map[WEFT_VAL_NCOLUMNS];
	uint32_t cap = out->n, first = out->n, nfields = 0;
	int rc = weft_csv_next(&csv, &rec, err);
	if (rc == 0)
		rc = weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				   "no header row; a claims file starts with the column names "
				   "(data/validation/README.md)");
	if (rc > 0) {
		nfields = rec.n;
		rc = read_header(path, &rec, map, err);
	}
	weft_csv_record_free(&rec);
	struct weft_val_claim *c = rc < 0 ? NULL : malloc(sizeof(*c));
	if (rc >= 0 && !c)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	while (rc >= 0) {
		rc = weft_csv_next(&csv, &rec, err);
		if (rc <= 0) {
			weft_csv_record_free(&rec);
			break;
		}
		if (rec.n != nfields) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, path, rec.line, 1,
					   "%u fields, the header has %u; quote fields that contain "
					   "commas",
					   rec.n, nfields);
		} else if (out->n >= WEFT_VAL_MAX_CLAIMS) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, path, rec.line, 1,
					   "more than %d claims; split the run", WEFT_VAL_MAX_CLAIMS);
		} else {
			memset(c, 0, sizeof(*c));
			struct rowctx x = { path, configs_dir, &rec, map, err };
			rc = parse_row(&x, c);
			snprintf(c->file, sizeof(c->file), "%s", path);
			c->line = rec.line;
			for (uint32_t i = 0; rc >= 0 && i < out->n; i++)
				if (strcmp(out->v[i].id, c->id) == 0)
					rc = weft_error_at(err, WEFT_ERR_INPUT, path, rec.line,
							   rec.f[map[C_ID]].col,
							   "column `id`: `%s` is already the id of the "
							   "claim at %s:%u; ids must be unique",
							   c->id, out->v[i].file, out->v[i].line);
			if (rc >= 0 && push(out, &cap, c) < 0)
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
		}
		weft_csv_record_free(&rec);
	}
	free(c);
	if (rc >= 0 && out->n == first)
		rc = weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				   "no claims under the header; add one row per claim "
				   "(data/validation/README.md)");
	if (rc < 0) {
		/* leave out as it was */
		out->n = first;
		if (first == 0) {
			free(out->v);
			out->v = NULL;
		}
		return rc;
	}
	return 0;
}

int weft_val_claims_load(const char *path, const char *configs_dir, struct weft_val_claims *out,
			 struct weft_error *err)
{
	char *text;
	size_t len;
	int st = weft_file_read(path, &text, &len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot open claims file %s: %s (the bundled claims are "
				      "data/validation/claims.csv)",
				      path, strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_set(err, WEFT_ERR_IO, "reading claims file %s failed", path);
	int rc = weft_val_claims_parse(text, len, path, configs_dir, out, err);
	free(text);
	return rc;
}

void weft_val_claims_free(struct weft_val_claims *c)
{
	if (!c)
		return;
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

int weft_val_default_claims(char *out, size_t len, struct weft_error *err)
{
	char dir[1024];
	int rc = weft_data_dir(dir, sizeof(dir), err);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(out, len, "%s/validation/claims.csv", dir) >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "data directory path too long: %s", dir);
	return 0;
}

int weft_val_configs_dir(char *out, size_t len, struct weft_error *err)
{
	char dir[1024];
	int rc = weft_data_dir(dir, sizeof(dir), err);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(out, len, "%s/../configs", dir) >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "data directory path too long: %s", dir);
	return 0;
}
