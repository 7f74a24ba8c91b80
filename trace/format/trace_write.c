/*
 * trace_write.c - the trace writer (trace.h): an emulator observer that
 * logs one CTA's warp events per warp (trace_wlog.h), encodes each finished
 * CTA thread by thread out of those logs (docs/trace-format.md "Chunk
 * payload") into the current chunk, and writes a chunk as a
 * zstd-compressed record once it holds about WT_CHUNK_TARGET raw bytes.
 * Parallel emulation: each worker's recorder also encodes each CTA it
 * ran into streams of its own as the CTA ends (a CTA's encoding needs
 * nothing of the CTAs before it), and the CTA's commit appends them to the
 * chunk in CTA order. Memory: one CTA's warp logs plus one chunk (and, per
 * parallel worker, one CTA's logs and the streams of the CTAs of its batch
 * waiting for their turn), and the program (built
 * and serialised once) of each kernel launched. The file is written through common/file.h's atomic writer and
 * only appears at NAME in weft_trace_writer_commit, after the index and
 * footer are written and the data fsynced: an interrupted run never leaves
 * a file at NAME, and a temporary one (the named fallback) has no footer,
 * so `verify` rejects it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "common/file.h"
#include "trace.h"
#include "trace_format.h"
#include "trace_wlog.h"

/* Set bits of v, inline: without -mpopcnt __builtin_popcount is a
 * library call, which perf showed at 5% of tracing hotspot (one per warp
 * instruction). */
