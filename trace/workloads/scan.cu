// scan.cu - work-efficient exclusive prefix sum of one block's tile in shared
// memory (Blelloch's up-sweep / down-sweep, as in GPU Gems 3 ch. 39; written
// here). Each block of B threads scans 2*B consecutive 32-bit integers, writes
// the exclusive scan of its tile and the tile's total (block sum: what a
// multi-level scan would scan next). Unsigned integers wrap, so results are
// exact in any order.
#define SCAN_THREADS 256
#define SCAN_TILE (2 * SCAN_THREADS)

extern "C" __global__ void scan_block(const unsigned *__restrict__ in,
				      unsigned *__restrict__ out,
				      unsigned *__restrict__ block_sums, int n)
{
	__shared__ unsigned tile[SCAN_TILE];
	int tid = threadIdx.x;
	int base = blockIdx.x * SCAN_TILE;
	int a = base + tid, b = base + tid + SCAN_THREADS;
	tile[tid] = a < n ? in[a] : 0u;
	tile[tid + SCAN_THREADS] = b < n ? in[b] : 0u;

	// Up-sweep: build partial sums in place (a reduction tree).
	int offset = 1;
	for (int d = SCAN_THREADS; d > 0; d >>= 1) {
		__syncthreads();
		if (tid < d) {
			int ai = offset * (2 * tid + 1) - 1;
			int bi = offset * (2 * tid + 2) - 1;
			tile[bi] += tile[ai];
		}
		offset <<= 1;
	}
	if (tid == 0) {
		block_sums[blockIdx.x] = tile[SCAN_TILE - 1];
		tile[SCAN_TILE - 1] = 0u;
	}
	// Down-sweep: push prefixes back down the tree.
	for (int d = 1; d < SCAN_TILE; d <<= 1) {
		offset >>= 1;
		__syncthreads();
		if (tid < d) {
			int ai = offset * (2 * tid + 1) - 1;
			int bi = offset * (2 * tid + 2) - 1;
			unsigned t = tile[ai];
			tile[ai] = tile[bi];
			tile[bi] += t;
		}
	}
	__syncthreads();
	if (a < n)
		out[a] = tile[tid];
	if (b < n)
		out[b] = tile[tid + SCAN_THREADS];
}
