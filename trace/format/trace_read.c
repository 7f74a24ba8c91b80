/*
 * trace_read.c - the trace reader (trace.h): open (header, footer, index,
 * launch records with their static programs), reading and checking a
 * chunk, and random access to one CTA through the index. Decoding a CTA is
 * trace_decode.c; parallel decoding in CTA order is trace_foreach.c; the
 * per-thread iterator is inline in trace.h.
 *
 * Every length and index read from the file is bounds-checked, and every
 * record's CRC-32 is checked before its contents are used, so a corrupt or
 * truncated file gives an error naming the byte offset, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "trace.h"
#include "trace_format.h"
#include "trace_read.h"

/* ---- errors ---- */

int wt_corrupt(struct weft_error *err, const char *path, uint64_t off, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	weft_error_set(err, WEFT_ERR_VERIFY, "trace %s is corrupt at byte offset %llu: %s; re-create it "
		       "(weft-trace run ... -o FILE)", path, (unsigned long long)off, msg);
	if (err)
		err->offset = (int64_t)off;
	return WEFT_ERR_VERIFY;
}

static int rd_at(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;
	while (len) {
		ssize_t k = pread(fd, p, len, (off_t)off);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0)
			return -2;
		p += k;
		len -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

int wt_read_record(int fd, const char *path, uint64_t fsize, uint64_t off, uint32_t tag,
		   struct wt_buf *out, struct weft_error *err)
{
	uint8_t h[8];
	char tn[5];
	memcpy(tn, &tag, 4);
	tn[4] = 0;
	if (off + 8 > fsize)
		return wt_corrupt(err, path, off, "a %s record should start here but the file ends at %llu (truncated?)",
				  tn, (unsigned long long)fsize);
	if (rd_at(fd, h, 8, off))
		return weft_error_set(err, WEFT_ERR_IO, "cannot read trace %s: %s", path, strerror(errno));
	if (wt_get32(h) != tag)
		return wt_corrupt(err, path, off, "expected a %s record, found tag 0x%08x", tn, wt_get32(h));
	uint32_t len = wt_get32(h + 4);
	if (off + 8 + (uint64_t)len + 4 > fsize)
		return wt_corrupt(err, path, off + 4, "%s record of %u bytes runs past the end of the file (%llu bytes; truncated?)",
				  tn, len, (unsigned long long)fsize);
	out->n = 0;
	if (wt_buf_reserve(out, (size_t)len + 4))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", path);
	if (rd_at(fd, out->p, (size_t)len + 4, off + 8))
		return weft_error_set(err, WEFT_ERR_IO, "cannot read trace %s: %s", path, strerror(errno));
	uint32_t crc = wt_crc32(wt_crc32(0, h, 8), out->p, len);
	uint32_t stored = wt_get32(out->p + len);
	if (crc != stored)
		return wt_corrupt(err, path, off, "%s record (%u bytes) fails its CRC-32 check (stored %08x, computed %08x)",
				  tn, len, stored, crc);
	out->n = len;
	return 0;
}

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
	int rc = wt_read_record(t->fd, t->path, t->fsize, off, WT_TAG_INFO, b, err);
	if (rc)
		return rc;
	struct wt_rd r = { b->p, b->p + b->n, 0 };
	struct weft_trace_info *I = &t->info;
	char *wl = wt_rd_str(&r), *sz = wt_rd_str(&r);
	snprintf(I->workload, sizeof(I->workload), "%s", wl ? wl : "");
	snprintf(I->size, sizeof(I->size), "%s", sz ? sz : "");
	free(wl);
	free(sz);
	I->has_baseline = (int)wt_rd_u32(&r);
	char *what = wt_rd_str(&r);
	snprintf(I->baseline_what, sizeof(I->baseline_what), "%s", what ? what : "");
	free(what);
	uint64_t wall = wt_rd_u64(&r);
	memcpy(&I->baseline.wall_seconds, &wall, 8);
	uint32_t nc = wt_rd_u32(&r);
	if (nc > WEFT_HOSTPERF_MAX)
		r.bad = 1;
	I->baseline.ncounters = r.bad ? 0 : nc;
	for (uint32_t i = 0; i < nc && !r.bad; i++) {
		struct weft_hostperf_counter *c = &I->baseline.counters[i];
		char *s[3];
		s[0] = wt_rd_str(&r);
		s[1] = wt_rd_str(&r);
		s[2] = wt_rd_str(&r);
		snprintf(c->name, sizeof(c->name), "%s", s[0] ? s[0] : "");
		snprintf(c->event, sizeof(c->event), "%s", s[1] ? s[1] : "");
		snprintf(c->unit, sizeof(c->unit), "%s", s[2] ? s[2] : "");
		for (int k = 0; k < 3; k++)
			free(s[k]);
		c->hardware = wt_rd_u8(&r);
		c->available = wt_rd_u8(&r);
		c->scaled = wt_rd_u8(&r);
		c->value = wt_rd_u64(&r);
		char *why = wt_rd_str(&r);
		snprintf(c->reason, sizeof(c->reason), "%s", why ? why : "");
		free(why);
	}
	if (r.bad || r.p != r.end)
		return wt_corrupt(err, t->path, off, "malformed INFO record");
	return 0;
}