static inline uint32_t wt_popcount(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* zstd level of the chunks unless the caller names one. 1, not 3:
 * measured at large size, one core (weft-trace run W --size large -j 1
 * -o, CPU seconds best of 2, level 1 against 3): bfs 5.61 against 6.35 s
 * for a 3.8% larger file (77.9 against 75.1 MB), sgemm 4.07 against
 * 4.25 s and 1.7% smaller (161750 against 164491 bytes), hotspot 2.85
 * against 2.86 s and 7.6% larger (918190 against 853379 bytes). */
#define WT_DEFAULT_LEVEL 1

/* zstd level of a launch's static program. 9, not 19: level 19 took about
 * 55 ms of CPU per program (sgemm's: 0.114 s of CPU for the whole default
 * run against 0.060 s at level 9, best of 5) to save 1.5% of a 16 KB
 * trace (16087 -> 16328 bytes); hotspot 17639 -> 17657 bytes. */
#define WT_PROGRAM_LEVEL 9

/* What encoding one CTA's threads needs (encode_cta): the address
 * predictor and its fast path, the current and previous thread gathered
 * out of the logs, the current warp's marked events (u, once u_ready;
 * u_sp: scratch, a space per memory instruction), and the streams it
 * writes. Every CTA starts them afresh (trace-format.md "Address
 * prediction": every CTA decodes alone), so a CTA can be encoded anywhere:
 * the one thread's encoder writes straight into the chunk's streams, a
 * parallel worker's into a struct wt_done of its own, outside the order,
 * and the CTA's commit only appends those to the chunk. */
struct wt_enc {
	struct wt_pred pred;
	struct wt_fast fast;
	struct wt_seq seq[2];
	uint32_t *u;
	size_t nu, capu;
	int u_ready;
	uint8_t *u_sp;
	uint32_t capusp;
	struct wt_buf *s[4];   /* path, guard, address, space: w->s or a wt_done's */
	uint32_t cta;
	uint64_t decoded;      /* the CTA's decoded size (WT_CHUNK_DECODED_TARGET) */
};

/* A CTA a parallel worker ran and encoded, waiting for its turn: its
 * streams, counts and decoded size. A worker's are queued in the order
 * it ran them, which is the order of their commits. */
struct wt_done {
	uint32_t cta;
	uint64_t thread_insts, warp_insts, mem_accesses, decoded;
	struct wt_buf s[4];
	struct wt_done *next;
};

/* One executor's record of the CTA it runs: a log per warp (its lanes'
 * blocks, guard bits and accesses), the CTA's counts, and its encoder.
 * The writer has one for one thread; each parallel emulation worker opens
 * its own (worker_open) and records its CTAs one after another in the
 * same logs and encoder, which stay in its core's cache: each CTA is
 * encoded as it ends (worker_cta_end) into a wt_done queued until its
 * commit appends it to the chunk in CTA order. */
struct wt_rec {
	const struct weft_trace_writer *w; /* tab, prog, tpc: read only while CTAs run */
	struct wt_wlog *wl;
	uint32_t capw;
	uint64_t thread_insts, warp_insts, mem_accesses;
	struct wt_enc enc;
	/* parallel only: CTAs encoded and not yet committed (oldest first),
	 * and emptied ones kept for the next CTAs with their buffers */
	struct wt_done *done, *done_last, *done_free;
	struct wt_rec *next_spare; /* w->spare */
	/* parallel only: the chunks this recorder's commits closed, which its
	 * worker compresses after its turn (ob_worker_after_commit) */
	struct wt_pending *pend;
};

/* A closed chunk on its way to the file (parallel emulation): its index
 * slot, raw payload, then its record once compressed; chunks wait in
 * w->queue until every earlier one is written, so the file is in order. */
struct wt_pending {
	uint32_t slot;            /* index entry, = its place in the file's order */
	uint32_t launch, first, ncta;
	uint8_t *raw, *rec;
	size_t rawn, recn;
	struct wt_pending *next;  /* w->queue, by slot */
	struct wt_pending *mine;  /* the worker's next chunk to compress (r->pend) */
};

struct wt_kern {
	uint64_t mod_uid;
	uint32_t kernel;
	uint32_t prog;             /* index in w->progs of its serialised bytes */
	struct weft_program *p;
};

struct wt_launch_rec {
	uint64_t lnch_off, lend_off;
};

struct wt_index_ent {
	uint32_t launch, first, ncta;
	uint64_t off;
	uint32_t reclen, rawlen, crc;
};

struct weft_trace_writer {
	char *path;
	struct weft_file_out out; /* the temporary file until commit */
	uint64_t off;
	int level;
	int failed;
	struct weft_emu_observer obs;
	ZSTD_CCtx *cctx;
	/* launches */
	struct wt_launch_rec *launches;
	uint32_t nlaunches, caplaunches;
	int in_launch;
	struct weft_program *prog;
	struct wt_tab tab;
	uint32_t tpc;             /* threads per CTA */
	uint32_t nctas;
	uint64_t thread_insts, warp_insts, mem_accesses;
	uint64_t stream_bytes[4];
	uint32_t ctas_seen;
	/* the emulator delivers only the events of pcs with a flag in
	 * tab.pc_flags (ob_launch_want) and hands over the launch's counts
	 * (ob_launch_counts) instead of the events they would come from */
	int want_given, counts_given;
	uint64_t lc_thread, lc_warp;
	/* the one thread's recorder and encoder (a parallel worker's are its
	 * own, ob_worker_open) */
	struct wt_rec crec;
	/* current chunk */
	struct wt_buf ctatab, s[4];
	uint32_t chunk_first, chunk_ncta;
	uint64_t chunk_decoded; /* decoded size of the chunk's CTAs (WT_CHUNK_DECODED_TARGET) */
	struct wt_buf raw, rec;
	struct wt_index_ent *index;
	uint32_t nindex, capindex;
	/* parallel emulation: wmu guards the index, the file and the queue of
	 * compressed chunks waiting for an earlier one; next_write is the
	 * index slot whose record the file takes next */
	pthread_mutex_t wmu;
	struct wt_pending *queue;
	uint32_t next_write;
	/* parallel emulation: zstd contexts free for a worker's compression
	 * (under wmu), one per worker compressing at once at most */
	ZSTD_CCtx **cpool;
	uint32_t ncpool, capcpool;
	/* parallel emulation: recorders closed at a launch's end, kept (under
	 * wmu) for the next launch's workers with their buffers' capacity
	 * (with two workers gaussian at large size opens two in each of its
	 * 399 launches of more than one CTA) */
	struct wt_rec *spare;
	/* distinct static programs written so far: launches with the same
	 * program refer to the first one */
	struct wt_buf *progs;
	uint32_t *prog_launch;
	uint32_t nprogs;
	/* kernels launched so far (module uid, kernel index), each with its
	 * program and the index of its bytes in progs: a kernel launched again
	 * takes both from here instead of building and serialising its program
	 * once more (gaussian: 168 launches of 2 kernels) */
	struct wt_kern *kerns;
	uint32_t nkerns;
	/* run info */
	char workload[64], size[16];
	int has_baseline;
	struct weft_hostperf baseline;
	char baseline_what[64];
};

/* An I/O error at a step of common/file.h's atomic write (errno says why). */
static int io_err(struct weft_trace_writer *w, struct weft_error *err, int step)
{
	const char *what = step == WEFT_OUT_CHMOD    ? "set permissions of"
			   : step == WEFT_OUT_RENAME ? "rename into place"
						     : weft_file_out_step_name(step);
	w->failed = 1;
	return weft_error_set(err, WEFT_ERR_IO, "cannot %s trace %s (temporary file %s): %s", what,
			      w->path, w->out.tmp ? w->out.tmp : "?", strerror(errno));
}

static int nomem(struct weft_trace_writer *w, struct weft_error *err)
{
	w->failed = 1;
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing trace %s", w->path);
}

/* nomem for an encoder, which may run on a worker and so does not mark
 * the writer failed (the CTA's error does that where it is committed, or
 * stops the launch before its turn) */
static int enc_nomem(const struct weft_trace_writer *w, struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing trace %s", w->path);
}

/* The address stream's run-length code: the run of zero residuals before
 * this one, then the residual (zigzag); the run starts again. The caller
 * has reserved room (20 bytes an access). */
static inline void put_residual(struct wt_buf *sa, uint64_t *zrun, uint64_t residual)
{
	wt_buf_varint(sa, *zrun);
	wt_buf_varint(sa, wt_zigzag((int64_t)residual));
	*zrun = 0;
}

/* The space stream's: the run of right predictions before this access,
 * then its state space; the run starts again (room reserved: 11 bytes). */
static inline void put_space(struct wt_buf *ss, uint64_t *srun, uint8_t space)
{
	wt_buf_varint(ss, *srun);
	wt_buf_u8(ss, space);
	*srun = 0;
}

/* The lanes after lane l of a warp whose bit is set in agree (they and
 * the lane before them agree) one after another, within the CTA's
 * remaining threads after thread t (tpc threads). */
static inline uint32_t agreeing_run(uint32_t agree, uint32_t l, uint32_t t, uint32_t tpc)
{
	if (l == 31)
		return 0;
	uint32_t k = (uint32_t)__builtin_ctz(~(agree >> (l + 1)) | 1u << (31 - l));
	uint32_t left = tpc - 1 - t;
	return k < left ? k : left;
}

static int write_all(struct weft_trace_writer *w, const void *buf, size_t len, struct weft_error *err)
{
	int st = weft_file_out_write(&w->out, buf, len);
	if (st)
		return io_err(w, err, st);
	w->off += len;
	return 0;
}

/* Writes one record: tag, length, payload, CRC. */
static int write_record(struct weft_trace_writer *w, uint32_t tag, const uint8_t *payload, size_t len,
			uint32_t *crc_out, struct weft_error *err)
{
	if (len > 0xffffffffu - 64) {
		w->failed = 1;
		return weft_error_set(err, WEFT_ERR_LIMIT,
				      "a trace record of %zu bytes exceeds the format's 4 GiB limit (one CTA too large?)",
				      len);
	}
	uint8_t h[8];
	wt_put32(h, tag);
	wt_put32(h + 4, (uint32_t)len);
	uint32_t crc = weft_trace_crc32(0, h, 8);
	crc = weft_trace_crc32(crc, payload, len);
	uint8_t c[4];
	wt_put32(c, crc);
	int rc;
	if ((rc = write_all(w, h, 8, err)) || (rc = write_all(w, payload, len, err)) ||
	    (rc = write_all(w, c, 4, err)))
		return rc;
	if (crc_out)
		*crc_out = crc;
	return 0;
}

int weft_trace_writer_open(const char *path, int level, struct weft_trace_writer **out,
			   struct weft_error *err)
{
	*out = NULL;
	if (level < 0 || level > ZSTD_maxCLevel())
		return weft_error_set(err, WEFT_ERR_INPUT, "zstd level %d out of range (1..%d; 0 = default %d)",
				      level, ZSTD_maxCLevel(), WT_DEFAULT_LEVEL);
	struct weft_trace_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
	w->out.fd = -1;
	w->crec.w = w;
	for (int k = 0; k < 4; k++)
		w->crec.enc.s[k] = &w->s[k]; /* the one thread encodes in place */
	pthread_mutex_init(&w->wmu, NULL);
	w->level = level ? level : WT_DEFAULT_LEVEL;
	size_t n = strlen(path);
	w->path = malloc(n + 1);
	w->cctx = ZSTD_createCCtx();
	if (!w->path || !w->cctx) {
		weft_trace_writer_abort(w);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
	}
	memcpy(w->path, path, n + 1);
	int st = weft_file_out_open(&w->out, w->path);
	if (st) {
		int e = errno;
		weft_trace_writer_abort(w);
		if (st == WEFT_OUT_NOMEM)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
		return weft_error_set(err, WEFT_ERR_IO, "cannot create trace %s: %s (is the directory writable?)",
				      path, strerror(e));
	}
	uint8_t h[WT_HEADER_BYTES];
	memcpy(h, WT_MAGIC, 8);
	wt_put32(h + 8, WEFT_TRACE_VERSION);
	wt_put32(h + 12, weft_trace_crc32(0, h, 12));
	int rc = write_all(w, h, sizeof(h), err);
	if (rc) {
		weft_trace_writer_abort(w);
		return rc;
	}
	*out = w;
	return 0;
}

void weft_trace_writer_set_baseline(struct weft_trace_writer *w, const struct weft_hostperf *perf,
				    const char *what)
{
	if (!perf) {
		w->has_baseline = 0;
		return;
	}
	w->has_baseline = 1;
	w->baseline = *perf;
	snprintf(w->baseline_what, sizeof(w->baseline_what), "%s", what ? what : "");
}

void weft_trace_writer_set_workload(struct weft_trace_writer *w, const char *workload,
				    const char *size)
{
	snprintf(w->workload, sizeof(w->workload), "%s", workload ? workload : "");
	snprintf(w->size, sizeof(w->size), "%s", size ? size : "");
}

const char *weft_trace_writer_temp_path(const struct weft_trace_writer *w)
{
	return w ? w->out.tmp : NULL;
}

/* ---- chunks ---- */

/* Room for one more index entry. */
static int index_grow(struct weft_trace_writer *w)
{
	if (w->nindex == w->capindex) {
		uint32_t nc = w->capindex ? w->capindex * 2 : 64;
		void *np = realloc(w->index, nc * sizeof(*w->index));
		if (!np)
			return -1;
		w->index = np;
		w->capindex = nc;
	}
	return 0;
}

static void pending_free(struct wt_pending *p)
{
	if (p) {
		free(p->raw);
		free(p->rec);
		free(p);
	}
}

/* Parallel emulation, in the commit's turn: closes the chunk into r->pend
 * (its raw payload and an index slot, taken in CTA order) for r's worker
 * to compress after its turn (ob_worker_after_commit). */
static int defer_chunk(struct weft_trace_writer *w, struct wt_rec *r, struct weft_error *err)
{
	if (!w->chunk_ncta)
		return 0;
	size_t n = w->ctatab.n;
	for (int k = 0; k < 4; k++)
		n += w->s[k].n;
	if (n > 0xffffffffu)
		return nomem(w, err);
	struct wt_pending *p = calloc(1, sizeof(*p));
	if (!p || !(p->raw = malloc(n ? n : 1))) {
		free(p);
		return nomem(w, err);
	}
	if (w->ctatab.n)
		memcpy(p->raw, w->ctatab.p, w->ctatab.n);
	size_t o = w->ctatab.n;
	for (int k = 0; k < 4; k++) {
		if (w->s[k].n) /* an empty stream may have no buffer */
			memcpy(p->raw + o, w->s[k].p, w->s[k].n);
		o += w->s[k].n;
	}
	p->rawn = n;
	p->launch = w->nlaunches - 1;
	p->first = w->chunk_first;
	p->ncta = w->chunk_ncta;
	pthread_mutex_lock(&w->wmu);
	int grown = index_grow(w) == 0;
	if (grown) {
		struct wt_index_ent *e = &w->index[w->nindex];
		memset(e, 0, sizeof(*e));
		e->launch = p->launch;
		e->first = p->first;
		e->ncta = p->ncta;
		e->rawlen = (uint32_t)n;
		p->slot = w->nindex++;
	}
	pthread_mutex_unlock(&w->wmu);
	if (!grown) {
		pending_free(p);
		return nomem(w, err);
	}
	/* after its turn the worker compresses every chunk its commit closed
	 * (one, or two when a CTA starts a new chunk and fills it) */
	struct wt_pending **m = &r->pend;
	while (*m)
		m = &(*m)->mine;
	*m = p;
	w->ctatab.n = 0;
	for (int k = 0; k < 4; k++)
		w->s[k].n = 0;
	w->chunk_ncta = 0;
	w->chunk_decoded = 0;
	return 0;
}

/* Closes the current chunk: compressed and written now (one thread), or
 * handed to the committing worker (r a worker's recorder). */
static int flush_chunk(struct weft_trace_writer *w, struct weft_error *err);
static int close_chunk(struct weft_trace_writer *w, struct wt_rec *r, struct weft_error *err)
{
	return r && r != &w->crec ? defer_chunk(w, r, err) : flush_chunk(w, err);
}

static int flush_chunk(struct weft_trace_writer *w, struct weft_error *err)
{
	if (!w->chunk_ncta)
		return 0;
	struct wt_buf *raw = &w->raw;
	raw->n = 0;
	weft_trace_buf_bytes(raw, w->ctatab.p, w->ctatab.n);
	for (int k = 0; k < 4; k++)
		weft_trace_buf_bytes(raw, w->s[k].p, w->s[k].n);
	if (raw->oom || raw->n > 0xffffffffu)
		return nomem(w, err);
	size_t bound = ZSTD_compressBound(raw->n);
	struct wt_buf *rec = &w->rec;
	rec->n = 0;
	if (weft_trace_buf_reserve(rec, WT_CHUNK_HDR + bound))
		return nomem(w, err);
	wt_put32(rec->p, (uint32_t)(w->nlaunches - 1));
	wt_put32(rec->p + 4, w->chunk_first);
	wt_put32(rec->p + 8, w->chunk_ncta);
	wt_put32(rec->p + 12, (uint32_t)raw->n);
	size_t z = ZSTD_compressCCtx(w->cctx, rec->p + WT_CHUNK_HDR, bound, raw->p, raw->n, w->level);
	if (ZSTD_isError(z)) {
		w->failed = 1;
		return weft_error_set(err, WEFT_ERR_INTERNAL, "zstd compression failed: %s",
				      ZSTD_getErrorName(z));
	}
	rec->n = WT_CHUNK_HDR + z;
	if (index_grow(w))
		return nomem(w, err);
	struct wt_index_ent *e = &w->index[w->nindex];
	e->launch = w->nlaunches - 1;
	e->first = w->chunk_first;
	e->ncta = w->chunk_ncta;
	e->off = w->off;
	e->reclen = (uint32_t)(rec->n + WT_REC_OVERHEAD);
	e->rawlen = (uint32_t)raw->n;
	int rc = write_record(w, WT_TAG_CHNK, rec->p, rec->n, &e->crc, err);
	if (rc)
		return rc;
	w->nindex++;
	w->next_write = w->nindex;
	w->ctatab.n = 0;
	for (int k = 0; k < 4; k++)
		w->s[k].n = 0;
	w->chunk_ncta = 0;
	w->chunk_decoded = 0;
	return 0;
}

/* Makes the previous thread's accesses (lane pl of log pg, when the last
 * thread was encoded straight from its warp log) an array again for the
 * predictor (e->pred.pa, pm), in e->seq[slot]. */
static int prev_arrays(struct wt_enc *e, const struct wt_wlog *pg, uint32_t pl, int slot)
{
	struct wt_seq *P = &e->seq[slot];
	if (weft_trace_wlog_accesses(pg, pl, P))
		return -1;
	e->pred.pa = P->aa;
	e->pred.pm = P->am;
	return 0;
}

/* The events of warp log g where a lane of wt_wlog_marks_lanes can differ
 * from the fast path (weft_trace_wlog_marks), into e->u; -1 when out of
 * memory. */
static int warp_marks(const struct weft_trace_writer *w, struct wt_enc *e, const struct wt_wlog *g)
{
	const struct wt_tab *T = &w->tab;
	if (T->nm > e->capusp) {
		uint8_t *np = realloc(e->u_sp, T->nm);
		if (!np)
			return -1;
		e->u_sp = np;
		e->capusp = T->nm;
	}
	if (g->naev > e->capu) {
		uint32_t *np = realloc(e->u, g->naev * sizeof(uint32_t));
		if (!np)
			return -1;
		e->u = np;
		e->capu = g->naev;
	}
	e->nu = weft_trace_wlog_marks(g, T->mspace, e->u_sp, e->u);
	e->u_ready = 1;
	return 0;
}

/* Whether the events of each lane of g are listed (weft_trace_wlog_lanes),
 * listing them for the second lane of the warp read out event by event
 * (*nscan counts them) where the lanes took part in fewer than half of
 * the warp's memory events on average: then a lane's own events are
 * fewer than its warp's. Half, measured (callgrind Ir of `weft-trace run
 * W -j 1 -o` at default size, against no lists): bfs 722M -> 697M;
 * sgemm, hotspot, gaussian and nn within 0.4%. Listing every warp with
 * an inactive lane instead cost hotspot 5% and gaussian 7%; a quarter
 * kept less of bfs's gain (716M). Without memory for the lists, lanes
 * are read out of the log as before. */
static inline int lanes_listed(struct wt_wlog *g, uint32_t *nscan)
{
	if (!g->lanes_ready && ++*nscan >= 2 && g->nlacc * 2 < (size_t)32 * g->naev)
		(void)weft_trace_wlog_lanes(g);
	return g->lanes_ready;
}

/* Access i (event e of warp log g) of lane l, a lane that lines up with
 * lane l-1 (the previous thread): the fast path's prediction from lane
 * l-1's address, its residual and space into the streams (room reserved).
 * Inlined by force: as a call it cost nn 19% more instructions
 * (callgrind, trace run at default size: 608M against 512M). */
static inline __attribute__((always_inline)) void fast_access(const struct weft_trace_writer *w,
								 struct wt_enc *en, struct wt_buf *sa,
								 struct wt_buf *ss, const struct wt_wlog *g,
								 size_t e, uint32_t l, uint32_t i,
								 uint64_t *zrun, uint64_t *srun)
{
	struct wt_fast *F = &en->fast;
	const struct wt_aev *E = &g->aev[e];
	uint32_t m = E->m;
	uint64_t a, p;
	if (!((E->first | E->nz) >> l & 1)) {
		/* the same step as this lane's last access by m: F->D[m], a
		 * zero residual */
		(*zrun)++;
	} else if (a = g->addr[32 * e + l], p = g->addr[32 * e + l - 1], a == p + F->D[m]) {
		(*zrun)++;
	} else {
		put_residual(sa, zrun, a - p - F->D[m]);
		F->D[m] = a - p; /* wt_fast_fix */
		F->d_dirty = 1;
		if (i == F->first[m])
			en->pred.d0[m] = F->D[m];
	}
	uint8_t ps = wt_pred_space(&en->pred, m, w->tab.mspace[m]);
	if (E->space == ps) {
		(*srun)++;
	} else {
		put_space(ss, srun, E->space);
		en->pred.lastsp[m] = E->space;
	}
}

/* Lane l of warp log g (thread t) into the path stream: its blocks
 * (gathered into S) as successor codes. */
static int encode_path(const struct weft_trace_writer *w, struct wt_enc *e, const struct wt_wlog *g,
		       uint32_t l, uint32_t t, struct wt_seq *S, struct weft_error *err)
{
	const struct wt_tab *T = &w->tab;
	struct wt_buf *sp = e->s[0];
	if (weft_trace_wlog_blocks(g, l, S))
		return enc_nomem(w, err);
	if (S->nb > 0xffffffffu)
		return weft_error_set(err, WEFT_ERR_LIMIT, "thread %u of CTA %u entered too many blocks to trace", t, e->cta);
	uint32_t nb = (uint32_t)S->nb;
	const uint32_t *blocks = S->blocks;
	wt_buf_varint(sp, nb);
	if (nb && blocks[0] != 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "trace writer: thread %u of CTA %u starts in block %u, not at pc 0",
				      t, e->cta, blocks[0]);
	for (uint32_t i = 1; i < nb; i++) {
		uint32_t b = blocks[i - 1], nx = blocks[i];
		if (T->nsucc[b] == 2) {
			if (nx == T->succ[b][0]) {
				wt_buf_u8(sp, WT_PATH_SUCC0);
			} else if (nx == T->succ[b][1]) {
				wt_buf_u8(sp, WT_PATH_SUCC1);
			} else {
				wt_buf_u8(sp, WT_PATH_ESCAPE);
				wt_buf_varint(sp, nx);
			}
		} else if (T->nsucc[b] != 1 || nx != T->succ[b][0]) {
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "trace writer: thread %u of CTA %u went from block %u to block %u, "
					      "which is not a CFG successor",
					      t, e->cta, b, nx);
		}
	}
	return sp->oom ? enc_nomem(w, err) : 0;
}

