/*
 * estimate.h - power/performance/area of one trace on a set of machine
 * configurations, and the comparison against a baseline configuration:
 * the data behind every weft-estimate report (report.h formats it).
 *
 *     struct weft_est_request req = { .trace_path = "run.wtr",
 *             .config_paths = paths, .nconfigs = 2 };
 *     struct weft_est_report rep;
 *     weft_estimate_run(&req, &rep, &err);   loads, runs, derives, compares
 *     weft_est_report_format(&rep, WEFT_FMT_TABLE, &buf, &err);   (report.h)
 *     weft_est_report_free(&rep);
 *
 * Per configuration: the model (models/model.h) replays every launch; the
 * energy tables (energy/) turn its event counts into joules per category
 * (models/events.h) plus static power x time; the area tables (area/)
 * price its components. From those, per launch and in total:
 *
 *   seconds       = cycles / clock_hz
 *   ipc           = thread_insts / cycles
 *   energy_total  = sum of the categories (static included)
 *   power         = energy_total / seconds
 *   insts_per_j   = thread_insts / energy_total
 *   perf_per_area = thread_insts / seconds / area_mm2
 *
 * and against the baseline (the same launch, or the totals):
 *
 *   speedup             = seconds_base / seconds        (> 1: faster)
 *   insts_per_j_ratio   = insts_per_j / insts_per_j_base (> 1: more efficient;
 *                         docs/estimate.md "What is computed")
 *   energy_ratio        = energy_total / energy_total_base (< 1: less energy;
 *                         the measure to use when instruction counts differ)
 *   perf_per_area_ratio = speedup x area_base / area    (> 1: better; the
 *                         task's throughput per mm2, so it stays honest when
 *                         instruction counts differ)
 *
 * A figure that is undefined (a zero denominator) is NAN; formatters print
 * it as "-" (table), an empty field (CSV) or null (JSON).
 */
#ifndef WEFT_ESTIMATE_H
#define WEFT_ESTIMATE_H

#include <stdint.h>

#include "common/error.h"
#include "models/events.h"
#include "models/model.h"
#include "sample_ci.h"
#include "sweep.h"
#include "trace/format/trace.h"
#include "trace/launch/workload.h"

/* The weft release these reports come from (same as `weft-trace --version`). */
#include "common/version.h"

/* How the trace is identified in reports. */
#define WEFT_EST_TRACE_HASH "fnv1a64-file" /* FNV-1a 64 over every byte of the .wtr file */

#define WEFT_EST_TOTAL UINT32_MAX /* launch index of the totals */

/* One launch (or the totals) on one configuration. */
struct weft_est_figures {
	uint32_t launch;                 /* WEFT_EST_TOTAL for the totals */
	char kernel[64];                 /* "" for the totals */
	double cycles;
	double seconds;
	uint64_t thread_insts;
	double ipc;
	double energy_j[WEFT_CAT_COUNT]; /* static in WEFT_CAT_STATIC */
	double energy_total_j;
	double power_w;
	double insts_per_j;
	double perf_per_area;            /* thread insts / s / mm2 */
	char limiter[WEFT_LIMITER_MAX];  /* the model's: its largest CPI-stack component
					    (totals: of the summed stack; for a model without
					    a stack, the limiter with most cycles) */
	const struct weft_cpi_stack *cpi; /* the model's CPI stack, borrowed from the result */
	/* versus the baseline (weft_est_compare); 1 for the baseline itself */
	double speedup;
	double insts_per_j_ratio;
	double energy_ratio;
	double perf_per_area_ratio;
	const struct weft_stat *stats;   /* the model's, borrowed from the result */
	uint32_t nstats;
	const char *explain;             /* a launch's explanation (request.explain), borrowed
					    from the result; NULL when none */
};

struct weft_est_area_item {
	char name[48];
	double count;
	double area_mm2;                 /* count x area per unit */
	char why[96];
};

