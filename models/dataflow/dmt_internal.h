/*
 * dmt_internal.h - state shared by the dMT communication analysis's files
 * (dmt_comm.c: per-CTA passes; dmt_global.c: global communication;
 * dmt_barrier.c: what each barrier orders; dmt_iter.c: distances per loop
 * iteration; dmt_finish.c: decisions and totals; dmt_arith.c: address
 * arithmetic and guards that only served removed instructions;
 * dmt_format.c: the text report). Not a public interface.
 */
#ifndef WEFT_DMT_INTERNAL_H
#define WEFT_DMT_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "models/group.h"
#include "dmt_comm.h"

/* Kind of a memory instruction as far as the analysis cares. */
enum { DMT_K_NONE = 0, DMT_K_LOAD, DMT_K_STORE, DMT_K_ATOMIC };

/* One shared-memory access of the CTA, in lock-step order. */
struct dmt_rec {
	uint32_t tid, pc, epoch, warp;
	uint32_t addr;      /* offset in the CTA's shared window */
	uint32_t ver;       /* loads, set by the replay: the producing record + 1 (0: none) */
	uint32_t k;         /* the thread's k-th execution of pc (0-based) */
	uint8_t kind, bytes;
};

/* Bits of struct weft_dmt_scratch.bar_adj: the access executed in the epoch
 * that ends at the barrier (before) or that starts after it (after). */
enum { DMT_ADJ_BEFORE = 1, DMT_ADJ_AFTER = 2 };

/* Per (load pc, k-th execution, dTID): instances (dmt_iter.c). */
struct dmt_iterent {
	uint32_t pc;        /* UINT32_MAX: empty slot */
	uint32_t k;
	int32_t dtid;
	uint64_t n;
};

/* Iterations a load may be unrolled over for per-iteration elevators. */
#define DMT_MAX_ITERS 32u
/* Distinct (k, dTID) entries kept per load before it is given up. */
#define DMT_ITER_MAX_ENTRIES 4096u

/* One global access of the CTA (only tracked when the kernel has both a
 * barrier and a store that may reach global memory). */
struct dmt_grec {
	uint64_t addr;
	uint32_t tid, epoch, warp;
	uint8_t kind, bytes;
};

/* One global 4-byte word (hash table slot): its last writer, and who read
 * it since that write. */
struct dmt_gword {
	uint64_t word;      /* address / 4 + 1; 0: empty slot */
	uint32_t tid, epoch, warp; /* last writer, when written */
	uint32_t rtid, repoch;     /* first reader since the last write, when read */
	uint8_t written, read, rmulti; /* rmulti: another thread read it too */
};

/* Last writers of one shared byte: the record's position in the CTA's
 * epoch order + 1 (0: none), its thread and pc (the records of earlier
 * epochs are gone when a later epoch reads it). */
struct dmt_byte {
	uint32_t cur, cur_epoch, cur_warp, cur_tid, cur_pc;
	uint32_t prev, prev_tid, prev_pc;
};

/* One warp of pass A. The CTA's warps advance interleaved, one barrier
 * epoch at a time, so that only one epoch's shared records are held. */
struct dmt_warp {
	struct weft_group_iter it;
	uint32_t epoch[WEFT_GROUP_MAX_WIDTH];
	uint32_t lastbar[WEFT_GROUP_MAX_WIDTH]; /* pc of the lane's last barrier */
	int done;
	struct dmt_rec *q;  /* records of later epochs (divergent lanes ran ahead) */
	uint64_t nq, capq;
	struct dmt_grec *gq; /* the same for global records */
	uint64_t ngq, capgq;
};

/* The barriers one thread passed, in its order: pc[e] ended its epoch e. */
struct dmt_tbar {
	uint32_t *pc;
	uint32_t n, cap;
};

/* One thread of the reuse pass, which walks each thread's stream one
 * barrier epoch at a time: where it stopped, and the producing stores of
 * its shared loads in the current epoch (ever[cur .. end)). */
