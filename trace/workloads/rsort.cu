// rsort.cu - least-significant-digit radix sort of 32-bit keys with a value
// each (stable), as the Maven study's rsort (Lee et al., ACM TOCS 2013,
// section 4.4): per-thread histograms, then a reduction and scan, and
// atomics. One pass per 4-bit digit (8 passes), three launches per pass:
//
// rsort_hist: thread t owns the RSORT_KEYS_PER_THREAD consecutive keys from
//   t * RSORT_KEYS_PER_THREAD and counts their digits in its own column of a
//   shared-memory histogram; it writes its counts bucket-major to global
//   memory (hist[d * nthreads + t]) and adds them to the CTA's bucket totals
//   with shared-memory atomics; then one thread per bucket adds the CTA's
//   total to the global totals with a global atomic.
// rsort_scan: one CTA per bucket turns that bucket's row of counts into
//   output positions: the bucket's base (the sum of the totals of the smaller
//   buckets) plus an exclusive scan of the row (each thread sums a segment,
//   a shared-memory scan of the segment sums, then each thread writes its
//   segment's positions). The host sizes the CTA to the row: a power of two
//   from 32 to RSORT_SCAN_MAX threads, about one per 32 counts.
// rsort_scatter: thread t walks its keys again in order and moves each to
//   the next position of its digit's bucket (kept in shared memory), so
//   equal digits keep their order.
//
// rsort.c includes this file for the constants below; without __CUDACC__ it
// is only these defines.
#define RSORT_DIGIT_BITS 4
#define RSORT_BUCKETS (1 << RSORT_DIGIT_BITS)
#define RSORT_KEYS_PER_THREAD 16
#define RSORT_CTA 128       // threads per CTA of rsort_hist and rsort_scatter
#define RSORT_SCAN_MAX 256  // most threads per CTA of rsort_scan (one CTA per bucket)

#ifdef __CUDACC__
extern "C" __global__ void rsort_hist(const unsigned int *__restrict__ keys,
				      unsigned int *__restrict__ hist,
				      unsigned int *__restrict__ totals, int n, int shift,
				      int nthreads)
{
	__shared__ unsigned int h[RSORT_BUCKETS][RSORT_CTA];
	__shared__ unsigned int cta_total[RSORT_BUCKETS];
	int tid = threadIdx.x, t = blockIdx.x * RSORT_CTA + tid;
	for (int d = 0; d < RSORT_BUCKETS; d++)
		h[d][tid] = 0;
	if (tid < RSORT_BUCKETS)
		cta_total[tid] = 0;
	__syncthreads();
	int begin = t * RSORT_KEYS_PER_THREAD, end = min(begin + RSORT_KEYS_PER_THREAD, n);
	for (int i = begin; i < end; i++)
		h[(keys[i] >> shift) & (RSORT_BUCKETS - 1)][tid]++;
	if (t < nthreads) {
		for (int d = 0; d < RSORT_BUCKETS; d++) {
			unsigned int c = h[d][tid];
			hist[d * nthreads + t] = c;
			if (c)
				atomicAdd(&cta_total[d], c);
		}
	}
	__syncthreads();
	if (tid < RSORT_BUCKETS)
		atomicAdd(&totals[tid], cta_total[tid]);
}

extern "C" __global__ void rsort_scan(unsigned int *__restrict__ hist,
				      const unsigned int *__restrict__ totals, int nthreads)
{
	__shared__ unsigned int sums[RSORT_SCAN_MAX];
	int d = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
	unsigned int base = 0;
	for (int e = 0; e < d; e++)
		base += totals[e];
	unsigned int *row = hist + (size_t)d * nthreads;
	int seg = (nthreads + nt - 1) / nt;
	int begin = tid * seg, end = min(begin + seg, nthreads);
	unsigned int sum = 0;
	for (int i = begin; i < end; i++)
		sum += row[i];
	sums[tid] = sum;
	__syncthreads();
	// inclusive scan of the segment sums (Hillis and Steele)
	for (int off = 1; off < nt; off <<= 1) {
		unsigned int add = tid >= off ? sums[tid - off] : 0;
		__syncthreads();
		sums[tid] += add;
		__syncthreads();
	}
	unsigned int pos = base + sums[tid] - sum;
	for (int i = begin; i < end; i++) {
		unsigned int c = row[i];
		row[i] = pos;
		pos += c;
	}
}

extern "C" __global__ void rsort_scatter(const unsigned int *__restrict__ keys_in,
					 const unsigned int *__restrict__ vals_in,
					 unsigned int *__restrict__ keys_out,
					 unsigned int *__restrict__ vals_out,
					 const unsigned int *__restrict__ pos, int n, int shift,
					 int nthreads)
{
	__shared__ unsigned int next[RSORT_BUCKETS][RSORT_CTA];
	int tid = threadIdx.x, t = blockIdx.x * RSORT_CTA + tid;
	if (t >= nthreads)
		return;
	for (int d = 0; d < RSORT_BUCKETS; d++)
		next[d][tid] = pos[d * nthreads + t];
	int begin = t * RSORT_KEYS_PER_THREAD, end = min(begin + RSORT_KEYS_PER_THREAD, n);
	for (int i = begin; i < end; i++) {
		unsigned int k = keys_in[i];
		unsigned int p = next[(k >> shift) & (RSORT_BUCKETS - 1)][tid]++;
		keys_out[p] = k;
		vals_out[p] = vals_in[i];
	}
}
#endif
