/*
 * csv.h - the small CSV reader behind weft's data tables (data/energy,
 * data/area, data/calibration). A header row names the columns; fields may
 * be quoted ("a, b" and "" for a quote); blank lines and lines starting
 * with '#' are skipped. Every row remembers its file line for messages.
 */
#ifndef WEFT_CSV_H
#define WEFT_CSV_H

#include <stdint.h>

#include "error.h"

struct weft_csv {
	char path[256];
	uint32_t ncols;
	char **header;     /* [ncols] */
	uint32_t nrows;
	char ***rows;      /* [nrows][ncols] */
	uint32_t *lines;   /* [nrows] 1-based file line of each row */
};

/* Reads path; a row with a different number of fields than the header is an
 * error naming file:line. */
int weft_csv_load(const char *path, struct weft_csv *c, struct weft_error *err);
void weft_csv_free(struct weft_csv *c);
/* Column index, or -1. */
int weft_csv_col(const struct weft_csv *c, const char *name);
/* Column indices of names[0..n-1]; error naming the file and the missing
 * column when one is absent. */
int weft_csv_require(const struct weft_csv *c, const char *const *names, uint32_t n, int *idx,
		     struct weft_error *err);
/* Parses field (row, col) as a number; empty -> *out = NAN and 1 returned
 * when allow_empty, error otherwise. 0 on success. */
int weft_csv_num(const struct weft_csv *c, uint32_t row, int col, int allow_empty, double *out,
		 struct weft_error *err);

#endif
