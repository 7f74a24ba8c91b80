/*
 * simt_mem.c - how one warp memory instruction turns into transactions:
 * coalescing of global/local accesses into aligned segments (the number of
 * distinct 128-byte segments touched by the active lanes = the number of L1
 * transactions: compute capability 2.x in the CUDA C Programming Guide, and
 * GPGPU-Sim's GTX480 configuration, gpgpu_coalesce_arch 20 with 128-B L1
 * lines) and shared-memory bank conflicts (a warp access costs as many
 * cycles as the maximum number of distinct 4-byte words mapped to one bank;
 * same word = broadcast: compute capability 2.x, 32 banks; GPGPU-Sim's
 * gpgpu_shmem_limited_broadcast 0).
 *
 * Both work on at most 64 lanes per call and allocate nothing.
 */
#include "simt.h"

uint32_t weft_simt_coalesce(const uint64_t *addr, uint64_t mask, uint32_t bytes, uint32_t seg_shift,
		       uint64_t *segs)
{
	uint32_t n = 0;
	uint64_t last = UINT64_MAX;
	if (!bytes)
		bytes = 1;
	while (mask) {
		int lane = __builtin_ctzll(mask);
		mask &= mask - 1;
		uint64_t a = addr[lane];
		uint64_t s0 = a >> seg_shift, s1 = (a + bytes - 1) >> seg_shift;
		for (uint64_t s = s0; s <= s1; s++) {
			/* consecutive lanes usually share the previous segment */
			if (s == last)
				continue;
			uint32_t i = 0;
			while (i < n && segs[i] != s)
				i++;
			if (i == n)
				segs[n++] = s;
			last = s;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		segs[i] <<= seg_shift;
	return n;
}

/* words[] holds at most 64 lanes x 4 words (16-byte vector accesses). */
#define MAX_WORDS (WEFT_GROUP_MAX_WIDTH * 4)

static uint32_t group_cost(const uint64_t *w, uint32_t n, uint32_t banks)
{
	/* sort (insertion: n is small and usually nearly sorted), drop
	 * duplicates (broadcast), count per bank */
	uint64_t v[MAX_WORDS];
	uint32_t cnt[64] = { 0 };
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = w[i];
		uint32_t j = i;
		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	uint32_t worst = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		uint32_t b = (uint32_t)(v[i] % banks);
		if (++cnt[b] > worst)
			worst = cnt[b];
	}
	return worst;
}

uint32_t weft_simt_bank_cycles(const uint64_t *addr, uint64_t mask, uint32_t width, uint32_t bytes,
			  uint32_t banks, uint64_t *words)
{
	uint32_t nw = (bytes + 3) / 4, total = 0;
	uint64_t nwords = 0;
	if (nw < 1)
		nw = 1;
	if (nw > 4)
		nw = 4;
	if (banks < 1)
		banks = 1;
	if (banks > 64)
		banks = 64;
	if (width < 64)
		mask &= (1ull << width) - 1;
	uint64_t bmask = (banks & (banks - 1)) ? 0 : banks - 1; /* power of two: mask */
	for (uint32_t g0 = 0; g0 < width; g0 += banks) {
		uint64_t gm = mask >> g0;
		if (banks < 64)
			gm &= (1ull << banks) - 1;
		if (!gm)
			continue;
		if (nw == 1 && bmask) {
			/* 4-byte words, banks a power of two: one pass when no
			 * bank sees two different words (the usual case), else
			 * the general count below */
			uint64_t seen = 0, wb[64];
			uint32_t k = 0;
			int clash = 0;
			for (uint64_t m = gm; m && !clash; m &= m - 1, k++) {
				uint64_t x = addr[g0 + (uint32_t)__builtin_ctzll(m)] >> 2;
				uint32_t b = (uint32_t)(x & bmask);
				if (!((seen >> b) & 1)) {
					seen |= 1ull << b;
					wb[b] = x;
				} else if (wb[b] != x) {
					clash = 1;
				}
			}
			if (!clash) {
				nwords += k;
				total += 1;
				continue;
			}
		}
		/* the distinct words of each bank, kept inline up to 4 per bank
		 * (the usual conflict degrees); past that, sort them all */
		uint64_t seen = 0, bw[64][4];
		uint32_t cnt[64], worst = 1, n = 0;
		int overflow = 0;
		for (uint64_t m = gm; m; m &= m - 1) {
			uint64_t x = addr[g0 + (uint32_t)__builtin_ctzll(m)] >> 2;
			for (uint32_t k = 0; k < nw; k++, x++) {
				uint32_t b = (uint32_t)(bmask ? (x & bmask) : x % banks);
				n++;
				if (!((seen >> b) & 1)) {
					seen |= 1ull << b;
					cnt[b] = 1;
					bw[b][0] = x;
					continue;
				}
				uint32_t c = cnt[b], j = 0, lim = c < 4 ? c : 4;
				while (j < lim && bw[b][j] != x)
					j++;
				if (j < lim)
					continue; /* same word: broadcast */
				if (c < 4)
					bw[b][c] = x;
				else
					overflow = 1;
				cnt[b] = c + 1;
				if (c + 1 > worst)
					worst = c + 1;
			}
		}
		nwords += n;
		if (overflow) {
			uint64_t w[MAX_WORDS];
			uint32_t i = 0;
			for (uint64_t m = gm; m; m &= m - 1) {
				uint64_t x = addr[g0 + (uint32_t)__builtin_ctzll(m)] >> 2;
				for (uint32_t k = 0; k < nw; k++)
					w[i++] = x + k;
			}
			worst = group_cost(w, i, banks);
		}
		total += worst;
	}
	if (words)
		*words = nwords;
	return total;
}
