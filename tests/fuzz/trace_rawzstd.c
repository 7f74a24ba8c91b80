/*
 * trace_rawzstd.c - rewrites a weft trace so that every zstd frame in it
 * (each launch's static program, each chunk's payload) holds its bytes
 * uncompressed, in zstd "raw" blocks, with every record CRC, the index and
 * the footer made right again. The result is a valid trace that reads back
 * exactly as the original, but whose decoded bytes lie in the file as they
 * are: a fuzzer mutating it changes the program and stream bytes directly
 * instead of breaking a compressed frame. Seeds for fuzz_trace
 * (tests/fuzz/make_seeds.sh); not part of the library.
 *
 *     trace_rawzstd IN.wtr OUT.wtr
 *
 * Exit status 0, or 1 with a message when IN is not a trace this tool
 * understands (it trusts its input: run it on traces weft wrote).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "common/file.h"
#include "trace/format/trace_format.h"

#define RAW_BLOCK_MAX (128u * 1024u) /* zstd's largest block */

static void die(const char *what)
{
	fprintf(stderr, "trace_rawzstd: %s\n", what);
	exit(1);
}

/* Appends to b or dies. */
static void put(struct wt_buf *b, const void *p, size_t n)
{
	weft_trace_buf_bytes(b, p, n);
	if (b->oom)
		die("out of memory");
}

/* A zstd frame holding src[0..n) in raw blocks: magic, a single-segment
 * header with a 4-byte content size, no checksum. */
static void raw_frame(struct wt_buf *b, const uint8_t *src, size_t n)
{
	uint8_t h[9];
	wt_put32(h, 0xFD2FB528u);
	h[4] = 0xA0; /* frame content size in 4 bytes, single segment */
	wt_put32(h + 5, (uint32_t)n);
	put(b, h, sizeof(h));
	size_t off = 0;
	do {
		size_t k = n - off > RAW_BLOCK_MAX ? RAW_BLOCK_MAX : n - off;
		uint32_t last = off + k == n;
		uint32_t bh = last | (uint32_t)k << 3; /* block type 0: raw */
		uint8_t bb[3] = { (uint8_t)bh, (uint8_t)(bh >> 8), (uint8_t)(bh >> 16) };
		put(b, bb, 3);
		put(b, src + off, k);
		off += k;
	} while (off < n);
}

/* Decompresses the frame src[0..n) (of known size raw) and appends it as
 * a raw frame. */
static void reframe(struct wt_buf *out, const uint8_t *src, size_t n, size_t raw)
{
	uint8_t *d = malloc(raw + 1);
	if (!d)
		die("out of memory");
	size_t z = ZSTD_decompress(d, raw, src, n);
	if (ZSTD_isError(z) || z != raw)
		die("a zstd frame does not decompress to its recorded size");
	raw_frame(out, d, raw);
	free(d);
}

