/*
 * overlay_steady.c - the overlay scheduler with several batch contexts
 * running one stream: an exact repeat of the machine's whole state is
 * extrapolated instead of timed again (docs/models/overlay.md, "Replay").
 *
 * A regular kernel (matmatmult, sgemm_shader) gives every batch the same
 * records. With few contexts the machine then falls into a cycle: after
 * each generation of batches, every context, the tags, the link and the
 * read port are where they were, relative to the period. The scheduler is
 * deterministic, and what it does from a period on depends only on:
 *   - the batch that issued last (the round robin's start);
 *   - per context: its state, how far into its stream it is, its times
 *     (last ALU instruction, last round trip, the next record's semaphore
 *     while it waits, the round trips its later records may wait on) and
 *     its pending change (a period on the event wheel);
 *   - the read port, both link directions and the outstanding requests'
 *     completions;
 *   - the records of the groups still waiting, in order.
 * It compares times only with each other and with the current period, in
 * whole ticks, so all of this counts relative to the period, and a time
 * already past compares as the period itself does. The state after the
 * starts of a period is recorded as such a key (built below, compared in
 * full, not by hash alone). If the state after the starts of period p2 is
 * the one recorded at p1 < p2, K groups of the reference stream having
 * started in between and none of another, and the next N x K groups
 * waiting are the reference stream too, then timing them would repeat
 * p1..p2 N times over: the machine is moved N x (p2 - p1) periods on (its
 * times and the event wheel with it), N x K groups are taken from the
 * queue, the counters (periods by component, request latencies, tag
 * waits, blocked TEX slots) grow N times what they grew from p1 to p2,
 * and the peak of outstanding requests stays (each repetition's peak is
 * the one already reached). Requests already complete are removed from
 * the tag ring before the key is built (overlay_sched.c removes them
 * lazily; removing them sooner changes no decision and no count).
 *
 * Only states where every context holds the launch's reference stream
 * (the first batch's records, compared in full at each start) are
 * recorded, the last OV_STEADY_SNAPS distinct ones. A launch that has
 * recorded OV_STEADY_GIVE_UP + 8 per context states in a row without a
 * repeat looks no further (with 32 contexts or more the bundled kernels
 * never repeat a state). Kernels whose batches differ (photon) pay a
 * comparison per batch start.
 */
#include <stdlib.h>
#include <string.h>

#include "overlay.h"

#define PERIOD_SHIFT (OV_TICK_SHIFT + 2) /* a period is 4 cycles, as in overlay_sched.c */

void weft_overlay_steady_clear(struct ov_machine *m)
{
	free((void *)m->st_ref);
	m->st_ref = NULL;
	m->st_n = 0;
	m->st_maxd = 0;
	m->started = m->st_odd = m->st_miss = 0;
	for (uint32_t i = 0; i < OV_STEADY_SNAPS; i++) {
		free(m->st[i].key);
		memset(&m->st[i], 0, sizeof(m->st[i]));
	}
	m->st_next = 0;
}

int weft_overlay_steady_same(struct ov_machine *m, const uint32_t *rec, size_t n)
{
	if (!m->st_ref) {
		if (!n || m->nb < 2)
			return 0;
		uint32_t *copy = malloc(n * sizeof(*copy));
		if (!copy)
			return 0; /* no reference: every batch is timed, the result is the same */
		memcpy(copy, rec, n * sizeof(*copy));
		uint32_t maxd = 0;
		for (size_t i = 0; i < n; i++)
			if (OV_R_SEM(rec[i]) > maxd)
				maxd = OV_R_SEM(rec[i]);
		m->st_ref = copy;
		m->st_n = n;
		m->st_maxd = maxd;
		return 1;
	}
	return n == m->st_n && !memcmp(rec, m->st_ref, n * sizeof(*rec));
}

static inline uint64_t rel(uint64_t t, uint64_t now)
{
	return t > now ? t - now : 0;
}

/* Each context's pending change, (periods ahead) << 2 | kind (3: a
 * drained context freeing), 0 when none. */
