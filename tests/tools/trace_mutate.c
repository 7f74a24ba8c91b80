/*
 * trace_mutate.c - test-only tool for tests/corrupt_sweep.sh: damages a
 * copy of a weft trace one way, optionally makes its checksums right again,
 * lists its layout, and decodes a trace the way a model reads one.
 *
 *   trace_mutate IN OUT flip OFFSET MASK [recrc]
 *       OUT = IN with the byte at OFFSET xor MASK (1..255); with recrc, every
 *       CRC-32 is then recomputed from OUT's own bytes (below)
 *   trace_mutate IN OUT truncate LEN     OUT = the first LEN bytes of IN
 *   trace_mutate IN OUT rawflip K POS MASK
 *       OUT = IN with byte POS of the K-th zstd frame's decompressed content
 *       (a chunk's payload or a launch's static program, in file order) xor
 *       MASK, recompressed, and the file laid out again around it: record
 *       offsets in the index and footer, lengths and every CRC made right.
 *       This reaches the program reader and the CTA decoder, which a flip
 *       of compressed bytes seldom does (zstd refuses those).
 *   trace_mutate FILE layout             one line per part: OFFSET LENGTH NAME
 *                                        (header, a record's tag, footer)
 *   trace_mutate FILE frames             one line per zstd frame: K TAG
 *                                        RECORD-OFFSET RAW-LENGTH
 *   trace_mutate FILE decode             opens FILE with the library, decodes
 *                                        every CTA and walks every thread's
 *                                        dynamic instructions; prints their
 *                                        count and an FNV-1a 64 hash of
 *                                        (launch geometry, pc, exec, address,
 *                                        space), or the library's error
 *                                        (exit status as weft-trace dump's:
 *                                        2 for a corrupt trace)
 *
 * Recomputing (docs/trace-format.md): walking the records from byte 16 as
 * their own length fields lay them out (stopping at the first that does not
 * fit before the footer), each record's CRC; the CRC copies the index keeps
 * for chunk records (taken from the record its entry points to, when that
 * lies inside the file), then the index record's CRC again; the footer's
 * and the header's CRC. A flip then reaches the parsers behind the CRC
 * checks, which is what the second half of the sweep is for.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "common/error.h"
#include "trace/format/trace.h"
#include "trace/format/trace_format.h"

static int usage(void)
{
	fprintf(stderr, "usage: trace_mutate IN OUT flip OFFSET MASK [recrc]\n"
			"       trace_mutate IN OUT truncate LEN\n"
			"       trace_mutate IN OUT rawflip K POS MASK\n"
			"       trace_mutate FILE frames\n"
			"       trace_mutate FILE layout\n"
			"       trace_mutate FILE decode\n");
	return 2;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "trace_mutate: cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	size_t k;
	while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			uint8_t *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	fclose(f);
	if (!b)
		fprintf(stderr, "trace_mutate: out of memory reading %s\n", path);
	*len = n;
	return b;
}

static int spill(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "trace_mutate: cannot write %s\n", path);
		return 3;
	}
	return 0;
}

static void set_crc(uint8_t *at, const uint8_t *from, size_t len)
{
	wt_put32(at, weft_trace_crc32(0, from, len));
}

/* The CRCs made right again (top of the file). */
static void recrc(uint8_t *b, size_t n)
{
	if (n < WT_HEADER_BYTES + WT_FOOTER_BYTES) {
		if (n >= WT_HEADER_BYTES)
			set_crc(b + 12, b, 12);
		return;
	}
	size_t end = n - WT_FOOTER_BYTES, off = WT_HEADER_BYTES;
	uint64_t ioff = wt_get64(b + end + 4);
	size_t indx_off = 0, indx_len = 0;
	int have_indx = 0;
	while (off + WT_REC_OVERHEAD <= end) {
		uint32_t len = wt_get32(b + off + 4);
		if (len > end - off - WT_REC_OVERHEAD)
			break;
		set_crc(b + off + 8 + len, b + off, 8 + (size_t)len);
		if (off == ioff && wt_get32(b + off) == WT_TAG_INDX) {
			have_indx = 1;
			indx_off = off;
			indx_len = len;
		}
		off += WT_REC_OVERHEAD + len;
	}
	if (have_indx) {
		uint8_t *p = b + indx_off + 8, *pe = p + indx_len;
		if (pe - p >= 4) {
			uint64_t nl = wt_get32(p);
			uint8_t *q = p + 4;
			if ((uint64_t)(pe - q) >= nl * 16 + 12) {
				q += nl * 16 + 8;
				uint32_t nc = wt_get32(q);
				q += 4;
				for (uint32_t i = 0; i < nc && pe - q >= 32; i++, q += 32) {
					uint64_t co = wt_get64(q + 12);
					uint32_t rl = wt_get32(q + 20);
					if (rl >= WT_REC_OVERHEAD && co <= n && rl <= n - co)
						wt_put32(q + 28, wt_get32(b + co + rl - 4));
				}
			}
		}
		set_crc(b + indx_off + 8 + indx_len, b + indx_off, 8 + indx_len);
	}
	set_crc(b + end + 12, b + end, 12);
	set_crc(b + 12, b, 12);
}

