// reduce.cu - per-block sums of 32-bit integers, two ways (after the CUDA
// samples' "reduction" kernels, written here):
//  reduce_smem: each thread first adds two elements per grid-stride step,
//    then a shared-memory tree halves the active threads down to one warp,
//    which finishes warp-synchronously through volatile shared memory
//    (no barriers: relies on a warp's lanes running in lock-step);
//  reduce_shfl: the same first phase, then __shfl_down_sync within each
//    warp, one shared slot per warp, and a last shuffle round in warp 0.
// Both write one partial sum per block. Integer addition wraps and is
// associative, so the partials are exact whatever the order.
#define RED_THREADS 256

__device__ void warp_reduce(volatile int *s, int tid)
{
	s[tid] += s[tid + 32];
	s[tid] += s[tid + 16];
	s[tid] += s[tid + 8];
	s[tid] += s[tid + 4];
	s[tid] += s[tid + 2];
	s[tid] += s[tid + 1];
}

extern "C" __global__ void reduce_smem(const int *__restrict__ in, int *__restrict__ partial,
				       unsigned n)
{
	__shared__ int s[RED_THREADS];
	unsigned tid = threadIdx.x;
	unsigned i = blockIdx.x * (RED_THREADS * 2) + tid;
	unsigned grid = RED_THREADS * 2 * gridDim.x;
	int sum = 0;
	while (i < n) {
		sum += in[i];
		if (i + RED_THREADS < n)
			sum += in[i + RED_THREADS];
		i += grid;
	}
	s[tid] = sum;
	__syncthreads();
	for (unsigned d = RED_THREADS / 2; d > 32; d >>= 1) {
		if (tid < d)
			s[tid] = sum = sum + s[tid + d];
		__syncthreads();
	}
	if (tid < 32)
		warp_reduce(s, tid);
	if (tid == 0)
		partial[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shfl(const int *__restrict__ in, int *__restrict__ partial,
				       unsigned n)
{
	__shared__ int warp_sums[RED_THREADS / 32];
	unsigned tid = threadIdx.x;
	unsigned i = blockIdx.x * (RED_THREADS * 2) + tid;
	unsigned grid = RED_THREADS * 2 * gridDim.x;
	int sum = 0;
	while (i < n) {
		sum += in[i];
		if (i + RED_THREADS < n)
			sum += in[i + RED_THREADS];
		i += grid;
	}
	for (int off = 16; off > 0; off >>= 1)
		sum += __shfl_down_sync(0xffffffffu, sum, off);
	if ((tid & 31) == 0)
		warp_sums[tid >> 5] = sum;
	__syncthreads();
	if (tid < 32) {
		sum = tid < RED_THREADS / 32 ? warp_sums[tid] : 0;
		for (int off = 16; off > 0; off >>= 1)
			sum += __shfl_down_sync(0xffffffffu, sum, off);
		if (tid == 0)
			partial[blockIdx.x] = sum;
	}
}
