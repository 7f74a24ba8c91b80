/*
 * weft-plot.c - the weft-plot CLI: figures of weft-estimate JSON reports,
 * drawn by gnuplot from a script it also saves (docs/plot.md). A thin main
 * over plot/plot_report.h (read), plot/plot.h (the script) and
 * plot/plot_run.h (gnuplot, the image check, the atomic write); options
 * and messages as every weft CLI (docs/cli.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/file.h"
#include "common/opt.h"
#include "common/sbuf.h"
#include "common/suggest.h"
#include "plot.h"
#include "plot_report.h"
#include "plot_run.h"

static const char usage[] =
	"usage: weft-plot KIND REPORT.json... -o FIGURE.png|.svg|.pdf [options]\n"
	"\n"
	"Draws a figure of one or more weft-estimate reports (`weft-estimate FILE.wtr\n"
	"-c CONFIG... --format json -o REPORT.json`, one per workload) with gnuplot,\n"
	"and saves the gnuplot script beside it (data inline) so it can be edited and\n"
	"drawn again (`gnuplot FIGURE.gp`). The format follows the extension.\n"
	"\n"
	"kinds:\n"
	"  bars     a metric (--metric, default speedup) per workload and config or\n"
	"           sweep point, grouped by workload; a dashed line at the baseline's 1\n"
	"  energy   energy by category, stacked, per config (joules for one report,\n"
	"           each workload's baseline = 1 for several; --norm)\n"
	"  cpi      CPI stacks, per config: where the cycles went (% of cycles; --norm)\n"
	"  sweep    a metric (--metric) against a swept key (--key, default the\n"
	"           report's first), one line per config\n"
	"  dist     a distribution from model statistics (--of active-ut: the vt\n"
	"           model's active-uT buckets; --of dmt-distance; --cdf)\n"
	"  scatter  energy (--y) against performance per area (--x), one labelled\n"
	"           point per config\n"
	"  util     utilisation from the CPI stack: the busy component (--busy,\n"
	"           default issue) and why the rest of the cycles were idle\n"
	"  help     this help\n"
	"\n"
	"options:\n"
	"  -o, --output FILE        the figure, .png, .svg or .pdf (required), written\n"
	"                           atomically\n"
	"  --script FILE            where the gnuplot script goes (default: the figure's\n"
	"                           name with .gp for its extension)\n"
	"  --script-only            write the script and stop (no gnuplot needed)\n"
	"  --metric NAME            bars, sweep: a report figure (speedup, time_s,\n"
	"                           energy_total_j, ipc, insts_per_j_ratio, ...:\n"
	"                           docs/estimate.md) or a model statistic\n"
	"  --x NAME, --y NAME       scatter: the axes (default insts_per_s_per_mm2 and\n"
	"                           energy_total_j)\n"
	"  --key SEC.KEY            sweep: the swept key on the x axis\n"
	"  --of NAME                dist: active-ut (default), dmt-distance, or any\n"
	"                           family of statistics PREFIX<bucket>\n"
	"  --cdf, --no-cdf          dist: cumulative or not (default: the family's)\n"
	"  --busy COMPONENT         util: the CPI-stack component counted as busy\n"
	"  --norm none|share|baseline\n"
	"                           energy, cpi: as they are, each bar 100%, or each\n"
	"                           workload's baseline = 1\n"
	"  --configs NAME,...       only these configs or sweep points (names, or a\n"
	"                           config's name for all its points), in this order\n"
	"  --launch N               launch N's figures instead of the totals\n"
	"  --geomean                bars: a last group with each config's geometric mean\n"
	"  --log none|x|y|xy        logarithmic axes (sweep, scatter; default: by the data)\n"
	"  --style default|paper    paper: greyscale-safe fills and dashes, a 3.5-inch\n"
	"                           column (PDF 3.5x2.5 in, PNG 1050x750 at 300 dpi,\n"
	"                           SVG 336x240), 7-point fonts, no title\n"
	"  --size WxH               pixels for PNG and SVG (default 800x500), inches\n"
	"                           for PDF (default 6x3.75)\n"
	"  --title TEXT             the title (\"\" for none)\n"
	"  --version                print \"weft-plot VERSION\"\n"
	"  -h, --help               show this help\n"
	"\n"
	"Environment: WEFT_GNUPLOT, the gnuplot program (default: gnuplot on PATH;\n"
	"Debian package gnuplot-nox).\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (a report that cannot be read, is not\n"
	"JSON or not a weft-estimate report, lacks the figure or statistics asked for;\n"
	"gnuplot not installed; a figure that cannot be written), 3 internal error\n"
	"(gnuplot failed on the script) or out of memory (docs/cli.md). docs/plot.md\n"
	"describes every kind and what it reads.\n";

struct args {
	struct weft_plot_opts o;
	const char *kind;
	const char **reports;
	uint32_t nreports;
	const char *script;
	int script_only;
};

/* Which options apply to which kinds (a usage error elsewhere). */
struct only {
	int id;
	const char *name;
	unsigned kinds; /* bit per enum weft_plot_kind */
};
#define K(k) (1u << (k))
static const struct only only[] = {
	{ 'm', "--metric", K(WEFT_PLOT_BARS) | K(WEFT_PLOT_SWEEP) },
	{ 'x', "--x", K(WEFT_PLOT_SCATTER) },
	{ 'y', "--y", K(WEFT_PLOT_SCATTER) },
	{ 'k', "--key", K(WEFT_PLOT_SWEEP) },
	{ 'O', "--of", K(WEFT_PLOT_DIST) },
	{ 'C', "--cdf", K(WEFT_PLOT_DIST) },
	{ 'N', "--no-cdf", K(WEFT_PLOT_DIST) },
	{ 'u', "--busy", K(WEFT_PLOT_UTIL) },
	{ 'n', "--norm", K(WEFT_PLOT_ENERGY) | K(WEFT_PLOT_CPI) },
	{ 'g', "--geomean", K(WEFT_PLOT_BARS) },
	{ 'l', "--log", K(WEFT_PLOT_SWEEP) | K(WEFT_PLOT_SCATTER) },
};

