// convsep.cu - the row pass of a separable convolution (after the CUDA
// samples' convolutionSeparable, written here): a 16x4 block stages 8 result
// tiles of 16 pixels plus a 16-pixel halo on each side of its rows in shared
// memory, then each thread computes 8 outputs with a 17-tap filter held in
// __constant__ memory (set by the host with cudaMemcpyToSymbol). Pixels
// outside the image read as zero. The image width must be a multiple of
// ROWS_X * ROWS_STEPS (128) and its height a multiple of ROWS_Y (4).
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_X 16
#define ROWS_Y 4
#define ROWS_STEPS 8
#define ROWS_HALO 1

__constant__ float c_kernel[KERNEL_LENGTH];

extern "C" __global__ void conv_rows(float *__restrict__ dst, const float *__restrict__ src,
				     int width, int height, int pitch)
{
	__shared__ float s[ROWS_Y][(ROWS_STEPS + 2 * ROWS_HALO) * ROWS_X];
	(void)height;
	int base_x = (blockIdx.x * ROWS_STEPS - ROWS_HALO) * ROWS_X + threadIdx.x;
	int base_y = blockIdx.y * ROWS_Y + threadIdx.y;
	const float *in = src + base_y * pitch;
	float *out = dst + base_y * pitch;
	int ty = threadIdx.y, tx = threadIdx.x;

	// Main tiles (always inside the image), then the halos (zero outside).
#pragma unroll
	for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++)
		s[ty][tx + i * ROWS_X] = in[base_x + i * ROWS_X];
#pragma unroll
	for (int i = 0; i < ROWS_HALO; i++)
		s[ty][tx + i * ROWS_X] = base_x + i * ROWS_X >= 0 ? in[base_x + i * ROWS_X] : 0.0f;
#pragma unroll
	for (int i = ROWS_HALO + ROWS_STEPS; i < ROWS_HALO + ROWS_STEPS + ROWS_HALO; i++)
		s[ty][tx + i * ROWS_X] =
			base_x + i * ROWS_X < width ? in[base_x + i * ROWS_X] : 0.0f;
	__syncthreads();

#pragma unroll
	for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++) {
		float sum = 0.0f;
#pragma unroll
		for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
			sum += c_kernel[KERNEL_RADIUS - j] * s[ty][tx + i * ROWS_X + j];
		out[base_x + i * ROWS_X] = sum;
	}
}
