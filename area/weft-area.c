/*
 * weft-area - the area of a machine configuration, and the calibration fit
 * behind the Tesla-like SM's area rows, and calibration fits of any linear
 * model description to any synthesis-results CSV (docs/calibration.md).
 *
 *   weft-area CONFIG.ini [--node N] [--set sec.key=v ...] [--format table|csv|json]
 *   weft-area fit [--data FILE] [--format table|csv|json]
 *   weft-area fit DATA.csv MODEL [--format table|csv|json]
 *
 * Exit status (docs/cli.md): 0 ok, 2 bad usage or input (config errors,
 * missing tables or rows), 3 internal error.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "area.h"
#include "cli/cli.h"
#include "common/format.h"
#include "common/opt.h"
#include "common/version.h"
#include "common/quote.h"

#define MAX_SETS 64

static const char usage_main[] =
	"usage: weft-area CONFIG [--node N] [--set section.key=value ...]\n"
	"                 [--format table|csv|json]\n"
	"       weft-area fit [--data FILE] [--format table|csv|json]\n"
	"       weft-area fit DATA.csv MODEL [--format table|csv|json]\n"
	"\n"
	"The area of a machine configuration (a file, or a bundled config's name such\n"
	"as tesla-sm or vt-c4v1r256+bi+2s; `weft-config configs` lists them): each\n"
	"component the model reports (count x area per unit from the config's [tech]\n"
	"area_table, scaled to the config's node, or --node N, with its [tech]\n"
	"scaling_rule) and the total. JSON: total_area_mm2 and one entry per\n"
	"component. `weft-area fit --help`: the calibration fit.\n"
	"\n"
	"Options:\n"
	"  --node N       scale the areas to node N nm (default: the config's)\n"
	"  --set S.K=V    override a config key (repeatable, at most 64)\n"
	"  --format F     table (default), csv or json\n"
	"  -h, --help     show this help\n"
	"  --version      print \"weft-area VERSION\"\n"
	"\n"
	"Tables are found in $WEFT_DATA, else <executable>/../share/weft/data, else\n"
	"<executable>/../data, else ./data.\n"
	"Exit status: 0 ok, 2 bad usage or input (config errors, missing tables or\n"
	"rows), 3 internal error (docs/cli.md).\n";

static const char usage_fit[] =
	"usage: weft-area fit [--data FILE] [--format table|csv|json]\n"
	"       weft-area fit DATA.csv MODEL [--format table|csv|json]\n"
	"\n"
	"Without operands: refits the Tesla-like SM area model A(SP) = a + b SP + c SP^2\n"
	"to data/calibration/configurable_sm_65nm.csv (GSL least squares) and prints\n"
	"the coefficients, the residual of every point, R^2, MAPE and the leave-one-out\n"
	"errors. data/area/components.csv holds the fitted a, b, c.\n"
	"\n"
	"With DATA.csv and MODEL: fits the model description MODEL (an INI file: the\n"
	"[model] section names the response column, each [term NAME] a feature\n"
	"expression over DATA's columns, fitted or fixed from a table) by GSL weighted\n"
	"linear least squares, and prints each coefficient with its standard error,\n"
	"every point's residual and leave-one-out prediction (a fit to the other\n"
	"points; a point whose absence leaves the fit undetermined is said to be not\n"
	"identifiable), R^2, RMSE, MAPE and the leave-one-out MAPE, maximum and Q^2.\n"
	"Bundled: data/calibration/maven_{area,power,cycle}.model for\n"
	"data/calibration/maven_tiles_65nm.csv (docs/calibration.md).\n"
	"\n"
	"Options:\n"
	"  --data FILE    the Tesla SM synthesis results CSV instead of the default\n"
	"  --format F     table (default), csv or json\n"
	"  -h, --help     show this help\n"
	"  --version      print \"weft-area VERSION\"\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (a missing or malformed data file or\n"
	"model, a model the data cannot determine), 3 internal error (docs/cli.md).\n";

/* A number, or `null` / "-" / "" when it is not one (no std err, no LOO). */
static void json_num(double v, const char *fmt)
{
	if (isfinite(v))
		printf(fmt, v);
	else
		printf("null");
}

