/*
 * shard_read.c - a part read back and checked on its own (shard_part.h):
 * JSON (libjansson, duplicate keys refused), the format's marker and
 * version, the checksum, the run's shape (its N, points, launches and
 * swept keys; shard_run.c decodes the rest for the first part), K < N,
 * and exactly shard K's points, each result decoded into a weft_est_config
 * with every string and list checked against what the weft field holds.
 * Nothing is allocated from a count before the count is checked against
 * its cap (shard.h) and the elements that are there.
 */
#include "shard_part.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"

void weft_est_part_free(struct weft_est_part *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; p->results && i < p->nresults; i++) {
		free(p->results[i].launches);
		free(p->results[i].area_items);
		free(p->results[i].own_cpi);
		free(p->results[i].own_stats);
		free(p->results[i].own_text);
	}
	free(p->results);
	free(p->index);
	json_decref(p->run);
	memset(p, 0, sizeof(*p));
}

/* Room a result needs for its figures' stats and explanations. */
struct room {
	size_t stats, text;
};

static void measure(const json_t *f, struct room *r)
{
	json_t *st = json_object_get(f, "stats");
	if (json_is_array(st))
		r->stats += json_array_size(st);
	json_t *ex = json_object_get(f, "explain");
	if (json_is_string(ex))
		r->text += json_string_length(ex) + 1;
}

static int figures(const struct weft_est_jctx *c, const json_t *o, const char *where, int total,
		   struct weft_est_figures *f, struct weft_cpi_stack *cpi, struct weft_stat **stats,
		   char **text)
{
	static const char *const keys[] = { "launch", "kernel", "cycles", "seconds", "thread_insts",
					     "ipc", "energy_j", "energy_total_j", "power_w",
					     "insts_per_j", "perf_per_area", "limiter", "cpi", "stats",
					     "explain", NULL };
	if (!json_is_object(o))
		return weft_est_j_bad(c, where, "not an object");
	int rc = weft_est_j_keys(c, o, where, keys);
	uint64_t u = 0;
	json_t *a = NULL;
	memset(f, 0, sizeof(*f));
	f->launch = WEFT_EST_TOTAL;
	if (!rc && !total) {
		rc = weft_est_j_uint(c, o, where, "launch", UINT32_MAX - 1, &u);
		f->launch = (uint32_t)u;
	} else if (!rc && json_object_get(o, "launch")) {
		rc = weft_est_j_bad(c, where, "the totals have a \"launch\"");
	}
	if (!rc)
		rc = weft_est_j_str(c, o, where, "kernel", f->kernel, sizeof(f->kernel));
	if (!rc)
		rc = weft_est_j_num(c, o, where, "cycles", &f->cycles);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "seconds", &f->seconds);
	if (!rc)
		rc = weft_est_j_uint(c, o, where, "thread_insts", UINT64_MAX, &f->thread_insts);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "ipc", &f->ipc);
	if (!rc)
		rc = weft_est_j_array(c, o, where, "energy_j", WEFT_CAT_COUNT, &a);
	if (!rc && json_array_size(a) != WEFT_CAT_COUNT)
		rc = weft_est_j_bad(c, where, "\"energy_j\" has %zu categories, not %d", json_array_size(a),
				    WEFT_CAT_COUNT);
	for (int k = 0; !rc && k < WEFT_CAT_COUNT; k++)
		rc = weft_est_j_numv(c, json_array_get(a, (size_t)k), where, "an \"energy_j\" element",
				     &f->energy_j[k]);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "energy_total_j", &f->energy_total_j);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "power_w", &f->power_w);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "insts_per_j", &f->insts_per_j);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "perf_per_area", &f->perf_per_area);
	if (!rc)
		rc = weft_est_j_str(c, o, where, "limiter", f->limiter, sizeof(f->limiter));
	if (!rc)
		rc = weft_est_j_array(c, o, where, "cpi", WEFT_MAX_CPI, &a);
	memset(cpi, 0, sizeof(*cpi));
	for (size_t k = 0; !rc && k < json_array_size(a); k++) {
		json_t *it = json_array_get(a, k);
		if (!json_is_array(it) || json_array_size(it) != 2)
			rc = weft_est_j_bad(c, where, "a \"cpi\" element is not [name, cycles]");
		if (!rc)
			rc = weft_est_j_strv(c, json_array_get(it, 0), where, "a CPI component's name",
					     cpi->item[k].name, sizeof(cpi->item[k].name));
		if (!rc)
			rc = weft_est_j_numv(c, json_array_get(it, 1), where, "a CPI component's cycles",
					     &cpi->item[k].cycles);
		cpi->n = (uint32_t)k + 1;
	}
	f->cpi = cpi;
	if (!rc)
		rc = weft_est_j_array(c, o, where, "stats", WEFT_MAX_STATS, &a);
	f->stats = *stats;
	for (size_t k = 0; !rc && k < json_array_size(a); k++) {
		json_t *it = json_array_get(a, k);
		struct weft_stat *s = &(*stats)[k];
		if (!json_is_array(it) || json_array_size(it) != 3)
			rc = weft_est_j_bad(c, where, "a \"stats\" element is not [key, value, unit]");
		if (!rc)
			rc = weft_est_j_strv(c, json_array_get(it, 0), where, "a statistic's key", s->key,
					     sizeof(s->key));
		if (!rc)
			rc = weft_est_j_numv(c, json_array_get(it, 1), where, "a statistic's value", &s->value);
		if (!rc)
			rc = weft_est_j_strv(c, json_array_get(it, 2), where, "a statistic's unit", s->unit,
					     sizeof(s->unit));
		f->nstats = (uint32_t)k + 1;
	}
	*stats += f->nstats;
	json_t *ex = json_object_get(o, "explain");
	if (!rc && ex) {
		if (!json_is_string(ex))
			return weft_est_j_bad(c, where, "\"explain\" is not a string");
		size_t n = json_string_length(ex);
		memcpy(*text, json_string_value(ex), n + 1);
		f->explain = *text;
		*text += n + 1;
	}
	return rc;
}

