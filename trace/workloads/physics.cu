// physics.cu - one time step of a Newtonian simulation of spheres in a
// closed box: each thread owns one sphere, tests it against every other
// sphere for contact, responds to the contacts, integrates gravity and the
// motion, and bounces off the walls.
//
// pos[i] = (x, y, z, radius), vel[i] = (vx, vy, vz, mass). The step reads
// the old state of every sphere and writes the new one to other buffers, so
// threads never see each other's updates and the result does not depend on
// their order. A contact (centres closer than the sum of the radii) whose
// spheres approach each other gives the sphere the velocity change of a
// collision along the line of centres with coefficient of restitution e
// (momentum is conserved: the other sphere's thread computes the opposite
// impulse). Multiply-adds are written as fmaf so that the C reference,
// which calls fmaf at the same places, is bit-identical.
#define PHYSICS_WALL(x, vx, lo, hi, e)                  \
	do {                                             \
		if ((x) < (lo)) {                        \
			(x) = (lo);                      \
			if ((vx) < 0.0f)                 \
				(vx) = -(e) * (vx);      \
		} else if ((x) > (hi)) {                 \
			(x) = (hi);                      \
			if ((vx) > 0.0f)                 \
				(vx) = -(e) * (vx);      \
		}                                        \
	} while (0)

#ifdef __CUDACC__
extern "C" __global__ void physics_step(const float4 *__restrict__ pos,
					const float4 *__restrict__ vel, float4 *__restrict__ pos_out,
					float4 *__restrict__ vel_out, int n, float dt, float gravity,
					float box, float e)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float4 p = pos[i];
	float4 v = vel[i];
	float dvx = 0.0f, dvy = 0.0f, dvz = 0.0f;
	for (int j = 0; j < n; j++) {
		float4 q = pos[j];
		float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
		float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
		float reach = p.w + q.w;
		if (j == i || d2 >= reach * reach)
			continue;
		float4 u = vel[j];
		// closing speed along the line of centres, times its length
		float vn = fmaf(u.z - v.z, dz, fmaf(u.y - v.y, dy, (u.x - v.x) * dx));
		if (vn >= 0.0f)
			continue; // touching but separating already
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
#endif
