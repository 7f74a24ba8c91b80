/*
 * validate_csv.c - CSV records with field positions for the claims files
 * (validate_impl.h). The data-table reader (common/csv.h) reads from a
 * path and keeps only line numbers; claims errors name the column too, and
 * the unit tests feed hostile text from memory, hence this small reader.
 */
#include "validate_impl.h"

#include <stdlib.h>
#include <string.h>

void weft_val_csv_init(struct weft_val_csv *c, const char *path, const char *text, size_t len)
{
	c->path = path;
	c->p = text;
	c->end = text + len;
	c->line = 1;
	c->col = 1;
}

void weft_val_record_free(struct weft_val_record *r)
{
	for (uint32_t i = 0; i < r->n; i++)
		free(r->f[i].s);
	r->n = 0;
}

static int at(const struct weft_val_csv *c, struct weft_error *err, uint32_t line, uint32_t col,
	      const char *msg)
{
	return weft_error_at(err, WEFT_ERR_INPUT, c->path, line, col, "%s", msg);
}

/* Consumes one character, keeping line and column. */
static char take(struct weft_val_csv *c)
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

static int skip_line(struct weft_val_csv *c)
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

/* One field into buf (at most WEFT_VAL_FIELD_MAX - 1 bytes). */
static int field(struct weft_val_csv *c, char *buf, struct weft_error *err)
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
			return at(c, err, c->line, c->col,
				  "a NUL byte; a claims file is text (UTF-8 CSV)");
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
		if (n + 1 >= WEFT_VAL_FIELD_MAX)
			return weft_error_at(err, WEFT_ERR_INPUT, c->path, line, col,
					     "a field longer than %d bytes", WEFT_VAL_FIELD_MAX - 1);
		buf[n++] = ch;
	}
	buf[n] = '\0';
	return 0;
}

int weft_val_csv_next(struct weft_val_csv *c, struct weft_val_record *r, struct weft_error *err)
{
	memset(r, 0, sizeof(*r));
	/* blank and comment lines */
	while (c->p < c->end) {
		if (*c->p == '\n' || *c->p == '#' ||
		    (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')) {
			if (skip_line(c) < 0)
				return at(c, err, c->line, c->col,
					  "a NUL byte; a claims file is text (UTF-8 CSV)");
			continue;
		}
		break;
	}
	if (c->p >= c->end)
		return 0;
	r->line = c->line;
	char *buf = malloc(WEFT_VAL_FIELD_MAX);
	if (!buf)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", c->path);
	int rc = 0;
	for (;;) {
		if (r->n == WEFT_VAL_MAX_FIELDS) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, c->path, c->line, c->col,
					   "more than %d fields in one record; quote fields that "
					   "contain commas",
					   WEFT_VAL_MAX_FIELDS);
			break;
		}
		struct weft_val_field *f = &r->f[r->n];
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