static int parse_size(const char *s, double *w, double *h)
{
	char *e;
	errno = 0;
	*w = strtod(s, &e);
	if (e == s || (*e != 'x' && *e != 'X'))
		return -1;
	const char *t = e + 1;
	*h = strtod(t, &e);
	return e == t || *e || errno || !(*w > 0) || !(*h > 0) ? -1 : 0;
}

static int parse_norm(const char *s)
{
	if (strcmp(s, "none") == 0)
		return WEFT_NORM_NONE;
	if (strcmp(s, "share") == 0)
		return WEFT_NORM_SHARE;
	if (strcmp(s, "baseline") == 0)
		return WEFT_NORM_BASELINE;
	return -1;
}

static int parse_log(const char *s)
{
	static const char *const names[] = { "none", "x", "y", "xy" };
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static int unknown_kind(const char *k)
{
	struct weft_suggest s;
	char phrase[200];
	weft_suggest_init(&s, k);
	for (int i = 0; i < WEFT_PLOT_NKINDS; i++)
		weft_suggest_consider(&s, weft_plot_kind_name((enum weft_plot_kind)i));
	return weft_cli_usage("unknown plot kind `%s` (bars, energy, cpi, sweep, dist, scatter or util)%s",
			      k, weft_suggest_phrase(&s, "`", "`", phrase, sizeof(phrase)));
}

/* Parses argv into a; returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct args *a)
{
	static const struct weft_opt opts[] = {
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "script", 0, WEFT_OPT_ARG, 's' },
		{ "script-only", 0, WEFT_OPT_FLAG, 'S' },
		{ "metric", 0, WEFT_OPT_ARG, 'm' },
		{ "x", 0, WEFT_OPT_ARG, 'x' },
		{ "y", 0, WEFT_OPT_ARG, 'y' },
		{ "key", 0, WEFT_OPT_ARG, 'k' },
		{ "of", 0, WEFT_OPT_ARG, 'O' },
		{ "cdf", 0, WEFT_OPT_FLAG, 'C' },
		{ "no-cdf", 0, WEFT_OPT_FLAG, 'N' },
		{ "busy", 0, WEFT_OPT_ARG, 'u' },
		{ "norm", 0, WEFT_OPT_ARG, 'n' },
		{ "configs", 0, WEFT_OPT_ARG, 'c' },
		{ "launch", 0, WEFT_OPT_ARG, 'L' },
		{ "geomean", 0, WEFT_OPT_FLAG, 'g' },
		{ "log", 0, WEFT_OPT_ARG, 'l' },
		{ "style", 0, WEFT_OPT_ARG, 'Y' },
		{ "size", 0, WEFT_OPT_ARG, 'z' },
		{ "title", 0, WEFT_OPT_ARG, 't' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	unsigned given[128] = { 0 }; /* options seen, for the kind check */
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *v = p.arg;
		if (id > 0 && id < 128)
			given[id] = 1;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage);
		case 'o':
			if (!*v)
				return weft_cli_usage("%s", "-o needs a file name");
			a->o.output = v;
			break;
		case 's':
			if (!*v)
				return weft_cli_usage("%s", "--script needs a file name");
			a->script = v;
			break;
		case 'S':
			a->script_only = 1;
			break;
		case 'm':
			a->o.metric = v;
			break;
		case 'x':
			a->o.xmetric = v;
			break;
		case 'y':
			a->o.ymetric = v;
			break;
		case 'k':
			a->o.key = v;
			break;
		case 'O':
			a->o.of = v;
			break;
		case 'C':
			a->o.cdf = 1;
			break;
		case 'N':
			a->o.cdf = 0;
			break;
		case 'u':
			a->o.busy = v;
			break;
		case 'n': {
			int n = parse_norm(v);
			if (n < 0)
				return weft_cli_usage("bad --norm `%s` (none, share or baseline)", v);
			a->o.norm = (enum weft_plot_norm)n;
			break;
		}
		case 'c':
			if (!*v || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
				return weft_cli_usage("bad --configs `%s` (names separated by commas)", v);
			a->o.configs = v;
			break;
		case 'L': {
			char *e;
			errno = 0;
			long long n = strtoll(v, &e, 10);
			if (!*v || *e || errno || n < 0 || n > 4000000000LL)
				return weft_cli_usage("bad --launch `%s` (a launch index, 0 or more)", v);
			a->o.launch = n;
			break;
		}
		case 'g':
			a->o.geomean = 1;
			break;
		case 'l': {
			int l = parse_log(v);
			if (l < 0)
				return weft_cli_usage("bad --log `%s` (none, x, y or xy)", v);
			a->o.log = (enum weft_plot_log)l;
			break;
		}
		case 'Y':
			if (strcmp(v, "paper") == 0)
				a->o.paper = 1;
			else if (strcmp(v, "default") == 0)
				a->o.paper = 0;
			else
				return weft_cli_usage("bad --style `%s` (default or paper)", v);
			break;
		case 'z':
			if (parse_size(v, &a->o.width, &a->o.height) < 0)
				return weft_cli_usage("bad --size `%s` (WxH: e.g. 1200x700 pixels, or 3.5x2.5 "
						      "inches for a PDF)",
						      v);
			break;
		case 't':
			a->o.title = v;
			break;
		case WEFT_OPT_OPERAND:
			if (!a->kind) {
				a->kind = v;
				int k = weft_plot_kind_parse(v);
				if (k >= 0)
					weft_cli_command(v);
			} else {
				a->reports[a->nreports++] = v;
			}
			break;
		}
	}
	if (a->kind && strcmp(a->kind, "help") == 0)
		return weft_cli_help(usage);
	if (!a->kind)
		return weft_cli_usage("%s", "which plot? give a kind (bars, energy, cpi, sweep, dist, scatter "
					    "or util) and REPORT.json files");
	int k = weft_plot_kind_parse(a->kind);
	if (k < 0)
		return unknown_kind(a->kind);
	a->o.kind = (enum weft_plot_kind)k;
	for (size_t i = 0; i < sizeof(only) / sizeof(only[0]); i++)
		if (given[only[i].id] && !(only[i].kinds & K(k)))
			return weft_cli_usage("%s does not apply to %s plots (docs/plot.md)", only[i].name,
					      a->kind);
	if (a->nreports == 0)
		return weft_cli_usage("which reports? give REPORT.json files made by `weft-estimate "
				      "FILE.wtr -c CONFIG --format json -o REPORT.json`");
	if (a->nreports > WEFT_PLOT_MAX_REPORTS)
		return weft_cli_usage("%u reports; one figure takes at most %d", a->nreports,
				      WEFT_PLOT_MAX_REPORTS);
	if (!a->o.output)
		return weft_cli_usage("%s", "no figure named; add -o FIGURE.png (or .svg, .pdf)");
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_plot_term_of(a->o.output, &a->o.term, &err) < 0)
		return weft_cli_usage("%s", err.message);
	double w, h;
	weft_plot_size(&a->o, &w, &h);
	if (a->o.term == WEFT_TERM_PDF ? (w > 100 || h > 100) : (w > 20000 || h > 20000 || w < 16 || h < 16))
		return weft_cli_usage("--size %gx%g is out of range (16 to 20000 pixels; up to 100 "
				      "inches for a PDF)",
				      w, h);
	for (uint32_t i = 0; i < a->nreports; i++)
		if (weft_opt_is_dir(a->reports[i]))
			return weft_cli_usage("%s is a directory; give a REPORT.json", a->reports[i]);
	return -1;
}

