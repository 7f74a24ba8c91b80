/*
 * test_spec_seq.c - what launch specs gained in issue 15: [symbol NAME],
 * [texture NAME] / [surface NAME], init = values with references,
 * buffer:NAME+OFFSET, padding, bytes: and struct: arguments, and
 * sequences of [launch NAME] / [args NAME] with repeat counts. A good spec
 * parses into the expected fields; every bad input is an error at its
 * line (exit status 2 in weft-trace) naming what is wrong; the checks
 * against the kernel use a hand-built module shaped like
 * tests/fixtures/spec/pipeline.ptx. Runs are tested by tests/cli/run.sh.
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
	"[kernel]\n"                        /* 1 */
	"ptx = p.ptx\n"
	"[buffer src]\n"
	"type = s32\n"
	"count = 256\n"                     /* 5 */
	"init = ramp\n"
	"pad_before = 4\n"
	"pad_after = 8\n"
	"[buffer dst]\n"
	"type = s32\n"                      /* 10 */
	"count = 256\n"
	"[buffer hist]\n"
	"type = u32\n"
	"count = 8\n"
	"[buffer ptrs]\n"                   /* 15 */
	"type = u64\n"
	"init = values\n"
	"values = buffer:hist, texture:tex, surface:surf, symbol:weights+4, 7\n"
	"[symbol weights]\n"
	"type = s32\n"                      /* 20 */
	"init = values\n"
	"values = 1, 2, 1\n"
	"[symbol histogram]\n"
	"type = u64\n"
	"init = values\n"                   /* 25 */
	"values = buffer:hist\n"
	"[texture tex]\n"
	"buffer = src\n"
	"format = s32\n"
	"width = 256\n"                     /* 30 */
	"[surface surf]\n"
	"buffer = dst\n"
	"format = f32x2\n"
	"width = 8\n"
	"height = 4\n"                      /* 35 */
	"pitch = 256\n"
	"[launch blur]\n"
	"kernel = blur\n"
	"grid = 2\n"
	"block = 128\n"                     /* 40 */
	"[args blur]\n"
	"a = struct:{buffer:src, buffer:dst, u32:256, s32:3}\n"
	"[launch count]\n"
	"kernel = count\n"
	"grid = 1\n"                        /* 45 */
	"block = 256\n"
	"[args count]\n"
	"v = buffer:dst+4\n"
	"n = u32:255\n"
	"[launch acc]\n"                    /* 50 */
	"kernel = accumulate\n"
	"grid = 2\n"
	"block = 128\n"
	"repeat = 3\n"
	"max_insts = 1e6\n"                 /* 55 */
	"[args acc]\n"
	"t = texture:tex\n"
	"out = buffer:ptrs\n"
	"n = bytes:00 01 00 00\n";

/* Replaces the first occurrence of `from` in good[] by `to`. */
static const char *variant(const char *from, const char *to)
{
	static char buf[8192];
	const char *at = strstr(good, from);
	if (!at)
		fail_msg("`%s` not in the good spec", from);
	size_t pre = (size_t)(at - good);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)pre, good, to, at + strlen(from));
	return buf;
}

static int parse(const char *text, struct weft_spec **spec, struct weft_error *err)
{
	return weft_spec_parse(text, strlen(text), "dir/s.ini", spec, err);
}

static void expect_error(const char *text, uint32_t line, const char *phrase)
{
	struct weft_spec *spec = NULL;
	struct weft_error err;
	int rc = parse(text, &spec, &err);
	if (rc != WEFT_ERR_INPUT || !strstr(err.message, phrase) || err.line != line)
		fail_msg("got rc %d line %u: %s (want line %u, `%s`)", rc, err.line, rc ? err.message : "",
			 line, phrase);
	assert_null(spec);
	assert_string_equal(err.file, "dir/s.ini");
}

