/*
 * fabric_timing.c - the dataflow-fabric equations (fabric.c (1)-(9)) and
 * one launch's timing: the kernel's dataflow graph (graph.h) with the
 * config's node latencies, its mapping onto the core's units (map.h),
 * per (sub-)kernel the bounds of fabric.c, the launch's memory bounds, the
 * limiter, the events and the statistics. For the dMT-CGRA the
 * communication analysis (dmt_comm.h) removes instructions, adds
 * elevators and routes spilled values through the live value cache.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

/* ---- the equations ---- */

double weft_fabric_throughput(uint32_t replicas, uint64_t crit_nodes, uint32_t token_buffer,
			 double latency)
{
	double issue = replicas;
	if (latency <= 0)
		return issue;
	double tlp = (double)crit_nodes * token_buffer * replicas;
	double little = tlp / latency;
	return little < issue ? little : issue;
}

double weft_fabric_ldst_cycles(const struct fabric_ldst_q *q, enum fabric_epoch_rule rule)
{
	if (!q->fed)
		return 0;
	if (rule == FAB_EPOCH_COMPLETION) {
		double open = q->ep_n ? (q->ep_max > q->ep_n ? q->ep_max : q->ep_n) : 0;
		return q->ep_sum + open;
	}
	return fmax(q->end, q->last + 1);
}

void weft_fabric_ldst_parts(const struct fabric_ldst_q *q, enum fabric_epoch_rule rule, double *stream,
			    double *drain)
{
	*stream = *drain = 0;
	if (!q->fed)
		return;
	if (rule == FAB_EPOCH_COMPLETION) {
		*stream = q->ep_sum - q->warm_e - (q->warming ? q->ep_sum - q->mark_e : 0);
		*drain = q->ep_n ? (q->ep_max > q->ep_n ? q->ep_max : q->ep_n) : 0;
		return;
	}
	*stream = q->last + 1 - q->warm_a - (q->warming ? q->last + 1 - q->mark_a : 0);
	*drain = q->end > q->last + 1 ? q->end - (q->last + 1) : 0;
}

/* n operations of one latency at an LDST unit (spills, LVC accesses). */
static double uniform_ldst_cycles(double n, double lat, uint32_t tb, enum fabric_epoch_rule rule)
{
	if (n <= 0)
		return 0;
	if (rule == FAB_EPOCH_COMPLETION) /* epochs of tb: the last enters at tb - 1 and leaves lat later */
		return n / tb * fmax(tb, tb - 1 + lat);
	return fmax(n, n * lat / tb);
}

double weft_fabric_special_cycles(double n, uint32_t blocks, uint32_t lat, uint32_t token_buffer,
			     enum fabric_epoch_rule rule)
{
	if (n <= 0)
		return 0;
	if (!blocks)
		blocks = 1;
	if (rule == FAB_EPOCH_ADMISSION) {
		/* as many operations in flight as free blocks and reservation
		 * entries allow */
		uint32_t k = token_buffer && token_buffer < blocks ? token_buffer : blocks;
		return n * fmax(1.0, (double)lat / k);
	}
	/* the i-th operation of an epoch starts at max(i, floor(i / blocks) x lat)
	 * (a block frees lat cycles after it started); the epoch ends when the
	 * last one (i = tb - 1) is done */
	uint32_t last = token_buffer ? token_buffer - 1 : 0;
	double start = fmax((double)last, (double)(last / blocks) * lat);
	return n / (token_buffer ? token_buffer : 1) * (start + lat);
}

uint32_t weft_fabric_cascades(int32_t dtid, uint32_t token_buffer)
{
	uint32_t d = (uint32_t)(dtid < 0 ? -(int64_t)dtid : dtid);
	if (!token_buffer)
		token_buffer = 1;
	return (d + token_buffer - 1) / token_buffer;
}

void weft_fabric_kernel_time(const struct fabric_kernel_in *in, struct fabric_kernel_out *out)
{
	memset(out, 0, sizeof(*out));
	if (in->visits <= 0 && !in->entered)
		return;
	uint32_t R = in->replicas ? in->replicas : 1;
	double per = in->rate > 0 && in->rate < 1 ? in->rate : 1; /* unbalanced paths (map.h) */
	out->bound[FAB_B_ISSUE] = in->visits / (R * per);
	double rate = weft_fabric_throughput(R, in->crit_nodes ? in->crit_nodes : 1, in->token_buffer,
					in->wait_latency);
	out->bound[FAB_B_LATENCY] = in->visits / rate;
	out->bound[FAB_B_LDST] = in->ldst_cycles / R;
	out->bound[FAB_B_SPECIAL] = in->special_cycles / R;
	out->bound[FAB_B_LOOP] = in->loop_chain;
	double m = 0;
	out->limiter = FAB_B_ISSUE;
	for (int b = 0; b < FAB_B_RECONFIG; b++)
		if (out->bound[b] > m) {
			m = out->bound[b];
			out->limiter = b;
		}
	out->fill = in->latency;
	out->cycles = m + out->fill;
}

/* Where spilled values are found again: the bytes of spills written before
 * a value is read back fill the levels in order, the dMT-CGRA's live value
 * cache first (a compiler-managed scratchpad; none on SGMF), then the L1,
 * the L2 and DRAM; each level holds the share its capacity covers (a blend
 * rather than a threshold, so that a sweep does not jump). A value's spill
 * slots are laid out thread after thread, so in the caches one line serves
 * line / 4 consecutive threads: only the first of them misses the L1, the
 * others hit (as the replay counts the accesses behind a miss). Per access:
 * miss share m = (L2 + DRAM shares) x 4 / line, latency (1 - m) x the
 * on-chip latency (LVC or L1) + m x the L2/DRAM blend, of which m x that
 * blend is served beyond a fixed pipeline. */
