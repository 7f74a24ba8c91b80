/*
 * test_trace_wlog.c - the trace writer's per-warp record of a CTA
 * (trace/format/trace_wlog.c): seeded random warps (full, partial and
 * single-lane events; strided, uniform and scattered addresses) are logged,
 * and every lane read back, every agreement mask and every event's
 * first-access and changed-step lanes are checked against a plain per-lane
 * computation of the same events. The writer's fast path trusts these
 * marks to skip reading addresses, so a wrong bit would change a trace.
 * Lanes are read out both by scanning the log and from the lists of
 * weft_trace_wlog_lanes. The events weft_trace_wlog_marks leaves out are checked against a run
 * of the predictor's fast path itself (D per memory instruction, reset
 * to the tid stride at each lane): no lane it holds for may have a
 * nonzero residual or a mispredicted space at an event left out.
 * Also the reset between CTAs of warps with few events, and the
 * copying of a lane's stream bytes to the agreeing lanes after it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/format/trace_format.h"
#include "trace/format/trace_wlog.h"

#define NM 5
#define NM_MAX 64
/* memory instructions of the program make_warp draws from */
static uint32_t nm_cur = NM;
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
	static uint64_t tstride[NM_MAX];
	for (uint32_t m = 0; m < nm_cur; m++)
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
			x->a = rnd() % nm_cur;
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

