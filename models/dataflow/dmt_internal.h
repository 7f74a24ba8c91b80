/*
 * dmt_internal.h - state shared by the dMT communication analysis's files
 * (dmt_comm.c: per-CTA passes; dmt_finish.c: decisions and removal;
 * dmt_format.c: the text report). Not a public interface.
 */
#ifndef WEFT_DMT_INTERNAL_H
#define WEFT_DMT_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "models/group.h"
#include "models/dataflow/dmt_comm.h"

/* Kind of a memory instruction as far as the analysis cares. */
enum { DMT_K_NONE = 0, DMT_K_LOAD, DMT_K_STORE, DMT_K_ATOMIC };

/* One shared-memory access of the CTA, in lock-step order. */
struct dmt_rec {
	uint32_t tid, pc, epoch, warp;
	uint32_t addr;      /* offset in the CTA's shared window */
	uint32_t aidx;      /* index of the access among the CTA's addresses */
	uint8_t kind, bytes;
};

/* One global access of the CTA (only tracked when the kernel has both a
 * barrier and a store that may reach global memory). */
struct dmt_grec {
	uint64_t addr;
	uint32_t tid, epoch, warp;
	uint8_t kind, bytes;
};

/* Last writer of one global 4-byte word (hash table slot). */
struct dmt_gword {
	uint64_t word;      /* address / 4 + 1; 0: empty slot */
	uint32_t tid, epoch, warp;
};

/* Last writers of one shared byte: record indices + 1 (0: none). */
struct dmt_byte {
	uint32_t cur, cur_epoch, cur_warp, prev;
};

/* One value loaded by a group of threads (memory value reuse). */
struct dmt_val {
	uint64_t addr;
	uint32_t pc, k, ver;
	uint32_t first, last; /* thread ids; last == UINT32_MAX: empty slot */
};

struct weft_dmt_scratch {
	struct weft_group_prog gp;
	uint8_t *kind;            /* [ninsts] DMT_K_* (LD/LDU/ST/ATOM/RED) */
	uint8_t *is_bar;          /* [ninsts] bar that starts a new epoch */
	uint32_t *memidx;         /* [ninsts] compact index of memory pcs, UINT32_MAX */
	uint32_t nmem;
	uint32_t *mempc;          /* [nmem] */
	uint64_t *acc_all, *acc_shared; /* [ninsts] executed accesses, and those to shared */
	uint8_t *edge;            /* [nmem * nmem] store (row) -> reader (column) seen */
	/* per CTA */
	struct dmt_rec *rec, *rec2;
	uint64_t nrec, caprec, caprec2;
	uint32_t *epoch_count;    /* counting sort buckets */
	uint64_t capepoch;
	uint32_t *ver;            /* [naddrs] shared loads: producing record + 1 */
	uint64_t capver;
	uint32_t *abase;          /* [nthreads + 1] first address index of each thread */
	uint32_t capthreads;
	struct dmt_byte *bytes;   /* [capbytes] */
	uint64_t capbytes;
	struct dmt_val *vals;     /* open-addressed hash table */
	uint64_t capvals;
	uint32_t *kcount;         /* [nmem] per-thread instance counters */
	/* global communication between threads of a CTA (dmt_global.c) */
	int track_global;
	struct dmt_grec *grec, *grec2;
	uint64_t ngrec, capgrec, capgrec2;
	uint32_t *gepoch_count;
	uint64_t capgepoch;
	struct dmt_gword *gw;
	uint64_t capgw;
};

/* dmt_comm.c */
int dmt_params_check(const struct weft_dmt_params *prm, struct weft_error *err);
/* Grows *buf (realloc, contents kept) to hold at least n elements of size
 * sz, doubling from 64; 0 or WEFT_ERR_NOMEM. */
int dmt_reserve(void **buf, uint64_t *cap, uint64_t n, size_t sz);

/* dmt_global.c */
int dmt_global_push(struct weft_dmt_scratch *s, uint64_t addr, uint32_t tid, uint32_t epoch,
		    uint32_t warp, uint8_t kind, uint8_t bytes);
/* Replays the CTA's global records; adds to d->tot.global_comm. */
int dmt_global_replay(struct weft_dmt *d);
void dmt_global_free(struct weft_dmt_scratch *s);

/* A histogram over signed dTID, allocated on first use. */
static inline int dmt_hist_add(uint64_t **h, int32_t dtid, uint64_t n)
{
	if (!*h) {
		*h = calloc(WEFT_DMT_NDIST, sizeof(uint64_t));
		if (!*h)
			return WEFT_ERR_NOMEM;
	}
	(*h)[dtid + (int32_t)WEFT_DMT_MAX_DIST] += n;
	return 0;
}

#endif
