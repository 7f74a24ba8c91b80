// threads.cu - four host threads, each with its own buffers, launching
// and copying at the same time: weft serialises the calls (one lock), and
// each thread keeps its own last error.
#include <cuda_runtime.h>
#include <pthread.h>

#include "check.h"

#define N 4096

__global__ void fill(int *x, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		x[i] = v * N + i;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	int *d, h[N];
	CHECK(cudaMalloc((void **)&d, sizeof(h)));
	long bad = 0;
	for (int round = 0; round < 5; round++) {
		fill<<<N / 256, 256>>>(d, (int)id * 10 + round);
		CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
		for (int i = 0; i < N; i++)
			bad += h[i] != ((int)id * 10 + round) * N + i;
	}
	if (id == 2) /* an error in this thread only */
		fill<<<1, 4096>>>(d, 0);
	cudaError_t e = cudaGetLastError();
	if ((id == 2) != (e == cudaErrorInvalidConfiguration))
		bad++;
	CHECK(cudaFree(d));
	return (void *)bad;
}

int main(void)
{
	pthread_t t[4];
	for (long k = 0; k < 4; k++)
		if (pthread_create(&t[k], NULL, worker, (void *)k)) {
			printf("FAIL pthread_create\n");
			return 1;
		}
	long bad = 0;
	for (int k = 0; k < 4; k++) {
		void *r;
		pthread_join(t[k], &r);
		bad += (long)r;
	}
	printf("4 threads x 5 launches: %ld wrong\n", bad);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
