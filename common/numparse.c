/*
 * numparse.c - strict parsers for counts and byte sizes (numparse.h).
 */
#include "numparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int weft_parse_count(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!errno && !*end) {
		*out = v;
		return 0;
	}
	/* 1e9 style */
	double d = strtod(s, &end);
	if (*end || !(d >= 1) || d > 1.8e19 || d != floor(d))
		return -1;
	*out = (uint64_t)d;
	return 0;
}

int weft_parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || v == 0)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	case 0: break;
	default: return -1;
	}
	if (shift) {
		end++;
		if (strcmp(end, "") && strcmp(end, "B") && strcmp(end, "iB"))
			return -1;
	}
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
