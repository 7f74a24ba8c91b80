/*
 * weft-estimate.c - the weft-estimate CLI: one trace, one or more machine
 * configurations, a PPA report (table, CSV, JSON, or a LaTeX or Markdown
 * table for a paper) with ratios against a baseline; with --shard K/N one
 * slice of the run written as a part, and with --merge the parts joined
 * into the report (docs/scale-out.md). A thin main over
 * estimate/estimate.h, estimate/report.h and estimate/shard.h;
 * docs/estimate.md documents the report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/opt.h"
#include "estimate.h"
#include "report.h"
#include "shard.h"
#include "common/file.h"
#include "common/pool.h"

static const char usage[] =
	"usage: weft-estimate FILE.wtr -c CONFIG.ini [-c CONFIG.ini]... [options]\n"
	"       weft-estimate --merge PART... [--format FORMAT [--columns ...] [--digits N]]\n"
	"                     [-o FILE]\n"
	"\n"
	"Replays a trace (made by `weft-trace run WORKLOAD -o FILE.wtr`) on each\n"
	"machine configuration and reports, per launch and in total: cycles, time,\n"
	"thread instructions, IPC, energy by category, average power, area, the\n"
	"model's limiter, and versus the baseline: speedup, energy efficiency\n"
	"(instructions-per-joule ratio, total-energy ratio) and performance per area.\n"
	"\n"
	"options:\n"
	"  -c, --config CONFIG       a machine configuration, a file or the name of a\n"
	"                            bundled one (repeat for more; e.g. fermi-sm,\n"
	"                            configs/tesla-sm.ini, vt-c4v1r256+bi+2s;\n"
	"                            `weft-config configs` lists the bundled ones)\n"
	"  --baseline NAME           the config ratios are taken against (its file name\n"
	"                            without .ini); default: the first -c\n"
	"  --set [CONFIG:]SEC.KEY=V  override a config key (repeatable); with CONFIG:\n"
	"                            only that config, else every config\n"
	"  --sweep [CONFIG:]SEC.KEY=V1,V2,...\n"
	"                            run each config at every value (one report row per\n"
	"                            point, named CONFIG[SEC.KEY=V]); several --sweep give\n"
	"                            their cartesian product (the first varies slowest);\n"
	"                            without CONFIG: it applies to every config that has\n"
	"                            the key. Ranges: START:END:xFACTOR (1:32:x2) or\n"
	"                            START:END:+STEP (1:16:+1). --baseline may name a\n"
	"                            point; a swept config's name means its first point\n"
	"  --format table|csv|json|latex|markdown\n"
	"                            report format (default table); latex (booktabs)\n"
	"                            and markdown: the totals, a row per config or\n"
	"                            point, units in the headers, for a paper\n"
	"  --columns NAME,...        (latex, markdown) the columns by their CSV names:\n"
	"                            config, model, swept keys, cycles .. the ratios,\n"
	"                            cpi_COMPONENT_cycles (default: config, swept\n"
	"                            keys, cycles, time_s, ipc, energy_total_j,\n"
	"                            power_w, area_mm2, limiter, the four ratios)\n"
	"  --digits N                (latex, markdown) significant digits, 1 to 15\n"
	"                            (default 3)\n"
	"  -o, --output FILE         write the report to FILE (atomically) instead of stdout\n"
	"  --explain                 also say how each model saw each launch: for the\n"
	"                            fabric models the mapping (sub-kernels, units,\n"
	"                            replicas, spills), every sub-kernel's bounds, the\n"
	"                            launch's overheads and memory bounds, and for dmt the\n"
	"                            communication analysis (what was removed and why,\n"
	"                            dynamic operations against SIMT); table and JSON only\n"
	"  --sample every:K|random:N:SEED\n"
	"                            replay only some CTAs of each launch: every K-th,\n"
	"                            or N distinct ones chosen with SEED (default: all).\n"
	"                            random: the report adds each total's confidence\n"
	"                            interval and those of the ratios (10 random groups\n"
	"                            of the sample replayed again; docs/estimate.md).\n"
	"                            random: the CTAs outside the sample warm the\n"
	"                            models' caches untimed (functional warming), so\n"
	"                            every CTA is decoded; see --no-warm\n"
	"  --no-warm                 random samples: decode and replay only the sample's\n"
	"                            CTAs (faster; each sees cold caches, which biases\n"
	"                            models whose CTAs reuse each other's lines)\n"
	"  --warm-window grid|W|all  warmed random samples: warm only the W CTAs before\n"
	"                            each sampled one and the one after it (grid: W\n"
	"                            reaches back to its earliest grid neighbour);\n"
	"                            cheaper, not exact for every model: see\n"
	"                            docs/estimate.md \"Windowed warming\" (default all)\n"
	"  --sample-until PCT        sample until every interval's half-width is at most\n"
	"                            PCT of its figure (e.g. 2%): random samples from\n"
	"                            N CTAs per launch (--sample random:N:SEED, default\n"
	"                            random:32:1), growing each round; fails (status 2)\n"
	"                            when that needs every CTA of the trace\n"
	"  --confidence PCT          the intervals' confidence level (default 95%)\n"
	"  --ci-method groups|jackknife\n"
	"                            the intervals' replicates: each random group\n"
	"                            replayed alone (groups, the default) or the sample\n"
	"                            less each group (jackknife: about 3x the CPU; the\n"
	"                            one for the MIMD tiles: docs/estimate.md\n"
	"                            \"Replicates\")\n"
	"  --shard K/N               run only the K-th of N slices of the run's points\n"
	"                            (point i when i mod N = K; K counts from 0) and\n"
	"                            write a part (JSON) for --merge instead of the report\n"
	"  --merge PART...           join the parts of the N shards of one run into the\n"
	"                            report one process prints, in the run's --format\n"
	"                            unless --format is given (latex and markdown take\n"
	"                            --columns and --digits there; docs/scale-out.md)\n"
	"  -j, --jobs N              threads (default 0: one per online CPU): CTAs are\n"
	"                            decoded on N-1 threads ahead of the timing, which\n"
	"                            stays in CTA order; several configs or sweep points\n"
	"                            are timed N at a time. Reports are the same for\n"
	"                            every N (docs/estimate.md \"Parallel replay\")\n"
	"  --version                 print \"weft-estimate VERSION\"\n"
	"  -h, --help                show this help\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (missing, corrupt or truncated\n"
	"trace, a file that is not a trace, unknown config key, unknown baseline,\n"
	"bad --set, --sweep or --shard, a file that cannot be read or created, a\n"
	"shard part that is missing, given twice, of another run, damaged or\n"
	"truncated), 3 internal error (docs/cli.md). docs/estimate.md lists every\n"
	"report column with its unit.\n";

static int parse_u64(const char *s, uint64_t *out)
{
	if (!*s || *s == '-')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* "2%" or "2": a percentage, as a fraction */
