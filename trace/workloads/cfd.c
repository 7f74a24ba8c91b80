/*
 * cfd.c - host driver for cfd.cu: one step of Rodinia cfd's unstructured
 * Euler solver on a synthetic mesh: the time-step factor, the face fluxes
 * (neighbour gathers) and the first Runge-Kutta stage of the update.
 *
 * Flow state: cells hold density in [0.5, 2), velocity components in
 * [-1, 1) (stored as momentum = density x velocity), pressure in [0.5, 2)
 * (stored as total energy) and a cell area (volume) in [0.1, 1): physically
 * valid states, so every square root is real. The free stream is Rodinia's
 * (density 1.4, pressure 1, so sound speed 1, Mach 1.2) but turned 3 degrees
 * up and 2 degrees sideways (Rodinia flies along x) so that none of its
 * momentum components is zero and every free-stream term is checked.
 *
 * Mesh: every cell has NNB = 4 faces (a tetrahedron). Rodinia reads its mesh
 * (fvcorr.domn.097K: 97046 tetrahedra around a wing) from a file whose
 * numbering keeps neighbours near each other in index, without making them
 * adjacent. That file is not at hand (public copies of Rodinia's data are
 * stored as large-file pointers), so the synthetic mesh follows what a
 * bandwidth-reducing (front by front, Cuthill-McKee-like) numbering of a
 * 3-D mesh gives: cells come in fronts of about F = ncells^(2/3) cells
 * (2113 at the default size), and a cell's neighbours are in its own front
 * or in the fronts just before and after it. So each interior face of cell
 * i names cell i + d or i - d with
 *   1 in 4:  d uniform in [1, F/4]        (same front: a few hundred cells)
 *   3 in 4:  d uniform in [F/2, 3F/2)     (next or previous front: one to a
 *                                          few thousand cells)
 * (the other sign when i + d or i - d leaves the mesh), and 1 face in 100
 * names a uniformly random cell instead (numbering defects, cuts). A warp's
 * 32 cells then gather from lines spread over a few thousand cells: one
 * variable's gather touches about 28 distinct 128-byte lines for a warp's
 * ~31 interior lanes at the default size (12 at the small size, whose
 * fronts are 154 cells), but the window of cells a CTA touches is shared by
 * the CTAs around it (caches catch the reuse, not coalescing).
 * The draws are independent per face, so consecutive cells' neighbours are
 * not themselves consecutive: a real front numbering would correlate them
 * somewhat more (this errs towards scattered gathers).
 * Boundary faces lie on surfaces, so they come in runs of cells: a run
 * starts at a cell with probability 1/200 and covers 8 to 64 cells, all of
 * it wing (-1) or all far field (-2) at even odds; 3 in 4 of its cells get
 * one boundary face, in a random slot. About 12% of cells then have a
 * boundary face, about 1.5% of faces are wing and 1.5% far field. Warps
 * outside runs do not diverge at the boundary test; warps inside do (about
 * a quarter of (warp, face) pairs mix interior and boundary lanes).
 * Face normals point in uniformly random directions with lengths (face
 * areas) in [0.1, 1); a real cell's faces close (its normals sum to zero),
 * these need not.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

WEFT_WORKLOAD_PTX(cfd);

#define GAMMA 1.4f
#define NNB 4
#define NVAR 5
#define RK 3
#define SMOOTHING 0.2f
#define CFD_BLOCK 192 /* Rodinia's block size for every kernel */
#define CFD_STAGE 0   /* the Runge-Kutta stage cfd_time_step runs */

struct cfd_state {
	int n;
	float *vars;    /* NVAR planes of n: density, momentum x/y/z, energy */
	float *areas;
	int *nbrs;      /* NNB planes: neighbour, -1 wing, -2 far field */
	float *normals; /* 3 x NNB planes: normals[i + (j + k * NNB) * n] */
	float ff_vars[NVAR];
	float ff_flux[9]; /* xx, xy, xz, yy, yz, zz, ex, ey, ez */
	float *step_dev, *step_ref;
	float *flux_dev, *flux_ref;
	float *flux_mag; /* sum of |terms| of each flux, for its tolerance */
	float *new_dev, *new_ref;
};

