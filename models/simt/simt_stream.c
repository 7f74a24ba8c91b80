/*
 * simt_stream.c - a CTA's warp streams: each warp's instructions, in
 * program order under the IPDOM reconvergence stack (models/group.h), with
 * what the timing needs of each and nothing that depends on time: the lanes
 * that execute it, and for a memory instruction which lanes go to the
 * banked shared memory (and its bank passes) and which through the L1 (and
 * the coalesced segments they touch). The SM model (simt_sm.c) then issues
 * the streams of its resident CTAs under its schedulers.
 *
 * Work is per warp instruction; only memory instructions look at lanes.
 */
#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
#include "simt.h"

_Static_assert(sizeof(struct simt_rec) == 16, "a warp instruction's record is 16 bytes (simt.h)");

void weft_simt_stream_free(struct simt_stream *st)
{
	if (!st)
		return;
	free(st->rec);
	free(st->segs);
	free(st->woff);
	memset(st, 0, sizeof(*st));
}

int weft_simt_stream_key_equal(const struct simt_params *a, const struct simt_params *b)
{
	return a->warp_size == b->warp_size && a->shmem_banks == b->shmem_banks &&
	       a->caches == b->caches && (!a->caches || a->l1.line_bytes == b->l1.line_bytes);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, nc * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* Lanes grouped as the shared memory serves them: passes of a conflict-free
 * access = groups holding an active lane. */
static uint32_t busy_groups(uint64_t mask, uint32_t width, uint32_t banks)
{
	uint32_t n = 0;
	for (uint32_t g = 0; g < width; g += banks) {
		uint64_t gm = banks >= 64 ? ~0ull : ((1ull << banks) - 1) << g;
		if (mask & gm)
			n++;
	}
	return n;
}

/* The memory part of a warp instruction: which lanes go to the banked
 * shared memory and which through the L1, and what each costs. */
static int rec_mem(const struct simt_params *sp, const struct simt_pc *pi, struct simt_stream *st,
		   struct simt_rec *r, const struct weft_group_inst *in)
{
	uint64_t gmask = 0, smask = 0;
	uint32_t bytes = pi->bytes ? pi->bytes : 4;

	if (pi->space == WEFT_SPACE_SHARED) {
		smask = in->exec;
	} else if (pi->space == WEFT_SPACE_GLOBAL || pi->space == WEFT_SPACE_LOCAL) {
		gmask = in->exec;
	} else if (pi->space == WEFT_SPACE_CONST || pi->space == WEFT_SPACE_PARAM) {
		r->mem = r->cnst = 1; /* the constant cache: one broadcast access */
		return 0;
	} else if (pi->space == WEFT_SPACE_GENERIC) {
		for (uint64_t m = in->exec; m; m &= m - 1) {
			int lane = __builtin_ctzll(m);
			uint8_t s = in->space ? in->space[lane] : WEFT_SPACE_GLOBAL;
			if (s == WEFT_SPACE_SHARED)
				smask |= 1ull << lane;
			else if (s != WEFT_SPACE_CONST && s != WEFT_SPACE_PARAM)
				gmask |= 1ull << lane;
		}
	}
	if (!gmask && !smask)
		return 0;
	r->mem = 1;
	if (!sp->caches) {
		smask |= gmask; /* no caches: every access hits the banked memory */
		gmask = 0;
	}
	/* room for the shared word and the global part's segments */
	if (grow((void **)&st->segs, &st->segcap, st->nsegs + 1 + 2 * WEFT_GROUP_MAX_WIDTH,
		 sizeof(*st->segs)))
		return -1;
	r->seg0 = (uint32_t)st->nsegs;
	if (smask) {
		r->sh = 1;
		uint64_t words;
		uint32_t passes = weft_simt_bank_cycles(in->addr, smask, sp->warp_size, bytes, sp->shmem_banks,
							&words);
		st->segs[st->nsegs++] = simt_sh_pack((uint32_t)words, passes,
						     busy_groups(smask, sp->warp_size, sp->shmem_banks));
	}
	if (gmask) {
		uint32_t shift = 0;
		while ((1u << shift) < sp->l1.line_bytes)
			shift++;
		r->gl = 1;
		r->nseg = (uint16_t)weft_simt_coalesce(in->addr, gmask, bytes, shift, st->segs + st->nsegs);
		st->nsegs += r->nseg;
	}
	return 0;
}

int weft_simt_stream_copy(struct simt_stream *dst, const struct simt_stream *src, struct weft_error *err)
{
	if (grow((void **)&dst->rec, &dst->cap, src->n ? src->n : 1, sizeof(*dst->rec)) ||
	    grow((void **)&dst->segs, &dst->segcap, src->nsegs ? src->nsegs : 1, sizeof(*dst->segs)))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for a copy of a warp stream");
	if (src->nw + 1 > dst->woff_cap) {
		uint32_t *w = realloc(dst->woff, (src->nw + 1) * sizeof(*w));
		if (!w)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for a copy of a warp stream");
		dst->woff = w;
		dst->woff_cap = src->nw + 1;
	}
	if (src->n)
		memcpy(dst->rec, src->rec, src->n * sizeof(*src->rec));
	if (src->nsegs) /* a CTA with no global access has no segments yet */
		memcpy(dst->segs, src->segs, src->nsegs * sizeof(*src->segs));
	memcpy(dst->woff, src->woff, (src->nw + 1) * sizeof(*src->woff));
	dst->sum_exec = src->sum_exec;
	dst->sum_lanes = src->sum_lanes;
	dst->sum_rf_reads = src->sum_rf_reads;
	dst->sum_rf_writes = src->sum_rf_writes;
	dst->sum_nonreg = src->sum_nonreg;
	memcpy(dst->sum_comp, src->sum_comp, sizeof(src->sum_comp));
	dst->n = src->n;
	dst->nsegs = src->nsegs;
	dst->nw = src->nw;
	return 0;
}

int weft_simt_stream_build(const struct simt_params *sp, const struct weft_group_prog *gp,
		      const struct simt_pc *pc, const struct weft_cta_trace *cta,
		      struct simt_stream *st, struct weft_error *err)
{
	uint32_t nw = weft_group_count(cta->nthreads, sp->warp_size);
	st->n = st->nsegs = 0;
	st->nw = 0;
	st->sum_exec = st->sum_lanes = st->sum_rf_reads = st->sum_rf_writes = st->sum_nonreg = 0;
	memset(st->sum_comp, 0, sizeof(st->sum_comp));
	if (nw + 1 > st->woff_cap) {
		uint32_t *w = realloc(st->woff, (nw + 1) * sizeof(*w));
		if (!w)
			goto nomem;
		st->woff = w;
		st->woff_cap = nw + 1;
	}
	struct weft_group_iter *it = malloc(sizeof(*it));
	if (!it)
		goto nomem;
	for (uint32_t w = 0; w < nw; w++) {
		st->woff[w] = (uint32_t)st->n;
		int rc = weft_group_iter_init(it, gp, cta, sp->warp_size, w, WEFT_DIV_IPDOM, 0, err);
		if (rc) {
			free(it);
			return rc;
		}
		struct weft_group_inst in;
		for (;;) {
			rc = weft_group_next(it, &in);
			if (rc < 0) {
				free(it);
				return rc;
			}
			if (rc == 0)
				break;
			if (grow((void **)&st->rec, &st->cap, st->n + 1, sizeof(*st->rec))) {
				free(it);
				goto nomem;
			}
			struct simt_rec *r = &st->rec[st->n++];
			memset(r, 0, sizeof(*r));
			const struct simt_pc *pi = &pc[in.pc];
			r->pc = in.pc;
			r->nexec = (uint8_t)weft_popcount64(in.exec);
			/* a branch's exec lanes are those taking it, exit's those
			 * leaving: the lanes that did work are the issued ones */
			r->lanes = pi->is_ctrl ? (uint8_t)weft_popcount64(in.issue) : r->nexec;
			st->sum_exec += r->nexec;
			st->sum_lanes += r->lanes;
			st->sum_rf_reads += pi->rf_reads;
			st->sum_rf_writes += pi->rf_writes;
			st->sum_nonreg += pi->nonreg;
			if (pi->comp_ev >= 0)
				st->sum_comp[pi->comp_ev] += r->nexec;
			if (in.is_mem && in.exec && rec_mem(sp, pi, st, r, &in)) {
				free(it);
				goto nomem;
			}
		}
	}
	free(it);
	st->woff[nw] = (uint32_t)st->n;
	st->nw = nw;
	return 0;
nomem:
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the warp streams of CTA %u",
			      cta->cta);
}
