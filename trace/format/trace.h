/*
 * trace.h - weft trace files (.wtr): write them while emulating, read them
 * back launch -> CTA -> thread -> dynamic instruction.
 *
 * The format is specified in docs/trace-format.md. In short: one file holds
 * every launch of a program run; each launch has its static program
 * (program.h) and geometry; per-thread dynamic behaviour (block path, guard
 * outcomes of predicated instructions, memory addresses) is stored in zstd
 * chunks of whole CTAs that decode independently, each with a checksum and
 * an entry in an index at the end of the file.
 *
 * Writing: a struct weft_trace_writer is an emulator observer (host.h):
 *
 *     weft_trace_writer_open(path, level, &w, &err);
 *     opts.observer = weft_trace_writer_observer(w);
 *     ... run launches through a ctx created with opts ...
 *     weft_trace_writer_set_baseline(w, &perf);    (optional)
 *     weft_trace_writer_commit(w, &err);           (fsync, then named)
 *
 * An uncommitted writer (weft_trace_writer_abort, or a crash) leaves no file
 * at path (common/file.h); at most, where the filesystem has no O_TMPFILE,
 * a NAME.tmp.weft-XXXXXX which `verify` rejects as incomplete.
 *
 * Reading: weft_trace_open() checks the header, version and index;
 * weft_trace_read_cta() decodes one CTA (random access) into a reusable
 * struct weft_cta_trace; weft_thread_iter walks one thread's dynamic
 * instructions. Memory use is bounded by one chunk.
 */
#ifndef WEFT_TRACE_H
#define WEFT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"
#include "common/hostperf.h"
#include "trace/ptx/program.h"

#define WEFT_TRACE_VERSION 1

/* ---- writing ---- */

struct weft_trace_writer;

/* level: zstd compression level (1..19; 0 = default 1). */
int weft_trace_writer_open(const char *path, int level, struct weft_trace_writer **out,
			   struct weft_error *err);
const struct weft_emu_observer *weft_trace_writer_observer(struct weft_trace_writer *w);
/* Records the workload's measured host baseline (stored in the file). */
void weft_trace_writer_set_baseline(struct weft_trace_writer *w, const struct weft_hostperf *perf,
				    const char *what);
/* Records which bundled workload and size the trace comes from (stored in
 * the file; "" or NULL when traced from a spec or a custom driver). */
void weft_trace_writer_set_workload(struct weft_trace_writer *w, const char *workload,
				    const char *size);
/* A name the file being written can be opened by until commit: its
 * temporary name, or /proc/self/fd/N while it has none (common/file.h's
 * struct weft_file_out tmp), e.g. for a signal handler that removes a
 * named temporary file on interrupt (unlinking the /proc name fails
 * harmlessly; an unnamed file vanishes with the process anyway). */
const char *weft_trace_writer_temp_path(const struct weft_trace_writer *w);
/* Writes the index and footer, fsyncs, puts the file in place, frees w. */
int weft_trace_writer_commit(struct weft_trace_writer *w, struct weft_error *err);
/* Removes the temporary file, frees w. */
void weft_trace_writer_abort(struct weft_trace_writer *w);

/* ---- reading ---- */

struct weft_trace;

struct weft_trace_launch {
	uint32_t index;
	struct weft_dim3 grid, block;
	uint32_t dyn_shared;
	uint32_t nctas, threads_per_cta;
	uint64_t thread_insts;   /* executed (guard true) */
	uint64_t warp_insts;     /* as the emulator issued them (width 32, ipdom) */
	uint64_t mem_accesses;   /* per-thread memory accesses */
	const struct weft_program *program;
	uint32_t nchunks;        /* chunks holding this launch's CTAs */
	uint64_t chunk_bytes;    /* their size in the file (records included) */
	uint64_t raw_bytes;      /* their uncompressed payload */
	uint64_t stream_bytes[4]; /* raw bytes of the path, guard, address and space streams */
};

