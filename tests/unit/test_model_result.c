/*
 * test_model_result.c - the launch results every model pushes
 * (models/model.c): a result's stats have room for WEFT_MAX_STATS while the
 * model fills them and keep only the ones used once the next launch is
 * pushed or the results are taken (a trace of many launches keeps ~1-3 KB
 * a launch, not 4.6 KB of empty stats); pop takes the last one back with
 * what it owns; everything is freed (the sanitizer build checks leaks).
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/sbuf.h"
#include "models/model.h"

static void add_stats(struct weft_launch_result *r, uint32_t n, double base)
{
	char key[16];
	for (uint32_t i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "s%u", i);
		weft_stat_add(r->stats, &r->nstats, key, base + i, "");
	}
}

static void test_push_trim_take(void **state)
{
	(void)state;
	struct weft_launch_result *ls = NULL, *r;
	uint32_t n = 0, cap = 0;
	struct weft_error err;
	const uint32_t counts[] = { 3, WEFT_MAX_STATS + 5, 0, 1, 7 };
	for (uint32_t l = 0; l < 5; l++) {
		assert_int_equal(weft_launch_result_push(&ls, &n, &cap, 2, &r, &err), 0);
		assert_non_null(r->stats);
		assert_int_equal(r->nstats, 0);
		r->launch = l;
		add_stats(r, counts[l], 100.0 * l);
		if (l > 0 && counts[l - 1] < WEFT_MAX_STATS) /* the previous launch's stats: trimmed */
			assert_true(malloc_usable_size(ls[l - 1].stats) <
				    WEFT_MAX_STATS * sizeof(struct weft_stat));
	}
	assert_int_equal(ls[1].nstats, WEFT_MAX_STATS); /* the first WEFT_MAX_STATS kept */
	/* a launch that fails is taken back with what it owns */
	assert_int_equal(weft_launch_result_push(&ls, &n, &cap, 2, &r, &err), 0);
	add_stats(r, 2, 0);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_printf(&b, "explained");
	assert_int_equal(weft_launch_result_explain(r, 5, &b, &err), 0);
	weft_launch_result_pop(ls, &n);
	assert_int_equal(n, 5);

	double ev[2] = { 1, 2 };
	struct weft_model_result res;
	memset(&res, 0, sizeof(res));
	assert_int_equal(weft_model_result_take(&res, 1e9, 10, 20, ev, 2, &ls, &n, &cap, &err), 0);
	assert_null(ls);
	assert_int_equal(res.nlaunches, 5);
	for (uint32_t l = 0; l < 5; l++) {
		const struct weft_launch_result *x = &res.launches[l];
		uint32_t want = counts[l] > WEFT_MAX_STATS ? WEFT_MAX_STATS : counts[l];
		assert_int_equal(x->launch, l);
		assert_int_equal(x->nstats, want);
		for (uint32_t i = 0; i < want; i++)
			assert_true(x->stats[i].value == 100.0 * l + i);
		if (want < WEFT_MAX_STATS)
			assert_true(malloc_usable_size(x->stats) < WEFT_MAX_STATS * sizeof(struct weft_stat));
	}
	weft_model_result_free(&res);
	/* results a model still holds, freed with what they own */
	assert_int_equal(weft_launch_result_push(&ls, &n, &cap, 2, &r, &err), 0);
	add_stats(r, 4, 0);
	weft_launch_results_free(ls, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_trim_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
