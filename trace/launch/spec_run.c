/*
 * spec_run.c - running a parsed launch spec (see spec.h): load the PTX,
 * check the arguments, create and fill the buffers, launch, write the
 * outputs atomically and compare the buffers that name an `expect` file.
 */
#include "spec.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "wl_util.h"

static int fill_buffer(const struct weft_spec *spec, const struct weft_spec_buffer *b, uint8_t *data,
		       struct weft_error *err)
{
	unsigned esz = weft_spec_type_size(b->type);
	int isf = weft_spec_type_is_float(b->type), iss = weft_spec_type_is_signed(b->type);
	struct weft_rng rng;
	union weft_spec_num v;

	switch (b->init) {
	case WEFT_SPEC_INIT_ZERO:
		memset(data, 0, b->count * esz);
		return 0;
	case WEFT_SPEC_INIT_RAMP:
		for (uint64_t i = 0; i < b->count; i++) {
			if (isf)
				v.f = b->start.f + (double)i * b->step.f;
			else if (iss)
				v.s = (int64_t)((uint64_t)b->start.s + i * (uint64_t)b->step.s);
			else
				v.u = b->start.u + i * (uint64_t)b->step.s;
			weft_spec_store(b->type, v, data + i * esz);
		}
		return 0;
	case WEFT_SPEC_INIT_RANDOM:
		weft_rng_seed(&rng, b->seed);
		for (uint64_t i = 0; i < b->count; i++) {
			uint64_t r = weft_rng_next(&rng);
			if (isf) {
				/* 53 random bits: uniform in [0, 1). */
				double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
				v.f = b->min.f + (b->max.f - b->min.f) * u;
				if (v.f >= b->max.f && b->max.f > b->min.f)
					v.f = b->min.f;
			} else {
				uint64_t lo = iss ? (uint64_t)b->min.s : b->min.u;
				uint64_t span = (iss ? (uint64_t)b->max.s : b->max.u) - lo;
				uint64_t off = span == UINT64_MAX ? r : r % (span + 1);
				v.u = lo + off;
			}
			weft_spec_store(b->type, v, data + i * esz);
		}
		return 0;
	case WEFT_SPEC_INIT_FILE: {
		FILE *f = fopen(b->file, "rb");
		if (!f)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->line, 0,
					     "[buffer %s]: cannot open %s: %s", b->name, b->file,
					     strerror(errno));
		size_t got = fread(data, 1, b->count * esz, f);
		fclose(f);
		if (got != b->count * esz)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->line, 0,
					     "[buffer %s]: %s ended after %zu bytes; %llu expected",
					     b->name, b->file, got,
					     (unsigned long long)(b->count * esz));
		return 0;
	}
	}
	return weft_error_set(err, WEFT_ERR_INTERNAL, "bad init mode %d", (int)b->init);
}

const char *weft_spec_output_path(const struct weft_spec *spec, const struct weft_spec_buffer *b,
				  const char *output_dir, char *buf, size_t len)
{
	const char *dir = output_dir ? output_dir : spec->dir;
	if (!b->output)
		snprintf(buf, len, "%s", "");
	else if (b->output[0] == '/' || strcmp(dir, ".") == 0)
		snprintf(buf, len, "%s", b->output);
	else
		snprintf(buf, len, "%s/%s", dir, b->output);
	return buf;
}

/* Reads element i of type t as a double / a raw integer (for messages). */
static double elem_f(enum weft_spec_type t, const uint8_t *p)
{
	if (t == WEFT_SPEC_F32) {
		float f;
		memcpy(&f, p, 4);
		return f;
	}
	double d;
	memcpy(&d, p, 8);
	return d;
}

static int64_t elem_s(enum weft_spec_type t, const uint8_t *p)
{
	uint64_t u = 0;
	unsigned n = weft_spec_type_size(t);
	for (unsigned i = 0; i < n; i++)
		u |= (uint64_t)p[i] << (8 * i);
	if (n < 8 && (u >> (8 * n - 1)) & 1)
		u |= ~(uint64_t)0 << (8 * n); /* sign-extend */
	return (int64_t)u;
}

static uint64_t elem_u(enum weft_spec_type t, const uint8_t *p)
{
	uint64_t u = 0;
	for (unsigned i = 0; i < weft_spec_type_size(t); i++)
		u |= (uint64_t)p[i] << (8 * i);
	return u;
}

/* Compares the device contents of b with its expect file. */
static int compare_expect(const struct weft_spec *spec, const struct weft_spec_buffer *b,
			  const uint8_t *dev, struct weft_error *err)
{
	unsigned esz = weft_spec_type_size(b->type);
	size_t bytes = (size_t)(b->count * esz);
	uint8_t *exp = malloc(bytes ? bytes : 1);
	if (!exp)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for [buffer %s] expect",
				      b->name);
	FILE *f = fopen(b->expect, "rb");
	size_t got = f ? fread(exp, 1, bytes, f) : 0;
	if (f)
		fclose(f);
	if (got != bytes) {
		free(exp);
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->expect_line, 0,
				     "[buffer %s]: cannot read %zu bytes from %s", b->name, bytes,
				     b->expect);
	}
	int rc = 0;
	for (uint64_t i = 0; i < b->count && !rc; i++) {
		const uint8_t *d = dev + i * esz, *e = exp + i * esz;
		if (weft_spec_type_is_float(b->type)) {
			double dv = elem_f(b->type, d), ev = elem_f(b->type, e);
			int ok = (isnan(dv) && isnan(ev)) ||
				 (!isnan(dv) && !isnan(ev) &&
				  (dv == ev || fabs(dv - ev) <= b->abs_tol + b->rel_tol * fabs(ev)));
			if (!ok)
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[buffer %s] element %llu is %.9g, %s expects %.9g "
						   "(rel_tol %g, abs_tol %g)",
						   b->name, (unsigned long long)i, dv, b->expect, ev,
						   b->rel_tol, b->abs_tol);
		} else if (memcmp(d, e, esz) != 0) {
			if (weft_spec_type_is_signed(b->type))
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[buffer %s] element %llu is %lld, %s expects %lld",
						   b->name, (unsigned long long)i,
						   (long long)elem_s(b->type, d), b->expect,
						   (long long)elem_s(b->type, e));
			else
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[buffer %s] element %llu is %llu, %s expects %llu",
						   b->name, (unsigned long long)i,
						   (unsigned long long)elem_u(b->type, d), b->expect,
						   (unsigned long long)elem_u(b->type, e));
		}
	}
	free(exp);
	return rc;
}

