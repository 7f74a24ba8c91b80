/*
 * recipe.c - a weft-study recipe read and checked (recipe.h), and the plan
 * of what it asks at one size. Every key of every section kind is in the
 * tables below with its shape: one value, a comma-separated list (lines
 * of the same key add to it), or a repeatable line (each line one value).
 */
#include "recipe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file.h"
#include "common/ini.h"
#include "common/suggest.h"
#include "estimate/sweep.h"

enum shape { ONE, LIST, LINES };

struct key {
	const char *name;
	enum shape shape;
};

/* The key indices below follow these tables' order. */
static const struct key study_keys[] = {
	{ "title", ONE }, { "workloads", LIST }, { "size", ONE }, { "about", LINES },
	{ "not_modelled", LINES }, { NULL, ONE },
};
enum { SK_TITLE, SK_WORKLOADS, SK_SIZE, SK_ABOUT, SK_NOT_MODELLED };

static const struct key run_keys[] = {
	{ "configs", LIST }, { "baseline", ONE }, { "sweep", LINES }, { "set", LINES },
	{ "workloads", LIST }, { NULL, ONE },
};
enum { RK_CONFIGS, RK_BASELINE, RK_SWEEP, RK_SET, RK_WORKLOADS };

static const struct key figure_keys[] = {
	{ "run", ONE },     { "kind", ONE },   { "metric", ONE },  { "x", ONE },
	{ "y", ONE },       { "key", ONE },    { "of", ONE },      { "cdf", ONE },
	{ "busy", ONE },    { "norm", ONE },   { "log", ONE },     { "configs", ONE },
	{ "launch", ONE },  { "geomean", ONE }, { "style", ONE },  { "format", ONE },
	{ "title", ONE },   { "workloads", LIST }, { NULL, ONE },
};
enum { FK_RUN, FK_KIND, FK_METRIC, FK_X, FK_Y, FK_KEY, FK_OF, FK_CDF, FK_BUSY, FK_NORM, FK_LOG,
       FK_CONFIGS, FK_LAUNCH, FK_GEOMEAN, FK_STYLE, FK_FORMAT, FK_TITLE, FK_WORKLOADS };

static const struct key table_keys[] = {
	{ "run", ONE }, { "columns", ONE }, { "digits", ONE }, { "workloads", LIST }, { NULL, ONE },
};
enum { TK_RUN, TK_COLUMNS, TK_DIGITS, TK_WORKLOADS };

static const struct key *const kind_keys[] = { study_keys, run_keys, figure_keys, table_keys };
static const char *const kind_names[] = { "study", "run", "figure", "table" };

static const char *const *key_names_of(enum weft_recipe_kind k)
{
	static const char *names[4][24];
	for (int i = 0; kind_keys[k][i].name; i++)
		names[k][i] = kind_keys[k][i].name;
	return names[k];
}

const char *const *weft_recipe_keys(enum weft_recipe_kind kind)
{
	if ((int)kind < 0 || kind > WEFT_RECIPE_TABLE)
		return NULL;
	return key_names_of(kind);
}

struct parse {
	struct weft_recipe *r;
	int cur;            /* current section, -1 before the first */
};

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_' || c == '.' || c == '+';
}

