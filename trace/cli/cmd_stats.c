/*
 * cmd_stats.c - `weft-trace stats FILE`: what a trace says about its
 * kernels, for choosing and sanity-checking timing models:
 *   - instruction mix by class, static (program) and dynamic (executed
 *     thread instructions);
 *   - memory footprint per resolved state space (accesses, bytes, distinct
 *     128-byte lines and 4-byte words);
 *   - divergence: group instructions and SIMD efficiency for group widths
 *     8, 16, 32, 64 under each divergence policy (models/group.h);
 *   - uniformity: static and executed instructions by uniformity class and
 *     memory accesses by address pattern (models/analysis, uniform.c);
 *   - loops with their trip counts measured on the thread paths.
 * Text for people, --format json for scripts; every JSON key is documented
 * in docs/analysis.md ("weft-trace stats JSON").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "models/analysis/analysis.h"
#include "models/group.h"
#include "common/quote.h"
#include "trace/format/trace.h"

static const char stats_usage[] =
	"usage: weft-trace stats FILE.wtr [--format text|json] [--launch L] [--every K]\n"
	"\n"
	"Prints, per launch of the trace: the instruction mix by class (static and\n"
	"executed), the memory footprint per state space (distinct 128-byte lines\n"
	"and 4-byte words), divergence per group width (8, 16, 32, 64) and policy\n"
	"(ipdom, fifo, 1stack, 2stack, predicate) as group instructions and SIMD\n"
	"efficiency, the uniform/affine fractions of instructions and memory\n"
	"accesses, and every loop with its trip counts.\n"
	"\n"
	"Options:\n"
	"  --format F   text (default) or json (keys: docs/analysis.md)\n"
	"  --launch L   only launch L (0-based; default: every launch)\n"
	"  --every K    read every K-th CTA only (CTA sampling; default 1 = all)\n"
	"  -h, --help   show this help\n"
	"  --version    print \"weft-trace VERSION\"\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (a missing, corrupt or truncated\n"
	"trace, or a file that is not a trace), 3 internal error (docs/cli.md).\n";

static const unsigned widths[] = { 8, 16, 32, 64 };
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

/* Address patterns of executed memory accesses. */
enum { AP_UNIFORM = 0, AP_UNIT, AP_STRIDED, AP_AFFINE_UNKNOWN, AP_VARYING, AP_COUNT };
static const char *const ap_names[AP_COUNT] = {
	"uniform", "unit_stride", "strided", "affine_unknown_stride", "varying",
};

struct lstats {
	const struct weft_trace_launch *L;
	const struct weft_program *p;
	struct weft_dom dom;
	struct weft_loops loops;
	struct weft_uniform u;
	struct weft_group_prog gp;
	struct weft_trips trips;
	struct weft_footprint fp;
	struct weft_group_stats gs[NWIDTHS][WEFT_DIV_COUNT];
	uint8_t *ap;              /* [ninsts] address pattern of each memory instruction */
	uint64_t ctas, threads;
	uint64_t thread_insts, pred_off;
	uint64_t static_cls[WEFT_IC_COUNT], dyn_cls[WEFT_IC_COUNT];
	uint64_t static_u[WEFT_UC_COUNT], dyn_u[WEFT_UC_COUNT];
	uint64_t static_ap[AP_COUNT], dyn_ap[AP_COUNT];
	uint64_t static_mem, dyn_mem, divergent_branches;
	uint64_t dfg_depth;       /* longest register dependence chain (dfg.c) */
	uint32_t live_words, live_preds; /* most registers live at once (liveness.c) */
};

static unsigned addr_pattern(const struct weft_uinst *ui)
{
	switch (ui->addr_cls) {
	case WEFT_UC_CONST: case WEFT_UC_LAUNCH: case WEFT_UC_CTA:
		return AP_UNIFORM;
	case WEFT_UC_AFFINE:
		if (ui->unit_stride)
			return AP_UNIT;
		return (ui->stride_known & 1) ? AP_STRIDED : AP_AFFINE_UNKNOWN;
	default:
		return AP_VARYING;
	}
}

