/*
 * test_warm.c - functional warming of sampled replays (Wunderlich et al.,
 * "SMARTS", ISCA 2003; model.h warm_cta): a warmed cache holds what the
 * same accesses replayed would leave, with nothing counted; the trace
 * reader hands every CTA, in order, to the replay or to the warming by
 * sample membership (with a preparation too, each CTA with its own
 * prepared result); and in the fabric and vt models a CTA replayed after
 * a warmed one sees the hits and misses it sees after the same CTA
 * replayed, where after nothing it sees others.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "models/cache.h"
#include "models/dataflow/fabric.h"
#include "models/model.h"
#include "models/vt/vt.h"
#include "trace/format/trace.h"
#include "trace_file_testutil.h"

static void check(int rc, const struct weft_error *err, const char *what)
{
	if (rc) {
		fprintf(stderr, "%s failed: %s\n", what, err->message);
		fail();
	}
}

/* ---- the cache ---- */

static void same_contents(const struct weft_cache *a, const struct weft_cache *b)
{
	size_t lines = (size_t)a->nsets * a->g.assoc;
	assert_memory_equal(a->tag, b->tag, lines * sizeof(uint64_t));
	assert_memory_equal(a->used, b->used, lines * sizeof(uint64_t));
	assert_memory_equal(a->dirty, b->dirty, lines);
	assert_true(a->clock == b->clock);
}

static void test_cache_warm(void **st)
{
	(void)st;
	/* 4 sets x 2 ways x 64 B, write-back, 2 banks: a stream that hits,
	 * misses, evicts dirty lines */
	struct weft_cache_geom g = { 512, 64, 2, 2, WEFT_CACHE_WRITE_BACK, 0 };
	struct weft_cache full, warm;
	struct weft_error err;
	check(weft_cache_init(&full, &g, &err), &err, "init");
	check(weft_cache_init(&warm, &g, &err), &err, "init");
	static const uint64_t first[][2] = { { 0, 1 }, { 256, 0 }, { 64, 1 }, { 512, 0 }, { 0, 0 },
					      { 768, 1 }, { 320, 0 }, { 64, 0 } };
	static const uint64_t then[][2] = { { 256, 0 }, { 0, 1 }, { 1024, 0 }, { 64, 0 }, { 512, 1 },
					     { 768, 0 }, { 320, 1 } };
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		uint64_t va = 0, vb = 0;
		unsigned ra = weft_cache_access(&full, first[i][0], (int)first[i][1], &va);
		unsigned rb = weft_cache_warm(&warm, first[i][0], (int)first[i][1], &vb);
		assert_int_equal(ra, rb); /* the same outcome, victims included */
		if (ra & WEFT_CACHE_WRITEBACK)
			assert_true(va == vb);
	}
	/* nothing counted by the warming */
	struct weft_cache_stats zero;
	memset(&zero, 0, sizeof(zero));
	assert_memory_equal(&warm.st, &zero, sizeof(zero));
	assert_true(weft_cache_max_bank_accesses(&warm) == 0);
	assert_true(full.st.reads + full.st.writes == 8);
	same_contents(&full, &warm);
	/* the next accesses: hit for hit, miss for miss */
	struct weft_cache_stats before = full.st;
	int hits = 0;
	for (size_t i = 0; i < sizeof(then) / sizeof(then[0]); i++) {
		unsigned ra = weft_cache_access(&full, then[i][0], (int)then[i][1], NULL);
		unsigned rb = weft_cache_access(&warm, then[i][0], (int)then[i][1], NULL);
		assert_int_equal(ra, rb);
		hits += (ra & WEFT_CACHE_HIT) != 0;
	}
	assert_true(hits > 0 && hits < 7); /* the stream does both */
	assert_true(warm.st.read_hits + warm.st.write_hits == full.st.read_hits + full.st.write_hits -
								    before.read_hits - before.write_hits);
	assert_true(warm.st.fills == full.st.fills - before.fills);
	same_contents(&full, &warm);
	/* a cold cache sees the same stream differently */
	struct weft_cache cold;
	check(weft_cache_init(&cold, &g, &err), &err, "init");
	int cold_hits = 0;
	for (size_t i = 0; i < sizeof(then) / sizeof(then[0]); i++)
		cold_hits += (weft_cache_access(&cold, then[i][0], (int)then[i][1], NULL) & WEFT_CACHE_HIT) != 0;
	assert_true(cold_hits < hits);
	weft_cache_free(&full);
	weft_cache_free(&warm);
	weft_cache_free(&cold);
}

