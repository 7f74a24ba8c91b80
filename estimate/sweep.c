/*
 * sweep.c - parsing `--sweep [CONFIG:]sec.key=LIST` (lists and ranges), the
 * index arithmetic of a cartesian product, and "did you mean" for a swept
 * key no config has (sweep.h; rules in docs/estimate.md "Sweeps").
 */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "models/model.h"

#define SWEEP_EXAMPLE "e.g. --sweep fabric.token_buffer=1,2,4,8 or --sweep fabric.token_buffer=1:32:x2"

void weft_est_sweep_free(struct weft_est_sweep *s)
{
	if (!s)
		return;
	free(s->values);
	memset(s, 0, sizeof(*s));
}

static int add_value(struct weft_est_sweep *s, const char *v, size_t len, uint32_t *cap,
		     struct weft_error *err)
{
	if (len == 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: an empty value in the list; %s",
				      s->spec, SWEEP_EXAMPLE);
	if (len >= WEFT_EST_SWEEP_VALUE_MAX)
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: value `%.*s` is longer than %d characters",
				      s->spec, (int)len, v, WEFT_EST_SWEEP_VALUE_MAX - 1);
	if (s->nvalues >= WEFT_EST_MAX_SWEEP_VALUES)
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: more than %d values",
				      s->spec, WEFT_EST_MAX_SWEEP_VALUES);
	for (uint32_t i = 0; i < s->nvalues; i++)
		if (strlen(s->values[i]) == len && strncmp(s->values[i], v, len) == 0)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--sweep %s: value `%.*s` is listed twice; each point must differ",
					      s->spec, (int)len, v);
	if (s->nvalues == *cap) {
		uint32_t nc = *cap ? 2 * *cap : 16;
		void *nv = realloc(s->values, (size_t)nc * sizeof(*s->values));
		if (!nv)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for --sweep %s", s->spec);
		s->values = nv;
		*cap = nc;
	}
	memcpy(s->values[s->nvalues], v, len);
	s->values[s->nvalues][len] = 0;
	s->nvalues++;
	return 0;
}

int weft_est_parse_number(const char *s, size_t len, double *out)
{
	char buf[64];
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || errno || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* START:END:xFACTOR or START:END:+STEP (item has two colons). */
static int add_range(struct weft_est_sweep *s, const char *item, size_t len, uint32_t *cap,
		     struct weft_error *err)
{
	const char *c1 = memchr(item, ':', len);
	const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item)) : NULL;
	double a, b, step;
	int geo = c2 && c2 + 1 < item + len && c2[1] == 'x';
	int ari = c2 && c2 + 1 < item + len && c2[1] == '+';
	if (!c2 || (!geo && !ari) || weft_est_parse_number(item, (size_t)(c1 - item), &a) ||
	    weft_est_parse_number(c1 + 1, (size_t)(c2 - c1 - 1), &b) ||
	    weft_est_parse_number(c2 + 2, (size_t)(item + len - c2 - 2), &step))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sweep %s: bad range `%.*s`; a range is START:END:xFACTOR "
				      "(1:32:x2 = 1,2,4,...,32) or START:END:+STEP (1:16:+1)",
				      s->spec, (int)len, item);
	if (b < a)
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: range `%.*s` ends before it starts",
				      s->spec, (int)len, item);
	if (geo && (step <= 1 || a <= 0))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sweep %s: range `%.*s` needs a factor > 1 and a start > 0",
				      s->spec, (int)len, item);
	if (ari && step <= 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: range `%.*s` needs a step > 0",
				      s->spec, (int)len, item);
	/* tolerance so 0.1:0.5:+0.1 reaches 0.5 despite rounding */
	double lim = b + fabs(b) * 1e-9;
	for (uint32_t k = 0;; k++) {
		double v = geo ? a * pow(step, k) : a + step * k;
		if (v > lim)
			break;
		if (k >= WEFT_EST_MAX_SWEEP_VALUES)
			return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: range `%.*s` has more than %d values",
					      s->spec, (int)len, item, WEFT_EST_MAX_SWEEP_VALUES);
		char buf[64];
		int n = snprintf(buf, sizeof(buf), "%.10g", v);
		int rc = add_value(s, buf, (size_t)n, cap, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int weft_est_parse_sweep(const char *spec, struct weft_est_sweep *s, struct weft_error *err)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->spec, sizeof(s->spec), "%s", spec);
	const char *eq = strchr(spec, '=');
	const char *colon = strchr(spec, ':');
	const char *body = spec;
	if (colon && eq && colon < eq) {
		if (colon == spec || (size_t)(colon - spec) >= sizeof(s->target))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--sweep %s: bad config name before `:`; %s", spec,
					      SWEEP_EXAMPLE);
		snprintf(s->target, sizeof(s->target), "%.*s", (int)(colon - spec), spec);
		body = colon + 1;
	}
	const char *dot = strchr(body, '.');
	if (!eq || !dot || dot > eq || dot == body || dot + 1 == eq)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "--sweep %s: expected [CONFIG:]section.key=v1,v2,...; %s", spec,
				      SWEEP_EXAMPLE);
	if ((size_t)(dot - body) >= sizeof(s->section) || (size_t)(eq - dot - 1) >= sizeof(s->key))
		return weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: section or key name too long",
				      spec);
	snprintf(s->section, sizeof(s->section), "%.*s", (int)(dot - body), body);
	snprintf(s->key, sizeof(s->key), "%.*s", (int)(eq - dot - 1), dot + 1);
	const char *p = eq + 1;
	if (!*p) {
		weft_error_set(err, WEFT_ERR_INPUT, "--sweep %s: no values after `=`; %s", spec,
			       SWEEP_EXAMPLE);
		return WEFT_ERR_INPUT;
	}
	uint32_t cap = 0;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		int rc = memchr(p, ':', len) ? add_range(s, p, len, &cap, err)
					     : add_value(s, p, len, &cap, err);
		if (rc < 0) {
			weft_est_sweep_free(s);
			return rc;
		}
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}