int weft_spec_run(const struct weft_spec *spec, struct weft_ctx *ctx,
		  struct weft_spec_run_opts *opts, struct weft_error *err)
{
	struct weft_module *mod;
	uint64_t *dptr = NULL;
	struct weft_arg *args = NULL;
	uint8_t *host = NULL;
	int rc;

	weft_error_clear(err);
	if ((rc = weft_module_load_file(ctx, spec->ptx, &mod, err))) {
		if (err && !err->file[0])
			weft_error_prefix(err, "%s: loading %s: ", spec->path, spec->ptx);
		return rc;
	}
	if ((rc = weft_spec_check_args(spec, weft_module_ptx(mod), err)))
		return rc;
	/* Fail before a long emulation, not after it, when an output cannot be
	 * written. */
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		char path[PATH_MAX];
		if (!b->output)
			continue;
		weft_spec_output_path(spec, b, opts ? opts->output_dir : NULL, path, sizeof(path));
		char dir[PATH_MAX];
		const char *slash = strrchr(path, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
		struct stat st;
		int bad = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0;
		int e = errno;
		if (bad)
			weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->output_line, 0,
				      "[buffer %s]: cannot write output %s: directory %s %s", b->name,
				      path, dir,
				      stat(dir, &st) != 0	 ? "does not exist"
				      : !S_ISDIR(st.st_mode) ? "is not a directory"
							     : strerror(e));
		if (bad)
			return WEFT_ERR_INPUT;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->output_line, 0,
					     "[buffer %s]: cannot write output %s: it is a directory; name a file",
					     b->name, path);
	}

	dptr = calloc(spec->nbuffers ? spec->nbuffers : 1, sizeof(*dptr));
	args = calloc(spec->nargs ? spec->nargs : 1, sizeof(*args));
	if (!dptr || !args) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		size_t bytes = (size_t)(b->count * weft_spec_type_size(b->type));
		if ((rc = weft_malloc(ctx, bytes, &dptr[i], err))) {
			weft_error_prefix(err, "%s:%u: [buffer %s]: ", spec->path, b->line, b->name);
			goto out;
		}
		if (b->init == WEFT_SPEC_INIT_ZERO)
			continue; /* device allocations start zeroed */
		host = malloc(bytes);
		if (!host) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM,
					    "out of memory for [buffer %s] (%zu bytes)", b->name, bytes);
			goto out;
		}
		if ((rc = fill_buffer(spec, b, host, err)) ||
		    (rc = weft_memcpy_htod(ctx, dptr[i], host, bytes, err)))
			goto out;
		free(host);
		host = NULL;
	}
	for (uint32_t i = 0; i < spec->nargs; i++) {
		const struct weft_spec_arg *a = &spec->args[i];
		if (a->buffer >= 0)
			args[i] = (struct weft_arg){ &dptr[a->buffer], sizeof(uint64_t) };
		else
			args[i] = (struct weft_arg){ a->bytes, weft_spec_type_size(a->type) };
	}
	/* the spec's instruction budget, named in the message when it runs out */
	char from[PATH_MAX + 64];
	snprintf(from, sizeof(from), "max_insts at %s:%u", spec->path, spec->max_insts_line);
	struct weft_launch_opts lopts = { spec->max_insts, from };
	if ((rc = weft_launch_ex(ctx, mod, spec->kernel, spec->grid, spec->block, spec->shared, args,
				 spec->nargs, &lopts, err)))
		goto out;

	/* Outputs first, so that a mismatching result can still be inspected. */
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		char path[PATH_MAX];
		if (!b->output)
			continue;
		size_t bytes = (size_t)(b->count * weft_spec_type_size(b->type));
		host = malloc(bytes);
		if (!host) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for [buffer %s]",
					    b->name);
			goto out;
		}
		if ((rc = weft_memcpy_dtoh(ctx, host, dptr[i], bytes, err)))
			goto out;
		weft_spec_output_path(spec, b, opts ? opts->output_dir : NULL, path, sizeof(path));
		if ((rc = weft_write_atomic(path, host, bytes, err))) {
			weft_error_prefix(err, "[buffer %s] output: ", b->name);
			goto out;
		}
		free(host);
		host = NULL;
	}
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		if (!b->expect)
			continue;
		size_t bytes = (size_t)(b->count * weft_spec_type_size(b->type));
		host = malloc(bytes);
		if (!host) {
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for [buffer %s]",
					    b->name);
			goto out;
		}
		if ((rc = weft_memcpy_dtoh(ctx, host, dptr[i], bytes, err)) ||
		    (rc = compare_expect(spec, b, host, err)))
			goto out;
		if (opts)
			opts->compared++;
		free(host);
		host = NULL;
	}
out:
	free(host);
	free(args);
	free(dptr);
	return rc;
}
