/*
 * cfd.c - host driver for cfd.cu: the per-cell time-step factor of an Euler
 * flow solver (Rodinia cfd compute_step_factor). Cells hold density in
 * [0.5, 2), velocity components in [-1, 1) (stored as momentum = density x
 * velocity), pressure in [0.5, 2) (stored as total energy) and a cell area
 * in [0.1, 1): physically valid states, so every square root is real.
 */
#include "workload.h"
#include "wl_util.h"

#include <math.h>
#include <stdlib.h>

WEFT_WORKLOAD_PTX(cfd);

#define GAMMA 1.4f

struct cfd_state {
	int n;
	float *vars;  /* 5 planes of n: density, momentum x/y/z, energy */
	float *areas;
	float *step_dev, *step_ref;
};

/* nvcc fuses the |v|^2 sum into two fmas (one rounding each differs from
 * the reference); the pressure e - rho|v|^2/2 then amplifies that by at
 * most e/(e - rho|v|^2/2) = 1 + rho|v|^2/(2.5 p) <= 1 + 2*3/(2*2.5*0.5)
 * ~ 3.4 for these inputs, and the square roots halve it: a few 1e-7
 * relative. 1e-5 leaves an order of magnitude of margin. */
#define CFD_REL 1e-5

static int cfd_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct cfd_state *s = state;
	struct weft_rng rng;

	s->n = WEFT_WL_BY_SIZE(size, 2000, 200000, 20000000);
	size_t n = (size_t)s->n;
	if (!(s->vars = weft_wl_alloc(5 * n, sizeof(float), err)) ||
	    !(s->areas = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->step_dev = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->step_ref = weft_wl_alloc(n, sizeof(float), err)))
		return WEFT_ERR_NOMEM;
	weft_rng_seed(&rng, 0x63666421u); /* "cfd!" */
	for (size_t i = 0; i < n; i++) {
		float rho = weft_rng_float(&rng, 0.5f, 2.0f);
		float vx = weft_rng_float(&rng, -1.0f, 1.0f);
		float vy = weft_rng_float(&rng, -1.0f, 1.0f);
		float vz = weft_rng_float(&rng, -1.0f, 1.0f);
		float p = weft_rng_float(&rng, 0.5f, 2.0f);
		s->vars[i] = rho;
		s->vars[i + n] = rho * vx;
		s->vars[i + 2 * n] = rho * vy;
		s->vars[i + 3 * n] = rho * vz;
		s->vars[i + 4 * n] = p / (GAMMA - 1.0f) + 0.5f * rho * (vx * vx + vy * vy + vz * vz);
		s->areas[i] = weft_rng_float(&rng, 0.1f, 1.0f);
	}
	return 0;
}

static int cfd_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct cfd_state *s = state;
	size_t n = (size_t)s->n;
	uint64_t dvars, dareas, dstep;

	WEFT_WL_TRY(weft_wl_upload(ctx, s->vars, 5 * n * sizeof(float), &dvars, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->areas, n * sizeof(float), &dareas, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * sizeof(float), &dstep, err));
	struct weft_arg args[] = { WEFT_ARG(dvars), WEFT_ARG(dareas), WEFT_ARG(dstep),
				   WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "cfd_step_factor", weft_dim3((s->n + 127) / 128, 1, 1),
				weft_dim3(128, 1, 1), 0, args, 4, err));
	return weft_memcpy_dtoh(ctx, s->step_dev, dstep, n * sizeof(float), err);
}

static void cfd_run_reference(void *state)
{
	struct cfd_state *s = state;
	size_t n = (size_t)s->n;
	for (size_t i = 0; i < n; i++) {
		float density = s->vars[i];
		float vx = s->vars[i + n] / density;
		float vy = s->vars[i + 2 * n] / density;
		float vz = s->vars[i + 3 * n] / density;
		float energy = s->vars[i + 4 * n];
		float speed_sqd = vx * vx + vy * vy + vz * vz;
		float pressure = (GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
		float speed_of_sound = sqrtf(GAMMA * pressure / density);
		s->step_ref[i] = 0.5f / (sqrtf(s->areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
	}
}

static int cfd_verify(void *state, struct weft_error *err)
{
	struct cfd_state *s = state;
	return weft_wl_check_f32("step_factor", s->step_dev, s->step_ref, s->n, CFD_REL, 0.0, err);
}

static void cfd_teardown(void *state)
{
	struct cfd_state *s = state;
	free(s->vars);
	free(s->areas);
	free(s->step_dev);
	free(s->step_ref);
}

const struct weft_workload weft_workload_cfd = {
	.name = "cfd",
	.description = "CFD time-step factor per cell: sqrt and divide, memory bound (Rodinia cfd)",
	.ptx_name = "cfd.ptx",
	.ptx_text = weft_ptx_cfd,
	.tolerance = "rel 1e-5",
	.state_size = sizeof(struct cfd_state),
	.setup = cfd_setup,
	.run_device = cfd_run_device,
	.run_reference = cfd_run_reference,
	.verify = cfd_verify,
	.teardown = cfd_teardown,
};