/* nvcc fuses the |v|^2 sum into two fmas (one rounding each differs from
 * the reference); the pressure e - rho|v|^2/2 then amplifies that by at
 * most e/(e - rho|v|^2/2) = 1 + rho|v|^2/(2.5 p) <= 1 + 2*3/(2*2.5*0.5)
 * ~ 3.4 for these inputs, and the square roots halve it: a few 1e-7
 * relative. 1e-5 leaves an order of magnitude of margin. */
#define CFD_REL 1e-5

/* A flux is a sum of up to 16 terms per face set (4 faces x viscosity and
 * three directions), each a factor times a sum or difference of two
 * quantities: the tolerance is relative to the sum of the magnitudes,
 * mag = sum over terms of |factor| (|a| + |b|), not to the flux itself,
 * which can cancel to near zero. Against that, the device (fused) and the
 * reference (unfused) sums each lie within about 16 roundings of mag of
 * the exact sum (the fmas round once where the reference rounds twice),
 * and each term's inputs carry a few roundings more: the velocity division,
 * the pressure (amplified at most ~3.4x as above), the square roots of the
 * viscosity factor, the fused flux entries v m + p and v (e + p). Summed
 * worst case: about 2 x (16 + 20) roundings of 2^-24 = 4.3e-6 x mag;
 * rounding errors do not all line up in practice (measured: at most
 * 2.9e-7 x mag over the three sizes, while relative to the flux itself
 * cancellation makes it up to 7e-3 at the default size). 1e-5 x mag keeps a margin over
 * the worst case and stays far below what a wrong neighbour, normal, branch
 * or plane (an O(1) change of a term) gives; a viscosity coefficient off by
 * 0.05% already fails. */
#define CFD_FLUX_REL 1e-5

static const char *const cfd_var_name[NVAR] = { "density", "x-momentum", "y-momentum",
						"z-momentum", "energy" };

/* ---- reference arithmetic: cfd.cu's formulas in its order ------------------- */

struct cfd_cell {
	float rho, mx, my, mz, e;
	float vx, vy, vz, speed_sqd, p, c;
};

struct cfd_flux {
	float xx, xy, xz, yy, yz, zz;
	float ex, ey, ez;
};

/* The five sums of one cell and the magnitudes of their terms. */
struct cfd_sum {
	float v[NVAR];
	float mag[NVAR];
};

static void cfd_cell_of(const float *vars, size_t k, size_t n, struct cfd_cell *s)
{
	s->rho = vars[k];
	s->mx = vars[k + 1 * n];
	s->my = vars[k + 2 * n];
	s->mz = vars[k + 3 * n];
	s->e = vars[k + 4 * n];
	s->vx = s->mx / s->rho;
	s->vy = s->my / s->rho;
	s->vz = s->mz / s->rho;
	s->speed_sqd = s->vx * s->vx + s->vy * s->vy + s->vz * s->vz;
	s->p = (GAMMA - 1.0f) * (s->e - 0.5f * s->rho * s->speed_sqd);
	s->c = sqrtf(GAMMA * s->p / s->rho);
}

static void cfd_inviscid_ref(const struct cfd_cell *s, struct cfd_flux *f)
{
	f->xx = s->vx * s->mx + s->p;
	f->xy = s->vx * s->my;
	f->xz = s->vx * s->mz;
	f->yy = s->vy * s->my + s->p;
	f->yz = s->vy * s->mz;
	f->zz = s->vz * s->mz + s->p;
	float h = s->e + s->p;
	f->ex = s->vx * h;
	f->ey = s->vy * h;
	f->ez = s->vz * h;
}

