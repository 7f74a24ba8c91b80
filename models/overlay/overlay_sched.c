/*
 * overlay_sched.c - the dynamic side of the overlay model: a CTA's threads
 * as batch streams, and the batch scheduler that times them (Kingyens &
 * Steffan, "The Potential for a GPU-Like Overlay Architecture for FPGAs",
 * IJRC 2011; docs/models/overlay.md, "Timing").
 *
 * Streams. A CTA's threads in linear order are cut into batches of 4 (the
 * last one of a CTA shorter when its thread count is not a multiple of 4);
 * a batch runs under full predication (models/group.h, WEFT_DIV_PREDICATE
 * at width 4: every live thread is issued every block, loops repeat while
 * any thread iterates), and each instruction that takes an issue slot
 * (ALU, TEX, atomic, store: overlay_map.c) becomes a record (overlay.h).
 * The streams depend only on the trace and the program, so one decode
 * serves every point of a sweep (the records are shared, refcounted).
 *
 * Scheduler. Time runs in periods of 4 cycles (Table 1 of the study): in
 * cycle 4p the issue logic may start one ALU instruction (its operands A,
 * B, C are read in cycles 4p..4p+2, one operand of all 4 threads per
 * cycle; the ALU then takes one thread per cycle, so an ALU issue in every
 * period keeps it 100% busy), in cycle 4p+3 one memory instruction (TEX,
 * atomic or store: the TEX read cycle). For each slot it picks, round
 * robin from the batch that issued last, the first of the `batches`
 * contexts whose next instruction is of that kind and ready:
 *   ALU     its previous ALU instruction has left the pipeline (issued
 *           pipeline_stages = 64 cycles or more ago: the datapath has no
 *           hazard detection) and its semaphores are clear (every TEX
 *           result it reads or overwrites has arrived);
 *   memory  its semaphores are clear, the batch's last ALU instruction
 *           has left the pipeline if this one reads or writes a register
 *           that instruction writes, the read port is free (a store reads
 *           2 operands: the port is busy 2 periods), and its executing
 *           threads' requests all get one of max_outstanding = 32 tags.
 * A TEX or atomic sends one request per executing thread: serialised on
 * the outgoing link (request_bytes, plus the data of an atomic, at
 * link_bpc bytes per cycle), then the fixed latency of the study's
 * breakdown (305 ns), then the response serialised on the incoming link
 * in arrival order (response header + data); the tag is free and the
 * result written when the response has arrived. A store sends one write
 * packet per executing thread on the outgoing link and never waits.
 * Requests complete in issue order (both links are FIFO and the fixed
 * latency is the same for all), which the tag ring and the batches'
 * semaphores (the completion of each round trip, by number) rely on.
 *
 * Every period is accounted once: alu when an ALU instruction issued,
 * else (the study's idle reasons) inside_alu when some batch's next ALU
 * instruction has its operands but its previous ALU instruction is still
 * in the pipeline, else semwait when some batch's next ALU instruction
 * waits on a TEX result, else not_alu (the batches' next instructions are
 * memory instructions). With no batch left to issue (the launch's tail),
 * the same order asks what the finished batches wait for: their last ALU
 * instruction (inside_alu) or a TEX result (semwait). A finished batch
 * frees its context when its results are written; the next batch of
 * threads starts there at the next period. The launch ends when every
 * batch has finished and the outgoing link has sent the last store.
 *
 * Idle periods are not stepped one by one: when neither slot issues, the
 * scheduler jumps to the next period at which anything changes (a
 * semaphore clears, an ALU instruction leaves the pipeline, a tag frees,
 * the read port frees, a context frees) and accounts the periods between
 * with the reason they all share.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "overlay.h"

const char *const weft_overlay_cpi_names[OV_C_COUNT] = { "alu", "semwait", "inside_alu", "not_alu" };

/* ---- streams ---- */

void weft_overlay_cta_ref(struct ov_cta *oc)
{
	oc->refs++;
}

void weft_overlay_cta_unref(struct ov_cta *oc)
{
	if (!oc || --oc->refs)
		return;
	free(oc->rec);
	free(oc->goff);
	free(oc);
}

struct decode {
	const struct ov_prog *op;
	const struct weft_program *p;
	struct ov_cta *oc;
	uint32_t *lastw;      /* [nsemregs]: the last round trip (number) writing it */
	uint32_t ord;         /* round trips so far in this batch */
	uint32_t last_alu;    /* pc of the batch's last ALU instruction, or UINT32_MAX */
	int nomem;
};

