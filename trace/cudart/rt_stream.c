/*
 * rt_stream.c - streams and events. Every call runs its work to completion
 * before it returns, so streams are serial: a stream is a handle the
 * program may pass, synchronising with it only reports the sticky error of
 * a fault, and a host callback runs at once. An event records the run's
 * emulated clock (rt.h: one warp instruction per nanosecond), so
 * cudaEventElapsedTime is deterministic and measures the emulated work
 * between two events, not a performance estimate (replay the trace with
 * weft-estimate for that).
 */
#include "rt.h"

#include <stdlib.h>

/* Index of h in list[n], or -1. */
static int find(void *const *list, uint32_t n, const void *h)
{
	for (uint32_t i = 0; i < n; i++)
		if (list[i] == h)
			return (int)i;
	return -1;
}

static int add(void ***list, uint32_t *n, uint32_t *cap, void *h)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 16;
		void **q = realloc(*list, nc * sizeof(*q));
		if (!q)
			return -1;
		*list = q;
		*cap = nc;
	}
	(*list)[(*n)++] = h;
	return 0;
}

int rt_stream_check(const void *s)
{
	if (!s || s == WCU_STREAM_LEGACY || s == WCU_STREAM_PER_THREAD ||
	    find((void *const *)rt.streams, rt.nstreams, s) >= 0)
		return 0;
	return rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not a stream (destroyed already?)", s);
}

static struct rt_event *event_of(const void *ev)
{
	int i = find((void *const *)rt.events, rt.nevents, ev);
	return i < 0 ? NULL : rt.events[i];
}

void rt_handles_free(void)
{
	for (uint32_t i = 0; i < rt.nstreams; i++)
		free(rt.streams[i]);
	for (uint32_t i = 0; i < rt.nevents; i++)
		free(rt.events[i]);
	free(rt.streams);
	free(rt.events);
	rt.streams = NULL;
	rt.events = NULL;
	rt.nstreams = rt.cap_streams = rt.nevents = rt.cap_events = 0;
}

/* ---- streams ---- */

static int stream_create(void **out, unsigned flags, int priority)
{
	if (!out)
		return rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	struct rt_stream *s = calloc(1, sizeof(*s));
	if (!s || add((void ***)&rt.streams, &rt.nstreams, &rt.cap_streams, s)) {
		free(s);
		return rt_failure(WCU_MEMORY_ALLOCATION, "out of memory for a stream");
	}
	s->flags = flags;
	s->priority = priority;
	*out = s;
	return 0;
}

WCU_API int cudaStreamCreate(void **out)
{
	int e = rt_enter("cudaStreamCreate");
	if (!e)
		e = stream_create(out, 0, 0);
	return rt_leave(e);
}

WCU_API int cudaStreamCreateWithFlags(void **out, unsigned flags)
{
	int e = rt_enter("cudaStreamCreateWithFlags");
	if (!e)
		e = stream_create(out, flags, 0);
	return rt_leave(e);
}

WCU_API int cudaStreamCreateWithPriority(void **out, unsigned flags, int priority)
{
	int e = rt_enter("cudaStreamCreateWithPriority");
	if (!e)
		e = stream_create(out, flags, priority);
	return rt_leave(e);
}

WCU_API int cudaStreamDestroy(void *s)
{
	int e = rt_enter("cudaStreamDestroy");
	int i = e ? -1 : find((void *const *)rt.streams, rt.nstreams, s);
	if (!e && i < 0)
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not a stream the program created", s);
	if (!e) {
		free(rt.streams[i]);
		rt.streams[i] = rt.streams[--rt.nstreams];
	}
	return rt_leave(e);
}

/* Synchronising: the work is done; a fault's error is reported. */
static int sync_stream(const char *api, const void *s)
{
	int e = rt_enter(api);
	if (!e)
		e = rt_stream_check(s);
	if (!e)
		e = rt.sticky;
	return rt_leave(e);
}

WCU_API int cudaStreamSynchronize(void *s)
{
	return sync_stream("cudaStreamSynchronize", s);
}

WCU_API int cudaStreamSynchronize_ptsz(void *s)
{
	return sync_stream("cudaStreamSynchronize", s);
}

WCU_API int cudaStreamQuery(void *s)
{
	return sync_stream("cudaStreamQuery", s);
}

WCU_API int cudaStreamQuery_ptsz(void *s)
{
	return sync_stream("cudaStreamQuery", s);
}

WCU_API int cudaStreamWaitEvent(void *s, void *ev, unsigned flags)
{
	(void)flags;
	int e = rt_enter("cudaStreamWaitEvent");
	if (!e)
		e = rt_stream_check(s);
	if (!e && !event_of(ev))
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not an event", ev);
	return rt_leave(e);
}

WCU_API int cudaStreamWaitEvent_ptsz(void *s, void *ev, unsigned flags)
{
	return cudaStreamWaitEvent(s, ev, flags);
}

WCU_API int cudaStreamGetFlags(void *s, unsigned *flags)
{
	int e = rt_enter("cudaStreamGetFlags");
	if (!e)
		e = rt_stream_check(s);
	if (!e && !flags)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*flags = find((void *const *)rt.streams, rt.nstreams, s) >= 0 ? ((struct rt_stream *)s)->flags : 0;
	return rt_leave(e);
}

WCU_API int cudaStreamGetFlags_ptsz(void *s, unsigned *flags)
{
	return cudaStreamGetFlags(s, flags);
}

