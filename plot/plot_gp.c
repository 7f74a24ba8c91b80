/*
 * plot_gp.c - what every figure's script shares (plot_gp.h): preamble,
 * terminal and style, quoting, series styles, and the selection of
 * configs, figures and values from the reports.
 */
#include "plot_gp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/suggest.h"
#include "common/version.h"

/* Paul Tol's "bright" and "muted" qualitative schemes: told apart by
 * people with the common colour-vision deficiencies. */
static const char *const colours[] = {
	"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb",
	"#332288", "#88ccee", "#44aa99", "#999933", "#882255", "#dddddd", "#117733",
};
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* The paper style's fills: greys told apart in print, then hatchings. */
static const char *const paper_fills[] = {
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#404040'",
	"fs pattern 5 border lc rgb '#000000' lc rgb '#000000'",
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#a0a0a0'",
	"fs pattern 2 border lc rgb '#000000' lc rgb '#000000'",
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#ffffff'",
	"fs pattern 4 border lc rgb '#000000' lc rgb '#000000'",
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#707070'",
	"fs pattern 1 border lc rgb '#000000' lc rgb '#000000'",
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#d0d0d0'",
	"fs pattern 6 border lc rgb '#000000' lc rgb '#000000'",
	"fs solid 1.0 border lc rgb '#000000' lc rgb '#202020'",
	"fs pattern 7 border lc rgb '#000000' lc rgb '#000000'",
};
#define NPAPER (sizeof(paper_fills) / sizeof(paper_fills[0]))

void weft_gp_num(struct weft_sbuf *out, double v)
{
	if (isfinite(v))
		weft_sbuf_printf(out, "%.10g", v);
	else
		weft_sbuf_puts(out, "NaN");
}

/* Length of the UTF-8 sequence at s (1..4), or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (s[0] >= 0xf8)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A double-quoted string, in which gnuplot reads backslash escapes: a
 * quote, a backslash and a backquote are escaped. The backquote matters
 * most: gnuplot runs `...` in a double-quoted string as a shell command,
 * so a report naming a config `rm -rf ~` in backquotes must not reach it
 * bare. (Single-quoted strings would need no such escape, but gnuplot
 * misreads a doubled quote at their start: '''x' is '' followed by x.) */