static void test_good(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	if (parse(good, &spec, &err))
		fail_msg("%u: %s", err.line, err.message);
	assert_true(spec->sequence);
	assert_string_equal(spec->ptx, "dir/p.ptx");
	assert_int_equal(spec->nlaunches, 3);
	assert_int_equal(spec->total_launches, 5);
	assert_string_equal(spec->launches[0].name, "blur");
	assert_string_equal(spec->kernel, "blur"); /* the first launch, under the old names */
	assert_int_equal(spec->grid.x, 2);
	assert_int_equal(spec->launches[2].repeat, 3);
	assert_int_equal(spec->launches[2].max_insts, 1000000);
	/* buffers: padding, values with references */
	assert_int_equal(spec->nbuffers, 4);
	assert_int_equal(spec->buffers[0].pad_before, 4);
	assert_int_equal(spec->buffers[0].pad_after, 8);
	const struct weft_spec_buffer *p = &spec->buffers[3];
	assert_int_equal(p->init, WEFT_SPEC_INIT_VALUES);
	assert_int_equal(p->count, 5);
	assert_int_equal(p->values.size, 40);
	assert_int_equal(p->values.nrefs, 4);
	assert_int_equal(p->values.refs[0].kind, WEFT_SPEC_REF_BUFFER);
	assert_int_equal(p->values.refs[0].index, 2);
	assert_int_equal(p->values.refs[1].kind, WEFT_SPEC_REF_TEXTURE);
	assert_int_equal(p->values.refs[1].index, 0);
	assert_int_equal(p->values.refs[2].kind, WEFT_SPEC_REF_SURFACE);
	assert_int_equal(p->values.refs[2].index, 1);
	assert_int_equal(p->values.refs[3].kind, WEFT_SPEC_REF_SYMBOL);
	assert_string_equal(p->values.refs[3].name, "weights");
	assert_int_equal(p->values.refs[3].addend, 4);
	assert_int_equal(p->values.refs[3].offset, 24);
	uint64_t seven;
	memcpy(&seven, p->values.bytes + 32, 8);
	assert_int_equal(seven, 7);
	/* symbols */
	assert_int_equal(spec->nsymbols, 2);
	assert_string_equal(spec->symbols[0].name, "weights");
	assert_int_equal(spec->symbols[0].count, 3);
	int32_t w[3];
	memcpy(w, spec->symbols[0].values.bytes, 12);
	assert_int_equal(w[1], 2);
	/* textures */
	assert_int_equal(spec->ntextures, 2);
	const struct weft_spec_texture *t = &spec->textures[0];
	assert_false(t->surface);
	assert_int_equal(t->buffer, 0);
	assert_int_equal(t->res.kind, WEFT_CHANNEL_SIGNED);
	assert_int_equal(t->res.bits, 32);
	assert_int_equal(t->res.channels, 1);
	assert_int_equal(t->res.width, 256);
	assert_int_equal(t->desc.address[0], WEFT_ADDRESS_CLAMP);
	t = &spec->textures[1];
	assert_true(t->surface);
	assert_int_equal(t->res.channels, 2);
	assert_int_equal(t->res.pitch, 256);
	/* arguments: a struct laid out as C does, an offset pointer, bytes */
	const struct weft_spec_arg *a = &spec->launches[0].args[0];
	assert_int_equal(a->kind, WEFT_SPEC_ARG_STRUCT);
	assert_int_equal(a->value.size, 24);
	assert_int_equal(a->value.align, 8);
	assert_int_equal(a->value.nrefs, 2);
	assert_int_equal(a->value.refs[1].offset, 8);
	uint32_t n;
	int32_t scale;
	memcpy(&n, a->value.bytes + 16, 4);
	memcpy(&scale, a->value.bytes + 20, 4);
	assert_int_equal(n, 256);
	assert_int_equal(scale, 3);
	a = &spec->launches[1].args[0];
	assert_int_equal(a->kind, WEFT_SPEC_ARG_BUFFER);
	assert_int_equal(a->buffer, -1); /* with an offset: not the plain buffer */
	assert_int_equal(a->value.refs[0].addend, 4);
	a = &spec->launches[2].args[0];
	assert_int_equal(a->kind, WEFT_SPEC_ARG_TEXTURE);
	a = &spec->launches[2].args[2];
	assert_int_equal(a->kind, WEFT_SPEC_ARG_BYTES);
	assert_int_equal(a->value.size, 4);
	assert_int_equal(a->value.bytes[1], 1);
	weft_spec_free(spec);

	/* a struct's size rounds up to its largest member: {u8, u32, u8} = 12 */
	assert_int_equal(parse(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}",
				       "a = struct:{u8:1, u32:2, u8:3, pad:2}\nb = buffer:src\nc = buffer:dst"),
			       &spec, &err),
			 0);
	a = &spec->launches[0].args[0];
	assert_int_equal(a->value.size, 12);
	assert_int_equal(a->value.bytes[8], 3);
	weft_spec_free(spec);
	/* negative offsets reach into the padding; a name with '-' is a name */
	assert_int_equal(parse(variant("v = buffer:dst+4", "v = buffer:src-4"), &spec, &err), 0);
	assert_int_equal(spec->launches[1].args[0].value.refs[0].addend, -4);
	weft_spec_free(spec);
	/* a buffer only a texture uses is used */
	assert_int_equal(parse(variant("a = struct:{buffer:src,", "a = struct:{buffer:dst,"), &spec, &err), 0);
	weft_spec_free(spec);
	assert_int_equal(parse(variant("[buffer dst]", "[buffer d-1]"), &spec, &err), WEFT_ERR_INPUT);
	const char *dash = "[kernel]\nptx = p.ptx\nname = k\ngrid = 1\nblock = 1\n[buffer a-1]\ntype = u8\ncount = 1\n"
			   "[args]\nx = buffer:a-1\n";
	assert_int_equal(parse(dash, &spec, &err), 0);
	assert_int_equal(spec->args[0].buffer, 0);
	weft_spec_free(spec);
}

