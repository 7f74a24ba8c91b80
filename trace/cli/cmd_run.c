/*
 * cmd_run.c - `weft-trace run`: emulate a bundled workload (optionally
 * verified against its CPU reference, timed under host counters) or the
 * kernel of a launch spec, and print a readable summary.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/error.h"
#include "trace/emu/host.h"
#include "common/hostperf.h"
#include "common/numparse.h"
#include "common/opt.h"
#include "common/pool.h"
#include "trace/launch/spec.h"
#include "trace/format/trace.h"
#include "trace/launch/workload.h"
#include "trace/launch/workload_run.h"

static const char run_usage[] =
	"usage: weft-trace run WORKLOAD [--size small|default|large] [--verify]\n"
	"                      [--max-launch-insts N] [--max-thread-insts N]\n"
	"                      [--max-device-mem SIZE] [-j N] [-o FILE.wtr [--level N]]\n"
	"       weft-trace run --spec FILE.ini [--output-dir DIR] [--max-launch-insts N]\n"
	"                      [--max-thread-insts N] [--max-device-mem SIZE] [-j N]\n"
	"                      [-o FILE.wtr [--level N]]\n"
	"\n"
	"Emulates every thread of the workload's kernels and prints a summary:\n"
	"launches, CTAs, thread and warp instructions, emulation time and speed.\n"
	"\n"
	"Options:\n"
	"  --size S              input size: small (about 1e5 thread instructions),\n"
	"                        default (1e7) or large (1e9); default: default\n"
	"  --verify              also run the CPU reference (timed under host\n"
	"                        performance counters) and compare the results;\n"
	"                        exit status 1 when they differ\n"
	"  --max-launch-insts N  the instruction budget of each launch: stop with an\n"
	"                        error naming the kernel, CTA and thread (exit status\n"
	"                        2) once one launch ran N thread instructions; default\n"
	"                        1e10, ten times the largest bundled launch (a launch\n"
	"                        spec's `max_insts` may lower it for its launch)\n"
	"  --max-thread-insts N  stop with an error (exit status 2) once N thread\n"
	"                        instructions ran in all launches together\n"
	"  --max-device-mem SIZE the most device memory the kernels' buffers and\n"
	"                        module variables may hold at once, in bytes or with\n"
	"                        K, M, G or T (powers of 1024); an allocation beyond\n"
	"                        it stops the run (exit status 2) before anything is\n"
	"                        allocated; default: this machine's memory (or a\n"
	"                        lower ulimit -v / -d)\n"
	"  --spec FILE.ini       run the kernel a launch spec describes instead of a\n"
	"                        bundled workload (format: docs/launch-spec.md)\n"
	"  --output-dir DIR      with --spec: write `output =` files under DIR instead\n"
	"                        of the spec file's directory\n"
	"  -o, --output FILE     write a trace of every thread's path and memory\n"
	"                        accesses to FILE (format: docs/trace-format.md);\n"
	"                        FILE appears only when complete (docs/cli.md)\n"
	"  --level N             zstd compression level of the trace, 1..19\n"
	"                        (default 1)\n"
	"  -j, --jobs N          emulate a launch's CTAs on N threads (default 0:\n"
	"                        one per online CPU); launches whose kernel uses\n"
	"                        global atomics, fences, volatile global accesses or\n"
	"                        clock reads run on one thread. The trace, results\n"
	"                        and summary counts are the same for every N\n"
	"                        (docs/emulator.md \"Parallel emulation\")\n"
	"  -h, --help            show this help\n"
	"  --version             print \"weft-trace VERSION\"\n"
	"\n"
	"Progress goes to stderr when stderr is a terminal.\n"
	"\n"
	"Exit status: 0 ok, 1 --verify (or a spec's expected output) found a\n"
	"mismatch, 2 bad usage or input (unknown workload, spec or PTX error, a\n"
	"file that cannot be read or created), a kernel fault or a limit reached,\n"
	"3 internal error (docs/cli.md).\n";

/* ---- progress ------------------------------------------------------------ */

