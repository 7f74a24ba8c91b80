/*
 * test_spec.c - launch spec parsing and its errors: every error names the
 * spec file and line. The argument checks run against a hand-built PTX
 * module shaped like nvcc's saxpy (u32 n, f32 a, u64 x, u64 y), so this test
 * does not depend on the PTX parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "trace/launch/spec.h"

static const char good[] =
	"; saxpy\n"
	"[kernel]\n"
	"ptx = saxpy.ptx\n"
	"name = saxpy\n"
	"grid = 4\n"
	"block = 256,1,1\n"
	"shared = 16\n"
	"\n"
	"[buffer x]\n"
	"type = f32\n"
	"count = 1000\n"
	"init = random\n"
	"seed = 7\n"
	"min = -1\n"
	"max = 1\n"
	"[buffer y]\n"
	"type = f32\n"
	"count = 1000\n"
	"init = ramp\n"
	"start = 0.5\n"
	"step = 0.25\n"
	"output = y.bin\n"
	"[args]\n"
	"n = u32:1000\n"
	"a = f32:2.5\n"
	"x = buffer:x\n"
	"y = buffer:y\n";

/* Replaces the first occurrence of `from` in good[] by `to`. */
static const char *variant(const char *from, const char *to)
{
	static char buf[4096];
	const char *at = strstr(good, from);
	assert_non_null(at);
	size_t pre = (size_t)(at - good);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)pre, good, to, at + strlen(from));
	return buf;
}

static int parse(const char *text, struct weft_spec **spec, struct weft_error *err)
{
	return weft_spec_parse(text, strlen(text), "dir/t.ini", spec, err);
}

/* Parses text expecting failure at line with message containing phrase. */
static void expect_error(const char *text, uint32_t line, const char *phrase)
{
	struct weft_spec *spec = NULL;
	struct weft_error err;
	int rc = parse(text, &spec, &err);
	if (rc == 0 || !strstr(err.message, phrase) || err.line != line)
		print_error("got rc %d line %u: %s (want line %u, `%s`)\n", rc, err.line,
			    err.message, line, phrase);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_null(spec);
	assert_string_equal(err.file, "dir/t.ini");
	assert_int_equal(err.line, line);
	assert_non_null(strstr(err.message, phrase));
}