struct weft_trace_info {
	uint32_t version;
	uint32_t nlaunches;
	uint64_t file_bytes;
	uint64_t raw_bytes;      /* uncompressed chunk payload */
	uint64_t thread_insts;
	char workload[64];       /* "" when traced from a spec or a custom driver */
	char size[16];
	int has_baseline;
	struct weft_hostperf baseline;
	char baseline_what[64];
};

int weft_trace_open(const char *path, struct weft_trace **out, struct weft_error *err);
void weft_trace_close(struct weft_trace *t);
/* A second, independent reader of the same file (its descriptor is
 * duplicated, so it is the same file even if the path was replaced), for
 * another thread: one struct weft_trace is used by one thread at a time.
 * It inherits t's job count. */
int weft_trace_reopen(const struct weft_trace *t, struct weft_trace **out, struct weft_error *err);
/* The threads weft_trace_for_each_cta uses when its caller passes 0 (the
 * models do), counting the caller's: 1 decodes in the caller's thread,
 * N >= 2 runs N - 1 decoders ahead of it, 0 (the default) one thread per
 * online CPU. The models' sweeps (weft_model_run_many) also time up to
 * this many configurations at once. weft-estimate -j sets it. */
void weft_trace_set_jobs(struct weft_trace *t, unsigned jobs);
unsigned weft_trace_jobs(const struct weft_trace *t);
const struct weft_trace_info *weft_trace_info(const struct weft_trace *t);
const struct weft_trace_launch *weft_trace_launch(const struct weft_trace *t, uint32_t launch);

/* One CTA decoded. Threads are in linear thread-id order (x fastest). */
struct weft_thread_trace {
	uint32_t nblocks;        /* blocks on the path */
	const uint32_t *blocks;  /* path: block indices in execution order */
	uint32_t nguards;
	const uint8_t *guards;   /* one 0/1 per reached guarded non-branch
				    instruction, in order */
	uint32_t naddrs;
	/* one address per executed memory instruction, in order: read them
	 * with weft_thread_addr. The decoder stores a CTA's compactly, each
	 * as a 4-byte offset from its space's base in the CTA (addr_off,
	 * addr_base; addrs NULL), unless one does not fit: then the whole
	 * CTA's are full addresses (addrs). A thread built by hand sets
	 * addrs. */
	const uint64_t *addrs;
	const uint32_t *addr_off;
	const uint64_t *addr_base; /* [WEFT_SPACE_COUNT] */
	const uint8_t *spaces;   /* resolved state space of each address */
};

/* Address i (< naddrs) of thread t. */
static inline uint64_t weft_thread_addr(const struct weft_thread_trace *t, uint32_t i)
{
	return t->addrs ? t->addrs[i] : t->addr_base[t->spaces[i]] + t->addr_off[i];
}

struct weft_cta_trace {
	uint32_t launch, cta;    /* linear CTA id */
	uint32_t nthreads;
	struct weft_thread_trace *threads; /* [nthreads] */
	/* storage behind the pointers; reused across weft_trace_read_cta calls */
	void *priv;
};

void weft_cta_trace_init(struct weft_cta_trace *c);
void weft_cta_trace_free(struct weft_cta_trace *c);

/* Decodes CTA `cta` of `launch` into c (reusing its buffers). */
int weft_trace_read_cta(struct weft_trace *t, uint32_t launch, uint32_t cta,
			struct weft_cta_trace *c, struct weft_error *err);

