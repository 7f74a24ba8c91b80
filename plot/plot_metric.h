/*
 * plot_metric.h - the figures a plot can show, by their report key
 * (docs/estimate.md: the CSV columns and JSON keys), with the label and
 * unit an axis gets, whether the unit takes an SI prefix (time in ms,
 * energy in uJ), and whether the figure is a ratio against the baseline
 * (a line at 1 is drawn). A key this table does not know may still be a
 * model statistic of the report (its "stats"), plotted with the unit the
 * report gives it.
 */
#ifndef WEFT_PLOT_METRIC_H
#define WEFT_PLOT_METRIC_H

#include <stddef.h>

#include "plot_report.h"

struct weft_plot_metric {
	const char *key;   /* "time_s" */
	const char *label; /* "time" */
	const char *unit;  /* "s"; "" when none */
	int si;            /* the unit takes an SI prefix chosen from the data */
	int ratio;         /* against the baseline: 1 is the baseline's */
	int percent;       /* a fraction, shown as % */
};

/* The energy categories of every model, in report order (models/events.h;
 * test_plot checks the two agree), and a word for each. */
#define WEFT_PLOT_NCATS 11
extern const char *const weft_plot_energy_cats[WEFT_PLOT_NCATS];
extern const char *const weft_plot_energy_cat_labels[WEFT_PLOT_NCATS];
/* shorter, for the paper style's key */
extern const char *const weft_plot_energy_cat_short[WEFT_PLOT_NCATS];

/* The figure named key, or NULL when it is not a report figure. */
const struct weft_plot_metric *weft_plot_metric_find(const char *key);

/* Every report figure, for "did you mean": the i-th key, NULL past the end. */
const char *weft_plot_metric_key(size_t i);

/* The value of key in f: a report figure, else a model statistic of that
 * name. Returns 0 with *v set (NAN for null), and *unit the statistic's
 * unit (NULL for a figure), or -1 when f has neither. */
int weft_plot_fig_value(const struct weft_plot_fig *f, const char *key, double *v,
			const char **unit);

/* The SI prefix ("m", "u", "", "k", ...) that puts maxabs in [1, 1000), and
 * the factor to multiply values by; "" and 1 for 0 or a non-finite maxabs. */
double weft_plot_si(double maxabs, const char **prefix);

#endif
