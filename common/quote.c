/*
 * quote.c - JSON string literals and CSV fields (quote.h).
 */
#include "quote.h"

#include <string.h>

const char *weft_quote_json_char(unsigned char c, char out[8])
{
	if (c == '"' || c == '\\')
		snprintf(out, 8, "\\%c", c);
	else if (c < 0x20)
		snprintf(out, 8, "\\u%04x", c);
	else
		snprintf(out, 8, "%c", c);
	return out;
}

int weft_quote_csv_needed(const char *s)
{
	return strpbrk(s, ",\"\r\n") != NULL;
}

void weft_quote_json(FILE *f, const char *s)
{
	char e[8];
	fputc('"', f);
	for (; s && *s; s++)
		fputs(weft_quote_json_char((unsigned char)*s, e), f);
	fputc('"', f);
}

void weft_quote_csv(FILE *f, const char *s)
{
	if (!weft_quote_csv_needed(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