static int read_launch(struct weft_trace *t, uint32_t i, uint64_t lo, uint64_t le, struct wt_buf *b,
		       struct weft_error *err)
{
	struct wt_launch *L = &t->launches[i];
	struct weft_trace_launch *P = &L->pub;
	int rc = wt_read_record(t->fd, t->path, t->fsize, lo, WT_TAG_LNCH, b, err);
	if (rc)
		return rc;
	struct wt_rd r = { b->p, b->p + b->n, 0 };
	P->index = wt_rd_u32(&r);
	P->grid.x = wt_rd_u32(&r);
	P->grid.y = wt_rd_u32(&r);
	P->grid.z = wt_rd_u32(&r);
	P->block.x = wt_rd_u32(&r);
	P->block.y = wt_rd_u32(&r);
	P->block.z = wt_rd_u32(&r);
	P->dyn_shared = wt_rd_u32(&r);
	uint64_t nctas = (uint64_t)P->grid.x * P->grid.y * P->grid.z;
	uint64_t tpc = (uint64_t)P->block.x * P->block.y * P->block.z;
	if (r.bad || P->index != i || nctas > 0xffffffffu || tpc > 0xffffffffu)
		return wt_corrupt(err, t->path, lo, "malformed launch record %u", i);
	P->nctas = (uint32_t)nctas;
	P->threads_per_cta = (uint32_t)tpc;
	uint32_t ref = wt_rd_u32(&r);
	if (r.bad || (ref != WT_NO_REF && ref >= i))
		return wt_corrupt(err, t->path, lo, "malformed launch record %u (program reference)", i);
	if (ref != WT_NO_REF) {
		if (r.p != r.end)
			return wt_corrupt(err, t->path, lo, "launch %u: trailing bytes", i);
		L->prog = t->launches[ref].prog;
		L->shared_prog = 1;
	} else {
		uint32_t rawlen = wt_rd_u32(&r);
		/* programs compress far less than 1024-fold; the bound keeps a
		 * corrupt length from asking for a huge allocation */
		if (r.bad || rawlen > (uint64_t)(r.end - r.p) * 1024 + 4096)
			return wt_corrupt(err, t->path, lo, "malformed launch record %u (program length)", i);
		struct wt_buf pb = { 0 };
		if (wt_buf_reserve(&pb, (size_t)rawlen + 1))
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
		size_t z = ZSTD_decompressDCtx(t->dctx, pb.p, rawlen, r.p, (size_t)(r.end - r.p));
		if (ZSTD_isError(z) || z != rawlen) {
			wt_buf_free(&pb);
			return wt_corrupt(err, t->path, lo, "launch %u: the static program does not decompress", i);
		}
		struct wt_rd pr = { pb.p, pb.p + rawlen, 0 };
		char why[512] = "";
		struct weft_program *prog;
		rc = wt_program_read(&pr, &prog, why, sizeof(why));
		int trailing = !rc && pr.p != pr.end;
		wt_buf_free(&pb);
		if (rc == WEFT_ERR_NOMEM)
			return weft_error_set(err, rc, "out of memory reading trace %s", t->path);
		if (rc || trailing) {
			if (!rc)
				weft_program_free(prog);
			return wt_corrupt(err, t->path, lo, "launch %u: %s", i,
					  rc ? why : "trailing bytes after the program");
		}
		L->prog = prog;
	}
	P->program = L->prog;
	if (wt_tab_build(&L->tab, L->prog))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", t->path);
	rc = wt_read_record(t->fd, t->path, t->fsize, le, WT_TAG_LEND, b, err);
	if (rc)
		return rc;
	r.p = b->p;
	r.end = b->p + b->n;
	r.bad = 0;
	uint32_t idx = wt_rd_u32(&r), seen = wt_rd_u32(&r);
	P->thread_insts = wt_rd_u64(&r);
	P->warp_insts = wt_rd_u64(&r);
	P->mem_accesses = wt_rd_u64(&r);
	for (int k = 0; k < 4; k++)
		P->stream_bytes[k] = wt_rd_u64(&r);
	if (r.bad || r.p != r.end || idx != i || seen != P->nctas)
		return wt_corrupt(err, t->path, le, "malformed launch-end record %u", i);
	return 0;
}

