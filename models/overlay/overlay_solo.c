/*
 * overlay_solo.c - the overlay scheduler with one batch context
 * (overlay.batches = 1, the baseline of every batch sweep): a batch that
 * runs alone is timed once per distinct stream.
 *
 * With one context a batch starts only when the one before it has written
 * its results: its last ALU instruction has left the pipeline and its last
 * round trip's response is in, so every tag is free and the incoming link
 * idle by then (responses complete in issue order). What the batch finds
 * of the past is two numbers: how long the outgoing link is still busy
 * with the last batch's stores, and how many periods the TEX read port is
 * still busy. Its timing is therefore a function of its records and those
 * two offsets, and so is everything it adds to the launch: its periods by
 * CPI component, request latencies and tag waits, TEX slots lost to tags,
 * its peak of outstanding requests, and where it leaves the link, the
 * port and (for the launch's first memory instruction) the memory window.
 * The scheduler times a batch as usual and records that; a later batch
 * with the same records (compared in full, not only by hash) and the same
 * offsets takes the recorded result instead of being timed again. Regular
 * kernels (matmatmult: every batch but the edge ones has the same stream)
 * then cost one timing per distinct stream; kernels whose batches differ
 * (photon's data-dependent loops) find nothing to reuse and cost a hash
 * per batch more. The records are kept per launch, up to OV_SOLO_ENTRIES
 * streams of at most OV_SOLO_MAX_RECORDS records each, the oldest replaced
 * first.
 */
#include <stdlib.h>
#include <string.h>

#include "overlay.h"

static uint64_t stream_hash(const uint32_t *rec, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	for (size_t i = 0; i < n; i++)
		h = (h ^ rec[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t period_ticks(uint64_t p)
{
	return p << (OV_TICK_SHIFT + 2);
}

void weft_overlay_solo_clear(struct ov_machine *m)
{
	for (uint32_t i = 0; i < OV_SOLO_ENTRIES; i++) {
		free(m->solo[i].rec);
		memset(&m->solo[i], 0, sizeof(m->solo[i]));
	}
	m->solo_next = 0;
	m->solo_on = 0;
}

int weft_overlay_solo_replay(struct ov_machine *m, const uint32_t *rec, size_t n)
{
	m->solo_on = 0;
	if (!n || n > OV_SOLO_MAX_RECORDS)
		return 0;
	uint64_t T0 = period_ticks(m->p);
	uint64_t out_off = m->out_free > T0 ? m->out_free - T0 : 0;
	uint64_t port_off = m->port_free > m->p ? m->port_free - m->p : 0;
	uint64_t h = stream_hash(rec, n);
	for (uint32_t i = 0; i < OV_SOLO_ENTRIES; i++) {
		const struct ov_solo *e = &m->solo[i];
		if (!e->rec || e->hash != h || e->n != n || e->out_off != out_off ||
		    e->port_off != port_off || memcmp(e->rec, rec, n * sizeof(*rec)))
			continue;
		/* the same stream from the same state: its recorded result */
		for (int c = 0; c < OV_C_COUNT; c++)
			m->per[c] += e->dper[c];
		m->lat_sum += e->dlat;
		m->tag_wait += e->dwait;
		m->tag_blocked += e->dblocked;
		if (e->peak > m->tag_peak)
			m->tag_peak = e->peak;
		if (e->has_out)
			m->out_free = T0 + e->out_rel;
		if (e->has_in)
			m->in_free = T0 + e->in_rel;
		if (e->has_port)
			m->port_free = m->p + e->port_rel;
		if (e->has_first && m->mem_first == UINT64_MAX)
			m->mem_first = T0 + e->first_rel;
		m->p += e->periods;
		m->solo_hits++;
		return 1;
	}
	/* not seen: time it, and record the result when the batch frees */
	struct ov_solo_run *r = &m->solo_run;
	r->rec = rec;
	r->n = n;
	r->hash = h;
	r->out_off = out_off;
	r->port_off = port_off;
	r->p0 = m->p;
	memcpy(r->per0, m->per, sizeof(r->per0));
	r->lat0 = m->lat_sum;
	r->wait0 = m->tag_wait;
	r->blocked0 = m->tag_blocked;
	r->peak0 = m->tag_peak;
	r->out0 = m->out_free;
	r->in0 = m->in_free;
	r->port0 = m->port_free;
	r->first0 = m->mem_first;
	m->solo_on = 1;
	return 0;
}

void weft_overlay_solo_record(struct ov_machine *m)
{
	if (!m->solo_on)
		return;
	m->solo_on = 0;
	const struct ov_solo_run *r = &m->solo_run;
	struct ov_solo *e = &m->solo[m->solo_next];
	uint32_t *copy = malloc(r->n * sizeof(*copy));
	if (!copy)
		return; /* nothing recorded: later batches are timed, the result is the same */
	free(e->rec);
	memset(e, 0, sizeof(*e));
	m->solo_next = (m->solo_next + 1) % OV_SOLO_ENTRIES;
	memcpy(copy, r->rec, r->n * sizeof(*copy));
	uint64_t T0 = period_ticks(r->p0);
	e->rec = copy;
	e->n = r->n;
	e->hash = r->hash;
	e->out_off = r->out_off;
	e->port_off = r->port_off;
	e->periods = m->p - r->p0;
	for (int c = 0; c < OV_C_COUNT; c++)
		e->dper[c] = m->per[c] - r->per0[c];
	e->dlat = m->lat_sum - r->lat0;
	e->dwait = m->tag_wait - r->wait0;
	e->dblocked = m->tag_blocked - r->blocked0;
	/* a peak the batch raised is its own (every earlier request was
	 * complete when it started); one it did not raise is no higher than
	 * the launch's peak, which only grows */
	e->peak = m->tag_peak > r->peak0 ? m->tag_peak : 0;
	/* what the batch left changed was set by its own packets and issues,
	 * at times fixed relative to its start */
	e->has_out = m->out_free != r->out0;
	e->out_rel = m->out_free - T0;
	e->has_in = m->in_free != r->in0;
	e->in_rel = m->in_free - T0;
	e->has_port = m->port_free != r->port0;
	e->port_rel = m->port_free - r->p0;
	e->has_first = r->first0 == UINT64_MAX && m->mem_first != UINT64_MAX;
	e->first_rel = m->mem_first - T0;
}
