/*
 * plot_read.c - a weft-estimate JSON report read through libjansson into
 * struct weft_plot_report (plot_report.h). Every member's type is checked
 * where it is used, every array and object is counted against its cap
 * before anything is sized by it, strings must fit their fields and hold no
 * NUL, and each message names the file and the member's JSON path
 * ("configs[2].total.cycles"). Only "configs" and each config's "name" and
 * "total" are required; what a plot needs beyond them it asks for by name
 * and says when it is missing (plot_metric.h).
 */
#include "plot_report.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "plot_metric.h"

/* What the reader is at: the file's name and the member's JSON path. */
struct rd {
	const char *file;
	char path[256];
	struct weft_error *err;
	uint32_t figures; /* figure objects read so far (WEFT_PLOT_MAX_FIGURES) */
};

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "something else";
}

static int bad(struct rd *d, const char *what, const json_t *got)
{
	if (got)
		return weft_error_set(d->err, WEFT_ERR_INPUT, "%s: %s: expected %s, got %s", d->file,
				      d->path, what, type_name(got));
	return weft_error_set(d->err, WEFT_ERR_INPUT, "%s: %s: %s", d->file, d->path, what);
}

/* Appends ".key" or "[i]" to the path; returns the old length to restore. */
static size_t push_key(struct rd *d, const char *key)
{
	size_t n = strlen(d->path);
	snprintf(d->path + n, sizeof(d->path) - n, "%s%.60s", n ? "." : "", key);
	return n;
}
static size_t push_idx(struct rd *d, size_t i)
{
	size_t n = strlen(d->path);
	snprintf(d->path + n, sizeof(d->path) - n, "[%zu]", i);
	return n;
}
static void pop(struct rd *d, size_t n)
{
	d->path[n] = 0;
}

/* A string member into out[len]: absent leaves out as it is (0); wrong
 * type, too long or holding a NUL is an error. */
static int get_str(struct rd *d, const json_t *obj, const char *key, char *out, size_t len)
{
	const json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	size_t n = push_key(d, key);
	int rc = 0;
	if (!json_is_string(v)) {
		rc = bad(d, "a string", v);
	} else {
		size_t sl = json_string_length(v);
		if (strlen(json_string_value(v)) != sl)
			rc = bad(d, "a string holding a NUL character", NULL);
		else if (sl >= len)
			rc = weft_error_set(d->err, WEFT_ERR_INPUT,
					    "%s: %s: a string of %zu bytes, longer than the %zu this field holds",
					    d->file, d->path, sl, len - 1);
		else
			memcpy(out, json_string_value(v), sl + 1);
	}
	pop(d, n);
	return rc;
}

/* A number or null (NAN) from v. */
static int num_of(struct rd *d, const json_t *v, double *out)
{
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return bad(d, "a number or null", v);
	*out = json_number_value(v);
	return 0;
}

/* A key of an object into a fixed field. */
static int key_fits(struct rd *d, const char *key, size_t len)
{
	if (strlen(key) >= len)
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s: %s: the key `%.40s...` is longer than %zu characters", d->file,
				      d->path, key, len - 1);
	return 0;
}

/* "cpi_stack": {"name": cycles, ...} */
static int read_cpi(struct rd *d, const json_t *v, struct weft_plot_fig *f)
{
	if (!json_is_object(v))
		return bad(d, "an object of component cycles", v);
	size_t n = json_object_size(v);
	if (n > WEFT_PLOT_MAX_CPI)
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s: %s: %zu components, more than the %u a CPI stack may have",
				      d->file, d->path, n, WEFT_PLOT_MAX_CPI);
	if (n == 0)
		return 0;
	f->cpi = calloc(n, sizeof(*f->cpi));
	if (!f->cpi)
		return weft_error_set(d->err, WEFT_ERR_NOMEM, "out of memory reading %s", d->file);
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)v, key, val) {
		size_t m = push_key(d, key);
		int rc = key_fits(d, key, WEFT_PLOT_KEY_MAX);
		if (rc == 0)
			rc = num_of(d, val, &f->cpi[f->ncpi].value);
		pop(d, m);
		if (rc < 0)
			return rc;
		snprintf(f->cpi[f->ncpi].key, WEFT_PLOT_KEY_MAX, "%s", key);
		f->ncpi++;
	}
	return 0;
}

