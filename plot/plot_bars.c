/*
 * plot_bars.c - grouped bars of one metric (--metric, default speedup):
 * one group per report (workload), one bar per config or sweep point in
 * each, a dashed line at 1 for a ratio against the baseline, and with
 * --geomean a last group with each config's geometric mean over the
 * workloads. A single report draws one bar per config, named on the x
 * axis. A config a report lacks, or a figure that is null, is a gap.
 */
#include "plot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int weft_plot_bars(struct weft_gp *g)
{
	const char *key = g->o->metric ? g->o->metric : "speedup";
	char (*names)[WEFT_PLOT_NAME_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*names));
	uint32_t ns = 0, nr = g->nreports, ngroups = nr + (g->o->geomean ? 1 : 0);
	double *v = NULL;
	int rc = names ? 0 : weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	if (rc == 0)
		rc = weft_gp_series(g, 0, names, &ns);
	if (rc == 0 && !(v = malloc(sizeof(double) * (ngroups ? ngroups : 1) * (ns ? ns : 1))))
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	const char *unit = NULL;
	double maxabs = 0;
	/* v[group * ns + series] */
	for (uint32_t r = 0; rc == 0 && r < nr; r++)
		for (uint32_t s = 0; rc == 0 && s < ns; s++) {
			const struct weft_plot_config *c = weft_gp_config(g->reports[r], names[s], 0);
			const struct weft_plot_fig *f;
			v[r * ns + s] = NAN;
			if (!c)
				continue;
			rc = weft_gp_fig(g, g->reports[r], c, &f);
			if (rc == 0)
				rc = weft_gp_value(g, g->reports[r], c, f, key, &v[r * ns + s], &unit);
			if (rc == 0 && isfinite(v[r * ns + s]) && fabs(v[r * ns + s]) > maxabs)
				maxabs = fabs(v[r * ns + s]);
		}
	if (rc == 0 && g->o->geomean)
		for (uint32_t s = 0; s < ns; s++) {
			double logsum = 0;
			uint32_t k = 0;
			for (uint32_t r = 0; r < nr; r++)
				if (isfinite(v[r * ns + s]) && v[r * ns + s] > 0) {
					logsum += log(v[r * ns + s]);
					k++;
				}
			v[nr * ns + s] = k ? exp(logsum / k) : NAN;
		}
	int any = 0;
	for (uint32_t i = 0; rc == 0 && i < ngroups * ns; i++)
		any |= isfinite(v[i]);
	if (rc == 0 && !any)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "nothing to draw: `%s` is null in every config drawn (undefined, e.g. "
				    "without an energy or area table)",
				    key);
	if (rc < 0) {
		free(names);
		free(v);
		return rc;
	}
	const struct weft_plot_metric *m = weft_plot_metric_find(key);
	int ratio = m && m->ratio;
	char ylabel[300], what[300], launch[128], title[400];
	double scale;
	weft_gp_axis_label(g, key, unit, maxabs, ylabel, sizeof(ylabel), &scale);
	snprintf(what, sizeof(what), "bars of %s", key);
	weft_gp_preamble(g, what);
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "%s%s", nr == 1 ? g->labels[0] : m ? m->label : key, launch);
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set ylabel ");
	weft_gp_quote(out, ylabel);
	weft_sbuf_puts(out, "\n");

	/* one report: a bar per config, named on the axis; else groups */
	int single = nr == 1 && !g->o->geomean;
	double w = single ? 0.7 : 0.8 / (ns ? ns : 1);
	weft_sbuf_printf(out, "set boxwidth %.6g absolute\n", w);
	double ymax = ratio ? 1 : 0, ymin = 0;
	for (uint32_t i = 0; i < ngroups * ns; i++)
		if (isfinite(v[i])) {
			if (v[i] * scale > ymax)
				ymax = v[i] * scale;
			if (v[i] * scale < ymin)
				ymin = v[i] * scale;
		}
	if (isfinite(ymin * 1.1) && isfinite(ymax * 1.1))
		weft_sbuf_printf(out, "set yrange [%.6g:%.6g]\n", ymin * 1.1, ymax > 0 ? ymax * 1.1 : 1);
	uint32_t nticks = single ? ns : ngroups;
	size_t longest = 0;
	weft_sbuf_puts(out, "set xtics (");
	for (uint32_t i = 0; i < nticks; i++) {
		const char *label = single ? names[i] : i < nr ? g->labels[i] : "geomean";
		if (strlen(label) > longest)
			longest = strlen(label);
		weft_sbuf_puts(out, i ? ", " : "");
		weft_gp_tic(out, label, i);
	}
	weft_sbuf_puts(out, ")\n");
	if (longest * nticks > 60)
		weft_sbuf_puts(out, "set xtics rotate by 30 right\n");
	weft_sbuf_printf(out, "set xrange [-0.6:%.1f]\n", nticks - 0.4);
	if (single)
		weft_sbuf_puts(out, "unset key\n");
	else
		weft_gp_key(g, 0);
	if (ratio)
		weft_sbuf_puts(out, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1 "
				    "lc rgb '#000000' front\n");
	if (ymin < 0)
		weft_sbuf_puts(out, "set xzeroaxis lt -1\n");
	for (uint32_t s = 0; s < ns; s++) {
		weft_sbuf_printf(out, "$s%u << EOD\n", s);
		for (uint32_t grp = 0; grp < ngroups; grp++) {
			double x = single ? s : grp - 0.4 + w * (s + 0.5);
			weft_sbuf_printf(out, "%.6g ", x);
			weft_gp_num(out, v[grp * ns + s] * scale);
			weft_sbuf_puts(out, "\n");
		}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t s = 0; s < ns; s++) {
		weft_sbuf_printf(out, "%s$s%u using 1:2 with boxes ", s ? ", \\\n     " : "", s);
		weft_gp_fill(g, s);
		weft_sbuf_puts(out, " title ");
		weft_gp_quote(out, names[s]);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(names);
	free(v);
	return 0;
}