void weft_fabric_spill(const struct fabric_params *fp, double bytes, struct weft_fabric_spill *out)
{
	memset(out, 0, sizeof(*out));
	double lvc = fp->dmt ? (double)fp->dp.lvc_bytes : 0;
	double l1 = (double)fp->l1.size_bytes, l2 = (double)fp->l2.size_bytes;
	if (bytes <= 0)
		bytes = 1;
	double c0 = fmin(bytes, lvc), c1 = fmin(bytes, lvc + l1), c2 = fmin(bytes, lvc + l1 + l2);
	out->lvc_share = c0 / bytes;
	out->l1_share = (c1 - c0) / bytes;
	out->l2_share = (c2 - c1) / bytes;
	double dram_share = 1 - out->lvc_share - out->l1_share - out->l2_share;
	double beyond_share = out->l2_share + dram_share;
	double beyond = beyond_share > 0 ? (out->l2_share * fp->l2_latency + dram_share * fp->dram_latency) /
						   beyond_share
					 : 0;
	double on_chip = out->lvc_share + out->l1_share > 0
				 ? (out->lvc_share * fp->lvc_latency + out->l1_share * fp->l1_latency) /
					   (out->lvc_share + out->l1_share)
				 : fp->l1_latency;
	double m = beyond_share * 4.0 / (fp->l1.line_bytes ? fp->l1.line_bytes : 4);
	out->held = m * beyond;
	out->lat = (1 - m) * on_chip + m * beyond;
}

/* ---- events per node ---- */

/* The fabric event of each functional-unit kind (events.h weft_fu_op_of
 * has the classification rules). A compute or special node of no FU kind
 * (never expected there) counts as an ALU op, as it always has here. */
static const uint8_t fu_event[WEFT_FU_COUNT] = {
	[WEFT_FU_INT_ALU] = FAB_EV_INT_ALU,   [WEFT_FU_INT_MUL] = FAB_EV_INT_MUL,
	[WEFT_FU_INT_DIV] = FAB_EV_INT_DIV,   [WEFT_FU_FP32_ADD] = FAB_EV_FP32_ADD,
	[WEFT_FU_FP32_MUL] = FAB_EV_FP32_MUL, [WEFT_FU_FP32_FMA] = FAB_EV_FP32_FMA,
	[WEFT_FU_FP64] = FAB_EV_FP64,         [WEFT_FU_SFU] = FAB_EV_SFU,
	[WEFT_FU_NONE] = FAB_EV_INT_ALU,
};

/* ---- one launch ---- */

struct ktime {
	double vread, reach;  /* thread visits and threads reaching it, read CTAs */
	double store_visits;  /* spill stores made (read CTAs), all its spilled values */
	double visits_total, visits_core, latency, cycles;
	int entered;          /* some thread of the launch enters it (every_fed: warmed ones too) */
	uint64_t crit_nodes;
	uint32_t replicas;
	struct fabric_kernel_out out;
};

/* 1 when graph node v belongs to (sub-)kernel k. */
static int kernel_has(const struct weft_dfg_kernel *k, uint32_t v)
{
	for (uint32_t i = 0; i < k->nnodes; i++)
		if (k->nodes[i] == v)
			return 1;
	return 0;
}

/* The path counts the timing expands: the timed CTAs' block visits and
 * guarded-off instances, with a known grid padding's taken out and put
 * back once (divided by the expansion f, which multiplies them again) */
struct path_counts {
	double *bv;  /* [nblocks] */
	double *nx;  /* [ninsts] */
	double threads;
};

static double exec_of(const struct path_counts *pc_, uint32_t pc, const uint32_t *block_of)
{
	double r = pc_->bv[block_of[pc]];
	double n = pc_->nx[pc];
	return r > n ? r - n : 0;
}

int weft_fabric_time_launch(struct fabric_state *s, const struct weft_trace_launch *L, uint32_t launch,
		       struct weft_launch_result *r, struct weft_error *err)
{
	const struct fabric_params *fp = &s->fp;
	const struct weft_program *p = s->p;
	const uint32_t tb = fp->token_buffer;
	struct weft_dfg g;
	struct weft_dfg_map m;
	memset(&g, 0, sizeof(g));
	memset(&m, 0, sizeof(m));
	uint8_t *member = NULL, *removed = NULL;
	uint32_t *lat_full_of = NULL, *lat_wait_of = NULL;
	double *need_of = NULL;
	struct fabric_explain_row *kt_rows = NULL;
	uint64_t *finish = NULL;
	uint32_t *block_of = NULL;
	struct ktime *kt = NULL;
	struct path_counts pth = { 0 };
	int rc;
	(void)launch;

