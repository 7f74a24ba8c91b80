/*
 * area.h - component area tables, a configuration's area, and calibration
 * fits of area models to synthesis results (GSL least squares).
 *
 * Area = sum over a config's components (struct weft_component, filled by
 * the model: models/model.h) of count x area per unit from the area table
 * the config names ([tech] area_table, default data/area/components.csv).
 * Table columns: component,node_nm,area_mm2,unit,source. A component may
 * have rows at several nodes; the row at the config's node is used, else the
 * nearest node's row scaled with the config's rule (area/scaling.h), and
 * the report says so. Every row cites its source.
 *
 * Calibration (weft_area_fit_*) fits table coefficients to the published
 * data in data/calibration/ and reports coefficients, residual per point,
 * R^2, MAPE and leave-one-out error; `weft-area fit` prints it and
 * docs/area.md records it.
 */
#ifndef WEFT_AREA_H
#define WEFT_AREA_H

#include <stdint.h>

#include "scaling.h"
#include "models/model.h"

struct weft_area_row {
	char component[48];
	double node_nm;
	double area_mm2;     /* per unit at node_nm */
	char unit[64];       /* what one unit is: "SM", "SP", "KiB" ... */
	char source[400];
	uint32_t line;
};

struct weft_area_table {
	char path[256];
	struct weft_area_row *rows;
	uint32_t nrows;
};

int weft_area_table_load(const char *path, struct weft_area_table *t, struct weft_error *err);
void weft_area_table_free(struct weft_area_table *t);
/* The row for component at node_nm, else the row at the nearest node (by
 * |log(node ratio)|); NULL when the table has no row for component. */
const struct weft_area_row *weft_area_table_find(const struct weft_area_table *t,
						 const char *component, double node_nm);

struct weft_area_line {
	char component[48];
	double count;
	double mm2_per_unit;  /* at the report's node */
	double mm2;
	double from_node_nm;  /* the table row's node */
	int scaled;
	char why[96];         /* from struct weft_component */
	char unit[64];
	char source[400];     /* the table row's source */
};

struct weft_area_report {
	double node_nm;
	enum weft_scaling_rule rule;
	char table[256];
	struct weft_area_line lines[WEFT_MAX_COMPONENTS];
	uint32_t nlines;
	double total_mm2;
	uint32_t nscaled;
	char scaling_note[224];
};

/* Area of a component list at node_nm. A component without a row is an
 * error naming it, the table and the node. */
int weft_area_of_components(const struct weft_area_table *t, const struct weft_component *c,
			    uint32_t n, double node_nm, enum weft_scaling_rule rule,
			    struct weft_area_report *out, struct weft_error *err);

/* Loads the config's area table ([tech] area_table, node_nm, scaling_rule)
 * and computes the area of r's components. */
int weft_area_of_result(const struct weft_config *cfg, const struct weft_model_result *r,
			struct weft_area_report *out, struct weft_error *err);

/* The component list of a config without a trace: the model's components op
 * when it has one, else init + finish on an empty run. */
int weft_area_components_of_config(const struct weft_config *cfg, struct weft_component *out,
				   uint32_t max, uint32_t *n, struct weft_error *err);
/* weft_area_components_of_config + weft_area_of_components at the config's
 * node (node_nm > 0 overrides it). */
int weft_area_of_config(const struct weft_config *cfg, double node_nm, struct weft_area_report *out,
			struct weft_error *err);

/* ---- calibration fits ---------------------------------------------------- */

#define WEFT_FIT_MAX_COEF 8
#define WEFT_FIT_MAX_POINTS 32

struct weft_fit_point {
	char label[96];
	double observed, fitted;
	double rel_err;        /* (fitted - observed) / observed */
	int loo_ok;            /* leave-one-out prediction identifiable */
	double loo_pred;       /* prediction of this point by a fit without it */
	double loo_rel_err;
	char loo_note[96];
};

struct weft_fit_report {
	char model[160];       /* the fitted equation in words */
	char data[256];        /* calibration file */
	uint32_t ncoef;
	char coef_name[WEFT_FIT_MAX_COEF][48];
	char coef_unit[WEFT_FIT_MAX_COEF][16];
	double coef[WEFT_FIT_MAX_COEF];
	uint32_t npts;
	struct weft_fit_point pts[WEFT_FIT_MAX_POINTS];
	double r2;             /* see note: over which points */
	double mape_pct;       /* mean |rel_err| x 100 over all points */
	double loo_mape_pct;   /* over the identifiable leave-one-out predictions */
	char note[320];
};

/* Fits the Tesla-like SM's per-SM area A(SP) = a + b SP + c SP^2 (mm^2, 65
 * nm) to data/calibration/configurable_sm_65nm.csv: the absolute row
 * (num_sm x A(sp)) and each doubling row (A(2 SP) / A(SP) = 2 / (1 +
 * increase)), all as relative residuals, with gsl_multifit_nlinear. */
int weft_area_fit_tesla_sm(const char *csv_path, struct weft_fit_report *out,
			   struct weft_error *err);

#endif
