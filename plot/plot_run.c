/*
 * plot_run.c - gnuplot found and run on a figure's script through a pipe
 * (an AF_UNIX socket pair, written with MSG_NOSIGNAL so a gnuplot that
 * exits early is an error, not a SIGPIPE), its stderr kept in a file of a
 * fresh temporary directory where it also draws the figure; the figure
 * checked (plot_image.h) and written to its path atomically (plot_run.h).
 */
#include "plot_run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "plot_gp.h"
#include "plot_image.h"

#define SAID_MAX 4096 /* what of gnuplot's stderr is kept */

static int executable(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

int weft_plot_find_gnuplot(char *path, size_t len, struct weft_error *err)
{
	const char *env = getenv("WEFT_GNUPLOT");
	if (env && env[0]) {
		if (!executable(env))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "WEFT_GNUPLOT=%s is not an executable file; point it at "
					      "gnuplot, or unset it to use the gnuplot on PATH",
					      env);
		snprintf(path, len, "%s", env);
		return 0;
	}
	const char *p = getenv("PATH");
	if (!p || !p[0])
		p = "/usr/bin:/bin";
	while (*p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char cand[4096];
		if (n == 0)
			snprintf(cand, sizeof(cand), "./gnuplot");
		else
			snprintf(cand, sizeof(cand), "%.*s/gnuplot", (int)(n < 4000 ? n : 4000), p);
		if (executable(cand)) {
			snprintf(path, len, "%s", cand);
			return 0;
		}
		p += n + (e ? 1 : 0);
	}
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "gnuplot is not installed (no `gnuplot` on PATH); install the Debian "
			      "package gnuplot-nox (`sudo apt-get install gnuplot-nox`; `make deps` "
			      "does it) or set WEFT_GNUPLOT to a gnuplot program");
}

/* The first lines of what gnuplot said, on one line, into buf. */
static void first_lines(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	int lines = 0;
	for (; *s && k + 4 < len && lines < 6; s++) {
		char c = (unsigned char)*s < 0x20 ? ' ' : *s;
		if (*s == '\n')
			lines++;
		if (c == ' ' && (k == 0 || buf[k - 1] == ' '))
			continue; /* gnuplot pads its caret line with blanks */
		buf[k++] = c;
	}
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
}

/* Sends all of data to fd; -1 with errno when the reader has gone. */
static int send_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Runs gnuplot on script with outfile = fig; status and stderr (in errpath)
 * back. Returns 0 when gnuplot ran (whatever its status), else an error. */
static int run_gnuplot(const char *gp, const char *script, size_t len, const char *fig,
		       const char *errpath, int *status, struct weft_error *err)
{
	struct weft_sbuf arg;
	weft_sbuf_init(&arg);
	weft_sbuf_puts(&arg, "outfile=");
	weft_gp_quote(&arg, fig);
	if (arg.failed) {
		weft_sbuf_free(&arg);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	}
	char *argv[] = { (char *)"gnuplot", (char *)"-e", arg.data, (char *)"-", NULL };
	int sv[2] = { -1, -1 };
	int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int nfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int rc = 0;
	if (efd < 0 || nfd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		rc = weft_error_set(err, WEFT_ERR_IO, "cannot set up gnuplot's pipe: %s", strerror(errno));
	pid_t pid = -1;
	if (rc == 0 && (pid = fork()) < 0)
		rc = weft_error_set(err, WEFT_ERR_IO, "cannot start gnuplot: %s", strerror(errno));
	if (rc == 0 && pid == 0) {
		/* the child: only async-signal-safe calls */
		if (dup2(sv[1], 0) < 0 || dup2(nfd, 1) < 0 || dup2(efd, 2) < 0)
			_exit(126);
		execv(gp, argv);
		_exit(127);
	}
	if (sv[1] >= 0)
		close(sv[1]);
	if (efd >= 0)
		close(efd);
	if (nfd >= 0)
		close(nfd);
	if (rc == 0) {
		/* a gnuplot that stops reading (it failed) shows in its status */
		(void)send_all(sv[0], script, len);
		shutdown(sv[0], SHUT_WR);
		int st;
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR) {
				rc = weft_error_set(err, WEFT_ERR_IO, "waiting for gnuplot: %s", strerror(errno));
				break;
			}
		if (rc == 0)
			*status = st;
	}
	if (sv[0] >= 0)
		close(sv[0]);
	weft_sbuf_free(&arg);
	return rc;
}