static int layout(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	if (!b)
		return 2;
	if (n < WT_HEADER_BYTES + WT_FOOTER_BYTES) {
		free(b);
		fprintf(stderr, "trace_mutate: %s is too short for a trace\n", path);
		return 2;
	}
	printf("0 %d header\n", WT_HEADER_BYTES);
	size_t end = n - WT_FOOTER_BYTES, off = WT_HEADER_BYTES;
	while (off + WT_REC_OVERHEAD <= end) {
		uint32_t len = wt_get32(b + off + 4);
		if (len > end - off - WT_REC_OVERHEAD)
			break;
		char tag[5];
		memcpy(tag, b + off, 4);
		tag[4] = '\0';
		printf("%zu %zu %s\n", off, (size_t)len + WT_REC_OVERHEAD, tag);
		off += WT_REC_OVERHEAD + len;
	}
	printf("%zu %d footer\n", end, WT_FOOTER_BYTES);
	free(b);
	return off == end ? 0 : 2;
}

/* ---- frames: the zstd-compressed contents of LNCH and CHNK records ---- */

/* LNCH payload: index, grid x3, block x3, dynamic shared, program reference
 * (36 bytes), then when the program follows: raw length, frame. CHNK
 * payload: launch, first CTA, count, raw length (16 bytes), frame. */
#define LNCH_FIXED 36

struct frame {
	size_t rec;    /* the record's offset */
	size_t at;     /* the frame's offset */
	size_t len;    /* its compressed length */
	uint32_t raw;  /* decompressed length */
	uint32_t tag;
};

/* The frames of a well-formed file b (the original), in file order. */
static size_t find_frames(const uint8_t *b, size_t n, struct frame *fr, size_t cap)
{
	size_t k = 0, end = n - WT_FOOTER_BYTES, off = WT_HEADER_BYTES;
	while (off + WT_REC_OVERHEAD <= end) {
		uint32_t tag = wt_get32(b + off), len = wt_get32(b + off + 4);
		if (len > end - off - WT_REC_OVERHEAD)
			break;
		const uint8_t *p = b + off + 8;
		struct frame f = { off, 0, 0, 0, tag };
		if (tag == WT_TAG_CHNK && len > 16) {
			f.at = off + 8 + 16;
			f.len = len - 16;
			f.raw = wt_get32(p + 12);
		} else if (tag == WT_TAG_LNCH && len > LNCH_FIXED + 4 && wt_get32(p + 32) == WT_NO_REF) {
			f.at = off + 8 + LNCH_FIXED + 4;
			f.len = len - LNCH_FIXED - 4;
			f.raw = wt_get32(p + LNCH_FIXED);
		}
		if (f.at && k < cap)
			fr[k++] = f;
		off += WT_REC_OVERHEAD + len;
	}
	return k;
}

static int frames(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	if (!b)
		return 2;
	struct frame fr[4096];
	size_t k = n >= WT_HEADER_BYTES + WT_FOOTER_BYTES ? find_frames(b, n, fr, 4096) : 0;
	for (size_t i = 0; i < k; i++) {
		char tag[5];
		memcpy(tag, &fr[i].tag, 4);
		tag[4] = '\0';
		printf("%zu %s %zu %u\n", i, tag, fr[i].rec, fr[i].raw);
	}
	free(b);
	return 0;
}

/* The new offset of the record that started at old (records before the
 * changed one keep theirs; later ones move by delta). */
static uint64_t moved(uint64_t old, size_t changed, long long delta)
{
	return old > changed ? (uint64_t)((long long)old + delta) : old;
}

