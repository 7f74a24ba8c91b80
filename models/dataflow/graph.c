/*
 * graph.c - builds the dataflow graph of a kernel (graph.h): one pass over
 * the blocks in reverse postorder creating nodes for instructions, labels,
 * muxes and memory-ordering splits/joins, then edge clean-up, a
 * topological order, and the critical path / delay slots (graph_paths.c).
 *
 * Edges whose source node does not exist yet when the consumer is built
 * (a definition later in reverse postorder, or later in the same block)
 * can only arrive around a loop's back edge: they are recorded by pc or
 * block and resolved at the end, marked back (loop-carried).
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static const char *const unit_names[] = { "compute", "control", "ldst", "special", "edge" };
static const char *const special_names[] = { "int_div", "fp_div", "sqrt" };
static const char *const kind_names[] = { "op",  "const", "param", "init",    "label",
					  "branch", "mux", "split", "join", "barrier" };

const char *weft_dfg_unit_name(unsigned u)
{
	return u <= WEFT_DFU_EDGE ? unit_names[u] : "?";
}

const char *weft_dfg_special_name(unsigned s)
{
	return s < WEFT_DFS_COUNT ? special_names[s] : "none";
}

const char *weft_dfg_kind_name(unsigned k)
{
	return k < WEFT_DFN_COUNT ? kind_names[k] : "?";
}

void weft_dfg_params_default(struct weft_dfg_params *prm)
{
	for (unsigned u = 0; u < WEFT_DFU_COUNT; u++)
		prm->lat[u] = 1;
	prm->lat[WEFT_DFU_EDGE] = 0;
	for (unsigned k = 0; k < WEFT_DFS_COUNT; k++)
		prm->lat_special[k] = 0;
}

int weft_dfg_analyses_build(const struct weft_program *p, struct weft_dfg_analyses *a,
			    struct weft_error *err)
{
	memset(a, 0, sizeof(*a));
	int rc = weft_dom_build(p, &a->dom, err);
	if (!rc)
		rc = weft_loops_build(p, &a->dom, &a->loops, err);
	if (!rc)
		rc = weft_defuse_build(p, &a->dom, &a->du, err);
	if (!rc)
		rc = weft_cdep_build(p, &a->cdep, err);
	if (rc)
		weft_dfg_analyses_free(a);
	return rc;
}

void weft_dfg_analyses_free(struct weft_dfg_analyses *a)
{
	weft_cdep_free(&a->cdep);
	weft_defuse_free(&a->du);
	weft_loops_free(&a->loops);
	weft_dom_free(&a->dom);
	memset(a, 0, sizeof(*a));
}

/* ---- builder ----------------------------------------------------------- */

/* A reference to an edge source resolved at the end (back edges). */
enum { REF_PC = 0, REF_LABEL };
struct pending {
	uint32_t ref;   /* pc or block */
	uint8_t type;   /* REF_* */
	uint8_t kind;   /* enum weft_dfg_edge_kind */
	uint32_t to;
};

struct mux_rec {
	uint32_t node, block;
	int32_t reg;
	uint32_t def0, ndefs; /* def pcs in b->pool */
};

/* Memory ordering state of one domain. */
struct domain {
	uint32_t last;       /* last store / atomic / barrier, or NONE */
	uint32_t *pend;      /* loads since last */
	uint32_t npend, cap;
};
#define NDOMAINS 3

/* The loads waiting for one store (shared by the domains it orders). */
struct fanout {
	uint32_t store, split; /* split: NONE until a second load follows */
	uint32_t first_edge;   /* store -> first load, moved to the split later */
	uint32_t nloads;
};

struct builder {
	const struct weft_program *p;
	const struct weft_dom *d;
	const struct weft_defuse *du;
	const struct weft_cdep *cd;
	struct weft_dfg *g;
	uint32_t cap_nodes, cap_edges;
	struct pending *pend;
	uint32_t npend, cap_pend;
	struct mux_rec *mux;
	uint32_t nmux, cap_mux;
	uint32_t *pool;
	uint32_t npool, cap_pool;
	/* deduplicated constant nodes: immediates by value, sregs by code */
	int64_t *const_key;
	uint32_t *const_node;
	uint32_t nconst, cap_const;
	struct domain dom[NDOMAINS];
	struct fanout fan[NDOMAINS];
	uint32_t nfan;
	uint32_t *scratch;
	uint32_t nscratch, cap_scratch;
	int oom;
};

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint32_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*arr, (size_t)n * elem);
	if (!q)
		return -1;
	*arr = q;
	*cap = n;
	return 0;
}

