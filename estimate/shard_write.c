/*
 * shard_write.c - a shard's report written as a part (shard.h): the run's
 * identity, the shard's K, and every figure of the points it ran, as one
 * line of JSON built with libjansson, then its checksum. The layout is in
 * docs/scale-out.md ("What a part holds"); shard_read.c reads it back.
 *
 * Numbers: json_real prints 17 significant digits ("%.17g", a ".0" added
 * when it has no dot or exponent), which reads back to the same double;
 * NaN is null and an infinity the string "inf" or "-inf" (JSON has no
 * such numbers). Counts are JSON integers, hashes "fnv1a64:<16 hex>"
 * strings as in the reports.
 */
#include "shard.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"

/* The first failure while building the document. */
struct wr {
	int rc;
	char what[256];
};

static void fail(struct wr *w, int rc, const char *what)
{
	if (!w->rc) {
		w->rc = rc;
		snprintf(w->what, sizeof(w->what), "%s", what);
	}
}

/* Adds v (NULL: a failure already noted, or out of memory) under key k. */
static void set(struct wr *w, json_t *o, const char *k, json_t *v)
{
	if (!v)
		fail(w, WEFT_ERR_NOMEM, "");
	if (json_object_set_new(o, k, v) < 0)
		fail(w, WEFT_ERR_NOMEM, "");
}

static void push(struct wr *w, json_t *a, json_t *v)
{
	if (!v)
		fail(w, WEFT_ERR_NOMEM, "");
	if (json_array_append_new(a, v) < 0)
		fail(w, WEFT_ERR_NOMEM, "");
}

/* s as a JSON string; what names it should it not be UTF-8. */
static json_t *str(struct wr *w, const char *s, const char *what)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	json_t *raw = json_string_nocheck(s);
	if (raw) {
		json_decref(raw);
		fail(w, WEFT_ERR_INPUT, what);
	}
	return NULL; /* set() notes out of memory unless the UTF-8 failure came first */
}

static json_t *num(double v)
{
	if (isnan(v))
		return json_null();
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

static json_t *count(struct wr *w, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX) {
		fail(w, WEFT_ERR_INTERNAL, "a count beyond 2^63");
		return NULL;
	}
	return json_integer((json_int_t)v);
}

static json_t *hash(const char *prefix, uint64_t h)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s:%016" PRIx64, prefix, h);
	return json_string(buf);
}

static json_t *figures(struct wr *w, const struct weft_est_figures *f, const char *where)
{
	json_t *o = json_object();
	if (f->launch != WEFT_EST_TOTAL)
		set(w, o, "launch", json_integer(f->launch));
	set(w, o, "kernel", str(w, f->kernel, where));
	set(w, o, "cycles", num(f->cycles));
	set(w, o, "seconds", num(f->seconds));
	set(w, o, "thread_insts", count(w, f->thread_insts));
	set(w, o, "ipc", num(f->ipc));
	json_t *e = json_array();
	for (int c = 0; c < WEFT_CAT_COUNT; c++)
		push(w, e, num(f->energy_j[c]));
	set(w, o, "energy_j", e);
	set(w, o, "energy_total_j", num(f->energy_total_j));
	set(w, o, "power_w", num(f->power_w));
	set(w, o, "insts_per_j", num(f->insts_per_j));
	set(w, o, "perf_per_area", num(f->perf_per_area));
	set(w, o, "limiter", str(w, f->limiter, where));
	json_t *cpi = json_array();
	for (uint32_t k = 0; f->cpi && k < f->cpi->n; k++)
		push(w, cpi, json_pack("[so]", f->cpi->item[k].name, num(f->cpi->item[k].cycles)));
	set(w, o, "cpi", cpi);
	json_t *st = json_array();
	for (uint32_t k = 0; k < f->nstats; k++)
		push(w, st, json_pack("[sos]", f->stats[k].key, num(f->stats[k].value),
				      f->stats[k].unit));
	set(w, o, "stats", st);
	if (f->explain)
		set(w, o, "explain", str(w, f->explain, where));
	return o;
}

static json_t *point(struct wr *w, const struct weft_est_report *r, const struct weft_est_config *c)
{
	char where[256];
	snprintf(where, sizeof(where), "a string of point %.200s", c->name);
	json_t *o = json_object();
	set(w, o, "name", str(w, c->name, where));
	set(w, o, "config", str(w, c->config, where));
	json_t *pt = json_array();
	for (uint32_t k = 0; k < r->nsweeps; k++)
		push(w, pt, str(w, c->point[k], where));
	set(w, o, "point", pt);
	snprintf(where, sizeof(where), "the path of config %.200s", c->path);
	set(w, o, "path", str(w, c->path, where));
	set(w, o, "model", str(w, c->model, where));
	set(w, o, "config_hash", hash("fnv1a64", c->hash));
	set(w, o, "overrides", str(w, c->overrides, where));
	return o;
}

