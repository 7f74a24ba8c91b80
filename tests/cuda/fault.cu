// fault.cu - a kernel that faults: an out-of-bounds store ("oob"), or a
// loop that never ends and runs out of its instruction budget ("spin", run
// with --max-launch-insts). As on a GPU the error is sticky: the launch,
// the synchronisation and later copies all report it. weft prints where
// the kernel went wrong and writes no trace (tests/cuda/run.sh).
#include <cuda_runtime.h>
#include <cstring>

#include "check.h"

__global__ void oob(int *x, int n)
{
	x[threadIdx.x * 2] = n; // past the end for the upper half
}

__global__ void spin(volatile int *flag)
{
	while (*flag == 0)
		;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "oob";
	int *d, h = 0;
	CHECK(cudaMalloc((void **)&d, 64 * sizeof(int)));
	CHECK(cudaMemset(d, 0, 64 * sizeof(int)));
	if (!strcmp(what, "spin"))
		spin<<<1, 32>>>(d);
	else
		oob<<<1, 64>>>(d, 64);
	cudaError_t e = cudaDeviceSynchronize();
	printf("synchronize -> %s\n", cudaGetErrorName(e));
	e = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
	printf("a later copy -> %s\n", cudaGetErrorName(e));
	printf("last error -> %s\n", cudaGetErrorName(cudaGetLastError()));
	return e == cudaSuccess;
}
