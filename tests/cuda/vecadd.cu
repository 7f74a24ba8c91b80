// vecadd.cu - the basics: device memory, copies each way (cudaMemcpyDefault
// too), fills, a launch, page-locked host memory, the Async forms on the
// default stream, pointer attributes, and the errors a program can provoke
// and read back (a block too large, a bad copy, freeing a host pointer).
#include <cuda_runtime.h>

#include "check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

int main(void)
{
	const int n = 1000;
	float *a, *b, *c, *d_a, *d_b, *d_c;
	CHECK(cudaMallocHost((void **)&a, n * sizeof(float)));
	CHECK(cudaHostAlloc((void **)&b, n * sizeof(float), cudaHostAllocDefault));
	c = (float *)malloc(n * sizeof(float));
	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * i;
	}
	CHECK(cudaMalloc((void **)&d_a, n * sizeof(float)));
	CHECK(cudaMalloc((void **)&d_b, n * sizeof(float)));
	CHECK(cudaMalloc((void **)&d_c, n * sizeof(float)));
	CHECK(cudaMemcpy(d_a, a, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpyAsync(d_b, b, n * sizeof(float), cudaMemcpyDefault, 0));
	CHECK(cudaMemsetAsync(d_c, 0xff, n * sizeof(float), 0));
	vecadd<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(c, d_c, n * sizeof(float), cudaMemcpyDefault));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += c[i] != 3.0f * i;
	printf("vecadd: %d of %d wrong, c[999] = %g\n", bad, n, c[999]);

	// device to device, then a fill, read back
	CHECK(cudaMemcpy(d_a, d_c, n * sizeof(float), cudaMemcpyDeviceToDevice));
	CHECK(cudaMemset(d_c, 0, n * sizeof(float)));
	CHECK(cudaMemcpy(c, d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
	printf("device to device: c[10] = %g\n", c[10]);
	CHECK(cudaMemcpy(c, d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
	printf("after memset: c[10] = %g\n", c[10]);

	cudaPointerAttributes pa;
	CHECK(cudaPointerGetAttributes(&pa, d_a + 5));
	printf("d_a + 5 is %s memory\n", pa.type == cudaMemoryTypeDevice ? "device" : "other");
	CHECK(cudaPointerGetAttributes(&pa, a));
	printf("a is %s memory\n", pa.type == cudaMemoryTypeHost ? "page-locked host" : "other");

	// errors the program provokes: sticky only for faults, so these clear
	vecadd<<<1, 2048>>>(d_a, d_b, d_c, n);
	EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidConfiguration);
	EXPECT_ERROR(cudaGetLastError(), cudaSuccess);
	EXPECT_ERROR(cudaMemcpy(c, d_c + n, sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaFree(c), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaSetDevice(1), cudaErrorInvalidDevice);
	printf("cudaGetErrorString(cudaErrorInvalidValue) is %s\n",
	       cudaGetErrorString(cudaErrorInvalidValue)[0] ? "a text" : "empty");

	CHECK(cudaFree(d_a));
	CHECK(cudaFree(d_b));
	CHECK(cudaFree(d_c));
	CHECK(cudaFreeHost(a));
	CHECK(cudaFreeHost(b));
	free(c);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
