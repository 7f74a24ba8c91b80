/*
 * spec.c - launch specs as a whole (see spec.h and docs/launch-spec.md):
 * the INI text into raw records, the sections into a struct weft_spec in
 * an order where every reference has its target (buffers, symbols,
 * textures, then launches and their arguments), and the whole-spec rules
 * (one [kernel], [args] that match the launches, no unused buffer).
 * Running is spec_run.c.
 *
 * common/ini.h does the INI syntax (libinih) and its rules (long lines, NUL
 * bytes, no continuation lines) and gives every key its line. Section
 * headers are seen here from the raw lines too: that way empty and unknown
 * sections are caught. The key callback only records (section, key, value,
 * line); interpretation happens afterwards, when each section is complete,
 * so that key order inside a section does not matter and every error can
 * name the line it is about.
 */
#include "spec_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/ini.h"
#include "common/suggest.h"

static const struct {
	const char *word;
	enum weft_specp_sec kind;
	int named; /* 1 required, 0 none, 2 optional */
} sec_words[] = {
	{ "kernel", SEC_KERNEL, 0 },	 { "buffer", SEC_BUFFER, 1 },   { "symbol", SEC_SYMBOL, 1 },
	{ "texture", SEC_TEXTURE, 1 }, { "surface", SEC_SURFACE, 1 }, { "launch", SEC_LAUNCH, 1 },
	{ "args", SEC_ARGS, 2 },
};
#define NSEC_WORDS (sizeof(sec_words) / sizeof(sec_words[0]))

static const char sections_list[] = "sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], "
				    "[surface NAME], [launch NAME] and [args] (or [args NAME])";

/* The same name space: textures and surfaces share one. */
static int same_space(enum weft_specp_sec a, enum weft_specp_sec b)
{
	int ta = a == SEC_TEXTURE || a == SEC_SURFACE, tb = b == SEC_TEXTURE || b == SEC_SURFACE;
	return a == b || (ta && tb);
}

static void unknown_section(struct weft_specp *p, const char *inner, const char *name)
{
	struct weft_suggest sg;
	char close[300], hint[400];
	weft_suggest_init(&sg, inner);
	for (size_t k = 0; k < NSEC_WORDS; k++)
		weft_suggest_consider(&sg, sec_words[k].word);
	snprintf(close, sizeof(close), "%s%s]", name ? " " : "", name ? name : "");
	weft_specp_err(p, p->lineno, WEFT_ERR_INPUT, "unknown section [%s%s%s]; %s%s", inner,
		       name ? " " : "", name ? name : "", sections_list,
		       weft_suggest_phrase(&sg, "[", close, hint, sizeof(hint)));
}

/* Sees a section header line before inih does: records it, so sections with
 * no keys are checked too. */
