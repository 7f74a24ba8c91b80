/*
 * fuzz_merge.c - libFuzzer target: weft-estimate shard parts
 * (estimate/shard.h), as `weft-estimate --merge PART...` reads them.
 *
 * The input is one to four parts' texts, separated by lines `%%`. The
 * harness adds each to one merge (weft_est_merge_add_text: JSON, the
 * part's shape, caps and checks, the run compared with the first part's,
 * repeated shards), finishes it (missing shards, the ratios), and formats
 * the merged report as a table, CSV (unless the run asked for --explain)
 * and JSON, reading every byte of each. The fuzz build passes every
 * checksum (-DWEFT_FUZZ_NO_CRC, tests/fuzz/README.md), so mutated parts
 * reach the checks behind it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/report.h"
#include "estimate/shard.h"

#define MAX_PARTS 4

static int verbose = -1; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose < 0)
		verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "fuzz_merge: %s: %s\n", step, rc ? err->message : "ok");
}

static void use_report(const struct weft_est_report *r)
{
	static const enum weft_format fmts[] = { WEFT_FMT_TABLE, WEFT_FMT_CSV, WEFT_FMT_JSON };
	for (size_t f = 0; f < 3; f++) {
		if (r->explain && fmts[f] == WEFT_FMT_CSV)
			continue;
		struct weft_sbuf b;
		struct weft_error err;
		weft_sbuf_init(&b);
		int rc = weft_est_report_format(r, fmts[f], &b, &err);
		say("format", rc, &err);
		if (rc == 0) {
			unsigned sum = 0;
			const char *s = weft_sbuf_str(&b);
			for (size_t i = 0; i < b.len; i++)
				sum += (unsigned char)s[i];
			if (strlen(s) != b.len)
				abort(); /* a report is text: no NUL inside */
			(void)sum;
		}
		weft_sbuf_free(&b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	const char *part[MAX_PARTS];
	size_t len[MAX_PARTS];
	uint32_t n = 0;
	const char *p = text, *end = text + size;
	while (n < MAX_PARTS) {
		const char *sep = NULL;
		for (const char *q = p; q + 2 <= end; q++)
			if ((q == text || q[-1] == '\n') && q[0] == '%' && q[1] == '%' &&
			    (q + 2 == end || q[2] == '\n')) {
				sep = q;
				break;
			}
		part[n] = p;
		len[n] = (size_t)((sep ? sep : end) - p);
		n++;
		if (!sep)
			break;
		p = sep + 2 < end ? sep + 3 : end;
	}

	struct weft_error err;
	struct weft_est_merge *m = NULL;
	if (weft_est_merge_new(&m, &err) == 0) {
		int rc = 0;
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			char name[16];
			snprintf(name, sizeof(name), "part%u", i);
			rc = weft_est_merge_add_text(m, name, part[i], len[i], &err);
			say("add", rc, &err);
		}
		struct weft_est_report rep;
		enum weft_format fmt;
		if (rc == 0) {
			rc = weft_est_merge_finish(m, &rep, &fmt, &err);
			say("finish", rc, &err);
			if (rc == 0) {
				if (fmt > WEFT_FMT_JSON || rep.nconfigs == 0 || rep.baseline >= rep.nconfigs)
					abort();
				use_report(&rep);
				weft_est_report_free(&rep);
			}
		}
		weft_est_merge_free(m);
	}
	free(text);
	return 0;
}
