/*
 * test_sample_ci.c - the intervals of a sampled estimate (estimate/
 * sample_ci.h) on hand-built figures, and the random groups of a CTA
 * sample (trace.h). Every expected number is worked out in the comments.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "estimate/estimate.h"
#include "estimate/sample_ci.h"
#include "trace/format/trace.h"

static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

/* t_{0.975, 9}: tables give 2.262157 (e.g. Abramowitz & Stegun 26.10) */
#define T975_9 2.2621571627409915

/* Groups of random:95:7 over 1000 CTAs, 10 groups: each increasing, sizes
 * floor(95 (g + 1) / 10) - floor(95 g / 10) (9 or 10), disjoint, and
 * together the ungrouped sample. */
static void test_groups_partition(void **st)
{
	(void)st;
	static uint32_t all[1000], g[1000];
	static uint8_t seen[1000];
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 95, .seed = 7 };
	uint32_t n = weft_cta_sample_select(&s, 1000, all);
	assert_int_equal(n, 95);
	assert_int_equal(weft_cta_sample_size(&s, 1000), 95);
	assert_int_equal(weft_cta_sample_size(&s, 40), 40);
	memset(seen, 0, sizeof(seen));
	uint32_t total = 0;
	s.groups = 10;
	for (uint32_t k = 0; k < 10; k++) {
		s.group = k;
		uint32_t m = weft_cta_sample_select(&s, 1000, g);
		assert_int_equal(m, 95 * (k + 1) / 10 - 95 * k / 10);
		for (uint32_t i = 0; i < m; i++) {
			if (i)
				assert_true(g[i] > g[i - 1]);
			assert_int_equal(seen[g[i]], 0);
			seen[g[i]] = 1;
		}
		total += m;
	}
	assert_int_equal(total, 95);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(seen[all[i]], 1);
	/* fewer CTAs than groups: one CTA per group, group 4 is group 1 of 3 */
	struct weft_cta_sample t = { .kind = WEFT_SAMPLE_RANDOM, .count = 3, .seed = 1, .groups = 10 };
	uint32_t a[8], b[8];
	t.group = 1;
	assert_int_equal(weft_cta_sample_select(&t, 8, a), 1);
	t.group = 4;
	assert_int_equal(weft_cta_sample_select(&t, 8, b), 1);
	assert_int_equal(a[0], b[0]);
}

/* The jackknife's replicates (drop = 1): the sample less group g, for each
 * g: increasing, of n - |group g| CTAs, none of group g's, and with it the
 * whole sample (random:95:7 over 1000 CTAs, 10 groups, as above). */
static void test_groups_drop(void **st)
{
	(void)st;
	static uint32_t all[1000], g[1000], rest[1000];
	static uint8_t in_g[1000];
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_RANDOM, .count = 95, .seed = 7, .groups = 10 };
	struct weft_cta_sample whole = { .kind = WEFT_SAMPLE_RANDOM, .count = 95, .seed = 7 };
	assert_int_equal(weft_cta_sample_select(&whole, 1000, all), 95);
	for (uint32_t k = 0; k < 10; k++) {
		s.group = k;
		s.drop = 0;
		uint32_t m = weft_cta_sample_select(&s, 1000, g);
		s.drop = 1;
		uint32_t r = weft_cta_sample_select(&s, 1000, rest);
		assert_int_equal(r, 95 - m);
		memset(in_g, 0, sizeof(in_g));
		for (uint32_t i = 0; i < m; i++)
			in_g[g[i]] = 1;
		for (uint32_t i = 0; i < r; i++) {
			if (i)
				assert_true(rest[i] > rest[i - 1]);
			assert_int_equal(in_g[rest[i]], 0);
			in_g[rest[i]] = 2;
		}
		for (uint32_t i = 0; i < 95; i++)
			assert_true(in_g[all[i]] != 0);
	}
}

/* The report of test_ci_by_hand and test_ci_jackknife: one launch, the
 * baseline 1000 cycles at 1 GHz, 4000 insts, 4 uJ; config 1 500 cycles,
 * 4000 insts, 2 uJ; replicate g of the baseline 1000 + k e_g cycles (e_g
 * = -50 for even g, +50 for odd), config 1's exact. */
