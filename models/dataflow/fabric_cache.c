/*
 * fabric_cache.c - launch replays of the fabric model reused across runs in
 * one process, so that a sweep over fabric parameters (token buffer, unit
 * counts, latencies of compute/control/special units, the epoch rule,
 * configuration load, loop splitting, replicas) reads and replays the trace
 * once and only re-times each point.
 *
 * What a replay produces (fabric_replay.c) depends on the trace, the
 * launch, the CTA sample and the replay parameters: cores, L1/L2
 * geometry and policies, L1/L2/DRAM/shared/LVC latencies, shared banks,
 * the LDST and control latencies, hit_pipelined. It does not depend on the
 * token buffer (the entry keeps each LDST node's held latencies, 2 bytes
 * per access, up to 1 M accesses per launch, from which its units are
 * re-fed for any size; beyond that the entry serves only its own size,
 * and a run_many follower, whose units its leader fed while it replayed,
 * any size) or on anything else the timing uses, so a run whose key
 * matches restores the replay: per-pc counts and epoch sums, block visits
 * and trip counts (the timed CTAs' and the warmed ones'), the last CTA's
 * grid padding, cache and bank statistics, events, and the L2 contents
 * left for the next launch (so a later launch replayed afresh still sees
 * the right L2). The dMT model is not cached (its analysis depends on the
 * token buffer).
 *
 * The trace is identified by its header and launch figures (sizes,
 * instruction and access counts, geometry): two different traces that
 * agree on all of them would share entries. Entries are kept in insertion
 * order and evicted oldest first past FABRIC_CACHE_BYTES (8 MiB: the
 * model's memory stays bounded whatever the trace's length; a run_many
 * follower needs only the entry of the launch just replayed). One mutex
 * guards the table. A run alone in its process (weft_config.alone: no
 * later run can look an entry up) records and stores nothing (fabric.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

#define FABRIC_CACHE_BYTES (8ull << 20)

struct fab_key {
	uint64_t sig[8];
	uint32_t launch;
	struct weft_cta_sample sample;
	uint64_t params;
};

struct fab_entry {
	struct fab_key key;
	size_t bytes;
	uint32_t ninsts, nblocks, nloops, cores, l1_banks, sh_banks;
	uint32_t token_buffer;           /* the replay's (its LDST units, without sequences) */
	struct fabric_pc *pc;
	uint64_t *bvisit;
	struct weft_trip_stat *trips;
	struct fabric_launch_acc la;
	double ev[FAB_EV_COUNT];
	uint32_t cta_seq, warmed;
	int pad_known, pad_read;
	uint32_t pad_threads;
	uint64_t *pad_notexec;           /* [ninsts]; the padding's visits follow bvisit's */
	uint64_t *l1_bank, *sh_bank; /* [cores * banks] */
	uint32_t *core_ctas;
	double *core_miss;
	/* the L2 after the launch */
	uint64_t *l2_tag, *l2_used, *l2_bank;
	uint8_t *l2_dirty;
	uint64_t l2_clock, l2_replaced;
	struct weft_cache_stats l2_st;
	/* held-latency sequences per pc (NULL when the replay did not keep
	 * them): seq_all[seq_off[pc] .. seq_off[pc + 1]) */
	uint32_t *seq_off;
	uint16_t *seq_all;
	int seq_marked;     /* seq_all holds toggles (fabric_state.seq_marked) */
	struct fab_entry *next;
};

static pthread_mutex_t fab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fab_entry *fab_head, *fab_tail;
static size_t fab_bytes;

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t weft_fabric_replay_params_hash(const struct fabric_params *fp)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const struct weft_cache_geom *g[2] = { &fp->l1, &fp->l2 };
	for (int i = 0; i < 2; i++) {
		h = fnv(h, g[i]->size_bytes);
		h = fnv(h, g[i]->line_bytes);
		h = fnv(h, g[i]->assoc);
		h = fnv(h, g[i]->banks);
		h = fnv(h, g[i]->write);
		h = fnv(h, (uint64_t)g[i]->write_fetch);
	}
	h = fnv(h, fp->cores);
	h = fnv(h, fp->l1_latency);
	h = fnv(h, fp->l2_latency);
	h = fnv(h, fp->dram_latency);
	h = fnv(h, fp->shmem_latency);
	h = fnv(h, fp->shmem_banks);
	h = fnv(h, fp->lvc_latency);
	h = fnv(h, fp->lat[WEFT_DFU_LDST]);
	h = fnv(h, fp->lat[WEFT_DFU_CONTROL]);
	h = fnv(h, (uint64_t)fp->hit_pipelined);
	return h;
}

