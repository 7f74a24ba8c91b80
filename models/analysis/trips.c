/*
 * trips.c - loop trip counts measured on traced thread paths (analysis.h).
 *
 * A thread's path is its sequence of basic blocks. The loops it is inside
 * always form a chain of nested loops (the ancestors of the innermost loop
 * of its current block), so one small stack per thread tracks every open
 * loop entry: entering a loop opens an entry, each later arrival at the
 * header counts one more visit, and moving to a block outside the loop (or
 * the end of the path) closes the entry and records its trip count. The
 * trip count is the number of header visits, so a loop whose body runs k
 * times with the exit test at the header counts k + 1, and a do-while loop
 * (exit test in the latch) counts k: docs/analysis.md.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "trace/format/trace.h"

int weft_trips_init(struct weft_trips *t, const struct weft_loops *l, struct weft_error *err)
{
	memset(t, 0, sizeof(*t));
	t->loops = l;
	t->stat = calloc(l->nloops + 1, sizeof(*t->stat));
	t->stk = malloc((l->nloops + 1) * sizeof(*t->stk));
	t->stk_visits = malloc((l->nloops + 1) * sizeof(*t->stk_visits));
	if (!t->stat || !t->stk || !t->stk_visits) {
		weft_trips_free(t);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for trip counts");
	}
	return 0;
}

static unsigned log2_bucket(uint64_t v)
{
	unsigned k = 0;
	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k < WEFT_TRIP_BUCKETS ? k : WEFT_TRIP_BUCKETS - 1;
}

static void record(struct weft_trips *t, uint32_t li, uint64_t v)
{
	struct weft_trip_stat *s = &t->stat[li];
	if (s->entries == 0 || v < s->min)
		s->min = v;
	if (s->entries == 0 || v > s->max)
		s->max = v;
	s->entries++;
	s->visits += v;
	s->hist[log2_bucket(v)]++;
	if (s->cta_entries == 0 || v < s->cta_min)
		s->cta_min = v;
	if (s->cta_entries == 0 || v > s->cta_max)
		s->cta_max = v;
	s->cta_entries++;
}

void weft_trips_add_path(struct weft_trips *t, const uint32_t *path, uint32_t n)
{
	const struct weft_loops *l = t->loops;
	t->nstk = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = path[i];
		uint32_t m = b < l->nblocks ? l->innermost[b] : WEFT_NO_LOOP;
		/* close the entries of loops that do not hold b */
		while (t->nstk && (m == WEFT_NO_LOOP || !weft_loop_contains(l, t->stk[t->nstk - 1], b))) {
			t->nstk--;
			record(t, t->stk[t->nstk], t->stk_visits[t->nstk]);
		}
		/* loops still open: another header visit? */
		for (uint32_t k = 0; k < t->nstk; k++)
			if (l->loops[t->stk[k]].header == b)
				t->stk_visits[k]++;
		/* open the loops of b not open yet (ancestors of m below the top) */
		uint32_t top = t->nstk ? t->stk[t->nstk - 1] : WEFT_NO_LOOP;
		uint32_t base = t->nstk;
		for (uint32_t x = m; x != WEFT_NO_LOOP && x != top; x = l->loops[x].parent)
			t->stk[t->nstk++] = x;
		/* reverse the newly pushed part so the stack is outermost first */
		for (uint32_t a = base, z = t->nstk; a + 1 < z; a++, z--) {
			uint32_t tmp = t->stk[a];
			t->stk[a] = t->stk[z - 1];
			t->stk[z - 1] = tmp;
		}
		for (uint32_t k = base; k < t->nstk; k++)
			t->stk_visits[k] = l->loops[t->stk[k]].header == b;
	}
	while (t->nstk) {
		t->nstk--;
		record(t, t->stk[t->nstk], t->stk_visits[t->nstk]);
	}
}

void weft_trips_cta_begin(struct weft_trips *t)
{
	for (uint32_t li = 0; li < t->loops->nloops; li++)
		t->stat[li].cta_entries = 0;
}

void weft_trips_cta_end(struct weft_trips *t)
{
	for (uint32_t li = 0; li < t->loops->nloops; li++) {
		struct weft_trip_stat *s = &t->stat[li];
		if (!s->cta_entries)
			continue;
		s->ctas++;
		if (s->cta_min != s->cta_max)
			s->ctas_varying++;
		s->cta_entries = 0;
	}
}

void weft_trips_add_cta(struct weft_trips *t, const struct weft_cta_trace *c)
{
	weft_trips_cta_begin(t);
	for (uint32_t i = 0; i < c->nthreads; i++)
		weft_trips_add_path(t, c->threads[i].blocks, c->threads[i].nblocks);
	weft_trips_cta_end(t);
}

void weft_trips_reset(struct weft_trips *t)
{
	memset(t->stat, 0, t->loops->nloops * sizeof(*t->stat));
	t->nstk = 0;
}

void weft_trips_merge(struct weft_trips *dst, const struct weft_trips *src)
{
	for (uint32_t li = 0; li < dst->loops->nloops; li++) {
		struct weft_trip_stat *d = &dst->stat[li];
		const struct weft_trip_stat *s = &src->stat[li];
		if (!s->entries)
			continue;
		if (d->entries == 0 || s->min < d->min)
			d->min = s->min;
		if (d->entries == 0 || s->max > d->max)
			d->max = s->max;
		d->entries += s->entries;
		d->visits += s->visits;
		for (int k = 0; k < WEFT_TRIP_BUCKETS; k++)
			d->hist[k] += s->hist[k];
		d->ctas += s->ctas;
		d->ctas_varying += s->ctas_varying;
	}
}

double weft_trip_mean(const struct weft_trip_stat *s)
{
	return s->entries ? (double)s->visits / (double)s->entries : 0.0;
}

void weft_trips_free(struct weft_trips *t)
{
	free(t->stat);
	free(t->stk);
	free(t->stk_visits);
	memset(t, 0, sizeof(*t));
}
