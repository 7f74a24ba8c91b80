/*
 * config.c - INI machine configurations validated against a schema
 * (config.h). Parsing is common/ini.h's (libinih with line numbers and
 * one rule for long lines); this file adds the schema check (unknown keys
 * are errors with a "did you mean"), typed values with ranges, --set overrides, the
 * config hash. Reading a loaded config's values (weft_config_find and the
 * typed getters the models call) is config_value.c, and resolving table
 * paths against the data directory is config_path.c: loading looks the
 * model up in the registry (registry.c) for its schema, and the models the
 * registry lists read their keys and files, so both sit below.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/file.h"
#include "common/hash.h"
#include "common/ini.h"
#include "common/strdist.h"
#include "model.h"

/* Keys every config may use. Defaults are what weft assumes when a config
 * is silent; each doc line says where the default comes from. */
const struct weft_config_key weft_config_common_keys[] = {
	{ "model", "name", WEFT_CFG_STRING, "", "", 0, 0, NULL,
	  "timing model (models/registry.c), e.g. simt; required" },
	{ "tech", "node_nm", WEFT_CFG_INT, "40", "nm", 7, 180, NULL,
	  "technology node of the machine; energy and area rows are scaled to it "
	  "(default 40: TSMC 40 nm, the GTX480's GF100)" },
	{ "tech", "energy_basis", WEFT_CFG_ENUM, "horowitz45", "", 0, 0,
	  "horowitz45|aladdin40|gpuwattch40|maven65",
	  "per-event energy source: Horowitz ISSCC 2014 (45 nm), Aladdin (TSMC 40G, 1 ns "
	  "clock; 10-20x Horowitz on FP), GPUWattch's GTX480 model (40 nm) or, for the vt model "
	  "only, the Maven tiles' statistical power (65 nm, Lee et al. TOCS 2013; docs/energy.md)" },
	{ "tech", "energy_table", WEFT_CFG_STRING, "", "", 0, 0, NULL,
	  "energy table; empty = energy/<energy_basis>.csv in the data directory" },
	{ "tech", "static_table", WEFT_CFG_STRING, "energy/static.csv", "", 0, 0, NULL,
	  "static power table (data directory unless ./ or ../ or absolute)" },
	{ "tech", "area_table", WEFT_CFG_STRING, "area/components.csv", "", 0, 0, NULL,
	  "component area table (data directory unless ./ or ../ or absolute)" },
	{ "tech", "scaling_rule", WEFT_CFG_ENUM, "stillmaker", "", 0, 0, "classic|stillmaker",
	  "technology scaling rule between nodes: classic constant-field (Dennard 1974) or "
	  "Stillmaker & Baas (Integration 2017)" },
	{ "tech", "vdd_v", WEFT_CFG_DOUBLE, "1.0", "V", 0.5, 1.8, NULL,
	  "supply at which the Stillmaker-Baas energy and delay polynomials are evaluated at "
	  "both nodes (assumption: same supply; docs/energy.md)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

/* ---- raw INI entries with their line numbers ---------------------------- */

struct entry {
	char section[64];
	char key[64];
	char value[256];
	uint32_t line;
};

struct parse_state {
	const char *path;
	struct entry *v;
	uint32_t n, cap;
};

static void rstrip(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static int on_key(void *user, const char *section, const char *name, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct parse_state *ps = user;
	if (ps->n == ps->cap) {
		uint32_t cap = ps->cap ? ps->cap * 2 : 32;
		struct entry *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", ps->path);
		ps->v = v;
		ps->cap = cap;
	}
	struct entry *e = &ps->v[ps->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->section, sizeof(e->section), "%s", section);
	snprintf(e->key, sizeof(e->key), "%s", name);
	snprintf(e->value, sizeof(e->value), "%s", value);
	/* inih strips ';' comments; '#' after whitespace is a comment too. */
	for (char *p = e->value; *p; p++) {
		if (*p == '#' && (p == e->value || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	}
	rstrip(e->value);
	e->line = line;
	return 0;
}

const char *weft_config_suggest_model(const char *name)
{
	const char *best = NULL;
	unsigned bestd = WEFT_EDIT_FAR;
	for (const struct weft_model *const *mp = weft_models; name && *mp; mp++) {
		unsigned d = weft_edit_distance(name, (*mp)->name);
		if (d < bestd) {
			bestd = d;
			best = (*mp)->name;
		}
	}
	return best && weft_edit_close(name, best, bestd) ? best : NULL;
}

/* ---- schema --------------------------------------------------------------- */

struct schema {
	const struct weft_config_key *keys[256];
	uint32_t n;
};

static void schema_add(struct schema *s, const struct weft_config_key *keys)
{
	for (const struct weft_config_key *k = keys; k && k->section; k++)
		if (s->n < 256)
			s->keys[s->n++] = k;
}

static int schema_find(const struct schema *s, const char *section, const char *key)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (strcmp(s->keys[i]->section, section) == 0 && strcmp(s->keys[i]->key, key) == 0)
			return (int)i;
	return -1;
}

static int schema_has_section(const struct schema *s, const char *section)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (strcmp(s->keys[i]->section, section) == 0)
			return 1;
	return 0;
}

/* Writes " (did you mean [sec] key?)" or the valid keys of the section. */
static void suggest_key(const struct schema *s, const char *section, const char *key, char *buf,
			size_t len)
{
	char typed[160], cand[160];
	snprintf(typed, sizeof(typed), "%s.%s", section, key);
	int best = -1;
	unsigned bestd = WEFT_EDIT_FAR;
	for (uint32_t i = 0; i < s->n; i++) {
		snprintf(cand, sizeof(cand), "%s.%s", s->keys[i]->section, s->keys[i]->key);
		unsigned d = weft_edit_distance(typed, cand);
		/* a key typed in the wrong section is a typo too */
		unsigned d2 = weft_edit_distance(key, s->keys[i]->key);
		if (d2 < d)
			d = d2;
		if (d < bestd) {
			bestd = d;
			best = (int)i;
		}
	}
	if (best >= 0)
		snprintf(cand, sizeof(cand), "%s.%s", s->keys[best]->section, s->keys[best]->key);
	if (best >= 0 && (weft_edit_close(typed, cand, bestd) || weft_edit_close(key, s->keys[best]->key, bestd))) {
		snprintf(buf, len, "; did you mean [%s] %s?", s->keys[best]->section,
			 s->keys[best]->key);
		return;
	}
	size_t off = (size_t)snprintf(buf, len, "; the valid keys of [%s] are:", section);
	int any = 0;
	for (uint32_t i = 0; i < s->n && off < len; i++) {
		if (strcmp(s->keys[i]->section, section) != 0)
			continue;
		off += (size_t)snprintf(buf + off, len - off, " %s", s->keys[i]->key);
		any = 1;
	}
	if (!any) {
		/* unknown section: name the sections */
		off = (size_t)snprintf(buf, len, "; the sections are:");
		for (uint32_t i = 0; i < s->n && off < len; i++) {
			if (i > 0 && strcmp(s->keys[i]->section, s->keys[i - 1]->section) == 0)
				continue;
			off += (size_t)snprintf(buf + off, len - off, " [%s]", s->keys[i]->section);
		}
	}
}

/* Parses text as the value of key k into v. why gets the complaint. */
static int parse_value(const struct weft_config_key *k, const char *text,
		       struct weft_config_value *v, char *why, size_t wlen)
{
	char *end;
	v->key = k;
	if (strlen(text) >= sizeof(v->str)) {
		snprintf(why, wlen, "value is longer than %zu characters", sizeof(v->str) - 1);
		return -1;
	}
	snprintf(v->str, sizeof(v->str), "%s", text);
	v->num = 0;
	switch (k->type) {
	case WEFT_CFG_INT: {
		errno = 0;
		long long x = strtoll(text, &end, 10);
		while (*end == ' ' || *end == '\t')
			end++;
		if (text[0] == '\0' || *end != '\0' || errno) {
			snprintf(why, wlen, "'%s' is not an integer", text);
			return -1;
		}
		v->num = (double)x;
		break;
	}
	case WEFT_CFG_DOUBLE: {
		errno = 0;
		double x = strtod(text, &end);
		while (*end == ' ' || *end == '\t')
			end++;
		if (text[0] == '\0' || *end != '\0' || errno || !isfinite(x)) {
			snprintf(why, wlen, "'%s' is not a number", text);
			return -1;
		}
		v->num = x;
		break;
	}
	case WEFT_CFG_BOOL:
		if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") || !strcasecmp(text, "on") ||
		    !strcmp(text, "1"))
			v->num = 1;
		else if (!strcasecmp(text, "false") || !strcasecmp(text, "no") ||
			 !strcasecmp(text, "off") || !strcmp(text, "0"))
			v->num = 0;
		else {
			snprintf(why, wlen, "'%s' is not a boolean (true/false, yes/no, on/off, 1/0)",
				 text);
			return -1;
		}
		return 0;
	case WEFT_CFG_ENUM: {
		const char *c = k->choices ? k->choices : "";
		int idx = 0;
		while (*c) {
			size_t n = strcspn(c, "|");
			if (n == strlen(text) && strncmp(c, text, n) == 0) {
				v->num = idx;
				return 0;
			}
			c += n;
			if (*c == '|')
				c++;
			idx++;
		}
		/* suggestion among the choices */
		char best[64] = "";
		unsigned bestd = WEFT_EDIT_FAR;
		c = k->choices ? k->choices : "";
		while (*c) {
			size_t n = strcspn(c, "|");
			char cand[64];
			snprintf(cand, sizeof(cand), "%.*s", (int)n, c);
			unsigned d = weft_edit_distance(text, cand);
			if (d < bestd) {
				bestd = d;
				snprintf(best, sizeof(best), "%s", cand);
			}
			c += n;
			if (*c == '|')
				c++;
		}
		if (best[0] && weft_edit_close(text, best, bestd))
			snprintf(why, wlen, "'%s' is not one of %s; did you mean %s?", text, k->choices,
				 best);
		else
			snprintf(why, wlen, "'%s' is not one of %s", text, k->choices);
		return -1;
	}
	case WEFT_CFG_STRING:
		return 0;
	}
	if (k->min < k->max && (v->num < k->min || v->num > k->max)) {
		snprintf(why, wlen, "%s is out of range [%g, %g]%s%s", text, k->min, k->max,
			 k->unit && k->unit[0] ? " " : "", k->unit ? k->unit : "");
		return -1;
	}
	return 0;
}

static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	snprintf(out, len, "%.*s", (int)n, b);
}

static int load(const char *text, const char *path, const struct weft_config_key *model_keys,
		int use_registry, const char *const *overrides, uint32_t noverrides,
		struct weft_config *cfg, struct weft_error *err)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!path)
		path = "<config>";
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	base_name(path, cfg->name, sizeof(cfg->name));

	struct parse_state ps = { .path = path };
	struct weft_ini ini = { path, "config", on_key, NULL, &ps };
	int rc = weft_ini_parse(&ini, text ? text : "", text ? strlen(text) : 0, err);
	if (rc) {
		free(ps.v);
		return rc;
	}

	/* which model? */
	const struct entry *name = NULL;
	for (uint32_t i = 0; i < ps.n; i++)
		if (!strcmp(ps.v[i].section, "model") && !strcmp(ps.v[i].key, "name"))
			name = &ps.v[i];
	if (!name || !name->value[0]) {
		/* name points into ps.v: take its line before freeing it */
		uint32_t line = name ? name->line : 0;
		free(ps.v);
		return weft_error_at(err, WEFT_ERR_INPUT, path, line, 0,
				     "the config names no model: add a `[model]` section with "
				     "`name = simt` (or another model in models/registry.c)");
	}
	snprintf(cfg->model, sizeof(cfg->model), "%.31s", name->value);
	if (use_registry) {
		const struct weft_model *m = weft_model_find(name->value);
		if (!m) {
			char list[512] = "";
			size_t off = 0;
			for (const struct weft_model *const *mp = weft_models; *mp; mp++)
				off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
							"%s%s", off ? ", " : "", (*mp)->name);
			const char *best = weft_config_suggest_model(name->value);
			weft_error_at(err, WEFT_ERR_INPUT, path, name->line, 0,
				      "[model] name = %s is not a known model%s%s%s (models: %s)",
				      name->value, best ? "; did you mean " : "", best ? best : "",
				      best ? "?" : "", list);
			free(ps.v);
			return WEFT_ERR_INPUT;
		}
		model_keys = m->keys;
	}

	struct schema s = { .n = 0 };
	schema_add(&s, weft_config_common_keys);
	schema_add(&s, model_keys);
	cfg->values = calloc(s.n ? s.n : 1, sizeof(*cfg->values));
	if (!cfg->values) {
		free(ps.v);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory loading %s", path);
	}
	cfg->nvalues = s.n;
	char why[384], hint[512];
	for (uint32_t i = 0; i < s.n; i++) {
		if (parse_value(s.keys[i], s.keys[i]->def ? s.keys[i]->def : "", &cfg->values[i], why,
				sizeof(why)) < 0) {
			weft_error_set(err, WEFT_ERR_INTERNAL,
				       "schema bug: the default of [%s] %s: %s", s.keys[i]->section,
				       s.keys[i]->key, why);
			goto fail;
		}
	}
	for (uint32_t i = 0; i < ps.n; i++) {
		const struct entry *e = &ps.v[i];
		int k = schema_find(&s, e->section, e->key);
		if (k < 0) {
			suggest_key(&s, e->section, e->key, hint, sizeof(hint));
			if (!schema_has_section(&s, e->section))
				weft_error_at(err, WEFT_ERR_INPUT, path, e->line, 0,
					      "unknown key %s in unknown section [%s] (model %s)%s",
					      e->key, e->section, cfg->model, hint);
			else
				weft_error_at(err, WEFT_ERR_INPUT, path, e->line, 0,
					      "unknown key [%s] %s (model %s)%s", e->section, e->key,
					      cfg->model, hint);
			goto fail;
		}
		struct weft_config_value *v = &cfg->values[k];
		if (v->from == 1) {
			weft_error_at(err, WEFT_ERR_INPUT, path, e->line, 0,
				      "[%s] %s is set twice (first at line %u); keep one", e->section,
				      e->key, v->line);
			goto fail;
		}
		if (parse_value(s.keys[k], e->value, v, why, sizeof(why)) < 0) {
			weft_error_at(err, WEFT_ERR_INPUT, path, e->line, 0, "[%s] %s: %s (%s)",
				      e->section, e->key, why, s.keys[k]->doc ? s.keys[k]->doc : "");
			goto fail;
		}
		v->from = 1;
		v->line = e->line;
	}
	uint64_t h = weft_fnv1a(WEFT_FNV1A_INIT, text ? text : "", text ? strlen(text) : 0);
	size_t off = 0;
	for (uint32_t i = 0; i < noverrides; i++) {
		const char *o = overrides[i];
		const char *dot = strchr(o, '.'), *eq = strchr(o, '=');
		if (!dot || !eq || dot > eq || dot == o) {
			weft_error_set(err, WEFT_ERR_INPUT,
				       "--set %s: expected section.key=value, e.g. --set tech.node_nm=45",
				       o);
			goto fail;
		}
		char sec[64], key[64];
		snprintf(sec, sizeof(sec), "%.*s", (int)(dot - o), o);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
		int k = schema_find(&s, sec, key);
		if (k < 0) {
			suggest_key(&s, sec, key, hint, sizeof(hint));
			weft_error_set(err, WEFT_ERR_INPUT, "--set %s: unknown key [%s] %s for %s (model %s)%s",
				       o, sec, key, path, cfg->model, hint);
			goto fail;
		}
		if (!strcmp(sec, "model") && !strcmp(key, "name")) {
			weft_error_set(err, WEFT_ERR_INPUT,
				       "--set %s: the model cannot be overridden; use a config that names it",
				       o);
			goto fail;
		}
		if (parse_value(s.keys[k], eq + 1, &cfg->values[k], why, sizeof(why)) < 0) {
			weft_error_set(err, WEFT_ERR_INPUT, "--set %s: [%s] %s: %s", o, sec, key, why);
			goto fail;
		}
		cfg->values[k].from = 2;
		cfg->values[k].line = 0;
		h = weft_fnv1a(h, "\n", 1);
		h = weft_fnv1a(h, o, strlen(o));
		if (off < sizeof(cfg->overrides))
			off += (size_t)snprintf(cfg->overrides + off, sizeof(cfg->overrides) - off, "%s%s",
						off ? "," : "", o);
	}
	cfg->hash = h;
	free(ps.v);
	return 0;
