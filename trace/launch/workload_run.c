/*
 * workload_run.c - the bundled-workload life cycle (see workload_run.h) and
 * the small lookups workload.h declares (size names, find by name, the
 * names close to a mistyped one).
 */
#include "workload_run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/suggest.h"

static const char *const size_names[] = { "small", "default", "large" };

const char *weft_size_name(enum weft_size s)
{
	if ((unsigned)s < sizeof(size_names) / sizeof(size_names[0]))
		return size_names[s];
	return "?";
}

int weft_size_parse(const char *s, enum weft_size *out)
{
	for (unsigned i = 0; i < sizeof(size_names) / sizeof(size_names[0]); i++)
		if (s && strcmp(s, size_names[i]) == 0) {
			*out = (enum weft_size)i;
			return 0;
		}
	return -1;
}

const struct weft_workload *weft_workload_find(const char *name)
{
	for (const struct weft_workload *const *w = weft_workloads; *w; w++)
		if (strcmp((*w)->name, name) == 0)
			return *w;
	return NULL;
}

const char *weft_workload_suggest(const char *name, char *buf, size_t len)
{
	struct weft_suggest s;
	weft_suggest_init(&s, name);
	for (const struct weft_workload *const *w = weft_workloads; *w; w++)
		weft_suggest_consider(&s, (*w)->name);
	return weft_suggest_phrase(&s, "`", "`", buf, len);
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct ref_call {
	const struct weft_workload *wl;
	void *state;
};

static void call_reference(void *arg)
{
	struct ref_call *rc = arg;
	rc->wl->run_reference(rc->state);
}

/* Makes sure a failing step's message starts with the workload's name. */
static int fail(const struct weft_workload *wl, int rc, const char *step, struct weft_error *err)
{
	if (err) {
		if (err->code == 0) {
			/* The workload returned an error without filling err. */
			weft_error_set(err, rc, "%s failed (code %d, %s) without a message", step, rc,
				       weft_err_name(rc));
		}
		if (err->file[0]) {
			/* Put the workload first: "vvadd: vvadd.ptx:12:5: ..." reads
			 * better than a position inside the embedded PTX first. */
			char buf[WEFT_ERROR_MSG_MAX];
			weft_error_format(err, buf, sizeof(buf));
			enum weft_err code = err->code;
			weft_error_set(err, code, "%s", buf);
		}
		weft_error_prefix(err, "%s: ", wl->name);
	}
	return rc;
}

int weft_workload_run(const struct weft_workload *wl, struct weft_ctx *ctx,
		      const struct weft_workload_run_opts *opts,
		      struct weft_workload_result *res, struct weft_error *err)
{
	struct weft_module *mod = NULL;
	void *state;
	int rc;
	double t0;

	memset(res, 0, sizeof(*res));
	res->workload = wl;
	res->size = opts->size;
	weft_error_clear(err);

	state = calloc(1, wl->state_size ? wl->state_size : 1);
	if (!state)
		return weft_error_set(err, WEFT_ERR_NOMEM, "%s: out of memory for the workload state",
				      wl->name);

	t0 = now_seconds();
	rc = wl->setup(state, opts->size, err);
	res->setup_seconds = now_seconds() - t0;
	if (rc) {
		rc = fail(wl, rc, "setup", err);
		goto out;
	}

	rc = weft_module_load_text(ctx, wl->ptx_text, strlen(wl->ptx_text), wl->ptx_name, &mod, err);
	if (rc) {
		rc = fail(wl, rc, "loading the PTX", err);
		goto out;
	}

	rc = wl->run_device(state, ctx, mod, err);
	res->stats = *weft_ctx_stats(ctx);
	if (rc) {
		rc = fail(wl, rc, "run_device", err);
		goto out;
	}

	if (opts->verify) {
		struct ref_call call = { wl, state };
		rc = weft_hostperf_measure(call_reference, &call, &res->host, err);
		if (rc) {
			rc = fail(wl, rc, "timing the CPU reference", err);
			goto out;
		}
		res->host_measured = 1;
		rc = wl->verify(state, err);
		if (rc == 0) {
			res->verify = WEFT_VERIFY_PASS;
		} else {
			if (rc == WEFT_ERR_VERIFY)
				res->verify = WEFT_VERIFY_FAIL;
			rc = fail(wl, rc, "verify", err);
		}
	}
out:
	if (wl->teardown)
		wl->teardown(state); /* also after a failed setup: the state started zeroed */
	free(state);
	return rc;
}
