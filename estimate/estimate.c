/*
 * estimate.c - weft_estimate_run: one trace, a set of configs, optionally
 * swept (--sweep, sweep.h). Checks what the user typed first (override and
 * sweep syntax and targets, config names, the baseline) and loads and
 * validates every config and sweep point (models/config.h: keys, ranges)
 * so a typo fails in milliseconds; then per model, all its points at once
 * (weft_model_run_many: one read of the trace when the model has the
 * per-CTA ops), and per point: price the events and the static power per
 * launch and in total (energy/energy.h), price the components
 * (area/area.h), and derive the report figures and the ratios against the
 * baseline (derive.c). With --shard K/N (shard.h) every point is still
 * loaded and named, but only shard K's are run and priced, and no ratios
 * are taken: the merge of the parts does that.
 */
#include "estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy.h"
#include "shard.h"

#define MAX_CONFIGS 64

void weft_est_config_name(const char *path, char *out, size_t len)
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
		free(r->configs[i].own_cpi);
		free(r->configs[i].own_stats);
		free(r->configs[i].own_text);
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

/* Prices config cfg's model result (already in c->result) and fills c. */
static int estimate_config(const struct weft_config *cfg, struct weft_est_config *c,
			   struct weft_error *err)
{
	struct weft_model_result *r = &c->result;
	int rc;
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
	char priced[96] = "";
	if (arep->npriced)
		snprintf(priced, sizeof(priced), "%u of %u components priced by the model (sources: "
			 "weft-area CONFIG), ", arep->npriced, arep->nlines);
	snprintf(c->area_basis, sizeof(c->area_basis), "%g nm, %stable %s%s%s", arep->node_nm,
		 priced, arep->table, arep->scaling_note[0] ? "; " : "", arep->scaling_note);

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
		f->cpi = &lr->cpi;
		f->explain = lr->explain;
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
	tot->cpi = &r->cpi;
	if (r->cpi.n)
		snprintf(tot->limiter, sizeof(tot->limiter), "%s", weft_cpi_largest(&r->cpi));
	else
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

/* One point to run: a config with its --set overrides and its sweep
 * values applied. */
struct point {
	uint32_t config;                 /* index into the request's configs */
	struct weft_config cfg;
};

/* Everything weft_estimate_run checks and loads before reading the trace. */
struct plan {
	char (*names)[64];               /* [nconfigs] */
	const char **ov;                 /* [noverrides] "sec.key=v" */
	char (*targets)[64];             /* [noverrides] */
	struct weft_config *base;        /* [nconfigs] with --set only */
	struct weft_est_sweep *sw;       /* [nsweeps] */
	uint8_t *applies;                /* [nconfigs * nsweeps] */
	struct point *pts;
	uint32_t npts;
	char *list;                      /* config names, for messages */
};

static void plan_free(const struct weft_est_request *req, struct plan *p)
{
	for (uint32_t i = 0; p->base && i < req->nconfigs; i++)
		weft_config_free(&p->base[i]);
	for (uint32_t k = 0; p->sw && k < req->nsweeps; k++)
		weft_est_sweep_free(&p->sw[k]);
	for (uint32_t i = 0; p->pts && i < p->npts; i++)
		weft_config_free(&p->pts[i].cfg);
	free(p->names);
	free(p->ov);
	free(p->targets);
	free(p->base);
	free(p->sw);
	free(p->applies);
	free(p->pts);
	free(p->list);
	memset(p, 0, sizeof(*p));
}

static int find_name(char names[][64], uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

/* The sweeps: syntax, targets, which configs each applies to. */
static int plan_sweeps(const struct weft_est_request *req, struct plan *p, struct weft_error *err)
{
	if (req->nsweeps > WEFT_EST_MAX_SWEEPS)
		return weft_error_set(err, WEFT_ERR_INPUT, "%u --sweep options; at most %d per run",
				      req->nsweeps, WEFT_EST_MAX_SWEEPS);
	for (uint32_t k = 0; k < req->nsweeps; k++) {
		struct weft_est_sweep *w = &p->sw[k];
		int rc = weft_est_parse_sweep(req->sweeps[k], w, err);
		if (rc < 0)
			return rc;
		int only = -1;
		if (w->target[0]) {
			only = find_name(p->names, req->nconfigs, w->target);
			if (only < 0)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "--sweep %s: no config named `%s`; the configs are: %s",
						      w->spec, w->target, p->list);
		}
		uint32_t any = 0;
		for (uint32_t i = 0; i < req->nconfigs; i++) {
			if (only >= 0 && (uint32_t)only != i)
				continue;
			int has = weft_config_find(&p->base[i], w->section, w->key) != NULL;
			if (has && strcmp(w->section, "model") == 0)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "--sweep %s: the model cannot be swept; give one -c per model",
						      w->spec);
			p->applies[i * req->nsweeps + k] = (uint8_t)has;
			any += (uint32_t)has;
			/* swept twice, or both set and swept: ambiguous */
			for (uint32_t j = 0; has && j < k; j++)
				if (p->applies[i * req->nsweeps + j] &&
				    strcmp(p->sw[j].section, w->section) == 0 &&
				    strcmp(p->sw[j].key, w->key) == 0)
					return weft_error_set(err, WEFT_ERR_INPUT,
							      "--sweep %s and --sweep %s both sweep [%s] %s of "
							      "config %s; give its values in one --sweep",
							      p->sw[j].spec, w->spec, w->section, w->key,
							      p->names[i]);
			for (uint32_t o = 0; has && o < req->noverrides; o++) {
				if (p->targets[o][0] && strcmp(p->targets[o], p->names[i]) != 0)
					continue;
				size_t ls = strlen(w->section), lk = strlen(w->key);
				const char *a = p->ov[o];
				if (strncmp(a, w->section, ls) == 0 && a[ls] == '.' &&
				    strncmp(a + ls + 1, w->key, lk) == 0 && a[ls + 1 + lk] == '=')
					return weft_error_set(err, WEFT_ERR_INPUT,
							      "--set %s and --sweep %s both give [%s] %s of "
							      "config %s; drop one",
							      req->overrides[o], w->spec, w->section, w->key,
							      p->names[i]);
			}
		}
		if (any)
			continue;
		/* no config has the key: the config error, with a suggestion */
		const char *models[MAX_CONFIGS];
		uint32_t nm = 0;
		for (uint32_t i = 0; i < req->nconfigs; i++)
			if (only < 0 || (uint32_t)only == i)
				models[nm++] = p->base[i].model;
		char hint[512];
		weft_est_sweep_suggest(w->section, w->key, models, nm, hint, sizeof(hint));
		if (only >= 0)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--sweep %s: unknown key [%s] %s for %s (model %s)%s", w->spec,
					      w->section, w->key, p->base[only].path, p->base[only].model, hint);
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sweep %s: unknown key [%s] %s: no config has it (configs: %s)%s",
				      w->spec, w->section, w->key, p->list, hint);
	}
	return 0;
}

