/*
 * liveness.c - live registers at every program point (analysis.h): an
 * estimate of the registers a thread needs after register allocation,
 * which sets how many threads fit a register file (the vector-thread
 * tile's hardware vector length is physical registers / registers per
 * microthread, Lee et al., ISCA 2011 / ACM TOCS 2013; the FPGA overlay's
 * register file holds 128 per thread, Kingyens and Steffan, IJRC 2011).
 * PTX registers are virtual (nearly one per value), so their count says
 * little; the largest number live at once is what an allocator needs,
 * ignoring spills and fragmentation.
 *
 * Backward bit-vector dataflow over the reverse of reverse postorder, to a
 * fixed point. A guarded definition may leave the old value in place, so
 * it does not end the register's live range. Sizes count 32-bit words
 * (64-bit registers take two); predicates are counted apart, as machines
 * keep them in a separate file.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

typedef uint64_t word;
#define WBITS 64u

static unsigned reg_words(const struct weft_program *p, uint32_t r)
{
	unsigned t = p->reg_type ? p->reg_type[r] : WEFT_T_B32;
	if (t == WEFT_T_PRED)
		return 0;
	unsigned sz = weft_ptx_type_size((enum weft_ptx_type)t);
	return sz > 4 ? (sz + 3) / 4 : 1;
}

static void step_back(const struct weft_program *p, uint32_t pc, word *live)
{
	const struct weft_inst_info *ii = &p->info[pc];
	if (p->insts[pc].guard == WEFT_NO_REG)
		for (uint32_t k = 0; k < ii->ndefs; k++) {
			int32_t r = ii->defs[k];
			if (r >= 0 && (uint32_t)r < p->nregs)
				live[r / WBITS] &= ~((word)1 << (r % WBITS));
		}
	for (uint32_t k = 0; k < ii->nuses; k++) {
		int32_t r = ii->uses[k];
		if (r >= 0 && (uint32_t)r < p->nregs)
			live[r / WBITS] |= (word)1 << (r % WBITS);
	}
}

int weft_liveness_build(const struct weft_program *p, const struct weft_dom *d,
			struct weft_liveness *lv, struct weft_error *err)
{
	memset(lv, 0, sizeof(*lv));
	uint32_t nw = (p->nregs + WBITS - 1) / WBITS, nb = p->nblocks;
	word *in = calloc((size_t)nb * nw + 1, sizeof(word));
	word *cur = calloc((size_t)nw + 1, sizeof(word));
	unsigned *wsz = malloc(((size_t)p->nregs + 1) * sizeof(unsigned));
	lv->ninsts = p->ninsts;
	lv->words_at = calloc((size_t)p->ninsts + 1, sizeof(uint32_t));
	lv->preds_at = calloc((size_t)p->ninsts + 1, sizeof(uint32_t));
	if (!in || !cur || !wsz || !lv->words_at || !lv->preds_at) {
		free(in), free(cur), free(wsz);
		weft_liveness_free(lv);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory computing live registers");
	}
	for (uint32_t r = 0; r < p->nregs; r++)
		wsz[r] = reg_words(p, r);
	int changed = 1;
	while (changed) {
		changed = 0;
		for (uint32_t i = d->nrpo; i-- > 0;) {
			uint32_t b = d->rpo[i];
			const struct weft_block *bl = &p->blocks[b];
			memset(cur, 0, nw * sizeof(word));
			for (uint32_t k = 0; k < bl->nsucc; k++)
				if (bl->succ[k] < nb)
					for (uint32_t w = 0; w < nw; w++)
						cur[w] |= in[(size_t)bl->succ[k] * nw + w];
			for (uint32_t pc = bl->first + bl->count; pc-- > bl->first;)
				step_back(p, pc, cur);
			word *bi = in + (size_t)b * nw;
			if (memcmp(bi, cur, nw * sizeof(word)) != 0) {
				memcpy(bi, cur, nw * sizeof(word));
				changed = 1;
			}
		}
	}
	/* per point: registers live just before each instruction */
	for (uint32_t i = 0; i < d->nrpo; i++) {
		uint32_t b = d->rpo[i];
		const struct weft_block *bl = &p->blocks[b];
		memset(cur, 0, nw * sizeof(word));
		for (uint32_t k = 0; k < bl->nsucc; k++)
			if (bl->succ[k] < nb)
				for (uint32_t w = 0; w < nw; w++)
					cur[w] |= in[(size_t)bl->succ[k] * nw + w];
		for (uint32_t pc = bl->first + bl->count; pc-- > bl->first;) {
			step_back(p, pc, cur);
			uint32_t words = 0, preds = 0;
			for (uint32_t w = 0; w < nw; w++)
				for (word x = cur[w]; x; x &= x - 1) {
					uint32_t r = w * WBITS + (uint32_t)__builtin_ctzll(x);
					if (wsz[r])
						words += wsz[r];
					else
						preds++;
				}
			lv->words_at[pc] = words;
			lv->preds_at[pc] = preds;
			if (words > lv->max_words)
				lv->max_words = words;
			if (preds > lv->max_preds)
				lv->max_preds = preds;
		}
	}
	free(in), free(cur), free(wsz);
	return 0;
}

void weft_liveness_free(struct weft_liveness *lv)
{
	free(lv->words_at);
	free(lv->preds_at);
	memset(lv, 0, sizeof(*lv));
}