static int parse_pct(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno)
		return -1;
	if (*end == '%')
		end++;
	if (*end || !isfinite(v))
		return -1;
	*out = v / 100;
	return 0;
}

/* every:K | random:N:SEED | all */
static int parse_sample(const char *s, struct weft_cta_sample *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t a, b;
	if (strcmp(s, "all") == 0) {
		out->kind = WEFT_SAMPLE_ALL;
		return 0;
	}
	if (strncmp(s, "every:", 6) == 0) {
		if (parse_u64(s + 6, &a) || a < 1 || a > UINT32_MAX)
			return -1;
		out->kind = a == 1 ? WEFT_SAMPLE_ALL : WEFT_SAMPLE_EVERY;
		out->every = (uint32_t)a;
		return 0;
	}
	if (strncmp(s, "random:", 7) == 0) {
		const char *c = strchr(s + 7, ':');
		if (!c)
			return -1;
		char n[32];
		snprintf(n, sizeof(n), "%.*s", (int)(c - (s + 7)), s + 7);
		if (parse_u64(n, &a) || a < 1 || a > UINT32_MAX || parse_u64(c + 1, &b))
			return -1;
		out->kind = WEFT_SAMPLE_RANDOM;
		out->count = (uint32_t)a;
		out->seed = b;
		return 0;
	}
	return -1;
}

