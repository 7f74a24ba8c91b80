/*
 * sample_ci.c - the intervals of a sampled estimate (sample_ci.h): random
 * groups per launch, replicates by substituting one launch's figures,
 * finite-population correction, Satterthwaite degrees of freedom and the
 * Student t quantile from GSL.
 */
#include "sample_ci.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "estimate.h"

const char *const weft_est_ci_keys[WEFT_CI_COUNT] = {
	"cycles", "time_s", "thread_insts", "energy_total_j", "insts_per_j", "speedup",
	"insts_per_j_ratio", "energy_ratio",
};

/* A configuration's totals as the intervals see them. */
struct tot {
	double cycles, insts, energy, clock;
};

static double metric(int m, const struct tot *c, const struct tot *b)
{
	double sc = c->clock > 0 ? c->cycles / c->clock : NAN;
	double sb = b->clock > 0 ? b->cycles / b->clock : NAN;
	switch (m) {
	case WEFT_CI_CYCLES:
		return c->cycles;
	case WEFT_CI_SECONDS:
		return sc;
	case WEFT_CI_INSTS:
		return c->insts;
	case WEFT_CI_ENERGY:
		return c->energy;
	case WEFT_CI_INSTS_PER_J:
		return c->energy > 0 ? c->insts / c->energy : NAN;
	case WEFT_CI_SPEEDUP:
		return sc > 0 ? sb / sc : NAN;
	case WEFT_CI_IPJ_RATIO:
		return c->energy > 0 && b->energy > 0 && b->insts > 0
			       ? (c->insts / c->energy) / (b->insts / b->energy)
			       : NAN;
	case WEFT_CI_ENERGY_RATIO:
		return b->energy > 0 ? c->energy / b->energy : NAN;
	}
	return NAN;
}

static struct tot totals_of(const struct weft_est_config *c)
{
	struct tot t = { c->total.cycles, (double)c->total.thread_insts, c->total.energy_total_j,
			 c->clock_hz };
	return t;
}

/* t with launch h's figures replaced by a group's */
static struct tot substitute(struct tot t, const struct weft_est_figures *full,
			     const struct weft_est_ci_rep *g)
{
	t.cycles += g->cycles - full->cycles;
	t.insts += g->insts - (double)full->thread_insts;
	t.energy += g->energy - full->energy_total_j;
	return t;
}

/* metric m of config i against the baseline when launch h's figures are
 * replaced, in both, by replicate g's */
static double replicate(const struct weft_est_report *r, const struct weft_est_ci_input *in, uint32_t i,
			uint32_t h, uint32_t g, int m, const struct tot *tc, const struct tot *tb)
{
	const uint32_t L = in->nlaunches, G = WEFT_EST_CI_GROUPS;
	const struct weft_est_ci_rep *rc = &in->rep[((size_t)i * L + h) * G + g];
	const struct weft_est_ci_rep *rb = &in->rep[((size_t)r->baseline * L + h) * G + g];
	struct tot sc = substitute(*tc, &r->configs[i].launches[h], rc);
	struct tot sb = substitute(*tb, &r->configs[r->baseline].launches[h], rb);
	return metric(m, &sc, &sb);
}

/* Replicate g's deviation for launch h: theta_hg - theta for a group;
 * for the jackknife the pseudo-value's, (G_h - 1)(theta - theta_(hg)),
 * whose squares sum to the jackknife variance about theta (sample_ci.h). */
static double group_delta(const struct weft_est_report *r, const struct weft_est_ci_input *in,
			  uint32_t i, uint32_t h, uint32_t g, int m, const struct tot *tc,
			  const struct tot *tb, double theta)
{
	double d = replicate(r, in, i, h, g, m, tc, tb) - theta;
	if (in->method == WEFT_CI_METHOD_JACKKNIFE) {
		uint32_t n = in->nread[h], Gh = n < WEFT_EST_CI_GROUPS ? n : WEFT_EST_CI_GROUPS;
		d *= -(double)(Gh - 1);
	}
	return d;
}

static void interval(struct weft_est_interval *iv, double value, double v, double dfden,
		     int inestimable, double confidence)
{
	iv->value = value;
	if (!isfinite(value) || inestimable) {
		iv->half = iv->lo = iv->hi = iv->df = NAN;
		return;
	}
	if (v <= 0) {
		iv->half = 0;
		iv->lo = iv->hi = value;
		iv->df = INFINITY;
		return;
	}
	iv->df = dfden > 0 ? v * v / dfden : INFINITY;
	double q = isfinite(iv->df) ? gsl_cdf_tdist_Pinv(0.5 + confidence / 2, iv->df)
				    : gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
	iv->half = q * sqrt(v);
	iv->lo = value - iv->half;
	iv->hi = value + iv->half;
}

