/*
 * overlay.c - the GPU-like FPGA overlay model ("overlay"): a soft processor
 * on an FPGA that runs shader-style kernels in batches of 4 threads in
 * lock-step under full predication, with `batches` hardware batch contexts
 * sharing one deeply pipelined floating-point ALU and a HyperTransport link
 * to the host's memory (Kingyens and Steffan, "The Potential for a GPU-Like
 * Overlay Architecture for FPGAs", International Journal of Reconfigurable
 * Computing, 2011).
 *
 * Every CUDA thread is a thread of the overlay; a CTA's threads in linear
 * order form batches of 4 (overlay_sched.c). Each PTX instruction becomes
 * an ALU instruction, a TEX (load), an atomic, a store, a folded constant
 * operand or sequencer control (overlay_map.c). The batch scheduler times
 * the batches period by period (4 cycles: 3 ALU operand reads and 1 TEX
 * read, the study's Table 1), with the 64-stage ALU pipeline, the TEX
 * semaphores, 32 outstanding requests of 305 ns and the link's
 * serialisation. Reports: ALU utilisation and the idle periods' reasons
 * (semwait, inside_alu, not_alu) as the CPI stack, the ALU:TEX ratio,
 * TEX queue occupancy, link utilisation, and instead of area the register
 * file's size and the Stratix II block RAMs it takes. The study reports no
 * energy and weft has no FPGA energy table: the model counts no energy
 * events (docs/models/overlay.md has every mechanism, constant and
 * assumption).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlay.h"
#include "common/sbuf.h"

#define KS "Kingyens & Steffan, IJRC 2011"
#define HT "HyperTransport I/O Link Specification (HyperTransport Technology Consortium), packet formats"

static const struct weft_config_key ov_keys[] = {
	{ "overlay", "batches", WEFT_CFG_INT, "32", "batches", 1, OV_MAX_BATCHES, NULL,
	  "hardware batch contexts of 4 threads, 1..64 (" KS ": up to 256 thread contexts); 32: four "
	  "64 KB M-RAMs hold 32 batches of 128 registers (" KS ", Figure 7)" },
	{ "overlay", "clock_mhz", WEFT_CFG_DOUBLE, "100", "MHz", 1, 1000, NULL,
	  "soft processor clock: 100 MHz, the study's assumption, the clock of the FPGA's "
	  "HyperTransport IP core (" KS ")" },
	{ "alu", "pipeline_stages", WEFT_CFG_INT, "64", "cycles", 1, 1024, NULL,
	  "ALU pipeline depth: 53 cycles of floating-point units plus multiplexing, taken as 64 "
	  "stages; no hazard detection, so a batch issues its next ALU instruction only when the "
	  "previous one has left the pipeline (" KS ")" },
	{ "tex", "max_outstanding", WEFT_CFG_INT, "32", "requests", 1, OV_MAX_TAGS, NULL,
	  "TEX (memory) requests in flight at once: 32 (" KS ")" },
	{ "tex", "fpga_request_ns", WEFT_CFG_DOUBLE, "70", "ns", 0, 100000, NULL,
	  "request through the FPGA's HyperTransport core: 70 ns of the study's 305 ns memory "
	  "request (" KS ")" },
	{ "tex", "host_request_ns", WEFT_CFG_DOUBLE, "32", "ns", 0, 100000, NULL,
	  "request through the host's HyperTransport controller: 32 ns (" KS ")" },
	{ "tex", "sdram_ns", WEFT_CFG_DOUBLE, "51", "ns", 0, 100000, NULL,
	  "SDRAM access: 51 ns (" KS ")" },
	{ "tex", "response_packet_ns", WEFT_CFG_DOUBLE, "12", "ns", 0, 100000, NULL,
	  "response packet: 12 ns (" KS "); weft adds the link's serialisation of every packet at "
	  "link.width_bits besides (docs/models/overlay.md)" },
	{ "tex", "host_response_ns", WEFT_CFG_DOUBLE, "30", "ns", 0, 100000, NULL,
	  "response through the host's HyperTransport controller: 30 ns (" KS ")" },
	{ "tex", "fpga_response_ns", WEFT_CFG_DOUBLE, "110", "ns", 0, 100000, NULL,
	  "response through the FPGA's HyperTransport core: 110 ns (" KS ")" },
	{ "link", "width_bits", WEFT_CFG_INT, "8", "bits", 1, 64, NULL,
	  "HyperTransport link width per direction: 8 bits, what the vendor's IP core used; the "
	  "link itself is 16 bits (" KS ")" },
	{ "link", "clock_mhz", WEFT_CFG_DOUBLE, "400", "MHz", 1, 10000, NULL,
	  "link clock: 400 MHz (" KS ": 16 bits at 400 MHz DDR = 1.6 GB/s per direction)" },
	{ "link", "ddr", WEFT_CFG_BOOL, "true", "", 0, 1, NULL,
	  "two transfers per link clock (double data rate) (" KS ")" },
	{ "link", "request_bytes", WEFT_CFG_INT, "8", "B", 1, 256, NULL,
	  "read request: an 8-byte sized-read control packet (" HT ")" },
	{ "link", "write_header_bytes", WEFT_CFG_INT, "8", "B", 1, 256, NULL,
	  "posted write: an 8-byte sized-write control packet before the data (" HT ")" },
	{ "link", "response_header_bytes", WEFT_CFG_INT, "4", "B", 1, 256, NULL,
	  "read response: a 4-byte control packet before the data (" HT ")" },
	{ "regfile", "regs_per_thread", WEFT_CFG_INT, "128", "registers", 0, 1024, NULL,
	  "16-byte (float4) registers per thread the central register file holds: 128, 8 KB per "
	  "batch of 4 threads (" KS "); 0 = the kernel's own count, its live 32-bit values one per "
	  "register (the study's section 7.1 sizes the file by each kernel's registers)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

/* ---- params ---- */

