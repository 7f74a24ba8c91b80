/*
 * ini.h - INI files (configs, launch specs) through libinih, with what inih
 * does not give: the file line of every key, and one rule for what inih
 * would otherwise do silently.
 *
 * The rules, the same for every INI file weft reads:
 *   - a line longer than inih's buffer (INI_MAX_LINE, less the newline and
 *     NUL) is an error naming the file and line ("line is too long (at most
 *     N characters)"), never truncated or split;
 *   - a NUL byte is an error ("NUL byte in the WHAT: is it a text file?");
 *   - a line that is neither `[section]`, `key = value` nor a comment (# or ;)
 *     is an error naming the file and line;
 *   - there are no continuation lines: an indented `key = value` is a key of
 *     its own, not part of the previous value.
 */
#ifndef WEFT_INI_H
#define WEFT_INI_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct weft_ini {
	const char *path; /* for messages */
	const char *what; /* what the file is, for messages: "config", "spec file" */
	/* Each `key = value` (value as inih trims it) with its line. */
	int (*on_key)(void *user, const char *section, const char *key, const char *value,
		      uint32_t line, struct weft_error *err);
	/* Optional: each raw line, before inih parses it. */
	int (*on_line)(void *user, const char *text, uint32_t line, struct weft_error *err);
	void *user;
};

/* Parses len bytes of text. The callbacks return 0, or a weft_err code with
 * err set: the first error stops the parse and is returned. An error of a
 * callback comes before a syntax error inih found on an earlier line. */
int weft_ini_parse(const struct weft_ini *ini, const char *text, size_t len,
		   struct weft_error *err);

#endif
