/*
 * spec_run.c - running a parsed launch spec (see spec.h): load the PTX,
 * check the arguments, make sure every output can be written, allocate
 * the buffers (with their padding), create the texture and surface
 * objects, fill the buffers and module variables (spec_fill.c), run the
 * launches in order (each `repeat` times), write the outputs atomically and
 * compare what names an `expect` file. All launches run in one context, so
 * they share the buffers and one trace observes them all.
 */
#include "spec_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"

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

/* Fails before a long emulation, not after it, when an output cannot be
 * written. */
static int check_output(const struct weft_spec *spec, const struct weft_spec_buffer *b,
			const char *word, const char *outdir, struct weft_error *err)
{
	char path[PATH_MAX], dir[PATH_MAX];
	if (!b->output)
		return 0;
	weft_spec_output_path(spec, b, outdir, path, sizeof(path));
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	struct stat st;
	int bad = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0;
	int e = errno;
	if (bad)
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->output_line, 0,
				     "[%s %s]: cannot write output %s: directory %s %s", word, b->name, path, dir,
				     stat(dir, &st) != 0    ? "does not exist"
				     : !S_ISDIR(st.st_mode) ? "is not a directory"
							    : strerror(e));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->output_line, 0,
				     "[%s %s]: cannot write output %s: it is a directory; name a file", word,
				     b->name, path);
	return 0;
}

struct run {
	const struct weft_spec *spec;
	struct weft_ctx *ctx;
	struct weft_specp_dev dev;
	uint64_t *sym_count; /* [nsymbols] elements, resolved */
	uint8_t *host;
	struct weft_error *err;
};

static int make_buffers(struct run *r)
{
	const struct weft_spec *spec = r->spec;
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		const struct weft_spec_buffer *b = &spec->buffers[i];
		size_t data = (size_t)(b->count * weft_spec_type_size(b->type));
		uint64_t base;
		int rc = weft_malloc(r->ctx, (size_t)(b->pad_before + data + b->pad_after), &base, r->err);
		if (rc) {
			weft_error_prefix(r->err, "%s:%u: [buffer %s]: ", spec->path, b->line, b->name);
			return rc;
		}
		r->dev.buf[i] = base + b->pad_before;
	}
	for (uint32_t i = 0; i < spec->ntextures; i++) {
		const struct weft_spec_texture *t = &spec->textures[i];
		struct weft_tex_resource res = t->res;
		res.dptr = r->dev.buf[t->buffer] + t->offset;
		int rc = t->surface ? weft_surf_create(r->ctx, &res, &r->dev.tex[i], r->err)
				    : weft_tex_create(r->ctx, &res, &t->desc, &r->dev.tex[i], r->err);
		if (rc) {
			weft_error_prefix(r->err, "%s:%u: [%s %s]: ", spec->path, t->line,
					  t->surface ? "surface" : "texture", t->name);
			return rc;
		}
	}
	return 0;
}

/* Fills a buffer's data or a symbol's elements with their init mode and
 * references; symbols are written at their offset. */
static int fill(struct run *r, const struct weft_spec_buffer *b, int symbol, uint64_t count, uint64_t dptr)
{
	const struct weft_spec *spec = r->spec;
	size_t bytes = (size_t)(count * weft_spec_type_size(b->type));
	if (!symbol && b->init == WEFT_SPEC_INIT_ZERO)
		return 0; /* device allocations start zeroed */
	free(r->host);
	r->host = malloc(bytes ? bytes : 1);
	if (!r->host)
		return weft_error_set(r->err, WEFT_ERR_NOMEM, "out of memory for [%s %s] (%zu bytes)",
				      symbol ? "symbol" : "buffer", b->name, bytes);
	int rc = weft_specp_fill(spec, b, count, r->host, r->err);
	if (!rc)
		rc = weft_specp_patch(spec, &r->dev, &b->values, r->host, r->err);
	if (rc)
		return rc;
	if (symbol) {
		rc = weft_memcpy_to_symbol(r->ctx, r->dev.mod, b->name, r->host, bytes, (size_t)b->offset, r->err);
		if (rc)
			weft_error_prefix(r->err, "%s:%u: [symbol %s]: ", spec->path, b->line, b->name);
		return rc;
	}
	return weft_memcpy_htod(r->ctx, dptr, r->host, bytes, r->err);
}

static int fill_all(struct run *r)
{
	const struct weft_spec *spec = r->spec;
	int rc;
	for (uint32_t i = 0; i < spec->nbuffers; i++)
		if ((rc = fill(r, &spec->buffers[i], 0, spec->buffers[i].count, r->dev.buf[i])))
			return rc;
	for (uint32_t i = 0; i < spec->nsymbols; i++) {
		const struct weft_spec_buffer *s = &spec->symbols[i];
		uint64_t size;
		if ((rc = weft_module_symbol(r->dev.mod, s->name, NULL, &size, r->err)))
			return rc;
		unsigned esz = weft_spec_type_size(s->type);
		r->sym_count[i] = s->count ? s->count : (size - s->offset) / esz;
		if ((rc = fill(r, s, 1, r->sym_count[i], 0)))
			return rc;
	}
	return 0;
}