/* Encodes CTA cta's threads, recorded by r, into the streams of r's
 * encoder (e->s; their lengths grow by the CTA's), and its decoded size
 * into e->decoded. Reads w (the launch's tables) and writes only r: a
 * worker runs it for its own recorder outside the order. */
static int encode_cta(const struct weft_trace_writer *w, struct wt_rec *r, uint32_t cta,
		      struct weft_error *err)
{
	const struct wt_tab *T = &w->tab;
	struct wt_enc *e = &r->enc;
	struct wt_buf *sp = e->s[0], *sg = e->s[1], *sa = e->s[2], *ss = e->s[3];
	e->cta = cta;
	uint64_t decoded = 0; /* e->decoded, at the end */
	weft_trace_pred_cta(&e->pred);
	wt_fast_cta(&e->fast);
	uint64_t zrun = 0, srun = 0; /* zero residuals / right space predictions in a row */
	/* the previous thread's accesses are in w->seq[cur ^ 1] (pgath), or
	 * still only in its warp log (pg, lane pl) */
	int cur = 0, pgath = 0;
	const struct wt_wlog *pg = NULL;
	uint32_t pl = 0;
	/* lanes whose path and guard bytes were copied ahead (the rest of
	 * a run of agreeing lanes), the counts of the lane they copy */
	uint32_t prun = 0, grun = 0;
	uint32_t pnb = 0;
	uint64_t png = 0;
	int rc;
	/* the current warp's lanes read out of its log event by event */
	uint32_t nscan = 0;
	for (uint32_t t = 0; t < w->tpc; t++) {
		uint32_t l = t & 31, bit = 1u << l;
		struct wt_wlog *g = &r->wl[t >> 5];
		struct wt_seq *S = &e->seq[cur];
		if (l == 0) {
			e->u_ready = 0;
			nscan = 0;
		}
		/* path and guard bits: where lanes l+1.. took the same blocks
		 * (the same guards) as lane l, their bytes are lane l's, copied
		 * for the whole run at lane l (prun / grun lanes left of it) */
		uint32_t nb;
		uint64_t ng;
		if (prun) {
			prun--;
			nb = pnb;
		} else {
			size_t p0 = sp->n;
			if ((rc = encode_path(w, e, g, l, t, S, err)))
				return rc;
			nb = pnb = (uint32_t)S->nb;
			prun = agreeing_run(g->bagree, l, t, w->tpc);
			if (prun && weft_trace_buf_repeat(sp, p0, prun))
				return enc_nomem(w, err);
		}
		if (grun) {
			grun--;
			ng = png;
		} else {
			size_t g0 = sg->n;
			if (wt_buf_reserve(sg, g->ngrd / 8 + 1))
				return enc_nomem(w, err);
			ng = 0;
			uint8_t gbyte = 0;
			for (size_t i = 0; i < g->ngrd; i++) {
				if (!(g->grd[2 * i + 1] & bit))
					continue;
				gbyte |= (uint8_t)(((g->grd[2 * i] >> l) & 1) << (ng & 7));
				if (!(++ng & 7)) {
					sg->p[sg->n++] = gbyte;
					gbyte = 0;
				}
			}
			if (ng & 7)
				sg->p[sg->n++] = gbyte;
			png = ng;
			grun = agreeing_run(g->gagree, l, t, w->tpc);
			if (grun && weft_trace_buf_repeat(sg, g0, grun))
				return enc_nomem(w, err);
		}
		struct wt_fast *F = &e->fast;
		if (l > 0 && (g->agree & bit) && e->pred.pn > 0) {
			/* lane l-1 of this warp, the previous thread, made the same
			 * memory instructions: the predictor's fast path, straight
			 * out of the warp log (lane l-1's address sits just before
			 * lane l's) */
			uint32_t na = e->pred.pn;
			if (!F->seq_valid && !pgath && prev_arrays(e, pg, pl, cur ^ 1))
				return enc_nomem(w, err);
			if (wt_buf_reserve(sa, (size_t)na * 20 + 20) || wt_buf_reserve(ss, (size_t)na * 11 + 11))
				return enc_nomem(w, err);
			weft_trace_fast_begin(F, &e->pred);
			if ((wt_wlog_marks_lanes(g) & bit) && na == g->naev) {
				/* the lane made every access of its warp: only the
				 * marked events can break a run of zero residuals and
				 * right spaces; the others are counted in bulk */
				if (!e->u_ready && warp_marks(w, e, g))
					return enc_nomem(w, err);
				uint32_t i = 0;
				for (size_t u = 0; u < e->nu; u++) {
					uint32_t ev = e->u[u];
					zrun += ev - i;
					srun += ev - i;
					fast_access(w, e, sa, ss, g, ev, l, ev, &zrun, &srun);
					i = ev + 1;
				}
				zrun += na - i;
				srun += na - i;
				if (e->nu == 0) {
					/* nothing marked: every lane of the marks that
					 * follows (its path and guard bytes already
					 * copied: prun, grun) is na zero residuals and
					 * right spaces, and leaves the predictor as this
					 * one does; taken as a run (callgrind, writing at
					 * default size, lane by lane -> as a run: nn
					 * 349.1M -> 308.4M instructions, bfs 627.7M ->
					 * 608.4M) */
					uint32_t k = agreeing_run(wt_wlog_marks_lanes(g), l, t, w->tpc);
					k = k < prun ? k : prun;
					k = k < grun ? k : grun;
					zrun += (uint64_t)k * na;
					srun += (uint64_t)k * na;
					decoded += (uint64_t)k * ((uint64_t)nb * 4 + ng + (uint64_t)na * 13 + 64);
					prun -= k;
					grun -= k;
					t += k;
					l += k;
				}
			} else if (lanes_listed(g, &nscan)) {
				const uint32_t *x = g->lev + g->la0[l];
				for (uint32_t i = 0; i < na; i++)
					fast_access(w, e, sa, ss, g, x[i], l, i, &zrun, &srun);
			} else {
				uint32_t i = 0;
				for (size_t ev = 0; ev < g->naev; ev++) {
					if (!(g->aev[ev].active & bit))
						continue;
					fast_access(w, e, sa, ss, g, ev, l, i, &zrun, &srun);
					i++;
				}
			}
			decoded += (uint64_t)nb * 4 + ng + (uint64_t)na * 13 + 64;
			wt_pred_thread_end(&e->pred, NULL, NULL, na);
			pgath = 0;
			pg = g;
			pl = l;
			continue;
		}
		lanes_listed(g, &nscan);
		if (weft_trace_wlog_accesses(g, l, S))
			return enc_nomem(w, err);
		if (S->na > 0xffffffffu) {
			return weft_error_set(err, WEFT_ERR_LIMIT, "thread %u of CTA %u made too many accesses to trace", t, e->cta);
		}
		uint32_t na = (uint32_t)S->na;
		if (t > 0 && !pgath && prev_arrays(e, pg, pl, cur ^ 1))
			return enc_nomem(w, err);
		decoded += (uint64_t)nb * 4 + ng + (uint64_t)na * 13 + 64;
		if (wt_buf_reserve(sa, (size_t)na * 20 + 20) || wt_buf_reserve(ss, (size_t)na * 11 + 11))
			return enc_nomem(w, err);
		if (t > 0 && na == e->pred.pn && na &&
		    memcmp(S->am, e->pred.pm, (size_t)na * sizeof(uint32_t)) == 0) {
			/* the previous thread's sequence of memory instructions:
			 * the predictor's fast path (same predictions) */
			weft_trace_fast_begin(F, &e->pred);
			const uint64_t *PA = e->pred.pa;
			for (uint32_t i = 0; i < na; i++) {
				uint32_t m = S->am[i];
				uint64_t a = S->aa[i];
				uint64_t pred = PA[i] + F->D[m];
				if (a == pred) {
					zrun++;
				} else {
					put_residual(sa, &zrun, a - pred);
					wt_fast_fix(F, &e->pred, i, m, a);
				}
				uint8_t ps = wt_pred_space(&e->pred, m, T->mspace[m]);
				if (S->asp[i] == ps) {
					srun++;
				} else {
					put_space(ss, &srun, S->asp[i]);
					e->pred.lastsp[m] = S->asp[i];
				}
			}
		} else {
			weft_trace_fast_flush(F, &e->pred);
			wt_pred_thread(&e->pred);
			for (uint32_t i = 0; i < na; i++) {
				uint32_t m = S->am[i];
				uint64_t a = S->aa[i];
				uint64_t pred = wt_pred_addr(&e->pred, S->aa, i, m);
				if (a == pred) {
					zrun++;
				} else {
					put_residual(sa, &zrun, a - pred);
				}
				uint8_t ps = wt_pred_space(&e->pred, m, T->mspace[m]);
				if (S->asp[i] == ps) {
					srun++;
				} else {
					put_space(ss, &srun, S->asp[i]);
				}
				e->pred.lastsp[m] = S->asp[i];
				wt_pred_update(&e->pred, S->aa, i, m, a);
			}
		}
		wt_pred_thread_end(&e->pred, S->aa, S->am, na);
		pgath = 1;
		cur ^= 1;
	}
	wt_buf_varint(sa, zrun);
	wt_buf_varint(ss, srun);
	e->decoded = decoded;
	for (int k = 0; k < 4; k++)
		if (e->s[k]->oom)
			return enc_nomem(w, err);
	return 0;
}