static void lstats_free(struct lstats *s)
{
	weft_trips_free(&s->trips);
	weft_footprint_free(&s->fp);
	weft_group_prog_free(&s->gp);
	weft_uniform_free(&s->u);
	weft_loops_free(&s->loops);
	weft_dom_free(&s->dom);
	free(s->ap);
}

static int lstats_init(struct lstats *s, const struct weft_trace_launch *L, struct weft_error *err)
{
	memset(s, 0, sizeof(*s));
	s->L = L;
	s->p = L->program;
	const struct weft_program *p = s->p;
	int rc;
	weft_footprint_init(&s->fp);
	if ((rc = weft_dom_build(p, &s->dom, err)) || (rc = weft_loops_build(p, &s->dom, &s->loops, err)) ||
	    (rc = weft_uniform_build(p, &s->dom, &s->loops, &s->u, err)) ||
	    (rc = weft_group_prog_init(&s->gp, p, err)) || (rc = weft_trips_init(&s->trips, &s->loops, err)))
		return rc;
	s->ap = calloc((size_t)p->ninsts + 1, 1);
	uint64_t *depth = calloc((size_t)p->ninsts + 1, sizeof(uint64_t));
	struct weft_defuse du;
	if (!s->ap || !depth) {
		free(depth);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for stats");
	}
	if ((rc = weft_defuse_build(p, &s->dom, &du, err))) {
		free(depth);
		return rc;
	}
	rc = weft_dfg_depth(p, &s->dom, &du, NULL, depth, &s->dfg_depth, err);
	weft_defuse_free(&du);
	free(depth);
	if (rc)
		return rc;
	struct weft_liveness lv;
	if ((rc = weft_liveness_build(p, &s->dom, &lv, err)))
		return rc;
	s->live_words = lv.max_words;
	s->live_preds = lv.max_preds;
	weft_liveness_free(&lv);
	for (unsigned w = 0; w < NWIDTHS; w++)
		for (unsigned pol = 0; pol < WEFT_DIV_COUNT; pol++)
			weft_group_stats_init(&s->gs[w][pol], widths[w], (enum weft_div_policy)pol);
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct weft_uinst *ui = &s->u.inst[pc];
		s->static_cls[p->info[pc].cls < WEFT_IC_COUNT ? p->info[pc].cls : WEFT_IC_OTHER]++;
		s->static_u[ui->cls]++;
		s->divergent_branches += ui->divergent;
		if (ui->is_mem) {
			s->ap[pc] = (uint8_t)addr_pattern(ui);
			s->static_ap[s->ap[pc]]++;
			s->static_mem++;
		}
	}
	return 0;
}

static int on_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct lstats *s = user;
	const struct weft_program *p = s->p;
	int rc;
	s->ctas++;
	s->threads += c->nthreads;
	weft_trips_add_cta(&s->trips, c);
	for (uint32_t t = 0; t < c->nthreads; t++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst di;
		weft_thread_iter_init(&it, p, &c->threads[t]);
		while (weft_thread_iter_next(&it, &di)) {
			if (!di.exec) {
				s->pred_off++;
				continue;
			}
			const struct weft_inst_info *ii = &p->info[di.pc];
			s->thread_insts++;
			s->dyn_cls[ii->cls < WEFT_IC_COUNT ? ii->cls : WEFT_IC_OTHER]++;
			s->dyn_u[s->u.inst[di.pc].cls]++;
			if (di.has_addr) {
				s->dyn_mem++;
				s->dyn_ap[s->ap[di.pc]]++;
				if ((rc = weft_footprint_add(&s->fp, di.space, di.addr, ii->access_bytes)))
					return weft_error_set(err, rc, "out of memory for the memory footprint");
			}
		}
	}
	weft_footprint_cta_end(&s->fp);
	for (unsigned w = 0; w < NWIDTHS; w++)
		for (unsigned pol = 0; pol < WEFT_DIV_COUNT; pol++)
			if ((rc = weft_group_stats_add_cta(&s->gs[w][pol], &s->gp, c, err)))
				return rc;
	return 0;
}

/* ---- output --------------------------------------------------------------- */

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static uint64_t uniform_count(const uint64_t *u)
{
	return u[WEFT_UC_CONST] + u[WEFT_UC_LAUNCH] + u[WEFT_UC_CTA];
}

