/*
 * defuse.c - reaching definitions over registers and the def-use chains
 * built from them (analysis.h). Dataflow graphs for the dataflow model and
 * live ranges for register-file models come from these chains.
 *
 * Classic bit-vector reaching definitions, iterated over the blocks in
 * reverse postorder until nothing changes. Besides the program's definition
 * sites there is one "entry" pseudo-definition per register, live at the
 * kernel entry: when it reaches a use, that use may read an uninitialised
 * register (use_undef). A guarded instruction may not execute, so its
 * definitions are may-definitions: they join the set but kill nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

typedef uint64_t word;
#define WBITS 64u

static inline void bset(word *s, uint32_t i) { s[i / WBITS] |= (word)1 << (i % WBITS); }
static inline void bclr(word *s, uint32_t i) { s[i / WBITS] &= ~((word)1 << (i % WBITS)); }
static inline int btest(const word *s, uint32_t i) { return (s[i / WBITS] >> (i % WBITS)) & 1; }

struct du_ctx {
	const struct weft_program *p;
	struct weft_defuse *du;
	uint32_t nall;        /* ndefs + nregs (entry pseudo-definitions) */
	uint32_t nw;          /* words per set */
	uint32_t *rdef_start; /* [nregs+1] definitions of each register (CSR), entry pseudo-def last */
	uint32_t *rdef;
};

static int reg_ok(const struct weft_program *p, int32_t r)
{
	return r >= 0 && (uint32_t)r < p->nregs;
}

/* Applies pc's definitions to the set s. */
static void transfer_inst(const struct du_ctx *c, uint32_t pc, word *s)
{
	const struct weft_program *p = c->p;
	const struct weft_inst_info *in = &p->info[pc];
	int guarded = p->insts[pc].guard != WEFT_NO_REG;
	for (uint32_t k = 0; k < in->ndefs; k++) {
		int32_t r = in->defs[k];
		if (!reg_ok(p, r))
			continue;
		if (!guarded)
			for (uint32_t j = c->rdef_start[r]; j < c->rdef_start[r + 1]; j++)
				bclr(s, c->rdef[j]);
		bset(s, c->du->def_base[pc] + k);
	}
}

static int nomem(struct weft_defuse *du, struct du_ctx *c, word *sets, struct weft_error *err)
{
	free(c->rdef_start), free(c->rdef), free(sets);
	weft_defuse_free(du);
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory computing def-use chains");
}

int weft_defuse_build(const struct weft_program *p, const struct weft_dom *d,
		      struct weft_defuse *du, struct weft_error *err)
{
	memset(du, 0, sizeof(*du));
	struct du_ctx c = { .p = p, .du = du };
	word *sets = NULL;
	uint32_t n = p->ninsts;
	du->ninsts = n;
	du->def_base = malloc((n + 1) * sizeof(uint32_t));
	du->use_base = malloc((n + 1) * sizeof(uint32_t));
	if (!du->def_base || !du->use_base)
		return nomem(du, &c, sets, err);
	du->def_base[0] = du->use_base[0] = 0;
	for (uint32_t pc = 0; pc < n; pc++) {
		du->def_base[pc + 1] = du->def_base[pc] + p->info[pc].ndefs;
		du->use_base[pc + 1] = du->use_base[pc] + p->info[pc].nuses;
	}
	du->ndefs = du->def_base[n];
	du->nuses = du->use_base[n];
	du->def_pc = malloc((du->ndefs + 1) * sizeof(uint32_t));
	du->use_pc = malloc((du->nuses + 1) * sizeof(uint32_t));
	du->ud_start = calloc(du->nuses + 1, sizeof(uint32_t));
	du->use_undef = calloc(du->nuses + 1, 1);
	du->du_start = calloc(du->ndefs + 2, sizeof(uint32_t));
	if (!du->def_pc || !du->use_pc || !du->ud_start || !du->use_undef || !du->du_start)
		return nomem(du, &c, sets, err);
	for (uint32_t pc = 0; pc < n; pc++) {
		for (uint32_t i = du->def_base[pc]; i < du->def_base[pc + 1]; i++)
			du->def_pc[i] = pc;
		for (uint32_t i = du->use_base[pc]; i < du->use_base[pc + 1]; i++)
			du->use_pc[i] = pc;
	}

	/* definitions per register, entry pseudo-definition (ndefs + r) last */
	c.nall = du->ndefs + p->nregs;
	c.nw = (c.nall + WBITS - 1) / WBITS;
	c.rdef_start = calloc(p->nregs + 2, sizeof(uint32_t));
	c.rdef = malloc((c.nall + 1) * sizeof(uint32_t));
	if (!c.rdef_start || !c.rdef)
		return nomem(du, &c, sets, err);
	for (uint32_t pc = 0; pc < n; pc++)
		for (uint32_t k = 0; k < p->info[pc].ndefs; k++)
			if (reg_ok(p, p->info[pc].defs[k]))
				c.rdef_start[p->info[pc].defs[k] + 1]++;
	for (uint32_t r = 0; r < p->nregs; r++)
		c.rdef_start[r + 1] += c.rdef_start[r] + 1;
	{
		uint32_t *fill = calloc(p->nregs + 1, sizeof(uint32_t));
		if (!fill)
			return nomem(du, &c, sets, err);
		for (uint32_t pc = 0; pc < n; pc++)
			for (uint32_t k = 0; k < p->info[pc].ndefs; k++) {
				int32_t r = p->info[pc].defs[k];
				if (reg_ok(p, r))
					c.rdef[c.rdef_start[r] + fill[r]++] = du->def_base[pc] + k;
			}
		for (uint32_t r = 0; r < p->nregs; r++)
			c.rdef[c.rdef_start[r] + fill[r]] = du->ndefs + r;
		free(fill);
	}