/* CTA cta, encoded (encode_cta), into the chunk in CTA order: its
 * streams appended (a worker's, d; the one thread's encoder wrote them in
 * place, from n0 on, when d is NULL), its table entry, and the chunk
 * closed once full (r takes the chunk to compress, worker_after_commit). */
static int append_cta(struct weft_trace_writer *w, struct wt_rec *r, uint32_t cta, uint64_t decoded,
		      struct wt_done *d, const size_t *n0, struct weft_error *err)
{
	uint64_t len[4];
	for (int k = 0; k < 4; k++) {
		if (d) {
			len[k] = d->s[k].n;
			weft_trace_buf_bytes(&w->s[k], d->s[k].p, d->s[k].n);
		} else {
			len[k] = w->s[k].n - n0[k];
		}
	}
	w->chunk_decoded += decoded;
	/* the CTA's table entry, its id and stream lengths, inline (one call
	 * per CTA: gaussian's 40740 CTAs spent 6.7M instructions in five
	 * calls to weft_trace_buf_u32 each, callgrind) */
	if (wt_buf_reserve(&w->ctatab, 20))
		return nomem(w, err);
	uint8_t *ct = w->ctatab.p + w->ctatab.n;
	wt_put32(ct, cta);
	for (int k = 0; k < 4; k++) {
		if (len[k] > 0xffffffffu) {
			w->failed = 1;
			return weft_error_set(err, WEFT_ERR_LIMIT, "CTA %u's trace streams exceed 4 GiB", cta);
		}
		wt_put32(ct + 4 + 4 * k, (uint32_t)len[k]);
		w->stream_bytes[k] += len[k];
	}
	w->ctatab.n += 20;
	for (int k = 0; k < 4; k++)
		if (w->s[k].oom)
			return nomem(w, err);
	w->chunk_ncta++;
	size_t rawn = w->ctatab.n;
	for (int k = 0; k < 4; k++)
		rawn += w->s[k].n;
	if (rawn >= WT_CHUNK_TARGET || w->chunk_decoded >= WT_CHUNK_DECODED_TARGET)
		return close_chunk(w, r, err);
	return 0;
}

