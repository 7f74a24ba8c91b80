/*
 * fuzz_ptx.c - libFuzzer target: the PTX loader (trace/ptx/) and a bounded
 * emulation of what it loads (trace/emu/).
 *
 * The input is a PTX file's text. The harness loads it into an emulator
 * context (weft_module_load_text: lexing, parsing, checking, module
 * variables), prints every instruction back (weft_ptx_format_inst, as
 * dumps and messages do), and for the module's first kernel builds its
 * static program (weft_module_program) and launches it the way
 * `weft-trace run --spec` would, on a tiny grid: 2 CTAs of 40 threads (or
 * the kernel's .reqntid when it asks for at most 128), 256 bytes of
 * dynamic shared memory (device printf formatted and checked against its
 * bound, then dropped), every 8-byte parameter pointing at a zeroed 4 KiB
 * device buffer (a kernel with texture or surface instructions gets
 * object handles over it in its first ones) and every other one holding
 * small numbers. The launch's
 * instruction budget (struct weft_ctx_options max_launch_insts, as
 * `weft-trace run --max-launch-insts`) bounds the run, so a kernel that
 * loops forever stops with WEFT_ERR_LIMIT.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/emu/host.h"
#include "trace/ptx/program.h"

#define MAX_THREAD_INSTS 20000
#define BUF_BYTES 4096
#define MAX_ARGS 64

static int verbose = -1; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose < 0)
		verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "fuzz_ptx: %s: %s\n", step, rc ? err->message : "ok");
}

static void print_insts(const struct weft_ptx_module *m)
{
	char buf[512];
	for (uint32_t f = 0; f < m->nfuncs; f++)
		for (uint32_t i = 0; i < m->funcs[f].ninsts; i++)
			weft_ptx_format_inst(m, &m->funcs[f], &m->funcs[f].insts[i], buf, sizeof(buf));
}

static void launch(struct weft_ctx *ctx, struct weft_module *mod, uint32_t k)
{
	const struct weft_ptx_func *f = &weft_module_ptx(mod)->funcs[k];
	struct weft_error err;
	struct weft_program *prog;
	int rc = weft_module_program(mod, k, &prog, &err);
	say("program", rc, &err);
	if (rc == 0) {
		char buf[512];
		for (uint32_t pc = 0; pc < prog->ninsts; pc++)
			weft_program_format_inst(prog, pc, buf, sizeof(buf));
		weft_program_free(prog);
	}
	if (f->nparams > MAX_ARGS)
		return;
	uint64_t dptr;
	if (weft_malloc(ctx, BUF_BYTES, &dptr, &err))
		return;
	/* a kernel with texture or surface instructions gets object handles
	 * over the buffer in its first 8-byte parameters (a 2-D float texture
	 * with linear filtering, then a surface), the rest the buffer */
	int tex = 0, surf = 0;
	for (uint32_t i = 0; i < f->ninsts; i++) {
		tex |= f->insts[i].op == WEFT_OP_TEX || f->insts[i].op == WEFT_OP_TLD4;
		surf |= f->insts[i].op == WEFT_OP_SULD || f->insts[i].op == WEFT_OP_SUST;
	}
	uint64_t handles[2];
	int nh = 0;
	struct weft_tex_resource res = { dptr, 16, 8, 128, WEFT_CHANNEL_FLOAT, 32, 2, 0 };
	struct weft_tex_desc desc = { { WEFT_ADDRESS_WRAP, WEFT_ADDRESS_BORDER }, WEFT_FILTER_LINEAR, 0, 1,
				      { 1, 2, 3, 4 } };
	if (tex && weft_tex_create(ctx, &res, &desc, &handles[nh], &err) == 0)
		nh++;
	if (surf && weft_surf_create(ctx, &res, &handles[nh], &err) == 0)
		nh++;
	static const uint8_t zeros[BUF_BYTES];
	uint64_t small = 16;
	struct weft_arg args[MAX_ARGS];
	for (uint32_t i = 0, h = 0; i < f->nparams; i++) {
		uint32_t sz = f->params[i].size;
		if (sz > sizeof(zeros))
			return;
		args[i].size = sz;
		args[i].data = sz == 8 ? (h < (uint32_t)nh ? (const void *)&handles[h++] : (const void *)&dptr)
			       : sz <= 4 ? (const void *)&small
					 : zeros;
	}
	struct weft_dim3 block = weft_dim3(40, 1, 1);
	const uint32_t *r = f->reqntid;
	if (r[0] && (uint64_t)r[0] * (r[1] ? r[1] : 1) * (r[2] ? r[2] : 1) <= 128)
		block = weft_dim3(r[0], r[1] ? r[1] : 1, r[2] ? r[2] : 1);
	rc = weft_launch(ctx, mod, f->name, weft_dim3(2, 1, 1), block, 256, args, f->nparams, &err);
	say("launch", rc, &err);
}

/* Device printf's text (trace/emu/emu_printf.c): never over its bound. */
static void print_sink(void *user, const char *text, size_t len)
{
	(void)user;
	if (len > WEFT_PRINTF_MAX_TEXT || (len && !text))
		abort();
	volatile char last = len ? text[len - 1] : 0; /* every byte readable (ASan) */
	(void)last;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct weft_ctx_options opts;
	memset(&opts, 0, sizeof(opts));
	opts.max_launch_insts = MAX_THREAD_INSTS;
	opts.print = print_sink;
	struct weft_ctx *ctx = weft_ctx_create(&opts);
	if (!ctx)
		return 0;
	struct weft_module *mod;
	struct weft_error err;
	int rc = weft_module_load_text(ctx, (const char *)data, size, "fuzz.ptx", &mod, &err);
	say("load", rc, &err);
	if (rc == 0) {
		const struct weft_ptx_module *m = weft_module_ptx(mod);
		print_insts(m);
		for (uint32_t k = 0; k < m->nfuncs; k++)
			if (m->funcs[k].is_entry && !m->funcs[k].is_extern) {
				launch(ctx, mod, k);
				break;
			}
	}
	weft_ctx_destroy(ctx);
	return 0;
}
