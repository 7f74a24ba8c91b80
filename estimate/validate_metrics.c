/*
 * validate_metrics.c - the arithmetic of weft-validate (validate.h): the
 * published value and band as written in a claims file, a kernel's figure
 * from its summed launches, the aggregates over kernels, trends, bands,
 * and the judgement of one claim. Pure functions: no trace, no model, so
 * the unit tests pin them on synthetic figures.
 */
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "validate_impl.h"

static const char *const metric_names[] = { "speedup", "ipj_ratio", "energy_share", "area",
					    "area_ratio" };
static const char *const agg_names[] = { "-", "kernel", "mean", "geomean", "min",
					 "max", "range", "trend" };

const char *weft_val_metric_name(enum weft_val_metric m)
{
	return (unsigned)m < sizeof(metric_names) / sizeof(metric_names[0]) ? metric_names[m] : "?";
}

const char *weft_val_agg_name(enum weft_val_agg a)
{
	return (unsigned)a < sizeof(agg_names) / sizeof(agg_names[0]) ? agg_names[a] : "?";
}

const char *weft_val_verdict_name(enum weft_val_verdict v)
{
	return v == WEFT_VAL_IN ? "yes" : v == WEFT_VAL_OUT ? "no" : "unknown";
}

/* A finite number filling s[0..n) exactly, without surrounding spaces. */
static int number(const char *s, size_t n, double *out)
{
	if (n == 0 || s[0] == ' ' || s[n - 1] == ' ')
		return -1;
	return weft_est_parse_number(s, n, out);
}

int weft_val_parse_published(const char *s, enum weft_val_pub *kind, double v[2],
			     const char **why)
{
	static const struct {
		const char *word;
		enum weft_val_pub kind;
	} trends[] = {
		{ "increasing", WEFT_VAL_PUB_INCREASING },
		{ "non-decreasing", WEFT_VAL_PUB_NONDECREASING },
		{ "decreasing", WEFT_VAL_PUB_DECREASING },
		{ "non-increasing", WEFT_VAL_PUB_NONINCREASING },
	};
	v[0] = v[1] = NAN;
	for (size_t i = 0; i < sizeof(trends) / sizeof(trends[0]); i++)
		if (strcmp(s, trends[i].word) == 0) {
			*kind = trends[i].kind;
			return 0;
		}
	size_t n = strlen(s);
	if (s[0] == '<' || s[0] == '>') {
		if (number(s + 1, n - 1, &v[0]) < 0) {
			*why = "write <X or >X with a number X (e.g. <1: slower than the baseline)";
			return -1;
		}
		*kind = s[0] == '<' ? WEFT_VAL_PUB_BELOW : WEFT_VAL_PUB_ABOVE;
		return 0;
	}
	/* LOW-HIGH: the '-' after the first character (values are positive) */
	const char *dash = n > 1 ? strchr(s + 1, '-') : NULL;
	/* not the sign of an exponent (1e-3) */
	while (dash && (dash[-1] == 'e' || dash[-1] == 'E'))
		dash = strchr(dash + 1, '-');
	if (dash) {
		if (number(s, (size_t)(dash - s), &v[0]) < 0 ||
		    number(dash + 1, n - (size_t)(dash + 1 - s), &v[1]) < 0) {
			*why = "a range is LOW-HIGH with two numbers (e.g. 1.2-5.7)";
			return -1;
		}
		if (!(v[0] > 0) || !(v[1] > v[0])) {
			*why = "a range needs 0 < LOW < HIGH (e.g. 1.2-5.7)";
			return -1;
		}
		*kind = WEFT_VAL_PUB_RANGE;
		return 0;
	}
	if (number(s, n, &v[0]) < 0) {
		*why = "write a number (1.77), a range (1.2-5.7), a direction (<1, >1) or a trend "
		       "(increasing, non-decreasing, decreasing, non-increasing)";
		return -1;
	}
	if (!(v[0] > 0)) {
		*why = "a published value must be > 0 (ratios, shares and areas are positive)";
		return -1;
	}
	*kind = WEFT_VAL_PUB_VALUE;
	return 0;
}

int weft_val_parse_band(const char *s, enum weft_val_band *kind, double *factor, const char **why)
{
	if (strcmp(s, "direction") == 0) {
		*kind = WEFT_VAL_BAND_DIRECTION;
		*factor = NAN;
		return 0;
	}
	double f;
	if (s[0] != 'x' || number(s + 1, strlen(s) - 1, &f) < 0 || !(f > 1)) {
		*why = "write xF with a factor F > 1 (x1.5: within a factor 1.5 either way) or "
		       "direction";
		return -1;
	}
	*kind = WEFT_VAL_BAND_FACTOR;
	*factor = f;
	return 0;
}

static double ratio(double a, double b)
{
	if (b == 0 || !isfinite(a) || !isfinite(b))
		return NAN;
	return a / b;
}

double weft_val_item_figure(enum weft_val_metric metric, int category,
			    const struct weft_val_sums *base, const struct weft_val_sums *cfg)
{
	if (!cfg || cfg->nlaunches == 0)
		return NAN;
	switch (metric) {
	case WEFT_VAL_SPEEDUP:
		if (!base || base->nlaunches == 0 || cfg->seconds <= 0)
			return NAN;
		return ratio(base->seconds, cfg->seconds);
	case WEFT_VAL_IPJ_RATIO:
		if (!base || base->nlaunches == 0)
			return NAN;
		return ratio(ratio(cfg->insts, cfg->energy_j), ratio(base->insts, base->energy_j));
	case WEFT_VAL_ENERGY_SHARE:
		if (category < 0 || category >= WEFT_CAT_COUNT)
			return NAN;
		return ratio(cfg->cat_j[category], cfg->energy_j);
	default:
		return NAN;
	}
}