/* Every point of every config, loaded and checked (ranges per point). */
static int plan_points(const struct weft_est_request *req, struct plan *p, struct weft_error *err)
{
	uint64_t total = 0;
	uint64_t *npc = calloc(req->nconfigs, sizeof(*npc));
	if (!npc)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < req->nconfigs; i++) {
		npc[i] = 1;
		for (uint32_t k = 0; k < req->nsweeps; k++)
			if (p->applies[i * req->nsweeps + k] && npc[i] <= WEFT_EST_MAX_POINTS)
				npc[i] *= p->sw[k].nvalues;
		total += npc[i];
	}
	if (total > WEFT_EST_MAX_POINTS) {
		free(npc);
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "the sweeps make more than %d points (configs x values); sweep "
				      "fewer values or split the run",
				      WEFT_EST_MAX_POINTS);
	}
	p->pts = calloc(total, sizeof(*p->pts));
	const char **mine = calloc(req->noverrides + WEFT_EST_MAX_SWEEPS + 1, sizeof(*mine));
	char (*assign)[200] = calloc(WEFT_EST_MAX_SWEEPS, sizeof(*assign));
	int rc = 0;
	if (!p->pts || !mine || !assign) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %llu points",
				    (unsigned long long)total);
		goto out;
	}
	for (uint32_t i = 0; i < req->nconfigs && rc == 0; i++) {
		uint32_t n = 0;
		for (uint32_t o = 0; o < req->noverrides; o++)
			if (!p->targets[o][0] || strcmp(p->targets[o], p->names[i]) == 0)
				mine[n++] = p->ov[o];
		uint32_t ks[WEFT_EST_MAX_SWEEPS], counts[WEFT_EST_MAX_SWEEPS], idx[WEFT_EST_MAX_SWEEPS];
		uint32_t nk = 0;
		for (uint32_t k = 0; k < req->nsweeps; k++)
			if (p->applies[i * req->nsweeps + k]) {
				ks[nk] = k;
				counts[nk++] = p->sw[k].nvalues;
			}
		for (uint64_t q = 0; q < npc[i]; q++) {
			weft_est_sweep_point(counts, nk, q, idx);
			for (uint32_t j = 0; j < nk; j++) {
				const struct weft_est_sweep *w = &p->sw[ks[j]];
				snprintf(assign[j], sizeof(assign[j]), "%s.%s=%s", w->section, w->key,
					 w->values[idx[j]]);
				mine[n + j] = assign[j];
			}
			struct point *pt = &p->pts[p->npts];
			pt->config = i;
			rc = weft_config_load(req->config_paths[i], mine, n + nk, &pt->cfg, err);
			if (rc < 0) {
				if (nk) {
					char nm[192];
					size_t off = (size_t)snprintf(nm, sizeof(nm), "%s[", p->names[i]);
					for (uint32_t j = 0; j < nk && off < sizeof(nm); j++)
						off += (size_t)snprintf(nm + off, sizeof(nm) - off, "%s%s",
									j ? "," : "", assign[j]);
					weft_error_prefix(err, "--sweep point %s]: ", nm);
				}
				break;
			}
			p->npts++;
		}
	}
