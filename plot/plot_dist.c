/*
 * plot_dist.c - distributions a model reports as a family of statistics
 * PREFIX<bucket>, a bucket being a number ("dmt_dist_-4") or a range
 * LO_HI ("active_26_50"): bars per bucket with one bar per config and
 * workload, or with --cdf (the default for distances) the cumulative share
 * against the bucket. --of names the family:
 *
 *   active-ut     the vt model's active_1_25 .. active_76_100: % of issued
 *                 uT instructions by the share of the vector's uTs active
 *   dmt-distance  dmt_dist_<lo>[_<hi>]: the dMT communication distances,
 *                 communicating loads by |dTID| bucket (the dmt model,
 *                 models/dataflow/dmt_comm.h), drawn as a CDF
 *   PREFIX        any other family of statistics
 *
 * Configs without the family are left out (a report of fermi-sm beside a
 * vt tile plots the tile); none with it is an error naming the model the
 * statistics come from.
 */
#include "plot_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 64

struct family {
	const char *name;   /* --of */
	const char *prefix; /* of the stats' keys */
	const char *what;   /* for messages and labels */
	const char *source; /* the model that reports it */
	int cdf;            /* drawn as a CDF by default */
};

static const struct family families[] = {
	{ "active-ut", "active_", "active-uT statistics (active_<lo>_<hi>: % of issued uT instructions)",
	  "the vt model (configs/maven/)", 0 },
	{ "dmt-distance", "dmt_dist_", "dMT communication-distance statistics (dmt_dist_<lo>_<hi>)",
	  "the dmt model (configs/dmt-cgra.ini; a report written before the model reported them "
	  "needs weft-estimate run again)",
	  1 },
};

/* The bucket of suffix s: "12" or "-4" (lo = hi) or "26_50"; -1 when s is
 * not one. */
