/*
 * cli.h - what every weft command-line tool shares, so that all of them word
 * their errors and pick their exit statuses the same way (docs/cli.md):
 *
 *   weft-NAME [COMMAND]: what happened (where); what to do
 *
 * on one line of stderr, and 0 ok, 1 a check the user asked for failed, 2 bad
 * usage or input, 3 internal error or out of memory.
 *
 * It prints, so it is not part of libweft.a: the Makefile links cli/cli.o
 * into every program in bin/ and nothing else (cli/README.md).
 *
 *   int main(int argc, char **argv)
 *   {
 *       weft_cli_start("weft-area");
 *       if (is the command fit) weft_cli_command("fit");
 *       ... case WEFT_OPT_ERROR: case WEFT_OPT_ID_HELP: case WEFT_OPT_ID_VERSION:
 *               return weft_cli_common_option(&p, id, usage);
 *       ... if (bad value) return weft_cli_usage("bad --x `%s`", v);
 *       ... if (weft_something(..., &err) < 0) return weft_cli_fail(&err);
 *   }
 */
#ifndef WEFT_CLI_CLI_H
#define WEFT_CLI_CLI_H

#include "common/error.h"
#include "common/opt.h"

/* Names the program in every message ("weft-trace"); main calls it first. */
void weft_cli_start(const char *program);

/* The command being run ("run", "fit"), or NULL for none: messages then
 * begin "weft-trace run: " and usage errors point to `weft-trace run --help`.
 * The command `help` has no --help of its own: its usage errors point to
 * the program's. */
void weft_cli_command(const char *command);

/* "PROGRAM [COMMAND]: MESSAGE" on stderr, for a problem that is neither a
 * usage error nor a struct weft_error. The caller picks the exit status. */
void weft_cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: "PROGRAM [COMMAND]: MESSAGE; see `PROGRAM [COMMAND] --help`"
 * on stderr. Returns 2. */
int weft_cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a -j value into *jobs (weft_pool_parse_jobs: 1..WEFT_POOL_MAX_JOBS,
 * or 0 for one per online CPU). Returns 0, or prints the usage error and
 * returns its status (2). */
int weft_cli_jobs(const char *val, unsigned *jobs);

/* The exit status for err (docs/cli.md). WEFT_ERR_VERIFY is 1 only when
 * the user asked for that check (checked != 0: `weft-trace verify`,
 * `run --verify`); otherwise a failed check is a damaged input, 2. Every
 * other code as weft_err_exit_code(). */
int weft_cli_exit_status(const struct weft_error *err, int checked);

/* Prints err as one message ("PROGRAM [COMMAND]: file:line: message", or
 * the code's name when the message is empty) and returns its exit status,
 * with a failed check counting as bad input (2). */
int weft_cli_fail(const struct weft_error *err);

/* As weft_cli_fail, for the commands whose job is the check that failed:
 * WEFT_ERR_VERIFY returns 1. */
int weft_cli_fail_check(const struct weft_error *err);

/* "PROGRAM [COMMAND]: out of memory[ WHAT]" on stderr; returns 3. what may
 * be NULL ("creating the emulator context"). */
int weft_cli_nomem(const char *what);

/* What main returns last: status, unless status is 0 and what was written
 * to stdout could not be (a full disk, a closed pipe, /dev/full): then
 * "PROGRAM [COMMAND]: writing to standard output failed: REASON" and 2, as
 * docs/cli.md promises, instead of a report silently cut short.
 *
 *   int main(int argc, char **argv) { ...; return weft_cli_end(run(argc, argv)); }
 */
int weft_cli_end(int status);

/* --version: "PROGRAM VERSION" on stdout; returns 0. */
int weft_cli_version(void);

/* --help: text on stdout; returns 0. */
int weft_cli_help(const char *text);

/* What every CLI answers alike to three results of weft_opt_next:
 * WEFT_OPT_ID_HELP prints help (0), WEFT_OPT_ID_VERSION the version (0),
 * WEFT_OPT_ERROR p->err as a usage error (2). Returns the exit status:
 *
 *   case WEFT_OPT_ERROR: case WEFT_OPT_ID_HELP: case WEFT_OPT_ID_VERSION:
 *       return weft_cli_common_option(&p, id, usage);
 */
int weft_cli_common_option(const struct weft_optp *p, int id, const char *help);

#endif
