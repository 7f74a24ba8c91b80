/*
 * energy.c - events -> joules for a configuration (energy.h): dynamic
 * energy = sum of count x energy per event at the config's node, static
 * energy = static power of the config's components x time.
 */
#include "energy.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Prefixes a table-loading error with the config key that named the table,
 * so the user knows which line to fix. */
static void blame_key(const struct weft_config *cfg, const char *key, struct weft_error *err)
{
	const struct weft_config_value *v = weft_config_find(cfg, "tech", key);
	if (!err || !v)
		return;
	if (v->from == 1)
		weft_error_prefix(err, "%s:%u: [tech] %s: ", cfg->path, v->line, key);
	else if (v->from == 2)
		weft_error_prefix(err, "--set tech.%s: ", key);
	else
		weft_error_prefix(err, "%s: [tech] %s (default%s%s): ", cfg->path, key,
				  v->str[0] ? " " : "", v->str);
}

int weft_energy_ctx_init(struct weft_energy_ctx *c, const struct weft_config *cfg,
			 struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	c->node_nm = weft_config_num(cfg, "tech", "node_nm");
	int rule = weft_scaling_rule_parse(weft_config_str(cfg, "tech", "scaling_rule"));
	if (rule < 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "%s: config has no valid [tech] scaling_rule",
				      cfg->path);
	c->rule = (enum weft_scaling_rule)rule;
	c->vdd_v = weft_config_num(cfg, "tech", "vdd_v");
	snprintf(c->basis, sizeof(c->basis), "%s", weft_config_str(cfg, "tech", "energy_basis"));

	char path[PATH_MAX];
	const char *et = weft_config_str(cfg, "tech", "energy_table");
	int rc;
	if (et[0]) {
		rc = weft_config_path(cfg, "tech", "energy_table", path, sizeof(path), err);
	} else {
		char rel[96];
		snprintf(rel, sizeof(rel), "energy/%s.csv", c->basis);
		rc = weft_config_resolve_path(cfg, rel, path, sizeof(path), err);
	}
	if (rc == 0)
		rc = weft_energy_table_load(path, &c->events, err);
	if (rc < 0) {
		blame_key(cfg, et[0] ? "energy_table" : "energy_basis", err);
		goto fail;
	}
	rc = weft_config_path(cfg, "tech", "static_table", path, sizeof(path), err);
	if (rc == 0)
		rc = weft_static_table_load(path, &c->statics, err);
	if (rc < 0) {
		blame_key(cfg, "static_table", err);
		goto fail;
	}
	rc = weft_config_path(cfg, "tech", "area_table", path, sizeof(path), err);
	if (rc == 0)
		rc = weft_area_table_load(path, &c->area, err);
	if (rc < 0) {
		blame_key(cfg, "area_table", err);
		goto fail;
	}
	return 0;
fail:
	weft_energy_ctx_free(c);
	return rc;
}

void weft_energy_ctx_free(struct weft_energy_ctx *c)
{
	if (!c)
		return;
	weft_energy_table_free(&c->events);
	weft_static_table_free(&c->statics);
	weft_area_table_free(&c->area);
}

int weft_energy_eval(const struct weft_energy_ctx *c, const struct weft_event_def *defs,
		     uint32_t nevents, const double *counts, double seconds,
		     const struct weft_component *comps, uint32_t ncomps,
		     struct weft_energy_report *out, struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	out->node_nm = c->node_nm;
	out->rule = c->rule;
	out->seconds = seconds;
	snprintf(out->basis, sizeof(out->basis), "%s", c->basis);
	snprintf(out->energy_table, sizeof(out->energy_table), "%s", c->events.path);
	snprintf(out->static_table, sizeof(out->static_table), "%s", c->statics.path);
	for (uint32_t i = 0; i < nevents; i++) {
		double n = counts ? counts[i] : 0;
		const struct weft_energy_row *row = weft_energy_table_find(&c->events, defs[i].name);
		if (!row && n == 0)
			continue;
		double j;
		struct weft_scaling sc;
		int rc = weft_energy_event_at(&c->events, defs[i].name, c->node_nm, c->rule, c->vdd_v,
					      &j, &sc, err);
		if (rc < 0)
			return rc;
		if (out->nlines < WEFT_ENERGY_MAX_LINES) {
			struct weft_energy_line *l = &out->lines[out->nlines++];
			snprintf(l->event, sizeof(l->event), "%s", defs[i].name);
			l->cat = defs[i].cat;
			l->count = n;
			l->pj_per_event = j * 1e12;
			l->joules = n * j;
			l->from_node_nm = row->node_nm;
			l->scaled = sc.energy != 1;
		}
		if (sc.energy != 1) {
			if (!out->nscaled)
				snprintf(out->scaling_note, sizeof(out->scaling_note), "%s", sc.note);
			out->nscaled++;
		}
		if ((unsigned)defs[i].cat < WEFT_CAT_COUNT)
			out->cat_j[defs[i].cat] += n * j;
		out->dynamic_j += n * j;
	}
	if (ncomps > 0) {
		struct weft_area_report ar;
		int rc = weft_area_of_components(&c->area, comps, ncomps, c->node_nm, c->rule, &ar, err);
		if (rc < 0)
			return rc;
		out->area_mm2 = ar.total_mm2;
		for (uint32_t i = 0; i < ar.nlines; i++) {
			double w;
			rc = weft_static_power_at(&c->statics, ar.lines[i].component, ar.lines[i].count,
						  ar.lines[i].mm2, c->node_nm, c->rule, c->vdd_v, &w, NULL,
						  err);
			if (rc < 0)
				return rc;
			out->static_w += w;
		}
	}
	out->static_j = out->static_w * seconds;
	out->cat_j[WEFT_CAT_STATIC] += out->static_j;
	out->total_j = out->dynamic_j + out->static_j;
	out->avg_power_w = seconds > 0 ? out->total_j / seconds : 0;
	return 0;
}

int weft_energy_of_result(const struct weft_config *cfg, const struct weft_model_result *r,
			  struct weft_energy_report *out, struct weft_error *err)
{
	struct weft_energy_ctx c;
	int rc = weft_energy_ctx_init(&c, cfg, err);
	if (rc < 0)
		return rc;
	const struct weft_model *m = r->model;
	if (!m) {
		weft_energy_ctx_free(&c);
		return weft_error_set(err, WEFT_ERR_INTERNAL, "model result without its model");
	}
	rc = weft_energy_eval(&c, m->events, m->nevents, r->events, r->seconds, r->components,
			      r->ncomponents, out, err);
	weft_energy_ctx_free(&c);
	return rc;
}
