/*
 * rt_texture.c - texture and surface objects: cudaCreateTextureObject over
 * a linear buffer (cudaResourceTypeLinear, what tex1Dfetch reads), a
 * pitched 2-D one (cudaResourceTypePitch2D) or a 1-D or 2-D CUDA array
 * (cudaResourceTypeArray, rt_array.c: tex1D, tex2D, tex2Dgather), and
 * cudaCreateSurfaceObject over a 1-D or 2-D CUDA array made with
 * cudaArraySurfaceLoadStore (surf1Dread, surf2Dwrite, ...). Both are the
 * emulator's objects (trace/emu/host.h weft_tex_create, weft_surf_create;
 * docs/emulator.md "Textures and surfaces" gives the addressing and
 * filtering rules). 3-D and layered arrays, mipmaps, sRGB, anisotropy and
 * resource views stay "not supported yet" with the API's name
 * (docs/cuda-programs.md).
 */
#include <stdint.h>

#include "rt.h"

/* A 1-D or 2-D CUDA array as the emulator's resource: its packed rows. */
static int array_resource(const void *array, struct weft_tex_resource *r)
{
	const struct rt_array *a = rt_array_of(array);
	if (!a)
		return rt_fail(WCU_INVALID_RESOURCE_HANDLE, "%p is not a CUDA array (freed already?)", array);
	if (a->depth)
		return rt_unsupported("textures and surfaces over 3-D CUDA arrays (weft's emulator fetches "
				      "1-D and 2-D textures only)");
	int e = rt_texel_format(&a->desc, r);
	if (e)
		return e;
	r->dptr = a->dptr;
	r->width = a->width;
	r->height = a->height;
	r->pitch = 0;
	r->array = 1;
	return 0;
}

WCU_API int cudaCreateTextureObject(unsigned long long *obj, const struct wcu_resource_desc *res,
				    const struct wcu_texture_desc *td, const void *view)
{
	int e = rt_enter("cudaCreateTextureObject");
	if (!e && (!obj || !res || !td))
		e = rt_fail(WCU_INVALID_VALUE, "a NULL %s", !obj ? "result pointer"
						     : !res ? "resource descriptor" : "texture descriptor");
	if (!e)
		e = rt_ready();
	if (!e && res->res_type == WCU_RESOURCE_MIPMAPPED_ARRAY)
		e = rt_unsupported("mipmapped CUDA arrays");
	else if (!e && res->res_type != WCU_RESOURCE_LINEAR && res->res_type != WCU_RESOURCE_PITCH2D &&
		 res->res_type != WCU_RESOURCE_ARRAY)
		e = rt_fail(WCU_INVALID_VALUE, "resource type %d is not one of cudaResourceType's 0..3",
			    res->res_type);
	if (!e && res->flags)
		e = rt_fail(WCU_INVALID_VALUE, "resource descriptor flags %#x (must be 0)", res->flags);
	if (!e && view)
		e = rt_unsupported("texture resource views");
	if (!e && (td->srgb || td->max_anisotropy > 1 || td->mipmap_filter_mode ||
		   td->mipmap_level_bias != 0 || td->min_mipmap_level_clamp != 0 ||
		   td->max_mipmap_level_clamp != 0))
		e = rt_unsupported("sRGB, anisotropic filtering and mipmaps in a texture descriptor");
	struct weft_tex_resource r = { 0 };
	if (!e && res->res_type == WCU_RESOURCE_LINEAR) {
		e = rt_texel_format(&res->res.linear.desc, &r);
		r.dptr = (uint64_t)(uintptr_t)res->res.linear.dev_ptr;
		uint64_t texel = (uint64_t)r.bits / 8 * r.channels;
		if (!e && (texel == 0 || res->res.linear.size_in_bytes % texel))
			e = rt_fail(WCU_INVALID_VALUE, "%zu bytes are not whole texels of %llu bytes",
				    res->res.linear.size_in_bytes, (unsigned long long)texel);
		if (!e)
			r.width = res->res.linear.size_in_bytes / texel;
	} else if (!e && res->res_type == WCU_RESOURCE_ARRAY) {
		e = array_resource(res->res.array, &r);
	} else if (!e) {
		e = rt_texel_format(&res->res.pitch2d.desc, &r);
		r.dptr = (uint64_t)(uintptr_t)res->res.pitch2d.dev_ptr;
		r.width = res->res.pitch2d.width;
		r.height = res->res.pitch2d.height;
		r.pitch = res->res.pitch2d.pitch_in_bytes;
		if (!e && r.height == 0)
			e = rt_fail(WCU_INVALID_VALUE, "a 2-D pitched texture of height 0");
	}
	if (!e) {
		/* the emulator's enums take CUDA's numeric values (host.h) */
		struct weft_tex_desc d = { 0 };
		for (int i = 0; i < 2; i++) {
			if (td->address_mode[i] < 0 || td->address_mode[i] > 255)
				e = rt_fail(WCU_INVALID_VALUE, "address mode %d", td->address_mode[i]);
			d.address[i] = (uint8_t)td->address_mode[i];
		}
		d.filter = (uint8_t)(td->filter_mode >= 0 && td->filter_mode < 256 ? td->filter_mode : 255);
		d.read = (uint8_t)(td->read_mode >= 0 && td->read_mode < 256 ? td->read_mode : 255);
		d.normalized = td->normalized_coords != 0;
		for (int i = 0; i < 4; i++)
			d.border[i] = td->border_color[i];
		struct weft_error err;
		uint64_t h = 0;
		if (!e && weft_tex_create(rt.ctx, &r, &d, &h, &err))
			e = rt_fail(WCU_INVALID_VALUE, "%s", err.message);
		if (!e)
			*obj = h;
	}
	return rt_leave(e);
}