out:
	free(npc);
	free(mine);
	free(assign);
	return rc;
}

static int plan_make(const struct weft_est_request *req, struct plan *p, struct weft_error *err)
{
	memset(p, 0, sizeof(*p));
	if (req->nconfigs == 0)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "no configuration given; name one or more with -c CONFIG.ini "
				      "(e.g. -c configs/fermi-sm.ini)");
	if (req->nconfigs > MAX_CONFIGS)
		return weft_error_set(err, WEFT_ERR_INPUT, "%u configurations given; at most %d per run",
				      req->nconfigs, MAX_CONFIGS);
	uint32_t no = req->noverrides ? req->noverrides : 1;
	uint32_t ns = req->nsweeps ? req->nsweeps : 1;
	p->names = calloc(req->nconfigs, sizeof(*p->names));
	p->ov = calloc(no, sizeof(*p->ov));
	p->targets = calloc(no, sizeof(*p->targets));
	p->base = calloc(req->nconfigs, sizeof(*p->base));
	p->sw = calloc(ns, sizeof(*p->sw));
	p->applies = calloc((size_t)req->nconfigs * ns, 1);
	p->list = calloc(MAX_CONFIGS, 66);
	if (!p->names || !p->ov || !p->targets || !p->base || !p->sw || !p->applies || !p->list)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");

	/* names, duplicates, overrides: all before the expensive part */
	for (uint32_t i = 0; i < req->nconfigs; i++) {
		weft_est_config_name(req->config_paths[i], p->names[i], sizeof(p->names[i]));
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(p->names[i], p->names[j]) == 0)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "two configs are named `%s` (%s and %s); reports name "
						      "configs by file name, so copy one under another name",
						      p->names[i], req->config_paths[j], req->config_paths[i]);
	}
	list_names(p->names, req->nconfigs, p->list, (size_t)MAX_CONFIGS * 66);
	/* an unknown baseline fails here when it cannot name a sweep point */
	if (req->baseline && !strchr(req->baseline, '[') &&
	    find_name(p->names, req->nconfigs, req->baseline) < 0)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "unknown baseline `%s`; --baseline takes a config name (its file "
				      "name without .ini): %s",
				      req->baseline, p->list);
	for (uint32_t k = 0; k < req->noverrides; k++) {
		int rc = weft_est_parse_override(req->overrides[k], p->targets[k], sizeof(p->targets[k]),
						 &p->ov[k], err);
		if (rc < 0)
			return rc;
		if (p->targets[k][0] && find_name(p->names, req->nconfigs, p->targets[k]) < 0)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--set %s: no config named `%s`; the configs are: %s",
					      req->overrides[k], p->targets[k], p->list);
	}
	/* the configs with their --set overrides: their schemas decide where
	 * each sweep applies */
	const char **mine = calloc(no, sizeof(*mine));
	if (!mine)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	int rc = 0;
	for (uint32_t i = 0; i < req->nconfigs && rc == 0; i++) {
		uint32_t n = 0;
		for (uint32_t k = 0; k < req->noverrides; k++)
			if (!p->targets[k][0] || strcmp(p->targets[k], p->names[i]) == 0)
				mine[n++] = p->ov[k];
		rc = weft_config_load(req->config_paths[i], mine, n, &p->base[i], err);
	}
	free(mine);
	if (rc < 0)
		return rc;
	rc = plan_sweeps(req, p, err);
	if (rc < 0)
		return rc;
	return plan_points(req, p, err);
}