/* ---- the reader: every CTA once, in order, split by membership ---- */

struct seen {
	uint32_t n, cta[4096];
	uint8_t timed[4096];
};

/* every CTA of the launch once, in order, timed exactly when sampled */
static void assert_every_cta_once(const struct seen *seen, uint32_t nctas, const uint32_t *sel,
				  uint32_t nsel)
{
	assert_int_equal(seen->n, nctas);
	uint32_t k = 0;
	for (uint32_t i = 0; i < nctas; i++) {
		assert_int_equal(seen->cta[i], i);
		int in = k < nsel && sel[k] == i;
		assert_int_equal(seen->timed[i], in);
		k += in;
	}
}

/* the sample's CTAs alone, in order, all timed (no warming) */
static void assert_sample_alone(const struct seen *seen, const uint32_t *sel, uint32_t nsel)
{
	assert_int_equal(seen->n, nsel);
	for (uint32_t i = 0; i < nsel; i++) {
		assert_int_equal(seen->cta[i], sel[i]);
		assert_int_equal(seen->timed[i], 1);
	}
}

/* windowed warming (warm_window W): the sampled CTAs timed, the W before
 * each and the one after each warmed, nothing else, in CTA order; built
 * independently of the reader from the selection */
static void assert_windowed(const struct seen *seen, uint32_t nctas, const uint32_t *sel, uint32_t nsel,
			    uint32_t W, uint32_t F)
{
	static uint8_t want[4096]; /* 0 none, 1 timed, 2 warmed */
	memset(want, 0, sizeof(want));
	/* the fill (trace.h warm_fill): the F CTAs before the first window,
	 * or the launch's first F when fewer come before it */
	uint32_t e = sel[0] > W ? sel[0] - W : 0;
	for (uint32_t c = e > F ? e - F : 0; c < (e > F ? e : F) && c < nctas; c++)
		want[c] = 2;
	for (uint32_t i = 0; i < nsel; i++) {
		for (uint32_t d = 1; d <= W && d <= sel[i]; d++)
			want[sel[i] - d] = 2;
		if (sel[i] + 1 < nctas)
			want[sel[i] + 1] = 2;
	}
	for (uint32_t i = 0; i < nsel; i++)
		want[sel[i]] = 1;
	uint32_t k = 0;
	for (uint32_t c = 0; c < nctas; c++) {
		if (!want[c])
			continue;
		assert_true(k < seen->n);
		assert_int_equal(seen->cta[k], c);
		assert_int_equal(seen->timed[k], want[c] == 1);
		k++;
	}
	assert_int_equal(seen->n, k);
	assert_true(k < nctas); /* the windows leave CTAs out (5 sampled of >= 8) */
}

static int on_timed(void *u, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct seen *s = u;
	s->cta[s->n] = c->cta;
	s->timed[s->n++] = 1;
	return 0;
}

static int on_warm(void *u, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct seen *s = u;
	s->cta[s->n] = c->cta;
	s->timed[s->n++] = 0;
	return 0;
}

