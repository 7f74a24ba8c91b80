/*
 * simt_timing.c - what limits how many warps an SM holds: registers per
 * thread (from register liveness) and occupancy (resident CTAs and warps
 * per SM: threads, CTAs, registers, shared memory), and the names of the
 * throughput lower bounds reported beside the CPI stack (simt.c).
 */
#include <stdlib.h>
#include <string.h>

#include "simt.h"

const char *const weft_simt_bound_names[SIMT_B_COUNT] = { "issue", "sfu", "ldst", "l2_bw", "dram_bw" };

const char *const weft_simt_occ_names[4] = { "threads", "ctas", "regs", "shmem" };

static uint32_t reg_words(const struct weft_program *p, uint32_t r)
{
	if (r >= p->nregs || !p->reg_type)
		return 1;
	enum weft_ptx_type t = (enum weft_ptx_type)p->reg_type[r];
	if (t == WEFT_T_PRED)
		return 0;
	unsigned sz = weft_ptx_type_size(t);
	return sz > 4 ? (sz + 3) / 4 : 1;
}

/*
 * Backward liveness over blocks with bit sets (one bit per register):
 * live_in(b) = uses(b) + (live_out(b) - kills(b)), iterated to a fixed
 * point; then each block is walked backwards from live_out counting live
 * 32-bit words at every instruction. A guarded definition does not kill
 * (the old value survives on lanes whose guard is false).
 */
uint32_t weft_simt_live_regs(const struct weft_program *p)
{
	uint32_t nb = p->nblocks, nr = p->nregs;
	if (!nb || !nr)
		return 1;
	size_t words = (nr + 63) / 64;
	uint64_t *in = calloc((size_t)nb * words, 8), *out = calloc((size_t)nb * words, 8);
	uint64_t *cur = calloc(words, 8);
	uint32_t *wsz = calloc(nr, sizeof(*wsz));
	if (!in || !out || !cur || !wsz) {
		free(in);
		free(out);
		free(cur);
		free(wsz);
		return 1; /* no memory: the caller still gets a usable bound */
	}
	for (uint32_t r = 0; r < nr; r++)
		wsz[r] = reg_words(p, r);
	int changed = 1;
	while (changed) {
		changed = 0;
		for (uint32_t bi = nb; bi-- > 0;) {
			const struct weft_block *b = &p->blocks[bi];
			uint64_t *o = out + (size_t)bi * words;
			for (uint32_t s = 0; s < b->nsucc; s++) {
				const uint64_t *si = in + (size_t)b->succ[s] * words;
				for (size_t k = 0; k < words; k++)
					o[k] |= si[k];
			}
			memcpy(cur, o, words * 8);
			for (uint32_t pc = b->first + b->count; pc-- > b->first;) {
				const struct weft_inst_info *ii = &p->info[pc];
				int guarded = p->insts[pc].guard != WEFT_NO_REG;
				if (!guarded)
					for (uint32_t d = 0; d < ii->ndefs; d++)
						if ((uint32_t)ii->defs[d] < nr)
							cur[ii->defs[d] / 64] &= ~(1ull << (ii->defs[d] % 64));
				for (uint32_t u = 0; u < ii->nuses; u++)
					if ((uint32_t)ii->uses[u] < nr)
						cur[ii->uses[u] / 64] |= 1ull << (ii->uses[u] % 64);
			}
			uint64_t *i = in + (size_t)bi * words;
			if (memcmp(i, cur, words * 8)) {
				memcpy(i, cur, words * 8);
				changed = 1;
			}
		}
	}
	uint32_t best = 1;
	for (uint32_t bi = 0; bi < nb; bi++) {
		const struct weft_block *b = &p->blocks[bi];
		memcpy(cur, out + (size_t)bi * words, words * 8);
		for (uint32_t pc = b->first + b->count; pc-- > b->first;) {
			const struct weft_inst_info *ii = &p->info[pc];
			/* live across this instruction: live-after plus its defs */
			for (uint32_t d = 0; d < ii->ndefs; d++)
				if ((uint32_t)ii->defs[d] < nr)
					cur[ii->defs[d] / 64] |= 1ull << (ii->defs[d] % 64);
			uint32_t n = 0;
			for (size_t k = 0; k < words; k++) {
				uint64_t m = cur[k];
				while (m) {
					n += wsz[k * 64 + (uint32_t)__builtin_ctzll(m)];
					m &= m - 1;
				}
			}
			if (n > best)
				best = n;
			if (p->insts[pc].guard == WEFT_NO_REG)
				for (uint32_t d = 0; d < ii->ndefs; d++)
					if ((uint32_t)ii->defs[d] < nr)
						cur[ii->defs[d] / 64] &= ~(1ull << (ii->defs[d] % 64));
			for (uint32_t u = 0; u < ii->nuses; u++)
				if ((uint32_t)ii->uses[u] < nr)
					cur[ii->uses[u] / 64] |= 1ull << (ii->uses[u] % 64);
		}
	}
	free(in);
	free(out);
	free(cur);
	free(wsz);
	return best;
}

int weft_simt_occupancy(const struct simt_params *sp, uint32_t threads_per_cta, uint32_t shmem_per_cta,
		   uint32_t regs_per_thread, struct weft_simt_occupancy *occ, struct weft_error *err)
{
	memset(occ, 0, sizeof(*occ));
	if (!threads_per_cta)
		return weft_error_set(err, WEFT_ERR_INPUT, "launch has CTAs of 0 threads");
	uint32_t wpc = (threads_per_cta + sp->warp_size - 1) / sp->warp_size;
	uint32_t alloc_threads = wpc * sp->warp_size; /* threads are allocated in whole warps */
	occ->warps_per_cta = wpc;
	if (alloc_threads > sp->max_threads)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "a CTA of %u threads (%u warps of %u) does not fit in an SM of at most "
				      "%u threads (core.max_threads); raise core.max_threads or use a smaller CTA",
				      threads_per_cta, wpc, sp->warp_size, sp->max_threads);
	if (shmem_per_cta > sp->shmem_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "a CTA uses %u B of shared memory but an SM has %u B (core.shmem_bytes); "
				      "raise core.shmem_bytes",
				      shmem_per_cta, sp->shmem_bytes);
	uint32_t r = regs_per_thread ? regs_per_thread : 1;
	if (r > sp->max_regs_per_thread)
		r = sp->max_regs_per_thread;
	if ((uint64_t)r * alloc_threads > sp->registers)
		r = sp->registers / alloc_threads; /* the compiler spills to fit one CTA */
	if (!r)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "a CTA of %u threads cannot get even one register each from %u "
				      "(core.registers); raise core.registers",
				      threads_per_cta, sp->registers);
	occ->regs_per_thread = r;
	occ->by[SIMT_OCC_THREADS] = sp->max_threads / alloc_threads;
	occ->by[SIMT_OCC_CTAS] = sp->max_ctas;
	occ->by[SIMT_OCC_REGS] = (uint32_t)(sp->registers / ((uint64_t)r * alloc_threads));
	occ->by[SIMT_OCC_SHMEM] = shmem_per_cta ? sp->shmem_bytes / shmem_per_cta : UINT32_MAX;
	occ->ctas = UINT32_MAX;
	for (int i = 0; i < 4; i++)
		if (occ->by[i] < occ->ctas) {
			occ->ctas = occ->by[i];
			occ->limit = (enum simt_occ_limit)i;
		}
	if (occ->ctas > SIMT_MAX_SLOTS)
		occ->ctas = SIMT_MAX_SLOTS;
	occ->warps = occ->ctas * wpc;
	return 0;
}
