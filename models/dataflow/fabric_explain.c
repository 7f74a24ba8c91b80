/*
 * fabric_explain.c - one launch of the dataflow-fabric model explained as
 * text, for weft-estimate --explain: how the kernel was mapped (map.h:
 * sub-kernels, units, replicas, spills, delay FIFOs, trip counts), each
 * (sub-)kernel's bounds from fabric.c (1)-(6) with the one that set its
 * time, the launch's configuration loads, barrier drains and memory
 * bounds, and for the dMT-CGRA the communication analysis (dmt_comm.h)
 * with its dynamic operations against a SIMT core. The numbers are the
 * ones weft_fabric_time_launch used; nothing is recomputed here. The bounds'
 * names (weft_fabric_bound_names) live here too: they are how reports spell
 * the bounds, in this text and in the CPI stack and statistics keys
 * fabric_timing.c writes, so fabric_timing.c calls this file and never
 * the other way.
 */
#include <stdlib.h>
#include <string.h>

#include "common/sbuf.h"
#include "fabric.h"

const char *const weft_fabric_bound_names[FAB_B_COUNT] = {
	"issue", "latency", "ldst", "special", "loop", "reconfig", "l1_bw", "l1_mshr", "shmem_banks",
	"l2_bw", "dram_bw",
};

int weft_fabric_explain_launch(const struct fabric_state *s, const struct fabric_explain_in *in,
			  const struct fabric_explain_row *rows, uint32_t nrows, struct weft_error *err)
{
	const struct fabric_params *fp = &s->fp;
	const struct weft_trace_launch *L = in->L;
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_printf(&b, "%s launch %u, kernel %s: %u CTAs x %u threads, %u CTAs read (counts x %.4g), "
			 "%u core(s), token buffer %u, epoch rule %s\n",
			 fp->dmt ? "dMT-CGRA" : "SGMF", in->launch, in->r->kernel, L->nctas,
			 L->threads_per_cta, in->ctas_read, in->f, fp->cores, fp->token_buffer,
			 fp->epoch_rule == FAB_EPOCH_COMPLETION ? "completion" : "admission");

	/* the mapping */
	int n = weft_dfg_map_format(in->m, NULL, 0);
	char *mt = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!mt) {
		weft_sbuf_free(&b);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory explaining launch %u", in->launch);
	}
	weft_dfg_map_format(in->m, mt, (size_t)n + 1);
	weft_sbuf_printf(&b, "mapping (docs/models/dataflow.md \"Mapping\"): graph %u nodes, critical path "
			 "%llu cycles at unit latencies\n",
			 in->g->nnodes, (unsigned long long)in->g->critical_path);
	weft_sbuf_puts(&b, mt);
	free(mt);

	/* each (sub-)kernel's bounds */
	weft_sbuf_puts(&b, "timing per (sub-)kernel, busiest core (docs/models/dataflow.md \"Timing\"):\n");
	weft_sbuf_printf(&b, "  %-4s %12s %4s %5s %8s %8s %5s %11s %11s %11s %11s %11s %8s %11s %s\n", "k",
			 "visits", "R", "rate", "latency", "wait", "nodes", "issue", "latency", "ldst",
			 "special", "loop", "fill", "cycles", "set by");
	for (uint32_t k = 0; k < nrows; k++) {
		const struct fabric_explain_row *w = &rows[k];
		const double *B = w->out.bound;
		weft_sbuf_printf(&b,
				 "  k%-3u %12.0f %4u %5.2f %8.0f %8.0f %5llu %11.0f %11.0f %11.0f %11.0f %11.0f "
				 "%8.0f %11.0f %s\n",
				 k, w->visits, w->replicas, w->rate > 0 ? w->rate : 1.0, w->latency, w->wait,
				 (unsigned long long)w->crit_nodes, B[FAB_B_ISSUE], B[FAB_B_LATENCY], B[FAB_B_LDST],
				 B[FAB_B_SPECIAL], B[FAB_B_LOOP], w->out.fill, w->out.cycles,
				 weft_fabric_bound_names[w->out.limiter]);
	}
	weft_sbuf_printf(&b, "  (visits: thread passes; R x rate: threads per cycle a replica set takes; wait: "
			 "the latency threads spend in buffers, Little's law's; cycles = largest bound + "
			 "fill)\n");

	/* the launch */
	weft_sbuf_printf(&b, "launch: kernels %.0f cycles, configuration loads %.0f, barrier drains %.0f (%.3g "
			 "barriers per thread, %.0f CTAs per episode): fabric %.0f cycles\n",
			 in->fabric_cycles - in->cfg_cycles - in->bar_cycles, in->cfg_cycles, in->bar_cycles,
			 in->bar_per_thread, in->bar_group, in->fabric_cycles);
	if (in->batches > 1)
		weft_sbuf_printf(&b, "partition batches: %.0f of %.0f threads (fabric.partition_batch): each "
				 "reloads the partitioned segment's configurations and fills its sub-kernels "
				 "again; the cycles column above is one pass, the kernels' sum has every fill\n",
				 in->batches, in->batch_threads);
	weft_sbuf_puts(&b, "memory bounds:");
	for (int k = FAB_B_L1; k < FAB_B_COUNT; k++)
		weft_sbuf_printf(&b, " %s %.0f%s", weft_fabric_bound_names[k], in->bsum[k],
				 k + 1 < FAB_B_COUNT ? "," : "\n");
	weft_sbuf_printf(&b, "cycles %.0f, limiter %s\n", in->r->cycles, in->r->limiter);

	/* dMT: what the communication analysis removed and why */
	if (fp->dmt && s->dmt_ok) {
		weft_sbuf_puts(&b, "dMT communication analysis (docs/models/dmt.md):\n");
		weft_dmt_format(&s->dmt, &b);
	}
	return weft_launch_result_explain(in->r, in->launch, &b, err);
}
