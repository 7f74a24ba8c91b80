/*
 * trace_foreach.c - weft_trace_for_each_cta (trace.h): decode the chosen
 * CTAs of a launch with several decoder threads while the caller's callback
 * consumes them one at a time in increasing CTA order.
 *
 * Work is a piece of one chunk: its chosen CTAs, at most about
 * WT_FE_PIECE_BYTES of them decoded (a chunk of many small CTAs is cut in
 * pieces; a decoder that has the chunk loaded decodes its next piece
 * without loading it again). Decoders claim pieces in order and decode
 * them into slots; piece j uses slot j mod S and may only be claimed once
 * piece j - S has been consumed, so at most S decoded pieces exist at a
 * time. The caller's thread runs the callback on piece j's CTAs in order,
 * frees the slot and moves on to piece j + 1.
 *
 * Work-helping: the caller's thread is a decoder too. When the piece it is
 * to consume next is not ready (a decoder thread is still on it, or no
 * one claimed it yet), it claims the next unclaimed piece under the same
 * rule as the threads (its slot free), decodes and prepares it with a
 * decoder context of its own (the pool's last), publishes it, and looks
 * again; it waits only when nothing is claimable. So with N threads in all
 * (`-j N`: N - 1 decoder threads) decoding and preparing use every thread
 * whenever the caller's timing is not the larger share, and the caller
 * is never the only one left idle while a single decoder is the critical
 * path (at -j 2, one thread used to decode and prepare everything). The
 * callback still sees the CTAs one at a time in increasing CTA order, on
 * the caller's thread, so reports do not depend on who decoded what.
 *
 * S is bounded by bytes, not only by the thread count (weft_trace_fe_plan):
 * two slots per decoder, the caller counted, as long as S decoded pieces,
 * estimated from the launch's averages, fit in WT_FE_AHEAD_BYTES; a launch
 * whose pieces (then single CTAs) are too large for two of them decodes in
 * the caller's thread, one CTA at a time. Memory is then at most that
 * budget or one decoded CTA, whatever the trace length or the number of
 * CPUs.
 *
 * Locking (one mutex F->mu and one condition variable F->cv per walk):
 * F->next_claim, F->next_consume, F->stop and every slot's state, rc and
 * nok change only under F->mu. A slot's decoded CTAs, error and prepared
 * buffers are written by the one thread that claimed its piece (state 1),
 * outside the lock, and read by the caller only after it saw state 2
 * under the lock (published by the claimer's unlock and relock after the
 * writes); the caller frees the slot (state 0, next_consume + 1) under the
 * lock before anyone may claim the piece S later into it. Each decoder
 * context (zstd context, buffers, loaded chunk) is used by one thread per
 * walk: thread k the pool's k-th, the caller's thread the one after the
 * threads'. Every change a waiter may wait for (a piece published, a slot
 * freed, stop) is followed by a broadcast, so no wakeup is lost: threads
 * wait for "claimable", the caller for "its slot is ready or something is
 * claimable". Preparations run on whichever thread decodes, the caller's
 * included, and must read only what the launch fixes (trace.h).
 *
 * weft_trace_for_each_cta_warm and weft_trace_for_each_cta_prep_warm
 * (functional warming of a sample) read every CTA through the same
 * machinery (preparing each, warmed or not, where it is decoded) and send
 * each to the replay or to the warming callback by its membership in the
 * sample, in CTA order.
 *
 * The slots' decoded CTAs and the workers' zstd contexts and buffers live
 * in the trace (struct wt_fe_pool) and serve every later call: a model
 * that walks a trace launch by launch allocates (and page-faults) them
 * once, not once per launch.
 *
 * A compact preparation (trace.h struct weft_cta_prep compact: use reads
 * only the CTA's header beside the prepared result) holds no decoded CTA
 * in the slots: each decoder (struct fe_dec, the caller's included)
 * decodes into one CTA of its own, prepares it into the slot's buffer
 * and keeps the CTA's header (F->hdr), which is what use is passed, on
 * every path. Pieces are cut by the prepared size the preparation
 * estimates, and weft_trace_fe_plan_compact counts one decoded CTA per
 * decoding thread plus the prepared pieces: when two decoded CTAs do not
 * fit (sgemm at large size), one decoder thread works ahead and the
 * caller does not decode (F->helps 0), so the walk still overlaps where
 * the plain one would decode in the caller's thread.
 *
 * With a preparation (weft_trace_for_each_cta_prep) the worker that
 * decodes a chunk also prepares each of its CTAs, into buffers beside the
 * slot that belong to the call (their contents are the model's, so they
 * are released when the call ends), or, when the preparation keeps them
 * (struct weft_cta_prep keep), to the pool: the next call with the same
 * preparation reuses them, one with another keeping preparation releases
 * them first, and the trace's close releases the last. A slot records
 * how many of its CTAs were decoded and prepared before a failure (nok):
 * the caller consumes those before it reports the failure, as the
 * one-thread path does.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pool.h"
#include "trace_read.h"

struct fe_work {
	uint32_t chunk;
	uint32_t s0, s1; /* chosen CTAs: ctas[s0..s1) */
};

