// micro_bank.cu - microkernel: shared-memory bank conflicts.
// One CTA of 32 threads (a single warp). The warp fills a shared array of
// MICRO_BANK_WORDS = 32 x 32 ints (conflict-free: lane l writes word
// l + 32 j), waits at a barrier, then lane t loads the MICRO_BANK_LOADS = 32
// words sh[t * stride + k], k = 0..31, independent of each other, and writes
// their sum. With 4-byte words and 32 banks (bank = word mod 32), load k of
// lane t is in bank (t * stride + k) mod 32:
//   stride 1: banks t + k mod 32, all different: every load conflict-free;
//   stride 32: bank k for every lane, 32 different words: every load a
//              32-way conflict.
// The host launches the kernel twice, stride 1 then stride 32 (stride must
// be in 0..32 to stay inside the array); both launches run the same
// instructions, only the shared addresses differ.
//
// PTX (nvcc -O3, sm_75), 143 instructions per thread, no branch:
//   lines 26-33    2 ld.param, tid, mul.lo + add (first value), shl, mov,
//                  add (the lane's fill address);
//   lines 34-96    the fill: 32 st.shared.u32 [%r7 + 128 j], each but the
//                  first after the add.s32 making its value (63);
//   lines 97-101   cvta (out), bar.sync 0, mul.lo + shl + add (row address);
//   lines 102-133  32 consecutive independent ld.shared.u32 [%r41 + 4 k];
//   lines 134-164  31 dependent add.s32 (the first adds loads 0 and 1);
//   lines 165-168  mul.wide, add.s64, st.global.u32, ret.
#define MICRO_BANK_THREADS 32
#define MICRO_BANK_WORDS (32 * 32)
#define MICRO_BANK_LOADS 32

#ifdef __CUDACC__
extern "C" __global__ void micro_bank(int *out, int stride)
{
	__shared__ int sh[MICRO_BANK_WORDS];
	unsigned t = threadIdx.x;
#pragma unroll
	for (int j = 0; j < MICRO_BANK_WORDS / MICRO_BANK_THREADS; j++) {
		unsigned i = t + MICRO_BANK_THREADS * j;
		sh[i] = (int)i * 7 - 3000;
	}
	__syncthreads();
	const int *row = sh + t * stride;
	int v[MICRO_BANK_LOADS];
	// Loads first, into registers; then the sum: keeps the loads back to back.
#pragma unroll
	for (int k = 0; k < MICRO_BANK_LOADS; k++)
		v[k] = row[k];
	int acc = v[0];
#pragma unroll
	for (int k = 1; k < MICRO_BANK_LOADS; k++)
		acc += v[k];
	out[t] = acc;
}
#endif
