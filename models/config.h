/*
 * config.h - machine configurations: INI files validated against a schema.
 *
 * A config file names its model in `[model] name = simt`; the keys it may
 * use are the common keys (weft_config_common_keys: [model], [tech]) plus the
 * model's schema (struct weft_model.keys). Every key has a documented
 * default; a key that is not in the schema is an error naming file:line and
 * the closest valid key ("did you mean ...?"), never silently ignored.
 * Values are range-checked. `--set section.key=value` overrides are applied
 * after the file with the same checks. The config's hash (FNV-1a 64 over the
 * file text and the overrides) identifies it in reports.
 */
#ifndef WEFT_CONFIG_H
#define WEFT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum weft_cfg_type { WEFT_CFG_INT = 0, WEFT_CFG_DOUBLE, WEFT_CFG_BOOL, WEFT_CFG_STRING, WEFT_CFG_ENUM };

struct weft_config_key {
	const char *section;   /* NULL terminates a schema */
	const char *key;
	enum weft_cfg_type type;
	const char *def;       /* default, as it would be written in the file */
	const char *unit;      /* "", "KiB", "MHz", "cycles", "B", ... */
	double min, max;       /* inclusive range for INT/DOUBLE */
	const char *choices;   /* ENUM: "a|b|c" */
	const char *doc;       /* one line; cite the source of the default */
};

/* [model] name, [tech] node_nm / energy basis / tables: shared by all models. */
extern const struct weft_config_key weft_config_common_keys[];

struct weft_config_value {
	const struct weft_config_key *key;
	double num;            /* INT/DOUBLE/BOOL (0/1) */
	char str[128];         /* STRING/ENUM, and the text as written */
	int from;              /* 0 default, 1 file, 2 --set */
	uint32_t line;         /* file line when from == 1 */
};

struct weft_config {
	char path[256];
	char name[64];         /* file name without directory and .ini */
	char model[32];        /* [model] name */
	uint64_t hash;
	struct weft_config_value *values; /* one per schema key (common + model) */
	uint32_t nvalues;
	char overrides[1024];  /* "sec.key=v,sec.key=v" as applied */
	int explain;           /* not a key: a caller that wants each launch explained sets
				  it after loading (weft-estimate --explain); models that can
				  fill weft_launch_result.explain */
	int alone;             /* not a key: set by a caller that runs this configuration
				  alone in its process (no later run can reuse its work:
				  weft-estimate with one point); a model then keeps nothing
				  only later runs would read (the fabric's replay cache) */
};

/* Loads path, validates it against the common keys plus the schema of the
 * model it names (looked up through models/model.h's registry), applies
 * overrides ("section.key=value", n of them). */
int weft_config_load(const char *path, const char *const *overrides, uint32_t noverrides,
		     struct weft_config *cfg, struct weft_error *err);
/* Same from text (tests; path is used in messages). */
int weft_config_load_text(const char *text, const char *path, const char *const *overrides,
			  uint32_t noverrides, struct weft_config *cfg, struct weft_error *err);
/* As weft_config_load_text, validating against the common keys plus the
 * given model schema instead of the registry's (tests, tools); the text must
 * still name a model in [model] name. */
int weft_config_load_text_schema(const char *text, const char *path,
				 const struct weft_config_key *model_keys,
				 const char *const *overrides, uint32_t noverrides,
				 struct weft_config *cfg, struct weft_error *err);
void weft_config_free(struct weft_config *cfg);
/* The registered model (models/registry.c) whose name is close enough to
 * `name` to be a typo of it, by the rule every "did you mean" of this file
 * uses (edit distance within a third of the length, at least 2, or a common
 * prefix of 3 or more); NULL when none is. */
const char *weft_config_suggest_model(const char *name);
/* The value of a key, NULL when the key is not in the config's schema. */
const struct weft_config_value *weft_config_find(const struct weft_config *cfg,
						 const char *section, const char *key);

/* Getters for keys that are in the schema (asking for a key that is not is
 * a bug: they return 0 / "" and the tests catch it). */
double weft_config_num(const struct weft_config *cfg, const char *section, const char *key);
int64_t weft_config_int(const struct weft_config *cfg, const char *section, const char *key);
const char *weft_config_str(const struct weft_config *cfg, const char *section, const char *key);

/* The weft data directory, the first of: $WEFT_DATA when set (an error if it
 * is not a directory); <executable dir>/../share/weft/data (an installed
 * tool, `make install`); <executable dir>/../data (bin/ in a source
 * checkout); "data" (the source tree, for tests run from it). The executable
 * is /proc/self/exe. Not found: WEFT_ERR_INPUT naming every path tried. */
int weft_data_dir(char *out, size_t len, struct weft_error *err);

/* What a `-c` argument names (config_find.c): an existing file or any
 * argument with a '/' as it is; a bare name (`fermi-sm`,
 * `vt-c4v1r256+bi+2s`, with or without .ini) as the bundled config of that
 * name in configs/ or one of its subfolders. Writes the path to out; an
 * unknown or ambiguous name is WEFT_ERR_INPUT with the closest bundled
 * names. */
int weft_config_resolve(const char *arg, char *out, size_t len, struct weft_error *err);

/* A bundled config: its name (the file name without .ini) and path. */
struct weft_config_bundled {
	char name[128];
	char path[1200];
};
/* Every bundled config (the .ini files of configs/ and its subfolders), sorted by
 * path, in a malloc'ed array the caller frees; dir (may be NULL) gets the
 * configs folder. */
int weft_configs_bundled(struct weft_config_bundled **out, uint32_t *n, char *dir, size_t dirlen,
			     struct weft_error *err);
/* Resolves a path-valued key (e.g. [tech] energy_table): absolute as is;
 * "./x" or "../x" relative to the config file's directory; otherwise relative
 * to the data directory. Does not check that the file exists. */
int weft_config_path(const struct weft_config *cfg, const char *section, const char *key,
		     char *out, size_t len, struct weft_error *err);
/* The same rule for a path not taken from a key (e.g. a default built from
 * another key's value). */
int weft_config_resolve_path(const struct weft_config *cfg, const char *value, char *out,
			     size_t len, struct weft_error *err);

#endif
