// negshared.cu - shared-memory addresses that go below zero on the way:
// p = s + shift + t with shift = -64 is "negative" for t < 64 in PTX's
// 32-bit shared addressing, and p[64] adds the 256 bytes back in the
// instruction's offset (`ld.shared.f32 [%r8+256]`), so the address is right
// only modulo 2^32, as on the GPU. Expected to fail until weft's emulator
// wraps 32-bit shared addresses (tests/cuda/run.sh checks the message).
#include <cuda_runtime.h>

#include "check.h"

__global__ void shifted(float *out, int shift)
{
	extern __shared__ float s[];
	int t = threadIdx.x;
	s[t] = (float)t;
	__syncthreads();
	const float *p = s + shift + t; // below s[0] when shift + t < 0
	if (t < 127)
		out[t] = p[64] + 2.0f * p[65];
}

int main(void)
{
	const int n = 128;
	float *d, h[n];
	CHECK(cudaMalloc((void **)&d, sizeof(h)));
	shifted<<<1, n, n * sizeof(float)>>>(d, -64);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int t = 0; t < n - 1; t++)
		bad += h[t] != (float)t + 2.0f * (float)(t + 1);
	printf("shifted: %d of %d wrong, h[3] = %g\n", bad, n - 1, h[3]);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
