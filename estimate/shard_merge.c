/*
 * shard_merge.c - parts joined into the report one process would make
 * (shard.h): each part is read and checked on its own (shard_read.c);
 * the first part's run becomes the report's header and points
 * (shard_run.c); every later part's run must equal it (the message names
 * the first field that differs), no shard may come twice, and at the end
 * none may be missing. The parts' results move into the report, and the
 * ratios against the baseline are computed (derive.c) as one process
 * computes them.
 */
#include "shard_part.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct weft_est_merge {
	json_t *run;                 /* the first part's */
	char first[256];             /* its name */
	struct weft_est_report rep;  /* header and points from the first run; results as they come */
	enum weft_format fmt;
	uint32_t nshards;            /* N */
	char **from;                 /* [nshards]: the part that gave shard K, or NULL */
};

int weft_est_merge_new(struct weft_est_merge **m, struct weft_error *err)
{
	*m = calloc(1, sizeof(**m));
	if (!*m)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	return 0;
}

void weft_est_merge_free(struct weft_est_merge *m)
{
	if (!m)
		return;
	json_decref(m->run);
	weft_est_report_free(&m->rep);
	for (uint32_t k = 0; m->from && k < m->nshards; k++)
		free(m->from[k]);
	free(m->from);
	free(m);
}

/* The first place where a and b differ, as a path ("trace.hash",
 * "points[3].config_hash") and the two values there (NULL: missing). */
static void first_diff(const json_t *a, const json_t *b, char *path, size_t plen, const json_t **va,
		       const json_t **vb)
{
	*va = a;
	*vb = b;
	size_t n = strlen(path);
	const char *k;
	json_t *x;
	if (json_is_object(a) && json_is_object(b)) {
		json_object_foreach((json_t *)a, k, x)
		{
			json_t *y = json_object_get(b, k);
			if (y && json_equal(x, y))
				continue;
			snprintf(path + n, plen - n, "%s%s", n ? "." : "", k);
			if (y) {
				first_diff(x, y, path, plen, va, vb);
			} else {
				*va = x;
				*vb = NULL;
			}
			return;
		}
		json_object_foreach((json_t *)b, k, x)
			if (!json_object_get(a, k)) {
				snprintf(path + n, plen - n, "%s%s", n ? "." : "", k);
				*va = NULL;
				*vb = x;
				return;
			}
	} else if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *y = json_array_get(b, i);
			x = json_array_get(a, i);
			if (json_equal(x, y))
				continue;
			snprintf(path + n, plen - n, "[%zu]", i);
			first_diff(x, y, path, plen, va, vb);
			return;
		}
	}
}

/* v compact, at most 100 bytes ("missing" for NULL). */
static void show(const json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	const char *t = v ? (s ? s : "?") : "missing";
	if (strlen(t) > 100)
		snprintf(buf, len, "%.97s...", t);
	else
		snprintf(buf, len, "%s", t);
	free(s);
}

static int different_runs(const struct weft_est_merge *m, const char *name, const json_t *run,
			  struct weft_error *err)
{
	char path[256] = "", va[128], vb[128];
	const json_t *a, *b;
	first_diff(m->run, run, path, sizeof(path), &a, &b);
	if (!path[0])
		snprintf(path, sizeof(path), "run");
	show(a, va, sizeof(va));
	show(b, vb, sizeof(vb));
	return weft_error_at(err, WEFT_ERR_INPUT, name, 0, 0,
			     "not a part of the same run as %s: their %s differs (%s there, %s here); "
			     "the parts of one run come from one command line with only K of "
			     "--shard K/N changed",
			     m->first, path, va, vb);
}

/* The part's computed fields into the report's point (moved). */
static void take(struct weft_est_config *to, struct weft_est_config *from)
{
	to->clock_hz = from->clock_hz;
	to->static_w = from->static_w;
	memcpy(to->energy_basis, from->energy_basis, sizeof(to->energy_basis));
	memcpy(to->area_basis, from->area_basis, sizeof(to->area_basis));
	to->area_mm2 = from->area_mm2;
	to->area_items = from->area_items;
	to->narea = from->narea;
	to->total = from->total;
	to->launches = from->launches;
	to->nlaunches = from->nlaunches;
	to->own_cpi = from->own_cpi;
	to->own_stats = from->own_stats;
	to->own_text = from->own_text;
	from->area_items = NULL;
	from->launches = NULL;
	from->own_cpi = NULL;
	from->own_stats = NULL;
	from->own_text = NULL;
	from->narea = from->nlaunches = 0;
}

