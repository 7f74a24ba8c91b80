/*
 * weft-energy - inspect energy tables and technology scaling.
 *
 *   weft-energy show  [--node N] [--basis B | --table FILE] [--rule R] [--vdd V]
 *                     (B: horowitz45, aladdin40, gpuwattch40 or maven65)
 *                     [--format table|csv|json]
 *   weft-energy scale --from N --to M [--rule R] [--vdd V] [--basis B | --table FILE]
 *                     [--format table|csv|json]
 *
 * Exit status (docs/cli.md): 0 ok, 2 bad usage or input (a missing table,
 * an unknown node), 3 internal error.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "energy.h"
#include "common/format.h"
#include "common/opt.h"
#include "common/version.h"
#include "models/model.h"
#include "common/quote.h"

struct opts {
	const char *cmd;
	double node, from, to, vdd;
	const char *basis, *table;
	int rule;
	int fmt; /* enum weft_format */
};

static const char usage_main[] =
	"usage: weft-energy show  [--node N] [--basis B | --table FILE] [--rule R] [--vdd V]\n"
	"                         [--format table|csv|json]\n"
	"       weft-energy scale --from N --to M [--rule R] [--vdd V] [--basis B | --table FILE]\n"
	"                         [--format table|csv|json]\n"
	"\n"
	"Inspects the energy tables and technology scaling. Commands:\n"
	"  show   the energy per event of a table at node N nm (default 40), each row with its\n"
	"         source, the node it was published at and whether it was scaled, plus the\n"
	"         static power rows (data/energy/static.csv)\n"
	"  scale  the energy, area and delay factors from N nm to M nm under a rule, and the\n"
	"         table's rows at both nodes\n"
	"  help [COMMAND]  show help for a command\n"
	"\n"
	"Options:\n"
	"  -h, --help     show this help (`weft-energy COMMAND --help`: a command's)\n"
	"  --version      print \"weft-energy VERSION\"\n"
	"\n"
	"Tables are found in $WEFT_DATA, else <executable>/../share/weft/data, else\n"
	"<executable>/../data, else ./data.\n"
	"Exit status: 0 ok, 2 bad usage or input (a missing table, an unknown node),\n"
	"3 internal error (docs/cli.md).\n";

#define TABLE_OPTS                                                                                \
	"  --basis B      horowitz45 (default), aladdin40, gpuwattch40 or maven65 (vt model\n"   \
	"                 events only): data/energy/<basis>.csv\n"                                \
	"  --table FILE   an energy table CSV instead (event,node_nm,energy_pj,unit,source)\n"      \
	"  --rule R       stillmaker (default; Stillmaker & Baas, Integration 2017) or classic\n"    \
	"                 (constant-field, Dennard 1974: energy x (M/N)^3, area x (M/N)^2)\n"       \
	"  --vdd V        supply for the Stillmaker-Baas polynomials at both nodes (default 1.0 V)\n" \
	"  --format F     table (default), csv or json\n"                                           \
	"  -h, --help     show this help\n"                                                         \
	"  --version      print \"weft-energy VERSION\"\n"                                          \
	"\n"                                                                                        \
	"Tables are found in $WEFT_DATA, else <executable>/../share/weft/data, else\n" \
	"<executable>/../data, else ./data.\n" \
	"Exit status: 0 ok, 2 bad usage or input (a missing table, an unknown node),\n"             \
	"3 internal error (docs/cli.md).\n"

static const char usage_show[] =
	"usage: weft-energy show [--node N] [--basis B | --table FILE] [--rule R] [--vdd V]\n"
	"                        [--format table|csv|json]\n"
	"\n"
	"The energy per event of a table at node N nm, each row with its source, the node it\n"
	"was published at and whether it was scaled, plus the static power rows\n"
	"(data/energy/static.csv).\n"
	"\n"
	"Options:\n"
	"  --node N       the node in nm (default 40)\n" TABLE_OPTS;

static const char usage_scale[] =
	"usage: weft-energy scale --from N --to M [--rule R] [--vdd V] [--basis B | --table FILE]\n"
	"                         [--format table|csv|json]\n"
	"\n"
	"The energy, area and delay factors from N nm to M nm under a rule, and the table's\n"
	"rows at both nodes.\n"
	"\n"
	"Options:\n"
	"  --from N       the node to scale from, in nm (required)\n"
	"  --to M         the node to scale to, in nm (required)\n" TABLE_OPTS;

