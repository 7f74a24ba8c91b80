// micro_stream.cu - microkernel: streaming loads limited by the L1's
// outstanding misses (MSHRs).
// One CTA of MICRO_STREAM_THREADS = 1024 threads (32 warps, one SM). Thread
// t reads MICRO_STREAM_LOADS = 16 floats, in[t + j * 1024] for j = 0..15,
// sums them in j order and writes one float. Each warp load is one
// coalesced, 128-byte-aligned line; no line is read twice (16 x 32 = 512
// lines, 64 KiB). All 16 loads are issued before the first add that needs
// them, so each warp can have 16 misses in flight: 512 in the CTA, far more
// than an L1 has miss registers for.
//
// PTX (nvcc -O3, sm_75): 2 ld.param, cvta, tid, mul.wide, add.s64; then 16
// consecutive independent ld.global.f32 [%rd5 + 4096 j] (PTX lines 31-46);
// then cvta (out) and 15 dependent add.f32 (lines 48-62, the first reading
// the loads of j = 0 and 1); then add.s64, st.global.f32, ret: 41
// instructions per thread, no branch.
#define MICRO_STREAM_THREADS 1024
#define MICRO_STREAM_LOADS 16

#ifdef __CUDACC__
extern "C" __global__ void micro_stream(const float *in, float *out)
{
	unsigned t = threadIdx.x;
	float v[MICRO_STREAM_LOADS];
	// Loads first, into registers; then the sum: keeps the loads back to back.
#pragma unroll
	for (int j = 0; j < MICRO_STREAM_LOADS; j++)
		v[j] = in[t + j * MICRO_STREAM_THREADS];
	float s = v[0];
#pragma unroll
	for (int j = 1; j < MICRO_STREAM_LOADS; j++)
		s += v[j];
	out[t] = s;
}
#endif
