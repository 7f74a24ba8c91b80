// matmatmult.cu - C = A * B written as a shader is (written here, after the
// matmatmult kernel of Kingyens & Steffan, "The Potential for a GPU-Like
// Overlay Architecture for FPGAs", IJRC 2011): one thread per element of C,
// which reads row `row` of A and column `col` of B straight from global
// memory and keeps one running sum. No shared memory, no barriers, no
// cooperation between threads: every thread is independent, as the study's
// shader-style kernels are. Row-major A (m x k), B (k x n), C (m x n); a
// 2-D grid of 16x16 blocks, threads past the edge of C return at once.
extern "C" __global__ void matmatmult(const float *__restrict__ A, const float *__restrict__ B,
				      float *__restrict__ C, int m, int n, int k)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= m || col >= n)
		return;
	const float *a = A + (size_t)row * k;  // row `row` of A
	const float *b = B + col;              // column `col` of B, stride n
	float acc = 0.0f;
	for (int i = 0; i < k; i++)
		acc += a[i] * b[(size_t)i * n];
	C[(size_t)row * n + col] = acc;
}
