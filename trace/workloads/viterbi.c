/*
 * viterbi.c - host driver for viterbi.cu: random messages of VITERBI_BITS
 * bits per frame are encoded with the K = 7, rate-1/2 code (6 zero tail bits
 * terminate each frame), sent over a noisy channel as soft 8-bit symbols and
 * decoded by viterbi_acs (one warp per frame, a butterfly per lane) and
 * viterbi_traceback (a thread per frame). The CPU reference decodes state by
 * state, computing each branch's outputs from the polynomials (not from the
 * kernel's table), and must produce the same survivor decisions and bits.
 *
 * Channel (assumption, chosen so the decoder has errors to correct): bit 0 is
 * sent as 55 and bit 1 as 200, plus the sum of three uniform integers in
 * [-48, 48] (standard deviation 48.5), clamped to [0, 255]: about 7% of
 * symbols land on the wrong side of 127.5 (measured at the default size:
 * 1543 of 22400), and the decoded bits still equal the message (all 10240).
 */
#include "viterbi.cu" /* VITERBI_FRAMES_PER_CTA, VITERBI_K, VITERBI_POLY0/1 */

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>

WEFT_WORKLOAD_PTX(viterbi);

#define VITERBI_BITS 64                           /* message bits per frame */
#define VITERBI_STEPS (VITERBI_BITS + VITERBI_K - 1) /* with the tail */
#define VITERBI_STATES (1 << (VITERBI_K - 1))

struct viterbi_state {
	int nframes;
	uint8_t table[VITERBI_STATES];    /* c_branch_out */
	uint8_t *msg, *rx;                /* [nframes][BITS], [nframes][STEPS][2] */
	uint8_t *dec_dev, *dec_ref;       /* [nframes][STEPS][STATES] */
	uint8_t *bits_dev, *bits_ref;     /* [nframes][BITS] */
};

static unsigned viterbi_parity(unsigned x)
{
	x ^= x >> 4;
	x ^= x >> 2;
	x ^= x >> 1;
	return x & 1;
}

/* the two output bits (o0 << 1 | o1) of 7-bit encoder window w */
static unsigned viterbi_outputs(unsigned w)
{
	return viterbi_parity(w & VITERBI_POLY0) << 1 | viterbi_parity(w & VITERBI_POLY1);
}

static uint8_t viterbi_channel(struct weft_rng *rng, unsigned bit)
{
	int v = bit ? 200 : 55;
	for (int i = 0; i < 3; i++)
		v += (int)weft_rng_below(rng, 97) - 48;
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static int viterbi_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct viterbi_state *s = state;
	struct weft_rng rng;

	s->nframes = WEFT_WL_BY_SIZE(size, 2, 160, 14000);
	size_t nf = (size_t)s->nframes;
	if (!(s->msg = weft_wl_alloc(nf * VITERBI_BITS, 1, err)) ||
	    !(s->rx = weft_wl_alloc(nf * VITERBI_STEPS * 2, 1, err)) ||
	    !(s->dec_dev = weft_wl_alloc(nf * VITERBI_STEPS * VITERBI_STATES, 1, err)) ||
	    !(s->dec_ref = weft_wl_alloc(nf * VITERBI_STEPS * VITERBI_STATES, 1, err)) ||
	    !(s->bits_dev = weft_wl_alloc(nf * VITERBI_BITS, 1, err)) ||
	    !(s->bits_ref = weft_wl_alloc(nf * VITERBI_BITS, 1, err)))
		return WEFT_ERR_NOMEM;
	for (unsigned w = 0; w < VITERBI_STATES; w++)
		s->table[w] = (uint8_t)viterbi_outputs(w);
	weft_rng_seed(&rng, 0x76697465u); /* "vite" */
	for (size_t f = 0; f < nf; f++) {
		unsigned st = 0;
		for (int t = 0; t < VITERBI_STEPS; t++) {
			unsigned bit = 0; /* tail */
			if (t < VITERBI_BITS)
				bit = s->msg[f * VITERBI_BITS + t] = (uint8_t)weft_rng_below(&rng, 2);
			unsigned w = st << 1 | bit, o = viterbi_outputs(w);
			st = w & (VITERBI_STATES - 1);
			uint8_t *r = s->rx + (f * VITERBI_STEPS + t) * 2;
			r[0] = viterbi_channel(&rng, o >> 1);
			r[1] = viterbi_channel(&rng, o & 1);
		}
	}
	return 0;
}

