/*
 * table.c - loading the energy and static power tables (energy.h) and
 * looking a row up at a node, scaled with the configured rule.
 */
#include "energy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"

static int node_of(const struct weft_csv *c, uint32_t r, int col, double *node,
		   struct weft_error *err)
{
	int rc = weft_csv_num(c, r, col, 1, node, err);
	if (rc < 0)
		return rc;
	if (rc == 1)
		*node = 0;
	if (*node < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "node_nm %g is negative", *node);
	return 0;
}

static int make_energy_row(void *dst, const void *prev, uint32_t n, const struct weft_csv *c,
			   uint32_t r, const int *ix, struct weft_error *err)
{
	struct weft_energy_row *row = dst;
	const struct weft_energy_row *rows = prev;
	const char *ev = c->rows[r][ix[0]];
	int rc;
	if ((rc = weft_csv_check_name(c, r, ix[0], "event", sizeof(row->event), err)) < 0 ||
	    (rc = node_of(c, r, ix[1], &row->node_nm, err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[2], 0, &row->energy_pj, err)) < 0)
		return rc;
	if (row->energy_pj < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "energy_pj %g is negative", row->energy_pj);
	if ((rc = weft_csv_check_source(c, r, ix[4], err)) < 0)
		return rc;
	for (uint32_t k = 0; k < n; k++)
		if (!strcmp(rows[k].event, ev))
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
					     "event %s has a second row (first at line %u); keep one",
					     ev, rows[k].line);
	snprintf(row->event, sizeof(row->event), "%s", ev);
	snprintf(row->unit, sizeof(row->unit), "%s", c->rows[r][ix[3]]);
	snprintf(row->source, sizeof(row->source), "%s", c->rows[r][ix[4]]);
	row->line = c->lines[r];
	return 0;
}

int weft_energy_table_load(const char *path, struct weft_energy_table *t, struct weft_error *err)
{
	static const char *const cols[] = { "event", "node_nm", "energy_pj", "unit", "source" };
	static const struct weft_csv_rows spec = { "energy table", cols, 5,
						   sizeof(struct weft_energy_row), make_energy_row };
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%.*s", (int)sizeof(t->path) - 1, path);
	void *rows;
	int rc = weft_csv_load_rows(path, &spec, &rows, &t->nrows, err);
	t->rows = rows;
	return rc;
}

void weft_energy_table_free(struct weft_energy_table *t)
{
	if (!t)
		return;
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

const struct weft_energy_row *weft_energy_table_find(const struct weft_energy_table *t,
						     const char *event)
{
	for (uint32_t i = 0; t && i < t->nrows; i++)
		if (!strcmp(t->rows[i].event, event))
			return &t->rows[i];
	return NULL;
}

int weft_energy_event_at(const struct weft_energy_table *t, const char *event, double node_nm,
			 enum weft_scaling_rule rule, double vdd_v, double *joules,
			 struct weft_scaling *how, struct weft_error *err)
{
	const struct weft_energy_row *row = weft_energy_table_find(t, event);
	if (!row)
		return weft_error_at(err, WEFT_ERR_INPUT, t->path, 0, 0,
				     "no energy for event %s at %g nm: the table has no `%s` row; add "
				     "`%s,NODE_NM,ENERGY_PJ,UNIT,SOURCE` (docs/energy.md) or pick "
				     "another table with [tech] energy_table",
				     event, node_nm, event, event);
	struct weft_scaling sc;
	if (row->node_nm == 0 || row->node_nm == node_nm) {
		/* node-independent (off-chip) rows are never scaled */
		memset(&sc, 0, sizeof(sc));
		sc.rule = rule;
		sc.from_nm = row->node_nm ? row->node_nm : node_nm;
		sc.to_nm = node_nm;
		sc.energy = sc.area = sc.delay = 1;
		snprintf(sc.note, sizeof(sc.note), "%s", row->node_nm ? "none" : "none (node-independent)");
	} else {
		int rc = weft_scaling_factors_v(rule, row->node_nm, node_nm, vdd_v, &sc, err);
		if (rc < 0) {
			weft_error_prefix(err, "%s:%u: event %s: ", t->path, row->line, event);
			return rc;
		}
	}
	*joules = row->energy_pj * 1e-12 * sc.energy;
	if (how)
		*how = sc;
	return 0;
}

static int make_static_row(void *dst, const void *prev, uint32_t n, const struct weft_csv *c,
			   uint32_t r, const int *ix, struct weft_error *err)
{
	struct weft_static_row *row = dst;
	const char *name = c->rows[r][ix[0]];
	(void)prev;
	(void)n;
	if (!name[0] || strlen(name) >= sizeof(row->component))
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "component name is empty or too long");
	int rc = node_of(c, r, ix[1], &row->node_nm, err);
	if (rc < 0)
		return rc;
	if (row->node_nm == 0)
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "static power rows need the node they were published at");
	int e1 = weft_csv_num(c, r, ix[2], 1, &row->w_per_unit, err);
	if (e1 < 0)
		return e1;
	int e2 = weft_csv_num(c, r, ix[3], 1, &row->w_per_mm2, err);
	if (e2 < 0)
		return e2;
	if ((e1 == 1) == (e2 == 1))
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "fill exactly one of static_w_per_unit and static_w_per_mm2");
	if ((rc = weft_csv_check_source(c, r, ix[4], err)) < 0)
		return rc;
	snprintf(row->component, sizeof(row->component), "%s", name);
	snprintf(row->source, sizeof(row->source), "%s", c->rows[r][ix[4]]);
	row->line = c->lines[r];
	return 0;
}

int weft_static_table_load(const char *path, struct weft_static_table *t, struct weft_error *err)
{
	static const char *const cols[] = { "component", "node_nm", "static_w_per_unit",
					    "static_w_per_mm2", "source" };
	static const struct weft_csv_rows spec = { "static power table", cols, 5,
						   sizeof(struct weft_static_row), make_static_row };
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%.*s", (int)sizeof(t->path) - 1, path);
	void *rows;
	int rc = weft_csv_load_rows(path, &spec, &rows, &t->nrows, err);
	t->rows = rows;
	return rc;
}

void weft_static_table_free(struct weft_static_table *t)
{
	if (!t)
		return;
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

int weft_static_power_at(const struct weft_static_table *t, const char *component, double count,
			 double area_mm2, double node_nm, enum weft_scaling_rule rule, double vdd_v,
			 double *watts, struct weft_scaling *how, struct weft_error *err)
{
	const struct weft_static_row *row = NULL, *def = NULL;
	for (uint32_t i = 0; i < t->nrows; i++) {
		if (!strcmp(t->rows[i].component, component))
			row = &t->rows[i];
		else if (!strcmp(t->rows[i].component, "default"))
			def = &t->rows[i];
	}
	if (!row)
		row = def;
	if (!row)
		return weft_error_at(err, WEFT_ERR_INPUT, t->path, 0, 0,
				     "no static power for component %s at %g nm and no `default` row; "
				     "add one (docs/energy.md)",
				     component, node_nm);
	struct weft_scaling sc;
	int rc = weft_scaling_factors_v(rule, row->node_nm, node_nm, vdd_v, &sc, err);
	if (rc < 0) {
		weft_error_prefix(err, "%s:%u: static power of %s: ", t->path, row->line, component);
		return rc;
	}
	if (!isnan(row->w_per_unit))
		*watts = count * row->w_per_unit * sc.energy;
	else
		*watts = area_mm2 * row->w_per_mm2 * sc.energy / sc.area;
	if (how)
		*how = sc;
	return 0;
}
