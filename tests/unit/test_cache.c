/*
 * test_cache.c - the shared set-associative cache (models/cache.h) on
 * hand-computed access streams: LRU eviction order, write-back versus
 * write-through traffic, streams that fit and that thrash, geometry
 * checks, non-power-of-two set counts, banks, flush and clean, and when a
 * cache has turned over (full, then as many lines replaced).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "models/cache.h"

/* 4 sets x 2 ways x 128 B: lines 0, 512, 1024, ... share set 0. */
static void small_cache(struct weft_cache *c, enum weft_cache_write w, int write_fetch)
{
	struct weft_cache_geom g = { 1024, 128, 2, 1, w, write_fetch };
	struct weft_error err;
	assert_int_equal(weft_cache_init(c, &g, &err), 0);
	assert_int_equal(c->nsets, 4);
}

static void test_lru_order(void **st)
{
	(void)st;
	struct weft_cache c;
	small_cache(&c, WEFT_CACHE_WRITE_BACK, 0);
	const uint64_t A = 0, B = 512, C = 1024;
	assert_int_equal(weft_cache_access(&c, A, 0, NULL), WEFT_CACHE_FILL);      /* t1 miss */
	assert_int_equal(weft_cache_access(&c, B, 0, NULL), WEFT_CACHE_FILL);      /* t2 miss */
	assert_int_equal(weft_cache_access(&c, A + 4, 0, NULL), WEFT_CACHE_HIT);   /* t3 same line */
	assert_int_equal(weft_cache_access(&c, C, 0, NULL), WEFT_CACHE_FILL);      /* t4 evicts B */
	assert_false(weft_cache_probe(&c, B));
	assert_true(weft_cache_probe(&c, A));
	assert_int_equal(weft_cache_access(&c, A, 0, NULL), WEFT_CACHE_HIT);       /* t5 */
	assert_int_equal(weft_cache_access(&c, B, 0, NULL), WEFT_CACHE_FILL);      /* t6 evicts C */
	assert_false(weft_cache_probe(&c, C));
	assert_int_equal(weft_cache_access(&c, C, 0, NULL), WEFT_CACHE_FILL);      /* t7 evicts A */
	assert_false(weft_cache_probe(&c, A));
	assert_true(weft_cache_probe(&c, B));
	/* other sets untouched */
	assert_int_equal(weft_cache_access(&c, 128, 0, NULL), WEFT_CACHE_FILL);
	assert_int_equal(c.st.reads, 8);
	assert_int_equal(c.st.read_hits, 2);
	assert_int_equal(c.st.fills, 6);
	assert_int_equal(c.st.writebacks, 0);
	weft_cache_free(&c);
}

static void test_write_back(void **st)
{
	(void)st;
	struct weft_cache c;
	uint64_t victim = 99;
	small_cache(&c, WEFT_CACHE_WRITE_BACK, 0);
	/* write misses allocate without fetching, dirty */
	assert_int_equal(weft_cache_access(&c, 0, 1, &victim), 0);
	assert_int_equal(weft_cache_access(&c, 512, 1, &victim), 0);
	assert_int_equal(weft_cache_access(&c, 0, 1, &victim), WEFT_CACHE_HIT); /* write hit */
	/* a read miss evicts the LRU line (512, dirty): one writeback */
	assert_int_equal(weft_cache_access(&c, 1024, 0, &victim), WEFT_CACHE_FILL | WEFT_CACHE_WRITEBACK);
	assert_int_equal(victim, 512);
	/* a clean victim (1024) is dropped silently */
	assert_int_equal(weft_cache_access(&c, 0, 0, NULL), WEFT_CACHE_HIT);
	assert_int_equal(weft_cache_access(&c, 1536, 0, &victim), WEFT_CACHE_FILL);
	assert_int_equal(c.st.writebacks, 1);
	assert_int_equal(c.st.throughs, 0);
	assert_int_equal(c.st.fills, 2);
	/* clean: line 0 is still dirty; it is written back and stays */
	assert_int_equal(weft_cache_clean(&c), 1);
	assert_true(weft_cache_probe(&c, 0));
	assert_int_equal(weft_cache_clean(&c), 0);
	weft_cache_free(&c);

	/* with write_fetch a write miss fetches the line */
	small_cache(&c, WEFT_CACHE_WRITE_BACK, 1);
	assert_int_equal(weft_cache_access(&c, 0, 1, NULL), WEFT_CACHE_FILL);
	assert_int_equal(weft_cache_flush(&c), 1);
	assert_false(weft_cache_probe(&c, 0));
	weft_cache_free(&c);
}

