/*
 * calib_fit.c - the calibration fit (area.h, weft_area_fit_run): weighted
 * linear least squares of the fitted terms with GSL, after the fixed terms'
 * part is taken off the response; each point's leave-one-out prediction;
 * the goodness of fit; and the fitted model's value for a new design
 * (weft_area_fit_predict, and each term's feature: weft_area_fit_features).
 *
 * Before every solve, the weighted design matrix of the points in use is
 * checked for what GSL's SVD solver would otherwise paper over (it drops
 * small singular values and returns one of infinitely many solutions):
 * fewer points than coefficients, a feature that is 0 at every point, and
 * features that are linear combinations of each other (the smallest
 * singular value of the column-normalised matrix below WEFT_CALIB_RANK_TOL
 * times the largest; the terms named are those of the null vector). In the
 * full fit that is an error; in a leave-one-out fit it makes the point not
 * identifiable, and the report says why.
 *
 * Standard errors: sqrt(diag((X'WX)^-1) x chi^2 / dof), chi^2 the weighted
 * residual sum of squares, dof = points - fitted terms (none when dof = 0).
 *
 * Leave-one-out without n refits: for linear least squares the fit without
 * point i predicts it as y_i - e_i / (1 - h_ii), e_i the full fit's residual
 * and h_ii the leverage, the diagonal of the weighted hat matrix (the sum of
 * squares of row i of U in the SVD of sqrt(W) X); exact, and n times
 * cheaper than refitting (4096 points x 16 terms: a fraction of a second
 * against half a minute). A point with 1 - h_ii below WEFT_CALIB_LEV_TOL
 * is the only one that sets some direction of the fit: it goes through the
 * identifiability check above for the reason, and through a real refit in
 * the borderline case that the check accepts it.
 */
#include "calib.h"
#include "fitexpr.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEFT_CALIB_RANK_TOL 1e-9
#define WEFT_CALIB_LEV_TOL 1e-9

struct solver {
	const struct weft_calib_problem *pr;
	const struct weft_calib_report *r;
	uint32_t q;        /* fitted terms */
	uint32_t fit[WEFT_CALIB_MAX_TERMS]; /* their term indices */
	double *yf;        /* [n] response less the fixed terms */
	double *w;         /* [n] weights */
};

static double xf(const struct solver *s, uint32_t i, uint32_t k)
{
	return s->pr->x[(size_t)i * s->pr->p + s->fit[k]];
}

/* 0 when the points with use[i] determine the fitted coefficients; 1 and
 * why otherwise; a negative weft_err when out of memory. */
static int identifiable(const struct solver *s, const unsigned char *use, char *why, size_t len,
			double *lev, struct weft_error *err)
{
	uint32_t m = 0, q = s->q;
	for (uint32_t i = 0; i < s->pr->n; i++)
		m += use[i];
	if (m < q) {
		snprintf(why, len, "%u points cannot fix %u coefficients", m, q);
		return 1;
	}
	gsl_matrix *a = gsl_matrix_alloc(m, q);
	gsl_matrix *v = gsl_matrix_alloc(q, q);
	gsl_vector *sv = gsl_vector_alloc(q), *work = gsl_vector_alloc(q);
	int rc = 0;
	if (!a || !v || !sv || !work) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the fit");
		goto out;
	}
	for (uint32_t i = 0, r = 0; i < s->pr->n; i++) {
		if (!use[i])
			continue;
		double sw = sqrt(s->w[i]);
		for (uint32_t k = 0; k < q; k++)
			gsl_matrix_set(a, r, k, sw * xf(s, i, k));
		r++;
	}
	for (uint32_t k = 0; k < q; k++) {
		gsl_vector_view col = gsl_matrix_column(a, k);
		double norm = gsl_blas_dnrm2(&col.vector);
		if (norm == 0) {
			snprintf(why, len, "term %s's feature is 0 at every point",
				 s->r->terms[s->fit[k]].name);
			rc = 1;
			goto out;
		}
		gsl_vector_scale(&col.vector, 1 / norm);
	}
	if (gsl_linalg_SV_decomp(a, v, sv, work) != GSL_SUCCESS) {
		rc = weft_error_set(err, WEFT_ERR_INTERNAL, "the SVD of the design matrix failed");
		goto out;
	}
	if (gsl_vector_get(sv, q - 1) > WEFT_CALIB_RANK_TOL * gsl_vector_get(sv, 0)) {
		/* full rank: a now holds U; the leverages of the points in use */
		for (uint32_t i = 0, r = 0; lev && i < s->pr->n; i++) {
			if (!use[i])
				continue;
			gsl_vector_view row = gsl_matrix_row(a, r++);
			double nrm = gsl_blas_dnrm2(&row.vector);
			lev[i] = nrm * nrm;
		}
		goto out;
	}
	/* the null direction: the terms with a part in it */
	double big = 0;
	for (uint32_t k = 0; k < q; k++)
		big = fmax(big, fabs(gsl_matrix_get(v, k, q - 1)));
	size_t off = (size_t)snprintf(why, len, "the features of terms ");
	uint32_t named = 0;
	for (uint32_t k = 0; k < q && off < len; k++) {
		if (fabs(gsl_matrix_get(v, k, q - 1)) < 1e-3 * big)
			continue;
		off += (size_t)snprintf(why + off, len - off, "%s%s", named ? ", " : "",
					s->r->terms[s->fit[k]].name);
		named++;
	}
	if (off < len)
		snprintf(why + off, len - off, " are linearly dependent over these %u points", m);
	rc = 1;