static int parse_num(const char *s, double *out)
{
	char *end;
	double x = strtod(s, &end);
	if (!*s || *end || !isfinite(x))
		return -1;
	*out = x;
	return 0;
}

/* Category of an event as declared by the first registered model that
 * counts it ("-" when no model does). */
static const char *category_of(const char *event)
{
	for (const struct weft_model *const *m = weft_models; *m; m++)
		for (uint32_t i = 0; i < (*m)->nevents; i++)
			if (!strcmp((*m)->events[i].name, event))
				return weft_energy_cat_name((*m)->events[i].cat);
	return "-";
}

static int table_path(const struct opts *o, char *out, size_t len, struct weft_error *err)
{
	if (o->table) {
		snprintf(out, len, "%s", o->table);
		return 0;
	}
	char rel[96];
	snprintf(rel, sizeof(rel), "energy/%s.csv", o->basis);
	return weft_config_resolve_path(NULL, rel, out, len, err);
}

static int cmd_show(const struct opts *o)
{
	struct weft_error err;
	weft_error_clear(&err);
	char path[PATH_MAX], spath[PATH_MAX];
	struct weft_energy_table t;
	struct weft_static_table st;
	int rc = table_path(o, path, sizeof(path), &err);
	if (rc == 0)
		rc = weft_energy_table_load(path, &t, &err);
	if (rc < 0)
		return weft_cli_fail(&err);
	rc = weft_config_resolve_path(NULL, "energy/static.csv", spath, sizeof(spath), &err);
	if (rc == 0)
		rc = weft_static_table_load(spath, &st, &err);
	if (rc < 0) {
		weft_energy_table_free(&t);
		return weft_cli_fail(&err);
	}
	enum weft_scaling_rule rule = (enum weft_scaling_rule)o->rule;
	double *pj = calloc(t.nrows ? t.nrows : 1, sizeof(double));
	struct weft_scaling *sc = calloc(t.nrows ? t.nrows : 1, sizeof(*sc));
	double *sw = calloc(st.nrows ? st.nrows : 1, sizeof(double));
	if (!pj || !sc || !sw) {
		rc = weft_cli_nomem(NULL);
		goto out;
	}
	for (uint32_t i = 0; i < t.nrows; i++) {
		double j;
		rc = weft_energy_event_at(&t, t.rows[i].event, o->node, rule, o->vdd, &j, &sc[i], &err);
		if (rc < 0) {
			rc = weft_cli_fail(&err);
			goto out;
		}
		pj[i] = j * 1e12;
	}
	for (uint32_t i = 0; i < st.nrows; i++) {
		struct weft_scaling s;
		rc = weft_scaling_factors_v(rule, st.rows[i].node_nm, o->node, o->vdd, &s, &err);
		if (rc < 0) {
			rc = weft_cli_fail(&err);
			goto out;
		}
		sw[i] = !isnan(st.rows[i].w_per_unit) ? st.rows[i].w_per_unit * s.energy
						       : st.rows[i].w_per_mm2 * s.energy / s.area;
	}
	const char *rname = weft_scaling_rule_name(rule);
	if (o->fmt == WEFT_FMT_JSON) {
		printf("{\n  \"weft_version\": \"%s\",\n  \"table\": ", WEFT_VERSION);
		weft_quote_json(stdout, path);
		printf(",\n  \"node_nm\": %g,\n  \"rule\": \"%s\",\n  \"vdd_v\": %g,\n  \"events\": [\n",
		       o->node, rname, o->vdd);
		for (uint32_t i = 0; i < t.nrows; i++) {
			const struct weft_energy_row *r = &t.rows[i];
			printf("    {\"event\": ");
			weft_quote_json(stdout, r->event);
			printf(", \"category\": \"%s\", \"energy_pj\": %.6g, \"table_node_nm\": %g, "
			       "\"table_energy_pj\": %.6g, \"scaled\": %s, \"unit\": ",
			       category_of(r->event), pj[i], r->node_nm, r->energy_pj,
			       sc[i].energy != 1 ? "true" : "false");
			weft_quote_json(stdout, r->unit);
			printf(", \"source\": ");
			weft_quote_json(stdout, r->source);
			printf("}%s\n", i + 1 < t.nrows ? "," : "");
		}
		printf("  ],\n  \"static_table\": ");
		weft_quote_json(stdout, spath);
		printf(",\n  \"static\": [\n");
		for (uint32_t i = 0; i < st.nrows; i++) {
			const struct weft_static_row *r = &st.rows[i];
			int per_unit = !isnan(r->w_per_unit);
			printf("    {\"component\": ");
			weft_quote_json(stdout, r->component);
			printf(", \"%s\": %.6g, \"table_node_nm\": %g, \"scaled\": %s, \"source\": ",
			       per_unit ? "static_w_per_unit" : "static_w_per_mm2", sw[i], r->node_nm,
			       r->node_nm != o->node ? "true" : "false");
			weft_quote_json(stdout, r->source);
			printf("}%s\n", i + 1 < st.nrows ? "," : "");
		}
		printf("  ]\n}\n");
	} else if (o->fmt == WEFT_FMT_CSV) {
		printf("event,category,energy_pj,node_nm,table_node_nm,table_energy_pj,scaled,rule,unit,"
		       "source\n");
		for (uint32_t i = 0; i < t.nrows; i++) {
			const struct weft_energy_row *r = &t.rows[i];
			printf("%s,%s,%.6g,%g,%g,%.6g,%s,%s,", r->event, category_of(r->event), pj[i],
			       o->node, r->node_nm, r->energy_pj, sc[i].energy != 1 ? "yes" : "no", rname);
			weft_quote_csv(stdout, r->unit);
			putchar(',');
			weft_quote_csv(stdout, r->source);
			putchar('\n');
		}
	} else {
		printf("energy table %s\n", path);
		printf("at %g nm, rule %s%s (rows marked * were scaled from their table node)\n\n",
		       o->node, rname, rule == WEFT_SCALING_STILLMAKER ? " at the same supply" : "");
		printf("%-24s %-6s %12s %9s  %s\n", "event", "cat", "energy_pj", "from_nm", "unit");
		for (uint32_t i = 0; i < t.nrows; i++) {
			const struct weft_energy_row *r = &t.rows[i];
			char from[24];
			if (r->node_nm == 0)
				snprintf(from, sizeof(from), "off-chip");
			else
				snprintf(from, sizeof(from), "%g%s", r->node_nm, sc[i].energy != 1 ? "*" : "");
			printf("%-24s %-6s %12.4g %9s  %s\n", r->event, category_of(r->event), pj[i], from,
			       r->unit);
		}
		printf("\nsources:\n");
		for (uint32_t i = 0; i < t.nrows; i++)
			printf("  %-22s %s\n", t.rows[i].event, t.rows[i].source);
		printf("\nstatic power (%s) at %g nm:\n", spath, o->node);
		for (uint32_t i = 0; i < st.nrows; i++) {
			const struct weft_static_row *r = &st.rows[i];
			printf("  %-22s %10.4g %-10s from %g nm%s  %s\n", r->component, sw[i],
			       !isnan(r->w_per_unit) ? "W/unit" : "W/mm^2", r->node_nm,
			       r->node_nm != o->node ? "*" : "", r->source);
		}
	}
	rc = 0;
out:
	free(pj);
	free(sc);
	free(sw);
	weft_energy_table_free(&t);
	weft_static_table_free(&st);
	return rc;
}

