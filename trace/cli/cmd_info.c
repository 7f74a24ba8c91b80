/*
 * cmd_info.c - `weft-trace info FILE`: what a trace holds, read from its
 * index and launch records only (no chunk is decoded, so it is instant on
 * any trace): launches with kernel, geometry and instruction counts, file
 * size, bytes per thread instruction, compression ratio, raw bytes per
 * stream, and the host baseline. `--format json` prints the same as one
 * JSON object; its keys are documented in docs/trace-format.md ("weft-trace
 * info JSON").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "common/quote.h"
#include "trace/format/trace.h"

static const char info_usage[] =
	"usage: weft-trace info FILE.wtr [--format text|json] [--decode [--threads N]]\n"
	"\n"
	"Prints what a trace holds: the workload and size it came from, every\n"
	"launch (kernel, PTX hash, grid and block, CTAs, static instructions and\n"
	"blocks, thread/warp instructions, memory accesses), the file size, bytes\n"
	"per thread instruction, the compression ratio of its chunks, raw bytes\n"
	"per stream (paths, guards, addresses, spaces) and the host baseline.\n"
	"Reads only the index and launch records (use `verify` to check data).\n"
	"\n"
	"Options:\n"
	"  --format F   text (default) or json (keys: docs/trace-format.md)\n"
	"  --decode     also decode every CTA and walk every thread's dynamic\n"
	"               instructions (whole passes, repeated for at least 0.2 s of\n"
	"               CPU time), and report the speed (thread instructions per\n"
	"               second of wall and of CPU time) and the peak memory\n"
	"  --threads N  decoder threads for --decode (default 1: decode in the\n"
	"               walking thread; 0 = one thread per core in all)\n"
	"  -h, --help   show this help\n"
	"  --version    print \"weft-trace VERSION\"\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (a missing, corrupt or truncated\n"
	"trace, or a file that is not a trace), 3 internal error (docs/cli.md).\n";

static const char *const stream_names[4] = { "path", "guard", "address", "space" };

struct totals {
	uint64_t warp_insts, mem, chunk_bytes, streams[4];
	uint32_t chunks;
};

static void sum(struct weft_trace *t, struct totals *T)
{
	memset(T, 0, sizeof(*T));
	const struct weft_trace_info *I = weft_trace_info(t);
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		T->warp_insts += L->warp_insts;
		T->mem += L->mem_accesses;
		T->chunk_bytes += L->chunk_bytes;
		T->chunks += L->nchunks;
		for (int k = 0; k < 4; k++)
			T->streams[k] += L->stream_bytes[k];
	}
}

struct decode {
	int done;
	unsigned threads;
	double seconds, cpu_seconds;
	uint64_t insts;
	unsigned passes;
	double best; /* thread insts per CPU second of the fastest pass */
	double peak_mib;
};

struct dec_ctx {
	const struct weft_program *p;
	uint64_t insts;
};

static int walk_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct dec_ctx *d = user;
	uint64_t n = 0;
	for (uint32_t i = 0; i < c->nthreads; i++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst di;
		weft_thread_iter_init(&it, d->p, &c->threads[i]);
		while (weft_thread_iter_next(&it, &di))
			n += di.exec;
	}
	d->insts += n;
	return 0;
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

/* Decodes the whole trace, timing it: passes over the whole trace until
 * DECODE_MIN_SECONDS of CPU time have gone by (at least one), so that small
 * traces measure decoding rather than the process's first page faults. */
#define DECODE_MIN_SECONDS 0.2
static int run_decode(struct weft_trace *t, struct decode *D, struct weft_error *err)
{
	struct timespec a, b, ca, cb;
	const struct weft_trace_info *I = weft_trace_info(t);
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	struct timespec pa = ca;
	do {
		uint64_t n = 0;
		for (uint32_t l = 0; l < I->nlaunches; l++) {
			struct dec_ctx d = { weft_trace_launch(t, l)->program, 0 };
			int rc = weft_trace_for_each_cta(t, l, NULL, D->threads, walk_cta, &d, err);
			if (rc)
				return rc;
			n += d.insts;
		}
		D->insts += n;
		D->passes++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
		double s = elapsed(&pa, &cb);
		if (s > 0 && (double)n / s > D->best)
			D->best = (double)n / s;
		pa = cb;
	} while (elapsed(&ca, &cb) < DECODE_MIN_SECONDS);
	clock_gettime(CLOCK_MONOTONIC, &b);
	D->seconds = elapsed(&a, &b);
	D->cpu_seconds = elapsed(&ca, &cb);
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0) /* Linux: ru_maxrss in KiB */
		D->peak_mib = (double)ru.ru_maxrss / 1024.0;
	D->done = 1;
	return 0;
}

