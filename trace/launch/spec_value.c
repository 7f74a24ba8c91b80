/*
 * spec_value.c - the values of a launch spec (docs/launch-spec.md "[args]"
 * and "init = values"): scalars TYPE:VALUE, references to a buffer
 * (buffer:NAME, buffer:NAME+OFFSET, buffer:NAME-OFFSET), a texture or
 * surface object (texture:NAME, surface:NAME) or a module variable
 * (symbol:NAME[+OFFSET]), raw bytes (bytes:HEX) and structs
 * (struct:{FIELD, ...} with C layout: each field at its natural alignment,
 * pad:N for explicit padding, the size rounded up to the largest
 * alignment). A value is bytes plus the references patched into them at
 * run time (spec_fill.c).
 */
#include "spec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kinds_list[] = "buffer, texture, surface, symbol, bytes, struct";

void weft_specp_value_free(struct weft_spec_value *v)
{
	for (uint32_t i = 0; i < v->nrefs; i++)
		free(v->refs[i].name);
	free(v->refs);
	free(v->bytes);
	memset(v, 0, sizeof(*v));
}

/* Appends n bytes (NULL: zeros) at the next multiple of align. */
static int append(struct weft_specp *p, uint32_t line, const char *what, struct weft_spec_value *v,
		  const void *src, uint64_t n, uint32_t align)
{
	uint64_t at = (v->size + align - 1) / align * align;
	if (at + n > WEFT_SPEC_MAX_VALUE_BYTES)
		return weft_specp_err(p, line, WEFT_ERR_INPUT,
				      "%s: more than %u bytes (the most CUDA passes to a kernel); make it "
				      "smaller",
				      what, WEFT_SPEC_MAX_VALUE_BYTES);
	uint8_t *b = realloc(v->bytes, at + n ? at + n : 1);
	if (!b)
		return weft_specp_err(p, line, WEFT_ERR_NOMEM, "out of memory");
	v->bytes = b;
	memset(b + v->size, 0, at - v->size);
	if (src)
		memcpy(b + at, src, n);
	else
		memset(b + at, 0, n);
	v->size = (uint32_t)(at + n);
	if (align > v->align)
		v->align = align;
	return 0;
}

static int add_ref(struct weft_specp *p, uint32_t line, struct weft_spec_value *v, uint8_t kind,
		   int32_t index, int64_t addend, const char *name)
{
	struct weft_spec_ref *r = realloc(v->refs, (v->nrefs + 1) * sizeof(*r));
	if (!r)
		return weft_specp_err(p, line, WEFT_ERR_NOMEM, "out of memory");
	v->refs = r;
	struct weft_spec_ref *x = &r[v->nrefs];
	memset(x, 0, sizeof(*x));
	x->offset = v->size - 8;
	x->kind = kind;
	x->index = index;
	x->addend = addend;
	x->line = line;
	if (name && !(x->name = weft_specp_strdup(name)))
		return weft_specp_err(p, line, WEFT_ERR_NOMEM, "out of memory");
	v->nrefs++;
	return 0;
}

/* NAME, NAME+OFFSET or NAME-OFFSET: a whole name that exists wins, so
 * names with '-' or '+' still work. *sec: the section, or -1. */