static void see_header(struct weft_specp *p, const char *raw)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", raw);
	char *s = weft_specp_trim(buf);
	if (s[0] != '[')
		return;
	char *close = strchr(s, ']');
	if (!close)
		return; /* inih reports the syntax error */
	*close = 0;
	char *inner = weft_specp_trim(s + 1);
	char *sp = inner + strcspn(inner, " \t");
	char *name = NULL;
	if (*sp) {
		*sp = 0;
		name = weft_specp_trim(sp + 1);
		if (!*name)
			name = NULL;
	}
	size_t k = 0;
	while (k < NSEC_WORDS && strcmp(inner, sec_words[k].word))
		k++;
	if (k == NSEC_WORDS) {
		unknown_section(p, inner, name);
		return;
	}
	struct weft_specp_section sec = { sec_words[k].kind, NULL, p->lineno, -1 };
	if (!sec_words[k].named && name) {
		weft_specp_err(p, p->lineno, WEFT_ERR_INPUT, "[%s] takes no name (found `%s`)", inner, name);
		return;
	}
	if (sec_words[k].named == 1 && !name) {
		weft_specp_err(p, p->lineno, WEFT_ERR_INPUT, "[%s] needs a name, e.g. [%s x]", inner, inner);
		return;
	}
	if (name && strcspn(name, " \t:,{}") != strlen(name)) {
		weft_specp_err(p, p->lineno, WEFT_ERR_INPUT,
			       "%s name `%s` must be one word without ':', ',', '{' or '}'", inner, name);
		return;
	}
	for (uint32_t i = 0; i < p->nsecs; i++) {
		const struct weft_specp_section *o = &p->secs[i];
		if (!same_space(o->kind, sec.kind) || (o->name == NULL) != (name == NULL) ||
		    (name && strcmp(o->name, name)))
			continue;
		weft_specp_err(p, p->lineno, WEFT_ERR_INPUT, "section [%s%s%s] repeats line %u", inner,
			       name ? " " : "", name ? name : "", o->line);
		return;
	}
	struct weft_specp_section *ns = realloc(p->secs, (p->nsecs + 1) * sizeof(*ns));
	if (!ns) {
		weft_specp_err(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
		return;
	}
	p->secs = ns;
	if (name && !(sec.name = weft_specp_strdup(name))) {
		weft_specp_err(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
		return;
	}
	p->secs[p->nsecs++] = sec;
}

/* Each raw line (common/ini.h), before inih parses it. */
static int on_line(void *user, const char *text, uint32_t line, struct weft_error *err)
{
	struct weft_specp *p = user;
	(void)err;
	p->lineno = line;
	see_header(p, text);
	return p->code;
}

static int on_key(void *user, const char *section, const char *name, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct weft_specp *p = user;
	(void)section;
	(void)line; /* p->lineno, from on_line */
	(void)err;  /* weft_specp_err writes p->err */
	if (p->nsecs == 0)
		return weft_specp_err(p, p->lineno, WEFT_ERR_INPUT,
				      "`%s` is outside any section; start with [kernel]", name);
	uint32_t sec = p->nsecs - 1;
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].section == sec && strcmp(p->ents[i].key, name) == 0 &&
		    p->secs[sec].kind != SEC_ARGS)
			return weft_specp_err(p, p->lineno, WEFT_ERR_INPUT,
					      "`%s` is set twice (first on line %u)", name, p->ents[i].line);
	struct weft_specp_entry *ne = realloc(p->ents, (p->nents + 1) * sizeof(*ne));
	if (!ne)
		return weft_specp_err(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
	p->ents = ne;
	struct weft_specp_entry *e = &p->ents[p->nents];
	e->section = sec;
	e->line = p->lineno;
	e->used = 0;
	e->key = weft_specp_strdup(name);
	e->value = weft_specp_strdup(value ? value : "");
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return weft_specp_err(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
	}
	p->nents++;
	return p->code;
}

/* ---- the whole spec ------------------------------------------------------ */

static int value_uses(const struct weft_spec_value *v, int32_t b)
{
	for (uint32_t i = 0; i < v->nrefs; i++)
		if (v->refs[i].kind == WEFT_SPEC_REF_BUFFER && v->refs[i].index == b)
			return 1;
	return 0;
}

/* A buffer nobody uses is most likely a typo in an argument. */
static int unused_buffers(struct weft_specp *p)
{
	const struct weft_spec *spec = p->spec;
	for (uint32_t b = 0; b < spec->nbuffers; b++) {
		int used = 0;
		for (uint32_t l = 0; l < spec->nlaunches && !used; l++)
			for (uint32_t a = 0; a < spec->launches[l].nargs && !used; a++)
				used = value_uses(&spec->launches[l].args[a].value, (int32_t)b);
		for (uint32_t i = 0; i < spec->nbuffers && !used; i++)
			used = value_uses(&spec->buffers[i].values, (int32_t)b);
		for (uint32_t i = 0; i < spec->nsymbols && !used; i++)
			used = value_uses(&spec->symbols[i].values, (int32_t)b);
		for (uint32_t i = 0; i < spec->ntextures && !used; i++)
			used = spec->textures[i].buffer == (int32_t)b;
		if (!used)
			return weft_specp_err(p, spec->buffers[b].line, WEFT_ERR_INPUT,
					      "[buffer %s] is not passed to the kernel in [args]%s",
					      spec->buffers[b].name,
					      spec->sequence ? " (nor used by a launch, a symbol or a texture)" : "");
	}
	return 0;
}

/* [args] sections against the launches: the single form has one unnamed
 * [args], a sequence one [args NAME] per [launch NAME]. */
