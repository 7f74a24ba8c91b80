/*
 * cache.c - set-associative LRU tag cache (see cache.h for the policies).
 *
 * Hot path: one division for the set index (sets need not be a power of
 * two) and a scan of at most `assoc` ways. Called per transaction.
 */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

const char *weft_cache_write_name(enum weft_cache_write w)
{
	return w == WEFT_CACHE_WRITE_THROUGH ? "through" : "back";
}

int weft_cache_write_parse(const char *s, enum weft_cache_write *out)
{
	if (!strcmp(s, "back") || !strcmp(s, "write-back")) {
		*out = WEFT_CACHE_WRITE_BACK;
		return 0;
	}
	if (!strcmp(s, "through") || !strcmp(s, "write-through")) {
		*out = WEFT_CACHE_WRITE_THROUGH;
		return 0;
	}
	return -1;
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int weft_cache_init(struct weft_cache *c, const struct weft_cache_geom *g, struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	if (!is_pow2(g->line_bytes))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cache line size %u B is not a power of two; use 32, 64 or 128",
				      g->line_bytes);
	if (g->assoc < 1 || g->assoc > 64)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cache associativity %u is out of range; use 1..64 ways", g->assoc);
	if (g->banks < 1)
		return weft_error_set(err, WEFT_ERR_INPUT, "cache needs at least one bank");
	uint64_t set_bytes = (uint64_t)g->line_bytes * g->assoc;
	if (g->size_bytes < set_bytes || g->size_bytes % set_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cache size %llu B is not a positive multiple of line size x ways "
				      "(%u B x %u = %llu B); adjust the size, line size or associativity",
				      (unsigned long long)g->size_bytes, g->line_bytes, g->assoc,
				      (unsigned long long)set_bytes);
	if (g->size_bytes / set_bytes > UINT32_MAX)
		return weft_error_set(err, WEFT_ERR_INPUT, "cache has too many sets");
	c->g = *g;
	c->nsets = (uint32_t)(g->size_bytes / set_bytes);
	while ((1u << c->line_shift) < g->line_bytes)
		c->line_shift++;
	c->set_mask = (c->nsets & (c->nsets - 1)) ? WEFT_CACHE_NO_MASK : c->nsets - 1;
	c->bank_mask = (g->banks & (g->banks - 1)) ? WEFT_CACHE_NO_MASK : g->banks - 1;
	size_t n = (size_t)c->nsets * g->assoc;
	c->tag = calloc(n, sizeof(*c->tag));
	c->used = calloc(n, sizeof(*c->used));
	c->dirty = calloc(n, 1);
	c->bank_accesses = calloc(g->banks, sizeof(*c->bank_accesses));
	if (!c->tag || !c->used || !c->dirty || !c->bank_accesses) {
		weft_cache_free(c);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for a %llu-byte cache model",
				      (unsigned long long)g->size_bytes);
	}
	return 0;
}

void weft_cache_free(struct weft_cache *c)
{
	free(c->tag);
	free(c->used);
	free(c->dirty);
	free(c->bank_accesses);
	memset(c, 0, sizeof(*c));
}

/* line's set and bank: a mask where the count is a power of two */
static inline uint32_t set_of(const struct weft_cache *c, uint64_t line)
{
	return c->set_mask != WEFT_CACHE_NO_MASK ? (uint32_t)line & c->set_mask
						 : (uint32_t)(line % c->nsets);
}

static inline uint32_t bank_of(const struct weft_cache *c, uint64_t line)
{
	return c->bank_mask != WEFT_CACHE_NO_MASK ? (uint32_t)line & c->bank_mask
						  : (uint32_t)(line % c->g.banks);
}