struct progress {
	int shown; /* characters of the last progress line, 0 = none */
};

static void progress_cb(void *user, const char *kernel, uint32_t ctas_done, uint32_t ctas_total,
			uint64_t thread_insts)
{
	struct progress *p = user;
	int n = fprintf(stderr, "\r%s: CTA %u/%u, %u%%, %.1e thread insts", kernel, ctas_done,
			ctas_total, ctas_total ? (unsigned)((uint64_t)ctas_done * 100 / ctas_total) : 0,
			(double)thread_insts);
	/* Blank what is left of a longer previous line. */
	if (n > 0 && n - 1 < p->shown)
		fprintf(stderr, "%*s", p->shown - (n - 1), "");
	fflush(stderr);
	if (n - 1 > p->shown)
		p->shown = n - 1;
}

static void progress_clear(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", p->shown, "");
	p->shown = 0;
}

/* ---- summary ------------------------------------------------------------- */

/* -j as applied (weft_pool_jobs), for the summary */
static unsigned run_jobs;

static void print_stats(const struct weft_ctx_stats *s, unsigned jobs)
{
	printf("%-16s%llu\n", "launches", (unsigned long long)s->launches);
	printf("%-16s%llu\n", "CTAs", (unsigned long long)s->ctas);
	printf("%-16s%llu\n", "thread insts", (unsigned long long)s->thread_insts);
	printf("%-16s%llu\n", "warp insts", (unsigned long long)s->warp_insts);
	if (s->warp_insts)
		printf("%-16s%.2f of 32\n", "active lanes",
		       (double)s->thread_insts / (double)s->warp_insts);
	printf("%-16s%.6f s", "emulation", s->emu_seconds);
	if (s->emu_seconds > 0)
		printf(", %.3g thread insts/s", (double)s->thread_insts / s->emu_seconds);
	if (jobs > 1)
		printf(", -j %u: %llu of %llu launch%s on several threads", jobs,
		       (unsigned long long)s->parallel_launches, (unsigned long long)s->launches,
		       s->launches == 1 ? "" : "es");
	printf("\n");
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0) /* Linux: ru_maxrss in KiB */
		printf("%-16s%.1f MiB (whole process, maximum resident set)\n",
		       "peak memory", (double)ru.ru_maxrss / 1024.0);
}

static void print_host(const struct weft_hostperf *hp)
{
	printf("%-16sCPU reference, wall %.3g s", "host baseline", hp->wall_seconds);
	weft_cli_print_counters(hp, "scaled: multiplexed");
	printf("\n");
	/* Say which counters were missing and why (reasons usually repeat). */
	for (unsigned i = 0; i < hp->ncounters; i++) {
		const struct weft_hostperf_counter *c = &hp->counters[i];
		if (c->available)
			continue;
		int first = 1;
		for (unsigned j = 0; j < i; j++)
			if (!hp->counters[j].available &&
			    strcmp(hp->counters[j].reason, c->reason) == 0)
				first = 0;
		if (!first)
			continue;
		printf("%-16snot available: %s", "", c->name);
		for (unsigned j = i + 1; j < hp->ncounters; j++)
			if (!hp->counters[j].available &&
			    strcmp(hp->counters[j].reason, c->reason) == 0)
				printf(", %s", hp->counters[j].name);
		printf(" (%s)\n", c->reason);
	}
}

/* ---- run ----------------------------------------------------------------- */

/* ---- trace output ---------------------------------------------------- */

/* The trace's temporary file, removed if the run is interrupted. */
static char trace_tmp[4096];

