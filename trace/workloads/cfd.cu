// cfd.cu - one explicit step of a cell-centred finite-volume solver of the
// 3-D Euler equations on an unstructured tetrahedral mesh, after Rodinia cfd
// (euler3d.cu, from Corrigan, Camelli, Loehner and Wallin, AIAA 2009-4001).
// Every variable is a structure-of-arrays plane of ncells floats: density,
// momentum x/y/z and total energy at vars[i + v * ncells], v = 0..4.
//
// Three kernels, launched in this order, one thread per cell, 192-thread
// blocks as Rodinia:
//   cfd_step_factor   the local time step 0.5 / (sqrt(area) * (|v| + c))
//                     from the cell's own state: six streaming loads.
//   cfd_compute_flux  the flux through the cell's NNB = 4 faces. Face j of
//                     cell i names its neighbour in nbrs[i + j * ncells] and
//                     carries the area-weighted normal n (components
//                     normals[i + (j + k * NNB) * ncells], k = 0..2). A
//                     neighbour >= 0 is another cell: its five variables are
//                     gathered (the irregular loads) and the face adds a
//                     central flux 0.5 n . (F_i + F_nb) plus an artificial
//                     viscosity -0.1 |n| (|v_i| + |v_nb| + c_i + c_nb)
//                     (U_i - U_nb). -1 is a wall (the wing): only pressure
//                     pushes, p_i n on the momenta. -2 is the far field: the
//                     central flux against the free stream, whose state and
//                     flux sit in __constant__ memory. The five sums are
//                     written as five planes.
//   cfd_time_step     U = U_old + step / (RK + 1 - j) * flux, one stage of
//                     the Runge-Kutta update: 11 streaming loads, 5 stores.
//
// What Rodinia does and where this differs:
// - Rodinia iterates (2000 times in the original) over: copy U to U_old,
//   compute_step_factor, then RK = 3 stages of compute_flux and time_step.
//   weft runs one step factor, one flux and one time step (stage j = 0): the
//   per-launch behaviour is the same and repeating it adds nothing new.
// - Rodinia pads the cell count to a multiple of the block size (copying
//   the last cell) and has no bounds check; the weft driver picks cell
//   counts that are multiples of 192 and the kernels keep a bounds check
//   (one compare and branch per thread).
// - The arithmetic is Rodinia's, formula for formula, in its order. The
//   momentum flux m v^T + p I is symmetric, and Rodinia computes its six
//   distinct entries once each (v_r m_d for r <= d); so does cfd_inviscid.
//   Rodinia keeps the free-stream flux as four float3 (12 floats, three of
//   them repeats); here it is the nine distinct values.
// - Like Rodinia, cfd_compute_flux and cfd_time_step take plain pointers
//   (no __restrict__), so their loads are ld.global, and time_step's loads
//   stay behind the stores before them. cfd_step_factor, weft's older
//   kernel, keeps its __restrict__ (ld.global.nc); its values are the same.
// - The mesh is synthetic (see cfd.c for its locality and boundaries), not
//   Rodinia's fvcorr.domn.097K, and the flow is a random valid state rather
//   than Rodinia's uniform free stream (which makes every flux difference
//   zero at the first step).
#define GAMMA 1.4f
#define NNB 4
#define NVAR 5
#define RK 3
#define SMOOTHING 0.2f

