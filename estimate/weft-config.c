/*
 * weft-config.c - the weft-config CLI: what the configurations can say.
 *
 *   weft-config models                      the models the registry knows
 *   weft-config configs                     the bundled configs: name, model, file
 *   weft-config keys MODEL [--format F]     every key of a model's schema
 *   weft-config show CONFIG.ini [--set k=v]... [--format F]
 *                                           a config's effective values, each
 *                                           with where it came from
 *
 * A thin main over models/config.h and models/model.h; options through
 * common/opt.h and messages through cli/cli.h, as every weft CLI
 * (docs/cli.md). docs/configs.md is generated from `weft-config keys`
 * (tests/gen_configs_md.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/format.h"
#include "common/opt.h"
#include "common/sbuf.h"
#include "models/config.h"
#include "models/model.h"

static const char usage[] =
	"usage: weft-config models [--format table|csv|json]\n"
	"       weft-config configs [--format table|csv|json]\n"
	"       weft-config keys MODEL [--format table|csv|json]\n"
	"       weft-config show CONFIG [--set SEC.KEY=V]... [--format table|csv|json]\n"
	"\n"
	"What weft's machine configurations can say:\n"
	"  models   the timing models weft knows, one line each\n"
	"  configs  the bundled machine configurations: the name `-c` accepts,\n"
	"           the model and the file\n"
	"  keys     every key a config of MODEL may set: section.key, type, default,\n"
	"           unit, range or allowed values, and where the default comes from\n"
	"           (the [model] and [tech] keys are common to every model)\n"
	"  show     the effective value of every key of CONFIG (a file, or a bundled\n"
	"           config's name) after --set\n"
	"           overrides, and where it came from: the file's line, --set, or\n"
	"           the default\n"
	"  help [COMMAND]  this help (the same for every command)\n"
	"\n"
	"Options may come before or after the command and its operand.\n"
	"\n"
	"options:\n"
	"  --format table|csv|json   output format (default table)\n"
	"  --set SEC.KEY=V           (show) override a key, as weft-estimate --set\n"
	"                            (repeatable)\n"
	"  --version                 print \"weft-config VERSION\"\n"
	"  -h, --help                show this help\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (unknown command, model or key, a\n"
	"bad config or one that cannot be read, output that cannot be written),\n"
	"3 internal error or out of memory (docs/cli.md). docs/configs.md lists\n"
	"every model's keys.\n";

static const char *type_name(enum weft_cfg_type t)
{
	switch (t) {
	case WEFT_CFG_INT: return "int";
	case WEFT_CFG_DOUBLE: return "double";
	case WEFT_CFG_BOOL: return "bool";
	case WEFT_CFG_STRING: return "string";
	case WEFT_CFG_ENUM: return "enum";
	}
	return "?";
}

/* "min..max" for numbers, the choices for an enum, "true|false", "" for strings. */
static void key_range(const struct weft_config_key *k, char *out, size_t len)
{
	switch (k->type) {
	case WEFT_CFG_INT:
	case WEFT_CFG_DOUBLE:
		snprintf(out, len, "%.15g..%.15g", k->min, k->max);
		break;
	case WEFT_CFG_BOOL:
		snprintf(out, len, "true|false");
		break;
	case WEFT_CFG_ENUM:
		snprintf(out, len, "%s", k->choices ? k->choices : "");
		break;
	default:
		out[0] = '\0';
	}
}

/* Output rows: the columns of `keys` and of `show`. */
#define MAXCOLS 8
struct table {
	const char *head[MAXCOLS];
	uint32_t ncols;
	char *(*cell)[MAXCOLS]; /* [nrows][ncols], malloc'd strings */
	uint32_t nrows, cap;
	int nomem;
};

static void table_row(struct table *t, const char *const *cells)
{
	if (t->nomem)
		return;
	if (t->nrows == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		void *p = realloc(t->cell, cap * sizeof(*t->cell));
		if (!p) {
			t->nomem = 1;
			return;
		}
		t->cell = p;
		t->cap = cap;
	}
	for (uint32_t c = 0; c < t->ncols; c++) {
		t->cell[t->nrows][c] = strdup(cells[c] ? cells[c] : "");
		if (!t->cell[t->nrows][c])
			t->nomem = 1;
	}
	t->nrows++;
}

static void table_free(struct table *t)
{
	for (uint32_t r = 0; r < t->nrows; r++)
		for (uint32_t c = 0; c < t->ncols; c++)
			free(t->cell[r][c]);
	free(t->cell);
}

/* Table: aligned columns, the last one (prose) left ragged. CSV: a header
 * row. JSON: an array of objects keyed by the column names. */