struct fe_slot {
	int state; /* 0 free, 1 decoding, 2 ready */
	int rc;
	uint32_t nok; /* CTAs decoded (and prepared) before a failure; n without one */
	struct weft_error err;
	struct weft_cta_trace *ctas;
	uint32_t cap, n;
};

struct fe_dec {
	ZSTD_DCtx *dctx;
	struct wt_buf comp, raw;
	uint32_t loaded; /* 1 + the chunk in raw; 0 none */
	struct wt_dscratch scr;
	struct weft_cta_trace cta; /* a compact preparation's decoded CTA */
};

/* One slot's prepared results: cap buffers of the preparation's size. */
struct fe_prepbuf {
	unsigned char *buf;
	uint32_t cap;
};

struct wt_fe_pool {
	struct fe_slot *slots;
	uint32_t nslots;
	struct fe_dec *dec;
	unsigned ndec;
	/* prepared results kept between calls (struct weft_cta_prep keep):
	 * kpb[k] for slot k (the one-thread path's in kpb[0]), of the
	 * preparation kid (its prep, release and size as they were: only
	 * compared, never read through kid) */
	struct fe_prepbuf *kpb;
	uint32_t nkpb;
	const struct weft_cta_prep *kid;
	int (*kprep)(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err);
	void (*krelease)(void *out);
	size_t ksize;
};

/* Releases (release may be NULL) and frees pb's buffers of size bytes. */
static void prepbuf_release(struct fe_prepbuf *pb, void (*release)(void *out), size_t size)
{
	for (uint32_t i = 0; release && i < pb->cap; i++)
		release(pb->buf + (size_t)i * size);
	free(pb->buf);
	pb->buf = NULL;
	pb->cap = 0;
}

/* Releases and frees the prepared results p keeps. */
static void kept_free(struct wt_fe_pool *p)
{
	for (uint32_t k = 0; k < p->nkpb; k++)
		prepbuf_release(&p->kpb[k], p->krelease, p->ksize);
	free(p->kpb);
	p->kpb = NULL;
	p->nkpb = 0;
	p->kid = NULL;
	p->kprep = NULL;
	p->krelease = NULL;
	p->ksize = 0;
}

void weft_trace_fe_pool_free(struct wt_fe_pool *p)
{
	if (!p)
		return;
	for (uint32_t k = 0; k < p->nslots; k++) {
		for (uint32_t c = 0; c < p->slots[k].cap; c++)
			weft_cta_trace_free(&p->slots[k].ctas[c]);
		free(p->slots[k].ctas);
	}
	free(p->slots);
	for (unsigned k = 0; k < p->ndec; k++) {
		ZSTD_freeDCtx(p->dec[k].dctx);
		weft_trace_buf_free(&p->dec[k].comp);
		weft_trace_buf_free(&p->dec[k].raw);
		weft_trace_dscratch_free(&p->dec[k].scr);
		weft_cta_trace_free(&p->dec[k].cta);
	}
	free(p->dec);
	kept_free(p);
	free(p);
}

/* The bytes a decoded CTA keeps allocated. */
static uint64_t cta_held(const struct weft_cta_trace *c)
{
	const struct wt_ctapriv *q = c->priv;
	return q ? q->capb * sizeof(uint32_t) + q->capg + q->capa * (sizeof(uint32_t) + 1) +
			   q->capw * sizeof(uint64_t) + q->capt * sizeof(struct weft_thread_trace) +
			   q->capo * sizeof(size_t)
		 : 0;
}

/* The bytes a slot's decoded CTAs keep allocated. */
static uint64_t slot_bytes(const struct fe_slot *s)
{
	uint64_t b = 0;
	for (uint32_t c = 0; c < s->cap; c++)
		b += cta_held(&s->ctas[c]);
	return b;
}

/* Frees the decoded CTAs of the pool's slots that this call does not use
 * (k >= nslots) or that keep more than three times what its pieces are
 * estimated to need (they keep 1.4-1.8 times the estimate on gaussian's
 * small CTAs), so that what the slots keep from earlier launches stays
 * within about three times the decode-ahead budget. */
