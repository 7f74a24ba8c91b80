/*
 * spec_check.c - a parsed launch spec against its PTX module
 * (weft_spec_check_args): every launch's kernel exists, its arguments match
 * the kernel's parameters in number, size and kind (floats for .f
 * parameters, integers for .u/.s, references and handles for 64-bit
 * integer ones, bytes and structs of exactly the parameter's size), every
 * [symbol] names a .global or .const variable its data fits, and every
 * symbol: reference names one.
 */
#include "spec_int.h"

#include <stdio.h>
#include <string.h>

static const char *param_name(const struct weft_ptx_module *m, const struct weft_ptx_param *pp)
{
	if (pp->sym >= 0 && (uint32_t)pp->sym < m->nsyms && m->syms[pp->sym].name)
		return m->syms[pp->sym].name;
	return "?";
}

/* The module variable a spec names, or an error at line. */
static int find_var(const struct weft_spec *spec, const struct weft_ptx_module *m, const char *name,
		    uint32_t line, const struct weft_ptx_symbol **out, struct weft_error *err)
{
	int i = weft_ptx_find_symbol(m, name);
	if (i < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, line, 0,
				     "symbol `%s` is not a module variable of %s (__device__ or __constant__ "
				     "variables; extern \"C\" keeps their names plain)",
				     name, spec->ptx);
	const struct weft_ptx_symbol *s = &m->syms[i];
	if (s->space != WEFT_SPACE_GLOBAL && s->space != WEFT_SPACE_CONST)
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, line, 0,
				     "symbol `%s` is a .%s variable; only .global (__device__) and .const "
				     "(__constant__) variables can be filled",
				     name, weft_ptx_space_name(s->space));
	*out = s;
	return 0;
}

static int check_refs(const struct weft_spec *spec, const struct weft_ptx_module *m,
		      const struct weft_spec_value *v, struct weft_error *err)
{
	for (uint32_t i = 0; i < v->nrefs; i++) {
		const struct weft_spec_ref *r = &v->refs[i];
		const struct weft_ptx_symbol *s;
		if (r->kind != WEFT_SPEC_REF_SYMBOL)
			continue;
		int rc = find_var(spec, m, r->name, r->line, &s, err);
		if (rc)
			return rc;
		if ((uint64_t)r->addend > s->size)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, r->line, 0,
					     "symbol:%s+%lld points past the variable's %llu bytes", r->name,
					     (long long)r->addend, (unsigned long long)s->size);
	}
	return 0;
}

static int check_symbol(const struct weft_spec *spec, const struct weft_ptx_module *m,
			const struct weft_spec_buffer *b, struct weft_error *err)
{
	const struct weft_ptx_symbol *s;
	int rc = find_var(spec, m, b->name, b->line, &s, err);
	if (rc)
		return rc;
	unsigned esz = weft_spec_type_size(b->type);
	uint64_t room = b->offset <= s->size ? s->size - b->offset : 0;
	if (!b->count && (!room || room % esz))
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->line, 0,
				     "[symbol %s]: the variable has %llu bytes, %llu after offset %llu: not a "
				     "whole number of %s elements; set count",
				     b->name, (unsigned long long)s->size, (unsigned long long)room,
				     (unsigned long long)b->offset, weft_spec_type_name(b->type));
	uint64_t count = b->count ? b->count : room / esz;
	if (count > room / esz)
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->count_line ? b->count_line : b->line, 0,
				     "[symbol %s]: %llu %s elements at offset %llu need %llu bytes; the "
				     "variable has %llu",
				     b->name, (unsigned long long)count, weft_spec_type_name(b->type),
				     (unsigned long long)b->offset,
				     (unsigned long long)(b->offset + count * esz), (unsigned long long)s->size);
	if (b->expect && !b->count) {
		uint64_t size;
		const char *why;
		if (weft_specp_file_size(b->expect, &size, &why) || size != count * esz)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, b->expect_line, 0,
					     "expect file %s is not the %llu bytes of [symbol %s] (%llu %s "
					     "elements)",
					     b->expect, (unsigned long long)(count * esz), b->name,
					     (unsigned long long)count, weft_spec_type_name(b->type));
	}
	return check_refs(spec, m, &b->values, err);
}

