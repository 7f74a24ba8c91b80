/*
 * derive.c - the figures a report derives from a model's cycles, events'
 * joules and area, and the ratios against the baseline (estimate.h gives
 * the equations). Pure functions: no trace, no tables, so the unit tests pin
 * them with hand-computed numbers.
 */
#include "estimate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/hash.h"

/* a / b, NAN when b is zero or either is not finite */
static double ratio(double a, double b)
{
	if (b == 0 || !isfinite(a) || !isfinite(b))
		return NAN;
	return a / b;
}

void weft_est_derive(struct weft_est_figures *f, double clock_hz, double area_mm2)
{
	f->seconds = ratio(f->cycles, clock_hz);
	f->ipc = ratio((double)f->thread_insts, f->cycles);
	double e = 0;
	for (int c = 0; c < WEFT_CAT_COUNT; c++)
		e += f->energy_j[c];
	f->energy_total_j = e;
	f->power_w = ratio(e, f->seconds);
	f->insts_per_j = ratio((double)f->thread_insts, e);
	f->perf_per_area = ratio(ratio((double)f->thread_insts, f->seconds), area_mm2);
}

void weft_est_total_limiter(const struct weft_est_figures *launches, uint32_t n, char *out,
			    size_t len)
{
	/* distinct limiter names with their summed cycles, in first-seen order */
	const char *names[64];
	double cycles[64];
	uint32_t nn = 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *l = launches[i].limiter;
		if (!l[0])
			continue;
		uint32_t k = 0;
		while (k < nn && strcmp(names[k], l) != 0)
			k++;
		if (k == nn) {
			if (nn == 64)
				continue;
			names[nn] = l;
			cycles[nn++] = 0;
		}
		cycles[k] += launches[i].cycles;
	}
	uint32_t best = 0;
	for (uint32_t k = 1; k < nn; k++)
		if (cycles[k] > cycles[best])
			best = k;
	snprintf(out, len, "%s", nn ? names[best] : "");
}

static void compare(struct weft_est_figures *f, const struct weft_est_figures *b, double area,
		    double area_base)
{
	f->speedup = ratio(b->seconds, f->seconds);
	f->insts_per_j_ratio = ratio(f->insts_per_j, b->insts_per_j);
	f->energy_ratio = ratio(f->energy_total_j, b->energy_total_j);
	f->perf_per_area_ratio = f->speedup * ratio(area_base, area);
}

void weft_est_compare(struct weft_est_report *r)
{
	if (r->nconfigs == 0 || r->baseline >= r->nconfigs)
		return;
	const struct weft_est_config *b = &r->configs[r->baseline];
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		struct weft_est_config *c = &r->configs[i];
		compare(&c->total, &b->total, c->area_mm2, b->area_mm2);
		for (uint32_t l = 0; l < c->nlaunches; l++) {
			if (l < b->nlaunches) {
				compare(&c->launches[l], &b->launches[l], c->area_mm2, b->area_mm2);
			} else {
				c->launches[l].speedup = NAN;
				c->launches[l].insts_per_j_ratio = NAN;
				c->launches[l].energy_ratio = NAN;
				c->launches[l].perf_per_area_ratio = NAN;
			}
		}
	}
}

int weft_est_find_config(const struct weft_est_report *r, const char *name)
{
	for (uint32_t i = 0; i < r->nconfigs; i++)
		if (strcmp(r->configs[i].name, name) == 0)
			return (int)i;
	return -1;
}

int weft_est_parse_override(const char *s, char *target, size_t target_len, const char **assign,
			    struct weft_error *err)
{
	static const char form[] = "expected [CONFIG:]section.key=value, e.g. --set core.num_sm=4";
	target[0] = 0;
	const char *eq = strchr(s, '=');
	if (!eq)
		return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: no '=' (%s)", s, form);
	/* a ':' before the '=' separates the config name */
	const char *colon = memchr(s, ':', (size_t)(eq - s));
	const char *a = s;
	if (colon) {
		size_t n = (size_t)(colon - s);
		if (n == 0 || n >= target_len)
			return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: %s config name before ':' (%s)",
					      s, n == 0 ? "empty" : "overlong", form);
		memcpy(target, s, n);
		target[n] = 0;
		a = colon + 1;
	}
	const char *dot = memchr(a, '.', (size_t)(eq - a));
	if (!dot)
		return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: no section before the key (%s)", s,
				      form);
	if (dot == a)
		return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: empty section name (%s)", s, form);
	if (dot + 1 == eq)
		return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: empty key name (%s)", s, form);
	if (!eq[1])
		return weft_error_set(err, WEFT_ERR_INPUT, "--set %s: empty value (%s)", s, form);
	for (const char *p = a; p < eq; p++)
		if (*p == ' ' || *p == '\t')
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "--set %s: a space in the section or key name (%s)", s,
					      form);
	*assign = a;
	return 0;
}

int weft_est_hash_file(const char *path, uint64_t *hash, uint64_t *bytes, struct weft_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot open trace %s: %s (make one with `weft-trace run WORKLOAD "
				      "-o FILE.wtr`)",
				      path, strerror(errno));
	uint64_t h = WEFT_FNV1A_INIT, n = 0;
	unsigned char buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		h = weft_fnv1a(h, buf, got);
		n += got;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return weft_error_set(err, WEFT_ERR_IO, "reading trace %s failed", path);
	*hash = h;
	*bytes = n;
	return 0;
}
