/*
 * test_emu_tex.c - texture and surface objects (host.h weft_tex_create,
 * weft_surf_create; emu_tex.c): every address mode, point and linear
 * filtering at and between texel centres (with the 9-bit weights), clamp
 * against wrap against mirror against border, normalized coordinates,
 * integer coordinates, normalized-float reads of 8-bit texels, integer and
 * half texels, pitched 2-D textures, tld4 gathers, surface loads and
 * stores with .trap/.clamp/.zero, the addresses traces record, and every
 * refused object and bad handle. Expected values are computed by hand
 * (each case says how).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu_testutil.h"

/* Each kernel: thread t reads its coordinates (x, y) from c[2t], c[2t+1]
 * (32-bit: float or int bits), fetches, and writes 4 32-bit results to
 * o[4t..4t+3]. */
#define KHEAD(name)                                                                         \
	".visible .entry " name "(.param .u64 ph, .param .u64 pc, .param .u64 po)\n{\n"       \
	".reg .b16 %rs<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<8>;\n"       \
	"ld.param.u64 %rd1, [ph];\nld.param.u64 %rd2, [pc];\nld.param.u64 %rd3, [po];\n"     \
	"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 8;\nadd.s64 %rd4, %rd2, %rd4;\n"      \
	"ld.global.v2.b32 {%r2, %r3}, [%rd4];\nmov.b32 %f1, %r2;\nmov.b32 %f2, %r3;\n"       \
	"mul.wide.u32 %rd5, %r1, 16;\nadd.s64 %rd5, %rd3, %rd5;\n"
#define KSTORE "st.global.v4.b32 [%rd5], {%r4, %r5, %r6, %r7};\nret;\n}\n"

static const char *tex_ptx =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	KHEAD("t1f") "tex.1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("t1i") "tex.1d.v4.f32.s32 {%f4, %f5, %f6, %f7}, [%rd1, {%r2}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("t2f") "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("t2int") "tex.2d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r2, %r3}];\n" KSTORE
	KHEAD("g4r") "tld4.r.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("g4g") "tld4.g.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("g4b") "tld4.b.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2}];\n"
	"mov.b32 %r4, %f4;\nmov.b32 %r5, %f5;\nmov.b32 %r6, %f6;\nmov.b32 %r7, %f7;\n" KSTORE
	KHEAD("g4i") "tld4.a.2d.v4.s32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f1, %f2}];\n" KSTORE
	KHEAD("sld") "mov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"suld.b.2d.b32.trap {%r4}, [%rd1, {%r2, %r3}];\n" KSTORE
	KHEAD("sldc") "mov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"suld.b.2d.b32.clamp {%r4}, [%rd1, {%r2, %r3}];\n" KSTORE
	KHEAD("sldz") "mov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"suld.b.2d.b32.zero %r4, [%rd1, {%r2, %r3}];\n" KSTORE
	KHEAD("sld2") "mov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"suld.b.1d.v2.b32.trap {%r4, %r5}, [%rd1, {%r2}];\n" KSTORE
	KHEAD("sst") "mul.lo.u32 %r8, %r1, 10;\nmov.u32 %r4, 0;\nmov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"sust.b.2d.b32.zero [%rd1, {%r2, %r3}], {%r8};\n" KSTORE
	KHEAD("sst8") "mov.u32 %r4, 0;\nmov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
	"cvt.u16.u32 %rs1, %r1;\nsust.b.1d.b8.trap [%rd1, {%r2}], {%rs1};\n" KSTORE;

struct fx {
	struct weft_ctx *ctx;
	struct weft_module *mod;
	uint64_t dcoord, dout;
};

