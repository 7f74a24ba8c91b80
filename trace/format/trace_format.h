/*
 * trace_format.h - internal: the on-disk layout of weft trace files (.wtr)
 * and the stream codec shared by the writer (trace_write.c), the reader
 * (trace_read.c) and verify (trace_verify.c). docs/trace-format.md is the
 * specification; this header must match it byte for byte.
 *
 * File: header, records, footer. All integers little-endian.
 *   header (16 B): "WEFTRACE" | u32 version | u32 CRC-32 of the first 12 bytes
 *   record:        u32 tag | u32 payload length | payload | u32 CRC-32 of
 *                  tag, length and payload
 *   footer (16 B): "WTRF" | u64 offset of the INDX record | u32 CRC-32 of
 *                  the first 12 footer bytes
 * Records: LNCH (launch: geometry + static program) when a launch begins,
 * CHNK (zstd-compressed whole CTAs) as CTAs finish, LEND (launch counts) when
 * it ends, INFO (workload, size, host baseline) and INDX (index) at commit.
 */
#ifndef WEFT_TRACE_FORMAT_H
#define WEFT_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/error.h"
#include "trace/ptx/program.h"

#define WT_MAGIC "WEFTRACE"
#define WT_HEADER_BYTES 16
#define WT_FOOTER_BYTES 16
#define WT_REC_OVERHEAD 12 /* tag + length + CRC */
#define WT_TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define WT_TAG_LNCH WT_TAG('L', 'N', 'C', 'H')
#define WT_TAG_CHNK WT_TAG('C', 'H', 'N', 'K')
#define WT_TAG_LEND WT_TAG('L', 'E', 'N', 'D')
#define WT_TAG_INFO WT_TAG('I', 'N', 'F', 'O')
#define WT_TAG_INDX WT_TAG('I', 'N', 'D', 'X')
#define WT_TAG_FOOT WT_TAG('W', 'T', 'R', 'F')

/* A chunk is closed once its raw (uncompressed) payload reaches this many
 * bytes: large enough that zstd finds the repetition between threads and
 * the per-record overhead vanishes, small enough that a reader holding a
 * few decoded chunks stays small. */
#define WT_CHUNK_TARGET (256u * 1024u)
/* ... or once its decoded form (what a reader holds: 4 bytes per path
 * block, 1 per guard, 13 per address) reaches this: highly predictable
 * traces compress so well that 256 KiB of payload could decode into
 * hundreds of MiB; 2 MiB keeps a decoded chunk in a core's L2 cache while
 * another thread decodes the next (measured: 8 MiB chunks made two threads
 * slower than one). */
#define WT_CHUNK_DECODED_TARGET (2u * 1024u * 1024u)

/* CHNK payload: u32 launch | u32 first CTA | u32 CTA count | u32 raw bytes |
 * zstd frame of the raw payload. Raw payload: per CTA (u32 linear CTA id,
 * u32 path bytes, u32 guard bytes, u32 address bytes, u32 space bytes), then
 * all CTAs' path streams, then all guard streams, all address streams, all
 * space streams. */
#define WT_CHUNK_HDR 16
#define WT_CTA_ENTRY 20

/* The most a zstd frame can expand: a block holds at most 128 KiB and
 * takes at least 4 bytes (a 3-byte header and one byte of an RLE block;
 * RFC 8878 3.1.1.2), so n compressed bytes decode to at most n * 32768.
 * A raw length recorded in the file is checked against it before it sizes
 * an allocation. */
#define WT_ZSTD_MAX_EXPANSION 32768u

/* LNCH: the program is the one of an earlier launch (its index) or follows
 * (WT_NO_REF, then u32 raw length and a zstd frame). */
#define WT_NO_REF 0xffffffffu

/* Path codes after a two-successor block. */
#define WT_PATH_SUCC0 0
#define WT_PATH_SUCC1 1
#define WT_PATH_ESCAPE 2 /* followed by varint block index */

/* ---- CRC-32 (IEEE 802.3 polynomial, reflected, as zlib's crc32) ---- */
uint32_t weft_trace_crc32(uint32_t crc, const void *buf, size_t len);
/* Every check of a stored CRC-32 goes through this. The fuzz build (`make
 * fuzz`, tests/fuzz/README.md) compiles the library with -DWEFT_FUZZ_NO_CRC,
 * which accepts any stored value, so that mutated bytes reach the parsers
 * and decoders behind the checksums as a hostile file with correct
 * checksums would; build/libweft.a is never compiled with it. */
static inline int wt_crc_ok(uint32_t computed, uint32_t stored)
{
#ifdef WEFT_FUZZ_NO_CRC
	(void)computed;
	(void)stored;
	return 1;
#else
	return computed == stored;
#endif
}