extern "C" __global__ void cfd_step_factor(const float *__restrict__ vars,
					   const float *__restrict__ areas,
					   float *__restrict__ step, int ncells)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= ncells)
		return;
	float density = vars[i];
	float mx = vars[i + 1 * ncells];
	float my = vars[i + 2 * ncells];
	float mz = vars[i + 3 * ncells];
	float energy = vars[i + 4 * ncells];
	float vx = mx / density, vy = my / density, vz = mz / density;
	float speed_sqd = vx * vx + vy * vy + vz * vz;
	float pressure = (GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
	float speed_of_sound = sqrtf(GAMMA * pressure / density);
	step[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
}

// Free stream, written by the host: the conserved variables (density,
// momentum x/y/z, energy), then its flux in cfd_flux order (xx, xy, xz, yy,
// yz, zz, ex, ey, ez).
__constant__ float cfd_ff_vars[NVAR];
__constant__ float cfd_ff_flux[9];

// One cell: conserved variables and what follows from them.
struct cfd_cell {
	float rho, mx, my, mz, e;
	float vx, vy, vz, speed_sqd, p, c;
};

// Inviscid flux of a state, by direction: momentum rows (symmetric, six
// entries) and the energy flux (e + p) v. The mass flux is the momentum.
struct cfd_flux {
	float xx, xy, xz, yy, yz, zz;
	float ex, ey, ez;
};

struct cfd_sum {
	float rho, mx, my, mz, e;
};

__device__ static inline void cfd_load_cell(const float *vars, int k, int n, struct cfd_cell *s)
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

__device__ static inline void cfd_inviscid(const struct cfd_cell *s, struct cfd_flux *f)
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

// Central flux through a face of normal (nx, ny, nz) between this cell
// (momentum and flux mi, fi) and the state across it (mo, fo), direction by
// direction as Rodinia accumulates it.
__device__ static inline void cfd_central(struct cfd_sum *a, float nx, float ny, float nz,
					  const struct cfd_cell *mi, const struct cfd_flux *fi,
					  float mox, float moy, float moz, const struct cfd_flux *fo)
{
	float h = 0.5f * nx;
	a->rho += h * (mox + mi->mx);
	a->e += h * (fo->ex + fi->ex);
	a->mx += h * (fo->xx + fi->xx);
	a->my += h * (fo->xy + fi->xy);
	a->mz += h * (fo->xz + fi->xz);
	h = 0.5f * ny;
	a->rho += h * (moy + mi->my);
	a->e += h * (fo->ey + fi->ey);
	a->mx += h * (fo->xy + fi->xy);
	a->my += h * (fo->yy + fi->yy);
	a->mz += h * (fo->yz + fi->yz);
	h = 0.5f * nz;
	a->rho += h * (moz + mi->mz);
	a->e += h * (fo->ez + fi->ez);
	a->mx += h * (fo->xz + fi->xz);
	a->my += h * (fo->yz + fi->yz);
	a->mz += h * (fo->zz + fi->zz);
}

extern "C" __global__ void cfd_compute_flux(const int *nbrs, const float *normals,
					    const float *vars, float *flux, int ncells)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= ncells)
		return;
	struct cfd_cell own;
	cfd_load_cell(vars, i, ncells, &own);
	float speed = sqrtf(own.speed_sqd);
	struct cfd_flux fi;
	cfd_inviscid(&own, &fi);
	struct cfd_sum a = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };

#pragma unroll
	for (int j = 0; j < NNB; j++) {
		int nb = nbrs[i + j * ncells];
		float nx = normals[i + (j + 0 * NNB) * ncells];
		float ny = normals[i + (j + 1 * NNB) * ncells];
		float nz = normals[i + (j + 2 * NNB) * ncells];
		float len = sqrtf(nx * nx + ny * ny + nz * nz);
		if (nb >= 0) {
			struct cfd_cell o;
			cfd_load_cell(vars, nb, ncells, &o);
			struct cfd_flux fo;
			cfd_inviscid(&o, &fo);
			float visc = -0.5f * SMOOTHING * len *
				     (speed + sqrtf(o.speed_sqd) + own.c + o.c);
			a.rho += visc * (own.rho - o.rho);
			a.e += visc * (own.e - o.e);
			a.mx += visc * (own.mx - o.mx);
			a.my += visc * (own.my - o.my);
			a.mz += visc * (own.mz - o.mz);
			cfd_central(&a, nx, ny, nz, &own, &fi, o.mx, o.my, o.mz, &fo);
		} else if (nb == -1) {
			a.mx += nx * own.p;
			a.my += ny * own.p;
			a.mz += nz * own.p;
		} else if (nb == -2) {
			struct cfd_flux ff = { cfd_ff_flux[0], cfd_ff_flux[1], cfd_ff_flux[2],
					       cfd_ff_flux[3], cfd_ff_flux[4], cfd_ff_flux[5],
					       cfd_ff_flux[6], cfd_ff_flux[7], cfd_ff_flux[8] };
			cfd_central(&a, nx, ny, nz, &own, &fi, cfd_ff_vars[1], cfd_ff_vars[2],
				    cfd_ff_vars[3], &ff);
		}
	}

	flux[i] = a.rho;
	flux[i + 1 * ncells] = a.mx;
	flux[i + 2 * ncells] = a.my;
	flux[i + 3 * ncells] = a.mz;
	flux[i + 4 * ncells] = a.e;
}

extern "C" __global__ void cfd_time_step(int j, const float *old_vars, float *vars,
					 const float *step, const float *flux, int ncells)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= ncells)
		return;
	float factor = step[i] / (float)(RK + 1 - j);
	for (int v = 0; v < NVAR; v++)
		vars[i + v * ncells] = old_vars[i + v * ncells] + factor * flux[i + v * ncells];
}