static void test_reader_warm(void **st)
{
	(void)st;
	char path[64];
	assert_int_equal(testutil_trace_small("nn", path, sizeof(path)), 0);
	struct weft_trace *t = NULL;
	struct weft_error err;
	check(weft_trace_open(path, &t, &err), &err, "open");
	uint32_t nctas = weft_trace_launch(t, 0)->nctas;
	assert_true(nctas >= 8 && nctas <= 4096);
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 5, .seed = 3, .warm = 1 };
	uint32_t sel[4096];
	uint32_t nsel = weft_cta_sample_select(&s, nctas, sel);
	assert_int_equal(nsel, 5);
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		static struct seen seen;
		memset(&seen, 0, sizeof(seen));
		check(weft_trace_for_each_cta_warm(t, 0, &s, threads, on_timed, on_warm, &seen, &err), &err,
		      "for_each_warm");
		assert_every_cta_once(&seen, nctas, sel, nsel);
		/* without warm: the sample's CTAs only, as weft_trace_for_each_cta */
		struct weft_cta_sample cold = s;
		cold.warm = 0;
		memset(&seen, 0, sizeof(seen));
		check(weft_trace_for_each_cta_warm(t, 0, &cold, threads, on_timed, on_warm, &seen, &err), &err,
		      "for_each_warm cold");
		assert_sample_alone(&seen, sel, nsel);
		/* windowed: the W CTAs before each sampled one and the one
		 * after; with a fill of F, the F before the first window (F =
		 * 2, with a seed whose first sampled CTA is past CTA 4) or the
		 * launch's first F (F = its first sampled CTA + 3: the fill
		 * runs past the first window) */
		struct weft_cta_sample fs = s;
		uint32_t fsel[4096], fn = 0;
		for (fs.seed = 3; fs.seed < 100; fs.seed++) {
			fn = weft_cta_sample_select(&fs, nctas, fsel);
			if (fsel[0] > 4)
				break;
		}
		assert_true(fn == 5 && fsel[0] > 4);
		uint32_t fills[] = { 0, 2, fsel[0] + 3 };
		for (uint32_t W = 1; W <= 2; W++)
			for (int f = 0; f < 3; f++) {
				struct weft_cta_sample win = fs;
				win.warm_window = W;
				win.warm_fill = fills[f];
				memset(&seen, 0, sizeof(seen));
				check(weft_trace_for_each_cta_warm(t, 0, &win, threads, on_timed, on_warm, &seen,
								   &err),
				      &err, "for_each_warm windowed");
				assert_windowed(&seen, nctas, fsel, fn, W, fills[f]);
			}
	}
	weft_trace_close(t);
	unlink(path);
}

/* the same with a preparation: every CTA prepared where it is decoded
 * (warmed ones too), and its own prepared result handed with it */
struct prepared {
	uint32_t cta, threads;
};

static int prep_note(void *u, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	(void)u;
	(void)err;
	struct prepared *p = out;
	p->cta = c->cta;
	p->threads = c->nthreads;
	return 0;
}

static int use_checked(void *u, const struct weft_cta_trace *c, void *prepared, int timed)
{
	struct seen *s = u;
	const struct prepared *p = prepared;
	if (p->cta != c->cta || p->threads != c->nthreads)
		return 1; /* another CTA's preparation */
	s->cta[s->n] = c->cta;
	s->timed[s->n++] = (uint8_t)timed;
	return 0;
}

static int on_timed_prep(void *u, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	return use_checked(u, c, prepared, 1);
}

static int on_warm_prep(void *u, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	return use_checked(u, c, prepared, 0);
}

static void test_reader_prep_warm(void **st)
{
	(void)st;
	char path[64];
	assert_int_equal(testutil_trace_small("nn", path, sizeof(path)), 0);
	struct weft_trace *t = NULL;
	struct weft_error err;
	check(weft_trace_open(path, &t, &err), &err, "open");
	uint32_t nctas = weft_trace_launch(t, 0)->nctas;
	assert_true(nctas >= 8 && nctas <= 4096);
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 5, .seed = 3, .warm = 1 };
	uint32_t sel[4096];
	uint32_t nsel = weft_cta_sample_select(&s, nctas, sel);
	assert_int_equal(nsel, 5);
	const struct weft_cta_prep prep = { sizeof(struct prepared), prep_note, NULL, NULL, 0 };
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		static struct seen seen;
		memset(&seen, 0, sizeof(seen));
		check(weft_trace_for_each_cta_prep_warm(t, 0, &s, threads, &prep, on_timed_prep, on_warm_prep,
							&seen, &err),
		      &err, "for_each_prep_warm");
		assert_every_cta_once(&seen, nctas, sel, nsel);
		/* without warm: weft_trace_for_each_cta_prep, the sample alone */
		struct weft_cta_sample cold = s;
		cold.warm = 0;
		memset(&seen, 0, sizeof(seen));
		check(weft_trace_for_each_cta_prep_warm(t, 0, &cold, threads, &prep, on_timed_prep,
							on_warm_prep, &seen, &err),
		      &err, "for_each_prep_warm cold");
		assert_sample_alone(&seen, sel, nsel);
		struct weft_cta_sample win = s;
		win.warm_window = 2;
		win.warm_fill = 3;
		memset(&seen, 0, sizeof(seen));
		check(weft_trace_for_each_cta_prep_warm(t, 0, &win, threads, &prep, on_timed_prep,
							on_warm_prep, &seen, &err),
		      &err, "for_each_prep_warm windowed");
		assert_windowed(&seen, nctas, sel, nsel, 2, 3);
	}
	weft_trace_close(t);
	unlink(path);
}