static void table_format(const struct table *t, int fmt, struct weft_sbuf *b)
{
	if (fmt == WEFT_FMT_CSV) {
		for (uint32_t c = 0; c < t->ncols; c++) {
			if (c)
				weft_sbuf_puts(b, ",");
			weft_sbuf_csv_field(b, t->head[c]);
		}
		weft_sbuf_puts(b, "\n");
		for (uint32_t r = 0; r < t->nrows; r++) {
			for (uint32_t c = 0; c < t->ncols; c++) {
				if (c)
					weft_sbuf_puts(b, ",");
				weft_sbuf_csv_field(b, t->cell[r][c]);
			}
			weft_sbuf_puts(b, "\n");
		}
		return;
	}
	if (fmt == WEFT_FMT_JSON) {
		weft_sbuf_puts(b, "[");
		for (uint32_t r = 0; r < t->nrows; r++) {
			weft_sbuf_puts(b, r ? ",\n  {" : "\n  {");
			int first = 1;
			for (uint32_t c = 0; c < t->ncols; c++) {
				weft_sbuf_json_key(b, 4, &first, t->head[c]);
				weft_sbuf_json_str(b, t->cell[r][c]);
			}
			weft_sbuf_puts(b, "\n  }");
		}
		weft_sbuf_puts(b, t->nrows ? "\n]\n" : "]\n");
		return;
	}
	size_t w[MAXCOLS];
	for (uint32_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->head[c]);
		for (uint32_t r = 0; r < t->nrows; r++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	}
	for (uint32_t r = 0; r <= t->nrows; r++) {
		const char *const *row = r == 0 ? t->head : (const char *const *)t->cell[r - 1];
		for (uint32_t c = 0; c < t->ncols; c++) {
			if (c + 1 == t->ncols)
				weft_sbuf_printf(b, "%s\n", row[c]);
			else
				weft_sbuf_printf(b, "%-*s  ", (int)w[c], row[c]);
		}
	}
}

static int emit(const struct table *t, int fmt)
{
	if (t->nomem)
		return weft_cli_nomem(NULL);
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	table_format(t, fmt, &b);
	int rc = 0;
	if (b.failed) {
		rc = weft_cli_nomem(NULL);
	} else {
		fputs(weft_sbuf_str(&b), stdout);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			/* as weft-estimate's report: an I/O error, exit 2 */
			struct weft_error err;
			weft_error_set(&err, WEFT_ERR_IO, "writing to stdout failed");
			rc = weft_cli_fail(&err);
		}
	}
	weft_sbuf_free(&b);
	return rc;
}

static const struct weft_model *find_model(const char *name)
{
	const struct weft_model *m = weft_model_find(name);
	if (m)
		return m;
	const char *best = weft_config_suggest_model(name);
	char list[256] = "";
	size_t off = 0;
	for (const struct weft_model *const *mp = weft_models; *mp && off < sizeof(list); mp++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", off ? ", " : "",
					(*mp)->name);
	weft_cli_say("unknown model `%s`%s%s%s (models: %s)", name, best ? "; did you mean " : "",
		     best ? best : "", best ? "?" : "", list);
	return NULL;
}

static void add_keys(struct table *t, const struct weft_config_key *keys)
{
	for (const struct weft_config_key *k = keys; k && k->section; k++) {
		char name[160], range[512];
		snprintf(name, sizeof(name), "%s.%s", k->section, k->key);
		key_range(k, range, sizeof(range));
		const char *row[] = { name, type_name(k->type), k->def, k->unit, range, k->doc };
		table_row(t, row);
	}
}

static int cmd_models(int fmt)
{
	struct table t = { .head = { "model", "description" }, .ncols = 2 };
	for (const struct weft_model *const *m = weft_models; *m; m++) {
		const char *row[] = { (*m)->name, (*m)->description };
		table_row(&t, row);
	}
	int rc = emit(&t, fmt);
	table_free(&t);
	return rc;
}

static int cmd_configs(int fmt)
{
	struct weft_config_bundled *v;
	uint32_t n;
	struct weft_error err;
	weft_error_clear(&err);
	char dir[1200];
	if (weft_configs_bundled(&v, &n, dir, sizeof(dir), &err) < 0)
		return weft_cli_fail(&err);
	if (n == 0) {
		free(v);
		weft_cli_say("no bundled configs in %s (is the installation complete?)", dir);
		return 2;
	}
	struct table t = { .head = { "name", "model", "file" }, .ncols = 3 };
	for (uint32_t i = 0; i < n; i++) {
		struct weft_config cfg;
		weft_error_clear(&err);
		const char *model = "?";
		int ok = weft_config_load(v[i].path, NULL, 0, &cfg, &err) == 0;
		if (ok)
			model = cfg.model;
		size_t dl = strlen(dir);
		const char *rel = strncmp(v[i].path, dir, dl) == 0 && v[i].path[dl] == '/'
					  ? v[i].path + dl + 1
					  : v[i].path;
		char file[1300];
		snprintf(file, sizeof(file), "configs/%s", rel);
		const char *row[] = { v[i].name, model, file };
		table_row(&t, row);
		if (ok)
			weft_config_free(&cfg);
	}
	free(v);
	int rc = emit(&t, fmt);
	table_free(&t);
	return rc;
}

