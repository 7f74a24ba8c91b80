// hotspot.cu - transient thermal simulation of a chip on a 2-D grid (after
// Rodinia's hotspot, written here). Each cell's temperature moves by its
// power input plus heat flow to its four neighbours and to the ambient.
// One launch advances `iters` time steps with a pyramid: a 16x16 block loads
// a tile with an `iters`-cell halo into shared memory and computes a tile
// that shrinks by one cell per side per step, so only the inner
// (16 - 2*iters)^2 cells are written. Cells on the chip edge use themselves
// as the missing neighbour (as Rodinia). Coefficients come from the host.
#define BS 16

struct hs_coef {
	float step_div_cap; // time step / thermal capacitance
	float rx_1, ry_1, rz_1; // 1 / thermal resistances
	float amb_temp;
};

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

extern "C" __global__ void hotspot_step(int iters, const float *__restrict__ power,
					const float *__restrict__ temp_in,
					float *__restrict__ temp_out, int cols, int rows,
					int border_cols, int border_rows, struct hs_coef k)
{
	__shared__ float t_s[BS][BS];
	__shared__ float p_s[BS][BS];
	__shared__ float t_new[BS][BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int small_x = BS - 2 * iters, small_y = BS - 2 * iters;
	int blk_y = small_y * blockIdx.y - border_rows;
	int blk_x = small_x * blockIdx.x - border_cols;
	int y = blk_y + ty, x = blk_x + tx;
	int idx = y * cols + x;
	if (IN_RANGE(y, 0, rows - 1) && IN_RANGE(x, 0, cols - 1)) {
		t_s[ty][tx] = temp_in[idx];
		p_s[ty][tx] = power[idx];
	}
	__syncthreads();

	// The part of this tile inside the chip.
	int valid_ymin = blk_y < 0 ? -blk_y : 0;
	int valid_ymax = blk_y + BS - 1 > rows - 1 ? BS - 1 - (blk_y + BS - rows) : BS - 1;
	int valid_xmin = blk_x < 0 ? -blk_x : 0;
	int valid_xmax = blk_x + BS - 1 > cols - 1 ? BS - 1 - (blk_x + BS - cols) : BS - 1;
	int n = ty - 1 < valid_ymin ? valid_ymin : ty - 1;
	int s = ty + 1 > valid_ymax ? valid_ymax : ty + 1;
	int w = tx - 1 < valid_xmin ? valid_xmin : tx - 1;
	int e = tx + 1 > valid_xmax ? valid_xmax : tx + 1;

	bool computed = false;
	for (int i = 0; i < iters; i++) {
		computed = false;
		if (IN_RANGE(tx, i + 1, BS - i - 2) && IN_RANGE(ty, i + 1, BS - i - 2) &&
		    IN_RANGE(tx, valid_xmin, valid_xmax) && IN_RANGE(ty, valid_ymin, valid_ymax)) {
			computed = true;
			float c = t_s[ty][tx];
			t_new[ty][tx] = c + k.step_div_cap *
				(p_s[ty][tx] + (t_s[s][tx] + t_s[n][tx] - 2.0f * c) * k.ry_1 +
				 (t_s[ty][e] + t_s[ty][w] - 2.0f * c) * k.rx_1 +
				 (k.amb_temp - c) * k.rz_1);
		}
		__syncthreads();
		if (i == iters - 1)
			break;
		if (computed)
			t_s[ty][tx] = t_new[ty][tx];
		__syncthreads();
	}
	if (computed)
		temp_out[idx] = t_new[ty][tx];
}