/* A section line `[kind NAME]` or `[study]`. */
static int on_section(struct parse *p, const char *s, size_t len, uint32_t line, struct weft_error *err)
{
	struct weft_recipe *r = p->r;
	char text[200];
	if (len >= sizeof(text))
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "section name too long (at most %zu characters)", sizeof(text) - 1);
	memcpy(text, s, len);
	text[len] = 0;
	const char *sp = strchr(text, ' ');
	size_t klen = sp ? (size_t)(sp - text) : len;
	int kind = -1;
	for (int k = 0; k < 4; k++)
		if (strlen(kind_names[k]) == klen && memcmp(text, kind_names[k], klen) == 0)
			kind = k;
	if (kind < 0) {
		char word[200], phrase[160];
		snprintf(word, sizeof(word), "%.*s", (int)klen, text);
		struct weft_suggest sg;
		weft_suggest_init(&sg, word);
		for (int k = 0; k < 4; k++)
			weft_suggest_consider(&sg, kind_names[k]);
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "unknown section [%s]: a recipe has [study], [run NAME], [figure NAME] "
				     "and [table NAME]%s",
				     text, weft_suggest_phrase(&sg, "`", "`", phrase, sizeof(phrase)));
	}
	const char *name = sp ? sp + 1 : "";
	if (kind == WEFT_RECIPE_STUDY && sp)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "[study] takes no name (write [study])");
	if (kind != WEFT_RECIPE_STUDY) {
		size_t n = strlen(name);
		if (n == 0 || n >= WEFT_RECIPE_NAME_MAX)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
					     "[%s] needs a name of 1 to %d characters: [%s NAME]",
					     kind_names[kind], WEFT_RECIPE_NAME_MAX - 1, kind_names[kind]);
		for (size_t i = 0; i < n; i++)
			if (!is_name_char(name[i]) || (i == 0 && name[i] == '.'))
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
						     "[%s %s]: a name is letters, digits and - _ . + (it "
						     "names files), not starting with .",
						     kind_names[kind], name);
	}
	for (uint32_t i = 0; i < r->nsects; i++)
		if (r->sects[i].kind == (enum weft_recipe_kind)kind && strcmp(r->sects[i].name, name) == 0)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
					     "[%s] again (first at line %u): each section once", text,
					     r->sects[i].line);
	if (r->nsects >= WEFT_RECIPE_MAX_SECTIONS)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "more than %u sections", WEFT_RECIPE_MAX_SECTIONS);
	uint32_t count = 0, cap = kind == WEFT_RECIPE_RUN      ? WEFT_RECIPE_MAX_RUNS
				: kind == WEFT_RECIPE_FIGURE ? WEFT_RECIPE_MAX_FIGURES
				: kind == WEFT_RECIPE_TABLE  ? WEFT_RECIPE_MAX_TABLES
							     : 1;
	for (uint32_t i = 0; i < r->nsects; i++)
		count += r->sects[i].kind == (enum weft_recipe_kind)kind;
	if (count >= cap)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0, "more than %u [%s] sections",
				     cap, kind_names[kind]);
	struct weft_recipe_sect *sc = &r->sects[r->nsects];
	sc->kind = (enum weft_recipe_kind)kind;
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	sc->line = line;
	p->cur = (int)r->nsects++;
	return 0;
}

static int on_line(void *user, const char *text, uint32_t line, struct weft_error *err)
{
	struct parse *p = user;
	while (*text == ' ' || *text == '\t')
		text++;
	if (*text != '[')
		return 0;
	const char *end = strchr(text, ']');
	if (!end)
		return 0; /* inih reports the syntax error */
	return on_section(p, text + 1, (size_t)(end - text - 1), line, err);
}

static int add_entry(struct weft_recipe *r, uint32_t sect, uint16_t key, int size, const char *v,
		     size_t len, uint32_t line, struct weft_error *err)
{
	if (r->nentries >= WEFT_RECIPE_MAX_ENTRIES)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0, "more than %u values",
				     WEFT_RECIPE_MAX_ENTRIES);
	if (r->nentries == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 64;
		void *e = realloc(r->entries, cap * sizeof(*r->entries));
		if (!e)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", r->path);
		r->entries = e;
		r->cap = cap;
	}
	char *s = malloc(len + 1);
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", r->path);
	memcpy(s, v, len);
	s[len] = 0;
	struct weft_recipe_entry *e = &r->entries[r->nentries++];
	e->sect = sect;
	e->line = line;
	e->key = key;
	e->size = (int8_t)size;
	e->value = s;
	return 0;
}

static int one_of(const char *v, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (strcmp(v, words[i]) == 0)
			return i;
	return -1;
}

/* A decimal count without sign or suffix: 0 or -1. */
static int parse_uint(const char *s, uint64_t *out)
{
	uint64_t n = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	*out = n;
	return 0;
}

