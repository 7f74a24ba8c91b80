/*
 * test_trace_wlog.c - the trace writer's per-warp record of a CTA
 * (trace/format/trace_wlog.c): seeded random warps (full, partial and
 * single-lane events; strided, uniform and scattered addresses) are logged,
 * and every lane read back, every agreement mask and every event's
 * first-access and changed-step lanes are checked against a plain per-lane
 * computation of the same events. The writer's fast path trusts these
 * marks to skip reading addresses, so a wrong bit would change a trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/format/trace_wlog.h"

#define NM 5
#define MAXEV 400

enum { EV_BLOCK, EV_GUARD, EV_ACCESS };
struct ev {
	int kind;
	uint32_t a, lanes; /* block / guard outcome / memory instruction; lanes */
	uint8_t space;
	uint64_t addr[32];
};

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static uint32_t some_lanes(void)
{
	switch (rnd() % 4) {
	case 0:
	case 1:
		return 0xffffffffu;
	case 2:
		return 1u << (rnd() % 32);
	default:
		return rnd() | 1u << (rnd() % 32);
	}
}

/* One warp of n random events, logged into g and kept in e. */
static void make_warp(struct wt_wlog *g, struct ev *e, int n)
{
	static uint64_t tstride[NM];
	for (int m = 0; m < NM; m++)
		tstride[m] = rnd() % 3 == 0 ? 0 : 4 * (rnd() % 64);
	for (int i = 0; i < n; i++) {
		struct ev *x = &e[i];
		memset(x, 0, sizeof(*x));
		x->kind = (int)(rnd() % 3);
		x->lanes = some_lanes();
		if (x->kind == EV_BLOCK) {
			x->a = rnd() % 7;
			assert_int_equal(weft_trace_wlog_block(g, x->a, x->lanes), 0);
		} else if (x->kind == EV_GUARD) {
			x->a = rnd() % 3 == 0 ? x->lanes : rnd() & x->lanes;
			assert_int_equal(weft_trace_wlog_guard(g, x->a, x->lanes), 0);
		} else {
			x->a = rnd() % NM;
			x->space = (uint8_t)(rnd() % 3);
			uint64_t base = 0x1000 + (uint64_t)i * tstride[x->a], st = 4 << (rnd() % 3);
			for (int l = 0; l < 32; l++) {
				x->addr[l] = base + (uint64_t)l * st;
				if (rnd() % 16 == 0)
					x->addr[l] = rnd(); /* scattered */
			}
			/* inactive lanes hold garbage, as the emulator's may */
			for (int l = 0; l < 32; l++)
				if (!(x->lanes >> l & 1))
					x->addr[l] = 0xdead0000u + rnd();
			assert_int_equal(weft_trace_wlog_access(g, x->a, x->space, x->lanes, x->addr), 0);
		}
	}
}

