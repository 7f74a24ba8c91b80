/*
 * opt.h - the one command-line option parser every weft CLI uses, so that
 * all of them accept the same forms: options before and after operands,
 * `--name=value` and `--name value`, `-x value` and `-xvalue`, `--` to end
 * the options. It never prints: a problem comes back as WEFT_OPT_ERROR with
 * the reason in p->err (e.g. "unknown option `--verfy`"), which the CLI
 * prints in its own words ("weft-NAME: REASON; see `weft-NAME --help`").
 *
 *   static const struct weft_opt opts[] = {
 *       { "size", 's', WEFT_OPT_ARG, 's' }, WEFT_OPT_HELP_VERSION, { 0 } };
 *   struct weft_optp p;
 *   weft_opt_init(&p, argc, argv, 1);
 *   for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;)
 *       switch (id) { case WEFT_OPT_OPERAND: use p.arg; ... case 's': use p.arg; ... }
 *
 * The exit statuses every CLI shares are in docs/cli.md.
 */
#ifndef WEFT_OPT_H
#define WEFT_OPT_H

#include <stddef.h>

enum { WEFT_OPT_FLAG = 0, WEFT_OPT_ARG = 1 };

struct weft_opt {
	const char *name; /* long name without "--"; NULL ends the table */
	char short_name;  /* 'o' for -o, or 0 */
	int has_arg;      /* WEFT_OPT_FLAG or WEFT_OPT_ARG */
	int id;           /* > 0, returned by weft_opt_next */
};

/* ids of --help / -h and --version, and their table rows */
#define WEFT_OPT_ID_HELP 0x10001
#define WEFT_OPT_ID_VERSION 0x10002
#define WEFT_OPT_HELP_VERSION                                         \
	{ "help", 'h', WEFT_OPT_FLAG, WEFT_OPT_ID_HELP },             \
	{                                                             \
		"version", 0, WEFT_OPT_FLAG, WEFT_OPT_ID_VERSION      \
	}

/* what weft_opt_next returns besides an option's id */
#define WEFT_OPT_OPERAND 0 /* p->arg is an operand */
#define WEFT_OPT_END (-1)  /* no more arguments */
#define WEFT_OPT_ERROR (-2) /* p->err says why */

struct weft_optp {
	int argc;
	char **argv;
	int i;           /* next argv index */
	int only_operands; /* after "--" */
	const char *arg; /* the option's value (NULL for a flag) or the operand */
	char opt[64];    /* the option as the user named it: "--size" or "-o" */
	char err[256];
};

/* Starts parsing at argv[first]. */
void weft_opt_init(struct weft_optp *p, int argc, char **argv, int first);

/* The next option or operand; see above. */
int weft_opt_next(struct weft_optp *p, const struct weft_opt *opts);

/* Before any work: can an output file be created at path? 0 if it looks
 * so, else -1 with why (e.g. "it is a directory", "directory /x does not
 * exist") in why. Writing can still fail later (a full disk). */
int weft_opt_check_output(const char *path, char *why, size_t len);

/* Is path a directory? (Inputs named by the user must be files.) */
int weft_opt_is_dir(const char *path);

#endif
