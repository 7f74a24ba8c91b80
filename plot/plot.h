/*
 * plot.h - figures of weft-estimate reports as gnuplot scripts
 * (docs/plot.md). One call builds the whole script of one figure, its data
 * inline (gnuplot datablocks), so the script saved beside the figure draws
 * it again on its own and can be edited:
 *
 *     struct weft_plot_opts o;
 *     weft_plot_opts_init(&o);
 *     o.kind = WEFT_PLOT_BARS; o.metric = "speedup"; o.output = "speedup.png";
 *     weft_plot_term_of(o.output, &o.term, &err);
 *     weft_plot_script(reports, n, &o, &script, &err);    plot_report.h reads them
 *     weft_plot_render(&script, &o, &err);                plot_run.h: gnuplot draws it
 *
 * The script names its output through a variable: `gnuplot FIG.gp`
 * rewrites the figure, `gnuplot -e "outfile='x.png'" FIG.gp` writes
 * another file.
 */
#ifndef WEFT_PLOT_H
#define WEFT_PLOT_H

#include <stdint.h>

#include "common/error.h"
#include "common/sbuf.h"
#include "plot_report.h"

enum weft_plot_kind {
	WEFT_PLOT_BARS = 0, /* a metric per workload and config (grouped bars) */
	WEFT_PLOT_ENERGY,   /* energy by category (stacked bars) */
	WEFT_PLOT_CPI,      /* CPI stacks (stacked bars) */
	WEFT_PLOT_SWEEP,    /* a metric against a swept key (lines) */
	WEFT_PLOT_DIST,     /* a distribution from model statistics */
	WEFT_PLOT_SCATTER,  /* energy against performance per area (labelled points) */
	WEFT_PLOT_UTIL,     /* utilisation breakdown from the CPI stack (horizontal bars) */
	WEFT_PLOT_NKINDS
};

enum weft_plot_term { WEFT_TERM_PNG = 0, WEFT_TERM_SVG, WEFT_TERM_PDF };

/* How stacked bars are scaled: the default depends on the plot (docs/plot.md). */
enum weft_plot_norm {
	WEFT_NORM_AUTO = 0,
	WEFT_NORM_NONE,     /* the figures as they are (J, cycles) */
	WEFT_NORM_SHARE,    /* each bar to 100% */
	WEFT_NORM_BASELINE, /* each workload's bars to its baseline's total */
};

/* --log: which axes are logarithmic; AUTO lets the plot choose from the data. */
enum weft_plot_log { WEFT_LOG_AUTO = -1, WEFT_LOG_NONE = 0, WEFT_LOG_X = 1, WEFT_LOG_Y = 2,
		     WEFT_LOG_XY = 3 };

struct weft_plot_opts {
	enum weft_plot_kind kind;
	enum weft_plot_term term;
	const char *output;  /* the figure's path, the script's default outfile */
	int paper;           /* --style paper: greyscale-safe, 3.5-inch column */
	double width, height; /* 0: the style's; pixels for PNG and SVG, inches for PDF */
	const char *title;   /* NULL: a title from the data; "": none */
	const char *metric;  /* bars, sweep: a report figure or model statistic; NULL: speedup */
	const char *xmetric, *ymetric; /* scatter; NULL: insts_per_s_per_mm2, energy_total_j */
	const char *key;     /* sweep: the swept key on x; NULL: the report's first */
	const char *of;      /* dist: which distribution; NULL: active-ut */
	int cdf;             /* dist: -1 the family's default, 0 bars, 1 cumulative */
	const char *busy;    /* util: the CPI-stack component of useful work; NULL: issue */
	const char *configs; /* "a,b,...": only these configs (names or file configs); NULL: all */
	enum weft_plot_norm norm;
	enum weft_plot_log log;
	int64_t launch;      /* -1: the totals; else that launch's figures */
	int geomean;         /* bars: a geometric-mean group over the workloads */
};

#define WEFT_PLOT_MAX_REPORTS 64 /* reports in one figure */

void weft_plot_opts_init(struct weft_plot_opts *o);

/* "bars", "energy", ... -> the kind; -1 for any other word. */
int weft_plot_kind_parse(const char *name);
const char *weft_plot_kind_name(enum weft_plot_kind k);

/* The terminal for path's extension (.png, .svg, .pdf, any case); an
 * input error naming the three otherwise. */
int weft_plot_term_of(const char *path, enum weft_plot_term *term, struct weft_error *err);

/* The size the figure gets, as the terminal is told (style and --size):
 * pixels for PNG and SVG, inches for PDF. */
void weft_plot_size(const struct weft_plot_opts *o, double *w, double *h);

/* Appends the gnuplot script of the figure o asks for, from n reports, to
 * out. Input errors say which report lacks what ("r.json: config
 * fermi-sm has no `speedup`", "this report has no active-uT statistics;
 * they come from the vt model"). */
int weft_plot_script(const struct weft_plot_report *const *reports, uint32_t n,
		     const struct weft_plot_opts *o, struct weft_sbuf *out, struct weft_error *err);

#endif