static void pool_trim(struct wt_fe_pool *p, uint32_t nslots, uint64_t item_bytes)
{
	for (uint32_t k = 0; k < p->nslots; k++) {
		struct fe_slot *s = &p->slots[k];
		if (!s->cap || (k < nslots && slot_bytes(s) <= 3 * item_bytes + ((uint64_t)64 << 10)))
			continue;
		for (uint32_t c = 0; c < s->cap; c++)
			weft_cta_trace_free(&s->ctas[c]);
		free(s->ctas);
		s->ctas = NULL;
		s->cap = 0;
	}
}

/* Frees the decoders' own decoded CTAs (a compact preparation's) that this
 * call does not use (cta_bytes 0) or that keep more than three times its
 * estimated CTA. */
static void pool_trim_dec(struct wt_fe_pool *p, uint64_t cta_bytes)
{
	for (unsigned k = 0; k < p->ndec; k++)
		if (p->dec[k].cta.priv &&
		    (!cta_bytes || cta_held(&p->dec[k].cta) > 3 * cta_bytes + ((uint64_t)64 << 10)))
			weft_cta_trace_free(&p->dec[k].cta);
}

/* Makes the pool hold at least nslots slots and ndec decoders. */
static int pool_reserve(struct weft_trace *t, uint32_t nslots, unsigned ndec)
{
	struct wt_fe_pool *p = t->fe_pool;
	if (!p && !(p = t->fe_pool = calloc(1, sizeof(*p))))
		return -1;
	if (nslots > p->nslots) {
		struct fe_slot *ns = realloc(p->slots, nslots * sizeof(*ns));
		if (!ns)
			return -1;
		memset(ns + p->nslots, 0, (nslots - p->nslots) * sizeof(*ns));
		p->slots = ns;
		p->nslots = nslots;
	}
	if (ndec > p->ndec) {
		struct fe_dec *nd = realloc(p->dec, ndec * sizeof(*nd));
		if (!nd)
			return -1;
		memset(nd + p->ndec, 0, (ndec - p->ndec) * sizeof(*nd));
		p->dec = nd;
		for (; p->ndec < ndec; p->ndec++)
			if (!(p->dec[p->ndec].dctx = ZSTD_createDCtx()))
				return -1;
	}
	return 0;
}