static int cmd_keys(const char *model, int fmt)
{
	const struct weft_model *m = find_model(model);
	if (!m)
		return 2;
	struct table t = { .head = { "key", "type", "default", "unit", "range", "description" },
			   .ncols = 6 };
	add_keys(&t, weft_config_common_keys);
	add_keys(&t, m->keys);
	int rc = emit(&t, fmt);
	table_free(&t);
	return rc;
}

static int cmd_show(const char *path, const char *const *sets, uint32_t nsets, int fmt)
{
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_config_load(path, sets, nsets, &cfg, &err) < 0)
		return weft_cli_fail(&err);
	struct table t = { .head = { "key", "value", "unit", "from" }, .ncols = 4 };
	for (uint32_t i = 0; i < cfg.nvalues; i++) {
		const struct weft_config_value *v = &cfg.values[i];
		char name[160], from[1300];
		snprintf(name, sizeof(name), "%s.%s", v->key->section, v->key->key);
		if (v->from == 1)
			snprintf(from, sizeof(from), "%s:%u", path, v->line);
		else if (v->from == 2)
			snprintf(from, sizeof(from), "--set");
		else
			snprintf(from, sizeof(from), "default");
		const char *row[] = { name, v->str, v->key->unit, from };
		table_row(&t, row);
	}
	weft_config_free(&cfg);
	int rc = emit(&t, fmt);
	table_free(&t);
	return rc;
}

/* After the options: the command and its one operand, checked and run. */
static int run_command(const char *cmd, const char *arg, const char *const *sets, uint32_t nsets,
		       int fmt)
{
	static const char *const commands[] = { "models", "configs", "keys", "show", NULL };
	if (!cmd)
		return weft_cli_usage("%s", "which command? models, configs, keys MODEL or show CONFIG");
	if (strcmp(cmd, "help") == 0) {
		for (const char *const *c = commands; arg && *c; c++)
			if (strcmp(arg, *c) == 0)
				arg = NULL;
		if (!arg)
			return weft_cli_help(usage);
		weft_cli_command("help");
		return weft_cli_usage("unknown command `%s` (models, configs, keys or show)", arg);
	}
	if (strcmp(cmd, "models") == 0) {
		if (arg)
			return weft_cli_usage("`models` takes no argument (got `%s`)", arg);
		if (nsets)
			return weft_cli_usage("%s", "--set is for `show`");
		return cmd_models(fmt);
	}
	if (strcmp(cmd, "configs") == 0) {
		if (arg)
			return weft_cli_usage("`configs` takes no argument (got `%s`)", arg);
		if (nsets)
			return weft_cli_usage("%s", "--set is for `show`");
		return cmd_configs(fmt);
	}
	if (strcmp(cmd, "keys") == 0) {
		if (!arg)
			return weft_cli_usage("%s", "which model? weft-config keys MODEL (weft-config models "
						    "lists them)");
		if (nsets)
			return weft_cli_usage("%s", "--set is for `show`");
		return cmd_keys(arg, fmt);
	}
	if (strcmp(cmd, "show") == 0) {
		if (!arg)
			return weft_cli_usage("%s", "which config? weft-config show CONFIG.ini (e.g. "
						    "configs/fermi-sm.ini)");
		if (weft_opt_is_dir(arg))
			return weft_cli_usage("%s is a directory; give a CONFIG.ini (e.g. "
					      "configs/fermi-sm.ini)",
					      arg);
		char path[1200];
		struct weft_error ferr;
		weft_error_clear(&ferr);
		if (weft_config_resolve(arg, path, sizeof(path), &ferr) < 0)
			return weft_cli_fail(&ferr);
		return cmd_show(path, sets, nsets, fmt);
	}
	return weft_cli_usage("unknown command `%s` (models, configs, keys or show)", cmd);
}

/* sets has room for argc entries */
static int run(int argc, char **argv, const char **sets)
{
	const char *cmd = NULL, *arg = NULL;
	int fmt = WEFT_FMT_TABLE;
	uint32_t nsets = 0;
	static const struct weft_opt opts[] = {
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		{ "set", 0, WEFT_OPT_ARG, 's' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage);
		case 'f':
			fmt = weft_format_parse(p.arg);
			if (fmt < 0)
				return weft_cli_usage("bad --format `%s` (table, csv or json)", p.arg);
			break;
		case 's':
			sets[nsets++] = p.arg;
			break;
		case WEFT_OPT_OPERAND:
			if (!cmd)
				cmd = p.arg;
			else if (!arg)
				arg = p.arg;
			else
				return weft_cli_usage("unexpected argument `%s`", p.arg);
			break;
		}
	}
	return run_command(cmd, arg, sets, nsets, fmt);
}

int main(int argc, char **argv)
{
	weft_cli_start("weft-config");
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	if (!sets)
		return weft_cli_nomem(NULL);
	int rc = run(argc, argv, sets);
	free(sets);
	return weft_cli_end(rc);
}
