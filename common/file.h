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
 * A file appears under its final name only complete: nothing is ever at
 * PATH that a reader could see half written, and an old file at PATH stays
 * as it was until the new one replaces it whole.
 *
 * On Linux the data goes into an unnamed file in PATH's directory
 * (open(DIR, O_TMPFILE)): a process killed before commit, even by SIGKILL,
 * leaves nothing behind. Commit fsyncs it and gives it a name (linkat):
 * PATH itself when nothing is there, in one step; otherwise a temporary
 * name PATH.tmp.weft-XXXXXX that is then renamed over PATH (linkat cannot
 * replace a file). A SIGKILL between that link and the rename leaves a
 * complete copy under the temporary name, and the old file at PATH.
 * Once named, PATH's directory is fsynced too (best effort), so that the
 * name as well as the data survives a power loss.
 *
 * Fallback: where the filesystem has no O_TMPFILE (open fails with
 * EOPNOTSUPP, EISDIR or EINVAL), or an unnamed file could not be linked
 * (no /proc, and a kernel before 6.10 refusing linkat AT_EMPTY_PATH to an
 * unprivileged process), the data is written straight into
 * PATH.tmp.weft-XXXXXX, fsynced and renamed onto PATH; a process killed
 * while writing leaves that partial file behind (never at PATH).
 *
 * Either way the file gets the mode an ordinary new file gets (0666 less
 * the umask), and a writer holds a flock on its temporary file until the
 * rename: opening PATH for writing first removes every
 * PATH.tmp.weft-XXXXXX owned by this user that no live writer holds
 * (what a killed writer left), so such leftovers last only until the next
 * write of the same PATH.
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
	WEFT_OUT_CREATE, /* the directory is missing or not writable */
	WEFT_OUT_WRITE,
	WEFT_OUT_CHMOD,  /* no longer returned: the mode is set at creation */
	WEFT_OUT_FSYNC,
	WEFT_OUT_CLOSE,  /* after the rename: the file is in place, complete */
	WEFT_OUT_RENAME,
	WEFT_OUT_LINK,   /* naming the unnamed file (linkat) */
};

struct weft_file_out {
	int fd;           /* -1 once closed */
	char *tmp;        /* a name the temporary file can be opened by while
			     o is open, for messages and tests: the named file,
			     or /proc/self/fd/N for an unnamed one */
	const char *path; /* the caller's */
	int unnamed;      /* 1 while the file has no name of its own (O_TMPFILE) */
};

/* Creates the temporary file in path's directory (path must outlive o),
 * after removing what killed writers of path left there. o needs
 * weft_file_out_free even when this fails. */
int weft_file_out_open(struct weft_file_out *o, const char *path);
/* Appends len bytes (retrying short writes and EINTR). */
int weft_file_out_write(struct weft_file_out *o, const void *data, size_t len);
/* fsync, name it (link and/or rename onto path), close. On failure before
 * the file is at path, its temporary name (if any) is removed; o->tmp
 * still says what it was, for the message. */
int weft_file_out_commit(struct weft_file_out *o);
/* Removes the temporary file unless committed, and frees o's name. */
void weft_file_out_free(struct weft_file_out *o);
/* "write", "fsync", "link", "rename", ... for a step. */
const char *weft_file_out_step_name(int step);

/* For tests: nonzero makes weft_file_out_open skip O_TMPFILE and use the
 * named fallback, as on a filesystem without it. Not thread-safe. */
void weft_file_out_force_named(int on);

/* Writes len bytes to path atomically (above). Errors: out of memory; an
 * input error when no file can be created in path's directory ("cannot
 * create a file in the directory of PATH: why (does the directory exist
 * and is it writable?)"); an I/O error "STEP of PATH failed: why
 * (temporary file ...)" otherwise. */
int weft_write_atomic(const char *path, const void *data, size_t len, struct weft_error *err);

#endif
