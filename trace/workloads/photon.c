/*
 * photon.c - host driver for photon.cu: Monte-Carlo photon transport through
 * a slab (one-layer MCML simplification), one RNG stream per thread.
 *
 * Optical properties are test choices, not a tissue: absorption mu_a = 1,
 * scattering mu_s = 1 (albedo 0.5 keeps histories short, ~15 interactions),
 * anisotropy g = 0.9 (MCML's examples use tissue-like g = 0.9), thickness 2
 * (optical depth 4). Roulette at weight 1e-4 with survival chance 0.1 are
 * MCML's WEIGHT and CHANCE.
 *
 * Verification. The kernel calls CUDA's full-precision logf, sinf, cosf
 * (nvcc inlines them as fma polynomials; weft runs those bit for bit) while
 * the reference calls the host C library's; the kernel also fuses
 * multiply-adds the reference does not. Results differ by a few ulp per
 * step, which is harmless - except that a photon whose position lands
 * within those few ulp of a surface, or whose path reaches a roulette test
 * differently, takes a different branch and from then on a different
 * history (Monte Carlo is chaotic at branch points). So:
 *  - per thread, (absorbed, reflected, transmitted) must agree within
 *    rel 1e-4 + abs 1e-6 (~1700 ulp: a few ulp per step over ~15 steps per
 *    photon and up to 16 photons, with margin), except for at most
 *    PH_MAX_DIVERGED_FRAC of threads (at least 1), whose histories diverged;
 *  - totals over all threads of each tally, and every depth-histogram bin
 *    (summed with float atomics, so in a different order), must agree within
 *    rel 1e-4 plus the weight the diverged threads could move: their photon
 *    count (each photon carries weight at most 1, 1/chance after roulette,
 *    which is 10 x 1e-4 < 1) plus 2 for bin-boundary crossings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(photon);

#define PH_THREADS 128
#define PH_NBINS 32
#define PH_REL_TOL 1e-4
#define PH_ABS_TOL 1e-6
#define PH_MAX_DIVERGED_FRAC 0.01

/* Same layout as struct ph_params in photon.cu (36 bytes, 4-aligned). */
struct ph_params {
	float mu_a, mu_s, g, thickness;
	float bin_width;
	int32_t nbins;
	int32_t photons;
	float roulette_w, roulette_p;
};

struct photon_state {
	int nthreads;
	struct ph_params p;
	uint32_t *seeds;
	float *tally_dev, *tally_ref; /* [nthreads][3]: absorbed, reflected, transmitted */
	float hist_dev[PH_NBINS], hist_ref[PH_NBINS];
};

static int photon_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct photon_state *s = state;
	/* Measured: about 830 thread instructions per photon (~15
	 * interactions): 128 / 12288 / 1048576 photons give about 1e5 /
	 * 1e7 / 9e8. */
	s->nthreads = WEFT_WL_BY_SIZE(size, 64, 1024, 65536);
	s->p.mu_a = 1.0f;
	s->p.mu_s = 1.0f;
	s->p.g = 0.9f;
	s->p.thickness = 2.0f;
	s->p.nbins = PH_NBINS;
	s->p.bin_width = s->p.thickness / PH_NBINS;
	s->p.photons = WEFT_WL_BY_SIZE(size, 2, 12, 16);
	s->p.roulette_w = 1e-4f;
	s->p.roulette_p = 0.1f;
	size_t n = (size_t)s->nthreads;
	s->seeds = weft_wl_alloc(n, sizeof(uint32_t), err);
	s->tally_dev = weft_wl_alloc(n * 3, sizeof(float), err);
	s->tally_ref = weft_wl_alloc(n * 3, sizeof(float), err);
	if (!s->seeds || !s->tally_dev || !s->tally_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x70686f746f6eull); /* "photon" */
	for (size_t i = 0; i < n; i++)
		s->seeds[i] = (uint32_t)(weft_rng_next(&r) >> 32) | 1u; /* xorshift needs != 0 */
	return 0;
}

static int photon_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct photon_state *s = state;
	size_t n = (size_t)s->nthreads;
	uint64_t d_seeds, d_tally, d_hist;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->seeds, n * sizeof(uint32_t), &d_seeds, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * 3 * sizeof(float), &d_tally, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof s->hist_dev, &d_hist, err));
	struct weft_arg args[] = { WEFT_ARG(d_seeds), WEFT_ARG(d_tally), WEFT_ARG(d_hist),
				   WEFT_ARG(s->nthreads), WEFT_ARG(s->p) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "photon_slab",
				weft_dim3((uint32_t)((n + PH_THREADS - 1) / PH_THREADS), 1, 1),
				weft_dim3(PH_THREADS, 1, 1), 0, args, 5, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->tally_dev, d_tally, n * 3 * sizeof(float), err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->hist_dev, d_hist, sizeof s->hist_dev, err));
	return 0;
}

