/*
 * test_fatbin.c - the fatbinary reader (trace/fatbin/fatbin.h) on
 * fatbinaries built here byte by byte: plain and zstd PTX, the PTX picked
 * for a compute capability (and what the error says when there is none),
 * NVIDIA's LZ flag refused, and every length at and just over what the
 * bytes available and weft's caps allow, refused with the byte offset
 * before anything of the claimed size is allocated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <cmocka.h>

#include "trace/fatbin/fatbin.h"

static const char ptx75[] = ".version 9.0\n.target sm_75\n.address_size 64\n";

struct fb {
	uint8_t *p;
	size_t n;
};

static void put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void fb_header(struct fb *f)
{
	f->p = calloc(1, 16);
	assert_non_null(f->p);
	f->n = 16;
	put(f->p, WEFT_FATBIN_MAGIC, 4);
	put(f->p + 4, 1, 2);
	put(f->p + 6, 16, 2);
}

/* Appends an entry of kind, arch, flags with payload (stored bytes) and,
 * when compressed, the uncompressed size raw. hsize 0 = 64. */
static void fb_entry(struct fb *f, uint16_t kind, uint32_t arch, uint64_t flags, const void *payload,
		     size_t stored, uint64_t raw, uint32_t hsize)
{
	if (!hsize)
		hsize = 64;
	size_t padded = (stored + 7) & ~(size_t)7;
	f->p = realloc(f->p, f->n + hsize + padded);
	assert_non_null(f->p);
	uint8_t *e = f->p + f->n;
	memset(e, 0, hsize + padded);
	put(e, kind, 2);
	put(e + 2, 0x101, 2);
	put(e + 4, hsize, 4);
	put(e + 8, padded, 8);
	if (flags & (WEFT_FATBIN_FLAG_ZSTD | WEFT_FATBIN_FLAG_NVLZ)) {
		put(e + 16, stored, 4);
		put(e + 56, raw, 8);
	}
	put(e + 28, arch, 4);
	put(e + 40, flags, 8);
	memcpy(e + hsize, payload, stored);
	f->n += hsize + padded;
	put(f->p + 8, f->n - 16, 8);
}

static void test_plain_and_zstd(void **unused)
{
	(void)unused;
	struct fb f;
	struct weft_fatbin fb;
	struct weft_error err;
	char *text;
	size_t len;
	char z[256];
	size_t zn = ZSTD_compress(z, sizeof(z), ptx75, sizeof(ptx75) - 1, 3);
	assert_false(ZSTD_isError(zn));
	fb_header(&f);
	fb_entry(&f, WEFT_FATBIN_KIND_ELF, 75, 0x11, "\x7f" "ELF", 4, 0, 0);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof(ptx75), 0, 80); /* NUL included */
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 90, 0x8011, z, zn, sizeof(ptx75) - 1, 0);
	assert_int_equal(weft_fatbin_parse(f.p, f.n, &fb, &err), 0);
	assert_int_equal(fb.nentries, 3);
	assert_int_equal(fb.bytes, f.n);
	assert_int_equal(fb.entries[2].compression, WEFT_FATBIN_ZSTD);
	for (uint32_t i = 1; i < 3; i++) {
		assert_int_equal(weft_fatbin_ptx_text(f.p, &fb, i, &text, &len, &err), 0);
		assert_int_equal(len, sizeof(ptx75) - 1);
		assert_string_equal(text, ptx75);
		free(text);
	}
	assert_int_equal(weft_fatbin_pick_ptx(&fb, 90, &err), 2);
	assert_int_equal(weft_fatbin_pick_ptx(&fb, 80, &err), 1);
	assert_int_equal(weft_fatbin_pick_ptx(&fb, 70, &err), -1);
	assert_non_null(strstr(err.message, "PTX only for compute_75, compute_90"));
	weft_fatbin_free(&fb);
	free(f.p);
}

static void test_no_ptx_and_lz(void **unused)
{
	(void)unused;
	struct fb f;
	struct weft_fatbin fb;
	struct weft_error err;
	char *text;
	size_t len;
	fb_header(&f);
	fb_entry(&f, WEFT_FATBIN_KIND_ELF, 75, 0x11, "\x7f" "ELF", 4, 0, 0);
	assert_int_equal(weft_fatbin_parse(f.p, f.n, &fb, &err), 0);
	assert_int_equal(weft_fatbin_pick_ptx(&fb, 90, &err), -1);
	assert_non_null(strstr(err.message, "no PTX, only machine code (sm_75)"));
	assert_non_null(strstr(err.message, "-arch=compute_75"));
	weft_fatbin_free(&fb);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x2011, "lz", 2, 100, 0);
	assert_int_equal(weft_fatbin_parse(f.p, f.n, &fb, &err), 0);
	assert_int_equal(weft_fatbin_pick_ptx(&fb, 90, &err), 1);
	assert_int_equal(weft_fatbin_ptx_text(f.p, &fb, 1, &text, &len, &err), WEFT_ERR_INPUT);
	assert_null(text);
	assert_non_null(strstr(err.message, "flag 0x2000"));
	assert_non_null(strstr(err.message, "--compress-mode=none"));
	weft_fatbin_free(&fb);
	free(f.p);
}