static void test_good(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	assert_int_equal(parse(good, &spec, &err), 0);
	assert_string_equal(spec->ptx, "dir/saxpy.ptx");
	assert_string_equal(spec->kernel, "saxpy");
	assert_int_equal(spec->grid.x, 4);
	assert_int_equal(spec->grid.y, 1);
	assert_int_equal(spec->block.x, 256);
	assert_int_equal(spec->shared, 16);
	assert_int_equal(spec->nbuffers, 2);
	assert_string_equal(spec->buffers[0].name, "x");
	assert_int_equal(spec->buffers[0].init, WEFT_SPEC_INIT_RANDOM);
	assert_int_equal(spec->buffers[0].seed, 7);
	assert_true(spec->buffers[0].min.f == -1.0 && spec->buffers[0].max.f == 1.0);
	assert_int_equal(spec->buffers[1].count, 1000);
	assert_true(spec->buffers[1].start.f == 0.5 && spec->buffers[1].step.f == 0.25);
	assert_string_equal(spec->buffers[1].output, "y.bin");
	assert_int_equal(spec->nargs, 4);
	assert_int_equal(spec->args[0].buffer, -1);
	assert_int_equal(spec->args[0].type, WEFT_SPEC_U32);
	uint32_t n;
	memcpy(&n, spec->args[0].bytes, 4);
	assert_int_equal(n, 1000);
	float a;
	memcpy(&a, spec->args[1].bytes, 4);
	assert_true(a == 2.5f);
	assert_int_equal(spec->args[2].buffer, 0);
	assert_int_equal(spec->args[3].buffer, 1);
	assert_int_equal(spec->args[3].line, 27);
	char path[256];
	assert_string_equal(weft_spec_output_path(spec, &spec->buffers[1], NULL, path, sizeof(path)),
			    "dir/y.bin");
	assert_string_equal(weft_spec_output_path(spec, &spec->buffers[1], "/tmp/o", path,
						  sizeof(path)),
			    "/tmp/o/y.bin");
	weft_spec_free(spec);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_error(variant("shared = 16", "shard = 16"), 7, "unknown key `shard`");
	expect_error(variant("seed = 7", "sed = 7"), 13, "unknown key `sed`");
	expect_error(variant("[args]", "[argz]"), 23, "unknown section [argz]");
	expect_error(variant("[buffer y]", "[buffer x]"), 16, "repeats line 9");
	expect_error(variant("grid = 4", "grid = 4\ngrid = 5"), 6, "set twice");
	expect_error(variant("block = 256,1,1", "block = 256,,x"), 6, "bad block");
	expect_error(variant("count = 1000", "count = 10OO"), 11, "bad count `10OO`");
	expect_error(variant("count = 1000", "count = -5"), 11, "bad count");
	expect_error(variant("max = 1", "max = one"), 15, "bad max `one`");
	expect_error(variant("n = u32:1000", "n = u32:1e3"), 24, "bad u32 value `1e3`");
	expect_error(variant("n = u32:1000", "n = u32:-1"), 24, "unsigned");
	expect_error(variant("n = u32:1000", "n = s8:300"), 24, "out of range");
	expect_error(variant("n = u32:1000", "n = i32:1000"), 24, "unknown type `i32`");
	expect_error(variant("n = u32:1000", "n = 1000"), 24, "want buffer:NAME or TYPE:VALUE");
	expect_error(variant("x = buffer:x", "x = buffer:z"), 26, "no [buffer z]");
	expect_error(variant("x = buffer:x", "x = u64:0"), 9, "[buffer x] is not passed");
	expect_error(variant("type = f32", "type = float"), 10, "unknown type `float`");
	expect_error(variant("init = random", "init = rand"), 12, "unknown init `rand`");
	expect_error(variant("start = 0.5", "seed = 3"), 20, "only applies to init = random");
	expect_error(variant("init = ramp\nstart = 0.5\nstep = 0.25", "init = file\nfile = nope.bin"),
		     20, "cannot read init file dir/nope.bin");
	expect_error(variant("name = saxpy\n", ""), 2, "needs `name = KERNEL`");
	expect_error(variant("[kernel]\n", ""), 2, "outside any section");
	expect_error(variant("ptx = saxpy.ptx", "ptx saxpy.ptx"), 3, "not an INI line");
	expect_error(variant("[args]", "[args"), 23, "not an INI line");
	expect_error(variant("block = 256,1,1", "block = 64,32"), 6, "more than 1024 threads");
	expect_error(variant("output = y.bin", "rel_tol = 1e-6"), 22, "only applies with `expect = FILE`");
	expect_error(variant("output = y.bin", "expect = nope.bin"), 22, "cannot read expect file dir/nope.bin");
	char longline[400];
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "; ", 2);
	longline[sizeof(longline) - 1] = 0;
	expect_error(variant("; saxpy", longline), 1, "line is too long");
}

/* Needs the working directory to be the repository root (as `make unit`). */
static void test_fixture_files(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	const char *ini = "tests/fixtures/spec/saxpy.ini";
	assert_int_equal(weft_spec_load(ini, &spec, &err), 0);
	assert_string_equal(spec->ptx, "tests/fixtures/spec/saxpy.ptx");
	assert_string_equal(spec->buffers[1].expect, "tests/fixtures/spec/saxpy-y.expected.bin");
	assert_true(spec->buffers[1].rel_tol == 0 && spec->buffers[1].abs_tol == 0);
	weft_spec_free(spec);

	static const char bad_count[] =
		"[kernel]\nptx = saxpy.ptx\nname = saxpy\ngrid = 4\nblock = 256\n"
		"[buffer y]\ntype = f32\ncount = 999\nexpect = saxpy-y.expected.bin\n"
		"[args]\ny = buffer:y\n";
	assert_int_equal(weft_spec_parse(bad_count, strlen(bad_count), "tests/fixtures/spec/t.ini",
					 &spec, &err),
			 WEFT_ERR_INPUT);
	assert_int_equal(err.line, 9);
	assert_non_null(strstr(err.message, "has 4000 bytes but 999 f32 elements need 3996"));

	static const char int_tol[] =
		"[kernel]\nptx = saxpy.ptx\nname = saxpy\ngrid = 4\nblock = 256\n"
		"[buffer y]\ntype = u32\ncount = 1000\nexpect = saxpy-y.expected.bin\nabs_tol = 1\n"
		"[args]\ny = buffer:y\n";
	assert_int_equal(weft_spec_parse(int_tol, strlen(int_tol), "tests/fixtures/spec/t.ini",
					 &spec, &err),
			 WEFT_ERR_INPUT);
	assert_int_equal(err.line, 10);
	assert_non_null(strstr(err.message, "integers compare exactly"));

	/* init = file without count takes the count from the file size */
	static const char from_file[] =
		"[kernel]\nptx = saxpy.ptx\nname = saxpy\ngrid = 4\nblock = 256\n"
		"[buffer y]\ntype = f64\ninit = file\nfile = saxpy-y.expected.bin\n"
		"[args]\ny = buffer:y\n";
	assert_int_equal(weft_spec_parse(from_file, strlen(from_file), "tests/fixtures/spec/t.ini",
					 &spec, &err),
			 0);
	assert_int_equal(spec->buffers[0].count, 500);
	weft_spec_free(spec);
}

