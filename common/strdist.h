/*
 * strdist.h - "did you mean" for mistyped names: the edit distance between
 * what was typed and a candidate, and the one rule for when a candidate is
 * close enough to suggest (config keys and enum values, model names, swept
 * keys).
 */
#ifndef WEFT_STRDIST_H
#define WEFT_STRDIST_H

/* Longest string weft_edit_distance measures. */
#define WEFT_EDIT_MAX 255

/* Levenshtein distance between a and b (insertions, deletions and
 * substitutions each cost 1); WEFT_EDIT_FAR when either is longer than
 * WEFT_EDIT_MAX characters. */
#define WEFT_EDIT_FAR 999u
unsigned weft_edit_distance(const char *a, const char *b);

/* Whether cand, dist edits from typed, is close enough to be what was
 * meant: dist at most a third of the longer length (at least 2), or one is
 * a prefix of the other of 3 or more characters. */
int weft_edit_close(const char *typed, const char *cand, unsigned dist);

#endif
