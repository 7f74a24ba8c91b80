/*
 * host_tex.c - texture and surface objects of the host API (host.h,
 * weft_tex_create / weft_surf_create / weft_tex_destroy): checks a
 * resource and a sampling description as cudaCreateTextureObject does,
 * keeps them in the context's slot table, and hands out handles.
 *
 * A handle is WEFT_EMU_TEX_BASE | generation << 16 | slot (emu.h): a slot
 * is reused after weft_tex_destroy with the next generation, so a
 * destroyed handle stays invalid and a kernel using it faults
 * (weft_emu_texobj returns NULL). The fetch itself is emu_tex.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

#define SLOT_BITS 16u
#define GEN_MASK 0xffffffu /* generation: 24 bits of the handle */

const struct weft_emu_texobj *weft_emu_texobj(const struct weft_ctx *ctx, uint64_t h)
{
	if ((h & ~0xffffffffffull) != WEFT_EMU_TEX_BASE)
		return NULL;
	uint32_t slot = (uint32_t)(h & ((1u << SLOT_BITS) - 1));
	uint32_t gen = (uint32_t)(h >> SLOT_BITS) & GEN_MASK;
	if (slot >= ctx->ntexobjs)
		return NULL;
	const struct weft_emu_texobj *o = &ctx->texobjs[slot];
	return o->live && o->gen == gen ? o : NULL;
}

void weft_emu_texobjs_free(struct weft_ctx *ctx)
{
	free(ctx->texobjs);
	ctx->texobjs = NULL;
	ctx->ntexobjs = ctx->cap_texobjs = 0;
}

/* Checks res (format, sizes, memory) and fills o's geometry. */
static int check_resource(struct weft_ctx *ctx, const char *what, const struct weft_tex_resource *r,
			  struct weft_emu_texobj *o, struct weft_error *err)
{
	if (r->kind > WEFT_CHANNEL_FLOAT)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: channel kind %u is none of signed (0), unsigned (1) and float (2)",
				      what, r->kind);
	if ((r->bits != 8 && r->bits != 16 && r->bits != 32) ||
	    (r->kind == WEFT_CHANNEL_FLOAT && r->bits == 8))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %u-bit %s channels are not a CUDA texel format (integers: 8, 16 "
				      "or 32 bits; floats: 16 or 32)",
				      what, r->bits, r->kind == WEFT_CHANNEL_FLOAT ? "float" : "integer");
	if (r->channels != 1 && r->channels != 2 && r->channels != 4)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %u channels; CUDA texels have 1, 2 or 4", what, r->channels);
	if (!r->width)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: width 0; give at least one texel", what);
	if (r->array > 1)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: array flag %u is neither 0 nor 1", what,
				      r->array);
	uint64_t max1 = r->array ? WEFT_MAX_TEX1D_ARRAY : WEFT_MAX_TEX1D_LINEAR;
	uint64_t maxw = r->array ? WEFT_MAX_TEX2D_ARRAY_WIDTH : WEFT_MAX_TEX2D_WIDTH;
	uint64_t maxh = r->array ? WEFT_MAX_TEX2D_ARRAY_HEIGHT : WEFT_MAX_TEX2D_HEIGHT;
	const char *mem = r->array ? "a CUDA array" : "linear memory";
	if (!r->height && r->width > max1)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %" PRIu64 " texels are more than the %" PRIu64
				      " CUDA allows a 1-D texture over %s",
				      what, r->width, max1, mem);
	if (r->height && (r->width > maxw || r->height > maxh))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: %" PRIu64 " x %" PRIu64 " texels exceed the %" PRIu64 " x %" PRIu64
				      " CUDA allows a 2-D texture over %s",
				      what, r->width, r->height, maxw, maxh,
				      r->array ? "a CUDA array" : "pitched memory");
	uint32_t cb = r->bits / 8u, tb = cb * r->channels;
	uint64_t row = r->width * tb; /* at most 2^28 x 16 */
	uint64_t pitch = r->pitch ? r->pitch : row;
	if (r->array && pitch != row)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: a CUDA array's rows are packed, but pitch %" PRIu64
				      " is not a row of %" PRIu64 " bytes",
				      what, pitch, row);
	if (pitch < row)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: pitch %" PRIu64 " bytes is less than a row of %" PRIu64
				      " texels of %u bytes (%" PRIu64 ")",
				      what, pitch, r->width, tb, row);
	if (r->dptr % cb || pitch % cb)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: address 0x%" PRIx64 " and pitch %" PRIu64
				      " must be multiples of the %u-byte channel",
				      what, r->dptr, pitch, cb);
	uint64_t extent = row;
	if (r->height > 1) {
		if (pitch > (UINT64_MAX - row) / (r->height - 1))
			return weft_error_set(err, WEFT_ERR_INPUT, "%s: pitch %" PRIu64 " is too large",
					      what, pitch);
		extent = (r->height - 1) * pitch + row;
	}
	if (weft_emu_alloc_find(ctx, r->dptr, extent) < 0) {
		char near[400];
		weft_emu_alloc_nearest(ctx, r->dptr, near, sizeof(near));
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: its %" PRIu64 " bytes at 0x%" PRIx64
				      " are not inside one allocation; %s",
				      what, extent, r->dptr, near);
	}
	o->res = *r;
	o->pitch = pitch;
	o->extent = extent;
	o->texel_bytes = tb;
	return 0;
}