static void on_signal(int sig)
{
	if (trace_tmp[0])
		unlink(trace_tmp); /* async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Commits the trace (or removes it when the run failed) and prints its
 * summary line. Returns 0 or an exit status. */
static int finish_trace(struct weft_trace_writer *tw, const char *path, int run_rc,
			const struct weft_ctx_stats *st)
{
	struct weft_error err;
	if (!tw)
		return 0;
	if (run_rc && run_rc != WEFT_ERR_VERIFY) {
		weft_trace_writer_abort(tw);
		trace_tmp[0] = 0;
		return 0;
	}
	(void)st;
	(void)path;
	int rc = weft_trace_writer_commit(tw, &err);
	trace_tmp[0] = 0;
	if (rc)
		return weft_cli_fail_check(&err);
	return 0;
}

static void print_trace(const char *path, const struct weft_ctx_stats *st)
{
	struct stat sb;
	if (path && stat(path, &sb) == 0)
		printf("%-16s%s (%lld bytes, %.3f bytes per thread inst)\n", "trace", path,
		       (long long)sb.st_size,
		       st->thread_insts ? (double)sb.st_size / (double)st->thread_insts : 0.0);
}

static int run_spec(const char *path, const char *outdir, struct weft_ctx *ctx,
		    struct progress *prog, struct weft_trace_writer *tw, const char *tpath)
{
	struct weft_spec *spec;
	struct weft_error err;
	struct weft_spec_run_opts opts = { outdir, 0 };
	uint32_t nexpect = 0;
	int rc;

	if ((rc = weft_spec_load(path, &spec, &err))) {
		finish_trace(tw, tpath, rc, NULL);
		return weft_cli_fail_check(&err);
	}
	rc = weft_spec_run(spec, ctx, &opts, &err);
	progress_clear(prog);
	int trc = finish_trace(tw, tpath, rc, weft_ctx_stats(ctx));
	if (rc && rc != WEFT_ERR_VERIFY) {
		weft_spec_free(spec);
		return weft_cli_fail_check(&err);
	}
	if (trc) {
		weft_spec_free(spec);
		return trc;
	}
	printf("%-16s%s\n", "spec", spec->path);
	if (!spec->sequence) {
		printf("%-16s%s (%s)\n", "kernel", spec->kernel, spec->ptx);
		printf("%-16sgrid %ux%ux%u, block %ux%ux%u, %u B dynamic shared\n", "launch",
		       spec->grid.x, spec->grid.y, spec->grid.z, spec->block.x, spec->block.y,
		       spec->block.z, spec->shared);
	} else {
		printf("%-16s%s\n", "ptx", spec->ptx);
		for (uint32_t i = 0; i < spec->nlaunches; i++) {
			const struct weft_spec_launch *l = &spec->launches[i];
			char rep[40] = "";
			if (l->repeat > 1)
				snprintf(rep, sizeof(rep), " x%llu", (unsigned long long)l->repeat);
			printf("%-16s%s: %s%s, grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared\n",
			       i ? "" : "sequence", l->name, l->kernel, rep, l->grid.x, l->grid.y, l->grid.z,
			       l->block.x, l->block.y, l->block.z, l->shared);
		}
	}
	print_stats(weft_ctx_stats(ctx), run_jobs);
	if (tw)
		print_trace(tpath, weft_ctx_stats(ctx));
	int any = 0;
	for (uint32_t i = 0; i < spec->nbuffers + spec->nsymbols; i++) {
		int sym = i >= spec->nbuffers;
		const struct weft_spec_buffer *b = sym ? &spec->symbols[i - spec->nbuffers] : &spec->buffers[i];
		char p[4096], n[64] = "";
		nexpect += b->expect != NULL;
		if (!b->output)
			continue;
		if (b->count)
			snprintf(n, sizeof(n), "%llu x ", (unsigned long long)b->count);
		printf("%-16s%s%s -> %s (%s%s)\n", any ? "" : "outputs", sym ? "symbol " : "", b->name,
		       weft_spec_output_path(spec, b, outdir, p, sizeof(p)), n, weft_spec_type_name(b->type));
		any = 1;
	}
	if (!nexpect)
		printf("%-16snot run (no `expect =` in the spec)\n", "verification");
	else if (rc == 0)
		printf("%-16sPASS (%u of %u buffers%s match their expect file)\n", "verification",
		       opts.compared, nexpect, spec->nsymbols ? " and symbols" : "");
	else
		printf("%-16sFAIL\n", "verification");
	fflush(stdout);
	weft_spec_free(spec);
	if (rc)
		return weft_cli_fail_check(&err);
	return 0;
}

static int run_workload(const char *name, enum weft_size size, int verify, struct weft_ctx *ctx,
			struct progress *prog, struct weft_trace_writer *tw, const char *tpath)
{
	const struct weft_workload *wl = weft_workload_find(name);
	struct weft_workload_run_opts opts = { size, verify };
	struct weft_workload_result res;
	struct weft_error err;
	int rc;

	if (!wl) {
		char hint[256];
		finish_trace(tw, tpath, WEFT_ERR_INPUT, NULL);
		weft_cli_say("unknown workload `%s`; `weft-trace list` shows the bundled ones (or use "
			     "--spec FILE.ini for your own kernel)%s",
			     name, weft_workload_suggest(name, hint, sizeof(hint)));
		return 2;
	}
	rc = weft_workload_run(wl, ctx, &opts, &res, &err);
	progress_clear(prog);
	if (tw) {
		weft_trace_writer_set_workload(tw, wl->name, weft_size_name(size));
		if (res.host_measured)
			weft_trace_writer_set_baseline(tw, &res.host, "CPU reference");
	}
	int trc = finish_trace(tw, tpath, rc, &res.stats);
	if (rc && rc != WEFT_ERR_VERIFY)
		return weft_cli_fail_check(&err);
	if (trc)
		return trc;
	printf("%-16s%s: %s\n", "workload", wl->name, wl->description);
	printf("%-16s%s\n", "size", weft_size_name(size));
	print_stats(&res.stats, run_jobs);
	if (tw)
		print_trace(tpath, &res.stats);
	if (res.host_measured)
		print_host(&res.host);
	if (!verify)
		printf("%-16snot run (add --verify)\n", "verification");
	else
		printf("%-16s%s (tolerance: %s)\n", "verification",
		       res.verify == WEFT_VERIFY_PASS ? "PASS" : "FAIL",
		       wl->tolerance ? wl->tolerance : "exact");
	fflush(stdout);
	if (rc)
		return weft_cli_fail_check(&err);
	return 0;
}

int weft_cmd_run(int argc, char **argv)
{
	const char *workload = NULL, *spec = NULL, *outdir = NULL, *tpath = NULL;
	int level = 0, level_given = 0;
	unsigned jobs = 0;
	enum weft_size size = WEFT_SIZE_DEFAULT;
	int verify = 0, size_given = 0;
	uint64_t max_insts = 0, max_launch_insts = 0, max_device = 0;

	static const struct weft_opt opts[] = {
		{ "size", 0, WEFT_OPT_ARG, 's' },
		{ "verify", 0, WEFT_OPT_FLAG, 'v' },
		{ "max-thread-insts", 0, WEFT_OPT_ARG, 'm' },
		{ "max-launch-insts", 0, WEFT_OPT_ARG, 'L' },
		{ "max-device-mem", 0, WEFT_OPT_ARG, 'M' },
		{ "spec", 0, WEFT_OPT_ARG, 'S' },
		{ "output-dir", 0, WEFT_OPT_ARG, 'D' },
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "level", 0, WEFT_OPT_ARG, 'l' },
		{ "jobs", 'j', WEFT_OPT_ARG, 'j' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *val = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, run_usage);
		case 's':
			if (weft_size_parse(val, &size))
				return weft_cli_usage("bad --size `%s` (small, default or large)", val);
			size_given = 1;
			break;
		case 'v':
			verify = 1;
			break;
		case 'm':
			if (weft_parse_count(val, &max_insts))
				return weft_cli_usage("bad --max-thread-insts `%s` (a positive integer)",
						      val);
			break;
		case 'L':
			if (weft_parse_count(val, &max_launch_insts) || !max_launch_insts)
				return weft_cli_usage("bad --max-launch-insts `%s` (a positive number of thread "
						   "instructions, e.g. 1e9)",
						   val);
			break;
		case 'M':
			if (weft_parse_bytes(val, &max_device))
				return weft_cli_usage("bad --max-device-mem `%s` (a positive size in bytes, "
						      "or with K, M, G or T, e.g. 8G)",
						      val);
			break;
		case 'S':
			spec = val;
			break;
		case 'D':
			outdir = val;
			break;
		case 'o':
			tpath = val;
			break;
		case 'l': {
			char *end;
			long v = strtol(val, &end, 10);
			if (!*val || *end || v < 1 || v > 19)
				return weft_cli_usage("bad --level `%s` (a zstd level, 1..19)", val);
			level = (int)v;
			level_given = 1;
			break;
		}
		case 'j':
			if (weft_cli_jobs(val, &jobs))
				return 2;
			break;
		case WEFT_OPT_OPERAND:
			if (workload)
				return weft_cli_usage("unexpected argument `%s` (one workload per run)", val);
			workload = val;
			break;
		}
	}
	if (spec && workload)
		return weft_cli_usage("give a WORKLOAD or --spec FILE, not both (`%s`)", workload);
	if (!spec && !workload)
		return weft_cli_usage("%s", "which workload? `weft-trace list` shows them");
	if (spec && (verify || size_given))
		return weft_cli_usage("%s applies to bundled workloads, not --spec",
				      verify ? "--verify" : "--size");
	if (outdir && !spec)
		return weft_cli_usage("%s", "--output-dir applies only to --spec");
	if (level_given && !tpath)
		return weft_cli_usage("%s", "--level applies only with -o FILE (a trace)");
	if (tpath && !*tpath)
		return weft_cli_usage("%s", "-o needs a file name");
	if (tpath) {
		char why[600];
		if (weft_opt_check_output(tpath, why, sizeof(why)))
			return weft_cli_usage("-o: %s", why);
	}
	if (spec && weft_opt_is_dir(spec))
		return weft_cli_usage("--spec %s is a directory; give a launch spec FILE.ini", spec);

	struct progress prog = { 0 };
	struct weft_ctx_options copts;
	memset(&copts, 0, sizeof(copts));
	copts.max_thread_insts = max_insts;
	copts.max_launch_insts = max_launch_insts; /* 0: the library's default */
	copts.max_device_bytes = max_device;       /* 0: this process's memory */
	copts.jobs = run_jobs = weft_pool_jobs(jobs);
	if (isatty(STDERR_FILENO)) {
		copts.progress = progress_cb;
		copts.progress_user = &prog;
	}
	struct weft_trace_writer *tw = NULL;
	if (tpath) {
		struct weft_error err;
		if (weft_trace_writer_open(tpath, level, &tw, &err))
			return weft_cli_fail_check(&err);
		copts.observer = weft_trace_writer_observer(tw);
		snprintf(trace_tmp, sizeof(trace_tmp), "%s", weft_trace_writer_temp_path(tw));
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		signal(SIGHUP, on_signal);
	}
	struct weft_ctx *ctx = weft_ctx_create(&copts);
	if (!ctx) {
		if (tw)
			weft_trace_writer_abort(tw);
		return weft_cli_nomem("creating the emulator context");
	}
	int rc = spec ? run_spec(spec, outdir, ctx, &prog, tw, tpath)
		      : run_workload(workload, size, verify, ctx, &prog, tw, tpath);
	weft_ctx_destroy(ctx);
	return rc;
}