static void fx_init(struct fx *f)
{
	f->ctx = weft_ctx_create(NULL);
	int rc = weft_module_load_text(f->ctx, tex_ptx, strlen(tex_ptx), "tex.ptx", &f->mod, &op_err);
	if (rc)
		fprintf(stderr, "%s:%u:%u: %s\n", op_err.file, op_err.line, op_err.column, op_err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(weft_malloc(f->ctx, 64 * 8, &f->dcoord, &op_err), 0);
	assert_int_equal(weft_malloc(f->ctx, 64 * 16, &f->dout, &op_err), 0);
}

/* Runs kernel k over n threads with 32-bit coordinate pairs c; fills o
 * (4 words per thread). Returns the launch's status. */
static int fx_run(struct fx *f, const char *k, uint64_t h, const uint32_t *c, int n, uint32_t *o)
{
	assert_int_equal(weft_memcpy_htod(f->ctx, f->dcoord, c, (size_t)n * 8, &op_err), 0);
	struct weft_arg args[] = { WEFT_ARG(h), WEFT_ARG(f->dcoord), WEFT_ARG(f->dout) };
	int rc = weft_launch(f->ctx, f->mod, k, weft_dim3(1, 1, 1), weft_dim3((uint32_t)n, 1, 1), 0, args, 3,
			     &op_err);
	if (!rc)
		assert_int_equal(weft_memcpy_dtoh(f->ctx, o, f->dout, (size_t)n * 16, &op_err), 0);
	return rc;
}

static uint32_t fb(float x)
{
	return (uint32_t)f2b(x);
}

/* Fetches component 0 of texture h at float x (1-D) for every x in xs. */
static void fetch1(struct fx *f, uint64_t h, const float *xs, int n, float *got)
{
	uint32_t c[64], o[64 * 4];
	for (int i = 0; i < n; i++) {
		c[2 * i] = fb(xs[i]);
		c[2 * i + 1] = 0;
	}
	int rc = fx_run(f, "t1f", h, c, n, o);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	for (int i = 0; i < n; i++)
		got[i] = b2f(o[4 * i]);
}

static uint64_t tex1d(struct fx *f, uint64_t buf, uint64_t width, int addr, int filter, int norm,
		      float border)
{
	struct weft_tex_resource r = { buf, width, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 };
	struct weft_tex_desc d;
	memset(&d, 0, sizeof(d));
	d.address[0] = d.address[1] = (uint8_t)addr;
	d.filter = (uint8_t)filter;
	d.normalized = (uint8_t)norm;
	for (int i = 0; i < 4; i++)
		d.border[i] = border;
	uint64_t h;
	int rc = weft_tex_create(f->ctx, &r, &d, &h, &op_err);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	return h;
}

#define EXPECT_F(got, want)                                                                  \
	do {                                                                                 \
		if ((got) != (want))                                                         \
			fail_msg("%s = %.9g, want %.9g (line %d)", #got, (double)(got),      \
				 (double)(want), __LINE__);                                  \
	} while (0)

/* T = {10, 20, 40, 80}: texel i covers [i, i+1), its centre is i + 0.5. */
static void test_linear_filter_1d(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	float T[4] = { 10, 20, 40, 80 };
	uint64_t buf;
	assert_int_equal(weft_malloc(f.ctx, sizeof(T), &buf, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, buf, T, sizeof(T), &op_err), 0);
	float got[16];

	/* clamp, linear, unnormalized: xB = x - 0.5, i = floor(xB), a = frac(xB) */
	uint64_t h = tex1d(&f, buf, 4, WEFT_ADDRESS_CLAMP, WEFT_FILTER_LINEAR, 0, 0);
	const float xs[] = { 0.5f, 1.0f, 1.5f, 1.75f, 0.0f, 4.0f, 1.6f, -7.0f, 100.0f };
	fetch1(&f, h, xs, 9, got);
	EXPECT_F(got[0], 10.0f);  /* a texel centre: exactly T[0] */
	EXPECT_F(got[1], 15.0f);  /* halfway: (10 + 20) / 2 */
	EXPECT_F(got[2], 20.0f);  /* the next centre: exactly T[1] */
	EXPECT_F(got[3], 25.0f);  /* i = 1, a = 0.25: 20 * 0.75 + 40 * 0.25 */
	EXPECT_F(got[4], 10.0f);  /* i = -1 clamps to 0: T[0] and T[0] */
	EXPECT_F(got[5], 80.0f);  /* i = 3, i + 1 = 4 clamps to 3 */
	/* 9-bit weights: xB = 1.1 -> 1.1 * 256 = 281.6 rounds to 282, a = 26/256:
	 * 20 + 20 * 26 / 256 = 22.03125 (exact filtering would give 22) */
	EXPECT_F(got[6], 22.03125f);
	EXPECT_F(got[7], 10.0f);
	EXPECT_F(got[8], 80.0f);

	/* border: texels outside read the border colour 5 */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_BORDER, WEFT_FILTER_LINEAR, 0, 5);
	const float xb[] = { 0.0f, 4.25f, 0.5f, -3.0f };
	fetch1(&f, h, xb, 4, got);
	EXPECT_F(got[0], 7.5f);   /* i = -1 (border 5) and T[0], a = 0.5 */
	EXPECT_F(got[1], 23.75f); /* i = 3, a = 0.75: 80 * 0.25 + 5 * 0.75 */
	EXPECT_F(got[2], 10.0f);
	EXPECT_F(got[3], 5.0f);   /* both texels outside */

	/* wrap needs normalized coordinates: x = xn * 4 */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_WRAP, WEFT_FILTER_LINEAR, 1, 0);
	const float xw[] = { 0.0f, 1.125f, 0.125f, -0.875f, 0.9375f };
	fetch1(&f, h, xw, 5, got);
	EXPECT_F(got[0], 45.0f);  /* x = 0: i = -1 wraps to 3 (80), i + 1 = 0 (10), a = 0.5 */
	EXPECT_F(got[1], 10.0f);  /* x = 4.5: i = 4 wraps to 0, a = 0 */
	EXPECT_F(got[2], 10.0f);  /* x = 0.5: T[0] */
	EXPECT_F(got[3], 10.0f);  /* x = -3.5: i = -4 wraps to 0, a = 0 */
	EXPECT_F(got[4], 62.5f);  /* x = 3.75: xB = 3.25, i = 3 (80), 4 wraps to 0 (10): 80 * 0.75 + 10 * 0.25 */

	/* the same coordinates with clamp: no wrap-around */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_CLAMP, WEFT_FILTER_LINEAR, 1, 0);
	fetch1(&f, h, xw, 5, got);
	EXPECT_F(got[0], 10.0f);  /* i = -1 clamps to 0 */
	EXPECT_F(got[1], 80.0f);  /* i = 4 clamps to 3 */
	EXPECT_F(got[4], 80.0f);  /* i = 3 and 4 -> 3 */

	/* wrap with unnormalized coordinates is clamp (CUDA: wrap and mirror
	 * need normalized coordinates) */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_WRAP, WEFT_FILTER_LINEAR, 0, 0);
	const float xu[] = { 0.0f, 4.5f };
	fetch1(&f, h, xu, 2, got);
	EXPECT_F(got[0], 10.0f);
	EXPECT_F(got[1], 80.0f);

	/* mirror: period 2n, indices 4..7 read 3..0 */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_MIRROR, WEFT_FILTER_LINEAR, 1, 0);
	const float xm[] = { 1.125f, -0.125f, 1.0f };
	fetch1(&f, h, xm, 3, got);
	EXPECT_F(got[0], 80.0f);  /* x = 4.5: i = 4 mirrors to 3, a = 0 */
	EXPECT_F(got[1], 10.0f);  /* x = -0.5: i = -1 mirrors to 0, a = 0 */
	EXPECT_F(got[2], 80.0f);  /* x = 4: i = 3 and 4 -> 3, both 80 */
	weft_ctx_destroy(f.ctx);
}