/* "stats": [{"key", "value", "unit"}, ...] */
static int read_stats(struct rd *d, const json_t *v, struct weft_plot_fig *f)
{
	if (!json_is_array(v))
		return bad(d, "an array of {\"key\", \"value\", \"unit\"}", v);
	size_t n = json_array_size(v);
	if (n > WEFT_PLOT_MAX_STATS)
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s: %s: %zu statistics, more than the %u a figure may have",
				      d->file, d->path, n, WEFT_PLOT_MAX_STATS);
	if (n == 0)
		return 0;
	f->stats = calloc(n, sizeof(*f->stats));
	if (!f->stats)
		return weft_error_set(d->err, WEFT_ERR_NOMEM, "out of memory reading %s", d->file);
	for (size_t i = 0; i < n; i++) {
		const json_t *s = json_array_get(v, i);
		struct weft_plot_stat *st = &f->stats[i];
		size_t m = push_idx(d, i);
		int rc = 0;
		if (!json_is_object(s))
			rc = bad(d, "an object {\"key\", \"value\", \"unit\"}", s);
		else if (!json_object_get(s, "key"))
			rc = bad(d, "a statistic without a \"key\"", NULL);
		if (rc == 0)
			rc = get_str(d, s, "key", st->key, sizeof(st->key));
		if (rc == 0)
			rc = get_str(d, s, "unit", st->unit, sizeof(st->unit));
		st->value = NAN;
		if (rc == 0 && json_object_get(s, "value")) {
			size_t k = push_key(d, "value");
			rc = num_of(d, json_object_get(s, "value"), &st->value);
			pop(d, k);
		}
		pop(d, m);
		if (rc < 0)
			return rc;
		f->nstats++;
	}
	return 0;
}

/* A launch's or the totals' figures object. */
static int read_fig(struct rd *d, const json_t *v, struct weft_plot_fig *f, int64_t launch)
{
	f->launch = launch;
	if (!json_is_object(v))
		return bad(d, "an object of figures", v);
	if (++d->figures > WEFT_PLOT_MAX_FIGURES)
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s: %s: more than %u launch and total figures in one report",
				      d->file, d->path, WEFT_PLOT_MAX_FIGURES);
	size_t n = json_object_size(v);
	if (n > WEFT_PLOT_MAX_NUMS + 8)
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s: %s: %zu members, more than the %u a figures object may have",
				      d->file, d->path, n, WEFT_PLOT_MAX_NUMS + 8);
	if (n) {
		f->nums = calloc(n, sizeof(*f->nums));
		if (!f->nums)
			return weft_error_set(d->err, WEFT_ERR_NOMEM, "out of memory reading %s", d->file);
	}
	int rc = get_str(d, v, "kernel", f->kernel, sizeof(f->kernel));
	if (rc == 0)
		rc = get_str(d, v, "limiter", f->limiter, sizeof(f->limiter));
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)v, key, val) {
		if (rc < 0)
			break;
		size_t m = push_key(d, key);
		if (strcmp(key, "cpi_stack") == 0) {
			rc = read_cpi(d, val, f);
		} else if (strcmp(key, "stats") == 0) {
			rc = read_stats(d, val, f);
		} else if (!json_is_number(val) && !json_is_null(val) && weft_plot_metric_find(key)) {
			rc = bad(d, "a number or null", val); /* a figure every report has */
		} else if (json_is_number(val) || json_is_null(val)) {
			if (strcmp(key, "launch") != 0 && (rc = key_fits(d, key, WEFT_PLOT_KEY_MAX)) == 0) {
				if (f->nnums >= WEFT_PLOT_MAX_NUMS)
					rc = weft_error_set(d->err, WEFT_ERR_INPUT,
							    "%s: %s: more than %u numeric figures", d->file,
							    d->path, WEFT_PLOT_MAX_NUMS);
				else {
					struct weft_plot_num *x = &f->nums[f->nnums++];
					snprintf(x->key, sizeof(x->key), "%s", key);
					rc = num_of(d, val, &x->value);
				}
			}
		}
		pop(d, m);
	}
	return rc;
}

