/*
 * file.h - reading a whole text file into memory, for the loaders of PTX,
 * launch specs, configs and data tables, and writing a file atomically, for
 * reports, traces and launch outputs. The reads and the streaming writer
 * leave the wording of an error to the caller (each knows what the file is
 * and what the user should check), so they report only which step failed;
 * weft_write_atomic words its own.
 */
#ifndef WEFT_FILE_H
#define WEFT_FILE_H

#include <stddef.h>

#include "error.h"

enum weft_file_status {
	WEFT_FILE_OK = 0,
	WEFT_FILE_OPEN = -1,  /* fopen failed; errno says why */
	WEFT_FILE_READ = -2,  /* a read failed part way */
	WEFT_FILE_NOMEM = -3, /* out of memory */
};

/* Reads the file at path into *data (malloc'd, NUL-terminated; *len bytes
 * before the NUL). Returns a weft_file_status; *data is NULL unless OK. */
int weft_file_read(const char *path, char **data, size_t *len);

/* ---- atomic writes ----
 * A file is written as PATH.tmp.XXXXXX in the same directory, given the
 * mode an ordinary new file gets (0666 less the umask; mkstemp makes it
 * 0600), fsynced, closed and renamed onto PATH: an interrupted or failed
 * write never leaves a file at PATH, nor changes one already there.
 *
 *     struct weft_file_out o;
 *     if (weft_file_out_open(&o, path) == 0 && weft_file_out_write(&o, p, n) == 0)
 *             st = weft_file_out_commit(&o);
 *     weft_file_out_free(&o);
 *
 * Each call returns 0 or the weft_file_out_step that failed, with errno
 * as that step left it. */

enum weft_file_out_step {
	WEFT_OUT_OK = 0,
	WEFT_OUT_NOMEM,  /* out of memory for the temporary name */
	WEFT_OUT_CREATE, /* mkstemp: the directory is missing or not writable */
	WEFT_OUT_WRITE,
	WEFT_OUT_CHMOD,
	WEFT_OUT_FSYNC,
	WEFT_OUT_CLOSE,
	WEFT_OUT_RENAME,
};

struct weft_file_out {
	int fd;           /* -1 once closed */
	char *tmp;        /* the temporary file's name, for messages */
	const char *path; /* the caller's */
};

/* Creates the temporary file beside path (which must outlive o). o needs
 * weft_file_out_free even when this fails. */
int weft_file_out_open(struct weft_file_out *o, const char *path);
/* Appends len bytes (retrying short writes and EINTR). */
int weft_file_out_write(struct weft_file_out *o, const void *data, size_t len);
/* chmod, fsync, close, rename onto path. On failure the temporary file is
 * removed (o->tmp still names it for the message). */
int weft_file_out_commit(struct weft_file_out *o);
/* Removes the temporary file unless committed, and frees o's name. */
void weft_file_out_free(struct weft_file_out *o);
/* "write", "chmod", "fsync", "close", "rename", ... for a step. */
const char *weft_file_out_step_name(int step);

/* Writes len bytes to path atomically (above). Errors: out of memory; an
 * input error when the temporary file cannot be created ("cannot create
 * PATH.tmp.XXXXXX: why (does the directory exist and is it writable?)");
 * an I/O error "STEP of TMP failed: why" otherwise. */
int weft_write_atomic(const char *path, const void *data, size_t len, struct weft_error *err);

#endif