/* A thread's dynamic instruction stream. */
struct weft_dyn_inst {
	uint32_t pc;
	uint8_t exec;            /* 1 executed, 0 predicated off (guard false) */
	uint8_t space;           /* resolved space when has_addr */
	uint8_t has_addr;
	uint64_t addr;
};
struct weft_thread_iter {
	const struct weft_program *p;
	const struct weft_thread_trace *t;
	uint32_t bi, pc, end, gi, ai;
	const uint8_t *flags; /* p->iflags */
};
/* Inline: a model's innermost loop runs once per thread instruction. */
static inline void weft_thread_iter_init(struct weft_thread_iter *it, const struct weft_program *p,
					 const struct weft_thread_trace *t)
{
	it->p = p;
	it->t = t;
	it->flags = p->iflags;
	it->bi = 0;
	it->pc = it->end = 0;
	it->gi = it->ai = 0;
}
/* The less common cases of weft_thread_iter_next: guards and addresses. */
static inline void weft_thread_iter_data_(struct weft_thread_iter *it, struct weft_dyn_inst *out, uint8_t f)
{
	const struct weft_thread_trace *t = it->t;
	if (f & WEFT_II_GUARD)
		out->exec = t->guards[it->gi++];
	else if (f & WEFT_II_GCTRL) /* taken (or exited) unless the path goes on to the fall-through */
		out->exec = it->bi < t->nblocks ? t->blocks[it->bi] != t->blocks[it->bi - 1] + 1 : 1;
	if ((f & WEFT_II_ADDR) && out->exec) {
		out->has_addr = 1;
		out->addr = weft_thread_addr(t, it->ai);
		out->space = t->spaces[it->ai];
		it->ai++;
	}
}
/* 1 and *out filled, or 0 at the end of the thread. */
static inline int weft_thread_iter_next(struct weft_thread_iter *it, struct weft_dyn_inst *out)
{
	uint32_t pc = it->pc;
	if (__builtin_expect(pc == it->end, 0)) {
		const struct weft_thread_trace *t = it->t;
		if (it->bi >= t->nblocks)
			return 0;
		const struct weft_block *B = &it->p->blocks[t->blocks[it->bi++]];
		pc = B->first;
		it->end = B->first + B->count;
	}
	it->pc = pc + 1;
	uint8_t f = it->flags[pc];
	out->pc = pc;
	out->exec = 1;
	out->has_addr = 0;
	out->space = 0;
	out->addr = 0;
	if (f)
		weft_thread_iter_data_(it, out, f);
	return 1;
}

/* CTA sampling: which CTAs of a launch a consumer reads. Recorded by the
 * consumer in its output (weft_cta_sample_describe). */
enum weft_sample_kind { WEFT_SAMPLE_ALL = 0, WEFT_SAMPLE_EVERY, WEFT_SAMPLE_RANDOM };
struct weft_cta_sample {
	enum weft_sample_kind kind;
	uint32_t every;          /* EVERY: every k-th CTA starting at 0 */
	uint32_t count;          /* RANDOM: this many distinct CTAs */
	uint64_t seed;           /* RANDOM */
	/* RANDOM, for interval estimates (estimate/sample_ci.h): groups >= 2
	 * splits the launch's random sample into min(groups, sample size)
	 * disjoint random groups of near-equal size (a seeded shuffle) and
	 * keeps only group `group` mod that number; 0 or 1 = the whole sample */
	uint32_t groups, group;
	/* RANDOM with groups >= 2: 1 = keep every group but `group` (a
	 * replicate of the delete-a-group jackknife, estimate/sample_ci.h);
	 * 0 = keep group `group` alone */
	uint32_t drop;
	/* RANDOM and EVERY: 1 = functional warming (weft_trace_for_each_cta_warm):
	 * the CTAs outside the sample are decoded too and handed to the
	 * consumer's warming callback, so the CTAs it times see the cache
	 * contents a full replay would; 0 = the sample's CTAs only */
	uint32_t warm;
	/* With warm: 0 = warm every CTA outside the sample; W >= 1 = warm only
	 * the W CTAs before each sampled one and the one after it (windowed
	 * warming: the others are neither decoded nor handed over);
	 * WEFT_WARM_WINDOW_GRID = each
	 * launch's grid-neighbour window (weft_cta_sample_window).
	 * docs/estimate.md "Windowed warming" */
	uint32_t warm_window;
	/* With a window (W >= 1): F >= 1 = also hand the F CTAs before the
	 * launch's first window (the launch's first F CTAs when fewer come
	 * before it) to the warming callback, in order, so that a
	 * model can warm until its caches are full (it skips the rest
	 * itself; set by a model whose shared caches the windows alone leave
	 * part empty, docs/estimate.md "Windowed warming"); 0 = the windows
	 * only */
	uint32_t warm_fill;
};
#define WEFT_WARM_WINDOW_GRID UINT32_MAX
/* Fills ctas[] (caller allocates nctas entries) with the chosen CTA ids in
 * increasing order; returns how many. */