/* The report name of point pt: its config's name, plus [sec.key=v,...]
 * when sweeps apply to it; c->point gets the values per swept key; and
 * what identifies it before it runs (path, model, hash, overrides). */
static void point_name(const struct weft_est_request *req, const struct plan *p,
		       const struct point *pt, struct weft_est_config *c)
{
	uint32_t i = pt->config;
	snprintf(c->path, sizeof(c->path), "%s", pt->cfg.path);
	snprintf(c->model, sizeof(c->model), "%s", pt->cfg.model);
	snprintf(c->overrides, sizeof(c->overrides), "%s", pt->cfg.overrides);
	c->hash = pt->cfg.hash;
	snprintf(c->config, sizeof(c->config), "%s", p->names[i]);
	size_t off = (size_t)snprintf(c->name, sizeof(c->name), "%s", p->names[i]);
	uint32_t nk = 0;
	for (uint32_t k = 0; k < req->nsweeps; k++) {
		if (!p->applies[i * req->nsweeps + k])
			continue;
		const struct weft_est_sweep *w = &p->sw[k];
		const struct weft_config_value *v = weft_config_find(&pt->cfg, w->section, w->key);
		/* the value as typed in the sweep (the override is the last one
		 * applied, so v->str holds it) */
		const char *val = v ? v->str : "";
		snprintf(c->point[k], sizeof(c->point[k]), "%.63s", val);
		if (off < sizeof(c->name))
			off += (size_t)snprintf(c->name + off, sizeof(c->name) - off, "%s%s.%s=%s",
						nk ? "," : "[", w->section, w->key, val);
		nk++;
	}
	if (nk && off < sizeof(c->name))
		snprintf(c->name + off, sizeof(c->name) - off, "]");
}

/* One model's run_many progress (done of its own total) as progress over
 * every model's launches. */
struct est_progress {
	weft_progress_fn fn;
	void *user;
	uint64_t base, per, total;
};

static void est_progress(void *user, uint64_t done, uint64_t total)
{
	struct est_progress *p = user;
	if (total)
		p->fn(p->user, p->base + done * p->per / total, p->total);
}

