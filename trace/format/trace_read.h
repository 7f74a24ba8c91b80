/*
 * trace_read.h - internal: the reader's state, shared by trace_records.c
 * (checked reads of records and chunks), trace_read.c (open, random
 * access), trace_decode.c (one CTA), trace_foreach.c (parallel decoding)
 * and trace_verify.c.
 */
#ifndef WEFT_TRACE_READ_H
#define WEFT_TRACE_READ_H

#include <zstd.h>

#include "trace.h"
#include "trace_format.h"

struct wt_chunk {  /* an index entry */
	uint32_t launch, first, ncta;
	uint64_t off;
	uint32_t reclen, rawlen, crc;
};

struct wt_launch {
	struct weft_trace_launch pub;
	struct weft_program *prog;
	struct wt_tab tab;
	uint32_t chunk0;   /* first of its chunks in weft_trace.chunks (sorted) */
	int nloaded;
	int shared_prog;   /* prog belongs to an earlier launch */
};

/* A decoder's working state, kept apart from the CTAs it decodes (a CTA
 * holds only what the models read): the address predictor and its fast
 * path, both reset for every CTA, and the memory instruction of each
 * access of two threads, the previous general-path thread's (the only
 * ones the predictor reads) and the one being decoded, in two buffers used
 * in turn. One per decoding thread: the reader's, the single-threaded
 * for_each's and each for_each worker's. */
struct wt_dscratch {
	struct wt_pred pred;
	struct wt_fast fast;
	uint32_t *ms[2];
	size_t capm[2];
	/* the full addresses of the thread being decoded and of the previous
	 * one (the predictor reads both), used in turn; the CTA keeps them
	 * compact (struct wt_ctapriv) */
	uint64_t *ta[2];
	size_t capta[2];
};
void weft_trace_dscratch_free(struct wt_dscratch *d);

struct weft_trace {
	int fd;
	char *path;
	uint64_t fsize;
	struct weft_trace_info info;
	struct wt_launch *launches;
	uint32_t nlaunches;
	struct wt_chunk *chunks; /* sorted by (launch, first CTA) */
	uint32_t nchunks;
	/* weft_trace_read_cta's chunk cache */
	ZSTD_DCtx *dctx;
	struct wt_buf comp, raw;
	struct wt_dscratch scr;
	uint32_t cached;
	/* single-threaded for_each's own context, buffers and decoded CTA (a
	 * callback may still call weft_trace_read_cta) */
	ZSTD_DCtx *fe_dctx;
	struct wt_buf fe_comp, fe_raw;
	uint32_t fe_loaded; /* 1 + the chunk in fe_raw; 0 none */
	struct wt_dscratch fe_scr;
	struct weft_cta_trace fe_cta;
	struct wt_fe_pool *fe_pool; /* multi-threaded for_each's slots and decoders */
	/* for_each's piece size and decode-ahead budget; 0 (as opened):
	 * WT_FE_PIECE_BYTES and WT_FE_AHEAD_BYTES (unit tests set them) */
	uint64_t fe_piece_bytes, fe_ahead_bytes;
	unsigned jobs;              /* weft_trace_set_jobs: threads a for_each uses (0: one per CPU) */
};

/* What a decoded struct weft_cta_trace owns. */
struct wt_ctapriv {
	uint32_t *blocks;
	size_t capb;
	uint8_t *guards;
	size_t capg;
	/* the addresses (struct weft_thread_trace): offsets from abase by
	 * space, or, when wide, full addresses in addrs (capw) */
	uint32_t *aoff;
	uint8_t *spaces;
	size_t capa;             /* of aoff and spaces */
	uint64_t abase[WEFT_SPACE_COUNT];
	int wide;
	uint64_t *addrs;
	size_t capw;
	struct weft_thread_trace *threads;
	size_t capt;
	size_t *offs;
	size_t capo;
};

