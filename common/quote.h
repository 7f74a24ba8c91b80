/*
 * quote.h - writing a string as a JSON string literal or as a CSV field, for
 * the json and csv output of the CLIs (weft-trace, weft-energy, weft-area).
 * The caller picks the stream; nothing here writes on its own.
 */
#ifndef WEFT_QUOTE_H
#define WEFT_QUOTE_H

#include <stdio.h>

/* "s" with '"' and '\\' escaped and control characters as \u00XX; NULL is
 * written as "". */
void weft_quote_json(FILE *f, const char *s);
/* s as is, or, when it holds a comma, a quote or a newline, in quotes with
 * its quotes doubled (RFC 4180). */
void weft_quote_csv(FILE *f, const char *s);

#endif
