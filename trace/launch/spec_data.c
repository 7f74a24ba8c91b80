/*
 * spec_data.c - [buffer NAME] and [symbol NAME] sections of a launch spec
 * (docs/launch-spec.md): element type, count, init mode (zero, ramp,
 * random, file, values) with its keys, the output and expect files, and
 * for buffers the padding around the data, for symbols the offset into the
 * module variable. Keys of another init mode are errors, not defaults.
 */
#include "spec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const buffer_keys[] = { "type", "count", "init", "start", "step", "seed",
					   "min", "max", "file", "values", "output", "expect",
					   "rel_tol", "abs_tol", "pad_before", "pad_after", NULL };
static const char *const symbol_keys[] = { "type", "count", "offset", "init", "start", "step",
					   "seed", "min", "max", "file", "values", "output",
					   "expect", "rel_tol", "abs_tol", NULL };
static const char *const inits[] = { "zero", "ramp", "random", "file", "values", NULL };

/* Keys that belong to one init mode. */
static const struct {
	const char *key;
	enum weft_spec_init mode;
} owned[] = {
	{ "start", WEFT_SPEC_INIT_RAMP },  { "step", WEFT_SPEC_INIT_RAMP },
	{ "seed", WEFT_SPEC_INIT_RANDOM }, { "min", WEFT_SPEC_INIT_RANDOM },
	{ "max", WEFT_SPEC_INIT_RANDOM },  { "file", WEFT_SPEC_INIT_FILE },
	{ "values", WEFT_SPEC_INIT_VALUES },
};

static int init_keys(struct weft_specp *p, uint32_t sec, struct weft_spec_buffer *b, const char *sname)
{
	struct weft_specp_entry *e, *ie = weft_specp_find(p, sec, "init");
	const char *why;
	enum weft_spec_type t = b->type;
	int isf = weft_spec_type_is_float(t), iss = weft_spec_type_is_signed(t);
	b->init = WEFT_SPEC_INIT_ZERO;
	if (ie) {
		int found = -1;
		char hint[256];
		for (int i = 0; inits[i]; i++)
			if (strcmp(ie->value, inits[i]) == 0)
				found = i;
		if (found < 0)
			return weft_specp_err(p, ie->line, WEFT_ERR_INPUT,
					      "unknown init `%s` (zero, ramp, random, file or values)%s", ie->value,
					      weft_specp_suggest_word(ie->value, inits, hint, sizeof(hint)));
		b->init = (enum weft_spec_init)found;
	}
	for (unsigned i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
		struct weft_specp_entry *o = weft_specp_find(p, sec, owned[i].key);
		if (o && owned[i].mode != b->init)
			return weft_specp_err(p, o->line, WEFT_ERR_INPUT,
					      "`%s` only applies to init = %s (this %s has init = %s)",
					      owned[i].key, inits[owned[i].mode], sname, inits[b->init]);
	}
	switch (b->init) {
	case WEFT_SPEC_INIT_ZERO:
		break;
	case WEFT_SPEC_INIT_RAMP:
		if (isf) {
			b->start.f = 0;
			b->step.f = 1;
		} else {
			b->start.u = 0;
			b->step.s = 1;
		}
		if ((e = weft_specp_find(p, sec, "start")) && weft_specp_num(t, e->value, &b->start, &why))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad start `%s` for %s: %s", e->value,
					      weft_spec_type_name(t), why);
		/* An unsigned ramp may count down: step is signed for integers. */
		if ((e = weft_specp_find(p, sec, "step")) &&
		    weft_specp_num(isf ? t : WEFT_SPEC_S64, e->value, &b->step, &why))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad step `%s`: %s", e->value, why);
		break;
	case WEFT_SPEC_INIT_RANDOM: {
		b->seed = 1;
		if ((e = weft_specp_find(p, sec, "seed")) && weft_specp_u64(e->value, &b->seed))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad seed `%s`: want an unsigned integer", e->value);
		if (isf) {
			b->min.f = 0;
			b->max.f = 1;
		} else if (iss) {
			b->min.s = 0;
			b->max.s = 100;
		} else {
			b->min.u = 0;
			b->max.u = 100;
		}
		struct weft_specp_entry *me = weft_specp_find(p, sec, "min");
		if (me && weft_specp_num(t, me->value, &b->min, &why))
			return weft_specp_err(p, me->line, WEFT_ERR_INPUT, "bad min `%s` for %s: %s", me->value,
					      weft_spec_type_name(t), why);
		if ((e = weft_specp_find(p, sec, "max")) && weft_specp_num(t, e->value, &b->max, &why))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad max `%s` for %s: %s", e->value,
					      weft_spec_type_name(t), why);
		if (!e)
			e = me;
		int bad = isf ? !(b->min.f <= b->max.f) : iss ? b->min.s > b->max.s : b->min.u > b->max.u;
		if (bad)
			return weft_specp_err(p, e ? e->line : b->line, WEFT_ERR_INPUT,
					      "[%s %s]: min is greater than max", sname, b->name);
		break;
	}
	case WEFT_SPEC_INIT_FILE:
		if (!(e = weft_specp_find(p, sec, "file")) || !*e->value)
			return weft_specp_err(p, ie->line, WEFT_ERR_INPUT,
					      "init = file needs `file = PATH` (raw binary, relative to the spec "
					      "file)");
		if (!(b->file = weft_specp_join(p->spec->dir, e->value)))
			return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		break;
	case WEFT_SPEC_INIT_VALUES: {
		char owner[300];
		uint64_t n;
		if (!(e = weft_specp_find(p, sec, "values")))
			return weft_specp_err(p, ie->line, WEFT_ERR_INPUT,
					      "init = values needs `values = V1, V2, ...`");
		snprintf(owner, sizeof(owner), "[%s %s]", sname, b->name);
		if (weft_specp_values(p, e->line, owner, t, e->value, &b->values, &n))
			return p->code;
		struct weft_specp_entry *ce = weft_specp_find(p, sec, "count");
		if (ce) {
			uint64_t c;
			if (weft_specp_u64(ce->value, &c) || c != n)
				return weft_specp_err(p, ce->line, WEFT_ERR_INPUT,
						      "count = %s but `values` lists %llu; leave count out "
						      "with init = values",
						      ce->value, (unsigned long long)n);
		}
		b->count = n;
		break;
	}
	}
	return 0;
}