static int estimate_once(const struct weft_est_request *req, struct weft_est_report *out,
			 struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	struct plan p;
	struct weft_config **cfgs = NULL;
	struct weft_model_result *res = NULL;
	uint32_t *idx = NULL;
	uint8_t *done = NULL;
	struct weft_trace *t = NULL;
	int rc = 0;
	memset(&p, 0, sizeof(p));
	if (req->nshards && (req->shard >= req->nshards || req->nshards > WEFT_EST_MAX_SHARDS)) {
		rc = weft_error_set(err, WEFT_ERR_INPUT,
				    "shard %u of %u: K must be less than N, and N at most %d", req->shard,
				    req->nshards, WEFT_EST_MAX_SHARDS);
		goto fail;
	}
	rc = plan_make(req, &p, err);
	if (rc < 0)
		goto fail;

	out->configs = calloc(p.npts, sizeof(*out->configs));
	if (!out->configs) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto fail;
	}
	out->nconfigs = p.npts;
	out->nsweeps = req->nsweeps;
	for (uint32_t k = 0; k < req->nsweeps; k++)
		snprintf(out->sweep_keys[k], sizeof(out->sweep_keys[k]), "%s.%s", p.sw[k].section,
			 p.sw[k].key);
	for (uint32_t i = 0; i < p.npts; i++) {
		point_name(req, &p, &p.pts[i], &out->configs[i]);
		p.pts[i].cfg.explain = req->explain;
		p.pts[i].cfg.alone = req->alone && p.npts == 1;
	}

	/* the baseline: a point's name, or a config's (its first point) */
	uint32_t baseline = 0;
	if (req->baseline) {
		uint32_t i = 0;
		while (i < p.npts && strcmp(out->configs[i].name, req->baseline) != 0)
			i++;
		if (i == p.npts) {
			i = 0;
			while (i < p.npts && strcmp(out->configs[i].config, req->baseline) != 0)
				i++;
		}
		if (i == p.npts) {
			rc = weft_error_set(err, WEFT_ERR_INPUT,
					    "unknown baseline `%s`; --baseline takes a config name (its file "
					    "name without .ini: %s) or a sweep point as reports name it, "
					    "e.g. %s",
					    req->baseline, p.list, out->configs[p.npts - 1].name);
			goto fail;
		}
		baseline = i;
	}

	rc = weft_est_hash_file(req->trace_path, &out->trace_hash, &out->trace_bytes, err);
	if (rc < 0)
		goto fail;
	rc = weft_trace_open(req->trace_path, &t, err);
	if (rc < 0)
		goto fail;
	weft_trace_set_jobs(t, req->jobs);
	const struct weft_trace_info *info = weft_trace_info(t);
	snprintf(out->version, sizeof(out->version), "%s", WEFT_VERSION);
	snprintf(out->trace_path, sizeof(out->trace_path), "%s", req->trace_path);
	snprintf(out->workload, sizeof(out->workload), "%s", info->workload);
	snprintf(out->size, sizeof(out->size), "%s", info->size);
	out->nlaunches = info->nlaunches;
	{
		/* "with warming" when some model of the run warms (model.h
		 * warm_cta); the others read the sample alone */
		struct weft_cta_sample ds = req->sample;
		int warms = 0;
		for (uint32_t i = 0; i < p.npts && !warms; i++) {
			const struct weft_model *wm = weft_model_find(p.pts[i].cfg.model);
			warms = wm && wm->warm_cta;
		}
		ds.warm = ds.warm && warms;
		weft_cta_sample_describe(&ds, out->sampling, sizeof(out->sampling));
	}
	out->baseline = baseline;
	out->explain = req->explain;
	out->shard = req->shard;
	out->nshards = req->nshards;

	/* each model once over all its points (mixed -c lists: one group per
	 * model, in order of first appearance) */
	cfgs = calloc(p.npts, sizeof(*cfgs));
	res = calloc(p.npts, sizeof(*res));
	idx = calloc(p.npts, sizeof(*idx));
	done = calloc(p.npts, 1);
	if (!cfgs || !res || !idx || !done) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto fail;
	}
	/* progress: each model's run is the trace's CTAs' worth of the whole
	 * (a shard: the models it runs) */
	struct est_progress prog = { req->progress, req->progress_user, 0, 0, 0 };
	if (prog.fn) {
		for (uint32_t l = 0; l < info->nlaunches; l++)
			prog.per += weft_trace_launch(t, l)->nctas;
		for (uint32_t i = 0; i < p.npts; i++) {
			if (!weft_est_shard_owns(i, req->shard, req->nshards))
				continue;
			uint32_t j = 0;
			while (j < i && (!weft_est_shard_owns(j, req->shard, req->nshards) ||
					 strcmp(p.pts[j].cfg.model, p.pts[i].cfg.model) != 0))
				j++;
			prog.total += j == i ? prog.per : 0;
		}
	}
	uint32_t whole_passes = 0; /* what one process running every point reads */
	for (uint32_t first = 0; first < p.npts; first++) {
		if (done[first])
			continue;
		const char *model = p.pts[first].cfg.model;
		const struct weft_model *m = weft_model_find(model);
		if (!m) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, p.pts[first].cfg.path, 0, 0,
					   "unknown model `%s` in [model] name", model);
			goto fail;
		}
		uint32_t n = 0, nall = 0;
		for (uint32_t i = first; i < p.npts; i++)
			if (!done[i] && strcmp(p.pts[i].cfg.model, model) == 0) {
				done[i] = 1;
				nall++;
				if (!weft_est_shard_owns(i, req->shard, req->nshards))
					continue;
				idx[n] = i;
				cfgs[n++] = &p.pts[i].cfg;
			}
		whole_passes += weft_est_model_passes(m, nall, info->nlaunches);
		if (n == 0)
			continue;
		uint32_t passes = 0;
		rc = weft_model_run_many_progress(m, (const struct weft_config *const *)cfgs, n, t,
						  &req->sample, res, &passes,
						  prog.fn ? est_progress : NULL, &prog, err);
		if (rc < 0)
			goto fail;
		prog.base += prog.per;
		out->trace_passes += passes;
		for (uint32_t j = 0; j < n; j++)
			out->configs[idx[j]].result = res[j];
		for (uint32_t j = 0; j < n && rc == 0; j++)
			rc = estimate_config(cfgs[j], &out->configs[idx[j]], err);
		if (rc < 0)
			goto fail;
	}
	weft_trace_close(t);
	t = NULL;
	if (req->nshards) {
		/* a part: the merge prints what one process would, and computes
		 * the ratios (the baseline may be another shard's) */
		out->shard_passes = out->trace_passes;
		out->trace_passes = whole_passes;
	} else {
		weft_est_compare(out);
	}
	free(cfgs);
	free(res);
	free(idx);
	free(done);
	plan_free(req, &p);
	return 0;
