/*
 * file.c - whole-file reads and atomic writes (file.h).
 *
 * How an atomic write goes (file.h has the guarantees):
 *   open:   remove PATH.tmp.weft-XXXXXX files of this user that no live
 *           writer holds a flock on; create an unnamed file in PATH's
 *           directory (O_TMPFILE), or, where the filesystem cannot, the
 *           named PATH.tmp.weft-XXXXXX (the fallback); flock it.
 *   write:  plain write(2) calls.
 *   commit: fsync; unnamed: linkat onto PATH, or when PATH exists onto a
 *           fresh PATH.tmp.weft-XXXXXX then rename over PATH; named: rename
 *           onto PATH; close (which drops the flock) only after the rename;
 *           then fsync PATH's directory, so the new name survives a power
 *           loss too (best effort: a directory that cannot be synced, as on
 *           some network filesystems, leaves the name as durable as the
 *           filesystem makes it).
 * The mode is the creation mode 0666, which the kernel reduces by the umask
 * as for any new file (no umask() call, which would race other threads).
 */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH, getrandom */

#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
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

/* ---- atomic writes ---- */

/* Temporary names are PATH TMP_INFIX and six letters or digits. */
#define TMP_INFIX ".tmp.weft-"
#define TMP_RAND 6

static int force_named;

void weft_file_out_force_named(int on)
{
	force_named = on != 0;
}

/* Writes TMP_RAND random letters and digits at p. */
static void random_suffix(char *p)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned calls;
	uint64_t r;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no entropy yet (early boot): a clash only costs a retry */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
		    (++calls * 0x9e3779b97f4a7c15ull);
	}
	for (int i = 0; i < TMP_RAND; i++) {
		p[i] = abc[r % 62];
		r /= 62;
	}
}

/* Whether name is base TMP_INFIX followed by exactly TMP_RAND letters or
 * digits. */
static int is_tmp_name(const char *name, const char *base, size_t blen)
{
	size_t ilen = strlen(TMP_INFIX);
	if (strncmp(name, base, blen) != 0 || strncmp(name + blen, TMP_INFIX, ilen) != 0)
		return 0;
	const char *r = name + blen + ilen;
	for (int i = 0; i < TMP_RAND; i++) {
		char c = r[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return r[TMP_RAND] == '\0';
}

/* Removes what killed writers of dir/base left: base's temporary names
 * that are regular files of this user which no live writer holds a flock
 * on. Best effort: any error skips the entry. The inode is compared before
 * the unlink, so a name that moved on (committed, then reused) stays. */
static void remove_stale(const char *dir, const char *base)
{
	size_t blen = strlen(base);
	if (!blen)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	int dfd = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!is_tmp_name(e->d_name, base, blen))
			continue;
		int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct stat held, named;
		if (fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && held.st_uid == geteuid() &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
		    fstatat(dfd, e->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
		    named.st_ino == held.st_ino && named.st_dev == held.st_dev)
			unlinkat(dfd, e->d_name, 0);
		close(fd);
	}
	closedir(d);
}

/* Writes PATH TMP_INFIX and a fresh random suffix into o->tmp. */
static void new_tmp_name(struct weft_file_out *o)
{
	size_t n = strlen(o->path);
	memcpy(o->tmp, o->path, n);
	memcpy(o->tmp + n, TMP_INFIX, strlen(TMP_INFIX));
	n += strlen(TMP_INFIX);
	random_suffix(o->tmp + n);
	o->tmp[n + TMP_RAND] = '\0';
}

#ifdef O_TMPFILE
/* Gives the unnamed file fd the name name: linkat(AT_EMPTY_PATH), which
 * Linux allows an unprivileged process since 6.10 (before, only with
 * CAP_DAC_READ_SEARCH: it fails with ENOENT), else through its
 * /proc/self/fd link, which any process may follow. */
static int link_unnamed(int fd, const char *name)
{
	if (linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT && errno != EPERM)
		return -1;
	char proc[40];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

/* Whether link_unnamed can work for fd: /proc is there, or linkat
 * AT_EMPTY_PATH is allowed (tried on "/", which exists, so a permitted
 * call fails with EEXIST and creates nothing). */
static int can_link(int fd)
{
	if (access("/proc/self/fd", X_OK) == 0)
		return 1;
	return linkat(fd, "", AT_FDCWD, "/", AT_EMPTY_PATH) != 0 && errno == EEXIST;
}

/* An unnamed file in dir: its fd; -1 with errno on a real error; -2 when
 * this filesystem or system cannot (the caller falls back to a named
 * file). */
static int open_unnamed(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd < 0)
		/* EOPNOTSUPP: the filesystem has no O_TMPFILE; EISDIR: the kernel
		 * predates it (3.11) and read the flag as O_DIRECTORY; EINVAL: ditto,
		 * elsewhere */
		return errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL ? -2 : -1;
	if (!can_link(fd)) {
		close(fd);
		return -2;
	}
	/* nobody else can reach it yet, so the lock is always granted; it
	 * guards the temporary name the file may get at commit */
	flock(fd, LOCK_EX | LOCK_NB);
	return fd;
}
#endif

/* Creates o->tmp as a new named file, flock'ed: its fd, or -1 with errno.
 * A remove_stale of another writer may take the lock between the create
 * and the flock, or unlink the name just before it: then try another. */
static int open_named(struct weft_file_out *o)
{
	for (int tries = 0; tries < 100; tries++) {
		new_tmp_name(o);
		int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0) {
			if (errno == EEXIST)
				continue;
			return -1;
		}
		/* a filesystem without flock: go on unlocked (remove_stale cannot
		 * lock there either, so it removes nothing) */
		int locked = flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK;
		struct stat st;
		if (locked && fstat(fd, &st) == 0 && st.st_nlink > 0)
			return fd;
		close(fd);
	}
	errno = EEXIST;
	return -1;
}