static int area_items(const struct weft_est_jctx *c, const json_t *o, const char *where,
		      struct weft_est_config *r)
{
	json_t *a = NULL;
	int rc = weft_est_j_array(c, o, where, "area_components", WEFT_MAX_COMPONENTS, &a);
	if (rc)
		return rc;
	r->area_items = calloc(json_array_size(a) + 1, sizeof(*r->area_items));
	if (!r->area_items)
		return weft_error_set(c->err, WEFT_ERR_NOMEM, "out of memory reading part %s", c->name);
	for (size_t k = 0; !rc && k < json_array_size(a); k++) {
		json_t *it = json_array_get(a, k);
		struct weft_est_area_item *ai = &r->area_items[k];
		if (!json_is_array(it) || json_array_size(it) != 4)
			return weft_est_j_bad(c, where, "an \"area_components\" element is not [name, count, "
					      "area_mm2, why]");
		rc = weft_est_j_strv(c, json_array_get(it, 0), where, "a component's name", ai->name,
				     sizeof(ai->name));
		if (!rc)
			rc = weft_est_j_numv(c, json_array_get(it, 1), where, "a component's count", &ai->count);
		if (!rc)
			rc = weft_est_j_numv(c, json_array_get(it, 2), where, "a component's area",
					     &ai->area_mm2);
		if (!rc)
			rc = weft_est_j_strv(c, json_array_get(it, 3), where, "a component's why", ai->why,
					     sizeof(ai->why));
		r->narea = (uint32_t)k + 1;
	}
	return rc;
}

