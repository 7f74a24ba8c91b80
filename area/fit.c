/*
 * fit.c - calibration of the Tesla-like SM's area model to the published
 * synthesis data (area.h, weft_area_fit_tesla_sm).
 *
 * Model (per SM, mm^2 at 65 nm): A(SP) = a + b SP + c SP^2, where a is the
 * SM logic that does not depend on the SP count (fetch, decode, warp
 * scheduling, the register file, held constant in the doubling syntheses),
 * b the per-SP datapath and c the hardware that grows quadratically with
 * SPs: non-coalesced-access detection and shared-memory banking (G. Lies,
 * "A Configurable General Purpose Graphics Processing Unit for Power,
 * Performance, and Area Analysis", Iowa State University, 2019; as
 * summarised in data/calibration/README.md).
 *
 * Data (data/calibration/configurable_sm_65nm.csv): the absolute row gives
 * num_sm x A(sp) = area_mm2; each doubling row gives A(2 SP) / A(SP) =
 * 2 / (1 + increase/100). All residuals are relative, (model - data) / data,
 * so the mm^2 row and the unit-less ratios weigh the same; they are
 * minimised together with GSL's trust-region nonlinear least squares
 * (gsl_multifit_nlinear, Levenberg-Marquardt), started from the solution of
 * the linearised system (A(2s) - r A(s) = 0) by gsl_multifit_linear.
 *
 * Leave-one-out: each point is predicted by a fit to the other three. The
 * ratios alone fix the shape of A(SP), not its scale, so the absolute row
 * cannot be predicted without itself; that point is reported as not
 * identifiable rather than given a made-up error.
 */
#include "area.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/csv.h"

struct sm_point {
	int absolute;          /* 1: num_sm x A(from) = obs (mm^2); 0: A(to)/A(from) = obs */
	double num_sm, from, to;
	double obs;
	int use;               /* in the current fit */
};

struct sm_data {
	struct sm_point *p;
	uint32_t n;
};

static double sm_area(const double *x, double sp)
{
	return x[0] + x[1] * sp + x[2] * sp * sp;
}

static double predict(const struct sm_point *p, const double *x)
{
	if (p->absolute)
		return p->num_sm * sm_area(x, p->from);
	return sm_area(x, p->to) / sm_area(x, p->from);
}

static int resid(const gsl_vector *xv, void *params, gsl_vector *f)
{
	const struct sm_data *d = params;
	double x[3] = { gsl_vector_get(xv, 0), gsl_vector_get(xv, 1), gsl_vector_get(xv, 2) };
	size_t k = 0;
	for (uint32_t i = 0; i < d->n; i++) {
		if (!d->p[i].use)
			continue;
		gsl_vector_set(f, k++, (predict(&d->p[i], x) - d->p[i].obs) / d->p[i].obs);
	}
	return GSL_SUCCESS;
}

/* Linearised start: absolute rows num (a + b s + c s^2) / obs = 1; ratio
 * rows (A(to) - r A(from)) / (r A0) = 0 with A0 the absolute row's per-SM
 * area (or 1). */