static void print_calib_json(const struct weft_calib_report *r)
{
	printf("{\n  \"weft_version\": \"%s\",\n  \"data\": ", WEFT_VERSION);
	weft_quote_json(stdout, r->data);
	printf(",\n  \"model\": ");
	weft_quote_json(stdout, r->model);
	printf(",\n  \"name\": ");
	weft_quote_json(stdout, r->name);
	printf(",\n  \"response\": ");
	weft_quote_json(stdout, r->response);
	printf(",\n  \"unit\": ");
	weft_quote_json(stdout, r->unit);
	printf(",\n  \"weights\": \"%s\",\n  \"where\": ", r->relative ? "relative" : "none");
	weft_quote_json(stdout, r->where);
	printf(",\n  \"points\": %u,\n  \"rows_left_out\": %u,\n  \"fitted_terms\": %u,\n"
	       "  \"dof\": %u,\n  \"terms\": [\n",
	       r->npts, r->nskipped, r->nfitted, r->dof);
	for (uint32_t j = 0; j < r->nterms; j++) {
		const struct weft_calib_term *t = &r->terms[j];
		printf("    {\"name\": ");
		weft_quote_json(stdout, t->name);
		printf(", \"fixed\": %s, \"value\": %.9g, \"std_err\": ", t->fixed ? "true" : "false",
		       t->coef);
		json_num(t->std_err, "%.3g");
		printf(", \"unit\": ");
		weft_quote_json(stdout, t->unit);
		printf(", \"feature\": ");
		weft_quote_json(stdout, t->feature);
		printf(", \"about\": ");
		weft_quote_json(stdout, t->about);
		printf(", \"source\": ");
		weft_quote_json(stdout, t->source);
		printf("}%s\n", j + 1 < r->nterms ? "," : "");
	}
	printf("  ],\n  \"fit\": [\n");
	for (uint32_t i = 0; i < r->npts; i++) {
		const struct weft_calib_point *p = &r->pts[i];
		printf("    {\"label\": ");
		weft_quote_json(stdout, p->label);
		printf(", \"line\": %u, \"observed\": %.6g, \"fitted\": %.6g, \"residual_pct\": %.4g, "
		       "\"loo_predicted\": ",
		       p->line, p->observed, p->fitted, 100 * p->rel_err);
		json_num(p->loo_ok ? p->loo_pred : NAN, "%.6g");
		printf(", \"loo_error_pct\": ");
		json_num(p->loo_ok ? 100 * p->loo_rel_err : NAN, "%.4g");
		if (!p->loo_ok) {
			printf(", \"loo_note\": ");
			weft_quote_json(stdout, p->loo_note);
		}
		printf("}%s\n", i + 1 < r->npts ? "," : "");
	}
	printf("  ],\n  \"r2\": ");
	json_num(r->r2, "%.6g");
	printf(",\n  \"rmse\": %.6g,\n  \"mape_pct\": %.4g,\n  \"max_error_pct\": %.4g,\n"
	       "  \"loo_points\": %u,\n  \"loo_mape_pct\": ",
	       r->rmse, r->mape_pct, r->max_ape_pct, r->nloo);
	json_num(r->loo_mape_pct, "%.4g");
	printf(",\n  \"loo_max_error_pct\": ");
	json_num(r->loo_max_pct, "%.4g");
	printf(",\n  \"loo_q2\": ");
	json_num(r->loo_q2, "%.6g");
	printf("\n}\n");
}

static void csv_num(double v, const char *fmt)
{
	if (isfinite(v))
		printf(fmt, v);
}

