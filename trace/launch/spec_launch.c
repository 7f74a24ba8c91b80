/*
 * spec_launch.c - what a launch spec runs (docs/launch-spec.md): the
 * [kernel] section (the PTX file, and in a single-launch spec the kernel,
 * grid, block, dynamic shared memory and instruction budget), the
 * [launch NAME] sections of a sequence (the same per launch, plus a repeat
 * count), and the [args] / [args NAME] sections, one value per kernel
 * parameter (spec_value.c). Grids, blocks and shared memory are checked
 * against CUDA's limits (host.h) at their lines.
 */
#include "spec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kernel_keys[] = { "ptx", "name", "grid", "block", "shared", "max_insts", NULL };
static const char *const kernel_keys_seq[] = { "ptx", NULL };
static const char *const launch_keys[] = { "kernel", "grid", "block", "shared", "max_insts", "repeat",
					   NULL };

/* grid, block, shared, max_insts of section sec into l. */
static int geometry(struct weft_specp *p, uint32_t sec, const char *what, struct weft_spec_launch *l)
{
	struct weft_specp_entry *e;
	uint32_t line = p->secs[sec].line;
	if (!(e = weft_specp_find(p, sec, "grid")))
		return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s needs `grid = X[,Y[,Z]]` (CTAs)", what);
	if (weft_specp_dim3(e->value, &l->grid))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "bad grid `%s`: want X, X,Y or X,Y,Z with each at least 1", e->value);
	uint32_t grid_line = e->line;
	if (!(e = weft_specp_find(p, sec, "block")))
		return weft_specp_err(p, line, WEFT_ERR_INPUT, "%s needs `block = X[,Y[,Z]]` (threads per CTA)",
				      what);
	if (weft_specp_dim3(e->value, &l->block))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "bad block `%s`: want X, X,Y or X,Y,Z with each at least 1", e->value);
	/* CUDA's limits (host.h), at the line that breaks them: the block's
	 * first, then the grid's with a valid block */
	char why[300];
	if (weft_launch_check_dims(weft_dim3(1, 1, 1), l->block, why, sizeof(why)))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "%s", why);
	if (weft_launch_check_dims(l->grid, l->block, why, sizeof(why)))
		return weft_specp_err(p, grid_line, WEFT_ERR_INPUT, "%s", why);
	l->shared = 0;
	if ((e = weft_specp_find(p, sec, "shared"))) {
		uint64_t v;
		if (weft_specp_u64(e->value, &v))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad shared `%s`: want dynamic shared memory bytes", e->value);
		if (v > WEFT_MAX_SHARED_BYTES)
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "shared = %llu bytes is more than the %u bytes (227 KB) of shared "
					      "memory CUDA allows a block (compute capability 9.0, opt-in); ask "
					      "for less",
					      (unsigned long long)v, WEFT_MAX_SHARED_BYTES);
		l->shared = (uint32_t)v;
	}
	l->max_insts = 0;
	if ((e = weft_specp_find(p, sec, "max_insts"))) {
		if (weft_specp_count(e->value, &l->max_insts))
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
					      "bad max_insts `%s`: want the launch's instruction budget, a "
					      "positive number of thread instructions (e.g. 1e9)",
					      e->value);
		l->max_insts_line = e->line;
	}
	return 0;
}

int weft_specp_kernel(struct weft_specp *p, uint32_t sec, int sequence)
{
	const struct weft_specp_section *s = &p->secs[sec];
	struct weft_spec *spec = p->spec;
	struct weft_specp_entry *e;
	if (sequence) {
		/* the launch keys belong in [launch NAME] */
		for (const char *const *k = kernel_keys + 1; *k; k++)
			if ((e = weft_specp_find(p, sec, *k)))
				return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
						      "`%s` belongs in the [launch NAME] sections when the "
						      "spec has them; [kernel] then names only the ptx",
						      *k);
	}
	if (weft_specp_check_keys(p, sec, sequence ? kernel_keys_seq : kernel_keys, "[kernel]"))
		return p->code;
	if (!(e = weft_specp_find(p, sec, "ptx")) || !*e->value)
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
				      "[kernel] needs `ptx = FILE.ptx` (relative to the spec file)");
	if (!(spec->ptx = weft_specp_join(spec->dir, e->value)))
		return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
	if (sequence)
		return 0;
	struct weft_spec_launch *l = &spec->launches[0];
	l->line = s->line;
	l->repeat = 1;
	if (!(e = weft_specp_find(p, sec, "name")) || !*e->value)
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
				      "[kernel] needs `name = KERNEL` (the .entry name in the PTX)");
	if (!(l->kernel = weft_specp_strdup(e->value)))
		return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
	l->kernel_line = e->line;
	return geometry(p, sec, "[kernel]", l);
}

int weft_specp_launch(struct weft_specp *p, uint32_t sec, struct weft_spec_launch *l)
{
	const struct weft_specp_section *s = &p->secs[sec];
	struct weft_specp_entry *e;
	char what[300];
	snprintf(what, sizeof(what), "[launch %s]", s->name);
	if (weft_specp_check_keys(p, sec, launch_keys, "[launch]"))
		return p->code;
	l->line = s->line;
	if (!(l->name = weft_specp_strdup(s->name)))
		return weft_specp_err(p, s->line, WEFT_ERR_NOMEM, "out of memory");
	if (!(e = weft_specp_find(p, sec, "kernel")) || !*e->value)
		return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
				      "%s needs `kernel = KERNEL` (the .entry name in the PTX)", what);
	if (!(l->kernel = weft_specp_strdup(e->value)))
		return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
	l->kernel_line = e->line;
	l->repeat = 1;
	if ((e = weft_specp_find(p, sec, "repeat")) &&
	    (weft_specp_count(e->value, &l->repeat) || l->repeat > WEFT_SPEC_MAX_LAUNCHES))
		return weft_specp_err(p, e->line, WEFT_ERR_INPUT,
				      "bad repeat `%s`: want how many times to run this launch in a row, 1 "
				      "to %u",
				      e->value, WEFT_SPEC_MAX_LAUNCHES);
	if (geometry(p, sec, what, l))
		return p->code;
	p->spec->total_launches += l->repeat;
	if (p->spec->total_launches > WEFT_SPEC_MAX_LAUNCHES)
		return weft_specp_err(p, e ? e->line : s->line, WEFT_ERR_INPUT,
				      "the spec runs more than %u launches (repeats counted), weft's limit "
				      "for one spec; run fewer",
				      WEFT_SPEC_MAX_LAUNCHES);
	return 0;
}

int weft_specp_args(struct weft_specp *p, uint32_t sec, struct weft_spec_launch *l)
{
	uint32_t n = 0;
	l->args_line = p->secs[sec].line;
	for (uint32_t i = 0; i < p->nents; i++)
		n += p->ents[i].section == sec;
	l->args = calloc(n ? n : 1, sizeof(*l->args));
	if (!l->args)
		return weft_specp_err(p, l->args_line, WEFT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < p->nents; i++) {
		struct weft_specp_entry *e = &p->ents[i];
		if (e->section != sec)
			continue;
		e->used = 1;
		struct weft_spec_arg *a = &l->args[l->nargs++];
		a->line = e->line;
		a->buffer = -1;
		if (!(a->label = weft_specp_strdup(e->key)))
			return weft_specp_err(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		if (weft_specp_arg_value(p, a, e->value))
			return p->code;
	}
	return 0;
}
