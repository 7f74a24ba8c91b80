/*
 * test_overlay_steady.c - the overlay scheduler's exact repeats
 * (models/overlay/overlay_steady.c) on hand-built batch streams: with
 * several contexts running one stream, the machine that jumps over
 * repeated states ends exactly where the machine that times every period
 * ends (periods by component, request latencies, tag waits, blocked TEX
 * slots, peak of outstanding requests, link and read port), with jumps
 * taken where the comments say so (a mechanism that never jumped would
 * fail them); streams of another kind between them, CTAs fed one at a time or
 * several before a run, every context count from 2 to 64, both links and
 * a tag-starved machine. A stream is records as overlay.h lays them out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "models/overlay/overlay.h"

static uint32_t rec_alu(uint32_t sem)
{
	return OV_RC_ALU | 4u << 2 | sem << 6;
}

static uint32_t rec_tex(uint32_t lanes, uint32_t sem, uint32_t dep)
{
	return OV_RC_RT | lanes << 2 | dep << 5 | sem << 6 | 1u << 18 | 1u << 23;
}

static uint32_t rec_store(uint32_t lanes)
{
	return OV_RC_STORE | lanes << 2 | 1u << 13 | 2u << 23;
}

/* A matmatmult-like stream: `iters` times two loads, an ALU instruction
 * on both, address updates; then a store. Kind 1 leaves the loop a few
 * iterations early with 3 lanes (an edge batch). */
static size_t stream(uint32_t *out, uint32_t iters, int kind)
{
	size_t n = 0;
	uint32_t lanes = kind ? 3 : 4;
	if (kind)
		iters -= 3;
	for (uint32_t i = 0; i < iters; i++) {
		out[n++] = rec_tex(lanes, 0, i > 0);
		out[n++] = rec_tex(lanes, 0, 0);
		out[n++] = rec_alu(1);
		out[n++] = rec_alu(0);
		out[n++] = rec_alu(0);
	}
	out[n++] = rec_store(lanes);
	return n;
}

/* A CTA of ngroups groups; group g is an edge batch when odd_every and
 * g % odd_every == odd_every - 1. */
static struct ov_cta *cta(uint32_t id, uint32_t ngroups, uint32_t iters, uint32_t odd_every)
{
	struct ov_cta *oc = calloc(1, sizeof(*oc));
	assert_non_null(oc);
	oc->cta = id;
	oc->ngroups = ngroups;
	oc->grp = calloc(ngroups + 1, sizeof(*oc->grp));
	oc->rec = calloc((size_t)ngroups * (5 * iters + 1), sizeof(*oc->rec));
	assert_non_null(oc->grp);
	assert_non_null(oc->rec);
	for (uint32_t g = 0; g < ngroups; g++) {
		oc->grp[g].off = oc->nrec;
		int kind = odd_every && g % odd_every == odd_every - 1;
		oc->grp[g].n = stream(oc->rec + oc->nrec, iters, kind);
		oc->nrec += oc->grp[g].n;
	}
	oc->nlog = oc->nrec;
	oc->cap = oc->nrec;
	return oc;
}

struct outcome {
	uint64_t p, per[OV_C_COUNT], lat, wait, blocked, out_free, in_free, port_free, jumps;
	uint32_t peak;
};

/* Runs nctas CTAs through a machine of nb contexts: with steady off
 * (every period timed), each CTA run as soon as it is fed, or with the
 * repeats found, CTAs fed as the model feeds them. */
