/*
 * model.h - the interface every timing model implements.
 *
 * HOW TO ADD A MODEL (say "foo"):
 *  1. Create models/foo/ with foo.c (and more files if it needs them). Start
 *     foo.c with a comment stating the model's equations and their sources.
 *  2. Define `const struct weft_model weft_model_foo` (see below): its name,
 *     its config schema (every key with a default, a unit and a one-line
 *     description; models/config.h), the events it counts (each with an
 *     energy category, models/events.h) and its ops: init from a config,
 *     consume one launch of a trace, finish into a struct weft_model_result,
 *     free. Each launch result carries a CPI stack (weft_cpi_add: where
 *     the launch's cycles went, components adding up to them) and a
 *     limiter, its largest component (weft_cpi_largest). For sweeps, also split consume into begin_launch / consume_cta /
 *     end_launch (and optionally follow) so weft_model_run_many decodes
 *     each CTA once for every configuration (models/simt/simt.c does).
 *     If a CTA's timing depends on what earlier CTAs left (caches,
 *     strips that cross CTAs), add warm_cta so that random samples are
 *     functionally warmed (models/dataflow/fabric_warm.c does).
 *  3. Add `&weft_model_foo` to the table in models/registry.c.
 *  4. Add configs/foo-*.ini (a `[model] name = foo` section plus the keys
 *     that differ from the defaults, each with a comment citing its source).
 *  5. Add energy rows for its events and area rows for its components to
 *     data/energy/ and data/area/ (each row cites its source).
 *  6. Tests: tests/unit/test_foo.c pinning each mechanism on hand-computed
 *     cases, and a golden report in tests/cli/ (weft-estimate on a small
 *     bundled trace).
 * Models never print: they fill results; estimate/ formats them.
 *
 * A model is analytic: it reads the trace once, streaming, and computes
 * its figures from counts, distributions and small simulations of the
 * mechanisms that decide performance. Threads are grouped with the shared
 * machinery in models/group.h; caches come from models/cache.h.
 */
#ifndef WEFT_MODEL_H
#define WEFT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "common/error.h"
#include "events.h"
#include "trace/format/trace.h"

/* One hardware component instance kind and how many a configuration has;
 * area = sum of count x area per unit from the area table (area/). A
 * component the model prices itself (priced_nm > 0: e.g. a coefficient
 * the model fitted to synthesis results, models/vt/vt_calib.c) carries its
 * area per unit at node priced_nm, what one unit is and the source; area/
 * uses those instead of a table row, scaled to the config's node by the
 * config's rule like a row. The static power of either kind comes from
 * the static table by name (energy/). */
struct weft_component {
	char name[48];      /* area table key, e.g. "simt_sp_lane", "sram_kib" */
	double count;       /* may be fractional for per-KiB/per-bit components */
	char why[96];       /* "sp_per_sm x num_sm", for the breakdown */
	double priced_nm;   /* > 0: priced by the model at this node (else 0: the table) */
	double mm2_per_unit; /* when priced: area per unit at priced_nm (may be negative
				for a term that stands for a difference between designs) */
	char unit[48];      /* when priced: what one unit is */
	char source[320];   /* when priced: where mm2_per_unit comes from */
};

/* A model-specific statistic shown in reports (e.g. "occupancy_warps"). */
struct weft_stat {
	char key[48];
	double value;
	char unit[16];       /* "", "cycles", "%", ... */
};

#define WEFT_MAX_STATS 64
#define WEFT_MAX_COMPONENTS 48

/* What limited performance (the model's largest CPI-stack component). */
#define WEFT_LIMITER_MAX 32

/* A CPI stack: where the cycles of a launch went, component name -> cycles,
 * in the model's report order. The components add up to the launch's
 * cycles (each model documents how it attributes every cycle); reports show
 * them per launch and in total, and the limiter is the largest. */
#define WEFT_MAX_CPI 24
struct weft_cpi_item {
	char name[24];      /* "issue", "dram", "barrier", ... (documented per model) */
	double cycles;
};
struct weft_cpi_stack {
	struct weft_cpi_item item[WEFT_MAX_CPI];
	uint32_t n;
};

struct weft_launch_result {
	uint32_t launch;
	char kernel[64];
	double cycles;
	uint64_t thread_insts;
	char limiter[WEFT_LIMITER_MAX];  /* "issue", "sfu", "shmem_banks", "l1_bw",
					     "l2_bw", "dram_bw", "latency", "occupancy",
					     "divergence", ... (documented per model) */
	double *events;                  /* [model->nevents] counts for this launch */
	struct weft_cpi_stack cpi;       /* sums to cycles */
	struct weft_stat *stats;         /* [nstats], malloc'd: room for WEFT_MAX_STATS
					    while the model fills it, trimmed to nstats when
					    the next launch's result is pushed or the results
					    are taken (a long trace's many launches keep only
					    the stats they have) */
	uint32_t nstats;
	char *explain;                   /* with weft_config.explain: how the model saw the
					    launch, as text (malloc'd; NULL when the model
					    gives none) */
};

