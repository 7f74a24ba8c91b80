/*
 * cli.h - the subcommands of weft-trace, one file each (as git's builtin/).
 *
 * Adding a subcommand NAME:
 *  1. write trace/cli/cmd_NAME.c defining `int weft_cmd_NAME(int argc, char **argv)`;
 *     argv[0] is "NAME"; parse options with getopt_long (reset optind = 1 first);
 *     `--help` prints usage to stdout and returns 0;
 *  2. declare it below and add a row to the command table in trace/cli/weft-trace.c
 *     (name, function, one-line summary shown by `weft-trace --help`);
 *  3. add golden/exit-code tests to tests/cli/run.sh and document it in README.
 * A command returns the process exit status: 0 ok, 1 a check failed,
 * 2 bad usage or input, 3 internal error (weft_err_exit_code() maps library
 * errors). Errors go to stderr as "weft-trace NAME: <message>", via
 * weft_cli_error().
 */
#ifndef WEFT_CLI_H
#define WEFT_CLI_H

#include "common/error.h"
#include "common/hostperf.h"
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

/* getopt_long's '?' or ':' for ARG: "unknown option or missing value". */
int weft_cli_bad_option(const char *cmd, const char *arg);
/* After getopt_long: the one FILE.wtr operand argv[optind] (an error when
 * there is none or more than one). */
int weft_cli_trace_operand(const char *cmd, int argc, char **argv, const char **path);
/* weft_trace_open with the error printed by weft_cli_error. */
int weft_cli_trace_open(const char *cmd, const char *path, struct weft_trace **t);
/* "; NAME VALUE" for each available host counter (time counters in
 * seconds), "(scaled_note)" after those the kernel multiplexed. */
void weft_cli_print_counters(const struct weft_hostperf *hp, const char *scaled_note);

#endif