static void replay(uint32_t nb, uint32_t max_out, double bpc, uint32_t nctas, uint32_t ngroups,
		   uint32_t iters, uint32_t odd_every, int steady, struct outcome *o)
{
	struct ov_params pp;
	memset(&pp, 0, sizeof(pp));
	pp.batches = nb;
	pp.pipeline_stages = 64;
	pp.max_outstanding = max_out;
	pp.lat_cycles = 30.5;
	pp.link_bpc = bpc;
	pp.req_bytes = 8;
	pp.write_hdr_bytes = 8;
	pp.resp_hdr_bytes = 4;
	struct ov_machine *m = calloc(1, sizeof(*m));
	struct weft_error err;
	assert_non_null(m);
	assert_int_equal(weft_overlay_machine_init(m, &pp, &err), 0);
	m->steady_off = !steady;
	for (uint32_t c = 0; c < nctas; c++) {
		struct ov_cta *oc = cta(c, ngroups, iters, odd_every);
		weft_overlay_cta_ref(oc);
		weft_overlay_machine_feed(m, oc);
		weft_overlay_cta_unref(oc);
		if (!steady || weft_overlay_machine_queue_full(m))
			weft_overlay_machine_run(m, 0);
	}
	weft_overlay_machine_run(m, 1);
	memset(o, 0, sizeof(*o));
	o->p = m->p;
	memcpy(o->per, m->per, sizeof(o->per));
	o->lat = m->lat_sum;
	o->wait = m->tag_wait;
	o->blocked = m->tag_blocked;
	o->out_free = m->out_free;
	o->in_free = m->in_free;
	o->port_free = m->port_free;
	o->peak = m->tag_peak;
	o->jumps = m->steady_jumps;
	weft_overlay_machine_free(m);
	free(m);
}

static void same_outcome(uint32_t nb, uint32_t max_out, double bpc, uint32_t nctas, uint32_t ngroups,
			 uint32_t iters, uint32_t odd_every, int want_jumps)
{
	struct outcome a, b;
	replay(nb, max_out, bpc, nctas, ngroups, iters, odd_every, 0, &a);
	replay(nb, max_out, bpc, nctas, ngroups, iters, odd_every, 1, &b);
	assert_int_equal(a.jumps, 0);
	if (want_jumps)
		assert_true(b.jumps > 0);
	assert_int_equal(a.p, b.p);
	assert_memory_equal(a.per, b.per, sizeof(a.per));
	assert_int_equal(a.lat, b.lat);
	assert_int_equal(a.wait, b.wait);
	assert_int_equal(a.blocked, b.blocked);
	assert_int_equal(a.out_free, b.out_free);
	assert_int_equal(a.in_free, b.in_free);
	assert_int_equal(a.port_free, b.port_free);
	assert_int_equal(a.peak, b.peak);
	/* every period is accounted once */
	uint64_t sum = 0;
	for (int c = 0; c < OV_C_COUNT; c++)
		sum += b.per[c];
	assert_int_equal(sum, b.p);
}

/* One stream, few contexts: the machine cycles every generation of
 * batches and jumps; the end is the step-by-step end. */
static void test_one_stream(void **state)
{
	(void)state;
	for (uint32_t nb = 2; nb <= 8; nb++)
		same_outcome(nb, 32, 1.0, 24, 32, 12, 0, 1);
	/* the 16-bit link */
	same_outcome(2, 32, 2.0, 24, 32, 12, 0, 1);
	same_outcome(4, 32, 2.0, 24, 32, 12, 0, 1);
}

/* Edge batches of another stream every 16th group (as matmatmult's
 * right-hand CTAs): repeats are taken only between them. */
static void test_other_streams(void **state)
{
	(void)state;
	for (uint32_t nb = 2; nb <= 6; nb++)
		same_outcome(nb, 32, 1.0, 16, 64, 10, 16, nb <= 4);
	same_outcome(3, 32, 1.0, 16, 64, 10, 3, 0);
}

/* Few tags (TEX slots lost waiting for them), many contexts (64: the
 * turn of the contexts' labels at the mask's edge), small CTAs fed one
 * at a time against several fed before a run. */
static void test_tags_and_contexts(void **state)
{
	(void)state;
	same_outcome(2, 4, 1.0, 24, 32, 12, 0, 1);
	same_outcome(4, 6, 1.0, 24, 32, 12, 0, 1);
	same_outcome(16, 32, 1.0, 40, 32, 8, 0, 1);
	same_outcome(64, 32, 1.0, 40, 64, 6, 0, 1);
	same_outcome(64, 256, 2.0, 40, 64, 6, 0, 0);
	same_outcome(3, 32, 1.0, 60, 5, 12, 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_stream),
		cmocka_unit_test(test_other_streams),
		cmocka_unit_test(test_tags_and_contexts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