static int start_point(const struct sm_data *d, double *x)
{
	size_t m = 0;
	double a0 = 1;
	for (uint32_t i = 0; i < d->n; i++) {
		if (d->p[i].use)
			m++;
		if (d->p[i].use && d->p[i].absolute)
			a0 = d->p[i].obs / d->p[i].num_sm;
	}
	if (m < 3)
		return -1;
	gsl_matrix *X = gsl_matrix_alloc(m, 3);
	gsl_vector *y = gsl_vector_alloc(m), *c = gsl_vector_alloc(3);
	gsl_matrix *cov = gsl_matrix_alloc(3, 3);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(m, 3);
	int rc = -1;
	if (X && y && c && cov && w) {
		size_t k = 0;
		for (uint32_t i = 0; i < d->n; i++) {
			const struct sm_point *p = &d->p[i];
			if (!p->use)
				continue;
			if (p->absolute) {
				double s = p->from;
				gsl_matrix_set(X, k, 0, p->num_sm / p->obs);
				gsl_matrix_set(X, k, 1, p->num_sm * s / p->obs);
				gsl_matrix_set(X, k, 2, p->num_sm * s * s / p->obs);
				gsl_vector_set(y, k, 1);
			} else {
				double r = p->obs, s = p->from, t = p->to, sc = r * a0;
				gsl_matrix_set(X, k, 0, (1 - r) / sc);
				gsl_matrix_set(X, k, 1, (t - r * s) / sc);
				gsl_matrix_set(X, k, 2, (t * t - r * s * s) / sc);
				gsl_vector_set(y, k, 0);
			}
			k++;
		}
		double chisq;
		if (gsl_multifit_linear(X, y, c, cov, &chisq, w) == GSL_SUCCESS) {
			for (int j = 0; j < 3; j++)
				x[j] = gsl_vector_get(c, j);
			rc = 0;
		}
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	gsl_vector_free(y);
	gsl_matrix_free(X);
	if (rc == 0 && !(x[0] > 0)) {
		/* no absolute row: any positive scale will do for the shape */
		x[0] = a0;
		x[1] = x[2] = 0;
	}
	return rc;
}

/* Fits the points with use = 1; x gets a, b, c. */
static int fit(struct sm_data *d, double *x, struct weft_error *err)
{
	size_t m = 0;
	for (uint32_t i = 0; i < d->n; i++)
		m += d->p[i].use != 0;
	if (m < 3)
		return weft_error_set(err, WEFT_ERR_INPUT, "%zu points cannot fix 3 coefficients", m);
	if (start_point(d, x) < 0) {
		x[0] = 1;
		x[1] = x[2] = 0;
	}
	gsl_multifit_nlinear_fdf fdf;
	memset(&fdf, 0, sizeof(fdf));
	fdf.f = resid;
	fdf.n = m;
	fdf.p = 3;
	fdf.params = d;
	gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w =
		gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, m, 3);
	if (!w)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the area fit");
	gsl_vector_view xv = gsl_vector_view_array(x, 3);
	int info = 0;
	int st = gsl_multifit_nlinear_init(&xv.vector, &fdf, w);
	if (st == GSL_SUCCESS)
		st = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
	if (st == GSL_SUCCESS || st == GSL_EMAXITER) {
		gsl_vector *sol = gsl_multifit_nlinear_position(w);
		for (int j = 0; j < 3; j++)
			x[j] = gsl_vector_get(sol, j);
	}
	gsl_multifit_nlinear_free(w);
	if (st != GSL_SUCCESS && st != GSL_EMAXITER)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "area fit failed: %s", gsl_strerror(st));
	return 0;
}

struct sm_row {
	struct sm_point p;
	char label[96];
};

static int make_point(void *dst, const void *prev, uint32_t n, const struct weft_csv *c, uint32_t r,
		      const int *ix, struct weft_error *err)
{
	struct sm_row *row = dst;
	struct sm_point *p = &row->p;
	const char *kind = c->rows[r][ix[0]];
	int rc;
	(void)prev;
	(void)n;
	if ((rc = weft_csv_num(c, r, ix[1], 0, &p->num_sm, err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[2], 0, &p->from, err)) < 0 ||
	    (rc = weft_csv_num(c, r, ix[3], 0, &p->to, err)) < 0)
		return rc;
	if (!strcmp(kind, "absolute")) {
		p->absolute = 1;
		if ((rc = weft_csv_num(c, r, ix[4], 0, &p->obs, err)) < 0)
			return rc;
		snprintf(row->label, sizeof(row->label), "%g SMs x %g SPs: total area (mm^2)",
			 p->num_sm, p->from);
	} else if (!strcmp(kind, "doubling")) {
		double inc;
		if ((rc = weft_csv_num(c, r, ix[5], 0, &inc, err)) < 0)
			return rc;
		p->obs = 2.0 / (1.0 + inc / 100.0);
		snprintf(row->label, sizeof(row->label), "A(%g SP)/A(%g SP) = 2/(1+%g%%)", p->to,
			 p->from, inc);
	} else {
		return weft_error_at(err, WEFT_ERR_INPUT, c->path, c->lines[r], 0,
				     "kind `%s` is neither absolute nor doubling", kind);
	}
	p->use = 1;
	return 0;
}

/* The first max points of the calibration table at path. */
static int load_points(const char *path, struct sm_point *pts, uint32_t max, uint32_t *n,
		       char labels[][96], struct weft_error *err)
{
	static const char *const cols[] = { "kind", "num_sm", "sp_per_sm_from", "sp_per_sm_to",
					    "area_mm2", "increase_processors_per_area_pct", "source" };
	static const struct weft_csv_rows spec = { NULL, cols, 7, sizeof(struct sm_row), make_point };
	void *v;
	uint32_t nrows;
	int rc = weft_csv_load_rows(path, &spec, &v, &nrows, err);
	const struct sm_row *rows = v;
	*n = 0;
	for (uint32_t i = 0; rc == 0 && i < nrows && i < max; i++) {
		pts[i] = rows[i].p;
		memcpy(labels[i], rows[i].label, sizeof(rows[i].label));
		(*n)++;
	}
	free(v);
	return rc;
}

