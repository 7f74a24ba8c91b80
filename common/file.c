/*
 * file.c - whole-file reads (file.h).
 */
#include "file.h"

#include <stdio.h>
#include <stdlib.h>

int weft_file_read(const char *path, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return WEFT_FILE_OPEN;
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap);
		if (!nb)
			free(buf);
		buf = nb;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return WEFT_FILE_NOMEM;
	if (bad) {
		free(buf);
		return WEFT_FILE_READ;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return WEFT_FILE_OK;
}