/* Point sampling reads texel floor(x); integer (.s32) coordinates read
 * texel x unfiltered, with wrap as clamp; missing channels read 0, alpha 1. */
static void test_point_and_integer_coords(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	float T[4] = { 10, 20, 40, 80 };
	uint64_t buf;
	assert_int_equal(weft_malloc(f.ctx, sizeof(T), &buf, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, buf, T, sizeof(T), &op_err), 0);
	float got[8];
	uint64_t h = tex1d(&f, buf, 4, WEFT_ADDRESS_CLAMP, WEFT_FILTER_POINT, 1, 0);
	const float xn[] = { 0.3f, 0.99f, 0.25f, -1.0f, 2.0f };
	fetch1(&f, h, xn, 5, got);
	EXPECT_F(got[0], 20.0f); /* x = 1.2: texel 1 */
	EXPECT_F(got[1], 80.0f); /* x = 3.96: texel 3 */
	EXPECT_F(got[2], 20.0f); /* x = 1.0 exactly: texel 1 */
	EXPECT_F(got[3], 10.0f); /* clamped */
	EXPECT_F(got[4], 80.0f);

	/* tex.1d.v4.f32.s32: texel x; the texture's linear filter and
	 * normalized coordinates do not apply */
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_WRAP, WEFT_FILTER_LINEAR, 1, 0);
	uint32_t c[8] = { 2, 0, (uint32_t)-3, 0, 7, 0, 0, 0 }, o[16];
	assert_int_equal(fx_run(&f, "t1i", h, c, 4, o), 0);
	EXPECT_F(b2f(o[0]), 40.0f);
	EXPECT_F(b2f(o[4]), 10.0f); /* -3 clamps (wrap is clamp here) */
	EXPECT_F(b2f(o[8]), 80.0f);
	EXPECT_F(b2f(o[12]), 10.0f);
	EXPECT_F(b2f(o[1]), 0.0f);  /* one channel: (x, 0, 0, 1) */
	EXPECT_F(b2f(o[2]), 0.0f);
	EXPECT_F(b2f(o[3]), 1.0f);
	h = tex1d(&f, buf, 4, WEFT_ADDRESS_BORDER, WEFT_FILTER_POINT, 0, -2);
	assert_int_equal(fx_run(&f, "t1i", h, c, 4, o), 0);
	EXPECT_F(b2f(o[4]), -2.0f); /* outside: the border colour, every channel */
	EXPECT_F(b2f(o[7]), -2.0f);
	EXPECT_F(b2f(o[8]), -2.0f);
	weft_ctx_destroy(f.ctx);
}

/* A 3 x 2 texture of float2 texels T(i, j) = (i + 10 j, 100 + i + 10 j) with
 * rows 32 bytes apart (8 bytes of padding per row). */
