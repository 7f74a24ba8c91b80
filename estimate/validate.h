/*
 * validate.h - weft-validate: published claims (the CSV files of data/validation/)
 * against what weft's models say. For each claim it traces the bundled
 * workloads the claim needs, replays them on the claim's configurations
 * (estimate.h), computes the claim's metric, and says whether weft lands
 * inside the claim's band. The library never prints: the CLI
 * (weft-validate.c) formats the report (validate_report.c) and writes it.
 *
 *     struct weft_val_claims cl = { 0 };
 *     weft_val_claims_load("data/validation/claims.csv", NULL, &cl, &err);
 *     struct weft_val_request req = { .claims = &cl, .size = WEFT_SIZE_SMALL };
 *     struct weft_val_report rep;
 *     weft_val_run(&req, &rep, &err);       traces, replays, computes, judges
 *     weft_val_report_format(&rep, WEFT_FMT_TABLE, &text, &err);
 *     weft_val_report_free(&rep); weft_val_claims_free(&cl);
 *
 * Metrics (docs/validate.md gives every formula). A claim names kernels
 * ("items": a bundled workload, or one kernel of it, `gaussian:fan1`), a
 * baseline and a compared configuration, a quantity and an aggregate. Per
 * item, over the launches of that kernel in the trace:
 *
 *   speedup       = sum of baseline seconds / sum of compared seconds
 *   ipj_ratio     = (insts / joules of compared) / (insts / joules of baseline)
 *   energy_share  = joules in one category / all joules (compared config only)
 *
 * aggregated over the items as kernel (one item), mean (arithmetic), geomean,
 * min, max, range (min and max), or trend (the arithmetic mean over items at
 * each point of a sweep of the compared config, checked for monotonicity).
 * Area claims price a configuration (area/area.h) at the published node:
 * area (mm^2) or area_ratio (compared / baseline).
 *
 * Bands: xF (the ratio weft / published lies in [1/F, F]; for a range both
 * ends must) or direction (the published relation holds: < X, > X,
 * increasing, non-decreasing, decreasing, non-increasing).
 */
#ifndef WEFT_VALIDATE_H
#define WEFT_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "models/events.h"
#include "report.h"
#include "common/sbuf.h"
#include "trace/launch/workload.h"

#define WEFT_VAL_MAX_CLAIMS 1024   /* per run, over all claims files */
#define WEFT_VAL_MAX_ITEMS 16      /* kernels per claim */
#define WEFT_VAL_MAX_SETS 8        /* SEC.KEY=VALUE overrides per configuration */
#define WEFT_VAL_MAX_POINTS 32     /* values of a claim's sweep */

/* Field sizes (a longer field is an error naming its limit). */
#define WEFT_VAL_ID_MAX 48
#define WEFT_VAL_TEXT_MAX 512      /* publication, mapping, note */

enum weft_val_metric {
	WEFT_VAL_SPEEDUP = 0,
	WEFT_VAL_IPJ_RATIO,
	WEFT_VAL_ENERGY_SHARE,     /* of one category (claim.category) */
	WEFT_VAL_AREA,
	WEFT_VAL_AREA_RATIO,
};

enum weft_val_agg {
	WEFT_VAL_AGG_NONE = 0,     /* "-": area claims */
	WEFT_VAL_AGG_KERNEL,       /* exactly one item */
	WEFT_VAL_AGG_MEAN,         /* arithmetic */
	WEFT_VAL_AGG_GEOMEAN,
	WEFT_VAL_AGG_MIN,
	WEFT_VAL_AGG_MAX,
	WEFT_VAL_AGG_RANGE,        /* min and max */
	WEFT_VAL_AGG_TREND,        /* arithmetic mean over items at each sweep point */
};

enum weft_val_pub {
	WEFT_VAL_PUB_VALUE = 0,    /* X > 0 */
	WEFT_VAL_PUB_RANGE,        /* LO-HI, 0 < LO < HI */
	WEFT_VAL_PUB_BELOW,        /* <X */
	WEFT_VAL_PUB_ABOVE,        /* >X */
	WEFT_VAL_PUB_INCREASING,   /* each point above the one before */
	WEFT_VAL_PUB_NONDECREASING,
	WEFT_VAL_PUB_DECREASING,
	WEFT_VAL_PUB_NONINCREASING,
};

enum weft_val_band { WEFT_VAL_BAND_FACTOR = 0, WEFT_VAL_BAND_DIRECTION };