/* 1 when pc reads or writes a register that ALU instruction alu writes. */
static int touches_defs_of(const struct weft_program *p, uint32_t pc, uint32_t alu)
{
	const struct weft_inst_info *a = &p->info[alu], *m = &p->info[pc];
	for (uint32_t d = 0; d < a->ndefs; d++) {
		int32_t r = a->defs[d];
		if (r < 0)
			continue;
		for (uint32_t u = 0; u < m->nuses; u++)
			if (m->uses[u] == r)
				return 1;
		for (uint32_t u = 0; u < m->ndefs; u++)
			if (m->defs[u] == r)
				return 1;
	}
	return 0;
}

/* Lanes of a mask of a batch (4 bits). */
static const uint8_t lanes4[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* Appends the record of pc (room for it is reserved by the caller). */
static void emit(struct decode *d, uint32_t pc, uint64_t exec, uint64_t issue)
{
	const struct ov_pcinfo *pi = &d->op->pc[pc];
	struct ov_counts *cnt = &d->oc->cnt;
	uint32_t k = pi->kind;
	uint32_t nexec = lanes4[exec & 15];
	cnt->insts[k]++;
	cnt->issued[k] += lanes4[issue & 15];
	cnt->exec[k] += nexec;
	if (k >= OV_K_CONST)
		return;
	uint32_t w = 0;
	const uint32_t *sem = d->op->sem + pi->sem_off;
	for (uint32_t i = 0; i < pi->nsem; i++)
		if (d->lastw[sem[i]] > w)
			w = d->lastw[sem[i]];
	uint32_t dist = w ? d->ord - w + 1 : 0;
	if (dist > 127)
		dist = 127;
	uint32_t cls = k == OV_K_ALU ? OV_RC_ALU : k == OV_K_STORE ? OV_RC_STORE : OV_RC_RT;
	uint32_t dep = k != OV_K_ALU && d->last_alu != UINT32_MAX &&
		       (d->op->touch[pc] & d->op->defmask[d->last_alu]) &&
		       touches_defs_of(d->p, pc, d->last_alu);
	uint32_t r = cls | nexec << 2 | dep << 5 | dist << 6 | (uint32_t)pi->req_dw << 13 |
		     (uint32_t)pi->resp_dw << 18 | (uint32_t)pi->slots << 23;
	if (k == OV_K_ALU) {
		d->last_alu = pc;
	} else if (cls == OV_RC_RT) {
		d->ord++;
		const struct weft_inst_info *ii = &d->p->info[pc];
		for (uint32_t i = 0; i < ii->ndefs; i++)
			if (ii->defs[i] >= 0 && (uint32_t)ii->defs[i] < d->p->nregs &&
			    d->op->semreg_of[ii->defs[i]] != UINT32_MAX)
				d->lastw[d->op->semreg_of[ii->defs[i]]] = d->ord;
	}
	d->oc->rec[d->oc->nrec++] = r;
}

/* Room for n more records. */
static int reserve(struct decode *d, size_t n)
{
	struct ov_cta *oc = d->oc;
	if (oc->nrec + n <= oc->cap)
		return 0;
	size_t cap = oc->cap ? oc->cap * 2 : 4096;
	while (cap < oc->nrec + n)
		cap *= 2;
	uint32_t *nr = realloc(oc->rec, cap * sizeof(*nr));
	if (!nr) {
		d->nomem = 1;
		return -1;
	}
	oc->rec = nr;
	oc->cap = cap;
	return 0;
}

int weft_overlay_decode_cta(const struct ov_prog *op, const struct weft_group_prog *gp,
			    struct weft_group_iter *it, const struct weft_cta_trace *c,
			    uint32_t launch, struct ov_cta **out, struct weft_error *err)
{
	*out = NULL;
	struct ov_cta *oc = calloc(1, sizeof(*oc));
	uint32_t ng = weft_group_count(c->nthreads, OV_BATCH);
	struct decode d = { op, gp->p, oc, NULL, 0, 0, 0 };
	if (oc) {
		oc->launch = launch;
		oc->cta = c->cta;
		oc->ngroups = ng;
		oc->goff = malloc(((size_t)ng + 1) * sizeof(*oc->goff));
		d.lastw = calloc((size_t)op->nsemregs + 1, sizeof(*d.lastw));
	}
	if (!oc || !oc->goff || !d.lastw) {
		free(d.lastw);
		if (oc)
			free(oc->goff);
		free(oc);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding CTA %u", c->cta);
	}
	int rc = 0;
	for (uint32_t g = 0; g < ng && !rc; g++) {
		oc->goff[g] = oc->nrec;
		rc = weft_group_iter_init(it, gp, c, OV_BATCH, g, WEFT_DIV_PREDICATE, WEFT_GROUP_NO_ADDRS,
					  err);
		if (rc)
			break;
		memset(d.lastw, 0, sizeof(*d.lastw) * op->nsemregs);
		d.ord = 0;
		d.last_alu = UINT32_MAX;
		struct weft_group_block blk;
		while ((rc = weft_group_next_block(it, &blk)) == 1) {
			const struct weft_group_binfo *bi = &gp->binfo[blk.block];
			if (reserve(&d, blk.count))
				break;
			if (bi->nguard) {
				/* guard bits: each instruction's own exec mask */
				struct weft_group_inst in;
				while ((rc = weft_group_block_inst(it, &in)) == 1)
					emit(&d, in.pc, in.exec, in.issue);
				if (rc < 0)
					break;
			} else {
				/* no guards: every instruction executes for the lanes on the
				 * block, the closing branch for those taking it, an exit for
				 * those leaving (group.h); the iterator skips the rest */
				uint32_t last = blk.first_pc + blk.count - 1;
				for (uint32_t pc = blk.first_pc; pc < last; pc++)
					emit(&d, pc, blk.on, blk.issue);
				uint64_t e = blk.on;
				if (bi->end == WEFT_GEND_BRA && bi->guarded_bra)
					e = blk.taken;
				else if (bi->end == WEFT_GEND_EXIT)
					e = blk.exiting;
				emit(&d, last, e, blk.issue);
			}
		}
		if (d.nomem)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding CTA %u", c->cta);
	}
	free(d.lastw);
	if (rc < 0) {
		free(oc->rec);
		free(oc->goff);
		free(oc);
		return rc;
	}
	oc->goff[ng] = oc->nrec;
	*out = oc;
	return 0;
}

/* ---- the machine ---- */

static uint64_t ticks(double cycles)
{
	double t = cycles * OV_TICKS + 0.5;
	return t <= 0 ? 0 : (uint64_t)t;
}

int weft_overlay_machine_init(struct ov_machine *m, const struct ov_params *pp, struct weft_error *err)
{
	memset(m, 0, sizeof(*m));
	m->nb = pp->batches;
	m->max_out = pp->max_outstanding;
	m->stages = (uint64_t)pp->pipeline_stages << OV_TICK_SHIFT;
	m->lat = ticks(pp->lat_cycles);
	m->bpc = pp->link_bpc;
	m->req_hdr = pp->req_bytes;
	m->write_hdr = pp->write_hdr_bytes;
	m->resp_hdr = pp->resp_hdr_bytes;
	if (m->nb < 1 || m->nb > OV_MAX_BATCHES || m->max_out < 1 || m->max_out > OV_MAX_TAGS || !(m->bpc > 0))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "overlay machine: parameters out of range");
	for (int dw = 0; dw < 32; dw++) {
		m->ser_req[dw] = ticks((m->req_hdr + 4.0 * dw) / m->bpc);
		m->ser_resp[dw] = ticks((m->resp_hdr + 4.0 * dw) / m->bpc);
		m->ser_write[dw] = ticks((m->write_hdr + 4.0 * dw) / m->bpc);
	}
	m->all = m->nb == 64 ? ~0ull : (1ull << m->nb) - 1;
	m->b = calloc(m->nb, sizeof(*m->b));
	m->ring = calloc(m->nb, sizeof(*m->ring));
	if (!m->b || !m->ring) {
		free(m->b);
		free(m->ring);
		m->b = NULL;
		m->ring = NULL;
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u batch contexts", m->nb);
	}
	weft_overlay_machine_reset(m);
	return 0;
}