static void quote(struct weft_sbuf *out, const char *s, int tic)
{
	weft_sbuf_puts(out, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\' || *p == '`') {
			weft_sbuf_printf(out, "\\%c", *p);
			p++;
		} else if (*p == '%' && tic) {
			weft_sbuf_puts(out, "%%");
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			weft_sbuf_puts(out, "?");
			p++;
		} else if (*p < 0x80) {
			weft_sbuf_printf(out, "%c", *p++);
		} else {
			int n = utf8_len(p);
			if (n == 0) {
				weft_sbuf_puts(out, "?");
				p++;
			} else {
				weft_sbuf_printf(out, "%.*s", n, (const char *)p);
				p += n;
			}
		}
	}
	weft_sbuf_puts(out, "\"");
}

void weft_gp_quote(struct weft_sbuf *out, const char *s)
{
	quote(out, s, 0);
}

void weft_gp_tic(struct weft_sbuf *out, const char *label, double pos)
{
	quote(out, label, 1);
	weft_sbuf_printf(out, " %.6g", pos);
}

/* s for a comment line: control characters as '?'. */
static void comment_text(struct weft_sbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		weft_sbuf_printf(out, "%c", *p < 0x20 || *p == 0x7f ? '?' : *p);
}

int weft_gp_init(struct weft_gp *g, const struct weft_plot_report *const *reports, uint32_t n,
		 const struct weft_plot_opts *o, struct weft_sbuf *out, struct weft_error *err)
{
	memset(g, 0, sizeof(*g));
	g->out = out;
	g->o = o;
	g->reports = reports;
	g->nreports = n;
	g->err = err;
	if (n == 0 || n > WEFT_PLOT_MAX_REPORTS)
		return weft_error_set(err, WEFT_ERR_INPUT, "%u reports; a figure takes 1 to %d", n,
				      WEFT_PLOT_MAX_REPORTS);
	for (uint32_t i = 0; i < n; i++)
		weft_plot_report_label(reports[i], g->labels[i], sizeof(g->labels[i]));
	/* the same workload twice (two sizes, two traces): add what differs */
	for (uint32_t i = 0; i < n; i++) {
		int dup = 0;
		for (uint32_t j = 0; j < n; j++)
			if (j != i && strcmp(g->labels[i], g->labels[j]) == 0)
				dup = 1;
		if (!dup)
			continue;
		char base[WEFT_GP_LABEL_MAX];
		snprintf(base, sizeof(base), "%s", g->labels[i]);
		int size_differs = reports[i]->size[0] != 0;
		for (uint32_t j = 0; j < n; j++) {
			char lj[WEFT_GP_LABEL_MAX];
			weft_plot_report_label(reports[j], lj, sizeof(lj));
			if (j != i && strcmp(lj, base) == 0 && strcmp(reports[j]->size, reports[i]->size) == 0)
				size_differs = 0;
		}
		if (size_differs)
			snprintf(g->labels[i], sizeof(g->labels[i]), "%.40s (%.40s)", base, reports[i]->size);
		else
			snprintf(g->labels[i], sizeof(g->labels[i]), "%.40s (%u)", base, i + 1);
	}
	return 0;
}

void weft_plot_size(const struct weft_plot_opts *o, double *w, double *h)
{
	if (o->term == WEFT_TERM_PDF) {
		*w = o->paper ? 3.5 : 6;
		*h = o->paper ? 2.5 : 3.75;
	} else if (o->term == WEFT_TERM_PNG && o->paper) {
		*w = 1050; /* 3.5 in at 300 dpi */
		*h = 750;
	} else if (o->paper) {
		*w = 336; /* 3.5 in at SVG's 96 px per inch */
		*h = 240;
	} else {
		*w = 800;
		*h = 500;
	}
	if (o->width > 0)
		*w = o->width;
	if (o->height > 0)
		*h = o->height;
}

static void terminal(struct weft_gp *g)
{
	double w, h;
	weft_plot_size(g->o, &w, &h);
	const char *font = g->o->paper ? "sans,7" : "sans,10";
	switch (g->o->term) {
	case WEFT_TERM_PNG:
		weft_sbuf_printf(g->out, "set terminal pngcairo size %.0f,%.0f font '%s' noenhanced", w, h,
				 font);
		if (g->o->paper) /* 7 pt at 300 dpi: the fonts and lines of a 3.5-inch column */
			weft_sbuf_printf(g->out, " fontscale %.4g linewidth %.4g", w / 3.5 / 72, w / 3.5 / 72);
		weft_sbuf_puts(g->out, " background rgb '#ffffff'\n");
		break;
	case WEFT_TERM_SVG:
		weft_sbuf_printf(g->out,
				 "set terminal svg size %.0f,%.0f fixed font '%s' noenhanced background rgb "
				 "'#ffffff'\n",
				 w, h, font);
		break;
	case WEFT_TERM_PDF:
		weft_sbuf_printf(g->out, "set terminal pdfcairo size %.4gin,%.4gin font '%s' noenhanced\n",
				 w, h, font);
		break;
	}
}

void weft_gp_preamble(struct weft_gp *g, const char *what)
{
	struct weft_sbuf *out = g->out;
	weft_sbuf_printf(out, "# weft-plot %s: %s, from", WEFT_VERSION, what);
	for (uint32_t i = 0; i < g->nreports; i++) {
		weft_sbuf_puts(out, i ? ", " : " ");
		comment_text(out, g->reports[i]->path);
	}
	weft_sbuf_puts(out, "\n# Draws the figure on its own (its data are the datablocks below); edit it\n"
			    "# and run `gnuplot THIS.gp`, or `gnuplot -e \"outfile='other.png'\" THIS.gp`\n"
			    "# (the terminal line sets the format).\n");
	weft_sbuf_puts(out, "if (!exists(\"outfile\")) outfile = ");
	weft_gp_quote(out, g->o->output ? g->o->output : "figure");
	weft_sbuf_puts(out, "\nset encoding utf8\n");
	terminal(g);
	weft_sbuf_puts(out, "set output outfile\n");
	if (g->o->paper)
		weft_sbuf_puts(out, "set border 3 lw 1\nset tics nomirror scale 0.6\n"
				    "set key samplen 2 spacing 1 width -1\n");
	else
		weft_sbuf_puts(out, "set border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\n");
	weft_sbuf_puts(out, "set style fill solid 1.0 border lc rgb '#000000'\n");
}

void weft_gp_title(struct weft_gp *g, const char *deflt)
{
	const char *t = g->o->title ? g->o->title : deflt;
	if (!t || !t[0] || (g->o->paper && !g->o->title))
		return; /* a paper's figure has a caption, not a title */
	weft_sbuf_puts(g->out, "set title ");
	weft_gp_quote(g->out, t);
	weft_sbuf_puts(g->out, "\n");
}