static int pending(const struct ov_machine *m, uint64_t ev[OV_MAX_BATCHES])
{
	memset(ev, 0, OV_MAX_BATCHES * sizeof(*ev));
	uint32_t k0 = (uint32_t)(m->p % OV_WHEEL);
	for (uint32_t w = 0; w < OV_WHEEL / 64; w++)
		for (uint64_t bits = m->wheel_any[w]; bits; bits &= bits - 1) {
			uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(bits);
			uint64_t ahead = (k + OV_WHEEL - k0) % OV_WHEEL;
			for (int t = 0; t < OV_EV_COUNT; t++)
				for (uint64_t c = m->wheel[k].m[t]; c; c &= c - 1) {
					uint32_t i = (uint32_t)__builtin_ctzll(c);
					if (ev[i])
						return -1; /* two changes for one context: not a state we know */
					ev[i] = ahead << 2 | (uint64_t)t;
				}
		}
	for (uint64_t f = m->far; f; f &= f - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(f);
		if (ev[i])
			return -1;
		ev[i] = (m->b[i].ev - m->p) << 2 | m->b[i].evtype;
	}
	for (uint64_t f = m->mask[OV_S_DRAIN_FREE]; f; f &= f - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(f);
		if (ev[i])
			return -1;
		ev[i] = rel(m->b[i].ev, m->p) << 2 | 3;
	}
	return 0;
}

/* The key of the machine's state now (m->st_key[0..*n)); -1 when it is not
 * one this file handles (a context free or not on the reference stream). */
static int build_key(struct ov_machine *m, size_t *n)
{
	uint32_t nb = m->nb;
	size_t need = 9 + (size_t)m->tn + (size_t)nb * (6 + m->st_maxd);
	if (need > m->st_cap) {
		uint64_t *k = realloc(m->st_key, need * sizeof(*k));
		if (!k)
			return -1;
		m->st_key = k;
		m->st_cap = need;
	}
	uint8_t state[OV_MAX_BATCHES];
	for (int s = 0; s < OV_S_COUNT; s++)
		for (uint64_t c = m->mask[s]; c; c &= c - 1)
			state[__builtin_ctzll(c)] = (uint8_t)s;
	for (uint32_t i = 0; i < nb; i++)
		if (state[i] == OV_S_EMPTY || !m->b[i].same)
			return -1;
	uint64_t ev[OV_MAX_BATCHES];
	if (pending(m, ev))
		return -1;
	uint64_t T = m->p << PERIOD_SHIFT;
	/* the requests complete by now go (see the head comment) */
	while (m->tn && m->tag[m->thead] <= T) {
		m->thead = (m->thead + 1) % OV_MAX_TAGS;
		m->tn--;
	}
	uint64_t *k = m->st_key;
	size_t j = 0;
	k[j++] = nb;
	k[j++] = m->rr;
	k[j++] = rel(m->port_free, m->p);
	k[j++] = rel(m->out_free, T);
	k[j++] = rel(m->in_free, T);
	k[j++] = m->tn;
	for (uint32_t t = 0; t < m->tn; t++)
		k[j++] = m->tag[(m->thead + t) % OV_MAX_TAGS] - T;
	for (uint32_t i = 0; i < nb; i++) {
		const struct ov_batch *b = &m->b[i];
		int drained = state[i] >= OV_S_DRAIN_PIPE;
		k[j++] = (uint64_t)(b->cur - b->beg) << 8 | state[i];
		k[j++] = rel(b->alu_free, T);
		k[j++] = rel(b->tex_done, T);
		/* the next record's semaphore matters only while it waits */
		k[j++] = state[i] == OV_S_ALU_WAIT || state[i] == OV_S_MEM_WAIT ? rel(b->sem, T) : 0;
		k[j++] = ev[i];
		/* the round trips a later record may wait on: the last st_maxd
		 * of this batch's (0: none yet) */
		for (uint32_t d = 0; d < m->st_maxd; d++)
			k[j++] = !drained && d < b->nord ? rel(b->ring[(b->nord - d) % OV_RING], T) : 0;
	}
	*n = j;
	return 0;
}

static uint64_t key_hash(const uint64_t *k, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 0x100000001b3ull;
	return h;
}

/* Moves the machine d periods on, the counters grown by n times the
 * growth since snapshot s, and `groups` more groups taken from the queue.
 * Returns -1, changing nothing, when the wheel holds more than it can
 * move. */
