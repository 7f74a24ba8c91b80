/*
 * calib_model.c - a calibration model description (INI, docs/calibration.md)
 * and its data CSV, turned into the features and responses of a
 * least-squares problem (calib.h).
 *
 *   [model]                 name, response (a numeric column), label (the
 *                           column naming each point; default: the first),
 *                           weights = relative | none, unit, about, where
 *                           (an expression: rows where it is 0 are left out)
 *   [term NAME]             feature (an expression, area/fitexpr.h), unit,
 *                           about, and for a coefficient taken from a table
 *                           rather than fitted: fixed = VALUE and source
 *
 * `about` and `source` may be repeated: the lines are joined (an INI line
 * holds at most 197 characters). Both files are bounded
 * (WEFT_CALIB_MAX_FILE bytes, WEFT_CALIB_MAX_TERMS terms,
 * WEFT_CALIB_MAX_POINTS rows) and every fault names file:line.
 */
#include "calib.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fitexpr.h"
#include "common/csv.h"
#include "common/file.h"
#include "common/ini.h"
#include "common/suggest.h"

struct model_state {
	struct weft_calib_report *r;
	const char *path;
	int in_term;                      /* the current section is [term NAME] */
	int seen_model;
	uint32_t name_line, unit_line, response_line, label_line, where_line;
	uint32_t feature_line[WEFT_CALIB_MAX_TERMS], term_unit_line[WEFT_CALIB_MAX_TERMS];
	int has_fixed[WEFT_CALIB_MAX_TERMS];
	uint32_t fixed_line[WEFT_CALIB_MAX_TERMS];
};

static int too_big(const char *path, const char *what, struct weft_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0; /* the open reports it */
	if (S_ISDIR(st.st_mode))
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "is a directory; give the %s file", what);
	if (!S_ISREG(st.st_mode))
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "is not a regular file; give the %s file", what);
	if (st.st_size > (off_t)WEFT_CALIB_MAX_FILE)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "the %s is %lld bytes, more than the %u this reader takes",
				     what, (long long)st.st_size, WEFT_CALIB_MAX_FILE);
	return 0;
}

/* Appends value to a text field that may be given on several lines. */
static int append(char *dst, size_t size, const char *value, const char *path, uint32_t line,
		  const char *key, struct weft_error *err)
{
	size_t n = strlen(dst), v = strlen(value);
	if (n + (n ? 1 : 0) + v + 1 > size)
		return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
				     "`%s` is longer than %zu characters in all", key, size - 1);
	if (n)
		dst[n++] = ' ';
	memcpy(dst + n, value, v + 1);
	return 0;
}

static int set_once(char *dst, size_t size, const char *value, const char *path, uint32_t line,
		    const char *key, uint32_t *seen, struct weft_error *err)
{
	if (*seen)
		return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
				     "`%s` is given twice (first on line %u)", key, *seen);
	if (strlen(value) >= size)
		return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
				     "`%s` is longer than %zu characters", key, size - 1);
	snprintf(dst, size, "%s", value);
	*seen = line;
	return 0;
}

static int unknown_key(const char *path, uint32_t line, const char *section, const char *key,
		       const char *const *keys, struct weft_error *err)
{
	struct weft_suggest sg;
	weft_suggest_init(&sg, key);
	char list[160] = "";
	size_t off = 0;
	for (const char *const *k = keys; *k; k++) {
		weft_suggest_consider(&sg, *k);
		off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
					"%s%s", off ? ", " : "", *k);
	}
	char hint[256];
	weft_suggest_phrase(&sg, "`", "`", hint, sizeof(hint));
	return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
			     "unknown key `%s` in [%s]%s (keys: %s)", key, section, hint, list);
}

/* Section lines: [model] or [term NAME]; a term is created at its header, so
 * that a term without keys is still seen. */