static void test_write_through(void **st)
{
	(void)st;
	struct weft_cache c;
	small_cache(&c, WEFT_CACHE_WRITE_THROUGH, 0);
	/* write miss: passed on, not allocated */
	assert_int_equal(weft_cache_access(&c, 0, 1, NULL), WEFT_CACHE_THROUGH);
	assert_false(weft_cache_probe(&c, 0));
	assert_int_equal(weft_cache_access(&c, 0, 0, NULL), WEFT_CACHE_FILL);
	/* write hit: updates the line and is still passed on */
	assert_int_equal(weft_cache_access(&c, 0, 1, NULL), WEFT_CACHE_HIT | WEFT_CACHE_THROUGH);
	/* evicting a written line never writes back */
	weft_cache_access(&c, 512, 0, NULL);
	assert_int_equal(weft_cache_access(&c, 1024, 0, NULL), WEFT_CACHE_FILL);
	assert_int_equal(c.st.throughs, 2);
	assert_int_equal(c.st.writebacks, 0);
	assert_int_equal(weft_cache_flush(&c), 0);
	weft_cache_free(&c);
}

/* Streams: a working set of half the capacity hits on the second pass; one
 * of twice the capacity misses every time under LRU. */
static void test_streams(void **st)
{
	(void)st;
	struct weft_cache c;
	struct weft_cache_geom g = { 64 * 1024, 128, 4, 32, WEFT_CACHE_WRITE_THROUGH, 0 };
	assert_int_equal(weft_cache_init(&c, &g, NULL), 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t a = 0; a < 32 * 1024; a += 4)
			weft_cache_access(&c, a, 0, NULL);
	assert_int_equal(c.st.fills, 256);             /* 32 KiB / 128 B, first pass only */
	assert_int_equal(c.st.reads, 2 * 8192);
	weft_cache_reset_stats(&c);
	weft_cache_flush(&c);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t a = 0; a < 128 * 1024; a += 128)
			weft_cache_access(&c, a, 0, NULL);
	assert_int_equal(c.st.read_hits, 0);
	assert_int_equal(c.st.fills, 2 * 1024);
	/* 32 banks, line-interleaved: 2048 accesses spread evenly */
	assert_int_equal(weft_cache_max_bank_accesses(&c), 2048 / 32);
	weft_cache_free(&c);
}

/* 786 KB, 16-way, 128 B lines: 384 sets, not a power of two. */
static void test_nonpow2_sets(void **st)
{
	(void)st;
	struct weft_cache c;
	struct weft_cache_geom g = { 786432, 128, 16, 6, WEFT_CACHE_WRITE_BACK, 0 };
	assert_int_equal(weft_cache_init(&c, &g, NULL), 0);
	assert_int_equal(c.nsets, 384);
	/* 17 lines 384 apart share a set: the 17th evicts the first */
	for (uint64_t i = 0; i < 17; i++)
		weft_cache_access(&c, i * 384 * 128, 0, NULL);
	assert_false(weft_cache_probe(&c, 0));
	assert_true(weft_cache_probe(&c, 384 * 128));
	/* neighbouring lines go to other sets */
	assert_int_equal(weft_cache_access(&c, 128, 0, NULL), WEFT_CACHE_FILL);
	assert_true(weft_cache_probe(&c, 384 * 128));
	weft_cache_free(&c);
}

/* A line's set and bank, by mask (power-of-two counts) or by modulo (not):
 * assoc + 1 lines nsets apart share a set, lines banks apart share a
 * bank, and consecutive lines spread over every bank. */
