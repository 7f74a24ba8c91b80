/*
 * trace_wlog.h - internal to the trace writer: the record of one CTA as the
 * emulator hands it over, warp by warp (trace_wlog.c). A warp event is
 * logged once for all its lanes (which blocks the lanes entered, their
 * guard bits, the active lanes' addresses side by side), so recording costs
 * one append per warp instruction instead of one per lane; the encoder
 * (trace_write.c) reads each thread's sequence out of its warp's log in
 * thread order, which is the order the file stores them in.
 */
#ifndef WEFT_TRACE_WLOG_H
#define WEFT_TRACE_WLOG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A memory instruction executed by a warp, the warp's k-th: lane l's
 * address is addr[32 * k + l] (valid for the active lanes). For the encoder's fast
 * path (lanes whose sequences line up with the lane before): a lane's
 * step from lane l-1 is its address minus lane l-1's; `first` has the
 * lanes making their first access by m in the CTA, `nz` the others whose
 * step differs from their step at their previous access by m (the
 * accesses where the predictor's fast path has a nonzero residual). */
struct wt_aev { /* 20 bytes: the encoder reads it once per lane */
	uint32_t m;      /* memory-instruction index (struct wt_tab) */
	uint32_t active;
	uint32_t first, nz;
	uint8_t space;   /* resolved state space */
};

struct wt_wlog {
	uint32_t *blk;       /* pairs: block entered, lanes that entered it */
	size_t nblk, capblk; /* pairs */
	uint32_t *grd;       /* pairs: lanes whose guard held, lanes that reached it */
	size_t ngrd, capgrd;
	struct wt_aev *aev;
	size_t naev, capaev;
	uint64_t *addr;
	size_t naddr, capaddr;
	/* the lanes taking part in each run of WT_WLOG_RUN block entries and
	 * of WT_WLOG_RUN memory events: reading a lane out skips the runs it
	 * has no part in (divergent warps, where one lane loops alone) */
	uint32_t *blksum, *aevsum;
	size_t capblksum, capaevsum;
	/* once weft_trace_wlog_lanes listed them (lanes_ready): the events
	 * lane l took part in are lev[la0[l] .. la0[l + 1]) */
	uint32_t *lev;
	size_t caplev;
	size_t la0[33];
	int lanes_ready;
	size_t nlacc; /* lanes' accesses: the active lanes of all events */
	/* bit l (l >= 1): lanes l and l-1 were both active or both inactive at
	 * every memory instruction so far, so their access sequences line up */
	uint32_t agree;
	/* bit l (l >= 1): lanes l and l-1 entered the same blocks (bagree),
	 * and reached the same guards with the same outcome (gagree), so
	 * their path and guard streams are the same bytes */
	uint32_t bagree, gagree;
	/* the lanes active at every memory event so far (their access
	 * sequence is the whole log) */
	uint32_t aall;
	/* per memory instruction m: the lanes that accessed by m so far; m's
	 * last event, pending: its offset in addr (WT_WLOG_NONE: none) and
	 * its lanes (lastmask), whose steps from the lane before at it are
	 * read from addr, not yet copied to step; each lane's step at its
	 * last access by m otherwise ([m * 32 + lane]). Copied only when an
	 * event by m with other lanes comes: most events by m are a warp's
	 * only one (first accesses), or have the lanes of the one before. */
	uint32_t nm, capm;
	uint32_t *seen;
	uint64_t *lastev;
	uint32_t *lastmask;
	uint64_t *step;
};
#define WT_WLOG_NONE UINT64_MAX

#define WT_WLOG_RUN 32

/* One thread's sequences gathered out of a warp log. */
struct wt_seq {
	uint32_t *blocks;
	size_t nb, capb;
	uint64_t *aa;  /* accesses: address, memory instruction, space */
	uint32_t *am;
	uint8_t *asp;
	size_t na, capa;
};

/* Sizes the per-instruction state for nm memory instructions (a launch's
 * program); -1 when out of memory. */
int weft_trace_wlog_prepare(struct wt_wlog *g, uint32_t nm);
/* Empties the log for a new CTA. seen and lastev were written only for
 * the memory instructions of the log's events, so those are cleared, not
 * all nm (a tiny CTA's warps make fewer accesses than a large program
 * has memory instructions: callgrind, gaussian at default size, 40740
 * CTAs, spent 33M instructions in whole-table memsets here). */
static inline void wt_wlog_reset(struct wt_wlog *g)
{
	if (g->naev < g->nm) {
		for (size_t e = 0; e < g->naev; e++) {
			g->seen[g->aev[e].m] = 0;
			g->lastev[g->aev[e].m] = WT_WLOG_NONE;
		}
	} else if (g->nm) {
		memset(g->seen, 0, (size_t)g->nm * sizeof(uint32_t));
		memset(g->lastev, 0xff, (size_t)g->nm * sizeof(uint64_t));
	}
	g->nblk = g->ngrd = g->naev = g->naddr = 0;
	g->lanes_ready = 0;
	g->nlacc = 0;
	g->agree = 0xffffffffu;
	g->bagree = g->gagree = 0xffffffffu;
	g->aall = 0xffffffffu;
}
void weft_trace_wlog_free(struct wt_wlog *g);
/* Appends; -1 when out of memory (the log is unchanged). */
int weft_trace_wlog_block(struct wt_wlog *g, uint32_t block, uint32_t lanes);
int weft_trace_wlog_guard(struct wt_wlog *g, uint32_t active, uint32_t lanes);
/* addr: [32] per-lane addresses, valid for the active lanes (active != 0);
 * m < the nm of weft_trace_wlog_prepare. */
int weft_trace_wlog_access(struct wt_wlog *g, uint32_t m, uint8_t space, uint32_t active, const uint64_t *addr);

/* The lanes of g that weft_trace_wlog_marks holds for: lanes l >= 2
 * active at every memory event (aall) that line up with lane l-1, which
 * lines up with lane l-2. The encoder's fast path (trace_write.c) then
 * took lane l-1 too. */
static inline uint32_t wt_wlog_marks_lanes(const struct wt_wlog *g)
{
	return g->aall & g->agree & (g->agree << 1) & ~3u;
}
/* The events of the finished log g where a lane of wt_wlog_marks_lanes can
 * differ from the predictor's fast path (a nonzero residual or a
 * mispredicted space), into u (room for g->naev) in order; returns how
 * many. In that path lane l's prediction is lane l-1's address plus D[m],
 * the step between the two lanes at the last nonzero residual by m, and
 * D[m] starts each lane at the tid stride d0[m], which is D after the
 * lane before's first access by m (trace_format.h, struct wt_fast). So a
 * residual can be nonzero only where the lane's step from lane l-1
 * changed: since its last access by m (nz), or at its first access by m,
 * from lane l-1's step from lane l-2 at the same event (lane l-1's first
 * access by m too). A space can be mispredicted only where it is not m's
 * static space (mspace[m], 0 for generic) or, for a generic m, not the
 * space of m's event before (for m's first event, m's last, where lane
 * l-1, which made the same accesses, left it). sp: scratch, one byte per
 * memory instruction. */
size_t weft_trace_wlog_marks(const struct wt_wlog *g, const uint8_t *mspace, uint8_t *sp, uint32_t *u);

/* Lists the events each lane of the finished log took part in (lev,
 * la0), in one pass over the log, so that reading a lane of a divergent
 * warp out visits its own events only; -1 when out of memory (the lists
 * are not used then). */
int weft_trace_wlog_lanes(struct wt_wlog *g);
/* Lane l's blocks, or its accesses, out of g into s (replacing what s
 * held of them); -1 when out of memory. */
int weft_trace_wlog_blocks(const struct wt_wlog *g, uint32_t l, struct wt_seq *s);
int weft_trace_wlog_accesses(const struct wt_wlog *g, uint32_t l, struct wt_seq *s);
void weft_trace_seq_free(struct wt_seq *s);

#endif
