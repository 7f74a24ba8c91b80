/*
 * registry.c - the table of timing models. To add a model, declare its
 * `const struct weft_model weft_model_NAME` here and add it to the table
 * (the steps are in model.h's top comment).
 */
#include <string.h>

#include "model.h"

extern const struct weft_model weft_model_simt;
extern const struct weft_model weft_model_sgmf;
extern const struct weft_model weft_model_dmt;
extern const struct weft_model weft_model_vt;
extern const struct weft_model weft_model_overlay;

const struct weft_model *const weft_models[] = {
	&weft_model_simt,
	&weft_model_sgmf,
	&weft_model_dmt,
	&weft_model_vt,
	&weft_model_overlay,
	NULL,
};

const struct weft_model *weft_model_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct weft_model *const *m = weft_models; *m; m++)
		if (!strcmp((*m)->name, name))
			return *m;
	return NULL;
}