struct fe {
	struct weft_trace *t;
	const uint32_t *ctas;
	const struct weft_cta_prep *prep; /* NULL: none */
	void *user;
	struct fe_prepbuf *pb;            /* [nslots] when prep */
	/* a compact preparation's CTA headers, what use is passed:
	 * [nslots x most], slot k's from k x most */
	struct weft_cta_trace *hdr;
	uint32_t most;
	int helps;                        /* the caller's thread decodes too */
	struct fe_work *work;
	uint32_t nwork, next_claim, next_consume, nslots;
	struct fe_slot *slots;
	int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

struct fe_arg {
	struct fe *F;
	struct fe_dec *d;
};

/* Makes pb hold at least n zeroed-when-new buffers of size bytes. */
static int prepbuf_reserve(struct fe_prepbuf *pb, uint32_t n, size_t size)
{
	if (n <= pb->cap)
		return 0;
	if (size && n > SIZE_MAX / size)
		return -1;
	unsigned char *nb = realloc(pb->buf, (size_t)n * size + 1);
	if (!nb)
		return -1;
	memset(nb + (size_t)pb->cap * size, 0, (size_t)(n - pb->cap) * size);
	pb->buf = nb;
	pb->cap = n;
	return 0;
}

static void prepbuf_free(struct fe_prepbuf *pb, const struct weft_cta_prep *prep)
{
	prepbuf_release(pb, prep->release, prep->size);
}

/* The prepared results of n slots that t keeps for the preparation kid
 * (kid->keep; a warming walk passes the one it wraps), those of another
 * preparation released first; NULL when out of memory. */
static struct fe_prepbuf *kept_prepbufs(struct weft_trace *t, const struct weft_cta_prep *kid, uint32_t n)
{
	struct wt_fe_pool *p = t->fe_pool;
	if (!p && !(p = t->fe_pool = calloc(1, sizeof(*p))))
		return NULL;
	if (p->nkpb && (p->kid != kid || p->kprep != kid->prep || p->krelease != kid->release ||
			p->ksize != kid->size))
		kept_free(p);
	if (n > p->nkpb) {
		struct fe_prepbuf *nk = realloc(p->kpb, n * sizeof(*nk));
		if (!nk)
			return NULL;
		memset(nk + p->nkpb, 0, (n - p->nkpb) * sizeof(*nk));
		p->kpb = nk;
		p->nkpb = n;
	}
	p->kid = kid;
	p->kprep = kid->prep;
	p->krelease = kid->release;
	p->ksize = kid->size;
	return p->kpb;
}

/* The header of decoded CTA c: what use is passed after a compact
 * preparation. */
static struct weft_cta_trace cta_header(const struct weft_cta_trace *c)
{
	struct weft_cta_trace h;
	weft_cta_trace_init(&h);
	h.launch = c->launch;
	h.cta = c->cta;
	h.nthreads = c->nthreads;
	return h;
}

static int decode_work(struct fe *F, struct fe_dec *d, uint32_t j, struct fe_slot *s,
		       struct fe_prepbuf *pb)
{
	const struct fe_work *w = &F->work[j];
	const struct wt_chunk *c = &F->t->chunks[w->chunk];
	uint32_t n = w->s1 - w->s0;
	/* compact: each CTA is decoded into the decoder's own and only its
	 * header is kept beside the prepared result */
	struct weft_cta_trace *hd = F->hdr ? F->hdr + (size_t)(j % F->nslots) * F->most : NULL;
	s->nok = 0;
	if (pb && prepbuf_reserve(pb, n, F->prep->size))
		return weft_error_set(&s->err, WEFT_ERR_NOMEM, "out of memory preparing CTAs of trace %s",
				      F->t->path);
	if (!hd && n > s->cap) {
		struct weft_cta_trace *nc = realloc(s->ctas, n * sizeof(*nc));
		if (!nc)
			return weft_error_set(&s->err, WEFT_ERR_NOMEM, "out of memory decoding trace %s", F->t->path);
		for (uint32_t i = s->cap; i < n; i++)
			weft_cta_trace_init(&nc[i]);
		s->ctas = nc;
		s->cap = n;
	}
	s->n = n;
	int rc = 0;
	if (d->loaded != w->chunk + 1) {
		d->loaded = 0;
		rc = weft_trace_load_chunk(F->t, c, d->dctx, &d->comp, &d->raw, &s->err);
		if (!rc)
			d->loaded = w->chunk + 1;
	}
	for (uint32_t i = 0; !rc && i < n; i++) {
		struct weft_cta_trace *ct = hd ? &d->cta : &s->ctas[i];
		rc = weft_trace_decode_cta(F->t, c, &d->raw, F->ctas[w->s0 + i], ct, &d->scr, &s->err);
		if (!rc && pb)
			rc = F->prep->prep(F->user, ct, pb->buf + (size_t)i * F->prep->size, &s->err);
		if (!rc && hd)
			hd[i] = cta_header(ct);
		if (!rc)
			s->nok = i + 1;
	}
	return rc;
}

/* With F->mu held: 1 when the next unclaimed piece may be claimed now
 * (its slot is free: the piece nslots before it was consumed). */
static int claimable(const struct fe *F)
{
	return !F->stop && F->next_claim < F->nwork && F->next_claim < F->next_consume + F->nslots;
}

/* With F->mu held and claimable(F): claims the next piece, decodes (and
 * prepares) it with d outside the lock, publishes it, and returns with
 * F->mu held again. */
static void claim_and_decode(struct fe *F, struct fe_dec *d)
{
	uint32_t j = F->next_claim++;
	struct fe_slot *s = &F->slots[j % F->nslots];
	s->state = 1;
	pthread_mutex_unlock(&F->mu);
	int rc = decode_work(F, d, j, s, F->pb ? &F->pb[j % F->nslots] : NULL);
	pthread_mutex_lock(&F->mu);
	s->rc = rc;
	s->state = 2;
	pthread_cond_broadcast(&F->cv);
}

static void *worker(void *arg)
{
	struct fe *F = ((struct fe_arg *)arg)->F;
	struct fe_dec *d = ((struct fe_arg *)arg)->d;
	pthread_mutex_lock(&F->mu);
	for (;;) {
		while (!F->stop && F->next_claim < F->nwork && !claimable(F))
			pthread_cond_wait(&F->cv, &F->mu);
		if (!claimable(F))
			break; /* stopped, or every piece claimed */
		claim_and_decode(F, d);
	}
	pthread_mutex_unlock(&F->mu);
	return NULL;
}

uint64_t weft_trace_fe_cta_bytes(const struct weft_trace_launch *L)
{
	if (!L->nctas)
		return 0;
	/* per thread its struct weft_thread_trace and 3 offsets; per access
	 * an address (a 4-byte offset: the compact form, trace.h) and a
	 * space; per path byte about one block index; one byte per guard bit */
	double per = (double)L->threads_per_cta * (sizeof(struct weft_thread_trace) + 3 * sizeof(size_t)) +
		     ((double)L->mem_accesses * (sizeof(uint32_t) + 1) + (double)L->stream_bytes[0] * sizeof(uint32_t) +
		      (double)L->stream_bytes[1] * 8) / L->nctas;
	return per > 1e15 ? (uint64_t)1e15 : (uint64_t)per;
}

void weft_trace_fe_plan(unsigned workers, uint32_t nwork, uint64_t item_bytes, uint64_t budget,
			unsigned *workers_out, uint32_t *slots_out)
{
	if (workers > nwork)
		workers = nwork;
	if (nwork <= 1)
		workers = 0; /* nothing to overlap */
	/* two slots per decoder, the caller's thread counted (it decodes when
	 * its next piece is not ready) */
	uint64_t slots = 2 * ((uint64_t)workers + 1);
	if (workers && item_bytes && budget / item_bytes < slots)
		slots = budget / item_bytes;
	if (!workers || slots < 2) { /* no thread, or no room for one chunk ahead of the one consumed */
		workers = 0;
		slots = 0;
	} else if (workers > slots - 1) {
		workers = (unsigned)(slots - 1); /* more would wait for a free slot */
	}
	*workers_out = workers;
	*slots_out = (uint32_t)slots;
}

void weft_trace_fe_plan_compact(unsigned workers, uint32_t nwork, uint64_t cta_bytes, uint64_t item_bytes,
				uint64_t budget, unsigned *workers_out, uint32_t *slots_out, int *helps_out)
{
	if (workers > nwork)
		workers = nwork;
	if (nwork <= 1 || !workers) { /* nothing to overlap */
		*workers_out = 0;
		*slots_out = 0;
		*helps_out = 0;
		return;
	}
	/* saturating: a hostile launch header may claim anything */
	if (cta_bytes > budget)
		cta_bytes = budget;
	if (item_bytes > budget)
		item_bytes = budget;
	uint64_t d = (uint64_t)workers + 1, slots = 0; /* decoders, the caller counted */
	for (; d >= 2; d--) { /* the most decoders with a slot each to fill */
		if (d * cta_bytes > budget)
			continue;
		slots = 2 * d;
		if (item_bytes && (budget - d * cta_bytes) / item_bytes < slots)
			slots = (budget - d * cta_bytes) / item_bytes;
		if (slots >= d)
			break;
	}
	if (d < 2) { /* one decoder thread ahead of the caller, which only uses */
		*workers_out = 1;
		*slots_out = 2;
		*helps_out = 0;
		return;
	}
	*helps_out = d == (uint64_t)workers + 1;
	*workers_out = *helps_out ? workers : (unsigned)d;
	*slots_out = (uint32_t)slots;
}

/* fn (no preparation) or prep and use; only (NULL: s chooses): the CTAs
 * c with only[c] != 0 (windowed warming). */
static int for_each(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
		    const uint8_t *only, unsigned nthreads, const struct weft_cta_prep *prep,
		    const struct weft_cta_prep *kid, weft_cta_use_fn use, weft_cta_fn fn, void *user,
		    struct weft_error *err)
{
	if (launch >= t->nlaunches)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace %s has %u launches; there is no launch %u",
				      t->path, t->nlaunches, launch);
	const struct wt_launch *L = &t->launches[launch];
	uint32_t nctas = L->pub.nctas;
	uint32_t *ctas = malloc(((size_t)nctas + 1) * sizeof(uint32_t));
	if (!ctas)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	uint32_t nsel = 0;
	if (only) {
		for (uint32_t c = 0; c < nctas; c++)
			if (only[c])
				ctas[nsel++] = c;
	} else {
		nsel = weft_cta_sample_select(s, nctas, ctas);
	}
	uint64_t cta_bytes = weft_trace_fe_cta_bytes(&L->pub);
	/* a compact preparation: pieces and slots hold prepared results only */
	int compact = prep && prep->compact;
	uint64_t unit = cta_bytes;
	if (compact) { /* what a prepared CTA holds, its buffer and header counted */
		unit = prep->compact(user, &L->pub);
		unit = unit > UINT64_MAX / 2 ? UINT64_MAX / 2 : unit + prep->size + sizeof(struct weft_cta_trace);
	}
	uint64_t piece = t->fe_piece_bytes ? t->fe_piece_bytes : WT_FE_PIECE_BYTES;
	uint64_t ahead = t->fe_ahead_bytes ? t->fe_ahead_bytes : WT_FE_AHEAD_BYTES;
	uint64_t per = unit ? piece / unit : nsel;
	if (per < 1)
		per = 1;
	if (per > nsel)
		per = nsel ? nsel : 1;
	struct fe_work *work = malloc(((size_t)L->pub.nchunks + nsel / per + 1) * sizeof(*work));
	if (!work) {
		free(ctas);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	}
	/* group the chosen CTAs by chunk, in pieces of at most per */
	uint32_t nwork = 0, i = 0;
	int rc = 0;
	while (i < nsel) {
		int ci = weft_trace_find_chunk(t, launch, ctas[i]);
		if (ci < 0) {
			rc = weft_trace_corrupt(err, t->path, t->fsize, "the index has no chunk for launch %u CTA %u", launch,
					ctas[i]);
			goto out;
		}
		const struct wt_chunk *c = &t->chunks[ci];
		uint32_t j = i;
		while (j < nsel && ctas[j] < c->first + c->ncta && j - i < per)
			j++;
		work[nwork].chunk = (uint32_t)ci;
		work[nwork].s0 = i;
		work[nwork].s1 = j;
		nwork++;
		i = j;
	}
	/* 0: one thread per core counting the caller's, which runs fn: with
	 * two cores, one decoder works ahead while fn consumes */
	unsigned workers = nthreads;
	if (nthreads == 0 && t->jobs)
		workers = t->jobs - 1; /* weft_trace_set_jobs: the caller's thread counts */
	else if (nthreads == 0) {
		unsigned np = weft_pool_jobs(0); /* the CPUs this process may use */
		workers = np > 1 ? np - 1 : 0;
	} else if (nthreads == 1) {
		workers = 0;
	}
	uint32_t most = 0; /* chosen CTAs in the largest work item */
	for (uint32_t j = 0; j < nwork; j++)
		if (work[j].s1 - work[j].s0 > most)
			most = work[j].s1 - work[j].s0;
	uint32_t nslots;
	int helps = 1;
	/* saturating: a hostile launch header may claim anything */
	uint64_t item_bytes = most && unit > UINT64_MAX / 4 / most ? UINT64_MAX / 4 : unit * most;
	if (compact)
		weft_trace_fe_plan_compact(workers, nwork, cta_bytes, item_bytes, ahead, &workers, &nslots,
					   &helps);
	else
		weft_trace_fe_plan(workers, nwork, item_bytes, ahead, &workers, &nslots);