void weft_overlay_machine_free(struct ov_machine *m)
{
	if (!m->b)
		return;
	weft_overlay_machine_reset(m);
	free(m->b);
	free(m->ring);
	m->b = NULL;
	m->ring = NULL;
}

void weft_overlay_machine_reset(struct ov_machine *m)
{
	for (uint32_t i = 0; i < m->nb; i++) {
		if (m->b[i].cta)
			weft_overlay_cta_unref(m->b[i].cta);
		m->b[i].cta = NULL;
		m->b[i].state = OV_S_EMPTY;
	}
	if (m->qcta)
		weft_overlay_cta_unref(m->qcta);
	m->qcta = NULL;
	m->qnext = 0;
	memset(m->mask, 0, sizeof(m->mask));
	m->mask[OV_S_EMPTY] = m->all;
	memset(m->wheel, 0, sizeof(m->wheel));
	memset(m->wheel_any, 0, sizeof(m->wheel_any));
	m->far = 0;
	m->p = 0;
	m->rr = m->nb - 1;
	m->port_free = 0;
	m->out_free = m->in_free = 0;
	m->thead = m->tn = 0;
	m->done = 0;
	memset(m->per, 0, sizeof(m->per));
	memset(m->issued, 0, sizeof(m->issued));
	m->requests = m->writes = 0;
	m->out_busy = m->in_busy = m->tag_hold = m->lat_sum = 0;
	m->out_bytes = m->in_bytes = 0;
	m->tag_peak = 0;
}

