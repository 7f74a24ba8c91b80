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
 */
#include <stdio.h>

#include "trace.h"

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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
	return n;
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
	else
		snprintf(buf, len, "random %u CTAs (seed %llu)", s->count, (unsigned long long)s->seed);
}