struct weft_model_result {
	const struct weft_model *model;
	double clock_hz;
	double cycles;                   /* total over launches */
	double seconds;
	uint64_t thread_insts;
	double *events;                  /* [model->nevents] totals */
	struct weft_launch_result *launches;
	uint32_t nlaunches;
	struct weft_cpi_stack cpi;       /* the launches' stacks summed by name */
	struct weft_component components[WEFT_MAX_COMPONENTS];
	uint32_t ncomponents;
	struct weft_stat stats[WEFT_MAX_STATS];
	uint32_t nstats;
	char sampling[96];               /* weft_cta_sample_describe() of what was read */
};

void weft_model_result_free(struct weft_model_result *r);
/* Appends a zeroed launch result to the growing array *launches (*n used,
 * *cap allocated; doubles from 4) with its events calloc'd to nevents
 * zeros and room for WEFT_MAX_STATS stats; *out points at it and *n counts
 * it. The previous launch's stats are trimmed to the ones it has. On
 * failure (WEFT_ERR_NOMEM) nothing changes but a larger *launches and
 * *cap. A model that then fails to fill it takes it back with
 * weft_launch_result_pop. */
int weft_launch_result_push(struct weft_launch_result **launches, uint32_t *n, uint32_t *cap,
			    uint32_t nevents, struct weft_launch_result **out, struct weft_error *err);
/* Takes back the last launch result of launches[0..*n) (frees what it
 * owns; (*n)--). */
void weft_launch_result_pop(struct weft_launch_result *launches, uint32_t *n);
/* Frees n launch results (what each owns) and the array. */
void weft_launch_results_free(struct weft_launch_result *launches, uint32_t n);
/* Gives launch result r the explanation a model wrote into b (r->explain
 * takes b's text, "" when b is empty; b is left empty). When b ran out of
 * memory, or the empty string cannot be allocated, b is freed and the
 * error is WEFT_ERR_NOMEM naming the launch. */
struct weft_sbuf;
int weft_launch_result_explain(struct weft_launch_result *r, uint32_t launch, struct weft_sbuf *b,
			       struct weft_error *err);
/* Moves a model's totals into a result at finish: clock_hz, cycles,
 * seconds = cycles / clock_hz, thread_insts, a calloc'd copy of
 * events[0..nevents-1], and the launch results (the array moves: *launches
 * becomes NULL, *nlaunches and *cap 0); res->cpi becomes the launches'
 * CPI stacks summed by name. On WEFT_ERR_NOMEM for the events
 * the launches stay with the model. */
int weft_model_result_take(struct weft_model_result *res, double clock_hz, double cycles,
			   uint64_t thread_insts, const double *events, uint32_t nevents,
			   struct weft_launch_result **launches, uint32_t *nlaunches, uint32_t *cap,
			   struct weft_error *err);
/* Adds cycles to the component `name` of s (appended at the end when new;
 * silently ignored past WEFT_MAX_CPI components). */
void weft_cpi_add(struct weft_cpi_stack *s, const char *name, double cycles);
/* The sum of s's components. */
double weft_cpi_total(const struct weft_cpi_stack *s);
/* The name of s's largest component ("" when s is empty; the first on ties). */
const char *weft_cpi_largest(const struct weft_cpi_stack *s);
/* Fills one component (zeroed first): its area table key, its count and
 * the printf-formatted why (both strings truncated to fit). */
void weft_component_set(struct weft_component *c, const char *name, double count,
			const char *why, ...) __attribute__((format(printf, 4, 5)));
/* Appends a stat (silently keeps the first WEFT_MAX_STATS). */
void weft_stat_add(struct weft_stat *stats, uint32_t *n, const char *key, double value,
		   const char *unit);

struct weft_model {
	const char *name;               /* "simt" */
	const char *description;        /* one line */
	const struct weft_config_key *keys; /* schema, terminated by a NULL section */
	const struct weft_event_def *events; /* counted events */
	uint32_t nevents;
	/* Allocates the model state from a validated config. */
	int (*init)(const struct weft_config *cfg, void **state, struct weft_error *err);
	/* Consumes one launch of a trace (CTAs chosen by sample). */
	int (*consume_launch)(void *state, struct weft_trace *t, uint32_t launch,
			      const struct weft_cta_sample *sample, struct weft_error *err);
	/* Fills result (cycles, events, components, stats); state stays valid. */
	int (*finish)(void *state, struct weft_model_result *result, struct weft_error *err);
	void (*free)(void *state);
	/* Optional (may be NULL): the configuration's hardware components
	 * (the same list finish() puts in result->components), without a
	 * trace; weft-area uses it. */
	int (*components)(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			  struct weft_error *err);

