/*
 * footprint.c - memory footprint of a trace (analysis.h): accesses, bytes,
 * and the distinct 128-byte lines and 4-byte words touched, per resolved
 * state space. Lines are kept in an open-addressing hash table (linear
 * probing, grown at half load) with a 32-bit mask of the words touched in
 * each, so memory is proportional to the footprint (12 bytes per line
 * slot), not to the trace. struct weft_addrset is the plain set of keys.
 *
 * Shared and local addresses name per-CTA (per-thread) storage, so their
 * distinct counts are taken within one CTA and summed over CTAs
 * (weft_footprint_cta_end); global, const and param are counted over the
 * whole launch.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

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

/* ---- line map ---------------------------------------------------------- */

static void lm_put(uint64_t *keys, uint32_t *masks, uint64_t cap, uint64_t key, uint32_t mask)
{
	uint64_t i = mix(key) & (cap - 1);
	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	masks[i] |= mask;
}

/* ORs mask into line l's entry (creating it). */
static int lm_add(struct weft_linemap *m, uint64_t l, uint32_t mask)
{
	uint64_t key = l + 1; /* 0 marks an empty slot; line indices stay below 2^57 */
	if (2 * (m->n + 1) > m->cap) {
		uint64_t ncap = m->cap ? 2 * m->cap : 1024;
		uint64_t *nk = calloc(ncap, sizeof(uint64_t));
		uint32_t *nm = calloc(ncap, sizeof(uint32_t));
		if (!nk || !nm) {
			free(nk), free(nm);
			return WEFT_ERR_NOMEM;
		}
		for (uint64_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				lm_put(nk, nm, ncap, m->keys[i], m->masks[i]);
		free(m->keys), free(m->masks);
		m->keys = nk;
		m->masks = nm;
		m->cap = ncap;
	}
	uint64_t i = mix(key) & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->n++;
	}
	m->masks[i] |= mask;
	return 0;
}

static uint64_t lm_words(const struct weft_linemap *m)
{
	uint64_t w = 0;
	for (uint64_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			w += (uint64_t)__builtin_popcount(m->masks[i]);
	return w;
}

static void lm_clear(struct weft_linemap *m)
{
	if (m->keys) {
		memset(m->keys, 0, m->cap * sizeof(uint64_t));
		memset(m->masks, 0, m->cap * sizeof(uint32_t));
	}
	m->n = 0;
}

/* ---- footprint ----------------------------------------------------------- */

void weft_footprint_init(struct weft_footprint *f)
{
	memset(f, 0, sizeof(*f));
}

static int per_cta(unsigned sp)
{
	return sp == WEFT_SPACE_SHARED || sp == WEFT_SPACE_LOCAL;
}

#define WORDS_PER_LINE (WEFT_FOOTPRINT_LINE / WEFT_FOOTPRINT_WORD)

int weft_footprint_add(struct weft_footprint *f, unsigned space, uint64_t addr, unsigned bytes)
{
	if (space >= WEFT_SPACE_COUNT)
		space = WEFT_SPACE_GENERIC;
	f->accesses[space]++;
	f->bytes[space] += bytes;
	uint64_t w0 = addr / WEFT_FOOTPRINT_WORD;
	uint64_t w1 = (addr + (bytes ? bytes - 1 : 0)) / WEFT_FOOTPRINT_WORD;
	for (uint64_t l = w0 / WORDS_PER_LINE; l <= w1 / WORDS_PER_LINE; l++) {
		uint64_t lo = l * WORDS_PER_LINE, hi = lo + WORDS_PER_LINE - 1;
		uint64_t a = w0 > lo ? w0 : lo, b = w1 < hi ? w1 : hi;
		uint32_t mask = 0;
		for (uint64_t w = a; w <= b; w++)
			mask |= 1u << (w - lo);
		if (lm_add(&f->map[space], l, mask))
			return WEFT_ERR_NOMEM;
	}
	return 0;
}

void weft_footprint_cta_end(struct weft_footprint *f)
{
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		if (!per_cta(sp))
			continue;
		f->lines[sp] += f->map[sp].n;
		f->words[sp] += lm_words(&f->map[sp]);
		lm_clear(&f->map[sp]);
	}
}

void weft_footprint_finish(struct weft_footprint *f)
{
	weft_footprint_cta_end(f);
	for (unsigned sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		if (per_cta(sp))
			continue;
		f->lines[sp] = f->map[sp].n;
		f->words[sp] = lm_words(&f->map[sp]);
	}
}

void weft_footprint_free(struct weft_footprint *f)
{
	for (int sp = 0; sp < WEFT_SPACE_COUNT; sp++) {
		free(f->map[sp].keys);
		free(f->map[sp].masks);
	}
	memset(f, 0, sizeof(*f));
}
