/*
 * physics.c - host driver for physics.cu: PHYSICS_STEPS time steps of n
 * spheres bouncing in a closed cubic box under gravity, one launch per step
 * (ping-pong buffers), every sphere tested against every other one.
 *
 * Units are arbitrary but consistent (think metres and seconds): radii
 * uniform in [1, 1.5), mass = radius^3 (one density), velocity components
 * uniform in [-2, 2), gravity 9.81 along -y, time step 0.05 (a sphere moves
 * at most about a tenth of its radius per step), restitution 0.9 for spheres
 * and walls. Centres are uniform in the box, whose side makes the spheres
 * fill 8% of its volume. The start is a random jumble, so spheres may
 * overlap: an overlapping pair that approaches gets its impulse, one that
 * separates is left to part. Measured per sphere and step: 0.91 (small) and
 * 0.64 (default) contacts, of which 0.21 and 0.13 approach and take the
 * response branch, and 0.02 and 0.006 wall hits: in most warps some threads
 * run the contact and response code while the others skip it.
 *
 * Tolerance: exact. Every operation of the kernel is a single IEEE 754
 * operation that weft's emulator rounds as the standard requires (add, sub,
 * mul, div.rn, fma.rn, neg), nvcc fuses nothing but the fmaf calls the
 * kernel writes out (checked in the committed PTX: every fma.rn.f32 is one
 * of them), and the reference below evaluates the same expressions in the
 * same order, calling fmaf at the same places, built with -ffp-contract=off.
 * So device and reference agree bit for bit; a tolerance would only hide
 * trouble, because a contact test decided differently by one rounding
 * changes a velocity by a whole impulse (collisions are not continuous in
 * the inputs).
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/workloads/physics.cu"

WEFT_WORKLOAD_PTX(physics);

#define PHYSICS_BLOCK 128
#define PHYSICS_STEPS 4
#define PHYSICS_DT 0.05f
#define PHYSICS_GRAVITY 9.81f
#define PHYSICS_E 0.9f         /* coefficient of restitution */
#define PHYSICS_FILL 0.08      /* share of the box's volume the spheres fill */

struct physics_body {
	float x, y, z, w; /* as CUDA's float4 */
};

struct physics_state {
	int n;
	float box;
	struct physics_body *pos, *vel; /* initial state */
	struct physics_body *pos_dev, *vel_dev, *pos_ref, *vel_ref, *tmp_pos, *tmp_vel;
};

static int physics_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct physics_state *s = state;
	/* Measured: about 16 thread instructions per pair test (few pairs
	 * touch), 4 steps: 1.2e5 / 9.6e6 / 9.4e8 (small, default, large). */
	s->n = WEFT_WL_BY_SIZE(size, 40, 384, 3840);
	size_t n = (size_t)s->n;
	struct physics_body **bufs[] = { &s->pos, &s->vel, &s->pos_dev, &s->vel_dev,
					 &s->pos_ref, &s->vel_ref, &s->tmp_pos, &s->tmp_vel };
	for (size_t b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++)
		if (!(*bufs[b] = weft_wl_alloc(n, sizeof(struct physics_body), err)))
			return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x706879736963ull); /* "physic" */
	double volume = 0;
	for (size_t i = 0; i < n; i++) {
		float rad = weft_rng_float(&r, 1.0f, 1.5f);
		s->pos[i].w = rad;
		s->vel[i].w = rad * rad * rad;
		volume += 4.0 / 3.0 * 3.14159265358979 * rad * rad * rad;
	}
	s->box = (float)cbrt(volume / PHYSICS_FILL);
	for (size_t i = 0; i < n; i++) {
		float rad = s->pos[i].w;
		s->pos[i].x = weft_rng_float(&r, rad, s->box - rad);
		s->pos[i].y = weft_rng_float(&r, rad, s->box - rad);
		s->pos[i].z = weft_rng_float(&r, rad, s->box - rad);
		s->vel[i].x = weft_rng_float(&r, -2.0f, 2.0f);
		s->vel[i].y = weft_rng_float(&r, -2.0f, 2.0f);
		s->vel[i].z = weft_rng_float(&r, -2.0f, 2.0f);
	}
	return 0;
}

