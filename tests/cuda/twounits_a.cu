// twounits_a.cu - a program of two translation units, each with its own
// kernels and __constant__ variable, so two fatbinaries are registered;
// this one has main (twounits_b.cu the other half).
#include <cuda_runtime.h>

#include "check.h"

__constant__ int base_a = 100;

__global__ void add_a(int *x)
{
	x[threadIdx.x] += base_a + threadIdx.x;
}

void run_b(int *d); // twounits_b.cu

int main(void)
{
	int *d, h[64];
	CHECK(cudaMalloc((void **)&d, sizeof(h)));
	CHECK(cudaMemset(d, 0, sizeof(h)));
	add_a<<<1, 64>>>(d);
	run_b(d);
	CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < 64; i++)
		bad += h[i] != 100 + i + 2 * (1000 + i);
	printf("two units: h[5] = %d, %d wrong\n", h[5], bad);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
