/*
 * emu_par.c - a launch's CTAs on several threads (weft_ctx_options.jobs),
 * with the same device memory, trace and errors as one thread gives.
 *
 * Why CTAs: CUDA gives the CTAs of a launch no order and no way to wait
 * for each other, so a kernel whose result depends on which CTA ran first
 * is racy on a GPU too, with one exception the hardware orders for it:
 * global atomics (and the fences and volatile accesses that publish data
 * through them, e.g. the "last block" of a threadfence reduction). A
 * launch whose kernel uses any of them, or reads %clock (its value counts
 * the instructions of every CTA before), runs on one thread
 * (weft_emu_par_safe says which instruction decided it); shared-memory
 * atomics stay inside a CTA and do not serialise. So does a launch whose
 * kernel calls printf while the context has a print handler: its text
 * comes out in CTA order, as one thread prints it, and a print handler
 * that drops text past a limit (cudart's FIFO) drops the same calls.
 *
 * How: each worker has its own launch state (warps, registers, local
 * frames, shared memory, the allocation cache; weft_emu_launch_alloc) and
 * an observer recorder. Workers claim a batch of consecutive CTAs under a
 * mutex (batch_size), run them one after another into the recorder
 * (handing each to the observer's worker_cta_end as it ends: the trace
 * writer encodes it there and keeps it for its commit), then wait for the
 * batch's turn: CTA c commits (its record goes
 * to the observer's cta_commit, its counts to the context) only after CTA
 * c-1 did, so the observer sees CTAs in the order one thread gives them,
 * and a batch commits in one turn; then,
 * outside the order, it does what its commit left it (worker_after_commit:
 * the trace writer compresses the chunk the commit closed, and chunks are
 * written in their order by whichever worker completes the run). An
 * error stops the launch at the first failing CTA in CTA order, the same
 * error one thread reports, and the CTAs after it are dropped.
 *
 * The one difference from one thread: an instruction budget
 * (--max-launch-insts, --max-thread-insts) counts the launch's CTAs in CTA
 * order at their commit. A CTA that alone passes what was left of the
 * budget when the launch started stops where one thread would have
 * stopped it had it been the launch's first CTA; a budget that runs out
 * across CTAs is reported at the CTA it runs out in, without a thread and
 * PC (one thread stops inside that CTA). Both are errors, so no trace or
 * report differs.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/pool.h"
#include "emu.h"

int weft_emu_par_safe(const struct weft_emu_prog *P, int printing, const char **why)
{
	for (uint32_t i = 0; i < P->ninsts; i++) {
		const struct weft_emu_inst *ei = &P->insts[i];
		int op = ei->in.op;
		if (printing && ei->fn == weft_emu_printf) {
			*why = "device printf";
			return 0;
		}
		if ((op == WEFT_OP_ATOM || op == WEFT_OP_RED) && ei->space != WEFT_SPACE_SHARED) {
			*why = "global atomics";
			return 0;
		}
		if (op == WEFT_OP_MEMBAR || op == WEFT_OP_FENCE) {
			*why = "memory fences";
			return 0;
		}
		if ((op == WEFT_OP_LD || op == WEFT_OP_ST || op == WEFT_OP_LDU) && ei->space != WEFT_SPACE_SHARED &&
		    ei->space != WEFT_SPACE_LOCAL && ei->space != WEFT_SPACE_PARAM &&
		    (ei->in.flags & (WEFT_F_VOLATILE | WEFT_F_ACQUIRE | WEFT_F_RELEASE | WEFT_F_ACQ_REL))) {
			*why = "volatile or ordered global accesses";
			return 0;
		}
		if (ei->reads_clock) {
			*why = "clock reads";
			return 0;
		}
	}
	*why = NULL;
	return 1;
}

struct par {
	struct weft_emu_launch *L0; /* the caller's launch: grid, program, budget */
	const struct weft_emu_observer *obs;
	uint32_t total, quantum;
	uint32_t jobs, warps_per_cta;
	uint32_t next_claim, next_commit;
	int stop;                   /* an error was committed: claim nothing more */
	int rc;                     /* the error committed first (in CTA order) */
	int late_rc;                /* an error of worker_after_commit (I/O, memory) */
	struct weft_error late_err;
	uint64_t remaining;         /* budget left at the launch's start */
	int spin;                   /* a worker may spin for its turn (wait_turn) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* How long a worker whose batch has run polls for its turn before it
 * sleeps on the condition variable, when every worker has a CPU of its
 * own (a worker that spins on a shared CPU would delay the one it waits
 * for). Most turns come within it: gaussian at large size with two
 * workers slept 12000-15000 times a run without polling, 1400-2000
 * times polling about 100 us, about 800 at 200 us and 420 at about 1 ms;
 * at 200 us its system time fell 0.32 -> 0.18 s and its mean wall time
 * about 8% (docs/emulator.md "In order"). */