static void print_calib_csv(const struct weft_calib_report *r)
{
	printf("kind,name,value,std_err,unit,observed,fitted,residual_pct,loo_predicted,"
	       "loo_error_pct,note\n");
	for (uint32_t j = 0; j < r->nterms; j++) {
		const struct weft_calib_term *t = &r->terms[j];
		printf("%s,%s,%.9g,", t->fixed ? "fixed" : "coefficient", t->name, t->coef);
		csv_num(t->std_err, "%.3g");
		putchar(',');
		weft_quote_csv(stdout, t->unit);
		printf(",,,,,,");
		weft_quote_csv(stdout, t->fixed ? t->source : t->feature);
		putchar('\n');
	}
	for (uint32_t i = 0; i < r->npts; i++) {
		const struct weft_calib_point *p = &r->pts[i];
		printf("point,");
		weft_quote_csv(stdout, p->label);
		printf(",,,,%.6g,%.6g,%.4g,", p->observed, p->fitted, 100 * p->rel_err);
		if (p->loo_ok)
			printf("%.6g,%.4g,\n", p->loo_pred, 100 * p->loo_rel_err);
		else {
			printf(",,");
			weft_quote_csv(stdout, p->loo_note);
			putchar('\n');
		}
	}
	printf("summary,r2,");
	csv_num(r->r2, "%.6g");
	printf(",,,,,,,,\nsummary,rmse,%.6g,,", r->rmse);
	weft_quote_csv(stdout, r->unit);
	printf(",,,,,,\nsummary,mape_pct,%.4g,,%%,,,,,,\nsummary,max_error_pct,%.4g,,%%,,,,,,\n",
	       r->mape_pct, r->max_ape_pct);
	printf("summary,loo_points,%u,,,,,,,,\nsummary,loo_mape_pct,", r->nloo);
	csv_num(r->loo_mape_pct, "%.4g");
	printf(",,%%,,,,,,\nsummary,loo_max_error_pct,");
	csv_num(r->loo_max_pct, "%.4g");
	printf(",,%%,,,,,,\nsummary,loo_q2,");
	csv_num(r->loo_q2, "%.6g");
	printf(",,,,,,,,\n");
}

/* A percentage in a column of width w: 2 decimals, or 3 digits when huge. */
static void pct(int w, double v)
{
	if (fabs(v) < 1e6)
		printf("%*.2f", w, v);
	else
		printf("%*.3g", w, v);
}