/* sum[v] += f * (a + b) (or a - b with sign -1), and its magnitude. */
static void cfd_add(struct cfd_sum *a, int v, float f, float x, float y, int sign)
{
	a->v[v] += f * (sign > 0 ? x + y : x - y);
	a->mag[v] += fabsf(f) * (fabsf(x) + fabsf(y));
}

enum { RHO, MX, MY, MZ, EN };

static void cfd_central_ref(struct cfd_sum *a, float nx, float ny, float nz,
			    const struct cfd_cell *mi, const struct cfd_flux *fi, float mox,
			    float moy, float moz, const struct cfd_flux *fo)
{
	float h = 0.5f * nx;
	cfd_add(a, RHO, h, mox, mi->mx, 1);
	cfd_add(a, EN, h, fo->ex, fi->ex, 1);
	cfd_add(a, MX, h, fo->xx, fi->xx, 1);
	cfd_add(a, MY, h, fo->xy, fi->xy, 1);
	cfd_add(a, MZ, h, fo->xz, fi->xz, 1);
	h = 0.5f * ny;
	cfd_add(a, RHO, h, moy, mi->my, 1);
	cfd_add(a, EN, h, fo->ey, fi->ey, 1);
	cfd_add(a, MX, h, fo->xy, fi->xy, 1);
	cfd_add(a, MY, h, fo->yy, fi->yy, 1);
	cfd_add(a, MZ, h, fo->yz, fi->yz, 1);
	h = 0.5f * nz;
	cfd_add(a, RHO, h, moz, mi->mz, 1);
	cfd_add(a, EN, h, fo->ez, fi->ez, 1);
	cfd_add(a, MX, h, fo->xz, fi->xz, 1);
	cfd_add(a, MY, h, fo->yz, fi->yz, 1);
	cfd_add(a, MZ, h, fo->zz, fi->zz, 1);
}

/* ---- inputs ---------------------------------------------------------------- */

/* A direction uniform on the unit sphere (rejection from the cube). */
static void cfd_direction(struct weft_rng *rng, float d[3])
{
	for (;;) {
		float x = weft_rng_float(rng, -1.0f, 1.0f);
		float y = weft_rng_float(rng, -1.0f, 1.0f);
		float z = weft_rng_float(rng, -1.0f, 1.0f);
		float r2 = x * x + y * y + z * z;
		if (r2 > 1.0f || r2 < 1e-4f)
			continue;
		float r = sqrtf(r2);
		d[0] = x / r;
		d[1] = y / r;
		d[2] = z / r;
		return;
	}
}

/* The neighbour of one interior face of cell i (see the header). */
static int cfd_neighbour(struct weft_rng *rng, int i, int n, int front)
{
	if (weft_rng_below(rng, 100) == 0) {
		int nb = (int)weft_rng_below(rng, (uint32_t)n - 1);
		return nb >= i ? nb + 1 : nb;
	}
	int d;
	if (weft_rng_below(rng, 4) == 0)
		d = 1 + (int)weft_rng_below(rng, (uint32_t)(front / 4));
	else
		d = front / 2 + (int)weft_rng_below(rng, (uint32_t)front);
	if (weft_rng_below(rng, 2))
		d = -d;
	int nb = i + d;
	if (nb < 0 || nb >= n)
		nb = i - d;
	if (nb < 0)
		nb = 0;
	if (nb >= n)
		nb = n - 1;
	return nb == i ? (i + 1) % n : nb;
}

