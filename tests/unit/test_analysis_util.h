/*
 * test_analysis_util.h - helpers for the models/analysis tests: build the
 * static program of a small PTX kernel written in the test (through the host
 * API, exactly as models get it), run every analysis on it, and find
 * instructions by opcode.
 */
#ifndef WEFT_TEST_ANALYSIS_UTIL_H
#define WEFT_TEST_ANALYSIS_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/emu/host.h"
#include "models/analysis/analysis.h"
#include "trace/ptx/program.h"

struct an_all {
	struct weft_program *p;
	struct weft_dom dom;
	struct weft_loops loops;
	struct weft_defuse du;
	struct weft_uniform u;
};

/* Loads `text` and builds kernel `kernel`'s program; NULL (message on
 * stderr) on failure. */
static inline struct weft_program *an_program(const char *text, const char *kernel)
{
	struct weft_error err;
	weft_error_clear(&err);
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	struct weft_module *mod = NULL;
	struct weft_program *p = NULL;
	if (!ctx)
		return NULL;
	if (weft_module_load_text(ctx, text, strlen(text), "test.ptx", &mod, &err) == 0) {
		int k = weft_ptx_find_func(weft_module_ptx(mod), kernel);
		if (k < 0 || weft_module_program(mod, (uint32_t)k, &p, &err) != 0) {
			fprintf(stderr, "program of %s failed: %s\n", kernel, err.message);
			p = NULL;
		}
	} else {
		fprintf(stderr, "load failed: %s\n", err.message);
	}
	weft_ctx_destroy(ctx);
	return p;
}

/* All analyses; returns 0 or prints why not. */
static inline int an_build(struct an_all *a, struct weft_program *p)
{
	struct weft_error err;
	memset(a, 0, sizeof(*a));
	a->p = p;
	if (!p)
		return -1;
	if (weft_dom_build(p, &a->dom, &err) || weft_loops_build(p, &a->dom, &a->loops, &err) ||
	    weft_defuse_build(p, &a->dom, &a->du, &err) ||
	    weft_uniform_build(p, &a->dom, &a->loops, &a->u, &err)) {
		fprintf(stderr, "analysis failed: %s\n", err.message);
		return -1;
	}
	return 0;
}

static inline void an_free(struct an_all *a)
{
	weft_uniform_free(&a->u);
	weft_defuse_free(&a->du);
	weft_loops_free(&a->loops);
	weft_dom_free(&a->dom);
	weft_program_free(a->p);
	memset(a, 0, sizeof(*a));
}

/* pc of the n-th (0-based) instruction with opcode op, or UINT32_MAX. */
static inline uint32_t an_pc(const struct weft_program *p, int op, unsigned n)
{
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		if (p->insts[pc].op == op && n-- == 0)
			return pc;
	return UINT32_MAX;
}

/* Block of the n-th instruction with opcode op. */
static inline uint32_t an_block(const struct weft_program *p, int op, unsigned n)
{
	uint32_t pc = an_pc(p, op, n);
	return pc == UINT32_MAX ? UINT32_MAX : p->block_of[pc];
}

/* Loop index whose header is block h, or WEFT_NO_LOOP. */
static inline uint32_t an_loop_of_header(const struct weft_loops *l, uint32_t h)
{
	for (uint32_t i = 0; i < l->nloops; i++)
		if (l->loops[i].header == h)
			return i;
	return WEFT_NO_LOOP;
}

/* Dumps the program with per-instruction uniformity, for failing tests. */
static inline void an_dump(const struct an_all *a)
{
	char buf[256];
	for (uint32_t pc = 0; pc < a->p->ninsts; pc++) {
		weft_program_format_inst(a->p, pc, buf, sizeof(buf));
		const struct weft_uinst *ui = &a->u.inst[pc];
		fprintf(stderr, "  B%-3u %3u %-40s %-7s", a->p->block_of[pc], pc, buf,
			weft_uclass_name(ui->cls));
		if (ui->is_mem)
			fprintf(stderr, " addr=%s stride=%lld/%lld known=%u unit=%u",
				weft_uclass_name(ui->addr_cls), (long long)ui->addr_stride[0],
				(long long)ui->addr_stride[1], ui->stride_known, ui->unit_stride);
		if (ui->divergent)
			fprintf(stderr, " DIVERGENT");
		fprintf(stderr, "\n");
	}
}

#define PTX_HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

#endif