static uint32_t cfg_u(const struct weft_config *cfg, const char *sec, const char *key)
{
	int64_t v = weft_config_int(cfg, sec, key);
	return v < 0 ? 0 : (uint32_t)v;
}

int weft_overlay_params_from_config(const struct weft_config *cfg, struct ov_params *pp,
				    struct weft_error *err)
{
	memset(pp, 0, sizeof(*pp));
	pp->batches = cfg_u(cfg, "overlay", "batches");
	pp->clock_hz = weft_config_num(cfg, "overlay", "clock_mhz") * 1e6;
	pp->pipeline_stages = cfg_u(cfg, "alu", "pipeline_stages");
	pp->max_outstanding = cfg_u(cfg, "tex", "max_outstanding");
	static const char *const lat[OV_LAT_COUNT] = { "fpga_request_ns", "host_request_ns", "sdram_ns",
						       "response_packet_ns", "host_response_ns",
						       "fpga_response_ns" };
	double ns = 0;
	for (int i = 0; i < OV_LAT_COUNT; i++) {
		pp->lat_ns[i] = weft_config_num(cfg, "tex", lat[i]);
		ns += pp->lat_ns[i];
	}
	pp->link_bits = cfg_u(cfg, "link", "width_bits");
	pp->link_mhz = weft_config_num(cfg, "link", "clock_mhz");
	pp->link_ddr = weft_config_num(cfg, "link", "ddr") != 0;
	pp->req_bytes = cfg_u(cfg, "link", "request_bytes");
	pp->write_hdr_bytes = cfg_u(cfg, "link", "write_header_bytes");
	pp->resp_hdr_bytes = cfg_u(cfg, "link", "response_header_bytes");
	pp->regs_per_thread = cfg_u(cfg, "regfile", "regs_per_thread");
	if (!pp->batches || !(pp->clock_hz > 0) || !pp->pipeline_stages || !pp->max_outstanding ||
	    !pp->link_bits || !(pp->link_mhz > 0))
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: an overlay value the model divides by is 0",
				      cfg->path[0] ? cfg->path : "config");
	double mhz = pp->clock_hz / 1e6;
	pp->lat_cycles = ns * mhz / 1000.0;
	pp->link_bpc = pp->link_bits / 8.0 * (pp->link_ddr ? 2 : 1) * pp->link_mhz / mhz;
	return 0;
}

/* ---- state ---- */

struct ov_state {
	struct ov_params pp;
	const struct weft_program *p;
	struct ov_prog op;
	struct weft_group_prog gp;
	struct weft_group_iter it;
	struct ov_machine m;
	struct ov_state *src;     /* a sweep: this state takes its streams from src */
	struct ov_cta *last;      /* the CTA decoded last (src of others) */
	uint32_t launch;
	int explain;
	/* the launch */
	struct ov_counts cnt;
	uint64_t ctas, groups;
	/* across launches */
	double total_cycles, tot_per[OV_C_COUNT];
	uint64_t total_insts;
	double tot_alu, tot_tex, tot_alu_exec;
	double tot_out_busy, tot_in_busy;
	uint32_t regs_max, live_max;
	struct weft_launch_result *launches;
	uint32_t nlaunches, launches_cap;
};