static int rawflip(const char *in, const char *out, size_t k, size_t pos, unsigned mask)
{
	size_t n;
	uint8_t *b = slurp(in, &n);
	if (!b)
		return 2;
	struct frame fr[4096];
	size_t nf = n >= WT_HEADER_BYTES + WT_FOOTER_BYTES ? find_frames(b, n, fr, 4096) : 0;
	if (k >= nf) {
		free(b);
		fprintf(stderr, "trace_mutate: %s has %zu frames, no frame %zu\n", in, nf, k);
		return 2;
	}
	struct frame f = fr[k];
	uint8_t *raw = malloc((size_t)f.raw + 1);
	size_t bound = ZSTD_compressBound(f.raw);
	uint8_t *z = malloc(bound);
	uint8_t *nb = malloc(n + bound + 64);
	int rc = 3;
	if (!raw || !z || !nb)
		goto done;
	size_t got = ZSTD_decompress(raw, f.raw, b + f.at, f.len);
	if (ZSTD_isError(got) || got != f.raw || !f.raw) {
		fprintf(stderr, "trace_mutate: frame %zu of %s does not decompress\n", k, in);
		rc = 2;
		goto done;
	}
	raw[pos % f.raw] ^= (uint8_t)mask;
	size_t zl = ZSTD_compress(z, bound, raw, f.raw, 3);
	if (ZSTD_isError(zl))
		goto done;
	/* the file again: up to the frame, the new frame, the rest */
	long long delta = (long long)zl - (long long)f.len;
	size_t m = 0;
	memcpy(nb, b, f.at);
	m = f.at;
	memcpy(nb + m, z, zl);
	m += zl;
	memcpy(nb + m, b + f.at + f.len, n - f.at - f.len);
	m += n - f.at - f.len;
	uint32_t reclen = wt_get32(b + f.rec + 4);
	wt_put32(nb + f.rec + 4, (uint32_t)((long long)reclen + delta));
	/* offsets after the changed record: the index and the footer */
	size_t end = m - WT_FOOTER_BYTES;
	uint64_t ioff = moved(wt_get64(nb + end + 4), f.rec, delta);
	wt_put64(nb + end + 4, ioff);
	uint8_t *p = nb + ioff + 8;
	uint32_t nl = wt_get32(p);
	p += 4;
	for (uint32_t i = 0; i < 2 * nl; i++, p += 8)
		wt_put64(p, moved(wt_get64(p), f.rec, delta));
	wt_put64(p, moved(wt_get64(p), f.rec, delta)); /* INFO */
	p += 8;
	uint32_t nc = wt_get32(p);
	p += 4;
	for (uint32_t i = 0; i < nc; i++, p += 32) {
		uint64_t co = wt_get64(p + 12);
		if (co == f.rec)
			wt_put32(p + 20, wt_get32(p + 20) + (uint32_t)delta);
		wt_put64(p + 12, moved(co, f.rec, delta));
	}
	recrc(nb, m);
	rc = spill(out, nb, m);
done:
	if (rc == 3)
		fprintf(stderr, "trace_mutate: out of memory or zstd failure\n");
	free(raw);
	free(z);
	free(nb);
	free(b);
	return rc;
}

/* FNV-1a 64 over v's 8 bytes. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int decode(const char *path)
{
	struct weft_error err;
	weft_error_clear(&err);
	struct weft_trace *t;
	int rc = weft_trace_open(path, &t, &err);
	int opened = rc == 0;
	uint64_t h = 0xcbf29ce484222325ull, insts = 0;
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	for (uint32_t l = 0; !rc && l < weft_trace_info(t)->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		h = mix(h, L->nctas);
		h = mix(h, L->threads_per_cta);
		h = mix(h, L->program->ninsts);
		for (uint32_t k = 0; !rc && k < L->nctas; k++) {
			rc = weft_trace_read_cta(t, l, k, &c, &err);
			for (uint32_t th = 0; !rc && th < c.nthreads; th++) {
				struct weft_thread_iter it;
				struct weft_dyn_inst d;
				weft_thread_iter_init(&it, L->program, &c.threads[th]);
				while (weft_thread_iter_next(&it, &d)) {
					h = mix(h, (uint64_t)d.pc << 16 | (uint64_t)d.exec << 8 | d.space);
					if (d.has_addr)
						h = mix(h, d.addr);
					insts++;
				}
			}
		}
	}
	weft_cta_trace_free(&c);
	if (opened)
		weft_trace_close(t);
	if (rc) {
		char buf[1400];
		fprintf(stderr, "trace_mutate decode: %s\n", weft_error_format(&err, buf, sizeof(buf)));
		/* a corrupt trace is bad input to a reader, as for weft-trace dump */
		return rc == WEFT_ERR_VERIFY ? 2 : weft_err_exit_code(rc);
	}
	printf("%llu dynamic instructions, hash %016llx\n", (unsigned long long)insts, (unsigned long long)h);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[2], "layout"))
		return layout(argv[1]);
	if (argc == 3 && !strcmp(argv[2], "decode"))
		return decode(argv[1]);
	if (argc == 3 && !strcmp(argv[2], "frames"))
		return frames(argv[1]);
	if (argc == 7 && !strcmp(argv[3], "rawflip")) {
		char *e1, *e2, *e3;
		unsigned long long k = strtoull(argv[4], &e1, 0), pos = strtoull(argv[5], &e2, 0);
		unsigned long mask = strtoul(argv[6], &e3, 0);
		if (*e1 || *e2 || *e3 || mask == 0 || mask > 255)
			return usage();
		return rawflip(argv[1], argv[2], (size_t)k, (size_t)pos, (unsigned)mask);
	}
	if (argc < 5)
		return usage();
	size_t n;
	uint8_t *b = slurp(argv[1], &n);
	if (!b)
		return 2;
	int rc = 0;
	char *e;
	unsigned long long a = strtoull(argv[4], &e, 0);
	if (*e)
		rc = usage();
	else if (!strcmp(argv[3], "flip") && (argc == 6 || (argc == 7 && !strcmp(argv[6], "recrc")))) {
		unsigned long mask = strtoul(argv[5], &e, 0);
		if (*e || a >= n || mask == 0 || mask > 255)
			rc = usage();
		else {
			b[a] ^= (uint8_t)mask;
			if (argc == 7)
				recrc(b, n);
			rc = spill(argv[2], b, n);
		}
	} else if (!strcmp(argv[3], "truncate") && argc == 5 && a <= n)
		rc = spill(argv[2], b, (size_t)a);
	else
		rc = usage();
	free(b);
	return rc;
}