static void check_index(const struct weft_cache_geom *g, uint32_t nsets)
{
	struct weft_cache c;
	assert_int_equal(weft_cache_init(&c, g, NULL), 0);
	assert_int_equal(c.nsets, nsets);
	const uint64_t line = g->line_bytes, start = 5 * line; /* not set 0 */
	for (uint64_t i = 0; i <= g->assoc; i++)
		weft_cache_access(&c, start + i * nsets * line, 0, NULL);
	assert_false(weft_cache_probe(&c, start));
	assert_true(weft_cache_probe(&c, start + nsets * line));
	assert_true(weft_cache_probe(&c, start + nsets * line + line) == 0);
	/* a contiguous capacity's worth of lines fills every set exactly */
	weft_cache_flush(&c);
	for (uint64_t i = 0; i < (uint64_t)nsets * g->assoc; i++)
		weft_cache_access(&c, start + i * line, 0, NULL);
	for (uint64_t i = 0; i < (uint64_t)nsets * g->assoc; i++)
		assert_true(weft_cache_probe(&c, start + i * line));
	weft_cache_flush(&c);
	weft_cache_reset_stats(&c);
	for (uint64_t i = 0; i < 10; i++)
		weft_cache_access(&c, start + i * g->banks * line, 0, NULL);
	assert_int_equal(weft_cache_max_bank_accesses(&c), 10);
	weft_cache_reset_stats(&c);
	for (uint64_t i = 0; i < 3 * (uint64_t)g->banks; i++)
		weft_cache_access(&c, start + i * line, 0, NULL);
	assert_int_equal(weft_cache_max_bank_accesses(&c), 3);
	weft_cache_free(&c);
}

static void test_set_and_bank_index(void **st)
{
	(void)st;
	struct weft_cache_geom pow2 = { 64 * 1024, 128, 4, 4, WEFT_CACHE_WRITE_BACK, 0 };
	struct weft_cache_geom other = { 786432, 128, 16, 6, WEFT_CACHE_WRITE_BACK, 0 };
	check_index(&pow2, 128);
	check_index(&other, 384);
}

static void test_bad_geometry(void **st)
{
	(void)st;
	struct weft_cache c;
	struct weft_error err;
	struct weft_cache_geom g = { 1024, 100, 2, 1, WEFT_CACHE_WRITE_BACK, 0 };
	assert_int_equal(weft_cache_init(&c, &g, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "power of two"));
	g.line_bytes = 128;
	g.size_bytes = 1000;
	assert_int_equal(weft_cache_init(&c, &g, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "multiple"));
	g.size_bytes = 1024;
	g.assoc = 0;
	assert_int_equal(weft_cache_init(&c, &g, &err), WEFT_ERR_INPUT);
	enum weft_cache_write w;
	assert_int_equal(weft_cache_write_parse("through", &w), 0);
	assert_int_equal(w, WEFT_CACHE_WRITE_THROUGH);
	assert_int_equal(weft_cache_write_parse("back", &w), 0);
	assert_int_equal(w, WEFT_CACHE_WRITE_BACK);
	assert_int_equal(weft_cache_write_parse("sideways", &w), -1);
}

/* turned over: every line valid and as many replaced since (the fill of
 * a windowed sample stops there, fabric_warm.c); warming counts, a flush
 * starts over */
static void test_turned_over(void **st)
{
	(void)st;
	struct weft_cache c;
	small_cache(&c, WEFT_CACHE_WRITE_BACK, 0); /* 8 lines */
	uint64_t line = 0;
	for (int i = 0; i < 8; i++, line += 128) { /* 2 per set: full, nothing replaced */
		assert_false(weft_cache_turned_over(&c));
		weft_cache_warm(&c, line, i & 1, NULL);
	}
	assert_int_equal(c.valid, 8);
	assert_int_equal(c.replaced, 0);
	assert_false(weft_cache_turned_over(&c));
	weft_cache_access(&c, 0, 0, NULL); /* a hit replaces nothing */
	assert_int_equal(c.replaced, 0);
	for (int i = 0; i < 7; i++, line += 128)
		weft_cache_access(&c, line, 0, NULL);
	assert_int_equal(c.replaced, 7);
	assert_false(weft_cache_turned_over(&c));
	weft_cache_warm(&c, line, 0, NULL);
	assert_true(weft_cache_turned_over(&c));
	assert_int_equal(c.st.reads, 8); /* the warmed accesses counted nothing */
	/* a restore of the tags recounts the valid lines */
	c.tag[0] = 0;
	weft_cache_recount(&c);
	assert_int_equal(c.valid, 7);
	assert_false(weft_cache_turned_over(&c));
	weft_cache_flush(&c);
	assert_int_equal(c.valid, 0);
	assert_int_equal(c.replaced, 0);
	weft_cache_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_write_back),
		cmocka_unit_test(test_write_through),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_nonpow2_sets),
		cmocka_unit_test(test_set_and_bank_index),
		cmocka_unit_test(test_bad_geometry),
		cmocka_unit_test(test_turned_over),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