static void ov_free(void *state)
{
	struct ov_state *s = state;
	if (!s)
		return;
	weft_overlay_machine_free(&s->m);
	if (s->last)
		weft_overlay_cta_unref(s->last);
	weft_overlay_prog_free(&s->op);
	weft_group_prog_free(&s->gp);
	weft_launch_results_free(s->launches, s->nlaunches);
	free(s);
}

static int ov_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	*state = NULL;
	struct ov_state *s = calloc(1, sizeof(*s));
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the overlay model");
	int rc = weft_overlay_params_from_config(cfg, &s->pp, err);
	if (!rc)
		rc = weft_overlay_machine_init(&s->m, &s->pp, err);
	if (rc) {
		ov_free(s);
		return rc;
	}
	s->explain = cfg->explain;
	*state = s;
	return 0;
}

static int ov_begin_launch(void *state, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct ov_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	const struct weft_program *p = L->program;
	s->p = p;
	s->launch = launch;
	weft_overlay_prog_free(&s->op);
	weft_group_prog_free(&s->gp);
	int rc = weft_overlay_check_launch(L, err);
	if (!rc)
		rc = weft_overlay_prog_build(p, &s->op, err);
	if (!rc)
		rc = weft_group_prog_init(&s->gp, p, err);
	if (rc)
		return rc; /* the callers name the model, config and launch */
	weft_overlay_machine_reset(&s->m);
	if (s->last)
		weft_overlay_cta_unref(s->last);
	s->last = NULL;
	memset(&s->cnt, 0, sizeof(s->cnt));
	s->ctas = s->groups = 0;
	return 0;
}

static void counts_add(struct ov_counts *a, const struct ov_counts *b)
{
	for (int k = 0; k < OV_K_COUNT; k++) {
		a->insts[k] += b->insts[k];
		a->issued[k] += b->issued[k];
		a->exec[k] += b->exec[k];
	}
}

/* Times one CTA's batch streams: oc decoded here (NULL), or ahead. */
static int ov_time_cta(struct ov_state *s, const struct weft_cta_trace *c, struct ov_cta *oc,
		       struct weft_error *err)
{
	const struct ov_state *src = s->src;
	if (oc) {
		weft_overlay_cta_ref(oc);
		if (s->last)
			weft_overlay_cta_unref(s->last);
		s->last = oc;
	} else if (src && src->last && src->last->launch == s->launch && src->last->cta == c->cta) {
		oc = src->last; /* a sweep: the first point decoded it */
	} else {
		int rc = weft_overlay_decode_cta(&s->op, &s->gp, &s->it, c, s->launch, &oc, err);
		if (rc)
			return rc;
		weft_overlay_cta_ref(oc);
		if (s->last)
			weft_overlay_cta_unref(s->last);
		s->last = oc;
	}
	s->ctas++;
	s->groups += oc->ngroups;
	counts_add(&s->cnt, &oc->cnt);
	weft_overlay_machine_feed(&s->m, oc);
	if (weft_overlay_machine_queue_full(&s->m))
		weft_overlay_machine_run(&s->m, 0);
	return 0;
}

static int ov_consume_cta(void *state, const struct weft_cta_trace *c, struct weft_error *err)
{
	return ov_time_cta(state, c, NULL, err);
}

/* The single-config path's split of a CTA (weft_trace_for_each_cta_prep):
 * its groups of 4 are decoded into batch streams where it was decoded
 * (they depend only on the CTA and the launch's program, fixed during
 * the launch), each preparation with an iterator of its own; the machine
 * then times them in CTA order. */
struct ov_prepared {
	struct ov_cta *oc;            /* decoded, refs 0; taken by use */
	struct weft_group_iter *it;   /* the decoder's scratch */
};