enum weft_val_verdict { WEFT_VAL_OUT = 0, WEFT_VAL_IN = 1, WEFT_VAL_UNKNOWN = 2 };

struct weft_val_item {
	char workload[32];         /* a bundled workload */
	char kernel[64];           /* "" = every launch of the workload */
};

/* One side of a comparison: a config file and its overrides. */
struct weft_val_setup {
	int present;               /* 0: "-" (no baseline) */
	char file[256];            /* as written in the claims file */
	char path[512];            /* resolved (see weft_val_claims_load) */
	char name[64];             /* file name without directory and .ini */
	char sets[WEFT_VAL_MAX_SETS][128];
	uint32_t nsets;
	char text[1024];           /* the field as written, trimmed */
};

struct weft_val_claim {
	char id[WEFT_VAL_ID_MAX];
	char publication[WEFT_VAL_TEXT_MAX];
	char where[128];
	struct weft_val_item items[WEFT_VAL_MAX_ITEMS];
	uint32_t nitems;
	char workloads[512];       /* the field as written, trimmed */
	struct weft_val_setup baseline, config;
	char sweep[256];           /* "sec.key=v1,v2,..." or "" */
	char sweep_key[130];       /* "sec.key" */
	char sweep_values[WEFT_VAL_MAX_POINTS][64];
	uint32_t nsweep;
	enum weft_val_metric metric;
	int category;              /* enum weft_energy_cat, energy_share only */
	enum weft_val_agg agg;
	double node_nm;            /* area claims: the published node; else 0 */
	enum weft_val_pub pub;
	double pub_v[2];           /* VALUE/BELOW/ABOVE: [0]; RANGE: [0] low, [1] high */
	char published[64];        /* as written */
	enum weft_val_band band;
	double factor;             /* xF: F > 1 */
	char band_text[32];
	char mapping[WEFT_VAL_TEXT_MAX];
	char note[WEFT_VAL_TEXT_MAX];
	char file[256];            /* the claims file and the row's line */
	uint32_t line;
};

struct weft_val_claims {
	struct weft_val_claim *v;
	uint32_t n;
};

/* The columns of a claims file, in the order the bundled file uses (any
 * order is accepted; every column is required, no other is allowed). */
extern const char *const weft_val_columns[];
#define WEFT_VAL_NCOLUMNS 14

/* Appends the claims of one CSV file to out (start with out zeroed). Every
 * field is checked; an error names file:line:column, the column, what is
 * wrong and what to write instead. Config files are resolved as the data
 * tables are: absolute as is, "./x" and "../x" relative to the claims
 * file's directory, anything else relative to configs_dir (NULL: the
 * default, weft_val_configs_dir). Each config is loaded with its
 * overrides and every sweep point (unknown keys and out-of-range values
 * fail here, with the claim's position), each workload must be bundled
 * and each kernel must be one of its entry points. An id that repeats one
 * already in out is an error naming both places. */
int weft_val_claims_load(const char *path, const char *configs_dir, struct weft_val_claims *out,
			 struct weft_error *err);
/* The same from text (tests); path is used in messages and for "./x". */
int weft_val_claims_parse(const char *text, size_t len, const char *path, const char *configs_dir,
			  struct weft_val_claims *out, struct weft_error *err);
void weft_val_claims_free(struct weft_val_claims *c);

/* <data dir>/validation/claims.csv and <data dir>/../configs
 * (models/config.h weft_data_dir). */
int weft_val_default_claims(char *out, size_t len, struct weft_error *err);
int weft_val_configs_dir(char *out, size_t len, struct weft_error *err);

/* ---- the pieces of a judgement (pure; unit-tested on synthetic figures) ---- */

/* "1.77", "1.2-5.7", "<1", ">1", "increasing", "non-decreasing",
 * "decreasing", "non-increasing". 0, or -1 with why (a phrase) set. */
int weft_val_parse_published(const char *s, enum weft_val_pub *kind, double v[2],
			     const char **why);
/* "x1.5" (any factor > 1) or "direction". 0, or -1 with why set. */
int weft_val_parse_band(const char *s, enum weft_val_band *kind, double *factor, const char **why);

/* Sums over the launches of one kernel on one configuration. */
struct weft_val_sums {
	uint32_t nlaunches;
	double seconds;
	double insts;
	double energy_j;                    /* all categories, static included */
	double cat_j[WEFT_CAT_COUNT];
};

/* The per-item quantity of metric (speedup, ipj_ratio, energy_share of
 * category) from the baseline's and the compared config's sums; NAN when a
 * denominator is zero or no launch was summed. */