fail:
	if (t)
		weft_trace_close(t);
	weft_est_report_free(out);
	free(cfgs);
	free(res);
	free(idx);
	free(done);
	plan_free(req, &p);
	return rc;
}

/* ---- a random sample: the estimate, then each random group's replay for
 * the intervals (sample_ci.h) ---- */

static int estimate_sampled(const struct weft_est_request *req, struct weft_est_report *out,
			    struct weft_error *err)
{
	const uint32_t G = WEFT_EST_CI_GROUPS;
	struct weft_trace *t = NULL;
	uint32_t *nctas = NULL, *nread = NULL;
	struct weft_est_ci_rep *rep = NULL;
	struct weft_est_report g;
	memset(&g, 0, sizeof(g));
	int rc = estimate_once(req, out, err);
	if (rc < 0)
		return rc;
	rc = weft_trace_open(req->trace_path, &t, err);
	if (rc < 0)
		goto fail;
	uint32_t L = weft_trace_info(t)->nlaunches, groups = 0;
	nctas = calloc(L ? L : 1, sizeof(*nctas));
	nread = calloc(L ? L : 1, sizeof(*nread));
	rep = calloc((size_t)out->nconfigs * (L ? L : 1) * G, sizeof(*rep));
	if (!nctas || !nread || !rep) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the intervals");
		goto fail;
	}
	for (uint32_t h = 0; h < L; h++) {
		nctas[h] = weft_trace_launch(t, h)->nctas;
		nread[h] = weft_cta_sample_size(&req->sample, nctas[h]);
		out->ctas_total += nctas[h];
		out->ctas_read += nread[h];
		uint32_t gh = nread[h] < G ? nread[h] : G;
		if (nread[h] < nctas[h] && gh > groups)
			groups = gh;
	}
	weft_trace_close(t);
	t = NULL;
	struct weft_est_request q = *req;
	q.progress = NULL;
	q.explain = 0;
	q.until = 0;
	q.sample.groups = G;
	q.sample.drop = req->ci_method == WEFT_CI_METHOD_JACKKNIFE;
	for (uint32_t k = 0; k < groups; k++) {
		q.sample.group = k;
		rc = estimate_once(&q, &g, err);
		if (rc < 0) {
			weft_error_prefix(err,
					  req->ci_method == WEFT_CI_METHOD_JACKKNIFE
						  ? "the sample less random group %u of %u: "
						  : "random group %u of %u: ",
					  k, G);
			goto fail;
		}
		for (uint32_t c = 0; c < out->nconfigs; c++)
			for (uint32_t h = 0; h < L && h < g.configs[c].nlaunches; h++) {
				const struct weft_est_figures *f = &g.configs[c].launches[h];
				struct weft_est_ci_rep *e = &rep[((size_t)c * L + h) * G + k];
				e->cycles = f->cycles;
				e->insts = (double)f->thread_insts;
				e->energy = f->energy_total_j;
			}
		out->trace_passes += g.trace_passes; /* the groups read the trace too */
		weft_est_report_free(&g);
	}
	struct weft_est_ci_input in = { L, nctas, nread, rep,
					req->confidence > 0 ? req->confidence : 0.95, req->ci_method };
	rc = weft_est_ci_compute(out, &in, err);
	if (rc < 0)
		goto fail;
	out->ci_groups = G;
	out->ci_method = req->ci_method;
	free(nctas);
	free(nread);
	free(rep);
	return 0;