out:
	gsl_vector_free(work);
	gsl_vector_free(sv);
	gsl_matrix_free(v);
	gsl_matrix_free(a);
	return rc;
}

/* Solves the fit over the points with use[i]; c[0..q-1] the coefficients,
 * cov the unscaled covariance (X'WX)^-1 when non-NULL, chisq the weighted
 * residual sum of squares. */
static int solve(const struct solver *s, const unsigned char *use, double *c, double *cov,
		 double *chisq, struct weft_error *err)
{
	uint32_t m = 0, q = s->q;
	for (uint32_t i = 0; i < s->pr->n; i++)
		m += use[i];
	gsl_matrix *x = gsl_matrix_alloc(m, q), *cv = gsl_matrix_alloc(q, q);
	gsl_vector *w = gsl_vector_alloc(m), *y = gsl_vector_alloc(m), *cc = gsl_vector_alloc(q);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(m, q);
	int rc = 0;
	if (!x || !cv || !w || !y || !cc || !ws) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the fit");
		goto out;
	}
	for (uint32_t i = 0, r = 0; i < s->pr->n; i++) {
		if (!use[i])
			continue;
		for (uint32_t k = 0; k < q; k++)
			gsl_matrix_set(x, r, k, xf(s, i, k));
		gsl_vector_set(w, r, s->w[i]);
		gsl_vector_set(y, r, s->yf[i]);
		r++;
	}
	double chi = 0;
	int st = gsl_multifit_wlinear(x, w, y, cc, cv, &chi, ws);
	if (st != GSL_SUCCESS) {
		rc = weft_error_set(err, WEFT_ERR_INTERNAL, "least squares failed: %s", gsl_strerror(st));
		goto out;
	}
	for (uint32_t k = 0; k < q; k++) {
		c[k] = gsl_vector_get(cc, k);
		if (cov)
			cov[k] = gsl_matrix_get(cv, k, k);
	}
	if (chisq)
		*chisq = chi;
out:
	gsl_multifit_linear_free(ws);
	gsl_vector_free(cc);
	gsl_vector_free(y);
	gsl_vector_free(w);
	gsl_matrix_free(cv);
	gsl_matrix_free(x);
	return rc;
}

/* The fitted terms' part of point i's prediction with coefficients c. */
static double predict(const struct solver *s, uint32_t i, const double *c)
{
	double v = 0;
	for (uint32_t k = 0; k < s->q; k++)
		v += c[k] * xf(s, i, k);
	return v;
}

