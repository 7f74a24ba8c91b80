// hostloop.cu - a host loop of launches until the device says it is done
// (list ranking by pointer jumping: each launch halves the distance every
// node still has to go, and a flag copied back each time says whether any
// node moved), then two streams with events and a host callback, and an
// exit() at the end that frees nothing: the trace must still hold every
// launch.
#include <cuda_runtime.h>

#include "check.h"

#define N 1000

// rank[i] counts the nodes from i to the end of its list; next[i] is -1 at the end
__global__ void jump(const int *next, const int *rank, int *next2, int *rank2, int *moved)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= N)
		return;
	int j = next[i];
	if (j < 0) {
		next2[i] = j;
		rank2[i] = rank[i];
		return;
	}
	next2[i] = next[j];
	rank2[i] = rank[i] + rank[j];
	*moved = 1;
}

__global__ void scale(int *x, int f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		x[i] *= f;
}

static int callbacks;
static void CUDART_CB on_done(void *user)
{
	callbacks += *(int *)user;
}

int main(void)
{
	static int next[N], rank[N];
	int *d_next[2], *d_rank[2], *d_moved, moved, rounds = 0;
	// one list through all nodes in a scrambled order: node i points to (i + 7) mod N
	for (int i = 0; i < N; i++) {
		next[(i * 7) % N] = i == N - 1 ? -1 : ((i + 1) * 7) % N;
		rank[i] = 1;
	}
	rank[(N - 1) * 7 % N] = 0;
	for (int k = 0; k < 2; k++) {
		CHECK(cudaMalloc((void **)&d_next[k], sizeof(next)));
		CHECK(cudaMalloc((void **)&d_rank[k], sizeof(rank)));
	}
	CHECK(cudaMalloc((void **)&d_moved, sizeof(int)));
	CHECK(cudaMemcpy(d_next[0], next, sizeof(next), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_rank[0], rank, sizeof(rank), cudaMemcpyHostToDevice));
	cudaEvent_t start, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	do {
		int a = rounds % 2;
		CHECK(cudaMemset(d_moved, 0, sizeof(int)));
		jump<<<(N + 127) / 128, 128>>>(d_next[a], d_rank[a], d_next[1 - a], d_rank[1 - a], d_moved);
		CHECK(cudaMemcpy(&moved, d_moved, sizeof(int), cudaMemcpyDeviceToHost));
		rounds++;
	} while (moved && rounds < 64);
	CHECK(cudaEventRecord(stop, 0));
	CHECK(cudaEventSynchronize(stop));
	float ms;
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	int *d_r = d_rank[rounds % 2];
	CHECK(cudaMemcpy(rank, d_r, sizeof(rank), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < N; i++) /* the node at list position p has rank N - 1 - p */
		bad += rank[(i * 7) % N] != N - 1 - i;
	printf("%d launches until no node moved, %d ranks wrong, elapsed time %s\n", rounds, bad,
	       ms > 0 ? "positive" : "not positive");

	// two streams: serial in weft, but the program cannot tell
	cudaStream_t s[2];
	int one = 1;
	for (int k = 0; k < 2; k++) {
		CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
		scale<<<(N + 127) / 128, 128, 0, s[k]>>>(d_r, 2);
		CHECK(cudaLaunchHostFunc(s[k], on_done, &one));
	}
	for (int k = 0; k < 2; k++) {
		CHECK(cudaStreamSynchronize(s[k]));
		CHECK(cudaStreamQuery(s[k]));
	}
	CHECK(cudaMemcpyAsync(rank, d_r, sizeof(rank), cudaMemcpyDeviceToHost, s[1]));
	CHECK(cudaStreamSynchronize(s[1]));
	printf("after two scale launches the head's rank is %d, %d host callbacks\n", rank[0], callbacks);
	printf("%s\n", bad ? "FAIL" : "PASS");
	// no cudaFree, no cudaStreamDestroy: exit() must still leave a complete trace
	exit(bad != 0);
}