#define PAR_SPIN_NS 200000L

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Polls, without the mutex, until CTA c's turn comes or the launch stops,
 * for at most PAR_SPIN_NS (the clock read every 256 polls). next_commit
 * and stop are written with atomic stores under the mutex, so these loads
 * race with nothing; wait_turn decides under the mutex either way. */
static void spin_for_turn(const struct par *p, uint32_t c)
{
	int64_t until = 0;
	for (uint32_t i = 0;; i++) {
		if (__atomic_load_n(&p->next_commit, __ATOMIC_ACQUIRE) == c ||
		    __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			return;
		if (!(i & 255)) {
			int64_t t = now_ns();
			if (!until)
				until = t + PAR_SPIN_NS;
			else if (t >= until)
				return;
		}
		cpu_relax();
	}
}

/* Waits for CTA c's turn to commit; 0 when it came, 1 when the launch
 * stopped at an earlier CTA. */
static int wait_turn(struct par *p, uint32_t c)
{
	if (p->spin)
		spin_for_turn(p, c);
	pthread_mutex_lock(&p->mu);
	while (!p->stop && p->next_commit != c)
		pthread_cond_wait(&p->cv, &p->mu);
	int stopped = p->stop;
	pthread_mutex_unlock(&p->mu);
	return stopped;
}

/* Ends a turn that committed n CTAs; rc: the launch stops with it (the
 * first error, at the CTA after those n). */
static void end_turn(struct par *p, uint32_t n, int rc)
{
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->next_commit, p->next_commit + n, __ATOMIC_RELEASE);
	if (rc) {
		__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
		p->rc = rc;
	}
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* Commits CTA c (its turn): the budget, the observer, the counts. */
static int commit(struct par *p, struct weft_emu_launch *W, void *rec, uint32_t c,
		  const struct weft_ctx_stats *cs)
{
	struct weft_emu_launch *L0 = p->L0;
	struct weft_ctx *ctx = L0->ctx;
	uint64_t ti = ctx->stats.thread_insts;
	if (cs->thread_insts > L0->stop_at - ti) {
		uint64_t limit = ctx->opts.max_thread_insts;
		if (limit && ti + cs->thread_insts > limit)
			return weft_error_set(L0->err, WEFT_ERR_LIMIT,
					      "kernel %s exceeded --max-thread-insts %" PRIu64
					      " (thread instructions executed in this context; infinite loop?) in CTA "
					      "%u of %u; raise the limit if the kernel is just long",
					      L0->kname, limit, c, p->total);
		return weft_error_set(L0->err, WEFT_ERR_LIMIT,
				      "kernel %s ran out of its launch's instruction budget of %" PRIu64
				      " thread instructions (%s) in CTA %u of %u: a loop that never ends? If the "
				      "kernel is just long, raise %s",
				      L0->kname, L0->budget, L0->budget_from ? L0->budget_from : "--max-launch-insts",
				      c, p->total, L0->budget_from ? "it there" : "it with --max-launch-insts N");
	}
	int rc = 0;
	if (p->obs && (rc = p->obs->cta_commit(p->obs->user, rec, c, L0->err)))
		return rc;
	(void)W;
	ctx->stats.thread_insts += cs->thread_insts;
	ctx->stats.warp_insts += cs->warp_insts;
	ctx->stats.ctas++;
	if (ctx->opts.progress && ctx->stats.warp_insts >= L0->next_progress) {
		L0->next_progress = ctx->stats.warp_insts + WEFT_EMU_PROGRESS_EVERY;
		ctx->opts.progress(ctx->opts.progress_user, L0->kname, c, p->total, ctx->stats.thread_insts);
	}
	return 0;
}

/* How many consecutive CTAs a worker claims at once: enough for about
 * PAR_BATCH_INSTS thread instructions at the rate of its last batch (a
 * turn costs a hand-over between threads, the mutex and condition
 * variable and the observer's state moving to the other core, which
 * small CTAs cannot amortise one by one: gaussian at large size, 4.0M
 * CTAs of about 440 thread instructions, took 70.7 s with two workers
 * claiming one CTA each against 6.1 s on one thread), at most
 * PAR_BATCH_MAX CTAs or PAR_BATCH_WARPS warps recorded ahead of the turn,
 * and at most the launch's CTAs left over twice the workers, so that the
 * last batches shrink and the workers finish together. The caps were
 * measured on gaussian large with two workers (best of 3): 4 CTAs 13.9 s,
 * 32 3.54 s, 64 3.30 s, 128 3.54 s, 256 3.44 s (docs/emulator.md "In
 * order"). */
#define PAR_BATCH_INSTS (1u << 17)
#define PAR_BATCH_MAX 64u
#define PAR_BATCH_WARPS 512u

static uint32_t batch_size(const struct par *p, uint64_t last_insts, uint32_t last_n)
{
	uint32_t k = 1;
	if (last_n && last_insts) {
		uint64_t per = last_insts / last_n;
		uint64_t want = per ? PAR_BATCH_INSTS / per : PAR_BATCH_MAX;
		k = want > PAR_BATCH_MAX ? PAR_BATCH_MAX : want ? (uint32_t)want : 1;
	}
	uint32_t wmax = PAR_BATCH_WARPS / (p->warps_per_cta ? p->warps_per_cta : 1);
	if (k > wmax)
		k = wmax ? wmax : 1;
	uint32_t left = p->total - p->next_claim, share = left / (2 * p->jobs);
	if (k > share)
		k = share ? share : 1;
	return k;
}

static void par_worker(void *arg, unsigned wid)
{
	struct par *p = arg;
	(void)wid;
	struct weft_emu_launch W = *p->L0;
	struct weft_error werr;
	weft_error_clear(&werr);
	struct weft_ctx_stats *cs = malloc(PAR_BATCH_MAX * sizeof(*cs));
	void *rec = NULL; /* the observer's recorder */
	W.err = &werr;
	W.cnt = cs;
	W.in_worker = 1;
	W.warps = NULL;
	W.regs = NULL;
	W.local = NULL;
	W.shared = NULL;
	W.acache = NULL;
	int rc = cs ? weft_emu_launch_alloc(&W)
		    : weft_error_set(&werr, WEFT_ERR_NOMEM, "out of memory for a worker's batch");
	if (!rc && p->obs) {
		rec = p->obs->worker_open(p->obs->user, &werr);
		if (!rec)
			rc = werr.code ? werr.code : WEFT_ERR_NOMEM;
		W.obs_warp = p->obs->worker_warp_inst;
		W.obs_user = rec;
	}
	/* a CTA's own count stops it once it alone passes what was left of
	 * the budget when the launch started (a loop that never ends) */
	W.stop_at = p->remaining;
	uint64_t last_insts = 0;
	uint32_t last_n = 0;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		if (p->stop || p->next_claim >= p->total) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		uint32_t k = batch_size(p, last_insts, last_n);
		uint32_t c0 = p->next_claim;
		p->next_claim += k;
		pthread_mutex_unlock(&p->mu);
		/* run the batch; a failing CTA ends it (the CTAs after it in the
		 * batch are dropped, as one thread would never reach them) */
		uint32_t ran = 0;
		while (ran < k) {
			uint32_t i = ran++;
			if (rc)
				break; /* the worker could not start: reported at its first CTA */
			memset(&cs[i], 0, sizeof(cs[i]));
			W.cnt = &cs[i];
			W.next_progress = UINT64_MAX;
			if (p->obs)
				rc = p->obs->worker_cta_begin(rec, c0 + i, &werr);
			if (!rc)
				rc = weft_emu_cta(&W, c0 + i, p->quantum);
			if (!rc && p->obs)
				rc = p->obs->worker_cta_end(rec, c0 + i, &werr);
			if (rc)
				break;
		}
		if (wait_turn(p, c0))
			break;
		/* the turn of c0 is this worker's, and so are those of the
		 * batch's CTAs after it: nobody else commits until end_turn */
		uint32_t done = 0;
		int crc = 0;
		while (done < ran && !crc) {
			if (done == ran - 1 && rc) {
				/* this CTA's error, or the worker could not start:
				 * the first in CTA order is the launch's */
				*p->L0->err = werr;
				crc = rc;
				break;
			}
			crc = commit(p, &W, rec, c0 + done, &cs[done]);
			if (!crc)
				done++;
		}
		end_turn(p, done, crc);
		if (crc)
			break;
		last_insts = 0;
		last_n = done;
		for (uint32_t i = 0; i < done; i++)
			last_insts += cs[i].thread_insts;
		/* what the batch's commits left (one call for all of them) */
		if (done && p->obs && p->obs->worker_after_commit &&
		    (rc = p->obs->worker_after_commit(p->obs->user, rec, &werr))) {
			pthread_mutex_lock(&p->mu);
			if (!p->late_rc) {
				p->late_rc = rc;
				p->late_err = werr;
			}
			__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
			pthread_cond_broadcast(&p->cv);
			pthread_mutex_unlock(&p->mu);
			break;
		}
	}
	if (rec)
		p->obs->worker_close(p->obs->user, rec);
	free(cs);
	weft_emu_launch_free(&W);
}