WCU_API int cudaDestroyTextureObject(unsigned long long obj)
{
	int e = rt_enter("cudaDestroyTextureObject");
	if (!e)
		e = rt_ready();
	if (!e) {
		struct weft_error err;
		if (weft_tex_destroy(rt.ctx, obj, &err))
			e = rt_fail(WCU_INVALID_VALUE, "%s", err.message);
	}
	return rt_leave(e);
}

WCU_API int cudaCreateSurfaceObject(unsigned long long *obj, const struct wcu_resource_desc *res)
{
	int e = rt_enter("cudaCreateSurfaceObject");
	if (!e && (!obj || !res))
		e = rt_fail(WCU_INVALID_VALUE, "a NULL %s", !obj ? "result pointer" : "resource descriptor");
	if (!e)
		e = rt_ready();
	if (!e && res->res_type != WCU_RESOURCE_ARRAY)
		e = rt_fail(WCU_INVALID_VALUE, "resource type %d: surface objects are made over CUDA arrays "
			    "(cudaResourceTypeArray, 0) only", res->res_type);
	const struct rt_array *a = e ? NULL : rt_array_of(res->res.array);
	if (!e && a && !(a->flags & WCU_ARRAY_SURFACE_LOAD_STORE))
		e = rt_fail(WCU_INVALID_VALUE, "CUDA array %p was made without cudaArraySurfaceLoadStore, "
			    "which surfaces need", res->res.array);
	struct weft_tex_resource r = { 0 };
	if (!e)
		e = array_resource(res->res.array, &r);
	if (!e) {
		struct weft_error err;
		uint64_t h = 0;
		if (weft_surf_create(rt.ctx, &r, &h, &err))
			e = rt_fail(WCU_INVALID_VALUE, "%s", err.message);
		else
			*obj = h;
	}
	return rt_leave(e);
}

WCU_API int cudaDestroySurfaceObject(unsigned long long obj)
{
	int e = rt_enter("cudaDestroySurfaceObject");
	if (!e)
		e = rt_ready();
	if (!e) {
		struct weft_error err;
		if (weft_tex_destroy(rt.ctx, obj, &err))
			e = rt_fail(WCU_INVALID_VALUE, "%s", err.message);
	}
	return rt_leave(e);
}
