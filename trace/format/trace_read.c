/*
 * trace_read.c - the trace reader (trace.h): open (header, footer, index,
 * launch records with their static programs), close, and random access to
 * one CTA through the index. Reading and checking the file's records and
 * chunks is trace_records.c (below this file, trace_decode.c and
 * trace_foreach.c); decoding a CTA is trace_decode.c; parallel decoding in
 * CTA order is trace_foreach.c; the per-thread iterator is inline in
 * trace.h.
 *
 * Every length and index read from the file is bounds-checked, and every
 * record's CRC-32 is checked before its contents are used, so a corrupt or
 * truncated file gives an error naming the byte offset, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "trace.h"
#include "trace_format.h"
#include "trace_read.h"

/* ---- open ---- */

static int cmp_chunk(const void *a, const void *b)
{
	const struct wt_chunk *x = a, *y = b;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int read_info(struct weft_trace *t, uint64_t off, struct wt_buf *b, struct weft_error *err)
{
	int rc = weft_trace_read_record(t->fd, t->path, t->fsize, off, WT_TAG_INFO, b, err);
	if (rc)
		return rc;
	struct wt_rd r = { b->p, b->p + b->n, 0 };
	struct weft_trace_info *I = &t->info;
	char *wl = weft_trace_rd_str(&r), *sz = weft_trace_rd_str(&r);
	snprintf(I->workload, sizeof(I->workload), "%s", wl ? wl : "");
	snprintf(I->size, sizeof(I->size), "%s", sz ? sz : "");
	free(wl);
	free(sz);
	I->has_baseline = (int)weft_trace_rd_u32(&r);
	char *what = weft_trace_rd_str(&r);
	snprintf(I->baseline_what, sizeof(I->baseline_what), "%s", what ? what : "");
	free(what);
	uint64_t wall = weft_trace_rd_u64(&r);
	memcpy(&I->baseline.wall_seconds, &wall, 8);
	uint32_t nc = weft_trace_rd_u32(&r);
	if (nc > WEFT_HOSTPERF_MAX)
		r.bad = 1;
	I->baseline.ncounters = r.bad ? 0 : nc;
	for (uint32_t i = 0; i < nc && !r.bad; i++) {
		struct weft_hostperf_counter *c = &I->baseline.counters[i];
		char *s[3];
		s[0] = weft_trace_rd_str(&r);
		s[1] = weft_trace_rd_str(&r);
		s[2] = weft_trace_rd_str(&r);
		snprintf(c->name, sizeof(c->name), "%s", s[0] ? s[0] : "");
		snprintf(c->event, sizeof(c->event), "%s", s[1] ? s[1] : "");
		snprintf(c->unit, sizeof(c->unit), "%s", s[2] ? s[2] : "");
		for (int k = 0; k < 3; k++)
			free(s[k]);
		c->hardware = wt_rd_u8(&r);
		c->available = wt_rd_u8(&r);
		c->scaled = wt_rd_u8(&r);
		c->value = weft_trace_rd_u64(&r);
		char *why = weft_trace_rd_str(&r);
		snprintf(c->reason, sizeof(c->reason), "%s", why ? why : "");
		free(why);
	}
	if (r.bad || r.p != r.end)
		return weft_trace_corrupt(err, t->path, off, "malformed INFO record");
	return 0;
}

static int read_launch(struct weft_trace *t, uint32_t i, uint64_t lo, uint64_t le, struct wt_buf *b,
		       struct weft_error *err)
{
	struct wt_launch *L = &t->launches[i];
	struct weft_trace_launch *P = &L->pub;
	int rc = weft_trace_read_record(t->fd, t->path, t->fsize, lo, WT_TAG_LNCH, b, err);
	if (rc)
		return rc;
	struct wt_rd r = { b->p, b->p + b->n, 0 };
	P->index = weft_trace_rd_u32(&r);
	P->grid.x = weft_trace_rd_u32(&r);
	P->grid.y = weft_trace_rd_u32(&r);
	P->grid.z = weft_trace_rd_u32(&r);
	P->block.x = weft_trace_rd_u32(&r);
	P->block.y = weft_trace_rd_u32(&r);
	P->block.z = weft_trace_rd_u32(&r);
	P->dyn_shared = weft_trace_rd_u32(&r);
	if (r.bad || P->index != i)
		return weft_trace_corrupt(err, t->path, lo, "malformed launch record %u", i);
	/* the launch was run by weft_launch, which refuses anything past CUDA's
	 * limits (host.h): a record beyond them is damage, and would size the
	 * decoder's per-CTA arrays (threads_per_cta) */
	char why[300];
	if (weft_launch_check_dims(P->grid, P->block, why, sizeof(why)))
		return weft_trace_corrupt(err, t->path, lo, "launch record %u: %s", i, why);
	if (P->dyn_shared > WEFT_MAX_SHARED_BYTES)
		return weft_trace_corrupt(err, t->path, lo,
				  "launch record %u: %u bytes of dynamic shared memory, more than CUDA's %u per block",
				  i, P->dyn_shared, WEFT_MAX_SHARED_BYTES);
	uint64_t nctas = (uint64_t)P->grid.x * P->grid.y * P->grid.z;
	uint64_t tpc = (uint64_t)P->block.x * P->block.y * P->block.z;
	P->nctas = (uint32_t)nctas;
	P->threads_per_cta = (uint32_t)tpc;
	uint32_t ref = weft_trace_rd_u32(&r);
	if (r.bad || (ref != WT_NO_REF && ref >= i))
		return weft_trace_corrupt(err, t->path, lo, "malformed launch record %u (program reference)", i);
	if (ref != WT_NO_REF) {
		if (r.p != r.end)
			return weft_trace_corrupt(err, t->path, lo, "launch %u: trailing bytes", i);
		L->prog = t->launches[ref].prog;
		L->shared_prog = 1;
	} else {
		uint32_t rawlen = weft_trace_rd_u32(&r);
		/* programs compress far less than 1024-fold; the bound keeps a
		 * corrupt length from asking for a huge allocation */
		if (r.bad || rawlen > (uint64_t)(r.end - r.p) * 1024 + 4096)
			return weft_trace_corrupt(err, t->path, lo, "malformed launch record %u (program length)", i);
		struct wt_buf pb = { 0 };
		if (weft_trace_buf_reserve(&pb, (size_t)rawlen + 1))
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
		size_t z = ZSTD_decompressDCtx(t->dctx, pb.p, rawlen, r.p, (size_t)(r.end - r.p));
		if (ZSTD_isError(z) || z != rawlen) {
			weft_trace_buf_free(&pb);
			return weft_trace_corrupt(err, t->path, lo, "launch %u: the static program does not decompress", i);
		}
		struct wt_rd pr = { pb.p, pb.p + rawlen, 0 };
		char why[512] = "";
		struct weft_program *prog;
		rc = weft_trace_program_read(&pr, &prog, why, sizeof(why));
		int trailing = !rc && pr.p != pr.end;
		weft_trace_buf_free(&pb);
		if (rc == WEFT_ERR_NOMEM)
			return weft_error_set(err, rc, "out of memory reading trace %s", t->path);
		if (rc || trailing) {
			if (!rc)
				weft_program_free(prog);
			return weft_trace_corrupt(err, t->path, lo, "launch %u: %s", i,
					  rc ? why : "trailing bytes after the program");
		}
		L->prog = prog;
	}
	P->program = L->prog;
	if (weft_trace_tab_build(&L->tab, L->prog))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	rc = weft_trace_read_record(t->fd, t->path, t->fsize, le, WT_TAG_LEND, b, err);
	if (rc)
		return rc;
	r.p = b->p;
	r.end = b->p + b->n;
	r.bad = 0;
	uint32_t idx = weft_trace_rd_u32(&r), seen = weft_trace_rd_u32(&r);
	P->thread_insts = weft_trace_rd_u64(&r);
	P->warp_insts = weft_trace_rd_u64(&r);
	P->mem_accesses = weft_trace_rd_u64(&r);
	for (int k = 0; k < 4; k++)
		P->stream_bytes[k] = weft_trace_rd_u64(&r);
	if (r.bad || r.p != r.end || idx != i || seen != P->nctas)
		return weft_trace_corrupt(err, t->path, le, "malformed launch-end record %u", i);
	return 0;
}

/* Opens path, or with dupfd >= 0 the file open at dupfd (a duplicate of
 * its descriptor: the same file even if path was replaced since). */
static int trace_open(const char *path, int dupfd, struct weft_trace **out, struct weft_error *err)
{
	*out = NULL;
	struct weft_trace *t = calloc(1, sizeof(*t));
	struct wt_buf b = { 0 };
	int rc = 0;
	if (!t)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
	t->fd = -1;
	t->cached = UINT32_MAX;
	t->path = strdup(path);
	t->dctx = ZSTD_createDCtx();
	if (!t->path || !t->dctx) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
		goto fail;
	}
	t->fd = dupfd >= 0 ? dup(dupfd) : open(path, O_RDONLY);
	struct stat st;
	if (t->fd < 0 || fstat(t->fd, &st)) {
		rc = weft_error_set(err, WEFT_ERR_IO, "cannot open trace %s: %s", path, strerror(errno));
		if (errno == ENOENT)
			err->code = rc = WEFT_ERR_INPUT;
		goto fail;
	}
	t->fsize = (uint64_t)st.st_size;
	if ((rc = weft_trace_check_header(t->fd, t->fsize, path, WEFT_ERR_INPUT, err)))
		goto fail;
	t->info.version = WEFT_TRACE_VERSION;
	t->info.file_bytes = t->fsize;
	uint8_t f[WT_FOOTER_BYTES];
	if (t->fsize < WT_HEADER_BYTES + WT_FOOTER_BYTES ||
	    weft_trace_read_at(t->fd, f, sizeof(f), t->fsize - WT_FOOTER_BYTES) || wt_get32(f) != WT_TAG_FOOT ||
	    !wt_crc_ok(weft_trace_crc32(0, f, 12), wt_get32(f + 12))) {
		rc = weft_trace_corrupt(err, path, t->fsize >= WT_FOOTER_BYTES ? t->fsize - WT_FOOTER_BYTES : 0,
				"no valid footer at the end of the file (%llu bytes): the trace is truncated, "
				"or its writer was interrupted before it finished",
				(unsigned long long)t->fsize);
		goto fail;
	}
	uint64_t ioff = wt_get64(f + 4);
	if (ioff < WT_HEADER_BYTES || ioff > t->fsize - WT_FOOTER_BYTES) {
		rc = weft_trace_corrupt(err, path, t->fsize - WT_FOOTER_BYTES + 4, "the footer points outside the file");
		goto fail;
	}
	/* the index must end exactly where the footer starts */
	if ((rc = weft_trace_read_record(t->fd, path, t->fsize - WT_FOOTER_BYTES, ioff, WT_TAG_INDX, &b, err)))
		goto fail;
	if (ioff + WT_REC_OVERHEAD + b.n != t->fsize - WT_FOOTER_BYTES) {
		rc = weft_trace_corrupt(err, path, ioff, "bytes between the index and the footer");
		goto fail;
	}
	struct wt_rd r = { b.p, b.p + b.n, 0 };
	uint32_t nl = weft_trace_rd_u32(&r);
	if (r.bad || nl > (b.n / 16)) {
		rc = weft_trace_corrupt(err, path, ioff, "malformed index (launch count)");
		goto fail;
	}
	uint64_t *lo = calloc((size_t)nl * 2 + 1, sizeof(uint64_t));
	if (!lo) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
		goto fail;
	}
	for (uint32_t i = 0; i < 2 * nl; i++)
		lo[i] = weft_trace_rd_u64(&r);
	uint64_t info_off = weft_trace_rd_u64(&r);
	uint32_t nc = weft_trace_rd_u32(&r);
	if (r.bad || nc > (size_t)(r.end - r.p) / 32 || (size_t)(r.end - r.p) != (size_t)nc * 32) {
		free(lo);
		rc = weft_trace_corrupt(err, path, ioff, "malformed index (chunk table)");
		goto fail;
	}
	t->chunks = calloc((size_t)nc + 1, sizeof(*t->chunks));
	t->launches = calloc((size_t)nl + 1, sizeof(*t->launches));
	if (!t->chunks || !t->launches) {
		free(lo);
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
		goto fail;
	}
	t->nchunks = nc;
	for (uint32_t i = 0; i < nc; i++) {
		struct wt_chunk *c = &t->chunks[i];
		c->launch = weft_trace_rd_u32(&r);
		c->first = weft_trace_rd_u32(&r);
		c->ncta = weft_trace_rd_u32(&r);
		c->off = weft_trace_rd_u64(&r);
		c->reclen = weft_trace_rd_u32(&r);
		c->rawlen = weft_trace_rd_u32(&r);
		c->crc = weft_trace_rd_u32(&r);
		if (c->launch >= nl || c->off < WT_HEADER_BYTES || c->off + c->reclen > ioff ||
		    c->reclen < WT_REC_OVERHEAD + WT_CHUNK_HDR || c->ncta == 0) {
			free(lo);
			rc = weft_trace_corrupt(err, path, ioff, "index entry %u is out of range", i);
			goto fail;
		}
		/* the raw length sizes the decompression buffer: no more than the
		 * chunk's compressed bytes can hold; and the raw payload starts
		 * with a table entry per CTA, so it bounds the CTA count (which
		 * sizes the consumers' CTA lists) */
		uint64_t zbytes = c->reclen - WT_REC_OVERHEAD - WT_CHUNK_HDR;
		if (c->rawlen > zbytes * WT_ZSTD_MAX_EXPANSION) {
			free(lo);
			rc = weft_trace_corrupt(err, path, ioff,
						"index entry %u: the chunk at offset %llu claims %u raw bytes, more than "
						"its %llu compressed bytes can hold",
						i, (unsigned long long)c->off, c->rawlen, (unsigned long long)zbytes);
			goto fail;
		}
		if ((uint64_t)c->ncta * WT_CTA_ENTRY > c->rawlen) {
			free(lo);
			rc = weft_trace_corrupt(err, path, ioff,
						"index entry %u: the chunk at offset %llu claims %u CTAs, more than its "
						"%u raw bytes have table entries for",
						i, (unsigned long long)c->off, c->ncta, c->rawlen);
			goto fail;
		}
	}
	qsort(t->chunks, nc, sizeof(*t->chunks), cmp_chunk);
	t->nlaunches = nl;
	t->info.nlaunches = nl;
	for (uint32_t i = 0; i < nl; i++) {
		if ((rc = read_launch(t, i, lo[2 * i], lo[2 * i + 1], &b, err))) {
			free(lo);
			goto fail;
		}
		t->launches[i].nloaded = 1;
	}
	free(lo);
	/* chunks per launch: consecutive after sorting; CTA ranges must not
	 * overlap and must stay inside the grid */
	for (uint32_t i = 0; i < nc; i++) {
		struct wt_chunk *c = &t->chunks[i];
		struct wt_launch *L = &t->launches[c->launch];
		if (!L->pub.nchunks)
			L->chunk0 = i;
		L->pub.nchunks++;
		L->pub.chunk_bytes += c->reclen;
		L->pub.raw_bytes += c->rawlen;
		t->info.raw_bytes += c->rawlen;
		if ((uint64_t)c->first + c->ncta > L->pub.nctas ||
		    (i > 0 && t->chunks[i - 1].launch == c->launch &&
		     t->chunks[i - 1].first + t->chunks[i - 1].ncta > c->first)) {
			rc = weft_trace_corrupt(err, path, ioff, "index: chunk at offset %llu holds CTAs outside launch %u's grid or twice",
					(unsigned long long)c->off, c->launch);
			goto fail;
		}
	}
	/* ... and cover every CTA of the grid: a launch claiming more CTAs than
	 * its chunks hold (whose count sizes every consumer's CTA list) is
	 * corrupt, as verify has always said */
	for (uint32_t i = 0; i < nl; i++) {
		const struct wt_launch *L = &t->launches[i];
		uint64_t covered = 0;
		for (uint32_t k = 0; k < L->pub.nchunks; k++)
			covered += t->chunks[L->chunk0 + k].ncta;
		if (covered != L->pub.nctas) {
			rc = weft_trace_corrupt(err, path, ioff, "index: launch %u has %u CTAs but its chunks hold %llu",
						i, L->pub.nctas, (unsigned long long)covered);
			goto fail;
		}
		t->info.thread_insts += L->pub.thread_insts;
	}
	if ((rc = read_info(t, info_off, &b, err)))
		goto fail;
	weft_trace_buf_free(&b);
	*out = t;
	return 0;
