/*
 * fatbin.c - reading nvcc's fatbinary (fatbin.h): the header and entry
 * headers, each length checked against the bytes available before it is
 * used; the PTX entry for a compute capability; the PTX text, copied or
 * decompressed with zstd into a buffer of the size the entry declares
 * (at most WEFT_FATBIN_MAX_PTX_BYTES).
 */
#include "fatbin.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* An error at byte offset off of the fatbinary. */
static int bad(struct weft_error *err, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct weft_error *err, uint64_t off, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	weft_error_set(err, WEFT_ERR_INPUT, "fatbinary corrupt at byte offset %" PRIu64 ": %s", off, msg);
	if (err)
		err->offset = (int64_t)off;
	return WEFT_ERR_INPUT;
}

void weft_fatbin_free(struct weft_fatbin *f)
{
	if (!f)
		return;
	free(f->entries);
	memset(f, 0, sizeof(*f));
}

/* Reads the entry header at off (of the entries ending at end) into e;
 * *next is where the following entry starts. */
static int parse_entry(const uint8_t *p, uint64_t off, uint64_t end, uint32_t n,
		       struct weft_fatbin_entry *e, uint64_t *next, struct weft_error *err)
{
	if (end - off < WEFT_FATBIN_ENTRY_MIN_BYTES)
		return bad(err, off, "entry %u: its header needs %u bytes, %" PRIu64 " remain", n,
			   WEFT_FATBIN_ENTRY_MIN_BYTES, end - off);
	const uint8_t *h = p + off;
	uint32_t hsize = rd32(h + 4);
	if (hsize < WEFT_FATBIN_ENTRY_MIN_BYTES || hsize > WEFT_FATBIN_MAX_ENTRY_HEADER)
		return bad(err, off + 4, "entry %u: header size %u is outside %u..%u", n, hsize,
			   WEFT_FATBIN_ENTRY_MIN_BYTES, WEFT_FATBIN_MAX_ENTRY_HEADER);
	if (hsize > end - off)
		return bad(err, off + 4, "entry %u: header size %u runs past the end (%" PRIu64 " bytes remain)",
			   n, hsize, end - off);
	uint64_t psize = rd64(h + 8);
	uint64_t room = end - off - hsize;
	if (psize > room)
		return bad(err, off + 8, "entry %u: payload of %" PRIu64 " bytes runs past the end (%" PRIu64 " bytes remain)",
			   n, psize, room);
	e->kind = rd16(h);
	e->arch = rd32(h + 28);
	e->flags = rd64(h + 40);
	e->offset = off + hsize;
	int nvlz = (e->flags & WEFT_FATBIN_FLAG_NVLZ) != 0, zstd = (e->flags & WEFT_FATBIN_FLAG_ZSTD) != 0;
	if (nvlz && zstd)
		return bad(err, off + 40, "entry %u: flags 0x%" PRIx64 " name two compression formats (0x2000 and 0x8000)",
			   n, e->flags);
	e->compression = zstd ? WEFT_FATBIN_ZSTD : nvlz ? WEFT_FATBIN_NVLZ : WEFT_FATBIN_PLAIN;
	if (e->compression == WEFT_FATBIN_PLAIN) {
		e->stored = psize;
		e->raw_bytes = 0;
	} else {
		e->stored = rd32(h + 16);
		e->raw_bytes = rd64(h + 56);
		if (e->stored > psize)
			return bad(err, off + 16, "entry %u: %" PRIu64 " compressed bytes do not fit its payload of %" PRIu64 " bytes",
				   n, e->stored, psize);
	}
	*next = off + hsize + psize;
	return 0;
}

