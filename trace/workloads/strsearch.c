/*
 * strsearch.c - host driver for strsearch.cu: nstreams byte streams of
 * random lengths, each scanned by one thread with STRSEARCH_NPAT
 * Knuth-Morris-Pratt automata at once; the result is the number of
 * (possibly overlapping) matches of every pattern in every stream.
 *
 * The host builds each pattern's DFA (the Knuth-Morris-Pratt automaton in
 * its table form: every state's successor for all 256 byte values, a
 * mismatch falling back to the state of the longest proper prefix that is
 * also a suffix). The CPU reference does not use the DFAs: it compares every
 * pattern at every position of every stream directly, so a wrong table
 * fails verification too.
 *
 * Input: DNA-like text over the bytes a, c, g, t (uniform), with a copy of a
 * random pattern planted at a position with probability 1/48, so every
 * pattern occurs a few times per hundred bytes. The patterns are chosen to
 * exercise the fall-back transitions: a plain word (gattaca), a
 * self-overlapping one (acacacag: a mismatch after acacaca falls back to
 * acaca), a run (tttttt: matches overlap in longer runs of t) and a
 * 12-byte period-4 word (cgatcgatcgaa). Stream lengths are uniform in
 * [L / 2, 3L / 2), so the threads of a warp leave the loop at different
 * times.
 */
#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

#include <stdlib.h>
#include <string.h>

#include "trace/workloads/strsearch.cu"

WEFT_WORKLOAD_PTX(strsearch);

#define STRSEARCH_BLOCK 128

static const char *const strsearch_patterns[STRSEARCH_NPAT] = { "gattaca", "acacacag", "tttttt",
								  "cgatcgatcgaa" };

struct strsearch_state {
	int nstreams;
	size_t nbytes;
	uint8_t *text;
	int32_t *start, *len, *plen;
	uint8_t *dfa; /* STRSEARCH_NPAT x STRSEARCH_STATES x 256 */
	int32_t *counts_dev, *counts_ref;
};

/* The KMP automaton of pat (length m < STRSEARCH_STATES) into d, rows
 * 0..m: row j is state j; row m (a match) continues as the state reached by
 * the pattern without its first byte. */
static void strsearch_build_dfa(const char *pat, int m, uint8_t *d)
{
	memset(d, 0, STRSEARCH_STATES * 256);
	d[(uint8_t)pat[0]] = 1;
	int fall = 0; /* the state after reading pat[1..j-1] */
	for (int j = 1; j <= m; j++) {
		memcpy(d + j * 256, d + fall * 256, 256);
		if (j < m) {
			d[j * 256 + (uint8_t)pat[j]] = (uint8_t)(j + 1);
			fall = d[fall * 256 + (uint8_t)pat[j]];
		}
	}
}

static int strsearch_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct strsearch_state *s = state;
	/* Measured: about 44 thread instructions per byte (a byte load and
	 * 4 automaton steps of 10; nvcc unrolls the byte loop 4 times):
	 * 1.0e5 / 1.0e7 / 1.0e9 (small, default, large). */
	s->nstreams = WEFT_WL_BY_SIZE(size, 48, 2048, 32768);
	int mean = WEFT_WL_BY_SIZE(size, 48, 112, 700);
	if (!(s->start = weft_wl_alloc((size_t)s->nstreams, sizeof(int32_t), err)) ||
	    !(s->len = weft_wl_alloc((size_t)s->nstreams, sizeof(int32_t), err)) ||
	    !(s->plen = weft_wl_alloc(STRSEARCH_NPAT, sizeof(int32_t), err)) ||
	    !(s->dfa = weft_wl_alloc(STRSEARCH_NPAT * STRSEARCH_STATES, 256, err)) ||
	    !(s->counts_dev = weft_wl_alloc((size_t)s->nstreams * STRSEARCH_NPAT, sizeof(int32_t), err)) ||
	    !(s->counts_ref = weft_wl_alloc((size_t)s->nstreams * STRSEARCH_NPAT, sizeof(int32_t), err)))
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x7374727365617263ull); /* "strsearc" */
	size_t total = 0;
	for (int i = 0; i < s->nstreams; i++) {
		s->start[i] = (int32_t)total;
		s->len[i] = mean / 2 + (int32_t)weft_rng_below(&r, (uint32_t)mean);
		total += (size_t)s->len[i];
	}
	s->nbytes = total;
	if (!(s->text = weft_wl_alloc(total, 1, err)))
		return WEFT_ERR_NOMEM;
	static const char alphabet[4] = { 'a', 'c', 'g', 't' };
	for (size_t i = 0; i < total; i++)
		s->text[i] = (uint8_t)alphabet[weft_rng_below(&r, 4)];
	for (size_t i = 0; i < total; i++) {
		if (weft_rng_below(&r, 48))
			continue;
		const char *p = strsearch_patterns[weft_rng_below(&r, STRSEARCH_NPAT)];
		for (size_t j = 0; p[j] && i + j < total; j++)
			s->text[i + j] = (uint8_t)p[j];
	}
	for (int k = 0; k < STRSEARCH_NPAT; k++) {
		s->plen[k] = (int32_t)strlen(strsearch_patterns[k]);
		strsearch_build_dfa(strsearch_patterns[k], s->plen[k],
				    s->dfa + (size_t)k * STRSEARCH_STATES * 256);
	}
	return 0;
}