static uint32_t ph_xorshift32(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static float ph_uniform01(uint32_t *s)
{
	return (float)((ph_xorshift32(s) >> 8) + 1u) * (1.0f / 16777216.0f);
}

/* The kernel's loop for one thread, statement for statement. */
static void photon_thread(const struct ph_params *p, uint32_t rng, float *tally, float *hist)
{
	float mu_t = p->mu_a + p->mu_s;
	float absorb_frac = p->mu_a / mu_t;
	float absorbed = 0.0f, reflected = 0.0f, transmitted = 0.0f;
	const float two_pi = 6.283185307179586f;
	for (int ph = 0; ph < p->photons; ph++) {
		float w = 1.0f, z = 0.0f;
		float ux = 0.0f, uy = 0.0f, uz = 1.0f;
		for (;;) {
			float step = -logf(ph_uniform01(&rng)) / mu_t;
			z += step * uz;
			if (z < 0.0f) {
				reflected += w;
				break;
			}
			if (z > p->thickness) {
				transmitted += w;
				break;
			}
			float dw = w * absorb_frac;
			w -= dw;
			absorbed += dw;
			int bin = (int)(z / p->bin_width);
			hist[bin < p->nbins ? bin : p->nbins - 1] += dw;

			float cost;
			float xi = ph_uniform01(&rng);
			if (p->g == 0.0f) {
				cost = 2.0f * xi - 1.0f;
			} else {
				float tmp = (1.0f - p->g * p->g) / (1.0f - p->g + 2.0f * p->g * xi);
				cost = (1.0f + p->g * p->g - tmp * tmp) / (2.0f * p->g);
				cost = fminf(fmaxf(cost, -1.0f), 1.0f);
			}
			float sint = sqrtf(1.0f - cost * cost);
			float phi = two_pi * ph_uniform01(&rng);
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
			if (w < p->roulette_w) {
				if (ph_uniform01(&rng) <= p->roulette_p)
					w /= p->roulette_p;
				else
					break;
			}
		}
	}
	tally[0] = absorbed;
	tally[1] = reflected;
	tally[2] = transmitted;
}

static void photon_run_reference(void *state)
{
	struct photon_state *s = state;
	memset(s->hist_ref, 0, sizeof s->hist_ref);
	for (int t = 0; t < s->nthreads; t++)
		photon_thread(&s->p, s->seeds[t], s->tally_ref + 3 * (size_t)t, s->hist_ref);
}

static const char *const ph_tally_name[3] = { "absorbed", "reflected", "transmitted" };

static int photon_verify(void *state, struct weft_error *err)
{
	struct photon_state *s = state;
	size_t n = (size_t)s->nthreads;
	size_t max_div = (size_t)(PH_MAX_DIVERGED_FRAC * (double)n);
	if (max_div < 1)
		max_div = 1;
	size_t diverged = 0, first = 0;
	double tot_dev[3] = { 0 }, tot_ref[3] = { 0 };
	for (size_t t = 0; t < n; t++) {
		int bad = 0;
		for (int j = 0; j < 3; j++) {
			float d = s->tally_dev[3 * t + j], r = s->tally_ref[3 * t + j];
			tot_dev[j] += d;
			tot_ref[j] += r;
			if (!weft_wl_close(d, r, PH_REL_TOL, PH_ABS_TOL))
				bad = 1;
		}
		if (bad && diverged++ == 0)
			first = t;
	}
	if (diverged > max_div) {
		char what[160];
		int j = 0;
		while (j < 2 && weft_wl_close(s->tally_dev[3 * first + j], s->tally_ref[3 * first + j],
					      PH_REL_TOL, PH_ABS_TOL))
			j++;
		snprintf(what, sizeof what, "thread %zu %s (%zu threads differ, at most %zu may diverge)",
			 first, ph_tally_name[j], diverged, max_div);
		return weft_wl_report_float(what, s->tally_dev[3 * first + j],
					    s->tally_ref[3 * first + j], PH_REL_TOL, PH_ABS_TOL, err);
	}
	/* Weight the diverged threads' photons could have moved, plus 2 for
	 * steps crossing a histogram bin boundary (a deposit of at most 0.5
	 * lands in the neighbouring bin when its depth differs by an ulp). */
	double slack = (double)diverged * s->p.photons + 2.0;
	for (int j = 0; j < 3; j++)
		if (!weft_wl_close(tot_dev[j], tot_ref[j], PH_REL_TOL, slack)) {
			char what[64];
			snprintf(what, sizeof what, "total %s weight", ph_tally_name[j]);
			return weft_wl_report_float(what, tot_dev[j], tot_ref[j], PH_REL_TOL, slack, err);
		}
	return weft_wl_check_f32("depth histogram", s->hist_dev, s->hist_ref, PH_NBINS, PH_REL_TOL,
				 slack, err);
}

static void photon_teardown(void *state)
{
	struct photon_state *s = state;
	free(s->seeds);
	free(s->tally_dev);
	free(s->tally_ref);
}

const struct weft_workload weft_workload_photon = {
	.name = "photon",
	.description = "Monte-Carlo photon transport in a slab: per-thread RNG, logf/sinf/cosf/sqrtf, roulette, atomics",
	.ptx_name = "photon.ptx",
	.ptx_text = weft_ptx_photon,
	.tolerance = "per thread rel 1e-4 + abs 1e-6, <= 1% of threads may diverge; totals and histogram rel 1e-4 + diverged weight",
	.state_size = sizeof(struct photon_state),
	.setup = photon_setup,
	.run_device = photon_run_device,
	.run_reference = photon_run_reference,
	.verify = photon_verify,
	.teardown = photon_teardown,
};
