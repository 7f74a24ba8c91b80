/*
 * plot_report.h - a weft-estimate JSON report (docs/estimate.md "JSON"),
 * read for plotting. The file is user input (a colleague's report, a
 * hand-edited one), so the reader checks every member's type, caps every
 * count before it sizes an allocation, and names what is wrong by the file
 * and the member's JSON path:
 *
 *     r.json: configs[2].total.cpi_stack.issue: expected a number or null, got a string
 *
 * Figures are kept generically: every numeric member of a launch's or the
 * totals' object (cycles, time_s, speedup, energy_l1_j, ...; null = NAN),
 * its CPI stack and its model statistics, so a plot asks for a figure by
 * its report key (plot_metric.h) and a report from a newer weft with more
 * keys still reads. Members the reader does not know are skipped when they
 * are not numbers.
 *
 *     struct weft_plot_report r;
 *     if (weft_plot_read_file("r.json", &r, &err) == 0) { ...; weft_plot_report_free(&r); }
 */
#ifndef WEFT_PLOT_REPORT_H
#define WEFT_PLOT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Caps on what one report may hold (docs/plot.md "Limits"). */
#define WEFT_PLOT_MAX_BYTES (64u << 20)    /* a report file */
#define WEFT_PLOT_MAX_CONFIGS 8192u        /* configs and sweep points */
#define WEFT_PLOT_MAX_LAUNCHES 65536u      /* launches of one config */
#define WEFT_PLOT_MAX_FIGURES (1u << 20)   /* launches and totals of all configs */
#define WEFT_PLOT_MAX_NUMS 256u            /* numeric members of one figure object */
#define WEFT_PLOT_MAX_CPI 64u              /* CPI-stack components of one figure */
#define WEFT_PLOT_MAX_STATS 256u           /* model statistics of one figure */
#define WEFT_PLOT_MAX_SWEEPS 8u            /* swept keys */
#define WEFT_PLOT_KEY_MAX 64               /* a key, a component or a stat name, NUL included */
#define WEFT_PLOT_NAME_MAX 256             /* a config or point name, NUL included */

struct weft_plot_num {
	char key[WEFT_PLOT_KEY_MAX];
	double value; /* NAN for null */
};

struct weft_plot_stat {
	char key[WEFT_PLOT_KEY_MAX];
	double value; /* NAN for null */
	char unit[24];
};

/* One launch, or the totals, of one config. */
struct weft_plot_fig {
	int64_t launch; /* -1 for the totals */
	char kernel[WEFT_PLOT_KEY_MAX];
	char limiter[WEFT_PLOT_KEY_MAX];
	struct weft_plot_num *nums;
	uint32_t nnums;
	struct weft_plot_num *cpi; /* in the report's order */
	uint32_t ncpi;
	struct weft_plot_stat *stats;
	uint32_t nstats;
};

struct weft_plot_config {
	char name[WEFT_PLOT_NAME_MAX];   /* a config's or a sweep point's name */
	char config[WEFT_PLOT_NAME_MAX]; /* the file config's name ("config"; name when absent) */
	char model[WEFT_PLOT_KEY_MAX];
	int baseline;                    /* "baseline": true */
	double area_mm2;                 /* NAN when absent or null */
	/* the point's value of each of the report's swept keys: as written
	 * ("" when the sweep does not apply) and as a number (NAN when none) */
	char point[WEFT_PLOT_MAX_SWEEPS][WEFT_PLOT_KEY_MAX];
	double pointv[WEFT_PLOT_MAX_SWEEPS];
	struct weft_plot_fig total;
	struct weft_plot_fig *launches;
	uint32_t nlaunches;
};

struct weft_plot_report {
	char path[WEFT_PLOT_NAME_MAX];      /* the file it was read from */
	char version[32];                   /* weft_version */
	char workload[WEFT_PLOT_KEY_MAX];   /* trace.workload; "" when traced from a spec */
	char size[WEFT_PLOT_KEY_MAX];       /* trace.size */
	char trace[WEFT_PLOT_NAME_MAX];     /* trace.path */
	char baseline[WEFT_PLOT_NAME_MAX];  /* the baseline config's name */
	uint32_t nsweeps;
	char sweep[WEFT_PLOT_MAX_SWEEPS][WEFT_PLOT_KEY_MAX * 2];
	struct weft_plot_config *configs;
	uint32_t nconfigs;
};

/* Reads the report in path (at most WEFT_PLOT_MAX_BYTES). On failure *r is
 * left empty (weft_plot_report_free is still safe) and err says what and
 * where: WEFT_ERR_INPUT for a file that cannot be read or is not a report,
 * WEFT_ERR_PARSE with line and column for JSON that does not parse,
 * WEFT_ERR_NOMEM. */
int weft_plot_read_file(const char *path, struct weft_plot_report *r, struct weft_error *err);

/* The same from len bytes in memory; name stands for the file in messages. */
int weft_plot_read_mem(const char *name, const char *data, size_t len, struct weft_plot_report *r,
		       struct weft_error *err);

void weft_plot_report_free(struct weft_plot_report *r);

/* What a plot calls a report: the workload ("sgemm"), or the trace file's
 * name without directory and ".wtr" when it has none, or the report file's. */
const char *weft_plot_report_label(const struct weft_plot_report *r, char *buf, size_t len);

/* The figures of c for launch (-1: the totals); NULL when c has no such launch. */
const struct weft_plot_fig *weft_plot_config_fig(const struct weft_plot_config *c, int64_t launch);

#endif
