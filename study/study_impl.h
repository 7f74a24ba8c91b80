/*
 * study_impl.h - what study.c and study_report.c share: the state of one
 * study run and the provenance it keeps for report.md.
 */
#ifndef WEFT_STUDY_IMPL_H
#define WEFT_STUDY_IMPL_H

#include <stdint.h>

#include "estimate/estimate.h"
#include "study.h"

#define WEFT_STUDY_MAX_TRACES 128u

/* One config point of a run, as the first workload's report had it. */
struct weft_study_point {
	char name[192], config[64], path[256], model[32], overrides[1024];
	uint64_t hash;
};

struct weft_study_run_info {
	struct weft_study_point *points;
	uint32_t nconfigs;
	char baseline[192];
};

struct weft_study_ctx {
	const struct weft_study_request *req;
	struct weft_recipe *recipe;
	struct weft_study_plan *plan;
	uint64_t recipe_hash;
	char out[1024], tmp[1100], cache[1024];
	int tmp_made;
	struct weft_study_trace traces[WEFT_STUDY_MAX_TRACES];
	uint32_t ntraces;
	char cfg_path[WEFT_RECIPE_MAX_RUNS][WEFT_RECIPE_MAX_ITEMS][1200];
	const char *cfg_ptr[WEFT_RECIPE_MAX_RUNS][WEFT_RECIPE_MAX_ITEMS];
	struct weft_study_run_info run_info[WEFT_RECIPE_MAX_RUNS];
	uint32_t nreports, nfigures, ntables;
};

void weft_study_note(struct weft_study_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const struct weft_study_trace *weft_study_trace_of(const struct weft_study_ctx *c, const char *w);
/* Keeps the config points of report rep for run r's provenance. */
void weft_study_keep_configs(struct weft_study_ctx *c, uint32_t r, const struct weft_est_report *rep);
/* Writes report.md into c->tmp. */
int weft_study_write_report(struct weft_study_ctx *c, struct weft_error *err);
void weft_study_ctx_free(struct weft_study_ctx *c);

#endif
