/* error.c - struct weft_error helpers (see error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void weft_error_clear(struct weft_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->offset = -1;
}

static void vset(struct weft_error *err, enum weft_err code, const char *fmt, va_list ap)
{
	err->code = code;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

int weft_error_set(struct weft_error *err, enum weft_err code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		weft_error_clear(err);
		va_start(ap, fmt);
		vset(err, code, fmt, ap);
		va_end(ap);
	}
	return code;
}

int weft_error_at(struct weft_error *err, enum weft_err code, const char *file,
		  uint32_t line, uint32_t column, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		weft_error_clear(err);
		if (file)
			snprintf(err->file, sizeof(err->file), "%s", file);
		err->line = line;
		err->column = column;
		va_start(ap, fmt);
		vset(err, code, fmt, ap);
		va_end(ap);
	}
	return code;
}

void weft_error_prefix(struct weft_error *err, const char *fmt, ...)
{
	char pre[WEFT_ERROR_MSG_MAX], old[WEFT_ERROR_MSG_MAX];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->message, sizeof(old));
	size_t n = strlen(pre);
	if (n >= sizeof(err->message))
		n = sizeof(err->message) - 1;
	memcpy(err->message, pre, n);
	size_t rest = sizeof(err->message) - 1 - n;
	size_t m = strlen(old);
	if (m > rest)
		m = rest;
	memcpy(err->message + n, old, m);
	err->message[n + m] = 0;
}

const char *weft_error_format(const struct weft_error *err, char *buf, size_t len)
{
	if (!err->file[0])
		snprintf(buf, len, "%s", err->message);
	else if (err->line && err->column)
		snprintf(buf, len, "%s:%u:%u: %s", err->file, err->line, err->column, err->message);
	else if (err->line)
		snprintf(buf, len, "%s:%u: %s", err->file, err->line, err->message);
	else if (err->offset >= 0)
		snprintf(buf, len, "%s: at byte offset %lld: %s", err->file,
			 (long long)err->offset, err->message);
	else
		snprintf(buf, len, "%s: %s", err->file, err->message);
	return buf;
}

int weft_err_exit_code(int code)
{
	switch (code) {
	case WEFT_OK:
		return 0;
	case WEFT_ERR_VERIFY:
		return 1;
	case WEFT_ERR_INPUT:
	case WEFT_ERR_PARSE:
	case WEFT_ERR_RUNTIME:
	case WEFT_ERR_LIMIT:
	case WEFT_ERR_IO: /* a file the user named cannot be read or written */
		return 2;
	default:
		return 3;
	}
}

const char *weft_err_name(int code)
{
	switch (code) {
	case WEFT_OK: return "ok";
	case WEFT_ERR_INPUT: return "bad input";
	case WEFT_ERR_PARSE: return "PTX error";
	case WEFT_ERR_RUNTIME: return "kernel fault";
	case WEFT_ERR_LIMIT: return "limit reached";
	case WEFT_ERR_IO: return "I/O error";
	case WEFT_ERR_VERIFY: return "verification failed";
	case WEFT_ERR_NOMEM: return "out of memory";
	default: return "internal error";
	}
}
