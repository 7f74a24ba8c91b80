// bsearch.cu - one binary search per thread: look queries[i] up among n
// sorted keys and return its value, or -1 when absent. The while loop's trip
// count and the loads' addresses depend on the data, so warps diverge.
// (The kernel is bsearch_lookup: "bsearch" would clash with the C library.)
extern "C" __global__ void bsearch_lookup(const int *__restrict__ keys, const int *__restrict__ vals,
					  const int *__restrict__ queries, int *__restrict__ out,
					  int n, int nq)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nq)
		return;
	int q = queries[i];
	int lo = 0, hi = n - 1, r = -1;
	while (lo <= hi) {
		int mid = lo + ((hi - lo) >> 1);
		int k = keys[mid];
		if (k == q) {
			r = vals[mid];
			break;
		}
		if (k < q)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	out[i] = r;
}
