/*
 * cli.h - the subcommands of weft-trace, one file each (as git's builtin/),
 * and the helpers only they share. Messages, usage errors, exit statuses,
 * --help and --version are every tool's (cli/cli.h, included here).
 *
 * Adding a subcommand NAME:
 *  1. write trace/cli/cmd_NAME.c defining `int weft_cmd_NAME(int argc, char **argv)`;
 *     argv[0] is "NAME"; parse options with common/opt.h (WEFT_OPT_HELP_VERSION;
 *     its --help, --version and option errors answered by
 *     weft_cli_common_option(&p, id, usage));
 *  2. declare it below and add a row to the command table in trace/cli/weft-trace.c
 *     (name, function, one-line summary shown by `weft-trace --help`);
 *  3. add golden/exit-code tests to tests/cli/run.sh and document it in README.
 * A command returns the process exit status (docs/cli.md): 0 ok, 1 a check
 * the user asked for failed (`verify`, `run --verify`), 2 bad usage or input
 * (a corrupt trace read by any other command is bad input), 3 internal
 * error. Errors go to stderr once, as "weft-trace NAME: <message>", via
 * cli/cli.h: weft_cli_fail() (weft_cli_fail_check() for the commands whose
 * job is a check: `verify`, `run`), weft_cli_usage() or weft_cli_say();
 * weft-trace.c names the command (weft_cli_command) before running it.
 */
#ifndef WEFT_TRACE_CLI_H
#define WEFT_TRACE_CLI_H

#include "cli/cli.h"
#include "common/error.h"
#include "common/hostperf.h"
#include "common/opt.h"
#include "trace/format/trace.h"

int weft_cmd_list(int argc, char **argv); /* cmd_list.c */
int weft_cmd_run(int argc, char **argv);  /* cmd_run.c */
int weft_cmd_exec(int argc, char **argv); /* cmd_exec.c */
int weft_cmd_info(int argc, char **argv);
int weft_cmd_dump(int argc, char **argv);
int weft_cmd_verify(int argc, char **argv);
int weft_cmd_stats(int argc, char **argv);

/* Helpers shared by the commands (cli_util.c). Those returning int return
 * 0 to go on, or the exit status after printing why. */

/* An operand that names the one FILE.wtr: sets *path, or a usage error
 * when *path is already set. */
int weft_cli_trace_operand(const char *arg, const char **path);
/* After the options: a usage error when no FILE.wtr was named. */
int weft_cli_trace_given(const char *path);
/* weft_trace_open, its error printed by weft_cli_fail (a damaged trace is
 * bad input). */
int weft_cli_trace_open(const char *path, struct weft_trace **t);
/* "; NAME VALUE" for each available host counter (time counters in
 * seconds), "(scaled_note)" after those the kernel multiplexed. */
void weft_cli_print_counters(const struct weft_hostperf *hp, const char *scaled_note);

#endif
