// cfd.cu - the step-factor kernel of an Euler flow solver (after Rodinia cfd
// compute_step_factor): per cell, from density, momentum and energy (stored
// structure-of-arrays, one plane per variable) compute velocity, pressure and
// the speed of sound, then the local time step
//     step = 0.5 / (sqrt(area) * (|v| + c)).
// Six loads and one store per cell around three square roots and two
// divisions: memory bound.
#define GAMMA 1.4f

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