static int on_line(void *user, const char *text, uint32_t line, struct weft_error *err)
{
	struct model_state *s = user;
	while (*text == ' ' || *text == '\t')
		text++;
	if (*text != '[')
		return 0;
	const char *end = strchr(text, ']');
	if (!end)
		return 0; /* inih reports it */
	char sec[160];
	size_t len = (size_t)(end - text - 1);
	if (len >= sizeof(sec))
		return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
				     "a section name longer than %zu characters", sizeof(sec) - 1);
	memcpy(sec, text + 1, len);
	sec[len] = 0;
	if (!strcmp(sec, "model")) {
		if (s->seen_model)
			return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
					     "a second [model] section (first on line %d)",
					     s->seen_model);
		s->seen_model = (int)line;
		s->in_term = 0;
		return 0;
	}
	if (strncmp(sec, "term ", 5))
		return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
				     "unknown section [%s]: a model has [model] and [term NAME] sections",
				     sec);
	const char *name = sec + 5;
	while (*name == ' ')
		name++;
	size_t nl = strlen(name);
	int ok = nl > 0 && nl < sizeof(s->r->terms[0].name) && (isalpha((unsigned char)*name) || *name == '_');
	for (size_t i = 0; ok && i < nl; i++)
		ok = isalnum((unsigned char)name[i]) || name[i] == '_';
	if (!ok)
		return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
				     "[term %s]: a term name is a letter or '_' followed by letters, "
				     "digits or '_' (at most %zu)",
				     name, sizeof(s->r->terms[0].name) - 1);
	struct weft_calib_report *r = s->r;
	for (uint32_t j = 0; j < r->nterms; j++)
		if (!strcmp(r->terms[j].name, name))
			return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
					     "a second [term %s] (first on line %u)", name,
					     r->terms[j].line);
	if (r->nterms == WEFT_CALIB_MAX_TERMS)
		return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
				     "more than %d terms", WEFT_CALIB_MAX_TERMS);
	struct weft_calib_term *t = &r->terms[r->nterms++];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->line = line;
	t->std_err = NAN;
	s->in_term = 1;
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct model_state *s = user;
	struct weft_calib_report *r = s->r;
	if (!strcmp(section, "model") && !s->in_term) {
		static const char *const keys[] = { "name", "response", "label", "weights", "unit",
						    "about", "where", NULL };
		if (!strcmp(key, "name"))
			return set_once(r->name, sizeof(r->name), value, s->path, line, key,
					&s->name_line, err);
		if (!strcmp(key, "response"))
			return set_once(r->response, sizeof(r->response), value, s->path, line, key,
					&s->response_line, err);
		if (!strcmp(key, "label"))
			return set_once(r->label, sizeof(r->label), value, s->path, line, key,
					&s->label_line, err);
		if (!strcmp(key, "where"))
			return set_once(r->where, sizeof(r->where), value, s->path, line, key,
					&s->where_line, err);
		if (!strcmp(key, "unit"))
			return set_once(r->unit, sizeof(r->unit), value, s->path, line, key,
					&s->unit_line, err);
		if (!strcmp(key, "about"))
			return append(r->about, sizeof(r->about), value, s->path, line, key, err);
		if (!strcmp(key, "weights")) {
			if (!strcmp(value, "relative"))
				r->relative = 1;
			else if (!strcmp(value, "none"))
				r->relative = 0;
			else
				return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
						     "weights = %s: expected relative or none", value);
			return 0;
		}
		return unknown_key(s->path, line, "model", key, keys, err);
	}
	if (!s->in_term || r->nterms == 0)
		return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
				     "`%s` outside a section: keys go under [model] or [term NAME]", key);
	uint32_t j = r->nterms - 1;
	struct weft_calib_term *t = &r->terms[j];
	static const char *const keys[] = { "feature", "unit", "about", "fixed", "source", NULL };
	if (!strcmp(key, "feature"))
		return set_once(t->feature, sizeof(t->feature), value, s->path, line, key,
				&s->feature_line[j], err);
	if (!strcmp(key, "unit"))
		return set_once(t->unit, sizeof(t->unit), value, s->path, line, key,
				&s->term_unit_line[j], err);
	if (!strcmp(key, "about"))
		return append(t->about, sizeof(t->about), value, s->path, line, key, err);
	if (!strcmp(key, "source"))
		return append(t->source, sizeof(t->source), value, s->path, line, key, err);
	if (!strcmp(key, "fixed")) {
		if (s->has_fixed[j])
			return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
					     "`fixed` is given twice (first on line %u)", s->fixed_line[j]);
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (!*value || *end || errno || !isfinite(v))
			return weft_error_at(err, WEFT_ERR_INPUT, s->path, line, 0,
					     "[term %s] fixed = %s is not a number", t->name, value);
		t->fixed = 1;
		t->coef = v;
		s->has_fixed[j] = 1;
		s->fixed_line[j] = line;
		return 0;
	}
	char sec[64];
	snprintf(sec, sizeof(sec), "term %s", t->name);
	return unknown_key(s->path, line, sec, key, keys, err);
}