	if (workers == 0) {
		/* no threads: decode one CTA at a time into the same buffers, so
		 * the decoded CTA is still in cache when fn reads it; buffers kept
		 * in the trace serve every call (no allocation per launch) */
		struct weft_cta_trace *ct = &t->fe_cta;
		struct fe_prepbuf own = { NULL, 0 }, *ib = &own;
		if (!t->fe_dctx && !(t->fe_dctx = ZSTD_createDCtx()))
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for a zstd context");
		if (!rc && prep) {
			if (kid && kid->keep) /* the pool's, kept for the next call */
				ib = kept_prepbufs(t, kid, 1);
			if (!ib || prepbuf_reserve(ib, 1, prep->size)) {
				ib = &own;
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory preparing CTAs of trace %s",
						    t->path);
			}
		}
		for (uint32_t j = 0; !rc && j < nwork; j++) {
			const struct wt_chunk *c = &t->chunks[work[j].chunk];
			if (t->fe_loaded != work[j].chunk + 1) {
				t->fe_loaded = 0;
				rc = weft_trace_load_chunk(t, c, t->fe_dctx, &t->fe_comp, &t->fe_raw, err);
				if (!rc)
					t->fe_loaded = work[j].chunk + 1;
			}
			for (uint32_t k = work[j].s0; !rc && k < work[j].s1; k++) {
				rc = weft_trace_decode_cta(t, c, &t->fe_raw, ctas[k], ct, &t->fe_scr, err);
				if (!rc && prep) {
					/* compact: use sees the header, as with threads */
					struct weft_cta_trace h = cta_header(ct);
					rc = prep->prep(user, ct, ib->buf, err);
					if (!rc)
						rc = use(user, compact ? &h : ct, ib->buf, err);
				} else if (!rc) {
					rc = fn(user, ct, err);
				}
			}
		}
		if (prep)
			prepbuf_free(&own, prep); /* (nothing when kept) */
		goto out;
	}

	struct fe F;
	memset(&F, 0, sizeof(F));
	F.t = t;
	F.ctas = ctas;
	F.work = work;
	F.nwork = nwork;
	F.nslots = nslots;
	F.prep = prep;
	F.user = user;
	F.most = most;
	F.helps = helps;
	int kept = prep && kid && kid->keep;
	if (pool_reserve(t, F.nslots, workers + 1) ||
	    (prep && !(F.pb = kept ? kept_prepbufs(t, kid, F.nslots) : calloc(F.nslots, sizeof(*F.pb)))) ||
	    (compact && !(F.hdr = calloc((size_t)F.nslots * most, sizeof(*F.hdr))))) {
		if (!kept)
			free(F.pb);
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
		goto out;
	}
	/* compact: the slots hold no decoded CTA, each decoder one */
	pool_trim(t->fe_pool, compact ? 0 : F.nslots, item_bytes);
	pool_trim_dec(t->fe_pool, compact ? cta_bytes : 0);
	F.slots = t->fe_pool->slots;
	for (uint32_t k = 0; k < F.nslots; k++) {
		F.slots[k].state = 0;
		F.slots[k].rc = 0;
		F.slots[k].n = 0;
		F.slots[k].nok = 0;
	}
	pthread_t *tids = calloc(workers, sizeof(pthread_t));
	struct fe_arg *args = calloc(workers, sizeof(*args));
	unsigned started = 0;
	pthread_mutex_init(&F.mu, NULL);
	pthread_cond_init(&F.cv, NULL);
	if (!tids || !args)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	for (unsigned k = 0; !rc && k < workers; k++) {
		args[k].F = &F;
		args[k].d = &t->fe_pool->dec[k];
		if (pthread_create(&tids[k], NULL, worker, &args[k]))
			break;
		started++;
	}
	if (!rc && !started)
		rc = weft_error_set(err, WEFT_ERR_INTERNAL, "cannot start decoder threads");
	/* the caller's own decoder: it decodes the next unclaimed piece itself
	 * whenever the piece it is to consume next is not ready */
	struct fe_dec *mine = &t->fe_pool->dec[workers];
	for (uint32_t j = 0; !rc && j < nwork; j++) {
		struct fe_slot *sl = &F.slots[j % F.nslots];
		pthread_mutex_lock(&F.mu);
		while (sl->state != 2) {
			if (F.helps && claimable(&F))
				claim_and_decode(&F, mine);
			else
				pthread_cond_wait(&F.cv, &F.mu);
		}
		pthread_mutex_unlock(&F.mu);
		for (uint32_t k = 0; !rc && k < sl->nok; k++)
			rc = prep ? use(user,
					F.hdr ? &F.hdr[(size_t)(j % F.nslots) * most + k] : &sl->ctas[k],
					F.pb[j % F.nslots].buf + (size_t)k * prep->size, err)
				  : fn(user, &sl->ctas[k], err);
		if (!rc && sl->rc) {
			rc = sl->rc;
			if (err)
				*err = sl->err;
		}
		pthread_mutex_lock(&F.mu);
		sl->state = 0;
		F.next_consume++;
		pthread_cond_broadcast(&F.cv);
		pthread_mutex_unlock(&F.mu);
	}
	pthread_mutex_lock(&F.mu);
	F.stop = 1;
	pthread_cond_broadcast(&F.cv);
	pthread_mutex_unlock(&F.mu);
	for (unsigned k = 0; k < started; k++)
		pthread_join(tids[k], NULL);
	free(tids);
	free(args);
	pthread_mutex_destroy(&F.mu);
	pthread_cond_destroy(&F.cv);
	if (!kept) {
		for (uint32_t k = 0; F.pb && k < F.nslots; k++)
			prepbuf_free(&F.pb[k], prep);
		free(F.pb);
	}
	free(F.hdr);
