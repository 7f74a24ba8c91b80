/*
 * suggest.c - the "did you mean" phrase (suggest.h) over strdist.h.
 */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

#include "strdist.h"

/* Whether b is a with two neighbouring characters swapped ("f23", "f32"):
 * one slip of the fingers, though two edits by strdist.h's measure. */
static int one_swap(const char *a, const char *b)
{
	size_t n = strlen(a), i = 0;
	if (strlen(b) != n)
		return 0;
	while (i < n && a[i] == b[i])
		i++;
	return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && strcmp(a + i + 2, b + i + 2) == 0;
}

void weft_suggest_init(struct weft_suggest *s, const char *typed)
{
	memset(s, 0, sizeof(*s));
	s->typed = typed ? typed : "";
	s->rank = WEFT_EDIT_FAR;
}

void weft_suggest_consider(struct weft_suggest *s, const char *word)
{
	if (!word || !s->typed[0])
		return;
	unsigned d = weft_edit_distance(s->typed, word);
	if (d == 0 || !weft_edit_close(s->typed, word, d))
		return;
	/* close by strdist.h's prefix rule, or a swap: as near as one edit */
	size_t lt = strlen(s->typed), lw = strlen(word);
	size_t m = lt < lw ? lt : lw;
	if ((m >= 3 && strncmp(s->typed, word, m) == 0) || one_swap(s->typed, word))
		d = 1;
	if (d > s->rank)
		return;
	if (d < s->rank) {
		s->rank = d;
		s->n = 0;
	}
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->names[i], word) == 0)
			return;
	if (s->n < WEFT_SUGGEST_MAX)
		s->names[s->n++] = word;
}

const char *weft_suggest_phrase(const struct weft_suggest *s, const char *open, const char *close,
				char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = '\0';
	if (s->n == 0)
		return buf;
	size_t off = (size_t)snprintf(buf, len, "; did you mean ");
	for (unsigned i = 0; i < s->n && off < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == s->n ? " or " : ", ";
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s", sep, open, s->names[i], close);
	}
	if (off < len)
		snprintf(buf + off, len - off, "?");
	return buf;
}
