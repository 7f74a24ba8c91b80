/*
 * nn.c - host driver for nn.cu: the distance of n (lat, lng) records to a
 * target point, as in Rodinia nn (whose default target is lat 30, lng 90).
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <math.h>
#include <stdlib.h>

WEFT_WORKLOAD_PTX(nn);

struct latlng {
	float lat, lng;
};

struct nn_state {
	int n;
	float tlat, tlng;
	struct latlng *rec;
	float *dist_dev, *dist_ref;
};

/* nvcc fuses dy*dy + dx*dx into one fma: the sum of two nonnegative terms
 * changes by at most one rounding (2^-24 relative) and sqrt halves that, so
 * 1e-6 relative is a safe bound with margin for the final rounding. */
#define NN_REL 1e-6

static int nn_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct nn_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 5000, 400000, 40000000);
	s->tlat = 30.0f;
	s->tlng = 90.0f;
	if (!(s->rec = weft_wl_alloc(s->n, sizeof(struct latlng), err)) ||
	    !(s->dist_dev = weft_wl_alloc(s->n, sizeof(float), err)) ||
	    !(s->dist_ref = weft_wl_alloc(s->n, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x6e6e6e6eu); /* "nnnn" */
	for (int i = 0; i < s->n; i++) {
		s->rec[i].lat = weft_rng_float(&rng, -90.0f, 90.0f);
		s->rec[i].lng = weft_rng_float(&rng, -180.0f, 180.0f);
	}
	return 0;
}

static int nn_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			 struct weft_error *err)
{
	struct nn_state *s = state;
	uint64_t drec, ddist;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->rec, (size_t)s->n * sizeof(struct latlng), &drec, err));
	WEFT_WL_TRY(weft_malloc(ctx, (size_t)s->n * sizeof(float), &ddist, err));
	struct weft_arg args[] = { WEFT_ARG(drec), WEFT_ARG(ddist), WEFT_ARG(s->n),
				   WEFT_ARG(s->tlat), WEFT_ARG(s->tlng) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "nn", weft_dim3((s->n + 255) / 256, 1, 1),
				weft_dim3(256, 1, 1), 0, args, 5, err));
	return weft_memcpy_dtoh(ctx, s->dist_dev, ddist, (size_t)s->n * sizeof(float), err);
}

static void nn_run_reference(void *state)
{
	struct nn_state *s = state;
	for (int i = 0; i < s->n; i++) {
		float dx = s->rec[i].lat - s->tlat, dy = s->rec[i].lng - s->tlng;
		s->dist_ref[i] = sqrtf(dx * dx + dy * dy);
	}
}

static int nn_verify(void *state, struct weft_error *err)
{
	struct nn_state *s = state;
	return weft_wl_check_f32("dist", s->dist_dev, s->dist_ref, s->n, NN_REL, 0.0, err);
}

static void nn_teardown(void *state)
{
	struct nn_state *s = state;
	free(s->rec);
	free(s->dist_dev);
	free(s->dist_ref);
}

const struct weft_workload weft_workload_nn = {
	.name = "nn",
	.description = "distance of every (lat, lng) record to a target point (Rodinia nn)",
	.ptx_name = "nn.ptx",
	.ptx_text = weft_ptx_nn,
	.tolerance = "rel 1e-6",
	.state_size = sizeof(struct nn_state),
	.setup = nn_setup,
	.run_device = nn_run_device,
	.run_reference = nn_run_reference,
	.verify = nn_verify,
	.teardown = nn_teardown,
};
