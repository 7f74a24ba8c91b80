/*
 * trace_codec.c - helpers shared by the trace writer, reader and verifier
 * (trace_format.h): CRC-32, byte buffers, bounded reads, the per-program
 * codec tables and the address predictor.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace_format.h"

/* ---- CRC-32, slicing by 4 ---- */
static uint32_t crc_tab[4][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 4; t++)
			crc_tab[t][i] = crc_tab[0][crc_tab[t - 1][i] & 0xff] ^ (crc_tab[t - 1][i] >> 8);
}

uint32_t weft_trace_crc32(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc_init); /* decoder threads may race to the first call */
	const uint8_t *p = buf;
	uint32_t c = ~crc;
	while (len >= 4) {
		c ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		c = crc_tab[3][c & 0xff] ^ crc_tab[2][(c >> 8) & 0xff] ^ crc_tab[1][(c >> 16) & 0xff] ^
		    crc_tab[0][c >> 24];
		p += 4;
		len -= 4;
	}
	while (len--)
		c = crc_tab[0][(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

/* ---- buffers ---- */
int weft_trace_buf_reserve(struct wt_buf *b, size_t more)
{
	if (b->oom)
		return -1;
	if (b->n + more <= b->cap)
		return 0;
	size_t nc = b->cap ? b->cap : 256;
	while (nc < b->n + more)
		nc *= 2;
	uint8_t *np = realloc(b->p, nc);
	if (!np) {
		b->oom = 1;
		return -1;
	}
	b->p = np;
	b->cap = nc;
	return 0;
}

void weft_trace_buf_bytes(struct wt_buf *b, const void *src, size_t len)
{
	if (weft_trace_buf_reserve(b, len))
		return;
	if (len)
		memcpy(b->p + b->n, src, len);
	b->n += len;
}

int weft_trace_buf_repeat(struct wt_buf *b, size_t start, size_t times)
{
	size_t len = b->n - start;
	if (!len || !times)
		return b->oom ? -1 : 0;
	if (times > ((size_t)-1 / 2 - b->n) / len) {
		b->oom = 1;
		return -1;
	}
	size_t total = len * times;
	if (weft_trace_buf_reserve(b, total))
		return -1;
	/* doubling: each copy takes everything from start so far, a whole
	 * number of copies of the piece (about log2(times) memcpy calls, not
	 * times); source and destination never overlap */
	uint8_t *src = b->p + start, *dst = b->p + b->n;
	size_t done = 0;
	while (done < total) {
		size_t c = len + done;
		if (c > total - done)
			c = total - done;
		memcpy(dst + done, src, c);
		done += c;
	}
	b->n += total;
	return 0;
}

void weft_trace_buf_u32(struct wt_buf *b, uint32_t v)
{
	if (weft_trace_buf_reserve(b, 4))
		return;
	wt_put32(b->p + b->n, v);
	b->n += 4;
}

void weft_trace_buf_u64(struct wt_buf *b, uint64_t v)
{
	if (weft_trace_buf_reserve(b, 8))
		return;
	wt_put64(b->p + b->n, v);
	b->n += 8;
}

void weft_trace_buf_str(struct wt_buf *b, const char *s)
{
	if (!s) {
		weft_trace_buf_u32(b, 0xffffffffu);
		return;
	}
	size_t n = strlen(s);
	weft_trace_buf_u32(b, (uint32_t)n);
	weft_trace_buf_bytes(b, s, n);
}

void weft_trace_buf_free(struct wt_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

uint32_t weft_trace_rd_u32(struct wt_rd *r)
{
	if (r->end - r->p < 4) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	uint32_t v = wt_get32(r->p);
	r->p += 4;
	return v;
}

uint64_t weft_trace_rd_u64(struct wt_rd *r)
{
	if (r->end - r->p < 8) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	uint64_t v = wt_get64(r->p);
	r->p += 8;
	return v;
}

char *weft_trace_rd_str(struct wt_rd *r)
{
	uint32_t n = weft_trace_rd_u32(r);
	if (r->bad || n == 0xffffffffu)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	char *s = malloc((size_t)n + 1);
	if (!s) {
		r->bad = 2;
		return NULL;
	}
	memcpy(s, r->p, n);
	s[n] = 0;
	r->p += n;
	return s;
}

/* ---- codec tables ---- */
void weft_trace_tab_free(struct wt_tab *t)
{
	free(t->ev_start);
	free(t->ev);
	free(t->nguard);
	free(t->nsucc);
	free(t->succ);
	free(t->mem_of_pc);
	free(t->pc_flags);
	free(t->mspace);
	memset(t, 0, sizeof(*t));
}

int weft_trace_tab_build(struct wt_tab *t, const struct weft_program *p)
{
	memset(t, 0, sizeof(*t));
	uint32_t nb = p->nblocks, n = p->ninsts;
	t->nblocks = nb;
	t->ev_start = calloc((size_t)nb + 1, sizeof(uint32_t));
	t->nguard = calloc((size_t)nb + 1, sizeof(uint32_t));
	t->nsucc = calloc((size_t)nb + 1, 1);
	t->succ = calloc((size_t)nb + 1, sizeof(*t->succ));
	t->mem_of_pc = malloc(((size_t)n + 1) * sizeof(uint32_t));
	t->pc_flags = calloc((size_t)n + 1, 1);
	uint32_t nev = 0;
	for (uint32_t i = 0; i < n; i++)
		nev += (p->info[i].flags & (WEFT_II_ADDR | WEFT_II_GUARD)) != 0;
	t->ev = calloc((size_t)nev + 1, sizeof(*t->ev));
	if (!t->ev_start || !t->nguard || !t->nsucc || !t->succ || !t->mem_of_pc || !t->pc_flags || !t->ev) {
		weft_trace_tab_free(t);
		return -1;
	}
	uint32_t k = 0;
	for (uint32_t b = 0; b < nb; b++) {
		const struct weft_block *B = &p->blocks[b];
		t->ev_start[b] = k;
		t->nsucc[b] = (uint8_t)B->nsucc;
		t->succ[b][0] = B->succ[0];
		t->succ[b][1] = B->succ[1];
		for (uint32_t i = B->first; i < B->first + B->count; i++) {
			const struct weft_inst_info *ii = &p->info[i];
			t->mem_of_pc[i] = UINT32_MAX;
			t->pc_flags[i] = ii->flags & (WEFT_II_ADDR | WEFT_II_GUARD);
			if (i == B->first)
				t->pc_flags[i] |= 0x80;
			if (!(ii->flags & (WEFT_II_ADDR | WEFT_II_GUARD)))
				continue;
			struct wt_ev *e = &t->ev[k++];
			e->flags = ii->flags & (WEFT_II_ADDR | WEFT_II_GUARD);
			e->space = ii->space;
			e->m = UINT32_MAX;
			if (ii->flags & WEFT_II_ADDR)
				e->m = t->mem_of_pc[i] = t->nm++;
			if (ii->flags & WEFT_II_GUARD)
				t->nguard[b]++;
		}
	}
	t->ev_start[nb] = k;
	t->mspace = calloc((size_t)t->nm + 1, 1);
	if (!t->mspace) {
		weft_trace_tab_free(t);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (t->mem_of_pc[i] != UINT32_MAX)
			t->mspace[t->mem_of_pc[i]] = p->info[i].space;
	return 0;
}

/* ---- predictor ---- */
int weft_trace_pred_init(struct wt_pred *s, uint32_t nm)
{
	memset(s, 0, sizeof(*s));
	s->nm = nm;
	size_t k = (size_t)nm + 1;
	s->last = calloc(k, sizeof(uint32_t));
	s->f = calloc(k, sizeof(uint64_t));
	s->d0 = calloc(k, sizeof(uint64_t));
	s->ls = calloc(k, sizeof(uint64_t));
	s->has_f = calloc(k, 1);
	s->lastsp = calloc(k, 1);
	if (!s->last || !s->f || !s->d0 || !s->ls || !s->has_f || !s->lastsp) {
		weft_trace_pred_free(s);
		return -1;
	}
	return 0;
}

void weft_trace_pred_free(struct wt_pred *s)
{
	free(s->last);
	free(s->f);
	free(s->d0);
	free(s->ls);
	free(s->has_f);
	free(s->lastsp);
	memset(s, 0, sizeof(*s));
}

void weft_trace_pred_cta(struct wt_pred *s)
{
	for (uint32_t m = 0; m < s->nm; m++) {
		s->f[m] = 0;
		s->d0[m] = 0;
		s->ls[m] = 0;
		s->has_f[m] = 0;
		s->lastsp[m] = WEFT_SPACE_GLOBAL;
	}
	s->pa = NULL;
	s->pm = NULL;
	s->pn = 0;
}

/* ---- the predictor's fast path ---- */
int weft_trace_fast_init(struct wt_fast *f, uint32_t nm)
{
	memset(f, 0, sizeof(*f));
	f->nm = nm;
	size_t k = (size_t)nm + 1;
	f->first = malloc(k * 4 * sizeof(uint32_t));
	f->D = calloc(k, sizeof(uint64_t));
	f->sp = calloc(k, 1);
	if (!f->first || !f->D || !f->sp) {
		weft_trace_fast_free(f);
		return -1;
	}
	f->l1 = f->first + k;
	f->l2 = f->first + 2 * k;
	f->used = f->first + 3 * k;
	wt_fast_cta(f);
	return 0;
}

void weft_trace_fast_free(struct wt_fast *f)
{
	free(f->first);
	free(f->D);
	free(f->sp);
	memset(f, 0, sizeof(*f));
}

void weft_trace_fast_setup(struct wt_fast *f, const struct wt_pred *s)
{
	uint32_t nm = f->nm;
	if (!f->seq_valid) {
		memset(f->first, 0xff, (size_t)nm * sizeof(uint32_t));
		memset(f->l1, 0xff, (size_t)nm * sizeof(uint32_t));
		memset(f->l2, 0xff, (size_t)nm * sizeof(uint32_t));
		f->nused = 0;
		for (uint32_t i = 0; i < s->pn; i++) {
			uint32_t m = s->pm[i];
			if (f->first[m] == WT_NONE) {
				f->first[m] = i;
				f->used[f->nused++] = m;
			}
			f->l2[m] = f->l1[m];
			f->l1[m] = i;
		}
		f->seq_valid = 1;
		f->d_dirty = 1;
	}
	if (f->d_dirty) {
		/* only the m of the sequence are read until it changes (and a
		 * new sequence comes here with d_dirty set) */
		for (uint32_t u = 0; u < f->nused; u++)
			f->D[f->used[u]] = s->d0[f->used[u]];
		f->d_dirty = 0;
	}
	f->lazy = 1;
}

void weft_trace_fast_flush(struct wt_fast *f, struct wt_pred *s)
{
	if (f->lazy) {
		/* f and ls as the general predictor would have left them after
		 * the last fast-path thread (s->pa) */
		for (uint32_t u = 0; u < f->nused; u++) {
			uint32_t m = f->used[u];
			s->f[m] = s->pa[f->first[m]];
			s->has_f[m] = 1;
			if (f->l2[m] != WT_NONE)
				s->ls[m] = s->pa[f->l1[m]] - s->pa[f->l2[m]];
		}
		f->lazy = 0;
	}
	f->seq_valid = 0;
	f->d_dirty = 1;
}