/* How many CTAs of a launch of nctas the sample reads without its grouping
 * (ALL: nctas; EVERY: ceil(nctas / k); RANDOM: min(count, nctas)). */
uint32_t weft_cta_sample_size(const struct weft_cta_sample *s, uint32_t nctas);
uint32_t weft_cta_sample_select(const struct weft_cta_sample *s, uint32_t nctas, uint32_t *ctas);
void weft_cta_sample_describe(const struct weft_cta_sample *s, char *buf, size_t len);
/* The warming window W (CTAs warmed before each sampled one, besides the
 * one after it; 0 = all) of
 * a warmed sample on a launch of grid g and nctas CTAs. For
 * WEFT_WARM_WINDOW_GRID: the launch-order distance from a CTA to its
 * earliest grid neighbour (CTAs are numbered x fastest, then y, then z),
 * 1 + gx [gy > 1] + gx gy [gz > 1], so that the window holds every CTA
 * adjacent to the sampled one in the grid (a stencil's halo); at most
 * nctas. */
uint32_t weft_cta_sample_window(const struct weft_cta_sample *s, struct weft_dim3 g, uint32_t nctas);
/* The fill's CTAs [*start, *end) (warm_fill): the fill CTAs before the
 * first window of a launch whose first sampled CTA is first and whose
 * window is W, or the launch's first fill CTAs when fewer come before it
 * (the end may then reach into the windows; callers clip it to the
 * launch). One rule for the walk that hands the CTAs over and the model
 * that skips them. */
void weft_cta_sample_fill_range(uint32_t first, uint32_t W, uint32_t fill, uint32_t *start, uint32_t *end);

/* Decodes the chosen CTAs of a launch and calls fn for each, serialised (fn
 * never runs concurrently with itself), in increasing CTA order. nthreads:
 * 1 = decode in the caller's thread, CTA by CTA; N >= 2 = N decoder threads
 * working ahead while the caller runs fn (the caller decodes too whenever
 * the CTA it is to pass to fn next is not ready); 0 = one thread per core
 * counting the caller's (cores - 1 decoders; inline on one core). Stops at
 * the first error. The CTA
 * passed to fn is valid only during the call. fn may call
 * weft_trace_read_cta on the same trace, but not weft_trace_for_each_cta. */
typedef int (*weft_cta_fn)(void *user, const struct weft_cta_trace *c, struct weft_error *err);
int weft_trace_for_each_cta(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
			    unsigned nthreads, weft_cta_fn fn, void *user, struct weft_error *err);

/* weft_trace_for_each_cta with functional warming: when s->warm is set,
 * s is a sample (not ALL) and warm is not NULL, every CTA of the launch
 * (with s->warm_window W >= 1: every CTA at most W before a sampled one,
 * and the one just after each, and with s->warm_fill F the F CTAs before
 * the first of those or the launch's first F)
 * is decoded and, in increasing CTA order, the sample's CTAs go to fn and
 * the others to warm (serialised, as fn); otherwise exactly
 * weft_trace_for_each_cta(t, launch, s, nthreads, fn, user, err). */
int weft_trace_for_each_cta_warm(struct weft_trace *t, uint32_t launch, const struct weft_cta_sample *s,
				 unsigned nthreads, weft_cta_fn fn, weft_cta_fn warm, void *user,
				 struct weft_error *err);