static uint64_t tex2d_f2(struct fx *f, int addr, int filter, int norm)
{
	float T[2][4][2];
	memset(T, 0xff, sizeof(T)); /* padding: NaN, never read */
	for (int j = 0; j < 2; j++)
		for (int i = 0; i < 3; i++) {
			T[j][i][0] = (float)(i + 10 * j);
			T[j][i][1] = (float)(100 + i + 10 * j);
		}
	uint64_t buf, h;
	assert_int_equal(weft_malloc(f->ctx, sizeof(T), &buf, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f->ctx, buf, T, sizeof(T), &op_err), 0);
	struct weft_tex_resource r = { buf, 3, 2, 32, WEFT_CHANNEL_FLOAT, 32, 2, 0 };
	struct weft_tex_desc d;
	memset(&d, 0, sizeof(d));
	d.address[0] = d.address[1] = (uint8_t)addr;
	d.filter = (uint8_t)filter;
	d.normalized = (uint8_t)norm;
	d.border[0] = 7;
	d.border[1] = 8;
	assert_int_equal(weft_tex_create(f->ctx, &r, &d, &h, &op_err), 0);
	return h;
}

static void test_linear_filter_2d(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	uint64_t h = tex2d_f2(&f, WEFT_ADDRESS_CLAMP, WEFT_FILTER_LINEAR, 0);
	uint32_t c[] = { fb(1.25f), fb(0.75f), fb(2.5f), fb(1.5f), fb(3.5f), fb(2.5f), fb(0.5f), fb(1.0f),
			 fb(-1.0f), fb(-1.0f) };
	uint32_t o[5 * 4];
	int rc = fx_run(&f, "t2f", h, c, 5, o);
	if (rc)
		fprintf(stderr, "%s\n", op_err.message);
	assert_int_equal(rc, 0);
	/* (1.25, 0.75): i = 0, a = 0.75; j = 0, b = 0.25:
	 * 0.25*0.75*T00 + 0.75*0.75*T10 + 0.25*0.25*T01 + 0.75*0.25*T11
	 * = 0 + 0.5625 + 0.625 + 2.0625 = 3.25 (channel 1: + 100) */
	EXPECT_F(b2f(o[0]), 3.25f);
	EXPECT_F(b2f(o[1]), 103.25f);
	EXPECT_F(b2f(o[2]), 0.0f); /* two channels: (x, y, 0, 1) */
	EXPECT_F(b2f(o[3]), 1.0f);
	EXPECT_F(b2f(o[4]), 12.0f);  /* (2.5, 1.5): the centre of T(2, 1) */
	EXPECT_F(b2f(o[5]), 112.0f);
	EXPECT_F(b2f(o[8]), 12.0f);  /* (3.5, 2.5): i = 3 -> 2, j = 2 -> 1 */
	EXPECT_F(b2f(o[12]), 5.0f);  /* (0.5, 1.0): j = 0, b = 0.5: (T00 + T01) / 2 */
	EXPECT_F(b2f(o[16]), 0.0f);  /* clamped to T(0, 0) */

	/* border: outside texels read (7, 8, 0, 0) */
	h = tex2d_f2(&f, WEFT_ADDRESS_BORDER, WEFT_FILTER_LINEAR, 0);
	uint32_t cb[] = { fb(0.5f), fb(0.0f), fb(-1.0f), fb(5.0f) };
	assert_int_equal(fx_run(&f, "t2f", h, cb, 2, o), 0);
	/* (0.5, 0.0): j = -1 (border), b = 0.5: (border + T00) / 2 */
	EXPECT_F(b2f(o[0]), 3.5f);
	EXPECT_F(b2f(o[1]), 54.0f);  /* (8 + 100) / 2 */
	EXPECT_F(b2f(o[3]), 0.5f);   /* alpha: (0 + 1) / 2 */
	EXPECT_F(b2f(o[4]), 7.0f);   /* all outside */

	/* wrap on a normalized 2-D texture: (1/6, 0.25) + (1, 1) is texel (0, 0)'s
	 * centre (x = 0.5, y = 0.5) one period later */
	h = tex2d_f2(&f, WEFT_ADDRESS_WRAP, WEFT_FILTER_LINEAR, 1);
	uint32_t cw[] = { fb(1.0f + 1.0f / 6.0f), fb(1.25f) };
	assert_int_equal(fx_run(&f, "t2f", h, cw, 1, o), 0);
	if (fabsf(b2f(o[0]) - 0.0f) > 1e-3f)
		fail_msg("wrap 2-D: %g", (double)b2f(o[0]));
	weft_ctx_destroy(f.ctx);
}

