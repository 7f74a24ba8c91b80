/*
 * cli_util.c - helpers shared by the weft-trace subcommands (cli.h): the
 * one FILE.wtr operand, opening it, library and option errors with their
 * exit codes, and host counters, so that every command words them the
 * same way.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/version.h"

int weft_cli_error(const char *cmd, const struct weft_error *err)
{
	char buf[WEFT_ERROR_MSG_MAX + 512];
	if (!err->message[0])
		fprintf(stderr, "weft-trace %s: %s (code %d)\n", cmd, weft_err_name(err->code),
			(int)err->code);
	else
		fprintf(stderr, "weft-trace %s: %s\n", cmd, weft_error_format(err, buf, sizeof(buf)));
	/* a damaged trace fails the check only for `verify` (and a mismatch only
	 * for `run --verify`); any other command was given bad input */
	if (err->code == WEFT_ERR_VERIFY && strcmp(cmd, "verify") && strcmp(cmd, "run"))
		return 2;
	return weft_err_exit_code(err->code);
}

int weft_cli_usage(const char *cmd, const char *why)
{
	fprintf(stderr, "weft-trace %s: %s; see `weft-trace %s --help`\n", cmd, why, cmd);
	return 2;
}

int weft_cli_bad_option(const char *cmd, const struct weft_optp *p)
{
	return weft_cli_usage(cmd, p->err);
}

int weft_cli_version(void)
{
	printf("weft-trace %s\n", WEFT_VERSION);
	return 0;
}

int weft_cli_trace_operand(const char *cmd, const char *arg, const char **path)
{
	if (*path) {
		char why[600];
		snprintf(why, sizeof(why), "unexpected argument `%.400s` (give exactly one FILE.wtr)", arg);
		return weft_cli_usage(cmd, why);
	}
	*path = arg;
	return 0;
}

int weft_cli_trace_given(const char *cmd, const char *path)
{
	if (!path)
		return weft_cli_usage(cmd, "which trace? give one FILE.wtr");
	return 0;
}

int weft_cli_trace_open(const char *cmd, const char *path, struct weft_trace **t)
{
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_trace_open(path, t, &err))
		return weft_cli_error(cmd, &err);
	return 0;
}

void weft_cli_print_counters(const struct weft_hostperf *hp, const char *scaled_note)
{
	for (unsigned i = 0; i < hp->ncounters; i++) {
		const struct weft_hostperf_counter *c = &hp->counters[i];
		if (!c->available)
			continue;
		if (strcmp(c->unit, "ns") == 0)
			printf("; %s %.3g s", c->name, (double)c->value * 1e-9);
		else
			printf("; %s %llu", c->name, (unsigned long long)c->value);
		if (c->scaled)
			printf(" (%s)", scaled_note);
	}
}