unsigned weft_cache_access(struct weft_cache *c, uint64_t addr, int is_write, uint64_t *victim)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t set = set_of(c, line);
	uint32_t assoc = c->g.assoc;
	size_t base = (size_t)set * assoc;
	uint64_t key = line + 1;
	uint64_t *tag = c->tag + base;
	unsigned r = 0;

	c->clock++;
	c->bank_accesses[bank_of(c, line)]++;
	if (is_write)
		c->st.writes++;
	else
		c->st.reads++;

	for (uint32_t w = 0; w < assoc; w++) {
		if (tag[w] != key)
			continue;
		c->used[base + w] = c->clock;
		c->last_slot = base + w;
		r = WEFT_CACHE_HIT;
		if (is_write) {
			c->st.write_hits++;
			if (c->g.write == WEFT_CACHE_WRITE_THROUGH) {
				c->st.throughs++;
				r |= WEFT_CACHE_THROUGH;
			} else {
				c->dirty[base + w] = 1;
			}
		} else {
			c->st.read_hits++;
		}
		return r;
	}

	/* miss */
	c->last_slot = WEFT_CACHE_NO_SLOT;
	if (is_write && c->g.write == WEFT_CACHE_WRITE_THROUGH) {
		c->st.throughs++;
		return WEFT_CACHE_THROUGH; /* no write-allocate */
	}
	uint32_t v = 0;
	uint64_t oldest = UINT64_MAX;
	for (uint32_t w = 0; w < assoc; w++) {
		if (!tag[w]) {
			v = w;
			break;
		}
		if (c->used[base + w] < oldest) {
			oldest = c->used[base + w];
			v = w;
		}
	}
	if (tag[v] && c->dirty[base + v]) {
		c->st.writebacks++;
		r |= WEFT_CACHE_WRITEBACK;
		if (victim)
			*victim = (tag[v] - 1) << c->line_shift;
	}
	c->valid += !tag[v];
	c->replaced += tag[v] != 0;
	tag[v] = key;
	c->last_slot = base + v;
	c->used[base + v] = c->clock;
	c->dirty[base + v] = (uint8_t)(is_write != 0);
	if (!is_write || c->g.write_fetch) {
		c->st.fills++;
		r |= WEFT_CACHE_FILL;
	}
	return r;
}

unsigned weft_cache_warm(struct weft_cache *c, uint64_t addr, int is_write, uint64_t *victim)
{
	/* the access, with its counts put back: one code path for the
	 * contents, so warming cannot drift from what a timed access does */
	struct weft_cache_stats st = c->st;
	uint64_t *bank = &c->bank_accesses[bank_of(c, addr >> c->line_shift)];
	uint64_t b = *bank;
	unsigned r = weft_cache_access(c, addr, is_write, victim);
	c->st = st;
	*bank = b;
	return r;
}

int weft_cache_probe(const struct weft_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	size_t base = (size_t)set_of(c, line) * c->g.assoc;
	for (uint32_t w = 0; w < c->g.assoc; w++)
		if (c->tag[base + w] == line + 1)
			return 1;
	return 0;
}

int weft_cache_turned_over(const struct weft_cache *c)
{
	uint64_t lines = (uint64_t)c->nsets * c->g.assoc;
	return c->valid >= lines && c->replaced >= lines;
}

void weft_cache_recount(struct weft_cache *c)
{
	size_t n = (size_t)c->nsets * c->g.assoc;
	c->valid = 0;
	for (size_t i = 0; i < n; i++)
		c->valid += c->tag[i] != 0;
}

uint64_t weft_cache_flush(struct weft_cache *c)
{
	uint64_t dirty = 0;
	size_t n = (size_t)c->nsets * c->g.assoc;
	for (size_t i = 0; i < n; i++) {
		if (c->tag[i] && c->dirty[i])
			dirty++;
		c->tag[i] = 0;
		c->dirty[i] = 0;
		c->used[i] = 0;
	}
	c->valid = 0;
	c->replaced = 0;
	c->st.writebacks += dirty;
	return dirty;
}

uint64_t weft_cache_clean(struct weft_cache *c)
{
	uint64_t dirty = 0;
	size_t n = (size_t)c->nsets * c->g.assoc;
	for (size_t i = 0; i < n; i++)
		if (c->dirty[i]) {
			dirty++;
			c->dirty[i] = 0;
		}
	c->st.writebacks += dirty;
	return dirty;
}

void weft_cache_reset_stats(struct weft_cache *c)
{
	memset(&c->st, 0, sizeof(c->st));
	memset(c->bank_accesses, 0, sizeof(*c->bank_accesses) * c->g.banks);
}

uint64_t weft_cache_max_bank_accesses(const struct weft_cache *c)
{
	uint64_t m = 0;
	for (uint32_t b = 0; b < c->g.banks; b++)
		if (c->bank_accesses[b] > m)
			m = c->bank_accesses[b];
	return m;
}