static json_t *run(struct wr *w, const struct weft_est_report *r, enum weft_format fmt)
{
	static const char *const fmts[] = { "table", "csv", "json" };
	json_t *o = json_object();
	set(w, o, "weft_version", str(w, r->version, "the version"));
	json_t *t = json_object();
	set(w, t, "path", str(w, r->trace_path, "the trace's path"));
	set(w, t, "hash", hash(WEFT_EST_TRACE_HASH, r->trace_hash));
	set(w, t, "bytes", count(w, r->trace_bytes));
	set(w, t, "workload", str(w, r->workload, "the trace's workload"));
	set(w, t, "size", str(w, r->size, "the trace's size"));
	set(w, t, "launches", json_integer(r->nlaunches));
	set(w, o, "trace", t);
	set(w, o, "sampling", str(w, r->sampling, "the sampling"));
	set(w, o, "baseline", json_integer(r->baseline));
	set(w, o, "explain", json_boolean(r->explain));
	set(w, o, "format", json_string(fmt <= WEFT_FMT_JSON ? fmts[fmt] : "?"));
	json_t *sw = json_array();
	for (uint32_t k = 0; k < r->nsweeps; k++)
		push(w, sw, str(w, r->sweep_keys[k], "a swept key"));
	set(w, o, "sweep", sw);
	set(w, o, "trace_passes", json_integer(r->trace_passes));
	set(w, o, "shards", json_integer(r->nshards));
	json_t *pts = json_array();
	for (uint32_t i = 0; i < r->nconfigs; i++)
		push(w, pts, point(w, r, &r->configs[i]));
	set(w, o, "points", pts);
	return o;
}

static json_t *result(struct wr *w, uint32_t i, const struct weft_est_config *c)
{
	char where[256];
	snprintf(where, sizeof(where), "a string of point %.200s's results", c->name);
	json_t *o = json_object();
	set(w, o, "point", json_integer(i));
	set(w, o, "clock_hz", num(c->clock_hz));
	set(w, o, "static_power_w", num(c->static_w));
	set(w, o, "energy_basis", str(w, c->energy_basis, where));
	set(w, o, "area_basis", str(w, c->area_basis, where));
	set(w, o, "area_mm2", num(c->area_mm2));
	json_t *a = json_array();
	for (uint32_t k = 0; k < c->narea; k++) {
		const struct weft_est_area_item *it = &c->area_items[k];
		json_t *row = json_array();
		push(w, row, str(w, it->name, where));
		push(w, row, num(it->count));
		push(w, row, num(it->area_mm2));
		push(w, row, str(w, it->why, where));
		push(w, a, row);
	}
	set(w, o, "area_components", a);
	set(w, o, "total", figures(w, &c->total, where));
	json_t *l = json_array();
	for (uint32_t k = 0; k < c->nlaunches; k++)
		push(w, l, figures(w, &c->launches[k], where));
	set(w, o, "launches", l);
	return o;
}

int weft_est_shard_write(const struct weft_est_report *r, enum weft_format fmt,
			 struct weft_sbuf *out, struct weft_error *err)
{
	if (!r->nshards || r->shard >= r->nshards)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "weft_est_shard_write: not a shard's report");
	if (r->explain && fmt == WEFT_FMT_CSV)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--explain writes prose, which a CSV row cannot hold; use --format "
				      "table or json");
	struct wr w = { 0, "" };
	json_t *doc = json_object();
	set(&w, doc, "weft_shard_part", json_integer(WEFT_EST_SHARD_FORMAT));
	set(&w, doc, "shard", json_integer(r->shard));
	set(&w, doc, "run", run(&w, r, fmt));
	set(&w, doc, "trace_reads", json_integer(r->shard_passes));
	json_t *res = json_array();
	for (uint32_t i = 0; i < r->nconfigs; i++)
		if (weft_est_shard_owns(i, r->shard, r->nshards))
			push(&w, res, result(&w, i, &r->configs[i]));
	set(&w, doc, "results", res);
	char *canon = w.rc ? NULL : json_dumps(doc, JSON_COMPACT);
	if (!w.rc && !canon)
		fail(&w, WEFT_ERR_NOMEM, "");
	if (!w.rc) {
		set(&w, doc, "checksum", hash("fnv1a64", weft_fnv1a(WEFT_FNV1A_INIT, canon, strlen(canon))));
		free(canon);
		canon = w.rc ? NULL : json_dumps(doc, JSON_COMPACT);
		if (!w.rc && !canon)
			fail(&w, WEFT_ERR_NOMEM, "");
	}
	json_decref(doc);
	if (w.rc == WEFT_ERR_INPUT)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot write the shard part: %s is not UTF-8 text, which a part "
				      "(JSON) cannot hold; give the file a UTF-8 name",
				      w.what);
	if (w.rc == WEFT_ERR_INTERNAL)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "cannot write the shard part: %s", w.what);
	if (w.rc)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing the shard part");
	weft_sbuf_puts(out, canon);
	weft_sbuf_puts(out, "\n");
	free(canon);
	if (out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing the shard part");
	return 0;
}
