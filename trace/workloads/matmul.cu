// matmul.cu - C = A * B with 16x16 shared-memory tiles (the textbook tiled
// kernel, as in the CUDA programming guide's shared-memory example; written
// here). Row-major A (m x k), B (k x n), C (m x n); each thread computes one
// element of C, the block stages one tile of A and one of B per step.
// Dimensions need not be multiples of the tile: out-of-range tile elements
// are loaded as zero.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float *__restrict__ A,
					const float *__restrict__ B, float *__restrict__ C,
					int m, int n, int k)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty;
	int col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (int t = 0; t < k; t += TILE) {
		As[ty][tx] = (row < m && t + tx < k) ? A[row * k + t + tx] : 0.0f;
		Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * n + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int j = 0; j < TILE; j++)
			acc += As[ty][j] * Bs[j][tx];
		__syncthreads();
	}
	if (row < m && col < n)
		C[row * n + col] = acc;
}
