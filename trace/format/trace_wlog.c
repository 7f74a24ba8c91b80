/*
 * trace_wlog.c - the trace writer's per-warp record of a CTA
 * (trace_wlog.h): appending warp events, and reading one lane's blocks and
 * accesses back out.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_wlog.h"

/* Room for one more element of size elem in *p (capacity *cap elements). */
static int room(void **p, size_t n, size_t *cap, size_t elem, size_t more)
{
	if (n + more <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 64;
	while (nc < n + more) {
		if (nc > ((size_t)-1 / 2) / elem)
			return -1;
		nc *= 2;
	}
	void *np = realloc(*p, nc * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

void weft_trace_wlog_free(struct wt_wlog *g)
{
	free(g->blk);
	free(g->grd);
	free(g->aev);
	free(g->addr);
	free(g->seen);
	free(g->lastev);
	free(g->lastmask);
	free(g->blksum);
	free(g->aevsum);
	free(g->step);
	free(g->lev);
	memset(g, 0, sizeof(*g));
}

int weft_trace_wlog_prepare(struct wt_wlog *g, uint32_t nm)
{
	if (nm > g->capm) {
		uint32_t *ns = realloc(g->seen, (size_t)nm * sizeof(uint32_t));
		if (!ns)
			return -1;
		g->seen = ns;
		uint64_t *nl = realloc(g->lastev, (size_t)nm * sizeof(uint64_t));
		if (!nl)
			return -1;
		g->lastev = nl;
		uint32_t *nk = realloc(g->lastmask, (size_t)nm * sizeof(uint32_t));
		if (!nk)
			return -1;
		g->lastmask = nk;
		uint64_t *np = realloc(g->step, (size_t)nm * 32 * sizeof(uint64_t));
		if (!np)
			return -1;
		g->step = np;
		g->capm = nm;
	}
	g->nm = nm;
	/* a new program: the whole tables (the log's events may name
	 * another program's memory instructions) */
	g->naev = 0;
	if (nm) {
		memset(g->seen, 0, (size_t)nm * sizeof(uint32_t));
		memset(g->lastev, 0xff, (size_t)nm * sizeof(uint64_t));
	}
	wt_wlog_reset(g);
	return 0;
}

int weft_trace_wlog_block(struct wt_wlog *g, uint32_t block, uint32_t lanes)
{
	if (room((void **)&g->blk, g->nblk, &g->capblk, 2 * sizeof(uint32_t), 1) ||
	    room((void **)&g->blksum, g->nblk / WT_WLOG_RUN, &g->capblksum, sizeof(uint32_t), 1))
		return -1;
	if (g->nblk % WT_WLOG_RUN == 0)
		g->blksum[g->nblk / WT_WLOG_RUN] = 0;
	g->blksum[g->nblk / WT_WLOG_RUN] |= lanes;
	g->bagree &= ~(lanes ^ (lanes << 1));
	g->blk[2 * g->nblk] = block;
	g->blk[2 * g->nblk + 1] = lanes;
	g->nblk++;
	return 0;
}

int weft_trace_wlog_guard(struct wt_wlog *g, uint32_t active, uint32_t lanes)
{
	if (room((void **)&g->grd, g->ngrd, &g->capgrd, 2 * sizeof(uint32_t), 1))
		return -1;
	g->gagree &= ~((lanes ^ (lanes << 1)) | (active ^ (active << 1)));
	g->grd[2 * g->ngrd] = active;
	g->grd[2 * g->ngrd + 1] = lanes;
	g->ngrd++;
	return 0;
}

int weft_trace_wlog_access(struct wt_wlog *g, uint32_t m, uint8_t space, uint32_t active, const uint64_t *addr)
{
	if (g->naev >= UINT32_MAX || /* lev holds 32-bit event numbers */
	    room((void **)&g->aev, g->naev, &g->capaev, sizeof(*g->aev), 1) ||
	    room((void **)&g->addr, g->naddr, &g->capaddr, sizeof(uint64_t), 32) ||
	    room((void **)&g->aevsum, g->naev / WT_WLOG_RUN, &g->capaevsum, sizeof(uint32_t), 1))
		return -1;
	if (g->naev % WT_WLOG_RUN == 0)
		g->aevsum[g->naev / WT_WLOG_RUN] = 0;
	g->aevsum[g->naev / WT_WLOG_RUN] |= active;
	g->lanes_ready = 0;
	if (active == 0xffffffffu) {
		g->nlacc += 32;
	} else { /* popcount, inline (no library call without -mpopcnt) */
		uint32_t v = active - ((active >> 1) & 0x55555555u);
		v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
		g->nlacc += (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
	}
	struct wt_aev *e = &g->aev[g->naev++];
	e->m = m;
	e->active = active;
	e->space = space;
	/* all 32 slots, active or not: a lane's address is at 32 * k +
	 * lane, with no counting of the lanes before it */
	uint64_t *d = g->addr + g->naddr;
	memcpy(d, addr, 32 * sizeof(uint64_t));
	g->naddr += 32;
	uint64_t *st = g->step + (size_t)m * 32;
	uint32_t nz = 0;
	uint64_t lo = g->lastev[m];
	uint32_t lm = g->lastmask[m];
	if (lo != WT_WLOG_NONE && lm == active) {
		/* the lanes of m's pending event: a lane's step changed where
		 * its distance from its access there differs from lane l-1's */
		const uint64_t *p = g->addr + lo;
		if (active == 0xffffffffu) {
			/* usually all lanes moved by the same distance (checked
			 * first, branch-free: an OR of differences the compiler
			 * vectorises with SSE2 alone; callgrind, sgemm default:
			 * this check 25.8M instructions -> 12.4M) */
			uint64_t r0 = d[0] - p[0], diff = 0;
			for (uint32_t l = 0; l < 32; l++)
				diff |= (d[l] - p[l]) ^ r0;
			if (diff)
				for (uint32_t l = 1; l < 32; l++)
					nz |= (uint32_t)((d[l] - p[l]) != (d[l - 1] - p[l - 1])) << l;
		} else {
			for (uint32_t b = active & (active << 1); b; b &= b - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(b);
				nz |= (uint32_t)((d[l] - d[l - 1]) != (p[l] - p[l - 1])) << l;
			}
		}
	} else {
		if (lo != WT_WLOG_NONE) { /* other lanes: the pending steps to st */
			const uint64_t *p = g->addr + lo;
			for (uint32_t b = lm & (lm << 1); b; b &= b - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(b);
				st[l] = p[l] - p[l - 1];
			}
		}
		/* the lanes active with lane l-1 active too that accessed by m
		 * before (the others' first access) */
		for (uint32_t b = active & (active << 1) & g->seen[m]; b; b &= b - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(b);
			nz |= (uint32_t)((d[l] - d[l - 1]) != st[l]) << l;
		}
	}
	g->lastev[m] = g->naddr - 32;
	g->lastmask[m] = active;
	e->first = active & ~g->seen[m];
	e->nz = nz & ~e->first;
	g->seen[m] |= active;
	g->agree &= ~(active ^ (active << 1));
	g->aall &= active;
	return 0;
}

size_t weft_trace_wlog_marks(const struct wt_wlog *g, const uint8_t *mspace, uint8_t *sp, uint32_t *u)
{
	uint32_t lanes = wt_wlog_marks_lanes(g);
	for (size_t e = 0; e < g->naev; e++)
		sp[g->aev[e].m] = g->aev[e].space;
	size_t n = 0;
	for (size_t e = 0; e < g->naev; e++) {
		const struct wt_aev *E = &g->aev[e];
		uint8_t st = mspace[E->m];
		uint8_t ps = st != 0 ? st : sp[E->m];
		sp[E->m] = E->space;
		int mark = (E->nz & lanes) != 0 || E->space != ps;
		/* the lanes making their first access by m whose step from
		 * lane l-1 differs from lane l-1's from lane l-2 (all three
		 * are active): one is enough to mark the event */
		const uint64_t *a = g->addr + 32 * e;
		uint32_t f = mark ? 0 : E->first & lanes;
		if (f && E->active == 0xffffffffu) {
			/* every lane moved from the one before by one step:
			 * none differs (an OR over 30 lanes, vectorised) */
			uint64_t x = 0;
			for (uint32_t l = 2; l < 32; l++)
				x |= (a[l] - a[l - 1]) ^ (a[l - 1] - a[l - 2]);
			if (!x)
				f = 0;
		}
		for (uint32_t b = f; b; b &= b - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(b);
			if (a[l] - a[l - 1] != a[l - 1] - a[l - 2]) {
				mark = 1;
				break;
			}
		}
		u[n] = (uint32_t)e;
		n += (size_t)mark;
	}
	return n;
}

int weft_trace_wlog_lanes(struct wt_wlog *g)
{
	size_t cnt[32] = { 0 }, full = 0;
	for (size_t i = 0; i < g->naev; i++) {
		uint32_t a = g->aev[i].active;
		if (a == 0xffffffffu) { /* counted once for all lanes */
			full++;
			continue;
		}
		for (; a; a &= a - 1)
			cnt[__builtin_ctz(a)]++;
	}
	g->la0[0] = 0;
	for (int l = 0; l < 32; l++)
		g->la0[l + 1] = g->la0[l] + cnt[l] + full;
	if (room((void **)&g->lev, 0, &g->caplev, sizeof(uint32_t), g->la0[32]))
		return -1;
	size_t at[32];
	memcpy(at, g->la0, sizeof(at));
	for (size_t i = 0; i < g->naev; i++)
		for (uint32_t a = g->aev[i].active; a; a &= a - 1)
			g->lev[at[__builtin_ctz(a)]++] = (uint32_t)i;
	g->lanes_ready = 1;
	return 0;
}

int weft_trace_wlog_blocks(const struct wt_wlog *g, uint32_t l, struct wt_seq *s)
{
	s->nb = 0;
	if (room((void **)&s->blocks, 0, &s->capb, sizeof(uint32_t), g->nblk))
		return -1;
	size_t n = 0;
	/* without branches: in divergent warps whether a lane took part is
	 * unpredictable (perf: bfs) */
	for (size_t r = 0; r * WT_WLOG_RUN < g->nblk; r++) {
		if (!((g->blksum[r] >> l) & 1))
			continue;
		size_t end = (r + 1) * WT_WLOG_RUN < g->nblk ? (r + 1) * WT_WLOG_RUN : g->nblk;
		for (size_t i = r * WT_WLOG_RUN; i < end; i++) {
			s->blocks[n] = g->blk[2 * i];
			n += (g->blk[2 * i + 1] >> l) & 1;
		}
	}
	s->nb = n;
	return 0;
}

int weft_trace_wlog_accesses(const struct wt_wlog *g, uint32_t l, struct wt_seq *s)
{
	s->na = 0;
	if (s->capa < g->naev) {
		size_t c = s->capa;
		if (room((void **)&s->aa, 0, &c, sizeof(uint64_t), g->naev))
			return -1;
		c = s->capa;
		if (room((void **)&s->am, 0, &c, sizeof(uint32_t), g->naev))
			return -1;
		if (room((void **)&s->asp, 0, &s->capa, 1, g->naev))
			return -1;
	}
	size_t n = 0;
	if (g->lanes_ready) {
		const uint32_t *x = g->lev + g->la0[l];
		n = g->la0[l + 1] - g->la0[l];
		for (size_t k = 0; k < n; k++) {
			const struct wt_aev *e = &g->aev[x[k]];
			s->aa[k] = g->addr[32 * (size_t)x[k] + l];
			s->am[k] = e->m;
			s->asp[k] = e->space;
		}
		s->na = n;
		return 0;
	}
	/* without branches, as above: for a lane that is not active the
	 * entry written is overwritten or left out */
	for (size_t r = 0; r * WT_WLOG_RUN < g->naev; r++) {
		if (!((g->aevsum[r] >> l) & 1))
			continue;
		size_t end = (r + 1) * WT_WLOG_RUN < g->naev ? (r + 1) * WT_WLOG_RUN : g->naev;
		for (size_t i = r * WT_WLOG_RUN; i < end; i++) {
			const struct wt_aev *e = &g->aev[i];
			uint64_t in = (e->active >> l) & 1;
			/* an inactive lane reads addr[0] (in cache), not its
			 * slot: divergent warps' logs are large */
			s->aa[n] = g->addr[(32 * i + l) & (0 - in)];
			s->am[n] = e->m;
			s->asp[n] = e->space;
			n += in;
		}
	}
	s->na = n;
	return 0;
}

void weft_trace_seq_free(struct wt_seq *s)
{
	free(s->blocks);
	free(s->aa);
	free(s->am);
	free(s->asp);
	memset(s, 0, sizeof(*s));
}