static const char *const yes_no[] = { "no", "yes", NULL };

/* Values that can be checked alone: a figure's enumerations and numbers,
 * a table's digits, the study's size. */
static int check_value(const struct weft_recipe *r, enum weft_recipe_kind kind, int key,
		       const char *v, uint32_t line, struct weft_error *err)
{
	static const char *const norms[] = { "none", "share", "baseline", NULL };
	static const char *const logs[] = { "none", "x", "y", "xy", NULL };
	static const char *const styles[] = { "default", "paper", NULL };
	static const char *const formats[] = { "png", "svg", "pdf", NULL };
	static const char *const sizes[] = { "small", "default", "large", NULL };
	const char *const *words = NULL;
	const char *what = NULL;
	if (kind == WEFT_RECIPE_STUDY && key == SK_SIZE)
		words = sizes, what = "small, default or large";
	if (kind == WEFT_RECIPE_FIGURE) {
		switch (key) {
		case FK_KIND:
			if (weft_plot_kind_parse(v) < 0)
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
						     "kind = %s: a figure is bars, energy, cpi, sweep, dist, "
						     "scatter or util (docs/plot.md)",
						     v);
			return 0;
		case FK_CDF:
		case FK_GEOMEAN: words = yes_no, what = "yes or no"; break;
		case FK_NORM: words = norms, what = "none, share or baseline"; break;
		case FK_LOG: words = logs, what = "none, x, y or xy"; break;
		case FK_STYLE: words = styles, what = "default or paper"; break;
		case FK_FORMAT: words = formats, what = "png, svg or pdf"; break;
		case FK_LAUNCH: {
			uint64_t n;
			if (parse_uint(v, &n) < 0 || n > INT32_MAX)
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
						     "launch = %s: a launch index (0, 1, ...)", v);
			return 0;
		}
		default: break;
		}
	}
	if (kind == WEFT_RECIPE_TABLE && key == TK_DIGITS) {
		uint64_t n;
		if (parse_uint(v, &n) < 0 || n < 1 || n > 15)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
					     "digits = %s: significant digits, 1 to 15", v);
		return 0;
	}
	if (words && one_of(v, words) < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0, "%s = %s: %s",
				     kind_keys[kind][key].name, v, what);
	return 0;
}

static int on_key(void *user, const char *section, const char *name, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct parse *p = user;
	struct weft_recipe *r = p->r;
	(void)section; /* on_line registered it as p->cur */
	if (p->cur < 0)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "`%s` before any section: start with [study]", name);
	const struct weft_recipe_sect *sc = &r->sects[p->cur];
	const struct key *keys = kind_keys[sc->kind];
	/* KEY.SIZE */
	char base[64];
	int size = -1;
	const char *dot = strrchr(name, '.');
	size_t blen = strlen(name);
	if (dot) {
		enum weft_size s;
		if (weft_size_parse(dot + 1, &s) < 0)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
					     "`%s`: a key may end in .small, .default or .large, not .%s",
					     name, dot + 1);
		size = (int)s;
		blen = (size_t)(dot - name);
	}
	if (blen >= sizeof(base))
		blen = sizeof(base) - 1;
	memcpy(base, name, blen);
	base[blen] = 0;
	int k = -1;
	for (int i = 0; keys[i].name; i++)
		if (strcmp(keys[i].name, base) == 0)
			k = i;
	if (k < 0) {
		char phrase[160];
		struct weft_suggest sg;
		weft_suggest_init(&sg, base);
		for (int i = 0; keys[i].name; i++)
			weft_suggest_consider(&sg, keys[i].name);
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "unknown key `%s` in [%s%s%s]%s (docs/weft-study.md lists the keys)",
				     base, kind_names[sc->kind], sc->name[0] ? " " : "", sc->name,
				     weft_suggest_phrase(&sg, "`", "`", phrase, sizeof(phrase)));
	}
	if (sc->kind == WEFT_RECIPE_STUDY && k == SK_SIZE && size >= 0)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
				     "`size` cannot itself depend on the size");
	if (!*value)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0, "`%s` has no value", name);
	if (keys[k].shape == ONE) {
		for (uint32_t i = 0; i < r->nentries; i++) {
			const struct weft_recipe_entry *e = &r->entries[i];
			if (e->sect == (uint32_t)p->cur && e->key == k && e->size == size)
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
						     "`%s` again (first at line %u): it takes one value",
						     name, e->line);
		}
		int rc = check_value(r, sc->kind, k, value, line, err);
		if (rc)
			return rc;
		return add_entry(r, (uint32_t)p->cur, (uint16_t)k, size, value, strlen(value), line, err);
	}
	if (keys[k].shape == LINES)
		return add_entry(r, (uint32_t)p->cur, (uint16_t)k, size, value, strlen(value), line, err);
	/* LIST: comma-separated names */
	const char *s = value;
	for (;;) {
		const char *c = strchr(s, ',');
		const char *e = c ? c : s + strlen(s);
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		const char *t = e;
		while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
			t--;
		if (t == s)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
					     "`%s`: an empty item in the list (names separated by commas)",
					     name);
		for (const char *q = s; q < t; q++)
			if (*q == ' ' || *q == '\t')
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line, 0,
						     "`%s`: `%.*s` has a space; separate names with commas",
						     name, (int)(t - s), s);
		int rc = add_entry(r, (uint32_t)p->cur, (uint16_t)k, size, s, (size_t)(t - s), line, err);
		if (rc)
			return rc;
		if (!c)
			break;
		s = c + 1;
	}
	return 0;
}

