/*
 * hotspot.c - host driver for hotspot.cu: HOTSPOT_STEPS time steps of the
 * Rodinia hotspot thermal model on a rows x cols grid, HOTSPOT_PYRAMID steps
 * per launch (host loop, ping-pong buffers).
 *
 * Chip constants are Rodinia hotspot's (chip 16 mm x 16 mm x 0.5 mm, silicon
 * specific heat 1.75e6 J/(m^3 K), conductivity 100 W/(m K), capacitance
 * fitting factor 0.5, maximum power density 3e6 W/m^2, precision 0.001 K,
 * ambient 80); the time step and resistances follow from them as in
 * Rodinia. Inputs are test data: temperatures uniform in [320, 340),
 * power uniform in [0, 0.01).
 *
 * Tolerance rel 1e-5 (about 170 ulp of the temperature): each step rounds
 * about ten operations on values of the temperature's magnitude (the kernel
 * fuses some into fma, the reference does not), the update is a convex-like
 * average at these step sizes (it does not amplify errors), and there are 4
 * steps: about 40 ulp of worst-case drift.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(hotspot);

#define HS_BS 16
#define HOTSPOT_STEPS 4
#define HOTSPOT_PYRAMID 2
#define HOTSPOT_REL_TOL 1e-5

/* Rodinia hotspot constants. */
#define HS_MAX_PD 3.0e6
#define HS_PRECISION 0.001
#define HS_SPEC_HEAT_SI 1.75e6
#define HS_K_SI 100.0
#define HS_FACTOR_CHIP 0.5
#define HS_T_CHIP 0.0005
#define HS_CHIP_HEIGHT 0.016
#define HS_CHIP_WIDTH 0.016
#define HS_AMB_TEMP 80.0

/* Same layout as struct hs_coef in hotspot.cu: five floats, 20 bytes. */
struct hs_coef {
	float step_div_cap, rx_1, ry_1, rz_1, amb_temp;
};

struct hotspot_state {
	int rows, cols;
	struct hs_coef k;
	float *temp, *power, *out_dev, *ref_a, *ref_b, *out_ref;
};

static int hotspot_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct hotspot_state *s = state;
	/* Measured: about 80 thread instructions per thread per step, 256
	 * threads per block of 12 x 12 outputs, 4 steps: about 1.6e5 /
	 * 1.2e7 / 1e9. */
	s->rows = WEFT_WL_BY_SIZE(size, 12, 144, 1344);
	s->cols = WEFT_WL_BY_SIZE(size, 24, 144, 1344);
	size_t cells = (size_t)s->rows * (size_t)s->cols;
	s->temp = weft_wl_alloc(cells, sizeof(float), err);
	s->power = weft_wl_alloc(cells, sizeof(float), err);
	s->out_dev = weft_wl_alloc(cells, sizeof(float), err);
	s->ref_a = weft_wl_alloc(cells, sizeof(float), err);
	s->ref_b = weft_wl_alloc(cells, sizeof(float), err);
	if (!s->temp || !s->power || !s->out_dev || !s->ref_a || !s->ref_b)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x686f7473706f74ull); /* "hotspot" */
	for (size_t i = 0; i < cells; i++)
		s->temp[i] = weft_rng_float(&r, 320.0f, 340.0f);
	for (size_t i = 0; i < cells; i++)
		s->power[i] = weft_rng_float(&r, 0.0f, 0.01f);

	double grid_h = HS_CHIP_HEIGHT / s->rows, grid_w = HS_CHIP_WIDTH / s->cols;
	double cap = HS_FACTOR_CHIP * HS_SPEC_HEAT_SI * HS_T_CHIP * grid_w * grid_h;
	double rx = grid_w / (2.0 * HS_K_SI * HS_T_CHIP * grid_h);
	double ry = grid_h / (2.0 * HS_K_SI * HS_T_CHIP * grid_w);
	double rz = HS_T_CHIP / (HS_K_SI * grid_h * grid_w);
	double max_slope = HS_MAX_PD / (HS_FACTOR_CHIP * HS_T_CHIP * HS_SPEC_HEAT_SI);
	double step = HS_PRECISION / max_slope;
	s->k.step_div_cap = (float)(step / cap);
	s->k.rx_1 = (float)(1.0 / rx);
	s->k.ry_1 = (float)(1.0 / ry);
	s->k.rz_1 = (float)(1.0 / rz);
	s->k.amb_temp = (float)HS_AMB_TEMP;
	return 0;
}

