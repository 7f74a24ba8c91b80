// gaussian.cu - Gaussian elimination without pivoting (after Rodinia
// gaussian): for each pivot t the host launches fan1, which computes the
// multipliers m[i][t] = a[i][t] / a[t][t] for the rows below, then fan2,
// which subtracts m[i][t] * row t from every row below (and from b).
// Matrices are n x n, row-major.

// One thread per row below the pivot; 512-thread blocks over all n rows
// (Rodinia's MAXBLOCKSIZE), threads past the last row return at once.
extern "C" __global__ void fan1(float *__restrict__ m, const float *__restrict__ a, int n, int t)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n - 1 - t)
		return;
	int i = t + 1 + r;
	m[i * n + t] = a[i * n + t] / a[t * n + t];
}

// 2-D grid of 4 x 4 blocks over the whole n x n matrix, as Rodinia's Fan2
// (BLOCK_SIZE_XY 4): x runs over the rows t+1..n-1, y over the columns
// t..n-1, so consecutive threads of a warp touch consecutive rows (a
// stride of n floats: no coalescing on a GPU); threads outside the active
// trailing submatrix return at once. Column t itself becomes (numerically)
// zero; the thread of column t also updates b.
extern "C" __global__ void fan2(const float *__restrict__ m, float *__restrict__ a,
				float *__restrict__ b, int n, int t)
{
	int rx = blockIdx.x * blockDim.x + threadIdx.x;
	int cy = blockIdx.y * blockDim.y + threadIdx.y;
	if (rx >= n - 1 - t || cy >= n - t)
		return;
	int i = t + 1 + rx, j = t + cy;
	float mul = m[i * n + t];
	a[i * n + j] -= mul * a[t * n + j];
	if (cy == 0)
		b[i] -= mul * b[t];
}
