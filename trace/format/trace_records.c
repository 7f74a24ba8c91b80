/*
 * trace_records.c - the reader's lowest layer (trace_read.h): checked reads
 * of a trace file's parts at an offset, shared by the reader (trace_read.c),
 * the CTA decoder (trace_decode.c), the parallel decoder (trace_foreach.c)
 * and the verifier (trace_verify.c): the corrupt-file error, positioned
 * reads, the file header, a CRC-checked record, and finding, loading and
 * checking one chunk. It calls none of those files, so they all call down
 * into it.
 *
 * Every length and index read from the file is bounds-checked, and every
 * record's CRC-32 is checked before its contents are used, so a corrupt or
 * truncated file gives an error naming the byte offset, never a crash.
 */
#include <errno.h>
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

int weft_trace_corrupt(struct weft_error *err, const char *path, uint64_t off, const char *fmt, ...)
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

int weft_trace_read_at(int fd, void *buf, size_t len, uint64_t off)
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

int weft_trace_read_record(int fd, const char *path, uint64_t fsize, uint64_t off, uint32_t tag,
		   struct wt_buf *out, struct weft_error *err)
{
	uint8_t h[8];
	char tn[5];
	memcpy(tn, &tag, 4);
	tn[4] = 0;
	if (off + 8 > fsize)
		return weft_trace_corrupt(err, path, off, "a %s record should start here but the file ends at %llu (truncated?)",
				  tn, (unsigned long long)fsize);
	if (weft_trace_read_at(fd, h, 8, off))
		return weft_error_set(err, WEFT_ERR_IO, "cannot read trace %s: %s", path, strerror(errno));
	if (wt_get32(h) != tag)
		return weft_trace_corrupt(err, path, off, "expected a %s record, found tag 0x%08x", tn, wt_get32(h));
	uint32_t len = wt_get32(h + 4);
	if (off + 8 + (uint64_t)len + 4 > fsize)
		return weft_trace_corrupt(err, path, off + 4, "%s record of %u bytes runs past the end of the file (%llu bytes; truncated?)",
				  tn, len, (unsigned long long)fsize);
	out->n = 0;
	if (weft_trace_buf_reserve(out, (size_t)len + 4))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading trace %s", path);
	if (weft_trace_read_at(fd, out->p, (size_t)len + 4, off + 8))
		return weft_error_set(err, WEFT_ERR_IO, "cannot read trace %s: %s", path, strerror(errno));
	uint32_t crc = weft_trace_crc32(weft_trace_crc32(0, h, 8), out->p, len);
	uint32_t stored = wt_get32(out->p + len);
	if (!wt_crc_ok(crc, stored))
		return weft_trace_corrupt(err, path, off, "%s record (%u bytes) fails its CRC-32 check (stored %08x, computed %08x)",
				  tn, len, stored, crc);
	out->n = len;
	return 0;
}

int weft_trace_check_header(int fd, uint64_t fsize, const char *path, int version_code,
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
	if (have && weft_trace_read_at(fd, h, have, 0) == 0 && memcmp(h, WT_MAGIC, cmp)) {
		weft_error_set(err, WEFT_ERR_INPUT,
			       "%s is not a weft trace (at byte offset 0 its first bytes are not \"" WT_MAGIC
			       "\"); give a file written by `weft-trace run ... -o FILE.wtr`",
			       path);
		if (err)
			err->offset = 0;
		return WEFT_ERR_INPUT;
	}
	if (fsize < WT_HEADER_BYTES || weft_trace_read_at(fd, h, sizeof(h), 0))
		return weft_trace_corrupt(err, path, 0, "the file is %llu bytes, too short for a weft trace header (truncated?)",
				  (unsigned long long)fsize);
	if (!wt_crc_ok(weft_trace_crc32(0, h, 12), wt_get32(h + 12)))
		return weft_trace_corrupt(err, path, 8, "the header fails its CRC-32 check");
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

/* ---- chunks ---- */

int weft_trace_find_chunk(const struct weft_trace *t, uint32_t launch, uint32_t cta)
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

int weft_trace_load_chunk(const struct weft_trace *t, const struct wt_chunk *c, ZSTD_DCtx *dctx,
		  struct wt_buf *comp, struct wt_buf *raw, struct weft_error *err)
{
	int rc = weft_trace_read_record(t->fd, t->path, t->fsize, c->off, WT_TAG_CHNK, comp, err);
	if (rc)
		return rc;
	if (comp->n + WT_REC_OVERHEAD != c->reclen)
		return weft_trace_corrupt(err, t->path, c->off, "chunk record length disagrees with the index");
	if (!wt_crc_ok(wt_get32(comp->p + comp->n), c->crc))
		return weft_trace_corrupt(err, t->path, c->off, "chunk CRC-32 disagrees with the index");
	const uint8_t *h = comp->p;
	if (comp->n < WT_CHUNK_HDR || wt_get32(h) != c->launch || wt_get32(h + 4) != c->first ||
	    wt_get32(h + 8) != c->ncta || wt_get32(h + 12) != c->rawlen)
		return weft_trace_corrupt(err, t->path, c->off + 8, "chunk header disagrees with the index");
	raw->n = 0;
	if (weft_trace_buf_reserve(raw, (size_t)c->rawlen + 1))
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding trace %s", t->path);
	size_t z = ZSTD_decompressDCtx(dctx, raw->p, c->rawlen, comp->p + WT_CHUNK_HDR, comp->n - WT_CHUNK_HDR);
	if (ZSTD_isError(z) || z != c->rawlen)
		return weft_trace_corrupt(err, t->path, c->off + 8 + WT_CHUNK_HDR, "chunk does not decompress to %u bytes (%s)",
				  c->rawlen, ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size");
	raw->n = z;
	/* CTA table: ids consecutive, stream lengths add up to the payload */
	uint64_t tab = (uint64_t)c->ncta * WT_CTA_ENTRY, sum = tab;
	if (tab > raw->n)
		return weft_trace_corrupt(err, t->path, c->off, "chunk CTA table larger than the chunk");
	for (uint32_t k = 0; k < c->ncta; k++) {
		const uint8_t *e = raw->p + (size_t)k * WT_CTA_ENTRY;
		if (wt_get32(e) != c->first + k)
			return weft_trace_corrupt(err, t->path, c->off, "chunk CTA table lists CTA %u at position %u, expected %u",
					  wt_get32(e), k, c->first + k);
		for (int s = 0; s < 4; s++)
			sum += wt_get32(e + 4 + 4 * s);
	}
	if (sum != raw->n)
		return weft_trace_corrupt(err, t->path, c->off, "chunk stream lengths add up to %llu bytes, the payload has %zu",
				  (unsigned long long)sum, raw->n);
	return 0;
}