static int read_point(struct rd *d, const json_t *pt, const struct weft_plot_report *r,
		      struct weft_plot_config *c)
{
	for (uint32_t k = 0; k < WEFT_PLOT_MAX_SWEEPS; k++)
		c->pointv[k] = NAN;
	if (!pt)
		return 0;
	if (!json_is_object(pt))
		return bad(d, "an object {\"sec.key\": value}", pt);
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)pt, key, val) {
		uint32_t k = 0;
		while (k < r->nsweeps && strcmp(r->sweep[k], key) != 0)
			k++;
		size_t m = push_key(d, key);
		int rc = 0;
		if (k == r->nsweeps) {
			rc = weft_error_set(d->err, WEFT_ERR_INPUT,
					    "%s: %s: a point of a key the report's \"sweep\" does not list",
					    d->file, d->path);
		} else if (json_is_number(val)) {
			c->pointv[k] = json_number_value(val);
			snprintf(c->point[k], sizeof(c->point[k]), "%.10g", c->pointv[k]);
		} else if (json_is_string(val) && strlen(json_string_value(val)) == json_string_length(val) &&
			   json_string_length(val) < sizeof(c->point[k])) {
			snprintf(c->point[k], sizeof(c->point[k]), "%s", json_string_value(val));
			char *end;
			errno = 0;
			double x = strtod(c->point[k], &end);
			if (c->point[k][0] && !*end && !errno && isfinite(x))
				c->pointv[k] = x;
		} else {
			rc = bad(d, "a number or a short string without NUL", val);
		}
		pop(d, m);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int read_config(struct rd *d, const json_t *v, const struct weft_plot_report *r,
		       struct weft_plot_config *c)
{
	if (!json_is_object(v))
		return bad(d, "a config object", v);
	if (!json_is_string(json_object_get(v, "name")))
		return bad(d, "a config without a \"name\" string", NULL);
	int rc = get_str(d, v, "name", c->name, sizeof(c->name));
	if (rc == 0)
		rc = get_str(d, v, "config", c->config, sizeof(c->config));
	if (rc == 0)
		rc = get_str(d, v, "model", c->model, sizeof(c->model));
	if (rc < 0)
		return rc;
	if (!c->config[0])
		snprintf(c->config, sizeof(c->config), "%s", c->name);
	const json_t *b = json_object_get(v, "baseline");
	if (b && !json_is_boolean(b)) {
		size_t m = push_key(d, "baseline");
		rc = bad(d, "true or false", b);
		pop(d, m);
		return rc;
	}
	c->baseline = json_is_true(b);
	c->area_mm2 = NAN;
	if (json_object_get(v, "area_mm2")) {
		size_t m = push_key(d, "area_mm2");
		rc = num_of(d, json_object_get(v, "area_mm2"), &c->area_mm2);
		pop(d, m);
		if (rc < 0)
			return rc;
	}
	size_t m = push_key(d, "point");
	rc = read_point(d, json_object_get(v, "point"), r, c);
	pop(d, m);
	if (rc < 0)
		return rc;
	const json_t *t = json_object_get(v, "total");
	if (!t)
		return bad(d, "a config without \"total\" figures", NULL);
	m = push_key(d, "total");
	rc = read_fig(d, t, &c->total, -1);
	pop(d, m);
	if (rc < 0)
		return rc;
	const json_t *ls = json_object_get(v, "launches");
	if (!ls)
		return 0;
	m = push_key(d, "launches");
	size_t n = json_array_size(ls);
	if (!json_is_array(ls))
		rc = bad(d, "an array of launch figures", ls);
	else if (n > WEFT_PLOT_MAX_LAUNCHES)
		rc = weft_error_set(d->err, WEFT_ERR_INPUT, "%s: %s: %zu launches, more than %u", d->file,
				    d->path, n, WEFT_PLOT_MAX_LAUNCHES);
	else if (n && !(c->launches = calloc(n, sizeof(*c->launches))))
		rc = weft_error_set(d->err, WEFT_ERR_NOMEM, "out of memory reading %s", d->file);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t k = push_idx(d, i);
		const json_t *l = json_array_get(ls, i);
		const json_t *li = json_is_object(l) ? json_object_get(l, "launch") : NULL;
		double idx = (double)i;
		if (li && (!json_is_number(li) || (idx = json_number_value(li)) < 0 || idx > 4e9 ||
			   idx != floor(idx))) {
			size_t q = push_key(d, "launch");
			rc = bad(d, "a launch index from 0 to 4e9", li);
			pop(d, q);
		}
		if (rc == 0)
			rc = read_fig(d, l, &c->launches[i], (int64_t)idx);
		c->nlaunches++; /* freed whole, read or not */
		pop(d, k);
	}
	pop(d, m);
	return rc;
}

