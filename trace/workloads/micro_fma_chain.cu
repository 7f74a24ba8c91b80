// micro_fma_chain.cu - microkernel: the latency of dependent FMAs in one warp.
// One CTA of 32 threads (a single warp); every thread runs MICRO_FMA_N = 256
// dependent x = fmaf(x, a, b), fully unrolled, so the warp can issue an FMA
// only when the previous one has finished: cycles ~ N x FMA latency.
//
// PTX (nvcc -O3, sm_75): a 9-instruction prologue (4 ld.param, cvta, tid,
// mul.wide, add, one ld.global.f32), then 256 consecutive fma.rn.f32 (PTX
// lines 36-291), each reading the previous one's result (%f4 = fma(%f3, a,
// b), %f5 = fma(%f4, a, b), ...), then cvta, add.s64, st.global.f32, ret:
// 269 instructions per thread, no branch.
//
// micro_fma_hidden.cu builds the same kernel text under its own name for
// 1024 threads (32 warps, enough to hide the latency). The host drivers
// include this file for the sizes: without __CUDACC__ it is only the
// #defines.
#ifndef MICRO_FMA_CHAIN_CU
#define MICRO_FMA_CHAIN_CU

#define MICRO_FMA_N 256 // dependent FMAs per thread
#ifndef MICRO_FMA_KERNEL
#define MICRO_FMA_KERNEL micro_fma_chain
#define MICRO_FMA_THREADS 32 // one CTA
#endif

#ifdef __CUDACC__
extern "C" __global__ void MICRO_FMA_KERNEL(const float *in, float *out, float a, float b)
{
	unsigned t = threadIdx.x;
	float x = in[t];
#pragma unroll
	for (int i = 0; i < MICRO_FMA_N; i++)
		x = fmaf(x, a, b);
	out[t] = x;
}
#endif

#endif