static void check_warp(const struct wt_wlog *g, const struct ev *e, int n)
{
	/* agreement masks */
	uint32_t agree = 0xffffffffu, bagree = 0xffffffffu, gagree = 0xffffffffu;
	for (int i = 0; i < n; i++) {
		for (uint32_t l = 1; l < 32; l++) {
			int in = e[i].lanes >> l & 1, prev = e[i].lanes >> (l - 1) & 1;
			if (e[i].kind == EV_ACCESS && in != prev)
				agree &= ~(1u << l);
			if (e[i].kind == EV_BLOCK && in != prev)
				bagree &= ~(1u << l);
			if (e[i].kind == EV_GUARD && (in != prev || (e[i].a >> l & 1) != (e[i].a >> (l - 1) & 1)))
				gagree &= ~(1u << l);
		}
	}
	assert_int_equal(g->agree & ~1u, agree & ~1u);
	assert_int_equal(g->bagree & ~1u, bagree & ~1u);
	assert_int_equal(g->gagree & ~1u, gagree & ~1u);

	struct wt_seq s = { 0 };
	for (uint32_t l = 0; l < 32; l++) {
		/* blocks */
		assert_int_equal(weft_trace_wlog_blocks(g, l, &s), 0);
		size_t k = 0;
		for (int i = 0; i < n; i++)
			if (e[i].kind == EV_BLOCK && (e[i].lanes >> l & 1)) {
				assert_true(k < s.nb);
				assert_int_equal(s.blocks[k], e[i].a);
				k++;
			}
		assert_int_equal(s.nb, k);
		/* accesses */
		assert_int_equal(weft_trace_wlog_accesses(g, l, &s), 0);
		k = 0;
		for (int i = 0; i < n; i++)
			if (e[i].kind == EV_ACCESS && (e[i].lanes >> l & 1)) {
				assert_true(k < s.na);
				assert_true(s.aa[k] == e[i].addr[l]);
				assert_int_equal(s.am[k], e[i].a);
				assert_int_equal(s.asp[k], e[i].space);
				k++;
			}
		assert_int_equal(s.na, k);
	}
	weft_trace_seq_free(&s);

	/* first and changed-step lanes, event by event (the log's events are
	 * the access events in order) */
	size_t j = 0;
	for (int i = 0; i < n; i++) {
		if (e[i].kind != EV_ACCESS)
			continue;
		assert_true(j < g->naev);
		const struct wt_aev *E = &g->aev[j++];
		assert_int_equal(E->m, e[i].a);
		assert_int_equal(E->active, e[i].lanes);
		for (uint32_t l = 0; l < 32; l++) {
			if (!(e[i].lanes >> l & 1))
				continue;
			assert_true(g->addr[32 * (j - 1) + l] == e[i].addr[l]);
			int p = -1; /* this lane's previous access by the same m */
			for (int q = i - 1; q >= 0 && p < 0; q--)
				if (e[q].kind == EV_ACCESS && e[q].a == e[i].a && (e[q].lanes >> l & 1))
					p = q;
			assert_int_equal(E->first >> l & 1, p < 0);
			if (p < 0 || l == 0 || !(agree >> l & 1))
				continue; /* nz is defined where the lane lines up with lane l-1 */
			uint64_t step = e[i].addr[l] - e[i].addr[l - 1];
			uint64_t pstep = e[p].addr[l] - e[p].addr[l - 1];
			assert_int_equal(E->nz >> l & 1, step != pstep);
		}
	}
	assert_int_equal(j, g->naev);
}

static void warps(void **state)
{
	(void)state;
	static struct ev e[MAXEV];
	struct wt_wlog g;
	memset(&g, 0, sizeof(g));
	assert_int_equal(weft_trace_wlog_prepare(&g, NM), 0);
	for (int trial = 0; trial < 300; trial++) {
		wt_wlog_reset(&g); /* a new CTA: state from the last must not leak */
		int n = 1 + (int)(rnd() % MAXEV);
		make_warp(&g, e, n);
		check_warp(&g, e, n);
	}
	weft_trace_wlog_free(&g);
}

/* Lanes that all move by one distance (a loop over a row) have no changed
 * step after their first access; a lane that moves differently is marked
 * at that access only. */
static void uniform_then_one_lane(void **state)
{
	(void)state;
	struct wt_wlog g;
	memset(&g, 0, sizeof(g));
	assert_int_equal(weft_trace_wlog_prepare(&g, 1), 0);
	uint64_t a[32];
	for (int it = 0; it < 4; it++) {
		for (int l = 0; l < 32; l++)
			a[l] = 0x100000 + 64u * (uint64_t)it + 4u * (uint64_t)l;
		if (it == 2)
			a[7] += 8;
		assert_int_equal(weft_trace_wlog_access(&g, 0, 1, 0xffffffffu, a), 0);
	}
	assert_int_equal(g.aev[0].first, 0xffffffffu);
	assert_int_equal(g.aev[1].first | g.aev[1].nz, 0);
	/* lane 7 moved by 8 more: its step from lane 6 and lane 8's from it */
	assert_int_equal(g.aev[2].nz, 1u << 7 | 1u << 8);
	assert_int_equal(g.aev[3].nz, 1u << 7 | 1u << 8);
	weft_trace_wlog_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warps),
		cmocka_unit_test(uniform_then_one_lane),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
