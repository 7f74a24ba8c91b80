/*
 * fuzz_spec.c - libFuzzer target: launch specs (trace/launch/spec.h), as
 * `weft-trace run --spec` reads them.
 *
 * The input is a spec file's text. The harness parses it
 * (weft_spec_parse, which also checks that `init = file` inputs exist with
 * the right size) as if it were tests/fixtures/spec/fuzz.ini, so that from
 * the repository root (where make runs it) the fixture's saxpy-y.expected.bin
 * is there to be found, and, when it parses, checks every launch's [args]
 * and its [symbol] sections against a fixed PTX module holding kernels
 * named as the seeds' (saxpy, tiny, pipeline.ini's blur, count and
 * accumulate), one with parameters of every kind, and module variables
 * (weft_spec_check_args), and joins every output path. It does not run the kernel: running writes the spec's
 * output files, which a fuzzer must not do (fuzz_ptx runs kernels).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/launch/spec.h"

static const char kernels_ptx[] =
	".version 7.5\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n"
	"{\n\tret;\n}\n"
	".visible .entry tiny(.param .u64 v, .param .u32 n)\n"
	"{\n\tret;\n}\n"
	".visible .entry mixed(.param .u8 a, .param .s16 b, .param .b32 c, .param .f64 d,\n"
	"\t.param .b64 e, .param .align 4 .b8 f[12], .param .s64 g, .param .f32 h)\n"
	"{\n\tret;\n}\n"
	".func helper()\n"
	"{\n\tret;\n}\n"
	/* what pipeline.ini (tests/fixtures/spec/) names: module variables, a
	 * struct parameter, a texture handle */
	".const .align 4 .b8 weights[12];\n"
	".global .align 8 .u64 histogram;\n"
	".shared .align 4 .b8 tile[64];\n"
	".visible .entry blur(.param .align 8 .b8 blur_param_0[24])\n"
	"{\n\tret;\n}\n"
	".visible .entry count(.param .u64 v, .param .u32 n)\n"
	"{\n\tret;\n}\n"
	".visible .entry accumulate(.param .u64 t, .param .u64 out, .param .u32 n)\n"
	"{\n\tret;\n}\n";

static struct weft_ptx_module *kernels;
static int verbose; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose)
		fprintf(stderr, "fuzz_spec: %s: %s\n", step, rc ? err->message : "ok");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	struct weft_error err;
	if (weft_ptx_parse(kernels_ptx, sizeof(kernels_ptx) - 1, "fuzz_spec.ptx", &kernels, &err))
		abort(); /* the embedded module must parse */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct weft_spec *spec;
	struct weft_error err;
	int rc = weft_spec_parse((const char *)data, size, "tests/fixtures/spec/fuzz.ini", &spec, &err);
	say("parse", rc, &err);
	if (rc)
		return 0;
	rc = weft_spec_check_args(spec, kernels, &err);
	say("check_args", rc, &err);
	char path[4096];
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		if (b->type >= WEFT_SPEC_TYPE_COUNT || !weft_spec_type_size(b->type))
			abort(); /* a parsed buffer has a valid type */
		(void)weft_spec_output_path(spec, b, NULL, path, sizeof(path));
		(void)weft_spec_output_path(spec, b, "out", path, sizeof(path));
	}
	for (uint32_t l = 0; l < spec->nlaunches; l++)
		for (uint32_t i = 0; i < spec->launches[l].nargs; i++) {
			const struct weft_spec_arg *a = &spec->launches[l].args[i];
			if (a->buffer >= (int32_t)spec->nbuffers || a->value.size > WEFT_SPEC_MAX_VALUE_BYTES)
				abort(); /* an argument names a buffer that exists, and is bounded */
			for (uint32_t r = 0; r < a->value.nrefs; r++)
				if (a->value.refs[r].offset + 8 > a->value.size)
					abort(); /* a reference lies inside its value */
		}
	if (spec->total_launches > WEFT_SPEC_MAX_LAUNCHES)
		abort();
	weft_spec_free(spec);
	return 0;
}