static int split_ref(const struct weft_specp *p, enum weft_specp_sec kind, char *s, int64_t *off,
		     int32_t *sec, int signed_ok)
{
	*off = 0;
	*sec = weft_specp_section(p, kind, s);
	if (*sec >= 0)
		return 0;
	char *op = NULL;
	for (char *c = s; *c; c++)
		if (*c == '+' || (*c == '-' && signed_ok))
			op = c;
	if (!op)
		return 0;
	uint64_t v;
	if (weft_specp_u64(op + 1, &v) || v > (uint64_t)INT64_MAX)
		return -1;
	char c = *op;
	*op = 0;
	*off = c == '-' ? -(int64_t)v : (int64_t)v;
	*sec = weft_specp_section(p, kind, s);
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A reference (buffer:, texture:, surface:, symbol:) as an 8-byte value:
 * 0, an error (negative), or 1 when kind is none of them. */
static int ref_atom(struct weft_specp *p, uint32_t line, const char *what, const char *kind,
		    char *val, struct weft_spec_value *v, int32_t *buffer)
{
	int64_t off;
	int32_t sec;
	char hint[400];
	if (!strcmp(kind, "buffer")) {
		if (split_ref(p, SEC_BUFFER, val, &off, &sec, 1))
			return weft_specp_err(p, line, WEFT_ERR_INPUT,
					      "%s: bad offset in `buffer:%s`: want buffer:NAME, "
					      "buffer:NAME+BYTES or buffer:NAME-BYTES",
					      what, val);
		if (sec < 0)
			return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: no [buffer %s] in this spec%s",
					      what, val,
					      weft_specp_suggest_section(p, SEC_BUFFER, val, "[buffer ", hint,
									 sizeof(hint)));
		if (buffer)
			*buffer = off ? -1 : p->secs[sec].index;
		if (append(p, line, what, v, NULL, 8, 8) ||
		    add_ref(p, line, v, WEFT_SPEC_REF_BUFFER, p->secs[sec].index, off, NULL))
			return p->code;
		return 0;
	}
	if (!strcmp(kind, "texture") || !strcmp(kind, "surface")) {
		int surf = kind[0] == 's';
		sec = weft_specp_section(p, SEC_TEXTURE, val);
		if (sec < 0 || (p->secs[sec].kind == SEC_SURFACE) != surf)
			return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: no [%s %s] in this spec%s%s", what,
					      kind, val,
					      sec >= 0 ? (surf ? "; it is a [texture]" : "; it is a [surface]") : "",
					      sec >= 0 ? ""
						       : weft_specp_suggest_section(p, surf ? SEC_SURFACE : SEC_TEXTURE,
										  val, surf ? "[surface " : "[texture ",
										  hint, sizeof(hint)));
		if (append(p, line, what, v, NULL, 8, 8) ||
		    add_ref(p, line, v, surf ? WEFT_SPEC_REF_SURFACE : WEFT_SPEC_REF_TEXTURE,
			    p->secs[sec].index, 0, NULL))
			return p->code;
		return 0;
	}
	if (!strcmp(kind, "symbol")) {
		char *plus = strrchr(val, '+');
		uint64_t o = 0;
		if (plus) {
			if (weft_specp_u64(plus + 1, &o) || o > (uint64_t)INT64_MAX)
				return weft_specp_err(p, line, WEFT_ERR_INPUT,
						      "%s: bad offset in `symbol:%s`: want symbol:NAME or "
						      "symbol:NAME+BYTES",
						      what, val);
			*plus = 0;
		}
		if (!*val || strcspn(val, " \t,{}") != strlen(val))
			return weft_specp_err(p, line, WEFT_ERR_INPUT,
					      "%s: `symbol:%s` needs the name of a module variable", what, val);
		if (append(p, line, what, v, NULL, 8, 8) ||
		    add_ref(p, line, v, WEFT_SPEC_REF_SYMBOL, -1, (int64_t)o, val))
			return p->code;
		return 0;
	}
	return 1;
}

/* One part of an argument: in_struct allows pad:N and forbids struct:. */
static int atom(struct weft_specp *p, struct weft_spec_arg *a, const char *what, char *text,
		struct weft_spec_value *v, int in_struct)
{
	uint32_t line = a->line;
	char *colon = strchr(text, ':');
	if (!colon)
		return weft_specp_err(p, line, WEFT_ERR_INPUT,
				      "%s: `%s`: want TYPE:VALUE (e.g. u32:1000, f32:1.5) or buffer:NAME%s",
				      what, text, in_struct ? ", or pad:BYTES" : "");
	*colon = 0;
	char *kind = weft_specp_trim(text), *val = weft_specp_trim(colon + 1);
	int rc = ref_atom(p, line, what, kind, val, v, in_struct ? NULL : &a->buffer);
	if (rc <= 0) {
		if (!rc && !in_struct)
			a->kind = !strcmp(kind, "buffer")	? WEFT_SPEC_ARG_BUFFER
				  : !strcmp(kind, "symbol") ? WEFT_SPEC_ARG_SYMBOL
							    : WEFT_SPEC_ARG_TEXTURE;
		return rc ? p->code : 0;
	}
	if (!strcmp(kind, "bytes")) {
		uint8_t buf[WEFT_ERROR_MSG_MAX];
		uint32_t n = 0;
		const char *s = val;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		for (; *s; s++) {
			if (*s == ' ' || *s == '\t')
				continue;
			int hi = hexval(s[0]), lo = s[1] ? hexval(s[1]) : -1;
			if (hi < 0 || lo < 0 || n == sizeof(buf))
				return weft_specp_err(p, line, WEFT_ERR_INPUT,
						      "%s: bad bytes `%s`: want pairs of hex digits, e.g. "
						      "bytes:01 00 ff 7f",
						      what, val);
			buf[n++] = (uint8_t)(hi << 4 | lo);
			s++;
		}
		if (!n)
			return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: bytes: needs at least one byte",
					      what);
		if (!in_struct)
			a->kind = WEFT_SPEC_ARG_BYTES;
		return append(p, line, what, v, buf, n, 1);
	}
	if (in_struct && !strcmp(kind, "pad")) {
		uint64_t n;
		if (weft_specp_u64(val, &n) || !n)
			return weft_specp_err(p, line, WEFT_ERR_INPUT,
					      "%s: bad pad `%s`: want a positive number of bytes", what, val);
		return append(p, line, what, v, NULL, n, 1);
	}
	if (!in_struct && !strcmp(kind, "struct")) {
		size_t n = strlen(val);
		if (n < 2 || val[0] != '{' || val[n - 1] != '}')
			return weft_specp_err(p, line, WEFT_ERR_INPUT,
					      "%s: want struct:{FIELD, FIELD, ...} (fields as arguments are "
					      "written, or pad:BYTES)",
					      what);
		val[n - 1] = 0;
		char *body = weft_specp_trim(val + 1), *save = NULL;
		if (strchr(body, '{') || strchr(body, '}'))
			return weft_specp_err(p, line, WEFT_ERR_INPUT,
					      "%s: structs do not nest; write the inner fields in place", what);
		a->kind = WEFT_SPEC_ARG_STRUCT;
		int fields = 0;
		for (char *f = strtok_r(body, ",", &save); f; f = strtok_r(NULL, ",", &save), fields++)
			if (atom(p, a, what, weft_specp_trim(f), v, 1))
				return p->code;
		if (!fields)
			return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: an empty struct", what);
		/* C layout: the size is a multiple of the largest alignment */
		return append(p, line, what, v, NULL, 0, v->align);
	}
	enum weft_spec_type t;
	if (weft_specp_type_parse(kind, &t)) {
		char hint[256];
		const char *kl = in_struct ? "buffer, texture, surface, symbol, bytes, pad" : kinds_list;
		return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: unknown type `%s` (%s or %s)%s", what,
				      kind, kl, weft_specp_type_list,
				      weft_specp_suggest_type(kind, kl, hint, sizeof(hint)));
	}
	union weft_spec_num num;
	const char *why;
	if (weft_specp_num(t, val, &num, &why))
		return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: bad %s value `%s`: %s", what, kind, val,
				      why);
	uint8_t b[8];
	weft_spec_store(t, num, b);
	unsigned sz = weft_spec_type_size(t);
	if (!in_struct) {
		a->kind = WEFT_SPEC_ARG_SCALAR;
		a->type = t;
		memcpy(a->bytes, b, sz);
	}
	return append(p, line, what, v, b, sz, sz);
}