static int read_top(struct rd *d, const json_t *root, struct weft_plot_report *r)
{
	if (!json_is_object(root) || !json_object_get(root, "configs"))
		return weft_error_set(d->err, WEFT_ERR_INPUT,
				      "%s is not a weft-estimate report (no \"configs\" in a top-level "
				      "object); make one with `weft-estimate FILE.wtr -c CONFIG --format "
				      "json -o %s`",
				      d->file, d->file);
	int rc = get_str(d, root, "weft_version", r->version, sizeof(r->version));
	if (rc == 0)
		rc = get_str(d, root, "baseline", r->baseline, sizeof(r->baseline));
	const json_t *t = json_object_get(root, "trace");
	if (rc == 0 && t) {
		size_t m = push_key(d, "trace");
		if (!json_is_object(t))
			rc = bad(d, "an object", t);
		if (rc == 0)
			rc = get_str(d, t, "workload", r->workload, sizeof(r->workload));
		if (rc == 0)
			rc = get_str(d, t, "size", r->size, sizeof(r->size));
		if (rc == 0)
			rc = get_str(d, t, "path", r->trace, sizeof(r->trace));
		pop(d, m);
	}
	const json_t *sw = json_object_get(root, "sweep");
	if (rc == 0 && sw) {
		size_t m = push_key(d, "sweep");
		if (!json_is_array(sw))
			rc = bad(d, "an array of swept keys", sw);
		else if (json_array_size(sw) > WEFT_PLOT_MAX_SWEEPS)
			rc = weft_error_set(d->err, WEFT_ERR_INPUT, "%s: %s: %zu swept keys, more than %u",
					    d->file, d->path, json_array_size(sw), WEFT_PLOT_MAX_SWEEPS);
		for (size_t k = 0; rc == 0 && k < json_array_size(sw); k++) {
			const json_t *s = json_array_get(sw, k);
			size_t q = push_idx(d, k);
			if (!json_is_string(s) || strlen(json_string_value(s)) != json_string_length(s) ||
			    json_string_length(s) >= sizeof(r->sweep[0]) || !json_string_length(s))
				rc = bad(d, "a non-empty key string without NUL, under 128 characters", s);
			for (uint32_t j = 0; rc == 0 && j < r->nsweeps; j++)
				if (strcmp(r->sweep[j], json_string_value(s)) == 0)
					rc = bad(d, "a key listed once", NULL);
			if (rc == 0)
				snprintf(r->sweep[r->nsweeps++], sizeof(r->sweep[0]), "%s", json_string_value(s));
			pop(d, q);
		}
		pop(d, m);
	}
	if (rc < 0)
		return rc;
	const json_t *cs = json_object_get(root, "configs");
	size_t m = push_key(d, "configs");
	size_t n = json_array_size(cs);
	if (!json_is_array(cs))
		rc = bad(d, "an array of configs", cs);
	else if (n == 0)
		rc = bad(d, "no configs: the report is empty", NULL);
	else if (n > WEFT_PLOT_MAX_CONFIGS)
		rc = weft_error_set(d->err, WEFT_ERR_INPUT, "%s: %s: %zu configs, more than %u", d->file,
				    d->path, n, WEFT_PLOT_MAX_CONFIGS);
	else if (!(r->configs = calloc(n, sizeof(*r->configs))))
		rc = weft_error_set(d->err, WEFT_ERR_NOMEM, "out of memory reading %s", d->file);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t q = push_idx(d, i);
		rc = read_config(d, json_array_get(cs, i), r, &r->configs[i]);
		r->nconfigs++;
		pop(d, q);
	}
	pop(d, m);
	for (uint32_t i = 0; rc == 0 && i < r->nconfigs; i++)
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(r->configs[i].name, r->configs[j].name) == 0) {
				rc = weft_error_set(d->err, WEFT_ERR_INPUT,
						    "%s: configs[%u] and configs[%u] are both named `%s`",
						    d->file, j, i, r->configs[i].name);
				break;
			}
	if (rc == 0 && !r->baseline[0])
		for (uint32_t i = 0; i < r->nconfigs; i++)
			if (r->configs[i].baseline)
				snprintf(r->baseline, sizeof(r->baseline), "%s", r->configs[i].name);
	return rc;
}

