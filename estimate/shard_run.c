/*
 * shard_run.c - a part's "run" decoded into a report's header and its
 * points' identities (shard_part.h): what one process knows before it
 * replays anything. The merge does this for the first part only; every
 * other part's run must equal it (shard_merge.c).
 */
#include "shard_part.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/version.h"

static int point(const struct weft_est_jctx *c, const json_t *o, uint32_t i, uint32_t nsweeps,
		 struct weft_est_config *p)
{
	static const char *const keys[] = { "name", "config", "point", "path", "model",
					     "config_hash", "overrides", NULL };
	char where[48];
	snprintf(where, sizeof(where), "run.points[%u]", i);
	if (!json_is_object(o))
		return weft_est_j_bad(c, where, "not an object");
	json_t *a = NULL;
	int rc = weft_est_j_keys(c, o, where, keys);
	if (!rc)
		rc = weft_est_j_str(c, o, where, "name", p->name, sizeof(p->name));
	if (!rc)
		rc = weft_est_j_str(c, o, where, "config", p->config, sizeof(p->config));
	if (!rc)
		rc = weft_est_j_array(c, o, where, "point", nsweeps, &a);
	if (!rc && json_array_size(a) != nsweeps)
		rc = weft_est_j_bad(c, where, "\"point\" has %zu values for %u swept keys",
				    json_array_size(a), nsweeps);
	for (uint32_t k = 0; !rc && k < nsweeps; k++)
		rc = weft_est_j_strv(c, json_array_get(a, k), where, "a swept value", p->point[k],
				     sizeof(p->point[k]));
	if (!rc)
		rc = weft_est_j_str(c, o, where, "path", p->path, sizeof(p->path));
	if (!rc)
		rc = weft_est_j_str(c, o, where, "model", p->model, sizeof(p->model));
	if (!rc)
		rc = weft_est_j_hash(c, o, where, "config_hash", "fnv1a64", &p->hash);
	if (!rc)
		rc = weft_est_j_str(c, o, where, "overrides", p->overrides, sizeof(p->overrides));
	return rc;
}

static int trace(const struct weft_est_jctx *c, const json_t *run, struct weft_est_report *r)
{
	static const char *const keys[] = { "path", "hash", "bytes", "workload", "size", "launches",
					     NULL };
	json_t *t;
	uint64_t u = 0;
	int rc = weft_est_j_get(c, run, "run", "trace", JSON_OBJECT, &t);
	if (!rc)
		rc = weft_est_j_keys(c, t, "run.trace", keys);
	if (!rc)
		rc = weft_est_j_str(c, t, "run.trace", "path", r->trace_path, sizeof(r->trace_path));
	if (!rc)
		rc = weft_est_j_hash(c, t, "run.trace", "hash", WEFT_EST_TRACE_HASH, &r->trace_hash);
	if (!rc)
		rc = weft_est_j_uint(c, t, "run.trace", "bytes", UINT64_MAX, &r->trace_bytes);
	if (!rc)
		rc = weft_est_j_str(c, t, "run.trace", "workload", r->workload, sizeof(r->workload));
	if (!rc)
		rc = weft_est_j_str(c, t, "run.trace", "size", r->size, sizeof(r->size));
	if (!rc)
		rc = weft_est_j_uint(c, t, "run.trace", "launches", WEFT_EST_PART_MAX_LAUNCHES, &u);
	r->nlaunches = (uint32_t)u;
	return rc;
}

int weft_est_part_run(const char *name, const json_t *run, struct weft_est_report *r,
		      enum weft_format *fmt, struct weft_error *err)
{
	static const char *const keys[] = { "weft_version", "trace", "sampling", "baseline",
					     "explain", "format", "sweep", "trace_passes", "shards",
					     "points", NULL };
	struct weft_est_jctx c = { name, err };
	memset(r, 0, sizeof(*r));
	json_t *a = NULL, *v = NULL;
	uint64_t u = 0;
	char f[16];
	int rc = weft_est_j_keys(&c, run, "run", keys);
	if (!rc)
		rc = weft_est_j_str(&c, run, "run", "weft_version", r->version, sizeof(r->version));
	if (!rc && strcmp(r->version, WEFT_VERSION) != 0)
		return weft_error_at(err, WEFT_ERR_INPUT, name, 0, 0,
				     "a part made by weft %s; this is weft %s, whose report could differ: "
				     "merge with the weft that made the parts",
				     r->version, WEFT_VERSION);
	if (!rc)
		rc = trace(&c, run, r);
	if (!rc)
		rc = weft_est_j_str(&c, run, "run", "sampling", r->sampling, sizeof(r->sampling));
	if (!rc)
		rc = weft_est_j_get(&c, run, "run", "explain", JSON_TRUE, &v);
	if (!rc)
		r->explain = json_is_true(v);
	if (!rc)
		rc = weft_est_j_str(&c, run, "run", "format", f, sizeof(f));
	if (!rc && weft_format_parse(f) < 0)
		rc = weft_est_j_bad(&c, "run", "\"format\" is not table, csv or json");
	if (!rc && r->explain && weft_format_parse(f) == WEFT_FMT_CSV)
		rc = weft_est_j_bad(&c, "run", "--explain with --format csv, which weft-estimate refuses");
	if (!rc)
		*fmt = (enum weft_format)weft_format_parse(f);
	if (!rc)
		rc = weft_est_j_array(&c, run, "run", "sweep", WEFT_EST_MAX_SWEEPS, &a);
	for (size_t k = 0; !rc && k < json_array_size(a); k++) {
		rc = weft_est_j_strv(&c, json_array_get(a, k), "run.sweep", "a swept key",
				     r->sweep_keys[k], sizeof(r->sweep_keys[k]));
		r->nsweeps = (uint32_t)k + 1;
	}
	if (!rc)
		rc = weft_est_j_uint(&c, run, "run", "trace_passes", UINT32_MAX, &u);
	r->trace_passes = (uint32_t)u;
	if (!rc)
		rc = weft_est_j_array(&c, run, "run", "points", WEFT_EST_MAX_POINTS, &a);
	if (!rc && json_array_size(a) == 0)
		rc = weft_est_j_bad(&c, "run", "\"points\" is empty");
	if (!rc) {
		r->configs = calloc(json_array_size(a), sizeof(*r->configs));
		if (!r->configs)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading part %s", name);
	}
	for (uint32_t i = 0; !rc && i < json_array_size(a); i++) {
		r->nconfigs = i + 1;
		rc = point(&c, json_array_get(a, i), i, r->nsweeps, &r->configs[i]);
	}
	if (!rc)
		rc = weft_est_j_uint(&c, run, "run", "baseline", UINT32_MAX, &u);
	if (!rc && u >= r->nconfigs)
		rc = weft_est_j_bad(&c, "run", "\"baseline\" is point %llu of %u",
				    (unsigned long long)u, r->nconfigs);
	r->baseline = (uint32_t)u;
	if (rc)
		weft_est_report_free(r);
	return rc;
}