/* One argument against its parameter. */
static int check_arg(const struct weft_spec *spec, const struct weft_ptx_module *m, const char *where,
		     uint32_t i, const struct weft_spec_arg *a, const struct weft_ptx_param *pp,
		     struct weft_error *err)
{
	const char *pname = param_name(m, pp), *ptype = weft_ptx_type_name(pp->type);
	int pfloat = weft_ptx_type_is_float(pp->type);
	int aggregate = pp->size > 8 || (pp->type == WEFT_T_B8 && pp->size > 1);
	const struct weft_spec_value *v = &a->value;
	if (a->kind == WEFT_SPEC_ARG_BYTES || a->kind == WEFT_SPEC_ARG_STRUCT) {
		if (v->size != pp->size)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
					     "%sargument %u `%s` is %u bytes (%s) but parameter `%s` is %u "
					     "bytes (.%s%s); %s",
					     where, i + 1, a->label, v->size,
					     a->kind == WEFT_SPEC_ARG_STRUCT ? "its fields laid out as C does"
									     : "as written",
					     pname, pp->size, ptype, aggregate ? " array" : "",
					     a->kind == WEFT_SPEC_ARG_STRUCT ? "add pad:N fields or check their types"
									     : "give exactly that many bytes");
		return 0;
	}
	if (aggregate)
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
				     "%sargument %u `%s`: parameter `%s` is a %u-byte aggregate (.b8 array); "
				     "pass it as struct:{FIELD, ...} or bytes:HEX",
				     where, i + 1, a->label, pname, pp->size);
	if (a->kind != WEFT_SPEC_ARG_SCALAR) {
		const char *what = a->kind == WEFT_SPEC_ARG_TEXTURE ? "a 64-bit object handle" : "a 64-bit device pointer";
		char shown[300];
		if (a->kind == WEFT_SPEC_ARG_BUFFER && a->buffer >= 0)
			snprintf(shown, sizeof(shown), "buffer:%s", spec->buffers[a->buffer].name);
		else if (a->kind == WEFT_SPEC_ARG_BUFFER)
			snprintf(shown, sizeof(shown), "buffer:%s%+lld", spec->buffers[v->refs[0].index].name,
				 (long long)v->refs[0].addend);
		else if (a->kind == WEFT_SPEC_ARG_SYMBOL)
			snprintf(shown, sizeof(shown), "symbol:%s", v->refs[0].name);
		else
			snprintf(shown, sizeof(shown), "%s:%s",
				 v->refs[0].kind == WEFT_SPEC_REF_SURFACE ? "surface" : "texture",
				 spec->textures[v->refs[0].index].name);
		if (pp->size != 8 || pfloat)
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
					     "%sargument %u `%s` is %s (%s) but parameter `%s` is .%s (%u bytes); "
					     "pass a scalar such as %s%s:VALUE",
					     where, i + 1, a->label, shown, what, pname, ptype, pp->size,
					     pfloat ? "f" : "u",
					     pp->size == 8	   ? "64"
					     : pp->size == 4 ? "32"
					     : pp->size == 2 ? "16"
							     : "8");
		return 0;
	}
	unsigned asz = weft_spec_type_size(a->type);
	int afloat = weft_spec_type_is_float(a->type);
	/* .bN parameters take any type of their width; .fN need a float,
	 * .uN/.sN an integer (sign is not checked: nvcc declares int
	 * parameters .u32). */
	int bits_type = pp->type >= WEFT_T_B8 && pp->type <= WEFT_T_B64;
	if (asz != pp->size || (!bits_type && afloat != pfloat)) {
		char hint[32];
		if (pp->size == 8 && !pfloat)
			snprintf(hint, sizeof(hint), "buffer:NAME or u64:VALUE");
		else
			snprintf(hint, sizeof(hint), "%s%u:VALUE", pfloat ? "f" : "u", pp->size * 8);
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
				     "%sargument %u `%s` is %s (%u bytes) but parameter `%s` is .%s (%u "
				     "bytes); write %s",
				     where, i + 1, a->label, weft_spec_type_name(a->type), asz, pname, ptype,
				     pp->size, hint);
	}
	return 0;
}

static int check_launch(const struct weft_spec *spec, const struct weft_ptx_module *m,
			const struct weft_spec_launch *l, struct weft_error *err)
{
	char where[300] = "";
	if (l->name)
		snprintf(where, sizeof(where), "[launch %s]: ", l->name);
	int fi = weft_ptx_find_func(m, l->kernel);
	if (fi < 0 || !m->funcs[fi].is_entry) {
		char list[512] = "";
		for (uint32_t i = 0; i < m->nfuncs; i++)
			if (m->funcs[i].is_entry) {
				if (list[0])
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
				strncat(list, m->funcs[i].name, sizeof(list) - strlen(list) - 1);
			}
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, l->kernel_line, 0,
				     "%skernel `%s` is not %s in %s (kernels there: %s)", where, l->kernel,
				     fi < 0 ? "defined" : "an .entry", spec->ptx, list[0] ? list : "none");
	}
	const struct weft_ptx_func *f = &m->funcs[fi];
	if (l->nargs != f->nparams) {
		if (l->nargs < f->nparams) {
			const struct weft_ptx_param *pp = &f->params[l->nargs];
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path,
					     l->nargs ? l->args[l->nargs - 1].line : l->args_line, 0,
					     "%skernel `%s` takes %u parameters but [args%s%s] gives %u; next "
					     "missing: parameter %u `%s` (.%s, %u bytes)",
					     where, l->kernel, f->nparams, l->name ? " " : "", l->name ? l->name : "",
					     l->nargs, l->nargs + 1, param_name(m, pp), weft_ptx_type_name(pp->type),
					     pp->size);
		}
		const struct weft_spec_arg *a = &l->args[f->nparams];
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
				     "%skernel `%s` takes %u parameters but [args%s%s] gives %u; argument %u "
				     "`%s` has no parameter",
				     where, l->kernel, f->nparams, l->name ? " " : "", l->name ? l->name : "",
				     l->nargs, f->nparams + 1, a->label);
	}
	for (uint32_t i = 0; i < l->nargs; i++) {
		int rc = check_arg(spec, m, where, i, &l->args[i], &f->params[i], err);
		if (!rc)
			rc = check_refs(spec, m, &l->args[i].value, err);
		if (rc)
			return rc;
	}
	return 0;
}

int weft_spec_check_args(const struct weft_spec *spec, const struct weft_ptx_module *m,
			 struct weft_error *err)
{
	int rc;
	for (uint32_t l = 0; l < spec->nlaunches; l++)
		if ((rc = check_launch(spec, m, &spec->launches[l], err)))
			return rc;
	for (uint32_t i = 0; i < spec->nsymbols; i++)
		if ((rc = check_symbol(spec, m, &spec->symbols[i], err)))
			return rc;
	for (uint32_t i = 0; i < spec->nbuffers; i++)
		if ((rc = check_refs(spec, m, &spec->buffers[i].values, err)))
			return rc;
	return 0;
}
