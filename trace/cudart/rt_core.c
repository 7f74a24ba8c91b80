/*
 * rt_core.c - the library's state, the lock every API call holds, and how
 * errors reach the program (a CUDA error code, the thread's last error) and
 * the user (one line on stderr naming the API: this library is a boundary,
 * like a CLI, so it prints; it never exits).
 */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include "rt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct rt_state rt;

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local const char *api_name = "libcudart";
static _Thread_local int last_error;
/* how deep this thread is inside API calls (a stream callback may call
 * the runtime while its caller holds the lock) */
static _Thread_local int depth;

int rt_enter(const char *api)
{
	pthread_mutex_lock(&lock);
	if (depth++ == 0)
		api_name = api;
	if (rt.finished)
		return WCU_CUDART_UNLOADING;
	if (rt.init_rc)
		return rt.init_rc;
	return 0;
}

int rt_leave(int code)
{
	if (code)
		last_error = code;
	depth--;
	pthread_mutex_unlock(&lock);
	return code;
}

const char *rt_api(void)
{
	return api_name;
}

int rt_last_error(int reset)
{
	int e = last_error ? last_error : rt.sticky;
	if (reset)
		last_error = 0;
	return e;
}

static void say(int code, int failure, const char *fmt, va_list ap)
{
	char msg[WEFT_ERROR_MSG_MAX + 256];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (failure) {
		if (!rt.failures++)
			snprintf(rt.first_failure, sizeof(rt.first_failure), "%.64s: %.1400s", api_name, msg);
	}
	if (rt.printed < RT_MAX_PRINTED)
		fprintf(stderr, "weft-cudart: %s: %s (%s)\n", api_name, msg, rt_error_name(code));
	else if (rt.printed == RT_MAX_PRINTED)
		fprintf(stderr, "weft-cudart: further errors are not printed (%u printed)\n", RT_MAX_PRINTED);
	rt.printed++;
}

int rt_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int rt_failure(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(code, 1, fmt, ap);
	va_end(ap);
	return code;
}

int rt_unsupported(const char *what)
{
	return rt_failure(WCU_NOT_SUPPORTED, "not supported yet: %s (docs/cuda-programs.md lists what is)",
			  what);
}