void weft_overlay_machine_feed(struct ov_machine *m, struct ov_cta *oc)
{
	if (!oc->ngroups)
		return;
	weft_overlay_cta_ref(oc);
	m->qcta = oc;
	m->qnext = 0;
}

static inline uint64_t umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

#define PERIOD_SHIFT (OV_TICK_SHIFT + 2) /* a period is 4 cycles */
#define PERIOD_TICKS (1ull << PERIOD_SHIFT)

/* First period whose ALU slot (cycle 4q) is at or after time t. */
static inline uint64_t alu_period(uint64_t t)
{
	return (t + PERIOD_TICKS - 1) >> PERIOD_SHIFT;
}

/* First period whose TEX slot (cycle 4q + 3) is at or after time t. */
static inline uint64_t tex_period(uint64_t t)
{
	const uint64_t slot = (uint64_t)(OV_PERIOD - 1) << OV_TICK_SHIFT;
	return t <= slot ? 0 : alu_period(t - slot);
}

static inline void set_state(struct ov_machine *m, uint32_t i, int st)
{
	uint64_t bit = 1ull << i;
	m->mask[m->b[i].state] &= ~bit;
	m->mask[st] |= bit;
	m->b[i].state = (uint8_t)st;
}

/* Context i changes state at period q (> m->p). */
static inline void wake_at(struct ov_machine *m, uint32_t i, uint64_t q)
{
	m->b[i].ev = q;
	uint64_t bit = 1ull << i;
	if (q - m->p >= OV_WHEEL) {
		m->far |= bit;
		return;
	}
	uint32_t k = (uint32_t)(q % OV_WHEEL);
	m->wheel[k] |= bit;
	m->wheel_any[k / 64] |= 1ull << (k % 64);
}

/* The drained context's state from period q on (its results written?). */
static void drain_from(struct ov_machine *m, uint32_t i, uint64_t q)
{
	struct ov_batch *b = &m->b[i];
	uint64_t t = q << PERIOD_SHIFT;
	if (b->alu_free > t) {
		set_state(m, i, OV_S_DRAIN_PIPE);
		wake_at(m, i, alu_period(b->alu_free));
	} else if (b->tex_done > t) {
		set_state(m, i, OV_S_DRAIN_SEM);
		wake_at(m, i, alu_period(b->tex_done));
	} else {
		set_state(m, i, OV_S_DRAIN_FREE);
		b->ev = q;
	}
}

/* Context i has issued in period m->p: its next record and state. A
 * memory instruction may follow an ALU instruction in the same period's
 * TEX slot (same_period); everything else waits for the next period. */