	struct weft_dfg_params gp;
	weft_dfg_params_default(&gp);
	for (unsigned u = 0; u < WEFT_DFU_COUNT; u++)
		gp.lat[u] = fp->lat[u];
	/* a sample warmed with every other CTA (fabric_warm.c) was fed the
	 * full replay's accesses and saw every thread's path: its LDST units,
	 * its memory nodes' mean latencies, which sub-kernels some thread
	 * enters and each loop's longest trip are the full replay's */
	const int every_fed = s->cta_seq < L->nctas && s->cta_seq + s->warmed >= L->nctas;
	/* the trip counts the mapping and the loop chains use: the timed
	 * CTAs' (their sums are expanded like every count), with the warmed
	 * CTAs' extremes when every CTA was fed (a launch's longest loop runs
	 * once, whichever CTA holds it: fabric.c (5)) */
	struct weft_trips trips = s->trips;
	if (every_fed && s->trips_warm_ok && s->an.loops.nloops) {
		trips.stat = malloc(s->an.loops.nloops * sizeof(*trips.stat));
		if (!trips.stat) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory timing kernel %s", p->kernel);
			goto out;
		}
		for (uint32_t li = 0; li < s->an.loops.nloops; li++) {
			struct weft_trip_stat *d = &trips.stat[li];
			const struct weft_trip_stat *w = &s->trips_warm.stat[li];
			*d = s->trips.stat[li];
			if (w->entries && (!d->entries || w->min < d->min))
				d->min = w->min;
			if (w->entries && (!d->entries || w->max > d->max))
				d->max = w->max;
		}
	}
	rc = weft_dfg_build(p, &s->an.dom, &s->an.du, &s->an.cdep, &gp, &g, err);
	if (!rc)
		rc = weft_dfg_map_build(p, &g, &s->an.dom, &s->an.loops, &trips, &fp->units, &m, err);
	if (rc)
		goto out;
	member = calloc(g.nnodes + 1, 1);
	removed = calloc(g.nnodes + 1, 1);
	finish = calloc(g.nnodes + 1, sizeof(uint64_t));
	lat_full_of = calloc(g.nnodes + 1, sizeof(uint32_t));
	lat_wait_of = calloc(g.nnodes + 1, sizeof(uint32_t));
	need_of = calloc(g.nnodes + 1, sizeof(double));
	block_of = malloc(((size_t)p->ninsts + 1) * sizeof(uint32_t));
	kt = calloc(m.nkernels + 1, sizeof(*kt));
	if (fp->explain)
		kt_rows = calloc(m.nkernels + 1, sizeof(*kt_rows));
	if (!member || !removed || !finish || !block_of || !kt || !lat_full_of || !lat_wait_of ||
	    !need_of || (fp->explain && !kt_rows)) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory timing kernel %s", p->kernel);
		goto out;
	}
	for (uint32_t b = 0; b < p->nblocks; b++)
		for (uint32_t pc = p->blocks[b].first; pc < p->blocks[b].first + p->blocks[b].count; pc++)
			block_of[pc] = b;

	/* CTAs / CTAs read, or with the last CTA's grid padding known the
	 * working threads' ratio, whose padding is then counted once
	 * (docs/estimate.md "Grid padding in a fabric sample") */
	double ctas_read = 1;
	const double f = weft_fabric_expansion(s, &ctas_read);
	pth.bv = malloc(((size_t)p->nblocks + 1) * sizeof(double));
	pth.nx = malloc(((size_t)p->ninsts + 1) * sizeof(double));
	if (!pth.bv || !pth.nx) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory timing kernel %s", p->kernel);
		goto out;
	}
	/* the padding read (if any) out, the launch's padding in, once */
	const int pad = s->pad_known && s->pad_threads && s->cta_seq < L->nctas;
	const double back = pad ? 1 / f - (s->pad_read ? 1 : 0) : 0;
	for (uint32_t b = 0; b < p->nblocks; b++)
		pth.bv[b] = (double)s->bvisit[b] + back * (double)s->pad_bvisit[b];
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		pth.nx[pc] = (double)s->pc[pc].notexec + back * (double)s->pad_notexec[pc];
	pth.threads = s->la.threads + back * s->pad_threads;
	const double nread = pth.threads;
	const uint32_t per_core_ctas = (L->nctas + fp->cores - 1) / fp->cores;
	const double core_scale = per_core_ctas / ctas_read; /* read counts -> busiest core */
	/* partition batches (fabric.partition_batch): a partitioned straight
	 * segment runs all its sub-kernels for batch_ctas of the core's CTAs,
	 * then for the next batch; each batch reloads the segment's
	 * configurations and fills and drains each sub-kernel once, and only
	 * a batch's spilled live values are live at a time */
	uint32_t batch_ctas = per_core_ctas ? per_core_ctas : 1;
	if (fp->partition_batch && L->threads_per_cta) {
		uint32_t b = fp->partition_batch / L->threads_per_cta;
		if (!b)
			b = 1;
		if (b < batch_ctas)
			batch_ctas = b;
	}
	const double batches = per_core_ctas ? ceil((double)per_core_ctas / batch_ctas) : 1;
	uint32_t batched_parts = 0; /* sub-kernels that run once per batch */
	for (uint32_t ki = 0; ki < m.nkernels; ki++)
		if (m.kernels[ki].role == WEFT_DFK_WHOLE && m.kernels[ki].nparts > 1)
			batched_parts++;
	const double config_loads = m.config_loads + (batches - 1) * batched_parts;
	uint32_t active_cores = L->nctas < fp->cores ? L->nctas : fp->cores;
	if (!active_cores)
		active_cores = 1;

	/* executed thread instructions */
	double insts = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++)
		insts += exec_of(&pth, pc, block_of);

	/* memory latency per LDST node: the average its accesses saw (fill),
	 * and the part of it they waited in buffers, not in a fixed pipeline
	 * (Little's law, fabric.c (2)) */
	double lat_acc_sum = 0, lat_acc_n = 0;
	/* a sample warmed with every other CTA knows what every access waited
	 * (fabric_warm.c): the full replay's averages */
	for (uint32_t n = 0; n < g.nnodes; n++) {
		struct weft_dfg_node *nd = &g.nodes[n];
		lat_full_of[n] = lat_wait_of[n] = nd->lat;
		if (nd->unit != WEFT_DFU_LDST || nd->kind != WEFT_DFN_OP || nd->pc == WEFT_DFG_NONE)
			continue;
		const struct fabric_pc *P = &s->pc[nd->pc];
		double ops = P->ops, full = P->lat_full, pipe = P->lat_pipe;
		if (every_fed) {
			ops += P->warm_ops;
			full += P->warm_lat_full;
			pipe += P->warm_lat_pipe;
		}
		if (ops > 0) {
			lat_full_of[n] = (uint32_t)llround(full / ops);
			lat_wait_of[n] = (uint32_t)llround((full - pipe) / ops);
		} else {
			lat_full_of[n] = fp->lat[WEFT_DFU_LDST] + fp->l1_latency;
			lat_wait_of[n] = fp->lat[WEFT_DFU_LDST] + (fp->hit_pipelined ? 0 : fp->l1_latency);
		}
		nd->lat = lat_full_of[n];
		lat_acc_sum += full;
		lat_acc_n += ops;
	}

	/* dMT: removed instructions take no unit; an elevator load becomes its
	 * cascade of elevators (one control latency each) */
	if (s->dmt_ok) {
		for (uint32_t pc = 0; pc < p->ninsts; pc++) {
			const struct weft_dmt_inst *di = &s->dmt.inst[pc];
			uint32_t n = g.node_of_pc[pc];
			if (!di->removal || n == WEFT_DFG_NONE)
				continue;
			removed[n] = 1;
			g.nodes[n].lat = di->removal == WEFT_DMT_RM_ELEVATOR_LOAD
						 ? di->cascade * fp->lat[WEFT_DFU_CONTROL]
						 : 0;
			lat_full_of[n] = lat_wait_of[n] = g.nodes[n].lat;
		}
	}

	/* spilled live values: one word per value per thread; where they
	 * live depends on how many threads' spills are written before they are
	 * read back (spill_latency) */
	uint32_t spill_words = 0;
	for (uint32_t k = 0; k < m.nkernels; k++)
		spill_words += m.kernels[k].spill_stores;

	double el[FAB_EV_COUNT] = { 0 }; /* per-launch counts (replay counts in s->ev scale by f) */
	double spill_dram = 0;
	double attributed[FAB_B_COUNT] = { 0 };
	double bsum[FAB_B_COUNT] = { 0 };
	double fabric_cycles = 0, fill_total = 0, max_lat = 0, main_tlp = 0;
	uint32_t main_k = 0;
	/* thread visits per (sub-)kernel (read CTAs), and the threads that reach
	 * it (a loop body: those that enter the loop) */
	for (uint32_t ki = 0; ki < m.nkernels; ki++) {
		const struct weft_dfg_kernel *k = &m.kernels[ki];
		double vread = nread;
		int warm_reach = 0; /* a warmed thread enters it (read only when every_fed) */
		if ((k->role == WEFT_DFK_BODY || k->role == WEFT_DFK_OUTER) && k->has_trips) {
			vread = (double)k->trip_visits;
			kt[ki].reach = (double)k->trip_entries;
			if (k->loop < s->an.loops.nloops) {
				vread += back * (double)s->pad_trips[k->loop].visits;
				kt[ki].reach += back * (double)s->pad_trips[k->loop].entries;
			}
			warm_reach = k->loop < s->an.loops.nloops && s->trips_warm_ok &&
				     s->trips_warm.stat[k->loop].entries > 0;
		} else {
			/* straight code: the threads that reach it (a thread is injected
			 * into a configuration only when it has code there; one that
			 * returned earlier is not), i.e. the most visited block among
			 * its instructions' blocks */
			double reach = 0;
			int any = 0;
			for (uint32_t i = 0; i < k->nnodes; i++) {
				uint32_t pc = g.nodes[k->nodes[i]].pc;
				if (pc == WEFT_DFG_NONE || pc >= p->ninsts)
					continue;
				any = 1;
				if (pth.bv[block_of[pc]] > reach)
					reach = pth.bv[block_of[pc]];
				if (s->bvisit_warm[block_of[pc]])
					warm_reach = 1;
			}
			if (any)
				vread = reach;
			else
				warm_reach = 0;
			kt[ki].reach = vread;
		}
		kt[ki].vread = vread;
		kt[ki].entered = vread > 0 || (every_fed && warm_reach);
	}
	/* a spilled value is stored only by the threads that will load it
	 * again: the others carry a poisoned token past the spill store
	 * (SGMF ISCA 2014: no memory access on a not-taken path) */
	for (uint32_t ki = 0; ki < m.nkernels; ki++) {
		const struct weft_dfg_kernel *k = &m.kernels[ki];
		for (uint32_t i = 0; i < k->nldst; i++) {
			const struct weft_dfg_ldst *o = &k->ldst[i];
			if (o->mem != WEFT_DFM_SPILL_LOAD || o->node >= g.nnodes)
				continue;
			/* a mux's shared slot names the mux itself, a member */
			if (!kernel_has(k, o->node)) {
				if (kt[ki].reach > need_of[o->node])
					need_of[o->node] = kt[ki].reach;
				continue;
			}
			const struct weft_dfg_node *mx = &g.nodes[o->node];
			for (uint32_t e = 0; e < mx->nin; e++) {
				uint32_t src = g.edges[mx->in_start + e].from;
				if (src < g.nnodes && kt[ki].reach > need_of[src])
					need_of[src] = kt[ki].reach;
			}
		}
	}
	for (uint32_t ki = 0; ki < m.nkernels; ki++) {
		const struct weft_dfg_kernel *k = &m.kernels[ki];
		struct ktime *x = &kt[ki];
		const double vread = x->vread;
		x->store_visits = 0;
		for (uint32_t i = 0; i < k->nldst; i++) {
			const struct weft_dfg_ldst *o = &k->ldst[i];
			if (o->mem != WEFT_DFM_SPILL_STORE || o->node >= g.nnodes)
				continue;
			/* a loop body's loop-carried values: every iteration */
			double need = k->role == WEFT_DFK_BODY ? vread : need_of[o->node];
			x->store_visits += need < vread ? need : vread;
		}
		x->visits_total = vread * f;
		x->visits_core = vread * core_scale;
		double spill_lat = 0;
		/* a kernel that keeps its loops (split_loops = false): a node in a
		 * loop fires once per iteration of its innermost loop (the header's
		 * visits), the others once per thread that reaches the kernel */
		const int whole_loops = k->role == WEFT_DFK_WHOLE && !fp->units.split_loops &&
					s->an.loops.nloops > 0;
		double straight_reach = vread;
		if (whole_loops) {
			double r = 0;
			for (uint32_t i = 0; i < k->nnodes; i++) {
				uint32_t pc = g.nodes[k->nodes[i]].pc;
				if (pc != WEFT_DFG_NONE && pc < p->ninsts &&
				    s->an.loops.innermost[block_of[pc]] == WEFT_NO_LOOP &&
				    pth.bv[block_of[pc]] > r)
					r = pth.bv[block_of[pc]];
			}
			straight_reach = r;
		}

		memset(member, 0, g.nnodes);
		uint32_t counts[WEFT_DFU_COUNT], specials[WEFT_DFS_COUNT];
		memcpy(counts, k->units, sizeof(counts));
		memcpy(specials, k->specials, sizeof(specials));
		uint32_t n_int = 0, n_fp = 0, elevators = 0;
		for (uint32_t i = 0; i < k->nnodes; i++) {
			uint32_t n = k->nodes[i];
			const struct weft_dfg_node *nd = &g.nodes[n];
			member[n] = 1;
			if (removed[n]) {
				if (nd->unit < WEFT_DFU_COUNT && counts[nd->unit])
					counts[nd->unit]--;
				if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT &&
				    specials[nd->special])
					specials[nd->special]--;
				const struct weft_dmt_inst *di = &s->dmt.inst[nd->pc];
				if (di->removal == WEFT_DMT_RM_ELEVATOR_LOAD)
					elevators += di->elevators;
				continue;
			}
			if (nd->unit == WEFT_DFU_COMPUTE && nd->pc != WEFT_DFG_NONE) {
				if (p->info[nd->pc].cls == WEFT_IC_FP)
					n_fp++;
				else
					n_int++;
			}
		}
		counts[WEFT_DFU_CONTROL] += elevators;
		uint32_t R = k->replicas;
		if (s->dmt_ok || fp->alu_units || fp->fpu_units) {
			uint32_t c2[WEFT_DFU_COUNT];
			memcpy(c2, counts, sizeof(c2));
			if (k->delays_fit)
				c2[WEFT_DFU_CONTROL] += k->delay_units;
			uint32_t R2 = weft_dfg_replicas(&fp->units, c2, specials);
			if (!R2) /* the delay FIFOs no longer fit beside the elevators */
				R2 = weft_dfg_replicas(&fp->units, counts, specials);
			if (fp->alu_units && n_int && fp->alu_units / n_int < R2)
				R2 = fp->alu_units / n_int;
			if (fp->fpu_units && n_fp && fp->fpu_units / n_fp < R2)
				R2 = fp->fpu_units / n_fp;
			R = R2;
		}
		if (!R)
			R = 1; /* a partition always fits once (map.h) */
		x->replicas = R;

		struct weft_dfg_paths po, pw;
		rc = weft_dfg_paths(&g, member, tb, finish, NULL, &po, err);
		if (rc)
			goto out;
		for (uint32_t n = 0; n < g.nnodes; n++)
			g.nodes[n].lat = lat_wait_of[n];
		rc = weft_dfg_paths(&g, member, tb, finish, NULL, &pw, err);
		for (uint32_t n = 0; n < g.nnodes; n++)
			g.nodes[n].lat = lat_full_of[n];
		if (rc)
			goto out;
		double latency = (double)po.critical_path, wait = (double)pw.critical_path;
		uint64_t crit = po.critical_nodes;
		struct weft_fabric_spill sp_at;
		memset(&sp_at, 0, sizeof(sp_at));
		{
			/* a loop body's threads recirculate: a thread reads its spilled
			 * loop-carried values back one iteration later, after the
			 * threads in flight wrote theirs; sub-kernels run one after
			 * another for all the core's threads */
			double threads = (double)L->threads_per_cta * per_core_ctas;
			if (k->role == WEFT_DFK_BODY) {
				double tlp = (double)(crit + 2) * tb * R;
				if (tlp < threads)
					threads = tlp;
			} else if (x->reach * core_scale < threads) {
				threads = x->reach * core_scale; /* only the threads that reach it */
			}
			if (k->role == WEFT_DFK_WHOLE && k->nparts > 1 &&
			    threads > (double)batch_ctas * L->threads_per_cta)
				threads = (double)batch_ctas * L->threads_per_cta; /* one batch's */
			weft_fabric_spill(fp, threads * spill_words * 4.0, &sp_at);
			spill_lat = sp_at.lat;
		}
		/* spill loads wait for what the L1 does not hold (all of their
		 * latency without hit_pipelined); spill stores for nothing */
		double spill_beyond = fp->hit_pipelined ? sp_at.held : spill_lat;
		if (k->spill_loads) {
			latency += spill_lat;
			wait += spill_beyond;
			crit++;
		}
		if (k->spill_stores) {
			latency += fp->lat[WEFT_DFU_LDST] + fp->l1_latency;
			wait += fp->lat[WEFT_DFU_LDST] + (fp->hit_pipelined ? 0 : fp->l1_latency);
			crit++;
		}
		x->latency = latency;
		x->crit_nodes = crit;

		/* LDST units: the busiest node (reservation buffers, epochs) */
		double ldst = 0;
		for (uint32_t i = 0; i < k->nldst; i++) {
			const struct weft_dfg_ldst *o = &k->ldst[i];
			double c;
			if (o->pc == WEFT_DFG_NONE) {
				/* a spill store waits only for the L1 to take it; a spill
				 * load holds its entry for what the L1 does not serve */
				double l = o->mem == WEFT_DFM_SPILL_STORE
						   ? (fp->hit_pipelined ? 0 : fp->l1_latency)
						   : spill_beyond;
				c = uniform_ldst_cycles(x->visits_core, fp->lat[WEFT_DFU_LDST] + l, tb,
							fp->epoch_rule);
			} else if (o->node < g.nnodes && removed[o->node]) {
				continue;
			} else {
				const struct fabric_ldst_q *q = &s->pc[o->pc].q;
				if (every_fed) {
					/* a sample warmed with every other CTA: those fed
					 * the unit too (fabric_warm.c), which so holds
					 * the full replay's stream */
					c = weft_fabric_ldst_cycles(q, fp->epoch_rule) * per_core_ctas / L->nctas;
				} else if (s->cta_seq < L->nctas) {
					/* a sample: the timed CTAs' share of the stream
					 * (fabric_ldst_q) scaled to the busiest core, the
					 * drain as in a full replay (once per queue, then
					 * scaled by per_core_ctas / N like the rest), not
					 * N / n times */
					double st, dr;
					weft_fabric_ldst_parts(q, fp->epoch_rule, &st, &dr);
					c = st * core_scale + dr * per_core_ctas / L->nctas;
				} else {
					c = weft_fabric_ldst_cycles(q, fp->epoch_rule) * core_scale;
				}
			}
			if (c > ldst)
				ldst = c;
		}
		double special = 0;
		for (uint32_t i = 0; i < k->nspecial; i++) {
			const struct weft_dfg_special_op *o = &k->special[i];
			if (o->node < g.nnodes && removed[o->node])
				continue;
			double n = exec_of(&pth, o->pc, block_of) * core_scale;
			double c = weft_fabric_special_cycles(n, fp->special_blocks, fp->lat[WEFT_DFU_SPECIAL], tb,
							 fp->epoch_rule);
			if (c > special)
				special = c;
		}
		/* a thread runs its iterations one after another: a loop body
		 * kernel takes trip_max passes of its latency; a kept loop
		 * trip_max passes of the loop's own nodes */
		double loop_chain = k->role == WEFT_DFK_BODY && k->has_trips ? (double)k->trip_max * latency : 0;
		if (whole_loops && s->trips_ok) {
			for (uint32_t li = 0; li < s->an.loops.nloops; li++) {
				memset(member, 0, g.nnodes);
				int any = 0;
				for (uint32_t i = 0; i < k->nnodes; i++) {
					const struct weft_dfg_node *nd = &g.nodes[k->nodes[i]];
					if (nd->block != WEFT_DFG_NONE && weft_loop_contains(&s->an.loops, li, nd->block))
						member[k->nodes[i]] = any = 1;
				}
				if (!any)
					continue;
				struct weft_dfg_paths pl;
				rc = weft_dfg_paths(&g, member, tb, finish, NULL, &pl, err);
				if (rc)
					goto out;
				double c = (double)trips.stat[li].max * (double)pl.critical_path;
				if (c > loop_chain)
					loop_chain = c;
			}
		}
		struct fabric_kernel_in in = {
			.visits = x->visits_core, .replicas = R, .crit_nodes = crit, .latency = latency,
			.wait_latency = wait, .rate = k->rate,
			.ldst_cycles = ldst, .special_cycles = special,
			.loop_chain = loop_chain,
			.token_buffer = tb,
			.entered = x->entered,
		};
		weft_fabric_kernel_time(&in, &x->out);
		if (kt_rows) {
			struct fabric_explain_row *row = &kt_rows[ki];
			row->visits = x->visits_core;
			row->replicas = R;
			row->rate = k->rate;
			row->latency = latency;
			row->wait = wait;
			row->crit_nodes = crit;
			row->spill_lat = spill_lat;
			row->out = x->out;
		}
		/* a batched sub-kernel fills and drains once per batch */
		double fills = k->role == WEFT_DFK_WHOLE && k->nparts > 1 ? batches : 1;
		x->cycles = x->out.cycles + (fills - 1) * x->out.fill;
		fabric_cycles += x->cycles;
		fill_total += fills * x->out.fill;
		attributed[x->out.limiter] += x->out.cycles - x->out.fill;
		for (int b = 0; b < FAB_B_RECONFIG; b++)
			bsum[b] += x->out.bound[b];
		if (x->entered && latency > max_lat)
			max_lat = latency;
		if (x->cycles > kt[main_k].cycles)
			main_k = ki;

		/* events: every node of the configuration fires once per thread
		 * visit (both sides of a branch are computed: predication) */
		for (uint32_t i = 0; i < k->nnodes; i++) {
			uint32_t n = k->nodes[i];
			const struct weft_dfg_node *nd = &g.nodes[n];
			double V = x->visits_total;
			if (whole_loops) {
				uint32_t li = nd->block == WEFT_DFG_NONE ? WEFT_NO_LOOP
									 : s->an.loops.innermost[nd->block];
				V = (li == WEFT_NO_LOOP ? straight_reach
							: pth.bv[s->an.loops.loops[li].header]) * f;
			}
			if (removed[n]) {
				const struct weft_dmt_inst *di = &s->dmt.inst[nd->pc];
				if (di->removal == WEFT_DMT_RM_ELEVATOR_LOAD)
					el[FAB_EV_ELEVATOR] += V * di->elevators;
				continue;
			}
			double tokens = V * nd->nin;
			el[FAB_EV_TOKEN_WRITE] += tokens;
			el[FAB_EV_TOKEN_READ] += tokens;
			el[FAB_EV_NOC_HOP] += tokens * fp->hops_per_token;
			if (nd->unit == WEFT_DFU_CONTROL)
				el[FAB_EV_CONTROL] += V;
			else if ((nd->unit == WEFT_DFU_COMPUTE || nd->unit == WEFT_DFU_SPECIAL) &&
				 nd->pc != WEFT_DFG_NONE)
				el[fu_event[weft_fu_op_of(&p->insts[nd->pc], &p->info[nd->pc])]] += V;
		}
		const double V = x->visits_total;
		/* delay FIFOs: one more buffer write and read per delayed token */
		if (k->delays_fit) {
			el[FAB_EV_TOKEN_WRITE] += V * k->fifo_edges;
			el[FAB_EV_TOKEN_READ] += V * k->fifo_edges;
		}
		/* spills: a reservation each; a live-value-cache access for the
		 * share it keeps, an L1 word access for the rest */
		double sp = V * k->spill_loads + x->store_visits * f;
		el[FAB_EV_LVC] += sp * sp_at.lvc_share;
		el[FAB_EV_L1_WORD] += sp * (1 - sp_at.lvc_share);
		el[FAB_EV_RESERVATION] += sp;
		/* the spill lines the L1 does not keep go to the L2 (one 128 B
		 * transaction per line of words, written and read back), those
		 * the L2 does not keep on to DRAM */
		el[FAB_EV_L2] += sp * (1 - sp_at.lvc_share - sp_at.l1_share) * 4.0 /
				 (fp->l2.line_bytes ? fp->l2.line_bytes : 4);
		spill_dram += sp * 4.0 * (1 - sp_at.lvc_share - sp_at.l1_share - sp_at.l2_share);
	}
	main_tlp = (double)kt[main_k].crit_nodes * tb * kt[main_k].replicas;

	/* configuration loads and barrier drains */
	double cfg_cycles = config_loads *
			    (fp->l2_latency + (double)fp->config_bytes / fp->config_bytes_per_cycle);
	el[FAB_EV_CONFIG_BYTE] += config_loads * fp->config_bytes * active_cores;
	/* barriers: each drains the (sub-)kernel that holds it, i.e. waits one
	 * pass of its latency, once per episode of a CTA group */
	double bar_execs = 0, bar_lat = 0;
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		if (p->insts[pc].op != WEFT_OP_BAR || p->insts[pc].mode == WEFT_BAR_ARRIVE || s->dmt_rm[pc])
			continue;
		double n = exec_of(&pth, pc, block_of);
		double lat = max_lat;
		uint32_t node = g.node_of_pc[pc];
		for (uint32_t ki = 0; node != WEFT_DFG_NONE && ki < m.nkernels; ki++)
			if (kernel_has(&m.kernels[ki], node)) {
				lat = kt[ki].latency;
				break;
			}
		bar_execs += n;
		bar_lat += n * lat;
	}
	double bar_cycles = 0, bar_per_cta = 0, bar_group = 0;
	if (bar_execs > 0 && L->threads_per_cta) {
		bar_per_cta = bar_execs / (nread > 0 ? nread : 1); /* barriers a thread passes */
		/* threads at a barrier leave the fabric, so one episode serves a
		 * group of CTAs: all the core's, or as many as their shared
		 * memory fits at once; each episode drains the pipeline once */
		uint32_t cta_shmem = p->shared_static_bytes + L->dyn_shared;
		bar_group = per_core_ctas;
		if (cta_shmem && fp->shmem_bytes / cta_shmem < bar_group)
			bar_group = fp->shmem_bytes / cta_shmem;
		if (bar_group < 1)
			bar_group = 1;
		double groups = ceil(per_core_ctas / bar_group);
		bar_cycles = bar_lat / (nread > 0 ? nread : 1) * groups;
	}
	s->la.barriers_per_cta = bar_per_cta;
	double overhead = fill_total + cfg_cycles + bar_cycles;
	attributed[FAB_B_RECONFIG] = overhead;
	fabric_cycles += cfg_cycles + bar_cycles;
	bsum[FAB_B_RECONFIG] = overhead;

	/* memory bandwidth bounds */
	double l1b = 0, shb = 0, mshr = 0;
	for (uint32_t c = 0; c < fp->cores; c++) {
		if (s->cores[c].miss_cycles > mshr)
			mshr = s->cores[c].miss_cycles;
		for (uint32_t b = 0; b < fp->l1.banks; b++)
			if (s->cores[c].l1_bank[b] > l1b)
				l1b = (double)s->cores[c].l1_bank[b];
		for (uint32_t b = 0; b < fp->shmem_banks; b++)
			if (s->cores[c].sh_bank[b] > shb)
				shb = (double)s->cores[c].sh_bank[b];
	}
	/* cores got CTAs round robin: a core's share of the full launch */
	double mem_core = fp->cores > 1 ? f : core_scale;
	if (s->warmed) {
		/* warming deals every CTA to its full replay's core, so a core
		 * holds a random number of the sampled ones: each core's counts
		 * expand by its CTAs in the launch / its CTAs read */
		l1b = shb = mshr = 0;
		for (uint32_t c = 0; c < fp->cores && c < L->nctas; c++) {
			if (!s->cores[c].ctas)
				continue;
			double in_launch = (double)((L->nctas - c + fp->cores - 1) / fp->cores);
			double k = in_launch / s->cores[c].ctas;
			if (s->pad_known && s->pad_threads && c == (L->nctas - 1) % fp->cores && L->threads_per_cta) {
				/* the core that holds the last CTA: by working threads */
				double T = L->threads_per_cta, P = s->pad_threads;
				double w = s->cores[c].ctas * T - (s->pad_read ? P : 0);
				if (w > 0)
					k = (in_launch * T - P) / w;
			}
			if (s->cores[c].miss_cycles * k > mshr)
				mshr = s->cores[c].miss_cycles * k;
			for (uint32_t b = 0; b < fp->l1.banks; b++)
				if (s->cores[c].l1_bank[b] * k > l1b)
					l1b = s->cores[c].l1_bank[b] * k;
			for (uint32_t b = 0; b < fp->shmem_banks; b++)
				if (s->cores[c].sh_bank[b] * k > shb)
					shb = s->cores[c].sh_bank[b] * k;
		}
		mem_core = 1;
	}
	bsum[FAB_B_L1] = l1b * mem_core;
	bsum[FAB_B_SHMEM] = shb * mem_core;
	/* Little's law over the L1's MSHRs: each line a read misses holds one
	 * for its latency */
	bsum[FAB_B_MSHR] = fp->l1_mshrs ? mshr * mem_core / fp->l1_mshrs : 0;
	uint32_t per = (fp->l2.line_bytes + fp->l2_port_bytes - 1) / fp->l2_port_bytes;
	bsum[FAB_B_L2] = (double)weft_cache_max_bank_accesses(&s->l2) * per * fp->clock_hz / fp->l2_clock_hz * f;
	bsum[FAB_B_DRAM] = fp->dram_bytes_per_s > 0 ? (s->la.dram_bytes * f + spill_dram) / fp->dram_bytes_per_s * fp->clock_hz
						    : 0;
	double cycles = fabric_cycles;
	int mem_limit = -1;
	for (int b = FAB_B_L1; b < FAB_B_COUNT; b++)
		if (bsum[b] > cycles) {
			cycles = bsum[b];
			mem_limit = b;
		}
	/* CPI stack: a (sub-)kernel's cycles beyond its fill go to the bound
	 * that set them (issue, latency, ldst, special, loop); the fills,
	 * configuration loads and barrier drains to their own components; a
	 * memory bound above the fabric's cycles adds the difference. It sums
	 * to the cycles; the limiter is its largest component. */
	for (int b = 0; b < FAB_B_RECONFIG; b++)
		weft_cpi_add(&r->cpi, weft_fabric_bound_names[b], attributed[b]);
	weft_cpi_add(&r->cpi, "fill", fill_total);
	weft_cpi_add(&r->cpi, "config", cfg_cycles);
	weft_cpi_add(&r->cpi, "barrier", bar_cycles);
	for (int b = FAB_B_L1; b < FAB_B_COUNT; b++)
		weft_cpi_add(&r->cpi, weft_fabric_bound_names[b], b == mem_limit ? cycles - fabric_cycles : 0);

	/* dMT: removed thread instructions */
	double removed_insts = s->dmt_ok ? (double)s->dmt.tot.removed_total : 0;

	/* ---- result ---- */
	r->cycles = cycles;
	r->thread_insts = (uint64_t)llround((insts - removed_insts) * f);
	snprintf(r->limiter, sizeof(r->limiter), "%s", weft_cpi_largest(&r->cpi));
	s->ev[FAB_EV_DRAM] = s->la.dram_bytes / 32.0;
	el[FAB_EV_DRAM] += spill_dram / 32.0;
	for (int i = 0; i < FAB_EV_COUNT; i++)
		r->events[i] = s->ev[i] * f + el[i];
	/* every L2 transaction crosses the interconnect: a request flit and a
	 * line with its header (the SIMT model's count) */
	uint32_t fb = fp->noc_flit_bytes ? fp->noc_flit_bytes : 1;
	r->events[FAB_EV_NOC_FLIT] = r->events[FAB_EV_L2] * (double)((8 + fb - 1) / fb +
								      (fp->l2.line_bytes + 8 + fb - 1) / fb);

	char key[48];
	for (int b = 0; b < FAB_B_COUNT; b++) {
		snprintf(key, sizeof(key), "bound_%s", weft_fabric_bound_names[b]);
		weft_stat_add(r->stats, &r->nstats, key, bsum[b], "cycles");
	}
	const struct ktime *mk = &kt[main_k];
	weft_stat_add(r->stats, &r->nstats, "kernels", m.nkernels, "");
	weft_stat_add(r->stats, &r->nstats, "partitioned_segments", m.partitioned, "");
	weft_stat_add(r->stats, &r->nstats, "config_loads", config_loads, "");
	weft_stat_add(r->stats, &r->nstats, "partition_batches", batched_parts ? batches : 1, "");
	weft_stat_add(r->stats, &r->nstats, "nodes_compute", g.units[WEFT_DFU_COMPUTE], "");
	weft_stat_add(r->stats, &r->nstats, "nodes_control", g.units[WEFT_DFU_CONTROL], "");
	weft_stat_add(r->stats, &r->nstats, "nodes_ldst", g.units[WEFT_DFU_LDST], "");
	weft_stat_add(r->stats, &r->nstats, "nodes_special", g.units[WEFT_DFU_SPECIAL], "");
	weft_stat_add(r->stats, &r->nstats, "delay_slots", (double)m.delay_slots, "");
	weft_stat_add(r->stats, &r->nstats, "main_kernel", main_k, "");
	weft_stat_add(r->stats, &r->nstats, "main_replicas", mk->replicas, "");
	weft_stat_add(r->stats, &r->nstats, "main_critical_path", mk->latency, "cycles");
	weft_stat_add(r->stats, &r->nstats, "main_critical_nodes", (double)mk->crit_nodes, "");
	weft_stat_add(r->stats, &r->nstats, "threads_in_flight", main_tlp, "");
	weft_stat_add(r->stats, &r->nstats, "main_threads_per_cycle",
		      mk->cycles > 0 ? mk->visits_core / mk->cycles : 0, "");
	if (m.nkernels) {
		const struct weft_dfg_kernel *k = &m.kernels[main_k];
		for (unsigned u = 0; u < WEFT_DFU_COUNT; u++) {
			snprintf(key, sizeof(key), "main_util_%s", weft_dfg_unit_name(u));
			weft_stat_add(r->stats, &r->nstats, key, 100.0 * k->util[u], "%");
		}
	}
	weft_stat_add(r->stats, &r->nstats, "avg_mem_latency", lat_acc_n > 0 ? lat_acc_sum / lat_acc_n : 0,
		      "cycles");
	weft_stat_add(r->stats, &r->nstats, "l1_read_hit_rate",
		      s->la.l1_reads > 0 ? 100.0 * s->la.l1_read_hits / s->la.l1_reads : 0, "%");
	double l2n = s->ev[FAB_EV_L2];
	weft_stat_add(r->stats, &r->nstats, "l2_hit_rate", l2n > 0 ? 100.0 * s->la.l2_hits / l2n : 0, "%");
	weft_stat_add(r->stats, &r->nstats, "dram_bytes", s->la.dram_bytes * f + spill_dram, "B");
	weft_stat_add(r->stats, &r->nstats, "barriers_per_thread", bar_per_cta, "");
	weft_stat_add(r->stats, &r->nstats, "barrier_group_ctas", bar_group, "");
	weft_stat_add(r->stats, &r->nstats, "executed_insts", insts * f, "");
	if (s->dmt_ok) {
		const struct weft_dmt_totals *T = &s->dmt.tot;
		struct weft_dmt_ops ops;
		weft_dmt_ops(&s->dmt, &ops);
		/* dynamic operations: what a SIMT core executes, what the dMT-CGRA
		 * keeps, and what it removed by reason */
		weft_stat_add(r->stats, &r->nstats, "dmt_simt_ops", (double)ops.simt * f, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_ops", (double)ops.dmt * f, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_removed_share", 100.0 * ops.removed_share, "%");
		weft_stat_add(r->stats, &r->nstats, "dmt_removed_insts", removed_insts * f, "");
		for (int why = 1; why < WEFT_DMT_RM_COUNT; why++) {
			snprintf(key, sizeof(key), "dmt_removed_%s", weft_dmt_removal_name(why));
			for (char *c = key; *c; c++)
				if (*c == '-')
					*c = '_'; /* stat keys are identifiers */
			weft_stat_add(r->stats, &r->nstats, key, (double)T->removed_dynamic[why] * f, "");
		}
		weft_stat_add(r->stats, &r->nstats, "dmt_comm", (double)T->comm * f, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_comm_within_buffer",
			      T->comm ? 100.0 * (double)T->comm_within_buffer / (double)T->comm : 0, "%");
		weft_stat_add(r->stats, &r->nstats, "dmt_comm_spilled", (double)T->comm_spilled * f, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_elevator_nodes", T->elevator_nodes, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_forwarded_loads", s->la.fwd * f, "");
		weft_stat_add(r->stats, &r->nstats, "dmt_lvc_values", s->la.lvc * f, "");
		uint64_t dist[WEFT_DMT_DIST_BUCKETS];
		weft_dmt_dist_counts(&s->dmt, dist);
		for (uint32_t b = 0; b < WEFT_DMT_DIST_BUCKETS; b++) {
			uint32_t lo, hi;
			weft_dmt_dist_bucket(b, &lo, &hi);
			if (lo == hi)
				snprintf(key, sizeof(key), "dmt_dist_%u", lo);
			else
				snprintf(key, sizeof(key), "dmt_dist_%u_%u", lo, hi);
			weft_stat_add(r->stats, &r->nstats, key, (double)dist[b] * f, "loads");
			s->total_dist[b] += (double)dist[b] * f;
		}
	}
	weft_stat_add(r->stats, &r->nstats, "ctas_read", s->cta_seq, "");
	s->total_removed += removed_insts * f;
	if (fp->explain) {
		struct fabric_explain_in ex = {
			.L = L, .launch = launch, .g = &g, .m = &m, .f = f,
			.ctas_read = s->cta_seq, .cfg_cycles = cfg_cycles, .bar_cycles = bar_cycles,
			.bar_per_thread = bar_per_cta, .bar_group = bar_group, .fabric_cycles = fabric_cycles,
			.bsum = bsum, .r = r,
			.batches = batched_parts ? batches : 1,
			.batch_threads = (double)batch_ctas * L->threads_per_cta,
		};
		rc = weft_fabric_explain_launch(s, &ex, kt_rows, m.nkernels, err);
	}
out:
	if (trips.stat != s->trips.stat)
		free(trips.stat);
	free(pth.bv);
	free(pth.nx);
	free(member);
	free(removed);
	free(lat_full_of);
	free(lat_wait_of);
	free(need_of);
	free(kt_rows);
	free(finish);
	free(block_of);
	free(kt);
	weft_dfg_map_free(&m);
	weft_dfg_free(&g);
	return rc;
}
