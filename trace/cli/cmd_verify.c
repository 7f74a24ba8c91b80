/*
 * cmd_verify.c - `weft-trace verify FILE`: checks every byte of a trace
 * (weft_trace_verify: record CRCs, structure, index, every CTA decodes and
 * adds up to the recorded totals). Exit 0 with a one-line OK summary, 1
 * when the file is corrupt or truncated (the message names the byte
 * offset), 2 for usage errors or a missing file.
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
	"Prints one OK line and exits 0, or names the byte offset of the first\n"
	"problem and exits 1 (a truncated file, e.g. from an interrupted write,\n"
	"always fails).\n";

int weft_cmd_verify(int argc, char **argv)
{
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(verify_usage, stdout);
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "weft-trace verify: unknown option `%s`; see `weft-trace verify --help`\n",
				argv[i]);
			return 2;
		}
		if (path) {
			fprintf(stderr, "weft-trace verify: give exactly one FILE.wtr (`%s`)\n", argv[i]);
			return 2;
		}
		path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "weft-trace verify: which trace? give one FILE.wtr; see `weft-trace verify --help`\n");
		return 2;
	}
	struct weft_error err;
	int rc = weft_trace_verify(path, &err);
	if (rc)
		return weft_cli_error("verify", &err);
	struct weft_trace *t;
	if ((rc = weft_cli_trace_open("verify", path, &t)))
		return rc;
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
