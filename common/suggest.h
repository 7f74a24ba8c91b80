/*
 * suggest.h - the "did you mean" phrase for a mistyped word among a set
 * of valid ones (launch-spec keys, sections, types and init modes, workload
 * names), by strdist.h's rule of what is close enough.
 *
 *   struct weft_suggest s;
 *   weft_suggest_init(&s, typed);
 *   for (each valid word w) weft_suggest_consider(&s, w);
 *   char buf[256];
 *   ... "unknown key `%s`%s", typed, weft_suggest_phrase(&s, "`", "`", buf, sizeof(buf))
 *
 * gives "unknown key `shard`; did you mean `shared`?", or no phrase at all
 * when nothing is close. The closest words win: fewest edits, where a word
 * the typed one begins (or that begins the typed one, 3 characters or more)
 * and one with two neighbouring characters swapped count as one edit away. Words equally close are all named ("`ramp` or
 * `random`"), the first WEFT_SUGGEST_MAX of them in the order considered.
 */
#ifndef WEFT_SUGGEST_H
#define WEFT_SUGGEST_H

#include <stddef.h>

#define WEFT_SUGGEST_MAX 4

struct weft_suggest {
	const char *typed;
	unsigned rank; /* edits of the closest word so far */
	unsigned n;    /* how many of names[] are set */
	const char *names[WEFT_SUGGEST_MAX];
};

void weft_suggest_init(struct weft_suggest *s, const char *typed);

/* Weighs one valid word (kept by pointer: it must outlive s). */
void weft_suggest_consider(struct weft_suggest *s, const char *word);

/* Writes "; did you mean OPEN a CLOSE?" ("... a or b?", "... a, b or c?")
 * into buf, or "" when no word was close (or nothing was typed); returns
 * buf. A phrase longer than len is cut short. */
const char *weft_suggest_phrase(const struct weft_suggest *s, const char *open, const char *close,
				char *buf, size_t len);

#endif