static void advance(struct ov_machine *m, uint32_t i, int same_period)
{
	struct ov_batch *b = &m->b[i];
	uint64_t next = m->p + 1;
	if (b->cur == b->end) {
		drain_from(m, i, next);
		return;
	}
	uint32_t r = *b->cur++;
	uint32_t d = OV_R_SEM(r);
	b->rec = r;
	b->sem = d ? m->ring[i][(b->nord - d + 1) % OV_RING] : 0;
	if (OV_R_CLS(r) == OV_RC_ALU) {
		uint64_t t = next << PERIOD_SHIFT;
		if (b->sem > t) {
			set_state(m, i, OV_S_ALU_SEM);
			wake_at(m, i, alu_period(b->sem));
		} else if (b->alu_free > t) {
			set_state(m, i, OV_S_ALU_PIPE);
			wake_at(m, i, alu_period(b->alu_free));
		} else {
			set_state(m, i, OV_S_ALU_READY);
		}
	} else {
		uint64_t ready = OV_R_DEP(r) ? umax(b->sem, b->alu_free) : b->sem;
		uint64_t q = tex_period(ready), first = same_period ? m->p : next;
		if (q <= first && same_period) {
			set_state(m, i, OV_S_MEM_READY);
		} else {
			set_state(m, i, OV_S_MEM_WAIT);
			wake_at(m, i, q > first ? q : first);
		}
	}
}

/* A waiting context's change at period m->p. */
static void wake(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	switch (b->state) {
	case OV_S_ALU_SEM:
		if (b->alu_free > m->p << PERIOD_SHIFT) {
			set_state(m, i, OV_S_ALU_PIPE);
			wake_at(m, i, alu_period(b->alu_free));
		} else {
			set_state(m, i, OV_S_ALU_READY);
		}
		break;
	case OV_S_ALU_PIPE:
		set_state(m, i, OV_S_ALU_READY);
		break;
	case OV_S_MEM_WAIT:
		set_state(m, i, OV_S_MEM_READY);
		break;
	case OV_S_DRAIN_PIPE:
	case OV_S_DRAIN_SEM:
		drain_from(m, i, m->p);
		break;
	default:
		break;
	}
}

static void release(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	weft_overlay_cta_unref(b->cta);
	b->cta = NULL;
	set_state(m, i, OV_S_EMPTY);
}

/* The next waiting group starts in context i, issuing from this period
 * (its first instruction has no semaphore and no previous ALU
 * instruction: it is ready now). */
static void start(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	struct ov_cta *oc = m->qcta;
	uint32_t g = m->qnext++;
	weft_overlay_cta_ref(oc);
	b->cta = oc;
	b->cur = oc->rec + oc->goff[g];
	b->end = oc->rec + oc->goff[g + 1];
	b->alu_free = b->tex_done = b->sem = 0;
	b->nord = 0;
	if (m->qnext == oc->ngroups) {
		m->qcta = NULL;
		weft_overlay_cta_unref(oc);
	}
	if (b->cur == b->end) {
		set_state(m, i, OV_S_DRAIN_FREE); /* nothing to issue */
		b->ev = m->p;
		return;
	}
	b->rec = *b->cur++;
	set_state(m, i, OV_R_CLS(b->rec) == OV_RC_ALU ? OV_S_ALU_READY : OV_S_MEM_READY);
}

/* The first context of mask after rr, round robin; -1 when none. */
static inline int rr_pick(uint64_t mask, uint32_t rr)
{
	if (!mask)
		return -1;
	uint64_t hi = rr >= 63 ? 0 : mask & (~0ull << (rr + 1));
	return __builtin_ctzll(hi ? hi : mask);
}

/* Tags a memory instruction of `lanes` executing threads needs to issue. */
static inline uint32_t tag_need(const struct ov_machine *m, uint32_t lanes)
{
	return lanes < m->max_out ? lanes : m->max_out;
}

static void tags_pop(struct ov_machine *m, uint64_t t)
{
	while (m->tn && m->tag[m->thead] <= t) {
		m->thead = (m->thead + 1) % OV_MAX_TAGS;
		m->tn--;
	}
}

/* When `need` tags are free (0: now), the outstanding requests as they are. */
static uint64_t tag_time(const struct ov_machine *m, uint32_t need)
{
	uint32_t freen = m->max_out - m->tn;
	if (freen >= need)
		return 0;
	return m->tag[(m->thead + (need - freen) - 1) % OV_MAX_TAGS];
}

/* One request at time t: a tag (waiting for the oldest when none is
 * free), the request packet, the fixed latency, the response packet. */
