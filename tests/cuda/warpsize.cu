// warpsize.cu - device code that reads warpSize (PTX's WARP_SZ) to find its
// lane and warp, and host code that reads it from the properties.
// Expected to fail until weft's emulator knows WARP_SZ (tests/cuda/run.sh
// checks the message).
#include <cuda_runtime.h>

#include "check.h"

__global__ void lanes(int *lane, int *warp)
{
	int t = threadIdx.x;
	lane[t] = t % warpSize;
	warp[t] = t / warpSize;
}

int main(void)
{
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	const int n = 200;
	int *d_l, *d_w, l[n], w[n];
	CHECK(cudaMalloc((void **)&d_l, sizeof(l)));
	CHECK(cudaMalloc((void **)&d_w, sizeof(w)));
	lanes<<<1, n>>>(d_l, d_w);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(l, d_l, sizeof(l), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(w, d_w, sizeof(w), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += l[i] != i % p.warpSize || w[i] != i / p.warpSize;
	printf("warp size %d: %d of %d wrong, thread 77 is lane %d of warp %d\n", p.warpSize, bad, n, l[77], w[77]);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
