/*
 * area.c - component area tables and a configuration's area (area.h).
 */
#include "area.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"

static int make_row(void *dst, const void *prev, uint32_t n, const struct weft_csv *c, uint32_t r,
		    const int *ix, struct weft_error *err)
{
	struct weft_area_row *row = dst;
	const struct weft_area_row *rows = prev;
	const char *name = c->rows[r][ix[0]];
	int rc;
	if ((rc = weft_csv_check_name(c, r, ix[0], "component", sizeof(row->component), err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[1], 0, &row->node_nm, err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[2], 0, &row->area_mm2, err)) < 0)
		return rc;
	if (row->node_nm <= 0 || row->area_mm2 < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "node_nm must be positive and area_mm2 not negative");
	if ((rc = weft_csv_check_source(c, r, ix[4], err)) < 0)
		return rc;
	for (uint32_t k = 0; k < n; k++)
		if (!strcmp(rows[k].component, name) && rows[k].node_nm == row->node_nm)
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
					     "component %s has a second row at %g nm (first at "
					     "line %u); keep one",
					     name, row->node_nm, rows[k].line);
	snprintf(row->component, sizeof(row->component), "%s", name);
	snprintf(row->unit, sizeof(row->unit), "%s", c->rows[r][ix[3]]);
	snprintf(row->source, sizeof(row->source), "%s", c->rows[r][ix[4]]);
	row->line = c->lines[r];
	return 0;
}

int weft_area_table_load(const char *path, struct weft_area_table *t, struct weft_error *err)
{
	static const char *const cols[] = { "component", "node_nm", "area_mm2", "unit", "source" };
	static const struct weft_csv_rows spec = { "area table", cols, 5,
						   sizeof(struct weft_area_row), make_row };
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%.*s", (int)sizeof(t->path) - 1, path);
	void *rows;
	int rc = weft_csv_load_rows(path, &spec, &rows, &t->nrows, err);
	t->rows = rows;
	return rc;
}