int weft_plot_read_mem(const char *name, const char *data, size_t len, struct weft_plot_report *r,
		       struct weft_error *err)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", name);
	if (len > WEFT_PLOT_MAX_BYTES)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %zu bytes, more than the %u MiB a report may have", name, len,
				      WEFT_PLOT_MAX_BYTES >> 20);
	json_error_t je;
	json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
	if (!root) {
		if (json_error_code(&je) == json_error_out_of_memory)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", name);
		return weft_error_at(err, WEFT_ERR_PARSE, name, je.line > 0 ? (uint32_t)je.line : 0,
				     je.column > 0 ? (uint32_t)je.column : 0,
				     "not valid JSON: %s; give a report written by `weft-estimate ... "
				     "--format json`",
				     je.text);
	}
	struct rd d = { .file = r->path, .err = err };
	int rc = read_top(&d, root, r);
	json_decref(root);
	if (rc < 0)
		weft_plot_report_free(r);
	return rc;
}

int weft_plot_read_file(const char *path, struct weft_plot_report *r, struct weft_error *err)
{
	memset(r, 0, sizeof(*r));
	char *data;
	size_t len;
	int st = weft_file_read(path, &data, &len);
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st != WEFT_FILE_OK)
		return weft_error_set(err, WEFT_ERR_INPUT, "cannot read the report %s: %s", path,
				      strerror(errno));
	int rc = weft_plot_read_mem(path, data, len, r, err);
	free(data);
	return rc;
}

static void fig_free(struct weft_plot_fig *f)
{
	free(f->nums);
	free(f->cpi);
	free(f->stats);
}

void weft_plot_report_free(struct weft_plot_report *r)
{
	for (uint32_t i = 0; r->configs && i < r->nconfigs; i++) {
		struct weft_plot_config *c = &r->configs[i];
		fig_free(&c->total);
		for (uint32_t l = 0; l < c->nlaunches; l++)
			fig_free(&c->launches[l]);
		free(c->launches);
	}
	free(r->configs);
	r->configs = NULL;
	r->nconfigs = 0;
}

static void strip_suffix(char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	if (n > k && strcmp(s + n - k, suffix) == 0)
		s[n - k] = 0;
}

const char *weft_plot_report_label(const struct weft_plot_report *r, char *buf, size_t len)
{
	if (r->workload[0]) {
		snprintf(buf, len, "%s", r->workload);
		return buf;
	}
	const char *s = r->trace[0] ? r->trace : r->path;
	const char *slash = strrchr(s, '/');
	if (slash && slash[1])
		s = slash + 1;
	snprintf(buf, len, "%s", s);
	strip_suffix(buf, ".wtr");
	strip_suffix(buf, ".json");
	return buf;
}

const struct weft_plot_fig *weft_plot_config_fig(const struct weft_plot_config *c, int64_t launch)
{
	if (launch < 0)
		return &c->total;
	for (uint32_t l = 0; l < c->nlaunches; l++)
		if (c->launches[l].launch == launch)
			return &c->launches[l];
	return NULL;
}