/* count (and init = file's size), then expect, tolerances and output. */
static int sizes(struct weft_specp *p, uint32_t sec, struct weft_spec_buffer *b, int symbol,
		 const char *sname)
{
	struct weft_specp_entry *e, *ce = weft_specp_find(p, sec, "count");
	unsigned esz = weft_spec_type_size(b->type);
	int isf = weft_spec_type_is_float(b->type);
	const char *why;
	if (ce && b->init != WEFT_SPEC_INIT_VALUES) {
		if (weft_specp_u64(ce->value, &b->count) || b->count == 0)
			return weft_specp_err(p, ce->line, WEFT_ERR_INPUT,
					      "bad count `%s`: want a positive number of elements", ce->value);
		if (b->count > ((uint64_t)1 << 40) / esz)
			return weft_specp_err(p, ce->line, WEFT_ERR_INPUT,
					      "count %llu is too large (at most 1 TiB per %s)",
					      (unsigned long long)b->count, sname);
		b->count_line = ce->line;
	} else if (!ce && b->init != WEFT_SPEC_INIT_FILE && b->init != WEFT_SPEC_INIT_VALUES && !symbol) {
		return weft_specp_err(p, b->line, WEFT_ERR_INPUT, "[buffer %s] needs `count = N` (elements)",
				      b->name);
	}
	if (b->init == WEFT_SPEC_INIT_FILE) {
		uint64_t size;
		e = weft_specp_find(p, sec, "file");
		if (weft_specp_file_size(b->file, &size, &why))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "cannot read init file %s: %s", b->file,
					      why);
		if (!ce) {
			if (size == 0 || size % esz)
				return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
						      "init file %s has %llu bytes, not a whole number of %s "
						      "elements; set count",
						      b->file, (unsigned long long)size, weft_spec_type_name(b->type));
			b->count = size / esz;
		} else if (size != b->count * esz) {
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "init file %s has %llu bytes but %llu %s elements need %llu", b->file,
					      (unsigned long long)size, (unsigned long long)b->count,
					      weft_spec_type_name(b->type), (unsigned long long)(b->count * esz));
		}
	}
	if ((e = weft_specp_find(p, sec, "expect"))) {
		uint64_t size;
		if (!*e->value)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "empty expect path");
		if (!(b->expect = weft_specp_join(p->spec->dir, e->value)))
			return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		b->expect_line = e->line;
		if (weft_specp_file_size(b->expect, &size, &why))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "cannot read expect file %s: %s",
					      b->expect, why);
		/* a symbol without count: checked when its size is known */
		if (b->count && size != b->count * esz)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "expect file %s has %llu bytes but %llu %s elements need %llu",
					      b->expect, (unsigned long long)size, (unsigned long long)b->count,
					      weft_spec_type_name(b->type), (unsigned long long)(b->count * esz));
	}
	static const char *const tols[] = { "rel_tol", "abs_tol" };
	for (int t = 0; t < 2; t++) {
		double *dst = t ? &b->abs_tol : &b->rel_tol;
		if (!(e = weft_specp_find(p, sec, tols[t])))
			continue;
		if (!b->expect)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "`%s` only applies with `expect = FILE`", tols[t]);
		if (!isf)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "`%s` applies to f32/f64 %ss; integers compare exactly", tols[t],
					      sname);
		if (weft_specp_double(e->value, dst) || !(*dst >= 0) || isinf(*dst))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad %s `%s`: want a finite number >= 0", tols[t], e->value);
	}
	if ((e = weft_specp_find(p, sec, "output"))) {
		if (!*e->value)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "empty output path");
		if (!(b->output = weft_specp_strdup(e->value)))
			return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		b->output_line = e->line;
	}
	return 0;
}