out:
	free(ctas);
	free(work);
	return rc;
}

int weft_trace_for_each_cta(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
			    unsigned nthreads, weft_cta_fn fn, void *user, struct weft_error *err)
{
	return for_each(t, launch, s, NULL, nthreads, NULL, NULL, NULL, fn, user, err);
}

int weft_trace_for_each_cta_prep(struct weft_trace *t, uint32_t launch,
				 const struct weft_cta_sample *s, unsigned nthreads,
				 const struct weft_cta_prep *prep, weft_cta_use_fn use, void *user,
				 struct weft_error *err)
{
	if (!prep || !prep->prep || !use)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "weft_trace_for_each_cta_prep: missing preparation or use");
	return for_each(t, launch, s, NULL, nthreads, prep, prep, use, NULL, user, err);
}

/* functional warming: every CTA (or every CTA of the windows), each to fn
 * (use) or warm by membership */
struct fe_warm {
	const uint8_t *chosen; /* [nctas]: 1 sampled, 2 warmed, 0 neither */
	uint32_t nctas;
	weft_cta_fn fn, warm;
	const struct weft_cta_prep *prep;
	weft_cta_use_fn use, warm_use;
	void *user;
};

static int fe_warm_cb(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	const struct fe_warm *w = user;
	if (c->cta < w->nctas && w->chosen[c->cta] == 1)
		return w->fn(w->user, c, err);
	return w->warm(w->user, c, err);
}

