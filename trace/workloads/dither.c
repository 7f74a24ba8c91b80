/*
 * dither.c - host driver for dither.cu: Floyd-Steinberg dithering of a
 * width x height 8-bit grey image to black (0) and white (255), one launch
 * per pixel diagonal x + 2y = d (d = 0 .. width - 1 + 2 (height - 1)), the
 * way a wavefront-parallel dither runs. Each launch's threads take the
 * diagonal's pixels from top to bottom, so diagonals (and launches) grow
 * from 1 pixel to min(height, width / 2) and shrink again.
 *
 * The errors are gathered with integer weights 7, 1, 5, 3 (left, upper-left,
 * upper, upper-right) and the sum shifted right by 4 (floor of the 16th),
 * once per pixel; white input pixels (255) are skipped and hold error 0.
 * The CPU reference runs the same rule in plain raster order, so device and
 * reference agree exactly (outputs and errors) whatever order the device
 * finished a diagonal in.
 *
 * Input: a white page (255) with opaque grey ellipses on it, each filled
 * with a linear gradient between two random greys in [0, 254] plus noise of
 * +-8, clamped to [0, 254]: 44% (small), 46% (default) and 51% (large) of
 * the pixels stay white, so the skip splits the warps that straddle an
 * ellipse's edge.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(dither);

#define DITHER_BLOCK 64
#define DITHER_WHITE 255

struct dither_state {
	int w, h;
	uint8_t *in, *out_dev, *out_ref;
	int32_t *err_dev, *err_ref;
};

/* Paints the grey ellipses of the input on a white page. */
static void dither_paint(struct dither_state *s, struct weft_rng *r)
{
	int w = s->w, h = s->h;
	for (size_t i = 0; i < (size_t)w * h; i++)
		s->in[i] = DITHER_WHITE;
	int shapes = 12;
	for (int k = 0; k < shapes; k++) {
		float cx = weft_rng_float(r, 0.0f, (float)w), cy = weft_rng_float(r, 0.0f, (float)h);
		float rx = weft_rng_float(r, 0.08f, 0.25f) * (float)w;
		float ry = weft_rng_float(r, 0.08f, 0.25f) * (float)h;
		float g0 = weft_rng_float(r, 0.0f, 254.0f), g1 = weft_rng_float(r, 0.0f, 254.0f);
		int ylo = (int)(cy - ry), yhi = (int)(cy + ry) + 1;
		int xlo = (int)(cx - rx), xhi = (int)(cx + rx) + 1;
		for (int y = ylo < 0 ? 0 : ylo; y < h && y <= yhi; y++) {
			for (int x = xlo < 0 ? 0 : xlo; x < w && x <= xhi; x++) {
				float dx = ((float)x - cx) / rx, dy = ((float)y - cy) / ry;
				if (dx * dx + dy * dy > 1.0f)
					continue;
				float t = 0.5f + 0.5f * dx; /* gradient left to right */
				int v = (int)(g0 + (g1 - g0) * t) + (int)weft_rng_below(r, 17) - 8;
				s->in[(size_t)y * w + x] = (uint8_t)(v < 0 ? 0 : v > 254 ? 254 : v);
			}
		}
	}
}