static const char *ext_of(enum weft_plot_term t)
{
	return t == WEFT_TERM_PNG ? "png" : t == WEFT_TERM_SVG ? "svg" : "pdf";
}

/* Checks what gnuplot drew against what the terminal was told. */
static int check_image(const unsigned char *data, size_t len, const struct weft_plot_opts *o,
		       struct weft_error *err)
{
	double w, h, ew, eh;
	char why[128];
	if (weft_plot_image_size(data, len, o->term, &w, &h, why, sizeof(why)) < 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "gnuplot's %s for %s is not a valid image: %s", ext_of(o->term),
				      o->output, why);
	weft_plot_size(o, &ew, &eh);
	int pdf = o->term == WEFT_TERM_PDF;
	if (!pdf) {
		ew = floor(ew + 0.5);
		eh = floor(eh + 0.5);
	}
	if ((!pdf || w > 0) && (fabs(w - ew) > (pdf ? 0.02 : 0.5) || fabs(h - eh) > (pdf ? 0.02 : 0.5)))
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "gnuplot drew %s at %gx%g, not the %gx%g it was asked for",
				      o->output, w, h, ew, eh);
	return 0;
}

int weft_plot_render(const char *script, size_t len, const struct weft_plot_opts *o,
		     struct weft_sbuf *said, struct weft_error *err)
{
	char gp[4096];
	int rc = weft_plot_find_gnuplot(gp, sizeof(gp), err);
	if (rc < 0)
		return rc;
	const char *tmpdir = getenv("TMPDIR");
	char dir[4096], fig[4200], errpath[4200];
	snprintf(dir, sizeof(dir), "%s/weft-plot.XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
	if (!mkdtemp(dir))
		return weft_error_set(err, WEFT_ERR_IO,
				      "cannot make a temporary directory for gnuplot (%s): %s; set TMPDIR "
				      "to a writable directory",
				      dir, strerror(errno));
	snprintf(fig, sizeof(fig), "%s/figure.%s", dir, ext_of(o->term));
	snprintf(errpath, sizeof(errpath), "%s/gnuplot.err", dir);
	int status = 0;
	rc = run_gnuplot(gp, script, len, fig, errpath, &status, err);
	char *msg = NULL, *img = NULL;
	size_t msglen = 0, imglen = 0;
	if (rc == 0 && weft_file_read(errpath, &msg, &msglen) != WEFT_FILE_OK)
		msg = NULL;
	if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		char first[600];
		first_lines(msg ? msg : "", first, sizeof(first));
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !first[0])
			rc = weft_error_set(err, WEFT_ERR_INPUT, "cannot run %s", gp);
		else if (WIFEXITED(status))
			rc = weft_error_set(err, WEFT_ERR_INTERNAL,
					    "gnuplot (%s) failed on the figure's script, exit status %d: %s "
					    "(weft-plot needs gnuplot 5 or newer)",
					    gp, WEXITSTATUS(status), first[0] ? first : "no message");
		else
			rc = weft_error_set(err, WEFT_ERR_INTERNAL, "gnuplot (%s) was killed by signal %d",
					    gp, WTERMSIG(status));
	}
	if (rc == 0) {
		int st = weft_file_read(fig, &img, &imglen);
		if (st == WEFT_FILE_NOMEM)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading the figure");
		else if (st != WEFT_FILE_OK)
			rc = weft_error_set(err, WEFT_ERR_INTERNAL, "gnuplot exited 0 but drew no %s", fig);
	}
	if (rc == 0)
		rc = check_image((const unsigned char *)img, imglen, o, err);
	if (rc == 0)
		rc = weft_write_atomic(o->output, img, imglen, err);
	if (rc == 0 && said && msg && msglen)
		weft_sbuf_printf(said, "%.*s", (int)(msglen < SAID_MAX ? msglen : SAID_MAX), msg);
	free(msg);
	free(img);
	unlink(fig);
	unlink(errpath);
	rmdir(dir);
	return rc;
}
