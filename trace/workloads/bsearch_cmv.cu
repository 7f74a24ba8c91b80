// bsearch_cmv.cu - bsearch.cu's lookups with the search loop's if/else
// written as conditional moves (selects), as in the Maven study's
// bsearch-cmv (Lee et al., ACM TOCS 2013, section 4.4). The loop body has no
// branch: every iteration moves lo and hi with selects, and a hit moves both
// past mid so the loop ends; only the loop's exit (its data-dependent trip
// count) still diverges. The value is loaded once, after the loop.
extern "C" __global__ void bsearch_cmv(const int *__restrict__ keys, const int *__restrict__ vals,
				       const int *__restrict__ queries, int *__restrict__ out,
				       int n, int nq)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nq)
		return;
	int q = queries[i];
	int lo = 0, hi = n - 1, found = -1;
	while (lo <= hi) {
		int mid = lo + ((hi - lo) >> 1);
		int k = keys[mid];
		found = k == q ? mid : found;
		lo = k <= q ? mid + 1 : lo;
		hi = k >= q ? mid - 1 : hi;
	}
	out[i] = found >= 0 ? vals[found] : -1;
}
