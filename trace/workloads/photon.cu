// photon.cu - Monte-Carlo photon transport through a homogeneous slab (a
// one-layer simplification of MCML: Wang, Jacques & Zheng, "MCML - Monte
// Carlo modeling of light transport in multi-layered tissues", Comput.
// Methods Programs Biomed. 47 (1995); written here). Each thread launches
// `photons` photon packets straight down into the slab and follows each one:
// step length -ln(xi)/mu_t, partial absorption of mu_a/mu_t of the weight at
// each interaction (tallied per thread and into a depth histogram with
// float atomics), Henyey-Greenstein scattering (sqrtf, sinf, cosf, divides),
// escape through the top (reflected) or bottom (transmitted) surface, and
// Russian roulette once the weight drops below a threshold. Loop trip counts
// are data dependent; the arithmetic-to-load ratio is high.
//
// Per-thread xorshift32 RNG (Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8
// (2003)), seeded per thread by the host, so the CPU reference draws the same
// numbers.
struct ph_params {
	float mu_a, mu_s, g, thickness;
	float bin_width;
	int nbins;
	int photons;
	float roulette_w;     // weight below which roulette plays
	float roulette_p;     // survival chance
};

__device__ static unsigned xorshift32(unsigned *s)
{
	unsigned x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

// Uniform in (0, 1]: 24 random bits, never zero (so logf is finite).
__device__ static float uniform01(unsigned *s)
{
	return (float)((xorshift32(s) >> 8) + 1u) * (1.0f / 16777216.0f);
}

extern "C" __global__ void photon_slab(const unsigned *__restrict__ seeds,
				       float *__restrict__ tally, float *hist, int nthreads,
				       struct ph_params p)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= nthreads)
		return;
	unsigned rng = seeds[t];
	float mu_t = p.mu_a + p.mu_s;
	float absorb_frac = p.mu_a / mu_t;
	float absorbed = 0.0f, reflected = 0.0f, transmitted = 0.0f;
	const float two_pi = 6.283185307179586f;

	for (int ph = 0; ph < p.photons; ph++) {
		float w = 1.0f, z = 0.0f;
		float ux = 0.0f, uy = 0.0f, uz = 1.0f;
		for (;;) {
			float step = -logf(uniform01(&rng)) / mu_t;
			z += step * uz;
			if (z < 0.0f) {
				reflected += w;
				break;
			}
			if (z > p.thickness) {
				transmitted += w;
				break;
			}
			float dw = w * absorb_frac;
			w -= dw;
			absorbed += dw;
			int bin = (int)(z / p.bin_width);
			atomicAdd(&hist[bin < p.nbins ? bin : p.nbins - 1], dw);

			// Henyey-Greenstein deflection cosine.
			float cost;
			float xi = uniform01(&rng);
			if (p.g == 0.0f) {
				cost = 2.0f * xi - 1.0f;
			} else {
				float tmp = (1.0f - p.g * p.g) / (1.0f - p.g + 2.0f * p.g * xi);
				cost = (1.0f + p.g * p.g - tmp * tmp) / (2.0f * p.g);
				cost = fminf(fmaxf(cost, -1.0f), 1.0f);
			}
			float sint = sqrtf(1.0f - cost * cost);
			float phi = two_pi * uniform01(&rng);
			float cosp = cosf(phi), sinp = sinf(phi);
			if (fabsf(uz) > 0.99999f) {
				ux = sint * cosp;
				uy = sint * sinp;
				uz = uz > 0.0f ? cost : -cost;
			} else {
				float tmp = sqrtf(1.0f - uz * uz);
				float nux = sint * (ux * uz * cosp - uy * sinp) / tmp + ux * cost;
				float nuy = sint * (uy * uz * cosp + ux * sinp) / tmp + uy * cost;
				uz = -sint * cosp * tmp + uz * cost;
				ux = nux;
				uy = nuy;
			}
			if (w < p.roulette_w) {
				if (uniform01(&rng) <= p.roulette_p)
					w /= p.roulette_p;
				else
					break; // the packet dies; its weight leaves the tally
			}
		}
	}
	tally[3 * t + 0] = absorbed;
	tally[3 * t + 1] = reflected;
	tally[3 * t + 2] = transmitted;
}
