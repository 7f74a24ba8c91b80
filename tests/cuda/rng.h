// rng.h - the seeded generator of weft's bundled workloads (splitmix64,
// as trace/launch/wl_util.h: weft_rng_next, weft_rng_below,
// weft_rng_float), so that the CUDA programs bfs.cu and gaussian.cu make
// exactly the inputs `weft-trace run bfs` and `run gaussian` make.
#ifndef CORPUS_RNG_H
#define CORPUS_RNG_H

#include <cstdint>

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t rng_below(rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static inline float rng_float(rng *r, float lo, float hi)
{
	return lo + (hi - lo) * (float)((rng_next(r) >> 40) * (1.0 / 16777216.0));
}

#endif