struct dmt_thread {
	struct weft_thread_iter it;
	uint32_t cur, end;
	uint8_t done;
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
	/* barriers (dmt_barrier.c): compact index of every epoch-starting bar */
	uint32_t *baridx;         /* [ninsts] or UINT32_MAX */
	uint32_t nbar;
	uint32_t *barpc;          /* [nbar] */
	uint8_t *bar_adj;         /* [nbar * nmem] DMT_ADJ_* bits, shared accesses only */
	uint8_t *bar_gcomm;       /* [nbar] a global communication crossed it */
	/* per-iteration distances of shared loads inside loops (dmt_iter.c) */
	uint8_t *in_loop;         /* [ninsts] the instruction's block is in a natural loop */
	uint32_t *iter_entries;   /* [ninsts] distinct (k, dTID) entries of the load */
	uint8_t *iter_over;       /* [ninsts] the load ran past DMT_MAX_ITERS or
				     DMT_ITER_MAX_ENTRIES: not carried per iteration */
	struct dmt_iterent *iters; /* open-addressed hash table */
	uint64_t capiters, niters;
	/* per CTA */
	struct dmt_rec *rec;      /* the shared records of one epoch, in lock-step order */
	uint64_t nrec, caprec;
	uint64_t recbase;         /* shared records of the earlier epochs */
	struct dmt_warp *warps;   /* [ngroups] */
	uint32_t capwarps;
	uint32_t *kth;            /* [nthreads * nmem] shared accesses per thread and pc */
	uint8_t *touched;         /* [nthreads * nmem] shared pcs of the thread's current epoch */
	uint32_t *ntouched;       /* [nthreads] of them set */
	uint64_t capkth;
	struct dmt_byte *bytes;   /* [capbytes] */
	uint64_t capbytes, usedbytes; /* [0, usedbytes) cleared for this CTA */
	/* the reuse pass (one barrier epoch at a time) */
	struct dmt_thread *thr;   /* [nthreads] */
	uint32_t capthr;
	uint32_t *rk;             /* [nthreads * nmem] loads so far per thread and pc */
	uint32_t *ever;           /* the epoch's shared loads' producing stores, by thread */
	uint64_t capever;
	struct dmt_val *vals;     /* open-addressed hash table, the epoch's values */
	uint64_t capvals, nvals;
	uint64_t *vused;          /* [capvals] slots taken this epoch (nvals of them) */
	struct dmt_tbar *tbar;    /* [nthreads] barriers each thread passed (global tracking only) */
	uint32_t captbar;
	/* global communication between threads of a CTA (dmt_global.c) */
	int track_global;
	struct dmt_grec *grec;    /* the global records of one epoch, in lock-step order */
	uint64_t ngrec, capgrec;
	struct dmt_gword *gw;
	uint64_t capgw, ngw;
	uint64_t *sw;             /* words the CTA stores to (address / 4 + 1), a hash set */
	uint64_t capsw, nsw;
	uint32_t *gflag_start;    /* [nblocks + 1] per block, its instructions that take */
	uint32_t *gflag_pcs;      /* a guard bit or an address (CSR), to find those words */
};

/* dmt_base.c */
int weft_dmt_params_check(const struct weft_dmt_params *prm, struct weft_error *err);
/* Grows *buf (realloc, contents kept) to hold at least n elements of size
 * sz, doubling from 64; 0 or WEFT_ERR_NOMEM. */
int weft_dmt_reserve(void **buf, uint64_t *cap, uint64_t n, size_t sz);

/* dmt_barrier.c */
int weft_dmt_barrier_init(struct weft_dmt *d);
void weft_dmt_barrier_free(struct weft_dmt_scratch *s);
/* Empties the barriers passed for a CTA of nthreads; 0 or WEFT_ERR_NOMEM. */
int weft_dmt_barrier_begin(struct weft_dmt_scratch *s, uint32_t nthreads);
/* Thread tid passed the barrier at pc; 0 or WEFT_ERR_NOMEM. */
int weft_dmt_barrier_pass(struct weft_dmt_scratch *s, uint32_t tid, uint32_t pc);
/* The barrier pc that ended epoch e of thread tid (UINT32_MAX: the thread
 * passed fewer barriers). */