static int cmd_scale(const struct opts *o)
{
	struct weft_error err;
	weft_error_clear(&err);
	enum weft_scaling_rule rule = (enum weft_scaling_rule)o->rule;
	struct weft_scaling s;
	int rc = weft_scaling_factors_v(rule, o->from, o->to, o->vdd, &s, &err);
	if (rc < 0)
		return weft_cli_fail(&err);
	/* the other rule, for the spread the data README asks to report */
	enum weft_scaling_rule other = rule == WEFT_SCALING_CLASSIC ? WEFT_SCALING_STILLMAKER
								   : WEFT_SCALING_CLASSIC;
	struct weft_scaling so;
	struct weft_error e2;
	int have_other = weft_scaling_factors_v(other, o->from, o->to, o->vdd, &so, &e2) == 0;
	char path[PATH_MAX];
	struct weft_energy_table t;
	rc = table_path(o, path, sizeof(path), &err);
	if (rc == 0)
		rc = weft_energy_table_load(path, &t, &err);
	if (rc < 0)
		return weft_cli_fail(&err);
	double *a = calloc(t.nrows ? t.nrows : 1, sizeof(double));
	double *b = calloc(t.nrows ? t.nrows : 1, sizeof(double));
	if (!a || !b) {
		free(a);
		free(b);
		weft_energy_table_free(&t);
		return weft_cli_nomem(NULL);
	}
	for (uint32_t i = 0; i < t.nrows; i++) {
		double ja, jb;
		rc = weft_energy_event_at(&t, t.rows[i].event, o->from, rule, o->vdd, &ja, NULL, &err);
		if (rc == 0)
			rc = weft_energy_event_at(&t, t.rows[i].event, o->to, rule, o->vdd, &jb, NULL, &err);
		if (rc < 0) {
			free(a);
			free(b);
			weft_energy_table_free(&t);
			return weft_cli_fail(&err);
		}
		a[i] = ja * 1e12;
		b[i] = jb * 1e12;
	}
	const char *rname = weft_scaling_rule_name(rule);
	if (o->fmt == WEFT_FMT_JSON) {
		printf("{\n  \"weft_version\": \"%s\",\n  \"rule\": \"%s\",\n  \"from_nm\": %g,\n"
		       "  \"to_nm\": %g,\n  \"vdd_v\": %g,\n  \"energy_factor\": %.6g,\n"
		       "  \"area_factor\": %.6g,\n  \"delay_factor\": %.6g,\n  \"interpolated\": %s,\n"
		       "  \"note\": ",
		       WEFT_VERSION, rname, o->from, o->to, o->vdd, s.energy, s.area, s.delay,
		       s.interpolated ? "true" : "false");
		weft_quote_json(stdout, s.note);
		if (have_other)
			printf(",\n  \"other_rule\": {\"rule\": \"%s\", \"energy_factor\": %.6g, "
			       "\"area_factor\": %.6g, \"delay_factor\": %.6g}",
			       weft_scaling_rule_name(other), so.energy, so.area, so.delay);
		printf(",\n  \"table\": ");
		weft_quote_json(stdout, path);
		printf(",\n  \"events\": [\n");
		for (uint32_t i = 0; i < t.nrows; i++) {
			printf("    {\"event\": ");
			weft_quote_json(stdout, t.rows[i].event);
			printf(", \"from_energy_pj\": %.6g, \"to_energy_pj\": %.6g}%s\n", a[i], b[i],
			       i + 1 < t.nrows ? "," : "");
		}
		printf("  ]\n}\n");
	} else if (o->fmt == WEFT_FMT_CSV) {
		printf("event,rule,from_nm,to_nm,from_energy_pj,to_energy_pj,energy_factor,area_factor,"
		       "delay_factor\n");
		for (uint32_t i = 0; i < t.nrows; i++)
			printf("%s,%s,%g,%g,%.6g,%.6g,%.6g,%.6g,%.6g\n", t.rows[i].event, rname, o->from,
			       o->to, a[i], b[i], s.energy, s.area, s.delay);
	} else {
		printf("rule %s, %g nm -> %g nm%s\n", rname, o->from, o->to,
		       rule == WEFT_SCALING_STILLMAKER ? "" : " (constant field)");
		printf("  energy x%.4g   area x%.4g   delay x%.4g\n", s.energy, s.area, s.delay);
		printf("  %s\n", s.note);
		if (have_other)
			printf("  (the %s rule gives energy x%.4g, area x%.4g, delay x%.4g)\n",
			       weft_scaling_rule_name(other), so.energy, so.area, so.delay);
		printf("\n%s (rows at their table node, scaled to each end; off-chip rows unscaled)\n",
		       path);
		printf("%-24s %14s %14s\n", "event", "pJ @from", "pJ @to");
		for (uint32_t i = 0; i < t.nrows; i++)
			printf("%-24s %14.4g %14.4g\n", t.rows[i].event, a[i], b[i]);
	}
	free(a);
	free(b);
	weft_energy_table_free(&t);
	return 0;
}