static int make_key(const struct fabric_state *s, struct weft_trace *t, uint32_t launch,
		    const struct weft_cta_sample *sample, struct fab_key *k)
{
	const struct weft_trace_info *ti = weft_trace_info(t);
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!ti || !L)
		return -1;
	memset(k, 0, sizeof(*k));
	k->sig[0] = ti->file_bytes;
	k->sig[1] = ti->raw_bytes;
	k->sig[2] = ti->thread_insts;
	k->sig[3] = ti->nlaunches;
	k->sig[4] = L->thread_insts;
	k->sig[5] = L->mem_accesses;
	k->sig[6] = L->chunk_bytes;
	k->sig[7] = ((uint64_t)L->nctas << 32) ^ L->threads_per_cta ^ ((uint64_t)L->program->ninsts << 16);
	k->launch = launch;
	if (sample) {
		k->sample.kind = sample->kind;
		k->sample.every = sample->every;
		k->sample.count = sample->count;
		k->sample.seed = sample->seed;
		k->sample.groups = sample->groups; /* a random group reads other CTAs */
		k->sample.group = sample->group;
		k->sample.drop = sample->drop;
		k->sample.warm = sample->warm; /* warmed caches time the sample differently */
		k->sample.warm_window = sample->warm_window;
	}
	k->params = weft_fabric_replay_params_hash(&s->fp);
	return 0;
}

static int key_eq(const struct fab_key *a, const struct fab_key *b)
{
	return !memcmp(a->sig, b->sig, sizeof(a->sig)) && a->launch == b->launch &&
	       a->sample.kind == b->sample.kind && a->sample.every == b->sample.every &&
	       a->sample.count == b->sample.count && a->sample.seed == b->sample.seed &&
	       a->sample.groups == b->sample.groups && a->sample.group == b->sample.group &&
	       a->sample.drop == b->sample.drop &&
	       a->sample.warm == b->sample.warm && a->sample.warm_window == b->sample.warm_window &&
	       a->params == b->params;
}

static void entry_free(struct fab_entry *e)
{
	if (!e)
		return;
	free(e->pc);
	free(e->bvisit);
	free(e->pad_notexec);
	free(e->trips);
	free(e->l1_bank);
	free(e->sh_bank);
	free(e->core_ctas);
	free(e->core_miss);
	free(e->l2_tag);
	free(e->l2_used);
	free(e->l2_bank);
	free(e->l2_dirty);
	free(e->seq_off);
	free(e->seq_all);
	free(e);
}

int weft_fabric_cache_lookup(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample)
{
	struct fab_key k;
	if (!s->fp.replay_cache || s->fp.dmt || make_key(s, t, launch, sample, &k))
		return 0;
	const struct weft_program *p = s->p;
	int hit = 0;
	pthread_mutex_lock(&fab_lock);
	for (struct fab_entry *e = fab_head; e; e = e->next) {
		if (!key_eq(&e->key, &k) || e->ninsts != p->ninsts || e->nblocks != p->nblocks ||
		    e->nloops != s->an.loops.nloops || e->cores != s->fp.cores ||
		    e->l1_banks != s->fp.l1.banks || e->sh_banks != s->fp.shmem_banks)
			continue;
		if (!s->streamed && !e->seq_all && e->token_buffer != s->fp.token_buffer)
			continue; /* its LDST units cannot be re-fed for this buffer */
		if (s->streamed) {
			/* a follower whose LDST units the leader fed: all but those */
			for (uint32_t pc = 0; pc < e->ninsts; pc++) {
				struct fabric_ldst_q q = s->pc[pc].q;
				s->pc[pc] = e->pc[pc];
				s->pc[pc].q = q;
			}
		} else {
			memcpy(s->pc, e->pc, (size_t)e->ninsts * sizeof(*s->pc));
		}
		if (!s->streamed && e->seq_all) /* this run's token buffer: re-feed its LDST units */
			for (uint32_t pc = 0; pc < e->ninsts; pc++)
				if (s->pc[pc].heap != UINT32_MAX)
					weft_fabric_ldst_refeed(&s->pc[pc].q,
							   s->heaps + (size_t)s->pc[pc].heap * s->fp.token_buffer,
							   e->seq_all + e->seq_off[pc],
							   e->seq_off[pc + 1] - e->seq_off[pc], s->fp.token_buffer,
							   s->fp.epoch_rule, e->seq_marked);
		memcpy(s->bvisit, e->bvisit, (size_t)e->nblocks * sizeof(*s->bvisit));
		memcpy(s->bvisit_warm, e->bvisit + e->nblocks, (size_t)e->nblocks * sizeof(*s->bvisit));
		memcpy(s->pad_bvisit, e->bvisit + 2 * (size_t)e->nblocks, (size_t)e->nblocks * sizeof(*s->bvisit));
		memcpy(s->pad_notexec, e->pad_notexec, (size_t)e->ninsts * sizeof(*s->pad_notexec));
		s->pad_known = e->pad_known;
		s->pad_read = e->pad_read;
		s->pad_threads = e->pad_threads;
		if (e->nloops) {
			memcpy(s->trips.stat, e->trips, (size_t)e->nloops * sizeof(*e->trips));
			memcpy(s->trips_warm.stat, e->trips + e->nloops, (size_t)e->nloops * sizeof(*e->trips));
			memcpy(s->pad_trips, e->trips + 2 * (size_t)e->nloops, (size_t)e->nloops * sizeof(*e->trips));
		}
		s->la = e->la;
		memcpy(s->ev, e->ev, sizeof(s->ev));
		s->cta_seq = e->cta_seq;
		s->warmed = e->warmed; /* the timing expands per core when warmed */
		for (uint32_t c = 0; c < e->cores; c++) {
			memcpy(s->cores[c].l1_bank, e->l1_bank + (size_t)c * e->l1_banks,
			       e->l1_banks * sizeof(uint64_t));
			memcpy(s->cores[c].sh_bank, e->sh_bank + (size_t)c * e->sh_banks,
			       e->sh_banks * sizeof(uint64_t));
			s->cores[c].ctas = e->core_ctas[c];
			s->cores[c].miss_cycles = e->core_miss[c];
		}
		size_t lines = (size_t)s->l2.nsets * s->l2.g.assoc;
		memcpy(s->l2.tag, e->l2_tag, lines * sizeof(uint64_t));
		weft_cache_recount(&s->l2);
		s->l2.replaced = e->l2_replaced;
		memcpy(s->l2.used, e->l2_used, lines * sizeof(uint64_t));
		memcpy(s->l2.dirty, e->l2_dirty, lines);
		memcpy(s->l2.bank_accesses, e->l2_bank, s->l2.g.banks * sizeof(uint64_t));
		s->l2.clock = e->l2_clock;
		s->l2.st = e->l2_st;
		hit = 1;
		break;
	}
	pthread_mutex_unlock(&fab_lock);
	return hit;
}

