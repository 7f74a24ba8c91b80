/*
 * sample_ci.h - confidence intervals for estimates from a random CTA
 * sample (--sample random:N:SEED, --sample-until), and the sampling that
 * grows until a requested relative error is reached.
 *
 * The design (docs/estimate.md "Intervals of a sampled estimate"): each
 * launch is a stratum; its random sample of n_h of N_h CTAs is split into
 * G_h = min(WEFT_EST_CI_GROUPS, n_h) disjoint random groups (trace.h,
 * weft_cta_sample.groups), and every model replays each group as if it
 * were the sample. The models are analytic and their cycles are not a sum
 * over CTAs (CTAs share SMs, caches, a fabric), so the sampling unit of
 * the variance is a group of CTAs replayed together: a group's per-CTA
 * figure is its replay's figure over its CTAs, which is what the models'
 * expansion N_h / n_h already assumes. For any reported figure theta (a
 * total, or a ratio against the baseline, paired: both configurations
 * read the same CTAs), the replicate theta_hg is theta with launch h's
 * figures taken from group g's replay, and (random groups, Wolter,
 * "Introduction to Variance Estimation", 2nd ed. 2007, ch. 2, with the
 * finite-population correction of 2.4 for sampling without replacement):
 *
 *   v_h = (1 - n_h / N_h) / (G_h (G_h - 1)) x sum_g (theta_hg - theta)^2
 *   v   = sum_h v_h
 *   df  = v^2 / sum_h (v_h^2 / (G_h - 1))          (Satterthwaite)
 *   half-width = t_{(1 + confidence) / 2, df} x sqrt(v)   (gsl_cdf_tdist_Pinv)
 *
 * For a total this is the stratified expansion estimator's variance with
 * the finite-population correction; for a ratio it is the random-group
 * form of the delta method (each replicate recomputes the ratio).
 *
 * Launches are not independent strata: one seed picks the same CTA ids
 * in launches of the same size (hotspot's two launches), so their
 * sampling errors move together and the sum of v_h understates the
 * variance (hotspot on vt-c4v1r256+bi: 33 of 40 seeds inside; the
 * estimates' spread was 1.38 x the intervals' standard error). So when
 * every sampled launch has the same G groups, group g of every launch is
 * one replicate (random groups across strata, Wolter 2007 section 2.4):
 *
 *   d_g = sum_h sqrt(1 - n_h / N_h) x (theta_hg - theta)
 *   v   = sum_g d_g^2 / (G (G - 1)),   df = G - 1
 *
 * which is the sum of the v_h plus the launches' covariances (zero in
 * expectation when their samples are independent). Otherwise (group
 * counts differ) the launches are taken apart as above.
 *
 * The delete-a-group jackknife (WEFT_CI_METHOD_JACKKNIFE; Kott, "The
 * Delete-a-Group Jackknife", Journal of Official Statistics 17(4), 2001;
 * Wolter 2007 ch. 4): replicate g replays the sample less group g, so it
 * is nearly the estimate's own size, and a model whose expansion depends
 * on how many CTAs it replays (SMs a small group leaves idle, a launch's
 * fixed start and drain expanded N_h / m times, a composite that shrinks
 * harder on less data) has replicates that behave as the estimate does.
 * With theta_(hg) the replicate of launch h, the pseudo-values'
 * deviations (G_h - 1)(theta - theta_(hg)) take the place of the groups'
 * theta_hg - theta in the formulas above, which then give the jackknife
 * variance (G_h - 1) / G_h x sum_g (theta_(hg) - theta)^2 (with the
 * finite-population factor). It is taken about the estimate theta, not
 * the replicates' mean: the conservative form (Wolter 2007, 4.2), which
 * adds the jackknife's estimate of the squared bias; centred on the mean
 * (and the interval on the bias-corrected estimate) it covered less
 * (docs/estimate.md "Replicates").
 */
#ifndef WEFT_SAMPLE_CI_H
#define WEFT_SAMPLE_CI_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct weft_est_report;

#define WEFT_EST_CI_GROUPS 10 /* random groups per launch (at most) */

/* What a replicate replays (--ci-method): group g alone (random groups),
 * or the sample less group g (the delete-a-group jackknife). */
enum weft_est_ci_method { WEFT_CI_METHOD_GROUPS = 0, WEFT_CI_METHOD_JACKKNIFE };

/* The figures that get an interval, in report order. */
enum weft_est_ci_metric {
	WEFT_CI_CYCLES = 0,
	WEFT_CI_SECONDS,
	WEFT_CI_INSTS,
	WEFT_CI_ENERGY,
	WEFT_CI_INSTS_PER_J,
	WEFT_CI_SPEEDUP,
	WEFT_CI_IPJ_RATIO,
	WEFT_CI_ENERGY_RATIO,
	WEFT_CI_COUNT
};
/* Their report keys: "cycles", "time_s", "thread_insts", "energy_total_j",
 * "insts_per_j", "speedup", "insts_per_j_ratio", "energy_ratio" (the CSV
 * column names of the figures). */
extern const char *const weft_est_ci_keys[WEFT_CI_COUNT];

/* One figure's interval: value +- half = [lo, hi]. half 0: exact (every
 * CTA of every launch read); NAN: not estimable (a launch sampled with one
 * CTA, or the figure itself undefined). df: the t distribution's degrees
 * of freedom (INFINITY when exact). */
struct weft_est_interval {
	double value, half, lo, hi, df;
};

/* One replicate's replay of one launch on one configuration (group g, or
 * the sample less group g), as priced by the estimate (already scaled to
 * the whole launch by the model). */
struct weft_est_ci_rep {
	double cycles, insts, energy;
};

/* What the intervals are computed from. nctas[h] (N_h) and nread[h] (n_h)
 * per launch; rep[(c * nlaunches + h) * WEFT_EST_CI_GROUPS + g] for config
 * c, launch h, group g < min(WEFT_EST_CI_GROUPS, nread[h]). */
struct weft_est_ci_input {
	uint32_t nlaunches;
	const uint32_t *nctas, *nread;
	const struct weft_est_ci_rep *rep;
	double confidence; /* in (0, 1) */
	enum weft_est_ci_method method; /* what rep holds: groups or jackknife replicates */
};

/* Fills r->configs[i].ci[] for every config from the report's figures
 * (totals and launches, ratios against r->baseline) and the groups'
 * replays; sets r->has_ci and r->confidence. */
int weft_est_ci_compute(struct weft_est_report *r, const struct weft_est_ci_input *in,
			struct weft_error *err);

/* The largest relative half-width (half / |value|) over every config's
 * intervals (INFINITY when one is not estimable; ratios of the baseline to
 * itself are exact and count 0). */
double weft_est_ci_worst(const struct weft_est_report *r);

/* The intervals' provenance in words: "95% intervals (Student t, random
 * groups: 10 per launch; 1024 of 16384 CTAs read; sampled until +-2%
 * in 3 rounds)". "" when r has none. */
void weft_est_ci_describe(const struct weft_est_report *r, char *buf, size_t len);

#endif