static int run_tool(int argc, char **argv)
{
	struct opts o = { .node = 40, .from = NAN, .to = NAN, .vdd = 1.0, .basis = "horowitz45",
			  .rule = WEFT_SCALING_STILLMAKER, .fmt = WEFT_FMT_TABLE };
	weft_cli_start("weft-energy");
	if (argc < 2) {
		fputs(usage_main, stderr);
		return 2;
	}
	const char *a1 = argv[1];
	if (!strcmp(a1, "--help") || !strcmp(a1, "-h"))
		return weft_cli_help(usage_main);
	if (!strcmp(a1, "--version"))
		return weft_cli_version();
	if (!strcmp(a1, "help")) {
		weft_cli_command("help");
		if (argc < 3)
			return weft_cli_help(usage_main);
		if (!strcmp(argv[2], "show"))
			return weft_cli_help(usage_show);
		if (!strcmp(argv[2], "scale"))
			return weft_cli_help(usage_scale);
		return weft_cli_usage("unknown command `%s` (show or scale)", argv[2]);
	}
	if (a1[0] == '-')
		return weft_cli_usage("unknown option `%s` (the first argument is a command: show or scale)",
				      a1);
	if (strcmp(a1, "show") && strcmp(a1, "scale"))
		return weft_cli_usage("unknown command `%s` (show or scale)", a1);
	o.cmd = a1;
	weft_cli_command(o.cmd);
	int show = !strcmp(o.cmd, "show");
	static const struct weft_opt show_opts[] = {
		{ "node", 0, WEFT_OPT_ARG, 'n' },  { "vdd", 0, WEFT_OPT_ARG, 'v' },
		{ "basis", 0, WEFT_OPT_ARG, 'b' }, { "table", 0, WEFT_OPT_ARG, 't' },
		{ "rule", 0, WEFT_OPT_ARG, 'r' },  { "format", 0, WEFT_OPT_ARG, 'f' },
		WEFT_OPT_HELP_VERSION,            { 0 },
	};
	static const struct weft_opt scale_opts[] = {
		{ "from", 0, WEFT_OPT_ARG, 'F' },  { "to", 0, WEFT_OPT_ARG, 'T' },
		{ "vdd", 0, WEFT_OPT_ARG, 'v' },   { "basis", 0, WEFT_OPT_ARG, 'b' },
		{ "table", 0, WEFT_OPT_ARG, 't' }, { "rule", 0, WEFT_OPT_ARG, 'r' },
		{ "format", 0, WEFT_OPT_ARG, 'f' }, WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 2);
	for (int id; (id = weft_opt_next(&p, show ? show_opts : scale_opts)) != WEFT_OPT_END;) {
		const char *v = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, show ? usage_show : usage_scale);
		case WEFT_OPT_OPERAND:
			return weft_cli_usage("unexpected argument `%s`", v);
		case 'n':
			if (parse_num(v, &o.node) < 0 || o.node <= 0)
				return weft_cli_usage("--node %s: expected a node in nm, e.g. --node 45", v);
			break;
		case 'F':
			if (parse_num(v, &o.from) < 0 || o.from <= 0)
				return weft_cli_usage("--from %s: expected a node in nm", v);
			break;
		case 'T':
			if (parse_num(v, &o.to) < 0 || o.to <= 0)
				return weft_cli_usage("--to %s: expected a node in nm", v);
			break;
		case 'v':
			if (parse_num(v, &o.vdd) < 0)
				return weft_cli_usage("--vdd %s: expected a supply in volts", v);
			break;
		case 'b':
			if (strcmp(v, "horowitz45") && strcmp(v, "aladdin40") && strcmp(v, "gpuwattch40") &&
			    strcmp(v, "maven65"))
				return weft_cli_usage("--basis %s: expected horowitz45, aladdin40, gpuwattch40 "
						      "or maven65", v);
			o.basis = v;
			break;
		case 't':
			if (weft_opt_is_dir(v))
				return weft_cli_usage("--table %s is a directory; give a table FILE.csv", v);
			o.table = v;
			break;
		case 'r':
			o.rule = weft_scaling_rule_parse(v);
			if (o.rule < 0)
				return weft_cli_usage("--rule %s: expected classic or stillmaker", v);
			break;
		case 'f':
			if ((o.fmt = weft_format_parse(v)) < 0)
				return weft_cli_usage("--format %s: expected table, csv or json", v);
			break;
		}
	}
	if (show)
		return cmd_show(&o);
	if (isnan(o.from) || isnan(o.to))
		return weft_cli_usage("%s", "scale needs --from N and --to M (nodes in nm)");
	return cmd_scale(&o);
}

int main(int argc, char **argv)
{
	return weft_cli_end(run_tool(argc, argv));
}
