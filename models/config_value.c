/*
 * config_value.c - reading a loaded configuration's values (config.h):
 * weft_config_find and the typed getters every model and the memory system
 * call. Loading and validating a config is config.c, which asks the model
 * registry (registry.c) for the model's schema; the registered models read
 * their keys here, so this file sits below config.c, registry.c and the
 * models and calls none of them.
 */
#include <math.h>
#include <string.h>

#include "config.h"

const struct weft_config_value *weft_config_find(const struct weft_config *cfg,
						 const char *section, const char *key)
{
	if (!cfg || !section || !key)
		return NULL;
	for (uint32_t i = 0; i < cfg->nvalues; i++) {
		const struct weft_config_key *k = cfg->values[i].key;
		if (k && !strcmp(k->section, section) && !strcmp(k->key, key))
			return &cfg->values[i];
	}
	return NULL;
}

double weft_config_num(const struct weft_config *cfg, const char *section, const char *key)
{
	const struct weft_config_value *v = weft_config_find(cfg, section, key);
	return v ? v->num : 0;
}

int64_t weft_config_int(const struct weft_config *cfg, const char *section, const char *key)
{
	const struct weft_config_value *v = weft_config_find(cfg, section, key);
	return v ? (int64_t)llround(v->num) : 0;
}

const char *weft_config_str(const struct weft_config *cfg, const char *section, const char *key)
{
	const struct weft_config_value *v = weft_config_find(cfg, section, key);
	return v ? v->str : "";
}