/* The library's progress (estimate.h) as one updating line on stderr, only
 * when stderr is a terminal and the run has taken more than a second; the
 * line is erased when the run ends, before the report is written. */
static void progress_line(void *user, uint64_t done, uint64_t total)
{
	static struct timespec t0;
	static int shown;
	struct timespec now;
	(void)user;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (t0.tv_sec == 0 && t0.tv_nsec == 0)
		t0 = now;
	if (done >= total) {
		if (shown)
			fputs("\r\033[K", stderr);
		shown = 0;
	} else if (shown || (now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) > 1000000000L) {
		fprintf(stderr, "\rweft-estimate: CTA %llu/%llu, %llu%%\033[K", (unsigned long long)done,
			(unsigned long long)total, (unsigned long long)(done * 100 / total));
		shown = 1;
	}
}

/* text to outpath (atomically) or, when NULL, to stdout. */
static int emit(const struct weft_sbuf *text, const char *outpath, struct weft_error *err)
{
	if (outpath)
		return weft_write_atomic(outpath, weft_sbuf_str(text), text->len, err);
	fputs(weft_sbuf_str(text), stdout);
	if (fflush(stdout) != 0 || ferror(stdout))
		return weft_error_set(err, WEFT_ERR_IO, "writing the report to stdout failed");
	return 0;
}

/* The --columns/--digits and --explain rules of the tables for a paper:
 * 0, or prints the usage error and returns its status (*status). */
static int table_opts_bad(int fmt, int explain, const struct weft_est_table_opts *topts,
			  const char *const *keys, uint32_t nkeys, int *status)
{
	int paper = fmt == WEFT_FMT_LATEX || fmt == WEFT_FMT_MARKDOWN;
	if (explain && fmt == WEFT_FMT_CSV)
		*status = weft_cli_usage("%s", "--explain writes prose, which a CSV row cannot hold; use "
					 "--format table or json");
	else if (explain && paper)
		*status = weft_cli_usage("%s", "--explain writes prose, which a table for a paper cannot "
					 "hold; use --format table or json");
	else if ((topts->columns || topts->digits) && !paper)
		*status = weft_cli_usage("%s applies to --format latex or markdown",
					 topts->columns ? "--columns" : "--digits");
	else if (topts->columns) {
		struct weft_error cerr;
		weft_error_clear(&cerr);
		if (weft_est_columns_check(topts->columns, keys, nkeys, &cerr) < 0)
			*status = weft_cli_usage("%s", cerr.message);
		else
			return 0;
	} else
		return 0;
	return 1;
}

/* --merge PART...: the report one process would have printed, in fmt (-1:
 * the format the run asked for), with topts for a table for a paper. */
