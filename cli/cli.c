/*
 * cli.c - the messages, exit statuses, --help and --version every weft
 * CLI shares (cli.h). The program and command names are process-wide: a
 * program runs one command, so main sets them once and every message
 * after that names them.
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/pool.h"
#include "common/version.h"

static const char *program = "weft";
static const char *command;

void weft_cli_start(const char *name)
{
	program = name;
	command = NULL;
}

void weft_cli_command(const char *name)
{
	command = name;
}

/* "PROGRAM: MESSAGE" or "PROGRAM COMMAND: MESSAGE", no newline */
static void message(const char *fmt, va_list ap)
{
	if (command)
		fprintf(stderr, "%s %s: ", program, command);
	else
		fprintf(stderr, "%s: ", program);
	vfprintf(stderr, fmt, ap);
}

void weft_cli_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int weft_cli_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	/* `help` takes no options: its help is the program's */
	if (command && strcmp(command, "help") != 0)
		fprintf(stderr, "; see `%s %s --help`\n", program, command);
	else
		fprintf(stderr, "; see `%s --help`\n", program);
	return 2;
}

int weft_cli_exit_status(const struct weft_error *err, int checked)
{
	if (err->code == WEFT_ERR_VERIFY && !checked)
		return 2;
	return weft_err_exit_code(err->code);
}

static int print_error(const struct weft_error *err, int checked)
{
	char buf[WEFT_ERROR_MSG_MAX + 512];
	if (err->message[0])
		weft_cli_say("%s", weft_error_format(err, buf, sizeof(buf)));
	else /* a library bug: it failed without saying why */
		weft_cli_say("%s (code %d)", weft_err_name(err->code), (int)err->code);
	return weft_cli_exit_status(err, checked);
}

int weft_cli_fail(const struct weft_error *err)
{
	return print_error(err, 0);
}

int weft_cli_fail_check(const struct weft_error *err)
{
	return print_error(err, 1);
}

int weft_cli_nomem(const char *what)
{
	weft_cli_say("out of memory%s%s", what ? " " : "", what ? what : "");
	return 3;
}

int weft_cli_end(int status)
{
	errno = 0;
	int bad = fflush(stdout) != 0 || ferror(stdout);
	if (!bad || status != 0)
		return status;
	weft_cli_say("writing to standard output failed: %s",
		     errno ? strerror(errno) : "an output error");
	return 2;
}

int weft_cli_version(void)
{
	printf("%s %s\n", program, WEFT_VERSION);
	return 0;
}

int weft_cli_help(const char *text)
{
	fputs(text, stdout);
	return 0;
}

int weft_cli_common_option(const struct weft_optp *p, int id, const char *help)
{
	if (id == WEFT_OPT_ID_HELP)
		return weft_cli_help(help);
	if (id == WEFT_OPT_ID_VERSION)
		return weft_cli_version();
	return weft_cli_usage("%s", p->err);
}

int weft_cli_jobs(const char *val, unsigned *jobs)
{
	if (weft_pool_parse_jobs(val, jobs))
		return weft_cli_usage("bad -j `%s` (a number of threads, 1..%u, or 0 for one per online CPU)",
				      val, WEFT_POOL_MAX_JOBS);
	return 0;
}
