// pathfinder.cu - row-by-row dynamic programming over a grid of wall costs
// (after Rodinia's pathfinder, written here): the cheapest path from the top
// row to each cell of row r is wall[r][x] + min of the three cells above
// (x-1, x, x+1). One launch advances `iters` rows with a pyramid: a block of
// 256 threads loads 256 columns of the previous row into shared memory and
// each step computes a range that shrinks by one column per side, so only
// the inner 256 - 2*iters columns are written. Integers: exact.
#define PF_THREADS 256
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

extern "C" __global__ void pathfinder_step(int iters, const int *__restrict__ wall,
					   const int *__restrict__ src, int *__restrict__ dst,
					   int cols, int start_row, int border)
{
	__shared__ int prev[PF_THREADS];
	__shared__ int result[PF_THREADS];
	int tx = threadIdx.x;
	int small_cols = PF_THREADS - 2 * iters;
	int blk_x = small_cols * blockIdx.x - border;
	int blk_xmax = blk_x + PF_THREADS - 1;
	int x = blk_x + tx;
	int valid_xmin = blk_x < 0 ? -blk_x : 0;
	int valid_xmax = blk_xmax > cols - 1 ? PF_THREADS - 1 - (blk_xmax - cols + 1) : PF_THREADS - 1;
	int w = tx - 1 < valid_xmin ? valid_xmin : tx - 1;
	int e = tx + 1 > valid_xmax ? valid_xmax : tx + 1;
	bool valid = IN_RANGE(tx, valid_xmin, valid_xmax);

	if (IN_RANGE(x, 0, cols - 1))
		prev[tx] = src[x];
	__syncthreads();
	bool computed = false;
	for (int i = 0; i < iters; i++) {
		computed = false;
		if (IN_RANGE(tx, i + 1, PF_THREADS - i - 2) && valid) {
			computed = true;
			int best = min(min(prev[w], prev[tx]), prev[e]);
			result[tx] = best + wall[(start_row + i) * cols + x];
		}
		__syncthreads();
		if (i == iters - 1)
			break;
		if (computed)
			prev[tx] = result[tx];
		__syncthreads();
	}
	if (computed)
		dst[x] = result[tx];
}