	/* ---- optional: several configurations from one read of the trace ----
	 * (weft_model_run_many). consume_launch split in three so that each CTA
	 * is decoded once and handed to every state. For each launch:
	 * begin_launch, then consume_cta for every CTA weft_trace_for_each_cta
	 * yields for the sample (in that order), then end_launch; together they
	 * must leave the state exactly as consume_launch would (a model's
	 * consume_launch is best written as these three). begin_launch returns
	 * 0 (feed me the CTAs), 1 (this launch needs no CTAs, e.g. a replay
	 * restored from a cache; end_launch is still called) or a negative
	 * error. A model sets all three or none (then run_many runs one pass
	 * per configuration). */
	int (*begin_launch)(void *state, struct weft_trace *t, uint32_t launch,
			    const struct weft_cta_sample *sample, struct weft_error *err);
	int (*consume_cta)(void *state, const struct weft_cta_trace *cta, struct weft_error *err);
	int (*end_launch)(void *state, struct weft_trace *t, uint32_t launch,
			  const struct weft_cta_sample *sample, struct weft_error *err);
	/* Optional, with the three above: asks `state` to take every launch's
	 * replay from `leader` (an earlier state of the same model in the same
	 * run_many call, itself no follower) because their configurations
	 * differ only in keys the replay does not read (clock, bandwidths,
	 * [tech], ...). Returns 1 when it will: run_many then still calls its
	 * begin_launch and end_launch but never consume_cta, and calls the
	 * leader's end_launch before the follower's, both before the leader's
	 * next begin_launch. Returns 0 when the replays would differ. */
	int (*follow)(void *state, void *leader);
	/* Optional, with the three per-CTA ops: functional warming (Wunderlich
	 * et al., "SMARTS", ISCA 2003). For a sample with warm set, a CTA
	 * outside the sample, in CTA order between the consume_cta calls: it
	 * changes only the state that carries from CTA to CTA (cache contents,
	 * the dealing of CTAs to cores) as its replay would, and counts and
	 * times nothing, so the sampled CTAs see what a full replay would give
	 * them. A model whose timing carries no state across CTAs leaves it
	 * NULL (its sampled CTAs are then fed alone). consume_launch must call
	 * it the same way (weft_trace_for_each_cta_warm). */
	int (*warm_cta)(void *state, const struct weft_cta_trace *cta, struct weft_error *err);
	/* Optional, with warm_cta: after begin_launch of a windowed sample,
	 * how many CTAs before the launch's first window warm_cta should also
	 * get (weft_cta_sample.warm_fill; 0 none); the model warms those
	 * until its caches are full and skips the rest, and skips the ones
	 * before its own count when a run of several configurations asks
	 * for more (the largest is asked for). A model whose windows leave a
	 * shared cache part empty needs it: a part-empty cache's misses
	 * evict, and write back, nothing where a full replay's do. */
	uint32_t (*warm_fill)(void *state);
};

/* NULL-terminated table (models/registry.c). */
extern const struct weft_model *const weft_models[];
const struct weft_model *weft_model_find(const char *name);

/* weft_cta_sample_describe of what model m read for sample: " with
 * warming" only when m warms (has warm_cta). */
void weft_model_sample_describe(const struct weft_model *m, const struct weft_cta_sample *sample,
				char *buf, size_t len);

/* Runs a model over every launch of a trace: init, consume each launch,
 * finish. */
int weft_model_run(const struct weft_model *m, const struct weft_config *cfg, struct weft_trace *t,
		   const struct weft_cta_sample *sample, struct weft_model_result *result,
		   struct weft_error *err);

/* Progress of a long run, for a caller that shows it (the library never
 * prints): done of total units, called after each unit. */
typedef void (*weft_progress_fn)(void *user, uint64_t done, uint64_t total);
/* weft_model_run, calling progress (when not NULL) after each launch with
 * done of total CTAs: the CTAs of the launches so far of every launch's. */
int weft_model_run_progress(const struct weft_model *m, const struct weft_config *cfg,
			    struct weft_trace *t, const struct weft_cta_sample *sample,
			    struct weft_model_result *result, weft_progress_fn progress, void *user,
			    struct weft_error *err);

/* Runs one model over n configurations (all naming model m) into
 * results[0..n-1], each identical to what weft_model_run gives for that
 * config. With the per-CTA ops, each launch's CTAs are decoded once and
 * handed to every state (followers skip even the replay); without them,
 * one weft_model_run per config. *passes (may be NULL) gets how many
 * times the trace was read: 1 with the per-CTA ops, n without (reports,
 * benches).
 * On failure every result is left empty (models/model_many.c). */
int weft_model_run_many(const struct weft_model *m, const struct weft_config *const *cfgs,
			uint32_t n, struct weft_trace *t, const struct weft_cta_sample *sample,
			struct weft_model_result *results, uint32_t *passes, struct weft_error *err);
/* weft_model_run_many, calling progress (when not NULL) in units of the
 * trace's CTAs: with the per-CTA ops (one pass) after each CTA fed and each
 * launch (a sample's skipped CTAs count at the launch's end), done of the
 * trace's CTAs; without them, after each launch of each configuration, done
 * of n x the trace's CTAs. The results are the same. */
int weft_model_run_many_progress(const struct weft_model *m, const struct weft_config *const *cfgs,
				 uint32_t n, struct weft_trace *t, const struct weft_cta_sample *sample,
				 struct weft_model_result *results, uint32_t *passes,
				 weft_progress_fn progress, void *user, struct weft_error *err);

#endif