static void print_json(const char *path, struct weft_trace *t, const struct decode *D)
{
	const struct weft_trace_info *I = weft_trace_info(t);
	struct totals T;
	sum(t, &T);
	printf("{\n  \"file\": ");
	weft_quote_json(stdout, path);
	printf(",\n  \"version\": %u,\n  \"file_bytes\": %llu,\n  \"workload\": ", I->version,
	       (unsigned long long)I->file_bytes);
	weft_quote_json(stdout, I->workload);
	printf(",\n  \"size\": ");
	weft_quote_json(stdout, I->size);
	printf(",\n  \"launches\": %u,\n  \"thread_insts\": %llu,\n  \"warp_insts\": %llu,\n"
	       "  \"mem_accesses\": %llu,\n  \"chunks\": %u,\n  \"raw_bytes\": %llu,\n  \"chunk_bytes\": %llu,\n",
	       I->nlaunches, (unsigned long long)I->thread_insts, (unsigned long long)T.warp_insts,
	       (unsigned long long)T.mem, T.chunks, (unsigned long long)I->raw_bytes,
	       (unsigned long long)T.chunk_bytes);
	printf("  \"bytes_per_thread_inst\": %.6g,\n  \"compression_ratio\": %.6g,\n",
	       I->thread_insts ? (double)I->file_bytes / (double)I->thread_insts : 0.0,
	       T.chunk_bytes ? (double)I->raw_bytes / (double)T.chunk_bytes : 0.0);
	printf("  \"stream_bytes\": {");
	for (int k = 0; k < 4; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", stream_names[k], (unsigned long long)T.streams[k]);
	printf("},\n  \"host_baseline\": ");
	if (!I->has_baseline) {
		printf("null");
	} else {
		printf("{\n    \"what\": ");
		weft_quote_json(stdout, I->baseline_what);
		printf(",\n    \"wall_seconds\": %.9g,\n    \"counters\": [", I->baseline.wall_seconds);
		for (unsigned i = 0; i < I->baseline.ncounters; i++) {
			const struct weft_hostperf_counter *c = &I->baseline.counters[i];
			printf("%s\n      {\"name\": ", i ? "," : "");
			weft_quote_json(stdout, c->name);
			printf(", \"event\": ");
			weft_quote_json(stdout, c->event);
			printf(", \"unit\": ");
			weft_quote_json(stdout, c->unit);
			printf(", \"hardware\": %s, \"available\": %s, \"scaled\": %s, \"value\": %llu, \"reason\": ",
			       c->hardware ? "true" : "false", c->available ? "true" : "false",
			       c->scaled ? "true" : "false", (unsigned long long)c->value);
			weft_quote_json(stdout, c->reason);
			printf("}");
		}
		printf("\n    ]\n  }");
	}
	if (D->done)
		printf(",\n  \"decode\": {\"threads\": %u, \"passes\": %u, \"thread_insts\": %llu, \"seconds\": %.6f, "
		       "\"cpu_seconds\": %.6f, \"thread_insts_per_second\": %.6g, "
		       "\"thread_insts_per_cpu_second\": %.6g, \"best_pass_thread_insts_per_cpu_second\": %.6g, "
		       "\"peak_memory_mib\": %.1f}",
		       D->threads, D->passes, (unsigned long long)D->insts, D->seconds, D->cpu_seconds,
		       D->seconds > 0 ? (double)D->insts / D->seconds : 0.0,
		       D->cpu_seconds > 0 ? (double)D->insts / D->cpu_seconds : 0.0, D->best, D->peak_mib);
	printf(",\n  \"launch_list\": [");
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		const struct weft_program *p = L->program;
		printf("%s\n    {\"index\": %u, \"kernel\": ", l ? "," : "", L->index);
		weft_quote_json(stdout, p->kernel);
		printf(", \"ptx_hash\": \"%016llx\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
		       "\"dyn_shared\": %u, \"ctas\": %u, \"threads_per_cta\": %u, \"static_insts\": %u, "
		       "\"blocks\": %u, \"thread_insts\": %llu, \"warp_insts\": %llu, \"mem_accesses\": %llu, "
		       "\"chunks\": %u, \"chunk_bytes\": %llu, \"raw_bytes\": %llu}",
		       (unsigned long long)p->ptx_hash, L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y,
		       L->block.z, L->dyn_shared, L->nctas, L->threads_per_cta, p->ninsts, p->nblocks,
		       (unsigned long long)L->thread_insts, (unsigned long long)L->warp_insts,
		       (unsigned long long)L->mem_accesses, L->nchunks, (unsigned long long)L->chunk_bytes,
		       (unsigned long long)L->raw_bytes);
	}
	printf("\n  ]\n}\n");
}