static int run_launches(struct run *r)
{
	const struct weft_spec *spec = r->spec;
	int rc = 0;
	for (uint32_t li = 0; li < spec->nlaunches && !rc; li++) {
		const struct weft_spec_launch *l = &spec->launches[li];
		struct weft_arg *args = calloc(l->nargs ? l->nargs : 1, sizeof(*args));
		uint8_t **bytes = calloc(l->nargs ? l->nargs : 1, sizeof(*bytes));
		if (!args || !bytes) {
			free(args);
			free(bytes);
			return weft_error_set(r->err, WEFT_ERR_NOMEM, "out of memory");
		}
		for (uint32_t i = 0; i < l->nargs && !rc; i++) {
			const struct weft_spec_value *v = &l->args[i].value;
			if (!(bytes[i] = malloc(v->size ? v->size : 1))) {
				rc = weft_error_set(r->err, WEFT_ERR_NOMEM, "out of memory");
				break;
			}
			memcpy(bytes[i], v->bytes, v->size);
			rc = weft_specp_patch(spec, &r->dev, v, bytes[i], r->err);
			args[i] = (struct weft_arg){ bytes[i], v->size };
		}
		/* the launch's instruction budget, named in the message when it runs out */
		char from[PATH_MAX + 64];
		snprintf(from, sizeof(from), "max_insts at %s:%u", spec->path, l->max_insts_line);
		struct weft_launch_opts lopts = { l->max_insts, from };
		for (uint64_t k = 0; k < l->repeat && !rc; k++) {
			rc = weft_launch_ex(r->ctx, r->dev.mod, l->kernel, l->grid, l->block, l->shared, args,
					    l->nargs, &lopts, r->err);
			if (rc && l->name)
				weft_error_prefix(r->err, "[launch %s] (%s:%u), run %llu of %llu: ", l->name,
						  spec->path, l->line, (unsigned long long)k + 1,
						  (unsigned long long)l->repeat);
		}
		for (uint32_t i = 0; i < l->nargs; i++)
			free(bytes[i]);
		free(bytes);
		free(args);
	}
	return rc;
}

/* Reads back a buffer's data or a symbol's elements into r->host. */
static int read_back(struct run *r, const struct weft_spec_buffer *b, int symbol, uint64_t count,
		     uint64_t dptr)
{
	size_t bytes = (size_t)(count * weft_spec_type_size(b->type));
	free(r->host);
	r->host = malloc(bytes ? bytes : 1);
	if (!r->host)
		return weft_error_set(r->err, WEFT_ERR_NOMEM, "out of memory for [%s %s]",
				      symbol ? "symbol" : "buffer", b->name);
	if (symbol)
		return weft_memcpy_from_symbol(r->ctx, r->dev.mod, b->name, r->host, bytes, (size_t)b->offset,
					       r->err);
	return weft_memcpy_dtoh(r->ctx, r->host, dptr, bytes, r->err);
}

/* Outputs first, so that a mismatching result can still be inspected;
 * then the comparisons. */
static int finish(struct run *r, const char *outdir, struct weft_spec_run_opts *opts)
{
	const struct weft_spec *spec = r->spec;
	int rc;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < spec->nbuffers + spec->nsymbols; i++) {
			int sym = i >= spec->nbuffers;
			const struct weft_spec_buffer *b = sym ? &spec->symbols[i - spec->nbuffers] : &spec->buffers[i];
			uint64_t count = sym ? r->sym_count[i - spec->nbuffers] : b->count;
			if (!(pass ? b->expect : b->output))
				continue;
			if ((rc = read_back(r, b, sym, count, sym ? 0 : r->dev.buf[i])))
				return rc;
			if (pass == 0) {
				char path[PATH_MAX];
				weft_spec_output_path(spec, b, outdir, path, sizeof(path));
				size_t bytes = (size_t)(count * weft_spec_type_size(b->type));
				if ((rc = weft_write_atomic(path, r->host, bytes, r->err))) {
					weft_error_prefix(r->err, "[%s %s] output: ", sym ? "symbol" : "buffer", b->name);
					return rc;
				}
				continue;
			}
			if ((rc = weft_specp_compare(spec, b, count, r->host, r->err)))
				return rc;
			if (opts)
				opts->compared++;
		}
	return 0;
}

int weft_spec_run(const struct weft_spec *spec, struct weft_ctx *ctx,
		  struct weft_spec_run_opts *opts, struct weft_error *err)
{
	struct run r;
	const char *outdir = opts ? opts->output_dir : NULL;
	int rc;

	memset(&r, 0, sizeof(r));
	r.spec = spec;
	r.ctx = ctx;
	r.err = err;
	weft_error_clear(err);
	if ((rc = weft_module_load_file(ctx, spec->ptx, &r.dev.mod, err))) {
		if (err && !err->file[0])
			weft_error_prefix(err, "%s: loading %s: ", spec->path, spec->ptx);
		return rc;
	}
	if ((rc = weft_spec_check_args(spec, weft_module_ptx(r.dev.mod), err)))
		return rc;
	for (uint32_t i = 0; i < spec->nbuffers; i++)
		if ((rc = check_output(spec, &spec->buffers[i], "buffer", outdir, err)))
			return rc;
	for (uint32_t i = 0; i < spec->nsymbols; i++)
		if ((rc = check_output(spec, &spec->symbols[i], "symbol", outdir, err)))
			return rc;
	r.dev.buf = calloc(spec->nbuffers + 1, sizeof(uint64_t));
	r.dev.tex = calloc(spec->ntextures + 1, sizeof(uint64_t));
	r.sym_count = calloc(spec->nsymbols + 1, sizeof(uint64_t));
	if (!r.dev.buf || !r.dev.tex || !r.sym_count)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	if (!rc)
		rc = make_buffers(&r);
	if (!rc)
		rc = fill_all(&r);
	if (!rc)
		rc = run_launches(&r);
	if (!rc)
		rc = finish(&r, outdir, opts);
	free(r.host);
	free(r.dev.buf);
	free(r.dev.tex);
	free(r.sym_count);
	return rc;
}
