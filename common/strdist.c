/*
 * strdist.c - edit distance and the "did you mean" rule (strdist.h).
 */
#include "strdist.h"

#include <string.h>

unsigned weft_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > WEFT_EDIT_MAX || lb > WEFT_EDIT_MAX)
		return WEFT_EDIT_FAR;
	unsigned row[WEFT_EDIT_MAX + 1]; /* row[j]: distance of a[0..i) to b[0..j) */
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0]; /* d[i-1][j-1] */
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = diag + (a[i - 1] != b[j - 1]);
			unsigned del = row[j] + 1, ins = row[j - 1] + 1;
			unsigned m = sub < del ? sub : del;
			diag = row[j];
			row[j] = m < ins ? m : ins;
		}
	}
	return row[lb];
}

int weft_edit_close(const char *typed, const char *cand, unsigned dist)
{
	size_t lt = strlen(typed), lc = strlen(cand);
	unsigned lim = (unsigned)((lt > lc ? lt : lc) / 3);
	if (lim < 2)
		lim = 2;
	if (dist <= lim)
		return 1;
	size_t m = lt < lc ? lt : lc;
	return m >= 3 && strncmp(typed, cand, m) == 0;
}
