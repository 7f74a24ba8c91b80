/*
 * cmd_dump.c - `weft-trace dump FILE`: a trace as text, thread by thread:
 * every dynamic instruction with its pc, basic block, the instruction as PTX
 * (registers by name, branch targets as BBn), whether it executed or was
 * predicated off, its address and resolved state space, and where it came
 * from (PTX line; CUDA file:line when the PTX has .loc). Selections narrow
 * it to a launch, CTA or thread; --limit caps the instruction lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trace/format/trace.h"

static const char dump_usage[] =
	"usage: weft-trace dump FILE.wtr [--launch L] [--cta C] [--thread T] [--limit N]\n"
	"\n"
	"Prints the dynamic instructions of each selected thread: pc, basic block,\n"
	"the instruction (PTX syntax), `off` when predicated off, the address and\n"
	"state space of memory accesses, and the PTX line (and CUDA file:line when\n"
	"the PTX has .loc). CTAs and threads are linear ids (x fastest).\n"
	"\n"
	"Options:\n"
	"  --launch L   only launch L (default: all)\n"
	"  --cta C      only CTA C (default: all)\n"
	"  --thread T   only thread T of each CTA (default: all)\n"
	"  --limit N    stop after N instruction lines (default 200; 0 = no limit)\n"
	"  -h, --help   show this help\n"
	"  --version    print \"weft-trace VERSION\"\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (a missing, corrupt or truncated\n"
	"trace, or a file that is not a trace), 3 internal error (docs/cli.md).\n";

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || v > 0xffffffffull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static void coords(uint32_t lin, struct weft_dim3 d, char *buf, size_t len)
{
	uint32_t x = d.x ? lin % d.x : 0, y = d.x && d.y ? (lin / d.x) % d.y : 0;
	uint32_t z = d.x && d.y ? lin / d.x / d.y : 0;
	snprintf(buf, len, "(%u,%u,%u)", x, y, z);
}

struct dump {
	uint64_t limit, shown;
	int has_thread;
	uint32_t thread;
	int truncated;
};

static int dump_cta(struct dump *D, const struct weft_trace_launch *L, const struct weft_cta_trace *c)
{
	const struct weft_program *p = L->program;
	char cc[48], tc[48], text[256], where[300];
	coords(c->cta, L->grid, cc, sizeof(cc));
	printf("CTA %u %s\n", c->cta, cc);
	for (uint32_t t = 0; t < c->nthreads; t++) {
		if (D->has_thread && t != D->thread)
			continue;
		const struct weft_thread_trace *th = &c->threads[t];
		coords(t, L->block, tc, sizeof(tc));
		printf("  thread %u %s: %u blocks on its path, %u memory accesses\n", t, tc, th->nblocks, th->naddrs);
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		weft_thread_iter_init(&it, p, th);
		while (weft_thread_iter_next(&it, &d)) {
			if (D->limit && D->shown >= D->limit) {
				D->truncated = 1;
				return 1;
			}
			D->shown++;
			weft_program_format_inst(p, d.pc, text, sizeof(text));
			const struct weft_inst *in = &p->insts[d.pc];
			int n = snprintf(where, sizeof(where), "ptx:%u", in->pos.line);
			if (in->pos.src_file >= 0 && (uint32_t)in->pos.src_file < p->nfiles &&
			    p->files[in->pos.src_file] && n > 0 && (size_t)n < sizeof(where)) {
				const char *f = p->files[in->pos.src_file];
				const char *base = strrchr(f, '/');
				snprintf(where + n, sizeof(where) - (size_t)n, " %s:%u", base ? base + 1 : f,
					 in->pos.src_line);
			}
			char addr[64] = "";
			if (d.has_addr)
				snprintf(addr, sizeof(addr), "%s 0x%" PRIx64,
					 weft_ptx_space_name((enum weft_ptx_space)d.space), d.addr);
			printf("    %6u BB%-4u %-3s %-44s %-28s %s\n", d.pc, p->block_of[d.pc], d.exec ? "" : "off",
			       text, addr, where);
		}
	}
	return 0;
}

int weft_cmd_dump(int argc, char **argv)
{
	static const struct weft_opt opts[] = {
		{ "launch", 0, WEFT_OPT_ARG, 'l' }, { "cta", 0, WEFT_OPT_ARG, 'c' },
		{ "thread", 0, WEFT_OPT_ARG, 't' }, { "limit", 0, WEFT_OPT_ARG, 'n' },
		WEFT_OPT_HELP_VERSION,              { 0 },
	};
	struct dump D = { 200, 0, 0, 0, 0 };
	int has_launch = 0, has_cta = 0, rc;
	uint32_t launch = 0, cta = 0, lim;
	const char *path = NULL;
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int c; (c = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *bad = NULL;
		switch (c) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, c, dump_usage);
		case WEFT_OPT_OPERAND:
			if ((rc = weft_cli_trace_operand(p.arg, &path)))
				return rc;
			break;
		case 'l':
			has_launch = 1;
			if (parse_u32(p.arg, &launch))
				bad = "--launch";
			break;
		case 'c':
			has_cta = 1;
			if (parse_u32(p.arg, &cta))
				bad = "--cta";
			break;
		case 't':
			D.has_thread = 1;
			if (parse_u32(p.arg, &D.thread))
				bad = "--thread";
			break;
		case 'n':
			if (parse_u32(p.arg, &lim))
				bad = "--limit";
			D.limit = lim;
			break;
		}
		if (bad)
			return weft_cli_usage("bad %s `%.400s` (a non-negative integer)", bad, p.arg);
	}
	struct weft_trace *t;
	if ((rc = weft_cli_trace_given(path)) || (rc = weft_cli_trace_open(path, &t)))
		return rc;
	struct weft_error err;
	const struct weft_trace_info *I = weft_trace_info(t);
	if (has_launch && launch >= I->nlaunches) {
		weft_cli_say("--launch %u: the trace has %u launches (0..%u)", launch, I->nlaunches,
			     I->nlaunches ? I->nlaunches - 1 : 0);
		weft_trace_close(t);
		return 2;
	}
	struct weft_cta_trace ct;
	weft_cta_trace_init(&ct);
	int stop = 0;
	for (uint32_t l = has_launch ? launch : 0; !stop && l < I->nlaunches && (!has_launch || l == launch); l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		if (has_cta && cta >= L->nctas) {
			weft_cli_say("--cta %u: launch %u has %u CTAs (0..%u)", cta, l, L->nctas,
				     L->nctas ? L->nctas - 1 : 0);
			rc = 2;
			break;
		}
		if (D.has_thread && D.thread >= L->threads_per_cta) {
			weft_cli_say("--thread %u: launch %u has %u threads per CTA (0..%u)", D.thread, l,
				     L->threads_per_cta, L->threads_per_cta ? L->threads_per_cta - 1 : 0);
			rc = 2;
			break;
		}
		printf("launch %u: kernel %s, grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared, %u CTAs\n", l,
		       L->program->kernel, L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z,
		       L->dyn_shared, L->nctas);
		for (uint32_t k = has_cta ? cta : 0; k < L->nctas && (!has_cta || k == cta); k++) {
			if ((rc = weft_trace_read_cta(t, l, k, &ct, &err))) {
				rc = weft_cli_fail(&err);
				stop = 1;
				break;
			}
			if (dump_cta(&D, L, &ct)) {
				stop = 1;
				break;
			}
		}
	}
	if (D.truncated)
		printf("... stopped after %llu instruction lines (--limit; --limit 0 shows everything)\n",
		       (unsigned long long)D.shown);
	weft_cta_trace_free(&ct);
	weft_trace_close(t);
	return rc;
}