/* ---- little-endian scalars ---- */
static inline void wt_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void wt_put64(uint8_t *p, uint64_t v)
{
	wt_put32(p, (uint32_t)v);
	wt_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t wt_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t wt_get64(const uint8_t *p)
{
	return (uint64_t)wt_get32(p) | (uint64_t)wt_get32(p + 4) << 32;
}
static inline uint64_t wt_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t wt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* ---- growable byte buffer (writer side) ---- */
struct wt_buf {
	uint8_t *p;
	size_t n, cap;
	int oom;
};
int weft_trace_buf_reserve(struct wt_buf *b, size_t more);
/* The same, with the common case (room already there) inline. */
static inline int wt_buf_reserve(struct wt_buf *b, size_t more)
{
	if (b->n + more <= b->cap && !b->oom)
		return 0;
	return weft_trace_buf_reserve(b, more);
}
static inline void wt_buf_u8(struct wt_buf *b, uint8_t v)
{
	if (b->n + 1 > b->cap && weft_trace_buf_reserve(b, 1))
		return;
	b->p[b->n++] = v;
}
static inline void wt_buf_varint(struct wt_buf *b, uint64_t v)
{
	if (b->n + 10 > b->cap && weft_trace_buf_reserve(b, 10))
		return;
	while (v >= 0x80) {
		b->p[b->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->n++] = (uint8_t)v;
}
void weft_trace_buf_bytes(struct wt_buf *b, const void *src, size_t len);
/* Appends `times` more copies of the bytes b got since start (the last
 * thread's stream bytes, for threads whose bytes are the same); -1 when b
 * cannot grow (b->oom set). */
int weft_trace_buf_repeat(struct wt_buf *b, size_t start, size_t times);
void weft_trace_buf_u32(struct wt_buf *b, uint32_t v);
void weft_trace_buf_u64(struct wt_buf *b, uint64_t v);
void weft_trace_buf_str(struct wt_buf *b, const char *s); /* u32 length (0xffffffff = NULL) + bytes */
void weft_trace_buf_free(struct wt_buf *b);

/* ---- bounded reader over a byte range ---- */
struct wt_rd {
	const uint8_t *p, *end;
	int bad; /* set on any read past the end or malformed varint */
};
static inline uint64_t wt_rd_varint(struct wt_rd *r)
{
	uint64_t v = 0;
	for (unsigned s = 0; s < 64; s += 7) {
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		uint8_t c = *r->p++;
		v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}
static inline uint8_t wt_rd_u8(struct wt_rd *r)
{
	if (r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	return *r->p++;
}
uint32_t weft_trace_rd_u32(struct wt_rd *r);
uint64_t weft_trace_rd_u64(struct wt_rd *r);
/* Returns a malloc'd copy (NULL for a stored NULL); sets bad on overrun. */
char *weft_trace_rd_str(struct wt_rd *r);

/* ---- static tables of a program used by the codec ---- */
struct wt_ev {      /* an instruction of a block whose trace data is stored */
	uint32_t m;     /* memory-instruction index (ADDR), else UINT32_MAX */
	uint8_t flags;  /* WEFT_II_ADDR | WEFT_II_GUARD */
	uint8_t space;  /* static state space */
};
struct wt_tab {
	uint32_t nblocks, nm;
	uint32_t *ev_start;   /* [nblocks+1] into ev */
	struct wt_ev *ev;
	uint32_t *nguard;     /* [nblocks] guard bits per visit */
	uint8_t *nsucc;       /* [nblocks] */
	uint32_t (*succ)[2];  /* [nblocks] */
	uint32_t *mem_of_pc;  /* [ninsts] m or UINT32_MAX */
	uint8_t *mspace;      /* [nm] static space of memory instruction m */
	uint8_t *pc_flags;    /* [ninsts] bit 0x80: first pc of a block; WEFT_II_* */
};
int weft_trace_tab_build(struct wt_tab *t, const struct weft_program *p);
void weft_trace_tab_free(struct wt_tab *t);

/* ---- address predictor (docs/trace-format.md "Address prediction") ----
 * For access i of a thread, by memory instruction m:
 *  - m's first access in this thread: the last thread's first access by m
 *    plus the stride between the last two threads' first accesses (tid
 *    stride), 0 for the first thread of a CTA;
 *  - else, with k this thread's previous access by m: when the previous
 *    thread's accesses i and k were by m too (the threads' access sequences
 *    line up), this thread's k plus the previous thread's step from k to i
 *    (the loop stride the previous thread took at this point);
 *  - else this thread's k plus m's last loop stride.
 * State resets at every CTA; all arrays are indexed by access number. */
#define WT_NONE 0xffffffffu
struct wt_pred {
	uint32_t nm;
	uint32_t *last;     /* [nm] this thread's previous access by m, or WT_NONE */
	uint64_t *f, *d0;   /* m's last first-access address and its tid stride */
	uint64_t *ls;       /* m's last loop stride */
	uint8_t *has_f;
	uint8_t *lastsp;    /* m's last resolved space */
	const uint64_t *pa; /* previous thread's addresses and instructions */
	const uint32_t *pm;
	uint32_t pn;
};
int weft_trace_pred_init(struct wt_pred *s, uint32_t nm);
void weft_trace_pred_free(struct wt_pred *s);
void weft_trace_pred_cta(struct wt_pred *s);
/* ca/cm: this thread's addresses and instructions so far ([0..n)). */
static inline void wt_pred_thread(struct wt_pred *s)
{
	memset(s->last, 0xff, (size_t)s->nm * sizeof(uint32_t));
}
static inline void wt_pred_thread_end(struct wt_pred *s, const uint64_t *ca, const uint32_t *cm, uint32_t n)
{
	s->pa = ca;
	s->pm = cm;
	s->pn = n;
}
static inline uint64_t wt_pred_addr(const struct wt_pred *s, const uint64_t *ca, uint32_t i, uint32_t m)
{
	uint32_t k = s->last[m];
	if (k == WT_NONE)
		return s->f[m] + s->d0[m];
	if (i < s->pn && s->pm[i] == m && s->pm[k] == m)
		return ca[k] + (s->pa[i] - s->pa[k]);
	return ca[k] + s->ls[m];
}
static inline void wt_pred_update(struct wt_pred *s, const uint64_t *ca, uint32_t i, uint32_t m, uint64_t a)
{
	uint32_t k = s->last[m];
	if (k == WT_NONE) {
		s->d0[m] = s->has_f[m] ? a - s->f[m] : 0;
		s->f[m] = a;
		s->has_f[m] = 1;
	} else {
		s->ls[m] = a - ca[k];
	}
	s->last[m] = i;
}
/* ---- the predictor's fast path, shared by writer and reader ----
 * When a thread makes the same sequence of memory instructions as the
 * previous thread, every access lines up and rule 2 (or rule 1 for first
 * accesses) reduces to "the previous thread's address plus D[m]", where
 * D[m] starts at m's tid stride and only changes where a residual is
 * nonzero. Same predictions as wt_pred_addr, with no bookkeeping per access;
 * f and ls are brought up to date lazily (weft_trace_fast_flush) before the next
 * thread that needs the general predictor. */
struct wt_fast {
	uint32_t nm;
	uint32_t *first, *l1, *l2; /* [nm] for the current sequence: first, last, second-to-last access by m */
	uint32_t *used;            /* the m that occur */
	uint32_t nused;
	uint64_t *D;               /* [nm] */
	uint8_t *sp;               /* [nm] scratch: predicted space per m */
	int seq_valid;             /* the tables describe the previous thread's sequence */
	int lazy;                  /* fast-path threads ran since the last flush */
	int d_dirty;               /* D may differ from the predictor's d0 */
};
int weft_trace_fast_init(struct wt_fast *f, uint32_t nm);
void weft_trace_fast_free(struct wt_fast *f);
/* New CTA (after weft_trace_pred_cta). */
static inline void wt_fast_cta(struct wt_fast *f)
{
	f->seq_valid = 0;
	f->lazy = 0;
	f->d_dirty = 1;
}
/* Before a fast-path thread: pm/pn are the previous thread's (and this
 * one's) memory instructions. */
void weft_trace_fast_setup(struct wt_fast *f, const struct wt_pred *s);
static inline void weft_trace_fast_begin(struct wt_fast *f, const struct wt_pred *s)
{
	/* usually nothing to do (the same sequence, D untouched): inline,
	 * as a call it cost 45 instructions a thread (callgrind, writing
	 * gaussian at default size: 29.0M in 645185 calls) */
	if (f->seq_valid && !f->d_dirty) {
		f->lazy = 1;
		return;
	}
	weft_trace_fast_setup(f, s);
}
/* A nonzero residual at access i: a is the actual address. */
static inline void wt_fast_fix(struct wt_fast *f, struct wt_pred *s, uint32_t i, uint32_t m, uint64_t a)
{
	f->D[m] = a - s->pa[i];
	f->d_dirty = 1;
	if (i == f->first[m]) /* a new tid stride */
		s->d0[m] = f->D[m];
}
/* Before a general-path thread. */
void weft_trace_fast_flush(struct wt_fast *f, struct wt_pred *s);

/* Predicted resolved space: the static one, or for generic accesses the
 * last one m resolved to (global at the start of a CTA). */
static inline uint8_t wt_pred_space(const struct wt_pred *s, uint32_t m, uint8_t stat)
{
	return stat != 0 ? stat : s->lastsp[m];
}

/* ---- the static program inside a LNCH record (trace_progio.c) ---- */
int weft_trace_program_write(struct wt_buf *b, const struct weft_program *p);
/* 0, WEFT_ERR_NOMEM, or WEFT_ERR_VERIFY with why filled (caller sets why[0] = 0). */
int weft_trace_program_read(struct wt_rd *r, struct weft_program **out, char *why, size_t whylen);

#endif
