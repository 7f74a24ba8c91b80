/*
 * cache.h - a set-associative cache with LRU replacement, shared by the
 * timing models (SIMT L1/L2, vector-thread data caches, ...).
 *
 * It is a tag-only model: it decides hit or miss, which line is evicted and
 * what traffic goes to the next level, and counts it. Models call it once
 * per transaction (a coalesced 128-byte segment, a cache line), never once
 * per thread, so its cost stays off the per-thread path.
 *
 *     struct weft_cache l2;
 *     struct weft_cache_geom g = { .size_bytes = 786432, .line_bytes = 128,
 *                                  .assoc = 16, .banks = 6,
 *                                  .write = WEFT_CACHE_WRITE_BACK };
 *     weft_cache_init(&l2, &g, &err);
 *     unsigned r = weft_cache_access(&l2, addr, is_write, &victim);
 *     if (!(r & WEFT_CACHE_HIT)) ... next level ...
 *
 * Write policies:
 *   WEFT_CACHE_WRITE_BACK    write-back, write-allocate. A write hit marks
 *                            the line dirty; a write miss allocates the line
 *                            (without fetching it unless geom.write_fetch:
 *                            whole-line writes, or a fetch-on-read policy as
 *                            GPGPU-Sim's L2 uses) and marks it dirty.
 *                            Evicting a dirty line reports a writeback.
 *   WEFT_CACHE_WRITE_THROUGH write-through, no write-allocate. Every write
 *                            goes on to the next level (WEFT_CACHE_THROUGH);
 *                            a write hit updates the line, a write miss does
 *                            not allocate. Lines are never dirty.
 * Reads allocate on a miss (WEFT_CACHE_FILL: the line comes from the next
 * level). Replacement: an invalid way first, else the least recently used.
 * Set index = line address modulo the number of sets (which need not be a
 * power of two: 786 KB / 128 B / 16 ways = 384 sets); bank = line address
 * modulo banks.
 */
#ifndef WEFT_CACHE_H
#define WEFT_CACHE_H

#include <stdint.h>

#include "common/error.h"

enum weft_cache_write {
	WEFT_CACHE_WRITE_BACK = 0,  /* write-back, write-allocate */
	WEFT_CACHE_WRITE_THROUGH,   /* write-through, no write-allocate */
};

/* "back" / "through" (config values); parse returns 0 or -1. */
const char *weft_cache_write_name(enum weft_cache_write w);
int weft_cache_write_parse(const char *s, enum weft_cache_write *out);

struct weft_cache_geom {
	uint64_t size_bytes;   /* capacity; a multiple of line_bytes * assoc */
	uint32_t line_bytes;   /* power of two */
	uint32_t assoc;        /* ways per set, 1..64 */
	uint32_t banks;        /* >= 1; for per-bank access counts */
	enum weft_cache_write write;
	int write_fetch;       /* WRITE_BACK: a write miss fetches the line */
};

struct weft_cache_stats {
	uint64_t reads, writes;
	uint64_t read_hits, write_hits;
	uint64_t fills;        /* lines fetched from the next level */
	uint64_t writebacks;   /* dirty lines evicted (or flushed) */
	uint64_t throughs;     /* writes passed on to the next level */
};

/* access() result bits */
#define WEFT_CACHE_HIT       1u
#define WEFT_CACHE_FILL      2u /* the line is fetched from the next level */
#define WEFT_CACHE_WRITEBACK 4u /* a dirty line was evicted; *victim = its address */
#define WEFT_CACHE_THROUGH   8u /* the write continues to the next level */

struct weft_cache {
	struct weft_cache_geom g;
	uint32_t nsets;
	uint32_t line_shift;
	/* nsets - 1 and banks - 1 where they are powers of two (an index is
	 * then a mask, not a 64-bit divide: the same value), else
	 * WEFT_CACHE_NO_MASK and the index is a modulo */
	uint32_t set_mask, bank_mask;
	uint64_t *tag;         /* [nsets * assoc] line address + 1; 0 = invalid */
	uint64_t *used;        /* [nsets * assoc] LRU stamp */
	uint8_t *dirty;        /* [nsets * assoc] */
	uint64_t *bank_accesses; /* [banks] accesses per bank */
	uint64_t clock;
	/* the line slot (set x assoc + way, < nsets x assoc) the last access
	 * hit or allocated, WEFT_CACHE_NO_SLOT when it allocated none (a
	 * write-through write miss); models keep per-line timing state in
	 * arrays indexed by it (e.g. when an in-flight fill arrives) */
	uint64_t last_slot;
	uint64_t valid;        /* lines holding a tag (weft_cache_full) */
	uint64_t replaced;     /* allocations over a valid line since the cache
				* was last flushed, warming's included */
	struct weft_cache_stats st;
};
#define WEFT_CACHE_NO_SLOT UINT64_MAX
#define WEFT_CACHE_NO_MASK UINT32_MAX

/* Checks the geometry (WEFT_ERR_INPUT naming the bad field) and allocates. */
int weft_cache_init(struct weft_cache *c, const struct weft_cache_geom *g, struct weft_error *err);
void weft_cache_free(struct weft_cache *c);

/* One access to the line holding addr. Returns WEFT_CACHE_* bits; *victim
 * (may be NULL) gets the evicted dirty line's byte address on WRITEBACK. */
unsigned weft_cache_access(struct weft_cache *c, uint64_t addr, int is_write, uint64_t *victim);

/* Functional warming (Wunderlich et al., "SMARTS", ISCA 2003): the
 * access's effect on the contents (tags, LRU order, dirty bits) exactly as
 * weft_cache_access, with the same result bits and victim, but nothing
 * counted: statistics and per-bank counts stay as they were. A sampled
 * replay warms the caches with the accesses of the CTAs it does not time,
 * so the CTAs it times see the contents a full replay would give them. */
unsigned weft_cache_warm(struct weft_cache *c, uint64_t addr, int is_write, uint64_t *victim);
/* 1 when the line holding addr is present (no state change). */
int weft_cache_probe(const struct weft_cache *c, uint64_t addr);

/* 1 when every line holds a tag and the cache has since replaced as many
 * lines as it holds: its contents were placed by the traffic of a cache
 * that was already full, as in a long replay, not by its first fill (a
 * windowed sample warms until its model's caches are so, docs/estimate.md
 * "Windowed warming"). A caller that writes c->tag itself (restoring
 * saved contents) calls weft_cache_recount after, and restores
 * c->replaced. */
int weft_cache_turned_over(const struct weft_cache *c);
void weft_cache_recount(struct weft_cache *c);

/* Invalidates every line; returns how many were dirty (counted as
 * writebacks: their data goes to the next level). */
uint64_t weft_cache_flush(struct weft_cache *c);

/* Writes every dirty line back (counted as writebacks) and keeps the
 * lines, now clean; returns how many were dirty. */
uint64_t weft_cache_clean(struct weft_cache *c);

/* Zeroes the statistics (contents stay). */
void weft_cache_reset_stats(struct weft_cache *c);

/* Largest per-bank access count (for bank-limited bandwidth). */
uint64_t weft_cache_max_bank_accesses(const struct weft_cache *c);

#endif
