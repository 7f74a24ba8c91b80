/*
 * plot_scatter.c - one labelled point per config (or sweep point) and
 * workload: energy (--y, default energy_total_j) against performance per
 * area (--x, default insts_per_s_per_mm2), so the configs that are both
 * cheap in energy and fast per mm2 sit low and to the right. One colour
 * and point type per workload; an axis whose values span more than 100x
 * is logarithmic (--log chooses).
 */
#include "plot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spt {
	uint32_t r;
	const struct weft_plot_config *c;
	double x, y;
};

/* An axis is logarithmic when its values are positive and span more than
 * 100x (or --log asks, for positive values only: a point at 0 or below has
 * no place on it). */
static int want_log(const struct spt *p, uint32_t n, int y)
{
	double lo = INFINITY, hi = 0;
	for (uint32_t i = 0; i < n; i++) {
		double v = y ? p[i].y : p[i].x;
		if (!isfinite(v))
			continue;
		if (v <= 0)
			return 0;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	return hi > 0 && hi / lo > 100;
}

int weft_plot_scatter(struct weft_gp *g)
{
	const char *xk = g->o->xmetric ? g->o->xmetric : "insts_per_s_per_mm2";
	const char *yk = g->o->ymetric ? g->o->ymetric : "energy_total_j";
	char(*names)[WEFT_PLOT_NAME_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*names));
	uint32_t ns = 0, np = 0;
	struct spt *p = NULL;
	int rc = names ? 0 : weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	if (rc == 0)
		rc = weft_gp_series(g, 0, names, &ns);
	if (rc == 0 && !(p = calloc((size_t)ns * g->nreports + 1, sizeof(*p))))
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	const char *xu = NULL, *yu = NULL;
	double xmax = 0, ymax = 0;
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++)
		for (uint32_t s = 0; rc == 0 && s < ns; s++) {
			const struct weft_plot_config *c = weft_gp_config(g->reports[r], names[s], 0);
			const struct weft_plot_fig *f;
			if (!c)
				continue;
			struct spt *q = &p[np++];
			q->r = r;
			q->c = c;
			rc = weft_gp_fig(g, g->reports[r], c, &f);
			if (rc == 0)
				rc = weft_gp_value(g, g->reports[r], c, f, xk, &q->x, &xu);
			if (rc == 0)
				rc = weft_gp_value(g, g->reports[r], c, f, yk, &q->y, &yu);
			if (isfinite(q->x))
				xmax = fmax(xmax, fabs(q->x));
			if (isfinite(q->y))
				ymax = fmax(ymax, fabs(q->y));
		}
	free(names);
	uint32_t finite = 0;
	for (uint32_t i = 0; rc == 0 && i < np; i++)
		finite += isfinite(p[i].x) && isfinite(p[i].y);
	if (rc == 0 && finite == 0)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "nothing to draw: no config has both `%s` and `%s` as numbers (null "
				    "where a figure is undefined, e.g. without an energy or area table)",
				    xk, yk);
	if (rc < 0) {
		free(p);
		return rc;
	}
	int logx = g->o->log == WEFT_LOG_AUTO ? want_log(p, np, 0) : (g->o->log & WEFT_LOG_X) != 0;
	int logy = g->o->log == WEFT_LOG_AUTO ? want_log(p, np, 1) : (g->o->log & WEFT_LOG_Y) != 0;
	for (uint32_t i = 0; i < np; i++) { /* off a log axis: not drawn */
		if (logx && !(p[i].x > 0))
			p[i].x = NAN;
		if (logy && !(p[i].y > 0))
			p[i].y = NAN;
	}
	finite = 0;
	for (uint32_t i = 0; i < np; i++)
		finite += isfinite(p[i].x) && isfinite(p[i].y);
	if (finite == 0) {
		free(p);
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "nothing to draw: no point is above 0 on the logarithmic axes; "
				      "give --log none");
	}
	char xlabel[300], ylabel[300], title[400], launch[128], what[300];
	double xs, ys;
	weft_gp_axis_label(g, xk, xu, xmax, xlabel, sizeof(xlabel), &xs);
	weft_gp_axis_label(g, yk, yu, ymax, ylabel, sizeof(ylabel), &ys);
	const struct weft_plot_metric *xm = weft_plot_metric_find(xk), *ym = weft_plot_metric_find(yk);
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "%s against %s%s%s%s", ym ? ym->label : yk, xm ? xm->label : xk,
		 g->nreports == 1 ? ", " : "", g->nreports == 1 ? g->labels[0] : "", launch);
	snprintf(what, sizeof(what), "scatter of %s against %s", yk, xk);
	weft_gp_preamble(g, what);
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set xlabel ");
	weft_gp_quote(out, xlabel);
	weft_sbuf_puts(out, "\nset ylabel ");
	weft_gp_quote(out, ylabel);
	weft_sbuf_puts(out, "\nset offsets graph 0.08, graph 0.2, graph 0.08, graph 0.08\n");
	if (g->nreports > 1)
		weft_gp_key(g, 0);
	else
		weft_sbuf_puts(out, "unset key\n");
	if (logx)
		weft_sbuf_puts(out, "set logscale x\n");
	if (logy)
		weft_sbuf_puts(out, "set logscale y\n");
	if (g->o->paper)
		weft_sbuf_puts(out, "set grid xtics ytics lc rgb '#cccccc'\n");
	/* each point's name beside it */
	for (uint32_t i = 0; i < np; i++) {
		if (!isfinite(p[i].x) || !isfinite(p[i].y))
			continue;
		weft_sbuf_puts(out, "set label ");
		weft_gp_quote(out, p[i].c->name);
		weft_sbuf_printf(out, " at %.10g, %.10g offset char 0.8, char 0.5 font ',%d' front\n",
				 p[i].x * xs, p[i].y * ys, g->o->paper ? 6 : 9);
	}
	for (uint32_t r = 0; r < g->nreports; r++) {
		weft_sbuf_printf(out, "$w%u << EOD\n", r);
		for (uint32_t i = 0; i < np; i++)
			if (p[i].r == r) {
				weft_gp_num(out, p[i].x * xs);
				weft_sbuf_puts(out, " ");
				weft_gp_num(out, p[i].y * ys);
				weft_sbuf_puts(out, "\n");
			}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t r = 0; r < g->nreports; r++) {
		weft_sbuf_printf(out, "%s$w%u using 1:2 with points ", r ? ", \\\n     " : "", r);
		weft_gp_line(g, r);
		weft_sbuf_puts(out, " title ");
		weft_gp_quote(out, g->labels[r]);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(p);
	return 0;
}
