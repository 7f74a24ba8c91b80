/*
 * study.h - one weft-study run (docs/weft-study.md): a recipe's traces
 * (trace_cache.h), its estimates (estimate/estimate.h), tables
 * (estimate/report.h) and figures (plot/plot.h), and a Markdown report
 * with their provenance, written into DIR.tmp and renamed to DIR when
 * everything is there, so DIR is only ever a whole study:
 *
 *     struct weft_study_request req = { .recipe = "recipes/sgmf.ini", .out_dir = "sgmf" };
 *     struct weft_study_result res;
 *     weft_study_run(&req, &res, &err);
 *
 * The library never prints: what it is doing goes to req.note, when set,
 * one line at a time (the CLI writes them to stderr).
 */
#ifndef WEFT_STUDY_H
#define WEFT_STUDY_H

#include <stdint.h>

#include "common/error.h"
#include "recipe.h"
#include "trace_cache.h"

/* Marks a folder as weft-study's: only such a folder is replaced. */
#define WEFT_STUDY_MARKER ".weft-study"

typedef void (*weft_study_note_fn)(void *user, const char *line);

struct weft_study_request {
	const char *recipe;      /* the recipe file */
	const char *out_dir;     /* NULL: the recipe's file name without .ini */
	int size_given;          /* 0: the recipe's [study] size */
	enum weft_size size;
	const char *trace_cache; /* NULL: trace_cache.h's default */
	weft_study_note_fn note; /* NULL: silent */
	void *note_user;
};

struct weft_study_result {
	char out_dir[1024];
	uint32_t ntraces, nreused, nreports, nfigures, ntables;
};

int weft_study_run(const struct weft_study_request *req, struct weft_study_result *res,
		   struct weft_error *err);

/* ---- the pieces (study_out.c), exposed for tests ---- */

/* Removes path and everything below it (no symlink is followed). */
int weft_study_rmtree(const char *path, struct weft_error *err);
/* Makes tmp (out + ".tmp") empty and marked: a leftover tmp of a killed
 * study (it has the marker) is removed first; anything else there is an
 * error. out itself may not exist, or must be a study (marker). */
int weft_study_out_begin(const char *out, char *tmp, size_t len, struct weft_error *err);
/* tmp becomes out; a previous study at out is replaced. */
int weft_study_out_publish(const char *out, const char *tmp, struct weft_error *err);

#endif
