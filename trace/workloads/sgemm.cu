// sgemm.cu - C = alpha * A * B + beta * C, register-tiled (written here, in
// the style of Volkov & Demmel's and MAGMA's blocked SGEMM): a 16x16 block
// computes a 64x64 tile of C, each thread a 4x4 micro-tile held in registers
// (rows ty + 16*i, columns tx + 16*j, so shared-memory reads are
// conflict-free). Per step the block stages a 64x16 slab of A and a 16x64
// slab of B in shared memory. Row-major; m and n must be multiples of 64 and
// k a multiple of 16 (the host driver picks such sizes).
#define BM 64
#define BN 64
#define BK 16

extern "C" __global__ void sgemm_rt(const float *__restrict__ A, const float *__restrict__ B,
				    float *__restrict__ C, int m, int n, int k, float alpha,
				    float beta)
{
	__shared__ float As[BK][BM]; // transposed: As[kk][row]
	__shared__ float Bs[BK][BN];
	int tx = threadIdx.x, ty = threadIdx.y;
	int tid = ty * 16 + tx;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	float acc[4][4];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 4; j++)
			acc[i][j] = 0.0f;
	(void)m;
	for (int t = 0; t < k; t += BK) {
		// 256 threads load 64x16 of A and 16x64 of B: 4 elements each.
#pragma unroll
		for (int r = 0; r < 4; r++) {
			int e = tid + r * 256;
			int ar = e / BK, ac = e % BK;   // A slab: 64 rows x 16 cols
			As[ac][ar] = A[(row0 + ar) * k + t + ac];
			int br = e / BN, bc = e % BN;   // B slab: 16 rows x 64 cols
			Bs[br][bc] = B[(t + br) * n + col0 + bc];
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float a[4], b[4];
#pragma unroll
			for (int i = 0; i < 4; i++)
				a[i] = As[kk][ty + 16 * i];
#pragma unroll
			for (int j = 0; j < 4; j++)
				b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
			for (int i = 0; i < 4; i++)
#pragma unroll
				for (int j = 0; j < 4; j++)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 4; j++) {
			int idx = (row0 + ty + 16 * i) * n + col0 + tx + 16 * j;
			C[idx] = alpha * acc[i][j] + beta * C[idx];
		}
}
