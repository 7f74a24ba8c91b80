// dynshared.cu - dynamic shared memory (and the attribute that allows more
// than 48 KB), a block reduction with barriers, warp shuffles and votes,
// atomics on global memory, and an occupancy query.
#include <cuda_runtime.h>

#include "check.h"

__global__ void reduce(const int *in, int *out, int n)
{
	extern __shared__ int s[];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	s[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (int w = blockDim.x / 2; w >= 32; w /= 2) {
		if (t < w)
			s[t] += s[t + w];
		__syncthreads();
	}
	if (t < 32) {
		int v = s[t];
		for (int o = 16; o > 0; o /= 2)
			v += __shfl_down_sync(0xffffffffu, v, o);
		if (t == 0)
			atomicAdd(out, v);
	}
}

__global__ void votes(const int *in, unsigned *ballots, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned b = __ballot_sync(0xffffffffu, i < n && in[i] % 3 == 0);
	if (threadIdx.x % 32 == 0 && i < n)
		ballots[i / 32] = b;
}

__global__ void big_shared(int *out)
{
	extern __shared__ int s[];
	const int words = 60 * 1024 / 4;
	for (int k = threadIdx.x; k < words; k += blockDim.x)
		s[k] = k;
	__syncthreads();
	if (threadIdx.x == 0)
		*out = s[words - 1];
}

int main(void)
{
	const int n = 5000, threads = 256;
	int h[n], *d_in, *d_out, sum = 0, got;
	for (int i = 0; i < n; i++) {
		h[i] = (i * 37) % 101;
		sum += h[i];
	}
	CHECK(cudaMalloc((void **)&d_in, sizeof(h)));
	CHECK(cudaMalloc((void **)&d_out, sizeof(int)));
	CHECK(cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_out, 0, sizeof(int)));
	reduce<<<(n + threads - 1) / threads, threads, threads * sizeof(int)>>>(d_in, d_out, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(&got, d_out, sizeof(int), cudaMemcpyDeviceToHost));
	printf("sum %d (expected %d)\n", got, sum);
	int bad = got != sum;

	unsigned *d_b, b[(n + 31) / 32];
	CHECK(cudaMalloc((void **)&d_b, sizeof(b)));
	votes<<<(n + 255) / 256, 256>>>(d_in, d_b, n);
	CHECK(cudaMemcpy(b, d_b, sizeof(b), cudaMemcpyDeviceToHost));
	int pop = 0, want = 0;
	for (unsigned k = 0; k < sizeof(b) / sizeof(b[0]); k++)
		pop += __builtin_popcount(b[k]);
	for (int i = 0; i < n; i++)
		want += h[i] % 3 == 0;
	printf("ballots count %d (expected %d)\n", pop, want);
	bad += pop != want;

	int blocks;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reduce, threads, threads * sizeof(int)));
	printf("blocks of %d threads per multiprocessor %d\n", threads, blocks);

	// 60 KB of dynamic shared memory needs the opt-in attribute on CUDA
	CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 60 * 1024));
	big_shared<<<1, 128, 60 * 1024>>>(d_out);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(&got, d_out, sizeof(int), cudaMemcpyDeviceToHost));
	printf("big shared last word %d\n", got);
	bad += got != 60 * 1024 / 4 - 1;
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