void weft_recipe_free(struct weft_recipe *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nentries; i++)
		free(r->entries[i].value);
	free(r->entries);
	free(r);
}

int weft_recipe_parse(const char *text, size_t len, const char *path, struct weft_recipe **out,
		      struct weft_error *err)
{
	*out = NULL;
	if (len > WEFT_RECIPE_MAX_BYTES)
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: %zu bytes, more than a recipe's %u", path,
				      len, WEFT_RECIPE_MAX_BYTES);
	struct weft_recipe *r = calloc(1, sizeof(*r));
	if (!r)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	snprintf(r->path, sizeof(r->path), "%s", path);
	struct parse p = { r, -1 };
	struct weft_ini ini = { r->path, "recipe", on_key, on_line, &p };
	int rc = weft_ini_parse(&ini, text, len, err);
	if (rc == 0) {
		int study = 0;
		for (uint32_t i = 0; i < r->nsects; i++)
			study |= r->sects[i].kind == WEFT_RECIPE_STUDY;
		if (!study)
			rc = weft_error_set(err, WEFT_ERR_INPUT,
					    "%s has no [study] section (its title and workloads)", path);
	}
	if (rc) {
		weft_recipe_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int weft_recipe_load(const char *path, struct weft_recipe **out, struct weft_error *err)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "cannot read recipe %s: %s", path,
				      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return weft_error_set(err, WEFT_ERR_INPUT, "recipe %s is not a file", path);
	if ((uint64_t)st.st_size > WEFT_RECIPE_MAX_BYTES)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "recipe %s is %lld bytes, more than a recipe's %u: is it a recipe?",
				      path, (long long)st.st_size, WEFT_RECIPE_MAX_BYTES);
	char *text;
	size_t len;
	int rc = weft_file_read(path, &text, &len);
	if (rc == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (rc != 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "cannot read recipe %s: %s", path,
				      strerror(errno));
	rc = weft_recipe_parse(text, len, path, out, err);
	free(text);
	return rc;
}

/* ---- the plan at one size ---- */

/* The values of key in section sect at size: KEY.SIZE's when there are
 * any, else KEY's. */