fail:
	weft_trace_buf_free(&b);
	weft_trace_close(t);
	return rc;
}

int weft_trace_open(const char *path, struct weft_trace **out, struct weft_error *err)
{
	return trace_open(path, -1, out, err);
}

int weft_trace_reopen(const struct weft_trace *t, struct weft_trace **out, struct weft_error *err)
{
	int rc = trace_open(t->path, t->fd, out, err);
	if (!rc)
		(*out)->jobs = t->jobs;
	return rc;
}

void weft_trace_set_jobs(struct weft_trace *t, unsigned jobs)
{
	t->jobs = jobs;
}

unsigned weft_trace_jobs(const struct weft_trace *t)
{
	return t->jobs;
}

void weft_trace_close(struct weft_trace *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	for (uint32_t i = 0; i < t->nlaunches; i++) {
		if (!t->launches[i].shared_prog)
			weft_program_free(t->launches[i].prog);
		weft_trace_tab_free(&t->launches[i].tab);
	}
	free(t->launches);
	free(t->chunks);
	ZSTD_freeDCtx(t->dctx);
	ZSTD_freeDCtx(t->fe_dctx);
	weft_trace_buf_free(&t->fe_comp);
	weft_trace_buf_free(&t->fe_raw);
	weft_cta_trace_free(&t->fe_cta);
	weft_trace_dscratch_free(&t->fe_scr);
	weft_trace_dscratch_free(&t->scr);
	weft_trace_fe_pool_free(t->fe_pool);
	weft_trace_buf_free(&t->comp);
	weft_trace_buf_free(&t->raw);
	free(t->path);
	free(t);
}