static int pair_args(struct weft_specp *p, int32_t *args_of)
{
	struct weft_spec *spec = p->spec;
	for (uint32_t i = 0; i < p->nsecs; i++) {
		const struct weft_specp_section *s = &p->secs[i];
		if (s->kind != SEC_ARGS)
			continue;
		if (!spec->sequence && s->name)
			return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
					      "[args %s] goes with a [launch %s]; a spec without [launch] "
					      "sections has one unnamed [args]",
					      s->name, s->name);
		if (spec->sequence && !s->name)
			return weft_specp_err(p, s->line, WEFT_ERR_INPUT,
					      "a spec with [launch NAME] sections gives each launch's arguments "
					      "in [args NAME]");
		int32_t l = s->name ? weft_specp_section(p, SEC_LAUNCH, s->name) : -1;
		if (spec->sequence && l < 0) {
			char hint[400];
			return weft_specp_err(p, s->line, WEFT_ERR_INPUT, "[args %s] has no [launch %s]%s", s->name,
					      s->name,
					      weft_specp_suggest_section(p, SEC_LAUNCH, s->name, "[launch ", hint,
									 sizeof(hint)));
		}
		args_of[spec->sequence ? p->secs[l].index : 0] = (int32_t)i;
	}
	for (uint32_t l = 0; l < spec->nlaunches; l++)
		if (args_of[l] < 0) {
			if (!spec->sequence)
				return weft_specp_err(p, 0, WEFT_ERR_INPUT,
						      "no [args] section: list the kernel's arguments in "
						      "parameter order (an empty [args] for a kernel without "
						      "parameters)");
			return weft_specp_err(p, spec->launches[l].line, WEFT_ERR_INPUT,
					      "[launch %s] needs an [args %s] section with its arguments in "
					      "parameter order (empty for a kernel without parameters)",
					      spec->launches[l].name, spec->launches[l].name);
		}
	return 0;
}

static int interpret(struct weft_specp *p)
{
	struct weft_spec *spec = p->spec;
	int have_kernel = -1;
	uint32_t n[SEC_LAUNCH + 1] = { 0 };
	for (uint32_t i = 0; i < p->nsecs; i++) {
		struct weft_specp_section *s = &p->secs[i];
		enum weft_specp_sec k = s->kind == SEC_SURFACE ? SEC_TEXTURE : s->kind;
		s->index = (int32_t)n[k]++;
		if (s->kind == SEC_KERNEL)
			have_kernel = (int)i;
	}
	if (have_kernel < 0)
		return weft_specp_err(p, 0, WEFT_ERR_INPUT,
				      "no [kernel] section: a spec needs [kernel] with ptx, name, grid, block");
	spec->sequence = n[SEC_LAUNCH] > 0;
	spec->nlaunches = spec->sequence ? n[SEC_LAUNCH] : 1;
	spec->buffers = calloc(n[SEC_BUFFER] + 1, sizeof(*spec->buffers));
	spec->symbols = calloc(n[SEC_SYMBOL] + 1, sizeof(*spec->symbols));
	spec->textures = calloc(n[SEC_TEXTURE] + 1, sizeof(*spec->textures));
	spec->launches = calloc(spec->nlaunches, sizeof(*spec->launches));
	int32_t *args_of = malloc(spec->nlaunches * sizeof(int32_t));
	if (!spec->buffers || !spec->symbols || !spec->textures || !spec->launches || !args_of) {
		free(args_of);
		return weft_specp_err(p, 0, WEFT_ERR_NOMEM, "out of memory");
	}
	for (uint32_t l = 0; l < spec->nlaunches; l++)
		args_of[l] = -1;
	if (weft_specp_kernel(p, (uint32_t)have_kernel, spec->sequence))
		goto out;
	if (!spec->sequence)
		spec->total_launches = 1;
	for (uint32_t i = 0; i < p->nsecs && !p->code; i++)
		if (p->secs[i].kind == SEC_BUFFER)
			weft_specp_data(p, i, &spec->buffers[spec->nbuffers++], 0);
	for (uint32_t i = 0; i < spec->nbuffers && !p->code; i++)
		weft_specp_check_refs(p, &spec->buffers[i].values);
	for (uint32_t i = 0; i < p->nsecs && !p->code; i++)
		if (p->secs[i].kind == SEC_SYMBOL) {
			struct weft_spec_buffer *s = &spec->symbols[spec->nsymbols++];
			if (!weft_specp_data(p, i, s, 1))
				weft_specp_check_refs(p, &s->values);
		}
	for (uint32_t i = 0; i < p->nsecs && !p->code; i++)
		if (p->secs[i].kind == SEC_TEXTURE || p->secs[i].kind == SEC_SURFACE)
			weft_specp_texture(p, i, &spec->textures[spec->ntextures++]);
	for (uint32_t i = 0; i < p->nsecs && !p->code; i++)
		if (p->secs[i].kind == SEC_LAUNCH)
			weft_specp_launch(p, i, &spec->launches[p->secs[i].index]);
	if (p->code || pair_args(p, args_of))
		goto out;
	for (uint32_t l = 0; l < spec->nlaunches && !p->code; l++) {
		struct weft_spec_launch *la = &spec->launches[l];
		if (weft_specp_args(p, (uint32_t)args_of[l], la))
			break;
		for (uint32_t a = 0; a < la->nargs && !p->code; a++)
			weft_specp_check_refs(p, &la->args[a].value);
	}
	if (!p->code)
		unused_buffers(p);
out:
	free(args_of);
	/* the first launch under its single-launch names */
	const struct weft_spec_launch *f = &spec->launches[0];
	spec->kernel = f->kernel;
	spec->kernel_line = f->kernel_line;
	spec->grid = f->grid;
	spec->block = f->block;
	spec->shared = f->shared;
	spec->max_insts = f->max_insts;
	spec->max_insts_line = f->max_insts_line;
	spec->args = f->args;
	spec->nargs = f->nargs;
	spec->args_line = f->args_line;
	return p->code;
}