static int load_model(const char *path, struct model_state *s, struct weft_error *err)
{
	struct weft_calib_report *r = s->r;
	int rc = too_big(path, "model description", err);
	if (rc < 0)
		return rc;
	char *text;
	size_t len;
	int st = weft_file_read(path, &text, &len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "cannot open the model description: %s; check the path "
				     "(data/calibration/ holds the bundled ones)",
				     strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_at(err, WEFT_ERR_IO, path, 0, 0, "read error: %s", strerror(errno));
	if (len > WEFT_CALIB_MAX_FILE) {
		free(text);
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "the model description is longer than %u bytes", WEFT_CALIB_MAX_FILE);
	}
	r->relative = 1;
	struct weft_ini ini = { path, "model description", on_key, on_line, s };
	rc = weft_ini_parse(&ini, text, len, err);
	free(text);
	if (rc < 0)
		return rc;
	if (!s->seen_model)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "no [model] section: it names the response column "
				     "(`response = area_mm2`)");
	if (!r->response[0])
		return weft_error_at(err, WEFT_ERR_INPUT, path, (uint32_t)s->seen_model, 0,
				     "[model] has no `response = COLUMN` (the column to fit)");
	if (r->nterms == 0)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "no [term NAME] sections: the model has nothing to fit");
	for (uint32_t j = 0; j < r->nterms; j++) {
		struct weft_calib_term *t = &r->terms[j];
		if (!t->feature[0])
			return weft_error_at(err, WEFT_ERR_INPUT, path, t->line, 0,
					     "[term %s] has no `feature = EXPRESSION`", t->name);
		if (t->fixed && !t->source[0])
			return weft_error_at(err, WEFT_ERR_INPUT, path, s->fixed_line[j], 0,
					     "[term %s] is fixed but cites no `source` (a fixed "
					     "coefficient says where it comes from)",
					     t->name);
		if (!t->fixed)
			r->nfitted++;
	}
	if (r->nfitted == 0)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "every term is fixed: there is nothing to fit");
	return 0;
}

static int find_col(const struct weft_csv *c, const char *name, const char *what,
		    const char *model_path, uint32_t line, struct weft_error *err)
{
	int k = weft_csv_col(c, name);
	if (k >= 0)
		return k;
	struct weft_suggest sg;
	weft_suggest_init(&sg, name);
	for (uint32_t i = 0; i < c->ncols; i++)
		weft_suggest_consider(&sg, c->header[i]);
	char hint[256];
	weft_suggest_phrase(&sg, "`", "`", hint, sizeof(hint));
	return weft_error_at(err, WEFT_ERR_INPUT, model_path, line, 0,
			     "%s = %s: %s has no such column%s", what, name, c->path, hint);
}

void weft_calib_problem_free(struct weft_calib_problem *pr)
{
	free(pr->x);
	free(pr->y);
	memset(pr, 0, sizeof(*pr));
}

int weft_calib_load(const char *data_path, const char *model_path, struct weft_calib_report *r,
		    struct weft_calib_problem *pr, struct weft_error *err)
{
	memset(r, 0, sizeof(*r));
	memset(pr, 0, sizeof(*pr));
	snprintf(r->data, sizeof(r->data), "%s", data_path);
	snprintf(r->model, sizeof(r->model), "%s", model_path);
	struct model_state s;
	memset(&s, 0, sizeof(s));
	s.r = r;
	s.path = model_path;
	int rc = load_model(model_path, &s, err);
	if (rc < 0)
		return rc;