static int list_of(const struct weft_recipe *r, uint32_t sect, int key, int size,
		   struct weft_study_list *l, struct weft_error *err)
{
	int sized = 0;
	for (uint32_t i = 0; i < r->nentries; i++)
		sized |= r->entries[i].sect == sect && r->entries[i].key == key &&
			 r->entries[i].size == size;
	l->n = 0;
	for (uint32_t i = 0; i < r->nentries; i++) {
		const struct weft_recipe_entry *e = &r->entries[i];
		if (e->sect != sect || e->key != key || e->size != (sized ? size : -1))
			continue;
		if (l->n >= WEFT_RECIPE_MAX_ITEMS)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, e->line, 0,
					     "more than %u values of `%s`", WEFT_RECIPE_MAX_ITEMS,
					     kind_keys[r->sects[sect].kind][key].name);
		l->v[l->n++] = e->value;
	}
	return 0;
}

static const char *one(const struct weft_recipe *r, uint32_t sect, int key, int size)
{
	struct weft_study_list l;
	if (list_of(r, sect, key, size, &l, NULL) < 0 || l.n == 0)
		return NULL;
	return l.v[0];
}

static uint32_t line_of(const struct weft_recipe *r, uint32_t sect, int key)
{
	for (uint32_t i = 0; i < r->nentries; i++)
		if (r->entries[i].sect == sect && r->entries[i].key == key)
			return r->entries[i].line;
	return r->sects[sect].line;
}

static int find_run(const struct weft_recipe *r, const struct weft_study_plan *p, uint32_t sect,
		    int key, int size, uint32_t *run, struct weft_error *err)
{
	const char *name = one(r, sect, key, size);
	const struct weft_recipe_sect *sc = &r->sects[sect];
	if (!name)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, sc->line, 0,
				     "[%s %s] needs `run = NAME`, the [run NAME] it draws from",
				     kind_names[sc->kind], sc->name);
	for (uint32_t i = 0; i < p->nruns; i++)
		if (strcmp(p->runs[i].name, name) == 0) {
			*run = i;
			return 0;
		}
	char phrase[160];
	struct weft_suggest sg;
	weft_suggest_init(&sg, name);
	for (uint32_t i = 0; i < p->nruns; i++)
		weft_suggest_consider(&sg, p->runs[i].name);
	return weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, sect, key), 0,
			     "[%s %s]: no [run %s] in the recipe%s", kind_names[sc->kind], sc->name, name,
			     weft_suggest_phrase(&sg, "`", "`", phrase, sizeof(phrase)));
}

/* A figure's or table's workloads: the run's, or a subset of them. */
static int subset(const struct weft_recipe *r, uint32_t sect, int key, int size,
		  const struct weft_study_run *run, struct weft_study_list *l, struct weft_error *err)
{
	int rc = list_of(r, sect, key, size, l, err);
	if (rc)
		return rc;
	if (l->n == 0) {
		*l = run->workloads;
		return 0;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		int in = 0;
		for (uint32_t j = 0; j < run->workloads.n; j++)
			in |= strcmp(l->v[i], run->workloads.v[j]) == 0;
		if (!in)
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, sect, key), 0,
					     "[%s %s]: workload %s is not one of [run %s]'s at size %s",
					     kind_names[r->sects[sect].kind], r->sects[sect].name, l->v[i],
					     run->name, weft_size_name((enum weft_size)size));
	}
	return 0;
}

static int check_workloads(const struct weft_recipe *r, uint32_t sect, int key,
			   const struct weft_study_list *l, struct weft_error *err)
{
	for (uint32_t i = 0; i < l->n; i++) {
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(l->v[i], l->v[j]) == 0)
				return weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, sect, key), 0,
						     "workload %s listed twice", l->v[i]);
		if (!weft_workload_find(l->v[i])) {
			char hint[160];
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, sect, key), 0,
					     "no bundled workload `%s`%s (weft-trace list names them)",
					     l->v[i], weft_workload_suggest(l->v[i], hint, sizeof(hint)));
		}
	}
	return 0;
}

