/*
 * rt_init.c - how the library starts: its configuration from the
 * environment (read once, when the library is loaded, and then removed
 * from the environment so that programs this one starts do not write the
 * same trace), the trace writer, and the emulator context, created at the
 * first call that needs one (and again after cudaDeviceReset).
 *
 * The variables (docs/cuda-programs.md, "Configuration"; `weft-trace exec`
 * sets them from its options):
 *
 *   WEFT_CUDART_TRACE            the trace to write at exit (relative paths
 *                                are taken from the directory at load time)
 *   WEFT_CUDART_LEVEL            its zstd level, 1..19
 *   WEFT_CUDART_MAX_LAUNCH_INSTS the instruction budget of each launch
 *   WEFT_CUDART_MAX_THREAD_INSTS the instructions of all launches together
 *   WEFT_CUDART_MAX_DEVICE_MEM   the device memory the program may hold
 *   WEFT_CUDART_PTX_DIR          a directory to write each module's PTX to
 *   WEFT_CUDART_REPORT           a file for the run's summary at exit
 *
 * A value that is not what the variable takes (or longer than 4095 bytes)
 * makes every CUDA call fail with cudaErrorInitializationError, after one
 * message naming the variable.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/numparse.h"
#include "common/pool.h"

#define RT_ENV_MAX 4095u

/* The variables, in the order they are read. */
static const char *const env_names[] = {
	"WEFT_CUDART_TRACE", "WEFT_CUDART_LEVEL", "WEFT_CUDART_MAX_LAUNCH_INSTS",
	"WEFT_CUDART_MAX_THREAD_INSTS", "WEFT_CUDART_MAX_DEVICE_MEM", "WEFT_CUDART_PTX_DIR",
	"WEFT_CUDART_REPORT", "WEFT_CUDART_JOBS",
};

/* A bad variable: the message (printed now, at load time) and the error
 * every call returns. */
static void env_bad(const char *name, const char *value, const char *why)
{
	rt.init_rc = WCU_INITIALIZATION_ERROR;
	rt.failures++;
	snprintf(rt.first_failure, sizeof(rt.first_failure), "%s=`%.200s`: %s", name, value, why);
	fprintf(stderr, "weft-cudart: %s; every CUDA call fails with cudaErrorInitializationError\n",
		rt.first_failure);
}

/* value as an absolute path in out (PATH_MAX bytes). 0 or -1. */
static int absolute(const char *value, char *out)
{
	if (value[0] == '/') {
		snprintf(out, PATH_MAX, "%s", value);
		return 0;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	size_t c = strlen(cwd), v = strlen(value);
	if (c + 1 + v >= PATH_MAX)
		return -1;
	memcpy(out, cwd, c);
	out[c] = '/';
	memcpy(out + c + 1, value, v + 1);
	return 0;
}

/* Reads variable i into the configuration; 0 or -1 (reported). */
static int env_read(unsigned i, const char *v)
{
	const char *name = env_names[i];
	uint64_t n;
	if (strlen(v) > RT_ENV_MAX) {
		env_bad(name, v, "longer than 4095 bytes");
		return -1;
	}
	switch (i) {
	case 0: case 5: case 6: {
		char *dst = i == 0 ? rt.trace_path : i == 5 ? rt.ptx_dir : rt.report_path;
		if (!*v || absolute(v, dst)) {
			env_bad(name, v, "not a usable path (empty, or too long with the current directory)");
			return -1;
		}
		return 0;
	}
	case 1: {
		char *end;
		long l = strtol(v, &end, 10);
		if (!*v || *end || l < 1 || l > 19) {
			env_bad(name, v, "not a zstd level, 1..19");
			return -1;
		}
		rt.level = (int)l;
		return 0;
	}
	case 2: case 3:
		if (weft_parse_count(v, &n) || !n) {
			env_bad(name, v, "not a positive count of thread instructions (e.g. 1e9)");
			return -1;
		}
		if (i == 2)
			rt.copts.max_launch_insts = n;
		else
			rt.copts.max_thread_insts = n;
		return 0;
	case 4:
		if (weft_parse_bytes(v, &n)) {
			env_bad(name, v, "not a positive size in bytes, or with K, M, G or T (e.g. 8G)");
			return -1;
		}
		rt.copts.max_device_bytes = n;
		return 0;
	case 7: {
		unsigned j;
		if (weft_pool_parse_jobs(v, &j)) {
			env_bad(name, v, "not a number of threads, 1..256, or 0 for one per CPU");
			return -1;
		}
		rt.copts.jobs = weft_pool_jobs(j);
		return 0;
	}
	}
	return -1;
}

__attribute__((constructor)) static void rt_start(void)
{
	rt.pid = getpid();
	/* CUDA's defaults for the limits a program may read back (CUDA Runtime
	 * API, cudaDeviceSetLimit): stack 1 KiB per thread, printf FIFO 1 MiB,
	 * device malloc heap 8 MiB. */
	rt.limits[WCU_LIMIT_STACK_SIZE] = 1024;
	rt.limits[WCU_LIMIT_PRINTF_FIFO_SIZE] = 1u << 20;
	rt.copts.print = rt_print;
	rt.limits[WCU_LIMIT_MALLOC_HEAP_SIZE] = 8u << 20;
	rt.copts.jobs = weft_pool_jobs(0); /* WEFT_CUDART_JOBS may set it */
	for (unsigned i = 0; i < sizeof(env_names) / sizeof(env_names[0]); i++) {
		const char *v = getenv(env_names[i]);
		if (v && !rt.init_rc)
			env_read(i, v);
	}
	for (unsigned i = 0; i < sizeof(env_names) / sizeof(env_names[0]); i++)
		unsetenv(env_names[i]);
	if (rt.init_rc || !rt.trace_path[0])
		return;
	struct weft_error err;
	if (weft_trace_writer_open(rt.trace_path, rt.level, &rt.tw, &err)) {
		char msg[WEFT_ERROR_MSG_MAX];
		weft_error_format(&err, msg, sizeof(msg));
		env_bad("WEFT_CUDART_TRACE", rt.trace_path, msg);
		rt.tw = NULL;
		return;
	}
	rt.copts.observer = weft_trace_writer_observer(rt.tw);
}

int rt_ready(void)
{
	if (rt.sticky)
		return rt.sticky;
	if (rt.ctx)
		return 0;
	rt.ctx = weft_ctx_create(&rt.copts);
	if (!rt.ctx)
		return rt_failure(WCU_MEMORY_ALLOCATION, "out of memory creating the emulator context");
	rt.ctx_gen++;
	return 0;
}

void rt_totals(struct rt_totals *t)
{
	*t = rt.before;
	if (!rt.ctx)
		return;
	const struct weft_ctx_stats *s = weft_ctx_stats(rt.ctx);
	t->launches += s->launches;
	t->ctas += s->ctas;
	t->thread_insts += s->thread_insts;
	t->warp_insts += s->warp_insts;
	t->emu_seconds += s->emu_seconds;
	if (s->device_bytes_peak > t->device_bytes_peak)
		t->device_bytes_peak = s->device_bytes_peak;
}

uint64_t rt_clock(void)
{
	struct rt_totals t;
	rt_totals(&t);
	return t.warp_insts;
}

void rt_context_drop(void)
{
	if (!rt.ctx)
		return;
	rt_totals(&rt.before);
	weft_ctx_destroy(rt.ctx);
	rt.ctx = NULL;
	for (uint32_t i = 0; i < rt.nfatbins; i++)
		rt.fatbins[i]->mod = NULL;
}