static void print_text(const char *path, struct weft_trace *t, const struct decode *D)
{
	const struct weft_trace_info *I = weft_trace_info(t);
	struct totals T;
	sum(t, &T);
	printf("%-16s%s (version %u)\n", "trace", path, I->version);
	if (I->workload[0])
		printf("%-16s%s, size %s\n", "workload", I->workload, I->size[0] ? I->size : "?");
	else
		printf("%-16snone recorded (a launch spec or a custom driver)\n", "workload");
	printf("%-16s%u\n", "launches", I->nlaunches);
	printf("%-16s%llu\n", "thread insts", (unsigned long long)I->thread_insts);
	printf("%-16s%llu", "warp insts", (unsigned long long)T.warp_insts);
	if (T.warp_insts)
		printf(" (%.2f active lanes of 32)", (double)I->thread_insts / (double)T.warp_insts);
	printf("\n%-16s%llu\n", "mem accesses", (unsigned long long)T.mem);
	printf("%-16s%llu bytes, %.4f bytes per thread inst\n", "file size", (unsigned long long)I->file_bytes,
	       I->thread_insts ? (double)I->file_bytes / (double)I->thread_insts : 0.0);
	printf("%-16s%u chunks: %llu raw bytes -> %llu bytes, ratio %.1f\n", "compression", T.chunks,
	       (unsigned long long)I->raw_bytes, (unsigned long long)T.chunk_bytes,
	       T.chunk_bytes ? (double)I->raw_bytes / (double)T.chunk_bytes : 0.0);
	printf("%-16spath %llu, guard %llu, address %llu, space %llu (raw bytes)\n", "streams",
	       (unsigned long long)T.streams[0], (unsigned long long)T.streams[1],
	       (unsigned long long)T.streams[2], (unsigned long long)T.streams[3]);
	if (I->has_baseline) {
		printf("%-16s%s, wall %.3g s", "host baseline", I->baseline_what[0] ? I->baseline_what : "measured",
		       I->baseline.wall_seconds);
		weft_cli_print_counters(&I->baseline, "scaled");
		printf("\n");
		for (unsigned i = 0; i < I->baseline.ncounters; i++) {
			const struct weft_hostperf_counter *c = &I->baseline.counters[i];
			if (!c->available)
				printf("%-16snot available: %s (%s)\n", "", c->name, c->reason);
		}
	} else {
		printf("%-16snot recorded (trace with `run --verify` to measure the CPU reference)\n",
		       "host baseline");
	}
	if (D->done)
		printf("%-16s%llu thread insts in %.6f s (%.6f s CPU), %.3g thread insts/s, "
		       "%.3g per CPU second (%u decoder thread%s, %u passes; best pass %.3g); peak memory %.1f MiB\n",
		       "decode", (unsigned long long)D->insts, D->seconds, D->cpu_seconds,
		       D->seconds > 0 ? (double)D->insts / D->seconds : 0.0,
		       D->cpu_seconds > 0 ? (double)D->insts / D->cpu_seconds : 0.0, D->threads,
		       D->threads == 1 ? "" : "s", D->passes, D->best, D->peak_mib);
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		const struct weft_program *p = L->program;
		char name[32];
		snprintf(name, sizeof(name), "launch %u", l);
		printf("%-16s%s (ptx %016llx): grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared; "
		       "%u insts, %u blocks; %llu thread insts, %llu warp insts, %llu accesses; "
		       "%u chunks, %llu bytes\n",
		       name, p->kernel, (unsigned long long)p->ptx_hash, L->grid.x, L->grid.y, L->grid.z,
		       L->block.x, L->block.y, L->block.z, L->dyn_shared, p->ninsts, p->nblocks,
		       (unsigned long long)L->thread_insts, (unsigned long long)L->warp_insts,
		       (unsigned long long)L->mem_accesses, L->nchunks, (unsigned long long)L->chunk_bytes);
	}
}

int weft_cmd_info(int argc, char **argv)
{
	static const struct weft_opt opts[] = {
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		{ "decode", 0, WEFT_OPT_FLAG, 'd' },
		{ "threads", 0, WEFT_OPT_ARG, 't' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	int json = 0, rc;
	struct decode D = { 0, 1, 0, 0, 0, 0, 0, 0 };
	int decode = 0;
	const char *path = NULL;
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int c; (c = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (c) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, c, info_usage);
		case WEFT_OPT_OPERAND:
			if ((rc = weft_cli_trace_operand(p.arg, &path)))
				return rc;
			break;
		case 'f':
			if (strcmp(p.arg, "json") == 0)
				json = 1;
			else if (strcmp(p.arg, "text") == 0)
				json = 0;
			else {
				return weft_cli_usage("bad --format `%.400s` (text or json)", p.arg);
			}
			break;
		case 'd':
			decode = 1;
			break;
		case 't': {
			char *end;
			long v = strtol(p.arg, &end, 10);
			if (!*p.arg || *end || v < 0 || v > 1024) {
				return weft_cli_usage("bad --threads `%.400s` (0..1024)", p.arg);
			}
			D.threads = (unsigned)v;
			break;
		}
		}
	}
	struct weft_trace *t;
	if ((rc = weft_cli_trace_given(path)) || (rc = weft_cli_trace_open(path, &t)))
		return rc;
	struct weft_error err;
	if (decode && (rc = run_decode(t, &D, &err))) {
		weft_trace_close(t);
		return weft_cli_fail(&err);
	}
	if (json)
		print_json(path, t, &D);
	else
		print_text(path, t, &D);
	weft_trace_close(t);
	return 0;
}