static int figure_of(const struct weft_recipe *r, uint32_t sect, int size, struct weft_study_plan *p,
		     struct weft_study_figure *f, struct weft_error *err)
{
	f->name = r->sects[sect].name;
	int rc = find_run(r, p, sect, FK_RUN, size, &f->run, err);
	if (rc)
		return rc;
	weft_plot_opts_init(&f->o);
	const char *kind = one(r, sect, FK_KIND, size);
	if (!kind)
		return weft_error_at(err, WEFT_ERR_INPUT, r->path, r->sects[sect].line, 0,
				     "[figure %s] needs `kind = ...` (bars, energy, cpi, sweep, dist, "
				     "scatter or util)",
				     f->name);
	f->o.kind = (enum weft_plot_kind)weft_plot_kind_parse(kind);
	f->o.metric = one(r, sect, FK_METRIC, size);
	f->o.xmetric = one(r, sect, FK_X, size);
	f->o.ymetric = one(r, sect, FK_Y, size);
	f->o.key = one(r, sect, FK_KEY, size);
	f->o.of = one(r, sect, FK_OF, size);
	f->o.busy = one(r, sect, FK_BUSY, size);
	f->o.title = one(r, sect, FK_TITLE, size);
	f->o.configs = f->configs = one(r, sect, FK_CONFIGS, size);
	const char *v;
	if ((v = one(r, sect, FK_CDF, size)))
		f->o.cdf = one_of(v, yes_no);
	if ((v = one(r, sect, FK_GEOMEAN, size)))
		f->o.geomean = one_of(v, yes_no);
	if ((v = one(r, sect, FK_NORM, size)))
		f->o.norm = strcmp(v, "none") == 0    ? WEFT_NORM_NONE
			    : strcmp(v, "share") == 0 ? WEFT_NORM_SHARE
						      : WEFT_NORM_BASELINE;
	if ((v = one(r, sect, FK_LOG, size))) {
		static const char *const logs[] = { "none", "x", "y", "xy", NULL };
		f->o.log = (enum weft_plot_log)one_of(v, logs);
	}
	if ((v = one(r, sect, FK_STYLE, size)))
		f->o.paper = strcmp(v, "paper") == 0;
	if ((v = one(r, sect, FK_LAUNCH, size))) {
		uint64_t n = 0;
		parse_uint(v, &n);
		f->o.launch = (int64_t)n;
	}
	f->format = one(r, sect, FK_FORMAT, size);
	if (!f->format)
		f->format = "png";
	/* options that do not apply to the kind, as weft-plot refuses them */
	static const struct { int key; unsigned kinds; } only[] = {
		{ FK_METRIC, 1u << WEFT_PLOT_BARS | 1u << WEFT_PLOT_SWEEP },
		{ FK_X, 1u << WEFT_PLOT_SCATTER }, { FK_Y, 1u << WEFT_PLOT_SCATTER },
		{ FK_KEY, 1u << WEFT_PLOT_SWEEP }, { FK_OF, 1u << WEFT_PLOT_DIST },
		{ FK_CDF, 1u << WEFT_PLOT_DIST }, { FK_BUSY, 1u << WEFT_PLOT_UTIL },
		{ FK_NORM, 1u << WEFT_PLOT_ENERGY | 1u << WEFT_PLOT_CPI },
		{ FK_GEOMEAN, 1u << WEFT_PLOT_BARS },
		{ FK_LOG, 1u << WEFT_PLOT_SWEEP | 1u << WEFT_PLOT_SCATTER },
	};
	for (size_t i = 0; i < sizeof(only) / sizeof(only[0]); i++)
		if (one(r, sect, only[i].key, size) && !(only[i].kinds & (1u << f->o.kind)))
			return weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, sect, only[i].key), 0,
					     "[figure %s]: `%s` does not apply to kind %s (docs/plot.md)",
					     f->name, figure_keys[only[i].key].name, kind);
	return subset(r, sect, FK_WORKLOADS, size, &p->runs[f->run], &f->workloads, err);
}

void weft_recipe_plan_free(struct weft_study_plan *p)
{
	free(p);
}