void weft_fabric_cache_store(struct fabric_state *s, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample)
{
	struct fab_key k;
	if (!s->fp.replay_cache || s->fp.dmt || make_key(s, t, launch, sample, &k))
		return;
	const struct weft_program *p = s->p;
	struct fab_entry *e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->key = k;
	e->ninsts = p->ninsts;
	e->nblocks = p->nblocks;
	e->nloops = s->an.loops.nloops;
	e->cores = s->fp.cores;
	e->l1_banks = s->fp.l1.banks;
	e->sh_banks = s->fp.shmem_banks;
	e->token_buffer = s->fp.token_buffer;
	size_t lines = (size_t)s->l2.nsets * s->l2.g.assoc;
	e->pc = malloc(((size_t)e->ninsts + 1) * sizeof(*e->pc));
	/* the timed CTAs' visits and trips, then the warmed CTAs', then the
	 * last CTA's grid padding's */
	e->bvisit = malloc((3 * (size_t)e->nblocks + 1) * sizeof(*e->bvisit));
	e->pad_notexec = malloc(((size_t)e->ninsts + 1) * sizeof(*e->pad_notexec));
	e->trips = malloc((3 * (size_t)e->nloops + 1) * sizeof(*e->trips));
	e->l1_bank = malloc((size_t)e->cores * e->l1_banks * sizeof(uint64_t));
	e->sh_bank = malloc((size_t)e->cores * e->sh_banks * sizeof(uint64_t));
	e->core_ctas = malloc((size_t)e->cores * sizeof(uint32_t));
	e->core_miss = malloc((size_t)e->cores * sizeof(double));
	e->l2_tag = malloc(lines * sizeof(uint64_t));
	e->l2_used = malloc(lines * sizeof(uint64_t));
	e->l2_dirty = malloc(lines + 1);
	e->l2_bank = malloc(s->l2.g.banks * sizeof(uint64_t));
	if (!e->pc || !e->bvisit || !e->pad_notexec || !e->trips || !e->l1_bank || !e->sh_bank || !e->core_ctas ||
	    !e->core_miss || !e->l2_tag || !e->l2_used || !e->l2_dirty || !e->l2_bank) {
		entry_free(e);
		return;
	}
	memcpy(e->pc, s->pc, (size_t)e->ninsts * sizeof(*e->pc));
	memcpy(e->bvisit, s->bvisit, (size_t)e->nblocks * sizeof(*e->bvisit));
	memcpy(e->bvisit + e->nblocks, s->bvisit_warm, (size_t)e->nblocks * sizeof(*e->bvisit));
	memcpy(e->bvisit + 2 * (size_t)e->nblocks, s->pad_bvisit, (size_t)e->nblocks * sizeof(*e->bvisit));
	memcpy(e->pad_notexec, s->pad_notexec, (size_t)e->ninsts * sizeof(*e->pad_notexec));
	e->pad_known = s->pad_known;
	e->pad_read = s->pad_read;
	e->pad_threads = s->pad_threads;
	if (e->nloops) {
		memcpy(e->trips, s->trips.stat, (size_t)e->nloops * sizeof(*e->trips));
		memcpy(e->trips + e->nloops, s->trips_warm.stat, (size_t)e->nloops * sizeof(*e->trips));
		memcpy(e->trips + 2 * (size_t)e->nloops, s->pad_trips, (size_t)e->nloops * sizeof(*e->trips));
	}
	e->la = s->la;
	memcpy(e->ev, s->ev, sizeof(e->ev));
	e->cta_seq = s->cta_seq;
	e->warmed = s->warmed;
	for (uint32_t c = 0; c < e->cores; c++) {
		memcpy(e->l1_bank + (size_t)c * e->l1_banks, s->cores[c].l1_bank, e->l1_banks * sizeof(uint64_t));
		memcpy(e->sh_bank + (size_t)c * e->sh_banks, s->cores[c].sh_bank, e->sh_banks * sizeof(uint64_t));
		e->core_ctas[c] = s->cores[c].ctas;
		e->core_miss[c] = s->cores[c].miss_cycles;
	}
	memcpy(e->l2_tag, s->l2.tag, lines * sizeof(uint64_t));
	memcpy(e->l2_used, s->l2.used, lines * sizeof(uint64_t));
	memcpy(e->l2_dirty, s->l2.dirty, lines);
	memcpy(e->l2_bank, s->l2.bank_accesses, s->l2.g.banks * sizeof(uint64_t));
	e->l2_clock = s->l2.clock;
	e->l2_replaced = s->l2.replaced;
	e->l2_st = s->l2.st;
	if (s->seq_ok) {
		e->seq_marked = s->seq_marked;
		e->seq_off = malloc(((size_t)e->ninsts + 1) * sizeof(uint32_t));
		e->seq_all = malloc((s->seq_total + 1) * sizeof(uint16_t));
		if (e->seq_off && e->seq_all) {
			uint32_t o = 0;
			for (uint32_t pc = 0; pc < e->ninsts; pc++) {
				e->seq_off[pc] = o;
				if (s->seq_n[pc])
					memcpy(e->seq_all + o, s->seq[pc], s->seq_n[pc] * sizeof(uint16_t));
				o += s->seq_n[pc];
			}
			e->seq_off[e->ninsts] = o;
		} else {
			free(e->seq_off);
			free(e->seq_all);
			e->seq_off = NULL;
			e->seq_all = NULL;
		}
	}
	e->bytes = (e->seq_all ? s->seq_total * 2 + (size_t)e->ninsts * 4 : 0) + sizeof(*e) +
		   (size_t)e->ninsts * sizeof(*e->pc) + (size_t)e->nblocks * 24 + (size_t)e->ninsts * 8 +
		   (size_t)e->nloops * 3 * sizeof(*e->trips) + (size_t)e->cores * (e->l1_banks + e->sh_banks) * 8 +
		   lines * 17 + s->l2.g.banks * 8;
	if (e->bytes > FABRIC_CACHE_BYTES) {
		entry_free(e);
		return;
	}
	pthread_mutex_lock(&fab_lock);
	while (fab_head && fab_bytes + e->bytes > FABRIC_CACHE_BYTES) {
		struct fab_entry *old = fab_head;
		fab_head = old->next;
		if (!fab_head)
			fab_tail = NULL;
		fab_bytes -= old->bytes;
		entry_free(old);
	}
	if (fab_tail)
		fab_tail->next = e;
	else
		fab_head = e;
	fab_tail = e;
	fab_bytes += e->bytes;
	pthread_mutex_unlock(&fab_lock);
}

size_t weft_fabric_cache_bytes(void)
{
	pthread_mutex_lock(&fab_lock);
	size_t b = fab_bytes;
	pthread_mutex_unlock(&fab_lock);
	return b;
}

void weft_fabric_cache_clear(void)
{
	pthread_mutex_lock(&fab_lock);
	while (fab_head) {
		struct fab_entry *e = fab_head;
		fab_head = e->next;
		entry_free(e);
	}
	fab_tail = NULL;
	fab_bytes = 0;
	pthread_mutex_unlock(&fab_lock);
}