void weft_area_table_free(struct weft_area_table *t)
{
	if (!t)
		return;
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

const struct weft_area_row *weft_area_table_find(const struct weft_area_table *t,
						 const char *component, double node_nm)
{
	const struct weft_area_row *best = NULL;
	double bestd = INFINITY;
	for (uint32_t i = 0; t && i < t->nrows; i++) {
		if (strcmp(t->rows[i].component, component) != 0)
			continue;
		double d = fabs(log(t->rows[i].node_nm / node_nm));
		if (d < bestd) {
			bestd = d;
			best = &t->rows[i];
		}
	}
	return best;
}

int weft_area_of_components(const struct weft_area_table *t, const struct weft_component *c,
			    uint32_t n, double node_nm, enum weft_scaling_rule rule,
			    struct weft_area_report *out, struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	out->node_nm = node_nm;
	out->rule = rule;
	snprintf(out->table, sizeof(out->table), "%s", t->path);
	for (uint32_t i = 0; i < n && i < WEFT_MAX_COMPONENTS; i++) {
		/* a component the model priced, or its table row */
		int priced = c[i].priced_nm > 0;
		const struct weft_area_row *row = NULL;
		if (!priced && !(row = weft_area_table_find(t, c[i].name, node_nm)))
			return weft_error_at(err, WEFT_ERR_INPUT, t->path, 0, 0,
					     "no area for component %s at %g nm: the table has no `%s` "
					     "row; add `%s,NODE_NM,AREA_MM2,UNIT,SOURCE` (docs/area.md)",
					     c[i].name, node_nm, c[i].name, c[i].name);
		double from_nm = priced ? c[i].priced_nm : row->node_nm;
		struct weft_scaling sc;
		int rc = weft_scaling_factors(rule, from_nm, node_nm, &sc, err);
		if (rc < 0) {
			if (priced)
				weft_error_prefix(err, "component %s (priced by the model at %g nm): ",
						  c[i].name, from_nm);
			else
				weft_error_prefix(err, "%s:%u: component %s: ", t->path, row->line,
						  c[i].name);
			return rc;
		}
		struct weft_area_line *l = &out->lines[out->nlines++];
		snprintf(l->component, sizeof(l->component), "%s", c[i].name);
		snprintf(l->why, sizeof(l->why), "%s", c[i].why);
		snprintf(l->unit, sizeof(l->unit), "%s", priced ? c[i].unit : row->unit);
		l->count = c[i].count;
		l->mm2_per_unit = (priced ? c[i].mm2_per_unit : row->area_mm2) * sc.area;
		l->mm2 = l->count * l->mm2_per_unit;
		l->from_node_nm = from_nm;
		l->scaled = from_nm != node_nm;
		l->priced = priced;
		out->npriced += priced;
		snprintf(l->source, sizeof(l->source), "%s", priced ? c[i].source : row->source);
		if (l->scaled) {
			if (!out->nscaled)
				snprintf(out->scaling_note, sizeof(out->scaling_note), "%s", sc.note);
			out->nscaled++;
		}
		out->total_mm2 += l->mm2;
	}
	return 0;
}

static int load_table(const struct weft_config *cfg, struct weft_area_table *t,
		      struct weft_error *err)
{
	char path[PATH_MAX];
	int rc = weft_config_path(cfg, "tech", "area_table", path, sizeof(path), err);
	if (rc == 0)
		rc = weft_area_table_load(path, t, err);
	if (rc < 0 && err) {
		const struct weft_config_value *v = weft_config_find(cfg, "tech", "area_table");
		if (v && v->from == 1)
			weft_error_prefix(err, "%s:%u: [tech] area_table: ", cfg->path, v->line);
		else if (v && v->from == 2)
			weft_error_prefix(err, "--set tech.area_table: ");
	}
	return rc;
}

static int rule_of(const struct weft_config *cfg)
{
	int r = weft_scaling_rule_parse(weft_config_str(cfg, "tech", "scaling_rule"));
	return r < 0 ? WEFT_SCALING_STILLMAKER : r;
}

int weft_area_of_result(const struct weft_config *cfg, const struct weft_model_result *r,
			struct weft_area_report *out, struct weft_error *err)
{
	struct weft_area_table t;
	int rc = load_table(cfg, &t, err);
	if (rc < 0)
		return rc;
	rc = weft_area_of_components(&t, r->components, r->ncomponents,
				     weft_config_num(cfg, "tech", "node_nm"),
				     (enum weft_scaling_rule)rule_of(cfg), out, err);
	weft_area_table_free(&t);
	return rc;
}

int weft_area_components_of_config(const struct weft_config *cfg, struct weft_component *out,
				   uint32_t max, uint32_t *n, struct weft_error *err)
{
	*n = 0;
	const struct weft_model *m = weft_model_find(cfg->model);
	if (!m)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: unknown model %s", cfg->path, cfg->model);
	void *state = NULL;
	int rc = m->init(cfg, &state, err);
	if (rc < 0)
		return rc;
	if (m->components) {
		rc = m->components(state, out, max, n, err);
	} else {
		/* No components op: a finish() with no launch consumed gives the
		 * configuration's component list. */
		struct weft_model_result r;
		memset(&r, 0, sizeof(r));
		rc = m->finish(state, &r, err);
		if (rc == 0) {
			*n = r.ncomponents < max ? r.ncomponents : max;
			memcpy(out, r.components, *n * sizeof(*out));
		}
		r.model = m;
		weft_model_result_free(&r);
	}
	m->free(state);
	return rc;
}

int weft_area_of_config(const struct weft_config *cfg, double node_nm, struct weft_area_report *out,
			struct weft_error *err)
{
	struct weft_model_result r;
	memset(&r, 0, sizeof(r));
	int rc = weft_area_components_of_config(cfg, r.components, WEFT_MAX_COMPONENTS,
						&r.ncomponents, err);
	if (rc < 0)
		return rc;
	struct weft_area_table t;
	rc = load_table(cfg, &t, err);
	if (rc < 0)
		return rc;
	if (!(node_nm > 0))
		node_nm = weft_config_num(cfg, "tech", "node_nm");
	rc = weft_area_of_components(&t, r.components, r.ncomponents, node_nm,
				     (enum weft_scaling_rule)rule_of(cfg), out, err);
	weft_area_table_free(&t);
	return rc;
}