/* the grid-neighbour window: the distance back to a CTA's earliest grid
 * neighbour (x fastest), capped at the launch */
static void test_window_rule(void **st)
{
	(void)st;
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 4, .seed = 1, .warm = 1,
				     .warm_window = WEFT_WARM_WINDOW_GRID };
	struct weft_dim3 line = { 1563, 1, 1 }, plane = { 12, 12, 1 }, cube = { 4, 5, 6 };
	assert_int_equal(weft_cta_sample_window(&s, line, 1563), 1);   /* left neighbour */
	assert_int_equal(weft_cta_sample_window(&s, plane, 144), 13);  /* up-left: 12 + 1 back */
	assert_int_equal(weft_cta_sample_window(&s, cube, 120), 25);   /* 4 x 5 + 4 + 1 */
	struct weft_dim3 tall = { 100000, 100000, 2 };
	assert_int_equal(weft_cta_sample_window(&s, tall, 5000), 5000); /* capped, no overflow */
	s.warm_window = 7;
	assert_int_equal(weft_cta_sample_window(&s, plane, 144), 7);
	s.warm_window = 0;
	assert_int_equal(weft_cta_sample_window(&s, plane, 144), 0); /* every CTA */
	/* the report says which */
	char buf[160];
	s.warm_window = WEFT_WARM_WINDOW_GRID;
	weft_cta_sample_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "random 4 CTAs (seed 1) with warming (grid-neighbour window)");
	s.warm_window = 7;
	weft_cta_sample_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "random 4 CTAs (seed 1) with warming (window 7 CTAs)");
}

/* ---- the models: CTA 1 after CTA 0 warmed = after CTA 0 replayed ---- */

struct two {
	struct weft_trace *t;
	struct weft_cta_trace c0, c1;
	char path[64];
};

static void two_open(struct two *w, const char *workload)
{
	struct weft_error err;
	assert_int_equal(testutil_trace_small(workload, w->path, sizeof(w->path)), 0);
	check(weft_trace_open(w->path, &w->t, &err), &err, "open");
	assert_true(weft_trace_launch(w->t, 0)->nctas >= 2);
	weft_cta_trace_init(&w->c0);
	weft_cta_trace_init(&w->c1);
	check(weft_trace_read_cta(w->t, 0, 0, &w->c0, &err), &err, "read CTA 0");
	check(weft_trace_read_cta(w->t, 0, 1, &w->c1, &err), &err, "read CTA 1");
}

static void two_close(struct two *w)
{
	weft_cta_trace_free(&w->c0);
	weft_cta_trace_free(&w->c1);
	weft_trace_close(w->t);
	unlink(w->path);
}