static int ov_prep_cta(void *state, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	const struct ov_state *s = state;
	struct ov_prepared *pr = out;
	if (!pr->it && !(pr->it = malloc(sizeof(*pr->it))))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding CTA %u", c->cta);
	if (pr->oc) { /* prepared but never used (a failure before it) */
		weft_overlay_cta_ref(pr->oc);
		weft_overlay_cta_unref(pr->oc);
		pr->oc = NULL;
	}
	return weft_overlay_decode_cta(&s->op, &s->gp, pr->it, c, s->launch, &pr->oc, err);
}

static void ov_prep_release(void *out)
{
	struct ov_prepared *pr = out;
	if (pr->oc) {
		weft_overlay_cta_ref(pr->oc);
		weft_overlay_cta_unref(pr->oc);
	}
	free(pr->it);
	memset(pr, 0, sizeof(*pr));
}

static int ov_use_cta(void *state, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	struct ov_prepared *pr = prepared;
	struct ov_cta *oc = pr->oc;
	pr->oc = NULL;
	return ov_time_cta(state, c, oc, err);
}

/* The batch streams are self-contained: ov_use_cta reads of the CTA only
 * its header, so the walk drops a decoded CTA as soon as its streams are
 * built (trace.h compact) and never holds the addresses, which the overlay
 * does not read. Their estimated size, an upper bound before groups with
 * the same records share one stream: a group of OV_BATCH threads issues
 * at most what a warp of 32 issues (fully predicated, the union of its
 * lanes' instructions), so a CTA holds at most 32 / OV_BATCH records of 4
 * bytes per warp instruction, plus a span per group. */
static uint64_t ov_prep_bytes(const void *state, const struct weft_trace_launch *L)
{
	(void)state;
	if (!L->nctas)
		return 0;
	double recs = (double)L->warp_insts / L->nctas * (32.0 / OV_BATCH);
	double groups = (double)L->threads_per_cta / OV_BATCH + 1;
	double b = recs * sizeof(uint32_t) + groups * sizeof(struct ov_span) + sizeof(struct ov_cta);
	return b > 1e15 ? (uint64_t)1e15 : (uint64_t)b;
}

static const struct weft_cta_prep ov_prep = { sizeof(struct ov_prepared), ov_prep_cta, ov_prep_release,
					       ov_prep_bytes, 0 };

static double pct(double part, double n)
{
	return n > 0 ? 100.0 * part / n : 0;
}

