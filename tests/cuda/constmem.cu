// constmem.cu - __constant__ and __device__ variables: an initialised
// table, copies to and from them (with an offset, and device to device),
// their addresses and sizes, and kernels that read constants and count in
// a device variable with atomics.
#include <cuda_runtime.h>

#include <cmath>

#include "check.h"

__constant__ float coeff[8];
__constant__ int offsets[4] = { 1, 2, 3, 4 };
__device__ unsigned counter;
__device__ float table[16];

__global__ void poly(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = 0.0f;
	for (int k = 7; k >= 0; k--)
		v = fmaf(v, x[i], coeff[k]);
	y[i] = v + (float)offsets[i % 4];
	atomicAdd(&counter, 1u);
}

__global__ void fill_table(void)
{
	int i = threadIdx.x;
	if (i < 16)
		table[i] = coeff[i % 8] * 10.0f;
}

int main(void)
{
	const int n = 300;
	float c[8] = { 1, 0.5f, 0.25f, 0.125f, 0, 0, 0, 0 };
	float x[n], y[n], *d_x, *d_y;
	for (int i = 0; i < n; i++)
		x[i] = (float)(i % 10) * 0.1f;
	// the first four coefficients, then the rest with an offset
	CHECK(cudaMemcpyToSymbol(coeff, c, 4 * sizeof(float)));
	CHECK(cudaMemcpyToSymbol(coeff, c + 4, 4 * sizeof(float), 4 * sizeof(float)));
	CHECK(cudaMalloc((void **)&d_x, sizeof(x)));
	CHECK(cudaMalloc((void **)&d_y, sizeof(y)));
	CHECK(cudaMemcpy(d_x, x, sizeof(x), cudaMemcpyHostToDevice));
	poly<<<(n + 127) / 128, 128>>>(d_x, d_y, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(y, d_y, sizeof(y), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++) {
		float v = 0.0f;
		for (int k = 7; k >= 0; k--)
			v = fmaf(v, x[i], c[k]); // as the kernel: one rounding
		bad += y[i] != v + (float)(1 + i % 4);
	}
	unsigned cnt;
	CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof(cnt)));
	int offs[4];
	CHECK(cudaMemcpyFromSymbol(offs, offsets, sizeof(offs)));
	printf("poly: %d of %d wrong, counter %u, initialised offsets %d %d %d %d\n", bad, n, cnt, offs[0],
	       offs[1], offs[2], offs[3]);

	fill_table<<<1, 32>>>();
	float *d_table;
	size_t bytes;
	CHECK(cudaGetSymbolAddress((void **)&d_table, table));
	CHECK(cudaGetSymbolSize(&bytes, table));
	float t[16];
	CHECK(cudaMemcpy(t, d_table, bytes, cudaMemcpyDeviceToHost));
	printf("table: %zu bytes at a device address, t[1] = %g, t[9] = %g\n", bytes, t[1], t[9]);
	// device memory into a symbol and back out into device memory
	CHECK(cudaMemcpyToSymbol(table, d_y, 16 * sizeof(float), 0, cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpyFromSymbol(d_x, table, 16 * sizeof(float), 0, cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy(t, d_x, sizeof(t), cudaMemcpyDeviceToHost));
	printf("through the symbol: t[3] = %g (y[3] = %g)\n", t[3], y[3]);
	EXPECT_ERROR(cudaMemcpyToSymbol(coeff, c, 9 * sizeof(float)), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMemcpyToSymbol(c, c, sizeof(float)), cudaErrorInvalidSymbol);
	bad += t[3] != y[3];
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