/* ---- observer callbacks ---- */

static int rec_reserve(struct wt_rec *r, uint32_t tpc);

/* Serialises kernel K's program and finds its bytes among the distinct
 * programs written so far (another kernel may have the same), adding them
 * as a new one, first carried by the current launch, if none has. */
static int program_bytes(struct weft_trace_writer *w, struct wt_kern *K, struct weft_error *err)
{
	struct wt_buf pb = { 0 };
	if (weft_trace_program_write(&pb, K->p) || pb.oom) {
		weft_trace_buf_free(&pb);
		return nomem(w, err);
	}
	for (uint32_t i = 0; i < w->nprogs; i++)
		if (w->progs[i].n == pb.n && memcmp(w->progs[i].p, pb.p, pb.n) == 0) {
			weft_trace_buf_free(&pb);
			K->prog = i;
			return 0;
		}
	void *np1 = realloc(w->progs, (w->nprogs + 1) * sizeof(*w->progs));
	if (np1)
		w->progs = np1;
	void *np2 = realloc(w->prog_launch, (w->nprogs + 1) * sizeof(uint32_t));
	if (np2)
		w->prog_launch = np2;
	if (!np1 || !np2) {
		weft_trace_buf_free(&pb);
		return nomem(w, err);
	}
	w->progs[w->nprogs] = pb;
	w->prog_launch[w->nprogs] = w->nlaunches - 1;
	K->prog = w->nprogs++;
	return 0;
}

