/*
 * shard.c - `--shard K/N` parsed, and the one-process trace-read count a
 * shard records for its run (shard.h). Which points a shard runs is
 * weft_est_shard_owns (shard.h): point i belongs to shard i mod N.
 */
#include "shard.h"

#include <stdio.h>
#include <string.h>

#define SHARD_RULE "give K/N with 0 <= K < N: the K-th of N slices, counted from 0 (e.g. --shard 0/4 ... --shard 3/4)"

/* A decimal number of 1 to 9 digits, nothing else; -1 otherwise. */
static int64_t digits(const char *s, size_t len)
{
	if (len == 0 || len > 9)
		return -1;
	int64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int weft_est_parse_shard(const char *s, uint32_t *k, uint32_t *n, struct weft_error *err)
{
	const char *slash = strchr(s, '/');
	int64_t a = slash ? digits(s, (size_t)(slash - s)) : -1;
	int64_t b = slash ? digits(slash + 1, strlen(slash + 1)) : -1;
	if (a < 0 || b < 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "bad --shard `%s`; %s", s, SHARD_RULE);
	if (b == 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "--shard %s: N must be at least 1; %s", s,
				      SHARD_RULE);
	if (b > WEFT_EST_MAX_SHARDS)
		return weft_error_set(err, WEFT_ERR_INPUT, "--shard %s: at most %d shards (a run has at "
				      "most %d points)", s, WEFT_EST_MAX_SHARDS, WEFT_EST_MAX_POINTS);
	if (a >= b)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--shard %s: K must be less than N (shards are numbered 0 to %lld)",
				      s, (long long)b - 1);
	*k = (uint32_t)a;
	*n = (uint32_t)b;
	return 0;
}

uint32_t weft_est_model_passes(const struct weft_model *m, uint32_t npoints, uint32_t nlaunches)
{
	/* models/model_many.c: run_each for a model without the per-CTA ops
	 * or a single config (one read each); otherwise one shared read,
	 * which happens when some launch feeds CTAs (in a fresh process every
	 * launch 0 does: no replay cache holds anything yet) */
	if (npoints == 0)
		return 0;
	int cta_ops = m && m->begin_launch && m->consume_cta && m->end_launch;
	if (!cta_ops || npoints == 1)
		return npoints;
	return nlaunches ? 1 : 0;
}
