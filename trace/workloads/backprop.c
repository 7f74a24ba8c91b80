/*
 * backprop.c - host driver for backprop.cu: one weight-adjust step between
 * an input layer of `in` units (plus bias) and 16 hidden units, the hidden
 * layer width Rodinia backprop uses. 16x16 thread blocks as in Rodinia;
 * one thread per weight.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(backprop);

#define ETA 0.3f
#define MOMENTUM 0.3f
#define HID 16

struct backprop_state {
	int in, hid;
	float *delta; /* hid + 1, [0] unused */
	float *ly;    /* in + 1, [0] is the bias input */
	float *w0, *oldw0;
	float *w_dev, *oldw_dev, *w_ref, *oldw_ref;
};

/* nvcc fuses the momentum term into an fma, so dw differs from the
 * reference by at most one rounding of |ETA*delta*ly| <= 0.3 (2^-25 ~ 3e-8
 * absolute); w = w + dw can then round to a neighbouring float of |w| <= 2,
 * 2.4e-7 apart. abs 1e-6 / rel 1e-6 covers both. */
#define BP_REL 1e-6
#define BP_ABS 1e-6

static int backprop_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct backprop_state *s = state;
	struct weft_rng rng;

	s->in = WEFT_WL_BY_SIZE(size, 144, 14336, 1450000);
	s->hid = HID;
	size_t nw = (size_t)(s->in + 1) * (s->hid + 1);
	if (!(s->delta = weft_wl_alloc(s->hid + 1, sizeof(float), err)) ||
	    !(s->ly = weft_wl_alloc((size_t)s->in + 1, sizeof(float), err)) ||
	    !(s->w0 = weft_wl_alloc(nw, sizeof(float), err)) ||
	    !(s->oldw0 = weft_wl_alloc(nw, sizeof(float), err)) ||
	    !(s->w_dev = weft_wl_alloc(nw, sizeof(float), err)) ||
	    !(s->oldw_dev = weft_wl_alloc(nw, sizeof(float), err)) ||
	    !(s->w_ref = weft_wl_alloc(nw, sizeof(float), err)) ||
	    !(s->oldw_ref = weft_wl_alloc(nw, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x62707270u); /* "bprp" */
	for (int j = 1; j <= s->hid; j++)
		s->delta[j] = weft_rng_float(&rng, -1.0f, 1.0f);
	s->ly[0] = 1.0f; /* bias unit */
	for (int k = 1; k <= s->in; k++)
		s->ly[k] = weft_rng_float(&rng, 0.0f, 1.0f);
	for (size_t i = 0; i < nw; i++) {
		if (i % (size_t)(s->hid + 1) == 0)
			continue; /* column 0 is unused */
		s->w0[i] = weft_rng_float(&rng, -1.0f, 1.0f);
		s->oldw0[i] = weft_rng_float(&rng, -0.1f, 0.1f);
	}
	return 0;
}

static int backprop_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			       struct weft_error *err)
{
	struct backprop_state *s = state;
	size_t wbytes = (size_t)(s->in + 1) * (s->hid + 1) * sizeof(float);
	uint64_t ddelta, dly, dw, doldw;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->delta, (size_t)(s->hid + 1) * sizeof(float), &ddelta,
				   err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->ly, (size_t)(s->in + 1) * sizeof(float), &dly, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->w0, wbytes, &dw, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->oldw0, wbytes, &doldw, err));
	struct weft_arg args[] = { WEFT_ARG(ddelta), WEFT_ARG(s->hid), WEFT_ARG(dly),
				   WEFT_ARG(s->in), WEFT_ARG(dw), WEFT_ARG(doldw) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "bpnn_adjust_weights",
				weft_dim3((s->in + 1 + 15) / 16, (s->hid + 15) / 16, 1),
				weft_dim3(16, 16, 1), 0, args, 6, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->w_dev, dw, wbytes, err));
	return weft_memcpy_dtoh(ctx, s->oldw_dev, doldw, wbytes, err);
}

static void backprop_run_reference(void *state)
{
	struct backprop_state *s = state;
	int ld = s->hid + 1;
	size_t nw = (size_t)(s->in + 1) * ld;

	for (size_t i = 0; i < nw; i++) {
		s->w_ref[i] = s->w0[i];
		s->oldw_ref[i] = s->oldw0[i];
	}
	for (int k = 0; k <= s->in; k++) {
		float *w = s->w_ref + (size_t)k * ld, *oldw = s->oldw_ref + (size_t)k * ld;
		for (int j = 1; j <= s->hid; j++) {
			float dw = ETA * s->delta[j] * s->ly[k] + MOMENTUM * oldw[j];
			w[j] += dw;
			oldw[j] = dw;
		}
	}
}

static int backprop_verify(void *state, struct weft_error *err)
{
	struct backprop_state *s = state;
	size_t nw = (size_t)(s->in + 1) * (s->hid + 1);
	WEFT_WL_TRY(weft_wl_check_f32("w", s->w_dev, s->w_ref, nw, BP_REL, BP_ABS, err));
	return weft_wl_check_f32("oldw", s->oldw_dev, s->oldw_ref, nw, BP_REL, BP_ABS, err);
}

static void backprop_teardown(void *state)
{
	struct backprop_state *s = state;
	free(s->delta);
	free(s->ly);
	free(s->w0);
	free(s->oldw0);
	free(s->w_dev);
	free(s->oldw_dev);
	free(s->w_ref);
	free(s->oldw_ref);
}

const struct weft_workload weft_workload_backprop = {
	.name = "backprop",
	.description = "back-propagation weight adjust with momentum, one thread per weight (Rodinia)",
	.ptx_name = "backprop.ptx",
	.ptx_text = weft_ptx_backprop,
	.tolerance = "rel 1e-6 / abs 1e-6",
	.state_size = sizeof(struct backprop_state),
	.setup = backprop_setup,
	.run_device = backprop_run_device,
	.run_reference = backprop_run_reference,
	.verify = backprop_verify,
	.teardown = backprop_teardown,
};