/* One configuration's estimate (with --sweep: one point of a config). */
struct weft_est_config {
	char name[192];                  /* file name without .ini: the baseline key; a sweep
					    point: CONFIG[sec.key=v,...] (sweep.h) */
	char config[64];                 /* the config's file name without .ini */
	/* the value this point gives each of the report's swept keys
	 * (weft_est_report.sweep_keys); "" when that sweep does not apply */
	char point[WEFT_EST_MAX_SWEEPS][WEFT_EST_SWEEP_VALUE_MAX];
	char path[256];
	char model[32];
	uint64_t hash;                   /* FNV-1a 64 of the file text and overrides (config.h) */
	char overrides[1024];            /* "sec.key=v,..." as applied; "" none */
	double clock_hz;
	double static_w;
	char energy_basis[1024];         /* node, tables and scaling rule used */
	char area_basis[640];
	double area_mm2;
	struct weft_est_area_item *area_items;
	uint32_t narea;
	struct weft_est_figures total;
	struct weft_est_figures *launches;
	uint32_t nlaunches;
	struct weft_model_result result; /* owned; stats point into it */
	/* A merged report's own storage (shard.h, weft_est_merge_*): there the
	 * figures' cpi, stats and explain point here instead of into result.
	 * NULL otherwise; freed with the report. */
	struct weft_cpi_stack *own_cpi;  /* [nlaunches + 1], the totals' last */
	struct weft_stat *own_stats;     /* every figure's stats, back to back */
	char *own_text;                  /* the explanations, NUL-separated */
	/* with a random sample: the totals' intervals (sample_ci.h), valid
	 * when the report's has_ci is set */
	struct weft_est_interval ci[WEFT_CI_COUNT];
};

struct weft_est_report {
	char version[16];
	char trace_path[256];
	uint64_t trace_hash;             /* WEFT_EST_TRACE_HASH */
	uint64_t trace_bytes;
	char workload[64];               /* from the trace; "" when traced from a spec */
	char size[16];
	uint32_t nlaunches;
	char sampling[96];               /* weft_cta_sample_describe() */
	struct weft_est_config *configs;
	uint32_t nconfigs;
	uint32_t baseline;               /* index into configs */
	/* --sweep: the swept keys ("sec.key", in command-line order); 0 = no
	 * sweep (reports then look as they always did) */
	uint32_t nsweeps;
	char sweep_keys[WEFT_EST_MAX_SWEEPS][130];
	uint32_t trace_passes;           /* reads of the trace, summed over the models run
					    (a shard's report: what one process running every
					    point reads, weft_est_model_passes) */
	int explain;                     /* the request asked for explanations */
	/* --shard K/N (shard.h): nshards 0 = the whole run. Otherwise configs
	 * still lists every point (names, paths, models, hashes, overrides),
	 * but only the points i with weft_est_shard_owns(i, shard, nshards)
	 * were run and priced; no ratios are computed (the merge does). Such a
	 * report is written as a part (weft_est_shard_write), never formatted. */
	uint32_t shard, nshards;
	uint32_t shard_passes;           /* reads of the trace by this process */
	/* a random sample (sample_ci.h): every config's ci[] is filled */
	int has_ci;
	double confidence;               /* of the intervals, e.g. 0.95 */
	uint32_t ci_groups;              /* random groups per launch (at most) */
	enum weft_est_ci_method ci_method; /* groups replayed alone or left out */
	uint64_t ctas_read, ctas_total;  /* CTAs in the sample, in the trace */
	/* --sample-until: the relative half-width asked for (0: not asked),
	 * and the rounds the sample took to reach it */
	double until;
	uint32_t rounds;
};

