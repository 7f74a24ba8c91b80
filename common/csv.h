/*
 * csv.h - the one CSV reader of weft: a record reader over text in memory
 * that gives every field its line and column (the claims files of
 * weft-validate read it record by record), and on it the data tables
 * (data/energy, data/area, data/calibration): a header row names the
 * columns, and every row remembers its file line for messages.
 *
 * The syntax: fields separated by ',', records by a newline ("\r\n" too),
 * RFC 4180 quoting ("a, b", "" for a quote, line breaks inside quotes);
 * blank lines and lines starting with '#' are skipped. A NUL byte, an
 * unterminated quote, text after a closing quote, a field longer than
 * WEFT_CSV_FIELD_MAX - 1 bytes or a record of more than WEFT_CSV_MAX_FIELDS
 * fields is an error naming file:line:column.
 */
#ifndef WEFT_CSV_H
#define WEFT_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define WEFT_CSV_FIELD_MAX 4096 /* bytes of one field */
#define WEFT_CSV_MAX_FIELDS 64  /* fields of one record */

struct weft_csv_field {
	char *s;            /* unquoted, NUL-terminated */
	uint32_t line, col; /* where the field starts (1-based, bytes) */
};

struct weft_csv_record {
	struct weft_csv_field f[WEFT_CSV_MAX_FIELDS];
	uint32_t n;
	uint32_t line;
};

struct weft_csv_reader {
	const char *path;
	const char *what; /* for the NUL message: "a NUL byte; a WHAT is text (UTF-8 CSV)" */
	const char *p, *end;
	uint32_t line, col;
};

void weft_csv_reader_init(struct weft_csv_reader *c, const char *path, const char *what,
			  const char *text, size_t len);
/* 1 and a record, 0 at the end, or a negative weft_err naming
 * path:line:column. Free r with weft_csv_record_free either way. */
int weft_csv_next(struct weft_csv_reader *c, struct weft_csv_record *r, struct weft_error *err);
void weft_csv_record_free(struct weft_csv_record *r);

/* A whole table read from a file. */
struct weft_csv {
	char path[256];
	uint32_t ncols;
	char **header;     /* [ncols] */
	uint32_t nrows;
	char ***rows;      /* [nrows][ncols] */
	uint32_t *lines;   /* [nrows] 1-based file line of each row */
};

/* Reads path; a row with a different number of fields than the header is an
 * error naming file:line, as are the syntax errors above. */
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

/* Helpers shared by the data-table loaders (energy, static power, area,
 * calibration), so that every table reports the same faults the same way. */

/* weft_csv_load then weft_csv_require(cols[0..n-1]). A load error is
 * prefixed "WHAT: " (what may be NULL: no prefix); on any error c is
 * already freed. */
int weft_csv_load_table(const char *path, const char *what, const char *const *cols, uint32_t n,
			int *idx, struct weft_csv *c, struct weft_error *err);
/* A table of fixed-size rows made from a CSV table, the loader every data
 * table uses (energy, static power, area, area calibration). */
#define WEFT_CSV_MAX_COLS 16
struct weft_csv_rows {
	const char *what;          /* for load errors, as weft_csv_load_table's */
	const char *const *cols;   /* required columns */
	uint32_t ncols;            /* at most WEFT_CSV_MAX_COLS */
	size_t size;               /* bytes per row */
	/* Fills row (zeroed) from CSV row r, whose required columns are at
	 * ix[0..ncols-1]; rows[0..n-1] are the rows already made (to refuse a
	 * second row for the same key). 0, or a weft_err code with err set. */
	int (*make)(void *row, const void *rows, uint32_t n, const struct weft_csv *c, uint32_t r,
		    const int *ix, struct weft_error *err);
};

/* weft_csv_load_table, then spec->make for every row into a malloc'd array
 * (*rows, *n; free it with free()). On any error *rows is NULL and *n 0. */
int weft_csv_load_rows(const char *path, const struct weft_csv_rows *spec, void **rows,
		       uint32_t *n, struct weft_error *err);

/* Field (row, col) is a row's key naming a WHAT ("event", "component"): an
 * error naming file:line when it is empty or does not fit a char[size]. */
int weft_csv_check_name(const struct weft_csv *c, uint32_t row, int col, const char *what,
			size_t size, struct weft_error *err);
/* Every row must cite its source: an error naming file:line when field
 * (row, col) is blank. */
int weft_csv_check_source(const struct weft_csv *c, uint32_t row, int col,
			  struct weft_error *err);

#endif