/* runs on the decoder threads: reads w only */
static int fe_warm_prep(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	const struct fe_warm *w = user;
	return w->prep->prep(w->user, c, out, err);
}

static uint64_t fe_warm_compact(const void *user, const struct weft_trace_launch *L)
{
	const struct fe_warm *w = user;
	return w->prep->compact(w->user, L);
}

static int fe_warm_use(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	const struct fe_warm *w = user;
	if (c->cta < w->nctas && w->chosen[c->cta] == 1)
		return w->use(w->user, c, prepared, err);
	return w->warm_use(w->user, c, prepared, err);
}

/* The membership of launch's CTAs in s: *chosen[nctas + 1] (free it): 1
 * sampled; with s->warm_window W >= 1, 2 for a CTA at most W before a
 * sampled one and not itself sampled (windowed warming), or one of the
 * s->warm_fill CTAs before the first of those, 0 otherwise. */
static int warm_chosen(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
		       uint8_t **chosen_out, uint32_t *nctas_out, uint32_t *window_out, struct weft_error *err)
{
	if (launch >= t->nlaunches)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace %s has %u launches; there is no launch %u",
				      t->path, t->nlaunches, launch);
	uint32_t nctas = t->launches[launch].pub.nctas;
	uint32_t *ctas = malloc(((size_t)nctas + 1) * sizeof(uint32_t));
	uint8_t *chosen = calloc((size_t)nctas + 1, 1);
	if (!ctas || !chosen) {
		free(ctas);
		free(chosen);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	}
	uint32_t nsel = weft_cta_sample_select(s, nctas, ctas);
	for (uint32_t i = 0; i < nsel; i++)
		chosen[ctas[i]] = 1;
	uint32_t W = weft_cta_sample_window(s, t->launches[launch].pub.grid, nctas);
	/* the fill: the warm_fill CTAs before the first window (the launch's
	 * first ones when fewer come before it), for a model that warms until
	 * its caches are full and skips the rest (trace.h) */
	if (W && s->warm_fill && nsel) {
		uint32_t from, to;
		weft_cta_sample_fill_range(ctas[0], W, s->warm_fill, &from, &to);
		for (uint32_t k = from; k < to && k < nctas; k++)
			if (!chosen[k])
				chosen[k] = 2;
	}
	for (uint32_t i = 0; W && i < nsel; i++) {
		uint32_t c = ctas[i];
		uint32_t from = c > W ? c - W : 0;
		/* back from c to the window's start or to the previous sampled CTA */
		for (uint32_t k = c; k-- > from && chosen[k] != 1;)
			chosen[k] = 2;
		/* and the one after: what a replay carries out of the sampled
		 * CTA into the next (a vector strip that crosses into it) ends
		 * as in a full replay */
		if (c + 1 < nctas && !chosen[c + 1])
			chosen[c + 1] = 2;
	}
	free(ctas);
	*chosen_out = chosen;
	*nctas_out = nctas;
	*window_out = W;
	return 0;
}