static int fit(struct weft_calib_report *r, const struct weft_calib_problem *pr,
	       struct weft_error *err)
{
	struct solver s = { pr, r, 0, { 0 }, NULL, NULL };
	uint32_t n = pr->n, p = pr->p;
	for (uint32_t j = 0; j < p; j++)
		if (!r->terms[j].fixed)
			s.fit[s.q++] = j;
	s.yf = malloc(n * sizeof(double));
	s.w = malloc(n * sizeof(double));
	unsigned char *use = malloc(n);
	double *lev = malloc(n * sizeof(double));
	int rc = 0;
	if (!s.yf || !s.w || !use || !lev) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the fit");
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		double fixed = 0;
		for (uint32_t j = 0; j < p; j++)
			if (r->terms[j].fixed)
				fixed += r->terms[j].coef * pr->x[(size_t)i * p + j];
		s.yf[i] = pr->y[i] - fixed;
		s.w[i] = r->relative ? 1 / (pr->y[i] * pr->y[i]) : 1;
		use[i] = 1;
		/* magnitudes the arithmetic below cannot hold are refused here */
		int ok = isfinite(s.yf[i]) && isfinite(s.w[i]) && isfinite(s.yf[i] * sqrt(s.w[i]));
		for (uint32_t k = 0; ok && k < s.q; k++)
			ok = isfinite(xf(&s, i, k) * sqrt(s.w[i])) && fabs(xf(&s, i, k)) < 1e150;
		if (!ok || fabs(pr->y[i]) > 1e150 || fabs(pr->y[i]) < 1e-150) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->data, r->pts[i].line, 0,
					   "a response or feature of magnitude beyond 1e+-150 (or a "
					   "fixed term's part that overflows): rescale the column");
			goto out;
		}
	}
	char why[200];
	rc = identifiable(&s, use, why, sizeof(why), lev, err);
	if (rc < 0)
		goto out;
	if (rc > 0) {
		rc = weft_error_at(err, WEFT_ERR_INPUT, r->model, 0, 0,
				   "the data cannot determine this model: %s (in %s); drop or merge "
				   "terms, or fix one from a table (`fixed = VALUE` with its `source`)",
				   why, r->data);
		goto out;
	}
	double c[WEFT_CALIB_MAX_TERMS], cov[WEFT_CALIB_MAX_TERMS], chisq;
	if ((rc = solve(&s, use, c, cov, &chisq, err)) < 0)
		goto out;
	r->dof = n - s.q;
	for (uint32_t k = 0; k < s.q; k++) {
		struct weft_calib_term *t = &r->terms[s.fit[k]];
		t->coef = c[k];
		t->std_err = r->dof > 0 ? sqrt(cov[k] * chisq / r->dof) : NAN;
		if (!isfinite(c[k])) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->model, t->line, 0,
					   "[term %s]: the fit gives no finite coefficient (features of "
					   "very different magnitudes? rescale them)",
					   t->name);
			goto out;
		}
	}
	double mean = 0, ss_res = 0, ss_tot = 0, ape = 0;
	for (uint32_t i = 0; i < n; i++)
		mean += pr->y[i] / n;
	r->max_ape_pct = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct weft_calib_point *pt = &r->pts[i];
		pt->fitted = pr->y[i] - s.yf[i] + predict(&s, i, c);
		pt->rel_err = (pt->fitted - pt->observed) / pt->observed;
		if (!isfinite(pt->rel_err)) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->data, pt->line, 0,
					   "the fitted value is not a finite number: rescale the columns");
			goto out;
		}
		ss_res += (pt->fitted - pt->observed) * (pt->fitted - pt->observed);
		ss_tot += (pt->observed - mean) * (pt->observed - mean);
		ape += fabs(pt->rel_err);
		r->max_ape_pct = fmax(r->max_ape_pct, 100 * fabs(pt->rel_err));
	}
	r->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
	r->rmse = sqrt(ss_res / n);
	r->mape_pct = 100 * ape / n;

	/* leave-one-out */
	double press = 0, loo_ape = 0, loo_mean = 0, loo_tot = 0;
	r->nloo = 0;
	r->loo_max_pct = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct weft_calib_point *pt = &r->pts[i];
		if (1 - lev[i] >= WEFT_CALIB_LEV_TOL) {
			double e = pt->fitted - pt->observed;
			pt->loo_pred = pt->observed + e / (1 - lev[i]);
			pt->loo_rel_err = (pt->loo_pred - pt->observed) / pt->observed;
			pt->loo_ok = isfinite(pt->loo_rel_err);
			if (pt->loo_ok)
				goto counted;
			snprintf(pt->loo_note, sizeof(pt->loo_note),
				 "the leave-one-out prediction is not a finite number");
			continue;
		}
		use[i] = 0;
		rc = identifiable(&s, use, why, sizeof(why), NULL, err);
		if (rc == 0) {
			double cl[WEFT_CALIB_MAX_TERMS];
			rc = solve(&s, use, cl, NULL, NULL, err);
			if (rc == 0) {
				pt->loo_pred = pr->y[i] - s.yf[i] + predict(&s, i, cl);
				pt->loo_rel_err = (pt->loo_pred - pt->observed) / pt->observed;
				pt->loo_ok = isfinite(pt->loo_rel_err);
				if (!pt->loo_ok)
					snprintf(pt->loo_note, sizeof(pt->loo_note),
						 "the leave-one-out prediction is not a finite number");
			}
		} else if (rc > 0) {
			snprintf(pt->loo_note, sizeof(pt->loo_note), "not identifiable: without it, %s",
				 why);
			rc = 0;
		}
		use[i] = 1;
		if (rc < 0)
			goto out;
		if (!pt->loo_ok)
			continue;