void weft_est_sweep_point(const uint32_t *counts, uint32_t n, uint64_t k, uint32_t *idx)
{
	/* mixed radix, the last sweep the fastest digit */
	for (uint32_t i = n; i-- > 0;) {
		uint32_t c = counts[i] ? counts[i] : 1;
		idx[i] = (uint32_t)(k % c);
		k /= c;
	}
}

static void consider(const struct weft_config_key *keys, const char *typed, const char *key,
		     char *best, size_t blen, unsigned *bestd)
{
	char cand[160];
	for (const struct weft_config_key *k = keys; k && k->section; k++) {
		if (strcmp(k->section, "model") == 0)
			continue; /* [model] name cannot be swept */
		snprintf(cand, sizeof(cand), "%s.%s", k->section, k->key);
		unsigned d = weft_edit_distance(typed, cand);
		unsigned d2 = weft_edit_distance(key, k->key); /* the right key in the wrong section */
		if (d2 < d)
			d = d2;
		if (d < *bestd) {
			*bestd = d;
			snprintf(best, blen, "%s", cand);
		}
	}
}

void weft_est_sweep_suggest(const char *section, const char *key, const char *const *models,
			    uint32_t nmodels, char *buf, size_t len)
{
	char typed[160], best[160] = "";
	unsigned bestd = WEFT_EDIT_FAR;
	snprintf(typed, sizeof(typed), "%s.%s", section, key);
	consider(weft_config_common_keys, typed, key, best, sizeof(best), &bestd);
	for (uint32_t i = 0; i < nmodels; i++) {
		const struct weft_model *m = weft_model_find(models[i]);
		if (m)
			consider(m->keys, typed, key, best, sizeof(best), &bestd);
	}
	if (best[0] && weft_edit_close(typed, best, bestd)) {
		snprintf(buf, len, "; did you mean %s?", best);
		return;
	}
	size_t off = (size_t)snprintf(buf, len, "; the configs' sections are: [model] [tech]");
	for (uint32_t i = 0; i < nmodels && off < len; i++) {
		const struct weft_model *m = weft_model_find(models[i]);
		for (const struct weft_config_key *k = m ? m->keys : NULL; k && k->section && off < len; k++) {
			if (k != m->keys && strcmp(k[-1].section, k->section) == 0)
				continue;
			char sec[72];
			snprintf(sec, sizeof(sec), " [%s]", k->section);
			if (!strstr(buf, sec))
				off += (size_t)snprintf(buf + off, len - off, "%s", sec);
		}
	}
	if (off < len)
		snprintf(buf + off, len - off, " (weft-estimate --help; docs/models/)");
}
