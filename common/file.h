/*
 * file.h - reading a whole text file into memory, for the loaders of PTX,
 * launch specs, configs and data tables. The caller words the error (each
 * knows what the file is and what the user should check), so this reports
 * only which step failed.
 */
#ifndef WEFT_FILE_H
#define WEFT_FILE_H

#include <stddef.h>

enum weft_file_status {
	WEFT_FILE_OK = 0,
	WEFT_FILE_OPEN = -1,  /* fopen failed; errno says why */
	WEFT_FILE_READ = -2,  /* a read failed part way */
	WEFT_FILE_NOMEM = -3, /* out of memory */
};

/* Reads the file at path into *data (malloc'd, NUL-terminated; *len bytes
 * before the NUL). Returns a weft_file_status; *data is NULL unless OK. */
int weft_file_read(const char *path, char **data, size_t *len);

#endif
