/*
 * fatbin.h - the fatbinary nvcc embeds in a program: its entries, and the
 * PTX of one of them.
 *
 * A program compiled by nvcc holds, per translation unit, a wrapper
 * (__fatBinC_Wrapper_t, CUDA's fatbinary_section.h: magic FATBINC_MAGIC,
 * version, a pointer to the fatbinary) that its startup code passes to
 * __cudaRegisterFatBinary. The fatbinary itself is not described by a
 * CUDA header; its layout, as weft reads it, is
 *
 *   header, 16 bytes:  u32 magic 0xBA55ED50, u16 version 1,
 *                      u16 header size (16), u64 bytes of entries that follow
 *   entry header:      u16 kind (1 PTX, 2 ELF), u16 version,
 *                      u32 entry header size (64 or more),
 *                      u64 payload bytes (padded to 8) following the entry header,
 *                      u32 stored bytes when compressed (at 16),
 *                      u32 arch, e.g. 75 for compute_75 / sm_75 (at 28),
 *                      u64 flags (at 40): 0x2000 compressed with NVIDIA's
 *                      own LZ format, 0x8000 compressed with zstd,
 *                      u64 uncompressed bytes (at 56) when compressed
 *   payload:           the PTX text or ELF image, or its compressed form
 *
 * read from the output of nvcc 13.0 (`nvcc -keep`, the NAME.fatbin it
 * writes, under each --compress-mode), and matching two public
 * descriptions: n-eiling/cuda-fatbin-decompression (fatbin-decompress.h,
 * struct fat_text_header; the 0x2000 LZ format) and
 * GrigoryEvko/nvopen-tools (fatbin/FORMAT_SPECIFICATION.md; the 0x8000
 * zstd flag). All fields are little-endian.
 *
 * A fatbinary is user input: every length and offset is checked against
 * the bytes the caller says are there (the loaded segment holding it)
 * before it is used, and against the caps below.
 */
#ifndef WEFT_FATBIN_H
#define WEFT_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define WEFT_FATBIN_MAGIC 0xBA55ED50u   /* the fatbinary header (nvcc 13.0 output) */
#define WEFT_FATBIN_HEADER_BYTES 16u    /* its size, and the header-size field's value */
#define WEFT_FATBIN_ENTRY_MIN_BYTES 64u /* the smallest entry header (nvcc 13.0: 64 or 80) */
/* The wrapper nvcc's host code passes to __cudaRegisterFatBinary:
 * FATBINC_MAGIC and FATBINC_VERSION of CUDA's fatbinary_section.h;
 * version 2 (FATBINC_LINK_VERSION) is relocatable device code. */
#define WEFT_FATBIN_WRAPPER_MAGIC 0x466243B1u
#define WEFT_FATBIN_WRAPPER_VERSION 1u
#define WEFT_FATBIN_WRAPPER_LINK_VERSION 2u

#define WEFT_FATBIN_KIND_PTX 1u
#define WEFT_FATBIN_KIND_ELF 2u
#define WEFT_FATBIN_FLAG_NVLZ 0x2000u   /* nvcc --compress-mode=speed */
#define WEFT_FATBIN_FLAG_ZSTD 0x8000u   /* nvcc's default (balance) and size modes */

/* weft's caps (not the format's): a fatbinary of more than 1 GiB, more
 * than 4096 entries, or an entry header of more than 4 KiB is refused;
 * a PTX text may decompress to at most 256 MiB (the largest PTX the
 * bundled workloads have is under 100 KB; a library's fatbinary of
 * thousands of kernels stays far below). */
#define WEFT_FATBIN_MAX_BYTES (1ull << 30)
#define WEFT_FATBIN_MAX_ENTRIES 4096u
#define WEFT_FATBIN_MAX_ENTRY_HEADER 4096u
#define WEFT_FATBIN_MAX_PTX_BYTES (256ull << 20)

enum weft_fatbin_compression {
	WEFT_FATBIN_PLAIN = 0,
	WEFT_FATBIN_ZSTD,
	WEFT_FATBIN_NVLZ,
};

struct weft_fatbin_entry {
	uint16_t kind;        /* WEFT_FATBIN_KIND_* (others are kept and skipped) */
	uint32_t arch;        /* 75 for compute_75 / sm_75 */
	uint64_t flags;
	uint64_t offset;      /* of the payload, from the start of the fatbinary */
	uint64_t stored;      /* payload bytes that hold data (<= the padded size) */
	uint64_t raw_bytes;   /* uncompressed size; 0 when not compressed */
	enum weft_fatbin_compression compression;
};

struct weft_fatbin {
	uint64_t bytes;       /* header and entries */
	uint32_t nentries;
	struct weft_fatbin_entry *entries;
};

/* Reads the fatbinary at data, of which avail bytes are readable. Returns
 * 0, or WEFT_ERR_INPUT with err->offset at the offending byte (from data)
 * and a message naming the field; WEFT_ERR_NOMEM. out is zeroed on
 * failure; free it with weft_fatbin_free. */
int weft_fatbin_parse(const void *data, size_t avail, struct weft_fatbin *out,
		      struct weft_error *err);
void weft_fatbin_free(struct weft_fatbin *f);

/* The PTX entry for a device of compute capability cc (90 for 9.0): the
 * one of the highest arch not above cc. Returns its index, or -1 with err
 * (WEFT_ERR_INPUT) saying what the fatbinary holds instead (no PTX at all,
 * only machine code for sm_XX, or PTX only for newer devices) and which
 * nvcc flags embed PTX. */
int weft_fatbin_pick_ptx(const struct weft_fatbin *f, uint32_t cc, struct weft_error *err);

/* The text of PTX entry i, decompressed when it was compressed with zstd,
 * up to its first NUL byte, as a malloc'd NUL-terminated string (*len
 * bytes before the NUL). data is what weft_fatbin_parse read. An entry
 * compressed with NVIDIA's LZ format is refused (WEFT_ERR_INPUT naming the
 * flag and the nvcc option that avoids it). */
int weft_fatbin_ptx_text(const void *data, const struct weft_fatbin *f, uint32_t i, char **text,
			 size_t *len, struct weft_error *err);

#endif
