/*
 * fuzz_recipe.c - libFuzzer target: weft-study recipes (study/recipe.h),
 * as weft-study reads them.
 *
 * The input is a recipe's text. The harness parses it
 * (weft_recipe_parse), and when it parses, plans it at every size, both
 * at the size asked and at the recipe's own (weft_recipe_plan), and reads
 * every string of every plan back (each must be NUL-terminated within the
 * recipe's storage, which ASan checks). No file is read, nothing is
 * traced or estimated: the plan is what weft-study would run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study/recipe.h"

static size_t sink;

static void use(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void use_list(const struct weft_study_list *l)
{
	if (l->n > WEFT_RECIPE_MAX_ITEMS)
		abort();
	for (uint32_t i = 0; i < l->n; i++)
		use(l->v[i]);
}

static void use_plan(const struct weft_study_plan *p)
{
	use(p->title);
	use_list(&p->workloads);
	use_list(&p->about);
	use_list(&p->not_modelled);
	if (p->nruns > WEFT_RECIPE_MAX_RUNS || p->nfigures > WEFT_RECIPE_MAX_FIGURES ||
	    p->ntables > WEFT_RECIPE_MAX_TABLES)
		abort();
	for (uint32_t i = 0; i < p->nruns; i++) {
		use(p->runs[i].name);
		use(p->runs[i].baseline);
		use_list(&p->runs[i].configs);
		use_list(&p->runs[i].sweeps);
		use_list(&p->runs[i].sets);
		use_list(&p->runs[i].workloads);
		if (p->runs[i].workloads.n == 0 || p->runs[i].configs.n == 0)
			abort(); /* the plan refuses these */
	}
	for (uint32_t i = 0; i < p->nfigures; i++) {
		const struct weft_study_figure *f = &p->figures[i];
		if (f->run >= p->nruns || (int)f->o.kind < 0 || f->o.kind >= WEFT_PLOT_NKINDS)
			abort();
		use(f->name);
		use(f->format);
		use(f->o.metric);
		use(f->o.xmetric);
		use(f->o.ymetric);
		use(f->o.key);
		use(f->o.of);
		use(f->o.busy);
		use(f->o.title);
		use(f->o.configs);
		use_list(&f->workloads);
	}
	for (uint32_t i = 0; i < p->ntables; i++) {
		if (p->tables[i].run >= p->nruns || p->tables[i].digits < 0 || p->tables[i].digits > 15)
			abort();
		use(p->tables[i].name);
		use(p->tables[i].columns);
		use_list(&p->tables[i].workloads);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct weft_recipe *r;
	struct weft_error err;
	if (weft_recipe_parse((const char *)data, size, "fuzz.ini", &r, &err) != 0)
		return 0;
	for (int s = WEFT_SIZE_SMALL; s <= WEFT_SIZE_LARGE + 1; s++) {
		struct weft_study_plan *p;
		int given = s <= WEFT_SIZE_LARGE;
		if (weft_recipe_plan(r, given ? (enum weft_size)s : WEFT_SIZE_SMALL, given, &p, &err) == 0) {
			use_plan(p);
			weft_recipe_plan_free(p);
		}
	}
	weft_recipe_free(r);
	return 0;
}
