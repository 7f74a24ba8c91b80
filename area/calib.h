/*
 * calib.h - inside the calibration fits (area.h, weft_area_fit_run): the
 * model description and data turned into a least-squares problem
 * (calib_model.c), which calib_fit.c solves and reports on.
 */
#ifndef WEFT_CALIB_H
#define WEFT_CALIB_H

#include "area.h"

struct weft_calib_problem {
	uint32_t n, p;  /* points; terms (fitted and fixed) */
	double *x;      /* [n * p] feature of term j at point i: x[i * p + j] */
	double *y;      /* [n] observed response */
};

/* Reads the model description at model_path into r (name, response,
 * weights, terms; coefficients of fixed terms) and the data at data_path
 * into pr (x, y) and r->pts (label, line, observed). Free pr with
 * weft_calib_problem_free and r with weft_area_fit_free, also after an
 * error. */
int weft_calib_load(const char *data_path, const char *model_path, struct weft_calib_report *r,
		    struct weft_calib_problem *pr, struct weft_error *err);
void weft_calib_problem_free(struct weft_calib_problem *pr);

#endif
