/*
 * plot_sweep.c - a metric (--metric, default speedup) against a swept key
 * (--key, default the report's first): one line per file config and
 * workload, and per combination of the other swept keys' values when the
 * sweep was a product; a config the sweep did not apply to (the baseline
 * of `--sweep fabric.token_buffer=...` beside fermi-sm) is a dotted
 * horizontal line at its value. Numeric values are placed by value (a log2
 * axis when they grow geometrically, as 1,2,4,...,32 do), others in the
 * order first seen.
 */
#include "plot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"

#define MAXPTS 4096

struct pt {
	uint32_t series;
	double x, y;
};

struct sweep_series {
	char name[WEFT_PLOT_NAME_MAX + WEFT_GP_LABEL_MAX];
	int flat;    /* unswept: one value across */
	double flat_y;
};

/* Index of the swept key in r, or -1. */
static int key_index(const struct weft_plot_report *r, const char *key)
{
	for (uint32_t k = 0; k < r->nsweeps; k++)
		if (strcmp(r->sweep[k], key) == 0)
			return (int)k;
	return -1;
}

static int check_key(struct weft_gp *g, const char *key)
{
	for (uint32_t r = 0; r < g->nreports; r++) {
		const struct weft_plot_report *rep = g->reports[r];
		if (rep->nsweeps == 0)
			return weft_error_set(g->err, WEFT_ERR_INPUT,
					      "%s has no sweep; make one with `weft-estimate FILE.wtr -c "
					      "CONFIG --sweep SEC.KEY=V1,V2,... --format json`",
					      rep->path);
		if (key_index(rep, key) < 0) {
			struct weft_suggest s;
			char phrase[300], list[600] = "";
			weft_suggest_init(&s, key);
			for (uint32_t k = 0; k < rep->nsweeps; k++) {
				weft_suggest_consider(&s, rep->sweep[k]);
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "",
					 rep->sweep[k]);
			}
			return weft_error_set(g->err, WEFT_ERR_INPUT, "%s did not sweep `%s`%s (it swept %s)",
					      rep->path, key, weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)),
					      list);
		}
	}
	return 0;
}

/* The series a config's point belongs to: file config and the values of
 * the other swept keys. */
static void series_name(const struct weft_gp *g, uint32_t r, const struct weft_plot_config *c,
			int k, char *buf, size_t len)
{
	const struct weft_plot_report *rep = g->reports[r];
	snprintf(buf, len, "%s%s%s", g->nreports > 1 ? g->labels[r] : "", g->nreports > 1 ? ": " : "",
		 c->config);
	int first = 1;
	for (uint32_t j = 0; j < rep->nsweeps; j++) {
		if ((int)j == k || !c->point[j][0])
			continue;
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s=%s", first ? " [" : ",", rep->sweep[j], c->point[j]);
		first = 0;
	}
	if (!first && strlen(buf) + 1 < len)
		strcat(buf, "]");
}

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;
	if (p->series != q->series)
		return p->series < q->series ? -1 : 1;
	return (p->x > q->x) - (p->x < q->x);
}