void weft_gp_fill(struct weft_gp *g, uint32_t k)
{
	if (g->o->paper)
		weft_sbuf_puts(g->out, paper_fills[k % NPAPER]);
	else
		weft_sbuf_printf(g->out, "fs solid 0.9 border lc rgb '#000000' lc rgb '%s'",
				 colours[k % NCOLOURS]);
}

void weft_gp_line(struct weft_gp *g, uint32_t k)
{
	if (g->o->paper)
		weft_sbuf_printf(g->out, "lc rgb '#000000' lw 1 dt %u pt %u ps 1", k % 5 + 1,
				 (unsigned[]){ 7, 5, 9, 11, 13, 4, 6, 8, 10, 12 }[k % 10]);
	else
		weft_sbuf_printf(g->out, "lc rgb '%s' lw 2 pt %u ps 1.2", colours[k % NCOLOURS],
				 (unsigned[]){ 7, 5, 9, 11, 13, 4, 6, 8, 10, 12 }[k % 10]);
}

void weft_gp_key(struct weft_gp *g, int invert)
{
	if (g->o->paper)
		weft_sbuf_printf(g->out, "set key above horizontal Left reverse samplen 1 width -2%s\n",
				 invert ? " invert" : "");
	else
		weft_sbuf_printf(g->out, "set key outside right top vertical%s\n", invert ? " invert" : "");
}

void weft_gp_end(struct weft_gp *g)
{
	weft_sbuf_puts(g->out, "unset output\n");
}

/* Whether name is one of the comma-separated list. */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len + (e ? 1 : 0);
	}
	return 0;
}

int weft_gp_selected(const struct weft_gp *g, const struct weft_plot_config *c)
{
	return !g->o->configs || in_list(g->o->configs, c->name) || in_list(g->o->configs, c->config);
}

const struct weft_plot_config *weft_gp_config(const struct weft_plot_report *r, const char *name,
					      int file)
{
	for (uint32_t i = 0; i < r->nconfigs; i++)
		if (strcmp(file ? r->configs[i].config : r->configs[i].name, name) == 0)
			return &r->configs[i];
	return NULL;
}

/* Adds name to names unless there. */
static int add_name(struct weft_gp *g, char (*names)[WEFT_PLOT_NAME_MAX], uint32_t *n,
		    const char *name)
{
	for (uint32_t i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return 0;
	if (*n >= WEFT_GP_MAX_SERIES)
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "more than %d configs or points to draw in one figure; choose some "
				      "with --configs",
				      WEFT_GP_MAX_SERIES);
	snprintf(names[(*n)++], WEFT_PLOT_NAME_MAX, "%s", name);
	return 0;
}

/* Every name of list must match a config or file config of some report. */
static int check_list(struct weft_gp *g)
{
	const char *list = g->o->configs;
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char name[WEFT_PLOT_NAME_MAX];
		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) - 1 ? len : sizeof(name) - 1), p);
		int found = 0;
		struct weft_suggest s;
		weft_suggest_init(&s, name);
		for (uint32_t r = 0; r < g->nreports && !found; r++)
			for (uint32_t i = 0; i < g->reports[r]->nconfigs; i++) {
				const struct weft_plot_config *c = &g->reports[r]->configs[i];
				if (strcmp(c->name, name) == 0 || strcmp(c->config, name) == 0) {
					found = 1;
					break;
				}
				weft_suggest_consider(&s, c->name);
				weft_suggest_consider(&s, c->config);
			}
		if (!found) {
			char phrase[300];
			return weft_error_set(g->err, WEFT_ERR_INPUT,
					      "--configs: no report has a config or point named `%s`%s", name,
					      weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)));
		}
		p += len + (e ? 1 : 0);
	}
	return 0;
}