static int physics_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			      struct weft_error *err)
{
	struct physics_state *s = state;
	size_t bytes = (size_t)s->n * sizeof(struct physics_body);
	uint64_t dpos[2], dvel[2];
	WEFT_WL_TRY(weft_wl_upload(ctx, s->pos, bytes, &dpos[0], err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vel, bytes, &dvel[0], err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &dpos[1], err));
	WEFT_WL_TRY(weft_malloc(ctx, bytes, &dvel[1], err));
	float dt = PHYSICS_DT, gravity = PHYSICS_GRAVITY, e = PHYSICS_E;
	int src = 0;
	for (int t = 0; t < PHYSICS_STEPS; t++) {
		struct weft_arg args[] = { WEFT_ARG(dpos[src]), WEFT_ARG(dvel[src]),
					   WEFT_ARG(dpos[1 - src]), WEFT_ARG(dvel[1 - src]),
					   WEFT_ARG(s->n), WEFT_ARG(dt), WEFT_ARG(gravity),
					   WEFT_ARG(s->box), WEFT_ARG(e) };
		WEFT_WL_TRY(weft_launch(ctx, mod, "physics_step",
					weft_dim3((uint32_t)(s->n + PHYSICS_BLOCK - 1) / PHYSICS_BLOCK, 1, 1),
					weft_dim3(PHYSICS_BLOCK, 1, 1), 0, args, 9, err));
		src = 1 - src;
	}
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->pos_dev, dpos[src], bytes, err));
	return weft_memcpy_dtoh(ctx, s->vel_dev, dvel[src], bytes, err);
}

/* One step from (pos, vel) to (pos_out, vel_out), expression by expression
 * as physics_step. */
static void physics_ref_step(const struct physics_body *pos, const struct physics_body *vel,
			     struct physics_body *pos_out, struct physics_body *vel_out, int n,
			     float dt, float gravity, float box, float e)
{
	for (int i = 0; i < n; i++) {
		struct physics_body p = pos[i], v = vel[i];
		float dvx = 0.0f, dvy = 0.0f, dvz = 0.0f;
		for (int j = 0; j < n; j++) {
			struct physics_body q = pos[j];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
			float reach = p.w + q.w;
			if (j == i || d2 >= reach * reach)
				continue;
			struct physics_body u = vel[j];
			float vn = fmaf(u.z - v.z, dz, fmaf(u.y - v.y, dy, (u.x - v.x) * dx));
			if (vn >= 0.0f)
				continue;
			float k = (1.0f + e) * u.w / (v.w + u.w) * vn / d2;
			dvx = fmaf(k, dx, dvx);
			dvy = fmaf(k, dy, dvy);
			dvz = fmaf(k, dz, dvz);
		}
		v.x += dvx;
		v.y += dvy;
		v.z += dvz;
		v.y = fmaf(-gravity, dt, v.y);
		p.x = fmaf(v.x, dt, p.x);
		p.y = fmaf(v.y, dt, p.y);
		p.z = fmaf(v.z, dt, p.z);
		float hi = box - p.w;
		PHYSICS_WALL(p.x, v.x, p.w, hi, e);
		PHYSICS_WALL(p.y, v.y, p.w, hi, e);
		PHYSICS_WALL(p.z, v.z, p.w, hi, e);
		pos_out[i] = p;
		vel_out[i] = v;
	}
}

static void physics_run_reference(void *state)
{
	struct physics_state *s = state;
	size_t bytes = (size_t)s->n * sizeof(struct physics_body);
	memcpy(s->pos_ref, s->pos, bytes);
	memcpy(s->vel_ref, s->vel, bytes);
	struct physics_body *p = s->pos_ref, *v = s->vel_ref, *po = s->tmp_pos, *vo = s->tmp_vel;
	for (int t = 0; t < PHYSICS_STEPS; t++) {
		physics_ref_step(p, v, po, vo, s->n, PHYSICS_DT, PHYSICS_GRAVITY, s->box, PHYSICS_E);
		struct physics_body *tp = p, *tv = v;
		p = po, v = vo, po = tp, vo = tv;
	}
	if (p != s->pos_ref) { /* an odd step count ends in the scratch buffers */
		memcpy(s->pos_ref, p, bytes);
		memcpy(s->vel_ref, v, bytes);
	}
}

static int physics_verify(void *state, struct weft_error *err)
{
	struct physics_state *s = state;
	size_t nf = (size_t)s->n * 4;
	WEFT_WL_TRY(weft_wl_check_f32("pos", &s->pos_dev->x, &s->pos_ref->x, nf, 0.0, 0.0, err));
	return weft_wl_check_f32("vel", &s->vel_dev->x, &s->vel_ref->x, nf, 0.0, 0.0, err);
}

static void physics_teardown(void *state)
{
	struct physics_state *s = state;
	free(s->pos);
	free(s->vel);
	free(s->pos_dev);
	free(s->vel_dev);
	free(s->pos_ref);
	free(s->vel_ref);
	free(s->tmp_pos);
	free(s->tmp_vel);
}

const struct weft_workload weft_workload_physics = {
	.name = "physics",
	.description = "Newtonian spheres in a box: all-pairs collision tests and responses, gravity, walls; 4 steps",
	.ptx_name = "physics.ptx",
	.ptx_text = weft_ptx_physics,
	.tolerance = "exact",
	.state_size = sizeof(struct physics_state),
	.setup = physics_setup,
	.run_device = physics_run_device,
	.run_reference = physics_run_reference,
	.verify = physics_verify,
	.teardown = physics_teardown,
};