static int merge(const char *const *parts, uint32_t nparts, int fmt,
		 const struct weft_est_table_opts *topts, const char *outpath)
{
	struct weft_error err;
	weft_error_clear(&err);
	struct weft_est_merge *m = NULL;
	struct weft_est_report rep;
	enum weft_format run_fmt = WEFT_FMT_TABLE;
	int rc = weft_est_merge_new(&m, &err);
	for (uint32_t i = 0; i < nparts && rc == 0; i++)
		rc = weft_est_merge_add_file(m, parts[i], &err);
	if (rc == 0)
		rc = weft_est_merge_finish(m, &rep, &run_fmt, &err);
	weft_est_merge_free(m);
	if (rc < 0)
		return weft_cli_fail(&err);
	if (fmt < 0)
		fmt = (int)run_fmt;
	/* the swept keys, as --columns may name them, are the run's */
	const char *kp[WEFT_EST_MAX_SWEEPS];
	for (uint32_t i = 0; i < rep.nsweeps && i < WEFT_EST_MAX_SWEEPS; i++)
		kp[i] = rep.sweep_keys[i];
	int status;
	if (rep.explain && fmt != WEFT_FMT_TABLE && fmt != WEFT_FMT_JSON) {
		weft_est_report_free(&rep);
		return weft_cli_usage("the parts' run has --explain, whose prose %s cannot hold; use "
				      "--format table or json",
				      fmt == WEFT_FMT_CSV ? "a CSV row" : "a table for a paper");
	}
	if (table_opts_bad(fmt, 0, topts, kp,
			   rep.nsweeps < WEFT_EST_MAX_SWEEPS ? rep.nsweeps : WEFT_EST_MAX_SWEEPS, &status)) {
		weft_est_report_free(&rep);
		return status;
	}
	struct weft_sbuf text;
	weft_sbuf_init(&text);
	rc = weft_est_report_format_opts(&rep, (enum weft_format)fmt, topts, &text, &err);
	weft_est_report_free(&rep);
	if (rc == 0)
		rc = emit(&text, outpath, &err);
	weft_sbuf_free(&text);
	return rc < 0 ? weft_cli_fail(&err) : 0;
}

