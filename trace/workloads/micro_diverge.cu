// micro_diverge.cu - microkernel: branch divergence and reconvergence in a
// loop. One CTA of 32 threads (a single warp). Lane i runs i + 1 iterations
// (MICRO_DIVERGE_THREADS = 32 lanes: 1..32, so lanes leave the loop one by
// one), and in every iteration `if (lane & 1)` picks one of two paths of the
// same length: odd lanes run 4 dependent fmaf, even lanes 2 x (multiply,
// add) rounded separately (__fmul_rn, __fadd_rn). The two paths use
// different instructions, so nvcc can neither merge them nor turn the `if`
// into selp or predication: the PTX keeps a real branch.
//
// PTX (nvcc -O3, sm_75): a 14-instruction prologue (PTX lines 28-41: lane =
// tid & 31, the ld.global.f32 of x, lane & 1, k = 0), then the loop (lines
// 43-65, `#pragma unroll 1`):
//   lines 45-47  setp.eq.s32 (lane & 1 == 0); @%p1 bra to the even path;
//                bra.uni to the odd path
//   lines 49-54  even: mul.rn.f32, add.rn.f32, mul.rn.f32, add.rn.f32
//                (dependent), bra.uni to the latch
//   lines 56-60  odd: 4 dependent fma.rn.f32, falling through to the latch
//   lines 62-65  latch: add.s32; setp.le.u32 (k <= lane); @%p2 bra
// then shl, add.s64, st.global.f32, ret. Either path is 10 instructions per
// iteration for a thread (setp, bra, 4 arithmetic and one bra.uni, 3 in the
// latch). Iterations 1-31 run both paths, one after the other; iteration 32
// only lane 31 (odd).
#define MICRO_DIVERGE_THREADS 32

#ifdef __CUDACC__
extern "C" __global__ void micro_diverge(const float *in, float *out, float a, float b)
{
	unsigned lane = threadIdx.x & 31;
	float x = in[threadIdx.x];
#pragma unroll 1
	for (unsigned k = 0; k <= lane; k++) {
		if (lane & 1) {
			x = fmaf(x, a, b);
			x = fmaf(x, a, b);
			x = fmaf(x, a, b);
			x = fmaf(x, a, b);
		} else {
			x = __fadd_rn(__fmul_rn(x, a), b);
			x = __fadd_rn(__fmul_rn(x, a), b);
		}
	}
	out[threadIdx.x] = x;
}
#endif