/* tld4 returns the bilinear footprint's texels, one channel, in the order
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
static void test_tld4(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	uint64_t h = tex2d_f2(&f, WEFT_ADDRESS_CLAMP, WEFT_FILTER_POINT, 0);
	uint32_t c[] = { fb(1.25f), fb(0.75f), fb(0.0f), fb(0.0f) };
	uint32_t o[8];
	assert_int_equal(fx_run(&f, "g4r", h, c, 2, o), 0);
	EXPECT_F(b2f(o[0]), 10.0f); /* T(0, 1) */
	EXPECT_F(b2f(o[1]), 11.0f); /* T(1, 1) */
	EXPECT_F(b2f(o[2]), 1.0f);  /* T(1, 0) */
	EXPECT_F(b2f(o[3]), 0.0f);  /* T(0, 0) */
	EXPECT_F(b2f(o[4]), 0.0f);  /* (0, 0): i = j = -1, clamped: T(0,0), T(0,0), T(0,0), T(0,0) */
	EXPECT_F(b2f(o[5]), 0.0f);
	assert_int_equal(fx_run(&f, "g4g", h, c, 1, o), 0);
	EXPECT_F(b2f(o[0]), 110.0f);
	EXPECT_F(b2f(o[3]), 100.0f);
	assert_int_equal(fx_run(&f, "g4b", h, c, 1, o), 0); /* a channel the format lacks: 0 */
	EXPECT_F(b2f(o[0]), 0.0f);
	EXPECT_F(b2f(o[2]), 0.0f);
	weft_ctx_destroy(f.ctx);
}

/* uchar4 read as normalized floats; signed chars; integer and half texels. */
static void test_formats(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	uint8_t u[2][4] = { { 255, 0, 128, 64 }, { 0, 255, 0, 0 } };
	uint64_t bu, h;
	assert_int_equal(weft_malloc(f.ctx, sizeof(u), &bu, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, bu, u, sizeof(u), &op_err), 0);
	struct weft_tex_resource r = { bu, 2, 0, 0, WEFT_CHANNEL_UNSIGNED, 8, 4, 0 };
	struct weft_tex_desc d;
	memset(&d, 0, sizeof(d));
	d.read = WEFT_READ_NORMALIZED_FLOAT;
	d.filter = WEFT_FILTER_LINEAR;
	d.address[0] = WEFT_ADDRESS_CLAMP;
	assert_int_equal(weft_tex_create(f.ctx, &r, &d, &h, &op_err), 0);
	float got[4];
	uint32_t c[8] = { fb(0.5f), 0, fb(1.0f), 0 }, o[16];
	assert_int_equal(fx_run(&f, "t1f", h, c, 2, o), 0);
	EXPECT_F(b2f(o[0]), 1.0f);             /* 255 / 255 */
	EXPECT_F(b2f(o[1]), 0.0f);
	EXPECT_F(b2f(o[2]), (float)(128.0 / 255.0));
	EXPECT_F(b2f(o[3]), (float)(64.0 / 255.0));
	EXPECT_F(b2f(o[4]), 0.5f);             /* halfway between texels 0 and 1 */
	EXPECT_F(b2f(o[5]), 0.5f);
	(void)got;

	/* signed 8-bit, normalized: -128 and -127 read -1, 127 reads 1 */
	int8_t sc[3] = { -128, -127, 127 };
	uint64_t bs;
	assert_int_equal(weft_malloc(f.ctx, sizeof(sc), &bs, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, bs, sc, sizeof(sc), &op_err), 0);
	struct weft_tex_resource rs = { bs, 3, 0, 0, WEFT_CHANNEL_SIGNED, 8, 1, 0 };
	memset(&d, 0, sizeof(d));
	d.read = WEFT_READ_NORMALIZED_FLOAT;
	assert_int_equal(weft_tex_create(f.ctx, &rs, &d, &h, &op_err), 0);
	uint32_t ci[6] = { 0, 0, 1, 0, 2, 0 };
	assert_int_equal(fx_run(&f, "t1i", h, ci, 3, o), 0);
	EXPECT_F(b2f(o[0]), -1.0f);
	EXPECT_F(b2f(o[4]), -1.0f);
	EXPECT_F(b2f(o[8]), 1.0f);

	/* 2-D short2 texels read as integers: sign-extended; (x, y, 0, 1);
	 * outside with border: the border colour truncated to integers */
	int16_t s2[2][2][2] = { { { -5, 7 }, { 300, -300 } }, { { 1, 2 }, { 3, 4 } } };
	uint64_t b2;
	assert_int_equal(weft_malloc(f.ctx, sizeof(s2), &b2, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, b2, s2, sizeof(s2), &op_err), 0);
	struct weft_tex_resource r2 = { b2, 2, 2, 0, WEFT_CHANNEL_SIGNED, 16, 2, 0 };
	memset(&d, 0, sizeof(d));
	d.address[0] = d.address[1] = WEFT_ADDRESS_BORDER;
	d.border[0] = -3.7f;
	d.border[3] = 9.0f;
	assert_int_equal(weft_tex_create(f.ctx, &r2, &d, &h, &op_err), 0);
	uint32_t cc[6] = { 0, 0, 1, 0, 0, 2 };
	assert_int_equal(fx_run(&f, "t2int", h, cc, 3, o), 0);
	assert_int_equal((int32_t)o[0], -5);
	assert_int_equal((int32_t)o[1], 7);
	assert_int_equal(o[2], 0);
	assert_int_equal(o[3], 1);
	assert_int_equal((int32_t)o[4], 300);
	assert_int_equal((int32_t)o[5], -300);
	uint32_t o3[12];
	assert_int_equal(fx_run(&f, "t2int", h, cc, 3, o3), 0);
	assert_int_equal((int32_t)o3[8], -3); /* border, truncated toward 0 */
	assert_int_equal(o3[11], 9);

	/* half texels */
	uint16_t hf[3] = { 0x3c00, 0xc000, 0x0001 }; /* 1.0, -2.0, the smallest subnormal */
	uint64_t bh;
	assert_int_equal(weft_malloc(f.ctx, sizeof(hf), &bh, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, bh, hf, sizeof(hf), &op_err), 0);
	struct weft_tex_resource rh = { bh, 3, 0, 0, WEFT_CHANNEL_FLOAT, 16, 1, 0 };
	memset(&d, 0, sizeof(d));
	d.filter = WEFT_FILTER_LINEAR;
	assert_int_equal(weft_tex_create(f.ctx, &rh, &d, &h, &op_err), 0);
	uint32_t chf[6] = { fb(0.5f), 0, fb(1.0f), 0, fb(2.5f), 0 };
	assert_int_equal(fx_run(&f, "t1f", h, chf, 3, o3), 0);
	EXPECT_F(b2f(o3[0]), 1.0f);
	EXPECT_F(b2f(o3[4]), -0.5f); /* (1 - 2) / 2 */
	EXPECT_F(b2f(o3[8]), (float)ldexp(1.0, -24));
	weft_ctx_destroy(f.ctx);
}

