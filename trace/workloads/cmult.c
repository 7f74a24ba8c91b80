/*
 * cmult.c - host driver for cmult.cu: element-wise product of two arrays of
 * complex {re, im} structs. The default stays at the published 1000
 * elements; large is sized for about 9e8 thread instructions (29 per
 * thread) within 2 GiB of host plus device memory.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdio.h>
#include <stdlib.h>

WEFT_WORKLOAD_PTX(cmult);

struct cplx {
	float re, im;
};

struct cmult_state {
	int n;
	struct cplx *a, *b, *c_dev, *c_ref;
};

/* Inputs lie in [-1, 1), so every product has magnitude <= 1. nvcc fuses
 * one product and the add/sub into an fma, which changes a component by at
 * most one rounding of a product of magnitude <= 1, i.e. 2^-24 ~ 6e-8. */
#define CMULT_REL 1e-6
#define CMULT_ABS 1e-6

static int cmult_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct cmult_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 1000, 1000, 30000000);
	if (!(s->a = weft_wl_alloc(s->n, sizeof(struct cplx), err)) ||
	    !(s->b = weft_wl_alloc(s->n, sizeof(struct cplx), err)) ||
	    !(s->c_dev = weft_wl_alloc(s->n, sizeof(struct cplx), err)) ||
	    !(s->c_ref = weft_wl_alloc(s->n, sizeof(struct cplx), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x636d756cu); /* "cmul" */
	for (int i = 0; i < s->n; i++) {
		s->a[i].re = weft_rng_float(&rng, -1.0f, 1.0f);
		s->a[i].im = weft_rng_float(&rng, -1.0f, 1.0f);
		s->b[i].re = weft_rng_float(&rng, -1.0f, 1.0f);
		s->b[i].im = weft_rng_float(&rng, -1.0f, 1.0f);
	}
	return 0;
}

static int cmult_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			    struct weft_error *err)
{
	struct cmult_state *s = state;
	size_t bytes = (size_t)s->n * sizeof(struct cplx);
	uint64_t da, db, dc;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->a, bytes, &da, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->b, bytes, &db, err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &dc, err));
	struct weft_arg args[] = { WEFT_ARG(da), WEFT_ARG(db), WEFT_ARG(dc), WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "cmult", weft_dim3((s->n + 255) / 256, 1, 1),
				weft_dim3(256, 1, 1), 0, args, 4, err));
	return weft_memcpy_dtoh(ctx, s->c_dev, dc, bytes, err);
}

static void cmult_run_reference(void *state)
{
	struct cmult_state *s = state;
	for (int i = 0; i < s->n; i++) {
		struct cplx x = s->a[i], y = s->b[i];
		s->c_ref[i].re = x.re * y.re - x.im * y.im;
		s->c_ref[i].im = x.re * y.im + x.im * y.re;
	}
}

static int cmult_verify(void *state, struct weft_error *err)
{
	struct cmult_state *s = state;
	for (int i = 0; i < s->n; i++) {
		char what[64];
		if (!weft_wl_close(s->c_dev[i].re, s->c_ref[i].re, CMULT_REL, CMULT_ABS)) {
			snprintf(what, sizeof(what), "c[%d].re", i);
			return weft_wl_report_float(what, s->c_dev[i].re, s->c_ref[i].re, CMULT_REL,
						    CMULT_ABS, err);
		}
		if (!weft_wl_close(s->c_dev[i].im, s->c_ref[i].im, CMULT_REL, CMULT_ABS)) {
			snprintf(what, sizeof(what), "c[%d].im", i);
			return weft_wl_report_float(what, s->c_dev[i].im, s->c_ref[i].im, CMULT_REL,
						    CMULT_ABS, err);
		}
	}
	return 0;
}

static void cmult_teardown(void *state)
{
	struct cmult_state *s = state;
	free(s->a);
	free(s->b);
	free(s->c_dev);
	free(s->c_ref);
}

const struct weft_workload weft_workload_cmult = {
	.name = "cmult",
	.description = "complex multiply over arrays of {re, im} structs (default 1000 elements)",
	.ptx_name = "cmult.ptx",
	.ptx_text = weft_ptx_cmult,
	.tolerance = "rel 1e-6 / abs 1e-6",
	.state_size = sizeof(struct cmult_state),
	.setup = cmult_setup,
	.run_device = cmult_run_device,
	.run_reference = cmult_run_reference,
	.verify = cmult_verify,
	.teardown = cmult_teardown,
};
