// twounits_b.cu - the second translation unit of twounits_a.cu: its own
// kernel and a __constant__ set from the host.
#include <cuda_runtime.h>

#include "check.h"

__constant__ int base_b;

__global__ void add_b(int *x)
{
	x[threadIdx.x] += 2 * (base_b + threadIdx.x);
}

void run_b(int *d)
{
	int b = 1000;
	CHECK(cudaMemcpyToSymbol(base_b, &b, sizeof(b)));
	add_b<<<1, 64>>>(d);
	CHECK(cudaGetLastError());
}
