/*
 * trace_decode.c - decodes one CTA of a decompressed chunk into the flat
 * arrays of a struct weft_cta_trace (docs/trace-format.md "Chunk payload"):
 * per thread its block path, guard bytes, addresses and spaces, with the
 * address predictor of trace_format.h. Threads that repeat the previous
 * thread's path take the predictor's fast path. Every length and index from
 * the payload is bounds-checked: a malformed payload is an error naming the
 * chunk's offset, never a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_read.h"

/* Short compares and copies inline: threads of a few dozen instructions
 * are common, and a libc call per thread would cost more than the work. */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Grows *p to hold need elements (doubling). A first allocation is sized
 * to the need, not to a fixed floor: a chunk of many small CTAs keeps one
 * decoded CTA per CTA in the slots of trace_foreach.c, and a floor of 1024
 * elements per array made those cost ~90 KB each (gaussian at large size:
 * 60 MB of a 13 MB trace's replay). */
static int ensure(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : (need < 16 ? 16 : need);
	while (nc < need)
		nc *= 2;
	void *np = realloc(*p, nc * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

void weft_cta_trace_init(struct weft_cta_trace *c)
{
	memset(c, 0, sizeof(*c));
}

void weft_cta_trace_free(struct weft_cta_trace *c)
{
	struct wt_ctapriv *q = c->priv;
	if (q) {
		free(q->blocks);
		free(q->guards);
		free(q->aoff);
		free(q->addrs);
		free(q->spaces);
		free(q->threads);
		free(q->offs);
		free(q);
	}
	memset(c, 0, sizeof(*c));
}

/* A space's base in a CTA whose first address in that space is 4 GiB or
 * more: that address less 2^31, so that the addresses within 2 GiB either
 * side of it are 4-byte offsets (a base of 0 serves the spaces below). */
#define WT_ADDR_BIAS ((uint64_t)1 << 31)

/* Keeps a thread's n full addresses A (spaces S: below WEFT_SPACE_COUNT,
 * as the decoder and the program's reader check; one that is not makes
 * the CTA's addresses full) at position at of q's arrays: as offsets from
 * their space's base while every address fits, else, from the first that
 * does not, the CTA's addresses in full (q->wide). A space's base is 0 until an address of it does not fit:
 * then, if no earlier access of the CTA was in that space (*used, 1 <<
 * space), that address less WT_ADDR_BIAS. -1 out of memory. */
static inline int store_addrs(struct wt_ctapriv *q, const uint64_t *A, const uint8_t *S, size_t at,
			      size_t n, uint32_t *used)
{
	if (!q->wide) {
		uint64_t *base = q->abase;
		uint32_t u = *used;
		uint32_t *out = q->aoff + at;
		size_t i = 0;
		for (; i < n; i++) {
			uint8_t sp = S[i];
			if (sp >= WEFT_SPACE_COUNT)
				break;
			uint64_t off = A[i] - base[sp];
			if (off > UINT32_MAX) {
				if (u >> sp & 1)
					break; /* the space's base is fixed: in full */
				base[sp] = A[i] - WT_ADDR_BIAS;
				off = WT_ADDR_BIAS;
			}
			u |= 1u << sp;
			out[i] = (uint32_t)off;
		}
		*used = u;
		if (i == n)
			return 0;
		/* one does not fit: the CTA's addresses so far in full */
		if (ensure((void **)&q->addrs, &q->capw, at + n + 1, sizeof(uint64_t)))
			return -1;
		for (size_t j = 0; j < at; j++)
			q->addrs[j] = q->abase[q->spaces[j]] + q->aoff[j];
		q->wide = 1;
	}
	if (ensure((void **)&q->addrs, &q->capw, at + n + 1, sizeof(uint64_t)))
		return -1;
	memcpy(q->addrs + at, A, n * sizeof(*A));
	return 0;
}

void weft_trace_dscratch_free(struct wt_dscratch *d)
{
	weft_trace_pred_free(&d->pred);
	weft_trace_fast_free(&d->fast);
	free(d->ms[0]);
	free(d->ms[1]);
	free(d->ta[0]);
	free(d->ta[1]);
	memset(d, 0, sizeof(*d));
}

int weft_trace_decode_cta(const struct weft_trace *t, const struct wt_chunk *ch, const struct wt_buf *raw,
		  uint32_t cta, struct weft_cta_trace *c, struct wt_dscratch *D, struct weft_error *err)
{
	const struct wt_launch *L = &t->launches[ch->launch];
	const struct wt_tab *T = &L->tab;
	struct wt_ctapriv *q = c->priv;
	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q)
			goto nomem;
		c->priv = q;
	}
	if (!D->pred.last || D->pred.nm != T->nm) {
		weft_trace_pred_free(&D->pred);
		if (weft_trace_pred_init(&D->pred, T->nm))
			goto nomem;
	}
	uint32_t k = cta - ch->first;
	size_t pos[4] = { (size_t)ch->ncta * WT_CTA_ENTRY, 0, 0, 0 };
	size_t len[4];
	for (int s = 1; s < 4; s++) {
		pos[s] = pos[s - 1];
		for (uint32_t i = 0; i < ch->ncta; i++)
			pos[s] += wt_get32(raw->p + (size_t)i * WT_CTA_ENTRY + 4 + 4 * (s - 1));
	}
	for (uint32_t i = 0; i < k; i++)
		for (int s = 0; s < 4; s++)
			pos[s] += wt_get32(raw->p + (size_t)i * WT_CTA_ENTRY + 4 + 4 * s);
	for (int s = 0; s < 4; s++)
		len[s] = wt_get32(raw->p + (size_t)k * WT_CTA_ENTRY + 4 + 4 * s);
	struct wt_rd rp = { raw->p + pos[0], raw->p + pos[0] + len[0], 0 };
	struct wt_rd rg = { raw->p + pos[1], raw->p + pos[1] + len[1], 0 };
	struct wt_rd ra = { raw->p + pos[2], raw->p + pos[2] + len[2], 0 };
	struct wt_rd rs = { raw->p + pos[3], raw->p + pos[3] + len[3], 0 };
	uint32_t nth = L->pub.threads_per_cta;
	size_t ca0 = q->capa;
	if (ensure((void **)&q->threads, &q->capt, nth + 1, sizeof(*q->threads)) ||
	    ensure((void **)&q->offs, &q->capo, (size_t)nth * 3 + 3, sizeof(size_t)) ||
	    ensure((void **)&q->blocks, &q->capb, 1, sizeof(uint32_t)) ||
	    ensure((void **)&q->guards, &q->capg, 8, 1) || /* never NULL, even when unused */
	    ensure((void **)&q->aoff, &ca0, 1, sizeof(uint32_t)) ||
	    ensure((void **)&q->spaces, &q->capa, 1, 1) ||
	    ensure((void **)&D->ta[0], &D->capta[0], 1, sizeof(uint64_t)) ||
	    ensure((void **)&D->ta[1], &D->capta[1], 1, sizeof(uint64_t)) ||
	    ensure((void **)&D->ms[0], &D->capm[0], 1, sizeof(uint32_t)) ||
	    ensure((void **)&D->ms[1], &D->capm[1], 1, sizeof(uint32_t)))
		goto nomem;
	size_t nb_all = 0, ng_all = 0, na_all = 0;
	q->wide = 0;
	memset(q->abase, 0, sizeof(q->abase));
	uint32_t used = 0; /* the spaces an access was stored in (1 << space) */
	struct wt_pred *P = &D->pred;
	weft_trace_pred_cta(P);
	uint32_t nm = T->nm;
	if (!D->fast.first || D->fast.nm != nm) {
		weft_trace_fast_free(&D->fast);
		if (weft_trace_fast_init(&D->fast, nm))
			goto nomem;
	}
	struct wt_fast *F = &D->fast;
	wt_fast_cta(F);
	size_t pnb = 0, png = 0, pnev = 0; /* previous thread's blocks, guards, stored events */
	unsigned pmb = 0; /* D->ms[pmb]: the previous general-path thread's memory instructions */
	const uint8_t *pcode = NULL;       /* previous thread's path codes */
	size_t pcode_len = 0;
	const char *what = NULL;
	/* runs of zero address residuals / right space predictions */
	uint64_t zrun = wt_rd_varint(&ra), srun = wt_rd_varint(&rs);
	const uint8_t *nsucc = T->nsucc;
	const uint32_t(*succ)[2] = T->succ;
	const uint8_t *pgpk = NULL; /* previous thread's packed guard bits */
	for (uint32_t th = 0; th < nth; th++) {
		struct weft_thread_trace *tt = &q->threads[th];
		uint64_t nb = wt_rd_varint(&rp);
		/* every two-successor block on the path costs a path byte, and
		 * one-successor chains are at most nblocks long */
		if (rp.bad || nb > ((uint64_t)(rp.end - rp.p) + 1) * ((uint64_t)T->nblocks + 1)) {
			what = "path length";
			goto bad;
		}
		uint32_t cur = 0;
		size_t ng = 0, nev = 0;
		const uint8_t *pp = rp.p, *pe = rp.end;
		/* the same codes as the previous thread decode to the same blocks:
		 * the two threads share them */
		int path_same = th > 0 && nb == pnb && (size_t)(pe - pp) >= pcode_len &&
				same_bytes(pp, pcode, pcode_len);
		size_t boff = nb_all;
		if (path_same) {
			boff = q->offs[3 * (th - 1)];
		} else if (ensure((void **)&q->blocks, &q->capb, nb_all + nb + 1, sizeof(uint32_t))) {
			goto nomem;
		}
		uint32_t *bl = q->blocks + boff;
		if (path_same) {
			ng = png;
			nev = pnev;
			pp += pcode_len;
			nb = 0; /* skip the decoding loop */
		}
		const uint8_t *code0 = pp;
		for (uint64_t i = 0; i < nb; i++) {
			if (i > 0) {
				uint8_t ns = nsucc[cur];
				if (ns == 1) {
					cur = succ[cur][0];
				} else if (ns == 2 && pp < pe && *pp <= WT_PATH_SUCC1) {
					cur = succ[cur][*pp++];
				} else if (ns == 2 && pp < pe && *pp == WT_PATH_ESCAPE) {
					rp.p = pp + 1;
					uint64_t x = wt_rd_varint(&rp);
					pp = rp.p;
					if (rp.bad || x >= T->nblocks) {
						what = "path escape block";
						goto bad;
					}
					cur = (uint32_t)x;
				} else {
					what = ns == 2 ? "path code" : "path (continues after an exit)";
					goto bad;
				}
			}
			bl[i] = cur;
			ng += T->nguard[cur];
			nev += T->ev_start[cur + 1] - T->ev_start[cur];
		}
		if (path_same) {
			nb = pnb;
		} else {
			pcode = code0;
			pcode_len = (size_t)(pp - code0);
			nb_all += nb;
		}
		rp.p = pp;
		/* guards: packed bits -> one byte each */
		size_t gbytes = (ng + 7) / 8;
		if ((size_t)(rg.end - rg.p) < gbytes) {
			what = "guard stream";
			goto bad;
		}
		/* the same packed bits as the previous thread: share its bytes */
		int guards_same = path_same && (ng == 0 || same_bytes(rg.p, pgpk, gbytes));
		size_t goff = ng_all;
		if (guards_same && ng) {
			goff = q->offs[3 * (th - 1) + 1];
		} else if (ng) {
			if (ensure((void **)&q->guards, &q->capg, ng_all + ng + 8, 1))
				goto nomem;
			uint8_t *g = q->guards + ng_all;
			for (size_t i = 0; i < ng; i++)
				g[i] = (rg.p[i >> 3] >> (i & 7)) & 1;
			if (ng & 7 && rg.p[gbytes - 1] >> (ng & 7)) {
				what = "guard stream padding";
				goto bad;
			}
			ng_all += ng;
		}
		const uint8_t *gd = q->guards + goff;
		pgpk = rg.p;
		rg.p += gbytes;
		int same = guards_same && P->pn > 0;
		q->offs[3 * th] = boff;
		q->offs[3 * th + 1] = goff;
		q->offs[3 * th + 2] = na_all;
		tt->nblocks = (uint32_t)nb;
		tt->nguards = (uint32_t)ng;
		pnb = nb;
		png = ng;
		pnev = nev;
		/* addresses: at most one per stored event on the path */
		if (na_all + nev + 1 > q->capa) {
			size_t ca = q->capa;
			if (ensure((void **)&q->aoff, &ca, na_all + nev + 1, sizeof(uint32_t)) ||
			    ensure((void **)&q->spaces, &q->capa, na_all + nev + 1, 1))
				goto nomem;
		}
		/* this thread's full addresses go to the buffer the previous
		 * thread's are not in */
		unsigned tb = th & 1;
		if (ensure((void **)&D->ta[tb], &D->capta[tb], nev + 1, sizeof(uint64_t)))
			goto nomem;
		/* this thread's memory instructions go to the buffer the
		 * previous thread's are not in (which never moves here) */
		if (ensure((void **)&D->ms[pmb ^ 1], &D->capm[pmb ^ 1], nev + 1, sizeof(uint32_t)))
			goto nomem;
		if (th > 0) /* the buffers may have moved: the previous thread's again */
			wt_pred_thread_end(P, D->ta[tb ^ 1], D->ms[pmb], P->pn);
		uint64_t *A = D->ta[tb];
		uint32_t *M = D->ms[pmb ^ 1];
		uint8_t *S = q->spaces + na_all;
		uint32_t n = 0;
		if (same) {
			/* Same path and guards as the previous thread, so the same
			 * memory instructions in the same order: every access lines
			 * up, and the predictor reduces to "the previous thread's
			 * address plus m's current offset from it" (D[m], starting
			 * at m's tid stride). Same results as the general loop
			 * below, without its bookkeeping per access. */
			const uint64_t *PA = P->pa;
			const uint32_t *PM = P->pm;
			uint32_t pn = P->pn;
			const uint8_t *mspace = T->mspace;
			uint8_t *lastsp = P->lastsp;
			weft_trace_fast_begin(F, P);
			const uint64_t *D = F->D;
			if (zrun >= pn && srun >= pn) {
				/* every prediction holds: no stream to read */
				uint8_t *SP = F->sp;
				for (uint32_t u = 0; u < F->nused; u++) {
					uint32_t m = F->used[u];
					SP[m] = mspace[m] ? mspace[m] : lastsp[m];
				}
				for (uint32_t i = 0; i < pn; i++) {
					uint32_t m = PM[i];
					A[i] = PA[i] + D[m];
					S[i] = SP[m];
				}
				zrun -= pn;
				srun -= pn;
			} else {
				for (uint32_t i = 0; i < pn; i++) {
					uint32_t m = PM[i];
					uint64_t a = PA[i] + D[m];
					if (zrun) {
						zrun--;
					} else {
						uint64_t res = wt_rd_varint(&ra);
						zrun = wt_rd_varint(&ra);
						if (ra.bad || res == 0) {
							what = "address stream";
							goto bad;
						}
						a += (uint64_t)wt_unzigzag(res);
						wt_fast_fix(F, P, i, m, a);
					}
					uint8_t sp;
					if (srun) {
						srun--;
						sp = mspace[m] ? mspace[m] : lastsp[m];
					} else {
						sp = wt_rd_u8(&rs);
						srun = wt_rd_varint(&rs);
						if (rs.bad || sp >= WEFT_SPACE_COUNT) {
							what = "space stream";
							goto bad;
						}
						lastsp[m] = sp;
					}
					A[i] = a;
					S[i] = sp;
				}
			}
			/* the memory instructions are the previous thread's: not copied */
			wt_pred_thread_end(P, A, P->pm, pn);
			if (store_addrs(q, A, S, na_all, pn, &used))
				goto nomem;
			na_all += pn;
			tt->naddrs = pn;
			continue;
		}
		weft_trace_fast_flush(F, P);

		size_t gi = 0;
		/* a local copy: stores through A/M/S cannot alias it, so the
		 * compiler keeps its pointers in registers */
		struct wt_pred Pl = *P;
		wt_pred_thread(&Pl);
		const struct wt_ev *evs = T->ev;
		const uint32_t *evst = T->ev_start;
		for (uint64_t i = 0; i < nb; i++) {
			uint32_t b = bl[i];
			for (uint32_t e = evst[b], ee = evst[b + 1]; e < ee; e++) {
				const struct wt_ev *ev = &evs[e];
				if (ev->flags & WEFT_II_GUARD) {
					if (!gd[gi++])
						continue;
				}
				if (!(ev->flags & WEFT_II_ADDR))
					continue;
				uint32_t m = ev->m;
				uint64_t a = wt_pred_addr(&Pl, A, n, m);
				if (zrun) {
					zrun--;
				} else {
					uint64_t res = wt_rd_varint(&ra);
					zrun = wt_rd_varint(&ra);
					if (ra.bad || res == 0) {
						what = "address stream";
						goto bad;
					}
					a += (uint64_t)wt_unzigzag(res);
				}
				uint8_t sp = wt_pred_space(&Pl, m, ev->space);
				if (srun) {
					srun--;
				} else {
					sp = wt_rd_u8(&rs);
					srun = wt_rd_varint(&rs);
					if (rs.bad || sp >= WEFT_SPACE_COUNT) {
						what = "space stream";
						goto bad;
					}
				}
				Pl.lastsp[m] = sp;
				wt_pred_update(&Pl, A, n, m, a);
				A[n] = a;
				M[n] = m;
				S[n] = sp;
				n++;
			}
		}
		wt_pred_thread_end(&Pl, A, M, n);
		pmb ^= 1;
		*P = Pl;
		if (store_addrs(q, A, S, na_all, n, &used))
			goto nomem;
		na_all += n;
		tt->naddrs = n;
	}
	if (rp.p != rp.end || rg.p != rg.end || ra.p != ra.end || rs.p != rs.end || zrun || srun ||
	    ra.bad || rs.bad) {
		what = "stream lengths (bytes left over after the last thread)";
		goto bad;
	}
	/* the arrays no longer move: pointers from offsets (threads with the
	 * same path share blocks, and guards when those agree too) */
	for (uint32_t th = 0; th < nth; th++) {
		struct weft_thread_trace *tt = &q->threads[th];
		const size_t *o = q->offs + 3 * th;
		tt->blocks = q->blocks + o[0];
		tt->guards = q->guards + o[1];
		tt->addrs = q->wide ? q->addrs + o[2] : NULL;
		tt->addr_off = q->wide ? NULL : q->aoff + o[2];
		tt->addr_base = q->abase;
		tt->spaces = q->spaces + o[2];
	}
	c->launch = ch->launch;
	c->cta = cta;
	c->nthreads = nth;
	c->threads = q->threads;
	return 0;
bad:
	return weft_trace_corrupt(err, t->path, ch->off, "launch %u CTA %u: malformed %s in the chunk's payload",
			  ch->launch, cta, what);
nomem:
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding trace %s", t->path);
}