/* trace_foreach.c's decoded slots and decoder contexts, kept between calls. */
struct wt_fe_pool;
void weft_trace_fe_pool_free(struct wt_fe_pool *p);
/* The decode-ahead budget of a for_each: the decoded chunks its workers
 * hold, the one the callback consumes included (trace_foreach.c). 12 MiB
 * since a decoded address takes 4 bytes (docs/trace-format.md: at 16 MiB
 * sgemm's large CTAs were held more at a time, for a larger peak and no
 * faster replay). */
#define WT_FE_AHEAD_BYTES ((uint64_t)12 << 20)
/* The decoded size a for_each cuts a chunk of many CTAs down to: the
 * pieces its workers hand over (at least one CTA each). */
#define WT_FE_PIECE_BYTES ((uint64_t)256 << 10)
/* The estimated bytes of one decoded CTA of launch L (from its averages:
 * threads, accesses, path and guard bytes per CTA). */
uint64_t weft_trace_fe_cta_bytes(const struct weft_trace_launch *L);
/* How a for_each decodes nwork chunks of about item_bytes each with up to
 * `workers` decoder threads: *workers_out threads and *slots_out decoded
 * chunks held at most, slots_out x item_bytes within budget; 0 threads
 * (decode in the caller's thread, one chunk at a time) when there is
 * nothing to overlap or no room for two chunks. */
void weft_trace_fe_plan(unsigned workers, uint32_t nwork, uint64_t item_bytes, uint64_t budget,
			unsigned *workers_out, uint32_t *slots_out);
/* The same for a compact preparation (trace.h struct weft_cta_prep):
 * item_bytes are a piece's prepared results, cta_bytes one decoded CTA,
 * which every decoding thread holds while it decodes. d decoders (the
 * caller's thread counted when *helps_out) and 2 d slots, as many as fit
 * d x cta_bytes + slots x item_bytes in budget; when not even two
 * decoders fit, one decoder thread (the caller does not decode) and 2
 * slots: one decoded CTA and two prepared pieces, against the caller's
 * one of each without threads. 0 threads only when there is nothing to
 * overlap. */
void weft_trace_fe_plan_compact(unsigned workers, uint32_t nwork, uint64_t cta_bytes, uint64_t item_bytes,
				uint64_t budget, unsigned *workers_out, uint32_t *slots_out, int *helps_out);

/* trace_records.c: */
/* Reads len bytes at off (retrying short reads): 0, -1 on an I/O error
 * (errno set), -2 at end of file. */
int weft_trace_read_at(int fd, void *buf, size_t len, uint64_t off);
/* Fills err (WEFT_ERR_VERIFY, err->offset = off) with "trace PATH is
 * corrupt at byte offset OFF: ..." and returns WEFT_ERR_VERIFY. */
int weft_trace_corrupt(struct weft_error *err, const char *path, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Checks the file header (size, magic, CRC, version); a version this weft
 * does not read is an error with code version_code (the reader's INPUT,
 * verify's VERIFY). */
int weft_trace_check_header(int fd, uint64_t fsize, const char *path, int version_code,
		    struct weft_error *err);
/* Reads and CRC-checks the record at off (payload into out, out->n its
 * length); the record must end at or before limit. */
int weft_trace_read_record(int fd, const char *path, uint64_t limit, uint64_t off, uint32_t tag,
		   struct wt_buf *out, struct weft_error *err);
/* Index of the chunk holding (launch, cta), or -1. */
int weft_trace_find_chunk(const struct weft_trace *t, uint32_t launch, uint32_t cta);
/* Reads, checks and decompresses chunk c into raw (thread-safe given
 * private dctx/comp/raw). */
int weft_trace_load_chunk(const struct weft_trace *t, const struct wt_chunk *c, ZSTD_DCtx *dctx,
		  struct wt_buf *comp, struct wt_buf *raw, struct weft_error *err);
/* trace_decode.c: */
/* Decodes CTA cta of the loaded chunk into c with decoder state D
 * (thread-safe given a private D). */
int weft_trace_decode_cta(const struct weft_trace *t, const struct wt_chunk *ch, const struct wt_buf *raw,
		  uint32_t cta, struct weft_cta_trace *c, struct wt_dscratch *D, struct weft_error *err);

#endif