int wt_check_header(int fd, uint64_t fsize, const char *path, int version_code,
		    struct weft_error *err)
{
	uint8_t h[WT_HEADER_BYTES];
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		return weft_error_set(err, WEFT_ERR_INPUT, "%s is a directory, not a trace file; give a FILE.wtr",
				      path);
	/* bytes that do not start like a trace: not a weft trace at all (bad
	 * input), rather than a damaged one */
	size_t have = fsize < WT_HEADER_BYTES ? (size_t)fsize : WT_HEADER_BYTES;
	size_t cmp = have < 8 ? have : 8;
	if (have && rd_at(fd, h, have, 0) == 0 && memcmp(h, WT_MAGIC, cmp)) {
		weft_error_set(err, WEFT_ERR_INPUT,
			       "%s is not a weft trace (at byte offset 0 its first bytes are not \"" WT_MAGIC
			       "\"); give a file written by `weft-trace run ... -o FILE.wtr`",
			       path);
		if (err)
			err->offset = 0;
		return WEFT_ERR_INPUT;
	}
	if (fsize < WT_HEADER_BYTES || rd_at(fd, h, sizeof(h), 0))
		return wt_corrupt(err, path, 0, "the file is %llu bytes, too short for a weft trace header (truncated?)",
				  (unsigned long long)fsize);
	if (wt_crc32(0, h, 12) != wt_get32(h + 12))
		return wt_corrupt(err, path, 8, "the header fails its CRC-32 check");
	uint32_t ver = wt_get32(h + 8);
	if (ver != WEFT_TRACE_VERSION) {
		int rc = weft_error_set(err, version_code,
					ver > WEFT_TRACE_VERSION
						? "trace %s: trace version %u is newer than this weft (reads version %u); upgrade weft"
						: "trace %s: trace version %u is not supported by this weft (reads version %u); re-create the trace",
					path, ver, WEFT_TRACE_VERSION);
		err->offset = 8;
		return rc;
	}
	return 0;
}

