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
 * A CTA stores each distinct stream once: a group whose records equal an
 * earlier group's (hash and length, then in full) shares them.
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
 * scheduler jumps to the next period at which an instruction can issue or
 * a context frees (events on a wheel of OV_WHEEL periods: a batch's next
 * ALU or memory instruction becoming ready, a drained batch's steps; the
 * tags and the read port freeing) and accounts the periods between: with
 * the reason of the first, except that a semwait stretch turns inside_alu
 * from the period a waiting batch's semaphore clears while its previous
 * ALU instruction is still in the pipeline. Times are integer ticks of
 * 1/256 cycle (OV_TICK_SHIFT). Outstanding requests whose response is in
 * are removed from the tag ring only when the count matters (too few
 * tags counted free, a possible new peak). What does not depend on the
 * schedule (the link's packets, their busy time and bytes) is counted per
 * CTA at decode. With one batch context, a batch's result is reused for a
 * later batch of the same stream from the same state (overlay_solo.c).
 */
#include <stdlib.h>
#include <string.h>

#include "overlay.h"

const char *const weft_overlay_cpi_names[OV_C_COUNT] = { "alu", "semwait", "inside_alu", "not_alu" };

/* ---- streams ---- */

struct decode {
	const struct ov_prog *op;
	const struct weft_program *p;
	struct ov_cta *oc;
	uint32_t *lastw;      /* [nsemregs]: the last round trip (number) writing it */
	uint32_t ord;         /* round trips so far in this batch */
	uint32_t last_alu;    /* pc of the batch's last ALU instruction, or UINT32_MAX */
	int nomem;
	/* the CTA's distinct streams so far: their hashes and groups */
	uint64_t *dhash;      /* [ngroups] */
	uint32_t *dgroup;     /* [ngroups] */
	uint32_t ndistinct;
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

static inline void count(struct ov_counts *cnt, uint32_t k, uint32_t n, uint32_t nexec, uint32_t nissue)
{
	cnt->insts[k] += n;
	cnt->issued[k] += (uint64_t)n * nissue;
	cnt->exec[k] += (uint64_t)n * nexec;
}

/* Appends the record of pc, an instruction that issues, with nexec
 * threads executing (room for it is reserved by the caller). */
static inline __attribute__((always_inline)) void emit(struct decode *d, uint32_t pc, uint32_t nexec)
{
	const struct ov_prog *op = d->op;
	const struct ov_pcinfo *pi = &op->pc[pc];
	uint32_t r = op->tmpl[pc] | nexec << 2;
	if (pi->nsem) {
		uint32_t w = 0;
		const uint32_t *sem = op->sem + pi->sem_off;
		for (uint32_t i = 0; i < pi->nsem; i++)
			if (d->lastw[sem[i]] > w)
				w = d->lastw[sem[i]];
		if (w) {
			uint32_t dist = d->ord - w + 1;
			r |= (dist > OV_RING - 1 ? OV_RING - 1 : dist) << 6;
		}
	}
	if (pi->kind == OV_K_ALU) {
		d->last_alu = pc;
	} else {
		if (d->last_alu != UINT32_MAX && (op->touch[pc] & op->defmask[d->last_alu]) &&
		    touches_defs_of(d->p, pc, d->last_alu))
			r |= 1u << 5;
		if (OV_R_CLS(r) == OV_RC_RT) {
			d->ord++;
			for (uint32_t i = op->defsem_off[pc]; i < op->defsem_off[pc + 1]; i++)
				d->lastw[op->defsem[i]] = d->ord;
			d->oc->nreq[OV_R_REQ(r)] += nexec;
			d->oc->nresp[OV_R_RESP(r)] += nexec;
		} else {
			d->oc->nwrite[OV_R_REQ(r)] += nexec;
		}
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

/* A stream's hash (four independent lanes: the decoder hashes every
 * group's records once). */
static uint64_t stream_hash(const uint32_t *r, uint64_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h[4] = { n, 1, 2, 3 };
	uint64_t i = 0;
	for (; i + 4 <= n; i += 4)
		for (int j = 0; j < 4; j++)
			h[j] = (h[j] ^ r[i + j]) * k;
	for (; i < n; i++)
		h[0] = (h[0] ^ r[i]) * k;
	return (h[0] ^ h[1] * 3 ^ h[2] * 5 ^ h[3] * 7) * k;
}

/* Group g's records were appended from oc->grp[g].off: when a group
 * before it has the same stream, g shares that one and they go. */
static void share_stream(struct decode *d, uint32_t g)
{
	struct ov_cta *oc = d->oc;
	struct ov_span *sp = &oc->grp[g];
	sp->n = oc->nrec - sp->off;
	oc->nlog += sp->n;
	const uint32_t *rec = oc->rec + sp->off;
	uint64_t h = stream_hash(rec, sp->n);
	for (uint32_t k = d->ndistinct; k-- > 0;) {
		const struct ov_span *o = &oc->grp[d->dgroup[k]];
		if (d->dhash[k] == h && o->n == sp->n &&
		    (!sp->n || !memcmp(oc->rec + o->off, rec, sp->n * sizeof(*rec)))) {
			oc->nrec = sp->off;
			*sp = *o;
			return;
		}
	}
	d->dhash[d->ndistinct] = h;
	d->dgroup[d->ndistinct++] = g;
}

int weft_overlay_decode_cta(const struct ov_prog *op, const struct weft_group_prog *gp,
			    struct weft_group_iter *it, const struct weft_cta_trace *c,
			    uint32_t launch, struct ov_cta **out, struct weft_error *err)
{
	*out = NULL;
	struct ov_cta *oc = calloc(1, sizeof(*oc));
	uint32_t ng = weft_group_count(c->nthreads, OV_BATCH);
	struct decode d = { op, gp->p, oc, NULL, 0, 0, 0, NULL, NULL, 0 };
	if (oc) {
		oc->launch = launch;
		oc->cta = c->cta;
		oc->ngroups = ng;
		oc->grp = calloc((size_t)ng + 1, sizeof(*oc->grp));
		d.lastw = calloc((size_t)op->nsemregs + 1, sizeof(*d.lastw));
		d.dhash = malloc(((size_t)ng + 1) * sizeof(*d.dhash));
		d.dgroup = malloc(((size_t)ng + 1) * sizeof(*d.dgroup));
	}
	if (!oc || !oc->grp || !d.lastw || !d.dhash || !d.dgroup) {
		free(d.lastw);
		free(d.dhash);
		free(d.dgroup);
		if (oc)
			free(oc->grp);
		free(oc);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding CTA %u", c->cta);
	}
	int rc = 0;
	for (uint32_t g = 0; g < ng && !rc; g++) {
		oc->grp[g].off = oc->nrec;
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
			uint32_t nissue = lanes4[blk.issue & 15];
			if (bi->nguard) {
				/* guard bits: each instruction's own exec mask */
				struct weft_group_inst in;
				while ((rc = weft_group_block_inst(it, &in)) == 1) {
					uint32_t k = op->pc[in.pc].kind, nexec = lanes4[in.exec & 15];
					count(&oc->cnt, k, 1, nexec, nissue);
					if (k < OV_K_CONST)
						emit(&d, in.pc, nexec);
				}
				if (rc < 0)
					break;
			} else {
				/* no guards: every instruction executes for the lanes on the
				 * block, the closing branch for those taking it, an exit for
				 * those leaving (group.h); the iterator skips them all */
				uint32_t non = lanes4[blk.on & 15];
				uint64_t e = blk.on;
				if (bi->end == WEFT_GEND_BRA && bi->guarded_bra)
					e = blk.taken;
				else if (bi->end == WEFT_GEND_EXIT)
					e = blk.exiting;
				const uint16_t *bc = op->bcnt[blk.block];
				for (uint32_t k = 0; k < OV_K_COUNT; k++)
					if (bc[k])
						count(&oc->cnt, k, bc[k], non, nissue);
				count(&oc->cnt, op->blast[blk.block], 1, lanes4[e & 15], nissue);
				/* an issuing last instruction ends the block by falling
				 * through: its lanes are the block's too */
				for (uint32_t j = op->brec_off[blk.block]; j < op->brec_off[blk.block + 1]; j++)
					emit(&d, op->brec[j], non);
			}
		}
		if (d.nomem)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory decoding CTA %u", c->cta);
		else if (rc == 0)
			share_stream(&d, g);
	}
	free(d.lastw);
	free(d.dhash);
	free(d.dgroup);
	if (rc < 0) {
		free(oc->rec);
		free(oc->grp);
		free(oc);
		return rc;
	}
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
	if (!m->b) {
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
	weft_overlay_solo_clear(m);
	weft_overlay_steady_clear(m);
	free(m->st_key);
	m->st_key = NULL;
	m->st_cap = 0;
	free(m->b);
	m->b = NULL;
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
	for (uint32_t i = 0; i < m->nlater; i++)
		weft_overlay_cta_unref(m->qlater[i]);
	m->nlater = 0;
	m->qgroups = m->qrecords = 0;
	memset(m->mask, 0, sizeof(m->mask));
	m->mask[OV_S_EMPTY] = m->all;
	memset(m->wheel, 0, sizeof(m->wheel));
	memset(m->wheel_any, 0, sizeof(m->wheel_any));
	m->far = 0;
	m->p = 0;
	m->rr = m->nb - 1;
	m->port_free = 0;
	m->out_free = m->in_free = 0;
	m->mem_first = UINT64_MAX;
	m->thead = m->tn = 0;
	m->done = 0;
	memset(m->per, 0, sizeof(m->per));
	m->requests = m->writes = 0;
	m->out_busy = m->in_busy = m->lat_sum = m->tag_wait = m->tag_blocked = 0;
	m->out_bytes = m->in_bytes = 0;
	m->tag_peak = 0;
	weft_overlay_solo_clear(m);
	m->solo_hits = 0;
	weft_overlay_steady_clear(m);
	m->steady_jumps = m->steady_periods = 0;
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

/* Context i changes at period q (> m->p): a bulk change of its kind, or
 * one handled alone (OV_EV_OTHER: by b->state). */
static inline void wake_at(struct ov_machine *m, uint32_t i, uint64_t q, int type)
{
	if (q - m->p >= OV_WHEEL) {
		m->b[i].ev = q;
		m->b[i].evtype = (uint8_t)type;
		m->far |= 1ull << i;
		return;
	}
	uint32_t k = (uint32_t)(q % OV_WHEEL);
	m->wheel[k].m[type] |= 1ull << i;
	m->wheel_any[k / 64] |= 1ull << (k % 64);
}

/* The drained context's state from period q on (its results written?). */
static void drain_from(struct ov_machine *m, uint32_t i, uint64_t q)
{
	struct ov_batch *b = &m->b[i];
	uint64_t bit = 1ull << i, t = q << PERIOD_SHIFT;
	m->mask[OV_S_DRAIN_PIPE] &= ~bit;
	m->mask[OV_S_DRAIN_SEM] &= ~bit;
	if (b->alu_free > t) {
		b->state = OV_S_DRAIN_PIPE;
		wake_at(m, i, alu_period(b->alu_free), OV_EV_OTHER);
	} else if (b->tex_done > t) {
		b->state = OV_S_DRAIN_SEM;
		wake_at(m, i, alu_period(b->tex_done), OV_EV_OTHER);
	} else {
		b->state = OV_S_DRAIN_FREE;
		b->ev = q;
	}
	m->mask[b->state] |= bit;
}

/* Context i has issued (from ALU_READY after an ALU issue, alu_slot, else
 * from MEM_READY) in period m->p: its next record and state. After an ALU
 * issue a memory instruction may still take this period's TEX slot;
 * everything else waits for the next period. */
static inline __attribute__((always_inline)) void advance(struct ov_machine *m, uint32_t i,
							  int alu_slot)
{
	struct ov_batch *b = &m->b[i];
	uint64_t bit = 1ull << i, next = m->p + 1;
	m->mask[alu_slot ? OV_S_ALU_READY : OV_S_MEM_READY] &= ~bit;
	if (b->cur == b->end) {
		drain_from(m, i, next);
		return;
	}
	uint32_t r = b->next;
	if (++b->cur != b->end)
		b->next = *b->cur; /* (read ahead: not on this advance's path) */
	uint32_t d = OV_R_SEM(r);
	b->rec = r;
	/* (a mask, not a branch: whether a record has a semaphore follows the
	 * kernel's mix, which a branch predictor guesses badly) */
	b->sem = b->ring[(b->nord - d + 1) % OV_RING] & -(uint64_t)(d != 0);
	if (OV_R_CLS(r) == OV_RC_ALU) {
		/* ready when both its semaphores and the pipeline allow */
		uint64_t q = alu_period(umax(b->sem, b->alu_free));
		if (q <= next) {
			m->mask[OV_S_ALU_READY] |= bit;
		} else {
			m->mask[OV_S_ALU_WAIT] |= bit;
			wake_at(m, i, q, OV_EV_ALU);
		}
	} else {
		uint64_t ready = OV_R_DEP(r) ? umax(b->sem, b->alu_free) : b->sem;
		uint64_t q = tex_period(ready);
		if (q <= (alu_slot ? m->p : next)) {
			m->mask[OV_S_MEM_READY] |= bit;
		} else {
			m->mask[OV_S_MEM_WAIT] |= bit;
			wake_at(m, i, q > next ? q : next, OV_EV_MEM);
		}
	}
}

/* A drained context's step at period m->p. */
static void wake_other(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	if (b->state == OV_S_DRAIN_PIPE || b->state == OV_S_DRAIN_SEM)
		drain_from(m, i, m->p);
}

/* The changes due at period m->p. */
static inline void wake_due(struct ov_machine *m)
{
	uint32_t k = (uint32_t)(m->p % OV_WHEEL);
	uint64_t *any = &m->wheel_any[k / 64], kb = 1ull << (k % 64);
	if (!(*any & kb))
		return;
	*any &= ~kb;
	struct ov_bucket *bk = &m->wheel[k];
	uint64_t x = bk->m[OV_EV_ALU], z = bk->m[OV_EV_MEM], o = bk->m[OV_EV_OTHER];
	bk->m[OV_EV_ALU] = bk->m[OV_EV_MEM] = bk->m[OV_EV_OTHER] = 0;
	m->mask[OV_S_ALU_WAIT] &= ~x;
	m->mask[OV_S_ALU_READY] |= x;
	if (z) {
		m->mask[OV_S_MEM_WAIT] &= ~z;
		m->mask[OV_S_MEM_READY] |= z;
	}
	for (; o; o &= o - 1)
		wake_other(m, (uint32_t)__builtin_ctzll(o));
}

/* Far changes come into the wheel when they are near. */
static void far_near(struct ov_machine *m)
{
	for (uint64_t f = m->far; f; f &= f - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(f);
		if (m->b[i].ev - m->p < OV_WHEEL) {
			m->far &= ~(1ull << i);
			wake_at(m, i, m->b[i].ev, m->b[i].evtype);
		}
	}
}

static void release(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	if (m->solo_on)
		weft_overlay_solo_record(m); /* (its records are the batch's CTA's: before the unref) */
	weft_overlay_cta_unref(b->cta);
	b->cta = NULL;
	b->state = OV_S_EMPTY;
	m->mask[OV_S_DRAIN_FREE] &= ~(1ull << i);
	m->mask[OV_S_EMPTY] |= 1ull << i;
}

/* The next waiting group starts in context i, issuing from this period
 * (its first instruction has no semaphore and no previous ALU
 * instruction: it is ready now). */
static void start(struct ov_machine *m, uint32_t i)
{
	struct ov_batch *b = &m->b[i];
	struct ov_cta *oc = m->qcta;
	uint32_t g = m->qnext;
	uint64_t bit = 1ull << i;
	weft_overlay_cta_ref(oc);
	b->cta = oc;
	b->beg = b->cur = oc->rec + oc->grp[g].off;
	b->end = b->beg + oc->grp[g].n;
	b->same = m->nb > 1 && weft_overlay_steady_same(m, b->beg, (size_t)(b->end - b->beg));
	m->st_odd += !b->same;
	m->started++;
	b->alu_free = b->tex_done = b->sem = 0;
	b->nord = 0;
	weft_overlay_machine_take(m); /* (b holds its own reference) */
	m->mask[OV_S_EMPTY] &= ~bit;
	if (b->cur == b->end) {
		b->state = OV_S_DRAIN_FREE; /* nothing to issue */
		b->ev = m->p;
	} else {
		b->rec = *b->cur++;
		if (b->cur != b->end)
			b->next = *b->cur;
		b->state = OV_R_CLS(b->rec) == OV_RC_ALU ? OV_S_ALU_READY : OV_S_MEM_READY;
	}
	m->mask[b->state] |= bit;
}

/* The first context of mask after rr, round robin; -1 when none. */
static inline int rr_pick(uint64_t mask, uint32_t rr)
{
	if (!mask)
		return -1;
	uint64_t hi = mask & (~1ull << rr); /* rr < 64: the contexts after rr */
	return __builtin_ctzll(hi ? hi : mask);
}

/* Tags a memory instruction of `lanes` executing threads needs to issue. */
static inline uint32_t tag_need(const struct ov_machine *m, uint32_t lanes)
{
	return lanes < m->max_out ? lanes : m->max_out;
}

/* Removes the requests complete by t, keeping at least the newest `keep`. */
static inline void tags_pop(struct ov_machine *m, uint64_t t, uint32_t keep)
{
	uint32_t h = m->thead, n = m->tn;
	const uint64_t *tag = m->tag;
	while (n > keep && tag[h] <= t) {
		h = (h + 1) % OV_MAX_TAGS;
		n--;
	}
	m->thead = h;
	m->tn = n;
}

/* When `need` tags are free (0: now), the outstanding requests as they are. */
static uint64_t tag_time(const struct ov_machine *m, uint32_t need)
{
	uint32_t freen = m->max_out - m->tn;
	if (freen >= need)
		return 0;
	return m->tag[(m->thead + (need - freen) - 1) % OV_MAX_TAGS];
}

/* A round trip's requests, one per executing thread, at time t: each
 * takes a tag (waiting for the oldest when none is free), its request
 * packet on the outgoing link, the fixed latency, its response packet on
 * the incoming link. Returns when the last response is in. The tags the
 * requests took are counted exactly only when they make a new peak; the
 * packets' busy time and bytes were counted when the CTA was fed. */
static inline uint64_t round_trip(struct ov_machine *m, uint64_t t, uint32_t k, uint32_t rq, uint32_t rs)
{
	uint64_t s = m->ser_req[rq], s2 = m->ser_resp[rs], lat = m->lat;
	uint64_t out = m->out_free, in = m->in_free, sum_done = 0;
	if (m->max_out - m->tn >= k) {
		/* a tag for every request now (the usual case: a TEX issues only then) */
		uint32_t tail = m->thead + m->tn;
		uint64_t *tag = m->tag;
		out = umax(t, out);
		for (uint32_t j = 0; j < k; j++) {
			out += s;
			in = umax(out + lat, in) + s2;
			tag[(tail + j) % OV_MAX_TAGS] = in;
			sum_done += in;
		}
		m->tn += k;
	} else {
		/* (the tags were counted exactly before this issue) */
		for (uint32_t j = 0; j < k; j++) {
			uint64_t t0 = t;
			if (m->tn == m->max_out) {
				t0 = umax(t0, m->tag[m->thead]);
				m->thead = (m->thead + 1) % OV_MAX_TAGS;
				m->tn--;
			}
			out = umax(t0, out) + s;
			in = umax(out + lat, in) + s2;
			m->tag[(m->thead + m->tn) % OV_MAX_TAGS] = in;
			m->tn++;
			sum_done += in;
			m->tag_wait += t0 - t;
		}
	}
	m->out_free = out;
	m->in_free = in;
	if (m->tn > m->tag_peak) {
		/* remove the requests complete by t (not these k) and look again */
		tags_pop(m, t, k);
		if (m->tn > m->tag_peak)
			m->tag_peak = m->tn;
	}
	m->lat_sum += sum_done - k * t;
	return k ? in : t;
}

static void issue_mem(struct ov_machine *m, uint32_t i, uint64_t t3)
{
	struct ov_batch *b = &m->b[i];
	uint32_t r = b->rec, k = OV_R_EXEC(r);
	if (t3 < m->mem_first)
		m->mem_first = t3;
	if (OV_R_CLS(r) == OV_RC_STORE) {
		if (k)
			m->out_free = umax(t3, m->out_free) + k * m->ser_write[OV_R_REQ(r)];
	} else {
		uint64_t done = round_trip(m, t3, k, OV_R_REQ(r), OV_R_RESP(r));
		b->nord++;
		b->ring[b->nord % OV_RING] = done;
		if (done > b->tex_done)
			b->tex_done = done;
	}
	uint32_t slots = OV_R_SLOTS(r);
	m->port_free = m->p + (slots ? slots : 1);
	m->rr = i;
	advance(m, i, 0);
}

/* Why a period at time t issues no ALU instruction (the study's
 * reasons): some batch's next ALU instruction has its operands but waits
 * for the pipeline (inside_alu), else one waits on a TEX result
 * (semwait), else none wants the ALU (not_alu); with no batch left to
 * issue, what the finished batches wait for. For semwait, *inside gets
 * the first later period at which a waiting ALU instruction's semaphore
 * clears while its pipeline is still busy (from then on the reason is
 * inside_alu until a state changes). */
static int classify(const struct ov_machine *m, uint64_t t, uint64_t *inside_from)
{
	int inside = 0, sem = 0;
	if (m->mask[OV_S_ALU_WAIT] | m->mask[OV_S_ALU_READY] | m->mask[OV_S_MEM_WAIT] |
	    m->mask[OV_S_MEM_READY]) {
		uint64_t f = UINT64_MAX;
		for (uint64_t k = m->mask[OV_S_ALU_WAIT]; k; k &= k - 1) {
			const struct ov_batch *b = &m->b[__builtin_ctzll(k)];
			if (b->sem > t) {
				sem = 1;
				if (b->alu_free > b->sem && alu_period(b->sem) < f)
					f = alu_period(b->sem);
			} else if (b->alu_free > t) {
				inside = 1;
				break;
			}
		}
		*inside_from = f;
	} else {
		for (uint64_t k = m->mask[OV_S_DRAIN_PIPE] | m->mask[OV_S_DRAIN_SEM]; k; k &= k - 1) {
			const struct ov_batch *b = &m->b[__builtin_ctzll(k)];
			if (b->alu_free > t)
				inside = 1;
			else if (b->tex_done > t)
				sem = 1;
		}
	}
	return inside ? OV_C_INSIDE_ALU : sem ? OV_C_SEMWAIT : OV_C_NOT_ALU;
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
	for (uint64_t f = m->far | m->mask[OV_S_DRAIN_FREE]; f; f &= f - 1) {
		uint64_t q = m->b[__builtin_ctzll(f)].ev;
		if (q < best)
			best = q;
	}
	return best;
}

/* Frees drained contexts, starts waiting groups in free ones. Returns 0
 * when the run stops here: a context is free and no group waits (final
 * 0: the next CTA's groups may start now), or every batch is done. */
static int contexts(struct ov_machine *m, int final)
{
	for (uint64_t f = m->mask[OV_S_DRAIN_FREE]; f; f &= f - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(f);
		if (m->b[i].ev <= m->p)
			release(m, i);
	}
	uint64_t started = m->started;
	while (m->mask[OV_S_EMPTY]) {
		if (!m->qcta) {
			if (!final)
				return 0;
			break;
		}
		uint32_t i = (uint32_t)__builtin_ctzll(m->mask[OV_S_EMPTY]);
		if (m->nb == 1) {
			/* alone on the machine: a stream timed before from the same
			 * state takes its recorded result (overlay_solo.c) */
			const struct ov_cta *oc = m->qcta;
			const struct ov_span *sp = &oc->grp[m->qnext];
			if (weft_overlay_solo_replay(m, oc->rec + sp->off, sp->n)) {
				weft_overlay_machine_take(m);
				continue;
			}
		}
		start(m, i);
		if (m->b[i].state == OV_S_DRAIN_FREE)
			release(m, i); /* a batch with nothing to issue */
	}
	if (m->started != started && m->nb > 1 && !m->steady_off)
		weft_overlay_steady_step(m); /* an exact repeat? (overlay_steady.c) */
	if (m->mask[OV_S_EMPTY] == m->all) {
		/* every batch done: the outgoing link still sends the last stores */
		uint64_t q = alu_period(m->out_free);
		if (q > m->p) {
			m->per[OV_C_NOT_ALU] += q - m->p;
			m->p = q;
		}
		m->done = 1;
		return 0;
	}
	return 1;
}

void weft_overlay_machine_run(struct ov_machine *m, int final)
{
	if (m->done)
		return;
	for (;;) {
		if (m->far)
			far_near(m);
		wake_due(m);
		if ((m->mask[OV_S_DRAIN_FREE] | m->mask[OV_S_EMPTY]) && !contexts(m, final))
			return;
		uint64_t T = m->p << PERIOD_SHIFT;
		/* ALU slot, cycle 4p */
		int ia = rr_pick(m->mask[OV_S_ALU_READY], m->rr), im = -1, why = OV_C_ALU;
		uint64_t inside_from = UINT64_MAX;
		if (ia >= 0) {
			m->b[ia].alu_free = T + m->stages;
			m->rr = (uint32_t)ia;
			advance(m, (uint32_t)ia, 1);
		} else {
			why = classify(m, T, &inside_from);
		}
		m->per[why]++;
		/* TEX slot, cycle 4p + 3 */
		uint64_t memq = m->mask[OV_S_MEM_READY];
		if (memq && m->p >= m->port_free) {
			uint64_t t3 = T + ((uint64_t)(OV_PERIOD - 1) << OV_TICK_SHIFT);
			uint32_t freen = m->max_out - m->tn;
			if (freen < OV_BATCH && freen < m->max_out) {
				/* too few tags counted free: remove complete ones, as
				 * many as a batch needs when they are (the oldest
				 * complete first: one comparison), else all of them */
				uint32_t want = (OV_BATCH < m->max_out ? OV_BATCH : m->max_out) - freen;
				if (want <= m->tn && m->tag[(m->thead + want - 1) % OV_MAX_TAGS] <= t3) {
					m->thead = (m->thead + want) % OV_MAX_TAGS;
					m->tn -= want;
				} else {
					tags_pop(m, t3, 0);
				}
				freen = m->max_out - m->tn;
			}
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
			else
				m->tag_blocked++;
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
			tags_pop(m, T + ((uint64_t)(OV_PERIOD - 1) << OV_TICK_SHIFT), 0);
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
			/* the TEX slots skipped while the port is free lack tags */
			uint64_t from = umax(m->p + 1, m->port_free);
			if (q > from)
				m->tag_blocked += q - from;
		}
		if (q <= m->p || q == UINT64_MAX)
			q = m->p + 1; /* (UINT64_MAX cannot happen: a busy context has a change ahead) */
		if (why == OV_C_SEMWAIT && inside_from < q) {
			/* a semaphore clears on the way, the pipeline still busy */
			m->per[OV_C_SEMWAIT] += inside_from - m->p - 1;
			m->per[OV_C_INSIDE_ALU] += q - inside_from;
		} else {
			m->per[why] += q - m->p - 1;
		}
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
