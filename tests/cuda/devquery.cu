// devquery.cu - what a program learns about the device: the count, the
// properties and attributes of weft's virtual device (docs/cuda-programs.md),
// versions, memory (run with --max-device-mem 1G for fixed figures), limits,
// flags and cache settings read back, and a kernel's attributes.
#include <cuda_runtime.h>

#include "check.h"

__global__ void uses_shared(float *out)
{
	__shared__ float buf[128];
	buf[threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = buf[127 - threadIdx.x];
}

int main(void)
{
	int count, dev, v;
	CHECK(cudaGetDeviceCount(&count));
	CHECK(cudaGetDevice(&dev));
	CHECK(cudaSetDevice(0));
	printf("devices %d, current %d\n", count, dev);
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	printf("name %s\n", p.name);
	printf("compute capability %d.%d, %d multiprocessor(s), warp size %d\n", p.major, p.minor,
	       p.multiProcessorCount, p.warpSize);
	printf("global memory %zu, constant memory %zu\n", p.totalGlobalMem, p.totalConstMem);
	printf("shared memory per block %zu (opt-in %zu), per multiprocessor %zu\n", p.sharedMemPerBlock,
	       p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
	printf("registers per block %d, per multiprocessor %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
	printf("threads per block %d, block %d x %d x %d, grid %d x %d x %d\n", p.maxThreadsPerBlock,
	       p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1],
	       p.maxGridSize[2]);
	printf("threads per multiprocessor %d, blocks per multiprocessor %d, unified addressing %d\n",
	       p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor, p.unifiedAddressing);
	CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
	printf("clock rate %d kHz", v);
	CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
	printf(", attribute major %d", v);
	CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0));
	printf(", L2 %d\n", v);
	int rt, drv;
	CHECK(cudaRuntimeGetVersion(&rt));
	CHECK(cudaDriverGetVersion(&drv));
	printf("runtime %d, driver %d\n", rt, drv);
	size_t free_b, total_b;
	CHECK(cudaMemGetInfo(&free_b, &total_b));
	float *d;
	CHECK(cudaMalloc((void **)&d, 1 << 20));
	size_t free_a;
	CHECK(cudaMemGetInfo(&free_a, &total_b));
	printf("memory total %zu, a 1 MiB allocation takes %zu\n", total_b, free_b - free_a);
	size_t lim;
	CHECK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
	printf("stack limit %zu", lim);
	CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24));
	CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
	printf(", heap limit set to %zu\n", lim);
	CHECK(cudaSetDeviceFlags(cudaDeviceScheduleYield));
	unsigned flags;
	CHECK(cudaGetDeviceFlags(&flags));
	CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
	cudaFuncCache cc;
	CHECK(cudaDeviceGetCacheConfig(&cc));
	printf("flags %u, cache config %d\n", flags, (int)cc);
	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, uses_shared));
	printf("uses_shared: %zu bytes of static shared memory, at most %d threads per block\n",
	       fa.sharedSizeBytes, fa.maxThreadsPerBlock);
	int blocks;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, uses_shared, 128, 0));
	printf("blocks of 128 threads per multiprocessor %d\n", blocks);
	uses_shared<<<1, 128>>>(d);
	float h[128];
	CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	printf("h[0] = %g\n", h[0]);
	CHECK(cudaFree(d));
	CHECK(cudaDeviceReset());
	// after a reset the device is fresh: a new allocation and launch work
	CHECK(cudaMalloc((void **)&d, 128 * sizeof(float)));
	uses_shared<<<1, 128>>>(d);
	CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	printf("after cudaDeviceReset h[1] = %g\n", h[1]);
	printf("PASS\n");
	return 0;
}