static int ob_launch_begin(void *user, const struct weft_module *mod, uint32_t kernel,
			   struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
			   struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	int rc;
	if (w->failed)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "trace writer: an earlier error stopped the trace");
	w->prog = NULL;
	weft_trace_tab_free(&w->tab);
	weft_trace_pred_free(&w->crec.enc.pred);
	uint64_t uid = weft_module_uid(mod);
	uint32_t k = 0;
	while (k < w->nkerns && !(w->kerns[k].mod_uid == uid && w->kerns[k].kernel == kernel))
		k++;
	if (k == w->nkerns) {
		void *nk = realloc(w->kerns, (w->nkerns + 1) * sizeof(*w->kerns));
		if (!nk)
			return nomem(w, err);
		w->kerns = nk;
		/* the observer API hands out a const module; building the
		 * program only reads its (already lowered) kernel */
		struct weft_program *p;
		if ((rc = weft_module_program((struct weft_module *)mod, kernel, &p, err))) {
			w->failed = 1;
			return rc;
		}
		w->kerns[k] = (struct wt_kern){ .mod_uid = uid, .kernel = kernel, .prog = WT_NO_REF, .p = p };
		w->nkerns++;
	}
	struct wt_kern *K = &w->kerns[k];
	w->prog = K->p;
	weft_trace_fast_free(&w->crec.enc.fast);
	if (weft_trace_tab_build(&w->tab, w->prog) || weft_trace_pred_init(&w->crec.enc.pred, w->tab.nm) ||
	    weft_trace_fast_init(&w->crec.enc.fast, w->tab.nm))
		return nomem(w, err);
	uint64_t tpc = (uint64_t)block.x * block.y * block.z;
	uint64_t nctas = (uint64_t)grid.x * grid.y * grid.z;
	if (tpc > 0xffffffffu || nctas > 0xffffffffu) {
		w->failed = 1;
		return weft_error_set(err, WEFT_ERR_LIMIT, "launch geometry too large to trace");
	}
	w->tpc = (uint32_t)tpc;
	w->nctas = (uint32_t)nctas;
	if (rec_reserve(&w->crec, w->tpc))
		return nomem(w, err);
	if (w->nlaunches == w->caplaunches) {
		uint32_t nc = w->caplaunches ? w->caplaunches * 2 : 8;
		void *np = realloc(w->launches, nc * sizeof(*w->launches));
		if (!np)
			return nomem(w, err);
		w->launches = np;
		w->caplaunches = nc;
	}
	struct wt_launch_rec *L = &w->launches[w->nlaunches++];
	memset(L, 0, sizeof(*L));
	L->lnch_off = w->off;
	w->thread_insts = w->warp_insts = w->mem_accesses = 0;
	memset(w->stream_bytes, 0, sizeof(w->stream_bytes));
	w->ctas_seen = 0;
	w->want_given = w->counts_given = 0;
	w->chunk_ncta = 0;
	w->chunk_decoded = 0;
	struct wt_buf b = { 0 };
	weft_trace_buf_u32(&b, w->nlaunches - 1);
	weft_trace_buf_u32(&b, grid.x);
	weft_trace_buf_u32(&b, grid.y);
	weft_trace_buf_u32(&b, grid.z);
	weft_trace_buf_u32(&b, block.x);
	weft_trace_buf_u32(&b, block.y);
	weft_trace_buf_u32(&b, block.z);
	weft_trace_buf_u32(&b, dyn_shared);
	if (K->prog == WT_NO_REF && (rc = program_bytes(w, K, err))) {
		weft_trace_buf_free(&b);
		return rc;
	}
	/* the first launch of these bytes carries them; later ones refer to it */
	uint32_t ref = w->prog_launch[K->prog];
	if (ref == w->nlaunches - 1) {
		const struct wt_buf *pb = &w->progs[K->prog];
		/* the program compresses well (fixed-width fields) and is written
		 * once per distinct kernel */
		size_t bound = ZSTD_compressBound(pb->n);
		weft_trace_buf_u32(&b, WT_NO_REF);
		weft_trace_buf_u32(&b, (uint32_t)pb->n);
		if (!weft_trace_buf_reserve(&b, bound)) {
			size_t z = ZSTD_compressCCtx(w->cctx, b.p + b.n, bound, pb->p, pb->n, WT_PROGRAM_LEVEL);
			if (ZSTD_isError(z)) {
				weft_trace_buf_free(&b);
				w->failed = 1;
				return weft_error_set(err, WEFT_ERR_INTERNAL, "zstd compression failed: %s",
						      ZSTD_getErrorName(z));
			}
			b.n += z;
		}
	} else {
		weft_trace_buf_u32(&b, ref);
	}
	if (b.oom) {
		weft_trace_buf_free(&b);
		return nomem(w, err);
	}
	rc = write_record(w, WT_TAG_LNCH, b.p, b.n, NULL, err);
	weft_trace_buf_free(&b);
	w->in_launch = 1;
	return rc;
}

/* Makes the recorder hold the warps of tpc threads, for the launch's
 * program (w->tab). */
static int rec_reserve(struct wt_rec *r, uint32_t tpc)
{
	uint32_t nw = tpc / 32 + (tpc % 32 != 0);
	if (nw > r->capw) {
		void *np = realloc(r->wl, (size_t)nw * sizeof(*r->wl));
		if (!np)
			return -1;
		r->wl = np;
		memset(r->wl + r->capw, 0, (size_t)(nw - r->capw) * sizeof(*r->wl));
		r->capw = nw;
	}
	for (uint32_t k = 0; k < r->capw; k++)
		if (weft_trace_wlog_prepare(&r->wl[k], r->w->tab.nm))
			return -1;
	return 0;
}

static void rec_free(struct wt_rec *r)
{
	for (uint32_t k = 0; k < r->capw; k++)
		weft_trace_wlog_free(&r->wl[k]);
	free(r->wl);
	r->wl = NULL;
	r->capw = 0;
	struct wt_enc *e = &r->enc;
	weft_trace_pred_free(&e->pred);
	weft_trace_fast_free(&e->fast);
	weft_trace_seq_free(&e->seq[0]);
	weft_trace_seq_free(&e->seq[1]);
	free(e->u);
	free(e->u_sp);
	e->u = NULL;
	e->u_sp = NULL;
	e->capu = e->nu = 0;
	e->capusp = 0;
	struct wt_done *lists[2] = { r->done, r->done_free };
	for (int i = 0; i < 2; i++)
		while (lists[i]) {
			struct wt_done *d = lists[i];
			lists[i] = d->next;
			for (int k = 0; k < 4; k++)
				weft_trace_buf_free(&d->s[k]);
			free(d);
		}
	r->done = r->done_last = r->done_free = NULL;
}

/* Empties the logs of the launch's warps (the others, from a launch with
 * larger CTAs, get no events in this one and are prepared again at the
 * next launch). */
static void rec_cta_begin(struct wt_rec *r)
{
	uint32_t tpc = r->w->tpc, nw = tpc / 32 + (tpc % 32 != 0);
	if (nw > r->capw)
		nw = r->capw;
	for (uint32_t k = 0; k < nw; k++)
		wt_wlog_reset(&r->wl[k]);
	r->thread_insts = r->warp_insts = r->mem_accesses = 0;
}

/* CTA cta into the chunk (in CTA order): recorded by r and encoded
 * here (the one thread), or encoded ahead into d (a worker, r's). */
static int commit_cta(struct weft_trace_writer *w, struct wt_rec *r, struct wt_done *d, uint32_t cta,
		      struct weft_error *err)
{
	if (__atomic_load_n(&w->failed, __ATOMIC_RELAXED))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "trace writer: an earlier error stopped the trace");
	/* chunks hold consecutive CTAs (the index describes ranges) */
	if (w->chunk_ncta && cta != w->chunk_first + w->chunk_ncta) {
		int rc = close_chunk(w, r, err);
		if (rc)
			return rc;
	}
	if (!w->chunk_ncta)
		w->chunk_first = cta;
	w->ctas_seen++;
	if (d) {
		w->thread_insts += d->thread_insts;
		w->warp_insts += d->warp_insts;
		w->mem_accesses += d->mem_accesses;
		return append_cta(w, r, cta, d->decoded, d, NULL, err);
	}
	w->thread_insts += r->thread_insts;
	w->warp_insts += r->warp_insts;
	w->mem_accesses += r->mem_accesses;
	size_t n0[4];
	for (int k = 0; k < 4; k++)
		n0[k] = w->s[k].n;
	int rc = encode_cta(w, r, cta, err);
	if (rc) {
		w->failed = 1;
		return rc;
	}
	return append_cta(w, r, cta, r->enc.decoded, NULL, n0, err);
}

static int ob_cta_begin(void *user, uint32_t cta, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	(void)cta;
	if (w->failed)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "trace writer: an earlier error stopped the trace");
	rec_cta_begin(&w->crec);
	return 0;
}

static int ob_cta_end(void *user, uint32_t cta, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	return commit_cta(w, &w->crec, NULL, cta, err);
}

static int rec_nomem(const struct weft_trace_writer *w, struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing trace %s", w->path);
}

/* One warp event into r; never writes the writer (workers run this
 * concurrently): a failure is returned, and the commit that does not come
 * for it leaves the trace unfinished. Inlined into both callbacks: it
 * runs once per warp instruction (callgrind, writing gaussian at default
 * size: 1115.2M -> 1104.5M instructions, bfs 669.2M -> 663.1M). */
static inline __attribute__((always_inline)) int rec_warp_inst(struct wt_rec *r, const struct weft_warp_event *ev,
								 struct weft_error *err)
{
	const struct weft_trace_writer *w = r->w;
	r->warp_insts++;
	r->thread_insts += wt_popcount(ev->active);
	uint32_t pc = ev->pc;
	if (pc >= w->prog->ninsts) {
		return weft_error_set(err, WEFT_ERR_INTERNAL, "trace writer: event at pc %u outside the program", pc);
	}
	uint8_t f = w->tab.pc_flags[pc];
	if (!f)
		return 0;
	uint32_t lanes = ev->active | ev->guard_false;
	uint32_t base = ev->warp * 32;
	if (ev->warp >= r->capw || base + 32 - (uint32_t)__builtin_clz(lanes | 1) > w->tpc) {
		return weft_error_set(err, WEFT_ERR_INTERNAL, "trace writer: warp %u lane outside the CTA", ev->warp);
	}
	struct wt_wlog *g = &r->wl[ev->warp];
	if ((f & 0x80) && lanes && weft_trace_wlog_block(g, w->prog->block_of[pc], lanes))
		return rec_nomem(w, err);
	if ((f & WEFT_II_GUARD) && lanes && weft_trace_wlog_guard(g, ev->active, lanes))
		return rec_nomem(w, err);
	if ((f & WEFT_II_ADDR) && ev->active) {
		if (!ev->addr) {
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "trace writer: memory instruction at pc %u came without addresses", pc);
		}
		if (weft_trace_wlog_access(g, w->tab.mem_of_pc[pc], ev->space, ev->active, ev->addr))
			return rec_nomem(w, err);
		r->mem_accesses += wt_popcount(ev->active);
	}
	return 0;
}