int weft_est_merge_add_text(struct weft_est_merge *m, const char *name, const char *text,
			    size_t len, struct weft_error *err)
{
	struct weft_est_part p;
	int rc = weft_est_part_read(name, text, len, &p, err);
	if (rc)
		return rc;
	if (!m->run) {
		rc = weft_est_part_run(name, p.run, &m->rep, &m->fmt, err);
		if (!rc && m->rep.nconfigs != p.npoints)
			rc = weft_error_set(err, WEFT_ERR_INTERNAL, "part %s: points miscounted", name);
		if (!rc) {
			m->from = calloc(p.nshards, sizeof(*m->from));
			if (!m->from)
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		}
		if (rc) {
			weft_est_report_free(&m->rep);
			weft_est_part_free(&p);
			return rc;
		}
		m->nshards = p.nshards;
		m->run = json_incref(p.run);
		snprintf(m->first, sizeof(m->first), "%s", name);
	} else if (!json_equal(m->run, p.run)) {
		rc = different_runs(m, name, p.run, err);
		weft_est_part_free(&p);
		return rc;
	}
	if (m->from[p.shard]) {
		rc = weft_error_at(err, WEFT_ERR_INPUT, name, 0, 0,
				   "shard %u of %u again: %s is that shard's part already; give each "
				   "shard's part once",
				   p.shard, p.nshards, m->from[p.shard]);
		weft_est_part_free(&p);
		return rc;
	}
	m->from[p.shard] = strdup(name);
	if (!m->from[p.shard]) {
		weft_est_part_free(&p);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	}
	for (uint32_t j = 0; j < p.nresults; j++)
		take(&m->rep.configs[p.index[j]], &p.results[j]);
	weft_est_part_free(&p);
	return 0;
}

int weft_est_merge_add_file(struct weft_est_merge *m, const char *path, struct weft_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot open shard part %s: %s (make it with weft-estimate ... "
				      "--shard K/N -o FILE)",
				      path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return weft_error_set(err, WEFT_ERR_INPUT, "%s is a directory, not a shard part", path);
	}
	/* read at most one byte past the cap, so a longer file is refused
	 * without holding it */
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap > WEFT_EST_PART_MAX_BYTES)
			break;
		size_t nc = cap * 2 > (size_t)WEFT_EST_PART_MAX_BYTES + 1 ? (size_t)WEFT_EST_PART_MAX_BYTES + 1
									  : cap * 2;
		char *nb = realloc(buf, nc);
		if (!nb)
			free(buf);
		buf = nb;
		cap = nc;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading shard part %s", path);
	if (bad) {
		free(buf);
		return weft_error_set(err, WEFT_ERR_INPUT, "reading shard part %s failed", path);
	}
	if (n > WEFT_EST_PART_MAX_BYTES) {
		free(buf);
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "more than the %u bytes a shard part may have", WEFT_EST_PART_MAX_BYTES);
	}
	int rc = weft_est_merge_add_text(m, path, buf, n, err);
	free(buf);
	return rc;
}

int weft_est_merge_finish(struct weft_est_merge *m, struct weft_est_report *out,
			  enum weft_format *fmt, struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!m->run)
		return weft_error_set(err, WEFT_ERR_INPUT, "no shard parts to merge");
	char missing[512] = "";
	uint32_t nmiss = 0;
	for (uint32_t k = 0; k < m->nshards; k++) {
		if (m->from[k])
			continue;
		size_t o = strlen(missing);
		if (o < sizeof(missing) - 16)
			snprintf(missing + o, sizeof(missing) - o, "%s%u", nmiss ? ", " : "", k);
		else if (o < sizeof(missing) - 4 && !strstr(missing, "..."))
			snprintf(missing + o, sizeof(missing) - o, ", ...");
		nmiss++;
	}
	if (nmiss)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%u of the %u shards %s missing (shard%s %s; the parts given start "
				      "with %s): give every shard's part, 0 to %u",
				      nmiss, m->nshards, nmiss == 1 ? "is" : "are", nmiss == 1 ? "" : "s",
				      missing, m->first, m->nshards - 1);
	/* the figures point into the parts' own storage, which moved with them */
	*out = m->rep;
	memset(&m->rep, 0, sizeof(m->rep));
	weft_est_compare(out);
	*fmt = m->fmt;
	return 0;
}
