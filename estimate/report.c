/*
 * report.c - formatting a report and writing a report file atomically
 * (report.h).
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_impl.h"

int weft_est_report_format(const struct weft_est_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err)
{
	if (r->nconfigs == 0 || r->baseline >= r->nconfigs)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "report without configs or baseline");
	switch (fmt) {
	case WEFT_FMT_TABLE:
		weft_est_format_table(r, out);
		break;
	case WEFT_FMT_CSV:
		weft_est_format_csv(r, out);
		break;
	case WEFT_FMT_JSON:
		weft_est_format_json(r, out);
		break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "unknown report format %d", (int)fmt);
	}
	if (out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory formatting the report");
	return 0;
}

int weft_est_write_atomic(const char *path, const char *data, size_t len, struct weft_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing %s", path);
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot create %s.tmp.XXXXXX: %s (does the directory exist and is it writable?)",
				      path, strerror(e));
	}
	const char *what = "write";
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)w;
	}
	/* mkstemp makes the file 0600; a report is an ordinary file */
	mode_t um = umask(0);
	umask(um);
	what = "chmod";
	if (fchmod(fd, 0666 & ~um) != 0)
		goto fail;
	what = "fsync";
	if (fsync(fd) != 0)
		goto fail;
	what = "close";
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	what = "rename";
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	weft_error_set(err, WEFT_ERR_IO, "%s of %s failed: %s", what, tmp, strerror(e));
	free(tmp);
	return WEFT_ERR_IO;
}
