/*
 * plot_stack.c - stacked bars, one per config (or sweep point) of each
 * report, grouped by workload: `energy` stacks the energy categories
 * (energy_<cat>_j: fetch/decode/schedule, register files, ..., static),
 * `cpi` the CPI stack's components (where the cycles went). Components
 * zero in every bar are left out. --norm: energy defaults to joules for
 * one report and to each workload's baseline total (= 1) for several; the
 * CPI stack defaults to shares of each bar's cycles (configs run at
 * different clocks and models name different components); `share`,
 * `baseline` and `none` choose. CPI components under 1% of every bar are
 * drawn together as `other` (the SIMT stack alone has 17).
 */
#include "plot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC WEFT_PLOT_MAX_CPI

/* The components of the figure: energy categories or CPI names. */
struct comps {
	uint32_t n;
	char name[MAXC][WEFT_PLOT_KEY_MAX];
	const char *label[MAXC];
};

static double comp_value(const struct weft_plot_fig *f, int energy, const char *name)
{
	if (energy) {
		char key[WEFT_PLOT_KEY_MAX + 16];
		double v;
		snprintf(key, sizeof(key), "energy_%s_j", name);
		return weft_plot_fig_value(f, key, &v, NULL) == 0 ? v : NAN;
	}
	for (uint32_t i = 0; i < f->ncpi; i++)
		if (strcmp(f->cpi[i].key, name) == 0)
			return f->cpi[i].value;
	return NAN;
}

/* A bar: report, config, figure, x position. */
struct bar {
	uint32_t r;
	const struct weft_plot_config *c;
	const struct weft_plot_fig *f;
	double x, total, norm; /* norm: what the bar is divided by */
};

static int collect(struct weft_gp *g, int energy, struct bar **bars, uint32_t *nb, struct comps *cs)
{
	char (*names)[WEFT_PLOT_NAME_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*names));
	uint32_t ns = 0;
	if (!names)
		return weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	int rc = weft_gp_series(g, 0, names, &ns);
	*bars = rc == 0 ? calloc((size_t)ns * g->nreports + 1, sizeof(**bars)) : NULL;
	if (rc == 0 && !*bars)
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	*nb = 0;
	double x = 0;
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++) {
		for (uint32_t s = 0; rc == 0 && s < ns; s++) {
			const struct weft_plot_config *c = weft_gp_config(g->reports[r], names[s], 0);
			if (!c)
				continue;
			struct bar *b = &(*bars)[(*nb)++];
			b->r = r;
			b->c = c;
			b->x = x++;
			rc = weft_gp_fig(g, g->reports[r], c, &b->f);
			if (rc == 0 && !energy && b->f->ncpi == 0)
				rc = weft_error_set(g->err, WEFT_ERR_INPUT,
						    "%s: config %s has no CPI stack (\"cpi_stack\" is empty "
						    "or absent)",
						    g->reports[r]->path, c->name);
			for (uint32_t i = 0; rc == 0 && !energy && i < b->f->ncpi; i++) {
				uint32_t k = 0;
				while (k < cs->n && strcmp(cs->name[k], b->f->cpi[i].key) != 0)
					k++;
				if (k == cs->n && cs->n < MAXC) {
					snprintf(cs->name[cs->n], WEFT_PLOT_KEY_MAX, "%s", b->f->cpi[i].key);
					cs->label[cs->n] = cs->name[cs->n];
					cs->n++;
				}
			}
		}
		x += 1; /* a gap between workloads */
	}
	free(names);
	if (rc == 0 && energy) {
		for (uint32_t k = 0; k < WEFT_PLOT_NCATS; k++) {
			snprintf(cs->name[k], WEFT_PLOT_KEY_MAX, "%s", weft_plot_energy_cats[k]);
			cs->label[k] = g->o->paper ? weft_plot_energy_cat_short[k] : weft_plot_energy_cat_labels[k];
		}
		cs->n = WEFT_PLOT_NCATS;
		double v;
		for (uint32_t i = 0; rc == 0 && i < *nb; i++)
			if (weft_plot_fig_value((*bars)[i].f, "energy_total_j", &v, NULL) < 0)
				rc = weft_error_set(g->err, WEFT_ERR_INPUT,
						    "%s: config %s has no energy figures (energy_<category>_j)",
						    g->reports[(*bars)[i].r]->path, (*bars)[i].c->name);
	}
	return rc;
}