/* Parsing fails with WEFT_ERR_INPUT at byte offset off, message naming what. */
static void refused(const struct fb *f, size_t avail, int64_t off, const char *what)
{
	struct weft_fatbin fb;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_fatbin_parse(f->p, avail, &fb, &err), WEFT_ERR_INPUT);
	assert_int_equal(err.offset, off);
	assert_non_null(strstr(err.message, what));
	assert_int_equal(fb.nentries, 0);
	assert_null(fb.entries);
}

static void test_lengths(void **unused)
{
	(void)unused;
	struct fb f;
	fb_header(&f);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof(ptx75), 0, 0);
	refused(&f, 15, 0, "the header needs 16");
	refused(&f, f.n - 1, 8, "bytes of entries do not fit");
	put(f.p, 0x12345678, 4);
	refused(&f, f.n, 0, "magic 0x12345678");
	put(f.p, WEFT_FATBIN_MAGIC, 4);
	put(f.p + 4, 2, 2);
	refused(&f, f.n, 4, "version 2");
	put(f.p + 4, 1, 2);
	put(f.p + 6, 8, 2);
	refused(&f, f.n, 6, "header size 8");
	put(f.p + 6, 16, 2);
	put(f.p + 16 + 4, 63, 4);
	refused(&f, f.n, 20, "header size 63 is outside 64..4096");
	put(f.p + 16 + 4, 4097, 4);
	refused(&f, f.n, 20, "header size 4097 is outside 64..4096");
	put(f.p + 16 + 4, 64, 4);
	put(f.p + 16 + 8, f.n, 8); /* payload past the end */
	refused(&f, f.n, 24, "runs past the end");
	put(f.p + 16 + 8, UINT64_MAX, 8);
	refused(&f, f.n, 24, "runs past the end");
	free(f.p);
}

static void test_caps(void **unused)
{
	(void)unused;
	struct fb f;
	struct weft_fatbin fb;
	struct weft_error err;
	char *text;
	size_t len;
	/* a fatbinary claiming more than 1 GiB of entries, with more readable */
	fb_header(&f);
	put(f.p + 8, WEFT_FATBIN_MAX_BYTES + 1, 8);
	refused(&f, SIZE_MAX, 8, "cap of 1 GiB");
	free(f.p);
	/* 4096 empty entries are read, 4097 refused */
	fb_header(&f);
	for (uint32_t i = 0; i < WEFT_FATBIN_MAX_ENTRIES; i++)
		fb_entry(&f, 7, 0, 0, "", 0, 0, 0);
	assert_int_equal(weft_fatbin_parse(f.p, f.n, &fb, &err), 0);
	assert_int_equal(fb.nentries, WEFT_FATBIN_MAX_ENTRIES);
	weft_fatbin_free(&fb);
	fb_entry(&f, 7, 0, 0, "", 0, 0, 0);
	refused(&f, f.n, (int64_t)f.n - 64, "more than 4096 entries");
	free(f.p);
	/* zstd PTX declaring more than 256 MiB uncompressed: refused before
	 * allocating; one declaring a size its frame does not have: refused */
	char z[256];
	size_t zn = ZSTD_compress(z, sizeof(z), ptx75, sizeof(ptx75) - 1, 3);
	fb_header(&f);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x8011, z, zn, WEFT_FATBIN_MAX_PTX_BYTES + 1, 0);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x8011, z, zn, sizeof(ptx75), 0);
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x8011, "not zstd", 8, 8, 0);
	assert_int_equal(weft_fatbin_parse(f.p, f.n, &fb, &err), 0);
	assert_int_equal(weft_fatbin_ptx_text(f.p, &fb, 0, &text, &len, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "weft's cap"));
	assert_int_equal(weft_fatbin_ptx_text(f.p, &fb, 1, &text, &len, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "frame's size differs"));
	assert_int_equal(weft_fatbin_ptx_text(f.p, &fb, 2, &text, &len, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "not a zstd frame"));
	weft_fatbin_free(&fb);
	/* compressed bytes beyond the payload */
	fb_entry(&f, WEFT_FATBIN_KIND_PTX, 75, 0x8011, z, zn, sizeof(ptx75) - 1, 0);
	put(f.p + f.n - ((zn + 7) & ~(size_t)7) - 64 + 16, 4096, 4);
	refused(&f, f.n, (int64_t)(f.n - ((zn + 7) & ~(size_t)7) - 64 + 16), "compressed bytes do not fit");
	free(f.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_zstd),
		cmocka_unit_test(test_no_ptx_and_lz),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_caps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