int weft_recipe_plan(const struct weft_recipe *r, enum weft_size size, int size_given,
		     struct weft_study_plan **out, struct weft_error *err)
{
	*out = NULL;
	struct weft_study_plan *p = calloc(1, sizeof(*p));
	if (!p)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory planning %s", r->path);
	uint32_t study = 0;
	for (uint32_t i = 0; i < r->nsects; i++)
		if (r->sects[i].kind == WEFT_RECIPE_STUDY)
			study = i;
	p->size = WEFT_SIZE_SMALL;
	const char *sz = one(r, study, SK_SIZE, -1);
	if (size_given)
		p->size = size;
	else if (sz)
		weft_size_parse(sz, &p->size);
	int s = (int)p->size, rc;
	p->title = one(r, study, SK_TITLE, s);
	if (!p->title)
		p->title = r->path;
	if ((rc = list_of(r, study, SK_WORKLOADS, s, &p->workloads, err)) ||
	    (rc = list_of(r, study, SK_ABOUT, s, &p->about, err)) ||
	    (rc = list_of(r, study, SK_NOT_MODELLED, s, &p->not_modelled, err)) ||
	    (rc = check_workloads(r, study, SK_WORKLOADS, &p->workloads, err)))
		goto fail;
	for (uint32_t i = 0; i < r->nsects; i++) {
		if (r->sects[i].kind != WEFT_RECIPE_RUN)
			continue;
		struct weft_study_run *run = &p->runs[p->nruns++];
		run->name = r->sects[i].name;
		run->baseline = one(r, i, RK_BASELINE, s);
		if ((rc = list_of(r, i, RK_CONFIGS, s, &run->configs, err)) ||
		    (rc = list_of(r, i, RK_SWEEP, s, &run->sweeps, err)) ||
		    (rc = list_of(r, i, RK_SET, s, &run->sets, err)) ||
		    (rc = list_of(r, i, RK_WORKLOADS, s, &run->workloads, err)) ||
		    (rc = check_workloads(r, i, RK_WORKLOADS, &run->workloads, err)))
			goto fail;
		if (run->configs.n == 0) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->path, r->sects[i].line, 0,
					   "[run %s] needs `configs = A, B, ...`", run->name);
			goto fail;
		}
		if (run->sweeps.n > WEFT_EST_MAX_SWEEPS) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->path, line_of(r, i, RK_SWEEP), 0,
					   "[run %s]: more than %d sweeps", run->name, WEFT_EST_MAX_SWEEPS);
			goto fail;
		}
		if (run->workloads.n == 0)
			run->workloads = p->workloads;
		if (run->workloads.n == 0) {
			rc = weft_error_at(err, WEFT_ERR_INPUT, r->path, r->sects[i].line, 0,
					   "[run %s] has no workloads at size %s: give `workloads` in "
					   "[study] or in the run",
					   run->name, weft_size_name(p->size));
			goto fail;
		}
	}
	if (p->nruns == 0) {
		rc = weft_error_set(err, WEFT_ERR_INPUT, "%s has no [run NAME] section: nothing to estimate",
				    r->path);
		goto fail;
	}
	for (uint32_t i = 0; i < r->nsects; i++) {
		if (r->sects[i].kind == WEFT_RECIPE_FIGURE) {
			if ((rc = figure_of(r, i, s, p, &p->figures[p->nfigures++], err)))
				goto fail;
		} else if (r->sects[i].kind == WEFT_RECIPE_TABLE) {
			struct weft_study_table *t = &p->tables[p->ntables++];
			t->name = r->sects[i].name;
			if ((rc = find_run(r, p, i, TK_RUN, s, &t->run, err)))
				goto fail;
			t->columns = one(r, i, TK_COLUMNS, s);
			const char *d = one(r, i, TK_DIGITS, s);
			uint64_t n = 0;
			if (d)
				parse_uint(d, &n);
			t->digits = (int)n;
			if ((rc = subset(r, i, TK_WORKLOADS, s, &p->runs[t->run], &t->workloads, err)))
				goto fail;
		}
	}
	*out = p;
	return 0;
fail:
	free(p);
	return rc;
}
