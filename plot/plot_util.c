/*
 * plot_util.c - utilisation breakdowns: one horizontal bar per config (or
 * sweep point) of each report, 100% of its cycles, split into the busy
 * component of its CPI stack (--busy, default `issue`: the cycles the
 * machine did its work) and then every other component (why it was idle)
 * from the largest share to the smallest. Each bar's label gives its
 * utilisation. It reads only the CPI stack, so it works for any model's
 * report: the SIMT SM's issue/divergence/memory components, the fabrics',
 * the Maven tiles', and a model that reports its idle breakdown as its CPI
 * stack (an FPGA overlay's semwait, inside_alu, not_alu beside its issue
 * cycles).
 */
#include "plot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row {
	uint32_t r;
	const struct weft_plot_config *c;
	const struct weft_plot_fig *f;
	double total;
};

static double cpi_of(const struct weft_plot_fig *f, const char *name)
{
	for (uint32_t i = 0; i < f->ncpi; i++)
		if (strcmp(f->cpi[i].key, name) == 0)
			return isfinite(f->cpi[i].value) ? f->cpi[i].value : 0;
	return 0;
}

int weft_plot_util(struct weft_gp *g)
{
	const char *busy = g->o->busy ? g->o->busy : "issue";
	char (*names)[WEFT_PLOT_NAME_MAX] = calloc(WEFT_GP_MAX_SERIES, sizeof(*names));
	char(*comp)[WEFT_PLOT_KEY_MAX] = calloc(WEFT_PLOT_MAX_CPI, sizeof(*comp));
	double *share = calloc(WEFT_PLOT_MAX_CPI, sizeof(double));
	uint32_t ns = 0, nrows = 0, ncomp = 0;
	struct row *rows = NULL;
	int rc = names && comp && share ? 0 : weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	if (rc == 0)
		rc = weft_gp_series(g, 0, names, &ns);
	if (rc == 0 && !(rows = calloc((size_t)ns * g->nreports + 1, sizeof(*rows))))
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	int busy_seen = 0;
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++)
		for (uint32_t s = 0; rc == 0 && s < ns; s++) {
			const struct weft_plot_config *c = weft_gp_config(g->reports[r], names[s], 0);
			if (!c)
				continue;
			struct row *w = &rows[nrows++];
			w->r = r;
			w->c = c;
			rc = weft_gp_fig(g, g->reports[r], c, &w->f);
			if (rc == 0 && w->f->ncpi == 0)
				rc = weft_error_set(g->err, WEFT_ERR_INPUT,
						    "%s: config %s has no CPI stack (\"cpi_stack\" is empty or "
						    "absent); the utilisation plot reads it",
						    g->reports[r]->path, c->name);
			for (uint32_t i = 0; rc == 0 && i < w->f->ncpi; i++) {
				double v = isfinite(w->f->cpi[i].value) ? w->f->cpi[i].value : 0;
				w->total += v;
				busy_seen |= strcmp(w->f->cpi[i].key, busy) == 0;
				uint32_t k = 0;
				while (k < ncomp && strcmp(comp[k], w->f->cpi[i].key) != 0)
					k++;
				if (k == ncomp && ncomp < WEFT_PLOT_MAX_CPI)
					snprintf(comp[ncomp++], WEFT_PLOT_KEY_MAX, "%s", w->f->cpi[i].key);
			}
		}
	int cycles = 0;
	for (uint32_t i = 0; rc == 0 && i < nrows; i++)
		cycles |= rows[i].total > 0;
	if (rc == 0 && !cycles)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "nothing to draw: every CPI stack drawn is zero or null");
	if (rc == 0 && !busy_seen) {
		char list[600] = "";
		for (uint32_t k = 0; k < ncomp && strlen(list) < 500; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "", comp[k]);
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "no CPI stack has a `%s` component to count as busy; name one with "
				    "--busy (the stacks have: %s)",
				    busy, list);
	}
	if (rc < 0) {
		free(names);
		free(comp);
		free(share);
		free(rows);
		return rc;
	}
	/* the busy component first, then the rest by their summed share */
	for (uint32_t k = 0; k < ncomp; k++)
		for (uint32_t i = 0; i < nrows; i++)
			if (rows[i].total > 0)
				share[k] += cpi_of(rows[i].f, comp[k]) / rows[i].total;
	for (uint32_t k = 0; k < ncomp; k++)
		if (strcmp(comp[k], busy) == 0)
			share[k] = INFINITY;
	for (uint32_t a = 1; a < ncomp; a++) /* insertion sort, stable, largest first */
		for (uint32_t b = a; b > 0 && share[b] > share[b - 1]; b--) {
			char t[WEFT_PLOT_KEY_MAX];
			memcpy(t, comp[b], sizeof(t));
			memcpy(comp[b], comp[b - 1], sizeof(t));
			memcpy(comp[b - 1], t, sizeof(t));
			double d = share[b];
			share[b] = share[b - 1];
			share[b - 1] = d;
		}
	while (ncomp > 1 && share[ncomp - 1] == 0)
		ncomp--; /* zero in every bar */

	char title[300], launch[128];
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "utilisation and idle cycles%s%s%s", g->nreports == 1 ? ", " : "",
		 g->nreports == 1 ? g->labels[0] : "", launch);
	weft_gp_preamble(g, "utilisation breakdown from the CPI stacks");
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set xlabel 'share of cycles (%)'\nset xrange [0:100]\nset grid xtics\n");
	weft_sbuf_printf(out, "set yrange [-0.6:%.1f]\n", nrows - 0.4);
	weft_gp_key(g, 0);
	weft_sbuf_puts(out, "set ytics (");
	for (uint32_t i = 0; i < nrows; i++) {
		char label[WEFT_PLOT_NAME_MAX + WEFT_GP_LABEL_MAX + 32];
		double u = rows[i].total > 0 ? 100 * cpi_of(rows[i].f, busy) / rows[i].total : NAN;
		snprintf(label, sizeof(label), "%s%s%s (%.0f%% %s)", g->nreports > 1 ? g->labels[rows[i].r] : "",
			 g->nreports > 1 ? ": " : "", rows[i].c->name, u, busy);
		weft_sbuf_puts(out, i ? ", " : "");
		weft_gp_tic(out, label, nrows - 1 - i);
	}
	weft_sbuf_puts(out, ")\n");
	for (uint32_t k = 0; k < ncomp; k++) {
		weft_sbuf_printf(out, "$c%u << EOD\n", k);
		for (uint32_t i = 0; i < nrows; i++) {
			double lo = 0;
			for (uint32_t j = 0; j < k; j++)
				lo += cpi_of(rows[i].f, comp[j]);
			double hi = lo + cpi_of(rows[i].f, comp[k]);
			double t = rows[i].total > 0 ? rows[i].total / 100 : NAN;
			weft_sbuf_printf(out, "%u ", nrows - 1 - i);
			weft_gp_num(out, lo / t);
			weft_sbuf_puts(out, " ");
			weft_gp_num(out, hi / t);
			weft_sbuf_puts(out, "\n");
		}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t k = 0; k < ncomp; k++) {
		weft_sbuf_printf(out, "%s$c%u using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror ",
				 k ? ", \\\n     " : "", k);
		weft_gp_fill(g, k);
		weft_sbuf_puts(out, " title ");
		weft_gp_quote(out, comp[k]);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(names);
	free(comp);
	free(share);
	free(rows);
	return 0;
}
