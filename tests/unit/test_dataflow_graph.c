/*
 * test_dataflow_graph.c - dataflow graph extraction (models/dataflow/graph.h)
 * on small kernels: a hand-filled program (straight chain: critical path,
 * latencies), and PTX kernels through the host API for the diamond (labels,
 * branch condition, one mux, delay slots equal to the difference of the two
 * sides), merges of several values, memory ordering chains with split/join
 * per address space, and the classification of special operations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "models/dataflow/graph.h"
#include "test_analysis_util.h"

struct dg {
	struct weft_program *p;
	struct weft_dfg_analyses a;
	struct weft_dfg g;
};

static int dg_build(struct dg *t, struct weft_program *p, const struct weft_dfg_params *prm)
{
	struct weft_error err;
	memset(t, 0, sizeof(*t));
	t->p = p;
	if (!p)
		return -1;
	if (weft_dfg_analyses_build(p, &t->a, &err) ||
	    weft_dfg_build(p, &t->a.dom, &t->a.du, &t->a.cdep, prm, &t->g, &err)) {
		fprintf(stderr, "dataflow graph failed: %s\n", err.message);
		return -1;
	}
	return 0;
}

static void dg_free(struct dg *t)
{
	weft_dfg_free(&t->g);
	weft_dfg_analyses_free(&t->a);
	weft_program_free(t->p);
}

/* The edge from -> to, or NULL. */
static const struct weft_dfg_edge *edge(const struct weft_dfg *g, uint32_t from, uint32_t to)
{
	if (from == WEFT_DFG_NONE || to == WEFT_DFG_NONE)
		return NULL;
	const struct weft_dfg_node *n = &g->nodes[to];
	for (uint32_t k = 0; k < n->nin; k++)
		if (g->edges[n->in_start + k].from == from)
			return &g->edges[n->in_start + k];
	return NULL;
}

/* The node of the n-th instruction with opcode op. */
static uint32_t node_op(const struct dg *t, int op, unsigned n)
{
	uint32_t pc = an_pc(t->p, op, n);
	return pc == UINT32_MAX ? WEFT_DFG_NONE : t->g.node_of_pc[pc];
}

/* The only input of node `to` of the given kind (WEFT_DFG_NONE if not exactly one). */
static uint32_t only_input_of_kind(const struct weft_dfg *g, uint32_t to, unsigned kind)
{
	uint32_t found = WEFT_DFG_NONE, n = 0;
	const struct weft_dfg_node *nd = &g->nodes[to];
	for (uint32_t k = 0; k < nd->nin; k++) {
		uint32_t f = g->edges[nd->in_start + k].from;
		if (g->nodes[f].kind == kind) {
			found = f;
			n++;
		}
	}
	return n == 1 ? found : WEFT_DFG_NONE;
}

/* ---- hand-filled program: mov tid; n x add; ret ----------------------------- */

