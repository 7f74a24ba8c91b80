/*
 * cmd_verify.c - `weft-trace verify FILE`: checks every byte of a trace
 * (weft_trace_verify: record CRCs, structure, index, every CTA decodes and
 * adds up to the recorded totals). Exit 0 with a one-line OK summary, 1
 * when the file is corrupt or truncated (the message names the byte
 * offset), 2 for usage errors, a missing file or one that is not a trace.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "trace/format/trace.h"

static const char verify_usage[] =
	"usage: weft-trace verify FILE.wtr\n"
	"\n"
	"Checks a trace completely: the header and version, every record's CRC-32\n"
	"and length, the index and footer, the static programs, and that every CTA\n"
	"decodes and adds up to the recorded instruction and access counts.\n"
	"Prints one OK line, or names the byte offset of the first problem (a\n"
	"truncated file, e.g. from an interrupted write, always fails).\n"
	"\n"
	"Options:\n"
	"  -h, --help   show this help\n"
	"  --version    print \"weft-trace VERSION\"\n"
	"\n"
	"Exit status: 0 the trace is intact, 1 it is corrupt or truncated, 2 bad\n"
	"usage or input (a missing file, a directory, a file that is not a weft\n"
	"trace), 3 internal error (docs/cli.md).\n";

int weft_cmd_verify(int argc, char **argv)
{
	static const struct weft_opt opts[] = { WEFT_OPT_HELP_VERSION, { 0 } };
	const char *path = NULL;
	int rc;
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int c; (c = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (c) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, c, verify_usage);
		default:
			if ((rc = weft_cli_trace_operand(p.arg, &path)))
				return rc;
		}
	}
	if ((rc = weft_cli_trace_given(path)))
		return rc;
	struct weft_error err;
	rc = weft_trace_verify(path, &err);
	if (rc)
		return weft_cli_fail_check(&err);
	struct weft_trace *t;
	if (weft_trace_open(path, &t, &err))
		return weft_cli_fail_check(&err);
	const struct weft_trace_info *I = weft_trace_info(t);
	uint32_t chunks = 0, ctas = 0;
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		chunks += weft_trace_launch(t, l)->nchunks;
		ctas += weft_trace_launch(t, l)->nctas;
	}
	printf("%s: OK (version %u, %u launches, %u CTAs in %u chunks, %llu thread insts, %llu bytes)\n",
	       path, I->version, I->nlaunches, ctas, chunks, (unsigned long long)I->thread_insts,
	       (unsigned long long)I->file_bytes);
	weft_trace_close(t);
	return 0;
}