int weft_emu_run_par(struct weft_emu_launch *L, unsigned jobs)
{
	struct weft_ctx *ctx = L->ctx;
	const struct weft_emu_observer *obs = ctx->opts.observer;
	const struct weft_emu_prog *P = L->prog;
	struct par p;
	memset(&p, 0, sizeof(p));
	p.L0 = L;
	p.obs = obs;
	p.total = L->grid.x * L->grid.y * L->grid.z;
	p.quantum = ctx->opts.quantum ? ctx->opts.quantum : 64;
	p.remaining = L->stop_at > L->ti0 ? L->stop_at - L->ti0 : 0;
	if (jobs > p.total)
		jobs = p.total;
	p.jobs = jobs ? jobs : 1;
	p.spin = p.jobs <= weft_pool_jobs(0);
	uint64_t tpc = (uint64_t)L->block.x * L->block.y * L->block.z;
	p.warps_per_cta = (uint32_t)((tpc + 31) / 32);
	int rc = 0;
	if (obs && obs->launch_begin &&
	    (rc = obs->launch_begin(obs->user, L->mod, P->kernel, L->grid, L->block, L->dyn_shared, L->err)))
		return rc;
	weft_emu_obs_want(L, obs); /* the workers copy L, want included */
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	ctx->stats.parallel_launches++;
	weft_pool_run(jobs, par_worker, &p);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	if (p.rc)
		return p.rc;
	if (p.late_rc) {
		*L->err = p.late_err;
		return p.late_rc;
	}
	if (p.next_commit != p.total)
		return weft_error_set(L->err, WEFT_ERR_INTERNAL,
				      "internal error: kernel %s: %u of %u CTAs ran on the worker threads",
				      L->kname, p.next_commit, p.total);
	weft_emu_obs_counts(L, obs);
	if (obs && obs->launch_end && (rc = obs->launch_end(obs->user, L->err)))
		return rc;
	return 0;
}