/* Result j of the part, for point idx, into r. */
static int result(const struct weft_est_jctx *c, const json_t *o, uint32_t j, uint32_t idx,
		  uint32_t nlaunches, struct weft_est_config *r)
{
	static const char *const keys[] = { "point", "clock_hz", "static_power_w", "energy_basis",
					     "area_basis", "area_mm2", "area_components", "total",
					     "launches", NULL };
	char where[64];
	snprintf(where, sizeof(where), "results[%u]", j);
	if (!json_is_object(o))
		return weft_est_j_bad(c, where, "not an object");
	uint64_t u = 0;
	int rc = weft_est_j_keys(c, o, where, keys);
	if (!rc)
		rc = weft_est_j_uint(c, o, where, "point", UINT32_MAX, &u);
	if (!rc && u != idx)
		rc = weft_est_j_bad(c, where, "holds point %llu where this shard's point %u belongs: "
				    "points missing, repeated or out of order",
				    (unsigned long long)u, idx);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "clock_hz", &r->clock_hz);
	if (!rc)
		rc = weft_est_j_num(c, o, where, "static_power_w", &r->static_w);
	if (!rc)
		rc = weft_est_j_str(c, o, where, "energy_basis", r->energy_basis, sizeof(r->energy_basis));
	if (!rc)
		rc = weft_est_j_str(c, o, where, "area_basis", r->area_basis, sizeof(r->area_basis));
	if (!rc)
		rc = weft_est_j_num(c, o, where, "area_mm2", &r->area_mm2);
	if (!rc)
		rc = area_items(c, o, where, r);
	json_t *tot = NULL, *ls = NULL;
	if (!rc)
		rc = weft_est_j_get(c, o, where, "total", JSON_OBJECT, &tot);
	if (!rc)
		rc = weft_est_j_array(c, o, where, "launches", nlaunches, &ls);
	if (rc)
		return rc;
	/* storage: a CPI stack per figure, the stats and explanations back to back */
	size_t nl = json_array_size(ls);
	struct room room = { 0, 0 };
	measure(tot, &room);
	for (size_t l = 0; l < nl; l++)
		measure(json_array_get(ls, l), &room);
	r->launches = calloc(nl + 1, sizeof(*r->launches));
	r->own_cpi = calloc(nl + 1, sizeof(*r->own_cpi));
	r->own_stats = calloc(room.stats + 1, sizeof(*r->own_stats));
	r->own_text = malloc(room.text + 1);
	if (!r->launches || !r->own_cpi || !r->own_stats || !r->own_text)
		return weft_error_set(c->err, WEFT_ERR_NOMEM, "out of memory reading part %s", c->name);
	struct weft_stat *stats = r->own_stats;
	char *text = r->own_text;
	char fw[96];
	for (size_t l = 0; !rc && l < nl; l++) {
		snprintf(fw, sizeof(fw), "%s.launches[%zu]", where, l);
		rc = figures(c, json_array_get(ls, l), fw, 0, &r->launches[l], &r->own_cpi[l], &stats,
			     &text);
		r->nlaunches = (uint32_t)l + 1;
	}
	snprintf(fw, sizeof(fw), "%s.total", where);
	if (!rc)
		rc = figures(c, tot, fw, 1, &r->total, &r->own_cpi[nl], &stats, &text);
	return rc;
}

/* The run's shape: what checking the results needs. */
static int run_shape(const struct weft_est_jctx *c, const json_t *doc, struct weft_est_part *p)
{
	json_t *run, *t, *a;
	uint64_t u = 0;
	int rc = weft_est_j_get(c, doc, "", "run", JSON_OBJECT, &run);
	if (!rc)
		rc = weft_est_j_uint(c, run, "run", "shards", WEFT_EST_MAX_SHARDS, &u);
	if (!rc && u == 0)
		rc = weft_est_j_bad(c, "run", "\"shards\" is 0");
	p->nshards = (uint32_t)u;
	if (!rc)
		rc = weft_est_j_get(c, run, "run", "trace", JSON_OBJECT, &t);
	if (!rc)
		rc = weft_est_j_uint(c, t, "run.trace", "launches", WEFT_EST_PART_MAX_LAUNCHES, &u);
	p->nlaunches = (uint32_t)u;
	if (!rc)
		rc = weft_est_j_array(c, run, "run", "sweep", WEFT_EST_MAX_SWEEPS, &a);
	if (!rc)
		p->nsweeps = (uint32_t)json_array_size(a);
	if (!rc)
		rc = weft_est_j_array(c, run, "run", "points", WEFT_EST_MAX_POINTS, &a);
	if (!rc && json_array_size(a) == 0)
		rc = weft_est_j_bad(c, "run", "\"points\" is empty");
	if (!rc)
		p->npoints = (uint32_t)json_array_size(a);
	if (!rc)
		p->run = json_incref(run);
	return rc;
}

/* The checksum: FNV-1a 64 of the compact form of the rest. */
static int checksum(const struct weft_est_jctx *c, json_t *doc)
{
	uint64_t want;
	int rc = weft_est_j_hash(c, doc, "", "checksum", "fnv1a64", &want);
	if (rc)
		return rc;
	json_object_del(doc, "checksum");
	char *canon = json_dumps(doc, JSON_COMPACT);
	if (!canon)
		return weft_error_set(c->err, WEFT_ERR_NOMEM, "out of memory reading part %s", c->name);
	uint64_t h = weft_fnv1a(WEFT_FNV1A_INIT, canon, strlen(canon));
	free(canon);
#ifdef WEFT_FUZZ_NO_CRC
	h = want; /* the fuzz build: mutations reach the checks behind it (tests/fuzz/README.md) */
#endif
	if (h != want)
		return weft_error_at(c->err, WEFT_ERR_INPUT, c->name, 0, 0,
				     "the part's checksum does not match its content: it was damaged or "
				     "edited after weft-estimate wrote it; make it again (weft-estimate ... "
				     "--shard K/N -o FILE)");
	return 0;
}