uint32_t weft_val_aggregate(enum weft_val_agg agg, const double *x, uint32_t n, double v[2])
{
	v[0] = v[1] = NAN;
	if (n == 0)
		return agg == WEFT_VAL_AGG_RANGE ? 2 : 1;
	int bad = 0;
	double sum = 0, logs = 0, lo = INFINITY, hi = -INFINITY;
	for (uint32_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			bad = 1;
		sum += x[i];
		logs += x[i] > 0 ? log(x[i]) : NAN;
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	switch (agg) {
	case WEFT_VAL_AGG_NONE:
	case WEFT_VAL_AGG_KERNEL:
		v[0] = x[0];
		return 1;
	case WEFT_VAL_AGG_MEAN:
		v[0] = bad ? NAN : sum / n;
		return 1;
	case WEFT_VAL_AGG_GEOMEAN:
		v[0] = bad || !isfinite(logs) ? NAN : exp(logs / n);
		return 1;
	case WEFT_VAL_AGG_MIN:
		v[0] = bad ? NAN : lo;
		return 1;
	case WEFT_VAL_AGG_MAX:
		v[0] = bad ? NAN : hi;
		return 1;
	case WEFT_VAL_AGG_RANGE:
		v[0] = bad ? NAN : lo;
		v[1] = bad ? NAN : hi;
		return 2;
	default:
		return 1;
	}
}

int weft_val_trend_holds(enum weft_val_pub kind, const double *x, uint32_t n)
{
	if (n < 2)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -1;
	for (uint32_t i = 1; i < n; i++) {
		double a = x[i - 1], b = x[i];
		int ok = kind == WEFT_VAL_PUB_INCREASING      ? b > a
			 : kind == WEFT_VAL_PUB_NONDECREASING ? b >= a
			 : kind == WEFT_VAL_PUB_DECREASING    ? b < a
			 : kind == WEFT_VAL_PUB_NONINCREASING ? b <= a
							      : -1;
		if (ok != 1)
			return ok;
	}
	return 1;
}

int weft_val_in_factor(double r, double factor)
{
	if (!isfinite(r) || !(factor > 1))
		return 0;
	return r <= factor * (1 + 1e-12) && r >= (1 / factor) * (1 - 1e-12);
}

void weft_val_num(char *out, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.4g", v);
}

void weft_val_judge(const struct weft_val_claim *c, const double *x, uint32_t n,
		    struct weft_val_result *r)
{
	char a[32], b[32];
	r->ratio[0] = r->ratio[1] = NAN;
	r->value[0] = r->value[1] = NAN;
	r->verdict = WEFT_VAL_UNKNOWN;
	if (c->agg == WEFT_VAL_AGG_TREND) {
		r->nvalues = 0;
		int h = weft_val_trend_holds(c->pub, x, n);
		r->verdict = h < 0 ? WEFT_VAL_UNKNOWN : h ? WEFT_VAL_IN : WEFT_VAL_OUT;
		int falling = c->pub == WEFT_VAL_PUB_DECREASING || c->pub == WEFT_VAL_PUB_NONINCREASING;
		uint32_t steps = 0;
		for (uint32_t i = 1; i < n; i++)
			steps += falling ? x[i] < x[i - 1] : x[i] > x[i - 1];
		weft_val_num(a, sizeof(a), n ? x[0] : NAN);
		weft_val_num(b, sizeof(b), n ? x[n - 1] : NAN);
		snprintf(r->value_text, sizeof(r->value_text), "%s..%s (%u/%u %s)", a, b, steps,
			 n ? n - 1 : 0, falling ? "down" : "up");
		return;
	}
	r->nvalues = weft_val_aggregate(c->agg, x, n, r->value);
	if (r->nvalues == 2) {
		weft_val_num(a, sizeof(a), r->value[0]);
		weft_val_num(b, sizeof(b), r->value[1]);
		snprintf(r->value_text, sizeof(r->value_text), "%s-%s", a, b);
	} else {
		weft_val_num(r->value_text, sizeof(r->value_text), r->value[0]);
	}
	if (!isfinite(r->value[0]) || (r->nvalues == 2 && !isfinite(r->value[1])))
		return;
	switch (c->pub) {
	case WEFT_VAL_PUB_VALUE:
		r->ratio[0] = ratio(r->value[0], c->pub_v[0]);
		r->verdict = weft_val_in_factor(r->ratio[0], c->factor) ? WEFT_VAL_IN : WEFT_VAL_OUT;
		break;
	case WEFT_VAL_PUB_RANGE:
		r->ratio[0] = ratio(r->value[0], c->pub_v[0]);
		r->ratio[1] = ratio(r->value[1], c->pub_v[1]);
		r->verdict = weft_val_in_factor(r->ratio[0], c->factor) &&
					     weft_val_in_factor(r->ratio[1], c->factor)
				     ? WEFT_VAL_IN
				     : WEFT_VAL_OUT;
		break;
	case WEFT_VAL_PUB_BELOW:
		r->verdict = r->value[0] < c->pub_v[0] ? WEFT_VAL_IN : WEFT_VAL_OUT;
		break;
	case WEFT_VAL_PUB_ABOVE:
		r->verdict = r->value[0] > c->pub_v[0] ? WEFT_VAL_IN : WEFT_VAL_OUT;
		break;
	default:
		break;
	}
}
