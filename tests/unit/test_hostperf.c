/*
 * test_hostperf.c - the host baseline measures a known loop. Hardware
 * counters are checked only where this machine has them; the test checks
 * that every counter's "available" flag agrees with its value and reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/hostperf.h"

static void busy_loop(void *arg)
{
	volatile uint64_t *acc = arg;
	/* About 2e7 iterations: a few milliseconds, enough for task-clock. */
	for (uint64_t i = 0; i < 20000000u; i++)
		*acc += i ^ (*acc >> 3);
}

static void test_measures_loop(void **state)
{
	(void)state;
	struct weft_hostperf hp;
	struct weft_error err;
	volatile uint64_t acc = 1;

	assert_int_equal(weft_hostperf_measure(busy_loop, (void *)&acc, &hp, &err), 0);
	assert_true(hp.wall_seconds > 0.0);
	assert_int_equal(hp.ncounters, WEFT_HOSTPERF_MAX);
	for (unsigned i = 0; i < hp.ncounters; i++) {
		const struct weft_hostperf_counter *c = &hp.counters[i];
		assert_true(c->name[0] != 0);
		assert_true(strncmp(c->event, "perf::", 6) == 0);
		if (c->available) {
			assert_true(c->reason[0] == 0);
		} else {
			assert_true(c->reason[0] != 0);
			assert_true(c->value == 0);
		}
	}
	const struct weft_hostperf_counter *tc = weft_hostperf_get(&hp, "task-clock");
	assert_non_null(tc);
	if (tc->available) {
		assert_true(tc->value > 0);
		/* task-clock counts ns on this thread: it cannot exceed wall time by
		 * more than timer granularity. */
		assert_true((double)tc->value * 1e-9 <= hp.wall_seconds * 1.5 + 1e-3);
	}
	const struct weft_hostperf_counter *ins = weft_hostperf_get(&hp, "instructions");
	assert_non_null(ins);
	if (ins->available)
		assert_true(ins->value >= 20000000u); /* at least one per iteration */
	const struct weft_hostperf_counter *cyc = weft_hostperf_get(&hp, "cycles");
	assert_non_null(cyc);
	if (cyc->available)
		assert_true(cyc->value > 0);
	assert_true(weft_hostperf_available(&hp, 1) <= weft_hostperf_available(&hp, 0));
	assert_null(weft_hostperf_get(&hp, "no-such-counter"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measures_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
