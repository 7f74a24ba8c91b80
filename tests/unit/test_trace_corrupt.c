/*
 * test_trace_corrupt.c - damaged traces are always caught, with the byte
 * offset in the message:
 *  - every single flipped byte of a small trace (three different bit
 *    patterns, on every byte) makes verify fail, and makes a reader fail
 *    either at open or when reading some CTA;
 *  - truncation at every length makes verify and open fail;
 *  - an interrupted write (the temporary file as it stands before commit,
 *    and after a failed launch) never passes verify, and leaves nothing at
 *    the target name;
 *  - an unknown version is refused with the documented message;
 *  - payloads that pass their checksums but are malformed (mutated after
 *    decompression) are rejected by the decoder, never crash it;
 *  - a chunk whose recorded raw length is more than its compressed bytes
 *    can hold, a chunk claiming more CTAs than its raw bytes have table
 *    entries for, and a launch claiming more CTAs than its chunks hold are
 *    refused at open, with correct checksums, before those counts size an
 *    allocation (found with tests/fuzz/ fuzz_trace).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace/emu/host.h"
#include "trace/format/trace.h"
#include "trace_edge_ptx.h"
#include "trace/format/trace_read.h"

static uint8_t *good;
static size_t good_len;
static char dir[] = "/tmp/weft-corrupt-XXXXXX";

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Traces two small launches of the edge kernel into path; when stop_before
 * is set, copies the temporary file (before commit) to that name instead
 * and aborts. */
static void make_trace(const char *path, const char *stop_before)
{
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 3, &w, &err), 0);
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_module *mod;
	assert_int_equal(weft_module_load_text(ctx, trace_edge_ptx, strlen(trace_edge_ptx), "edge.ptx", &mod, &err), 0);
	uint64_t out;
	assert_int_equal(weft_malloc(ctx, 4 * 48 * 64 + 64, &out, &err), 0);
	struct weft_arg args[] = { WEFT_ARG(out) };
	assert_int_equal(weft_launch(ctx, mod, "edge", weft_dim3(4, 1, 1), weft_dim3(48, 1, 1), 0, args, 1, &err), 0);
	assert_int_equal(weft_launch(ctx, mod, "edge", weft_dim3(2, 2, 1), weft_dim3(8, 2, 2), 0, args, 1, &err), 0);
	weft_ctx_destroy(ctx);
	if (stop_before) {
		/* a copy: the writer's own string is freed by the abort below */
		char tmp[4096];
		snprintf(tmp, sizeof(tmp), "%s", weft_trace_writer_temp_path(w));
		FILE *in = fopen(tmp, "rb"), *outf = fopen(stop_before, "wb");
		assert_non_null(in);
		assert_non_null(outf);
		char buf[4096];
		size_t k;
		while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, k, outf);
		fclose(in);
		fclose(outf);
		weft_trace_writer_abort(w);
		struct stat st;
		assert_int_equal(stat(tmp, &st), -1); /* the temporary file is gone */
		return;
	}
	assert_int_equal(weft_trace_writer_commit(w, &err), 0);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* Every reader path: open, then every CTA of every launch. Returns the
 * first error code (0 if all worked). */