/* A 4 x 3 surface of u32 with rows 32 bytes apart: x is a byte offset. */
static void test_surfaces(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	uint32_t S[3][8];
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 8; x++)
			S[y][x] = (uint32_t)(100 * y + x);
	uint64_t b, h;
	assert_int_equal(weft_malloc(f.ctx, sizeof(S), &b, &op_err), 0);
	assert_int_equal(weft_memcpy_htod(f.ctx, b, S, sizeof(S), &op_err), 0);
	struct weft_tex_resource r = { b, 4, 3, 32, WEFT_CHANNEL_UNSIGNED, 32, 1, 0 };
	assert_int_equal(weft_surf_create(f.ctx, &r, &h, &op_err), 0);
	uint32_t c[8] = { 8, 1, 12, 2, 0, 0, 4, 0 }, o[16];
	assert_int_equal(fx_run(&f, "sld", h, c, 4, o), 0);
	assert_int_equal(o[0], 102);
	assert_int_equal(o[4], 203);
	assert_int_equal(o[8], 0);
	assert_int_equal(o[12], 1);
	/* .clamp: x = 100 bytes reads the last texel of the row, y = -1 row 0 */
	uint32_t cc[4] = { 100, (uint32_t)-1, (uint32_t)-8, 9 };
	assert_int_equal(fx_run(&f, "sldc", h, cc, 2, o), 0);
	assert_int_equal(o[0], 3);
	assert_int_equal(o[4], 200);
	/* .zero: out of range reads 0 */
	uint32_t cz[4] = { 16, 0, 4, 1 };
	assert_int_equal(fx_run(&f, "sldz", h, cz, 2, o), 0);
	assert_int_equal(o[0], 0);
	assert_int_equal(o[4], 101);
	/* .trap: out of range and misaligned are faults */
	uint32_t ct[2] = { 16, 0 };
	assert_int_equal(fx_run(&f, "sld", h, ct, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "out-of-range surface load of 4 bytes at (x 16 bytes, y 0)"));
	assert_non_null(strstr(op_err.message, "16 bytes x 3 rows; .trap"));
	uint32_t cm[2] = { 6, 0 };
	assert_int_equal(fx_run(&f, "sld", h, cm, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "misaligned surface load of 4 bytes at x = 6 bytes"));
	/* .v2 on row 0 (suld.1d) */
	uint32_t c2[2] = { 8, 0 };
	assert_int_equal(fx_run(&f, "sld2", h, c2, 1, o), 0);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 3);
	/* sust.zero: thread t stores 10 t; out-of-range stores are dropped */
	uint32_t cs[8] = { 0, 0, 4, 2, 16, 0, 12, 1 };
	assert_int_equal(fx_run(&f, "sst", h, cs, 4, o), 0);
	uint32_t back[3][8];
	assert_int_equal(weft_memcpy_dtoh(f.ctx, back, b, sizeof(back), &op_err), 0);
	assert_int_equal(back[0][0], 0);
	assert_int_equal(back[2][1], 10);
	assert_int_equal(back[1][3], 30);
	assert_int_equal(back[0][4], 4); /* padding: untouched */
	/* b8 stores at byte x of row 0 */
	uint32_t c8[4] = { 1, 0, 2, 0 };
	assert_int_equal(fx_run(&f, "sst8", h, c8, 2, o), 0);
	assert_int_equal(weft_memcpy_dtoh(f.ctx, back, b, sizeof(back), &op_err), 0);
	assert_int_equal(back[0][0], 0x00010000u); /* byte 1 = 0 (thread 0), byte 2 = 1 (thread 1) */
	weft_ctx_destroy(f.ctx);
}

