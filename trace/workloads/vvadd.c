/*
 * vvadd.c - host driver for vvadd.cu: c[i] = a[i] + b[i] over n floats.
 * The default size stays at the published 1000 elements so results compare
 * with the literature; large is sized for about 1e9 thread instructions
 * (21 per thread) within 2 GiB of host plus device memory.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(vvadd);

struct vvadd_state {
	int n;
	float *a, *b, *c_dev, *c_ref;
};

static int vvadd_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct vvadd_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 1000, 1000, 50000000);
	if (!(s->a = weft_wl_alloc(s->n, sizeof(float), err)) ||
	    !(s->b = weft_wl_alloc(s->n, sizeof(float), err)) ||
	    !(s->c_dev = weft_wl_alloc(s->n, sizeof(float), err)) ||
	    !(s->c_ref = weft_wl_alloc(s->n, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x76766164u); /* "vvad" */
	for (int i = 0; i < s->n; i++) {
		s->a[i] = weft_rng_float(&rng, -1.0f, 1.0f);
		s->b[i] = weft_rng_float(&rng, -1.0f, 1.0f);
	}
	return 0;
}

static int vvadd_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			    struct weft_error *err)
{
	struct vvadd_state *s = state;
	size_t bytes = (size_t)s->n * sizeof(float);
	uint64_t da, db, dc;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->a, bytes, &da, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->b, bytes, &db, err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &dc, err));
	struct weft_arg args[] = { WEFT_ARG(da), WEFT_ARG(db), WEFT_ARG(dc), WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "vvadd", weft_dim3((s->n + 255) / 256, 1, 1),
				weft_dim3(256, 1, 1), 0, args, 4, err));
	return weft_memcpy_dtoh(ctx, s->c_dev, dc, bytes, err);
}

static void vvadd_run_reference(void *state)
{
	struct vvadd_state *s = state;
	for (int i = 0; i < s->n; i++)
		s->c_ref[i] = s->a[i] + s->b[i];
}

static int vvadd_verify(void *state, struct weft_error *err)
{
	struct vvadd_state *s = state;
	return weft_wl_check_f32("c", s->c_dev, s->c_ref, s->n, 0.0, 0.0, err);
}

static void vvadd_teardown(void *state)
{
	struct vvadd_state *s = state;
	free(s->a);
	free(s->b);
	free(s->c_dev);
	free(s->c_ref);
}

const struct weft_workload weft_workload_vvadd = {
	.name = "vvadd",
	.description = "vector add c[i] = a[i] + b[i] (float; default 1000 elements)",
	.ptx_name = "vvadd.ptx",
	.ptx_text = weft_ptx_vvadd,
	.tolerance = "exact (one IEEE add per element)",
	.state_size = sizeof(struct vvadd_state),
	.setup = vvadd_setup,
	.run_device = vvadd_run_device,
	.run_reference = vvadd_run_reference,
	.verify = vvadd_verify,
	.teardown = vvadd_teardown,
};