/* weft_trace_for_each_cta with a per-CTA preparation that runs where the
 * CTA is decoded: on the decoder threads, ahead of fn, when there are
 * any (and on the caller's thread, between two uses, for the CTAs it
 * decodes itself while its next one is not ready); in the caller's thread
 * just before fn otherwise. A model splits
 * its per-CTA work in two: prep, the part that depends only on the CTA
 * and on what the model does not change during the launch (it reads user
 * but must not write it, and runs concurrently with itself and with fn,
 * for other CTAs), fills `out`; use then applies that to the model's
 * state, serialised, in increasing CTA order, with the CTA and its
 * prepared result (both valid only during the call; use may take what
 * out holds by swapping it with its own, leaving out reusable). Each
 * `out` is a buffer of prep->size bytes, zeroed when first allocated and
 * reused for later CTAs (prep must reset what it fills); prep->release
 * (may be NULL) frees what one holds when the call ends (or later, with
 * prep->keep). The results are
 * the same whatever nthreads. A failure of prep or of the decoding of CTA
 * k is reported after use has run on the CTAs before k, so the error
 * returned is the same for every nthreads. */
struct weft_cta_prep {
	size_t size;
	int (*prep)(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err);
	void (*release)(void *out);
	/* Optional (NULL: use reads the decoded CTA). Set when the prepared
	 * result holds everything use (and warm) read of the CTA but its
	 * launch, cta and nthreads: use is then passed only that header
	 * (threads NULL), whatever nthreads, and the walk keeps no decoded
	 * CTA ahead of use, only prepared results (each decoder decodes into
	 * one CTA of its own and prepares from it). compact returns the bytes
	 * one prepared result is estimated to hold for a CTA of L (from its
	 * averages); the decode-ahead budget counts those, plus one decoded
	 * CTA per decoding thread. It reads user as prep does. */
	uint64_t (*compact)(const void *user, const struct weft_trace_launch *L);
	/* Optional (0: the results are released when the call ends). 1 when
	 * prep fits a result to the launch it prepares for, whatever launch
	 * the result last held, so that one may serve any launch of the
	 * trace: the walk then keeps the results in the trace from call to
	 * call (as it keeps its decoded slots), and a trace of many short
	 * launches does not allocate, fault in and release them per launch.
	 * They are released when the trace is closed or a call comes with
	 * another keeping preparation (another struct, prep, release or
	 * size). Unlike the decoded slots they are not trimmed: each keeps
	 * what the largest CTA it prepared needed (gaussian large, sgmf-core:
	 * peak 34.0 -> 36.8 MiB, docs/trace-format.md). */
	int keep;
};
typedef int (*weft_cta_use_fn)(void *user, const struct weft_cta_trace *c, void *prepared,
			       struct weft_error *err);
int weft_trace_for_each_cta_prep(struct weft_trace *t, uint32_t launch,
				 const struct weft_cta_sample *s, unsigned nthreads,
				 const struct weft_cta_prep *prep, weft_cta_use_fn use, void *user,
				 struct weft_error *err);

/* weft_trace_for_each_cta_prep with functional warming: when s->warm is
 * set, s is a sample (not ALL) and warm is not NULL, every CTA of the
 * launch (or of the windows, as above) is decoded and prepared (where it is decoded, as above) and, in
 * increasing CTA order, the sample's CTAs go to use and the others to warm
 * (serialised, as use, each with its prepared result); otherwise exactly
 * weft_trace_for_each_cta_prep(t, launch, s, nthreads, prep, use, user,
 * err). */
int weft_trace_for_each_cta_prep_warm(struct weft_trace *t, uint32_t launch,
				      const struct weft_cta_sample *s, unsigned nthreads,
				      const struct weft_cta_prep *prep, weft_cta_use_fn use,
				      weft_cta_use_fn warm, void *user, struct weft_error *err);

/* Checks every chunk's checksum and structure; on corruption returns
 * WEFT_ERR_VERIFY with err->offset set to the byte offset. */
int weft_trace_verify(const char *path, struct weft_error *err);

#endif