int weft_trace_for_each_cta_warm(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
				 unsigned nthreads, weft_cta_fn fn, weft_cta_fn warm, void *user,
				 struct weft_error *err)
{
	if (!s || !s->warm || s->kind == WEFT_SAMPLE_ALL || !warm)
		return weft_trace_for_each_cta(t, launch, s, nthreads, fn, user, err);
	uint8_t *chosen = NULL;
	uint32_t nctas = 0, W = 0;
	int rc = warm_chosen(t, launch, s, &chosen, &nctas, &W, err);
	if (rc)
		return rc;
	struct fe_warm w = { .chosen = chosen, .nctas = nctas, .fn = fn, .warm = warm, .user = user };
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	rc = for_each(t, launch, &all, W ? chosen : NULL, nthreads, NULL, NULL, NULL, fe_warm_cb, &w,
		      err);
	free(chosen);
	return rc;
}

int weft_trace_for_each_cta_prep_warm(struct weft_trace *t, uint32_t launch,
				      const struct weft_cta_sample *s, unsigned nthreads,
				      const struct weft_cta_prep *prep, weft_cta_use_fn use,
				      weft_cta_use_fn warm, void *user, struct weft_error *err)
{
	if (!s || !s->warm || s->kind == WEFT_SAMPLE_ALL || !warm)
		return weft_trace_for_each_cta_prep(t, launch, s, nthreads, prep, use, user, err);
	if (!prep || !prep->prep || !use)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "weft_trace_for_each_cta_prep_warm: missing preparation or use");
	uint8_t *chosen = NULL;
	uint32_t nctas = 0, W = 0;
	int rc = warm_chosen(t, launch, s, &chosen, &nctas, &W, err);
	if (rc)
		return rc;
	struct fe_warm w = { .chosen = chosen, .nctas = nctas, .prep = prep, .use = use, .warm_use = warm,
			     .user = user };
	struct weft_cta_prep wp = { prep->size, fe_warm_prep, prep->release,
				    prep->compact ? fe_warm_compact : NULL, prep->keep };
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	rc = for_each(t, launch, &all, W ? chosen : NULL, nthreads, &wp, prep, fe_warm_use, NULL, &w,
		      err);
	free(chosen);
	return rc;
}