/* What traces see: one global access per lane at the first texel of the
 * fetch's footprint. */
struct seen {
	uint64_t addr[32];
	uint32_t n;
	uint8_t space, bytes;
};

static int on_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	(void)err;
	struct seen *s = user;
	if (ev->inst->op != WEFT_OP_TEX && ev->inst->op != WEFT_OP_TLD4 && ev->inst->op != WEFT_OP_SULD &&
	    ev->inst->op != WEFT_OP_SUST)
		return 0;
	for (int l = 0; l < 32; l++)
		if (ev->active >> l & 1)
			s->addr[s->n++] = ev->addr[l];
	s->space = ev->space;
	s->bytes = ev->access_bytes;
	return 0;
}

static void test_trace_addresses(void **state)
{
	(void)state;
	struct seen s;
	memset(&s, 0, sizeof(s));
	struct weft_emu_observer obs = { .user = &s, .launch_begin = NULL, .launch_end = NULL,
					  .cta_begin = NULL, .cta_end = NULL, .warp_inst = on_inst };
	struct weft_ctx_options opts;
	memset(&opts, 0, sizeof(opts));
	opts.observer = &obs;
	struct fx f;
	fx_init(&f);
	weft_ctx_destroy(f.ctx);
	f.ctx = weft_ctx_create(&opts);
	assert_int_equal(weft_module_load_text(f.ctx, tex_ptx, strlen(tex_ptx), "tex.ptx", &f.mod, &op_err), 0);
	assert_int_equal(weft_malloc(f.ctx, 64 * 8, &f.dcoord, &op_err), 0);
	assert_int_equal(weft_malloc(f.ctx, 64 * 16, &f.dout, &op_err), 0);
	uint64_t h = tex2d_f2(&f, WEFT_ADDRESS_CLAMP, WEFT_FILTER_LINEAR, 0);
	uint32_t c[] = { fb(1.25f), fb(0.75f), fb(2.6f), fb(1.9f), fb(-4.0f), fb(0.5f) };
	uint32_t o[12];
	assert_int_equal(fx_run(&f, "t2f", h, c, 3, o), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.space, WEFT_SPACE_GLOBAL);
	assert_int_equal(s.bytes, 16);
	/* the buffer is the one allocated last: its texel (0, 0) */
	uint64_t base = s.addr[0];
	assert_int_equal(s.addr[1] - base, 1 * 32 + 2 * 8); /* (2.6, 1.9): i = 2, j = 1 */
	assert_int_equal(s.addr[2] - base, 0);              /* clamped to (0, 0) */
	weft_ctx_destroy(f.ctx);
}