static void cfd_make_mesh(struct cfd_state *s)
{
	size_t n = (size_t)s->n;
	struct weft_rng rng;
	int front = (int)lround(cbrt((double)n * (double)n));
	if (front < 8)
		front = 8;

	weft_rng_seed(&rng, 0x6d657368u); /* "mesh" */
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < NNB; j++) {
			s->nbrs[i + j * n] = cfd_neighbour(&rng, (int)i, s->n, front);
			float d[3];
			cfd_direction(&rng, d);
			float area = weft_rng_float(&rng, 0.1f, 1.0f);
			for (int k = 0; k < 3; k++)
				s->normals[i + (j + k * NNB) * n] = area * d[k];
		}
	/* Boundary faces in runs of cells along the wing and the outer box. */
	for (size_t i = 0; i < n;) {
		if (weft_rng_below(&rng, 200) != 0) {
			i++;
			continue;
		}
		size_t len = 8 + weft_rng_below(&rng, 57);
		int kind = weft_rng_below(&rng, 2) ? -1 : -2;
		for (size_t k = i; k < i + len && k < n; k++)
			if (weft_rng_below(&rng, 4) != 0)
				s->nbrs[k + weft_rng_below(&rng, NNB) * n] = kind;
		i += len;
	}
}

/* Rodinia's free stream (density 1.4, pressure 1, Mach 1.2), 3 degrees up
 * and 2 degrees sideways, and its flux. */
static void cfd_free_stream(struct cfd_state *s)
{
	const double up = 3.0 * M_PI / 180.0, side = 2.0 * M_PI / 180.0;
	float rho = 1.4f, p = 1.0f;
	float speed = 1.2f * sqrtf(GAMMA * p / rho);
	struct cfd_cell f;
	f.rho = rho;
	f.p = p;
	f.vx = speed * (float)(cos(up) * cos(side));
	f.vy = speed * (float)(sin(up) * cos(side));
	f.vz = speed * (float)sin(side);
	f.mx = rho * f.vx;
	f.my = rho * f.vy;
	f.mz = rho * f.vz;
	f.e = rho * (0.5f * (speed * speed)) + p / (GAMMA - 1.0f);
	struct cfd_flux fl;
	cfd_inviscid_ref(&f, &fl);
	float v[NVAR] = { f.rho, f.mx, f.my, f.mz, f.e };
	float x[9] = { fl.xx, fl.xy, fl.xz, fl.yy, fl.yz, fl.zz, fl.ex, fl.ey, fl.ez };
	for (int k = 0; k < NVAR; k++)
		s->ff_vars[k] = v[k];
	for (int k = 0; k < 9; k++)
		s->ff_flux[k] = x[k];
}

static int cfd_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct cfd_state *s = state;
	struct weft_rng rng;

	/* Multiples of the 192-thread block: 10, 506 (Rodinia's padded count
	 * for fvcorr.domn.097K's 97046 cells) and 10240 blocks. */
	s->n = WEFT_WL_BY_SIZE(size, 1920, 97152, 1966080);
	size_t n = (size_t)s->n;
	if (!(s->vars = weft_wl_alloc(NVAR * n, sizeof(float), err)) ||
	    !(s->areas = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->nbrs = weft_wl_alloc(NNB * n, sizeof(int), err)) ||
	    !(s->normals = weft_wl_alloc(3 * NNB * n, sizeof(float), err)) ||
	    !(s->step_dev = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->step_ref = weft_wl_alloc(n, sizeof(float), err)) ||
	    !(s->flux_dev = weft_wl_alloc(NVAR * n, sizeof(float), err)) ||
	    !(s->flux_ref = weft_wl_alloc(NVAR * n, sizeof(float), err)) ||
	    !(s->flux_mag = weft_wl_alloc(NVAR * n, sizeof(float), err)) ||
	    !(s->new_dev = weft_wl_alloc(NVAR * n, sizeof(float), err)) ||
	    !(s->new_ref = weft_wl_alloc(NVAR * n, sizeof(float), err)))
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
	cfd_make_mesh(s);
	cfd_free_stream(s);
	return 0;
}