int weft_est_ci_compute(struct weft_est_report *r, const struct weft_est_ci_input *in,
			struct weft_error *err)
{
	if (!(in->confidence > 0 && in->confidence < 1))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "confidence level %g is not between 0 and 1 (e.g. 0.95)",
				      in->confidence);
	if (r->baseline >= r->nconfigs)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "intervals: no baseline");
	const uint32_t L = in->nlaunches, G = WEFT_EST_CI_GROUPS;
	const struct weft_est_config *bc = &r->configs[r->baseline];
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		struct weft_est_config *c = &r->configs[i];
		if (c->nlaunches != L || bc->nlaunches != L)
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "intervals: config %s has %u launches, the trace %u",
					      c->name, c->nlaunches, L);
		struct tot tc = totals_of(c), tb = totals_of(bc);
		for (int m = 0; m < WEFT_CI_COUNT; m++) {
			double theta = metric(m, &tc, &tb);
			double v = 0, dfden = 0;
			int inestimable = 0;
			/* the launches' groups correspond (the same count in every
			 * sampled launch): group g of every launch is one replicate */
			uint32_t Gj = 0;
			int joint = 1;
			for (uint32_t h = 0; h < L; h++) {
				uint32_t N = in->nctas[h], n = in->nread[h];
				if (n >= N)
					continue;
				if (n < 2) {
					inestimable = 1;
					continue;
				}
				uint32_t Gh = n < G ? n : G;
				if (Gj && Gh != Gj)
					joint = 0;
				Gj = Gh;
			}
			if (joint && Gj && !inestimable) {
				double ss = 0;
				for (uint32_t g = 0; g < Gj; g++) {
					double d = 0;
					for (uint32_t h = 0; h < L; h++) {
						uint32_t N = in->nctas[h], n = in->nread[h];
						if (n >= N)
							continue;
						d += sqrt(1.0 - (double)n / N) *
						     group_delta(r, in, i, h, g, m, &tc, &tb, theta);
					}
					ss += d * d;
				}
				v = ss / ((double)Gj * (Gj - 1));
				dfden = v * v / (Gj - 1);
				interval(&c->ci[m], theta, v, dfden, 0, in->confidence);
				continue;
			}
			for (uint32_t h = 0; h < L; h++) {
				uint32_t N = in->nctas[h], n = in->nread[h];
				if (n >= N)
					continue; /* read whole: exact */
				if (n < 2) {
					inestimable = 1;
					continue;
				}
				uint32_t Gh = n < G ? n : G;
				double ss = 0;
				for (uint32_t g = 0; g < Gh; g++) {
					double d = group_delta(r, in, i, h, g, m, &tc, &tb, theta);
					ss += d * d;
				}
				double vh = (1.0 - (double)n / N) * ss / ((double)Gh * (Gh - 1));
				v += vh;
				dfden += vh * vh / (Gh - 1);
			}
			interval(&c->ci[m], theta, v, dfden, inestimable, in->confidence);
		}
	}
	r->has_ci = 1;
	r->confidence = in->confidence;
	return 0;
}

double weft_est_ci_worst(const struct weft_est_report *r)
{
	double worst = 0;
	for (uint32_t i = 0; i < r->nconfigs; i++)
		for (int m = 0; m < WEFT_CI_COUNT; m++) {
			const struct weft_est_interval *iv = &r->configs[i].ci[m];
			if (!isfinite(iv->value))
				continue; /* an undefined figure (no energy, say) has no error */
			if (!isfinite(iv->half))
				return INFINITY;
			double rel = iv->value != 0 ? iv->half / fabs(iv->value) : (iv->half > 0 ? INFINITY : 0);
			if (rel > worst)
				worst = rel;
		}
	return worst;
}

void weft_est_ci_describe(const struct weft_est_report *r, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = 0;
	if (!r->has_ci)
		return;
	int n = snprintf(buf, len,
			 "%g%% intervals (Student t, %s: up to %u per launch; %llu of %llu CTAs read",
			 100 * r->confidence,
			 r->ci_method == WEFT_CI_METHOD_JACKKNIFE ? "delete-a-group jackknife over random groups"
								  : "random groups",
			 r->ci_groups, (unsigned long long)r->ctas_read, (unsigned long long)r->ctas_total);
	if (n > 0 && (size_t)n < len && r->until > 0)
		n += snprintf(buf + n, len - (size_t)n, "; sampled until +-%g%% in %u round%s",
			      100 * r->until, r->rounds, r->rounds == 1 ? "" : "s");
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ")");
}