static void test_fabric_warm(void **st)
{
	(void)st;
	struct two w;
	two_open(&w, "hotspot");
	struct weft_error err;
	struct weft_config cfg;
	/* no replay cache: each state replays for itself */
	const char *set[] = { "fabric.replay_cache=0" };
	check(weft_config_load("configs/sgmf-core.ini", set, 1, &cfg, &err), &err, "config");
	const struct weft_model *m = weft_model_find("sgmf");
	assert_non_null(m);
	assert_non_null(m->warm_cta);
	void *sa = NULL, *sb = NULL, *sc = NULL;
	check(m->init(&cfg, &sa, &err), &err, "init");
	check(m->init(&cfg, &sb, &err), &err, "init");
	check(m->init(&cfg, &sc, &err), &err, "init");
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	assert_int_equal(m->begin_launch(sa, w.t, 0, &all, &err), 0);
	assert_int_equal(m->begin_launch(sb, w.t, 0, &all, &err), 0);
	assert_int_equal(m->begin_launch(sc, w.t, 0, &all, &err), 0);
	struct fabric_state *a = sa, *b = sb, *c = sc;
	/* a: CTA 0 and CTA 1 replayed; b: CTA 0 warmed, CTA 1 replayed; c:
	 * CTA 1 replayed alone */
	check(m->consume_cta(sa, &w.c0, &err), &err, "replay 0");
	struct fabric_launch_acc a0 = a->la;
	check(m->warm_cta(sb, &w.c0, &err), &err, "warm 0");
	assert_true(b->la.l1_reads == 0 && b->la.l2 == 0 && b->la.threads == 0);
	assert_true(b->cores[0].l1.st.reads == 0 && b->l2.st.reads + b->l2.st.writes == 0);
	assert_int_equal(b->cta_seq, 0);
	assert_int_equal(b->warmed, 1);
	same_contents(&a->cores[0].l1, &b->cores[0].l1);
	same_contents(&a->l2, &b->l2);
	check(m->consume_cta(sa, &w.c1, &err), &err, "replay 1 after 0");
	check(m->consume_cta(sb, &w.c1, &err), &err, "replay 1 after warm 0");
	check(m->consume_cta(sc, &w.c1, &err), &err, "replay 1 cold");
	/* CTA 1 in b: exactly its share of a */
	assert_true(b->la.l1_reads == a->la.l1_reads - a0.l1_reads);
	assert_true(b->la.l1_read_hits == a->la.l1_read_hits - a0.l1_read_hits);
	assert_true(b->la.l2_hits == a->la.l2_hits - a0.l2_hits);
	assert_true(b->la.dram_bytes == a->la.dram_bytes - a0.dram_bytes);
	assert_true(b->cores[0].miss_cycles < c->cores[0].miss_cycles); /* warming mattered */
	assert_true(b->la.l1_read_hits > c->la.l1_read_hits);
	same_contents(&a->cores[0].l1, &b->cores[0].l1);
	same_contents(&a->l2, &b->l2);
	m->free(sa);
	m->free(sb);
	m->free(sc);
	weft_config_free(&cfg);
	two_close(&w);
}

/* the fill of a windowed sample (fabric_warm.c): the CTAs before the
 * first window are warmed until every cache has turned over, then
 * skipped; a window's CTA never is */
static void test_fabric_fill(void **st)
{
	(void)st;
	char path[64];
	assert_int_equal(testutil_trace_small("nn", path, sizeof(path)), 0);
	struct weft_trace *t = NULL;
	struct weft_error err;
	check(weft_trace_open(path, &t, &err), &err, "open");
	uint32_t nctas = weft_trace_launch(t, 0)->nctas;
	/* small caches, two cores: a few CTAs turn them over */
	const char *set[] = { "fabric.replay_cache=0", "fabric.cores=2", "mem.l1_bytes=1024",
			      "mem.l2_bytes=4096" };
	struct weft_config cfg;
	check(weft_config_load("configs/sgmf-15core.ini", set, 4, &cfg, &err), &err, "config");
	const struct weft_model *m = weft_model_find("sgmf");
	assert_non_null(m->warm_fill);
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 3, .warm = 1, .warm_window = 1 };
	uint32_t sel[4096], n = 0;
	for (s.seed = 1; s.seed < 1000; s.seed++) {
		n = weft_cta_sample_select(&s, nctas, sel);
		if (sel[0] > nctas / 2)
			break;
	}
	assert_true(n == 3 && sel[0] > nctas / 2);
	void *sa = NULL;
	check(m->init(&cfg, &sa, &err), &err, "init");
	struct fabric_state *a = sa;
	assert_int_equal(m->begin_launch(sa, t, 0, &s, &err), 0);
	uint32_t F = m->warm_fill(sa);
	assert_true(F > 0);
	assert_int_equal(a->fill_end, sel[0] - 1);
	assert_true(a->fill_start == (a->fill_end > F ? a->fill_end - F : 0));
	assert_true(a->fill_start < a->fill_end);
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	uint32_t k = a->fill_start, done = 0;
	for (; k < a->fill_end && !a->filled; k++) {
		check(weft_trace_read_cta(t, 0, k, &c, &err), &err, "read");
		check(m->warm_cta(sa, &c, &err), &err, "warm fill");
		assert_int_equal(a->warmed, ++done);
	}
	assert_true(a->filled); /* turned over within the fill */
	assert_true(weft_cache_turned_over(&a->l2));
	for (uint32_t i = 0; i < 2; i++)
		assert_true(weft_cache_turned_over(&a->cores[i].l1));
	assert_true(k + 1 < a->fill_end); /* so the test below has a CTA to skip */
	uint64_t clock = a->l2.clock;
	check(weft_trace_read_cta(t, 0, k, &c, &err), &err, "read");
	check(m->warm_cta(sa, &c, &err), &err, "skip");
	assert_int_equal(a->warmed, done); /* skipped: nothing warmed */
	assert_true(a->l2.clock == clock);
	/* the window's CTA (just before the sampled one) is warmed */
	check(weft_trace_read_cta(t, 0, sel[0] - 1, &c, &err), &err, "read");
	check(m->warm_cta(sa, &c, &err), &err, "window");
	assert_int_equal(a->warmed, done + 1);
	weft_cta_trace_free(&c);
	m->free(sa);
	weft_config_free(&cfg);
	weft_trace_close(t);
	unlink(path);
}