static int bucket_of(const char *s, double *lo, double *hi)
{
	char *end;
	errno = 0;
	*lo = strtod(s, &end);
	if (end == s || errno || !isfinite(*lo) || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	*hi = *lo;
	if (*end == '_') {
		const char *t = end + 1;
		if (*t != '-' && (*t < '0' || *t > '9'))
			return -1;
		*hi = strtod(t, &end);
		if (end == t || errno || !isfinite(*hi))
			return -1;
	}
	return *end ? -1 : 0;
}

struct bucket {
	char suffix[WEFT_PLOT_KEY_MAX];
	double lo, hi;
};

int weft_plot_dist(struct weft_gp *g)
{
	const char *of = g->o->of ? g->o->of : "active-ut";
	struct family fam = { of, of, NULL, NULL, 0 };
	char what[200];
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i].name, of) == 0)
			fam = families[i];
	if (!fam.what) {
		snprintf(what, sizeof(what), "statistics %s<bucket>", of);
		fam.what = what;
		fam.source = "a model that reports them";
	}
	int cdf = g->o->cdf < 0 ? fam.cdf : g->o->cdf;
	size_t plen = strlen(fam.prefix);
	struct bucket *bk = calloc(MAXB, sizeof(*bk));
	char(*names)[WEFT_PLOT_NAME_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*names));
	char(*labels)[WEFT_PLOT_NAME_MAX + WEFT_GP_LABEL_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*labels));
	const struct weft_plot_fig **figs = calloc(WEFT_GP_MAX_SERIES, sizeof(*figs));
	uint32_t nb = 0, ns = 0, nl = 0;
	const char *unit = "";
	int rc = bk && names && labels && figs ? 0 : weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	if (rc == 0)
		rc = weft_gp_series(g, 0, names, &ns);
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++)
		for (uint32_t s = 0; rc == 0 && s < ns; s++) {
			const struct weft_plot_config *c = weft_gp_config(g->reports[r], names[s], 0);
			const struct weft_plot_fig *f;
			if (!c)
				continue;
			rc = weft_gp_fig(g, g->reports[r], c, &f);
			int has = 0;
			for (uint32_t i = 0; rc == 0 && i < f->nstats; i++) {
				double lo, hi;
				const char *key = f->stats[i].key;
				if (strncmp(key, fam.prefix, plen) != 0 || bucket_of(key + plen, &lo, &hi) < 0)
					continue;
				has = 1;
				unit = f->stats[i].unit;
				uint32_t b = 0;
				while (b < nb && strcmp(bk[b].suffix, key + plen) != 0)
					b++;
				if (b == nb) {
					if (nb == MAXB) {
						rc = weft_error_set(g->err, WEFT_ERR_INPUT,
								    "more than %d buckets of %s", MAXB, fam.prefix);
						break;
					}
					snprintf(bk[nb].suffix, sizeof(bk[nb].suffix), "%s", key + plen);
					bk[nb].lo = lo;
					bk[nb].hi = hi;
					nb++;
				}
			}
			if (rc == 0 && has && nl < WEFT_GP_MAX_SERIES) {
				snprintf(labels[nl], sizeof(labels[nl]), "%s%s%s", g->nreports > 1 ? g->labels[r] : "",
					 g->nreports > 1 ? ": " : "", c->name);
				figs[nl++] = f;
			}
		}
	if (rc == 0 && nl == 0 && g->nreports == 1)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT, "%s has no %s; they come from %s",
				    g->reports[0]->path, fam.what, fam.source);
	else if (rc == 0 && nl == 0)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT, "none of the %u reports has %s; they come from %s",
				    g->nreports, fam.what, fam.source);
	if (rc < 0) {
		free(bk);
		free(names);
		free(labels);
		free(figs);
		return rc;
	}
	int any = 0;
	for (uint32_t s = 0; s < nl; s++)
		for (uint32_t b = 0; b < nb; b++) {
			char key[2 * WEFT_PLOT_KEY_MAX];
			double v;
			snprintf(key, sizeof(key), "%s%s", fam.prefix, bk[b].suffix);
			any |= weft_plot_fig_value(figs[s], key, &v, NULL) == 0 && isfinite(v) && v != 0;
		}
	if (!any) {
		free(bk);
		free(names);
		free(labels);
		free(figs);
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "nothing to draw: the %s are zero or null in every config", fam.what);
	}
	for (uint32_t a = 1; a < nb; a++) /* buckets in order */
		for (uint32_t b = a; b > 0 && bk[b].lo < bk[b - 1].lo; b--) {
			struct bucket t = bk[b];
			bk[b] = bk[b - 1];
			bk[b - 1] = t;
		}
	char title[300], launch[128], ylabel[200];
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "%s%s%s%s%s", strcmp(of, "active-ut") == 0 ? "active uTs per issued uT instruction" : of,
		 cdf ? " (cumulative)" : "", g->nreports == 1 ? ", " : "",
		 g->nreports == 1 ? g->labels[0] : "", launch);
	if (cdf)
		snprintf(ylabel, sizeof(ylabel), "cumulative share (%%)");
	else if (strcmp(of, "active-ut") == 0)
		snprintf(ylabel, sizeof(ylabel), "issued uT instructions (%%)");
	else
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", of, unit[0] ? " (" : "", unit, unit[0] ? ")" : "");
	snprintf(what, sizeof(what), "distribution of %s%s", of, cdf ? " (cumulative)" : "");
	weft_gp_preamble(g, what);
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set ylabel ");
	weft_gp_quote(out, ylabel);
	weft_sbuf_puts(out, "\nset xlabel ");
	weft_gp_quote(out, strcmp(of, "active-ut") == 0 ? "active uTs (% of the vector)" : "bucket");
	weft_sbuf_puts(out, "\n");
	if (nl > 1)
		weft_gp_key(g, 0);
	else
		weft_sbuf_puts(out, "unset key\n");
	weft_sbuf_printf(out, "set xrange [-0.6:%.1f]\nset xtics (", nb - 0.4);
	for (uint32_t b = 0; b < nb; b++) {
		char t[2 * WEFT_PLOT_KEY_MAX];
		if (bk[b].lo == bk[b].hi)
			snprintf(t, sizeof(t), "%.10g", bk[b].lo);
		else
			snprintf(t, sizeof(t), "%.10g-%.10g", bk[b].lo, bk[b].hi);
		weft_sbuf_puts(out, b ? ", " : "");
		weft_gp_tic(out, t, b);
	}
	weft_sbuf_puts(out, ")\n");
	if (cdf)
		weft_sbuf_puts(out, "set yrange [0:100]\n");
	else
		weft_sbuf_puts(out, "set yrange [0:*]\n");
	double w = 0.8 / nl;
	if (!cdf)
		weft_sbuf_printf(out, "set boxwidth %.6g absolute\n", w);
	for (uint32_t s = 0; s < nl; s++) {
		double sum = 0, run = 0;
		for (uint32_t b = 0; b < nb; b++) {
			char key[2 * WEFT_PLOT_KEY_MAX];
			double v;
			snprintf(key, sizeof(key), "%s%s", fam.prefix, bk[b].suffix);
			if (weft_plot_fig_value(figs[s], key, &v, NULL) == 0 && isfinite(v))
				sum += v;
		}
		weft_sbuf_printf(out, "$s%u << EOD\n", s);
		for (uint32_t b = 0; b < nb; b++) {
			char key[2 * WEFT_PLOT_KEY_MAX];
			double v = NAN;
			snprintf(key, sizeof(key), "%s%s", fam.prefix, bk[b].suffix);
			if (weft_plot_fig_value(figs[s], key, &v, NULL) < 0)
				v = NAN;
			if (cdf) {
				run += isfinite(v) ? v : 0;
				v = sum > 0 ? 100 * run / sum : NAN;
			}
			weft_sbuf_printf(out, "%.6g ", cdf ? (double)b : b - 0.4 + w * (s + 0.5));
			weft_gp_num(out, v);
			weft_sbuf_puts(out, "\n");
		}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t s = 0; s < nl; s++) {
		weft_sbuf_printf(out, "%s$s%u using 1:2 ", s ? ", \\\n     " : "", s);
		if (cdf) {
			weft_sbuf_puts(out, "with linespoints ");
			weft_gp_line(g, s);
		} else {
			weft_sbuf_puts(out, "with boxes ");
			weft_gp_fill(g, s);
		}
		weft_sbuf_puts(out, " title ");
		weft_gp_quote(out, labels[s]);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(bk);
	free(names);
	free(labels);
	free(figs);
	return 0;
}