static int dither_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct dither_state *s = state;
	/* Measured: 1.2e5 / 9.6e6 / 9.5e8 thread instructions (small,
	 * default, large), about 47 per pixel counting the white ones and
	 * the idle threads of each diagonal's last block. */
	s->w = WEFT_WL_BY_SIZE(size, 48, 640, 6656);
	s->h = WEFT_WL_BY_SIZE(size, 24, 320, 3328);
	size_t px = (size_t)s->w * (size_t)s->h;
	if (!(s->in = weft_wl_alloc(px, 1, err)) || !(s->out_dev = weft_wl_alloc(px, 1, err)) ||
	    !(s->out_ref = weft_wl_alloc(px, 1, err)) ||
	    !(s->err_dev = weft_wl_alloc(px, sizeof(int32_t), err)) ||
	    !(s->err_ref = weft_wl_alloc(px, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x646974686572ull); /* "dither" */
	dither_paint(s, &r);
	return 0;
}

static int dither_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct dither_state *s = state;
	size_t px = (size_t)s->w * (size_t)s->h;
	uint64_t din, dout, derr;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->in, px, &din, err));
	WEFT_WL_TRY(weft_malloc(ctx, px, &dout, err));
	WEFT_WL_TRY(weft_malloc(ctx, px * sizeof(int32_t), &derr, err));
	int ndiag = s->w + 2 * (s->h - 1);
	for (int d = 0; d < ndiag; d++) {
		/* rows y with 0 <= d - 2y < w */
		int y0 = d - s->w + 2 > 0 ? (d - s->w + 2) / 2 : 0;
		int y1 = d / 2 < s->h - 1 ? d / 2 : s->h - 1;
		int count = y1 - y0 + 1;
		struct weft_arg args[] = { WEFT_ARG(din), WEFT_ARG(dout), WEFT_ARG(derr),
					   WEFT_ARG(s->w), WEFT_ARG(d), WEFT_ARG(y0), WEFT_ARG(count) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "dither_diag",
					weft_dim3((uint32_t)(count + DITHER_BLOCK - 1) / DITHER_BLOCK, 1, 1),
					weft_dim3(DITHER_BLOCK, 1, 1), 0, args, 7, err));
	}
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->out_dev, dout, px, err));
	return weft_memcpy_dtoh(ctx, s->err_dev, derr, px * sizeof(int32_t), err);
}

static void dither_run_reference(void *state)
{
	struct dither_state *s = state;
	int w = s->w;
	for (int y = 0; y < s->h; y++) {
		for (int x = 0; x < w; x++) {
			size_t p = (size_t)y * w + x;
			int v = s->in[p];
			if (v == DITHER_WHITE) {
				s->out_ref[p] = DITHER_WHITE;
				s->err_ref[p] = 0;
				continue;
			}
			int acc = 0;
			if (x > 0)
				acc += 7 * s->err_ref[p - 1];
			if (y > 0) {
				const int32_t *up = s->err_ref + p - w;
				if (x > 0)
					acc += up[-1];
				acc += 5 * up[0];
				if (x < w - 1)
					acc += 3 * up[1];
			}
			/* floor division by 16, as the kernel's arithmetic shift */
			v += acc >= 0 ? acc / 16 : -((-acc + 15) / 16);
			int o = v >= 128 ? DITHER_WHITE : 0;
			s->out_ref[p] = (uint8_t)o;
			s->err_ref[p] = v - o;
		}
	}
}

static int dither_verify(void *state, struct weft_error *err)
{
	struct dither_state *s = state;
	size_t px = (size_t)s->w * (size_t)s->h;
	for (size_t i = 0; i < px; i++)
		if (s->out_dev[i] != s->out_ref[i])
			return weft_error_set(err, WEFT_ERR_VERIFY,
					      "out[%zu] (x %zu, y %zu): device %u, reference %u", i,
					      i % (size_t)s->w, i / (size_t)s->w, s->out_dev[i], s->out_ref[i]);
	return weft_wl_check_i32("err", s->err_dev, s->err_ref, px, err);
}

static void dither_teardown(void *state)
{
	struct dither_state *s = state;
	free(s->in);
	free(s->out_dev);
	free(s->out_ref);
	free(s->err_dev);
	free(s->err_ref);
}

const struct weft_workload weft_workload_dither = {
	.name = "dither",
	.description = "Floyd-Steinberg dithering, one launch per pixel diagonal, white pixels skipped",
	.ptx_name = "dither.ptx",
	.ptx_text = weft_ptx_dither,
	.tolerance = "exact",
	.state_size = sizeof(struct dither_state),
	.setup = dither_setup,
	.run_device = dither_run_device,
	.run_reference = dither_run_reference,
	.verify = dither_verify,
	.teardown = dither_teardown,
};
