/*
 * estimate.c - weft_estimate_run: one trace, a set of configs. Checks what
 * the user typed first (override syntax and targets, config names, the
 * baseline) so a typo fails in milliseconds, then for each config: load and
 * validate it (models/config.h), replay the trace through its model
 * (weft_model_run), price the events and the static power per launch and in
 * total (energy/energy.h), price the components (area/area.h), and derive
 * the report figures and the ratios against the baseline (derive.c).
 */
#include "estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy.h"

#define MAX_CONFIGS 64

/* The config's report name: its file name without directory and ".ini"
 * (the same rule as weft_config_load's cfg->name). */
static void config_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	if (n >= len)
		n = len - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static void list_names(char names[][64], uint32_t n, char *out, size_t len)
{
	out[0] = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s%s", i ? ", " : "", names[i]);
	}
}

void weft_est_report_free(struct weft_est_report *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		free(r->configs[i].launches);
		free(r->configs[i].area_items);
		weft_model_result_free(&r->configs[i].result);
	}
	free(r->configs);
	memset(r, 0, sizeof(*r));
}

static void energy_basis(const struct weft_energy_report *e, char *out, size_t len)
{
	snprintf(out, len, "%g nm, %s events (%s), static %s, scaling rule %s%s%s", e->node_nm,
		 e->basis, e->energy_table, e->static_table, weft_scaling_rule_name(e->rule),
		 e->scaling_note[0] ? "; " : "", e->scaling_note);
}

/* Energy of one launch (or the totals) into f. */
static int price_energy(const struct weft_energy_ctx *ctx, const struct weft_model_result *r,
			const double *events, double seconds, struct weft_est_figures *f,
			struct weft_energy_report *rep, struct weft_error *err)
{
	int rc = weft_energy_eval(ctx, r->model->events, r->model->nevents, events, seconds,
				  r->components, r->ncomponents, rep, err);
	if (rc < 0)
		return rc;
	for (int c = 0; c < WEFT_CAT_COUNT; c++)
		f->energy_j[c] = rep->cat_j[c];
	return 0;
}

/* Runs one loaded config over the trace and fills c. */
static int estimate_config(const struct weft_config *cfg, struct weft_trace *t,
			   const struct weft_cta_sample *sample, struct weft_est_config *c,
			   struct weft_error *err)
{
	snprintf(c->name, sizeof(c->name), "%s", cfg->name);
	snprintf(c->path, sizeof(c->path), "%s", cfg->path);
	snprintf(c->model, sizeof(c->model), "%s", cfg->model);
	snprintf(c->overrides, sizeof(c->overrides), "%s", cfg->overrides);
	c->hash = cfg->hash;

	const struct weft_model *m = weft_model_find(cfg->model);
	if (!m)
		return weft_error_at(err, WEFT_ERR_INPUT, cfg->path, 0, 0,
				     "unknown model `%s` in [model] name", cfg->model);
	struct weft_model_result *r = &c->result;
	int rc = weft_model_run(m, cfg, t, sample, r, err);
	if (rc < 0)
		return rc;
	c->clock_hz = r->clock_hz;

	struct weft_energy_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	rc = weft_energy_ctx_init(&ctx, cfg, err);
	if (rc < 0) {
		weft_error_prefix(err, "config %s: ", cfg->path);
		return rc;
	}
	struct weft_energy_report *erep = malloc(sizeof(*erep));
	struct weft_area_report *arep = malloc(sizeof(*arep));
	c->launches = calloc(r->nlaunches ? r->nlaunches : 1, sizeof(*c->launches));
	c->area_items = calloc(r->ncomponents ? r->ncomponents : 1, sizeof(*c->area_items));
	if (!erep || !arep || !c->launches || !c->area_items) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory estimating %s", cfg->path);
		goto out;
	}

	/* area first: the figures' perf/area needs it */
	rc = weft_area_of_components(&ctx.area, r->components, r->ncomponents, ctx.node_nm, ctx.rule,
				     arep, err);
	if (rc < 0)
		goto out;
	c->area_mm2 = arep->total_mm2;
	c->narea = arep->nlines;
	for (uint32_t i = 0; i < arep->nlines; i++) {
		struct weft_est_area_item *it = &c->area_items[i];
		snprintf(it->name, sizeof(it->name), "%s", arep->lines[i].component);
		snprintf(it->why, sizeof(it->why), "%s", arep->lines[i].why);
		it->count = arep->lines[i].count;
		it->area_mm2 = arep->lines[i].mm2;
	}
	snprintf(c->area_basis, sizeof(c->area_basis), "%g nm, table %s%s%s", arep->node_nm,
		 arep->table, arep->scaling_note[0] ? "; " : "", arep->scaling_note);

	c->nlaunches = r->nlaunches;
	for (uint32_t l = 0; l < r->nlaunches; l++) {
		const struct weft_launch_result *lr = &r->launches[l];
		struct weft_est_figures *f = &c->launches[l];
		f->launch = lr->launch;
		snprintf(f->kernel, sizeof(f->kernel), "%s", lr->kernel);
		snprintf(f->limiter, sizeof(f->limiter), "%s", lr->limiter);
		f->cycles = lr->cycles;
		f->thread_insts = lr->thread_insts;
		f->stats = lr->stats;
		f->nstats = lr->nstats;
		double secs = r->clock_hz > 0 ? lr->cycles / r->clock_hz : 0;
		rc = price_energy(&ctx, r, lr->events, secs, f, erep, err);
		if (rc < 0) {
			weft_error_prefix(err, "config %s, launch %u: ", cfg->path, l);
			goto out;
		}
		weft_est_derive(f, r->clock_hz, c->area_mm2);
	}

	struct weft_est_figures *tot = &c->total;
	tot->launch = WEFT_EST_TOTAL;
	tot->cycles = r->cycles;
	tot->thread_insts = r->thread_insts;
	tot->stats = r->stats;
	tot->nstats = r->nstats;
	weft_est_total_limiter(c->launches, c->nlaunches, tot->limiter, sizeof(tot->limiter));
	rc = price_energy(&ctx, r, r->events, r->seconds, tot, erep, err);
	if (rc < 0) {
		weft_error_prefix(err, "config %s: ", cfg->path);
		goto out;
	}
	c->static_w = erep->static_w;
	energy_basis(erep, c->energy_basis, sizeof(c->energy_basis));
	weft_est_derive(tot, r->clock_hz, c->area_mm2);
	/* time as the model reported it (it may differ from cycles / clock
	 * when the model says so) */
	if (r->seconds > 0)
		tot->seconds = r->seconds;
