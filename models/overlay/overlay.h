/*
 * overlay.h - the GPU-like FPGA overlay model ("overlay"): a batched,
 * multithreaded soft processor that runs shader-style kernels in batches
 * of 4 threads in lock-step under full predication, issuing into a deeply
 * pipelined floating-point ALU and a HyperTransport memory link (Kingyens
 * and Steffan, "The Potential for a GPU-Like Overlay Architecture for
 * FPGAs", International Journal of Reconfigurable Computing, 2011;
 * docs/models/overlay.md has the mechanisms, constants and assumptions).
 *
 * Internal to models/overlay/: the parameters read from a config, how each
 * PTX instruction maps onto the machine (overlay_map.c), the batch streams
 * a CTA decodes into (shared between the points of a sweep) and the batch
 * scheduler that times them (overlay_sched.c; with one batch context,
 * overlay_solo.c reuses a batch's timing for later batches of the same
 * stream), as small functions the unit tests call on hand-built cases.
 */
#ifndef WEFT_OVERLAY_H
#define WEFT_OVERLAY_H

#include <stdint.h>

#include "models/config.h"
#include "models/group.h"
#include "models/model.h"

/* Threads per batch: the transposed register file reads one operand of
 * the 4 threads of a batch per cycle (Kingyens & Steffan 2011, Table 1). */
#define OV_BATCH 4
/* Cycles per issue period: 3 ALU operand-read cycles (operands A, B, C)
 * and 1 TEX read cycle (Kingyens & Steffan 2011, Table 1 and section 4). */
#define OV_PERIOD 4
/* Most batch contexts: 64 x 4 = 256 threads (Kingyens & Steffan 2011,
 * abstract). */
#define OV_MAX_BATCHES 64
/* Bytes of one register: 4 x 32 bits, the float4 registers of the study's
 * r5xx ISA (Kingyens & Steffan 2011: 4 threads x 128 registers x 16 B =
 * 8 KB per batch). */
#define OV_REG_BYTES 16
/* Most outstanding TEX requests the tag ring holds (the key's range). */
#define OV_MAX_TAGS 256
/* TEX results of a batch remembered for its semaphores (the records'
 * semaphore distance is at most OV_RING - 1). */
#define OV_RING 64

enum ov_lat { OV_LAT_FPGA_REQ = 0, OV_LAT_HOST_REQ, OV_LAT_SDRAM, OV_LAT_RESP_PACKET,
	      OV_LAT_HOST_RESP, OV_LAT_FPGA_RESP, OV_LAT_COUNT };

struct ov_params {
	uint32_t batches;          /* hardware batch contexts */
	double clock_hz;
	uint32_t pipeline_stages;  /* ALU pipeline depth */
	uint32_t max_outstanding;  /* TEX requests in flight */
	double lat_ns[OV_LAT_COUNT];
	uint32_t link_bits;
	double link_mhz;
	int link_ddr;
	uint32_t req_bytes, write_hdr_bytes, resp_hdr_bytes;
	uint32_t regs_per_thread;  /* 0: from the kernel */
	/* derived */
	double lat_cycles;         /* the request's fixed latency in cycles */
	double link_bpc;           /* link bytes per cycle, each direction */
};

int weft_overlay_params_from_config(const struct weft_config *cfg, struct ov_params *pp,
				    struct weft_error *err);

/* ---- the PTX -> machine mapping (overlay_map.c) ---- */

enum ov_kind {
	OV_K_ALU = 0,    /* through the ALU pipeline: arithmetic, logic, compares, moves, cvt, SFU */
	OV_K_TEX,        /* a load over the link (global, local, generic) */
	OV_K_ATOMIC,     /* atom/red: a request carrying data and a response (a TEX round trip) */
	OV_K_STORE,      /* a store: posted writes over the link */
	OV_K_CONST,      /* ld.param / ld.const: a constant operand, folded (no slot) */
	OV_K_CONTROL,    /* bra exit ret, membar/fence, prefetch: the sequencer (no slot) */
	OV_K_COUNT
};
extern const char *const weft_overlay_kind_names[OV_K_COUNT];

struct ov_pcinfo {
	uint8_t kind;       /* enum ov_kind */
	uint8_t slots;      /* TEX read-port periods (memory kinds): register operands read */
	uint8_t req_dw;     /* request data, 32-bit words per lane (stores, atomics) */
	uint8_t resp_dw;    /* response data, 32-bit words per lane (loads, atomics) */
	uint8_t nsem;       /* semaphore registers it reads or writes */
	uint32_t sem_off;   /* first of them in ov_prog.sem */
};