static int read_all(const char *path, struct weft_error *err)
{
	struct weft_trace *t;
	int rc = weft_trace_open(path, &t, err);
	if (rc)
		return rc;
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	for (uint32_t l = 0; !rc && l < weft_trace_info(t)->nlaunches; l++)
		for (uint32_t k = 0; !rc && k < weft_trace_launch(t, l)->nctas; k++)
			rc = weft_trace_read_cta(t, l, k, &c, err);
	weft_cta_trace_free(&c);
	weft_trace_close(t);
	return rc;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	char p[256];
	path_in(p, sizeof(p), "good.wtr");
	make_trace(p, NULL);
	FILE *f = fopen(p, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	good_len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	good = malloc(good_len);
	if (fread(good, 1, good_len, f) != good_len)
		return -1;
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	free(good);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_good(void **state)
{
	(void)state;
	char p[256];
	struct weft_error err;
	path_in(p, sizeof(p), "good.wtr");
	assert_int_equal(weft_trace_verify(p, &err), 0);
	assert_int_equal(read_all(p, &err), 0);
	assert_true(good_len > 200);
	struct weft_trace *t;
	assert_int_equal(weft_trace_open(p, &t, &err), 0);
	assert_int_equal(weft_trace_info(t)->nlaunches, 2);
	weft_trace_close(t);
}

static void test_flipped_bytes(void **state)
{
	(void)state;
	char p[256];
	path_in(p, sizeof(p), "flip.wtr");
	uint8_t *b = malloc(good_len);
	const uint8_t pats[] = { 0x01, 0x80, 0xff };
	size_t checked = 0;
	for (size_t i = 0; i < good_len; i++) {
		for (size_t k = 0; k < sizeof(pats); k++) {
			memcpy(b, good, good_len);
			b[i] ^= pats[k];
			write_file(p, b, good_len);
			struct weft_error err;
			memset(&err, 0, sizeof(err));
			int rc = weft_trace_verify(p, &err);
			if (rc == 0)
				fprintf(stderr, "byte %zu ^ 0x%02x passed verify\n", i, pats[k]);
			assert_int_not_equal(rc, 0);
			/* verify names the offset (or, for the version field, refuses it) */
			assert_true(err.offset >= 0);
			assert_true(strstr(err.message, "offset") || strstr(err.message, "version"));
			memset(&err, 0, sizeof(err));
			rc = read_all(p, &err);
			if (rc == 0)
				fprintf(stderr, "byte %zu ^ 0x%02x passed every reader\n", i, pats[k]);
			assert_int_not_equal(rc, 0);
			assert_true(err.offset >= 0);
			checked++;
		}
	}
	free(b);
	assert_true(checked == good_len * 3);
}

static void test_truncation(void **state)
{
	(void)state;
	char p[256];
	path_in(p, sizeof(p), "trunc.wtr");
	for (size_t n = 0; n < good_len; n++) {
		write_file(p, good, n);
		struct weft_error err;
		memset(&err, 0, sizeof(err));
		assert_int_equal(weft_trace_verify(p, &err), WEFT_ERR_VERIFY);
		assert_true(err.offset >= 0);
		assert_non_null(strstr(err.message, "offset"));
		memset(&err, 0, sizeof(err));
		struct weft_trace *t = NULL;
		assert_int_not_equal(weft_trace_open(p, &t, &err), 0);
		assert_null(t);
		assert_true(err.offset >= 0);
	}
}

static void test_interrupted_write(void **state)
{
	(void)state;
	char p[256], snap[256];
	path_in(p, sizeof(p), "never.wtr");
	path_in(snap, sizeof(snap), "snapshot.wtr");
	make_trace(p, snap);
	struct stat st;
	assert_int_equal(stat(p, &st), -1); /* nothing at the target name */
	struct weft_error err;
	assert_int_equal(weft_trace_verify(snap, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "footer"));
	/* a launch that faults: the writer refuses to commit and removes its file */
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(p, 0, &w, &err), 0);
	char tmp[300];
	snprintf(tmp, sizeof(tmp), "%s", weft_trace_writer_temp_path(w));
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = weft_trace_writer_observer(w);
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_module *mod;
	assert_int_equal(weft_module_load_text(ctx, trace_edge_ptx, strlen(trace_edge_ptx), "edge.ptx", &mod, &err), 0);
	uint64_t bogus = 16; /* not a device pointer: the kernel faults */
	struct weft_arg args[] = { WEFT_ARG(bogus) };
	assert_int_not_equal(weft_launch(ctx, mod, "edge", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, args, 1, &err), 0);
	weft_ctx_destroy(ctx);
	assert_int_not_equal(weft_trace_writer_commit(w, &err), 0);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(stat(tmp, &st), -1);
}

static void test_versions(void **state)
{
	(void)state;
	char p[256];
	path_in(p, sizeof(p), "v7.wtr");
	uint8_t *b = malloc(good_len);
	memcpy(b, good, good_len);
	/* version 7 with a correct header CRC: a genuine newer file */
	b[8] = 7;
	/* CRC-32 of the first 12 bytes, as the writer computes it */
	uint32_t c = 0xffffffffu;
	for (int i = 0; i < 12; i++) {
		c ^= b[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	c = ~c;
	b[12] = (uint8_t)c;
	b[13] = (uint8_t)(c >> 8);
	b[14] = (uint8_t)(c >> 16);
	b[15] = (uint8_t)(c >> 24);
	write_file(p, b, good_len);
	free(b);
	struct weft_trace *t = NULL;
	struct weft_error err;
	assert_int_equal(weft_trace_open(p, &t, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "trace version 7 is newer than this weft (reads version 1); upgrade weft"));
	assert_int_not_equal(weft_trace_verify(p, &err), 0);
	assert_non_null(strstr(err.message, "version 7"));
	/* not a trace at all */
	path_in(p, sizeof(p), "text.wtr");
	write_file(p, (const uint8_t *)"hello, this is not a trace file\n", 32);
	/* bad input, not a damaged trace (docs/cli.md) */
	assert_int_equal(weft_trace_open(p, &t, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "not a weft trace"));
	path_in(p, sizeof(p), "missing.wtr");
	assert_int_equal(weft_trace_open(p, &t, &err), WEFT_ERR_INPUT);
}

/* Mutates decompressed chunk payloads (so no checksum can catch it) and
 * decodes every CTA: each decode must succeed or fail cleanly. */
static void test_malformed_payloads(void **state)
{
	(void)state;
	char p[256];
	path_in(p, sizeof(p), "good.wtr");
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(p, &t, &err), 0);
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	struct wt_buf comp = { 0 }, raw = { 0 };
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	struct wt_dscratch scr;
	memset(&scr, 0, sizeof(scr));
	uint64_t seed = 12345, bad = 0, good_decodes = 0;
	for (uint32_t ci = 0; ci < t->nchunks; ci++) {
		const struct wt_chunk *ch = &t->chunks[ci];
		assert_int_equal(weft_trace_load_chunk(t, ch, dctx, &comp, &raw, &err), 0);
		uint8_t *orig = malloc(raw.n);
		memcpy(orig, raw.p, raw.n);
		size_t tab = (size_t)ch->ncta * 20;
		for (int trial = 0; trial < 3000; trial++) {
			memcpy(raw.p, orig, raw.n);
			int nmut = 1 + trial % 4;
			for (int k = 0; k < nmut; k++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				/* mostly the streams; sometimes the CTA table too */
				size_t pos = trial % 10 == 0 ? (size_t)(seed >> 33) % raw.n
							     : tab + (size_t)(seed >> 33) % (raw.n - tab);
				raw.p[pos] = (uint8_t)(seed >> 16);
			}
			/* the table's lengths are checked by weft_trace_load_chunk; keep
			 * mutations that break them out of the decoder */
			uint64_t sum = tab;
			for (uint32_t k = 0; k < ch->ncta; k++)
				for (int sidx = 0; sidx < 4; sidx++)
					sum += wt_get32(raw.p + (size_t)k * 20 + 4 + 4 * sidx);
			if (sum != raw.n)
				continue;
			for (uint32_t k = 0; k < ch->ncta; k++) {
				int rc = weft_trace_decode_cta(t, ch, &raw, ch->first + k, &c, &scr, &err);
				assert_true(rc == 0 || rc == WEFT_ERR_VERIFY);
				if (rc) {
					bad++;
					assert_true(err.offset >= 0);
				} else {
					good_decodes++;
				}
			}
		}
		free(orig);
	}
	assert_true(bad > 0);
	weft_cta_trace_free(&c);
	weft_trace_dscratch_free(&scr);
	weft_trace_buf_free(&comp);
	weft_trace_buf_free(&raw);
	ZSTD_freeDCtx(dctx);
	weft_trace_close(t);
}

/* Offset of the first record with this tag in a trace image, or 0. */
static size_t find_record(const uint8_t *p, size_t n, uint32_t tag)
{
	size_t off = WT_HEADER_BYTES;
	while (off + WT_REC_OVERHEAD <= n - WT_FOOTER_BYTES) {
		if (wt_get32(p + off) == tag)
			return off;
		off += WT_REC_OVERHEAD + wt_get32(p + off + 4);
	}
	return 0;
}

/* Recomputes the CRC of the record at off; returns it. */
static uint32_t fix_crc(uint8_t *p, size_t off)
{
	uint32_t len = wt_get32(p + off + 4);
	uint32_t crc = weft_trace_crc32(0, p + off, 8 + (size_t)len);
	wt_put32(p + off + 8 + len, crc);
	return crc;
}

static void test_huge_raw_length(void **state)
{
	(void)state;
	uint8_t *img = malloc(good_len);
	assert_non_null(img);
	memcpy(img, good, good_len);
	size_t ch = find_record(img, good_len, WT_TAG_CHNK), ix = find_record(img, good_len, WT_TAG_INDX);
	assert_true(ch > 0 && ix > 0);
	/* 0xF0000000 raw bytes from a chunk of a few hundred, in the chunk's
	 * header and its index entry alike, all checksums right */
	wt_put32(img + ch + 8 + 12, 0xF0000000u);
	uint32_t crc = fix_crc(img, ch);
	const uint8_t *q = img + ix + 8;
	uint32_t nl = wt_get32(q);
	uint8_t *ent = img + ix + 8 + 4 + 16 * (size_t)nl + 8;
	uint32_t nc = wt_get32(ent);
	ent += 4;
	int found = 0;
	for (uint32_t i = 0; i < nc; i++, ent += 32)
		if (wt_get64(ent + 12) == ch) {
			wt_put32(ent + 24, 0xF0000000u);
			wt_put32(ent + 28, crc);
			found = 1;
		}
	assert_true(found);
	fix_crc(img, ix);
	char p[256];
	path_in(p, sizeof(p), "rawlen.wtr");
	write_file(p, img, good_len);
	free(img);
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(p, &t, &err), WEFT_ERR_VERIFY);
	assert_non_null(strstr(err.message, "claims 4026531840 raw bytes, more than its"));
	assert_int_equal(weft_trace_verify(p, &err), WEFT_ERR_VERIFY);
}

static void write_and_expect(uint8_t *img, const char *name, const char *needle)
{
	char p[256];
	path_in(p, sizeof(p), name);
	write_file(p, img, good_len);
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(p, &t, &err), WEFT_ERR_VERIFY);
	if (!strstr(err.message, needle))
		fail_msg("%s lacks \"%s\"", err.message, needle);
	assert_int_equal(weft_trace_verify(p, &err), WEFT_ERR_VERIFY);
}