/* configs, sets, sweeps and operands have room for argc entries each */
static int run(int argc, char **argv, const char **configs, const char **sets,
	       const char **sweeps, const char **operands)
{
	const char *trace = NULL, *baseline = NULL, *outpath = NULL;
	int fmt = WEFT_FMT_TABLE, fmt_given = 0, explain = 0, merging = 0, run_opts = 0;
	struct weft_est_table_opts topts = { NULL, 0 };
	struct weft_cta_sample sample = { .kind = WEFT_SAMPLE_ALL };
	double until = 0, confidence = 0;
	int ci_method = -1; /* --ci-method; -1: not given */
	int sample_given = 0, no_warm = 0, window_given = 0;
	uint32_t warm_window = 0;
	uint32_t nconfigs = 0, nsets = 0, nsweeps = 0, noperands = 0, shard = 0, nshards = 0;
	unsigned jobs = 0;
	if (argc < 2)
		return weft_cli_usage("%s", "which trace? usage: weft-estimate FILE.wtr -c CONFIG.ini");

	static const struct weft_opt opts[] = {
		{ "config", 'c', WEFT_OPT_ARG, 'c' },
		{ "baseline", 0, WEFT_OPT_ARG, 'b' },
		{ "set", 0, WEFT_OPT_ARG, 's' },
		{ "sweep", 0, WEFT_OPT_ARG, 'w' },
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "explain", 0, WEFT_OPT_FLAG, 'e' },
		{ "sample", 0, WEFT_OPT_ARG, 'S' },
		{ "sample-until", 0, WEFT_OPT_ARG, 'U' },
		{ "no-warm", 0, WEFT_OPT_FLAG, 'W' },
		{ "warm-window", 0, WEFT_OPT_ARG, 'V' },
		{ "confidence", 0, WEFT_OPT_ARG, 'L' },
		{ "ci-method", 0, WEFT_OPT_ARG, 'I' },
		{ "jobs", 'j', WEFT_OPT_ARG, 'j' },
		{ "shard", 0, WEFT_OPT_ARG, 'K' },
		{ "merge", 0, WEFT_OPT_FLAG, 'M' },
		{ "columns", 0, WEFT_OPT_ARG, 'C' },
		{ "digits", 0, WEFT_OPT_ARG, 'D' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *val = p.arg;
		struct weft_error err;
		/* what only a run (not --merge) takes */
		run_opts |= id == 'c' || id == 'b' || id == 's' || id == 'w' || id == 'e' || id == 'S' ||
			    id == 'K' || id == 'U' || id == 'W' || id == 'V' || id == 'L' || id == 'I' ||
			    id == 'j';
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage);
		case 'c':
			configs[nconfigs++] = val;
			break;
		case 'b':
			baseline = val;
			break;
		case 's': {
			char target[64];
			const char *assign;
			if (weft_est_parse_override(val, target, sizeof(target), &assign, &err) < 0)
				return weft_cli_usage("%s", err.message);
			sets[nsets++] = val;
			break;
		}
		case 'w': {
			struct weft_est_sweep sw;
			if (weft_est_parse_sweep(val, &sw, &err) < 0)
				return weft_cli_usage("%s", err.message);
			weft_est_sweep_free(&sw);
			sweeps[nsweeps++] = val;
			break;
		}
		case 'f':
			fmt = weft_format_parse_report(val);
			if (fmt < 0)
				return weft_cli_usage("bad --format `%s` (table, csv, json, latex or markdown)",
						      val);
			fmt_given = 1;
			break;
		case 'C':
			topts.columns = val;
			break;
		case 'D': {
			uint64_t d;
			if (parse_u64(val, &d) || d < 1 || d > WEFT_EST_MAX_DIGITS)
				return weft_cli_usage("bad --digits `%s` (1 to %d significant digits)", val,
						      WEFT_EST_MAX_DIGITS);
			topts.digits = (int)d;
			break;
		}
		case 'o':
			if (!*val)
				return weft_cli_usage("%s", "-o needs a file name");
			outpath = val;
			break;
		case 'e':
			explain = 1;
			break;
		case 'S':
			sample_given = 1;
			if (parse_sample(val, &sample) < 0)
				return weft_cli_usage("bad --sample `%s` (every:K with K >= 1, or "
						      "random:N:SEED with N >= 1, e.g. random:64:1)",
						      val);
			break;
		case 'W':
			no_warm = 1;
			break;
		case 'V': {
			uint64_t v = 0;
			if (strcmp(val, "grid") == 0)
				v = WEFT_WARM_WINDOW_GRID;
			else if (strcmp(val, "all") == 0)
				v = 0;
			else if (parse_u64(val, &v) < 0 || v == 0 || v >= WEFT_WARM_WINDOW_GRID)
				return weft_cli_usage("bad --warm-window `%s` (grid, all, or a count of "
						      "CTAs from 1, e.g. 16)",
						      val);
			warm_window = (uint32_t)v;
			window_given = 1;
			break;
		}
		case 'U':
			if (parse_pct(val, &until) < 0 || !(until > 0 && until < 1))
				return weft_cli_usage("bad --sample-until `%s` (a relative error above 0 "
						      "and below 100%%, e.g. 2%%)",
						      val);
			break;
		case 'L':
			if (parse_pct(val, &confidence) < 0 || !(confidence > 0 && confidence < 1))
				return weft_cli_usage("bad --confidence `%s` (a level above 0 and below "
						      "100%%, e.g. 95%%)",
						      val);
			break;
		case 'I':
			if (strcmp(val, "groups") == 0)
				ci_method = WEFT_CI_METHOD_GROUPS;
			else if (strcmp(val, "jackknife") == 0)
				ci_method = WEFT_CI_METHOD_JACKKNIFE;
			else
				return weft_cli_usage("bad --ci-method `%s` (groups or jackknife)", val);
			break;
		case 'K':
			if (weft_est_parse_shard(val, &shard, &nshards, &err) < 0)
				return weft_cli_usage("%s", err.message);
			break;
		case 'M':
			merging = 1;
			break;
		case 'j':
			if (weft_cli_jobs(val, &jobs))
				return 2;
			break;
		case WEFT_OPT_OPERAND:
			operands[noperands++] = val;
			break;
		}
	}
	if (outpath) {
		char why[600];
		if (weft_opt_check_output(outpath, why, sizeof(why)))
			return weft_cli_usage("-o: %s", why);
	}
	if (merging) {
		if (run_opts)
			return weft_cli_usage("%s", "--merge takes the parts, --format, --columns, --digits "
					      "and -o only: the run's configs, --set, --sweep, "
					      "--baseline, --sample and --explain are recorded in its "
					      "parts");
		if (noperands == 0)
			return weft_cli_usage("%s", "--merge: which parts? give every shard's part "
					      "(weft-estimate ... --shard K/N -o FILE)");
		for (uint32_t i = 0; i < noperands; i++)
			if (weft_opt_is_dir(operands[i]))
				return weft_cli_usage("%s is a directory, not a shard part", operands[i]);
		return merge(operands, noperands, fmt_given ? fmt : -1, &topts, outpath);
	}
	if (noperands > 1)
		return weft_cli_usage("unexpected argument `%s` (one trace per run; configs go after -c)",
				      operands[1]);
	trace = noperands ? operands[0] : NULL;
	if (!trace)
		return weft_cli_usage("%s", "which trace? make one with `weft-trace run WORKLOAD -o FILE.wtr`");
	if (nconfigs == 0)
		return weft_cli_usage("%s", "no configuration; add -c CONFIG.ini (e.g. -c configs/fermi-sm.ini)");
	if (until > 0 && !sample_given) {
		sample.kind = WEFT_SAMPLE_RANDOM;
		sample.count = 32;
		sample.seed = 1;
	}
	if (until > 0 && sample.kind != WEFT_SAMPLE_RANDOM)
		return weft_cli_usage("%s", "--sample-until grows a random sample: give none or "
				      "--sample random:N:SEED (its N is the first round's)");
	if (no_warm && sample.kind != WEFT_SAMPLE_RANDOM)
		return weft_cli_usage("%s", "--no-warm: only a random sample (--sample random:N:SEED "
				      "or --sample-until) is warmed");
	/* functional warming by default: it is what keeps the intervals
	 * honest for models whose CTAs share cache lines (docs/estimate.md) */
	sample.warm = sample.kind == WEFT_SAMPLE_RANDOM && !no_warm;
	if (window_given && !sample.warm)
		return weft_cli_usage("%s", "--warm-window: only a warmed random sample (--sample "
				      "random:N:SEED or --sample-until, without --no-warm) has a "
				      "warming window");
	sample.warm_window = sample.warm ? warm_window : 0;
	if (confidence > 0 && sample.kind != WEFT_SAMPLE_RANDOM)
		return weft_cli_usage("%s", "--confidence: only a random sample (--sample random:N:SEED "
				      "or --sample-until) has intervals");
	if (ci_method >= 0 && sample.kind != WEFT_SAMPLE_RANDOM)
		return weft_cli_usage("%s", "--ci-method: only a random sample (--sample random:N:SEED "
				      "or --sample-until) has intervals");
	if (nshards && sample.kind == WEFT_SAMPLE_RANDOM)
		return weft_cli_usage("%s", "--shard with a random sample: a part cannot carry the "
				      "random groups the intervals need; run the sampled estimate "
				      "in one process (it reads only the sample), or shard an "
				      "unsampled or every:K run");
	if (nshards && (fmt == WEFT_FMT_LATEX || fmt == WEFT_FMT_MARKDOWN))
		return weft_cli_usage("%s", "--shard writes a part, not a table; give --format latex or "
				      "markdown (and --columns, --digits) to --merge");
	{
		/* the swept keys are columns too: "sec.key" of each --sweep */
		char keys[WEFT_EST_MAX_SWEEPS][130];
		const char *kp[WEFT_EST_MAX_SWEEPS];
		uint32_t nk = 0;
		for (uint32_t i = 0; topts.columns && i < nsweeps && nk < WEFT_EST_MAX_SWEEPS; i++) {
			struct weft_est_sweep sw;
			struct weft_error serr;
			if (weft_est_parse_sweep(sweeps[i], &sw, &serr) == 0) {
				snprintf(keys[nk], sizeof(keys[nk]), "%s.%s", sw.section, sw.key);
				kp[nk] = keys[nk];
				nk++;
				weft_est_sweep_free(&sw);
			}
		}
		int status;
		if (table_opts_bad(fmt, explain, &topts, kp, nk, &status))
			return status;
	}
	if (weft_opt_is_dir(trace))
		return weft_cli_usage("%s is a directory, not a trace file; give a FILE.wtr", trace);
	for (uint32_t i = 0; i < nconfigs; i++)
		if (weft_opt_is_dir(configs[i]))
			return weft_cli_usage("-c %s is a directory; give a CONFIG.ini (e.g. configs/fermi-sm.ini)",
					      configs[i]);
	/* bare names (`-c fermi-sm`) become the bundled configs' paths; the
	 * paths live in resolved[], freed with it at the end */
	char (*resolved)[1200] = calloc(nconfigs, sizeof(*resolved));
	if (!resolved)
		return weft_cli_nomem(NULL);
	for (uint32_t i = 0; i < nconfigs; i++) {
		struct weft_error ferr;
		weft_error_clear(&ferr);
		if (weft_config_resolve(configs[i], resolved[i], sizeof(resolved[i]), &ferr) < 0) {
			free(resolved);
			return weft_cli_fail(&ferr);
		}
		configs[i] = resolved[i];
	}

	struct weft_est_request req = {
		.trace_path = trace,
		.config_paths = configs,
		.nconfigs = nconfigs,
		.overrides = sets,
		.noverrides = nsets,
		.baseline = baseline,
		.sample = sample,
		.confidence = confidence,
		.ci_method = ci_method < 0 ? WEFT_CI_METHOD_GROUPS : (enum weft_est_ci_method)ci_method,
		.until = until,
		.sweeps = sweeps,
		.nsweeps = nsweeps,
		.explain = explain,
		.alone = 1, /* this process's only weft_estimate_run */
		.shard = shard,
		.nshards = nshards,
		.progress = isatty(2) ? progress_line : NULL,
		.jobs = weft_pool_jobs(jobs),
	};
	struct weft_est_report rep;
	struct weft_error err;
	weft_error_clear(&err);
	/* weft-estimate verifies nothing: a failed check is a damaged trace,
	 * bad input (weft_cli_fail: exit 2), not a failed verification */
	int rc = weft_estimate_run(&req, &rep, &err);
	if (rc < 0) {
		free(resolved);
		return weft_cli_fail(&err);
	}

	struct weft_sbuf text;
	weft_sbuf_init(&text);
	/* a shard writes its part; the merge prints the report */
	if (nshards)
		rc = weft_est_shard_write(&rep, (enum weft_format)fmt, &text, &err);
	else
		rc = weft_est_report_format_opts(&rep, (enum weft_format)fmt, &topts, &text, &err);
	weft_est_report_free(&rep);
	if (rc == 0)
		rc = emit(&text, outpath, &err);
	weft_sbuf_free(&text);
	free(resolved);
	if (rc < 0)
		return weft_cli_fail(&err);
	return 0;
}

int main(int argc, char **argv)
{
	weft_cli_start("weft-estimate");
	const char **configs = calloc((size_t)argc + 1, sizeof(*configs));
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	const char **sweeps = calloc((size_t)argc + 1, sizeof(*sweeps));
	const char **operands = calloc((size_t)argc + 1, sizeof(*operands));
	int rc = 3;
	if (configs && sets && sweeps && operands)
		rc = run(argc, argv, configs, sets, sweeps, operands);
	else
		rc = weft_cli_nomem(NULL);
	free(configs);
	free(sets);
	free(sweeps);
	free(operands);
	return weft_cli_end(rc);
}