static void test_vt_warm(void **st)
{
	(void)st;
	struct two w;
	two_open(&w, "nn");
	struct weft_error err;
	struct weft_config cfg;
	check(weft_config_load("configs/maven/vt-c4v1r32.ini", NULL, 0, &cfg, &err), &err, "config");
	const struct weft_model *m = weft_model_find("vt");
	assert_non_null(m);
	assert_non_null(m->warm_cta);
	void *sa = NULL, *sb = NULL;
	check(m->init(&cfg, &sa, &err), &err, "init");
	check(m->init(&cfg, &sb, &err), &err, "init");
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	assert_int_equal(m->begin_launch(sa, w.t, 0, &all, &err), 0);
	assert_int_equal(m->begin_launch(sb, w.t, 0, &all, &err), 0);
	struct vt_state *a = sa, *b = sb;
	check(m->consume_cta(sa, &w.c0, &err), &err, "replay 0");
	struct vt_launch a0 = a->ls;
	check(m->warm_cta(sb, &w.c0, &err), &err, "warm 0");
	/* nothing counted, the data cache as after the replay; nn's CTAs have
	 * 256 threads and this tile's strips 3 uTs, so both carry CTA 0's
	 * last uT into CTA 1, b's as a strip of a warmed CTA */
	assert_int_equal(a->hvl, 3);
	assert_true(b->ls.ctas == 0 && b->ls.strips == 0 && b->ls.thread_insts == 0);
	assert_true(b->ls.dcache_accesses == 0 && b->ls.strip_seq == 0);
	assert_true(b->dc.st.reads + b->dc.st.writes == 0);
	assert_int_equal(a->strip_n, 1);
	assert_int_equal(b->strip_n, 1);
	assert_int_equal(b->strip_warm, 1);
	same_contents(&a->dc, &b->dc);
	check(m->consume_cta(sa, &w.c1, &err), &err, "replay 1 after 0");
	check(m->consume_cta(sb, &w.c1, &err), &err, "replay 1 after warm 0");
	/* b times the strips CTA 1 starts; a also the one CTA 0 started */
	assert_true(b->ls.strips == a->ls.strips - a0.strips - 1);
	assert_true(b->ls.cross_cta_strips == 0 && a->ls.cross_cta_strips == 1);
	assert_true(b->ls.dcache_accesses < a->ls.dcache_accesses - a0.dcache_accesses);
	assert_int_equal(b->strip_n, a->strip_n);
	assert_int_equal(b->strip_warm, 0);
	same_contents(&a->dc, &b->dc);
	m->free(sa);
	m->free(sb);
	weft_config_free(&cfg);
	two_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_warm),
		cmocka_unit_test(test_reader_warm),
		cmocka_unit_test(test_reader_prep_warm),
		cmocka_unit_test(test_window_rule),
		cmocka_unit_test(test_fabric_warm),
		cmocka_unit_test(test_fabric_fill),
		cmocka_unit_test(test_vt_warm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
