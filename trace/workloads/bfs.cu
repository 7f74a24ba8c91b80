// bfs.cu - level-synchronous breadth-first search over a graph in CSR form
// (after Rodinia bfs). Per level the host launches bfs_expand, where every
// frontier node marks its unvisited neighbours for the next level and sets
// their cost, then bfs_update, which turns the marks into the new frontier
// and raises a flag the host reads back; the host stops when no node was
// marked. Every node of one level writes the same cost into a neighbour, so
// the result does not depend on the order of threads.
extern "C" __global__ void bfs_expand(const int *__restrict__ row_start, const int *__restrict__ edges,
				      unsigned char *frontier, unsigned char *next,
				      const unsigned char *visited, int *cost, int n)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || !frontier[v])
		return;
	frontier[v] = 0;
	int c = cost[v] + 1;
	for (int e = row_start[v]; e < row_start[v + 1]; e++) {
		int u = edges[e];
		if (!visited[u]) {
			cost[u] = c;
			next[u] = 1;
		}
	}
}

extern "C" __global__ void bfs_update(unsigned char *frontier, unsigned char *next,
				      unsigned char *visited, int *changed, int n)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || !next[v])
		return;
	frontier[v] = 1;
	visited[v] = 1;
	next[v] = 0;
	*changed = 1;
}