static int cfd_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			  struct weft_error *err)
{
	struct cfd_state *s = state;
	size_t n = (size_t)s->n;
	size_t vbytes = NVAR * n * sizeof(float);
	uint64_t dvars, dold, dareas, dstep, dnbrs, dnormals, dflux;
	struct weft_dim3 grid = weft_dim3((uint32_t)((n + CFD_BLOCK - 1) / CFD_BLOCK), 1, 1);
	struct weft_dim3 block = weft_dim3(CFD_BLOCK, 1, 1);

	/* As Rodinia: the variables, and their copy at the start of the step. */
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vars, vbytes, &dvars, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->vars, vbytes, &dold, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->areas, n * sizeof(float), &dareas, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->nbrs, NNB * n * sizeof(int), &dnbrs, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->normals, 3 * NNB * n * sizeof(float), &dnormals, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * sizeof(float), &dstep, err));
	WEFT_WL_TRY(weft_malloc(ctx, vbytes, &dflux, err));
	WEFT_WL_TRY(weft_memcpy_to_symbol(ctx, mod, "cfd_ff_vars", s->ff_vars, sizeof s->ff_vars, 0,
					  err));
	WEFT_WL_TRY(weft_memcpy_to_symbol(ctx, mod, "cfd_ff_flux", s->ff_flux, sizeof s->ff_flux, 0,
					  err));

	struct weft_arg sargs[] = { WEFT_ARG(dvars), WEFT_ARG(dareas), WEFT_ARG(dstep),
				    WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "cfd_step_factor", grid, block, 0, sargs, 4, err));
	struct weft_arg fargs[] = { WEFT_ARG(dnbrs), WEFT_ARG(dnormals), WEFT_ARG(dvars),
				    WEFT_ARG(dflux), WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "cfd_compute_flux", grid, block, 0, fargs, 5, err));
	int stage = CFD_STAGE;
	struct weft_arg targs[] = { WEFT_ARG(stage), WEFT_ARG(dold), WEFT_ARG(dvars),
				    WEFT_ARG(dstep), WEFT_ARG(dflux), WEFT_ARG(s->n) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "cfd_time_step", grid, block, 0, targs, 6, err));

	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->step_dev, dstep, n * sizeof(float), err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->flux_dev, dflux, vbytes, err));
	return weft_memcpy_dtoh(ctx, s->new_dev, dvars, vbytes, err);
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

	const struct cfd_flux ff = { s->ff_flux[0], s->ff_flux[1], s->ff_flux[2],
				     s->ff_flux[3], s->ff_flux[4], s->ff_flux[5],
				     s->ff_flux[6], s->ff_flux[7], s->ff_flux[8] };
	for (size_t i = 0; i < n; i++) {
		struct cfd_cell own;
		cfd_cell_of(s->vars, i, n, &own);
		float speed = sqrtf(own.speed_sqd);
		struct cfd_flux fi;
		cfd_inviscid_ref(&own, &fi);
		struct cfd_sum a = { { 0 }, { 0 } };
		const float u_i[NVAR] = { own.rho, own.mx, own.my, own.mz, own.e };

		for (int j = 0; j < NNB; j++) {
			int nb = s->nbrs[i + j * n];
			float nx = s->normals[i + (j + 0 * NNB) * n];
			float ny = s->normals[i + (j + 1 * NNB) * n];
			float nz = s->normals[i + (j + 2 * NNB) * n];
			float len = sqrtf(nx * nx + ny * ny + nz * nz);
			if (nb >= 0) {
				struct cfd_cell o;
				cfd_cell_of(s->vars, (size_t)nb, n, &o);
				struct cfd_flux fo;
				cfd_inviscid_ref(&o, &fo);
				float visc = -0.5f * SMOOTHING * len *
					     (speed + sqrtf(o.speed_sqd) + own.c + o.c);
				const float u_o[NVAR] = { o.rho, o.mx, o.my, o.mz, o.e };
				static const int order[NVAR] = { RHO, EN, MX, MY, MZ };
				for (int k = 0; k < NVAR; k++)
					cfd_add(&a, order[k], visc, u_i[order[k]], u_o[order[k]], -1);
				cfd_central_ref(&a, nx, ny, nz, &own, &fi, o.mx, o.my, o.mz, &fo);
			} else if (nb == -1) {
				a.v[MX] += nx * own.p;
				a.v[MY] += ny * own.p;
				a.v[MZ] += nz * own.p;
				a.mag[MX] += fabsf(nx * own.p);
				a.mag[MY] += fabsf(ny * own.p);
				a.mag[MZ] += fabsf(nz * own.p);
			} else if (nb == -2) {
				cfd_central_ref(&a, nx, ny, nz, &own, &fi, s->ff_vars[1],
						s->ff_vars[2], s->ff_vars[3], &ff);
			}
		}
		for (int v = 0; v < NVAR; v++) {
			s->flux_ref[i + v * n] = a.v[v];
			s->flux_mag[i + v * n] = a.mag[v];
		}
	}

	for (size_t i = 0; i < n; i++) {
		float factor = s->step_ref[i] / (float)(RK + 1 - CFD_STAGE);
		for (int v = 0; v < NVAR; v++)
			s->new_ref[i + v * n] = s->vars[i + v * n] + factor * s->flux_ref[i + v * n];
	}
}