struct ov_prog {
	uint32_t ninsts;
	struct ov_pcinfo *pc;
	uint32_t *sem;         /* compact semaphore-register indices, per pc */
	uint32_t nsemregs;     /* registers some TEX or atomic writes */
	uint32_t *semreg_of;   /* [nregs]: compact index, or UINT32_MAX */
	uint64_t *touch;       /* [ninsts]: registers read or written, bit (reg % 64) */
	uint64_t *defmask;     /* [ninsts]: registers written, bit (reg % 64) */
	uint32_t *tmpl;        /* [ninsts]: the record's static bits (class, data words, periods) */
	uint32_t *defsem;      /* compact indices of the semaphore registers each round trip writes */
	uint32_t *defsem_off;  /* [ninsts + 1] */
	/* per block: instructions of each kind but the last, the last's kind,
	 * and the pcs that issue (ALU and memory), for the decoder */
	uint32_t nblocks;
	uint16_t (*bcnt)[OV_K_COUNT];
	uint8_t *blast;
	uint32_t *brec, *brec_off; /* [nblocks + 1] */
	uint32_t live_words;   /* liveness: 32-bit registers live at once */
	uint32_t kinds[OV_K_COUNT]; /* static count per kind */
};
/* Maps every instruction; a kernel the overlay cannot run (a CTA barrier,
 * shared memory, a warp-level operation) is WEFT_ERR_INPUT naming the pc
 * and the instruction. */
int weft_overlay_prog_build(const struct weft_program *p, struct ov_prog *op,
			    struct weft_error *err);
void weft_overlay_prog_free(struct ov_prog *op);
/* A launch's dynamic shared memory is refused too (WEFT_ERR_INPUT). */
int weft_overlay_check_launch(const struct weft_trace_launch *L, struct weft_error *err);
/* Registers per thread the register file is sized for: the configured
 * count, or (0) the kernel's live 32-bit registers, one per 16-byte
 * register, at least 1. */
uint32_t weft_overlay_regs(const struct ov_params *pp, uint32_t live_words);

/* Register file and FPGA block RAMs (Stratix II) for `batches` batches of
 * `regs` registers per thread. */
struct ov_regfile {
	double bytes_per_batch;  /* 4 threads x regs x 16 B */
	double bytes;            /* batches x bytes_per_batch */
	uint32_t mram;           /* 64 KB M-RAMs (4K x 128 bits), one per thread lane of the batch */
	uint32_t m4k;            /* or 4 Kbit M4Ks (128 x 32 bits used of 128 x 36) */
};
void weft_overlay_regfile(uint32_t batches, uint32_t regs, struct ov_regfile *out);

/* ---- batch streams (overlay_sched.c) ----
 * A record is one batch instruction that takes an issue slot (ALU, TEX,
 * atomic, store), in the batch's issue order under full predication:
 *   bits 0-1   class: 0 ALU, 1 round trip (TEX, atomic), 2 store
 *   bits 2-4   executing lanes (guard true, on the path): requests sent
 *   bit  5     a memory instruction that reads or writes a register the
 *              batch's previous ALU instruction writes: waits until it has
 *              left the pipeline (no hazard detection)
 *   bits 6-12  semaphore: 0 none, else d = how many of the batch's round
 *              trips back is the latest that writes a register this one
 *              reads or writes (1: the last one; at most OV_RING - 1 = 63,
 *              a longer distance waits on the 63rd, which completes no
 *              earlier: completions are in issue order)
 *   bits 13-17 request data words per lane, bits 18-22 response data words
 *   bits 23-24 TEX read-port periods
 */
#define OV_R_CLS(r) ((r) & 3u)
#define OV_R_EXEC(r) (((r) >> 2) & 7u)
#define OV_R_DEP(r) (((r) >> 5) & 1u)
#define OV_R_SEM(r) (((r) >> 6) & 127u)
#define OV_R_REQ(r) (((r) >> 13) & 31u)
#define OV_R_RESP(r) (((r) >> 18) & 31u)
#define OV_R_SLOTS(r) (((r) >> 23) & 3u)
enum { OV_RC_ALU = 0, OV_RC_RT = 1, OV_RC_STORE = 2 };

/* Per kind: batch instructions issued, lanes issued, lanes executing. */
struct ov_counts {
	uint64_t insts[OV_K_COUNT], issued[OV_K_COUNT], exec[OV_K_COUNT];
};