static void test_errors(void **state)
{
	(void)state;
	/* sections and the sequence */
	expect_error(variant("[symbol weights]", "[symbol]"), 19, "[symbol] needs a name");
	expect_error(variant("[surface surf]", "[surface tex]"), 31, "section [surface tex] repeats line 27");
	expect_error(variant("ptx = p.ptx\n", "ptx = p.ptx\ngrid = 4\n"), 3,
		     "`grid` belongs in the [launch NAME] sections");
	expect_error(variant("[args count]", "[args cnt]"), 47, "[args cnt] has no [launch cnt]");
	expect_error(variant("[args count]", "[args cnt]"), 47, "did you mean [launch count]?");
	expect_error(variant("[args acc]", "[args]"), 56, "gives each launch's arguments in [args NAME]");
	expect_error(variant("[args blur]\na = struct:{buffer:src, buffer:dst, u32:256, s32:3}\n", ""), 37,
		     "[launch blur] needs an [args blur] section");
	expect_error(variant("repeat = 3", "repeat = 0"), 54, "bad repeat `0`");
	expect_error(variant("repeat = 3", "repeat = 2e6"), 54, "bad repeat `2e6`");
	expect_error(variant("repeat = 3", "repeat = 999999"), 54, "more than 1000000 launches");
	expect_error(variant("kernel = count\n", ""), 43, "[launch count] needs `kernel = KERNEL`");
	expect_error(variant("block = 256\n[args count]", "block = 2048\n[args count]"), 46,
		     "exceeds CUDA's block dimensions");
	expect_error(variant("grid = 1\n", "gird = 1\n"), 45, "unknown key `gird` in [launch]");
	/* buffers: padding, values */
	expect_error(variant("pad_before = 4", "pad_before = -4"), 7, "bad pad_before `-4`");
	expect_error(variant("pad_after = 8", "pad_after = 2147483648"), 8, "at most 1073741824");
	expect_error(variant("v = buffer:dst+4", "v = buffer:dst+1025"), 48,
		     "offset 1025 points outside [buffer dst] (1024 bytes, 0 of padding before and 0 after)");
	expect_error(variant("v = buffer:dst+4", "v = buffer:src-8"), 48, "offset -8 points outside [buffer src]");
	expect_error(variant("v = buffer:dst+4", "v = buffer:dst+four"), 48, "bad offset in `buffer:dst+four`");
	expect_error(variant("v = buffer:dst+4", "v = buffer:dest"), 48, "no [buffer dest] in this spec; did you mean [buffer dst]?");
	expect_error(variant("values = 1, 2, 1", "values = 1, x, 1"), 22, "bad s32 value 2 `x`");
	expect_error(variant("values = 1, 2, 1", "values = 1, buffer:src"), 22,
		     "references (buffer:NAME ...) need a 64-bit integer type");
	expect_error(variant("values = 1, 2, 1", "values = 1, 2, 1\ncount = 4"), 23, "count = 4 but `values` lists 3");
	expect_error(variant("values = 1, 2, 1", "values ="), 22, "empty list");
	expect_error(variant("init = ramp", "init = ramp\nvalues = 1"), 7, "`values` only applies to init = values");
	expect_error(variant("values = 1, 2, 1", "start = 1"), 22, "`start` only applies to init = ramp");
	expect_error(variant("[symbol histogram]\ntype = u64\ninit = values\nvalues = buffer:hist\n",
			     "[symbol histogram]\ntype = u64\ninit = values\n"),
		     25, "init = values needs `values = V1, V2, ...`");
	expect_error(variant("values = buffer:hist, texture:tex", "values = buffer:hist, texture:tx"), 18,
		     "no [texture tx] in this spec; did you mean [texture tex]?");
	expect_error(variant("values = buffer:hist, texture:tex, surface:surf", "values = buffer:hist, texture:tex, surface:tex"),
		     18, "no [surface tex] in this spec; it is a [texture]");
	expect_error(variant("symbol:weights+4", "symbol:weights+x"), 18, "bad offset in `symbol:weights+x`");
	/* symbols */
	expect_error(variant("values = 1, 2, 1", "values = 1, 2, 1\npad_before = 4"), 23, "unknown key `pad_before` in [symbol]");
	expect_error(variant("values = 1, 2, 1", "values = 1, 2, 1\noffset = -4"), 23, "bad offset `-4`");
	expect_error(variant("[symbol weights]\ntype = s32", "[symbol weights]\ntype = s33"), 20, "unknown type `s33`");
	/* textures and surfaces */
	expect_error(variant("buffer = src\n", ""), 27, "[texture tex] needs `buffer = NAME`");
	expect_error(variant("buffer = src\n", "buffer = sr\n"), 28, "no [buffer sr] in this spec; did you mean [buffer src]?");
	expect_error(variant("format = s32", "format = s33"), 29, "bad format `s33`");
	expect_error(variant("format = s32", "format = u8x3"), 29, "bad format `u8x3`");
	expect_error(variant("format = s32\n", ""), 27, "needs `format = F`");
	expect_error(variant("width = 256", "width = 0"), 30, "bad width `0`");
	expect_error(variant("width = 256", "width = 257"), 28, "needs 1028 bytes at offset 0");
	expect_error(variant("width = 256", "width = 268435457"), 30, "more than the 268435456 texels");
	expect_error(variant("height = 4", "height = 0"), 35, "bad height `0`");
	expect_error(variant("height = 4", "height = 70000"), 35, "exceed the 131072 x 65000");
	expect_error(variant("pitch = 256", "pitch = 60"), 36, "bad pitch `60`");
	expect_error(variant("pitch = 256", "pitch = 400"), 32, "[surface surf] needs 1264 bytes at offset 0 (a multiple of 4) of [buffer dst], which has 1024");
	expect_error(variant("width = 256", "width = 256\noffset = 2"), 28, "at offset 2 (a multiple of 4)");
	expect_error(variant("width = 256", "width = 256\naddress = clamp, wrap, clamp"), 31, "bad address");
	expect_error(variant("width = 256", "width = 256\naddress = wrp"), 31, "did you mean `wrap`?");
	expect_error(variant("width = 256", "width = 256\nfilter = bilinear"), 31, "bad filter `bilinear`");
	expect_error(variant("width = 256", "width = 256\nread = float"), 31, "bad read `float`");
	expect_error(variant("width = 256", "width = 256\nnormalized = yes"), 31, "bad normalized `yes`");
	expect_error(variant("width = 256", "width = 256\nborder = 1, 2, 3, 4, 5"), 31, "bad border");
	expect_error(variant("width = 256", "width = 256\nfilter = linear"), 31, "filter = linear needs float results");
	expect_error(variant("width = 256", "width = 256\nread = normalized"), 31, "read = normalized applies to 8- and 16-bit");
	expect_error(variant("pitch = 256", "pitch = 256\nfilter = point"), 37, "unknown key `filter` in [surface]");
	/* arguments */
	expect_error(variant("n = bytes:00 01 00 00", "n = bytes:00 0g"), 59, "bad bytes `00 0g`");
	expect_error(variant("n = bytes:00 01 00 00", "n = bytes:0"), 59, "bad bytes `0`");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:u32:1"), 42,
		     "want struct:{FIELD, FIELD, ...}");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{}"), 42, "an empty struct");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{u32:1, {u8:1}}"), 42,
		     "structs do not nest");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{pad:0}"), 42, "bad pad `0`");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{pad:40000}"), 42,
		     "more than 32764 bytes");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{i32:1}"), 42,
		     "unknown type `i32` (buffer, texture, surface, symbol, bytes, pad or u8");
	expect_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{u32}"), 42,
		     "want TYPE:VALUE (e.g. u32:1000, f32:1.5) or buffer:NAME, or pad:BYTES");
	expect_error(variant("n = bytes:00 01 00 00", "n = pad:4"), 59, "unknown type `pad`");
	expect_error(variant("t = texture:tex", "t = texture:surf"), 57, "no [texture surf] in this spec; it is a [surface]");
	expect_error(variant("t = texture:tex", "t = symbol:"), 57, "`symbol:` needs the name of a module variable");
	/* a buffer nothing uses */
	expect_error(variant("[buffer dst]", "[buffer spare]\ntype = u8\ncount = 1\n[buffer dst]"), 9,
		     "[buffer spare] is not passed to the kernel in [args] (nor used by a launch, a symbol or a texture)");
}