struct rec {
	uint64_t old_off, new_off;
	uint32_t tag, reclen, crc;
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: trace_rawzstd IN.wtr OUT.wtr\n");
		return 2;
	}
	char *data;
	size_t size;
	if (weft_file_read(argv[1], &data, &size))
		die("cannot read the input");
	const uint8_t *f = (const uint8_t *)data;
	if (size < WT_HEADER_BYTES + WT_FOOTER_BYTES || memcmp(f, WT_MAGIC, 8))
		die("not a weft trace");
	struct wt_buf out = { 0 };
	put(&out, f, WT_HEADER_BYTES);
	struct rec *recs = NULL;
	uint32_t nrec = 0;
	uint64_t off = WT_HEADER_BYTES, end = size - WT_FOOTER_BYTES;
	const uint8_t *indx = NULL;
	uint32_t indx_len = 0;
	while (off < end) {
		if (end - off < WT_REC_OVERHEAD)
			die("a record runs past the footer");
		uint32_t tag = wt_get32(f + off), len = wt_get32(f + off + 4);
		if (len > end - off - WT_REC_OVERHEAD)
			die("a record runs past the footer");
		const uint8_t *p = f + off + 8;
		if (tag == WT_TAG_INDX) {
			indx = p;
			indx_len = len;
			off += WT_REC_OVERHEAD + len;
			continue;
		}
		struct wt_buf pay = { 0 };
		if (tag == WT_TAG_LNCH && len >= 44 && wt_get32(p + 32) == WT_NO_REF) {
			put(&pay, p, 40); /* geometry, reference, raw length */
			reframe(&pay, p + 40, len - 40, wt_get32(p + 36));
		} else if (tag == WT_TAG_CHNK && len >= WT_CHUNK_HDR) {
			put(&pay, p, WT_CHUNK_HDR);
			reframe(&pay, p + WT_CHUNK_HDR, len - WT_CHUNK_HDR, wt_get32(p + 12));
		} else {
			put(&pay, p, len);
		}
		struct rec *r = realloc(recs, (nrec + 1) * sizeof(*recs));
		if (!r)
			die("out of memory");
		recs = r;
		r = &recs[nrec++];
		r->old_off = off;
		r->new_off = out.n;
		r->tag = tag;
		r->reclen = (uint32_t)pay.n + WT_REC_OVERHEAD;
		uint8_t h[8];
		wt_put32(h, tag);
		wt_put32(h + 4, (uint32_t)pay.n);
		r->crc = weft_trace_crc32(weft_trace_crc32(0, h, 8), pay.p, pay.n);
		put(&out, h, 8);
		put(&out, pay.p, pay.n);
		uint8_t c[4];
		wt_put32(c, r->crc);
		put(&out, c, 4);
		weft_trace_buf_free(&pay);
		off += WT_REC_OVERHEAD + len;
	}
	if (!indx)
		die("no index record");
	/* the index: every offset moved; chunk lengths and CRCs changed */
	struct wt_buf ix = { 0 };
	put(&ix, indx, indx_len);
	uint32_t nl = wt_get32(ix.p);
	size_t pos = 4;
	uint32_t nc = 0;
	if ((uint64_t)nl * 16 + 16 > ix.n)
		die("malformed index");
	for (uint32_t i = 0; i <= 2 * nl; i++, pos += 8) { /* launch, launch end, info offsets */
		uint64_t o = wt_get64(ix.p + pos);
		uint32_t k = 0;
		while (k < nrec && recs[k].old_off != o)
			k++;
		if (k == nrec)
			die("the index names an offset that holds no record");
		wt_put64(ix.p + pos, recs[k].new_off);
	}
	nc = wt_get32(ix.p + pos);
	pos += 4;
	if (pos + (uint64_t)nc * 32 != ix.n)
		die("malformed index (chunk table)");
	for (uint32_t i = 0; i < nc; i++, pos += 32) {
		uint64_t o = wt_get64(ix.p + pos + 12);
		uint32_t k = 0;
		while (k < nrec && recs[k].old_off != o)
			k++;
		if (k == nrec || recs[k].tag != WT_TAG_CHNK)
			die("the index names a chunk at an offset that holds none");
		wt_put64(ix.p + pos + 12, recs[k].new_off);
		wt_put32(ix.p + pos + 20, recs[k].reclen);
		wt_put32(ix.p + pos + 28, recs[k].crc);
	}
	uint64_t ioff = out.n;
	uint8_t h[8];
	wt_put32(h, WT_TAG_INDX);
	wt_put32(h + 4, (uint32_t)ix.n);
	put(&out, h, 8);
	put(&out, ix.p, ix.n);
	uint8_t c[4];
	wt_put32(c, weft_trace_crc32(weft_trace_crc32(0, h, 8), ix.p, ix.n));
	put(&out, c, 4);
	uint8_t foot[WT_FOOTER_BYTES];
	wt_put32(foot, WT_TAG_FOOT);
	wt_put64(foot + 4, ioff);
	wt_put32(foot + 12, weft_trace_crc32(0, foot, 12));
	put(&out, foot, sizeof(foot));
	struct weft_error err;
	if (weft_write_atomic(argv[2], out.p, out.n, &err)) {
		fprintf(stderr, "trace_rawzstd: %s\n", err.message);
		return 1;
	}
	weft_trace_buf_free(&ix);
	weft_trace_buf_free(&out);
	free(recs);
	free(data);
	return 0;
}
