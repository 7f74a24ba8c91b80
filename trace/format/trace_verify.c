/*
 * trace_verify.c - weft_trace_verify (trace.h): checks a whole trace file.
 *
 *  1. Walks the records from the header to the footer in file order,
 *     checking every record's tag, length and CRC-32: the first bad byte
 *     range is reported with its offset (a truncated file fails here, at
 *     the record that runs past the end, or for want of a footer).
 *  2. Opens it as a reader does (footer, index, launch records and their
 *     static programs, which must re-analyse to the stored blocks).
 *  3. Checks that the index lists exactly the chunk records found in step
 *     1, then decodes every CTA of every launch and checks the per-launch
 *     totals (thread instructions, memory accesses) against the LEND
 *     records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_read.h"

struct vctx {
	const struct weft_program *p;
	uint64_t insts, addrs;
};

static int count_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct vctx *v = user;
	for (uint32_t i = 0; i < c->nthreads; i++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		weft_thread_iter_init(&it, v->p, &c->threads[i]);
		while (weft_thread_iter_next(&it, &d))
			v->insts += d.exec;
		v->addrs += c->threads[i].naddrs;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int weft_trace_verify(const char *path, struct weft_error *err)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return weft_error_set(err, e == ENOENT ? WEFT_ERR_INPUT : WEFT_ERR_IO, "cannot open trace %s: %s",
				      path, strerror(e));
	}
	uint64_t fsize = (uint64_t)st.st_size;
	struct wt_buf b = { 0 };
	uint64_t *offs = NULL;
	uint32_t noffs = 0, capoffs = 0;
	struct weft_trace *t = NULL;
	int rc = 0;
	if ((rc = weft_trace_check_header(fd, fsize, path, WEFT_ERR_VERIFY, err)))
		goto out;
	/* 1: records in file order */
	uint64_t off = WT_HEADER_BYTES;
	int footer = 0;
	while (off < fsize) {
		if (fsize - off == WT_FOOTER_BYTES) {
			uint8_t f[WT_FOOTER_BYTES];
			if (pread(fd, f, sizeof(f), (off_t)off) == (ssize_t)sizeof(f) && wt_get32(f) == WT_TAG_FOOT) {
				if (!wt_crc_ok(weft_trace_crc32(0, f, 12), wt_get32(f + 12))) {
					rc = weft_trace_corrupt(err, path, off, "the footer fails its CRC-32 check");
					goto out;
				}
				footer = 1;
				break;
			}
		}
		uint8_t rh[8];
		if (fsize - off < 8 || pread(fd, rh, 8, (off_t)off) != 8) {
			rc = weft_trace_corrupt(err, path, off, "the file ends inside a record header (truncated)");
			goto out;
		}
		uint32_t tag = wt_get32(rh);
		if (tag != WT_TAG_LNCH && tag != WT_TAG_CHNK && tag != WT_TAG_LEND && tag != WT_TAG_INFO &&
		    tag != WT_TAG_INDX) {
			rc = weft_trace_corrupt(err, path, off, "unknown record tag 0x%08x", tag);
			goto out;
		}
		if ((rc = weft_trace_read_record(fd, path, fsize, off, tag, &b, err)))
			goto out;
		if (tag == WT_TAG_CHNK) {
			if (noffs == capoffs) {
				uint32_t nc = capoffs ? capoffs * 2 : 64;
				void *np = realloc(offs, nc * sizeof(uint64_t));
				if (!np) {
					rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory verifying %s", path);
					goto out;
				}
				offs = np;
				capoffs = nc;
			}
			offs[noffs++] = off;
		}
		off += WT_REC_OVERHEAD + b.n;
	}
	if (!footer) {
		rc = weft_trace_corrupt(err, path, fsize, "no footer: the file ends after the last complete record "
				"(truncated, or an interrupted write)");
		goto out;
	}
	/* 2: as a reader opens it */
	if ((rc = weft_trace_open(path, &t, err))) {
		if (rc != WEFT_ERR_NOMEM && rc != WEFT_ERR_IO && err)
			err->code = rc = WEFT_ERR_VERIFY;
		goto out;
	}
	/* 3: index = chunk records; every CTA decodes; totals agree */
	uint64_t *io = malloc(((size_t)t->nchunks + 1) * sizeof(uint64_t));
	if (!io) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory verifying %s", path);
		goto out;
	}
	for (uint32_t i = 0; i < t->nchunks; i++)
		io[i] = t->chunks[i].off;
	qsort(io, t->nchunks, sizeof(uint64_t), cmp_u64);
	int same = t->nchunks == noffs;
	for (uint32_t i = 0; same && i < noffs; i++)
		same = io[i] == offs[i];
	free(io);
	if (!same) {
		rc = weft_trace_corrupt(err, path, fsize - WT_FOOTER_BYTES,
				"the index lists %u chunks but the file holds %u chunk records (or at other offsets)",
				t->nchunks, noffs);
		goto out;
	}
	for (uint32_t l = 0; l < t->nlaunches; l++) {
		const struct weft_trace_launch *L = &t->launches[l].pub;
		uint64_t covered = 0;
		for (uint32_t i = 0; i < L->nchunks; i++)
			covered += t->chunks[t->launches[l].chunk0 + i].ncta;
		if (covered != L->nctas) {
			rc = weft_trace_corrupt(err, path, fsize - WT_FOOTER_BYTES, "launch %u: the index covers %llu of its %u CTAs",
					l, (unsigned long long)covered, L->nctas);
			goto out;
		}
		struct vctx v = { L->program, 0, 0 };
		if ((rc = weft_trace_for_each_cta(t, l, NULL, 1, count_cta, &v, err)))
			goto out;
		if (v.insts != L->thread_insts || v.addrs != L->mem_accesses) {
			rc = weft_trace_corrupt(err, path, fsize - WT_FOOTER_BYTES,
					"launch %u: the CTAs hold %llu thread instructions and %llu accesses, its "
					"launch-end record says %llu and %llu",
					l, (unsigned long long)v.insts, (unsigned long long)v.addrs,
					(unsigned long long)L->thread_insts, (unsigned long long)L->mem_accesses);
			goto out;
		}
	}
out:
	weft_trace_close(t);
	weft_trace_buf_free(&b);
	free(offs);
	close(fd);
	return rc;
}
