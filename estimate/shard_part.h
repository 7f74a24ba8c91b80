/*
 * shard_part.h - internal to the shard module: a part read back
 * (shard_read.c), its run decoded (shard_run.c), and the typed getters
 * over libjansson values they share (shard_json.c), each failure a
 * message naming the part, where in it and what is wrong. shard_merge.c
 * puts the parts together (shard.h).
 */
#ifndef WEFT_SHARD_PART_H
#define WEFT_SHARD_PART_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "estimate.h"
#include "shard.h"

/* One part, checked on its own. */
struct weft_est_part {
	uint32_t shard, nshards;
	uint32_t npoints, nlaunches, nsweeps;
	json_t *run;                      /* the part's "run" (a reference) */
	uint32_t nresults;
	uint32_t *index;                  /* [nresults] the points, ascending */
	struct weft_est_config *results;  /* [nresults]: clock_hz ... launches and
					     own_* (what the run computed) */
};

/* Parses and checks a part's text (name: its file, for messages); on
 * failure p is left empty. */
int weft_est_part_read(const char *name, const char *text, size_t len, struct weft_est_part *p,
		       struct weft_error *err);
void weft_est_part_free(struct weft_est_part *p);

/* Decodes a part's run (already shape-checked by weft_est_part_read) into
 * r: the header and every point's identity (configs calloc'd, nconfigs
 * points, nshards 0), and the format it asks for. */
int weft_est_part_run(const char *name, const json_t *run, struct weft_est_report *r,
		      enum weft_format *fmt, struct weft_error *err);

/* ---- getters (shard_json.c) ----
 * where: the place in the part ("results[2].total"); each returns 0 or
 * WEFT_ERR_INPUT naming the part, the place and the key. */
struct weft_est_jctx {
	const char *name;
	struct weft_error *err;
};

int weft_est_j_bad(const struct weft_est_jctx *c, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Every key of o is one of keys (NULL-terminated). */
int weft_est_j_keys(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *const *keys);
/* Member key of o, which must be of JSON type t. */
int weft_est_j_get(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, json_type t, json_t **out);
/* An array member of at most max elements. */
int weft_est_j_array(const struct weft_est_jctx *c, const json_t *o, const char *where,
		     const char *key, size_t max, json_t **out);
/* A string (value v, named what) that fits buf[size] with its NUL. */
int weft_est_j_strv(const struct weft_est_jctx *c, const json_t *v, const char *where,
		    const char *what, char *buf, size_t size);
int weft_est_j_str(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, char *buf, size_t size);
/* A number as shard_write.c writes one: a JSON number, null (NaN), "inf"
 * or "-inf". */
int weft_est_j_numv(const struct weft_est_jctx *c, const json_t *v, const char *where,
		    const char *what, double *out);
int weft_est_j_num(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, double *out);
/* An integer 0 <= v <= max. */
int weft_est_j_uint(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *key, uint64_t max, uint64_t *out);
/* "PREFIX:" and 16 lowercase hex digits. */
int weft_est_j_hash(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *key, const char *prefix, uint64_t *out);

#endif