static void print_calib_table(const struct weft_calib_report *r)
{
	printf("calibration fit%s%s\n", r->name[0] ? " " : "", r->name);
	printf("data   %s (%u points", r->data, r->npts);
	if (r->nskipped)
		printf("; %u rows left out by `where %s`", r->nskipped, r->where);
	printf(")\nmodel  %s\n", r->model);
	printf("%s%s%s%s = sum of %u terms (%u fitted, %u fixed); %s; GSL weighted least squares, "
	       "%u degrees of freedom\n",
	       r->response, r->unit[0] ? " (" : "", r->unit, r->unit[0] ? ")" : "", r->nterms,
	       r->nfitted, r->nterms - r->nfitted,
	       r->relative ? "relative residuals (fit - observed) / observed minimised"
			   : "residuals (fit - observed) minimised",
	       r->dof);
	printf("\n  %-16s %12s %10s  %-20s %s\n", "term", "coefficient", "std err", "unit", "feature");
	for (uint32_t j = 0; j < r->nterms; j++) {
		const struct weft_calib_term *t = &r->terms[j];
		printf("  %-16s %12.6g ", t->name, t->coef);
		if (t->fixed)
			printf("%10s", "fixed");
		else if (isfinite(t->std_err))
			printf("%10.3g", t->std_err);
		else
			printf("%10s", "-");
		printf("  %-20s %s\n", t->unit, t->feature);
	}
	for (uint32_t j = 0; j < r->nterms; j++)
		if (r->terms[j].fixed)
			printf("  (%s fixed: %s)\n", r->terms[j].name, r->terms[j].source);
	printf("\n  %-28s %10s %10s %8s %10s %8s\n", "point", "observed", "fitted", "resid%",
	       "loo pred", "loo err%");
	for (uint32_t i = 0; i < r->npts; i++) {
		const struct weft_calib_point *p = &r->pts[i];
		printf("  %-28s %10.5g %10.5g ", p->label, p->observed, p->fitted);
		pct(8, 100 * p->rel_err);
		if (p->loo_ok) {
			printf(" %10.5g ", p->loo_pred);
			pct(8, 100 * p->loo_rel_err);
			putchar('\n');
		} else {
			printf(" %10s %8s  (%s)\n", "-", "-", p->loo_note);
		}
	}
	printf("\n  R^2 ");
	if (isfinite(r->r2))
		printf("%.4f", r->r2);
	else
		printf("-");
	printf("   RMSE %.4g%s%s   MAPE ", r->rmse, r->unit[0] ? " " : "", r->unit);
	pct(0, r->mape_pct);
	printf("%%   max |error| ");
	pct(0, r->max_ape_pct);
	printf("%%\n");
	printf("  leave-one-out over %u of %u points: ", r->nloo, r->npts);
	if (r->nloo) {
		printf("MAPE ");
		pct(0, r->loo_mape_pct);
		printf("%%   max |error| ");
		pct(0, r->loo_max_pct);
		printf("%%   Q^2 ");
		if (isfinite(r->loo_q2))
			printf("%.4f\n", r->loo_q2);
		else
			printf("-\n");
	} else {
		printf("none identifiable\n");
	}
}

static int cmd_calib(const char *data, const char *model, int fmt)
{
	struct weft_error err;
	weft_error_clear(&err);
	struct weft_calib_report r;
	int rc = weft_area_fit_run(data, model, &r, &err);
	if (rc < 0) {
		weft_area_fit_free(&r);
		return weft_cli_fail(&err);
	}
	if (fmt == WEFT_FMT_JSON)
		print_calib_json(&r);
	else if (fmt == WEFT_FMT_CSV)
		print_calib_csv(&r);
	else
		print_calib_table(&r);
	weft_area_fit_free(&r);
	return 0;
}