static uint32_t add_node(struct builder *b, uint8_t kind, uint8_t unit, uint32_t pc, uint32_t block)
{
	struct weft_dfg *g = b->g;
	if (grow((void **)&g->nodes, &b->cap_nodes, g->nnodes + 1, sizeof(*g->nodes))) {
		b->oom = 1;
		return WEFT_DFG_NONE;
	}
	struct weft_dfg_node *n = &g->nodes[g->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->unit = unit;
	n->special = WEFT_DFS_NONE;
	n->pc = pc;
	n->block = block;
	n->reg = -1;
	return g->nnodes++;
}

static uint32_t add_edge(struct builder *b, uint32_t from, uint32_t to, uint8_t kind, uint8_t back)
{
	struct weft_dfg *g = b->g;
	if (from == WEFT_DFG_NONE || to == WEFT_DFG_NONE || from == to)
		return WEFT_DFG_NONE;
	if (grow((void **)&g->edges, &b->cap_edges, g->nedges + 1, sizeof(*g->edges))) {
		b->oom = 1;
		return WEFT_DFG_NONE;
	}
	struct weft_dfg_edge *e = &g->edges[g->nedges];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->kind = kind;
	e->back = back;
	return g->nedges++;
}

static void add_pending(struct builder *b, uint8_t type, uint32_t ref, uint32_t to, uint8_t kind)
{
	if (grow((void **)&b->pend, &b->cap_pend, b->npend + 1, sizeof(*b->pend))) {
		b->oom = 1;
		return;
	}
	b->pend[b->npend++] = (struct pending){ .ref = ref, .type = type, .kind = kind, .to = to };
}

/* Edge from the node of instruction pc, now or (if not built yet) later. */
static void edge_from_pc(struct builder *b, uint32_t pc, uint32_t to, uint8_t kind)
{
	uint32_t n = b->g->node_of_pc[pc];
	if (n != WEFT_DFG_NONE)
		add_edge(b, n, to, kind, 0);
	else
		add_pending(b, REF_PC, pc, to, kind);
}

static void edge_from_label(struct builder *b, uint32_t block, uint32_t to)
{
	uint32_t n = b->g->label_of_block[block];
	if (n != WEFT_DFG_NONE)
		add_edge(b, n, to, WEFT_DFE_PRED, 0);
	else if (b->cd->start[block + 1] > b->cd->start[block]) /* will get a label later */
		add_pending(b, REF_LABEL, block, to, WEFT_DFE_PRED);
}

/* A constant edge node shared by every consumer of the same key. */
static uint32_t const_node(struct builder *b, int64_t key, uint8_t kind, uint32_t pc)
{
	for (uint32_t i = 0; i < b->nconst; i++)
		if (b->const_key[i] == key && b->g->nodes[b->const_node[i]].kind == kind)
			return b->const_node[i];
	uint32_t cap = b->cap_const;
	if (grow((void **)&b->const_key, &cap, b->nconst + 1, sizeof(*b->const_key)) ||
	    grow((void **)&b->const_node, &b->cap_const, b->nconst + 1, sizeof(*b->const_node))) {
		b->oom = 1;
		return WEFT_DFG_NONE;
	}
	uint32_t n = add_node(b, kind, WEFT_DFU_EDGE, pc, WEFT_DFG_NONE);
	if (n == WEFT_DFG_NONE)
		return n;
	b->g->nodes[n].imm = key;
	b->g->nodes[n].bytes = 4;
	b->const_key[b->nconst] = key;
	b->const_node[b->nconst++] = n;
	return n;
}

/* tid, ctaid and the other per-thread/per-CTA special registers enter with
 * the thread (initiation); launch-wide ones are constants. */
static uint8_t sreg_kind(unsigned sreg)
{
	switch (sreg) {
	case WEFT_SREG_NTID: case WEFT_SREG_NCTAID: case WEFT_SREG_NSMID: case WEFT_SREG_GRIDID:
	case WEFT_SREG_DYNAMIC_SMEM_SIZE: case WEFT_SREG_TOTAL_SMEM_SIZE: case WEFT_SREG_ENVREG:
		return WEFT_DFN_CONST;
	default:
		return WEFT_DFN_INIT;
	}
}

/* Reaching definitions of use site u as distinct def pcs in b->scratch;
 * returns their number. */
static uint32_t use_defs(struct builder *b, uint32_t u)
{
	const struct weft_defuse *du = b->du;
	b->nscratch = 0;
	for (uint32_t j = du->ud_start[u]; j < du->ud_start[u + 1]; j++) {
		uint32_t dp = du->def_pc[du->ud[j]];
		int seen = 0;
		for (uint32_t k = 0; k < b->nscratch; k++)
			seen |= b->scratch[k] == dp;
		if (seen)
			continue;
		if (grow((void **)&b->scratch, &b->cap_scratch, b->nscratch + 1, sizeof(uint32_t))) {
			b->oom = 1;
			return 0;
		}
		b->scratch[b->nscratch++] = dp;
	}
	/* sorted, so that equal sets compare equal */
	for (uint32_t i = 1; i < b->nscratch; i++)
		for (uint32_t k = i; k > 0 && b->scratch[k - 1] > b->scratch[k]; k--) {
			uint32_t t = b->scratch[k];
			b->scratch[k] = b->scratch[k - 1];
			b->scratch[k - 1] = t;
		}
	return b->nscratch;
}

/* The guard use site of pc (the guard is one of its uses), or NONE. */
static uint32_t guard_use(const struct builder *b, uint32_t pc)
{
	const struct weft_program *p = b->p;
	int32_t gr = p->insts[pc].guard;
	if (gr == WEFT_NO_REG)
		return WEFT_DFG_NONE;
	const struct weft_inst_info *ii = &p->info[pc];
	for (uint32_t s = 0; s < ii->nuses; s++)
		if (ii->uses[s] == gr)
			return b->du->use_base[pc] + s;
	return WEFT_DFG_NONE;
}

/* The mux merging the definitions in b->scratch for a use of reg in block
 * blk: found among earlier muxes or built. */
static uint32_t mux_for(struct builder *b, uint32_t blk, int32_t reg, uint32_t use_pc)
{
	uint32_t nd = b->nscratch;
	for (uint32_t i = 0; i < b->nmux; i++) {
		const struct mux_rec *m = &b->mux[i];
		if (m->block == blk && m->reg == reg && m->ndefs == nd &&
		    !memcmp(&b->pool[m->def0], b->scratch, nd * sizeof(uint32_t)))
			return m->node;
	}
	if (grow((void **)&b->mux, &b->cap_mux, b->nmux + 1, sizeof(*b->mux)) ||
	    grow((void **)&b->pool, &b->cap_pool, b->npool + nd, sizeof(uint32_t))) {
		b->oom = 1;
		return WEFT_DFG_NONE;
	}
	uint32_t defs0 = b->npool;
	memcpy(&b->pool[defs0], b->scratch, nd * sizeof(uint32_t));
	b->npool += nd;
	uint32_t n = add_node(b, WEFT_DFN_MUX, WEFT_DFU_CONTROL, use_pc, blk);
	if (n == WEFT_DFG_NONE)
		return n;
	b->g->nodes[n].reg = reg;
	unsigned sz = b->p->reg_type ? weft_ptx_type_size((enum weft_ptx_type)b->p->reg_type[reg]) : 4;
	b->g->nodes[n].bytes = (uint8_t)(sz < 4 ? 4 : sz);
	b->mux[b->nmux++] = (struct mux_rec){ .node = n, .block = blk, .reg = reg, .def0 = defs0,
					       .ndefs = nd };
	/* data inputs; select by the labels of the defining blocks, or by the
	 * guard of a guarded definition in an unconditional block */
	for (uint32_t k = 0; k < nd; k++) {
		uint32_t dp = b->pool[defs0 + k];
		edge_from_pc(b, dp, n, WEFT_DFE_DATA);
		uint32_t db = b->p->block_of[dp];
		if (b->cd->start[db + 1] > b->cd->start[db]) {
			edge_from_label(b, db, n);
		} else {
			uint32_t gu = guard_use(b, dp);
			if (gu == WEFT_DFG_NONE)
				continue;
			const struct weft_defuse *du = b->du;
			for (uint32_t j = du->ud_start[gu]; j < du->ud_start[gu + 1]; j++)
				edge_from_pc(b, du->def_pc[du->ud[j]], n, WEFT_DFE_PRED);
		}
	}
	return n;
}

/* Edges from the values an instruction reads (registers, immediates,
 * symbol addresses, special registers). */
static void add_inputs(struct builder *b, uint32_t pc, uint32_t n, uint32_t blk)
{
	const struct weft_program *p = b->p;
	const struct weft_defuse *du = b->du;
	const struct weft_inst_info *ii = &p->info[pc];
	for (uint32_t s = 0; s < ii->nuses; s++) {
		uint32_t u = du->use_base[pc] + s;
		if (u >= du->use_base[pc + 1])
			break;
		int32_t reg = ii->uses[s];
		uint8_t kind = p->reg_type && p->reg_type[reg] == WEFT_T_PRED ? WEFT_DFE_PRED : WEFT_DFE_DATA;
		uint32_t nd = use_defs(b, u);
		if (nd == 1) {
			edge_from_pc(b, b->scratch[0], n, kind);
		} else if (nd > 1) {
			uint32_t m = mux_for(b, blk, reg, pc);
			add_edge(b, m, n, kind, 0);
		}
	}
	const struct weft_inst *in = &p->insts[pc];
	for (int i = 0; i < in->nopnd && i < WEFT_PTX_MAX_OPERANDS; i++) {
		const struct weft_operand *o = &in->opnd[i];
		uint32_t c = WEFT_DFG_NONE;
		if (o->kind == WEFT_OPND_IMM)
			c = const_node(b, o->imm, WEFT_DFN_CONST, WEFT_DFG_NONE);
		else if (o->kind == WEFT_OPND_SYM ||
			 (o->kind == WEFT_OPND_ADDR && o->reg == WEFT_NO_REG && o->sym >= 0))
			/* symbol address: a key apart from plain immediates (which are
			 * never near INT64_MIN in practice) */
			c = const_node(b, INT64_MIN + (int64_t)o->sym * ((int64_t)1 << 32) + (o->imm & 0xffffffff),
				       WEFT_DFN_CONST,
				       WEFT_DFG_NONE);
		else if (o->kind == WEFT_OPND_SREG)
			/* a key far from immediates and symbol keys */
			c = const_node(b, INT64_MIN / 2 + (int64_t)o->sreg * 65536 + o->comp, sreg_kind(o->sreg),
				       WEFT_DFG_NONE);
		if (c != WEFT_DFG_NONE)
			add_edge(b, c, n, WEFT_DFE_DATA, 0);
	}
}

/* ---- memory ordering ---------------------------------------------------- */

static unsigned domains_of(unsigned space)
{
	switch (space) {
	case WEFT_SPACE_GLOBAL: return 1u;
	case WEFT_SPACE_SHARED: return 2u;
	case WEFT_SPACE_LOCAL:  return 4u;
	case WEFT_SPACE_GENERIC: return 7u;
	default: return 0; /* const, param: read-only, never reordered against stores */
	}
}

static int push_u32(uint32_t **arr, uint32_t *n, uint32_t *cap, uint32_t v)
{
	for (uint32_t i = 0; i < *n; i++)
		if ((*arr)[i] == v)
			return 0;
	if (grow((void **)arr, cap, *n + 1, sizeof(uint32_t)))
		return -1;
	(*arr)[(*n)++] = v;
	return 0;
}

static void order_load(struct builder *b, uint32_t n, unsigned mask, uint32_t blk)
{
	/* the distinct stores this load waits for (one per domain at most) */
	uint32_t lasts[NDOMAINS], nl = 0;
	for (unsigned k = 0; k < NDOMAINS; k++) {
		if (!(mask & (1u << k)))
			continue;
		uint32_t s = b->dom[k].last;
		int seen = s == WEFT_DFG_NONE;
		for (uint32_t i = 0; i < nl; i++)
			seen |= lasts[i] == s;
		if (!seen)
			lasts[nl++] = s;
		if (push_u32(&b->dom[k].pend, &b->dom[k].npend, &b->dom[k].cap, n))
			b->oom = 1;
	}
	/* forget the fan-outs of stores no domain waits on any more */
	uint32_t w = 0;
	for (uint32_t i = 0; i < b->nfan; i++) {
		int live = 0;
		for (unsigned k = 0; k < NDOMAINS; k++)
			live |= b->dom[k].last == b->fan[i].store;
		if (live)
			b->fan[w++] = b->fan[i];
	}
	b->nfan = w;
	for (uint32_t i = 0; i < nl; i++) {
		struct fanout *f = NULL;
		for (uint32_t j = 0; j < b->nfan; j++)
			if (b->fan[j].store == lasts[i])
				f = &b->fan[j];
		if (!f) {
			if (b->nfan == sizeof(b->fan) / sizeof(b->fan[0]))
				continue; /* cannot happen: at most one live store per domain */
			f = &b->fan[b->nfan++];
			*f = (struct fanout){ .store = lasts[i], .split = WEFT_DFG_NONE,
					      .first_edge = WEFT_DFG_NONE, .nloads = 0 };
		}
		if (f->nloads++ == 0) {
			f->first_edge = add_edge(b, f->store, n, WEFT_DFE_ORDER, 0);
			continue;
		}
		if (f->split == WEFT_DFG_NONE) {
			/* a second load after the same store: fan its token out */
			f->split = add_node(b, WEFT_DFN_SPLIT, WEFT_DFU_CONTROL, WEFT_DFG_NONE, blk);
			if (f->split == WEFT_DFG_NONE)
				return;
			add_edge(b, f->store, f->split, WEFT_DFE_ORDER, 0);
			if (f->first_edge != WEFT_DFG_NONE)
				b->g->edges[f->first_edge].from = f->split;
		}
		add_edge(b, f->split, n, WEFT_DFE_ORDER, 0);
	}
}

/* A store, atomic or barrier over the domains in mask: waits for the loads
 * since the last store of each domain (or for that store). */
static void order_store(struct builder *b, uint32_t n, unsigned mask, uint32_t blk)
{
	b->nscratch = 0;
	for (unsigned k = 0; k < NDOMAINS; k++) {
		if (!(mask & (1u << k)))
			continue;
		struct domain *dm = &b->dom[k];
		if (dm->npend) {
			for (uint32_t i = 0; i < dm->npend; i++)
				if (push_u32(&b->scratch, &b->nscratch, &b->cap_scratch, dm->pend[i]))
					b->oom = 1;
		} else if (dm->last != WEFT_DFG_NONE) {
			if (push_u32(&b->scratch, &b->nscratch, &b->cap_scratch, dm->last))
				b->oom = 1;
		}
	}
	if (b->nscratch == 1) {
		add_edge(b, b->scratch[0], n, WEFT_DFE_ORDER, 0);
	} else if (b->nscratch > 1) {
		uint32_t j = add_node(b, WEFT_DFN_JOIN, WEFT_DFU_CONTROL, WEFT_DFG_NONE, blk);
		for (uint32_t i = 0; i < b->nscratch; i++)
			add_edge(b, b->scratch[i], j, WEFT_DFE_ORDER, 0);
		add_edge(b, j, n, WEFT_DFE_ORDER, 0);
	}
	for (unsigned k = 0; k < NDOMAINS; k++) {
		if (!(mask & (1u << k)))
			continue;
		struct domain *dm = &b->dom[k];
		dm->last = n;
		dm->npend = 0;
	}
}

/* ---- instructions --------------------------------------------------------- */

static uint8_t special_of(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_DIV: case WEFT_OP_REM:
		return weft_ptx_type_is_float((enum weft_ptx_type)in->type) ? WEFT_DFS_FP_DIV
									  : WEFT_DFS_INT_DIV;
	case WEFT_OP_RCP:
		return WEFT_DFS_FP_DIV;
	default:
		return WEFT_DFS_SQRT; /* sqrt rsqrt ex2 lg2 sin cos tanh */
	}
}

