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
 * the report says so. Every row cites its source. A component the model
 * priced itself (weft_component.priced_nm > 0, e.g. a fitted coefficient)
 * takes its own area per unit and source instead of a row, scaled the same
 * way.
 *
 * Calibration (weft_area_fit_*) fits table coefficients to the published
 * data in data/calibration/ and reports coefficients, residual per point,
 * R^2, MAPE and leave-one-out error; `weft-area fit` prints it and
 * docs/area.md records it. weft_area_fit_run does the same for any linear
 * model description over any data CSV (docs/calibration.md).
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
	int priced;           /* priced by the model (weft_component.priced_nm), not a row */
	char why[96];         /* from struct weft_component */
	char unit[64];
	char source[400];     /* the table row's source (or the priced component's) */
};

struct weft_area_report {
	double node_nm;
	enum weft_scaling_rule rule;
	char table[256];
	struct weft_area_line lines[WEFT_MAX_COMPONENTS];
	uint32_t nlines;
	double total_mm2;
	uint32_t nscaled;
	uint32_t npriced;     /* lines priced by the model */
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

/* ---- calibration models: any data CSV, any linear model ------------------
 *
 * weft_area_fit_run fits a model description (an INI file, docs/calibration.md)
 * to a data CSV: the response column as a sum of terms, each a coefficient
 * times a feature, an expression over the CSV's columns (area/fitexpr.h).
 * Coefficients are fitted by GSL weighted linear least squares
 * (gsl_multifit_wlinear), or fixed by the model with their source. Weights
 * `relative` (the default) minimise the sum of ((fit - observed) /
 * observed)^2; `none` the sum of (fit - observed)^2. The report holds each
 * coefficient with its standard error, every point's residual and its
 * leave-one-out prediction (a fit to the other points), R^2, RMSE, MAPE and
 * the leave-one-out errors. A fit the data cannot determine (fewer points
 * than coefficients, a feature that is 0 at every point, features that are
 * linear combinations of each other) is an error naming the terms; a point
 * whose leave-one-out fit is not determined is reported as not identifiable,
 * with the reason. */

#define WEFT_CALIB_MAX_TERMS 16
#define WEFT_CALIB_MAX_POINTS 4096
#define WEFT_CALIB_MAX_FILE (4u << 20) /* bytes of a data or model file */

struct weft_calib_term {
	char name[48];
	char feature[404];   /* the expression as written */
	char unit[48];       /* of the coefficient, e.g. "mm^2 per core" */
	char about[600];     /* what the term stands for */
	char source[600];    /* where a fixed coefficient comes from */
	int fixed;           /* 1: coef is the model's, not fitted */
	double coef;
	double std_err;      /* NAN for fixed terms or without degrees of freedom */
	uint32_t line;       /* model file line of [term NAME] */
};

struct weft_calib_point {
	char label[96];
	uint32_t line;       /* data file line */
	double observed, fitted;
	double rel_err;      /* (fitted - observed) / observed */
	int loo_ok;          /* 1: loo_pred is a fit to the other points */
	double loo_pred, loo_rel_err;
	char loo_note[240];  /* why not, when !loo_ok */
};

struct weft_calib_report {
	char data[256], model[256];
	char name[64];       /* [model] name */
	char response[64], label[64], unit[32];
	char about[600], where[404];
	int relative;        /* weights: 1 relative, 0 none */
	uint32_t nterms, nfitted, dof;
	struct weft_calib_term terms[WEFT_CALIB_MAX_TERMS];
	uint32_t npts;       /* points fitted */
	uint32_t nskipped;   /* data rows the `where` filter left out */
	struct weft_calib_point *pts; /* [npts], weft_area_fit_free */
	double r2;           /* 1 - SS_res / SS_tot, in the response's units */
	double rmse;         /* sqrt(SS_res / npts) */
	double mape_pct, max_ape_pct;
	uint32_t nloo;       /* points with a leave-one-out prediction */
	double loo_mape_pct, loo_max_pct;
	double loo_q2;       /* 1 - PRESS / SS_tot over those points (NAN if < 2) */
};

/* Loads model_path and data_path and fits; out is filled (free it with
 * weft_area_fit_free, also after an error). Errors name file:line. */
int weft_area_fit_run(const char *data_path, const char *model_path, struct weft_calib_report *out,
		      struct weft_error *err);
void weft_area_fit_free(struct weft_calib_report *r);
/* The term called name, or NULL. */
const struct weft_calib_term *weft_area_fit_term(const struct weft_calib_report *r,
						 const char *name);
/* The fitted model's prediction for a design described by one row of
 * fields named by header[0..ncols-1] (the data's columns, or those the
 * features use): the sum of coefficient x feature over all terms. A
 * missing column or a field that is not a number where a feature needs one
 * is an error naming the term. */
int weft_area_fit_predict(const struct weft_calib_report *r, const char *const *header,
			  const char *const *fields, uint32_t ncols, double *out,
			  struct weft_error *err);
/* The same design's feature for each term: feat[j] (room for r->nterms)
 * for term j, so that the prediction is the sum of terms[j].coef x
 * feat[j] (a breakdown by term: the vt model prices a tile's area so). */
int weft_area_fit_features(const struct weft_calib_report *r, const char *const *header,
			   const char *const *fields, uint32_t ncols, double *feat,
			   struct weft_error *err);

#endif
