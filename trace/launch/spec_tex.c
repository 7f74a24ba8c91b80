/*
 * spec_tex.c - [texture NAME] and [surface NAME] sections of a launch spec
 * (docs/launch-spec.md): an object over a buffer's data with a texel format
 * (u8x4, f32, ...), width, height and pitch, and for textures the
 * address modes, filter, read mode, normalized coordinates and border
 * colour of cudaTextureDesc. The combinations CUDA refuses, and sizes that
 * do not fit the buffer, are refused here at their line (host_tex.c checks
 * again when the object is made).
 */
#include "spec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const texture_keys[] = { "buffer", "offset", "format", "width", "height",
					    "pitch", "address", "filter", "read", "normalized",
					    "border", NULL };
static const char *const surface_keys[] = { "buffer", "offset", "format", "width", "height",
					    "pitch", NULL };

static const struct {
	const char *name;
	uint8_t kind, bits;
} formats[] = {
	{ "u8", WEFT_CHANNEL_UNSIGNED, 8 },  { "s8", WEFT_CHANNEL_SIGNED, 8 },
	{ "u16", WEFT_CHANNEL_UNSIGNED, 16 }, { "s16", WEFT_CHANNEL_SIGNED, 16 },
	{ "u32", WEFT_CHANNEL_UNSIGNED, 32 }, { "s32", WEFT_CHANNEL_SIGNED, 32 },
	{ "f16", WEFT_CHANNEL_FLOAT, 16 },    { "f32", WEFT_CHANNEL_FLOAT, 32 },
};
static const char format_list[] = "u8, s8, u16, s16, u32, s32, f16, f32, each alone or x2 or x4";

/* "f32", "u8x4": the channel type and count. */
static int parse_format(const char *s, struct weft_tex_resource *r)
{
	char buf[16];
	snprintf(buf, sizeof(buf), "%s", s);
	char *x = strchr(buf, 'x');
	r->channels = 1;
	if (x) {
		if (!strcmp(x, "x1") || !strcmp(x, "x2") || !strcmp(x, "x4"))
			r->channels = (uint8_t)(x[1] - '0');
		else
			return -1;
		*x = 0;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(buf, formats[i].name)) {
			r->kind = formats[i].kind;
			r->bits = formats[i].bits;
			return 0;
		}
	return -1;
}

static int word(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

/* address, filter, read, normalized, border. */
static int sampling(struct weft_specp *p, uint32_t sec, struct weft_spec_texture *t)
{
	static const char *const modes[] = { "wrap", "clamp", "mirror", "border", NULL };
	static const char *const filters[] = { "point", "linear", NULL };
	static const char *const reads[] = { "element", "normalized", NULL };
	struct weft_specp_entry *e;
	struct weft_tex_desc *d = &t->desc;
	char hint[200], buf[256];
	d->address[0] = d->address[1] = WEFT_ADDRESS_CLAMP;
	if ((e = weft_specp_find(p, sec, "address"))) {
		snprintf(buf, sizeof(buf), "%s", e->value);
		char *save = NULL;
		int n = 0;
		for (char *m = strtok_r(buf, ",", &save); m; m = strtok_r(NULL, ",", &save), n++) {
			m = weft_specp_trim(m);
			int k = word(m, modes);
			if (k < 0 || n == 2)
				return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
						      "bad address `%s`: want one mode for both dimensions or "
						      "two (x, y) of wrap, clamp, mirror, border%s",
						      e->value,
						      k < 0 ? weft_specp_suggest_word(m, modes, hint, sizeof(hint)) : "");
			d->address[n] = (uint8_t)k;
			if (n == 0)
				d->address[1] = (uint8_t)k;
		}
	}
	if ((e = weft_specp_find(p, sec, "filter"))) {
		int k = word(e->value, filters);
		if (k < 0)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad filter `%s`: point or linear%s",
					      e->value, weft_specp_suggest_word(e->value, filters, hint, sizeof(hint)));
		d->filter = (uint8_t)k;
	}
	if ((e = weft_specp_find(p, sec, "read"))) {
		int k = word(e->value, reads);
		if (k < 0)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad read `%s`: element (the texel's type) or normalized (8- and "
					      "16-bit integers as floats in [0, 1] or [-1, 1])%s",
					      e->value, weft_specp_suggest_word(e->value, reads, hint, sizeof(hint)));
		d->read = (uint8_t)k;
	}
	if ((e = weft_specp_find(p, sec, "normalized"))) {
		if (strcmp(e->value, "0") && strcmp(e->value, "1"))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad normalized `%s`: 1 (coordinates in [0, 1)) or 0 (texel "
					      "coordinates)",
					      e->value);
		d->normalized = e->value[0] == '1';
	}
	if ((e = weft_specp_find(p, sec, "border"))) {
		snprintf(buf, sizeof(buf), "%s", e->value);
		char *save = NULL;
		int n = 0;
		for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save), n++) {
			double v;
			if (n == 4 || weft_specp_double(weft_specp_trim(c), &v) || (isfinite(v) && fabs(v) > 3.4e38))
				return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
						      "bad border `%s`: want up to four numbers (r, g, b, a)",
						      e->value);
			d->border[n] = (float)v;
		}
	}
	const struct weft_tex_resource *r = &t->res;
	int ints = r->kind != WEFT_CHANNEL_FLOAT;
	e = weft_specp_find(p, sec, "read");
	if (d->read == WEFT_READ_NORMALIZED_FLOAT && (!ints || r->bits == 32))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "read = normalized applies to 8- and 16-bit integer formats, not this "
				      "%u-bit %s one (CUDA refuses it too)",
				      r->bits, ints ? "integer" : "float");
	e = weft_specp_find(p, sec, "filter");
	if (d->filter == WEFT_FILTER_LINEAR && ints && d->read != WEFT_READ_NORMALIZED_FLOAT)
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "filter = linear needs float results: a float format, or read = "
				      "normalized (CUDA refuses linear filtering of integers)");
	return 0;
}

