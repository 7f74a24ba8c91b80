/*
 * fabric_warm.c - functional warming for a sampled replay of the fabric
 * model (Wunderlich, Wenisch, Falsafi, Hoe, "SMARTS: Accelerating
 * Microarchitecture Simulation via Rigorous Statistical Sampling", ISCA
 * 2003, section 4: between measured units, the caches are kept warm by
 * functional simulation of the skipped instructions).
 *
 * A random sample of CTAs replayed alone loses the reuse between
 * neighbouring CTAs (hotspot's halo rows are read by the CTA above and
 * below): each sampled CTA finds the L1 and L2 cold where a full replay
 * finds them warm, and the estimate is biased high, which the sampling
 * intervals do not measure. With warming, every CTA outside the sample
 * goes through the caches here, in CTA order between the sampled ones, on
 * the core a full replay deals it to (round robin over all the launch's
 * CTAs: fabric_replay.c counts warmed CTAs into the dealing), in the
 * fabric's access order (fabric_replay.c), with the same routing as
 * access_one: shared-memory, constant, parameter, live-value-cache and
 * dMT-removed accesses touch no cache; eLSU-forwarded loads are skipped as
 * a replay would; atomics go to the L2; write-backs and write-throughs
 * reach the L2. weft_cache_warm changes the contents (tags, LRU, dirty)
 * without counting, so no event, bank count, MSHR occupancy, hit rate or
 * latency of a warmed CTA enters the estimate: the timed figures are the
 * sampled CTAs', scaled by CTAs / CTAs read as before.
 */
#include "fabric.h"

static void warm_l2(struct fabric_state *s, uint64_t addr, int is_write)
{
	uint64_t victim = 0;
	weft_cache_warm(&s->l2, addr, is_write, &victim); /* DRAM below keeps no state */
}

/* access_one's L1 path (l1_access), state only */
static void warm_l1(struct fabric_state *s, struct fabric_core *c, uint64_t addr, int is_write)
{
	const struct fabric_params *fp = &s->fp;
	uint64_t line = addr >> c->l1.line_shift;
	if (c->memo_valid && c->memo_line == line && (!is_write || c->memo_dirty))
		return; /* the MRU line: a hit that changes no cache state */
	uint64_t victim = 0;
	unsigned r = weft_cache_warm(&c->l1, addr, is_write, &victim);
	if (r & WEFT_CACHE_WRITEBACK)
		warm_l2(s, victim, 1);
	if (r & WEFT_CACHE_THROUGH)
		warm_l2(s, addr, 1);
	if (r & WEFT_CACHE_FILL)
		warm_l2(s, addr, 0);
	fabric_memo_note(c, line, r, is_write, fp->l1.write == WEFT_CACHE_WRITE_BACK);
}

static void warm_one(struct fabric_state *s, struct fabric_core *c, const struct fabric_acc *a, uint32_t cta)
{
	struct fabric_pc *P = &s->pc[a->pc];
	const struct weft_inst_info *ii = &s->p->info[a->pc];
	if (s->dmt_rm[a->pc])
		return;
	int is_store = ii->cls == WEFT_IC_STORE, is_atomic = ii->cls == WEFT_IC_ATOMIC;
	if (a->space == WEFT_SPACE_SHARED || a->space == WEFT_SPACE_CONST || a->space == WEFT_SPACE_PARAM) {
		/* no cache state (shared banks and the LVC are counted, not held) */
	} else if (s->dmt_fwd[a->pc] == FABRIC_FWD_LOAD && !is_store && !is_atomic && P->last_cta == cta + 1 &&
		   P->last_addr == a->addr) {
		/* forwarded by the eLSU: no L1 access */
	} else if (is_atomic) {
		warm_l2(s, a->addr, 1);
	} else {
		warm_l1(s, c, a->addr, is_store);
	}
	P->last_addr = a->addr;
	P->last_cta = cta + 1;
}

void weft_fabric_warm_apply(struct fabric_state *s, const struct weft_cta_trace *cta,
			    const struct fabric_prepared *pr)
{
	struct fabric_core *core = &s->cores[cta->cta % s->fp.cores]; /* as fabric_replay.c deals it */
	s->warmed++;
	/* its visits, guarded-off counts and trip counts (pr) are not the
	 * sample's: only its accesses are used */
	for (uint32_t j = 0; j < pr->maxn; j++)
		for (uint32_t t = 0; t < pr->nthreads; t++)
			if (pr->acc_n[t] > j) {
				struct fabric_acc a = weft_fabric_acc_at(cta, pr, t, j);
				warm_one(s, core, &a, cta->cta);
			}
}

int weft_fabric_warm_cta(struct fabric_state *s, const struct weft_cta_trace *cta, struct weft_error *err)
{
	int rc = weft_fabric_prepare_cta(s, cta, &s->own, err);
	if (!rc)
		weft_fabric_warm_apply(s, cta, &s->own);
	return rc;
}