const struct weft_trace_info *weft_trace_info(const struct weft_trace *t)
{
	return &t->info;
}

const struct weft_trace_launch *weft_trace_launch(const struct weft_trace *t, uint32_t launch)
{
	return launch < t->nlaunches ? &t->launches[launch].pub : NULL;
}

int weft_trace_read_cta(struct weft_trace *t, uint32_t launch, uint32_t cta, struct weft_cta_trace *c,
			struct weft_error *err)
{
	if (launch >= t->nlaunches)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace %s has %u launches; there is no launch %u",
				      t->path, t->nlaunches, launch);
	const struct wt_launch *L = &t->launches[launch];
	if (cta >= L->pub.nctas)
		return weft_error_set(err, WEFT_ERR_INPUT, "launch %u of trace %s has %u CTAs; there is no CTA %u",
				      launch, t->path, L->pub.nctas, cta);
	int ci = weft_trace_find_chunk(t, launch, cta);
	if (ci < 0)
		return weft_trace_corrupt(err, t->path, t->fsize, "the index has no chunk for launch %u CTA %u", launch, cta);
	if ((uint32_t)ci != t->cached) {
		t->cached = UINT32_MAX;
		int rc = weft_trace_load_chunk(t, &t->chunks[ci], t->dctx, &t->comp, &t->raw, err);
		if (rc)
			return rc;
		t->cached = (uint32_t)ci;
	}
	return weft_trace_decode_cta(t, &t->chunks[ci], &t->raw, cta, c, &t->scr, err);
}
