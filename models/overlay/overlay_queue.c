/*
 * overlay_queue.c - the overlay model's batch streams waiting to run: the
 * lifetime of a CTA's decoded streams (refcounted: shared by the points of
 * a sweep, held by each batch that runs one of them) and the machine's
 * queue of groups not yet started (the CTAs fed, in order; with several
 * contexts the model feeds a few before it runs the machine). The
 * scheduler (overlay_sched.c) and the state repeats (overlay_steady.c)
 * take groups from it (docs/models/overlay.md, "Replay").
 */
#include <stdlib.h>
#include <string.h>

#include "overlay.h"

void weft_overlay_cta_ref(struct ov_cta *oc)
{
	oc->refs++;
}

void weft_overlay_cta_unref(struct ov_cta *oc)
{
	if (!oc || --oc->refs)
		return;
	free(oc->rec);
	free(oc->grp);
	free(oc);
}

void weft_overlay_machine_feed(struct ov_machine *m, struct ov_cta *oc)
{
	if (!oc->ngroups)
		return;
	/* the link's packets of every record (each is sent exactly once) */
	for (uint32_t dw = 0; dw < 32; dw++) {
		uint64_t nq = oc->nreq[dw], ns = oc->nresp[dw], nw = oc->nwrite[dw];
		if (!(nq | ns | nw))
			continue;
		m->requests += nq;
		m->writes += nw;
		m->out_busy += nq * m->ser_req[dw] + nw * m->ser_write[dw];
		m->in_busy += ns * m->ser_resp[dw];
		m->out_bytes += nq * (m->req_hdr + 4ull * dw) + nw * (m->write_hdr + 4ull * dw);
		m->in_bytes += ns * (m->resp_hdr + 4ull * dw);
	}
	weft_overlay_cta_ref(oc);
	m->qgroups += oc->ngroups;
	m->qrecords += oc->nlog;
	if (!m->qcta) {
		m->qcta = oc;
		m->qnext = 0;
	} else {
		m->qlater[m->nlater++] = oc;
	}
}

int weft_overlay_machine_queue_full(const struct ov_machine *m)
{
	return m->nb == 1 || m->nlater == OV_QUEUE_CTAS || m->qrecords >= OV_QUEUE_RECORDS ||
	       m->qgroups >= 16ull * m->nb || m->qgroups >= OV_QUEUE_GROUPS;
}

void weft_overlay_machine_take(struct ov_machine *m)
{
	struct ov_cta *oc = m->qcta;
	m->qgroups--;
	m->qrecords -= oc->grp[m->qnext].n;
	if (++m->qnext < oc->ngroups)
		return;
	weft_overlay_cta_unref(oc);
	m->qcta = NULL;
	m->qnext = 0;
	if (m->nlater) {
		m->qcta = m->qlater[0];
		memmove(m->qlater, m->qlater + 1, --m->nlater * sizeof(*m->qlater));
	}
}