int weft_area_fit_tesla_sm(const char *csv_path, struct weft_fit_report *out,
			   struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->data, sizeof(out->data), "%s", csv_path);
	snprintf(out->model, sizeof(out->model),
		 "per-SM area A(SP) = a + b*SP + c*SP^2 (mm^2, 65 nm); relative residuals; "
		 "GSL trust-region (LM) nonlinear least squares");
	struct sm_point pts[WEFT_FIT_MAX_POINTS];
	char labels[WEFT_FIT_MAX_POINTS][96];
	uint32_t n = 0;
	int rc = load_points(csv_path, pts, WEFT_FIT_MAX_POINTS, &n, labels, err);
	if (rc < 0)
		return rc;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	struct sm_data d = { pts, n };
	double x[3];
	rc = fit(&d, x, err);
	if (rc < 0)
		goto out;
	out->ncoef = 3;
	static const char *const names[3] = { "tesla_sm_fixed (a)", "tesla_sp (b)",
					      "tesla_sp_quadratic (c)" };
	static const char *const units[3] = { "mm^2/SM", "mm^2/SP", "mm^2/SP^2" };
	for (int j = 0; j < 3; j++) {
		out->coef[j] = x[j];
		snprintf(out->coef_name[j], sizeof(out->coef_name[j]), "%s", names[j]);
		snprintf(out->coef_unit[j], sizeof(out->coef_unit[j]), "%s", units[j]);
	}
	out->npts = n;
	double ss_res = 0, ss_tot = 0, mean = 0, mape = 0, loo_mape = 0;
	uint32_t nratio = 0, nloo = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!pts[i].absolute) {
			mean += pts[i].obs;
			nratio++;
		}
	mean = nratio ? mean / nratio : 0;
	for (uint32_t i = 0; i < n; i++) {
		struct weft_fit_point *fp = &out->pts[i];
		memcpy(fp->label, labels[i], sizeof(fp->label));
		fp->label[sizeof(fp->label) - 1] = 0;
		fp->observed = pts[i].obs;
		fp->fitted = predict(&pts[i], x);
		fp->rel_err = (fp->fitted - fp->observed) / fp->observed;
		mape += fabs(fp->rel_err);
		if (!pts[i].absolute) {
			ss_res += (fp->fitted - fp->observed) * (fp->fitted - fp->observed);
			ss_tot += (fp->observed - mean) * (fp->observed - mean);
		}
		/* leave-one-out */
		int has_abs = 0;
		for (uint32_t k = 0; k < n; k++)
			if (k != i && pts[k].absolute)
				has_abs = 1;
		if (!has_abs) {
			fp->loo_ok = 0;
			snprintf(fp->loo_note, sizeof(fp->loo_note),
				 "not identifiable: the ratios fix A(SP)'s shape, not its scale");
			continue;
		}
		pts[i].use = 0;
		double xl[3];
		struct weft_error e2;
		if (fit(&d, xl, &e2) == 0) {
			fp->loo_ok = 1;
			fp->loo_pred = predict(&pts[i], xl);
			fp->loo_rel_err = (fp->loo_pred - fp->observed) / fp->observed;
			loo_mape += fabs(fp->loo_rel_err);
			nloo++;
		} else {
			snprintf(fp->loo_note, sizeof(fp->loo_note), "fit without it failed");
		}
		pts[i].use = 1;
	}
	out->mape_pct = n ? 100 * mape / n : 0;
	out->loo_mape_pct = nloo ? 100 * loo_mape / nloo : 0;
	out->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 0;
	snprintf(out->note, sizeof(out->note),
		 "R^2 over the %u doubling ratios (the absolute row sets the scale); MAPE over all "
		 "%u points; leave-one-out MAPE over the %u identifiable points. Each SP count "
		 "enters only through the ratios, so 4 points fit 3 coefficients: small residuals "
		 "say little about prediction, the leave-one-out errors say more.",
		 nratio, n, nloo);
out:
	gsl_set_error_handler(old);
	return rc;
}