static struct weft_program *chain_program(unsigned nadds)
{
	struct weft_program *p = calloc(1, sizeof(*p));
	p->kernel = strdup("chain");
	p->ninsts = nadds + 2;
	p->insts = calloc(p->ninsts, sizeof(*p->insts));
	p->nregs = nadds + 1;
	p->reg_type = calloc(p->nregs, 1);
	for (uint32_t r = 0; r < p->nregs; r++)
		p->reg_type[r] = WEFT_T_U32;
	for (uint32_t i = 0; i < p->ninsts; i++)
		p->insts[i].guard = WEFT_NO_REG;
	struct weft_inst *in = &p->insts[0]; /* mov.u32 %r0, %tid.x */
	in->op = WEFT_OP_MOV;
	in->type = WEFT_T_U32;
	in->nopnd = 2;
	in->opnd[0] = (struct weft_operand){ .kind = WEFT_OPND_REG, .reg = 0, .reg2 = WEFT_NO_REG, .sym = -1 };
	in->opnd[1] = (struct weft_operand){ .kind = WEFT_OPND_SREG, .sreg = WEFT_SREG_TID, .comp = 0,
					     .reg = WEFT_NO_REG, .reg2 = WEFT_NO_REG, .sym = -1 };
	for (unsigned i = 1; i <= nadds; i++) { /* add.u32 %ri, %r(i-1), 1 */
		in = &p->insts[i];
		in->op = WEFT_OP_ADD;
		in->type = WEFT_T_U32;
		in->nopnd = 3;
		in->opnd[0] = (struct weft_operand){ .kind = WEFT_OPND_REG, .reg = (int32_t)i,
						     .reg2 = WEFT_NO_REG, .sym = -1 };
		in->opnd[1] = (struct weft_operand){ .kind = WEFT_OPND_REG, .reg = (int32_t)i - 1,
						     .reg2 = WEFT_NO_REG, .sym = -1 };
		in->opnd[2] = (struct weft_operand){ .kind = WEFT_OPND_IMM, .imm = 1, .reg = WEFT_NO_REG,
						     .reg2 = WEFT_NO_REG, .sym = -1 };
	}
	p->insts[nadds + 1].op = WEFT_OP_RET;
	struct weft_error err;
	if (weft_program_analyse(p, &err)) {
		fprintf(stderr, "analyse: %s\n", err.message);
		weft_program_free(p);
		return NULL;
	}
	return p;
}

static void test_chain(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, chain_program(6), NULL), 0);
	const struct weft_dfg *g = &t.g;
	/* tid (initiation) + one constant 1 + 6 adds; ret vanishes */
	assert_int_equal(g->nnodes, 8);
	assert_int_equal(g->units[WEFT_DFU_COMPUTE], 6);
	assert_int_equal(g->units[WEFT_DFU_CONTROL], 0);
	assert_int_equal(g->units[WEFT_DFU_EDGE], 2);
	assert_int_equal(g->kinds[WEFT_DFN_INIT], 1);
	assert_int_equal(g->kinds[WEFT_DFN_CONST], 1);
	assert_int_equal(g->node_of_pc[7], WEFT_DFG_NONE);
	/* one cycle per node by default, edge nodes free */
	assert_int_equal(g->critical_path, 6);
	assert_int_equal(g->critical_nodes, 6);
	assert_int_equal(g->delay_slots, 0); /* the constant needs no FIFO */
	assert_int_equal(g->nback, 0);
	for (uint32_t i = 1; i <= 6; i++)
		assert_int_equal(g->nodes[g->node_of_pc[i]].finish, i);
	dg_free(&t);

	/* latencies come from the parameters */
	struct weft_dfg_params prm;
	weft_dfg_params_default(&prm);
	prm.lat[WEFT_DFU_COMPUTE] = 4;
	assert_int_equal(dg_build(&t, chain_program(6), &prm), 0);
	assert_int_equal(t.g.critical_path, 24);
	assert_int_equal(t.g.critical_nodes, 6);
	dg_free(&t);
}

/* ---- diamond: if/else with 3 ops on one side, 1 on the other ---------------- */

static const char diamond_ptx[] = PTX_HEAD
	".visible .entry diamond(.param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n"
	" setp.lt.u32 %p1, %r1, 16;\n"
	" @%p1 bra THEN;\n"
	" add.u32 %r2, %r1, 1;\n"         /* else: 1 op */
	" bra.uni JOIN;\n"
	"THEN:\n"
	" mul.lo.u32 %r3, %r1, 3;\n"      /* then: 3 ops */
	" add.u32 %r4, %r3, 5;\n"
	" add.u32 %r2, %r4, 7;\n"
	" st.global.u32 [%rd1], %r4;\n"
	"JOIN:\n"
	" add.u32 %r5, %r2, 9;\n"
	" st.global.u32 [%rd1+4], %r5;\n"
	" ret;\n}\n";

