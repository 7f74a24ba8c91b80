/*
 * plot_impl.h - internal to plot/: one builder per plot type, each in its
 * own file, called by plot.c's weft_plot_script. Each appends the whole
 * script of its figure (plot_gp.h's preamble, data, plot command, end) or
 * returns an input error saying what the reports lack.
 */
#ifndef WEFT_PLOT_IMPL_H
#define WEFT_PLOT_IMPL_H

#include "plot_gp.h"

int weft_plot_bars(struct weft_gp *g);    /* plot_bars.c */
int weft_plot_stack(struct weft_gp *g);   /* plot_stack.c: energy and cpi */
int weft_plot_util(struct weft_gp *g);    /* plot_util.c */
int weft_plot_sweep(struct weft_gp *g);   /* plot_sweep.c */
int weft_plot_dist(struct weft_gp *g);    /* plot_dist.c */
int weft_plot_scatter(struct weft_gp *g); /* plot_scatter.c */

#endif
