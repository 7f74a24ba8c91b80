// sgemm_shader.cu - C = alpha * A * B + beta * C written as a shader is
// (written here, after the sgemm kernel of Kingyens & Steffan, "The
// Potential for a GPU-Like Overlay Architecture for FPGAs", IJRC 2011): one
// thread per element of C, which reads row `row` of A and column `col` of B
// from global memory, then reads its own element of C and writes the
// result back. No shared memory, no barriers (the bundled `sgemm` is the
// register- and shared-memory-tiled kernel a CUDA programmer would tune for
// a GPU instead). Row-major A (m x k), B (k x n), C (m x n); a 2-D grid of
// 16x16 blocks, threads past the edge of C return at once.
extern "C" __global__ void sgemm_shader(const float *__restrict__ A, const float *__restrict__ B,
					float *__restrict__ C, int m, int n, int k, float alpha,
					float beta)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= m || col >= n)
		return;
	const float *a = A + (size_t)row * k;
	const float *b = B + col;
	float acc = 0.0f;
	for (int i = 0; i < k; i++)
		acc += a[i] * b[(size_t)i * n];
	size_t idx = (size_t)row * n + col;
	C[idx] = alpha * acc + beta * C[idx];
}
