/*
 * csv.c - the CSV record reader and the data tables on it (csv.h). Tables
 * are small (tens to hundreds of rows), so the whole file is read and every
 * field copied.
 */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

void weft_csv_reader_init(struct weft_csv_reader *c, const char *path, const char *what,
			  const char *text, size_t len)
{
	c->path = path;
	c->what = what;
	c->p = text;
	c->end = text + len;
	c->line = 1;
	c->col = 1;
}

void weft_csv_record_free(struct weft_csv_record *r)
{
	for (uint32_t i = 0; i < r->n; i++)
		free(r->f[i].s);
	r->n = 0;
}

static int at(const struct weft_csv_reader *c, struct weft_error *err, uint32_t line, uint32_t col,
	      const char *msg)
{
	return weft_error_at(err, WEFT_ERR_INPUT, c->path, line, col, "%s", msg);
}

static int nul(const struct weft_csv_reader *c, struct weft_error *err)
{
	return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->line, c->col,
			     "a NUL byte; a %s is text (UTF-8 CSV)", c->what);
}

/* Consumes one character, keeping line and column. */
static char take(struct weft_csv_reader *c)
{
	char ch = *c->p++;
	if (ch == '\n') {
		c->line++;
		c->col = 1;
	} else {
		c->col++;
	}
	return ch;
}

static int skip_line(struct weft_csv_reader *c)
{
	while (c->p < c->end && *c->p != '\n') {
		if (*c->p == '\0')
			return -1;
		take(c);
	}
	if (c->p < c->end)
		take(c);
	return 0;
}

/* One field into buf (at most WEFT_CSV_FIELD_MAX - 1 bytes). */
static int field(struct weft_csv_reader *c, char *buf, struct weft_error *err)
{
	size_t n = 0;
	uint32_t line = c->line, col = c->col;
	int quoted = c->p < c->end && *c->p == '"';
	if (quoted)
		take(c);
	for (;;) {
		if (c->p >= c->end) {
			if (quoted)
				return at(c, err, line, col,
					  "unterminated quoted field: the closing \" is missing");
			break;
		}
		char ch = *c->p;
		if (ch == '\0')
			return nul(c, err);
		if (quoted && ch == '"') {
			take(c);
			if (c->p < c->end && *c->p == '"') {
				take(c);
				ch = '"';
			} else {
				quoted = 0;
				/* after the closing quote: the end of the field */
				if (c->p < c->end && *c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')
					take(c);
				if (c->p < c->end && *c->p != ',' && *c->p != '\n')
					return at(c, err, c->line, c->col,
						  "text after a closing quote; quote the whole field "
						  "and write a quote inside it as \"\"");
				break;
			}
		} else if (!quoted && (ch == ',' || ch == '\n')) {
			break;
		} else if (!quoted && ch == '\r' && c->p + 1 < c->end && c->p[1] == '\n') {
			take(c);
			break;
		} else {
			take(c);
		}
		if (n + 1 >= WEFT_CSV_FIELD_MAX)
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, line, col,
					     "a field longer than %d bytes", WEFT_CSV_FIELD_MAX - 1);
		buf[n++] = ch;
	}
	buf[n] = '\0';
	return 0;
}

int weft_csv_next(struct weft_csv_reader *c, struct weft_csv_record *r, struct weft_error *err)
{
	memset(r, 0, sizeof(*r));
	/* blank and comment lines */
	while (c->p < c->end) {
		if (*c->p == '\n' || *c->p == '#' ||
		    (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')) {
			if (skip_line(c) < 0)
				return nul(c, err);
			continue;
		}
		break;
	}
	if (c->p >= c->end)
		return 0;
	r->line = c->line;
	char *buf = malloc(WEFT_CSV_FIELD_MAX);
	if (!buf)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", c->path);
	int rc = 0;
	for (;;) {
		if (r->n == WEFT_CSV_MAX_FIELDS) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, c->path, c->line, c->col,
					   "more than %d fields in one record; quote fields that "
					   "contain commas",
					   WEFT_CSV_MAX_FIELDS);
			break;
		}
		struct weft_csv_field *f = &r->f[r->n];
		f->line = c->line;
		f->col = c->col;
		rc = field(c, buf, err);
		if (rc < 0)
			break;
		f->s = strdup(buf);
		if (!f->s) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", c->path);
			break;
		}
		r->n++;
		if (c->p < c->end && *c->p == ',') {
			take(c);
			continue;
		}
		if (c->p < c->end && *c->p == '\n')
			take(c);
		break;
	}
	free(buf);
	return rc < 0 ? rc : 1;
}

static void free_fields(char **f, uint32_t n)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

/* The fields of r as a malloc'd array that takes over their strings. */
static char **take_fields(struct weft_csv_record *r)
{
	char **f = malloc((r->n ? r->n : 1) * sizeof(*f));
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < r->n; i++)
		f[i] = r->f[i].s;
	r->n = 0;
	return f;
}