/* What limited the launch, in words (--explain). */
static void regime(const struct ov_state *s, const double per[OV_C_COUNT], double cycles,
		   double occupancy, double in_util, double out_util, struct weft_sbuf *b)
{
	const struct ov_params *pp = &s->pp;
	int top = OV_C_ALU;
	for (int i = 1; i < OV_C_COUNT; i++)
		if (per[i] > per[top])
			top = i;
	double alu = pct(per[OV_C_ALU], cycles / OV_PERIOD);
	switch (top) {
	case OV_C_ALU:
		weft_sbuf_printf(b, "regime: ALU-bound: an ALU instruction issues in %.1f%% of the "
			"periods (100%% is the datapath's peak)\n", alu);
		break;
	case OV_C_INSIDE_ALU:
		if ((uint64_t)pp->batches * OV_PERIOD < pp->pipeline_stages)
			weft_sbuf_printf(b, "regime: pipeline latency (inside_alu): %u batch%s issue%s at "
				"most %u ALU instruction%s per %u cycles, %.0f%% of the ALU's periods; %u "
				"batches would cover the pipeline\n", pp->batches,
				pp->batches == 1 ? "" : "es", pp->batches == 1 ? "s" : "", pp->batches,
				pp->batches == 1 ? "" : "s", pp->pipeline_stages,
				pct((double)pp->batches * OV_PERIOD, pp->pipeline_stages),
				(pp->pipeline_stages + OV_PERIOD - 1) / OV_PERIOD);
		else
			weft_sbuf_printf(b, "regime: pipeline latency (inside_alu): %u batches could "
				"cover the %u-cycle pipeline, but few have an ALU instruction ready at once "
				"(the others wait on memory instructions or their results: see the memory "
				"line)\n", pp->batches, pp->pipeline_stages);
		break;
	case OV_C_SEMWAIT:
		if (in_util >= 90 || out_util >= 90)
			weft_sbuf_printf(b, "regime: link bandwidth (semwait): the link is %.0f%% busy "
				"inbound and %.0f%% outbound; TEX results wait in its queue\n", in_util,
				out_util);
		else if (occupancy >= 0.9 * pp->max_outstanding)
			weft_sbuf_printf(b, "regime: outstanding requests (semwait): %.1f of %u tags "
				"in use on average\n", occupancy, pp->max_outstanding);
		else
			weft_sbuf_printf(b, "regime: memory latency (semwait): batches wait for TEX "
				"results (%.1f requests outstanding on average, link %.0f%% busy inbound); "
				"more batches would hide more of it\n", occupancy, in_util);
		break;
	default:
		weft_sbuf_printf(b, "regime: memory instructions (not_alu): the batches' next "
			"instructions are TEX or stores (one per period, a store takes 2)%s\n",
			out_util >= 90 ? ", with the outgoing link full" : "");
		break;
	}
	double periods = cycles / OV_PERIOD;
	weft_sbuf_printf(b, "periods: alu %.1f%%, inside_alu %.1f%%, semwait %.1f%%, not_alu %.1f%%\n",
			 alu, pct(per[OV_C_INSIDE_ALU], periods), pct(per[OV_C_SEMWAIT], periods),
			 pct(per[OV_C_NOT_ALU], periods));
	/* the memory side, whichever the regime: does the link or do the tags limit? */
	const struct ov_machine *m = &s->m;
	double unloaded = (pp->req_bytes + pp->resp_hdr_bytes + 4.0) / pp->link_bpc + pp->lat_cycles;
	/* each direction's busy share of the memory window: from the first
	 * memory instruction to the direction's last packet */
	double win_in = 0, win_out = 0;
	if (m->mem_first != UINT64_MAX) {
		if (m->in_free > m->mem_first)
			win_in = pct(weft_overlay_cycles_of(m->in_busy),
				     weft_overlay_cycles_of(m->in_free - m->mem_first));
		if (m->out_free > m->mem_first)
			win_out = pct(weft_overlay_cycles_of(m->out_busy),
				      weft_overlay_cycles_of(m->out_free - m->mem_first));
	}
	double blocked = pct((double)m->tag_blocked, periods);
	const char *verdict;
	if (win_in >= 90 || win_out >= 90)
		verdict = "the link limits (its packets queue: busy 90% or more of the memory window)";
	else if (blocked >= 10)
		verdict = "the tags limit (ready TEX instructions wait for free ones)";
	else if (pct(per[OV_C_SEMWAIT], periods) >= 1)
		verdict = "neither link nor tags is full: TEX latency shows (semwait) where too few "
			  "batches are ready to cover it";
	else
		verdict = "neither link nor tags is full, and under 1% of the periods wait on a TEX "
			  "result";
	weft_sbuf_printf(b, "memory: %llu requests replayed over the %u-bit link, busy %.1f%% inbound and "
			 "%.1f%% outbound of the launch (%.1f%% and %.1f%% from the first memory "
			 "instruction to the last packet); %.1f of %u tags in use on average, %u at most; "
			 "%.1f%% of the periods a ready TEX waits for tags; a request takes %.1f cycles on "
			 "average (%.1f unloaded): %s\n", (unsigned long long)m->requests, pp->link_bits,
			 in_util, out_util, win_in, win_out, occupancy, pp->max_outstanding, m->tag_peak,
			 blocked,
			 m->requests ? weft_overlay_cycles_of(m->lat_sum) / m->requests : 0, unloaded,
			 verdict);
}

