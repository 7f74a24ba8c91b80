// bfs.cu - breadth-first search as a CUDA program in the Rodinia style: the
// host builds a graph in CSR form, copies it to the device, and launches
// bfs_expand and bfs_update once per level until no node was added (a flag
// read back each level), then checks every node's level against a queue
// on the CPU. The kernels are trace/workloads/bfs.cu itself and the graph
// is the one trace/workloads/bfs.c makes, so the launches and their
// instruction counts equal `weft-trace run bfs --size SIZE`
// (tests/cuda/run.sh compares them).
//
//   bfs [small|default|large]
#include <cuda_runtime.h>
#include <cstring>

#include "../../trace/workloads/bfs.cu"
#include "check.h"
#include "rng.h"

int main(int argc, char **argv)
{
	const char *size = argc > 1 ? argv[1] : "default";
	int n = !strcmp(size, "small") ? 300 : !strcmp(size, "large") ? 1500000 : 20000;
	int *row = (int *)malloc((n + 1) * sizeof(int));
	rng r = { 0x62667321u }; /* "bfs!", as bfs.c */
	row[0] = 0;
	for (int v = 0; v < n; v++)
		row[v + 1] = row[v] + 2 + (int)rng_below(&r, 9);
	int m = row[n];
	int *edges = (int *)malloc(m * sizeof(int));
	for (int e = 0; e < m; e++)
		edges[e] = (int)rng_below(&r, (uint32_t)n);

	int *d_row, *d_edges, *d_cost, *d_changed;
	unsigned char *d_front, *d_next, *d_vis;
	CHECK(cudaMalloc((void **)&d_row, (n + 1) * sizeof(int)));
	CHECK(cudaMalloc((void **)&d_edges, m * sizeof(int)));
	CHECK(cudaMalloc((void **)&d_front, n));
	CHECK(cudaMalloc((void **)&d_next, n));
	CHECK(cudaMalloc((void **)&d_vis, n));
	CHECK(cudaMalloc((void **)&d_cost, n * sizeof(int)));
	CHECK(cudaMalloc((void **)&d_changed, sizeof(int)));
	CHECK(cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_edges, edges, m * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_front, 0, n));
	CHECK(cudaMemset(d_next, 0, n));
	CHECK(cudaMemset(d_vis, 0, n));
	CHECK(cudaMemset(d_cost, 0xff, n * sizeof(int)));
	const unsigned char one = 1;
	const int zero = 0;
	CHECK(cudaMemcpy(d_cost, &zero, sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_front, &one, 1, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_vis, &one, 1, cudaMemcpyHostToDevice));

	dim3 grid((n + 255) / 256), block(256);
	int changed, levels = 0;
	do {
		CHECK(cudaMemcpy(d_changed, &zero, sizeof(int), cudaMemcpyHostToDevice));
		bfs_expand<<<grid, block>>>(d_row, d_edges, d_front, d_next, d_vis, d_cost, n);
		bfs_update<<<grid, block>>>(d_front, d_next, d_vis, d_changed, n);
		CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
		levels++;
	} while (changed && levels <= n);

	int *cost = (int *)malloc(n * sizeof(int)), *ref = (int *)malloc(n * sizeof(int));
	int *queue = (int *)malloc(n * sizeof(int)), head = 0, tail = 0;
	CHECK(cudaMemcpy(cost, d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
	memset(ref, 0xff, n * sizeof(int));
	ref[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int v = queue[head++];
		for (int e = row[v]; e < row[v + 1]; e++)
			if (ref[edges[e]] < 0) {
				ref[edges[e]] = ref[v] + 1;
				queue[tail++] = edges[e];
			}
	}
	int bad = 0, reached = 0;
	for (int v = 0; v < n; v++) {
		bad += cost[v] != ref[v];
		reached += cost[v] >= 0;
	}
	printf("bfs %s: %d nodes, %d edges, %d levels (%d launches), %d reached, %d wrong\n", size, n, m, levels,
	       2 * levels, reached, bad);
	printf("%s\n", bad ? "FAIL" : "PASS");
	CHECK(cudaFree(d_row));
	CHECK(cudaFree(d_edges));
	CHECK(cudaFree(d_front));
	CHECK(cudaFree(d_next));
	CHECK(cudaFree(d_vis));
	CHECK(cudaFree(d_cost));
	CHECK(cudaFree(d_changed));
	free(row);
	free(edges);
	free(cost);
	free(ref);
	free(queue);
	return bad != 0;
}
