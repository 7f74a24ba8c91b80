// viterbi.cu - Viterbi decoding of convolutionally encoded frames, as the
// Maven study's viterbi (Lee et al., ACM TOCS 2013, section 4.4): each thread
// is one add-compare-select butterfly of the trellis, with table lookups for
// the branch outputs.
//
// The code (assumption: the study does not name its code; this is the common
// one): rate 1/2, constraint length K = 7, generator polynomials 133 and 171
// octal (IEEE Std 802.11a-1999 section 17.3.5.5; the NASA/CCSDS "Voyager"
// code). With the 7-bit encoder window w = (state << 1 | bit), bit i the
// input i steps ago, the taps are 0x6d and 0x4f and the next state is
// w & 63. Frames are terminated: they start in state 0 and end with 6 zero
// bits. Received symbols are soft 8-bit values (0 = certain 0, 255 =
// certain 1); a branch's metric is the distance of the two symbols from the
// expected ones, and path metrics are minimised.
//
// viterbi_acs: one warp per frame, lane j the butterfly joining old states j
// and j + 32 to new states 2j and 2j + 1. Path metrics are double-buffered
// in shared memory (a frame is one warp, so __syncwarp orders the steps),
// and so is the step's branch-metric table; every step writes the 64
// survivor decisions (one byte per state) to global memory. viterbi_traceback: one thread per frame follows the decisions
// back from state 0 and writes the decoded bits (one byte each).
//
// viterbi.c includes this file for the constants below; without __CUDACC__
// it is only these defines.
#define VITERBI_FRAMES_PER_CTA 4   // warps per CTA of viterbi_acs, one frame each
#define VITERBI_K 7                // constraint length
#define VITERBI_POLY0 0x6d         // 133 octal, newest bit in bit 0
#define VITERBI_POLY1 0x4f         // 171 octal, newest bit in bit 0

#ifdef __CUDACC__

// the expected two output bits (o0 << 1 | o1) of window w, for w < 64; a
// window with bit 6 set gives both bits inverted (both taps include bit 6)
__constant__ unsigned char c_branch_out[64];

// Lanes 0-3 write the step's four possible branch metrics (expected outputs
// 00, 01, 10, 11) into a shared table one step ahead; each butterfly then
// looks its two branch metrics up there by its branch outputs.
__device__ __forceinline__ void viterbi_branch_metrics(unsigned int *bm, const unsigned char *r,
							int lane)
{
	unsigned int r0 = r[0], r1 = r[1];
	bm[lane] = ((lane & 2) ? 255 - r0 : r0) + ((lane & 1) ? 255 - r1 : r1);
}

extern "C" __global__ void viterbi_acs(const unsigned char *__restrict__ rx,
				       unsigned char *__restrict__ dec, int nframes, int nsteps)
{
	__shared__ unsigned int pm[VITERBI_FRAMES_PER_CTA][2][64];
	__shared__ unsigned int bm[VITERBI_FRAMES_PER_CTA][2][4];
	int w = threadIdx.x >> 5, j = threadIdx.x & 31;
	int f = blockIdx.x * VITERBI_FRAMES_PER_CTA + w;
	if (f >= nframes)
		return;
	const unsigned char *r = rx + (size_t)f * nsteps * 2;
	unsigned char *d = dec + (size_t)f * nsteps * 64;
	const unsigned int unreachable = 1u << 24; // far above any reachable metric
	pm[w][0][j] = j == 0 ? 0 : unreachable;
	pm[w][0][j + 32] = unreachable;
	if (j < 4)
		viterbi_branch_metrics(bm[w][0], r, j);
	__syncwarp();
	for (int t = 0; t < nsteps; t++) {
		int cur = t & 1, nxt = cur ^ 1;
		if (j < 4 && t + 1 < nsteps)
			viterbi_branch_metrics(bm[w][nxt], r + 2 * (t + 1), j);
		unsigned int m0 = pm[w][cur][j], m1 = pm[w][cur][j + 32];
		for (int b = 0; b < 2; b++) {
			unsigned int bm0 = bm[w][cur][c_branch_out[2 * j + b]];
			unsigned int a = m0 + bm0;        // from state j (oldest bit 0)
			unsigned int c = m1 + 510 - bm0;  // from state j + 32: outputs inverted
			unsigned int take_c = c < a;
			pm[w][nxt][2 * j + b] = take_c ? c : a;
			d[t * 64 + 2 * j + b] = (unsigned char)take_c;
		}
		__syncwarp();
	}
}

extern "C" __global__ void viterbi_traceback(const unsigned char *__restrict__ dec,
					     unsigned char *__restrict__ bits, int nframes,
					     int nsteps, int nbits)
{
	int f = blockIdx.x * blockDim.x + threadIdx.x;
	if (f >= nframes)
		return;
	const unsigned char *d = dec + (size_t)f * nsteps * 64;
	unsigned char *out = bits + (size_t)f * nbits;
	int s = 0; // terminated frames end in state 0
	for (int t = nsteps - 1; t >= 0; t--) {
		if (t < nbits)
			out[t] = (unsigned char)(s & 1);
		s = (s >> 1) | (d[t * 64 + s] << 5);
	}
}
#endif