struct weft_est_request {
	const char *trace_path;
	const char *const *config_paths;
	uint32_t nconfigs;
	/* "[CONFIG:]section.key=value": without CONFIG: applied to every config */
	const char *const *overrides;
	uint32_t noverrides;
	const char *baseline;            /* config or sweep point name; NULL = the first */
	struct weft_cta_sample sample;   /* RANDOM: the report carries intervals; sample.warm:
					    functional warming (weft-estimate sets it unless
					    --no-warm; docs/estimate.md) */
	double confidence;               /* of the intervals; 0 = 0.95 */
	enum weft_est_ci_method ci_method; /* the intervals' replicates (sample_ci.h) */
	/* > 0: sample until every interval's half-width is at most this
	 * fraction of its figure (0.02 = 2%): random samples of sample.count
	 * CTAs per launch (seed sample.seed), the count growing each round
	 * (at least doubling) until the intervals are narrow enough; fails
	 * (WEFT_ERR_INPUT) when the next round would read every CTA. */
	double until;
	/* "[CONFIG:]sec.key=LIST" (sweep.h): each config runs at every point of
	 * the product of the sweeps that apply to it */
	const char *const *sweeps;
	uint32_t nsweeps;
	int explain;                     /* ask the models to explain each launch
					    (weft_config.explain); formatted by table and JSON */
	int alone;                       /* the caller makes no other estimate in this
					    process (the weft-estimate CLI): a run of one
					    point sets weft_config.alone, and its models
					    keep nothing for later runs (same reports) */
	/* --shard K/N (shard.h): run only the points i with i % nshards ==
	 * shard; nshards 0 = every point */
	uint32_t shard, nshards;
	/* Optional (NULL: none): called as the models run, with done of total
	 * CTA replays (the trace's CTAs once per model run; a model without
	 * the per-CTA ops advances a launch at a time), so a CLI can show
	 * progress. The library never prints; the report does not depend on it. */
	weft_progress_fn progress;
	void *progress_user;
	/* threads the replay may use (weft_trace_set_jobs; 0: one per online
	 * CPU); the report does not depend on it */
	unsigned jobs;
};

/* A config's report name: its file name without directory and ".ini" (the
 * same rule as weft_config_load's cfg->name), truncated to len - 1. */
void weft_est_config_name(const char *path, char *out, size_t len);

/* Loads the trace and every config (every sweep point), runs each model
 * once over all its configs (weft_model_run_many: one read of the trace
 * when the model allows it), prices energy and area, derives and compares. On failure *out is left empty and
 * err names the trace, config, launch or key at fault. */
int weft_estimate_run(const struct weft_est_request *req, struct weft_est_report *out,
		      struct weft_error *err);
void weft_est_report_free(struct weft_est_report *r);

/* ---- the pieces (exposed for tests and for other drivers such as sweeps) ---- */

/* Checks "[CONFIG:]section.key=value": splits off the CONFIG target (target
 * set to "" when absent) and points *assign at "section.key=value". */
int weft_est_parse_override(const char *s, char *target, size_t target_len, const char **assign,
			    struct weft_error *err);

/* Fills seconds, ipc, energy_total_j, power_w, insts_per_j, perf_per_area of f
 * from its cycles, thread_insts and energy_j at clock_hz and area_mm2. */
void weft_est_derive(struct weft_est_figures *f, double clock_hz, double area_mm2);

/* The totals' limiter: the launch limiter that accounts for the most cycles
 * (ties: the first seen). */
void weft_est_total_limiter(const struct weft_est_figures *launches, uint32_t n, char *out,
			    size_t len);

/* Fills every config's ratios against configs[r->baseline] (per launch:
 * against the baseline's launch with the same index). */
void weft_est_compare(struct weft_est_report *r);

/* Index of the config named name, or -1. */
int weft_est_find_config(const struct weft_est_report *r, const char *name);

/* FNV-1a 64 over the file's bytes; *bytes gets its size. */
int weft_est_hash_file(const char *path, uint64_t *hash, uint64_t *bytes, struct weft_error *err);

/* Runs bundled workload wl at size into a new trace at path (atomically:
 * nothing is left at path on failure), as `weft-trace run WORKLOAD -o
 * FILE` does without --verify; err is prefixed with the workload and size
 * (trace_workload.c). */
int weft_est_trace_workload(const struct weft_workload *wl, enum weft_size size, const char *path,
			    struct weft_error *err);

#endif
