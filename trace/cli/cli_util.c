/*
 * cli_util.c - helpers shared by the weft-trace subcommands (cli.h): the
 * one FILE.wtr operand, opening it, option errors and host counters, so
 * that every command words them the same way.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int weft_cli_bad_option(const char *cmd, const char *arg)
{
	fprintf(stderr, "weft-trace %s: unknown option or missing value `%s`; see `weft-trace %s --help`\n",
		cmd, arg, cmd);
	return 2;
}

int weft_cli_trace_operand(const char *cmd, int argc, char **argv, const char **path)
{
	if (optind != argc - 1) {
		fprintf(stderr, "weft-trace %s: %s; see `weft-trace %s --help`\n", cmd,
			optind >= argc ? "which trace? give one FILE.wtr" : "give exactly one FILE.wtr", cmd);
		return 2;
	}
	*path = argv[optind];
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