/* The sum of every component of f: what a bar of the baseline adds to. */
static double fig_total(const struct weft_plot_fig *f, int energy)
{
	double t = 0;
	for (uint32_t k = 0; energy && k < WEFT_PLOT_NCATS; k++) {
		double v = comp_value(f, 1, weft_plot_energy_cats[k]);
		t += isfinite(v) ? v : 0;
	}
	for (uint32_t i = 0; !energy && i < f->ncpi; i++)
		t += isfinite(f->cpi[i].value) ? f->cpi[i].value : 0;
	return t;
}

/* Drops components that are zero in every bar and, for the CPI stack,
 * draws those under 1% of every bar together as `other` (when there are
 * two or more). val is [component][bar]; returns the components left. */
static uint32_t tidy(struct comps *cs, double *val, const struct bar *bars, uint32_t nb, int energy)
{
	uint32_t k = 0, nsmall = 0;
	double *other = val + (size_t)cs->n * nb; /* the spare row */
	memset(other, 0, sizeof(double) * nb);
	int small[MAXC] = { 0 };
	for (uint32_t i = 0; i < cs->n && !energy; i++) {
		small[i] = 1;
		for (uint32_t b = 0; b < nb; b++)
			if (!(val[(size_t)i * nb + b] < 0.01 * bars[b].total))
				small[i] = 0;
		nsmall += small[i];
	}
	for (uint32_t i = 0; i < cs->n; i++) {
		int any = 0;
		for (uint32_t b = 0; b < nb; b++)
			any |= val[(size_t)i * nb + b] != 0;
		if (!any)
			continue;
		if (nsmall >= 2 && small[i]) {
			for (uint32_t b = 0; b < nb; b++)
				other[b] += val[(size_t)i * nb + b];
			continue;
		}
		if (k != i) {
			memcpy(cs->name[k], cs->name[i], WEFT_PLOT_KEY_MAX);
			cs->label[k] = cs->label[i] == cs->name[i] ? cs->name[k] : cs->label[i];
			memcpy(val + (size_t)k * nb, val + (size_t)i * nb, sizeof(double) * nb);
		}
		k++;
	}
	if (nsmall >= 2) {
		int any = 0;
		for (uint32_t b = 0; b < nb; b++)
			any |= other[b] != 0;
		if (any) {
			memmove(val + (size_t)k * nb, other, sizeof(double) * nb);
			snprintf(cs->name[k], WEFT_PLOT_KEY_MAX, "other (each < 1%%)");
			cs->label[k] = cs->name[k];
			k++;
		}
	}
	cs->n = k;
	return k;
}

