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
