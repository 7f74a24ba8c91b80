/*
 * pool.h - the one place weft starts worker threads for `-j N`: a job
 * count from the option or the machine, and "run this function on N
 * threads and wait for all of them".
 *
 * The caller's thread is worker 0 and takes part in the work; workers
 * 1..N-1 are POSIX threads started for the call and joined before it
 * returns, so nothing outlives a call and no thread is left idle between
 * calls. How the work is shared out (a counter under a mutex, an ordered
 * commit) is the caller's business: the parallel emulator
 * (trace/emu/emu_par.c) and the configuration fan-out of
 * weft_model_run_many (models/model_many.c) each keep their own order so
 * that what they produce is the same whatever N is.
 *
 *     unsigned n = weft_pool_jobs(opt_j);       // 0 = online CPUs
 *     int rc = weft_pool_run(n, fn, arg);        // fn(arg, 0..n-1)
 *
 * Never prints; a thread that cannot be started is reported to the
 * caller (the work then runs on the threads that did start, worker 0 at
 * least, so a caller that shares work by a counter still finishes it).
 */
#ifndef WEFT_POOL_H
#define WEFT_POOL_H

/* The most workers a call uses (a `-j` above it is refused by the CLIs). */
#define WEFT_POOL_MAX_JOBS 256u

/* Parses a `-j` value: a whole number 1..WEFT_POOL_MAX_JOBS, or 0 for
 * "the number of online CPUs". 0 on success, -1 otherwise. */
int weft_pool_parse_jobs(const char *s, unsigned *out);

/* jobs when not 0, else the number of CPUs this process may run on (its
 * affinity mask: `taskset -c 0` gives 1; else the online CPUs; 1 when
 * unknown); at most WEFT_POOL_MAX_JOBS. */
unsigned weft_pool_jobs(unsigned jobs);

/* Runs fn(arg, w) for w = 0..n-1, w = 0 on the caller's thread, the others
 * on new threads, and returns once every call returned. Returns how many
 * workers ran (n, or fewer when a thread could not be started: the calls
 * that did start still ran to their end). n = 0 counts as 1. */
unsigned weft_pool_run(unsigned n, void (*fn)(void *arg, unsigned worker), void *arg);

#endif