static int ov_explain(const struct ov_state *s, struct weft_launch_result *r, const double per[OV_C_COUNT],
		      double cycles, double occupancy, double in_util, double out_util, uint32_t regs,
		      const struct ov_regfile *rf, struct weft_error *err)
{
	const struct weft_program *p = s->p;
	const struct ov_prog *op = &s->op;
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	regime(s, per, cycles, occupancy, in_util, out_util, &b);
	weft_sbuf_printf(&b, "batches of %u threads, full predication: %llu batches in %llu CTAs read; "
			 "%u hardware batch contexts\n", OV_BATCH, (unsigned long long)s->groups,
			 (unsigned long long)s->ctas, s->pp.batches);
	weft_sbuf_printf(&b, "registers: %u 32-bit values live at once; the register file holds %u "
			 "16-byte registers per thread (%s): %.0f B per batch, %.1f KiB for %u batches, "
			 "%u M-RAMs (or %u M4Ks)\n", op->live_words, regs,
			 s->pp.regs_per_thread ? "regfile.regs_per_thread" : "the kernel's, one value per register",
			 rf->bytes_per_batch, rf->bytes / 1024, s->pp.batches, rf->mram, rf->m4k);
	weft_sbuf_printf(&b, "static instructions: %u alu, %u tex, %u atomic, %u store, %u const "
			 "(folded), %u control (sequencer)\n", op->kinds[OV_K_ALU], op->kinds[OV_K_TEX],
			 op->kinds[OV_K_ATOMIC], op->kinds[OV_K_STORE], op->kinds[OV_K_CONST],
			 op->kinds[OV_K_CONTROL]);
	weft_sbuf_puts(&b, "per instruction (role; TEX read periods; semaphore registers):\n");
	char text[160];
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		const struct ov_pcinfo *pi = &op->pc[pc];
		weft_program_format_inst(p, pc, text, sizeof(text));
		weft_sbuf_printf(&b, "  %4u B%-3u %-7s", pc, p->block_of[pc], weft_overlay_kind_names[pi->kind]);
		if (pi->slots)
			weft_sbuf_printf(&b, " %u", pi->slots);
		else
			weft_sbuf_puts(&b, "  ");
		weft_sbuf_printf(&b, " %s", text);
		if (pi->nsem) {
			weft_sbuf_puts(&b, "   (waits on");
			const struct weft_inst_info *ii = &p->info[pc];
			for (uint32_t u = 0; u < ii->nuses + ii->ndefs; u++) {
				int32_t reg = u < ii->nuses ? ii->uses[u] : ii->defs[u - ii->nuses];
				if (reg >= 0 && (uint32_t)reg < p->nregs && op->semreg_of[reg] != UINT32_MAX)
					weft_sbuf_printf(&b, " %s", p->reg_names[reg]);
			}
			weft_sbuf_puts(&b, ")");
		}
		weft_sbuf_puts(&b, "\n");
	}
	return weft_launch_result_explain(r, r->launch, &b, err);
}