fail:
	if (t)
		weft_trace_close(t);
	weft_est_report_free(&g);
	weft_est_report_free(out);
	free(nctas);
	free(nread);
	free(rep);
	return rc;
}

/* --sample-until: rounds of growing random samples */
static int estimate_until(const struct weft_est_request *req, struct weft_est_report *out,
			  struct weft_error *err)
{
	struct weft_trace *t = NULL;
	int rc = weft_trace_open(req->trace_path, &t, err);
	if (rc < 0)
		return rc;
	uint32_t maxn = 0;
	for (uint32_t h = 0; h < weft_trace_info(t)->nlaunches; h++)
		if (weft_trace_launch(t, h)->nctas > maxn)
			maxn = weft_trace_launch(t, h)->nctas;
	weft_trace_close(t);
	struct weft_est_request q = *req;
	uint32_t n = req->sample.count >= 2 ? req->sample.count : 2;
	for (uint32_t round = 1;; round++) {
		if (n >= maxn)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--sample-until %g%%: a sample of %u CTAs per launch would "
					      "read every CTA of the trace (its largest launch has %u): "
					      "the whole trace is needed for this error; replay it "
					      "without --sample, or ask for a larger error",
					      100 * req->until, n, maxn);
		q.sample.count = n;
		rc = estimate_sampled(&q, out, err);
		if (rc < 0)
			return rc;
		double worst = weft_est_ci_worst(out);
		if (worst <= req->until) {
			out->until = req->until;
			out->rounds = round;
			return 0;
		}
		weft_est_report_free(out);
		/* the n at which the widest interval would reach the target if
		 * its variance goes as 1/n - 1/N (the largest launch's N), with
		 * a 10% margin, and at least 1.5 n */
		double next = 1.5 * n;
		if (isfinite(worst) && worst > 0) {
			double shrink = (req->until / worst) * (req->until / worst);
			double inv = 1.0 / maxn + shrink * (1.0 / n - 1.0 / maxn);
			if (inv > 0 && 1.1 / inv > next)
				next = 1.1 / inv;
		}
		next = ceil(next);
		n = next >= maxn ? maxn : (uint32_t)next;
	}
}

int weft_estimate_run(const struct weft_est_request *req, struct weft_est_report *out,
		      struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	int random = req->sample.kind == WEFT_SAMPLE_RANDOM;
	if (req->until != 0 && !(req->until > 0 && req->until < 1))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sample-until %g%%: give a relative error between 0 and 100%% "
				      "(e.g. 2%%)", 100 * req->until);
	if (req->confidence != 0 && !(req->confidence > 0 && req->confidence < 1))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "confidence %g%% is not between 0 and 100%% (e.g. 95%%)",
				      100 * req->confidence);
	if (req->until > 0 && !random)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sample-until needs a random sample (random:N:SEED), not %s",
				      req->sample.kind == WEFT_SAMPLE_EVERY ? "every:K" : "all");
	if (random && req->nshards)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--shard with a random sample: a part cannot carry the random "
				      "groups the merged report's intervals need; run the sampled "
				      "estimate in one process (it reads only the sample), or shard "
				      "an unsampled or every:K run");
	if (!random)
		return estimate_once(req, out, err);
	if (req->until > 0)
		return estimate_until(req, out, err);
	return estimate_sampled(req, out, err);
}