static int jump(struct ov_machine *m, const struct ov_steady_snap *s, uint64_t n, uint64_t d,
		uint64_t groups)
{
	uint32_t nb = m->nb;
	/* the wheel's buckets, moved d periods on */
	struct { uint32_t k; struct ov_bucket bk; } moved[OV_MAX_BATCHES];
	uint32_t nm = 0;
	for (uint32_t w = 0; w < OV_WHEEL / 64; w++)
		for (uint64_t bits = m->wheel_any[w]; bits; bits &= bits - 1) {
			if (nm == OV_MAX_BATCHES)
				return -1;
			uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(bits);
			moved[nm].k = k;
			moved[nm++].bk = m->wheel[k];
		}
	for (uint32_t x = 0; x < nm; x++)
		memset(&m->wheel[moved[x].k], 0, sizeof(struct ov_bucket));
	memset(m->wheel_any, 0, sizeof(m->wheel_any));
	for (uint32_t x = 0; x < nm; x++) {
		uint32_t k = (uint32_t)((moved[x].k + d) % OV_WHEEL);
		m->wheel[k] = moved[x].bk;
		m->wheel_any[k / 64] |= 1ull << (k % 64);
	}
	/* times */
	uint64_t dt = d << PERIOD_SHIFT;
	for (uint32_t i = 0; i < nb; i++) {
		struct ov_batch *b = &m->b[i];
		b->alu_free += dt;
		b->tex_done += dt;
		b->sem += dt;
		b->ev += d;
		for (uint32_t j = 0; j < OV_RING; j++)
			b->ring[j] += dt;
	}
	for (uint32_t t = 0; t < m->tn; t++)
		m->tag[(m->thead + t) % OV_MAX_TAGS] += dt;
	m->out_free += dt;
	m->in_free += dt;
	m->port_free += d;
	m->p += d;
	/* counters */
	for (int c = 0; c < OV_C_COUNT; c++)
		m->per[c] += n * (m->per[c] - s->per[c]);
	m->lat_sum += n * (m->lat_sum - s->lat);
	m->tag_wait += n * (m->tag_wait - s->wait);
	m->tag_blocked += n * (m->tag_blocked - s->blocked);
	/* the queue */
	for (uint64_t g = 0; g < groups; g++)
		weft_overlay_machine_take(m);
	m->started += groups;
	m->steady_jumps++;
	m->steady_periods += d;
	return 0;
}

/* Waiting groups, up to max, that are the reference stream, in order. */
static uint64_t same_waiting(const struct ov_machine *m, uint64_t max)
{
	uint64_t n = 0;
	for (uint32_t c = 0; c <= m->nlater && m->qcta; c++) {
		const struct ov_cta *oc = c ? m->qlater[c - 1] : m->qcta;
		for (uint32_t g = c ? 0 : m->qnext; g < oc->ngroups; g++, n++) {
			const uint32_t *rec = oc->rec + oc->grp[g].off;
			size_t len = oc->grp[g].n;
			if (n == max || len != m->st_n || memcmp(rec, m->st_ref, len * sizeof(*rec)))
				return n;
		}
	}
	return n;
}

/* Records the machine's state now, of key m->st_key[0..n), in s. */
static void record(struct ov_machine *m, struct ov_steady_snap *s, size_t n, uint64_t h)
{
	if (s->nkey < n || !s->key) {
		uint64_t *key = realloc(s->key, n * sizeof(*key));
		if (!key)
			return;
		s->key = key;
	}
	memcpy(s->key, m->st_key, n * sizeof(*s->key));
	s->nkey = n;
	s->hash = h;
	s->p = m->p;
	s->started = m->started;
	s->odd = m->st_odd;
	memcpy(s->per, m->per, sizeof(s->per));
	s->lat = m->lat_sum;
	s->wait = m->tag_wait;
	s->blocked = m->tag_blocked;
}

void weft_overlay_steady_step(struct ov_machine *m)
{
	size_t n;
	if (!m->st_ref || m->mem_first == UINT64_MAX || m->st_miss > OV_STEADY_GIVE_UP + 8ull * m->nb ||
	    build_key(m, &n))
		return;
	uint64_t h = key_hash(m->st_key, n);
	for (uint32_t e = 0; e < OV_STEADY_SNAPS; e++) {
		struct ov_steady_snap *s = &m->st[e];
		if (!s->key || s->hash != h || s->nkey != n || s->odd != m->st_odd ||
		    memcmp(s->key, m->st_key, n * sizeof(*s->key)))
			continue;
		/* the state of period s->p again (an entry is kept per state) */
		uint64_t k = m->started - s->started, d = m->p - s->p;
		uint64_t avail = m->qgroups;
		uint64_t reps = k && d ? same_waiting(m, avail - avail % k) / k : 0;
		if (reps && jump(m, s, reps, reps * d, reps * k))
			return; /* (not moved: the state stays as it was recorded) */
		record(m, s, n, h); /* the latest time of this state */
		m->st_miss = 0;
		return;
	}
	m->st_miss++;
	record(m, &m->st[m->st_next], n, h);
	m->st_next = (m->st_next + 1) % OV_STEADY_SNAPS;
}