static int ov_end_launch(void *state, struct weft_trace *t, uint32_t launch,
			 const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct ov_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	struct ov_machine *m = &s->m;
	weft_overlay_machine_run(m, 1);
	if (s->last)
		weft_overlay_cta_unref(s->last);
	s->last = NULL;
	double f = s->ctas ? (double)L->nctas / s->ctas : 1;
	double cycles = weft_overlay_machine_cycles(m);
	struct weft_launch_result *r;
	int rc = weft_launch_result_push(&s->launches, &s->nlaunches, &s->launches_cap, 0, &r, err);
	if (rc)
		return rc;
	r->launch = launch;
	snprintf(r->kernel, sizeof(r->kernel), "%s", L->program->kernel ? L->program->kernel : "?");
	r->cycles = cycles * f;
	uint64_t exec_all = 0;
	for (int k = 0; k < OV_K_COUNT; k++)
		exec_all += s->cnt.exec[k];
	r->thread_insts = (uint64_t)llround((double)exec_all * f);
	double per[OV_C_COUNT];
	for (int i = 0; i < OV_C_COUNT; i++) {
		per[i] = (double)m->per[i];
		weft_cpi_add(&r->cpi, weft_overlay_cpi_names[i], OV_PERIOD * per[i] * f);
		s->tot_per[i] += per[i] * f;
	}
	snprintf(r->limiter, sizeof(r->limiter), "%s", weft_cpi_largest(&r->cpi));

	const struct ov_counts *c = &s->cnt;
	uint32_t regs = weft_overlay_regs(&s->pp, s->op.live_words);
	struct ov_regfile rf;
	weft_overlay_regfile(s->pp.batches, regs, &rf);
	double tex = (double)(c->insts[OV_K_TEX] + c->insts[OV_K_ATOMIC]);
	double occupancy = cycles > 0 ? weft_overlay_cycles_of(m->lat_sum - m->tag_wait) / cycles : 0;
	double in_busy = weft_overlay_cycles_of(m->in_busy), out_busy = weft_overlay_cycles_of(m->out_busy);
	double in_util = pct(in_busy, cycles), out_util = pct(out_busy, cycles);
	double unloaded = (s->pp.req_bytes + s->pp.resp_hdr_bytes + 4.0) / s->pp.link_bpc + s->pp.lat_cycles;
	struct weft_stat *st = r->stats;
	uint32_t *ns = &r->nstats;
	weft_stat_add(st, ns, "batches", s->pp.batches, "");
	weft_stat_add(st, ns, "alu_utilisation", pct(per[OV_C_ALU], cycles / OV_PERIOD), "%");
	weft_stat_add(st, ns, "alu_tex_ratio", tex > 0 ? (double)c->insts[OV_K_ALU] / tex : 0, "");
	weft_stat_add(st, ns, "alu_insts", (double)c->insts[OV_K_ALU] * f, "");
	weft_stat_add(st, ns, "tex_insts", (double)c->insts[OV_K_TEX] * f, "");
	weft_stat_add(st, ns, "atomic_insts", (double)c->insts[OV_K_ATOMIC] * f, "");
	weft_stat_add(st, ns, "store_insts", (double)c->insts[OV_K_STORE] * f, "");
	weft_stat_add(st, ns, "const_insts", (double)c->insts[OV_K_CONST] * f, "");
	weft_stat_add(st, ns, "control_insts", (double)c->insts[OV_K_CONTROL] * f, "");
	weft_stat_add(st, ns, "alu_thread_insts", (double)c->exec[OV_K_ALU] * f, "");
	weft_stat_add(st, ns, "tex_thread_insts",
		      (double)(c->exec[OV_K_TEX] + c->exec[OV_K_ATOMIC]) * f, "");
	weft_stat_add(st, ns, "alu_lane_efficiency",
		      pct((double)c->exec[OV_K_ALU], (double)OV_BATCH * c->insts[OV_K_ALU]), "%");
	weft_stat_add(st, ns, "tex_requests", (double)m->requests * f, "");
	weft_stat_add(st, ns, "tex_latency_avg",
		      m->requests ? weft_overlay_cycles_of(m->lat_sum) / m->requests : 0, "cycles");
	weft_stat_add(st, ns, "tex_latency_unloaded", unloaded, "cycles");
	weft_stat_add(st, ns, "tex_outstanding_avg", occupancy, "requests");
	weft_stat_add(st, ns, "tex_outstanding_peak", m->tag_peak, "requests");
	weft_stat_add(st, ns, "link_in_utilisation", in_util, "%");
	weft_stat_add(st, ns, "link_out_utilisation", out_util, "%");
	weft_stat_add(st, ns, "link_in_bytes", (double)m->in_bytes * f, "B");
	weft_stat_add(st, ns, "link_out_bytes", (double)m->out_bytes * f, "B");
	weft_stat_add(st, ns, "kernel_live_regs", s->op.live_words, "");
	weft_stat_add(st, ns, "regs_per_thread", regs, "");
	weft_stat_add(st, ns, "regfile_bytes_per_batch", rf.bytes_per_batch, "B");
	weft_stat_add(st, ns, "regfile_kib", rf.bytes / 1024, "KiB");
	weft_stat_add(st, ns, "regfile_mram", rf.mram, "");
	weft_stat_add(st, ns, "regfile_m4k", rf.m4k, "");
	weft_stat_add(st, ns, "thread_batches", (double)s->groups * f, "");
	weft_stat_add(st, ns, "ctas_read", (double)s->ctas, "");
	if (s->explain) {
		rc = ov_explain(s, r, per, cycles, occupancy, in_util, out_util, regs, &rf, err);
		if (rc)
			return rc;
	}
	s->total_cycles += r->cycles;
	s->total_insts += r->thread_insts;
	s->tot_alu += (double)c->insts[OV_K_ALU] * f;
	s->tot_tex += tex * f;
	s->tot_alu_exec += (double)c->exec[OV_K_ALU] * f;
	s->tot_out_busy += out_busy * f;
	s->tot_in_busy += in_busy * f;
	if (regs > s->regs_max)
		s->regs_max = regs;
	if (s->op.live_words > s->live_max)
		s->live_max = s->op.live_words;
	weft_overlay_machine_reset(m);
	return 0;
}

static int ov_consume(void *state, struct weft_trace *t, uint32_t launch,
		      const struct weft_cta_sample *sample, struct weft_error *err)
{
	int rc = ov_begin_launch(state, t, launch, sample, err);
	if (rc < 0)
		return rc;
	rc = weft_trace_for_each_cta_prep(t, launch, sample, 0, &ov_prep, ov_use_cta, state, err);
	if (rc) {
		const struct weft_trace_launch *L = weft_trace_launch(t, launch);
		weft_error_prefix(err, "overlay model, launch %u (kernel %s): ", launch, L->program->kernel);
		return rc;
	}
	return ov_end_launch(state, t, launch, sample, err);
}