struct hand {
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	struct weft_est_report r;
	struct weft_est_ci_rep rep[2 * WEFT_EST_CI_GROUPS];
	uint32_t N, n; /* 100 CTAs, 20 read */
	struct weft_est_ci_input in;
	struct weft_error err;
};

/* Fills h (replicates read by method m) and computes its intervals. */
static int hand_run(struct hand *h, double k, enum weft_est_ci_method m)
{
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 2; i++) {
		h->c[i].clock_hz = 1e9;
		h->c[i].total.cycles = h->l[i].cycles = i ? 500 : 1000;
		h->c[i].total.thread_insts = h->l[i].thread_insts = 4000;
		h->c[i].total.energy_total_j = h->l[i].energy_total_j = i ? 2e-6 : 4e-6;
		h->c[i].launches = &h->l[i];
		h->c[i].nlaunches = 1;
	}
	h->r.configs = h->c;
	h->r.nconfigs = 2;
	for (int g = 0; g < WEFT_EST_CI_GROUPS; g++) {
		h->rep[g] = (struct weft_est_ci_rep){ 1000 + k * (g % 2 ? 50 : -50), 4000, 4e-6 };
		h->rep[WEFT_EST_CI_GROUPS + g] = (struct weft_est_ci_rep){ 500, 4000, 2e-6 };
	}
	h->N = 100;
	h->n = 20;
	h->in = (struct weft_est_ci_input){ 1, &h->N, &h->n, h->rep, 0.95, m };
	return weft_est_ci_compute(&h->r, &h->in, &h->err);
}

/* The delete-a-group jackknife on test_ci_by_hand's figures: for a total
 * the estimate is the mean of the group estimates, 1000 + e_g (e_g = -+50),
 * so leaving group g out gives 1000 - e_g / 9, and (G - 1) / G x
 * sum_g (e_g / 9)^2 = sum_g e_g^2 / (G (G - 1)): the same variance as
 * the random groups' (half = t_{.975,9} sqrt(0.8 x 10 x 2500 / 90)). The
 * speedup of config 1, (1000 - e_g / 9) / 500 left out: likewise the
 * groups' half-width, t sqrt(0.8 x 10 x 0.01 / 90). */
static void test_ci_jackknife(void **st)
{
	(void)st;
	struct hand h;
	assert_int_equal(hand_run(&h, -1.0 / 9, WEFT_CI_METHOD_JACKKNIFE), 0);
	struct weft_est_config *c = h.c;
	const struct weft_est_interval *cy = &c[0].ci[WEFT_CI_CYCLES];
	assert_true(near(cy->value, 1000, 1e-12));
	assert_true(near(cy->df, 9, 1e-12));
	assert_true(near(cy->half, T975_9 * sqrt(0.8 * 10 * 2500 / 90.0), 1e-9));
	assert_true(near(c[1].ci[WEFT_CI_SPEEDUP].half, T975_9 * sqrt(0.8 * 10 * 0.01 / 90.0), 1e-9));
	/* read as random groups, the same replicates say nine times less */
	h.in.method = WEFT_CI_METHOD_GROUPS;
	assert_int_equal(weft_est_ci_compute(&h.r, &h.in, &h.err), 0);
	assert_true(near(c[0].ci[WEFT_CI_CYCLES].half, T975_9 * sqrt(0.8 * 10 * 2500 / 90.0) / 9, 1e-9));
	/* the report says which */
	char buf[256];
	h.r.ci_groups = 10;
	h.r.ci_method = WEFT_CI_METHOD_JACKKNIFE;
	weft_est_ci_describe(&h.r, buf, sizeof(buf));
	assert_non_null(strstr(buf, "jackknife"));
	h.r.ci_method = WEFT_CI_METHOD_GROUPS;
	weft_est_ci_describe(&h.r, buf, sizeof(buf));
	assert_null(strstr(buf, "jackknife"));
}

/* Two configs, one launch of N = 100 CTAs sampled with n = 20, G = 10.
 * Baseline: 1000 cycles at 1 GHz, 4000 insts, 4 uJ; its groups give 1000
 * -+ 50 cycles (even groups -50, odd +50). Config 1: 500 cycles, 2 uJ, its
 * groups exact. Cycles of the baseline: v = (1 - 20/100) x 10 x 50^2 /
 * (10 x 9) = 222.2; df = 9; half = t_{.975,9} sqrt(v) = 33.72. Speedup of
 * config 1: (1000 -+ 50) / 500 = 2 -+ 0.1: v = 0.8 x 10 x 0.01 / 90 =
 * 8.889e-4, half = 0.06744. Its insts/J ratio: insts/J = 4000 / 2e-6
 * against 4000 / 4e-6, exact in every group: half 0. */
