/*
 * trace_sample.c - CTA sampling (trace.h): which CTAs of a launch a
 * consumer reads, and the string it records so that its results say so.
 *
 * Random subsets use Knuth's selection sampling (TAOCP vol. 2, 3.4.2,
 * Algorithm S): one pass over the CTA ids, each taken with probability
 * needed/remaining, which yields exactly `count` distinct ids already in
 * increasing order. The random numbers come from splitmix64 (Steele, Lea,
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014)
 * seeded with the given seed, so a (seed, count, nctas) triple always
 * selects the same CTAs on every platform.
 *
 * Random groups (for interval estimates): the n selected CTAs are shuffled
 * by Fisher-Yates (TAOCP vol. 2, 3.4.2, Algorithm P) with splitmix64 seeded
 * from the seed mixed with a constant, and cut into G = min(groups, n)
 * consecutive runs of the shuffled order with sizes differing by at most
 * one; group g keeps run g mod G, sorted back into increasing order. Each
 * group is then a simple random sample of its launch, disjoint from the
 * others, and the groups together are the whole sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

uint32_t weft_cta_sample_select(const struct weft_cta_sample *s, uint32_t nctas, uint32_t *ctas)
{
	uint32_t n = 0;
	if (!s || s->kind == WEFT_SAMPLE_ALL) {
		for (uint32_t i = 0; i < nctas; i++)
			ctas[n++] = i;
		return n;
	}
	if (s->kind == WEFT_SAMPLE_EVERY) {
		uint32_t k = s->every ? s->every : 1;
		for (uint64_t i = 0; i < nctas; i += k)
			ctas[n++] = (uint32_t)i;
		return n;
	}
	uint32_t want = s->count < nctas ? s->count : nctas;
	uint64_t st = s->seed;
	for (uint32_t i = 0; i < nctas && n < want; i++) {
		uint64_t left = (uint64_t)nctas - i;
		/* modulo bias is below left / 2^64: negligible */
		if (splitmix64(&st) % left < (uint64_t)(want - n))
			ctas[n++] = i;
	}
	if (s->groups < 2 || n < 2)
		return n;
	/* shuffle in place, keep run g, sorted */
	uint64_t gs = s->seed ^ 0x6a09e667f3bcc908ull; /* sqrt(2)'s fraction: any fixed constant */
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(splitmix64(&gs) % ((uint64_t)i + 1));
		uint32_t x = ctas[i];
		ctas[i] = ctas[j];
		ctas[j] = x;
	}
	uint32_t G = s->groups < n ? s->groups : n, g = s->group % G;
	uint32_t lo = (uint32_t)((uint64_t)n * g / G), hi = (uint32_t)((uint64_t)n * (g + 1) / G);
	uint32_t m = hi - lo;
	if (s->drop) { /* every run but g */
		memmove(ctas + lo, ctas + hi, (size_t)(n - hi) * sizeof(*ctas));
		m = n - m;
	} else {
		memmove(ctas, ctas + lo, (size_t)m * sizeof(*ctas));
	}
	qsort(ctas, m, sizeof(*ctas), cmp_u32);
	return m;
}

uint32_t weft_cta_sample_size(const struct weft_cta_sample *s, uint32_t nctas)
{
	if (!s || s->kind == WEFT_SAMPLE_ALL)
		return nctas;
	if (s->kind == WEFT_SAMPLE_EVERY) {
		uint32_t k = s->every ? s->every : 1;
		return (uint32_t)(((uint64_t)nctas + k - 1) / k);
	}
	return s->count < nctas ? s->count : nctas;
}

void weft_cta_sample_describe(const struct weft_cta_sample *s, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	if (!s || s->kind == WEFT_SAMPLE_ALL)
		snprintf(buf, len, "all CTAs");
	else if (s->kind == WEFT_SAMPLE_EVERY)
		snprintf(buf, len, "every %u%s CTA (CTA 0, %u, ...)", s->every ? s->every : 1,
			 (s->every ? s->every : 1) % 10 == 1 && (s->every ? s->every : 1) % 100 != 11 ? "st"
			 : (s->every % 10 == 2 && s->every % 100 != 12)                            ? "nd"
			 : (s->every % 10 == 3 && s->every % 100 != 13)                            ? "rd"
												   : "th",
			 s->every ? s->every : 1);
	else if (s->groups >= 2)
		snprintf(buf, len, "random %u CTAs (seed %llu), %s %u of %u", s->count,
			 (unsigned long long)s->seed, s->drop ? "all but group" : "group", s->group,
			 s->groups);
	else
		snprintf(buf, len, "random %u CTAs (seed %llu)", s->count, (unsigned long long)s->seed);
	size_t n = strlen(buf);
	if (s && s->kind != WEFT_SAMPLE_ALL && s->warm && n < len)
		snprintf(buf + n, len - n,
			 s->warm_window == WEFT_WARM_WINDOW_GRID ? " with warming (grid-neighbour window)"
			 : s->warm_window                        ? " with warming (window %u CTAs)"
								 : " with warming",
			 s->warm_window);
}

uint32_t weft_cta_sample_window(const struct weft_cta_sample *s, struct weft_dim3 g, uint32_t nctas)
{
	if (!s || s->warm_window != WEFT_WARM_WINDOW_GRID)
		return s ? s->warm_window : 0;
	uint64_t w = 1;
	if (g.y > 1)
		w += g.x;
	if (g.z > 1)
		w += (uint64_t)g.x * g.y;
	if (w > nctas)
		w = nctas ? nctas : 1;
	return (uint32_t)w;
}

void weft_cta_sample_fill_range(uint32_t first, uint32_t W, uint32_t fill, uint32_t *start, uint32_t *end)
{
	uint32_t e = first > W ? first - W : 0; /* the first window's start */
	*start = e > fill ? e - fill : 0;
	*end = e > fill ? e : fill;
}