/* FIGURE.ext -> FIGURE.gp */
static char *script_name(const char *fig)
{
	size_t n = strlen(fig);
	const char *dot = strrchr(fig, '.');
	size_t stem = dot ? (size_t)(dot - fig) : n;
	char *s = malloc(stem + 4);
	if (s)
		snprintf(s, stem + 4, "%.*s.gp", (int)stem, fig);
	return s;
}

static int draw(struct args *a, struct weft_plot_report *reps)
{
	struct weft_error err;
	weft_error_clear(&err);
	char *own = a->script ? NULL : script_name(a->o.output);
	const char *script = a->script ? a->script : own;
	if (!script)
		return weft_cli_nomem(NULL);
	char why[600];
	const char *bad = NULL;
	if (weft_opt_check_output(a->o.output, why, sizeof(why)))
		bad = "-o";
	else if (weft_opt_check_output(script, why, sizeof(why)))
		bad = "--script";
	else if (strcmp(script, a->o.output) == 0)
		bad = "--script", snprintf(why, sizeof(why), "%s is the figure itself", script);
	if (bad) {
		free(own);
		return weft_cli_usage("%s: %s", bad, why);
	}
	int rc = 0;
	uint32_t nread = 0;
	for (; nread < a->nreports && rc == 0; nread++)
		rc = weft_plot_read_file(a->reports[nread], &reps[nread], &err);
	const struct weft_plot_report *ptrs[WEFT_PLOT_MAX_REPORTS];
	for (uint32_t i = 0; i < a->nreports; i++)
		ptrs[i] = &reps[i];
	struct weft_sbuf text, said;
	weft_sbuf_init(&text);
	weft_sbuf_init(&said);
	if (rc == 0)
		rc = weft_plot_script(ptrs, a->nreports, &a->o, &text, &err);
	if (rc == 0)
		rc = weft_write_atomic(script, weft_sbuf_str(&text), text.len, &err);
	int status = 0;
	if (rc < 0) {
		status = weft_cli_fail(&err);
	} else if (a->script_only) {
		printf("wrote %s (draw it with `gnuplot %s`)\n", script, script);
	} else if (weft_plot_render(weft_sbuf_str(&text), text.len, &a->o, &said, &err) < 0) {
		weft_cli_say("%s; the script is in %s", err.message, script);
		status = weft_cli_exit_status(&err, 0);
	} else {
		for (const char *s = weft_sbuf_str(&said); *s;) {
			const char *e = strchr(s, '\n');
			int n = e ? (int)(e - s) : (int)strlen(s);
			if (n > 0)
				weft_cli_say("gnuplot: %.*s", n, s);
			s += n + (e ? 1 : 0);
		}
		double w, h;
		weft_plot_size(&a->o, &w, &h);
		static const char *const fmt[] = { "PNG", "SVG", "PDF" };
		if (a->o.term == WEFT_TERM_PDF)
			printf("wrote %s (%gx%g in %s) and its gnuplot script %s\n", a->o.output, w, h,
			       fmt[a->o.term], script);
		else
			printf("wrote %s (%.0fx%.0f %s) and its gnuplot script %s\n", a->o.output, w, h,
			       fmt[a->o.term], script);
	}
	for (uint32_t i = 0; i < nread; i++)
		weft_plot_report_free(&reps[i]);
	weft_sbuf_free(&text);
	weft_sbuf_free(&said);
	free(own);
	return status;
}

int main(int argc, char **argv)
{
	weft_cli_start("weft-plot");
	struct args a;
	memset(&a, 0, sizeof(a));
	weft_plot_opts_init(&a.o);
	a.reports = calloc((size_t)argc + 1, sizeof(*a.reports));
	if (!a.reports)
		return weft_cli_end(weft_cli_nomem(NULL));
	int rc = parse(argc, argv, &a);
	if (rc < 0) {
		struct weft_plot_report *reps = calloc(a.nreports, sizeof(*reps));
		rc = reps ? draw(&a, reps) : weft_cli_nomem(NULL);
		free(reps);
	}
	free(a.reports);
	return weft_cli_end(rc);
}