static void test_ci_by_hand(void **st)
{
	(void)st;
	struct hand h;
	assert_int_equal(hand_run(&h, 1, WEFT_CI_METHOD_GROUPS), 0);
	struct weft_est_config *c = h.c;
	assert_true(h.r.has_ci);
	const struct weft_est_interval *cy = &c[0].ci[WEFT_CI_CYCLES];
	assert_true(near(cy->value, 1000, 1e-12));
	assert_true(near(cy->df, 9, 1e-12));
	assert_true(near(cy->half, T975_9 * sqrt(0.8 * 10 * 2500 / 90.0), 1e-9));
	assert_true(near(cy->lo, 1000 - cy->half, 1e-12));
	const struct weft_est_interval *sp = &c[1].ci[WEFT_CI_SPEEDUP];
	assert_true(near(sp->value, 2, 1e-12));
	assert_true(near(sp->half, T975_9 * sqrt(0.8 * 10 * 0.01 / 90.0), 1e-9));
	assert_true(c[1].ci[WEFT_CI_IPJ_RATIO].half == 0);
	assert_true(near(c[1].ci[WEFT_CI_IPJ_RATIO].value, 2, 1e-12));
	assert_true(c[1].ci[WEFT_CI_CYCLES].half == 0);
	/* the baseline against itself: paired, exactly 1 */
	assert_true(c[0].ci[WEFT_CI_SPEEDUP].half == 0);
	/* worst relative half-width: the baseline's cycles, 33.72 / 1000 */
	assert_true(near(weft_est_ci_worst(&h.r), cy->half / 1000, 1e-12));

	/* read whole: exact; one CTA of many: not estimable */
	h.n = 100;
	assert_int_equal(weft_est_ci_compute(&h.r, &h.in, &h.err), 0);
	assert_true(c[0].ci[WEFT_CI_CYCLES].half == 0);
	h.n = 1;
	assert_int_equal(weft_est_ci_compute(&h.r, &h.in, &h.err), 0);
	assert_true(isnan(c[0].ci[WEFT_CI_CYCLES].half));
	assert_true(isinf(weft_est_ci_worst(&h.r)));
	/* a confidence outside (0, 1) */
	h.in.confidence = 1;
	assert_int_equal(weft_est_ci_compute(&h.r, &h.in, &h.err), WEFT_ERR_INPUT);
}

/* Two launches whose groups correspond (10 each): group g of both is one
 * replicate, so launches that move together (the same CTAs sampled in
 * both, as one seed picks them) add their deviations before squaring.
 * Launch figures 1000 and 1000 cycles, total 2000; f = 20/100 in both.
 * Same signs: d_g = sqrt(0.8) (+-50 +- 50) = +-100 sqrt(0.8), v = 0.8 x
 * 10 x 10000 / 90, df 9 (per launch apart it would be 0.8 x 10 x 2500 /
 * 90 twice: half the variance). Opposite signs: d_g = 0, v = 0. Groups
 * that do not correspond (launch 1 with 5 CTAs read: 5 groups): each
 * launch's own v_h, as in test_ci_by_hand, Satterthwaite df. */