/* A module shaped like pipeline.ptx, plus a .shared variable. */
static struct weft_ptx_symbol syms[] = {
	{ .name = "blur_param_0", .space = WEFT_SPACE_PARAM, .type = WEFT_T_B8, .size = 24, .align = 8 },
	{ .name = "count_param_0", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U64, .size = 8 },
	{ .name = "count_param_1", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U32, .size = 4 },
	{ .name = "accumulate_param_0", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U64, .size = 8 },
	{ .name = "accumulate_param_1", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U64, .size = 8 },
	{ .name = "accumulate_param_2", .space = WEFT_SPACE_PARAM, .type = WEFT_T_U32, .size = 4 },
	{ .name = "weights", .space = WEFT_SPACE_CONST, .type = WEFT_T_B8, .size = 12, .func = -1 },
	{ .name = "histogram", .space = WEFT_SPACE_GLOBAL, .type = WEFT_T_U64, .size = 8, .func = -1 },
	{ .name = "tile", .space = WEFT_SPACE_SHARED, .type = WEFT_T_B8, .size = 64, .func = -1 },
};
static struct weft_ptx_param pblur[] = { { .sym = 0, .type = WEFT_T_B8, .size = 24, .align = 8 } };
static struct weft_ptx_param pcount[] = { { .sym = 1, .type = WEFT_T_U64, .size = 8, .align = 8 },
					  { .sym = 2, .type = WEFT_T_U32, .size = 4, .align = 4, .offset = 8 } };
