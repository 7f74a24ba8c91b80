/*
 * cmd_list.c - `weft-trace list`: the bundled workloads, one per line (name,
 * then its one-line description).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "trace/launch/workload.h"

static const char list_usage[] =
	"usage: weft-trace list\n"
	"\n"
	"Prints the bundled workloads, one per line: name, then a one-line\n"
	"description. Run one with `weft-trace run NAME`.\n"
	"\n"
	"Options:\n"
	"  -h, --help   show this help\n"
	"  --version    print \"weft-trace VERSION\"\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage (docs/cli.md).\n";

int weft_cmd_list(int argc, char **argv)
{
	static const struct weft_opt opts[] = { WEFT_OPT_HELP_VERSION, { 0 } };
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int c; (c = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (c) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, c, list_usage);
		default:
			return weft_cli_usage("unexpected argument `%.400s`", p.arg);
		}
	}
	size_t w = 0;
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++)
		if (strlen((*wl)->name) > w)
			w = strlen((*wl)->name);
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++)
		printf("%-*s  %s\n", (int)w, (*wl)->name, (*wl)->description);
	return 0;
}
