// strsearch.cu - Knuth-Morris-Pratt string search over many byte streams:
// each thread scans its own stream once, stepping STRSEARCH_NPAT KMP
// automata (DFAs precomputed by the host, one per pattern) on every byte,
// and counts each pattern's matches, overlapping ones included.
//
// dfa holds STRSEARCH_NPAT tables of STRSEARCH_STATES rows x 256 bytes:
// row j, column c is the state after reading byte c in state j, where state
// j means "the last j bytes are the pattern's first j"; reaching state
// plen[k] (the pattern's length) is a match. Streams lie one after the
// other in text (start[s], len[s]), so lengths and table gathers depend on
// the data. The host driver includes this file for the two constants below.
#define STRSEARCH_NPAT 4
#define STRSEARCH_STATES 16 // patterns of at most 15 bytes

#ifdef __CUDACC__
extern "C" __global__ void strsearch_kmp(const unsigned char *__restrict__ text,
					 const int *__restrict__ start, const int *__restrict__ len,
					 const unsigned char *__restrict__ dfa,
					 const int *__restrict__ plen, int nstreams,
					 int *__restrict__ counts)
{
	int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nstreams)
		return;
	const unsigned char *t = text + start[s];
	int n = len[s];
	int state[STRSEARCH_NPAT], found[STRSEARCH_NPAT], m[STRSEARCH_NPAT];
#pragma unroll
	for (int k = 0; k < STRSEARCH_NPAT; k++) {
		state[k] = 0;
		found[k] = 0;
		m[k] = plen[k];
	}
	for (int i = 0; i < n; i++) {
		unsigned c = t[i];
#pragma unroll
		for (int k = 0; k < STRSEARCH_NPAT; k++) {
			state[k] = dfa[(k * STRSEARCH_STATES + state[k]) * 256 + c];
			found[k] += state[k] == m[k];
		}
	}
#pragma unroll
	for (int k = 0; k < STRSEARCH_NPAT; k++)
		counts[s * STRSEARCH_NPAT + k] = found[k];
}
#endif