	if ((rc = too_big(data_path, "data table", err)) < 0)
		return rc;
	struct weft_csv c;
	if ((rc = weft_csv_load(data_path, &c, err)) < 0)
		return rc;
	struct weft_fexpr *fx = calloc(r->nterms + 1, sizeof(*fx));
	int label_col = 0, resp_col = -1;
	if (!fx) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the features");
		goto out;
	}
	if (c.nrows > WEFT_CALIB_MAX_POINTS) {
		rc = weft_error_at(err, WEFT_ERR_INPUT, data_path, c.lines[WEFT_CALIB_MAX_POINTS], 0,
				   "more than %d data rows", WEFT_CALIB_MAX_POINTS);
		goto out;
	}
	if ((resp_col = find_col(&c, r->response, "response", model_path, s.response_line, err)) < 0) {
		rc = resp_col;
		goto out;
	}
	if (r->label[0]) {
		if ((label_col = find_col(&c, r->label, "label", model_path, s.label_line, err)) < 0) {
			rc = label_col;
			goto out;
		}
	} else {
		snprintf(r->label, sizeof(r->label), "%s", c.header[0]);
	}
	const char *const *hdr = (const char *const *)c.header;
	for (uint32_t j = 0; j < r->nterms; j++) {
		rc = weft_fexpr_compile(r->terms[j].feature, hdr, c.ncols, &fx[j], err);
		if (rc < 0) {
			weft_error_prefix(err, "[term %s] feature: ", r->terms[j].name);
			err->line = s.feature_line[j];
			snprintf(err->file, sizeof(err->file), "%s", model_path);
			goto out;
		}
	}
	if (r->where[0]) {
		rc = weft_fexpr_compile(r->where, hdr, c.ncols, &fx[r->nterms], err);
		if (rc < 0) {
			weft_error_prefix(err, "[model] where: ");
			err->line = s.where_line;
			snprintf(err->file, sizeof(err->file), "%s", model_path);
			goto out;
		}
	}
	uint32_t p = r->nterms;
	pr->p = p;
	pr->x = malloc(((size_t)c.nrows + 1) * p * sizeof(double));
	pr->y = malloc(((size_t)c.nrows + 1) * sizeof(double));
	r->pts = calloc((size_t)c.nrows + 1, sizeof(*r->pts));
	if (!pr->x || !pr->y || !r->pts) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u data rows", c.nrows);
		goto out;
	}
	for (uint32_t i = 0; i < c.nrows; i++) {
		const char *const *f = (const char *const *)c.rows[i];
		uint32_t line = c.lines[i];
		if (r->where[0]) {
			double keep;
			rc = weft_fexpr_eval(&fx[p], f, hdr, data_path, line, &keep, err);
			if (rc < 0) {
				weft_error_prefix(err, "[model] where (%s:%u): ", model_path, s.where_line);
				goto out;
			}
			if (keep == 0) {
				r->nskipped++;
				continue;
			}
		}
		uint32_t k = pr->n;
		double y;
		if ((rc = weft_csv_num(&c, i, resp_col, 0, &y, err)) < 0)
			goto out;
		if (y == 0) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, data_path, line, 0,
					   "the response %s is 0: relative residuals and MAPE need a "
					   "nonzero observation (leave the row out with `where`)",
					   r->response);
			goto out;
		}
		for (uint32_t j = 0; j < p; j++) {
			rc = weft_fexpr_eval(&fx[j], f, hdr, data_path, line, &pr->x[(size_t)k * p + j], err);
			if (rc < 0) {
				weft_error_prefix(err, "[term %s] feature (%s:%u): ", r->terms[j].name,
						  model_path, s.feature_line[j]);
				goto out;
			}
		}
		pr->y[k] = y;
		struct weft_calib_point *pt = &r->pts[k];
		snprintf(pt->label, sizeof(pt->label), "%s", f[label_col]);
		pt->line = line;
		pt->observed = y;
		pr->n++;
	}
	r->npts = pr->n;
	if (pr->n == 0)
		rc = weft_error_at(err, WEFT_ERR_INPUT, data_path, 0, 0,
				   "no data rows to fit%s", r->where[0] ? " (the `where` filter left none)" : "");
out:
	free(fx);
	weft_csv_free(&c);
	return rc < 0 ? rc : 0;
}