/* A group's records in its CTA's store: rec[off .. off + n). */
struct ov_span {
	uint64_t off, n;
};
/* One CTA's batch streams, decoded once and shared by every sweep point
 * (refcounted: a point holds it while a batch of it runs). Each distinct
 * stream is stored once: groups whose records are the same (a regular
 * kernel's, away from the grid's edges) share them, so the CTA holds its
 * distinct streams, not one stream per group (sgemm_shader at large size:
 * 1 stream instead of 64 per CTA). */
struct ov_cta {
	uint32_t refs;
	uint32_t launch, cta, ngroups;
	uint32_t *rec;           /* the distinct streams, one after another */
	size_t nrec, cap;        /* records stored, room */
	struct ov_span *grp;     /* [ngroups]: group g's stream */
	uint64_t nlog;           /* records of all groups, shared ones counted per group */
	struct ov_counts cnt;
	/* the link's packets, by data words: requests of round trips (and
	 * their responses), write packets of stores; each is sent once
	 * whatever the schedule, so the machine adds their busy time and
	 * bytes when it is fed the CTA instead of per request */
	uint64_t nreq[32], nresp[32], nwrite[32];
};
/* Decodes cta's groups of 4 threads (full predication, models/group.h)
 * into a new ov_cta with refs 0. */
int weft_overlay_decode_cta(const struct ov_prog *op, const struct weft_group_prog *gp,
			    struct weft_group_iter *it, const struct weft_cta_trace *c,
			    uint32_t launch, struct ov_cta **out, struct weft_error *err);
/* (overlay_queue.c) */
void weft_overlay_cta_ref(struct ov_cta *oc);
void weft_overlay_cta_unref(struct ov_cta *oc);

/* CPI components: a period with an ALU issue, or why not. */
enum ov_cpi { OV_C_ALU = 0, OV_C_SEMWAIT, OV_C_INSIDE_ALU, OV_C_NOT_ALU, OV_C_COUNT };
extern const char *const weft_overlay_cpi_names[OV_C_COUNT];

/* What a batch context is doing (overlay_sched.c): its next instruction
 * is an ALU instruction waiting (on a semaphore or on its previous ALU
 * instruction: which one is read from its times when a period is idle)
 * or ready; a memory instruction waiting (semaphore, the previous ALU
 * instruction) or ready (then the read port and the tags decide); or it
 * has issued everything and waits for its last ALU instruction, its last
 * TEX result, or the next period to free. */
enum ov_bstate { OV_S_EMPTY = 0, OV_S_ALU_WAIT, OV_S_ALU_READY, OV_S_MEM_WAIT, OV_S_MEM_READY,
		 OV_S_DRAIN_PIPE, OV_S_DRAIN_SEM, OV_S_DRAIN_FREE, OV_S_COUNT };

/* Scheduled state changes of one period: contexts whose next ALU
 * instruction becomes ready, whose memory instruction becomes ready, and
 * the steps of drained contexts, handled one by one. */
enum { OV_EV_ALU = 0, OV_EV_MEM, OV_EV_OTHER, OV_EV_COUNT };
struct ov_bucket {
	uint64_t m[OV_EV_COUNT];
};

/* Periods the event wheel covers (events further ahead wait in a list). */
#define OV_WHEEL 1024
/* Scheduler times are integer ticks of 1/256 cycle: the study's figures
 * are exact in them at its clocks (305 ns = 30.5 cycles at 100 MHz; a
 * byte takes 1/8 or 1/16 cycle on the 8- or 16-bit link); other clocks
 * round each latency and packet to the nearest tick. */
#define OV_TICK_SHIFT 8
#define OV_TICKS (1u << OV_TICK_SHIFT)

struct ov_batch {
	uint64_t ring[OV_RING]; /* completion of round trip n at [n % OV_RING] */
	const uint32_t *beg, *cur, *end;
	struct ov_cta *cta;
	uint64_t alu_free;  /* its last ALU instruction leaves the pipeline (ticks) */
	uint64_t tex_done;  /* its last round trip's result is written (ticks) */
	uint64_t sem;       /* the next record's semaphore time (ticks) */
	uint64_t ev;        /* a change further than the wheel: its period */
	uint32_t nord;      /* round trips issued */
	uint32_t rec;       /* the record it is to issue */
	uint32_t next;      /* *cur, when cur < end: the record after it */
	uint8_t evtype;     /* ... and its kind (OV_EV_*) */
	uint8_t state;      /* enum ov_bstate, kept for the states OV_EV_OTHER handles */
	uint8_t same;       /* its records are the steady-state reference stream (overlay_steady.c) */
};