static unsigned value_bytes_reg(const struct weft_program *p, int32_t reg)
{
	if (reg < 0 || !p->reg_type)
		return 4;
	unsigned sz = weft_ptx_type_size((enum weft_ptx_type)p->reg_type[reg]);
	return sz < 4 ? 4 : sz;
}

static void build_inst(struct builder *b, uint32_t pc, uint32_t blk)
{
	const struct weft_program *p = b->p;
	const struct weft_inst *in = &p->insts[pc];
	const struct weft_inst_info *ii = &p->info[pc];
	int guarded = in->guard != WEFT_NO_REG;
	uint32_t n;
	switch (in->op) {
	case WEFT_OP_BRA: case WEFT_OP_RET: case WEFT_OP_EXIT: case WEFT_OP_TRAP:
		if (!guarded)
			return; /* pure control: the CFG edge is all it was */
		/* fall through */
	case WEFT_OP_BRX:
		n = add_node(b, WEFT_DFN_BRANCH, WEFT_DFU_CONTROL, pc, blk);
		if (n == WEFT_DFG_NONE)
			return;
		add_inputs(b, pc, n, blk);
		/* only now: a use of its own result is loop-carried (pending) */
		b->g->node_of_pc[pc] = n;
		edge_from_label(b, blk, n);
		return;
	case WEFT_OP_CALL: case WEFT_OP_NANOSLEEP:
		return; /* no calls after inlining; nanosleep does nothing on a fabric */
	default:
		break;
	}
	const struct weft_operand *src = in->nopnd > 1 ? &in->opnd[1] : NULL;
	if (!guarded && in->op == WEFT_OP_MOV && src &&
	    (src->kind == WEFT_OPND_IMM || src->kind == WEFT_OPND_SYM || src->kind == WEFT_OPND_SREG)) {
		uint8_t kind = src->kind == WEFT_OPND_SREG ? sreg_kind(src->sreg) : WEFT_DFN_CONST;
		n = add_node(b, kind, WEFT_DFU_EDGE, pc, blk);
		if (n == WEFT_DFG_NONE)
			return;
		b->g->nodes[n].imm = src->imm;
		b->g->nodes[n].bytes = (uint8_t)value_bytes_reg(p, ii->ndefs ? ii->defs[0] : -1);
		b->g->node_of_pc[pc] = n;
		return;
	}
	if (!guarded && (in->op == WEFT_OP_LD || in->op == WEFT_OP_LDU) && in->space == WEFT_SPACE_PARAM &&
	    ii->nuses == 0) {
		n = add_node(b, WEFT_DFN_PARAM, WEFT_DFU_EDGE, pc, blk);
		if (n == WEFT_DFG_NONE)
			return;
		b->g->nodes[n].bytes = ii->access_bytes;
		b->g->node_of_pc[pc] = n;
		return;
	}
	uint8_t kind = WEFT_DFN_OP, unit = WEFT_DFU_COMPUTE, mem = WEFT_DFM_NONE;
	switch (ii->cls) {
	case WEFT_IC_LOAD: unit = WEFT_DFU_LDST; mem = WEFT_DFM_LOAD; break;
	case WEFT_IC_STORE: unit = WEFT_DFU_LDST; mem = WEFT_DFM_STORE; break;
	case WEFT_IC_ATOMIC: unit = WEFT_DFU_LDST; mem = WEFT_DFM_ATOMIC; break;
	case WEFT_IC_SFU: unit = WEFT_DFU_SPECIAL; break;
	case WEFT_IC_BARRIER: kind = WEFT_DFN_BARRIER; unit = WEFT_DFU_CONTROL; break;
	default:
		if (in->op == WEFT_OP_PREFETCH) {
			unit = WEFT_DFU_LDST;
			mem = WEFT_DFM_LOAD;
		}
		break;
	}
	n = add_node(b, kind, unit, pc, blk);
	if (n == WEFT_DFG_NONE)
		return;
	struct weft_dfg_node *nd = &b->g->nodes[n];
	nd->mem = mem;
	if (unit == WEFT_DFU_SPECIAL)
		nd->special = special_of(in);
	if (mem) {
		nd->space = ii->space;
		nd->bytes = ii->access_bytes;
	} else {
		nd->bytes = (uint8_t)value_bytes_reg(p, ii->ndefs ? ii->defs[0] : -1);
	}
	add_inputs(b, pc, n, blk);
	b->g->node_of_pc[pc] = n;
	if (mem || kind == WEFT_DFN_BARRIER)
		edge_from_label(b, blk, n);
	if (kind == WEFT_DFN_BARRIER) {
		order_store(b, n, 7u, blk);
	} else if (mem == WEFT_DFM_STORE || mem == WEFT_DFM_ATOMIC) {
		order_store(b, n, domains_of(ii->space), blk);
	} else if (mem == WEFT_DFM_LOAD && in->op == WEFT_OP_LD && !(in->flags & WEFT_F_NC)) {
		order_load(b, n, domains_of(ii->space), blk);
	}
}