out:
	free(erep);
	free(arep);
	weft_energy_ctx_free(&ctx);
	return rc;
}

int weft_estimate_run(const struct weft_est_request *req, struct weft_est_report *out,
		      struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	if (req->nconfigs == 0)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "no configuration given; name one or more with -c CONFIG.ini "
				      "(e.g. -c configs/fermi-sm.ini)");
	if (req->nconfigs > MAX_CONFIGS)
		return weft_error_set(err, WEFT_ERR_INPUT, "%u configurations given; at most %d per run",
				      req->nconfigs, MAX_CONFIGS);

	/* names, duplicates, baseline, overrides: all before the expensive part */
	char (*names)[64] = calloc(req->nconfigs, sizeof(*names));
	const char **ov = calloc(req->noverrides ? req->noverrides : 1, sizeof(*ov));
	char (*targets)[64] = calloc(req->noverrides ? req->noverrides : 1, sizeof(*targets));
	int rc = 0;
	if (!names || !ov || !targets) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto fail;
	}
	char list[MAX_CONFIGS * 66];
	for (uint32_t i = 0; i < req->nconfigs; i++) {
		config_name(req->config_paths[i], names[i], sizeof(names[i]));
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) == 0) {
				rc = weft_error_set(err, WEFT_ERR_INPUT,
						    "two configs are named `%s` (%s and %s); reports name "
						    "configs by file name, so copy one under another name",
						    names[i], req->config_paths[j], req->config_paths[i]);
				goto fail;
			}
	}
	list_names(names, req->nconfigs, list, sizeof(list));
	uint32_t baseline = 0;
	if (req->baseline) {
		uint32_t i = 0;
		while (i < req->nconfigs && strcmp(names[i], req->baseline) != 0)
			i++;
		if (i == req->nconfigs) {
			rc = weft_error_set(err, WEFT_ERR_INPUT,
					    "unknown baseline `%s`; --baseline takes a config name (its file "
					    "name without .ini): %s",
					    req->baseline, list);
			goto fail;
		}
		baseline = i;
	}
	for (uint32_t k = 0; k < req->noverrides; k++) {
		rc = weft_est_parse_override(req->overrides[k], targets[k], sizeof(targets[k]), &ov[k],
					     err);
		if (rc < 0)
			goto fail;
		if (!targets[k][0])
			continue;
		uint32_t i = 0;
		while (i < req->nconfigs && strcmp(names[i], targets[k]) != 0)
			i++;
		if (i == req->nconfigs) {
			rc = weft_error_set(err, WEFT_ERR_INPUT,
					    "--set %s: no config named `%s`; the configs are: %s",
					    req->overrides[k], targets[k], list);
			goto fail;
		}
	}

	rc = weft_est_hash_file(req->trace_path, &out->trace_hash, &out->trace_bytes, err);
	if (rc < 0)
		goto fail;
	struct weft_trace *t = NULL;
	rc = weft_trace_open(req->trace_path, &t, err);
	if (rc < 0)
		goto fail;
	const struct weft_trace_info *info = weft_trace_info(t);
	snprintf(out->version, sizeof(out->version), "%s", WEFT_VERSION);
	snprintf(out->trace_path, sizeof(out->trace_path), "%s", req->trace_path);
	snprintf(out->workload, sizeof(out->workload), "%s", info->workload);
	snprintf(out->size, sizeof(out->size), "%s", info->size);
	out->nlaunches = info->nlaunches;
	weft_cta_sample_describe(&req->sample, out->sampling, sizeof(out->sampling));
	out->baseline = baseline;
	out->configs = calloc(req->nconfigs, sizeof(*out->configs));
	if (!out->configs) {
		weft_trace_close(t);
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto fail;
	}

	const char **mine = calloc(req->noverrides ? req->noverrides : 1, sizeof(*mine));
	for (uint32_t i = 0; mine && i < req->nconfigs; i++) {
		uint32_t n = 0;
		for (uint32_t k = 0; k < req->noverrides; k++)
			if (!targets[k][0] || strcmp(targets[k], names[i]) == 0)
				mine[n++] = ov[k];
		struct weft_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		rc = weft_config_load(req->config_paths[i], mine, n, &cfg, err);
		if (rc < 0)
			break;
		out->nconfigs = i + 1;
		rc = estimate_config(&cfg, t, &req->sample, &out->configs[i], err);
		weft_config_free(&cfg);
		if (rc < 0)
			break;
	}
	if (!mine)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	free(mine);
	weft_trace_close(t);
	if (rc < 0)
		goto fail;
	weft_est_compare(out);
	free(names);
	free(ov);
	free(targets);
	return 0;
fail:
	weft_est_report_free(out);
	free(names);
	free(ov);
	free(targets);
	return rc;
}