/* Parses text expecting failure at line with exactly this message. */
static void expect_message(const char *text, uint32_t line, const char *message)
{
	struct weft_spec *spec = NULL;
	struct weft_error err;
	int rc = parse(text, &spec, &err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_null(spec);
	assert_int_equal(err.line, line);
	assert_string_equal(err.message, message);
}

/* A word that is not a valid one names the closest valid ones, as config
 * keys do ("; did you mean X?"), and nothing when none is close. */
static void test_did_you_mean(void **state)
{
	(void)state;
	expect_message(variant("shared = 16", "shard = 16"), 7,
		       "unknown key `shard` in [kernel] (keys: ptx, name, grid, block, shared, max_insts); "
		       "did you mean `shared`?");
	expect_message(variant("grid = 4", "gird = 4"), 5,
		       "unknown key `gird` in [kernel] (keys: ptx, name, grid, block, shared, max_insts); "
		       "did you mean `grid`?");
	expect_message(variant("seed = 7", "sed = 7"), 13,
		       "unknown key `sed` in [buffer] (keys: type, count, init, start, step, seed, min, "
		       "max, file, values, output, expect, rel_tol, abs_tol, pad_before, pad_after); "
		       "did you mean `seed`?");
	expect_message(variant("seed = 7", "colour = 7"), 13,
		       "unknown key `colour` in [buffer] (keys: type, count, init, start, step, seed, "
		       "min, max, file, values, output, expect, rel_tol, abs_tol, pad_before, pad_after)");
	expect_message(variant("[args]", "[argz]"), 23,
		       "unknown section [argz]; sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], [surface NAME], "
		       "[launch NAME] and [args] (or [args NAME]); did you mean [args]?");
	expect_message(variant("[buffer y]", "[bufer y]"), 16,
		       "unknown section [bufer y]; sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], [surface NAME], "
		       "[launch NAME] and [args] (or [args NAME]); did you mean [buffer y]?");
	expect_message(variant("[kernel]", "[kernal]"), 2,
		       "unknown section [kernal]; sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], [surface NAME], "
		       "[launch NAME] and [args] (or [args NAME]); did you mean [kernel]?");
	expect_message(variant("[args]", "[results]"), 23,
		       "unknown section [results]; sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], [surface NAME], "
		       "[launch NAME] and [args] (or [args NAME])");
	expect_message(variant("type = f32", "type = f23"), 10,
		       "unknown type `f23` (types: u8, s8, u16, s16, u32, s32, u64, s64, f32, f64); "
		       "did you mean `f32`?");
	expect_message(variant("type = f32", "type = float"), 10,
		       "unknown type `float` (types: u8, s8, u16, s16, u32, s32, u64, s64, f32, f64)");
	/* a prefix counts as one edit: `random` (1) before `ramp` (2) */
	expect_message(variant("init = random", "init = rand"), 12,
		       "unknown init `rand` (zero, ramp, random, file or values); did you mean `random`?");
	expect_message(variant("init = random", "init = fiel"), 12,
		       "unknown init `fiel` (zero, ramp, random, file or values); did you mean `file`?");
	/* equally close: all named */
	expect_message(variant("n = u32:1000", "n = i32:1000"), 24,
		       "argument `n`: unknown type `i32` (buffer, texture, surface, symbol, bytes, struct "
		       "or u8, s8, u16, s16, u32, s32, u64, s64, f32, f64); did you mean `u32`, `s32` or "
		       "`f32`?");
	expect_message(variant("x = buffer:x", "x = bufer:x"), 26,
		       "argument `x`: unknown type `bufer` (buffer, texture, surface, symbol, bytes, "
		       "struct or u8, s8, u16, s16, u32, s32, u64, s64, f32, f64); did you mean `buffer`?");
	expect_message(variant("x = buffer:x", "x = buffer:z"), 26,
		       "argument `x`: no [buffer z] in this spec; did you mean [buffer x] or [buffer y]?");
	expect_message(variant("x = buffer:x", "x = buffer:inputs"), 26,
		       "argument `x`: no [buffer inputs] in this spec");
}

static void test_indented_keys(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	/* No Python-style continuation lines: an indented key is a key. */
	assert_int_equal(parse(variant("grid = 4", "   grid = 4 ; CTAs"), &spec, &err), 0);
	assert_int_equal(spec->grid.x, 4);
	weft_spec_free(spec);
}

/* A module shaped like nvcc's saxpy.ptx. */
static struct weft_ptx_symbol syms[4] = {
	{ .name = "saxpy_param_0", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U32, .size = 4 },
	{ .name = "saxpy_param_1", .space = WEFT_SPACE_PARAM, .type = WEFT_T_F32, .size = 4 },
	{ .name = "saxpy_param_2", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U64, .size = 8 },
	{ .name = "saxpy_param_3", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U64, .size = 8 },
};
static struct weft_ptx_param params[4] = {
	{ .sym = 0, .type = WEFT_T_U32, .size = 4, .align = 4, .offset = 0 },
	{ .sym = 1, .type = WEFT_T_F32, .size = 4, .align = 4, .offset = 4 },
	{ .sym = 2, .type = WEFT_T_U64, .size = 8, .align = 8, .offset = 8 },
	{ .sym = 3, .type = WEFT_T_U64, .size = 8, .align = 8, .offset = 16 },
};
static struct weft_ptx_func funcs[1] = {
	{ .name = "saxpy", .is_entry = 1, .params = params, .nparams = 4, .param_bytes = 24 },
};
static struct weft_ptx_module mod = { .path = "saxpy.ptx", .funcs = funcs, .nfuncs = 1,
				      .syms = syms, .nsyms = 4, .address_size = 64 };

static void expect_arg_error(const char *text, uint32_t line, const char *phrase)
{
	struct weft_spec *spec;
	struct weft_error err;
	assert_int_equal(parse(text, &spec, &err), 0);
	int rc = weft_spec_check_args(spec, &mod, &err);
	if (rc == 0 || !strstr(err.message, phrase) || err.line != line)
		print_error("got rc %d line %u: %s (want line %u, `%s`)\n", rc, err.line,
			    err.message, line, phrase);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_string_equal(err.file, "dir/t.ini");
	assert_int_equal(err.line, line);
	assert_non_null(strstr(err.message, phrase));
	weft_spec_free(spec);
}

static void test_args_against_kernel(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	assert_int_equal(parse(good, &spec, &err), 0);
	assert_int_equal(weft_spec_check_args(spec, &mod, &err), 0);
	weft_spec_free(spec);

	/* wrong count: too few, too many */
	expect_arg_error(variant("n = u32:1000\n", ""), 26, "takes 4 parameters but [args] gives 3");
	expect_arg_error(variant("n = u32:1000\n", ""), 26, "saxpy_param_3");
	expect_arg_error(variant("y = buffer:y\n", "y = buffer:y\nz = u32:1\n"), 28,
			 "argument 5 `z` has no parameter");
	/* wrong type: width, float vs int, buffer to a scalar */
	expect_arg_error(variant("n = u32:1000", "n = u64:1000"), 24,
			 "argument 1 `n` is u64 (8 bytes) but parameter `saxpy_param_0` is .u32");
	expect_arg_error(variant("a = f32:2.5", "a = s32:2"), 25, "write f32:VALUE");
	expect_arg_error(variant("a = f32:2.5", "a = f64:2.5"), 25, "is .f32 (4 bytes)");
	expect_arg_error(variant("n = u32:1000\n", "n = buffer:x\n"), 24, "64-bit device pointer");
	/* a signed value for an unsigned parameter is fine (nvcc declares int .u32) */
	assert_int_equal(parse(variant("n = u32:1000", "n = s32:1000"), &spec, &err), 0);
	assert_int_equal(weft_spec_check_args(spec, &mod, &err), 0);
	weft_spec_free(spec);
	/* missing kernel */
	expect_arg_error(variant("name = saxpy", "name = saxpi"), 4,
			 "kernel `saxpi` is not defined in dir/saxpy.ptx (kernels there: saxpy)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_indented_keys),
		cmocka_unit_test(test_fixture_files),
		cmocka_unit_test(test_args_against_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