static void check_warp(struct wt_wlog *g, const struct ev *e, int n)
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
	/* read out by scanning the log, then from the lanes' lists */
	for (int listed = 0; listed < 2; listed++) {
		for (uint32_t l = 0; l < 32; l++) {
			if (listed && l == 0) {
				assert_int_equal(weft_trace_wlog_lanes(g), 0);
				assert_true(g->lanes_ready);
			}
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

/* Warps with fewer access events than the program has memory
 * instructions, one after another in the same log: the reset between
 * CTAs clears only what those events wrote, and nothing of a CTA may
 * reach the next (first accesses and changed steps are checked as in
 * warps; fails when the reset leaves the per-instruction state). */
static void few_events(void **state)
{
	(void)state;
	static struct ev e[16];
	struct wt_wlog g;
	memset(&g, 0, sizeof(g));
	nm_cur = NM_MAX;
	assert_int_equal(weft_trace_wlog_prepare(&g, NM_MAX), 0);
	for (int trial = 0; trial < 2000; trial++) {
		wt_wlog_reset(&g);
		int n = 1 + (int)(rnd() % 16);
		make_warp(&g, e, n);
		check_warp(&g, e, n);
	}
	/* a new program with fewer memory instructions, after events that
	 * named higher ones */
	assert_int_equal(weft_trace_wlog_prepare(&g, 3), 0);
	nm_cur = 3;
	for (int trial = 0; trial < 50; trial++) {
		wt_wlog_reset(&g);
		int n = 1 + (int)(rnd() % 16);
		make_warp(&g, e, n);
		check_warp(&g, e, n);
	}
	nm_cur = NM;
	weft_trace_wlog_free(&g);
}

/* weft_trace_buf_repeat, which copies a thread's path and guard bytes to
 * the run of lanes after it that agree with it: the bytes after start
 * appear times more times, whatever the piece's length and the count
 * (doubling copies must not shift or overlap). */
static void buf_repeat(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 9; len++) {
		for (size_t times = 0; times <= 33; times++) {
			struct wt_buf b = { 0 };
			weft_trace_buf_bytes(&b, "xyz", 3); /* before start: kept */
			size_t start = b.n;
			for (size_t i = 0; i < len; i++)
				wt_buf_u8(&b, (uint8_t)(0x40 + i));
			assert_int_equal(weft_trace_buf_repeat(&b, start, times), 0);
			assert_int_equal(b.n, 3 + len * (times + 1));
			assert_memory_equal(b.p, "xyz", 3);
			for (size_t k = 0; k <= times; k++)
				for (size_t i = 0; i < len; i++)
					assert_int_equal(b.p[start + k * len + i], 0x40 + i);
			weft_trace_buf_free(&b);
		}
	}
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

/* One warp whose access events all have the lanes act (so act's lanes
 * line up), with uniform, perturbed and scattered steps and static or
 * generic spaces. */
static void make_marks_warp(struct wt_wlog *g, struct ev *e, int n, uint32_t act, const uint8_t *mspace)
{
	for (int i = 0; i < n; i++) {
		struct ev *x = &e[i];
		memset(x, 0, sizeof(*x));
		x->kind = EV_ACCESS;
		x->lanes = act;
		x->a = rnd() % NM;
		x->space = mspace[x->a] && rnd() % 16 ? mspace[x->a] : (uint8_t)(1 + rnd() % 3);
		if (!mspace[x->a] && rnd() % 8)
			x->space = 1;
		uint64_t base = 0x1000 + 64u * (uint64_t)(rnd() % 4), st = rnd() % 8 ? 4 : 8;
		int kind = (int)(rnd() % 16); /* mostly uniform */
		for (int l = 0; l < 32; l++) {
			x->addr[l] = base + (uint64_t)l * st;
			if (kind == 1 && rnd() % 8 == 0)
				x->addr[l] += 4; /* one lane off the stride */
			if (kind == 2 && rnd() % 2 == 0)
				x->addr[l] = rnd() % 64; /* scattered */
			if (!(act >> l & 1))
				x->addr[l] = 0xdead0000u + rnd();
		}
		assert_int_equal(weft_trace_wlog_access(g, x->a, x->space, x->lanes, x->addr), 0);
	}
}

static void marks(void **state)
{
	(void)state;
	static struct ev e[MAXEV];
	struct wt_wlog g;
	memset(&g, 0, sizeof(g));
	assert_int_equal(weft_trace_wlog_prepare(&g, NM), 0);
	uint32_t u[MAXEV];
	uint8_t sp[NM];
	int checked = 0, left_out = 0;
	for (int trial = 0; trial < 400; trial++) {
		wt_wlog_reset(&g);
		uint8_t mspace[NM];
		for (int m = 0; m < NM; m++)
			mspace[m] = rnd() % 2 ? 0 : (uint8_t)(1 + rnd() % 3);
		uint32_t act = 0xffffffffu;
		if (rnd() % 3 == 0) { /* lanes lo..hi */
			uint32_t lo = rnd() % 32, hi = lo + rnd() % (32 - lo);
			act = (uint32_t)(((2ull << hi) - 1) & ~((1ull << lo) - 1));
		}
		int n = 1 + (int)(rnd() % 60);
		make_marks_warp(&g, e, n, act, mspace);
		size_t nu = weft_trace_wlog_marks(&g, mspace, sp, u);
		assert_true(nu <= (size_t)n);
		int marked[MAXEV] = { 0 };
		for (size_t k = 0; k < nu; k++) {
			assert_true(u[k] < (uint32_t)n);
			assert_true(k == 0 || u[k] > u[k - 1]);
			marked[u[k]] = 1;
		}
		uint32_t lanes = wt_wlog_marks_lanes(&g);
		assert_int_equal(lanes, act & (act << 1) & (act << 2) & ~3u);
		/* the fast path, lane by lane: a lane whose lane before is not
		 * active takes the general path, which leaves D[m] = d0[m] some
		 * tid stride (random here) and m's space the last one it had */
		uint64_t D[NM], d0[NM];
		uint8_t lastsp[NM];
		for (uint32_t l = 0; l < 32; l++) {
			if (!(act >> l & 1))
				continue;
			if (l == 0 || !(act >> (l - 1) & 1)) {
				for (int m = 0; m < NM; m++) {
					d0[m] = D[m] = rnd();
					lastsp[m] = (uint8_t)rnd();
				}
				for (int i = 0; i < n; i++)
					lastsp[e[i].a] = e[i].space;
				continue;
			}
			for (int m = 0; m < NM; m++)
				D[m] = d0[m]; /* weft_trace_fast_begin */
			int seen[NM] = { 0 };
			for (int i = 0; i < n; i++) {
				uint32_t m = e[i].a;
				uint64_t step = e[i].addr[l] - e[i].addr[l - 1];
				int wrong = 0;
				if (step != D[m]) {
					D[m] = step;
					if (!seen[m])
						d0[m] = step;
					wrong = 1;
				}
				seen[m] = 1;
				uint8_t ps = mspace[m] ? mspace[m] : lastsp[m];
				if (e[i].space != ps) {
					lastsp[m] = e[i].space;
					wrong = 1;
				}
				if (lanes >> l & 1) {
					checked++;
					left_out += !marked[i];
					if (wrong && !marked[i])
						fail_msg("trial %d lane %u event %d: wrong prediction left out", trial, l, i);
				}
			}
		}
	}
	/* the marks leave most accesses out (else the test shows nothing) */
	print_message("marks: %d of %d accesses left out\n", left_out, checked);
	assert_true(left_out > checked / 4);
	weft_trace_wlog_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warps),
		cmocka_unit_test(few_events),
		cmocka_unit_test(buf_repeat),
		cmocka_unit_test(uniform_then_one_lane),
		cmocka_unit_test(marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
