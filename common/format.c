/*
 * format.c - report format names (format.h).
 */
#include "format.h"

#include <string.h>

int weft_format_parse(const char *name)
{
	if (strcmp(name, "table") == 0)
		return WEFT_FMT_TABLE;
	if (strcmp(name, "csv") == 0)
		return WEFT_FMT_CSV;
	if (strcmp(name, "json") == 0)
		return WEFT_FMT_JSON;
	return -1;
}

int weft_format_parse_report(const char *name)
{
	if (strcmp(name, "latex") == 0)
		return WEFT_FMT_LATEX;
	if (strcmp(name, "markdown") == 0)
		return WEFT_FMT_MARKDOWN;
	return weft_format_parse(name);
}
