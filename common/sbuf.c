/*
 * sbuf.c - growable text buffer for report formatting (sbuf.h).
 */
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

void weft_sbuf_init(struct weft_sbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void weft_sbuf_free(struct weft_sbuf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static int reserve(struct weft_sbuf *b, size_t extra)
{
	if (b->failed)
		return -1;
	if (b->len + extra + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p) {
		b->failed = 1;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void weft_sbuf_puts(struct weft_sbuf *b, const char *s)
{
	size_t n = strlen(s);
	if (reserve(b, n) < 0)
		return;
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
}

void weft_sbuf_printf(struct weft_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(b, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *weft_sbuf_str(const struct weft_sbuf *b)
{
	return b->data ? b->data : "";
}

void weft_sbuf_json_str(struct weft_sbuf *b, const char *s)
{
	char e[8];
	weft_sbuf_puts(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		weft_sbuf_puts(b, weft_quote_json_char(*p, e));
	weft_sbuf_puts(b, "\"");
}

void weft_sbuf_json_key(struct weft_sbuf *b, int indent, int *first, const char *k)
{
	weft_sbuf_printf(b, "%s\n%*s", *first ? "" : ",", indent, "");
	*first = 0;
	weft_sbuf_json_str(b, k);
	weft_sbuf_puts(b, ": ");
}

void weft_sbuf_csv_field(struct weft_sbuf *b, const char *s)
{
	if (!weft_quote_csv_needed(s)) {
		weft_sbuf_puts(b, s);
		return;
	}
	weft_sbuf_puts(b, "\"");
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			weft_sbuf_puts(b, "\"\"");
		else
			weft_sbuf_printf(b, "%c", *p);
	}
	weft_sbuf_puts(b, "\"");
}