static int viterbi_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			      struct weft_error *err)
{
	struct viterbi_state *s = state;
	size_t nf = (size_t)s->nframes;
	size_t dec_bytes = nf * VITERBI_STEPS * VITERBI_STATES, bits_bytes = nf * VITERBI_BITS;
	uint64_t drx, ddec, dbits;
	int nframes = s->nframes, nsteps = VITERBI_STEPS, nbits = VITERBI_BITS;

	WEFT_WL_TRY(weft_memcpy_to_symbol(ctx, mod, "c_branch_out", s->table, sizeof s->table, 0,
					  err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->rx, nf * VITERBI_STEPS * 2, &drx, err));
	WEFT_WL_TRY(weft_malloc(ctx, dec_bytes, &ddec, err));
	WEFT_WL_TRY(weft_malloc(ctx, bits_bytes, &dbits, err));
	struct weft_arg acs[] = { WEFT_ARG(drx), WEFT_ARG(ddec), WEFT_ARG(nframes),
				  WEFT_ARG(nsteps) };
	uint32_t ctas = (uint32_t)((nframes + VITERBI_FRAMES_PER_CTA - 1) / VITERBI_FRAMES_PER_CTA);
	WEFT_WL_TRY(weft_launch(ctx, mod, "viterbi_acs", weft_dim3(ctas, 1, 1),
				weft_dim3(32 * VITERBI_FRAMES_PER_CTA, 1, 1), 0, acs, 4, err));
	struct weft_arg tb[] = { WEFT_ARG(ddec), WEFT_ARG(dbits), WEFT_ARG(nframes),
				 WEFT_ARG(nsteps), WEFT_ARG(nbits) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "viterbi_traceback", weft_dim3((nframes + 63) / 64, 1, 1),
				weft_dim3(64, 1, 1), 0, tb, 5, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->dec_dev, ddec, dec_bytes, err));
	return weft_memcpy_dtoh(ctx, s->bits_dev, dbits, bits_bytes, err);
}

static void viterbi_run_reference(void *state)
{
	struct viterbi_state *s = state;
	uint32_t pm[VITERBI_STATES], next[VITERBI_STATES];
	for (size_t f = 0; f < (size_t)s->nframes; f++) {
		for (int st = 0; st < VITERBI_STATES; st++)
			pm[st] = st == 0 ? 0 : 1u << 24;
		for (int t = 0; t < VITERBI_STEPS; t++) {
			const uint8_t *r = s->rx + (f * VITERBI_STEPS + t) * 2;
			uint8_t *d = s->dec_ref + (f * VITERBI_STEPS + t) * VITERBI_STATES;
			for (unsigned n = 0; n < VITERBI_STATES; n++) {
				uint32_t best = 0;
				for (unsigned x = 0; x < 2; x++) {
					unsigned prev = n >> 1 | x << (VITERBI_K - 2);
					unsigned o = viterbi_outputs(prev << 1 | (n & 1));
					uint32_t m = pm[prev] + ((o & 2) ? 255u - r[0] : r[0]) +
						     ((o & 1) ? 255u - r[1] : r[1]);
					/* ties keep the predecessor whose oldest bit is 0 */
					if (x == 0 || m < best) {
						best = m;
						d[n] = (uint8_t)x;
					}
				}
				next[n] = best;
			}
			for (int st = 0; st < VITERBI_STATES; st++)
				pm[st] = next[st];
		}
		unsigned st = 0;
		for (int t = VITERBI_STEPS - 1; t >= 0; t--) {
			if (t < VITERBI_BITS)
				s->bits_ref[f * VITERBI_BITS + t] = (uint8_t)(st & 1);
			unsigned x = s->dec_ref[(f * VITERBI_STEPS + t) * VITERBI_STATES + st];
			st = st >> 1 | x << (VITERBI_K - 2);
		}
	}
}

static int viterbi_verify(void *state, struct weft_error *err)
{
	struct viterbi_state *s = state;
	size_t nf = (size_t)s->nframes;
	WEFT_WL_TRY(weft_wl_check_u8("bits", s->bits_dev, s->bits_ref, nf * VITERBI_BITS, err));
	return weft_wl_check_u8("decisions", s->dec_dev, s->dec_ref,
				   nf * VITERBI_STEPS * VITERBI_STATES, err);
}

static void viterbi_teardown(void *state)
{
	struct viterbi_state *s = state;
	free(s->msg);
	free(s->rx);
	free(s->dec_dev);
	free(s->dec_ref);
	free(s->bits_dev);
	free(s->bits_ref);
}

const struct weft_workload weft_workload_viterbi = {
	.name = "viterbi",
	.description = "Viterbi decoder, K=7 rate-1/2 code: a warp per frame, an ACS butterfly per lane",
	.ptx_name = "viterbi.ptx",
	.ptx_text = weft_ptx_viterbi,
	.tolerance = "exact",
	.state_size = sizeof(struct viterbi_state),
	.setup = viterbi_setup,
	.run_device = viterbi_run_device,
	.run_reference = viterbi_run_reference,
	.verify = viterbi_verify,
	.teardown = viterbi_teardown,
};