static int ob_warp_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	int rc = rec_warp_inst(&w->crec, ev, err);
	if (rc)
		w->failed = 1;
	return rc;
}

/* ---- parallel emulation: a recorder per worker (host.h) ---- */

static void *ob_worker_open(void *user, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	pthread_mutex_lock(&w->wmu);
	struct wt_rec *r = w->spare;
	if (r)
		w->spare = r->next_spare;
	pthread_mutex_unlock(&w->wmu);
	if (r) {
		/* fitted to this launch's program (pred, fast: its memory
		 * instructions; the logs: rec_reserve) */
		weft_trace_pred_free(&r->enc.pred);
		weft_trace_fast_free(&r->enc.fast);
		r->next_spare = NULL;
	} else {
		r = calloc(1, sizeof(*r));
	}
	if (r) {
		r->w = w;
		if (!rec_reserve(r, w->tpc) && !weft_trace_pred_init(&r->enc.pred, w->tab.nm) &&
		    !weft_trace_fast_init(&r->enc.fast, w->tab.nm))
			return r;
		rec_free(r);
		free(r);
	}
	rec_nomem(w, err);
	return NULL;
}

static int ob_worker_cta_begin(void *wuser, uint32_t cta, struct weft_error *err)
{
	(void)cta;
	(void)err;
	rec_cta_begin(wuser);
	return 0;
}

static int ob_worker_warp_inst(void *wuser, const struct weft_warp_event *ev, struct weft_error *err)
{
	return rec_warp_inst(wuser, ev, err);
}

/* A worker's CTA has run: encoded now, outside the order, into a
 * wt_done queued on the recorder until the CTA's commit appends it. */
static int ob_worker_cta_end(void *wuser, uint32_t cta, struct weft_error *err)
{
	struct wt_rec *r = wuser;
	struct wt_done *d = r->done_free;
	if (d)
		r->done_free = d->next;
	else if (!(d = calloc(1, sizeof(*d))))
		return enc_nomem(r->w, err);
	for (int k = 0; k < 4; k++) {
		d->s[k].n = 0;
		d->s[k].oom = 0;
		r->enc.s[k] = &d->s[k];
	}
	int rc = encode_cta(r->w, r, cta, err);
	if (rc) {
		d->next = r->done_free;
		r->done_free = d;
		return rc;
	}
	d->cta = cta;
	d->thread_insts = r->thread_insts;
	d->warp_insts = r->warp_insts;
	d->mem_accesses = r->mem_accesses;
	d->decoded = r->enc.decoded;
	d->next = NULL;
	if (r->done_last)
		r->done_last->next = d;
	else
		r->done = d;
	r->done_last = d;
	return 0;
}

/* The commit of a CTA the worker ran: the oldest of its queue (a worker
 * commits its CTAs in the order it ran them). */
static int ob_cta_commit(void *user, void *wuser, uint32_t cta, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	struct wt_rec *r = wuser;
	struct wt_done *d = r->done;
	if (!d || d->cta != cta) {
		w->failed = 1;
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "trace writer: CTA %u committed, but its worker's next encoded CTA is %s", cta,
				      d ? "another" : "none");
	}
	r->done = d->next;
	if (!r->done)
		r->done_last = NULL;
	int rc = commit_cta(w, r, d, cta, err);
	d->next = r->done_free;
	r->done_free = d;
	return rc;
}

/* Compresses chunk p, then writes every compressed chunk whose turn in
 * the file has come (p's, and later ones that waited for it). */
static int compress_and_write(struct weft_trace_writer *w, struct wt_pending *p, struct weft_error *err)
{
	size_t bound = ZSTD_compressBound(p->rawn);
	if (!(p->rec = malloc(WT_CHUNK_HDR + bound))) {
		pending_free(p);
		__atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
		return rec_nomem(w, err);
	}
	wt_put32(p->rec, p->launch);
	wt_put32(p->rec + 4, p->first);
	wt_put32(p->rec + 8, p->ncta);
	wt_put32(p->rec + 12, (uint32_t)p->rawn);
	ZSTD_CCtx *cc = NULL;
	pthread_mutex_lock(&w->wmu);
	if (w->ncpool)
		cc = w->cpool[--w->ncpool];
	pthread_mutex_unlock(&w->wmu);
	if (!cc && !(cc = ZSTD_createCCtx())) {
		pending_free(p);
		__atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
		return rec_nomem(w, err);
	}
	size_t z = ZSTD_compressCCtx(cc, p->rec + WT_CHUNK_HDR, bound, p->raw, p->rawn, w->level);
	pthread_mutex_lock(&w->wmu);
	if (w->ncpool == w->capcpool) {
		uint32_t nc = w->capcpool ? 2 * w->capcpool : 4;
		ZSTD_CCtx **np = realloc(w->cpool, nc * sizeof(*np));
		if (np) {
			w->cpool = np;
			w->capcpool = nc;
		}
	}
	if (w->ncpool < w->capcpool)
		w->cpool[w->ncpool++] = cc;
	else
		ZSTD_freeCCtx(cc); /* no room to keep it: the next compression makes one */
	pthread_mutex_unlock(&w->wmu);
	if (ZSTD_isError(z)) {
		pending_free(p);
		__atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
		return weft_error_set(err, WEFT_ERR_INTERNAL, "zstd compression failed: %s", ZSTD_getErrorName(z));
	}
	p->recn = WT_CHUNK_HDR + z;
	free(p->raw);
	p->raw = NULL;
	int rc = 0;
	pthread_mutex_lock(&w->wmu);
	struct wt_pending **q = &w->queue;
	while (*q && (*q)->slot < p->slot)
		q = &(*q)->next;
	p->next = *q;
	*q = p;
	while (!rc && w->queue && w->queue->slot == w->next_write) {
		struct wt_pending *h = w->queue;
		struct wt_index_ent *e = &w->index[h->slot];
		e->off = w->off;
		e->reclen = (uint32_t)(h->recn + WT_REC_OVERHEAD);
		rc = write_record(w, WT_TAG_CHNK, h->rec, h->recn, &e->crc, err);
		w->queue = h->next;
		pending_free(h);
		w->next_write++;
	}
	if (rc)
		__atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&w->wmu);
	return rc;
}

/* After its turn: the chunks the worker's commit closed. */
static int ob_worker_after_commit(void *user, void *wuser, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	struct wt_rec *r = wuser;
	int rc = 0;
	while (!rc && r->pend) {
		struct wt_pending *p = r->pend;
		r->pend = p->mine;
		rc = compress_and_write(w, p, err);
	}
	return rc;
}

static void ob_worker_close(void *user, void *wuser)
{
	struct wt_rec *r = wuser;
	/* CTAs encoded but never committed (the launch stopped at an
	 * earlier one) are dropped; their buffers are kept */
	while (r->done) {
		struct wt_done *d = r->done;
		r->done = d->next;
		d->next = r->done_free;
		r->done_free = d;
	}
	r->done_last = NULL;
	while (r->pend) {
		struct wt_pending *p = r->pend;
		r->pend = p->mine;
		pending_free(p);
	}
	struct weft_trace_writer *w = user;
	pthread_mutex_lock(&w->wmu);
	r->next_spare = w->spare;
	w->spare = r;
	pthread_mutex_unlock(&w->wmu);
}

/* The events the writer records: those of instructions that start a block,
 * have a guard or an address (tab.pc_flags). The others only add to the
 * counts, which the emulator then hands over whole: recording every warp
 * instruction cost about 120 instructions per warp instruction in the
 * emulator's event and this observer's call (callgrind, writing gaussian
 * at default size: 1.15M warp instructions). */