double weft_val_item_figure(enum weft_val_metric metric, int category,
			    const struct weft_val_sums *base, const struct weft_val_sums *cfg);

/* Aggregates x[0..n-1] (n >= 1): fills v (v[1] only for range) and returns
 * how many values it gave (1, or 2 for range); NAN when an x is NAN (or,
 * for geomean, not > 0). Not for trend. */
uint32_t weft_val_aggregate(enum weft_val_agg agg, const double *x, uint32_t n, double v[2]);

/* Whether x[0..n-1] follows the trend kind: 1 yes, 0 no, -1 unknown (a NAN
 * or fewer than 2 points). */
int weft_val_trend_holds(enum weft_val_pub kind, const double *x, uint32_t n);

/* ratio within [1/factor, factor] (a relative 1e-12 of slack at the
 * edges so that a ratio printed as exactly the factor is in). */
int weft_val_in_factor(double ratio, double factor);

/* What weft said about one claim. */
struct weft_val_result {
	struct weft_val_claim claim;       /* a copy: the report stands alone */
	enum weft_val_verdict verdict;
	uint32_t nvalues;                  /* 1; 2 for range; 0 for trend */
	double value[2];
	double ratio[2];                   /* weft / published, per value; NAN for directions */
	/* per item (not trend): the item's figure */
	double item_value[WEFT_VAL_MAX_ITEMS];
	uint32_t nitem_values;
	/* trend: the mean over items at each point, and how many items were
	 * monotone on their own */
	double point_value[WEFT_VAL_MAX_POINTS];
	uint32_t npoints;
	uint32_t items_monotone;
	/* area claims: the areas (compared, baseline) in mm^2 */
	double area_mm2[2];
	char value_text[160];              /* weft's value as the table shows it */
	char detail[1024];                 /* per kernel, argmin/argmax, geomean, ... */
};

/* Fills r's verdict, values, ratios and value_text from the figures x
 * (per item, or per point for trend) according to c; r->claim must
 * already be c. */
void weft_val_judge(const struct weft_val_claim *c, const double *x, uint32_t n,
		    struct weft_val_result *r);

/* ---- a run ---- */

struct weft_val_request {
	const struct weft_val_claims *claims;
	const char *const *only;            /* claim ids to run (NULL/0: all) */
	uint32_t nonly;
	enum weft_size size;
	/* traces go here as WORKLOAD-SIZE.wtr and are kept; one already there
	 * (of that workload and size) is reused. NULL: a temporary directory
	 * (under $TMPDIR, else /tmp) removed before weft_val_run returns. */
	const char *trace_dir;
	/* called with a line saying what starts now (may be NULL) */
	void (*progress)(void *user, const char *what);
	void *progress_user;
};

struct weft_val_trace {
	char workload[32];
	char path[1024];
	int reused;                        /* found in trace_dir, not traced now */
	uint64_t hash;                     /* WEFT_EST_TRACE_HASH of the file */
	uint64_t bytes;
	uint32_t nlaunches;
};

struct weft_val_report {
	char version[16];
	char size[16];
	char trace_dir[1024];              /* "" when temporary */
	struct weft_val_trace *traces;
	uint32_t ntraces;
	struct weft_val_result *results;   /* in claims order */
	uint32_t n;
	uint32_t nin, nout, nunknown;
};

/* Runs the claims (all, or req->only): traces what they need, replays each
 * configuration once per trace where it can (configs that share a file
 * name run in separate passes), computes and judges every claim. Fails
 * (WEFT_ERR_INPUT) on an unknown --only id, a trace_dir that is not a
 * directory or holds a trace of another workload or size under the name
 * weft-validate would use; errors from tracing or replaying name the
 * workload and config. A claim that runs but cannot be judged (a zero
 * time, a kernel that did not launch at this size) is UNKNOWN, not an
 * error. */
int weft_val_run(const struct weft_val_request *req, struct weft_val_report *out,
		 struct weft_error *err);
void weft_val_report_free(struct weft_val_report *r);

/* Table (one line per claim, then notes), CSV (one row per claim) or JSON;
 * docs/validate.md lists the columns and keys. */
int weft_val_report_format(const struct weft_val_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err);

/* Names for messages and reports. */
const char *weft_val_metric_name(enum weft_val_metric m);
const char *weft_val_agg_name(enum weft_val_agg a);
const char *weft_val_verdict_name(enum weft_val_verdict v); /* "yes", "no", "unknown" */

#endif