	/* IN and OUT per block, plus one scratch set */
	uint32_t nb = p->nblocks;
	sets = calloc((size_t)(2 * nb + 1) * c.nw + 1, sizeof(word));
	if (!sets)
		return nomem(du, &c, sets, err);
	word *in = sets, *out = sets + (size_t)nb * c.nw, *cur = sets + (size_t)2 * nb * c.nw;
	int changed = 1;
	while (changed) {
		changed = 0;
		for (uint32_t i = 0; i < d->nrpo; i++) {
			uint32_t b = d->rpo[i];
			word *bi = in + (size_t)b * c.nw, *bo = out + (size_t)b * c.nw;
			/* IN(b) = union of OUT(preds); computed through the successors
			 * below, so here only the entry block gets the pseudo-defs */
			if (b == 0)
				for (uint32_t r = 0; r < p->nregs; r++)
					bset(bi, du->ndefs + r);
			memcpy(cur, bi, c.nw * sizeof(word));
			const struct weft_block *bl = &p->blocks[b];
			for (uint32_t pc = bl->first; pc < bl->first + bl->count; pc++)
				transfer_inst(&c, pc, cur);
			if (memcmp(cur, bo, c.nw * sizeof(word)) != 0) {
				memcpy(bo, cur, c.nw * sizeof(word));
				changed = 1;
			}
			for (uint32_t k = 0; k < bl->nsucc; k++) {
				uint32_t s = bl->succ[k];
				if (s >= nb)
					continue;
				word *si = in + (size_t)s * c.nw;
				for (uint32_t w = 0; w < c.nw; w++) {
					word nwv = si[w] | bo[w];
					if (nwv != si[w]) {
						si[w] = nwv;
						changed = 1;
					}
				}
			}
		}
	}

	/* use -> definitions: count, then fill */
	for (int pass = 0; pass < 2; pass++) {
		uint32_t total = 0;
		for (uint32_t b = 0; b < nb; b++) {
			const struct weft_block *bl = &p->blocks[b];
			memcpy(cur, in + (size_t)b * c.nw, c.nw * sizeof(word));
			for (uint32_t pc = bl->first; pc < bl->first + bl->count; pc++) {
				const struct weft_inst_info *info = &p->info[pc];
				for (uint32_t k = 0; k < info->nuses; k++) {
					uint32_t u = du->use_base[pc] + k;
					int32_t r = info->uses[k];
					uint32_t cnt = 0;
					if (reg_ok(p, r))
						for (uint32_t j = c.rdef_start[r]; j < c.rdef_start[r + 1]; j++) {
							uint32_t dd = c.rdef[j];
							if (!btest(cur, dd))
								continue;
							if (dd >= du->ndefs) {
								du->use_undef[u] = 1;
								continue;
							}
							if (pass)
								du->ud[du->ud_start[u] + cnt] = dd;
							else
								du->du_start[dd + 1]++;
							cnt++;
						}
					if (!pass)
						du->ud_start[u + 1] = cnt;
					total += cnt;
				}
				transfer_inst(&c, pc, cur);
			}
		}
		if (!pass) {
			for (uint32_t u = 0; u < du->nuses; u++)
				du->ud_start[u + 1] += du->ud_start[u];
			for (uint32_t dd = 0; dd < du->ndefs; dd++)
				du->du_start[dd + 1] += du->du_start[dd];
			du->ud = malloc((total + 1) * sizeof(uint32_t));
			du->du = malloc((total + 1) * sizeof(uint32_t));
			if (!du->ud || !du->du)
				return nomem(du, &c, sets, err);
		}
	}
	/* def -> uses by inverting (use ids come out sorted) */
	{
		uint32_t *fill = calloc(du->ndefs + 1, sizeof(uint32_t));
		if (!fill)
			return nomem(du, &c, sets, err);
		for (uint32_t u = 0; u < du->nuses; u++)
			for (uint32_t j = du->ud_start[u]; j < du->ud_start[u + 1]; j++) {
				uint32_t dd = du->ud[j];
				du->du[du->du_start[dd] + fill[dd]++] = u;
			}
		free(fill);
	}
	free(c.rdef_start), free(c.rdef), free(sets);
	return 0;
}

void weft_defuse_free(struct weft_defuse *du)
{
	free(du->def_base);
	free(du->use_base);
	free(du->def_pc);
	free(du->use_pc);
	free(du->ud_start);
	free(du->ud);
	free(du->use_undef);
	free(du->du_start);
	free(du->du);
	memset(du, 0, sizeof(*du));
}
