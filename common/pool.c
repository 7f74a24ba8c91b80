/*
 * pool.c - worker threads for `-j N` (pool.h).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

int weft_pool_parse_jobs(const char *s, unsigned *out)
{
	unsigned long v = 0;
	if (!s || !*s)
		return -1;
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (unsigned long)(*c - '0');
		if (v > WEFT_POOL_MAX_JOBS)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

unsigned weft_pool_jobs(unsigned jobs)
{
	if (!jobs) {
		/* the CPUs this process may run on (a taskset or cgroup cpuset
		 * lowers it), else the online ones */
		cpu_set_t set;
		long np = sysconf(_SC_NPROCESSORS_ONLN);
		if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 &&
		    (np <= 0 || CPU_COUNT(&set) < np))
			np = CPU_COUNT(&set);
		jobs = np > 0 ? (unsigned)np : 1u;
	}
	return jobs > WEFT_POOL_MAX_JOBS ? WEFT_POOL_MAX_JOBS : jobs;
}

struct pool_arg {
	void (*fn)(void *, unsigned);
	void *arg;
	unsigned worker;
};

static void *pool_thread(void *p)
{
	struct pool_arg *a = p;
	a->fn(a->arg, a->worker);
	return NULL;
}

unsigned weft_pool_run(unsigned n, void (*fn)(void *arg, unsigned worker), void *arg)
{
	if (n <= 1) {
		fn(arg, 0);
		return 1;
	}
	if (n > WEFT_POOL_MAX_JOBS)
		n = WEFT_POOL_MAX_JOBS;
	pthread_t *tid = calloc(n, sizeof(*tid));
	struct pool_arg *a = calloc(n, sizeof(*a));
	unsigned started = 0;
	if (tid && a)
		for (unsigned w = 1; w < n; w++) {
			a[started].fn = fn;
			a[started].arg = arg;
			a[started].worker = w;
			if (pthread_create(&tid[started], NULL, pool_thread, &a[started]))
				break;
			started++;
		}
	fn(arg, 0);
	for (unsigned k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	free(tid);
	free(a);
	return started + 1;
}