static int cmd_fit(int argc, char **argv)
{
	int fmt = WEFT_FMT_TABLE;
	const char *data = NULL;
	const char *operand[2] = { NULL, NULL };
	uint32_t noperands = 0;
	static const struct weft_opt opts[] = {
		{ "data", 0, WEFT_OPT_ARG, 'd' },
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 2);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage_fit);
		case WEFT_OPT_OPERAND:
			if (noperands == 2)
				return weft_cli_usage("unexpected argument `%s` (fit takes DATA.csv and "
						      "MODEL)",
						      p.arg);
			if (weft_opt_is_dir(p.arg))
				return weft_cli_usage("%s is a directory; give a %s file", p.arg,
						      noperands ? "model description" : "data CSV");
			operand[noperands++] = p.arg;
			break;
		case 'd':
			if (weft_opt_is_dir(p.arg))
				return weft_cli_usage("--data %s is a directory; give a CSV file", p.arg);
			data = p.arg;
			break;
		case 'f':
			if ((fmt = weft_format_parse(p.arg)) < 0)
				return weft_cli_usage("--format %s: expected table, csv or json", p.arg);
			break;
		}
	}
	if (noperands == 1)
		return weft_cli_usage("fit %s: which model? give DATA.csv and MODEL (e.g. "
				      "data/calibration/maven_area.model), or neither for the Tesla SM fit",
				      operand[0]);
	if (noperands == 2 && data)
		return weft_cli_usage("%s", "--data is for the Tesla SM fit; with DATA.csv MODEL "
				      "the data is the first operand");
	if (noperands == 2)
		return cmd_calib(operand[0], operand[1], fmt);
	struct weft_error err;
	weft_error_clear(&err);
	char path[PATH_MAX];
	if (data)
		snprintf(path, sizeof(path), "%s", data);
	else {
		int rc = weft_config_resolve_path(NULL, "calibration/configurable_sm_65nm.csv", path,
						  sizeof(path), &err);
		if (rc < 0)
			return weft_cli_fail(&err);
	}
	struct weft_fit_report r;
	int rc = weft_area_fit_tesla_sm(path, &r, &err);
	if (rc < 0)
		return weft_cli_fail(&err);
	if (fmt == WEFT_FMT_JSON) {
		printf("{\n  \"weft_version\": \"%s\",\n  \"data\": ", WEFT_VERSION);
		weft_quote_json(stdout, r.data);
		printf(",\n  \"model\": ");
		weft_quote_json(stdout, r.model);
		printf(",\n  \"coefficients\": [\n");
		for (uint32_t j = 0; j < r.ncoef; j++) {
			printf("    {\"name\": ");
			weft_quote_json(stdout, r.coef_name[j]);
			printf(", \"value\": %.9g, \"unit\": ", r.coef[j]);
			weft_quote_json(stdout, r.coef_unit[j]);
			printf("}%s\n", j + 1 < r.ncoef ? "," : "");
		}
		printf("  ],\n  \"points\": [\n");
		for (uint32_t i = 0; i < r.npts; i++) {
			const struct weft_fit_point *p = &r.pts[i];
			printf("    {\"label\": ");
			weft_quote_json(stdout, p->label);
			printf(", \"observed\": %.6g, \"fitted\": %.6g, \"residual_pct\": %.4g, ", p->observed,
			       p->fitted, 100 * p->rel_err);
			if (p->loo_ok)
				printf("\"loo_predicted\": %.6g, \"loo_error_pct\": %.4g}", p->loo_pred,
				       100 * p->loo_rel_err);
			else {
				printf("\"loo_predicted\": null, \"loo_error_pct\": null, \"loo_note\": ");
				weft_quote_json(stdout, p->loo_note);
				printf("}");
			}
			printf("%s\n", i + 1 < r.npts ? "," : "");
		}
		printf("  ],\n  \"r2\": %.6g,\n  \"mape_pct\": %.4g,\n  \"loo_mape_pct\": %.4g,\n"
		       "  \"note\": ",
		       r.r2, r.mape_pct, r.loo_mape_pct);
		weft_quote_json(stdout, r.note);
		printf("\n}\n");
	} else if (fmt == WEFT_FMT_CSV) {
		printf("kind,name,value,unit,observed,fitted,residual_pct,loo_predicted,loo_error_pct\n");
		for (uint32_t j = 0; j < r.ncoef; j++)
			printf("coefficient,%s,%.9g,%s,,,,,\n", r.coef_name[j], r.coef[j], r.coef_unit[j]);
		for (uint32_t i = 0; i < r.npts; i++) {
			const struct weft_fit_point *p = &r.pts[i];
			printf("point,");
			weft_quote_csv(stdout, p->label);
			printf(",,,%.6g,%.6g,%.4g,", p->observed, p->fitted, 100 * p->rel_err);
			if (p->loo_ok)
				printf("%.6g,%.4g\n", p->loo_pred, 100 * p->loo_rel_err);
			else
				printf(",\n");
		}
		printf("summary,r2,%.6g,,,,,,\nsummary,mape_pct,%.4g,%%,,,,,\n"
		       "summary,loo_mape_pct,%.4g,%%,,,,,\n",
		       r.r2, r.mape_pct, r.loo_mape_pct);
	} else {
		printf("fit of %s\n%s\n\n", r.data, r.model);
		for (uint32_t j = 0; j < r.ncoef; j++)
			printf("  %-24s = %.9g %s\n", r.coef_name[j], r.coef[j], r.coef_unit[j]);
		printf("\n  %-38s %10s %10s %9s %10s %9s\n", "point", "observed", "fitted", "resid%",
		       "loo pred", "loo err%");
		for (uint32_t i = 0; i < r.npts; i++) {
			const struct weft_fit_point *p = &r.pts[i];
			printf("  %-38s %10.5g %10.5g %9.3f ", p->label, p->observed, p->fitted,
			       100 * p->rel_err);
			if (p->loo_ok)
				printf("%10.5g %9.3f\n", p->loo_pred, 100 * p->loo_rel_err);
			else
				printf("%10s %9s  (%s)\n", "-", "-", p->loo_note);
		}
		printf("\n  R^2 %.4f   MAPE %.3f%%   leave-one-out MAPE %.3f%%\n  %s\n", r.r2, r.mape_pct,
		       r.loo_mape_pct, r.note);
	}
	return 0;
}