int weft_fatbin_parse(const void *data, size_t avail, struct weft_fatbin *out, struct weft_error *err)
{
	const uint8_t *p = data;
	memset(out, 0, sizeof(*out));
	if (!p || avail < WEFT_FATBIN_HEADER_BYTES)
		return bad(err, 0, "header: %zu bytes are readable, the header needs %u", p ? avail : 0,
			   WEFT_FATBIN_HEADER_BYTES);
	if (rd32(p) != WEFT_FATBIN_MAGIC)
		return bad(err, 0, "header: magic 0x%08x is not 0x%08x (is this nvcc's fatbinary?)", rd32(p),
			   WEFT_FATBIN_MAGIC);
	if (rd16(p + 4) != 1)
		return bad(err, 4, "header: version %u is not 1, the one weft reads", rd16(p + 4));
	uint64_t hs = rd16(p + 6), size = rd64(p + 8);
	if (hs < WEFT_FATBIN_HEADER_BYTES || hs > avail)
		return bad(err, 6, "header: header size %" PRIu64 " is below %u or past the %zu readable bytes", hs,
			   WEFT_FATBIN_HEADER_BYTES, avail);
	if (size > WEFT_FATBIN_MAX_BYTES || size > avail - hs)
		return bad(err, 8, "header: %" PRIu64 " bytes of entries do not fit in the %" PRIu64
			   " readable bytes or weft's cap of 1 GiB", size, (uint64_t)avail - hs);
	uint64_t off = hs, end = hs + size;
	uint32_t cap = 0;
	while (off < end) {
		if (out->nentries == WEFT_FATBIN_MAX_ENTRIES) {
			weft_fatbin_free(out);
			return bad(err, off, "more than %u entries (weft's cap)", WEFT_FATBIN_MAX_ENTRIES);
		}
		if (out->nentries == cap) {
			cap = cap ? cap * 2 : 8;
			struct weft_fatbin_entry *e = realloc(out->entries, cap * sizeof(*e));
			if (!e) {
				weft_fatbin_free(out);
				return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading a fatbinary");
			}
			out->entries = e;
		}
		uint64_t next = end;
		int rc = parse_entry(p, off, end, out->nentries, &out->entries[out->nentries], &next, err);
		if (rc) {
			weft_fatbin_free(out);
			return rc;
		}
		out->nentries++;
		off = next;
	}
	out->bytes = end;
	return 0;
}

/* ", sm_75, sm_80" of the entries of kind k (arch > above only) into buf. */
static void list_archs(const struct weft_fatbin *f, uint16_t kind, uint32_t above, const char *prefix,
		       char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < f->nentries && n + 1 < len; i++) {
		if (f->entries[i].kind != kind || f->entries[i].arch <= above)
			continue;
		int w = snprintf(buf + n, len - n, "%s%s%u", n ? ", " : "", prefix, f->entries[i].arch);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
}

int weft_fatbin_pick_ptx(const struct weft_fatbin *f, uint32_t cc, struct weft_error *err)
{
	int best = -1;
	for (uint32_t i = 0; i < f->nentries; i++) {
		const struct weft_fatbin_entry *e = &f->entries[i];
		if (e->kind == WEFT_FATBIN_KIND_PTX && e->arch <= cc &&
		    (best < 0 || e->arch > f->entries[best].arch))
			best = (int)i;
	}
	if (best >= 0)
		return best;
	char ptx[200], elf[200];
	list_archs(f, WEFT_FATBIN_KIND_PTX, 0, "compute_", ptx, sizeof(ptx));
	list_archs(f, WEFT_FATBIN_KIND_ELF, 0, "sm_", elf, sizeof(elf));
	if (ptx[0])
		weft_error_set(err, WEFT_ERR_INPUT,
			       "the fatbinary has PTX only for %s, newer than compute capability %u.%u; "
			       "rebuild with nvcc -arch=compute_%u or lower",
			       ptx, cc / 10, cc % 10, cc);
	else if (elf[0])
		weft_error_set(err, WEFT_ERR_INPUT,
			       "the fatbinary has no PTX, only machine code (%s), which weft cannot run; "
			       "rebuild with nvcc -arch=compute_75 (or -gencode arch=compute_75,code=compute_75) "
			       "so that it embeds PTX",
			       elf);
	else
		weft_error_set(err, WEFT_ERR_INPUT, "the fatbinary has no PTX (%u entries, none of them PTX or machine code)",
			       f->nentries);
	return -1;
}