static void free_parse(struct weft_specp *p)
{
	for (uint32_t i = 0; i < p->nsecs; i++)
		free(p->secs[i].name);
	for (uint32_t i = 0; i < p->nents; i++) {
		free(p->ents[i].key);
		free(p->ents[i].value);
	}
	free(p->secs);
	free(p->ents);
}

static void free_data(struct weft_spec_buffer *b)
{
	free(b->name);
	free(b->file);
	free(b->output);
	free(b->expect);
	weft_specp_value_free(&b->values);
}

void weft_spec_free(struct weft_spec *spec)
{
	if (!spec)
		return;
	for (uint32_t i = 0; i < spec->nbuffers; i++)
		free_data(&spec->buffers[i]);
	for (uint32_t i = 0; i < spec->nsymbols; i++)
		free_data(&spec->symbols[i]);
	for (uint32_t i = 0; i < spec->ntextures; i++)
		free(spec->textures[i].name);
	for (uint32_t l = 0; spec->launches && l < spec->nlaunches; l++) {
		struct weft_spec_launch *la = &spec->launches[l];
		for (uint32_t i = 0; i < la->nargs; i++) {
			free(la->args[i].label);
			weft_specp_value_free(&la->args[i].value);
		}
		free(la->args);
		free(la->name);
		free(la->kernel);
	}
	free(spec->launches);
	free(spec->buffers);
	free(spec->symbols);
	free(spec->textures);
	free(spec->path);
	free(spec->dir);
	free(spec->ptx);
	free(spec);
}

int weft_spec_parse(const char *text, size_t len, const char *path, struct weft_spec **out,
		    struct weft_error *err)
{
	struct weft_specp p;
	struct weft_spec *spec;
	int rc;

	*out = NULL;
	weft_error_clear(err);
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.err = err;

	spec = calloc(1, sizeof(*spec));
	if (!spec || !(spec->path = weft_specp_strdup(path)) || !(spec->dir = weft_specp_dir_of(path))) {
		weft_spec_free(spec);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	}
	p.spec = spec;
	struct weft_ini ini = { path, "spec file", on_key, on_line, &p };
	rc = weft_ini_parse(&ini, text, len, err);
	if (rc && !p.code)
		p.code = rc;
	if (!p.code)
		interpret(&p);
	free_parse(&p);
	if (p.code) {
		weft_spec_free(spec);
		return p.code;
	}
	*out = spec;
	return 0;
}

int weft_spec_load(const char *path, struct weft_spec **out, struct weft_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	int st = weft_file_read(path, &text, &len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_set(err, WEFT_ERR_INPUT, "cannot open spec file %s: %s", path, strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_set(err, WEFT_ERR_IO, "error reading spec file %s", path);
	rc = weft_spec_parse(text, len, path, out, err);
	free(text);
	return rc;
}