int weft_csv_load(const char *path, struct weft_csv *c, struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	char *text;
	size_t len;
	int st = weft_file_read(path, &text, &len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0, "cannot open the table: %s",
				     strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_at(err, WEFT_ERR_IO, path, 0, 0, "read error: %s", strerror(errno));
	struct weft_csv_reader rd;
	weft_csv_reader_init(&rd, path, "data table", text, len);
	struct weft_csv_record r;
	uint32_t cap = 0;
	int rc;
	while ((rc = weft_csv_next(&rd, &r, err)) > 0) {
		if (c->header && r.n != c->ncols) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, path, r.line, 0,
					   "%u fields, the header has %u (quote fields that contain commas)",
					   r.n, c->ncols);
			break;
		}
		if (c->header && c->nrows == cap) {
			cap = cap ? cap * 2 : 32;
			char ***nr = realloc(c->rows, cap * sizeof(*nr));
			if (nr)
				c->rows = nr;
			uint32_t *nl = realloc(c->lines, cap * sizeof(*nl));
			if (nl)
				c->lines = nl;
			if (!nr || !nl) {
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
				break;
			}
		}
		uint32_t n = r.n;
		char **f = take_fields(&r);
		if (!f) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
			break;
		}
		if (!c->header) {
			c->header = f;
			c->ncols = n;
		} else {
			c->rows[c->nrows] = f;
			c->lines[c->nrows++] = r.line;
		}
	}
	weft_csv_record_free(&r);
	free(text);
	if (rc == 0 && !c->header)
		rc = weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0, "empty table: no header row");
	if (rc < 0)
		weft_csv_free(c);
	return rc < 0 ? rc : 0;
}

void weft_csv_free(struct weft_csv *c)
{
	if (!c)
		return;
	for (uint32_t r = 0; r < c->nrows; r++)
		free_fields(c->rows[r], c->ncols);
	free(c->rows);
	free(c->lines);
	free_fields(c->header, c->ncols);
	memset(c, 0, sizeof(*c));
}

int weft_csv_col(const struct weft_csv *c, const char *name)
{
	for (uint32_t i = 0; i < c->ncols; i++)
		if (strcmp(c->header[i], name) == 0)
			return (int)i;
	return -1;
}

int weft_csv_require(const struct weft_csv *c, const char *const *names, uint32_t n, int *idx,
		     struct weft_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		idx[i] = weft_csv_col(c, names[i]);
		if (idx[i] < 0)
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, 1, 0,
					     "the header has no column `%s` (needs:%s%s%s%s%s%s)", names[i],
					     n > 0 ? " " : "", n > 0 ? names[0] : "",
					     n > 1 ? "," : "", n > 1 ? names[1] : "", n > 2 ? ",..." : "",
					     "");
	}
	return 0;
}

int weft_csv_num(const struct weft_csv *c, uint32_t row, int col, int allow_empty, double *out,
		 struct weft_error *err)
{
	const char *s = c->rows[row][col];
	while (*s == ' ')
		s++;
	if (*s == '\0') {
		*out = NAN;
		if (allow_empty)
			return 1;
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[row], 0,
				     "column %s is empty; it needs a number", c->header[col]);
	}
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (*end != '\0' || errno || !isfinite(x))
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[row], 0,
				     "column %s: '%s' is not a number", c->header[col], s);
	*out = x;
	return 0;
}

int weft_csv_load_table(const char *path, const char *what, const char *const *cols, uint32_t n,
			int *idx, struct weft_csv *c, struct weft_error *err)
{
	int rc = weft_csv_load(path, c, err);
	if (rc < 0) {
		if (what)
			weft_error_prefix(err, "%s: ", what);
		return rc;
	}
	rc = weft_csv_require(c, cols, n, idx, err);
	if (rc < 0)
		weft_csv_free(c);
	return rc;
}

int weft_csv_load_rows(const char *path, const struct weft_csv_rows *spec, void **rows,
		       uint32_t *n, struct weft_error *err)
{
	*rows = NULL;
	*n = 0;
	if (spec->ncols > WEFT_CSV_MAX_COLS)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "%u required columns, at most %d",
				      spec->ncols, WEFT_CSV_MAX_COLS);
	int ix[WEFT_CSV_MAX_COLS];
	struct weft_csv c;
	int rc = weft_csv_load_table(path, spec->what, spec->cols, spec->ncols, ix, &c, err);
	if (rc < 0)
		return rc;
	char *v = calloc(c.nrows ? c.nrows : 1, spec->size);
	if (!v)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory loading %s", path);
	for (uint32_t r = 0; v && r < c.nrows; r++) {
		rc = spec->make(v + (size_t)r * spec->size, v, r, &c, r, ix, err);
		if (rc < 0)
			break;
	}
	if (rc < 0) {
		free(v);
	} else {
		*rows = v;
		*n = c.nrows;
	}
	weft_csv_free(&c);
	return rc < 0 ? rc : 0;
}

int weft_csv_check_name(const struct weft_csv *c, uint32_t row, int col, const char *what,
			size_t size, struct weft_error *err)
{
	const char *s = c->rows[row][col];
	if (!s[0] || strlen(s) >= size)
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[row], 0,
				     "%s name is empty or longer than %zu characters", what, size - 1);
	return 0;
}

int weft_csv_check_source(const struct weft_csv *c, uint32_t row, int col,
			  struct weft_error *err)
{
	const char *s = c->rows[row][col];
	while (*s == ' ')
		s++;
	if (*s == '\0')
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[row], 0,
				     "the source column is empty: every row must cite a publication "
				     "or say \"derived: how\"");
	return 0;
}