int weft_specp_arg_value(struct weft_specp *p, struct weft_spec_arg *a, const char *text)
{
	char what[300], buf[WEFT_ERROR_MSG_MAX];
	snprintf(what, sizeof(what), "argument `%s`", a->label);
	snprintf(buf, sizeof(buf), "%s", text);
	a->buffer = -1;
	if (!strchr(buf, ':'))
		return weft_specp_err(p, a->line, WEFT_ERR_INPUT,
				      "argument `%s = %s`: want buffer:NAME or TYPE:VALUE (e.g. u32:1000, "
				      "f32:1.5)",
				      a->label, text);
	if (atom(p, a, what, buf, &a->value, 0))
		return p->code;
	if (!a->value.align)
		a->value.align = 1;
	return 0;
}

int weft_specp_values(struct weft_specp *p, uint32_t line, const char *owner, enum weft_spec_type t,
		      const char *text, struct weft_spec_value *v, uint64_t *n)
{
	char buf[WEFT_ERROR_MSG_MAX], what[300];
	snprintf(buf, sizeof(buf), "%s", text);
	snprintf(what, sizeof(what), "%s values", owner);
	unsigned sz = weft_spec_type_size(t);
	int refs_ok = sz == 8 && !weft_spec_type_is_float(t);
	*n = 0;
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save), (*n)++) {
		item = weft_specp_trim(item);
		char *colon = strchr(item, ':');
		if (colon && refs_ok) {
			*colon = 0;
			int rc = ref_atom(p, line, what, weft_specp_trim(item), weft_specp_trim(colon + 1), v, NULL);
			if (rc < 0 || p->code)
				return p->code;
			if (rc == 0)
				continue;
			*colon = ':';
		}
		union weft_spec_num num;
		const char *why;
		if (colon && !refs_ok)
			why = "references (buffer:NAME ...) need a 64-bit integer type (u64, s64)";
		if ((colon && !refs_ok) || weft_specp_num(t, item, &num, &why))
			return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s: bad %s value %llu `%s`: %s", what,
					      weft_spec_type_name(t), (unsigned long long)*n + 1, item, why);
		uint8_t b[8];
		weft_spec_store(t, num, b);
		if (append(p, line, what, v, b, sz, sz))
			return p->code;
	}
	if (!*n)
		return weft_specp_err(p, line, WEFT_ERR_INPUT,
				      "%s: empty list; write values = V1, V2, ... (comma-separated)", what);
	return 0;
}

int weft_specp_check_refs(struct weft_specp *p, const struct weft_spec_value *v)
{
	const struct weft_spec *spec = p->spec;
	for (uint32_t i = 0; i < v->nrefs; i++) {
		const struct weft_spec_ref *r = &v->refs[i];
		if (r->kind != WEFT_SPEC_REF_BUFFER || r->index < 0 || (uint32_t)r->index >= spec->nbuffers)
			continue;
		const struct weft_spec_buffer *b = &spec->buffers[r->index];
		uint64_t bytes = b->count * weft_spec_type_size(b->type);
		if ((r->addend < 0 && (uint64_t)-r->addend > b->pad_before) ||
		    (r->addend > 0 && (uint64_t)r->addend > bytes + b->pad_after))
			return weft_specp_err(p, r->line, WEFT_ERR_INPUT,
					      "offset %lld points outside [buffer %s] (%llu bytes, %llu of "
					      "padding before and %llu after); pad the buffer "
					      "(pad_before, pad_after) or use a smaller offset",
					      (long long)r->addend, b->name, (unsigned long long)bytes,
					      (unsigned long long)b->pad_before,
					      (unsigned long long)b->pad_after);
	}
	return 0;
}
