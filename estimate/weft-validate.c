/*
 * weft-validate.c - the weft-validate CLI: every published claim in the
 * claims files against what weft's models say (estimate/validate.h), as a
 * table, CSV or JSON. A thin main: argument parsing, progress on a
 * terminal, writing the report. docs/validate.md documents the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/opt.h"
#include "report.h"
#include "common/file.h"
#include "validate.h"

static const char usage[] =
	"usage: weft-validate [--size small|default|large] [--claims FILE]... [options]\n"
	"\n"
	"Checks weft against published results: for every claim in the claims files\n"
	"(default: data/validation/claims.csv) it traces the bundled workloads the\n"
	"claim needs, replays them on the claim's configurations, and prints the\n"
	"published figure, weft's, their ratio, and whether weft is inside the\n"
	"claim's band. Read it before trusting weft's numbers.\n"
	"\n"
	"options:\n"
	"  --size S              workload input size: small, default or large\n"
	"                        (default: default)\n"
	"  --claims FILE         a claims CSV (repeat for more; replaces the default;\n"
	"                        columns: data/validation/README.md)\n"
	"  --only ID             run only this claim (repeatable)\n"
	"  --trace-dir DIR       keep the traces in DIR (made when missing) and reuse\n"
	"                        the ones already there; default: a temporary\n"
	"                        directory, removed at the end\n"
	"  --format table|csv|json\n"
	"                        report format (default table)\n"
	"  -o, --output FILE     write the report to FILE (atomically) instead of stdout\n"
	"  --strict              exit 1 when a claim is out of its band or could not be\n"
	"                        computed\n"
	"  --version             print \"weft-validate VERSION\"\n"
	"  -h, --help            show this help\n"
	"\n"
	"Exit status: 0 the claims ran (claims out of band are reported, not failures;\n"
	"see --strict), 1 with --strict: a claim out of band or not computed, 2 bad\n"
	"usage or input (a malformed claims file, with file:line:column; a file that\n"
	"cannot be read or created), 3 internal error (docs/cli.md).\n"
	"docs/validate.md defines every metric and band.\n";

/* ---- progress (stderr is a terminal) ---------------------------------------- */

struct progress {
	int shown;
};

static void progress_cb(void *user, const char *what)
{
	struct progress *p = user;
	int n = fprintf(stderr, "\rweft-validate: %s", what);
	if (n > 0 && n - 1 < p->shown)
		fprintf(stderr, "%*s", p->shown - (n - 1), "");
	fflush(stderr);
	if (n - 1 > p->shown)
		p->shown = n - 1;
}

static void progress_clear(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", p->shown, "");
	p->shown = 0;
}

/* claims and only have room for argc entries each */
static int run(int argc, char **argv, const char **claims, const char **only)
{
	enum weft_size size = WEFT_SIZE_DEFAULT;
	const char *outpath = NULL, *trace_dir = NULL;
	int fmt = WEFT_FMT_TABLE, strict = 0;
	uint32_t nclaims = 0, nonly = 0;

	static const struct weft_opt opts[] = {
		{ "size", 0, WEFT_OPT_ARG, 's' },
		{ "claims", 0, WEFT_OPT_ARG, 'c' },
		{ "only", 0, WEFT_OPT_ARG, 'O' },
		{ "trace-dir", 0, WEFT_OPT_ARG, 'd' },
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "strict", 0, WEFT_OPT_FLAG, 'S' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *val = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage);
		case 's':
			if (weft_size_parse(val, &size) < 0)
				return weft_cli_usage("bad --size `%s` (small, default or large)", val);
			break;
		case 'c':
			if (!*val)
				return weft_cli_usage("%s", "--claims needs a file name");
			if (weft_opt_is_dir(val))
				return weft_cli_usage("--claims %s is a directory; give a claims FILE.csv", val);
			claims[nclaims++] = val;
			break;
		case 'O':
			if (!*val)
				return weft_cli_usage("%s", "--only needs a claim id");
			only[nonly++] = val;
			break;
		case 'd':
			if (!*val)
				return weft_cli_usage("%s", "--trace-dir needs a directory name");
			trace_dir = val;
			break;
		case 'f':
			fmt = weft_format_parse(val);
			if (fmt < 0)
				return weft_cli_usage("bad --format `%s` (table, csv or json)", val);
			break;
		case 'o':
			if (!*val)
				return weft_cli_usage("%s", "-o needs a file name");
			outpath = val;
			break;
		case 'S':
			strict = 1;
			break;
		case WEFT_OPT_OPERAND:
			return weft_cli_usage("unexpected argument `%s` (claims files go after --claims)", val);
		}
	}
	if (outpath) {
		char why[600];
		if (weft_opt_check_output(outpath, why, sizeof(why)))
			return weft_cli_usage("-o: %s", why);
	}

	/* weft_cli_fail: a damaged trace in --trace-dir is bad input (2), not
	 * a failed check */
	struct weft_error err;
	weft_error_clear(&err);
	char def[1100];
	if (nclaims == 0) {
		if (weft_val_default_claims(def, sizeof(def), &err) < 0)
			return weft_cli_fail(&err);
		claims[nclaims++] = def;
	}
	struct weft_val_claims cl = { 0 };
	for (uint32_t i = 0; i < nclaims; i++)
		if (weft_val_claims_load(claims[i], NULL, &cl, &err) < 0) {
			weft_val_claims_free(&cl);
			return weft_cli_fail(&err);
		}

	struct progress prog = { 0 };
	struct weft_val_request req = {
		.claims = &cl,
		.only = only,
		.nonly = nonly,
		.size = size,
		.trace_dir = trace_dir,
	};
	if (isatty(STDERR_FILENO)) {
		req.progress = progress_cb;
		req.progress_user = &prog;
	}
	struct weft_val_report rep;
	int rc = weft_val_run(&req, &rep, &err);
	progress_clear(&prog);
	weft_val_claims_free(&cl);
	if (rc < 0)
		return weft_cli_fail(&err);

	struct weft_sbuf text;
	weft_sbuf_init(&text);
	rc = weft_val_report_format(&rep, (enum weft_format)fmt, &text, &err);
	int bad = rep.nout + rep.nunknown;
	weft_val_report_free(&rep);
	if (rc == 0) {
		if (outpath) {
			rc = weft_write_atomic(outpath, weft_sbuf_str(&text), text.len, &err);
		} else {
			fputs(weft_sbuf_str(&text), stdout);
			if (fflush(stdout) != 0 || ferror(stdout))
				rc = weft_error_set(&err, WEFT_ERR_IO, "writing the report to stdout failed");
		}
	}
	weft_sbuf_free(&text);
	if (rc < 0)
		return weft_cli_fail(&err);
	return strict && bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	weft_cli_start("weft-validate");
	const char **claims = calloc((size_t)argc + 1, sizeof(*claims));
	const char **only = calloc((size_t)argc + 1, sizeof(*only));
	int rc = 3;
	if (claims && only)
		rc = run(argc, argv, claims, only);
	else
		rc = weft_cli_nomem(NULL);
	free(claims);
	free(only);
	return weft_cli_end(rc);
}