int weft_gp_series(struct weft_gp *g, int file, char (*names)[WEFT_PLOT_NAME_MAX], uint32_t *n)
{
	*n = 0;
	if (g->o->configs) {
		int rc = check_list(g);
		if (rc < 0)
			return rc;
	}
	/* --configs' order first, then what else its file configs bring */
	if (g->o->configs) {
		for (const char *p = g->o->configs; *p;) {
			const char *e = strchr(p, ',');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			for (uint32_t r = 0; r < g->nreports; r++)
				for (uint32_t i = 0; i < g->reports[r]->nconfigs; i++) {
					const struct weft_plot_config *c = &g->reports[r]->configs[i];
					const char *key = file ? c->config : c->name;
					if ((strlen(c->name) == len && strncmp(c->name, p, len) == 0) ||
					    (strlen(c->config) == len && strncmp(c->config, p, len) == 0)) {
						int rc = add_name(g, names, n, key);
						if (rc < 0)
							return rc;
					}
				}
			p += len + (e ? 1 : 0);
		}
		return 0;
	}
	for (uint32_t r = 0; r < g->nreports; r++)
		for (uint32_t i = 0; i < g->reports[r]->nconfigs; i++) {
			const struct weft_plot_config *c = &g->reports[r]->configs[i];
			int rc = add_name(g, names, n, file ? c->config : c->name);
			if (rc < 0)
				return rc;
		}
	return 0;
}

int weft_gp_fig(struct weft_gp *g, const struct weft_plot_report *r,
		const struct weft_plot_config *c, const struct weft_plot_fig **f)
{
	*f = weft_plot_config_fig(c, g->o->launch);
	if (!*f)
		return weft_error_set(g->err, WEFT_ERR_INPUT,
				      "%s: config %s has no launch %lld (it has %u); give --launch 0 to %u, "
				      "or leave it out for the totals",
				      r->path, c->name, (long long)g->o->launch, c->nlaunches,
				      c->nlaunches ? c->nlaunches - 1 : 0);
	return 0;
}

const char *weft_gp_launch_words(const struct weft_gp *g, const struct weft_plot_report *r,
				 char *buf, size_t len)
{
	buf[0] = 0;
	if (g->o->launch < 0)
		return buf;
	const char *kernel = "";
	for (uint32_t i = 0; i < r->nconfigs && !kernel[0]; i++) {
		const struct weft_plot_fig *f = weft_plot_config_fig(&r->configs[i], g->o->launch);
		if (f)
			kernel = f->kernel;
	}
	snprintf(buf, len, " (launch %lld%s%.60s)", (long long)g->o->launch, kernel[0] ? ", " : "",
		 kernel);
	return buf;
}

int weft_gp_value(struct weft_gp *g, const struct weft_plot_report *r,
		  const struct weft_plot_config *c, const struct weft_plot_fig *f, const char *key,
		  double *v, const char **unit)
{
	if (weft_plot_fig_value(f, key, v, unit) == 0)
		return 0;
	struct weft_suggest s;
	weft_suggest_init(&s, key);
	for (size_t i = 0; weft_plot_metric_key(i); i++)
		weft_suggest_consider(&s, weft_plot_metric_key(i));
	for (uint32_t i = 0; i < f->nstats; i++)
		weft_suggest_consider(&s, f->stats[i].key);
	char phrase[300];
	return weft_error_set(g->err, WEFT_ERR_INPUT,
			      "%s: config %s has no figure or model statistic `%s`%s (docs/estimate.md "
			      "lists the figures; a model's statistics are in its \"stats\")",
			      r->path, c->name, key, weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)));
}

/* The baseline all reports share, or NULL. */
static const char *common_baseline(const struct weft_gp *g)
{
	const char *b = g->reports[0]->baseline;
	for (uint32_t i = 1; i < g->nreports; i++)
		if (strcmp(g->reports[i]->baseline, b) != 0)
			return NULL;
	return b[0] ? b : NULL;
}

void weft_gp_axis_label(struct weft_gp *g, const char *key, const char *unit, double maxabs,
			char *buf, size_t len, double *scale)
{
	const struct weft_plot_metric *m = weft_plot_metric_find(key);
	*scale = 1;
	if (!m) {
		if (unit && unit[0])
			snprintf(buf, len, "%s (%s)", key, unit);
		else
			snprintf(buf, len, "%s", key);
		return;
	}
	if (m->ratio) {
		const char *b = common_baseline(g);
		if (b)
			snprintf(buf, len, "%s (%.100s = 1)", m->label, b);
		else
			snprintf(buf, len, "%s (baseline = 1)", m->label);
		return;
	}
	if (m->percent) {
		*scale = 100;
		snprintf(buf, len, "%s (%%)", m->label);
		return;
	}
	const char *prefix = "";
	if (m->si)
		*scale = weft_plot_si(maxabs, &prefix);
	if (m->unit[0])
		snprintf(buf, len, "%s (%s%s)", m->label, prefix, m->unit);
	else
		snprintf(buf, len, "%s", m->label);
}
