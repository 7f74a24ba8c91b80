/*
 * ini.c - libinih over a string, with line numbers and the rules of ini.h.
 */
#include "ini.h"

#include <ini.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

struct state {
	const struct weft_ini *ini;
	const char *pos, *end;
	uint32_t line; /* line last handed to inih */
	int code;      /* the first error, or 0 */
	struct weft_error *err;
};

/* fgets-like: hands inih one whole line at a time. */
static pthread_mutex_t ini_lock = PTHREAD_MUTEX_INITIALIZER;

static char *reader(char *str, int num, void *stream)
{
	struct state *s = stream;
	if (s->code || s->pos >= s->end || num < 2)
		return NULL;
	const char *nl = memchr(s->pos, '\n', (size_t)(s->end - s->pos));
	size_t len = nl ? (size_t)(nl - s->pos) + 1 : (size_t)(s->end - s->pos);
	s->line++;
	if (len + 1 > (size_t)num) { /* inih needs room for the newline and NUL */
		s->code = weft_error_at(s->err, WEFT_ERR_INPUT, s->ini->path, s->line, 0,
					"line is too long (at most %d characters)", num - 3);
		return NULL;
	}
	if (memchr(s->pos, 0, len)) {
		s->code = weft_error_at(s->err, WEFT_ERR_INPUT, s->ini->path, s->line, 0,
					"NUL byte in the %s: is it a text file?", s->ini->what);
		return NULL;
	}
	memcpy(str, s->pos, len);
	str[len] = 0;
	s->pos += len;
	if (s->ini->on_line)
		s->code = s->ini->on_line(s->ini->user, str, s->line, s->err);
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct state *s = user;
	if (!s->code)
		s->code = s->ini->on_key(s->ini->user, section, name, value ? value : "", s->line,
					 s->err);
	return 1;
}

int weft_ini_parse(const struct weft_ini *ini, const char *text, size_t len,
		   struct weft_error *err)
{
	struct state s = { ini, text, text + len, 0, 0, err };
	/* ini_allow_multiline is libinih's process-wide setting: parses on
	 * several threads (weft-estimate -j: configurations load on worker
	 * threads) take turns at it */
	pthread_mutex_lock(&ini_lock);
	bool multiline = ini_allow_multiline;
	ini_allow_multiline = false;
	int rc = ini_parse_stream(reader, &s, handler, &s);
	ini_allow_multiline = multiline;
	pthread_mutex_unlock(&ini_lock);
	if (s.code)
		return s.code;
	if (rc > 0)
		return weft_error_at(err, WEFT_ERR_INPUT, ini->path, (uint32_t)rc, 0,
				     "not an INI line: expected `[section]`, `key = value` or a "
				     "comment (# or ;)");
	if (rc < 0)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", ini->path);
	return 0;
}