static struct weft_ptx_param pacc[] = { { .sym = 3, .type = WEFT_T_U64, .size = 8, .align = 8 },
					{ .sym = 4, .type = WEFT_T_U64, .size = 8, .align = 8, .offset = 8 },
					{ .sym = 5, .type = WEFT_T_U32, .size = 4, .align = 4, .offset = 16 } };
static struct weft_ptx_func funcs[] = {
	{ .name = "blur", .is_entry = 1, .params = pblur, .nparams = 1, .param_bytes = 24 },
	{ .name = "count", .is_entry = 1, .params = pcount, .nparams = 2, .param_bytes = 12 },
	{ .name = "accumulate", .is_entry = 1, .params = pacc, .nparams = 3, .param_bytes = 20 },
};
static struct weft_ptx_module mod = { .path = "p.ptx", .funcs = funcs, .nfuncs = 3, .syms = syms,
				      .nsyms = sizeof(syms) / sizeof(syms[0]), .address_size = 64 };

/* The module's symbol lookup is by linear search (weft_ptx_find_symbol). */
static void expect_arg_error(const char *text, uint32_t line, const char *phrase)
{
	struct weft_spec *spec;
	struct weft_error err;
	if (parse(text, &spec, &err))
		fail_msg("parse: %u: %s", err.line, err.message);
	int rc = weft_spec_check_args(spec, &mod, &err);
	if (rc != WEFT_ERR_INPUT || !strstr(err.message, phrase) || err.line != line)
		fail_msg("got rc %d line %u: %s (want line %u, `%s`)", rc, err.line, rc ? err.message : "",
			 line, phrase);
	weft_spec_free(spec);
}

