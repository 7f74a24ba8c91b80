/*
 * cli_util.c - helpers shared by the weft-trace subcommands (cli.h): the
 * one FILE.wtr operand, opening it, and host counters, so that every
 * command words them the same way. Messages and exit statuses are every
 * tool's (cli/cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int weft_cli_trace_operand(const char *arg, const char **path)
{
	if (*path)
		return weft_cli_usage("unexpected argument `%.400s` (give exactly one FILE.wtr)", arg);
	*path = arg;
	return 0;
}

int weft_cli_trace_given(const char *path)
{
	if (!path)
		return weft_cli_usage("%s", "which trace? give one FILE.wtr");
	return 0;
}

int weft_cli_trace_open(const char *path, struct weft_trace **t)
{
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_trace_open(path, t, &err))
		return weft_cli_fail(&err);
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
