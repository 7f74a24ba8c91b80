/*
 * emu_testutil.h - helpers shared by the emulator unit tests
 * (tests/unit/test_emu_*.c): run a PTX snippet per thread over given
 * inputs, or a whole PTX module, through the host API.
 *
 * op_run(body, a, b, c, n): a one-CTA kernel of n threads in which thread i
 * has a[i], b[i], c[i] (64-bit) in %rd10..%rd12, their low halves in
 * %r10..%r12, the same bits as f32 in %f10..%f12 and as f64 in
 * %fd10..%fd12, and %r1 = tid.x. The body leaves its result in %rd13,
 * which is stored to out[i].
 */
#ifndef WEFT_EMU_TESTUTIL_H
#define WEFT_EMU_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/emu/host.h"

static const char *op_head =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 pout, .param .u64 pa, .param .u64 pb, .param .u64 pc)\n{\n"
	".reg .pred %p<16>;\n.reg .b16 %h<16>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n"
	".reg .f32 %f<32>;\n.reg .f64 %fd<32>;\n"
	"ld.param.u64 %rd1, [pout];\nld.param.u64 %rd2, [pa];\nld.param.u64 %rd3, [pb];\n"
	"ld.param.u64 %rd4, [pc];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 8;\n"
	"add.s64 %rd6, %rd2, %rd5;\nld.global.u64 %rd10, [%rd6];\n"
	"add.s64 %rd7, %rd3, %rd5;\nld.global.u64 %rd11, [%rd7];\n"
	"add.s64 %rd8, %rd4, %rd5;\nld.global.u64 %rd12, [%rd8];\n"
	"cvt.u32.u64 %r10, %rd10;\ncvt.u32.u64 %r11, %rd11;\ncvt.u32.u64 %r12, %rd12;\n"
	"mov.b32 %f10, %r10;\nmov.b32 %f11, %r11;\nmov.b32 %f12, %r12;\n"
	"mov.b64 %fd10, %rd10;\nmov.b64 %fd11, %rd11;\nmov.b64 %fd12, %rd12;\n"
	"mov.u64 %rd13, 0;\n";
static const char *op_tail = "add.s64 %rd9, %rd1, %rd5;\nst.global.u64 [%rd9], %rd13;\nret;\n}\n";

static struct weft_error op_err;

/* Runs body over n threads; returns 0 and fills out, or the error code
 * (message in op_err). */
static inline int op_try(const char *body, const uint64_t *a, const uint64_t *b, const uint64_t *c,
		  int n, uint64_t *out)
{
	size_t len = strlen(op_head) + strlen(body) + strlen(op_tail) + 1;
	char *text = malloc(len);
	snprintf(text, len, "%s%s%s", op_head, body, op_tail);
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	struct weft_module *mod;
	int rc = weft_module_load_text(ctx, text, strlen(text), "op.ptx", &mod, &op_err);
	uint64_t d[4] = { 0 };
	const uint64_t *src[3] = { a, b, c };
	for (int i = 0; !rc && i < 4; i++) {
		rc = weft_malloc(ctx, (size_t)n * 8, &d[i], &op_err);
		if (!rc && i > 0 && src[i - 1])
			rc = weft_memcpy_htod(ctx, d[i], src[i - 1], (size_t)n * 8, &op_err);
	}
	if (!rc) {
		struct weft_arg args[] = { WEFT_ARG(d[0]), WEFT_ARG(d[1]), WEFT_ARG(d[2]), WEFT_ARG(d[3]) };
		rc = weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3((uint32_t)n, 1, 1), 0, args, 4,
				 &op_err);
	}
	if (!rc)
		rc = weft_memcpy_dtoh(ctx, out, d[0], (size_t)n * 8, &op_err);
	weft_ctx_destroy(ctx);
	free(text);
	return rc;
}

/* As op_try, failing the test (with the message) on error. */
#define OP_RUN(body, a, b, c, n, out)                                                   \
	do {                                                                            \
		int rc_ = op_try(body, a, b, c, n, out);                                \
		if (rc_) {                                                              \
			fprintf(stderr, "op_try failed: %s\n", op_err.message);         \
			fail();                                                         \
		}                                                                       \
	} while (0)

/* Loads a module into a fresh context. */
static inline struct weft_ctx *mod_load(const char *text, struct weft_module **mod, const struct weft_ctx_options *o)
{
	struct weft_ctx *ctx = weft_ctx_create(o);
	int rc = weft_module_load_text(ctx, text, strlen(text), "test.ptx", mod, &op_err);
	if (rc) {
		fprintf(stderr, "load failed: %s\n", op_err.message);
		weft_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

static inline uint64_t f2b(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static inline float b2f(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline uint64_t d2b(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}
static inline double b2d(uint64_t v)
{
	double f;
	memcpy(&f, &v, 8);
	return f;
}

#endif