static uint64_t request(struct ov_machine *m, uint64_t t, uint32_t rq, uint32_t rs)
{
	uint64_t t0 = t;
	if (m->tn == m->max_out) {
		t0 = umax(t0, m->tag[m->thead]);
		m->thead = (m->thead + 1) % OV_MAX_TAGS;
		m->tn--;
	}
	uint64_t s = m->ser_req[rq];
	m->out_free = umax(t0, m->out_free) + s;
	m->out_busy += s;
	m->out_bytes += m->req_hdr + 4.0 * rq;
	uint64_t s2 = m->ser_resp[rs];
	m->in_free = umax(m->out_free + m->lat, m->in_free) + s2;
	m->in_busy += s2;
	m->in_bytes += m->resp_hdr + 4.0 * rs;
	m->tag[(m->thead + m->tn) % OV_MAX_TAGS] = m->in_free;
	m->tn++;
	if (m->tn > m->tag_peak)
		m->tag_peak = m->tn;
	m->tag_hold += m->in_free - t0;
	m->lat_sum += m->in_free - t;
	m->requests++;
	return m->in_free;
}

static void issue_mem(struct ov_machine *m, uint32_t i, uint64_t t3)
{
	struct ov_batch *b = &m->b[i];
	uint32_t r = b->rec, k = OV_R_EXEC(r);
	if (OV_R_CLS(r) == OV_RC_STORE) {
		uint64_t s = m->ser_write[OV_R_REQ(r)];
		for (uint32_t j = 0; j < k; j++) {
			m->out_free = umax(t3, m->out_free) + s;
			m->out_busy += s;
			m->out_bytes += m->write_hdr + 4.0 * OV_R_REQ(r);
			m->writes++;
		}
		m->issued[OV_RC_STORE]++;
	} else {
		uint64_t done = t3;
		for (uint32_t j = 0; j < k; j++)
			done = request(m, t3, OV_R_REQ(r), OV_R_RESP(r));
		b->nord++;
		m->ring[i][b->nord % OV_RING] = done;
		if (done > b->tex_done)
			b->tex_done = done;
		m->issued[OV_RC_RT]++;
	}
	uint32_t slots = OV_R_SLOTS(r);
	m->port_free = m->p + (slots ? slots : 1);
	m->rr = i;
	advance(m, i, 0);
}

/* Why a period issues no ALU instruction (the study's reasons): a batch
 * whose next ALU instruction has its operands but waits for the pipeline
 * (inside_alu), else one waiting on a TEX result (semwait), else none
 * wants the ALU (not_alu); with no batch left to issue, what the finished
 * batches wait for. */
static int classify(const struct ov_machine *m)
{
	if (m->mask[OV_S_ALU_SEM] | m->mask[OV_S_ALU_PIPE] | m->mask[OV_S_ALU_READY] |
	    m->mask[OV_S_MEM_WAIT] | m->mask[OV_S_MEM_READY])
		return m->mask[OV_S_ALU_PIPE] ? OV_C_INSIDE_ALU
		       : m->mask[OV_S_ALU_SEM] ? OV_C_SEMWAIT : OV_C_NOT_ALU;
	return m->mask[OV_S_DRAIN_PIPE] ? OV_C_INSIDE_ALU
	       : m->mask[OV_S_DRAIN_SEM] ? OV_C_SEMWAIT : OV_C_NOT_ALU;
}

/* The first period after m->p with a scheduled change, UINT64_MAX if none. */
static uint64_t next_wake(const struct ov_machine *m)
{
	uint64_t best = UINT64_MAX;
	uint32_t k0 = (uint32_t)((m->p + 1) % OV_WHEEL);
	for (uint32_t n = 0; n <= OV_WHEEL / 64; n++) {
		uint32_t w = (k0 / 64 + n) % (OV_WHEEL / 64);
		uint64_t bits = m->wheel_any[w];
		if (n == 0)
			bits &= ~0ull << (k0 % 64);
		else if (n == OV_WHEEL / 64)
			bits &= (k0 % 64) ? ~(~0ull << (k0 % 64)) : 0;
		if (bits) {
			uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(bits);
			best = m->p + 1 + (k + OV_WHEEL - k0) % OV_WHEEL;
			break;
		}
	}
	for (uint64_t f = m->far; f; f &= f - 1) {
		uint64_t q = m->b[__builtin_ctzll(f)].ev;
		if (q < best)
			best = q;
	}
	for (uint64_t f = m->mask[OV_S_DRAIN_FREE]; f; f &= f - 1) {
		uint64_t q = m->b[__builtin_ctzll(f)].ev;
		if (q < best)
			best = q;
	}
	return best;
}