/* pad_before / pad_after (buffers), offset (symbols): bytes. */
static int byte_key(struct weft_specp *p, uint32_t sec, const char *key, uint64_t max, uint64_t *out)
{
	struct weft_specp_entry *e = weft_specp_find(p, sec, key);
	*out = 0;
	if (!e)
		return 0;
	if (weft_specp_u64(e->value, out) || *out > max)
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "bad %s `%s`: want a number of bytes, at most %llu", key, e->value,
				      (unsigned long long)max);
	return 0;
}

int weft_specp_data(struct weft_specp *p, uint32_t sec, struct weft_spec_buffer *b, int symbol)
{
	const struct weft_specp_section *s = &p->secs[sec];
	const char *sname = symbol ? "symbol" : "buffer";
	struct weft_specp_entry *e;
	char what[20];
	snprintf(what, sizeof(what), "[%s]", sname);
	if (weft_specp_check_keys(p, sec, symbol ? symbol_keys : buffer_keys, what))
		return p->code;
	b->line = s->line;
	if (!(b->name = weft_specp_strdup(s->name)))
		return weft_specp_err(p, s->line, WEFT_ERR_NOMEM, "out of memory");
	if (!(e = weft_specp_find(p, sec, "type")))
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT, "[%s %s] needs `type = T` (%s)", sname,
				      s->name, weft_specp_type_list);
	if (weft_specp_type_parse(e->value, &b->type)) {
		char hint[256];
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "unknown type `%s` (types: %s)%s", e->value,
				      weft_specp_type_list,
				      weft_specp_suggest_type(e->value, NULL, hint, sizeof(hint)));
	}
	if (init_keys(p, sec, b, sname) || sizes(p, sec, b, symbol, sname))
		return p->code;
	if (symbol)
		return byte_key(p, sec, "offset", (uint64_t)WEFT_PTX_MAX_MODULE_VAR_BYTES, &b->offset);
	if (byte_key(p, sec, "pad_before", WEFT_SPEC_MAX_PAD, &b->pad_before) ||
	    byte_key(p, sec, "pad_after", WEFT_SPEC_MAX_PAD, &b->pad_after))
		return p->code;
	return 0;
}