int weft_specp_texture(struct weft_specp *p, uint32_t sec, struct weft_spec_texture *t)
{
	const struct weft_specp_section *s = &p->secs[sec];
	int surf = s->kind == SEC_SURFACE;
	const char *sname = surf ? "surface" : "texture";
	struct weft_specp_entry *e;
	char hint[400];
	if (weft_specp_check_keys(p, sec, surf ? surface_keys : texture_keys, surf ? "[surface]" : "[texture]"))
		return p->code;
	t->line = s->line;
	t->surface = surf;
	if (!(t->name = weft_specp_strdup(s->name)))
		return weft_specp_err(p, s->line, WEFT_ERR_NOMEM, "out of memory");
	if (!(e = weft_specp_find(p, sec, "buffer")))
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
				      "[%s %s] needs `buffer = NAME` (the [buffer NAME] it reads)", sname,
				      s->name);
	int32_t bs = weft_specp_section(p, SEC_BUFFER, e->value);
	if (bs < 0)
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "[%s %s]: no [buffer %s] in this spec%s",
				      sname, s->name, e->value,
				      weft_specp_suggest_section(p, SEC_BUFFER, e->value, "[buffer ", hint,
								 sizeof(hint)));
	t->buffer = p->secs[bs].index;
	uint32_t buf_line = e->line;
	if ((e = weft_specp_find(p, sec, "offset")) && weft_specp_u64(e->value, &t->offset))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad offset `%s`: want bytes", e->value);
	struct weft_tex_resource *r = &t->res;
	if (!(e = weft_specp_find(p, sec, "format")))
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
				      "[%s %s] needs `format = F` (%s, e.g. u8x4)", sname, s->name,
				      format_list);
	if (parse_format(e->value, r))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad format `%s`: want %s, e.g. f32 or u8x4",
				      e->value, format_list);
	if (!(e = weft_specp_find(p, sec, "width")))
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT, "[%s %s] needs `width = TEXELS`", sname,
				      s->name);
	if (weft_specp_u64(e->value, &r->width) || !r->width)
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "bad width `%s`: want texels, at least 1",
				      e->value);
	uint32_t wline = e->line;
	if ((e = weft_specp_find(p, sec, "height")) && (weft_specp_u64(e->value, &r->height) || !r->height))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "bad height `%s`: want rows, at least 1 (leave it out for a 1-D %s)",
				      e->value, sname);
	uint32_t hline = e ? e->line : wline;
	if (!r->height && r->width > WEFT_MAX_TEX1D_LINEAR)
		return weft_specp_err(p, wline, WEFT_ERR_INPUT,
				      "width %llu is more than the %u texels CUDA allows a 1-D %s over "
				      "linear memory",
				      (unsigned long long)r->width, WEFT_MAX_TEX1D_LINEAR, sname);
	if (r->height && (r->width > WEFT_MAX_TEX2D_WIDTH || r->height > WEFT_MAX_TEX2D_HEIGHT))
		return weft_specp_err(p, hline, WEFT_ERR_INPUT,
				      "%llu x %llu texels exceed the %u x %u CUDA allows a 2-D %s over "
				      "pitched memory",
				      (unsigned long long)r->width, (unsigned long long)r->height,
				      WEFT_MAX_TEX2D_WIDTH, WEFT_MAX_TEX2D_HEIGHT, sname);
	uint64_t cb = r->bits / 8u, row = r->width * cb * r->channels;
	uint64_t pitch = row;
	if ((e = weft_specp_find(p, sec, "pitch"))) {
		if (weft_specp_u64(e->value, &pitch) || pitch < row || pitch % cb || pitch > ((uint64_t)1 << 40))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad pitch `%s`: want the bytes from one row to the next, at least "
					      "a row (%llu) and a multiple of %llu",
					      e->value, (unsigned long long)row, (unsigned long long)cb);
		r->pitch = pitch;
	}
	const struct weft_spec_buffer *b = &p->spec->buffers[t->buffer];
	uint64_t bytes = b->count * weft_spec_type_size(b->type);
	uint64_t extent = r->height > 1 ? (r->height - 1) * pitch + row : row;
	if (t->offset % cb || t->offset > bytes || extent > bytes - t->offset)
		return weft_specp_err(p, buf_line, WEFT_ERR_INPUT,
				      "[%s %s] needs %llu bytes at offset %llu (a multiple of %llu) of [buffer "
				      "%s], which has %llu",
				      sname, s->name, (unsigned long long)extent, (unsigned long long)t->offset,
				      (unsigned long long)cb, b->name, (unsigned long long)bytes);
	if (!surf && sampling(p, sec, t))
		return p->code;
	return 0;
}