/* With one batch context (overlay_solo.c): the result of timing a batch
 * alone, by its records and what it found of the batch before (the
 * outgoing link's and the read port's remaining busy time). */
#define OV_SOLO_ENTRIES 16
#define OV_SOLO_MAX_RECORDS (1u << 18)
struct ov_solo {
	uint32_t *rec;              /* a copy of the stream; NULL: empty entry */
	size_t n;
	uint64_t hash, out_off, port_off;
	uint64_t periods;           /* from its start to its context freeing */
	uint64_t dper[OV_C_COUNT], dlat, dwait, dblocked;
	uint32_t peak;              /* the peak it raised the launch's to, or 0 */
	uint8_t has_out, has_in, has_port, has_first;
	uint64_t out_rel, in_rel, first_rel; /* ticks after its start */
	uint64_t port_rel;          /* periods after its start */
};
/* The batch being timed alone, to be recorded when it frees. */
struct ov_solo_run {
	const uint32_t *rec;
	size_t n;
	uint64_t hash, out_off, port_off, p0;
	uint64_t per0[OV_C_COUNT], lat0, wait0, blocked0;
	uint32_t peak0;
	uint64_t out0, in0, port0, first0;
};

/* Several batch contexts running one stream (overlay_steady.c): the
 * machine's state at a period where batches started, relative to that
 * period, with what had been counted by then. */
#define OV_STEADY_SNAPS 128
/* Recorded states in a row that repeat none (plus 8 per context) after
 * which a launch looks no further: it has no cycle short enough to find
 * (with 32 contexts or more the bundled kernels never repeat a state). */
#define OV_STEADY_GIVE_UP 256
struct ov_steady_snap {
	uint64_t *key;              /* NULL: empty entry */
	size_t nkey;
	uint64_t hash;
	uint64_t p, started;        /* the period, groups started by then */
	uint64_t odd;               /* groups of another stream started by then */
	uint64_t per[OV_C_COUNT], lat, wait, blocked;
};

/* CTAs whose groups may wait at once (with several contexts the model
 * feeds a few before running the machine, so that overlay_steady.c finds
 * more groups waiting; when they start does not depend on it), the most
 * records they may hold, and the most groups: 16 per context up to
 * OV_QUEUE_GROUPS. The cap keeps the machine's runs short when a replay
 * decodes CTAs on other threads: a run drains the queue, and a 2-core
 * walk holds at most 4 decoded CTAs, so a run over 8 of 64 groups each
 * (32 contexts) left the decoder idle and the caller decoding (sgemm_shader
 * large, overlay-ht8, -j 2: the calling thread's CPU 4.45 s against 3.88 s
 * with the cap; -j 1 unchanged within noise, the same reports). */
#define OV_QUEUE_CTAS 16
#define OV_QUEUE_RECORDS (1u << 22)
#define OV_QUEUE_GROUPS 128u