static void test_diamond(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(diamond_ptx, "diamond"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	/* one branch condition, a label for each side, none for entry and join */
	assert_int_equal(g->kinds[WEFT_DFN_BRANCH], 1);
	assert_int_equal(g->kinds[WEFT_DFN_LABEL], 2);
	assert_int_equal(g->kinds[WEFT_DFN_MUX], 1);
	uint32_t br = node_op(&t, WEFT_OP_BRA, 0);
	assert_int_not_equal(br, WEFT_DFG_NONE);
	assert_int_equal(g->nodes[br].kind, WEFT_DFN_BRANCH);
	assert_int_equal(node_op(&t, WEFT_OP_BRA, 1), WEFT_DFG_NONE); /* bra.uni vanishes */
	assert_int_equal(node_op(&t, WEFT_OP_RET, 0), WEFT_DFG_NONE);
	uint32_t setp = node_op(&t, WEFT_OP_SETP, 0);
	assert_non_null(edge(g, setp, br));
	uint32_t else_add = node_op(&t, WEFT_OP_ADD, 0), then_add = node_op(&t, WEFT_OP_ADD, 2);
	uint32_t join_add = node_op(&t, WEFT_OP_ADD, 3);
	uint32_t mux = only_input_of_kind(g, join_add, WEFT_DFN_MUX);
	assert_int_not_equal(mux, WEFT_DFG_NONE);
	const struct weft_dfg_edge *e_else = edge(g, else_add, mux), *e_then = edge(g, then_add, mux);
	assert_non_null(e_else);
	assert_non_null(e_then);
	/* the mux is selected by both labels, each fed by the branch */
	uint32_t lab_else = g->label_of_block[t.p->block_of[an_pc(t.p, WEFT_OP_ADD, 0)]];
	uint32_t lab_then = g->label_of_block[t.p->block_of[an_pc(t.p, WEFT_OP_MUL, 0)]];
	assert_non_null(edge(g, lab_else, mux));
	assert_non_null(edge(g, lab_then, mux));
	assert_non_null(edge(g, br, lab_else));
	assert_non_null(edge(g, br, lab_then));
	/* the store on the then side is enabled by its label */
	assert_non_null(edge(g, lab_then, node_op(&t, WEFT_OP_ST, 0)));
	/* finish: setp 1, branch 2, labels 3; else add 1; then 1, 2, 3 */
	assert_int_equal(g->nodes[else_add].finish, 1);
	assert_int_equal(g->nodes[then_add].finish, 3);
	assert_int_equal(g->nodes[lab_then].finish, 3);
	/* the short side waits the difference in delay slots */
	assert_int_equal(e_else->slack, 2);
	assert_int_equal(e_then->slack, 0);
	assert_int_equal(g->nodes[mux].finish, 4);
	/* whole graph: the then-store starts with its label at 3, its value
	 * r4 (ready at 2) waits 1; the join add ends at 5, so the final store
	 * starts at 5 and its ordering token from the then-store (ready at 4)
	 * waits 1; tid and constants wait for nothing. 2 + 1 + 1 slots. */
	assert_int_equal(g->delay_slots, 4);
	assert_int_equal(g->delay_edges, 3);
	assert_int_equal(g->critical_path, 6);
	dg_free(&t);
}

/* two values merged, each used twice after the join: one mux per value */
static const char merge_ptx[] = PTX_HEAD
	".visible .entry merge(.param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n"
	" mov.u32 %r2, 0;\n"
	" mov.u32 %r3, 1;\n"
	" setp.lt.u32 %p1, %r1, 16;\n"
	" @%p1 bra SKIP;\n"
	" add.u32 %r2, %r1, 1;\n"
	" add.u32 %r3, %r1, 2;\n"
	"SKIP:\n"
	" add.u32 %r4, %r2, %r3;\n"
	" mul.lo.u32 %r5, %r2, %r3;\n"
	" add.u32 %r6, %r4, %r5;\n"
	" add.u32 %r7, %r6, %r1;\n"
	" st.global.u32 [%rd1], %r7;\n"
	" ret;\n}\n";

static void test_merge_muxes(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(merge_ptx, "merge"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	assert_int_equal(g->kinds[WEFT_DFN_MUX], 2);
	assert_int_equal(g->kinds[WEFT_DFN_LABEL], 1);
	/* the initial values are constants at the grid edge */
	assert_int_equal(g->nodes[node_op(&t, WEFT_OP_MOV, 1)].kind, WEFT_DFN_CONST);
	assert_int_equal(g->nodes[node_op(&t, WEFT_OP_MOV, 0)].kind, WEFT_DFN_INIT);
	assert_int_equal(g->nodes[node_op(&t, WEFT_OP_LD, 0)].kind, WEFT_DFN_PARAM);
	/* both uses of r2 read the same mux */
	uint32_t a = node_op(&t, WEFT_OP_ADD, 2), m = node_op(&t, WEFT_OP_MUL, 0);
	const struct weft_dfg_node *na = &g->nodes[a], *nm = &g->nodes[m];
	uint32_t muxes_a[2], muxes_m[2], ka = 0, km = 0;
	for (uint32_t k = 0; k < na->nin; k++)
		if (g->nodes[g->edges[na->in_start + k].from].kind == WEFT_DFN_MUX)
			muxes_a[ka++] = g->edges[na->in_start + k].from;
	for (uint32_t k = 0; k < nm->nin; k++)
		if (g->nodes[g->edges[nm->in_start + k].from].kind == WEFT_DFN_MUX)
			muxes_m[km++] = g->edges[nm->in_start + k].from;
	assert_int_equal(ka, 2);
	assert_int_equal(km, 2);
	assert_true((muxes_a[0] == muxes_m[0] && muxes_a[1] == muxes_m[1]) ||
		    (muxes_a[0] == muxes_m[1] && muxes_a[1] == muxes_m[0]));
	dg_free(&t);
}

/* ---- memory ordering ------------------------------------------------------ */

static const char mem_ptx[] = PTX_HEAD
	".visible .entry mem(.param .u64 buf)\n{\n"
	" .shared .align 4 .b32 sh[64];\n"
	" .reg .b32 %r<12>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [buf];\n"
	" ld.global.u32 %r1, [%rd1];\n"       /* a: first group, nothing to wait for */
	" ld.global.u32 %r2, [%rd1+4];\n"     /* b */
	" add.u32 %r3, %r1, %r2;\n"
	" st.global.u32 [%rd1+8], %r3;\n"     /* c waits for a and b (join) */
	" ld.global.u32 %r4, [%rd1+12];\n"    /* d after c: split */
	" ld.global.u32 %r5, [%rd1+16];\n"    /* f after c: split */
	" add.u32 %r6, %r4, %r5;\n"
	" st.global.u32 [%rd1+20], %r6;\n"    /* e waits for d and f (join) */
	" st.shared.u32 [sh], %r6;\n"         /* s: own domain, waits for nothing */
	" ld.shared.u32 %r7, [sh+4];\n"       /* t after s */
	" ld.global.nc.u32 %r8, [%rd1+24];\n" /* read-only: never ordered */
	" add.u32 %r9, %r7, %r8;\n"
	" st.global.u32 [%rd1+28], %r9;\n"    /* h after e */
	" ret;\n}\n";

static void test_memory_chain(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(mem_ptx, "mem"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	uint32_t a = node_op(&t, WEFT_OP_LD, 1), b = node_op(&t, WEFT_OP_LD, 2);
	uint32_t d = node_op(&t, WEFT_OP_LD, 3), f = node_op(&t, WEFT_OP_LD, 4);
	uint32_t tl = node_op(&t, WEFT_OP_LD, 5), nc = node_op(&t, WEFT_OP_LD, 6);
	uint32_t c = node_op(&t, WEFT_OP_ST, 0), e = node_op(&t, WEFT_OP_ST, 1);
	uint32_t s = node_op(&t, WEFT_OP_ST, 2), h = node_op(&t, WEFT_OP_ST, 3);
	assert_int_equal(g->units[WEFT_DFU_LDST], 10);
	assert_int_equal(g->kinds[WEFT_DFN_JOIN], 2);
	assert_int_equal(g->kinds[WEFT_DFN_SPLIT], 1);
	/* the first loads have no ordering input */
	assert_null(only_input_of_kind(g, a, WEFT_DFN_SPLIT) != WEFT_DFG_NONE ? &g->nodes[a] : NULL);
	for (uint32_t k = 0; k < g->nodes[a].nin; k++)
		assert_int_not_equal(g->edges[g->nodes[a].in_start + k].kind, WEFT_DFE_ORDER);
	/* c <- join(a, b) */
	uint32_t j1 = only_input_of_kind(g, c, WEFT_DFN_JOIN);
	assert_int_not_equal(j1, WEFT_DFG_NONE);
	assert_int_equal(edge(g, a, j1)->kind, WEFT_DFE_ORDER);
	assert_int_equal(edge(g, b, j1)->kind, WEFT_DFE_ORDER);
	/* c -> split -> d, f */
	uint32_t sp = only_input_of_kind(g, d, WEFT_DFN_SPLIT);
	assert_int_not_equal(sp, WEFT_DFG_NONE);
	assert_int_equal(only_input_of_kind(g, f, WEFT_DFN_SPLIT), sp);
	assert_int_equal(edge(g, c, sp)->kind, WEFT_DFE_ORDER);
	assert_null(edge(g, c, d));
	/* e <- join(d, f) */
	uint32_t j2 = only_input_of_kind(g, e, WEFT_DFN_JOIN);
	assert_int_not_equal(j2, WEFT_DFG_NONE);
	assert_non_null(edge(g, d, j2));
	assert_non_null(edge(g, f, j2));
	/* shared is its own domain: s waits for no global access, t for s */
	assert_null(edge(g, e, s));
	assert_null(edge(g, j2, s));
	assert_int_equal(edge(g, s, tl)->kind, WEFT_DFE_ORDER);
	/* the .nc load is unordered; h follows e */
	for (uint32_t k = 0; k < g->nodes[nc].nin; k++)
		assert_int_not_equal(g->edges[g->nodes[nc].in_start + k].kind, WEFT_DFE_ORDER);
	assert_int_equal(edge(g, e, h)->kind, WEFT_DFE_ORDER);
	/* memory nodes carry their space and size for the timing model */
	assert_int_equal(g->nodes[s].space, WEFT_SPACE_SHARED);
	assert_int_equal(g->nodes[c].mem, WEFT_DFM_STORE);
	assert_int_equal(g->nodes[a].mem, WEFT_DFM_LOAD);
	assert_int_equal(g->nodes[a].bytes, 4);
	dg_free(&t);
}

/* barriers order every domain */
static const char bar_ptx[] = PTX_HEAD
	".visible .entry barr(.param .u64 buf)\n{\n"
	" .shared .align 4 .b32 sh[64];\n"
	" .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [buf];\n"
	" ld.global.u32 %r1, [%rd1];\n"
	" st.shared.u32 [sh], %r1;\n"
	" bar.sync 0;\n"
	" ld.shared.u32 %r2, [sh+4];\n"
	" st.global.u32 [%rd1+4], %r2;\n"
	" ret;\n}\n";

static void test_barrier_orders_all(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(bar_ptx, "barr"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	uint32_t bar = node_op(&t, WEFT_OP_BAR, 0);
	assert_int_equal(g->nodes[bar].kind, WEFT_DFN_BARRIER);
	assert_int_equal(g->nodes[bar].unit, WEFT_DFU_CONTROL);
	uint32_t j = only_input_of_kind(g, bar, WEFT_DFN_JOIN);
	assert_int_not_equal(j, WEFT_DFG_NONE); /* global load and shared store */
	assert_non_null(edge(g, node_op(&t, WEFT_OP_LD, 1), j));
	assert_non_null(edge(g, node_op(&t, WEFT_OP_ST, 0), j));
	assert_non_null(edge(g, bar, node_op(&t, WEFT_OP_LD, 2)));
	dg_free(&t);
}

/* a generic access may touch any space: it orders against all domains */
static const char generic_ptx[] = PTX_HEAD
	".visible .entry gen(.param .u64 buf)\n{\n"
	" .shared .align 4 .b32 sh[64];\n"
	" .reg .b32 %r<6>; .reg .b64 %rd<3>;\n"
	" ld.param.u64 %rd1, [buf];\n"
	" ld.shared.u32 %r1, [sh];\n"
	" ld.global.u32 %r2, [%rd1];\n"
	" add.u32 %r3, %r1, %r2;\n"
	" st.u32 [%rd1+4], %r3;\n"
	" ld.shared.u32 %r4, [sh+4];\n"
	" ld.global.u32 %r5, [%rd1+8];\n"
	" ret;\n}\n";

static void test_generic_orders_all(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(generic_ptx, "gen"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	uint32_t st = node_op(&t, WEFT_OP_ST, 0);
	assert_int_equal(g->nodes[st].space, WEFT_SPACE_GENERIC);
	uint32_t j = only_input_of_kind(g, st, WEFT_DFN_JOIN);
	assert_int_not_equal(j, WEFT_DFG_NONE);
	assert_non_null(edge(g, node_op(&t, WEFT_OP_LD, 1), j));
	assert_non_null(edge(g, node_op(&t, WEFT_OP_LD, 2), j));
	/* the shared and the global load after it share one split */
	assert_int_equal(g->kinds[WEFT_DFN_SPLIT], 1);
	uint32_t sp = only_input_of_kind(g, node_op(&t, WEFT_OP_LD, 3), WEFT_DFN_SPLIT);
	assert_int_not_equal(sp, WEFT_DFG_NONE);
	assert_int_equal(only_input_of_kind(g, node_op(&t, WEFT_OP_LD, 4), WEFT_DFN_SPLIT), sp);
	assert_non_null(edge(g, st, sp));
	dg_free(&t);
}

/* ---- classification ------------------------------------------------------- */

static const char special_ptx[] = PTX_HEAD
	".visible .entry spec(.param .u64 buf)\n{\n"
	" .reg .b32 %r<6>; .reg .f32 %f<10>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [buf];\n"
	" mov.u32 %r1, %tid.x;\n"
	" div.s32 %r2, 1000, %r1;\n"
	" rem.u32 %r3, %r2, 7;\n"
	" cvt.rn.f32.u32 %f1, %r3;\n"
	" div.rn.f32 %f2, %f1, 0f40400000;\n"
	" rcp.rn.f32 %f3, %f2;\n"
	" sqrt.rn.f32 %f4, %f3;\n"
	" ex2.approx.f32 %f5, %f4;\n"
	" sin.approx.f32 %f6, %f5;\n"
	" fma.rn.f32 %f7, %f6, %f5, %f4;\n"
	" st.global.f32 [%rd1], %f7;\n"
	" ret;\n}\n";

static void test_special_classes(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(special_ptx, "spec"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	struct {
		int op;
		unsigned n, unit, special;
	} want[] = {
		{ WEFT_OP_DIV, 0, WEFT_DFU_SPECIAL, WEFT_DFS_INT_DIV },
		{ WEFT_OP_REM, 0, WEFT_DFU_SPECIAL, WEFT_DFS_INT_DIV },
		{ WEFT_OP_DIV, 1, WEFT_DFU_SPECIAL, WEFT_DFS_FP_DIV },
		{ WEFT_OP_RCP, 0, WEFT_DFU_SPECIAL, WEFT_DFS_FP_DIV },
		{ WEFT_OP_SQRT, 0, WEFT_DFU_SPECIAL, WEFT_DFS_SQRT },
		{ WEFT_OP_EX2, 0, WEFT_DFU_SPECIAL, WEFT_DFS_SQRT },
		{ WEFT_OP_SIN, 0, WEFT_DFU_SPECIAL, WEFT_DFS_SQRT },
		{ WEFT_OP_FMA, 0, WEFT_DFU_COMPUTE, WEFT_DFS_NONE },
		{ WEFT_OP_CVT, 0, WEFT_DFU_COMPUTE, WEFT_DFS_NONE },
		{ WEFT_OP_ST, 0, WEFT_DFU_LDST, WEFT_DFS_NONE },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint32_t n = node_op(&t, want[i].op, want[i].n);
		assert_int_not_equal(n, WEFT_DFG_NONE);
		assert_int_equal(g->nodes[n].unit, want[i].unit);
		assert_int_equal(g->nodes[n].special, want[i].special);
	}
	assert_int_equal(g->specials[WEFT_DFS_INT_DIV], 2);
	assert_int_equal(g->specials[WEFT_DFS_FP_DIV], 2);
	assert_int_equal(g->specials[WEFT_DFS_SQRT], 3);
	assert_int_equal(g->units[WEFT_DFU_SPECIAL], 7);
	/* a straight chain: each node one cycle */
	assert_int_equal(g->critical_path, 10); /* div rem cvt div rcp sqrt ex2 sin fma st */
	dg_free(&t);
	/* per-kind special latencies: 2 int div (5 each), 2 fp div (7), 3 sqrt (9) */
	struct weft_dfg_params prm;
	weft_dfg_params_default(&prm);
	prm.lat_special[WEFT_DFS_INT_DIV] = 5;
	prm.lat_special[WEFT_DFS_FP_DIV] = 7;
	prm.lat_special[WEFT_DFS_SQRT] = 9;
	assert_int_equal(dg_build(&t, an_program(special_ptx, "spec"), &prm), 0);
	assert_int_equal(t.g.critical_path, 2 * 5 + 2 * 7 + 3 * 9 + 3);
	assert_int_equal(t.g.critical_nodes, 10);
	dg_free(&t);
}

/* loop-carried values are back edges and stay out of the critical path */
static const char loop_ptx[] = PTX_HEAD
	".visible .entry loop(.param .u32 n, .param .u64 out)\n{\n"
	" .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
	" ld.param.u32 %r1, [n];\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r2, 0;\n"
	"L:\n"
	" add.u32 %r2, %r2, 3;\n"
	" setp.lt.u32 %p1, %r2, %r1;\n"
	" @%p1 bra L;\n"
	" st.global.u32 [%rd1], %r2;\n"
	" ret;\n}\n";

static void test_loop_back_edges(void **state)
{
	(void)state;
	struct dg t;
	assert_int_equal(dg_build(&t, an_program(loop_ptx, "loop"), NULL), 0);
	const struct weft_dfg *g = &t.g;
	uint32_t add = node_op(&t, WEFT_OP_ADD, 0);
	uint32_t mux = only_input_of_kind(g, add, WEFT_DFN_MUX);
	assert_int_not_equal(mux, WEFT_DFG_NONE);
	const struct weft_dfg_edge *back = edge(g, add, mux);
	assert_non_null(back);
	assert_true(back->back);
	assert_false(edge(g, mux, add)->back);
	/* the header's label depends on its own exit branch, around the loop */
	uint32_t br = node_op(&t, WEFT_OP_BRA, 0);
	uint32_t lab = g->label_of_block[t.p->block_of[an_pc(t.p, WEFT_OP_ADD, 0)]];
	assert_int_not_equal(lab, WEFT_DFG_NONE);
	assert_true(edge(g, br, lab)->back);
	assert_true(g->nback >= 2);
	dg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_diamond),
		cmocka_unit_test(test_merge_muxes),
		cmocka_unit_test(test_memory_chain),
		cmocka_unit_test(test_barrier_orders_all),
		cmocka_unit_test(test_generic_orders_all),
		cmocka_unit_test(test_special_classes),
		cmocka_unit_test(test_loop_back_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
