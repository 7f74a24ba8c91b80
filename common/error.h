/*
 * error.h - how every weft library function reports failure.
 *
 * The library never prints and never exits. A function that can fail returns
 * 0 on success or a negative enum weft_err, and fills the struct weft_error
 * its caller passed in (which may be NULL when the caller does not care).
 * The message says what was wrong and what to do; file/line/column (or a
 * byte offset) say where. CLI mains turn the code into an exit status with
 * weft_err_exit_code(): 0 success, 1 a check failed, 2 bad usage or input,
 * 3 internal error or out of memory (docs/cli.md).
 */
#ifndef WEFT_ERROR_H
#define WEFT_ERROR_H

#include <stddef.h>
#include <stdint.h>

enum weft_err {
	WEFT_OK = 0,
	WEFT_ERR_INPUT = -1,    /* bad user input: PTX, spec, arguments, files */
	WEFT_ERR_PARSE = -2,    /* malformed or unsupported PTX */
	WEFT_ERR_RUNTIME = -3,  /* the kernel did something illegal: OOB, partial barrier */
	WEFT_ERR_LIMIT = -4,    /* a configured limit was hit (--max-thread-insts) */
	WEFT_ERR_IO = -5,       /* file system */
	WEFT_ERR_VERIFY = -6,   /* results differ from the reference */
	WEFT_ERR_NOMEM = -7,
	WEFT_ERR_INTERNAL = -8, /* a bug in weft */
};

#define WEFT_ERROR_MSG_MAX 1024

struct weft_error {
	enum weft_err code;
	char message[WEFT_ERROR_MSG_MAX];
	char file[256]; /* empty when not about a file */
	uint32_t line;  /* 1-based; 0 = unknown */
	uint32_t column;
	int64_t offset; /* byte offset in a binary file; -1 = none */
};

/* Clears err (no-op on NULL). */
void weft_error_clear(struct weft_error *err);

/* Fills err (when non-NULL) and returns code, so callers can write
 * `return weft_error_set(err, WEFT_ERR_INPUT, "...", ...);`. */
int weft_error_set(struct weft_error *err, enum weft_err code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As weft_error_set, with a source position. file may be NULL. */
int weft_error_at(struct weft_error *err, enum weft_err code, const char *file,
		  uint32_t line, uint32_t column, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Prepends context ("while loading foo.ptx: ") to an existing message. */
void weft_error_prefix(struct weft_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Formats "file:line:col: message" (or just the message) into buf. */
const char *weft_error_format(const struct weft_error *err, char *buf, size_t len);

/* Exit status for a CLI (docs/cli.md): 0, 1 (verification), 2 (input,
 * parse, limit, runtime fault in the user's kernel, a file that cannot be
 * read or written), 3 (internal, nomem). */
int weft_err_exit_code(int code);

/* Short name of a code, e.g. "parse error". */
const char *weft_err_name(int code);

#endif