int weft_file_out_open(struct weft_file_out *o, const char *path)
{
	o->fd = -1;
	o->path = path;
	o->unnamed = 0;
	size_t n = strlen(path);
	o->tmp = malloc(n + 48); /* PATH.tmp.weft-XXXXXX, the directory, /proc/self/fd/N */
	if (!o->tmp)
		return WEFT_OUT_NOMEM;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!slash)
		strcpy(o->tmp, ".");
	else if (slash == path)
		strcpy(o->tmp, "/");
	else {
		memcpy(o->tmp, path, (size_t)(slash - path));
		o->tmp[slash - path] = '\0';
	}
	remove_stale(o->tmp, base);
#ifdef O_TMPFILE
	if (!force_named) {
		int fd = open_unnamed(o->tmp);
		if (fd == -1) {
			int e = errno;
			snprintf(o->tmp, n + 48, "%s", path);
			errno = e;
			return WEFT_OUT_CREATE;
		}
		if (fd >= 0) {
			o->fd = fd;
			o->unnamed = 1;
			snprintf(o->tmp, n + 48, "/proc/self/fd/%d", fd);
			return WEFT_OUT_OK;
		}
	}
#endif
	o->fd = open_named(o);
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

#ifdef O_TMPFILE
/* Links the unnamed file onto o->path when nothing is there (it then
 * appears in one step: *done = 1), else onto a fresh temporary name in
 * o->tmp for the caller to rename. 0 or -1 with errno. */
static int link_into_place(struct weft_file_out *o, int *done)
{
	*done = 0;
	if (link_unnamed(o->fd, o->path) == 0) {
		*done = 1;
		return 0;
	}
	if (errno != EEXIST)
		return -1;
	for (int tries = 0; tries < 100; tries++) {
		new_tmp_name(o);
		if (link_unnamed(o->fd, o->tmp) == 0) {
			o->unnamed = 0;
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}
#endif

/* fsync the directory that holds path, ignoring failure (see the top). */
static void sync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return;
	(void)fsync(dfd);
	close(dfd);
}

int weft_file_out_commit(struct weft_file_out *o)
{
	int step = WEFT_OUT_FSYNC;
	if (fsync(o->fd) != 0)
		goto fail;
	int done = 0;
#ifdef O_TMPFILE
	if (o->unnamed) {
		step = WEFT_OUT_LINK;
		if (link_into_place(o, &done) != 0)
			goto fail;
	}
#endif
	step = WEFT_OUT_RENAME;
	if (!done && rename(o->tmp, o->path) != 0)
		goto fail;
	/* in place; closing only now keeps the flock until the name is gone.
	 * fsync has reported any write error, so close can hardly fail. */
	int fd = o->fd;
	o->fd = -1;
	o->unnamed = 0;
	if (close(fd) != 0)
		return WEFT_OUT_CLOSE;
	sync_parent(o->path);
	return WEFT_OUT_OK;
fail:;
	int e = errno;
	close(o->fd);
	o->fd = -1;
	if (!o->unnamed)
		unlink(o->tmp);
	errno = e;
	return step;
}

void weft_file_out_free(struct weft_file_out *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		if (!o->unnamed)
			unlink(o->tmp);
	}
	o->fd = -1;
	free(o->tmp);
	o->tmp = NULL;
}

const char *weft_file_out_step_name(int step)
{
	static const char *const names[] = { "ok",	"allocate", "create", "write", "chmod",
					     "fsync", "close",	  "rename", "link" };
	return step >= 0 && step <= WEFT_OUT_LINK ? names[step] : "?";
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
				    "cannot create a file in the directory of %s: %s (does the directory "
				    "exist and is it writable?)",
				    path, strerror(e));
	else if (st)
		rc = weft_error_set(err, WEFT_ERR_IO, "%s of %s failed: %s (temporary file %s)",
				    weft_file_out_step_name(st), path, strerror(e),
				    o.unnamed ? "unnamed" : o.tmp);
	weft_file_out_free(&o);
	return rc;
}