static void print_json_launch(FILE *f, const struct lstats *s, int last)
{
	const struct weft_trace_launch *L = s->L;
	const struct weft_program *p = s->p;
	fprintf(f, "    {\n      \"index\": %u,\n      \"kernel\": ", L->index);
	weft_quote_json(f, p->kernel);
	fprintf(f, ",\n      \"grid\": [%u, %u, %u],\n      \"block\": [%u, %u, %u],\n", L->grid.x,
		L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z);
	fprintf(f, "      \"ctas\": %u,\n      \"ctas_read\": %" PRIu64 ",\n      \"threads_read\": %" PRIu64
		   ",\n",
		L->nctas, s->ctas, s->threads);
	fprintf(f, "      \"thread_insts\": %" PRIu64 ",\n      \"predicated_off\": %" PRIu64
		   ",\n      \"static_insts\": %u,\n      \"static_blocks\": %u,\n"
		   "      \"dfg_depth\": %" PRIu64 ",\n      \"irreducible_edges\": %u,\n"
		   "      \"max_live_words\": %u,\n      \"max_live_preds\": %u,\n      \"ptx_registers\": %u,\n",
		s->thread_insts, s->pred_off, p->ninsts, p->nblocks, s->dfg_depth, s->loops.nirreducible,
		s->live_words, s->live_preds, p->nregs);
	fprintf(f, "      \"mix\": {");
	for (unsigned c = 0; c < WEFT_IC_COUNT; c++)
		fprintf(f, "%s\n        \"%s\": { \"static\": %" PRIu64 ", \"dynamic\": %" PRIu64
			   ", \"dynamic_fraction\": %.6f }",
			c ? "," : "", weft_inst_class_name((enum weft_inst_class)c), s->static_cls[c],
			s->dyn_cls[c], frac(s->dyn_cls[c], s->thread_insts));
	fprintf(f, "\n      },\n      \"memory\": {");
	int first = 1;
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		if (!s->fp.accesses[sp])
			continue;
		fprintf(f, "%s\n        \"%s\": { \"accesses\": %" PRIu64 ", \"bytes\": %" PRIu64
			   ", \"lines_128\": %" PRIu64 ", \"words_4\": %" PRIu64 " }",
			first ? "" : ",", weft_ptx_space_name((enum weft_ptx_space)sp), s->fp.accesses[sp],
			s->fp.bytes[sp], s->fp.lines[sp], s->fp.words[sp]);
		first = 0;
	}
	fprintf(f, "\n      },\n      \"divergence\": [");
	for (unsigned w = 0; w < NWIDTHS; w++)
		for (unsigned pol = 0; pol < WEFT_DIV_COUNT; pol++) {
			const struct weft_group_stats *g = &s->gs[w][pol];
			fprintf(f, "%s\n        { \"width\": %u, \"policy\": \"%s\", \"groups\": %" PRIu64
				   ", \"group_insts\": %" PRIu64 ", \"thread_insts\": %" PRIu64
				   ", \"issued_lanes\": %" PRIu64 ", \"simd_efficiency\": %.6f }",
				w || pol ? "," : "", widths[w], weft_div_policy_name((enum weft_div_policy)pol),
				g->groups, g->group_insts, g->thread_insts, g->issue_lanes,
				weft_group_stats_efficiency(g));
		}
	fprintf(f, "\n      ],\n      \"uniformity\": {\n");
	for (int dyn = 0; dyn < 2; dyn++) {
		const uint64_t *u = dyn ? s->dyn_u : s->static_u;
		uint64_t tot = dyn ? s->thread_insts : p->ninsts;
		fprintf(f, "        \"%s\": {", dyn ? "dynamic" : "static");
		for (unsigned c = 0; c < WEFT_UC_COUNT; c++)
			fprintf(f, " \"%s\": %" PRIu64 ",", weft_uclass_name((enum weft_uclass)c), u[c]);
		fprintf(f, " \"uniform_fraction\": %.6f, \"affine_fraction\": %.6f, \"varying_fraction\": %.6f },\n",
			frac(uniform_count(u), tot), frac(u[WEFT_UC_AFFINE], tot),
			frac(u[WEFT_UC_VARYING], tot));
	}
	for (int dyn = 0; dyn < 2; dyn++) {
		const uint64_t *a = dyn ? s->dyn_ap : s->static_ap;
		uint64_t tot = dyn ? s->dyn_mem : s->static_mem;
		fprintf(f, "        \"%s\": { \"accesses\": %" PRIu64 ",", dyn ? "memory_dynamic" : "memory_static",
			tot);
		for (unsigned k = 0; k < AP_COUNT; k++)
			fprintf(f, " \"%s\": %" PRIu64 ",", ap_names[k], a[k]);
		fprintf(f, " \"unit_stride_fraction\": %.6f, \"strided_fraction\": %.6f, \"uniform_fraction\": %.6f },\n",
			frac(a[AP_UNIT], tot), frac(a[AP_STRIDED] + a[AP_AFFINE_UNKNOWN], tot),
			frac(a[AP_UNIFORM], tot));
	}
	fprintf(f, "        \"divergent_branches\": %" PRIu64 "\n      },\n      \"loops\": [", s->divergent_branches);
	for (uint32_t li = 0; li < s->loops.nloops; li++) {
		const struct weft_loop *lp = &s->loops.loops[li];
		const struct weft_trip_stat *t = &s->trips.stat[li];
		fprintf(f, "%s\n        { \"index\": %u, \"header\": %u, \"header_pc\": %u, \"depth\": %u, \"parent\": %d,"
			   " \"blocks\": %u, \"latches\": %u, \"exits\": %u, \"static_divergent\": %s,"
			   " \"entries\": %" PRIu64 ", \"trip_min\": %" PRIu64 ", \"trip_mean\": %.6f,"
			   " \"trip_max\": %" PRIu64 ", \"ctas\": %" PRIu64 ", \"ctas_varying\": %" PRIu64
			   ", \"trip_hist\": [",
			li ? "," : "", li, lp->header, p->blocks[lp->header].first, lp->depth,
			lp->parent == WEFT_NO_LOOP ? -1 : (int)lp->parent, lp->nblocks, lp->nlatches, lp->nexits,
			s->u.loop_divergent[li] ? "true" : "false", t->entries, t->min, weft_trip_mean(t), t->max,
			t->ctas, t->ctas_varying);
		int fb = 1;
		for (unsigned k = 0; k < WEFT_TRIP_BUCKETS; k++) {
			if (!t->hist[k])
				continue;
			uint64_t lo = k ? (uint64_t)1 << k : 0, hi = ((uint64_t)1 << (k + 1)) - 1;
			if (k == 0)
				lo = 0, hi = 1;
			fprintf(f, "%s{ \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"count\": %" PRIu64 " }",
				fb ? "" : ", ", lo, hi, t->hist[k]);
			fb = 0;
		}
		fprintf(f, "] }");
	}
	fprintf(f, "%s]\n    }%s\n", s->loops.nloops ? "\n      " : "", last ? "" : ",");
}