static int check_doc(const struct weft_est_jctx *c, json_t *doc, struct weft_est_part *p)
{
	static const char *const keys[] = { "weft_shard_part", "shard", "run", "trace_reads",
					     "results", NULL };
	if (!json_is_object(doc) || !json_object_get(doc, "weft_shard_part"))
		return weft_error_at(c->err, WEFT_ERR_INPUT, c->name, 0, 0,
				     "not a weft-estimate shard part (a JSON object with a "
				     "\"weft_shard_part\" key); make parts with weft-estimate TRACE "
				     "-c CONFIG ... --shard K/N -o FILE");
	json_t *v = json_object_get(doc, "weft_shard_part");
	if (!json_is_integer(v) || json_integer_value(v) != WEFT_EST_SHARD_FORMAT)
		return weft_error_at(c->err, WEFT_ERR_INPUT, c->name, 0, 0,
				     "a shard part of another format (\"weft_shard_part\" is not %d): "
				     "made by another weft release? merge with the weft that made it",
				     WEFT_EST_SHARD_FORMAT);
	int rc = checksum(c, doc);
	if (!rc)
		rc = weft_est_j_keys(c, doc, "", keys);
	uint64_t u = 0;
	if (!rc)
		rc = weft_est_j_uint(c, doc, "", "shard", WEFT_EST_MAX_SHARDS - 1, &u);
	p->shard = (uint32_t)u;
	if (!rc)
		rc = weft_est_j_uint(c, doc, "", "trace_reads", UINT32_MAX, &u);
	if (!rc)
		rc = run_shape(c, doc, p);
	if (!rc && p->shard >= p->nshards)
		rc = weft_est_j_bad(c, "", "shard %u of %u: K must be less than N", p->shard, p->nshards);
	return rc;
}

int weft_est_part_read(const char *name, const char *text, size_t len, struct weft_est_part *p,
		       struct weft_error *err)
{
	memset(p, 0, sizeof(*p));
	struct weft_est_jctx c = { name, err };
	if (len > WEFT_EST_PART_MAX_BYTES)
		return weft_error_at(err, WEFT_ERR_INPUT, name, 0, 0,
				     "%zu bytes, more than the %u a shard part may have", len,
				     WEFT_EST_PART_MAX_BYTES);
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		int eof = je.position >= (int)len;
		return weft_error_at(err, WEFT_ERR_INPUT, name, je.line > 0 ? (uint32_t)je.line : 0,
				     je.column > 0 ? (uint32_t)je.column : 0,
				     "%s (%s); a part is written whole by weft-estimate ... --shard K/N -o FILE: "
				     "make it again",
				     len == 0 ? "an empty file, not a shard part"
				     : eof    ? "the shard part ends too early: truncated"
					      : "not a valid shard part (bad JSON)",
				     je.text);
	}
	int rc = check_doc(&c, doc, p);
	json_t *res = NULL;
	uint32_t want = 0; /* the points of shard K: K, K + N, ... below npoints */
	if (!rc) {
		want = p->npoints > p->shard ? (p->npoints - p->shard + p->nshards - 1) / p->nshards : 0;
		rc = weft_est_j_array(&c, doc, "", "results", want, &res);
	}
	if (!rc && json_array_size(res) != want)
		rc = weft_est_j_bad(&c, "", "%zu results where shard %u of %u over %u points has %u: "
				    "points are missing",
				    json_array_size(res), p->shard, p->nshards, p->npoints, want);
	if (!rc) {
		p->index = calloc(want + 1, sizeof(*p->index));
		p->results = calloc(want + 1, sizeof(*p->results));
		if (!p->index || !p->results)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading part %s", name);
	}
	for (uint32_t j = 0; !rc && j < want; j++) {
		p->index[j] = p->shard + j * p->nshards;
		p->nresults = j + 1;
		rc = result(&c, json_array_get(res, j), j, p->index[j], p->nlaunches, &p->results[j]);
	}
	json_decref(doc);
	if (rc)
		weft_est_part_free(p);
	return rc;
}
