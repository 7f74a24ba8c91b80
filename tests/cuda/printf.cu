// printf.cu - device-side printf: integer, floating-point, character and
// string conversions with flags, widths, precisions and length modifiers,
// a printf only some threads reach, printf's result, and the order of the
// output (each launch's text after the host's earlier output, in CTA,
// warp and lane order). tests/cuda/run.sh runs it through weft's runtime
// (trace/emu/emu_printf.c, trace/cudart/rt_launch.c) and compares its
// output with expected/printf.out.
#include <cuda_runtime.h>

#include "check.h"

__global__ void formats(int *ret, const char *word)
{
	long long big = -1234567890123LL;
	unsigned long ul = 0xfedcba9876543210UL;
	float f = 3.25f;
	double d = -0.000123456;
	ret[0] = printf("ints: %d %i %u %x %X %o|%5d|%-5d|%05d|%+d\n", -42, 7, 4000000000u, 255, 255, 8, 12, 12,
			12, 12);
	ret[1] = printf("longs: %lld %lu %lx %hd %hhu\n", big, ul, ul, (short)-3, (unsigned char)200);
	ret[2] = printf("floats: %f %.2f %e %g %10.3f|%-8.1f|\n", f, f, d, d, 1.5, -2.25);
	ret[3] = printf("chars: %c%c%c strings: [%s] [%8s] [%-8s] [%.3s] 100%% done\n", 'w', 'e', 'f', word,
			"right", "left", word);
	ret[4] = printf("no arguments\n");
}

__global__ void some(int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i % 3 == 0 && i < n)
		printf("block %d thread %d: i = %d\n", blockIdx.x, threadIdx.x, i);
}

int main(void)
{
	int *d_ret, ret[5];
	char *d_word;
	const char word[] = "texture";
	CHECK(cudaMalloc((void **)&d_ret, sizeof(ret)));
	CHECK(cudaMalloc((void **)&d_word, sizeof(word)));
	CHECK(cudaMemcpy(d_word, word, sizeof(word), cudaMemcpyHostToDevice));
	printf("host: before the first launch\n");
	formats<<<1, 1>>>(d_ret, d_word);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(ret, d_ret, sizeof(ret), cudaMemcpyDeviceToHost));
	printf("host: printf returned %d %d %d %d %d\n", ret[0], ret[1], ret[2], ret[3], ret[4]);
	some<<<2, 8>>>(14);
	CHECK(cudaDeviceSynchronize());
	printf("host: done\n");
	return 0;
}
