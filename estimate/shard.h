/*
 * shard.h - sharded runs of weft-estimate: `--shard K/N` runs the K-th of
 * N disjoint slices of a run's points and writes a *part*; `--merge
 * PART...` joins the N parts into exactly the report one process running
 * every point prints (docs/scale-out.md).
 *
 *   slicing   point i (the report's order: configs in -c order, each
 *             config's sweep points in order) belongs to shard i mod N:
 *             slices differ by at most one point and do not depend on
 *             anything but i and N. Each shard loads and checks every
 *             point (cheap) but replays only its own, one read of the
 *             trace per model as a whole run does.
 *   a part    JSON (read with libjansson): the run's identity ("run":
 *             weft version, trace path as given, hash and size, sampling,
 *             baseline, format, --explain, swept keys, the one-process
 *             trace_passes, N and the full list of points with their
 *             config paths, hashes and overrides), the shard's K, and per
 *             owned point everything the formatters print (clock, static
 *             power, energy and area bases, area items, totals and
 *             launches with CPI stacks, statistics and explanations).
 *             Numbers are written with 17 significant digits, so they
 *             read back to the same double; NaN is null, infinities the
 *             strings "inf" and "-inf". A checksum (FNV-1a 64 of the
 *             compact form of the rest) catches a damaged or edited part.
 *   merge     every part is checked on its own (JSON, keys, types, caps,
 *             checksum, K < N, exactly the points of shard K), then
 *             against the first part: the same "run" (else the message
 *             names what differs), not the same K twice, and no K missing.
 *             The ratios against the baseline are computed then (the
 *             baseline may be any shard's).
 *
 * The library never prints: the CLI writes the part (common/file.h,
 * atomically with -o) and the merged report (report.h).
 */
#ifndef WEFT_SHARD_H
#define WEFT_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/format.h"
#include "common/sbuf.h"
#include "estimate.h"
#include "models/model.h"

#define WEFT_EST_SHARD_FORMAT 1            /* "weft_shard_part": the part format's version */
#define WEFT_EST_MAX_SHARDS 4096           /* N of --shard K/N (= WEFT_EST_MAX_POINTS) */
#define WEFT_EST_PART_MAX_BYTES (256u << 20) /* a part file's size */
#define WEFT_EST_PART_MAX_LAUNCHES (1u << 20) /* launches of a part's trace */

/* "K/N" (decimal digits only, 0 <= K < N <= WEFT_EST_MAX_SHARDS) into
 * *k and *n; WEFT_ERR_INPUT with the rule and an example otherwise. */
int weft_est_parse_shard(const char *s, uint32_t *k, uint32_t *n, struct weft_error *err);

/* Whether point i belongs to shard k of n (n 0: every point does). */
static inline int weft_est_shard_owns(uint32_t i, uint32_t k, uint32_t n)
{
	return n == 0 || i % n == k;
}

/* How many times weft_model_run_many reads a trace of nlaunches launches
 * for npoints configurations of model m in a fresh process: 0 for no
 * points, one per point for a model without the per-CTA ops (or one
 * point), else one (none for a trace without launches). A shard records
 * this for the whole run so the merged report says what one process says. */
uint32_t weft_est_model_passes(const struct weft_model *m, uint32_t npoints, uint32_t nlaunches);

/* Appends the part of shard report r (r->nshards > 0) as JSON to out;
 * fmt and r->explain are the report the merge will print. WEFT_ERR_INPUT
 * when a string to record is not UTF-8 (JSON holds only UTF-8 text). */
int weft_est_shard_write(const struct weft_est_report *r, enum weft_format fmt,
			 struct weft_sbuf *out, struct weft_error *err);

/* Joining parts:
 *
 *     struct weft_est_merge *m;
 *     weft_est_merge_new(&m, &err);
 *     for each part: weft_est_merge_add_file(m, path, &err);   (any order)
 *     weft_est_merge_finish(m, &rep, &fmt, &err);   rep as one process
 *     weft_est_merge_free(m);                        makes it; report.h formats it
 *
 * Every failure is WEFT_ERR_INPUT naming the part (file), what is wrong
 * and what to do, except out of memory. */
struct weft_est_merge;
int weft_est_merge_new(struct weft_est_merge **m, struct weft_error *err);
/* Reads the part at path (at most WEFT_EST_PART_MAX_BYTES). */
int weft_est_merge_add_file(struct weft_est_merge *m, const char *path, struct weft_error *err);
/* A part's text; name stands for its file in messages. */
int weft_est_merge_add_text(struct weft_est_merge *m, const char *name, const char *text,
			    size_t len, struct weft_error *err);
/* Checks that no shard is missing and fills *out (free it with
 * weft_est_report_free) and *fmt (the format the run asked for). The
 * parts' results move into *out: call it once. */
int weft_est_merge_finish(struct weft_est_merge *m, struct weft_est_report *out,
			  enum weft_format *fmt, struct weft_error *err);
void weft_est_merge_free(struct weft_est_merge *m);

#endif