static int add_object(struct weft_ctx *ctx, const char *what, struct weft_emu_texobj *o,
		      uint64_t *handle, struct weft_error *err)
{
	uint32_t slot = 0;
	while (slot < ctx->ntexobjs && ctx->texobjs[slot].live)
		slot++;
	if (slot == ctx->ntexobjs) {
		if (slot >= WEFT_MAX_TEX_OBJECTS)
			return weft_error_set(err, WEFT_ERR_LIMIT,
					      "%s: the context already holds %u texture and surface objects, "
					      "weft's limit (WEFT_MAX_TEX_OBJECTS); destroy some first",
					      what, WEFT_MAX_TEX_OBJECTS);
		if (ctx->ntexobjs == ctx->cap_texobjs) {
			uint32_t nc = ctx->cap_texobjs ? ctx->cap_texobjs * 2 : 16;
			struct weft_emu_texobj *t = realloc(ctx->texobjs, nc * sizeof(*t));
			if (!t)
				return weft_error_set(err, WEFT_ERR_NOMEM, "%s: out of memory", what);
			ctx->texobjs = t;
			ctx->cap_texobjs = nc;
		}
		ctx->texobjs[ctx->ntexobjs++].gen = 0;
	}
	struct weft_emu_texobj *t = &ctx->texobjs[slot];
	o->gen = (t->gen + 1) & GEN_MASK;
	if (!o->gen)
		o->gen = 1;
	o->live = 1;
	*t = *o;
	*handle = WEFT_EMU_TEX_BASE | (uint64_t)o->gen << SLOT_BITS | slot;
	return 0;
}

int weft_tex_create(struct weft_ctx *ctx, const struct weft_tex_resource *res,
		    const struct weft_tex_desc *desc, uint64_t *handle, struct weft_error *err)
{
	static const char what[] = "weft_tex_create";
	struct weft_emu_texobj o;
	memset(&o, 0, sizeof(o));
	if (!res || !handle)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: no resource or no handle to fill", what);
	int rc = check_resource(ctx, what, res, &o, err);
	if (rc)
		return rc;
	if (desc)
		o.desc = *desc;
	const struct weft_tex_desc *d = &o.desc;
	for (int i = 0; i < 2; i++)
		if (d->address[i] > WEFT_ADDRESS_BORDER)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "%s: address mode %u (%s) is none of wrap (0), clamp (1), "
					      "mirror (2) and border (3)",
					      what, d->address[i], i ? "y" : "x");
	if (d->filter > WEFT_FILTER_LINEAR || d->read > WEFT_READ_NORMALIZED_FLOAT || d->normalized > 1)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: filter %u, read mode %u or normalized %u out of range (0 or 1 each)",
				      what, d->filter, d->read, d->normalized);
	int int_kind = res->kind != WEFT_CHANNEL_FLOAT;
	if (d->read == WEFT_READ_NORMALIZED_FLOAT && (!int_kind || res->bits == 32))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: normalized-float reads apply to 8- and 16-bit integer texels, not "
				      "%u-bit %s ones (CUDA: cudaErrorInvalidNormSetting)",
				      what, res->bits, int_kind ? "integer" : "float");
	if (d->filter == WEFT_FILTER_LINEAR && int_kind && d->read != WEFT_READ_NORMALIZED_FLOAT)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: linear filtering needs float results: a float format, or integer "
				      "texels read as normalized floats (CUDA: cudaErrorInvalidFilterSetting)",
				      what);
	return add_object(ctx, what, &o, handle, err);
}

int weft_surf_create(struct weft_ctx *ctx, const struct weft_tex_resource *res, uint64_t *handle,
		     struct weft_error *err)
{
	static const char what[] = "weft_surf_create";
	struct weft_emu_texobj o;
	memset(&o, 0, sizeof(o));
	if (!res || !handle)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: no resource or no handle to fill", what);
	int rc = check_resource(ctx, what, res, &o, err);
	if (rc)
		return rc;
	o.surface = 1;
	return add_object(ctx, what, &o, handle, err);
}

int weft_tex_destroy(struct weft_ctx *ctx, uint64_t handle, struct weft_error *err)
{
	if (!handle)
		return 0;
	const struct weft_emu_texobj *o = weft_emu_texobj(ctx, handle);
	if (!o)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "weft_tex_destroy: 0x%" PRIx64 " is not a live texture or surface object "
				      "of this context (destroyed already?)",
				      handle);
	ctx->texobjs[o - ctx->texobjs].live = 0;
	return 0;
}