/* Objects CUDA refuses, and handles that name no object. */
static void test_refused(void **state)
{
	(void)state;
	struct fx f;
	fx_init(&f);
	uint64_t b, h, hs;
	assert_int_equal(weft_malloc(f.ctx, 256, &b, &op_err), 0);
	struct weft_tex_desc d;
	memset(&d, 0, sizeof(d));
	static const struct {
		struct weft_tex_resource r;
		uint8_t filter, read;
		const char *needle;
	} bad[] = {
		{ { 4096, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "not inside one allocation" },
		{ { 1, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "multiples of the 4-byte channel" },
		{ { 0, 65, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "not inside one allocation" },
		{ { 0, 0, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "width 0" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 3, 0 }, 0, 0, "3 channels" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_FLOAT, 8, 1, 0 }, 0, 0, "8-bit float channels" },
		{ { 0, 4, 0, 0, 3, 32, 1, 0 }, 0, 0, "channel kind 3" },
		{ { 0, 4, 2, 8, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "pitch 8 bytes is less than a row" },
		{ { 0, 1u << 29, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "1-D texture over linear memory" },
		{ { 0, 4, 70000, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, 0, "2-D texture over pitched memory" },
		/* CUDA arrays: packed rows, CUDA's array sizes (65536 rows, 131072 texels in 1-D) */
		{ { 0, 4, 2, 32, WEFT_CHANNEL_FLOAT, 32, 1, 1 }, 0, 0, "a CUDA array's rows are packed" },
		{ { 0, 4, 65537, 0, WEFT_CHANNEL_FLOAT, 32, 1, 1 }, 0, 0, "2-D texture over a CUDA array" },
		{ { 0, 131073, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 1 }, 0, 0, "1-D texture over a CUDA array" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 2 }, 0, 0, "array flag 2" },
		/* within the array sizes but beyond pitched memory's: only the size check left */
		{ { 0, 4, 65536, 0, WEFT_CHANNEL_FLOAT, 32, 1, 1 }, 0, 0, "not inside one allocation" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_SIGNED, 32, 1, 0 }, WEFT_FILTER_LINEAR, 0, "cudaErrorInvalidFilterSetting" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 }, 0, WEFT_READ_NORMALIZED_FLOAT, "cudaErrorInvalidNormSetting" },
		{ { 0, 4, 0, 0, WEFT_CHANNEL_UNSIGNED, 32, 1, 0 }, 0, WEFT_READ_NORMALIZED_FLOAT, "cudaErrorInvalidNormSetting" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct weft_tex_resource r = bad[i].r;
		r.dptr += b;
		d.filter = bad[i].filter;
		d.read = bad[i].read;
		int rc = weft_tex_create(f.ctx, &r, &d, &h, &op_err);
		if (rc != WEFT_ERR_INPUT || !strstr(op_err.message, bad[i].needle))
			fail_msg("case %zu: rc %d: %s", i, rc, op_err.message);
	}
	memset(&d, 0, sizeof(d));
	d.address[1] = 4;
	struct weft_tex_resource ok = { b, 4, 0, 0, WEFT_CHANNEL_FLOAT, 32, 1, 0 };
	assert_int_equal(weft_tex_create(f.ctx, &ok, &d, &h, &op_err), WEFT_ERR_INPUT);
	assert_non_null(strstr(op_err.message, "address mode 4 (y)"));
	assert_int_equal(weft_tex_create(f.ctx, &ok, NULL, &h, &op_err), 0);
	assert_int_equal(weft_surf_create(f.ctx, &ok, &hs, &op_err), 0);
	assert_true(h != hs && h && hs);
	/* a CUDA array's packed rows: pitch 0 or exactly a row */
	struct weft_tex_resource ar = { b, 4, 2, 16, WEFT_CHANNEL_FLOAT, 32, 1, 1 }, ar0 = ar;
	ar0.pitch = 0;
	uint64_t ha;
	assert_int_equal(weft_tex_create(f.ctx, &ar, NULL, &ha, &op_err), 0);
	assert_int_equal(weft_tex_destroy(f.ctx, ha, &op_err), 0);
	assert_int_equal(weft_surf_create(f.ctx, &ar0, &ha, &op_err), 0);
	assert_int_equal(weft_tex_destroy(f.ctx, ha, &op_err), 0);

	uint32_t c[2] = { 0, 0 }, o[4];
	/* a surface handle where a texture is expected, and the reverse */
	assert_int_equal(fx_run(&f, "t1i", hs, c, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "is a surface object, but this instruction takes a texture object"));
	assert_int_equal(fx_run(&f, "sld", h, c, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "is a texture object, but this instruction takes a surface object"));
	/* a pointer is not a handle */
	assert_int_equal(fx_run(&f, "t1i", b, c, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "is not a live texture object of this context"));
	/* destroyed: invalid, also after its slot is reused */
	assert_int_equal(fx_run(&f, "t1i", h, c, 1, o), 0);
	assert_int_equal(weft_tex_destroy(f.ctx, h, &op_err), 0);
	assert_int_equal(fx_run(&f, "t1i", h, c, 1, o), WEFT_ERR_RUNTIME);
	uint64_t h2;
	assert_int_equal(weft_tex_create(f.ctx, &ok, NULL, &h2, &op_err), 0);
	assert_true(h2 != h);
	assert_int_equal(fx_run(&f, "t1i", h, c, 1, o), WEFT_ERR_RUNTIME);
	assert_int_equal(fx_run(&f, "t1i", h2, c, 1, o), 0);
	assert_int_equal(weft_tex_destroy(f.ctx, h, &op_err), WEFT_ERR_INPUT);
	assert_int_equal(weft_tex_destroy(f.ctx, 0, &op_err), 0);
	/* the memory behind a live object freed */
	assert_int_equal(weft_free(f.ctx, b, &op_err), 0);
	assert_int_equal(fx_run(&f, "t1i", h2, c, 1, o), WEFT_ERR_RUNTIME);
	assert_non_null(strstr(op_err.message, "is no longer allocated"));
	weft_ctx_destroy(f.ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_filter_1d),
		cmocka_unit_test(test_point_and_integer_coords),
		cmocka_unit_test(test_linear_filter_2d),
		cmocka_unit_test(test_tld4),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_surfaces),
		cmocka_unit_test(test_trace_addresses),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