static void test_against_kernel(void **state)
{
	(void)state;
	struct weft_spec *spec;
	struct weft_error err;
	assert_int_equal(parse(good, &spec, &err), 0);
	int rc = weft_spec_check_args(spec, &mod, &err);
	if (rc)
		fail_msg("%u: %s", err.line, err.message);
	weft_spec_free(spec);
	expect_arg_error(variant("kernel = count", "kernel = cnt"), 44,
			 "[launch count]: kernel `cnt` is not defined in dir/p.ptx (kernels there: blur, count, accumulate)");
	expect_arg_error(variant("n = u32:255\n", ""), 48, "[launch count]: kernel `count` takes 2 parameters but [args count] gives 1");
	expect_arg_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{buffer:src, buffer:dst, u32:256}\nb = buffer:src\nc = buffer:dst"),
			 43, "kernel `blur` takes 1 parameters but [args blur] gives 3; argument 2 `b` has no parameter");
	expect_arg_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = struct:{buffer:src, u32:256}"), 42,
			 "argument 1 `a` is 16 bytes (its fields laid out as C does) but parameter `blur_param_0` is 24 bytes (.b8 array)");
	expect_arg_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = bytes:00 01"), 42,
			 "is 2 bytes (as written) but parameter `blur_param_0` is 24 bytes");
	expect_arg_error(variant("a = struct:{buffer:src, buffer:dst, u32:256, s32:3}", "a = u64:1"), 42,
			 "parameter `blur_param_0` is a 24-byte aggregate (.b8 array); pass it as struct:{FIELD, ...} or bytes:HEX");
	expect_arg_error(variant("n = u32:255", "n = texture:tex"), 49,
			 "argument 2 `n` is texture:tex (a 64-bit object handle) but parameter `count_param_1` is .u32 (4 bytes)");
	expect_arg_error(variant("n = u32:255", "n = buffer:src+8"), 49, "is buffer:src+8 (a 64-bit device pointer)");
	expect_arg_error(variant("n = bytes:00 01 00 00", "n = bytes:00 01"), 59, "is 2 bytes (as written) but parameter `accumulate_param_2` is 4 bytes");
	/* symbols */
	expect_arg_error(variant("[symbol weights]", "[symbol weight]"), 19,
			 "symbol `weight` is not a module variable of dir/p.ptx");
	expect_arg_error(variant("[symbol weights]", "[symbol tile]"), 19, "symbol `tile` is a .shared variable");
	expect_arg_error(variant("values = 1, 2, 1", "values = 1, 2, 1, 4"), 19,
			 "[symbol weights]: 4 s32 elements at offset 0 need 16 bytes; the variable has 12");
	expect_arg_error(variant("values = 1, 2, 1", "values = 1, 2\noffset = 8"), 19, "need 16 bytes; the variable has 12");
	expect_arg_error(variant("[symbol weights]\ntype = s32\ninit = values\nvalues = 1, 2, 1",
				 "[symbol weights]\ntype = s64"),
			 19, "[symbol weights]: the variable has 12 bytes, 12 after offset 0: not a whole number of s64 elements");
	expect_arg_error(variant("symbol:weights+4", "symbol:weights+13"), 18, "symbol:weights+13 points past the variable's 12 bytes");
	expect_arg_error(variant("symbol:weights+4", "symbol:nope"), 18, "symbol `nope` is not a module variable");
	/* a symbol without count takes the rest of the variable */
	assert_int_equal(parse(variant("[symbol weights]\ntype = s32\ninit = values\nvalues = 1, 2, 1",
				       "[symbol weights]\ntype = s32\ninit = ramp\noffset = 4"),
			       &spec, &err),
			 0);
	assert_int_equal(weft_spec_check_args(spec, &mod, &err), 0);
	assert_int_equal(spec->symbols[0].count, 0);
	weft_spec_free(spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_against_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
