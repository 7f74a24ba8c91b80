/*
 * opt.c - the shared option parser (opt.h).
 */
#include "opt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void weft_opt_init(struct weft_optp *p, int argc, char **argv, int first)
{
	memset(p, 0, sizeof(*p));
	p->argc = argc;
	p->argv = argv;
	p->i = first;
}

static int opt_error(struct weft_optp *p, const char *fmt, const char *what)
{
	snprintf(p->err, sizeof(p->err), fmt, what);
	return WEFT_OPT_ERROR;
}

int weft_opt_next(struct weft_optp *p, const struct weft_opt *opts)
{
	p->arg = NULL;
	p->opt[0] = 0;
	p->err[0] = 0;
	if (p->i >= p->argc)
		return WEFT_OPT_END;
	const char *a = p->argv[p->i++];
	if (p->only_operands || a[0] != '-' || a[1] == 0) {
		p->arg = a;
		return WEFT_OPT_OPERAND;
	}
	if (strcmp(a, "--") == 0) {
		p->only_operands = 1;
		return weft_opt_next(p, opts);
	}
	const struct weft_opt *o = NULL;
	const char *inline_val = NULL;
	if (a[1] == '-') {
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t n = eq ? (size_t)(eq - name) : strlen(name);
		snprintf(p->opt, sizeof(p->opt), "--%.*s", (int)n, name);
		for (const struct weft_opt *q = opts; q->name; q++)
			if (strlen(q->name) == n && strncmp(q->name, name, n) == 0) {
				o = q;
				break;
			}
		if (!o)
			return opt_error(p, "unknown option `%s`", p->opt);
		if (eq) {
			if (o->has_arg == WEFT_OPT_FLAG)
				return opt_error(p, "%s takes no value", p->opt);
			inline_val = eq + 1;
		}
	} else {
		snprintf(p->opt, sizeof(p->opt), "-%c", a[1]);
		for (const struct weft_opt *q = opts; q->name; q++)
			if (q->short_name && q->short_name == a[1]) {
				o = q;
				break;
			}
		if (!o)
			return opt_error(p, "unknown option `%s`", a);
		if (a[2]) {
			if (o->has_arg == WEFT_OPT_FLAG)
				return opt_error(p, "unknown option `%s`", a);
			inline_val = a + 2;
		}
	}
	if (o->has_arg == WEFT_OPT_ARG) {
		if (inline_val) {
			p->arg = inline_val;
		} else {
			if (p->i >= p->argc)
				return opt_error(p, "%s needs a value", p->opt);
			p->arg = p->argv[p->i++];
		}
	}
	return o->id;
}

int weft_opt_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int weft_opt_check_output(const char *path, char *why, size_t len)
{
	struct stat st;
	if (!*path) {
		snprintf(why, len, "the output file name is empty");
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, len, "%s is a directory; name a file", path);
			return -1;
		}
	}
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) != 0) {
		snprintf(why, len, "cannot create %s: directory %s: %s", path, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "cannot create %s: %s is not a directory", path, dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(why, len, "cannot create %s: directory %s: %s", path, dir, strerror(errno));
		return -1;
	}
	return 0;
}