void weft_overlay_machine_run(struct ov_machine *m, int final)
{
	if (m->done)
		return;
	for (;;) {
		/* state changes due now */
		if (m->far)
			for (uint64_t f = m->far; f; f &= f - 1) {
				uint32_t i = (uint32_t)__builtin_ctzll(f);
				if (m->b[i].ev - m->p < OV_WHEEL) {
					m->far &= ~(1ull << i);
					wake_at(m, i, m->b[i].ev);
				}
			}
		uint32_t k = (uint32_t)(m->p % OV_WHEEL);
		uint64_t due = m->wheel[k];
		if (due) {
			m->wheel[k] = 0;
			m->wheel_any[k / 64] &= ~(1ull << (k % 64));
			for (; due; due &= due - 1)
				wake(m, (uint32_t)__builtin_ctzll(due));
		}
		if (m->mask[OV_S_DRAIN_FREE])
			for (uint64_t f = m->mask[OV_S_DRAIN_FREE]; f; f &= f - 1) {
				uint32_t i = (uint32_t)__builtin_ctzll(f);
				if (m->b[i].ev <= m->p)
					release(m, i);
			}
		/* free contexts take the next batches of threads */
		while (m->mask[OV_S_EMPTY]) {
			if (!m->qcta) {
				if (!final)
					return; /* the next CTA's threads may start here */
				break;
			}
			uint32_t i = (uint32_t)__builtin_ctzll(m->mask[OV_S_EMPTY]);
			start(m, i);
			if (m->b[i].state == OV_S_DRAIN_FREE)
				release(m, i); /* a batch with nothing to issue */
		}
		if (m->mask[OV_S_EMPTY] == m->all) {
			/* every batch done: the outgoing link still sends the last stores */
			uint64_t q = alu_period(m->out_free);
			if (q > m->p) {
				m->per[OV_C_NOT_ALU] += q - m->p;
				m->p = q;
			}
			m->done = 1;
			return;
		}
		uint64_t T = m->p << PERIOD_SHIFT;
		/* ALU slot, cycle 4p */
		int ia = rr_pick(m->mask[OV_S_ALU_READY], m->rr), im = -1, why = OV_C_ALU;
		if (ia >= 0) {
			m->b[ia].alu_free = T + m->stages;
			m->issued[OV_RC_ALU]++;
			m->rr = (uint32_t)ia;
			advance(m, (uint32_t)ia, 1);
		} else {
			why = classify(m);
		}
		m->per[why]++;
		/* TEX slot, cycle 4p + 3 */
		uint64_t memq = m->mask[OV_S_MEM_READY];
		if (memq && m->p >= m->port_free) {
			uint64_t t3 = T + ((uint64_t)(OV_PERIOD - 1) << OV_TICK_SHIFT);
			tags_pop(m, t3);
			uint32_t freen = m->max_out - m->tn;
			if (freen >= OV_BATCH || freen >= m->max_out) {
				im = rr_pick(memq, m->rr);
			} else {
				for (uint64_t c = memq; c && im < 0;) {
					int j = rr_pick(c, m->rr);
					if (freen >= tag_need(m, OV_R_EXEC(m->b[j].rec)))
						im = j;
					c &= ~(1ull << j);
				}
			}
			if (im >= 0)
				issue_mem(m, (uint32_t)im, t3);
		}
		if (ia >= 0 || im >= 0) {
			m->p++;
			continue;
		}
		/* nothing issued: jump to the next change, the periods between
		 * idle for the same reason as this one */
		uint64_t q = next_wake(m);
		memq = m->mask[OV_S_MEM_READY];
		if (memq) {
			uint32_t need = m->max_out;
			for (uint64_t c = memq; c; c &= c - 1) {
				uint32_t n = tag_need(m, OV_R_EXEC(m->b[__builtin_ctzll(c)].rec));
				if (n < need)
					need = n;
			}
			uint64_t qm = tex_period(tag_time(m, need));
			if (qm < m->port_free)
				qm = m->port_free;
			if (qm < q)
				q = qm;
		}
		if (q <= m->p || q == UINT64_MAX)
			q = m->p + 1; /* (UINT64_MAX cannot happen: a busy context has a change ahead) */
		m->per[why] += q - m->p - 1;
		m->p = q;
	}
}

double weft_overlay_machine_cycles(const struct ov_machine *m)
{
	uint64_t n = 0;
	for (int i = 0; i < OV_C_COUNT; i++)
		n += m->per[i];
	return (double)OV_PERIOD * (double)n;
}