WCU_API int cudaStreamGetPriority(void *s, int *priority)
{
	int e = rt_enter("cudaStreamGetPriority");
	if (!e)
		e = rt_stream_check(s);
	if (!e && !priority)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e)
		*priority = find((void *const *)rt.streams, rt.nstreams, s) >= 0 ? ((struct rt_stream *)s)->priority : 0;
	return rt_leave(e);
}

WCU_API int cudaStreamGetPriority_ptsz(void *s, int *priority)
{
	return cudaStreamGetPriority(s, priority);
}

/* A host function on a stream: all earlier work is done, so it runs now,
 * outside the lock (it may call the runtime; CUDA forbids that, weft
 * allows it). */
typedef void (*host_fn)(void *user);
typedef void (*stream_cb)(void *stream, int status, void *user);

WCU_API int cudaLaunchHostFunc(void *s, host_fn fn, void *user)
{
	int e = rt_enter("cudaLaunchHostFunc");
	if (!e)
		e = rt_stream_check(s);
	if (!e && !fn)
		e = rt_fail(WCU_INVALID_VALUE, "the function is NULL");
	rt_leave(e);
	if (!e)
		fn(user);
	return e;
}

WCU_API int cudaLaunchHostFunc_ptsz(void *s, host_fn fn, void *user)
{
	return cudaLaunchHostFunc(s, fn, user);
}

WCU_API int cudaStreamAddCallback(void *s, stream_cb cb, void *user, unsigned flags)
{
	(void)flags;
	int e = rt_enter("cudaStreamAddCallback");
	int status = 0;
	if (!e)
		e = rt_stream_check(s);
	if (!e && !cb)
		e = rt_fail(WCU_INVALID_VALUE, "the callback is NULL");
	if (!e)
		status = rt.sticky;
	rt_leave(e);
	if (!e)
		cb(s, status, user);
	return e;
}

WCU_API int cudaStreamAddCallback_ptsz(void *s, stream_cb cb, void *user, unsigned flags)
{
	return cudaStreamAddCallback(s, cb, user, flags);
}

/* ---- events ---- */

static int event_create(void **out, unsigned flags)
{
	if (!out)
		return rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	struct rt_event *ev = calloc(1, sizeof(*ev));
	if (!ev || add((void ***)&rt.events, &rt.nevents, &rt.cap_events, ev)) {
		free(ev);
		return rt_failure(WCU_MEMORY_ALLOCATION, "out of memory for an event");
	}
	ev->flags = flags;
	*out = ev;
	return 0;
}

WCU_API int cudaEventCreate(void **out)
{
	int e = rt_enter("cudaEventCreate");
	if (!e)
		e = event_create(out, 0);
	return rt_leave(e);
}

WCU_API int cudaEventCreateWithFlags(void **out, unsigned flags)
{
	int e = rt_enter("cudaEventCreateWithFlags");
	if (!e)
		e = event_create(out, flags);
	return rt_leave(e);
}

WCU_API int cudaEventDestroy(void *ev)
{
	int e = rt_enter("cudaEventDestroy");
	int i = e ? -1 : find((void *const *)rt.events, rt.nevents, ev);
	if (!e && i < 0)
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not an event (destroyed already?)", ev);
	if (!e) {
		free(rt.events[i]);
		rt.events[i] = rt.events[--rt.nevents];
	}
	return rt_leave(e);
}

static int record(const char *api, void *ev, const void *s)
{
	int e = rt_enter(api);
	struct rt_event *x = e ? NULL : event_of(ev);
	if (!e && !x)
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not an event", ev);
	if (!e)
		e = rt_stream_check(s);
	if (!e) {
		x->recorded = 1;
		x->clock = rt_clock();
	}
	return rt_leave(e);
}

WCU_API int cudaEventRecord(void *ev, void *s)
{
	return record("cudaEventRecord", ev, s);
}

WCU_API int cudaEventRecord_ptsz(void *ev, void *s)
{
	return record("cudaEventRecord", ev, s);
}

WCU_API int cudaEventRecordWithFlags(void *ev, void *s, unsigned flags)
{
	(void)flags;
	return record("cudaEventRecordWithFlags", ev, s);
}

WCU_API int cudaEventRecordWithFlags_ptsz(void *ev, void *s, unsigned flags)
{
	(void)flags;
	return record("cudaEventRecordWithFlags", ev, s);
}

static int event_wait(const char *api, void *ev)
{
	int e = rt_enter(api);
	if (!e && !event_of(ev))
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not an event", ev);
	if (!e)
		e = rt.sticky;
	return rt_leave(e);
}

WCU_API int cudaEventSynchronize(void *ev)
{
	return event_wait("cudaEventSynchronize", ev);
}

WCU_API int cudaEventQuery(void *ev)
{
	return event_wait("cudaEventQuery", ev);
}

WCU_API int cudaEventElapsedTime(float *ms, void *start, void *end)
{
	int e = rt_enter("cudaEventElapsedTime");
	struct rt_event *a = e ? NULL : event_of(start), *b = e ? NULL : event_of(end);
	if (!e && !ms)
		e = rt_fail(WCU_INVALID_VALUE, "the result pointer is NULL");
	if (!e && (!a || !b))
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not an event", !a ? start : end);
	if (!e && (!a->recorded || !b->recorded))
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "the %s event was never recorded", !a->recorded ? "start" : "end");
	if (!e && ((a->flags | b->flags) & WCU_EVENT_DISABLE_TIMING))
		e = rt_fail(WCU_INVALID_RESOURCE_HANDLE, "an event was created with cudaEventDisableTiming");
	if (!e)
		*ms = (float)(((double)b->clock - (double)a->clock) / (double)RT_CLOCK_KHZ);
	return rt_leave(e);
}
