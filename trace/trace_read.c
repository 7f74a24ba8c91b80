/*
 * trace_read.c - the trace reader (trace.h): open (header, footer, index,
 * launch records with their static programs), random access to one CTA
 * through the index, the per-thread instruction iterator, and parallel
 * decoding of a launch's CTAs in CTA order.
 *
 * Decoding a CTA turns its streams into flat arrays once (block path,
 * guard bytes, absolute addresses and spaces per thread); iterating a
 * thread is then a walk over those arrays and the program's blocks. Every
 * length and index read from the file is bounds-checked, and every chunk's
 * CRC-32 is checked before it is decompressed, so a corrupt or truncated
 * file gives an error naming the byte offset, never a crash.
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
	uint8_t h[WT_HEADER_BYTES];
	if (t->fsize < WT_HEADER_BYTES || rd_at(t->fd, h, sizeof(h), 0)) {
		rc = wt_corrupt(err, path, 0, "the file is %llu bytes, too short for a weft trace header (truncated?)",
				(unsigned long long)t->fsize);
		goto fail;
	}
	if (memcmp(h, WT_MAGIC, 8)) {
		rc = wt_corrupt(err, path, 0, "not a weft trace (the first 8 bytes are not \"" WT_MAGIC "\")");
		goto fail;
	}
	if (wt_crc32(0, h, 12) != wt_get32(h + 12)) {
		rc = wt_corrupt(err, path, 8, "the header fails its CRC-32 check");
		goto fail;
	}
	uint32_t ver = wt_get32(h + 8);
	if (ver != WEFT_TRACE_VERSION) {
		rc = weft_error_set(err, WEFT_ERR_INPUT,
				    ver > WEFT_TRACE_VERSION
					    ? "trace %s: trace version %u is newer than this weft (reads version %u); upgrade weft"
					    : "trace %s: trace version %u is not supported by this weft (reads version %u); re-create the trace",
				    path, ver, WEFT_TRACE_VERSION);
		err->offset = 8;
		goto fail;
	}
	t->info.version = ver;
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

/* ---- CTA decoding ---- */

/* Short compares and copies inline: threads of a few dozen instructions
 * are common, and a libc call per thread would cost more than the work. */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static int ensure(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 1024;
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
		free(q->addrs);
		free(q->spaces);
		free(q->ms);
		wt_fast_free(&q->fast);
		free(q->threads);
		free(q->offs);
		wt_pred_free(&q->pred);
		free(q);
	}
	memset(c, 0, sizeof(*c));
}

