/*
 * test_trace_progio.c - the static program stored in a trace's LNCH record
 * (trace/format/trace_progio.c), read as hostile input: a program written
 * and read back is the same, and a stored program whose instructions name
 * something that does not exist is refused with a message, never used
 * (cases found by tests/fuzz/ fuzz_trace, where the models then computed
 * with the bad index).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/emu/host.h"
#include "trace/format/trace_format.h"
#include "trace/ptx/program.h"

/* A kernel with a symbol's address (mov of a .shared variable) and memory
 * operands naming a symbol ([param]). */
static const char ptx[] =
	".version 7.5\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .entry k(.param .u64 k_p0)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\t.shared .align 4 .b8 sbuf[64];\n"
	"\tld.param.u64 %rd1, [k_p0];\n"
	"\tmov.u64 %rd2, sbuf;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tst.shared.u32 [%rd2], %r1;\n"
	"\tcvta.to.global.u64 %rd3, %rd1;\n"
	"\tst.global.u32 [%rd3], %r1;\n"
	"\tret;\n"
	"}\n";

static struct weft_ctx *ctx;
static struct weft_module *mod;

static int setup(void **state)
{
	(void)state;
	struct weft_error err;
	ctx = weft_ctx_create(NULL);
	if (!ctx || weft_module_load_text(ctx, ptx, sizeof(ptx) - 1, "k.ptx", &mod, &err))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	weft_ctx_destroy(ctx);
	return 0;
}

static struct weft_program *program(void)
{
	struct weft_program *p;
	struct weft_error err;
	assert_int_equal(weft_module_program(mod, 0, &p, &err), 0);
	return p;
}

/* Writes p, reads it back: the read's status, why filled on failure. */
static int roundtrip(const struct weft_program *p, struct weft_program **out, char *why, size_t len)
{
	struct wt_buf b = { 0 };
	assert_int_equal(weft_trace_program_write(&b, p), 0);
	struct wt_rd r = { b.p, b.p + b.n, 0 };
	why[0] = 0;
	int rc = weft_trace_program_read(&r, out, why, len);
	if (rc == 0)
		assert_true(r.p == r.end);
	weft_trace_buf_free(&b);
	return rc;
}

/* The first operand of kind `kind` with a symbol (sym >= 0). */
static struct weft_operand *find_sym_operand(struct weft_program *p, uint8_t kind)
{
	for (uint32_t i = 0; i < p->ninsts; i++)
		for (int j = 0; j < p->insts[i].nopnd; j++)
			if (p->insts[i].opnd[j].kind == kind && p->insts[i].opnd[j].sym >= 0)
				return &p->insts[i].opnd[j];
	return NULL;
}

static void test_roundtrip(void **state)
{
	(void)state;
	struct weft_program *p = program(), *q;
	char why[256];
	assert_int_equal(roundtrip(p, &q, why, sizeof(why)), 0);
	assert_int_equal(q->ninsts, p->ninsts);
	assert_int_equal(q->nblocks, p->nblocks);
	assert_int_equal(q->nsyms, p->nsyms);
	for (uint32_t i = 0; i < p->ninsts; i++)
		assert_memory_equal(&q->insts[i].opnd, &p->insts[i].opnd, sizeof(p->insts[i].opnd));
	weft_program_free(q);
	weft_program_free(p);
}

static void test_symbol_out_of_range(void **state)
{
	(void)state;
	const int32_t bad[] = { -2, -1, 0x7fffffff, 0 /* replaced by nsyms */ };
	for (unsigned k = 0; k < 2 * sizeof(bad) / sizeof(bad[0]); k++) {
		struct weft_program *p = program(), *q = NULL;
		/* a symbol's address (SYM), then a memory operand (ADDR) */
		uint8_t kind = k % 2 ? WEFT_OPND_ADDR : WEFT_OPND_SYM;
		struct weft_operand *o = find_sym_operand(p, kind);
		assert_non_null(o);
		int32_t v = bad[k / 2] ? bad[k / 2] : (int32_t)p->nsyms;
		if (kind == WEFT_OPND_ADDR && v == -1) {
			weft_program_free(p); /* [reg] or [imm]: no symbol, valid */
			continue;
		}
		o->sym = v;
		char why[256];
		assert_int_equal(roundtrip(p, &q, why, sizeof(why)), WEFT_ERR_VERIFY);
		assert_null(q);
		assert_non_null(strstr(why, "names a symbol outside the"));
		weft_program_free(p);
	}
}

/* An instruction whose state space weft does not know (the readers index
 * per-space tables with it) is refused, naming the instruction. */
static void test_space_out_of_range(void **state)
{
	(void)state;
	struct weft_program *p = program(), *q = NULL;
	p->insts[0].space = WEFT_SPACE_COUNT;
	char why[256];
	assert_int_equal(roundtrip(p, &q, why, sizeof(why)), WEFT_ERR_VERIFY);
	assert_null(q);
	assert_non_null(strstr(why, "instruction 0: state space"));
	weft_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_symbol_out_of_range),
		cmocka_unit_test(test_space_out_of_range),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