/* text[0..n) up to its first NUL, as a malloc'd string. */
static int take_text(const char *src, size_t n, char **text, size_t *len, struct weft_error *err)
{
	const char *nul = memchr(src, 0, n);
	if (nul)
		n = (size_t)(nul - src);
	char *t = malloc(n + 1);
	if (!t)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu bytes of PTX", n);
	memcpy(t, src, n);
	t[n] = 0;
	*text = t;
	*len = n;
	return 0;
}

int weft_fatbin_ptx_text(const void *data, const struct weft_fatbin *f, uint32_t i, char **text,
			 size_t *len, struct weft_error *err)
{
	*text = NULL;
	*len = 0;
	if (i >= f->nentries || f->entries[i].kind != WEFT_FATBIN_KIND_PTX)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "fatbinary entry %u is not PTX", i);
	const struct weft_fatbin_entry *e = &f->entries[i];
	const char *src = (const char *)data + e->offset;
	if (e->compression == WEFT_FATBIN_PLAIN)
		return take_text(src, (size_t)e->stored, text, len, err);
	if (e->compression == WEFT_FATBIN_NVLZ)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "the PTX for compute_%u is compressed in NVIDIA's LZ format (fatbinary "
				      "flag 0x2000, what nvcc --compress-mode=speed writes), which weft does not "
				      "decompress; rebuild with nvcc --compress-mode=none (or the default, "
				      "balance, whose zstd weft reads)",
				      e->arch);
	if (e->raw_bytes == 0 || e->raw_bytes > WEFT_FATBIN_MAX_PTX_BYTES) {
		weft_error_set(err, WEFT_ERR_INPUT,
			       "fatbinary corrupt at byte offset %" PRIu64 ": the zstd-compressed PTX for compute_%u "
			       "declares %" PRIu64 " bytes uncompressed, outside 1..%llu (weft's cap)",
			       e->offset, e->arch, e->raw_bytes, (unsigned long long)WEFT_FATBIN_MAX_PTX_BYTES);
		if (err)
			err->offset = (int64_t)e->offset;
		return WEFT_ERR_INPUT;
	}
	unsigned long long fcs = ZSTD_getFrameContentSize(src, (size_t)e->stored);
	if (fcs == ZSTD_CONTENTSIZE_ERROR || (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != e->raw_bytes)) {
		weft_error_set(err, WEFT_ERR_INPUT,
			       "fatbinary corrupt at byte offset %" PRIu64 ": the PTX for compute_%u is flagged as "
			       "zstd-compressed (0x8000) but %s",
			       e->offset, e->arch,
			       fcs == ZSTD_CONTENTSIZE_ERROR ? "is not a zstd frame"
							     : "its frame's size differs from the entry's");
		if (err)
			err->offset = (int64_t)e->offset;
		return WEFT_ERR_INPUT;
	}
	size_t cap = (size_t)e->raw_bytes;
	char *buf = malloc(cap + 1);
	if (!buf)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %zu bytes of PTX", cap);
	size_t got = ZSTD_decompress(buf, cap, src, (size_t)e->stored);
	if (ZSTD_isError(got) || got != cap) {
		weft_error_set(err, WEFT_ERR_INPUT,
			       "fatbinary corrupt at byte offset %" PRIu64 ": the zstd-compressed PTX for compute_%u "
			       "%s%s (%zu of %zu bytes)",
			       e->offset, e->arch, ZSTD_isError(got) ? "does not decompress: " : "decompresses short",
			       ZSTD_isError(got) ? ZSTD_getErrorName(got) : "", ZSTD_isError(got) ? (size_t)0 : got,
			       cap);
		if (err)
			err->offset = (int64_t)e->offset;
		free(buf);
		return WEFT_ERR_INPUT;
	}
	int rc = take_text(buf, cap, text, len, err);
	free(buf);
	return rc;
}
