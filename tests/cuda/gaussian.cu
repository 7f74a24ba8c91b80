// gaussian.cu - Gaussian elimination as a CUDA program in the Rodinia
// style: for each pivot the host launches fan1 (multipliers) and fan2 (row
// updates), then back-substitutes on the CPU and checks the solution
// against elimination on the CPU. The kernels are
// trace/workloads/gaussian.cu itself, with the launch shapes and the
// system trace/workloads/gaussian.c uses, so the launches and their
// instruction counts equal `weft-trace run gaussian --size SIZE`
// (tests/cuda/run.sh compares them).
//
//   gaussian [small|default|large]
#include <cuda_runtime.h>
#include <cmath>
#include <cstring>

#include "../../trace/workloads/gaussian.cu"
#include "check.h"
#include "rng.h"

static void back_substitute(int n, const float *a, const float *b, float *x)
{
	for (int i = n - 1; i >= 0; i--) {
		float sum = b[i];
		for (int j = i + 1; j < n; j++)
			sum -= a[(size_t)i * n + j] * x[j];
		x[i] = sum / a[(size_t)i * n + i];
	}
}

int main(int argc, char **argv)
{
	const char *size = argc > 1 ? argv[1] : "default";
	int n = !strcmp(size, "small") ? 14 : !strcmp(size, "large") ? 400 : 85;
	size_t nn = (size_t)n * n;
	float *a = (float *)malloc(nn * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
	rng r = { 0x67617573u }; /* "gaus", as gaussian.c */
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			a[(size_t)i * n + j] = rng_float(&r, -1.0f, 1.0f);
		a[(size_t)i * n + i] += (float)n;
		b[i] = rng_float(&r, -1.0f, 1.0f);
	}
	float *d_a, *d_b, *d_m;
	CHECK(cudaMalloc((void **)&d_a, nn * sizeof(float)));
	CHECK(cudaMalloc((void **)&d_b, n * sizeof(float)));
	CHECK(cudaMalloc((void **)&d_m, nn * sizeof(float)));
	CHECK(cudaMemcpy(d_a, a, nn * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));
	// Rodinia's shapes: fan1 in 512-thread blocks, fan2 in 4 x 4 blocks
	dim3 g1((n + 511) / 512), b1(512), g2((n + 3) / 4, (n + 3) / 4), b2(4, 4);
	for (int t = 0; t < n - 1; t++) {
		fan1<<<g1, b1>>>(d_m, d_a, n, t);
		fan2<<<g2, b2>>>(d_m, d_a, d_b, n, t);
	}
	CHECK(cudaGetLastError());
	float *ea = (float *)malloc(nn * sizeof(float)), *eb = (float *)malloc(n * sizeof(float));
	float *x = (float *)malloc(n * sizeof(float)), *xr = (float *)malloc(n * sizeof(float));
	CHECK(cudaMemcpy(ea, d_a, nn * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(eb, d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
	back_substitute(n, ea, eb, x);
	// the reference: the same elimination on the CPU
	for (int t = 0; t < n - 1; t++)
		for (int i = t + 1; i < n; i++) {
			float mul = a[(size_t)i * n + t] / a[(size_t)t * n + t];
			for (int j = t; j < n; j++)
				a[(size_t)i * n + j] -= mul * a[(size_t)t * n + j];
			b[i] -= mul * b[t];
		}
	back_substitute(n, a, b, xr);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += !(fabsf(x[i] - xr[i]) <= 1e-6f + 1e-5f * fabsf(xr[i]));
	printf("gaussian %s: n %d, %d launches, x[0] = %.6f, %d of %d wrong\n", size, n, 2 * (n - 1), x[0], bad, n);
	printf("%s\n", bad ? "FAIL" : "PASS");
	CHECK(cudaFree(d_a));
	CHECK(cudaFree(d_b));
	CHECK(cudaFree(d_m));
	free(a);
	free(b);
	free(ea);
	free(eb);
	free(x);
	free(xr);
	return bad != 0;
}