int wt_decode_cta(const struct weft_trace *t, const struct wt_chunk *ch, const struct wt_buf *raw,
		  uint32_t cta, struct weft_cta_trace *c, struct weft_error *err)
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
	if (!q->pred.last || q->pred.nm != T->nm) {
		wt_pred_free(&q->pred);
		if (wt_pred_init(&q->pred, T->nm))
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
	if (ensure((void **)&q->threads, &q->capt, nth + 1, sizeof(*q->threads)) ||
	    ensure((void **)&q->offs, &q->capo, (size_t)nth * 3 + 3, sizeof(size_t)))
		goto nomem;
	size_t nb_all = 0, ng_all = 0, na_all = 0;
	struct wt_pred *P = &q->pred;
	wt_pred_cta(P);
	uint32_t nm = T->nm;
	if (!q->fast.first || q->fast.nm != nm) {
		wt_fast_free(&q->fast);
		if (wt_fast_init(&q->fast, nm))
			goto nomem;
	}
	struct wt_fast *F = &q->fast;
	wt_fast_cta(F);
	size_t pnb = 0, png = 0, pnev = 0; /* previous thread's blocks, guards, stored events */
	size_t pm_off = 0; /* where the previous thread's memory instructions are in q->ms */
	const uint8_t *pcode = NULL;       /* previous thread's path codes */
	size_t pcode_len = 0;
	const char *what = NULL;
	/* runs of zero address residuals / right space predictions */
	uint64_t zrun = wt_rd_varint(&ra), srun = wt_rd_varint(&rs);
	const uint8_t *nsucc = T->nsucc;
	const uint32_t(*succ)[2] = T->succ;
	for (uint32_t th = 0; th < nth; th++) {
		q->offs[3 * th] = nb_all;
		q->offs[3 * th + 1] = ng_all;
		q->offs[3 * th + 2] = na_all;
		uint64_t nb = wt_rd_varint(&rp);
		/* every two-successor block on the path costs a path byte, and
		 * one-successor chains are at most nblocks long */
		if (rp.bad || nb > ((uint64_t)(rp.end - rp.p) + 1) * ((uint64_t)T->nblocks + 1)) {
			what = "path length";
			goto bad;
		}
		if (ensure((void **)&q->blocks, &q->capb, nb_all + nb + 1, sizeof(uint32_t)))
			goto nomem;
		uint32_t *bl = q->blocks + nb_all;
		uint32_t cur = 0;
		size_t ng = 0, nev = 0;
		const uint8_t *pp = rp.p, *pe = rp.end;
		/* the same codes as the previous thread decode to the same blocks */
		int path_same = th > 0 && nb == pnb && (size_t)(pe - pp) >= pcode_len &&
				same_bytes(pp, pcode, pcode_len);
		if (path_same) {
			const uint32_t *pb = q->blocks + q->offs[3 * (th - 1)];
			for (uint64_t i = 0; i < nb; i++)
				bl[i] = pb[i];
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
		}
		rp.p = pp;
		nb_all += nb;
		/* guards: packed bits -> one byte each */
		size_t gbytes = (ng + 7) / 8;
		if ((size_t)(rg.end - rg.p) < gbytes) {
			what = "guard stream";
			goto bad;
		}
		if (ensure((void **)&q->guards, &q->capg, ng_all + ng + 8, 1))
			goto nomem;
		uint8_t *gd = q->guards + ng_all;
		for (size_t i = 0; i < ng; i++)
			gd[i] = (rg.p[i >> 3] >> (i & 7)) & 1;
		if (ng & 7 && rg.p[gbytes - 1] >> (ng & 7)) {
			what = "guard stream padding";
			goto bad;
		}
		rg.p += gbytes;
		ng_all += ng;
		int same = path_same && P->pn > 0 && (ng == 0 || same_bytes(gd, q->guards + q->offs[3 * (th - 1) + 1], ng));
		pnb = nb;
		png = ng;
		pnev = nev;
		/* addresses: at most one per stored event on the path */
		if (na_all + nev + 1 > q->capa) {
			size_t ca = q->capa, cm = q->capa;
			if (ensure((void **)&q->addrs, &ca, na_all + nev + 1, sizeof(uint64_t)) ||
			    ensure((void **)&q->ms, &cm, na_all + nev + 1, sizeof(uint32_t)) ||
			    ensure((void **)&q->spaces, &q->capa, na_all + nev + 1, 1))
				goto nomem;
		}
		if (th > 0) /* the arrays may have moved: the previous thread's part again
			     (its memory instructions: where they were last written) */
			wt_pred_thread_end(P, q->addrs + q->offs[3 * (th - 1) + 2], q->ms + pm_off, P->pn);
		uint64_t *A = q->addrs + na_all;
		uint32_t *M = q->ms + na_all;
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
			wt_fast_begin(F, P);
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
			na_all += pn;
			continue;
		}
		wt_fast_flush(F, P);

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
		pm_off = na_all;
		*P = Pl;
		na_all += n;
	}
	if (rp.p != rp.end || rg.p != rg.end || ra.p != ra.end || rs.p != rs.end || zrun || srun ||
	    ra.bad || rs.bad) {
		what = "stream lengths (bytes left over after the last thread)";
		goto bad;
	}
	q->offs[3 * nth] = nb_all;
	q->offs[3 * nth + 1] = ng_all;
	q->offs[3 * nth + 2] = na_all;
	for (uint32_t th = 0; th < nth; th++) {
		struct weft_thread_trace *tt = &q->threads[th];
		size_t *o = q->offs + 3 * th;
		tt->nblocks = (uint32_t)(o[3] - o[0]);
		tt->blocks = q->blocks + o[0];
		tt->nguards = (uint32_t)(o[4] - o[1]);
		tt->guards = q->guards + o[1];
		tt->naddrs = (uint32_t)(o[5] - o[2]);
		tt->addrs = q->addrs + o[2];
		tt->spaces = q->spaces + o[2];
	}
	c->launch = ch->launch;
	c->cta = cta;
	c->nthreads = nth;
	c->threads = q->threads;
	return 0;
bad:
	return wt_corrupt(err, t->path, ch->off, "launch %u CTA %u: malformed %s in the chunk's payload",
			  ch->launch, cta, what);
nomem:
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding trace %s", t->path);
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
