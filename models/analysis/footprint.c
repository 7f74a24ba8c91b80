/*
 * footprint.c - memory footprint of a trace (analysis.h): accesses, bytes,
 * and the distinct 128-byte lines and 4-byte words touched, per resolved
 * state space. Sets of line/word indices are open-addressing hash tables
 * (linear probing, grown at half load), so memory is proportional to the
 * footprint, not to the trace.
 *
 * Shared and local addresses name per-CTA (per-thread) storage, so their
 * distinct counts are taken within one CTA and summed over CTAs
 * (weft_footprint_cta_end); global, const and param are counted over the
 * whole launch.
 */
#include <stdlib.h>
#include <string.h>

#include "models/analysis/analysis.h"

static uint64_t mix(uint64_t x)
{
	/* splitmix64 finaliser: spreads consecutive indices over the table */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

void weft_addrset_init(struct weft_addrset *s)
{
	memset(s, 0, sizeof(*s));
}

void weft_addrset_clear(struct weft_addrset *s)
{
	if (s->keys)
		memset(s->keys, 0, s->cap * sizeof(uint64_t));
	s->n = 0;
	s->has_zero = 0;
}

void weft_addrset_free(struct weft_addrset *s)
{
	free(s->keys);
	memset(s, 0, sizeof(*s));
}

uint64_t weft_addrset_count(const struct weft_addrset *s)
{
	return s->n + (s->has_zero ? 1 : 0);
}

static void put(uint64_t *keys, uint64_t cap, uint64_t k)
{
	uint64_t i = mix(k) & (cap - 1);
	while (keys[i] && keys[i] != k)
		i = (i + 1) & (cap - 1);
	keys[i] = k;
}

int weft_addrset_add(struct weft_addrset *s, uint64_t k)
{
	if (k == 0) { /* 0 marks an empty slot */
		s->has_zero = 1;
		return 0;
	}
	if (2 * (s->n + 1) > s->cap) {
		uint64_t ncap = s->cap ? 2 * s->cap : 1024;
		uint64_t *nk = calloc(ncap, sizeof(uint64_t));
		if (!nk)
			return WEFT_ERR_NOMEM;
		for (uint64_t i = 0; i < s->cap; i++)
			if (s->keys[i])
				put(nk, ncap, s->keys[i]);
		free(s->keys);
		s->keys = nk;
		s->cap = ncap;
	}
	uint64_t i = mix(k) & (s->cap - 1);
	while (s->keys[i]) {
		if (s->keys[i] == k)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->keys[i] = k;
	s->n++;
	return 0;
}

void weft_footprint_init(struct weft_footprint *f)
{
	memset(f, 0, sizeof(*f));
	for (int sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		weft_addrset_init(&f->line_set[sp]);
		weft_addrset_init(&f->word_set[sp]);
	}
}

static int per_cta(unsigned sp)
{
	return sp == WEFT_SPACE_SHARED || sp == WEFT_SPACE_LOCAL;
}

int weft_footprint_add(struct weft_footprint *f, unsigned space, uint64_t addr, unsigned bytes)
{
	if (space >= WEFT_SPACE_COUNT)
		space = WEFT_SPACE_GENERIC;
	f->accesses[space]++;
	f->bytes[space] += bytes;
	uint64_t last = addr + (bytes ? bytes - 1 : 0);
	for (uint64_t l = addr / WEFT_FOOTPRINT_LINE; l <= last / WEFT_FOOTPRINT_LINE; l++)
		if (weft_addrset_add(&f->line_set[space], l))
			return WEFT_ERR_NOMEM;
	for (uint64_t w = addr / WEFT_FOOTPRINT_WORD; w <= last / WEFT_FOOTPRINT_WORD; w++)
		if (weft_addrset_add(&f->word_set[space], w))
			return WEFT_ERR_NOMEM;
	return 0;
}

void weft_footprint_cta_end(struct weft_footprint *f)
{
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		if (!per_cta(sp))
			continue;
		f->lines[sp] += weft_addrset_count(&f->line_set[sp]);
		f->words[sp] += weft_addrset_count(&f->word_set[sp]);
		weft_addrset_clear(&f->line_set[sp]);
		weft_addrset_clear(&f->word_set[sp]);
	}
}

void weft_footprint_finish(struct weft_footprint *f)
{
	weft_footprint_cta_end(f);
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		if (per_cta(sp))
			continue;
		f->lines[sp] = weft_addrset_count(&f->line_set[sp]);
		f->words[sp] = weft_addrset_count(&f->word_set[sp]);
	}
}

void weft_footprint_free(struct weft_footprint *f)
{
	for (int sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		weft_addrset_free(&f->line_set[sp]);
		weft_addrset_free(&f->word_set[sp]);
	}
}