static int strsearch_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
				struct weft_error *err)
{
	struct strsearch_state *s = state;
	size_t ns = (size_t)s->nstreams;
	uint64_t dtext, dstart, dlen, ddfa, dplen, dcounts;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->text, s->nbytes, &dtext, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->start, ns * 4, &dstart, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->len, ns * 4, &dlen, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->dfa, STRSEARCH_NPAT * STRSEARCH_STATES * 256, &ddfa, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->plen, STRSEARCH_NPAT * 4, &dplen, err));
	WEFT_WL_TRY(weft_malloc(ctx, ns * STRSEARCH_NPAT * 4, &dcounts, err));
	struct weft_arg args[] = { WEFT_ARG(dtext), WEFT_ARG(dstart),      WEFT_ARG(dlen),
				   WEFT_ARG(ddfa),  WEFT_ARG(dplen),       WEFT_ARG(s->nstreams),
				   WEFT_ARG(dcounts) };
	WEFT_WL_TRY(weft_launch(ctx, mod, "strsearch_kmp",
				weft_dim3((uint32_t)(s->nstreams + STRSEARCH_BLOCK - 1) / STRSEARCH_BLOCK, 1, 1),
				weft_dim3(STRSEARCH_BLOCK, 1, 1), 0, args, 7, err));
	return weft_memcpy_dtoh(ctx, s->counts_dev, dcounts, ns * STRSEARCH_NPAT * 4, err);
}

static void strsearch_run_reference(void *state)
{
	struct strsearch_state *s = state;
	for (int i = 0; i < s->nstreams; i++) {
		const uint8_t *t = s->text + s->start[i];
		int n = s->len[i];
		for (int k = 0; k < STRSEARCH_NPAT; k++) {
			const char *p = strsearch_patterns[k];
			int m = s->plen[k], found = 0;
			for (int at = 0; at + m <= n; at++)
				found += memcmp(t + at, p, (size_t)m) == 0;
			s->counts_ref[i * STRSEARCH_NPAT + k] = found;
		}
	}
}

static int strsearch_verify(void *state, struct weft_error *err)
{
	struct strsearch_state *s = state;
	return weft_wl_check_i32("counts", s->counts_dev, s->counts_ref,
				 (size_t)s->nstreams * STRSEARCH_NPAT, err);
}

static void strsearch_teardown(void *state)
{
	struct strsearch_state *s = state;
	free(s->text);
	free(s->start);
	free(s->len);
	free(s->plen);
	free(s->dfa);
	free(s->counts_dev);
	free(s->counts_ref);
}

const struct weft_workload weft_workload_strsearch = {
	.name = "strsearch",
	.description = "Knuth-Morris-Pratt search: each thread runs 4 pattern DFAs over its own byte stream",
	.ptx_name = "strsearch.ptx",
	.ptx_text = weft_ptx_strsearch,
	.tolerance = "exact",
	.state_size = sizeof(struct strsearch_state),
	.setup = strsearch_setup,
	.run_device = strsearch_run_device,
	.run_reference = strsearch_run_reference,
	.verify = strsearch_verify,
	.teardown = strsearch_teardown,
};
