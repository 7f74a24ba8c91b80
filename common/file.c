/*
 * file.c - whole-file reads and atomic writes (file.h).
 */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int weft_file_read(const char *path, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return WEFT_FILE_OPEN;
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap);
		if (!nb)
			free(buf);
		buf = nb;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return WEFT_FILE_NOMEM;
	if (bad) {
		free(buf);
		return WEFT_FILE_READ;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return WEFT_FILE_OK;
}

int weft_file_out_open(struct weft_file_out *o, const char *path)
{
	o->fd = -1;
	o->path = path;
	size_t n = strlen(path) + 16;
	o->tmp = malloc(n);
	if (!o->tmp)
		return WEFT_OUT_NOMEM;
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
	o->fd = mkstemp(o->tmp);
	return o->fd < 0 ? WEFT_OUT_CREATE : WEFT_OUT_OK;
}

int weft_file_out_write(struct weft_file_out *o, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t k = write(o->fd, p, len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return WEFT_OUT_WRITE;
		}
		p += k;
		len -= (size_t)k;
	}
	return WEFT_OUT_OK;
}

int weft_file_out_commit(struct weft_file_out *o)
{
	int step = WEFT_OUT_CHMOD;
	mode_t um = umask(0);
	umask(um);
	if (fchmod(o->fd, 0666 & ~um) != 0)
		goto fail;
	step = WEFT_OUT_FSYNC;
	if (fsync(o->fd) != 0)
		goto fail;
	step = WEFT_OUT_CLOSE;
	int fd = o->fd;
	o->fd = -1;
	if (close(fd) != 0)
		goto fail;
	step = WEFT_OUT_RENAME;
	if (rename(o->tmp, o->path) != 0)
		goto fail;
	return WEFT_OUT_OK;
fail:;
	int e = errno;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	unlink(o->tmp);
	errno = e;
	return step;
}

void weft_file_out_free(struct weft_file_out *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		unlink(o->tmp);
	}
	o->fd = -1;
	free(o->tmp);
	o->tmp = NULL;
}

const char *weft_file_out_step_name(int step)
{
	static const char *const names[] = { "ok", "allocate", "create", "write", "chmod",
					     "fsync", "close", "rename" };
	return step >= 0 && step <= WEFT_OUT_RENAME ? names[step] : "?";
}

int weft_write_atomic(const char *path, const void *data, size_t len, struct weft_error *err)
{
	struct weft_file_out o;
	int st = weft_file_out_open(&o, path);
	if (st == WEFT_OUT_OK)
		st = weft_file_out_write(&o, data, len);
	if (st == WEFT_OUT_OK)
		st = weft_file_out_commit(&o);
	int e = errno, rc = 0;
	if (st == WEFT_OUT_NOMEM)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing %s", path);
	else if (st == WEFT_OUT_CREATE)
		rc = weft_error_set(err, WEFT_ERR_INPUT,
				    "cannot create %s.tmp.XXXXXX: %s (does the directory exist and is it "
				    "writable?)",
				    path, strerror(e));
	else if (st)
		rc = weft_error_set(err, WEFT_ERR_IO, "%s of %s failed: %s", weft_file_out_step_name(st),
				    o.tmp, strerror(e));
	weft_file_out_free(&o);
	return rc;
}
