/*
 * spec_fill.c - the data a launch spec puts in device memory and checks
 * afterwards: each init mode of a buffer or symbol (zero, ramp, random from
 * a splitmix64 stream, a raw file, a values list), the device addresses and
 * object handles patched into values and arguments (buffer data + offset,
 * module variable + offset, texture and surface handles), and the
 * comparison with an expect file (exact for integers, within rel_tol and
 * abs_tol for floats).
 */
#include "spec_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_util.h"

/* "buffer" or "symbol": which array of the spec b is in. */
static const char *word(const struct weft_spec *spec, const struct weft_spec_buffer *b)
{
	return b >= spec->symbols && b < spec->symbols + spec->nsymbols ? "symbol" : "buffer";
}

int weft_specp_fill(const struct weft_spec *spec, const struct weft_spec_buffer *b, uint64_t count,
		    uint8_t *data, struct weft_error *err)
{
	unsigned esz = weft_spec_type_size(b->type);
	int isf = weft_spec_type_is_float(b->type), iss = weft_spec_type_is_signed(b->type);
	struct weft_rng rng;
	union weft_spec_num v;
	switch (b->init) {
	case WEFT_SPEC_INIT_ZERO:
		memset(data, 0, count * esz);
		return 0;
	case WEFT_SPEC_INIT_RAMP:
		for (uint64_t i = 0; i < count; i++) {
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
		for (uint64_t i = 0; i < count; i++) {
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
					     "[%s %s]: cannot open %s: %s", word(spec, b), b->name, b->file,
					     strerror(errno));
		size_t got = fread(data, 1, count * esz, f);
		fclose(f);
		if (got != count * esz)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->line, 0,
					     "[%s %s]: %s ended after %zu bytes; %llu expected", word(spec, b),
					     b->name, b->file, got,
					     (unsigned long long)(count * esz));
		return 0;
	}
	case WEFT_SPEC_INIT_VALUES:
		if (b->values.size != count * esz)
			return weft_error_set(err, WEFT_ERR_INTERNAL, "[%s %s]: %u value bytes for %llu elements",
					      word(spec, b), b->name, b->values.size, (unsigned long long)count);
		memcpy(data, b->values.bytes, b->values.size);
		return 0;
	}
	return weft_error_set(err, WEFT_ERR_INTERNAL, "bad init mode %d", (int)b->init);
}

int weft_specp_patch(const struct weft_spec *spec, const struct weft_specp_dev *d,
		     const struct weft_spec_value *v, uint8_t *bytes, struct weft_error *err)
{
	for (uint32_t i = 0; i < v->nrefs; i++) {
		const struct weft_spec_ref *r = &v->refs[i];
		uint64_t x = 0;
		switch (r->kind) {
		case WEFT_SPEC_REF_BUFFER:
			x = d->buf[r->index] + (uint64_t)r->addend;
			break;
		case WEFT_SPEC_REF_TEXTURE:
		case WEFT_SPEC_REF_SURFACE:
			x = d->tex[r->index];
			break;
		case WEFT_SPEC_REF_SYMBOL: {
			int rc = weft_module_symbol(d->mod, r->name, &x, NULL, err);
			if (rc) {
				weft_error_prefix(err, "%s:%u: ", spec->path, r->line);
				return rc;
			}
			x += (uint64_t)r->addend;
			break;
		}
		default:
			return weft_error_set(err, WEFT_ERR_INTERNAL, "bad reference kind %d", r->kind);
		}
		for (int k = 0; k < 8; k++)
			bytes[r->offset + k] = (uint8_t)(x >> (8 * k));
	}
	return 0;
}

/* Element i of type t as a double / a raw integer (for messages). */
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

static uint64_t elem_u(enum weft_spec_type t, const uint8_t *p)
{
	uint64_t u = 0;
	for (unsigned i = 0; i < weft_spec_type_size(t); i++)
		u |= (uint64_t)p[i] << (8 * i);
	return u;
}

static int64_t elem_s(enum weft_spec_type t, const uint8_t *p)
{
	uint64_t u = elem_u(t, p);
	unsigned n = weft_spec_type_size(t);
	if (n < 8 && (u >> (8 * n - 1)) & 1)
		u |= ~(uint64_t)0 << (8 * n); /* sign-extend */
	return (int64_t)u;
}

int weft_specp_compare(const struct weft_spec *spec, const struct weft_spec_buffer *b, uint64_t count,
		       const uint8_t *dev, struct weft_error *err)
{
	unsigned esz = weft_spec_type_size(b->type);
	size_t bytes = (size_t)(count * esz);
	const char *w = word(spec, b);
	uint8_t *exp = malloc(bytes ? bytes : 1);
	if (!exp)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for [%s %s] expect", w, b->name);
	FILE *f = fopen(b->expect, "rb");
	size_t got = f ? fread(exp, 1, bytes, f) : 0;
	if (f)
		fclose(f);
	if (got != bytes) {
		free(exp);
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->expect_line, 0,
				     "[%s %s]: cannot read %zu bytes from %s", w, b->name, bytes, b->expect);
	}
	int rc = 0;
	for (uint64_t i = 0; i < count && !rc; i++) {
		const uint8_t *d = dev + i * esz, *e = exp + i * esz;
		if (weft_spec_type_is_float(b->type)) {
			double dv = elem_f(b->type, d), ev = elem_f(b->type, e);
			int ok = (isnan(dv) && isnan(ev)) ||
				 (!isnan(dv) && !isnan(ev) &&
				  (dv == ev || fabs(dv - ev) <= b->abs_tol + b->rel_tol * fabs(ev)));
			if (!ok)
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[%s %s] element %llu is %.9g, %s expects %.9g (rel_tol %g, "
						   "abs_tol %g)",
						   w, b->name, (unsigned long long)i, dv, b->expect, ev, b->rel_tol,
						   b->abs_tol);
		} else if (memcmp(d, e, esz) != 0) {
			if (weft_spec_type_is_signed(b->type))
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[%s %s] element %llu is %lld, %s expects %lld", w, b->name,
						   (unsigned long long)i, (long long)elem_s(b->type, d), b->expect,
						   (long long)elem_s(b->type, e));
			else
				rc = weft_error_at(err, WEFT_ERR_VERIFY, spec->path, b->expect_line, 0,
						   "[%s %s] element %llu is %llu, %s expects %llu", w, b->name,
						   (unsigned long long)i, (unsigned long long)elem_u(b->type, d),
						   b->expect, (unsigned long long)elem_u(b->type, e));
		}
	}
	free(exp);
	return rc;
}
