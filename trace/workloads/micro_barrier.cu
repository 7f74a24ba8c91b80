// micro_barrier.cu - microkernel: the cost of CTA-wide barriers.
// One CTA of MICRO_BARRIER_THREADS = 256 threads (8 warps) runs
// MICRO_BARRIER_ITERS = 64 iterations of
//     s[t] = v; __syncthreads(); v = s[(t + 1) % 256] + 1; __syncthreads();
// so every iteration is two barriers around one shared store and one shared
// load (both conflict-free: consecutive words), with almost no work to hide
// the time warps wait at a barrier. Thread t ends with
// in[(t + 64) % 256] + 64.
//
// PTX (nvcc -O3, sm_75): a 15-instruction prologue (the ld.global of v and
// both shared addresses; the % 256 becomes an `and` outside the loop), then
// the loop (PTX lines 43-52, `#pragma unroll 1`, 64 iterations):
//     st.shared.u32; bar.sync 0; ld.shared.u32; add.s32 (v);
//     bar.sync 0; add.s32; setp.ne.s32; @%p1 bra (loop control)
// then cvta, shl, add.s64, add.s32 (v recomputed from the last load),
// st.global.u32, ret: 15 + 64 x 8 + 6 = 533 instructions per thread.
#define MICRO_BARRIER_THREADS 256
#define MICRO_BARRIER_ITERS 64

#ifdef __CUDACC__
extern "C" __global__ void micro_barrier(const int *in, int *out)
{
	__shared__ int s[MICRO_BARRIER_THREADS];
	unsigned t = threadIdx.x;
	int v = in[t];
#pragma unroll 1
	for (int k = 0; k < MICRO_BARRIER_ITERS; k++) {
		s[t] = v;
		__syncthreads();
		v = s[(t + 1) % MICRO_BARRIER_THREADS] + 1;
		__syncthreads();
	}
	out[t] = v;
}
#endif