static void test_huge_cta_counts(void **state)
{
	(void)state;
	uint8_t *img = malloc(good_len);
	assert_non_null(img);
	/* launch 0 claims 2^31 - 1 CTAs (its LNCH grid and LEND count agree);
	 * its chunks hold 4 */
	memcpy(img, good, good_len);
	size_t ln = find_record(img, good_len, WT_TAG_LNCH), le = find_record(img, good_len, WT_TAG_LEND);
	assert_true(ln > 0 && le > 0);
	wt_put32(img + ln + 8 + 4, 0x7fffffffu);
	wt_put32(img + le + 8 + 4, 0x7fffffffu);
	fix_crc(img, ln);
	fix_crc(img, le);
	write_and_expect(img, "grid.wtr", "launch 0 has 2147483647 CTAs but its chunks hold 4");
	/* the first chunk's index entry claims 2^28 CTAs */
	memcpy(img, good, good_len);
	size_t ix = find_record(img, good_len, WT_TAG_INDX);
	uint32_t nl = wt_get32(img + ix + 8);
	wt_put32(img + ix + 8 + 4 + 16 * (size_t)nl + 8 + 4 + 8, 0x10000000u);
	fix_crc(img, ix);
	write_and_expect(img, "ncta.wtr", "claims 268435456 CTAs, more than its");
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_flipped_bytes),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_interrupted_write),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_malformed_payloads),
		cmocka_unit_test(test_huge_raw_length),
		cmocka_unit_test(test_huge_cta_counts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