static int hotspot_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			      struct weft_error *err)
{
	struct hotspot_state *s = state;
	size_t bytes = (size_t)s->rows * (size_t)s->cols * sizeof(float);
	uint64_t d_power, d_t[2];
	WEFT_WL_TRY(weft_wl_upload(ctx, s->power, bytes, &d_power, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->temp, bytes, &d_t[0], err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &d_t[1], err));
	int src = 0;
	for (int t = 0; t < HOTSPOT_STEPS; t += HOTSPOT_PYRAMID) {
		int iters = HOTSPOT_STEPS - t < HOTSPOT_PYRAMID ? HOTSPOT_STEPS - t : HOTSPOT_PYRAMID;
		int small = HS_BS - 2 * iters;
		int border = iters; /* halo of one cell per step on each side */
		struct weft_arg args[] = { WEFT_ARG(iters), WEFT_ARG(d_power), WEFT_ARG(d_t[src]),
					   WEFT_ARG(d_t[1 - src]), WEFT_ARG(s->cols),
					   WEFT_ARG(s->rows), WEFT_ARG(border), WEFT_ARG(border),
					   WEFT_ARG(s->k) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "hotspot_step",
					weft_dim3((uint32_t)((s->cols + small - 1) / small),
						  (uint32_t)((s->rows + small - 1) / small), 1),
					weft_dim3(HS_BS, HS_BS, 1), 0, args, 9, err));
		src = 1 - src;
	}
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->out_dev, d_t[src], bytes, err));
	return 0;
}

static void hotspot_run_reference(void *state)
{
	struct hotspot_state *s = state;
	int rows = s->rows, cols = s->cols;
	const struct hs_coef *k = &s->k;
	memcpy(s->ref_a, s->temp, (size_t)rows * cols * sizeof(float));
	float *in = s->ref_a, *out = s->ref_b;
	for (int t = 0; t < HOTSPOT_STEPS; t++) {
		for (int y = 0; y < rows; y++) {
			int yn = y > 0 ? y - 1 : y, ys = y < rows - 1 ? y + 1 : y;
			for (int x = 0; x < cols; x++) {
				int xw = x > 0 ? x - 1 : x, xe = x < cols - 1 ? x + 1 : x;
				float c = in[y * cols + x];
				out[y * cols + x] = c + k->step_div_cap *
					(s->power[y * cols + x] +
					 (in[ys * cols + x] + in[yn * cols + x] - 2.0f * c) * k->ry_1 +
					 (in[y * cols + xe] + in[y * cols + xw] - 2.0f * c) * k->rx_1 +
					 (k->amb_temp - c) * k->rz_1);
			}
		}
		float *tmp = in;
		in = out;
		out = tmp;
	}
	s->out_ref = in;
}

static int hotspot_verify(void *state, struct weft_error *err)
{
	struct hotspot_state *s = state;
	return weft_wl_check_f32("temp", s->out_dev, s->out_ref, (size_t)s->rows * s->cols,
				 HOTSPOT_REL_TOL, 0.0, err);
}

static void hotspot_teardown(void *state)
{
	struct hotspot_state *s = state;
	free(s->temp);
	free(s->power);
	free(s->out_dev);
	free(s->ref_a);
	free(s->ref_b);
}

const struct weft_workload weft_workload_hotspot = {
	.name = "hotspot",
	.description = "Rodinia-style 2-D thermal stencil, 16x16 shared tiles, 2 steps per launch (pyramid)",
	.ptx_name = "hotspot.ptx",
	.ptx_text = weft_ptx_hotspot,
	.tolerance = "rel 1e-5",
	.state_size = sizeof(struct hotspot_state),
	.setup = hotspot_setup,
	.run_device = hotspot_run_device,
	.run_reference = hotspot_run_reference,
	.verify = hotspot_verify,
	.teardown = hotspot_teardown,
};