counted:
		r->nloo++;
		press += (pt->loo_pred - pt->observed) * (pt->loo_pred - pt->observed);
		loo_ape += fabs(pt->loo_rel_err);
		loo_mean += pt->observed;
		r->loo_max_pct = fmax(r->loo_max_pct, 100 * fabs(pt->loo_rel_err));
	}
	r->loo_mape_pct = r->nloo ? 100 * loo_ape / r->nloo : NAN;
	if (r->nloo) {
		loo_mean /= r->nloo;
		for (uint32_t i = 0; i < n; i++)
			if (r->pts[i].loo_ok)
				loo_tot += (r->pts[i].observed - loo_mean) * (r->pts[i].observed - loo_mean);
	}
	r->loo_q2 = r->nloo >= 2 && loo_tot > 0 ? 1 - press / loo_tot : NAN;
	if (!r->nloo)
		r->loo_max_pct = NAN;
out:
	free(lev);
	free(use);
	free(s.w);
	free(s.yf);
	return rc;
}

int weft_area_fit_run(const char *data_path, const char *model_path, struct weft_calib_report *out,
		      struct weft_error *err)
{
	struct weft_calib_problem pr;
	int rc = weft_calib_load(data_path, model_path, out, &pr, err);
	if (rc == 0) {
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		rc = fit(out, &pr, err);
		gsl_set_error_handler(old);
	}
	weft_calib_problem_free(&pr);
	return rc;
}

void weft_area_fit_free(struct weft_calib_report *r)
{
	if (!r)
		return;
	free(r->pts);
	r->pts = NULL;
	r->npts = 0;
}

const struct weft_calib_term *weft_area_fit_term(const struct weft_calib_report *r,
						 const char *name)
{
	for (uint32_t j = 0; j < r->nterms; j++)
		if (!strcmp(r->terms[j].name, name))
			return &r->terms[j];
	return NULL;
}

int weft_area_fit_features(const struct weft_calib_report *r, const char *const *header,
			   const char *const *fields, uint32_t ncols, double *feat,
			   struct weft_error *err)
{
	struct weft_fexpr e;
	for (uint32_t j = 0; j < r->nterms; j++) {
		const struct weft_calib_term *t = &r->terms[j];
		int rc = weft_fexpr_compile(t->feature, header, ncols, &e, err);
		if (rc == 0)
			rc = weft_fexpr_eval(&e, fields, header, NULL, 0, &feat[j], err);
		if (rc < 0) {
			weft_error_prefix(err, "%s: [term %s] feature: ", r->model, t->name);
			return rc;
		}
	}
	return 0;
}

int weft_area_fit_predict(const struct weft_calib_report *r, const char *const *header,
			  const char *const *fields, uint32_t ncols, double *out,
			  struct weft_error *err)
{
	double feat[WEFT_CALIB_MAX_TERMS];
	int rc = weft_area_fit_features(r, header, fields, ncols, feat, err);
	if (rc < 0)
		return rc;
	double sum = 0;
	for (uint32_t j = 0; j < r->nterms; j++)
		sum += r->terms[j].coef * feat[j];
	*out = sum;
	return 0;
}