/* Every point of a sweep decodes the same batch streams (they depend on
 * the trace alone): this state takes them from the first state's decode
 * of each CTA and only times them. */
static int ov_follow(void *state, void *leader)
{
	struct ov_state *s = state, *ld = leader;
	if (!s->src)
		s->src = ld->src ? ld->src : ld;
	return 0;
}

/* Instead of area: the register file's Stratix II M-RAMs (area 0 in
 * data/area/components.csv: FPGA resources are counted, not priced). */
static int ov_components(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			 struct weft_error *err)
{
	const struct ov_state *s = state;
	uint32_t regs = s->pp.regs_per_thread ? s->pp.regs_per_thread : s->regs_max ? s->regs_max : 128;
	struct ov_regfile rf;
	weft_overlay_regfile(s->pp.batches, regs, &rf);
	if (max < 1)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need 1", max);
	weft_component_set(&out[0], "stratix2_mram", rf.mram,
			   "register file: 4 thread lanes x ceil(%u batches x %u regs / 4096 words)%s",
			   s->pp.batches, regs,
			   s->pp.regs_per_thread || s->regs_max ? "" : " (128: the kernel's count needs a trace)");
	*n = 1;
	return 0;
}

static int ov_finish(void *state, struct weft_model_result *res, struct weft_error *err)
{
	struct ov_state *s = state;
	double none[1] = { 0 };
	int rc = weft_model_result_take(res, s->pp.clock_hz, s->total_cycles, s->total_insts, none, 0,
					&s->launches, &s->nlaunches, &s->launches_cap, err);
	if (rc)
		return rc;
	rc = ov_components(s, res->components, WEFT_MAX_COMPONENTS, &res->ncomponents, err);
	if (rc)
		return rc;
	double periods = 0;
	for (int i = 0; i < OV_C_COUNT; i++)
		periods += s->tot_per[i];
	uint32_t regs = s->pp.regs_per_thread ? s->pp.regs_per_thread : s->regs_max;
	struct ov_regfile rf;
	weft_overlay_regfile(s->pp.batches, regs, &rf);
	struct weft_stat *st = res->stats;
	uint32_t *ns = &res->nstats;
	weft_stat_add(st, ns, "batches", s->pp.batches, "");
	weft_stat_add(st, ns, "alu_utilisation", pct(s->tot_per[OV_C_ALU], periods), "%");
	weft_stat_add(st, ns, "alu_tex_ratio", s->tot_tex > 0 ? s->tot_alu / s->tot_tex : 0, "");
	weft_stat_add(st, ns, "alu_lane_efficiency", pct(s->tot_alu_exec, OV_BATCH * s->tot_alu), "%");
	weft_stat_add(st, ns, "link_in_utilisation", pct(s->tot_in_busy, s->total_cycles), "%");
	weft_stat_add(st, ns, "link_out_utilisation", pct(s->tot_out_busy, s->total_cycles), "%");
	weft_stat_add(st, ns, "kernel_live_regs", s->live_max, "");
	weft_stat_add(st, ns, "regs_per_thread", regs, "");
	weft_stat_add(st, ns, "regfile_bytes_per_batch", rf.bytes_per_batch, "B");
	weft_stat_add(st, ns, "regfile_kib", rf.bytes / 1024, "KiB");
	weft_stat_add(st, ns, "regfile_mram", rf.mram, "");
	weft_stat_add(st, ns, "regfile_m4k", rf.m4k, "");
	return 0;
}

const struct weft_model weft_model_overlay = {
	.name = "overlay",
	.description = "GPU-like FPGA overlay (Kingyens & Steffan, IJRC 2011): batches of 4 threads, "
		       "full predication, 64-stage ALU, TEX over a HyperTransport link",
	.keys = ov_keys,
	.events = NULL, /* no energy events: the study reports no energy and weft has no
			   table of FPGA energies to cite (docs/models/overlay.md) */
	.nevents = 0,
	.init = ov_init,
	.consume_launch = ov_consume,
	.finish = ov_finish,
	.free = ov_free,
	.components = ov_components,
	.begin_launch = ov_begin_launch,
	.consume_cta = ov_consume_cta,
	.end_launch = ov_end_launch,
	.follow = ov_follow,
};