/* The batch scheduler of one configuration over one launch. */
struct ov_machine {
	uint32_t nb, max_out;
	uint64_t stages;            /* ALU pipeline (ticks) */
	uint64_t lat;               /* a request's fixed latency (ticks) */
	uint64_t ser_req[32], ser_resp[32], ser_write[32]; /* packets by data words (ticks) */
	double bpc;
	uint32_t req_hdr, write_hdr, resp_hdr;
	struct ov_batch *b;         /* [nb] */
	uint64_t mask[OV_S_COUNT];  /* contexts by state */
	uint64_t all;               /* every context */
	struct ov_bucket wheel[OV_WHEEL]; /* state changes at period q, at [q % OV_WHEEL] */
	uint64_t wheel_any[OV_WHEEL / 64]; /* non-empty buckets */
	uint64_t far;               /* contexts whose change is OV_WHEEL periods or more ahead */
	struct ov_cta *qcta;        /* groups not yet started: qcta's from qnext, */
	uint32_t qnext;
	struct ov_cta *qlater[OV_QUEUE_CTAS]; /* ... then these CTAs' */
	uint32_t nlater;
	uint64_t qgroups, qrecords; /* groups and records fed, not yet started */
	uint64_t p;                 /* the period now */
	uint32_t rr;                /* the batch that issued last */
	uint64_t port_free;         /* first period the TEX read port is free */
	uint64_t out_free, in_free; /* the link directions are busy until (ticks) */
	uint64_t mem_first;         /* the first memory instruction's issue (ticks), or UINT64_MAX */
	uint64_t tag[OV_MAX_TAGS];  /* requests' completions, oldest first: the outstanding ones,
				       and some already complete (they are removed when the count
				       matters: too few tags left, a new peak) */
	uint32_t thead, tn;
	int done;                   /* the launch's last period is accounted */
	/* accounting */
	uint64_t per[OV_C_COUNT];   /* periods by component */
	uint64_t requests, writes;  /* of the CTAs fed */
	uint64_t out_busy, in_busy; /* ticks, of the CTAs fed */
	uint64_t lat_sum;           /* ticks: requests' TEX issue to response */
	uint64_t tag_wait;          /* ticks: requests' TEX issue to getting a tag */
	uint64_t tag_blocked;       /* periods whose TEX slot a ready TEX left unused: too few tags */
	uint64_t out_bytes, in_bytes;
	uint32_t tag_peak;
	/* one context: batches timed once per stream (overlay_solo.c) */
	struct ov_solo solo[OV_SOLO_ENTRIES];
	uint32_t solo_next;         /* the entry replaced next */
	int solo_on;                /* solo_run is being timed */
	struct ov_solo_run solo_run;
	uint64_t solo_hits;         /* batches that took a recorded result */
	/* several contexts: exact repeats of the whole state (overlay_steady.c) */
	const uint32_t *st_ref;     /* the reference stream (the launch's first batch), or NULL */
	size_t st_n;
	uint32_t st_maxd;           /* its largest semaphore distance */
	uint64_t started;           /* groups started in the launch */
	uint64_t st_odd;            /* ... of them not the reference stream */
	uint64_t st_miss;           /* states recorded in a row that repeated none */
	struct ov_steady_snap st[OV_STEADY_SNAPS];
	uint32_t st_next;           /* the entry replaced next */
	uint64_t *st_key;           /* scratch: the key being built */
	size_t st_cap;
	uint64_t steady_jumps, steady_periods; /* jumps taken, periods they skipped */
	int steady_off;             /* 1: time every period (the unit tests' reference) */
};
int weft_overlay_machine_init(struct ov_machine *m, const struct ov_params *pp, struct weft_error *err);
void weft_overlay_machine_free(struct ov_machine *m);
/* Empties the machine for a new launch (releases what it holds). */
void weft_overlay_machine_reset(struct ov_machine *m);
/* The queue (overlay_queue.c). Gives the machine oc's groups (takes a
 * reference), after those waiting;
 * the queue must have room (weft_overlay_machine_queue_full). */
void weft_overlay_machine_feed(struct ov_machine *m, struct ov_cta *oc);
/* 1 when the machine should run before it is fed again: one context (it
 * runs after every CTA), or the queue holds OV_QUEUE_CTAS CTAs,
 * OV_QUEUE_RECORDS records, 16 groups per context or OV_QUEUE_GROUPS. */
int weft_overlay_machine_queue_full(const struct ov_machine *m);
/* Takes the next waiting group: moves on to the next CTA when qcta's are
 * all taken. */
void weft_overlay_machine_take(struct ov_machine *m);
/* Runs periods until a batch context is free and no group waits (final 0:
 * the next CTA's groups may start then), or, final 1, until every batch
 * has finished and the link is idle. */
void weft_overlay_machine_run(struct ov_machine *m, int final);
/* One context (overlay_solo.c): with the machine free at period m->p,
 * the batch of records rec[0..n) takes a recorded result of the same
 * stream from the same state (1: the machine is where the batch leaves
 * it, the context free), or (0) it is to be timed and recorded when it
 * frees (weft_overlay_solo_record). */
int weft_overlay_solo_replay(struct ov_machine *m, const uint32_t *rec, size_t n);
void weft_overlay_solo_record(struct ov_machine *m);
/* Forgets every recorded stream (a new launch). */
void weft_overlay_solo_clear(struct ov_machine *m);
/* Several contexts (overlay_steady.c): after the batches of period m->p
 * have started, records the machine's state and, when it repeats an
 * earlier one exactly and the groups waiting are the same stream, moves
 * the machine as many whole repetitions ahead as the waiting groups
 * allow. */
void weft_overlay_steady_step(struct ov_machine *m);
/* Whether a started batch's records are the reference stream (the first
 * batch of the launch sets it). */
int weft_overlay_steady_same(struct ov_machine *m, const uint32_t *rec, size_t n);
/* Forgets the reference stream and the recorded states (a new launch). */
void weft_overlay_steady_clear(struct ov_machine *m);
/* Cycles of the finished launch: periods x 4. */
double weft_overlay_machine_cycles(const struct ov_machine *m);
/* Ticks as cycles. */
static inline double weft_overlay_cycles_of(uint64_t ticks)
{
	return (double)ticks / OV_TICKS;
}

#endif
