/*
 * csv.c - CSV reader for data tables (csv.h). Tables are small (tens to
 * hundreds of rows), so the whole file is read and every field copied.
 */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

static char *read_all(const char *path, struct weft_error *err)
{
	char *buf;
	size_t n;
	int st = weft_file_read(path, &buf, &n);
	if (st == WEFT_FILE_OPEN)
		weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0, "cannot open the table: %s",
			      strerror(errno));
	else if (st == WEFT_FILE_NOMEM)
		weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	else if (st)
		weft_error_at(err, WEFT_ERR_IO, path, 0, 0, "read error");
	return buf;
}

/* Splits one record starting at *p (advances past its newline). Returns the
 * number of fields, -1 on an unterminated quote. */
static int split(char **p, char ***out, uint32_t *line)
{
	char *s = *p;
	uint32_t n = 0, cap = 8;
	char **f = malloc(cap * sizeof(*f));
	if (!f)
		return -2;
	for (;;) {
		size_t blen = 0, bcap = 64;
		char *b = malloc(bcap);
		if (!b)
			goto nomem;
		if (*s == '"') {
			s++;
			for (;;) {
				if (*s == '\0') {
					free(b);
					for (uint32_t i = 0; i < n; i++)
						free(f[i]);
					free(f);
					return -1;
				}
				if (*s == '"' && s[1] == '"') {
					s += 2;
					b[blen++] = '"';
				} else if (*s == '"') {
					s++;
					break;
				} else {
					if (*s == '\n')
						(*line)++;
					b[blen++] = *s++;
				}
				if (blen + 1 >= bcap) {
					char *nb = realloc(b, bcap *= 2);
					if (!nb) {
						free(b);
						goto nomem;
					}
					b = nb;
				}
			}
			while (*s && *s != ',' && *s != '\n')
				s++; /* junk after a closing quote is dropped */
		} else {
			while (*s && *s != ',' && *s != '\n' && *s != '\r') {
				b[blen++] = *s++;
				if (blen + 1 >= bcap) {
					char *nb = realloc(b, bcap *= 2);
					if (!nb) {
						free(b);
						goto nomem;
					}
					b = nb;
				}
			}
			if (*s == '\r')
				s++;
		}
		b[blen] = '\0';
		if (n == cap) {
			char **nf = realloc(f, (cap *= 2) * sizeof(*f));
			if (!nf) {
				free(b);
				goto nomem;
			}
			f = nf;
		}
		f[n++] = b;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n')
			s++;
		break;
	}
	*p = s;
	*out = f;
	return (int)n;
nomem:
	for (uint32_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
	return -2;
}

static void free_fields(char **f, uint32_t n)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

int weft_csv_load(const char *path, struct weft_csv *c, struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	char *text = read_all(path, err);
	if (!text)
		return err ? (int)err->code : WEFT_ERR_INPUT;
	char *p = text;
	uint32_t line = 1, cap = 0;
	int rc = 0;
	while (*p) {
		uint32_t start = line;
		if (*p == '\n' || *p == '\r' || *p == '#') {
			while (*p && *p != '\n')
				p++;
			if (*p == '\n')
				p++;
			line++;
			continue;
		}
		char **f = NULL;
		int n = split(&p, &f, &line);
		line++;
		if (n == -2) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
			break;
		}
		if (n < 0) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, path, start, 0,
					   "unterminated quoted field");
			break;
		}
		if (!c->header) {
			c->header = f;
			c->ncols = (uint32_t)n;
			continue;
		}
		if ((uint32_t)n != c->ncols) {
			free_fields(f, (uint32_t)n);
			rc = weft_error_at(err, WEFT_ERR_INPUT, path, start, 0,
					   "%d fields, the header has %u (quote fields that contain commas)",
					   n, c->ncols);
			break;
		}
		if (c->nrows == cap) {
			cap = cap ? cap * 2 : 32;
			char ***nr = realloc(c->rows, cap * sizeof(*nr));
			uint32_t *nl = realloc(c->lines, cap * sizeof(*nl));
			if (nr)
				c->rows = nr;
			if (nl)
				c->lines = nl;
			if (!nr || !nl) {
				free_fields(f, (uint32_t)n);
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
				break;
			}
		}
		c->rows[c->nrows] = f;
		c->lines[c->nrows++] = start;
	}
	free(text);
	if (rc == 0 && !c->header)
		rc = weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0, "empty table: no header row");
	if (rc < 0)
		weft_csv_free(c);
	return rc;
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