static const uint8_t *ob_launch_want(void *user, uint32_t *n)
{
	struct weft_trace_writer *w = user;
	*n = w->prog ? w->prog->ninsts : 0;
	w->want_given = 1;
	return w->prog ? w->tab.pc_flags : NULL;
}

static void ob_launch_counts(void *user, uint64_t thread_insts, uint64_t warp_insts)
{
	struct weft_trace_writer *w = user;
	w->lc_thread = thread_insts;
	w->lc_warp = warp_insts;
	w->counts_given = 1;
}

static int ob_launch_end(void *user, struct weft_error *err)
{
	struct weft_trace_writer *w = user;
	int rc = flush_chunk(w, err);
	if (rc)
		return rc;
	if (w->want_given) {
		/* events were left out: the counts are the emulator's */
		if (!w->counts_given) {
			w->failed = 1;
			return weft_error_set(err, WEFT_ERR_INTERNAL,
					      "trace writer: the emulator filtered the events but gave no launch counts");
		}
		w->thread_insts = w->lc_thread;
		w->warp_insts = w->lc_warp;
	}
	w->launches[w->nlaunches - 1].lend_off = w->off;
	struct wt_buf b = { 0 };
	weft_trace_buf_u32(&b, w->nlaunches - 1);
	weft_trace_buf_u32(&b, w->ctas_seen);
	weft_trace_buf_u64(&b, w->thread_insts);
	weft_trace_buf_u64(&b, w->warp_insts);
	weft_trace_buf_u64(&b, w->mem_accesses);
	for (int k = 0; k < 4; k++)
		weft_trace_buf_u64(&b, w->stream_bytes[k]);
	if (b.oom) {
		weft_trace_buf_free(&b);
		return nomem(w, err);
	}
	rc = write_record(w, WT_TAG_LEND, b.p, b.n, NULL, err);
	weft_trace_buf_free(&b);
	w->in_launch = 0;
	return rc;
}

const struct weft_emu_observer *weft_trace_writer_observer(struct weft_trace_writer *w)
{
	w->obs.user = w;
	w->obs.launch_begin = ob_launch_begin;
	w->obs.launch_end = ob_launch_end;
	w->obs.cta_begin = ob_cta_begin;
	w->obs.cta_end = ob_cta_end;
	w->obs.warp_inst = ob_warp_inst;
	w->obs.worker_open = ob_worker_open;
	w->obs.worker_cta_begin = ob_worker_cta_begin;
	w->obs.worker_warp_inst = ob_worker_warp_inst;
	w->obs.worker_cta_end = ob_worker_cta_end;
	w->obs.cta_commit = ob_cta_commit;
	w->obs.worker_close = ob_worker_close;
	w->obs.worker_after_commit = ob_worker_after_commit;
	w->obs.launch_want = ob_launch_want;
	w->obs.launch_counts = ob_launch_counts;
	return &w->obs;
}

/* ---- commit / abort ---- */

static void free_writer(struct weft_trace_writer *w)
{
	weft_file_out_free(&w->out);
	ZSTD_freeCCtx(w->cctx);
	for (uint32_t i = 0; i < w->nkerns; i++)
		weft_program_free(w->kerns[i].p);
	free(w->kerns);
	weft_trace_tab_free(&w->tab);
	rec_free(&w->crec);
	while (w->spare) {
		struct wt_rec *r = w->spare;
		w->spare = r->next_spare;
		rec_free(r);
		free(r);
	}
	for (uint32_t i = 0; i < w->ncpool; i++)
		ZSTD_freeCCtx(w->cpool[i]);
	free(w->cpool);
	while (w->queue) { /* chunks of a parallel launch that failed */
		struct wt_pending *p = w->queue;
		w->queue = p->next;
		pending_free(p);
	}
	pthread_mutex_destroy(&w->wmu);
	weft_trace_buf_free(&w->ctatab);
	for (int k = 0; k < 4; k++)
		weft_trace_buf_free(&w->s[k]);
	weft_trace_buf_free(&w->raw);
	weft_trace_buf_free(&w->rec);
	free(w->index);
	free(w->launches);
	for (uint32_t i = 0; i < w->nprogs; i++)
		weft_trace_buf_free(&w->progs[i]);
	free(w->progs);
	free(w->prog_launch);
	free(w->path);
	free(w);
}

void weft_trace_writer_abort(struct weft_trace_writer *w)
{
	if (!w)
		return;
	free_writer(w); /* removes the temporary file unless committed */
}

static void put_info(struct weft_trace_writer *w, struct wt_buf *b)
{
	weft_trace_buf_str(b, w->workload);
	weft_trace_buf_str(b, w->size);
	weft_trace_buf_u32(b, (uint32_t)w->has_baseline);
	weft_trace_buf_str(b, w->baseline_what);
	const struct weft_hostperf *h = &w->baseline;
	uint32_t nc = w->has_baseline ? h->ncounters : 0;
	if (nc > WEFT_HOSTPERF_MAX)
		nc = WEFT_HOSTPERF_MAX;
	uint64_t wall;
	memcpy(&wall, &h->wall_seconds, 8);
	weft_trace_buf_u64(b, w->has_baseline ? wall : 0);
	weft_trace_buf_u32(b, nc);
	for (uint32_t i = 0; i < nc; i++) {
		const struct weft_hostperf_counter *c = &h->counters[i];
		weft_trace_buf_str(b, c->name);
		weft_trace_buf_str(b, c->event);
		weft_trace_buf_str(b, c->unit);
		wt_buf_u8(b, (uint8_t)c->hardware);
		wt_buf_u8(b, (uint8_t)c->available);
		wt_buf_u8(b, (uint8_t)c->scaled);
		weft_trace_buf_u64(b, c->value);
		weft_trace_buf_str(b, c->reason);
	}
}

int weft_trace_writer_commit(struct weft_trace_writer *w, struct weft_error *err)
{
	int rc = 0;
	if (w->failed || w->in_launch) {
		rc = weft_error_set(err, WEFT_ERR_INTERNAL, "trace %s is incomplete (a launch failed); not written",
				    w->path);
		weft_trace_writer_abort(w);
		return rc;
	}
	struct wt_buf b = { 0 };
	uint64_t info_off = w->off;
	put_info(w, &b);
	if (b.oom) {
		rc = nomem(w, err);
		goto fail;
	}
	if ((rc = write_record(w, WT_TAG_INFO, b.p, b.n, NULL, err)))
		goto fail;
	b.n = 0;
	uint64_t index_off = w->off;
	weft_trace_buf_u32(&b, w->nlaunches);
	for (uint32_t i = 0; i < w->nlaunches; i++) {
		weft_trace_buf_u64(&b, w->launches[i].lnch_off);
		weft_trace_buf_u64(&b, w->launches[i].lend_off);
	}
	weft_trace_buf_u64(&b, info_off);
	weft_trace_buf_u32(&b, w->nindex);
	for (uint32_t i = 0; i < w->nindex; i++) {
		const struct wt_index_ent *e = &w->index[i];
		weft_trace_buf_u32(&b, e->launch);
		weft_trace_buf_u32(&b, e->first);
		weft_trace_buf_u32(&b, e->ncta);
		weft_trace_buf_u64(&b, e->off);
		weft_trace_buf_u32(&b, e->reclen);
		weft_trace_buf_u32(&b, e->rawlen);
		weft_trace_buf_u32(&b, e->crc);
	}
	if (b.oom) {
		rc = nomem(w, err);
		goto fail;
	}
	if ((rc = write_record(w, WT_TAG_INDX, b.p, b.n, NULL, err)))
		goto fail;
	uint8_t f[WT_FOOTER_BYTES];
	wt_put32(f, WT_TAG_FOOT);
	wt_put64(f + 4, index_off);
	wt_put32(f + 12, weft_trace_crc32(0, f, 12));
	if ((rc = write_all(w, f, sizeof(f), err)))
		goto fail;
	int st = weft_file_out_commit(&w->out);
	if (st) {
		rc = io_err(w, err, st);
		goto fail;
	}
	weft_trace_buf_free(&b);
	free_writer(w);
	return 0;
fail:
	weft_trace_buf_free(&b);
	weft_trace_writer_abort(w);
	return rc;
}
