/*
 * hostperf.c - host performance counters around a callback (see hostperf.h).
 *
 * Each counter is its own perf event (no group), so one the kernel refuses
 * does not take the others down with it. Events are opened disabled, reset
 * and enabled just before the callback, disabled just after; values are
 * scaled by time_enabled / time_running when the kernel multiplexed them.
 */
#include "hostperf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

struct event_def {
	const char *name;
	const char *event; /* libpfm4 name in the generic perf_event PMU */
	const char *unit;
	int hardware;
};

/* perf:: names are libpfm4's generic perf_events PMU: they map onto the
 * kernel's PERF_COUNT_HW_* / PERF_COUNT_SW_* on every architecture. */
static const struct event_def events[WEFT_HOSTPERF_MAX] = {
	{ "cycles", "perf::CYCLES", "", 1 },
	{ "instructions", "perf::INSTRUCTIONS", "", 1 },
	{ "task-clock", "perf::TASK-CLOCK", "ns", 0 },
	{ "page-faults", "perf::PAGE-FAULTS", "", 0 },
	{ "context-switches", "perf::CONTEXT-SWITCHES", "", 0 },
};

static void set_reason(struct weft_hostperf_counter *c, const char *fmt, const char *detail)
{
	c->available = 0;
	c->value = 0;
	snprintf(c->reason, sizeof(c->reason), fmt, detail);
}

static const char *open_errno_reason(int e)
{
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "not supported by this kernel or machine; VMs and containers often hide the PMU";
	case EACCES:
	case EPERM:
		return "not permitted (see /proc/sys/kernel/perf_event_paranoid)";
	case EMFILE:
		return "too many open files";
	default:
		return strerror(e);
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return -1.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Encodes and opens one event; returns the fd or -1 with c->reason set. */
static int open_event(struct weft_hostperf_counter *c, int pfm_ok, const char *pfm_why)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret, fd;

	if (!pfm_ok) {
		set_reason(c, "libpfm4 could not be initialised: %s", pfm_why);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.size = sizeof(arg);
	/* PFM_PLM3: user level only, which perf_event_paranoid <= 2 allows. */
	ret = pfm_get_os_event_encoding(c->event, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		set_reason(c, "libpfm4 cannot encode it: %s", pfm_strerror(ret));
		return -1;
	}
	attr.disabled = 1;
	attr.inherit = 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		set_reason(c, "%s", open_errno_reason(errno));
		return -1;
	}
	return fd;
}

/* Reads a counter opened with the two TIME read formats. */
static void read_event(struct weft_hostperf_counter *c, int fd)
{
	uint64_t v[3]; /* value, time_enabled, time_running */
	ssize_t n = read(fd, v, sizeof(v));

	if (n != (ssize_t)sizeof(v)) {
		set_reason(c, "%s", n < 0 ? strerror(errno) : "short read from perf_event");
		return;
	}
	if (v[2] == 0 && v[1] != 0) {
		/* Enabled but never scheduled onto the PMU (all counters busy). */
		set_reason(c, "%s", "never scheduled on the PMU (counters in use by another tool)");
		return;
	}
	c->available = 1;
	c->value = v[0];
	if (v[2] != 0 && v[2] < v[1]) {
		c->scaled = 1;
		c->value = (uint64_t)((double)v[0] * (double)v[1] / (double)v[2] + 0.5);
	}
}

int weft_hostperf_measure(void (*fn)(void *arg), void *arg, struct weft_hostperf *out,
			  struct weft_error *err)
{
	int fds[WEFT_HOSTPERF_MAX];
	int pfm_ok, ret;
	const char *pfm_why = "";
	double t0, t1;
	unsigned i;

	memset(out, 0, sizeof(*out));
	ret = pfm_initialize();
	pfm_ok = ret == PFM_SUCCESS;
	if (!pfm_ok)
		pfm_why = pfm_strerror(ret);

	out->ncounters = WEFT_HOSTPERF_MAX;
	for (i = 0; i < WEFT_HOSTPERF_MAX; i++) {
		struct weft_hostperf_counter *c = &out->counters[i];
		snprintf(c->name, sizeof(c->name), "%s", events[i].name);
		snprintf(c->event, sizeof(c->event), "%s", events[i].event);
		snprintf(c->unit, sizeof(c->unit), "%s", events[i].unit);
		c->hardware = events[i].hardware;
		fds[i] = open_event(c, pfm_ok, pfm_why);
	}

	for (i = 0; i < WEFT_HOSTPERF_MAX; i++)
		if (fds[i] >= 0) {
			ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
			ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
		}
	t0 = now_seconds();
	fn(arg);
	t1 = now_seconds();
	for (i = 0; i < WEFT_HOSTPERF_MAX; i++)
		if (fds[i] >= 0)
			ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);

	for (i = 0; i < WEFT_HOSTPERF_MAX; i++) {
		if (fds[i] < 0)
			continue;
		read_event(&out->counters[i], fds[i]);
		close(fds[i]);
	}
	if (t0 < 0 || t1 < 0)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "clock_gettime(CLOCK_MONOTONIC) failed: %s", strerror(errno));
	out->wall_seconds = t1 - t0;
	return 0;
}

const struct weft_hostperf_counter *weft_hostperf_get(const struct weft_hostperf *hp,
						      const char *name)
{
	for (unsigned i = 0; i < hp->ncounters; i++)
		if (strcmp(hp->counters[i].name, name) == 0)
			return &hp->counters[i];
	return NULL;
}

unsigned weft_hostperf_available(const struct weft_hostperf *hp, int hw)
{
	unsigned n = 0;
	for (unsigned i = 0; i < hp->ncounters; i++)
		if (hp->counters[i].available && (!hw || hp->counters[i].hardware))
			n++;
	return n;
}
