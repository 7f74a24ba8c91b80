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
	"description. Run one with `weft-trace run NAME`.\n";

int weft_cmd_list(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(list_usage, stdout);
			return 0;
		}
		fprintf(stderr, "weft-trace list: unexpected argument `%s`; see `weft-trace list --help`\n",
			argv[i]);
		return 2;
	}
	size_t w = 0;
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++)
		if (strlen((*wl)->name) > w)
			w = strlen((*wl)->name);
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++)
		printf("%-*s  %s\n", (int)w, (*wl)->name, (*wl)->description);
	return 0;
}
