/*
 * weft-trace.c - the weft-trace CLI: a table of subcommands (each in
 * trace/cli/cmd_NAME.c, see trace/cli/cli.h) and the tool's --help and
 * --version. Messages and exit statuses: cli/cli.h.
 *
 * Exit codes (docs/cli.md): 0 ok, 1 a check the user asked for failed
 * (`verify`, `run --verify`), 2 bad usage / bad input (a corrupt trace read
 * by info, dump or stats included) / kernel fault / limit reached, 3
 * internal error.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;   /* shown by `weft-trace --help` */
	const char *summary;
};

/* `weft-trace --help` lists these in this order. A command may have several
 * rows (several usage lines); the first row with a name is the one run. */
static const struct command commands[] = {
	{ "list", weft_cmd_list, "list", "list the bundled workloads" },
	{ "run", weft_cmd_run, "run WORKLOAD [OPTIONS]",
	  "run a bundled workload (see `weft-trace run --help`)" },
	{ "run", weft_cmd_run, "run --spec FILE.ini", "run your own PTX kernel from a launch spec" },
	{ "exec", weft_cmd_exec, "exec PROGRAM [ARGS]",
	  "run a CUDA program on weft's CUDA runtime (docs/cuda-programs.md)" },
	{ "info", weft_cmd_info, "info FILE.wtr", "what a trace holds: launches, sizes, host baseline" },
	{ "dump", weft_cmd_dump, "dump FILE.wtr [OPTIONS]", "a trace's per-thread instructions as text" },
	{ "verify", weft_cmd_verify, "verify FILE.wtr", "check a trace's checksums and structure" },
	{ "stats", weft_cmd_stats, "stats FILE.wtr [OPTIONS]",
	  "instruction mix, footprint, divergence, uniformity, loops" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void main_usage(FILE *f)
{
	fputs("usage: weft-trace [--help] [--version] COMMAND [ARGS]\n"
	      "\n"
	      "Runs CUDA kernels (PTX) thread by thread on the CPU and reports what they\n"
	      "executed. Commands:\n",
	      f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-24s  %s\n", commands[i].usage, commands[i].summary);
	fprintf(f, "  %-24s  %s\n", "help [COMMAND]", "show help for a command");
	fputs("\n"
	      "Options:\n"
	      "  -h, --help     show this help (`weft-trace COMMAND --help`: a command's)\n"
	      "  --version      print \"weft-trace VERSION\"\n"
	      "\n"
	      "Exit status: 0 ok, 1 the check asked for failed (verify, run --verify),\n"
	      "2 bad usage or input, kernel fault or limit reached, 3 internal error\n"
	      "(docs/cli.md). Docs: README.md, docs/launch-spec.md.\n",
	      f);
}

static int run_tool(int argc, char **argv)
{
	weft_cli_start("weft-trace");
	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		main_usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0)
		return weft_cli_version();
	if (strcmp(cmd, "help") == 0) {
		if (argc < 3) {
			main_usage(stdout);
			return 0;
		}
		const struct command *c = find_command(argv[2]);
		weft_cli_command("help");
		if (!c)
			return weft_cli_usage("unknown command `%s`", argv[2]);
		weft_cli_command(c->name);
		char name[64], help[] = "--help";
		snprintf(name, sizeof(name), "%s", c->name);
		char *hargv[] = { name, help, NULL };
		return c->fn(2, hargv);
	}
	const struct command *c = find_command(cmd);
	if (!c)
		return weft_cli_usage("unknown command `%s`", cmd);
	weft_cli_command(c->name);
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return weft_cli_end(run_tool(argc, argv));
}