int weft_plot_stack(struct weft_gp *g)
{
	int energy = g->o->kind == WEFT_PLOT_ENERGY;
	struct bar *bars = NULL;
	uint32_t nb = 0;
	double *val = NULL;
	struct comps *cs = calloc(1, sizeof(*cs));
	int rc = cs ? collect(g, energy, &bars, &nb, cs) : weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	/* [component][bar], and a spare row for `other` */
	if (rc == 0 && !(val = calloc(((size_t)cs->n + 1) * (nb ? nb : 1), sizeof(double))))
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	enum weft_plot_norm norm = g->o->norm;
	if (norm == WEFT_NORM_AUTO)
		norm = energy ? (g->nreports > 1 ? WEFT_NORM_BASELINE : WEFT_NORM_NONE) : WEFT_NORM_SHARE;
	double maxtotal = 0;
	for (uint32_t b = 0; rc == 0 && b < nb; b++) {
		for (uint32_t i = 0; i < cs->n; i++) {
			double v = comp_value(bars[b].f, energy, cs->name[i]);
			val[(size_t)i * nb + b] = isfinite(v) ? v : 0;
			bars[b].total += val[(size_t)i * nb + b];
		}
		maxtotal = fmax(maxtotal, bars[b].total);
		/* what the bar is divided by */
		bars[b].norm = 1;
		if (norm == WEFT_NORM_SHARE) {
			bars[b].norm = bars[b].total > 0 ? bars[b].total / 100 : NAN;
		} else if (norm == WEFT_NORM_BASELINE) {
			const struct weft_plot_report *r = g->reports[bars[b].r];
			const struct weft_plot_config *base = weft_gp_config(r, r->baseline, 0);
			const struct weft_plot_fig *bf = base ? weft_plot_config_fig(base, g->o->launch) : NULL;
			bars[b].norm = bf ? fig_total(bf, energy) : 0;
			if (!(bars[b].norm > 0))
				rc = weft_error_set(g->err, WEFT_ERR_INPUT,
						    "%s: --norm baseline needs the baseline `%s` with a non-zero "
						    "total; use --norm share or none",
						    r->path, r->baseline[0] ? r->baseline : "(none named)");
		}
	}
	if (rc < 0) {
		free(bars);
		free(cs);
		free(val);
		return rc;
	}
	int drawable = 0; /* a segment with a size and a finite place */
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t i = 0; i < cs->n; i++) {
			double v = val[(size_t)i * nb + b] / bars[b].norm;
			drawable |= isfinite(v) && v != 0 && isfinite(bars[b].total / bars[b].norm);
		}
	if (tidy(cs, val, bars, nb, energy) == 0 || !drawable) {
		free(bars);
		free(cs);
		free(val);
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "nothing to draw: every %s is zero or null, or no bar adds up to a "
				      "positive total, in the configs drawn",
				      energy ? "energy category" : "CPI-stack component");
	}
	const char *prefix = "";
	double scale = 1;
	char ylabel[200];
	if (norm == WEFT_NORM_NONE && energy) {
		scale = weft_plot_si(maxtotal, &prefix);
		snprintf(ylabel, sizeof(ylabel), "energy (%sJ)", prefix);
	} else if (norm == WEFT_NORM_NONE) {
		snprintf(ylabel, sizeof(ylabel), "cycles");
	} else if (norm == WEFT_NORM_SHARE) {
		snprintf(ylabel, sizeof(ylabel), "share of %s (%%)", energy ? "energy" : "cycles");
	} else {
		snprintf(ylabel, sizeof(ylabel), "%s (baseline = 1)",
			 energy ? "energy" : "cycles");
	}
	char title[300], launch[128];
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "%s%s%s%s", energy ? "energy by category" : "CPI stack",
		 g->nreports == 1 ? ", " : "", g->nreports == 1 ? g->labels[0] : "", launch);
	weft_gp_preamble(g, energy ? "stacked energy by category" : "CPI stacks");
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set ylabel ");
	weft_gp_quote(out, ylabel);
	weft_sbuf_puts(out, "\n");
	if (norm == WEFT_NORM_NONE && !energy)
		weft_sbuf_puts(out, "set format y '%.0s%c'\n");
	weft_sbuf_puts(out, "set yrange [0:*]\n");
	weft_gp_key(g, 1);
	double xmax = nb ? bars[nb - 1].x : 0;
	weft_sbuf_printf(out, "set xrange [-0.6:%.1f]\n", xmax + 0.6);
	size_t longest = 0;
	weft_sbuf_puts(out, "set xtics (");
	for (uint32_t b = 0; b < nb; b++) {
		weft_sbuf_puts(out, b ? ", " : "");
		weft_gp_tic(out, bars[b].c->name, bars[b].x);
		if (strlen(bars[b].c->name) > longest)
			longest = strlen(bars[b].c->name);
	}
	weft_sbuf_puts(out, ")\n");
	if (longest * nb > 50)
		weft_sbuf_puts(out, "set xtics rotate by 30 right\n");
	if (g->nreports > 1) { /* the workloads above their groups */
		weft_sbuf_puts(out, "set link x2\nset x2tics scale 0 (");
		for (uint32_t r = 0, first = 1; r < g->nreports; r++) {
			double lo = INFINITY, hi = -INFINITY;
			for (uint32_t b = 0; b < nb; b++)
				if (bars[b].r == r) {
					lo = fmin(lo, bars[b].x);
					hi = fmax(hi, bars[b].x);
				}
			if (!isfinite(lo))
				continue;
			weft_sbuf_puts(out, first ? "" : ", ");
			first = 0;
			weft_gp_tic(out, g->labels[r], (lo + hi) / 2);
		}
		weft_sbuf_puts(out, ")\n");
	}
	/* one datablock per component: x, bottom and top of its segment */
	for (uint32_t b = 0; b < nb; b++)
		bars[b].total = 0; /* now the running base of each bar */
	for (uint32_t i = 0; i < cs->n; i++) {
		weft_sbuf_printf(out, "$c%u << EOD\n", i);
		for (uint32_t b = 0; b < nb; b++) {
			double v = val[(size_t)i * nb + b] / bars[b].norm * (norm == WEFT_NORM_NONE ? scale : 1);
			weft_sbuf_printf(out, "%.6g ", bars[b].x);
			weft_gp_num(out, bars[b].total);
			weft_sbuf_puts(out, " ");
			weft_gp_num(out, bars[b].total + v);
			weft_sbuf_puts(out, "\n");
			bars[b].total += v;
		}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t i = 0; i < cs->n; i++) {
		weft_sbuf_printf(out, "%s$c%u using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror ",
				 i ? ", \\\n     " : "", i);
		weft_gp_fill(g, i);
		weft_sbuf_puts(out, " title ");
		weft_gp_quote(out, cs->label[i]);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(bars);
	free(cs);
	free(val);
	return 0;
}
