/*
 * fuzz_config.c - libFuzzer target: machine configurations (models/config.h),
 * as weft-estimate, weft-config and weft-area load them.
 *
 * The input is a config file's text, optionally followed by a line `%%`
 * and up to 8 `--set` overrides, one per line ("section.key=value"). The
 * harness loads the text against the registry's schemas
 * (weft_config_load_text), reads every value back through the getters
 * and, when the config loads, initialises the model it names from it, asks
 * for its hardware components (as weft-area does) and frees it again. No
 * file is read: the data tables are not part of a config's loading.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config.h"
#include "models/model.h"

#define MAX_OVERRIDES 8

static int verbose = -1; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose < 0)
		verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "fuzz_config: %s: %s\n", step, rc ? err->message : "ok");
}

static void use_config(const struct weft_config *cfg)
{
	for (uint32_t i = 0; i < cfg->nvalues; i++) {
		const struct weft_config_key *k = cfg->values[i].key;
		const struct weft_config_value *v = weft_config_find(cfg, k->section, k->key);
		if (!v)
			abort(); /* every schema key must be found */
		if (k->type == WEFT_CFG_STRING || k->type == WEFT_CFG_ENUM)
			(void)strlen(weft_config_str(cfg, k->section, k->key));
		else
			(void)weft_config_num(cfg, k->section, k->key);
		if (k->type == WEFT_CFG_INT)
			(void)weft_config_int(cfg, k->section, k->key);
		if (k->type == WEFT_CFG_STRING && v->str[0]) {
			/* table paths resolve against the config or the data directory */
			char path[4096];
			struct weft_error err;
			(void)weft_config_resolve_path(cfg, v->str, path, sizeof(path), &err);
		}
	}
	const struct weft_model *m = weft_model_find(cfg->model);
	if (!m)
		abort(); /* the loader checked the name */
	void *state = NULL;
	struct weft_error err;
	int rc = m->init(cfg, &state, &err);
	say("init", rc, &err);
	if (rc == 0) {
		if (m->components) {
			struct weft_component comp[WEFT_MAX_COMPONENTS];
			uint32_t n = 0;
			if (m->components(state, comp, WEFT_MAX_COMPONENTS, &n, &err) == 0 &&
			    n > WEFT_MAX_COMPONENTS)
				abort();
		}
		m->free(state);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the overrides: the lines after a line `%%` */
	const char *ovr[MAX_OVERRIDES];
	uint32_t novr = 0;
	char *sep = strstr(text, "\n%%\n");
	if (sep) {
		*sep = '\0';
		char *line = sep + 4;
		while (*line && novr < MAX_OVERRIDES) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			ovr[novr++] = line;
			if (!nl)
				break;
			line = nl + 1;
		}
	}
	struct weft_config cfg;
	struct weft_error err;
	int rc = weft_config_load_text(text, "fuzz.ini", ovr, novr, &cfg, &err);
	say("load", rc, &err);
	if (rc == 0) {
		use_config(&cfg);
		weft_config_free(&cfg);
	}
	free(text);
	return 0;
}
