/*
 * quote.h - the one rule for writing a string as a JSON string literal or
 * as a CSV field, for the json and csv output of the CLIs and reports:
 * straight to a stream here, into a text buffer with sbuf.h's
 * weft_sbuf_json_str and weft_sbuf_csv_field, which use the rules below.
 * Nothing here writes on its own.
 */
#ifndef WEFT_QUOTE_H
#define WEFT_QUOTE_H

#include <stdio.h>

/* How byte c stands inside a JSON string: '"' and '\\' escaped, control
 * characters as \u00XX, anything else as itself. Writes it, NUL-terminated,
 * into out and returns out. */
const char *weft_quote_json_char(unsigned char c, char out[8]);
/* Whether s must be quoted as a CSV field: it holds a comma, a quote or a
 * line break (RFC 4180). */
int weft_quote_csv_needed(const char *s);

/* "s" with every byte as weft_quote_json_char writes it; NULL is written
 * as "". */
void weft_quote_json(FILE *f, const char *s);
/* s as is, or, when weft_quote_csv_needed, in quotes with its quotes
 * doubled. */
void weft_quote_csv(FILE *f, const char *s);

#endif