static void test_ci_launches(void **st)
{
	(void)st;
	struct weft_est_config c;
	memset(&c, 0, sizeof(c));
	struct weft_est_figures l[2];
	memset(l, 0, sizeof(l));
	c.clock_hz = 1e9;
	c.total.cycles = 2000;
	c.total.thread_insts = 8000;
	c.total.energy_total_j = 8e-6;
	for (int h = 0; h < 2; h++) {
		l[h].cycles = 1000;
		l[h].thread_insts = 4000;
		l[h].energy_total_j = 4e-6;
	}
	c.launches = l;
	c.nlaunches = 2;
	struct weft_est_report r;
	memset(&r, 0, sizeof(r));
	r.configs = &c;
	r.nconfigs = 1;
	struct weft_est_ci_rep rep[2 * WEFT_EST_CI_GROUPS];
	uint32_t N[2] = { 100, 100 }, n[2] = { 20, 20 };
	struct weft_est_ci_input in = { 2, N, n, rep, 0.95, WEFT_CI_METHOD_GROUPS };
	struct weft_error err;
	for (int same = 1; same >= 0; same--) {
		for (int g = 0; g < WEFT_EST_CI_GROUPS; g++) {
			double d = g % 2 ? 50 : -50;
			rep[g] = (struct weft_est_ci_rep){ 1000 + d, 4000, 4e-6 };
			rep[WEFT_EST_CI_GROUPS + g] = (struct weft_est_ci_rep){ 1000 + (same ? d : -d), 4000, 4e-6 };
		}
		assert_int_equal(weft_est_ci_compute(&r, &in, &err), 0);
		const struct weft_est_interval *cy = &c.ci[WEFT_CI_CYCLES];
		assert_true(near(cy->value, 2000, 1e-12));
		if (same) {
			assert_true(near(cy->df, 9, 1e-12));
			assert_true(near(cy->half, T975_9 * sqrt(0.8 * 10 * 10000 / 90.0), 1e-9));
		} else {
			assert_true(cy->half == 0);
		}
	}
	/* groups that do not correspond: launch by launch */
	n[1] = 5;
	for (int g = 0; g < WEFT_EST_CI_GROUPS; g++) {
		double d = g % 2 ? 50 : -50;
		rep[g] = (struct weft_est_ci_rep){ 1000 + d, 4000, 4e-6 };
		rep[WEFT_EST_CI_GROUPS + g] = (struct weft_est_ci_rep){ 1000 + (g < 5 ? d : 0), 4000, 4e-6 };
	}
	assert_int_equal(weft_est_ci_compute(&r, &in, &err), 0);
	/* v_0 = 0.8 x 10 x 2500 / 90; v_1 = 0.95 x 5 x 2500 / 20 */
	double v0 = 0.8 * 10 * 2500 / 90.0, v1 = 0.95 * 5 * 2500 / 20.0;
	double df = (v0 + v1) * (v0 + v1) / (v0 * v0 / 9 + v1 * v1 / 4);
	const struct weft_est_interval *cy = &c.ci[WEFT_CI_CYCLES];
	assert_true(near(cy->df, df, 1e-12));
	assert_true(near(cy->half, gsl_cdf_tdist_Pinv(0.975, df) * sqrt(v0 + v1), 1e-9));
}

/* At 90% the quantile is t_{.95,9} = 1.833113 (same tables). */
static void test_ci_level(void **st)
{
	(void)st;
	struct weft_est_config c;
	memset(&c, 0, sizeof(c));
	struct weft_est_figures l;
	memset(&l, 0, sizeof(l));
	c.clock_hz = 1e9;
	c.total.cycles = l.cycles = 1000;
	c.total.thread_insts = l.thread_insts = 10;
	c.total.energy_total_j = l.energy_total_j = 1;
	c.launches = &l;
	c.nlaunches = 1;
	struct weft_est_report r;
	memset(&r, 0, sizeof(r));
	r.configs = &c;
	r.nconfigs = 1;
	struct weft_est_ci_rep rep[WEFT_EST_CI_GROUPS];
	for (int g = 0; g < WEFT_EST_CI_GROUPS; g++)
		rep[g] = (struct weft_est_ci_rep){ 1000 + (g % 2 ? 10 : -10), 10, 1 };
	uint32_t N = 1000, n = 10; /* f = 0.01 */
	struct weft_est_ci_input in = { 1, &N, &n, rep, 0.90, WEFT_CI_METHOD_GROUPS };
	struct weft_error err;
	assert_int_equal(weft_est_ci_compute(&r, &in, &err), 0);
	assert_true(near(c.ci[WEFT_CI_CYCLES].half, 1.8331129326536335 * sqrt(0.99 * 10 * 100 / 90.0),
			 1e-9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_partition),
		cmocka_unit_test(test_groups_drop),
		cmocka_unit_test(test_ci_jackknife),
		cmocka_unit_test(test_ci_by_hand),
		cmocka_unit_test(test_ci_level),
		cmocka_unit_test(test_ci_launches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
