/*
 * plot_gp.h - internal to plot/: what every figure's script shares. The
 * preamble (a header comment saying how to draw it again, the outfile
 * variable, the terminal for PNG, SVG or PDF at the style's size, fonts,
 * the series' colours or, in the paper style, greyscale fills and dash
 * patterns), gnuplot string quoting that no report name can break out of,
 * and the selection every plot makes: which configs (--configs), which
 * figures (totals or --launch), and a label per report.
 *
 * Data go into datablocks of numbers only; every name is written as a
 * double-quoted gnuplot string (titles, tics, labels), never as data.
 */
#ifndef WEFT_PLOT_GP_H
#define WEFT_PLOT_GP_H

#include "plot.h"
#include "plot_metric.h"

/* The series of a figure: config (or sweep point) names in order. */
#define WEFT_GP_MAX_SERIES 256
#define WEFT_GP_LABEL_MAX 96

struct weft_gp {
	struct weft_sbuf *out;
	const struct weft_plot_opts *o;
	const struct weft_plot_report *const *reports;
	uint32_t nreports;
	struct weft_error *err;
	/* one label per report: the workload, made unique with the size or
	 * the file name where two reports share it */
	char labels[WEFT_PLOT_MAX_REPORTS][WEFT_GP_LABEL_MAX];
};

/* Fills g (labels included); n must be 1..WEFT_PLOT_MAX_REPORTS. */
int weft_gp_init(struct weft_gp *g, const struct weft_plot_report *const *reports, uint32_t n,
		 const struct weft_plot_opts *o, struct weft_sbuf *out, struct weft_error *err);

/* s as a gnuplot double-quoted string: `"` and `\` escaped with a
 * backslash, control characters and bytes that are not UTF-8 as '?'. */
void weft_gp_quote(struct weft_sbuf *out, const char *s);

/* A tic of an explicit tic list, `"label" pos`: the label quoted as above
 * with its '%' doubled (gnuplot formats tic labels with the position). */
void weft_gp_tic(struct weft_sbuf *out, const char *label, double pos);

/* The header comment, outfile, terminal and style. what: "bars of
 * speedup" for the comment. */
void weft_gp_preamble(struct weft_gp *g, const char *what);

/* `set title '...'` from the user's --title, else from deflt (NULL: none). */
void weft_gp_title(struct weft_gp *g, const char *deflt);

/* The fill and colour of filled series k (bars, stacks):
 * "fs solid 0.85 border lc rgb '#000000' lc rgb '#4477aa'", or the paper
 * style's grey or hatching. */
void weft_gp_fill(struct weft_gp *g, uint32_t k);
/* The line of series k (lines, points): colour or, on paper, black with
 * dash type and point type k. */
void weft_gp_line(struct weft_gp *g, uint32_t k);

/* Where the key goes: right of the plot (default style), above it in
 * rows (paper: a column figure has no width to spare); invert lists the
 * entries last first (stacks, whose last component is on top). */
void weft_gp_key(struct weft_gp *g, int invert);

/* Closes the script (`unset output`). */
void weft_gp_end(struct weft_gp *g);

/* Whether config c passes --configs. */
int weft_gp_selected(const struct weft_gp *g, const struct weft_plot_config *c);

/* The series names: --configs in its order, else every config name of the
 * reports in first-seen order. Names from --configs must each match a
 * config (or file config) of some report: an input error with "did you
 * mean" otherwise. file: use c->config (the file config) instead of the
 * point name. */
int weft_gp_series(struct weft_gp *g, int file, char (*names)[WEFT_PLOT_NAME_MAX], uint32_t *n);

/* The config of report r named name (point name, or file config when
 * file), NULL when none; the first match. */
const struct weft_plot_config *weft_gp_config(const struct weft_plot_report *r, const char *name,
					      int file);

/* The figures of c the options ask for (the totals, or --launch N); an
 * input error naming the report and config when c lacks that launch. */
int weft_gp_fig(struct weft_gp *g, const struct weft_plot_report *r,
		const struct weft_plot_config *c, const struct weft_plot_fig **f);

/* " (launch N, KERNEL)" or "" for the totals. */
const char *weft_gp_launch_words(const struct weft_gp *g, const struct weft_plot_report *r,
				 char *buf, size_t len);

/* The metric's value in f for report r, config c: an input error when
 * neither a figure nor a statistic of that name is there ("r.json: config
 * X has no `spedup`; did you mean `speedup`?"). */
int weft_gp_value(struct weft_gp *g, const struct weft_plot_report *r,
		  const struct weft_plot_config *c, const struct weft_plot_fig *f, const char *key,
		  double *v, const char **unit);

/* The axis label of a metric: "time (ms)", "speedup over fermi-sm", with
 * *scale set to multiply values by (SI prefix, or 100 for a share) for
 * values up to maxabs. unit: a statistic's unit when the metric is not a
 * report figure. */
void weft_gp_axis_label(struct weft_gp *g, const char *key, const char *unit, double maxabs,
			char *buf, size_t len, double *scale);

/* "%.10g" of v, or "NaN" (a gap) when it is not finite. */
void weft_gp_num(struct weft_sbuf *out, double v);

#endif