static void print_text_launch(FILE *f, const struct lstats *s)
{
	const struct weft_trace_launch *L = s->L;
	const struct weft_program *p = s->p;
	fprintf(f, "launch %u: %s  grid (%u,%u,%u)  block (%u,%u,%u)  %" PRIu64 " of %u CTAs read, %" PRIu64
		   " threads\n",
		L->index, p->kernel ? p->kernel : "?", L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y,
		L->block.z, s->ctas, L->nctas, s->threads);
	fprintf(f, "  thread instructions %" PRIu64 " executed, %" PRIu64 " predicated off; program %u instructions, %u blocks\n",
		s->thread_insts, s->pred_off, p->ninsts, p->nblocks);
	fprintf(f, "  longest register dependence chain %" PRIu64 " instructions (loop-carried edges left out)\n",
		s->dfg_depth);
	fprintf(f, "  registers live at once: at most %u 32-bit words and %u predicates (of %u PTX registers)\n",
		s->live_words, s->live_preds, p->nregs);
	fprintf(f, "\n  instruction mix     static    dynamic   dyn %%\n");
	for (unsigned c = 0; c < WEFT_IC_COUNT; c++)
		if (s->static_cls[c])
			fprintf(f, "    %-12s %10" PRIu64 " %10" PRIu64 " %7.2f\n",
				weft_inst_class_name((enum weft_inst_class)c), s->static_cls[c], s->dyn_cls[c],
				100.0 * frac(s->dyn_cls[c], s->thread_insts));
	fprintf(f, "\n  memory       accesses        bytes  128B lines  4B words\n");
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++)
		if (s->fp.accesses[sp])
			fprintf(f, "    %-8s %10" PRIu64 " %12" PRIu64 " %11" PRIu64 " %9" PRIu64 "\n",
				weft_ptx_space_name((enum weft_ptx_space)sp), s->fp.accesses[sp], s->fp.bytes[sp],
				s->fp.lines[sp], s->fp.words[sp]);
	fprintf(f, "\n  divergence: SIMD efficiency (group instructions)\n    width");
	for (unsigned pol = 0; pol < WEFT_DIV_COUNT; pol++)
		fprintf(f, " %18s", weft_div_policy_name((enum weft_div_policy)pol));
	fprintf(f, "\n");
	for (unsigned w = 0; w < NWIDTHS; w++) {
		fprintf(f, "    %5u", widths[w]);
		for (unsigned pol = 0; pol < WEFT_DIV_COUNT; pol++) {
			char cell[40];
			snprintf(cell, sizeof(cell), "%.3f (%" PRIu64 ")",
				 weft_group_stats_efficiency(&s->gs[w][pol]), s->gs[w][pol].group_insts);
			fprintf(f, " %18s", cell);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n  uniformity           static %%   dynamic %%\n");
	for (unsigned c = 0; c < WEFT_UC_COUNT; c++)
		fprintf(f, "    %-16s %9.2f %11.2f\n", weft_uclass_name((enum weft_uclass)c),
			100.0 * frac(s->static_u[c], p->ninsts), 100.0 * frac(s->dyn_u[c], s->thread_insts));
	fprintf(f, "    uniform (const+launch+cta) %.2f%% of executed, affine %.2f%%; %" PRIu64
		   " divergent branches\n",
		100.0 * frac(uniform_count(s->dyn_u), s->thread_insts),
		100.0 * frac(s->dyn_u[WEFT_UC_AFFINE], s->thread_insts), s->divergent_branches);
	fprintf(f, "  memory addresses     static %%   dynamic %%\n");
	for (unsigned k = 0; k < AP_COUNT; k++)
		fprintf(f, "    %-22s %7.2f %11.2f\n", ap_names[k], 100.0 * frac(s->static_ap[k], s->static_mem),
			100.0 * frac(s->dyn_ap[k], s->dyn_mem));
	fprintf(f, "\n  loops: %u", s->loops.nloops);
	if (s->loops.nirreducible)
		fprintf(f, " (%u irreducible edges not counted)", s->loops.nirreducible);
	fprintf(f, "\n");
	if (s->loops.nloops)
		fprintf(f, "    loop header(pc) depth blocks divergent    entries   trip min     mean      max  varying CTAs\n");
	for (uint32_t li = 0; li < s->loops.nloops; li++) {
		const struct weft_loop *lp = &s->loops.loops[li];
		const struct weft_trip_stat *t = &s->trips.stat[li];
		char hdr[32];
		snprintf(hdr, sizeof(hdr), "B%u(%u)", lp->header, p->blocks[lp->header].first);
		fprintf(f, "    %4u %-10s %5u %6u %-9s %10" PRIu64 " %10" PRIu64 " %8.2f %8" PRIu64 " %5" PRIu64
			   "/%" PRIu64 "\n",
			li, hdr, lp->depth, lp->nblocks, s->u.loop_divergent[li] ? "yes" : "no", t->entries, t->min,
			weft_trip_mean(t), t->max, t->ctas_varying, t->ctas);
	}
}

int weft_cmd_stats(int argc, char **argv)
{
	static const struct weft_opt opts[] = {
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		{ "launch", 0, WEFT_OPT_ARG, 'l' },
		{ "every", 0, WEFT_OPT_ARG, 'e' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	int json = 0, rc;
	long launch = -1, every = 1;
	char *end;
	const char *path = NULL;
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int c; (c = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (c) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, c, stats_usage);
		case WEFT_OPT_OPERAND:
			if ((rc = weft_cli_trace_operand(p.arg, &path)))
				return rc;
			break;
		case 'f':
			if (strcmp(p.arg, "json") == 0)
				json = 1;
			else if (strcmp(p.arg, "text") == 0)
				json = 0;
			else {
				return weft_cli_usage("bad --format `%.400s` (text or json)", p.arg);
			}
			break;
		case 'l':
			launch = strtol(p.arg, &end, 10);
			if (!*p.arg || *end || launch < 0) {
				return weft_cli_usage("bad --launch `%.400s` (a launch number: 0, 1, ...)", p.arg);
			}
			break;
		case 'e':
			every = strtol(p.arg, &end, 10);
			if (!*p.arg || *end || every < 1) {
				return weft_cli_usage("bad --every `%.400s` (a positive integer)", p.arg);
			}
			break;
		}
	}
	struct weft_trace *t = NULL;
	if ((rc = weft_cli_trace_given(path)) || (rc = weft_cli_trace_open(path, &t)))
		return rc;
	struct weft_error err;
	weft_error_clear(&err);
	const struct weft_trace_info *info = weft_trace_info(t);
	if (launch >= 0 && (uint64_t)launch >= info->nlaunches) {
		weft_cli_say("%s has %u launch%s; --launch %ld is out of range (use 0..%u)", path,
			     info->nlaunches, info->nlaunches == 1 ? "" : "es", launch,
			     info->nlaunches ? info->nlaunches - 1 : 0);
		weft_trace_close(t);
		return 2;
	}
	struct weft_cta_sample sample = { .kind = every > 1 ? WEFT_SAMPLE_EVERY : WEFT_SAMPLE_ALL,
					  .every = (uint32_t)every };
	char sdesc[128];
	weft_cta_sample_describe(&sample, sdesc, sizeof(sdesc));
	uint32_t lo = launch >= 0 ? (uint32_t)launch : 0;
	uint32_t hi = launch >= 0 ? (uint32_t)launch + 1 : info->nlaunches;
	uint32_t n = hi - lo;
	struct lstats *ls = calloc((size_t)n + 1, sizeof(*ls));
	if (!ls) {
		weft_trace_close(t);
		weft_error_set(&err, WEFT_ERR_NOMEM, "out of memory");
		return weft_cli_fail(&err);
	}
	uint32_t done = 0;
	uint64_t total = 0;
	for (uint32_t i = 0; i < n && !rc; i++, done++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, lo + i);
		if (!(rc = lstats_init(&ls[i], L, &err)))
			rc = weft_trace_for_each_cta(t, lo + i, &sample, 0, on_cta, &ls[i], &err);
		weft_footprint_finish(&ls[i].fp);
		total += ls[i].thread_insts;
	}
	if (rc) {
		weft_error_prefix(&err, "%s, launch %u: ", path, lo + done - 1);
		rc = weft_cli_fail(&err);
	} else if (json) {
		printf("{\n  \"file\": ");
		weft_quote_json(stdout, path);
		printf(",\n  \"file_bytes\": %" PRIu64 ",\n  \"version\": %u,\n  \"workload\": ", info->file_bytes,
		       info->version);
		weft_quote_json(stdout, info->workload);
		printf(",\n  \"size\": ");
		weft_quote_json(stdout, info->size);
		printf(",\n  \"sample\": ");
		weft_quote_json(stdout, sdesc);
		printf(",\n  \"launches\": %u,\n  \"thread_insts\": %" PRIu64 ",\n  \"launch_list\": [\n",
		       info->nlaunches, total);
		for (uint32_t i = 0; i < n; i++)
			print_json_launch(stdout, &ls[i], i + 1 == n);
		printf("  ]\n}\n");
	} else {
		printf("%s: %" PRIu64 " bytes, %u launch%s, %" PRIu64 " thread instructions read (%s)\n", path,
		       info->file_bytes, info->nlaunches, info->nlaunches == 1 ? "" : "es", total, sdesc);
		for (uint32_t i = 0; i < n; i++) {
			printf("\n");
			print_text_launch(stdout, &ls[i]);
		}
	}
	for (uint32_t i = 0; i < done; i++)
		lstats_free(&ls[i]);
	free(ls);
	weft_trace_close(t);
	return rc;
}