static int cmd_config(int argc, char **argv)
{
	const char *path = NULL;
	const char *sets[MAX_SETS];
	uint32_t nsets = 0;
	double node = 0;
	int fmt = WEFT_FMT_TABLE;
	static const struct weft_opt opts[] = {
		{ "node", 0, WEFT_OPT_ARG, 'n' },
		{ "set", 0, WEFT_OPT_ARG, 's' },
		{ "format", 0, WEFT_OPT_ARG, 'f' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *v = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, usage_main);
		case WEFT_OPT_OPERAND:
			if (path)
				return weft_cli_usage("unexpected argument `%s` (one CONFIG.ini per run)", v);
			path = v;
			break;
		case 'n': {
			char *end;
			node = strtod(v, &end);
			if (!*v || *end || !(node > 0))
				return weft_cli_usage("--node %s: expected a node in nm, e.g. --node 65", v);
			break;
		}
		case 's':
			if (nsets == MAX_SETS)
				return weft_cli_usage("more than 64 --set options (%s)", v);
			sets[nsets++] = v;
			break;
		case 'f':
			if ((fmt = weft_format_parse(v)) < 0)
				return weft_cli_usage("--format %s: expected table, csv or json", v);
			break;
		}
	}
	if (!path)
		return weft_cli_usage("%s", "which configuration? give CONFIG.ini (e.g. configs/tesla-sm.ini) or fit");
	if (weft_opt_is_dir(path))
		return weft_cli_usage("%s is a directory; give a CONFIG.ini", path);
	struct weft_error err;
	weft_error_clear(&err);
	char found[1200]; /* a bundled config's name becomes its path */
	if (weft_config_resolve(path, found, sizeof(found), &err) < 0)
		return weft_cli_fail(&err);
	path = found;
	struct weft_config cfg;
	int rc = weft_config_load(path, sets, nsets, &cfg, &err);
	if (rc < 0)
		return weft_cli_fail(&err);
	struct weft_area_report r;
	rc = weft_area_of_config(&cfg, node, &r, &err);
	if (rc < 0) {
		weft_config_free(&cfg);
		return weft_cli_fail(&err);
	}
	const char *rule = weft_scaling_rule_name(r.rule);
	if (fmt == WEFT_FMT_JSON) {
		printf("{\n  \"weft_version\": \"%s\",\n  \"config\": ", WEFT_VERSION);
		weft_quote_json(stdout, cfg.path);
		printf(",\n  \"config_hash\": \"%016llx\",\n  \"overrides\": ",
		       (unsigned long long)cfg.hash);
		weft_quote_json(stdout, cfg.overrides);
		printf(",\n  \"model\": ");
		weft_quote_json(stdout, cfg.model);
		printf(",\n  \"node_nm\": %g,\n  \"rule\": \"%s\",\n  \"area_table\": ", r.node_nm, rule);
		weft_quote_json(stdout, r.table);
		printf(",\n  \"total_area_mm2\": %.6g,\n  \"scaling_note\": ", r.total_mm2);
		weft_quote_json(stdout, r.scaling_note);
		printf(",\n  \"components\": [\n");
		for (uint32_t i = 0; i < r.nlines; i++) {
			const struct weft_area_line *l = &r.lines[i];
			printf("    {\"component\": ");
			weft_quote_json(stdout, l->component);
			printf(", \"count\": %.6g, \"unit\": ", l->count);
			weft_quote_json(stdout, l->unit);
			printf(", \"area_per_unit_mm2\": %.6g, \"area_mm2\": %.6g, \"table_node_nm\": %g, "
			       "\"scaled\": %s, \"why\": ",
			       l->mm2_per_unit, l->mm2, l->from_node_nm, l->scaled ? "true" : "false");
			weft_quote_json(stdout, l->why);
			printf(", \"source\": ");
			weft_quote_json(stdout, l->source);
			printf("}%s\n", i + 1 < r.nlines ? "," : "");
		}
		printf("  ]\n}\n");
	} else if (fmt == WEFT_FMT_CSV) {
		printf("config,component,count,unit,area_per_unit_mm2,area_mm2,node_nm,table_node_nm,"
		       "scaled,rule,why,source\n");
		for (uint32_t i = 0; i < r.nlines; i++) {
			const struct weft_area_line *l = &r.lines[i];
			printf("%s,%s,%.6g,", cfg.name, l->component, l->count);
			weft_quote_csv(stdout, l->unit);
			printf(",%.6g,%.6g,%g,%g,%s,%s,", l->mm2_per_unit, l->mm2, r.node_nm,
			       l->from_node_nm, l->scaled ? "yes" : "no", rule);
			weft_quote_csv(stdout, l->why);
			putchar(',');
			weft_quote_csv(stdout, l->source);
			putchar('\n');
		}
		printf("%s,total,,,,%.6g,%g,,,%s,,\n", cfg.name, r.total_mm2, r.node_nm, rule);
	} else {
		printf("area of %s (model %s) at %g nm, table %s\n", cfg.path, cfg.model, r.node_nm,
		       r.table);
		if (cfg.overrides[0])
			printf("overrides: %s\n", cfg.overrides);
		printf("\n%-20s %12s %14s %12s  %s\n", "component", "count", "mm^2/unit", "mm^2", "why");
		for (uint32_t i = 0; i < r.nlines; i++) {
			const struct weft_area_line *l = &r.lines[i];
			printf("%-20s %12.6g %14.6g %12.6g  %s%s\n", l->component, l->count, l->mm2_per_unit,
			       l->mm2, l->why, l->scaled ? " (*scaled)" : "");
		}
		printf("%-20s %12s %14s %12.6g\n", "total", "", "", r.total_mm2);
		if (r.nscaled)
			printf("\n* scaled: %s\n", r.scaling_note);
		printf("\nsources:\n");
		for (uint32_t i = 0; i < r.nlines; i++)
			printf("  %-18s %s\n", r.lines[i].component, r.lines[i].source);
	}
	weft_config_free(&cfg);
	return 0;
}

static int run_tool(int argc, char **argv)
{
	weft_cli_start("weft-area");
	if (argc < 2) {
		fputs(usage_main, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "fit")) {
		weft_cli_command("fit");
		return cmd_fit(argc, argv);
	}
	if (!strcmp(argv[1], "help")) {
		weft_cli_command("help");
		if (argc >= 3 && !strcmp(argv[2], "fit"))
			return weft_cli_help(usage_fit);
		if (argc >= 3)
			return weft_cli_usage("unknown command `%s` (fit; or give CONFIG.ini)", argv[2]);
		return weft_cli_help(usage_main);
	}
	return cmd_config(argc, argv);
}

int main(int argc, char **argv)
{
	return weft_cli_end(run_tool(argc, argv));
}