/* ---- finishing ------------------------------------------------------------ */

static int cmp_edge(const void *a, const void *b)
{
	const struct weft_dfg_edge *x = a, *y = b;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static void heap_push(uint32_t *h, uint32_t *n, uint32_t v)
{
	uint32_t i = (*n)++;
	while (i && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n)
{
	uint32_t top = h[0], v = h[--*n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
	return top;
}

/* Sorts edges by target, drops duplicates (keeping data over predicate over
 * order), builds in/out lists and a topological order (Kahn) of the
 * forward edges. */
static int finish_graph(struct weft_dfg *g, struct weft_error *err)
{
	if (g->nedges)
		qsort(g->edges, g->nedges, sizeof(*g->edges), cmp_edge);
	uint32_t w = 0;
	for (uint32_t i = 0; i < g->nedges; i++) {
		if (w && g->edges[w - 1].to == g->edges[i].to && g->edges[w - 1].from == g->edges[i].from) {
			g->edges[w - 1].back |= g->edges[i].back;
			continue;
		}
		g->edges[w++] = g->edges[i];
	}
	g->nedges = w;
	for (uint32_t i = 0; i < g->nnodes; i++)
		g->nodes[i].nin = g->nodes[i].nout = 0;
	for (uint32_t i = 0; i < g->nedges; i++) {
		struct weft_dfg_edge *e = &g->edges[i];
		uint8_t sk = g->nodes[e->from].kind;
		e->balanced = !e->back && sk != WEFT_DFN_CONST && sk != WEFT_DFN_PARAM;
		g->nodes[e->to].nin++;
		g->nodes[e->from].nout++;
		g->nback += e->back;
	}
	uint32_t in = 0, out = 0;
	for (uint32_t i = 0; i < g->nnodes; i++) {
		g->nodes[i].in_start = in;
		g->nodes[i].out_start = out;
		in += g->nodes[i].nin;
		out += g->nodes[i].nout;
	}
	g->out = malloc(((size_t)g->nedges + 1) * sizeof(uint32_t));
	g->topo = malloc(((size_t)g->nnodes + 1) * sizeof(uint32_t));
	uint32_t *fill = calloc((size_t)g->nnodes + 1, sizeof(uint32_t));
	uint32_t *indeg = calloc((size_t)g->nnodes + 1, sizeof(uint32_t));
	if (!g->out || !g->topo || !fill || !indeg) {
		free(fill);
		free(indeg);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory building the dataflow graph");
	}
	for (uint32_t i = 0; i < g->nedges; i++) {
		const struct weft_dfg_edge *e = &g->edges[i];
		g->out[g->nodes[e->from].out_start + fill[e->from]++] = i;
		if (!e->back)
			indeg[e->to]++;
	}
	/* Kahn's algorithm taking the smallest ready node id first: ids follow
	 * program order, so the order stays close to it (short live ranges
	 * for the partitioner); fill is reused as the heap */
	uint32_t *heap = fill, nheap = 0, tail = 0;
	for (uint32_t i = 0; i < g->nnodes; i++)
		if (!indeg[i])
			heap_push(heap, &nheap, i);
	while (nheap) {
		uint32_t v = heap_pop(heap, &nheap);
		g->topo[tail++] = v;
		const struct weft_dfg_node *nd = &g->nodes[v];
		for (uint32_t k = 0; k < nd->nout; k++) {
			const struct weft_dfg_edge *e = &g->edges[g->out[nd->out_start + k]];
			if (!e->back && --indeg[e->to] == 0)
				heap_push(heap, &nheap, e->to);
		}
	}
	free(fill);
	free(indeg);
	if (tail != g->nnodes)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "dataflow graph: %u of %u nodes are on a cycle of forward edges "
				      "(a bug in weft's graph builder; please report it with the kernel)",
				      g->nnodes - tail, g->nnodes);
	return 0;
}

int weft_dfg_build(const struct weft_program *p, const struct weft_dom *d,
		   const struct weft_defuse *du, const struct weft_cdep *cd,
		   const struct weft_dfg_params *prm, struct weft_dfg *g, struct weft_error *err)
{
	memset(g, 0, sizeof(*g));
	if (prm)
		g->params = *prm;
	else
		weft_dfg_params_default(&g->params);
	g->ninsts = p->ninsts;
	g->nblocks = p->nblocks;
	g->node_of_pc = malloc(((size_t)p->ninsts + 1) * sizeof(uint32_t));
	g->label_of_block = malloc(((size_t)p->nblocks + 1) * sizeof(uint32_t));
	struct builder b = { .p = p, .d = d, .du = du, .cd = cd, .g = g };
	int rc = 0;
	if (!g->node_of_pc || !g->label_of_block)
		goto oom;
	for (uint32_t i = 0; i < p->ninsts; i++)
		g->node_of_pc[i] = WEFT_DFG_NONE;
	for (uint32_t i = 0; i < p->nblocks; i++)
		g->label_of_block[i] = WEFT_DFG_NONE;
	for (unsigned k = 0; k < NDOMAINS; k++)
		b.dom[k].last = WEFT_DFG_NONE;

	for (uint32_t r = 0; r < d->nrpo && !b.oom; r++) {
		uint32_t blk = d->rpo[r];
		const struct weft_block *bl = &p->blocks[blk];
		if (cd->start[blk + 1] > cd->start[blk]) {
			/* the block's predicate: its branch conditions, one edge each */
			uint32_t lab = add_node(&b, WEFT_DFN_LABEL, WEFT_DFU_CONTROL, WEFT_DFG_NONE, blk);
			if (lab == WEFT_DFG_NONE)
				break;
			g->nodes[lab].bytes = 4;
			g->label_of_block[blk] = lab;
			for (uint32_t k = cd->start[blk]; k < cd->start[blk + 1]; k++) {
				const struct weft_block *ab = &p->blocks[cd->deps[k].branch];
				edge_from_pc(&b, ab->first + ab->count - 1, lab, WEFT_DFE_PRED);
			}
		}
		for (uint32_t pc = bl->first; pc < bl->first + bl->count && !b.oom; pc++)
			build_inst(&b, pc, blk);
	}
	/* back edges */
	for (uint32_t i = 0; i < b.npend && !b.oom; i++) {
		const struct pending *q = &b.pend[i];
		uint32_t from = q->type == REF_PC ? g->node_of_pc[q->ref] : g->label_of_block[q->ref];
		if (from != WEFT_DFG_NONE)
			add_edge(&b, from, q->to, q->kind, 1);
	}
	if (b.oom)
		goto oom;
	rc = finish_graph(g, err);
	if (rc)
		goto out;
	for (uint32_t i = 0; i < g->nnodes; i++) {
		struct weft_dfg_node *nd = &g->nodes[i];
		nd->lat = g->params.lat[nd->unit];
		if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT &&
		    g->params.lat_special[nd->special])
			nd->lat = g->params.lat_special[nd->special];
		g->units[nd->unit]++;
		g->kinds[nd->kind]++;
		if (nd->unit == WEFT_DFU_SPECIAL && nd->special < WEFT_DFS_COUNT)
			g->specials[nd->special]++;
	}
	uint64_t *finish = malloc(((size_t)g->nnodes + 1) * sizeof(uint64_t));
	uint32_t *slack = malloc(((size_t)g->nedges + 1) * sizeof(uint32_t));
	if (!finish || !slack) {
		free(finish);
		free(slack);
		goto oom;
	}
	struct weft_dfg_paths ps;
	rc = weft_dfg_paths(g, NULL, 0, finish, slack, &ps, err);
	if (!rc) {
		for (uint32_t i = 0; i < g->nnodes; i++)
			g->nodes[i].finish = finish[i];
		for (uint32_t i = 0; i < g->nedges; i++)
			g->edges[i].slack = slack[i];
		g->critical_path = ps.critical_path;
		g->critical_nodes = ps.critical_nodes;
		g->delay_slots = ps.delay_slots;
		g->delay_edges = ps.delay_edges;
	}
	free(finish);
	free(slack);
	goto out;
oom:
	rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory building the dataflow graph of %s",
			    p->kernel ? p->kernel : "the kernel");
out:
	free(b.pend);
	free(b.mux);
	free(b.pool);
	free(b.const_key);
	free(b.const_node);
	free(b.scratch);
	for (unsigned k = 0; k < NDOMAINS; k++)
		free(b.dom[k].pend);
	if (rc)
		weft_dfg_free(g);
	return rc;
}

void weft_dfg_free(struct weft_dfg *g)
{
	free(g->nodes);
	free(g->edges);
	free(g->out);
	free(g->topo);
	free(g->node_of_pc);
	free(g->label_of_block);
	memset(g, 0, sizeof(*g));
}

unsigned weft_dfg_value_bytes(const struct weft_program *p, const struct weft_dfg *g, uint32_t n)
{
	const struct weft_dfg_node *nd = &g->nodes[n];
	if (nd->kind == WEFT_DFN_MUX)
		return value_bytes_reg(p, nd->reg);
	if (nd->pc != WEFT_DFG_NONE && nd->pc < p->ninsts && p->info[nd->pc].ndefs)
		return value_bytes_reg(p, p->info[nd->pc].defs[0]);
	return 4;
}