uint32_t weft_dmt_barrier_at(const struct weft_dmt_scratch *s, uint32_t tid, uint32_t e);
/* What barrier b (pc) orders: kept and removed shared access pcs in its
 * neighbouring epochs (the first kept one in *kept_pc, UINT32_MAX when
 * none), and whether a global communication crosses it. */
void weft_dmt_barrier_orders(const struct weft_dmt *d, uint32_t pc, uint32_t *nkept, uint32_t *nremoved,
			uint32_t *kept_pc, int *gcomm);
/* Decides every barrier (dmt_finish.c calls it once the shared accesses
 * are decided). */
void weft_dmt_barrier_decide(struct weft_dmt *d);

/* dmt_iter.c */
int weft_dmt_iter_init(struct weft_dmt *d, struct weft_error *err);
void weft_dmt_iter_free(struct weft_dmt_scratch *s);
/* Marks a load instance without a producing store in the CTA. */
#define DMT_ITER_NOWRITER INT32_MIN
/* One shared-load instance: the k-th execution of pc by a thread read a
 * value at distance dtid (DMT_ITER_NOWRITER: none). 0 or WEFT_ERR_NOMEM. */
int weft_dmt_iter_add(struct weft_dmt_scratch *s, uint32_t pc, uint32_t k, int32_t dtid);
/* For every shared load in a loop that the overall distance does not
 * carry: is it carried with one distance per iteration? Sets per_iter,
 * niters, iter_count, iter_local, cascade and elevators. */
int weft_dmt_iter_decide(struct weft_dmt *d, struct weft_error *err);


/* dmt_arith.c */
/* Address arithmetic and guards that only served removed instructions:
 * sets WEFT_DMT_RM_ADDR_ARITH and WEFT_DMT_RM_GUARD. */
int weft_dmt_remove_arith(struct weft_dmt *d, struct weft_error *err);

/* dmt_global.c */
/* Appends g to *buf (n, cap); 0 or WEFT_ERR_NOMEM. */
int weft_dmt_grec_push(struct dmt_grec **buf, uint64_t *n, uint64_t *cap, const struct dmt_grec *g);
/* The per-block lists weft_dmt_global_begin walks (kernels whose global
 * accesses are tracked); 0 or WEFT_ERR_NOMEM. */
int weft_dmt_global_init(struct weft_dmt *d);
/* Empties the word table for CTA c and finds the words its threads store
 * to (a walk over their streams); 0 or WEFT_ERR_NOMEM. */
int weft_dmt_global_begin(struct weft_dmt *d, const struct weft_cta_trace *c);
/* Does the CTA store to a word of the access at addr (bytes wide)? Only
 * those words are tracked: a load of others is not recorded. */
int weft_dmt_global_stored(const struct weft_dmt_scratch *s, uint64_t addr, uint32_t bytes);
/* Replays one epoch's global records (s->grec, in the order a stable sort
 * of the CTA's records by epoch gives) and empties them; adds to
 * d->tot.global_comm and global_order and marks the barriers such an
 * ordering crosses (bar_gcomm). Needs the barriers every thread passed
 * so far (weft_dmt_barrier_pass): each thread not exited is past the
 * epoch. 0 or WEFT_ERR_NOMEM. */
int weft_dmt_global_replay(struct weft_dmt *d);
void weft_dmt_global_free(struct weft_dmt_scratch *s);

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

/* dmt_merge.c */
/* Adds what the CTAs analysed into part (weft_dmt_init of d's program and
 * parameters, then weft_dmt_add_cta) added, to d: as weft_dmt_add_cta on
 * those CTAs would have. A histogram d has not got yet moves from part
 * (part is only to be freed after). 0 or WEFT_ERR_NOMEM. */
int weft_dmt_merge(struct weft_dmt *d, struct weft_dmt *part, struct weft_error *err);
/* dmt_iter.c: the per-iteration table's part of weft_dmt_merge */
int weft_dmt_iter_merge(struct weft_dmt_scratch *s, const struct weft_dmt_scratch *part, uint32_t ninsts);

#endif
