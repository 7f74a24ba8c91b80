/*
 * fuzz_fatbin.c - libFuzzer target: nvcc's fatbinary (trace/fatbin/fatbin.h),
 * as weft's CUDA runtime reads it from a program (trace/cudart/rt_module.c).
 *
 * The input is the bytes a fatbinary wrapper points at, to the end of the
 * loaded segment (the runtime passes exactly that much as readable). The
 * harness copies them into a buffer of exactly that size (so ASan catches
 * any read past the end), parses them (weft_fatbin_parse), checks that
 * every entry lies inside, picks the PTX for compute capability 9.0 as the
 * runtime does, and extracts the text of every PTX entry (copied, or
 * zstd-decompressed), checking it is NUL-terminated at its length; the
 * first PTX text of at most 64 KiB is then parsed as a module
 * (weft_ptx_parse), as the runtime loads it. Seeds are the .nv_fatbin
 * sections of the corpus programs (tests/cuda/bin/), compressed as nvcc
 * 13.0 leaves them (zstd) and not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fatbin/fatbin.h"
#include "trace/ptx/ptx.h"

static int verbose; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose)
		fprintf(stderr, "fuzz_fatbin: %s: %s\n", step, rc ? err->message : "ok");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct weft_fatbin f;
	struct weft_error err;
	int rc = weft_fatbin_parse(buf, size, &f, &err);
	say("parse", rc, &err);
	if (rc) {
		free(buf);
		return 0;
	}
	if (f.bytes > size)
		abort(); /* the fatbinary lies inside what was readable */
	for (uint32_t i = 0; i < f.nentries; i++) {
		const struct weft_fatbin_entry *e = &f.entries[i];
		if (e->offset > f.bytes || e->stored > f.bytes - e->offset)
			abort(); /* every payload lies inside the fatbinary */
	}
	rc = weft_fatbin_pick_ptx(&f, 90, &err);
	say("pick", rc < 0, &err);
	int parsed = 0;
	for (uint32_t i = 0; i < f.nentries; i++) {
		if (f.entries[i].kind != WEFT_FATBIN_KIND_PTX)
			continue;
		char *text;
		size_t len;
		rc = weft_fatbin_ptx_text(buf, &f, i, &text, &len, &err);
		say("text", rc, &err);
		if (rc)
			continue;
		if (text[len] != 0 || strlen(text) != len)
			abort(); /* the text ends at its length */
		if (!parsed && len <= 65536) {
			struct weft_ptx_module *m = NULL;
			parsed = 1;
			rc = weft_ptx_parse(text, len, "fuzz_fatbin.ptx", &m, &err);
			say("ptx", rc, &err);
			weft_ptx_module_free(m);
		}
		free(text);
	}
	weft_fatbin_free(&f);
	free(buf);
	return 0;
}