int weft_trace_open(const char *path, struct weft_trace **out, struct weft_error *err)
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
	t->fd = open(path, O_RDONLY);
	struct stat st;
	if (t->fd < 0 || fstat(t->fd, &st)) {
		rc = weft_error_set(err, WEFT_ERR_IO, "cannot open trace %s: %s", path, strerror(errno));
		if (errno == ENOENT)
			err->code = rc = WEFT_ERR_INPUT;
		goto fail;
	}
	t->fsize = (uint64_t)st.st_size;
	if ((rc = wt_check_header(t->fd, t->fsize, path, WEFT_ERR_INPUT, err)))
		goto fail;
	t->info.version = WEFT_TRACE_VERSION;
	t->info.file_bytes = t->fsize;
	uint8_t f[WT_FOOTER_BYTES];
	if (t->fsize < WT_HEADER_BYTES + WT_FOOTER_BYTES ||
	    rd_at(t->fd, f, sizeof(f), t->fsize - WT_FOOTER_BYTES) || wt_get32(f) != WT_TAG_FOOT ||
	    wt_crc32(0, f, 12) != wt_get32(f + 12)) {
		rc = wt_corrupt(err, path, t->fsize >= WT_FOOTER_BYTES ? t->fsize - WT_FOOTER_BYTES : 0,
				"no valid footer at the end of the file (%llu bytes): the trace is truncated, "
				"or its writer was interrupted before it finished",
				(unsigned long long)t->fsize);
		goto fail;
	}
	uint64_t ioff = wt_get64(f + 4);
	if (ioff < WT_HEADER_BYTES || ioff > t->fsize - WT_FOOTER_BYTES) {
		rc = wt_corrupt(err, path, t->fsize - WT_FOOTER_BYTES + 4, "the footer points outside the file");
		goto fail;
	}
	/* the index must end exactly where the footer starts */
	if ((rc = wt_read_record(t->fd, path, t->fsize - WT_FOOTER_BYTES, ioff, WT_TAG_INDX, &b, err)))
		goto fail;
	if (ioff + WT_REC_OVERHEAD + b.n != t->fsize - WT_FOOTER_BYTES) {
		rc = wt_corrupt(err, path, ioff, "bytes between the index and the footer");
		goto fail;
	}
	struct wt_rd r = { b.p, b.p + b.n, 0 };
	uint32_t nl = wt_rd_u32(&r);
	if (r.bad || nl > (b.n / 16)) {
		rc = wt_corrupt(err, path, ioff, "malformed index (launch count)");
		goto fail;
	}
	uint64_t *lo = calloc((size_t)nl * 2 + 1, sizeof(uint64_t));
	if (!lo) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory opening trace %s", path);
		goto fail;
	}
	for (uint32_t i = 0; i < 2 * nl; i++)
		lo[i] = wt_rd_u64(&r);
	uint64_t info_off = wt_rd_u64(&r);
	uint32_t nc = wt_rd_u32(&r);
	if (r.bad || nc > (size_t)(r.end - r.p) / 32 || (size_t)(r.end - r.p) != (size_t)nc * 32) {
		free(lo);
		rc = wt_corrupt(err, path, ioff, "malformed index (chunk table)");
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
		c->launch = wt_rd_u32(&r);
		c->first = wt_rd_u32(&r);
		c->ncta = wt_rd_u32(&r);
		c->off = wt_rd_u64(&r);
		c->reclen = wt_rd_u32(&r);
		c->rawlen = wt_rd_u32(&r);
		c->crc = wt_rd_u32(&r);
		if (c->launch >= nl || c->off < WT_HEADER_BYTES || c->off + c->reclen > ioff ||
		    c->reclen < WT_REC_OVERHEAD + WT_CHUNK_HDR || c->ncta == 0) {
			free(lo);
			rc = wt_corrupt(err, path, ioff, "index entry %u is out of range", i);
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
			rc = wt_corrupt(err, path, ioff, "index: chunk at offset %llu holds CTAs outside launch %u's grid or twice",
					(unsigned long long)c->off, c->launch);
			goto fail;
		}
	}
	for (uint32_t i = 0; i < nl; i++)
		t->info.thread_insts += t->launches[i].pub.thread_insts;
	if ((rc = read_info(t, info_off, &b, err)))
		goto fail;
	wt_buf_free(&b);
	*out = t;
	return 0;
