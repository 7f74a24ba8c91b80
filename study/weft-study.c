/*
 * weft-study.c - the weft-study CLI: one command that regenerates a
 * study's evaluation from a recipe (study/study.h, docs/weft-study.md).
 * A thin main: options, progress lines on stderr, the summary on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/opt.h"
#include "recipe.h"
#include "study.h"

static const char usage[] =
	"usage: weft-study RECIPE [-o DIR] [--size small|default|large] [options]\n"
	"\n"
	"Regenerates a study's evaluation from a recipe (an INI file naming its\n"
	"workloads, runs of configs, sweeps and baseline, and the figures and tables\n"
	"to draw): traces each bundled workload (or reuses its trace from the trace\n"
	"cache), estimates every run on every workload, draws the figures with\n"
	"gnuplot and writes a folder with the reports (JSON, CSV), the figures and\n"
	"their gnuplot scripts, LaTeX and Markdown tables, and report.md with the\n"
	"provenance (weft version, trace and config hashes) and the equivalent\n"
	"weft-trace, weft-estimate and weft-plot commands.\n"
	"\n"
	"RECIPE is a file, or the name of a bundled recipe (recipes/: sgmf, dmt,\n"
	"maven, overlay, tesla).\n"
	"\n"
	"options:\n"
	"  -o, --output DIR         the folder to write (default: the recipe's name);\n"
	"                           written as DIR.tmp and renamed to DIR at the end,\n"
	"                           replacing an earlier weft-study folder there\n"
	"  --size S                 workload input size: small, default or large\n"
	"                           (default: the recipe's [study] size, else small)\n"
	"  --trace-cache DIR        the trace cache (default: $WEFT_TRACE_CACHE, else\n"
	"                           $XDG_CACHE_HOME/weft/traces, else\n"
	"                           ~/.cache/weft/traces); made when missing\n"
	"  -q, --quiet              no progress lines on stderr\n"
	"  --version                print \"weft-study VERSION\"\n"
	"  -h, --help               show this help\n"
	"\n"
	"Environment: WEFT_TRACE_CACHE (above); WEFT_GNUPLOT, the gnuplot program\n"
	"(default: gnuplot on PATH; Debian package gnuplot-nox).\n"
	"\n"
	"Exit status: 0 the folder is written; 2 bad usage or input (a recipe that\n"
	"cannot be read or has a bad section, key or value, with file:line; an unknown\n"
	"workload or config; a sweep, override or baseline the estimate refuses; a\n"
	"figure that cannot be drawn from its reports; gnuplot not installed; an\n"
	"output folder that exists and is not weft-study's); 3 internal error\n"
	"(gnuplot failed on a script) or out of memory (docs/cli.md). On any error\n"
	"no DIR is left half-written. docs/weft-study.md describes recipes, the trace\n"
	"cache and the folder.\n";

static void note(void *user, const char *line)
{
	(void)user;
	fprintf(stderr, "weft-study: %s\n", line);
	fflush(stderr);
}

static int run(int argc, char **argv)
{
	static const struct weft_opt opts[] = {
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "size", 0, WEFT_OPT_ARG, 's' },
		{ "trace-cache", 0, WEFT_OPT_ARG, 'c' },
		{ "quiet", 'q', WEFT_OPT_FLAG, 'q' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_study_request req;
	memset(&req, 0, sizeof(req));
	req.note = note;
	const char *recipe = NULL;
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *v = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage);
		case 'o':
			if (!*v)
				return weft_cli_usage("%s", "-o needs a folder name");
			req.out_dir = v;
			break;
		case 's':
			if (weft_size_parse(v, &req.size) < 0)
				return weft_cli_usage("bad --size `%s` (small, default or large)", v);
			req.size_given = 1;
			break;
		case 'c':
			if (!*v)
				return weft_cli_usage("%s", "--trace-cache needs a directory name");
			req.trace_cache = v;
			break;
		case 'q':
			req.note = NULL;
			break;
		case WEFT_OPT_OPERAND:
			if (recipe)
				return weft_cli_usage("one RECIPE at a time (`%s` after `%s`)", v, recipe);
			recipe = v;
			break;
		}
	}
	if (!recipe)
		return weft_cli_usage("%s", "no RECIPE given (a recipe file, or a bundled recipe's name)");
	struct weft_error err;
	weft_error_clear(&err);
	char path[1400];
	if (weft_recipe_resolve(recipe, path, sizeof(path), &err) < 0)
		return weft_cli_fail(&err);
	req.recipe = path;
	struct weft_study_result res;
	if (weft_study_run(&req, &res, &err) < 0)
		return weft_cli_fail(&err);
	printf("wrote %s/: report.md, %u reports, %u figures, %u tables (%u traces, %u reused from the "
	       "cache)\n",
	       res.out_dir, res.nreports, res.nfigures, res.ntables, res.ntraces, res.nreused);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		weft_error_set(&err, WEFT_ERR_IO, "writing to stdout failed");
		return weft_cli_fail(&err);
	}
	return 0;
}

int main(int argc, char **argv)
{
	weft_cli_start("weft-study");
	return weft_cli_end(run(argc, argv));
}