static int cfd_verify(void *state, struct weft_error *err)
{
	struct cfd_state *s = state;
	size_t n = (size_t)s->n;
	char what[96];

	WEFT_WL_TRY(weft_wl_check_f32("step_factor", s->step_dev, s->step_ref, n, CFD_REL, 0.0,
				      err));
	for (int v = 0; v < NVAR; v++)
		for (size_t i = 0; i < n; i++) {
			size_t k = i + v * n;
			double tol = CFD_FLUX_REL * s->flux_mag[k];
			if (!weft_wl_close(s->flux_dev[k], s->flux_ref[k], 0.0, tol)) {
				snprintf(what, sizeof what, "flux %s[%zu] (sum of |terms| %g)",
					 cfd_var_name[v], i, (double)s->flux_mag[k]);
				return weft_wl_report_float(what, s->flux_dev[k], s->flux_ref[k], 0.0,
							    tol, err);
			}
		}
	/* U_old + f F: the flux error scaled by f, the step factor's own error
	 * (CFD_REL of f F, and |F| <= its mag), the final rounding (within
	 * CFD_FLUX_REL of |U_old|). */
	for (int v = 0; v < NVAR; v++)
		for (size_t i = 0; i < n; i++) {
			size_t k = i + v * n;
			double f = fabs((double)s->step_ref[i] / (RK + 1 - CFD_STAGE));
			double tol = CFD_FLUX_REL * fabs((double)s->vars[k]) +
				     (CFD_FLUX_REL + CFD_REL) * f * s->flux_mag[k];
			if (!weft_wl_close(s->new_dev[k], s->new_ref[k], 0.0, tol)) {
				snprintf(what, sizeof what, "updated %s[%zu]", cfd_var_name[v], i);
				return weft_wl_report_float(what, s->new_dev[k], s->new_ref[k], 0.0,
							    tol, err);
			}
		}
	return 0;
}

static void cfd_teardown(void *state)
{
	struct cfd_state *s = state;
	free(s->vars);
	free(s->areas);
	free(s->nbrs);
	free(s->normals);
	free(s->step_dev);
	free(s->step_ref);
	free(s->flux_dev);
	free(s->flux_ref);
	free(s->flux_mag);
	free(s->new_dev);
	free(s->new_ref);
}

const struct weft_workload weft_workload_cfd = {
	.name = "cfd",
	.description = "Euler CFD on an unstructured mesh: step factor, 4-neighbour flux gathers, "
		       "RK update (Rodinia cfd)",
	.ptx_name = "cfd.ptx",
	.ptx_text = weft_ptx_cfd,
	.tolerance = "rel 1e-5 (fluxes: of the sum of |terms|)",
	.state_size = sizeof(struct cfd_state),
	.setup = cfd_setup,
	.run_device = cfd_run_device,
	.run_reference = cfd_run_reference,
	.verify = cfd_verify,
	.teardown = cfd_teardown,
};