fail:
	wt_buf_free(&b);
	weft_trace_close(t);
	return rc;
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
		wt_tab_free(&t->launches[i].tab);
	}
	free(t->launches);
	free(t->chunks);
	ZSTD_freeDCtx(t->dctx);
	ZSTD_freeDCtx(t->fe_dctx);
	wt_buf_free(&t->fe_comp);
	wt_buf_free(&t->fe_raw);
	weft_cta_trace_free(&t->fe_cta);
	wt_fe_pool_free(t->fe_pool);
	wt_buf_free(&t->comp);
	wt_buf_free(&t->raw);
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

/* ---- chunks ---- */

int wt_find_chunk(const struct weft_trace *t, uint32_t launch, uint32_t cta)
{
	const struct wt_launch *L = &t->launches[launch];
	uint32_t lo = L->chunk0, hi = L->chunk0 + L->pub.nchunks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct wt_chunk *c = &t->chunks[mid];
		if (cta < c->first)
			hi = mid;
		else if (cta >= c->first + c->ncta)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

int wt_load_chunk(const struct weft_trace *t, const struct wt_chunk *c, ZSTD_DCtx *dctx,
		  struct wt_buf *comp, struct wt_buf *raw, struct weft_error *err)
{
	int rc = wt_read_record(t->fd, t->path, t->fsize, c->off, WT_TAG_CHNK, comp, err);
	if (rc)
		return rc;
	if (comp->n + WT_REC_OVERHEAD != c->reclen)
		return wt_corrupt(err, t->path, c->off, "chunk record length disagrees with the index");
	if (wt_get32(comp->p + comp->n) != c->crc)
		return wt_corrupt(err, t->path, c->off, "chunk CRC-32 disagrees with the index");
	const uint8_t *h = comp->p;
	if (comp->n < WT_CHUNK_HDR || wt_get32(h) != c->launch || wt_get32(h + 4) != c->first ||
	    wt_get32(h + 8) != c->ncta || wt_get32(h + 12) != c->rawlen)
		return wt_corrupt(err, t->path, c->off + 8, "chunk header disagrees with the index");
	raw->n = 0;
	if (wt_buf_reserve(raw, (size_t)c->rawlen + 1))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding trace %s", t->path);
	size_t z = ZSTD_decompressDCtx(dctx, raw->p, c->rawlen, comp->p + WT_CHUNK_HDR, comp->n - WT_CHUNK_HDR);
	if (ZSTD_isError(z) || z != c->rawlen)
		return wt_corrupt(err, t->path, c->off + 8 + WT_CHUNK_HDR, "chunk does not decompress to %u bytes (%s)",
				  c->rawlen, ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size");
	raw->n = z;
	/* CTA table: ids consecutive, stream lengths add up to the payload */
	uint64_t tab = (uint64_t)c->ncta * WT_CTA_ENTRY, sum = tab;
	if (tab > raw->n)
		return wt_corrupt(err, t->path, c->off, "chunk CTA table larger than the chunk");
	for (uint32_t k = 0; k < c->ncta; k++) {
		const uint8_t *e = raw->p + (size_t)k * WT_CTA_ENTRY;
		if (wt_get32(e) != c->first + k)
			return wt_corrupt(err, t->path, c->off, "chunk CTA table lists CTA %u at position %u, expected %u",
					  wt_get32(e), k, c->first + k);
		for (int s = 0; s < 4; s++)
			sum += wt_get32(e + 4 + 4 * s);
	}
	if (sum != raw->n)
		return wt_corrupt(err, t->path, c->off, "chunk stream lengths add up to %llu bytes, the payload has %zu",
				  (unsigned long long)sum, raw->n);
	return 0;
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
	int ci = wt_find_chunk(t, launch, cta);
	if (ci < 0)
		return wt_corrupt(err, t->path, t->fsize, "the index has no chunk for launch %u CTA %u", launch, cta);
	if ((uint32_t)ci != t->cached) {
		t->cached = UINT32_MAX;
		int rc = wt_load_chunk(t, &t->chunks[ci], t->dctx, &t->comp, &t->raw, err);
		if (rc)
			return rc;
		t->cached = (uint32_t)ci;
	}
	return wt_decode_cta(t, &t->chunks[ci], &t->raw, cta, c, err);
}
