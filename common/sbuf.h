/*
 * sbuf.h - a growable text buffer. The report formatters (report.h) write
 * into one so that the library never prints: the CLI writes the text to
 * stdout or atomically to a file, and tests compare it as a string.
 *
 * Allocation failure is sticky: the buffer remembers it (failed = 1) and
 * further appends do nothing, so formatters check once at the end.
 */
#ifndef WEFT_SBUF_H
#define WEFT_SBUF_H

#include <stddef.h>

struct weft_sbuf {
	char *data;     /* NUL-terminated; NULL until the first append */
	size_t len, cap;
	int failed;     /* an allocation failed: the text is incomplete */
};

void weft_sbuf_init(struct weft_sbuf *b);
void weft_sbuf_free(struct weft_sbuf *b);
void weft_sbuf_puts(struct weft_sbuf *b, const char *s);
void weft_sbuf_printf(struct weft_sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text so far ("" when empty). */
const char *weft_sbuf_str(const struct weft_sbuf *b);

/* s as a JSON string literal, by quote.h's rule (weft_quote_json_char). */
void weft_sbuf_json_str(struct weft_sbuf *b, const char *s);
/* `"k": ` on a new line at the given indent, after a comma unless *first
 * (which it clears): one member of a JSON object being written. */
void weft_sbuf_json_key(struct weft_sbuf *b, int indent, int *first, const char *k);
/* s as a CSV field (RFC 4180): as is, or in quotes with its quotes doubled
 * when quote.h's weft_quote_csv_needed says so. */
void weft_sbuf_csv_field(struct weft_sbuf *b, const char *s);

#endif