fail:
	free(ps.v);
	weft_config_free(cfg);
	return err ? (int)err->code : WEFT_ERR_INPUT;
}

int weft_config_load_text(const char *text, const char *path, const char *const *overrides,
			  uint32_t noverrides, struct weft_config *cfg, struct weft_error *err)
{
	return load(text, path, NULL, 1, overrides, noverrides, cfg, err);
}

int weft_config_load_text_schema(const char *text, const char *path,
				 const struct weft_config_key *model_keys,
				 const char *const *overrides, uint32_t noverrides,
				 struct weft_config *cfg, struct weft_error *err)
{
	return load(text, path, model_keys, 0, overrides, noverrides, cfg, err);
}

int weft_config_load(const char *path, const char *const *overrides, uint32_t noverrides,
		     struct weft_config *cfg, struct weft_error *err)
{
	memset(cfg, 0, sizeof(*cfg));
	char *buf;
	size_t n;
	int st = weft_file_read(path, &buf, &n);
	if (st == WEFT_FILE_OPEN)
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "cannot open the config: %s; check the path (configs/ holds the "
				     "bundled ones)",
				     strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_at(err, WEFT_ERR_IO, path, 0, 0, "read error");
	if (memchr(buf, '\0', n)) {
		free(buf);
		return weft_error_at(err, WEFT_ERR_INPUT, path, 0, 0,
				     "the config contains a NUL byte: not a text INI file");
	}
	int rc = weft_config_load_text(buf, path, overrides, noverrides, cfg, err);
	free(buf);
	return rc;
}

void weft_config_free(struct weft_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->values);
	cfg->values = NULL;
	cfg->nvalues = 0;
}
