/*
 * cli.h - the subcommands of weft-trace, one file each (as git's builtin/).
 *
 * Adding a subcommand NAME:
 *  1. write trace/cli/cmd_NAME.c defining `int weft_cmd_NAME(int argc, char **argv)`;
 *     argv[0] is "NAME"; parse options with common/opt.h (WEFT_OPT_HELP_VERSION:
 *     `--help` prints usage to stdout and returns 0, `--version` calls
 *     weft_cli_version());
 *  2. declare it below and add a row to the command table in trace/cli/weft-trace.c
 *     (name, function, one-line summary shown by `weft-trace --help`);
 *  3. add golden/exit-code tests to tests/cli/run.sh and document it in README.
 * A command returns the process exit status (docs/cli.md): 0 ok, 1 a check
 * the user asked for failed (`verify`, `run --verify`), 2 bad usage or input
 * (a corrupt trace read by any other command is bad input), 3 internal
 * error. Errors go to stderr once, as "weft-trace NAME: <message>", via
 * weft_cli_error() or weft_cli_usage().
 */
#ifndef WEFT_CLI_H
#define WEFT_CLI_H

#include "common/error.h"
#include "common/hostperf.h"
#include "common/opt.h"
#include "trace/format/trace.h"

int weft_cmd_list(int argc, char **argv); /* cmd_list.c */
int weft_cmd_run(int argc, char **argv);  /* cmd_run.c */
int weft_cmd_info(int argc, char **argv);
int weft_cmd_dump(int argc, char **argv);
int weft_cmd_verify(int argc, char **argv);
int weft_cmd_stats(int argc, char **argv);

/* Prints "weft-trace CMD: <formatted err>" to stderr and returns the exit
 * status for err->code. Defined in trace/cli/weft-trace.c. */
int weft_cli_error(const char *cmd, const struct weft_error *err);

/* Helpers shared by the commands (cli_util.c). Those returning int return
 * 0 to go on, or the exit status after printing why. */

/* "weft-trace CMD: WHY; see `weft-trace CMD --help`"; returns 2. */
int weft_cli_usage(const char *cmd, const char *why);
/* WEFT_OPT_ERROR from weft_opt_next: p->err as a usage error. */
int weft_cli_bad_option(const char *cmd, const struct weft_optp *p);
/* `--version`: prints "weft-trace VERSION", returns 0. */
int weft_cli_version(void);
/* An operand that names the one FILE.wtr: sets *path, or a usage error
 * when *path is already set. */
int weft_cli_trace_operand(const char *cmd, const char *arg, const char **path);
/* After the options: a usage error when no FILE.wtr was named. */
int weft_cli_trace_given(const char *cmd, const char *path);
/* weft_trace_open with the error printed by weft_cli_error. */
int weft_cli_trace_open(const char *cmd, const char *path, struct weft_trace **t);
/* "; NAME VALUE" for each available host counter (time counters in
 * seconds), "(scaled_note)" after those the kernel multiplexed. */
void weft_cli_print_counters(const struct weft_hostperf *hp, const char *scaled_note);

#endif