int weft_plot_sweep(struct weft_gp *g)
{
	const char *metric = g->o->metric ? g->o->metric : "speedup";
	const char *key = g->o->key ? g->o->key : g->reports[0]->nsweeps ? g->reports[0]->sweep[0] : "";
	int rc = check_key(g, key);
	if (rc < 0)
		return rc;
	struct sweep_series *ser = calloc(WEFT_GP_MAX_SERIES, sizeof(*ser));
	struct pt *pts = calloc(MAXPTS, sizeof(*pts));
	/* categorical x: the values in first-seen order */
	char(*cats)[WEFT_PLOT_KEY_MAX] = calloc(MAXPTS, sizeof(*cats));
	uint32_t nser = 0, npts = 0, ncats = 0;
	int numeric = 1;
	if (!ser || !pts || !cats)
		rc = weft_error_set(g->err, WEFT_ERR_NOMEM, "out of memory");
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++)
		for (uint32_t i = 0; i < g->reports[r]->nconfigs; i++) {
			const struct weft_plot_config *c = &g->reports[r]->configs[i];
			int k = key_index(g->reports[r], key);
			if (weft_gp_selected(g, c) && c->point[k][0] && !isfinite(c->pointv[k]))
				numeric = 0;
		}
	const char *unit = NULL;
	double maxabs = 0;
	for (uint32_t r = 0; rc == 0 && r < g->nreports; r++) {
		const struct weft_plot_report *rep = g->reports[r];
		int k = key_index(rep, key);
		for (uint32_t i = 0; rc == 0 && i < rep->nconfigs; i++) {
			const struct weft_plot_config *c = &rep->configs[i];
			if (!weft_gp_selected(g, c))
				continue;
			const struct weft_plot_fig *f;
			double y;
			rc = weft_gp_fig(g, rep, c, &f);
			if (rc == 0)
				rc = weft_gp_value(g, rep, c, f, metric, &y, &unit);
			if (rc < 0)
				break;
			if (isfinite(y) && fabs(y) > maxabs)
				maxabs = fabs(y);
			char name[sizeof(ser[0].name)];
			series_name(g, r, c, c->point[k][0] ? k : -1, name, sizeof(name));
			uint32_t s = 0;
			while (s < nser && strcmp(ser[s].name, name) != 0)
				s++;
			if (s == nser) {
				if (nser == WEFT_GP_MAX_SERIES) {
					rc = weft_error_set(g->err, WEFT_ERR_INPUT,
							    "more than %d lines in one figure; choose configs "
							    "with --configs",
							    WEFT_GP_MAX_SERIES);
					break;
				}
				snprintf(ser[nser].name, sizeof(ser[nser].name), "%s", name);
				ser[nser].flat = !c->point[k][0];
				ser[nser].flat_y = y;
				nser++;
			}
			if (ser[s].flat)
				continue;
			if (npts == MAXPTS) {
				rc = weft_error_set(g->err, WEFT_ERR_INPUT,
						    "more than %d points in one figure; choose configs with "
						    "--configs",
						    MAXPTS);
				break;
			}
			double x = c->pointv[k];
			if (!numeric) {
				uint32_t q = 0;
				while (q < ncats && strcmp(cats[q], c->point[k]) != 0)
					q++;
				if (q == ncats)
					snprintf(cats[ncats++], WEFT_PLOT_KEY_MAX, "%s", c->point[k]);
				x = q;
			}
			pts[npts++] = (struct pt){ s, x, y };
		}
	}
	int drawable = 0;
	for (uint32_t i = 0; rc == 0 && i < npts; i++)
		drawable |= isfinite(pts[i].y);
	for (uint32_t s = 0; rc == 0 && s < nser; s++)
		drawable |= ser[s].flat && isfinite(ser[s].flat_y);
	if (rc == 0 && npts && !drawable)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "nothing to draw: `%s` is null at every point (undefined, e.g. without an "
				    "energy or area table)",
				    metric);
	if (rc == 0 && npts == 0)
		rc = weft_error_set(g->err, WEFT_ERR_INPUT,
				    "no selected config has a value of `%s` (the sweep applies to none of "
				    "them)",
				    key);
	if (rc < 0) {
		free(ser);
		free(pts);
		free(cats);
		return rc;
	}
	qsort(pts, npts, sizeof(*pts), cmp_pt);
	/* log2 x when the values are positive and grow by 1.5x or more each step */
	int logx = 0;
	if (g->o->log != WEFT_LOG_AUTO) {
		logx = numeric && (g->o->log & WEFT_LOG_X);
	} else if (numeric) {
		double xs[MAXPTS];
		uint32_t nx = 0;
		for (uint32_t i = 0; i < npts; i++) {
			uint32_t j = 0;
			while (j < nx && xs[j] != pts[i].x)
				j++;
			if (j == nx)
				xs[nx++] = pts[i].x;
		}
		for (uint32_t a = 1; a < nx; a++) /* sort */
			for (uint32_t b = a; b > 0 && xs[b] < xs[b - 1]; b--) {
				double t = xs[b];
				xs[b] = xs[b - 1];
				xs[b - 1] = t;
			}
		logx = nx >= 3 && xs[0] > 0;
		for (uint32_t a = 1; logx && a < nx; a++)
			logx = xs[a] / xs[a - 1] >= 1.5;
	}
	int logy = g->o->log != WEFT_LOG_AUTO && (g->o->log & WEFT_LOG_Y);
	int onaxes = 0; /* a point a log axis can show */
	for (uint32_t i = 0; i < npts; i++)
		onaxes |= (!logx || pts[i].x > 0) && (!logy || pts[i].y > 0);
	if (!onaxes) {
		free(ser);
		free(pts);
		free(cats);
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "nothing to draw: no point is above 0 on the logarithmic axes; give "
				      "--log none");
	}
	const struct weft_plot_metric *m = weft_plot_metric_find(metric);
	char ylabel[300], title[400], launch[128], what[300];
	double scale;
	weft_gp_axis_label(g, metric, unit, maxabs, ylabel, sizeof(ylabel), &scale);
	weft_gp_launch_words(g, g->reports[0], launch, sizeof(launch));
	snprintf(title, sizeof(title), "%s against %s%s%s%s", m ? m->label : metric, key,
		 g->nreports == 1 ? ", " : "", g->nreports == 1 ? g->labels[0] : "", launch);
	snprintf(what, sizeof(what), "%s against the swept %s", metric, key);
	weft_gp_preamble(g, what);
	weft_gp_title(g, title);
	struct weft_sbuf *out = g->out;
	weft_sbuf_puts(out, "set xlabel ");
	weft_gp_quote(out, key);
	weft_sbuf_puts(out, "\nset ylabel ");
	weft_gp_quote(out, ylabel);
	weft_sbuf_puts(out, "\n");
	weft_gp_key(g, 0);
	if (logx)
		weft_sbuf_puts(out, "set logscale x 2\n");
	if (logy)
		weft_sbuf_puts(out, "set logscale y\n");
	if (!numeric) {
		weft_sbuf_printf(out, "set xrange [-0.5:%.1f]\nset xtics (", ncats - 0.5);
		for (uint32_t q = 0; q < ncats; q++) {
			weft_sbuf_puts(out, q ? ", " : "");
			weft_gp_tic(out, cats[q], q);
		}
		weft_sbuf_puts(out, ")\n");
	} else if (logx) {
		weft_sbuf_puts(out, "set xtics (");
		for (uint32_t i = 0, first = 1; i < npts; i++) {
			int seen = 0;
			for (uint32_t j = 0; j < i && !seen; j++)
				seen = pts[j].x == pts[i].x;
			if (seen)
				continue;
			weft_sbuf_printf(out, "%s%.10g", first ? "" : ", ", pts[i].x);
			first = 0;
		}
		weft_sbuf_puts(out, ")\n");
	}
	/* a ratio's 1 is the baseline's: its own flat line when it was not swept */
	int base_flat = 0, nonneg = 1;
	for (uint32_t s = 0; s < nser; s++)
		base_flat |= ser[s].flat && ser[s].flat_y == 1;
	for (uint32_t i = 0; i < npts; i++)
		nonneg &= !(pts[i].y < 0);
	if (m && m->ratio && !base_flat)
		weft_sbuf_puts(out, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1 "
				    "lc rgb '#000000' back\n");
	if (nonneg && !logy)
		weft_sbuf_puts(out, "set yrange [0:*]\n");
	weft_sbuf_puts(out, "set offsets graph 0.03, graph 0.03, graph 0.08, 0\n");
	for (uint32_t s = 0; s < nser; s++) {
		if (ser[s].flat)
			continue;
		weft_sbuf_printf(out, "$s%u << EOD\n", s);
		for (uint32_t i = 0; i < npts; i++)
			if (pts[i].series == s) {
				weft_sbuf_printf(out, "%.10g ", pts[i].x);
				weft_gp_num(out, pts[i].y * scale);
				weft_sbuf_puts(out, "\n");
			}
		weft_sbuf_puts(out, "EOD\n");
	}
	weft_sbuf_puts(out, "plot ");
	for (uint32_t s = 0, first = 1, nflat = 0; s < nser; s++) {
		if (ser[s].flat && !isfinite(ser[s].flat_y))
			continue; /* no value to draw */
		weft_sbuf_puts(out, first ? "" : ", \\\n     ");
		first = 0;
		if (ser[s].flat) {
			weft_gp_num(out, ser[s].flat_y * scale);
			weft_sbuf_printf(out, " with lines dt %u lw 1.5 lc rgb '#555555' title ", 2 + nflat++ % 4);
		} else {
			weft_sbuf_printf(out, "$s%u using 1:2 with linespoints ", s);
			weft_gp_line(g, s);
			weft_sbuf_puts(out, " title ");
		}
		weft_gp_quote(out, ser[s].name);
	}
	weft_sbuf_puts(out, "\n");
	weft_gp_end(g);
	free(ser);
	free(pts);
	free(cats);
	return 0;
}
