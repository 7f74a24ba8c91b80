/*
 * recipe.h - a weft-study recipe (docs/weft-study.md): an INI file that
 * names a study's workloads, its runs (configs, baseline, sweeps,
 * overrides), and the figures and tables to draw from them.
 *
 *     struct weft_recipe *r;  struct weft_study_plan *p;
 *     weft_recipe_parse(text, len, "sgmf.ini", &r, &err);   checks every key
 *     weft_recipe_plan(r, WEFT_SIZE_SMALL, 1, &p, &err);      what to run at a size
 *     ...; weft_recipe_plan_free(p); weft_recipe_free(r);
 *
 * The text is hostile input (a colleague's file): it goes through
 * common/ini.h's rules (line length, NUL bytes, syntax errors by line),
 * every count is capped below (an error past a cap, never a truncation),
 * every key is checked against its section's table, unknown keys and
 * sections are errors naming the file and line with a "did you mean".
 * Any key may be written KEY.SIZE (small, default, large): at that size
 * its values replace KEY's.
 */
#ifndef WEFT_RECIPE_H
#define WEFT_RECIPE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "plot/plot.h"
#include "trace/launch/workload.h"

#define WEFT_RECIPE_MAX_BYTES (1u << 20) /* a recipe file */
#define WEFT_RECIPE_MAX_SECTIONS 64u
#define WEFT_RECIPE_MAX_ENTRIES 4096u    /* values (list items count one each) */
#define WEFT_RECIPE_MAX_ITEMS 64u        /* values of one key at one size */
#define WEFT_RECIPE_MAX_RUNS 16u
#define WEFT_RECIPE_MAX_FIGURES 32u
#define WEFT_RECIPE_MAX_TABLES 16u
#define WEFT_RECIPE_NAME_MAX 48          /* a section's NAME, NUL included */

enum weft_recipe_kind { WEFT_RECIPE_STUDY = 0, WEFT_RECIPE_RUN, WEFT_RECIPE_FIGURE, WEFT_RECIPE_TABLE };

struct weft_recipe_entry {
	uint32_t sect;   /* index into sects */
	uint32_t line;
	uint16_t key;    /* index into the section kind's key table */
	int8_t size;     /* -1: any size, else an enum weft_size */
	char *value;     /* one item of a list, or the whole value */
};

struct weft_recipe_sect {
	enum weft_recipe_kind kind;
	char name[WEFT_RECIPE_NAME_MAX]; /* "" for [study] */
	uint32_t line;
};

struct weft_recipe {
	char path[256];
	struct weft_recipe_sect sects[WEFT_RECIPE_MAX_SECTIONS];
	uint32_t nsects;
	struct weft_recipe_entry *entries;
	uint32_t nentries, cap;
};

/* Values of one key at the plan's size: pointers into the recipe. */
struct weft_study_list {
	const char *v[WEFT_RECIPE_MAX_ITEMS];
	uint32_t n;
};

struct weft_study_run {
	const char *name;
	struct weft_study_list configs, sweeps, sets, workloads; /* workloads: the study's unless given */
	const char *baseline;    /* NULL: the first config */
};

struct weft_study_figure {
	const char *name;
	uint32_t run;            /* index into runs */
	struct weft_plot_opts o; /* output left NULL: the study sets it */
	const char *format;      /* png (default), svg, pdf */
	struct weft_study_list workloads; /* the run's unless given */
	const char *configs;     /* o.configs as written */
};

struct weft_study_table {
	const char *name;
	uint32_t run;
	const char *columns;     /* NULL: weft-estimate's default columns */
	int digits;              /* 0: 3 */
	struct weft_study_list workloads;
};

struct weft_study_plan {
	const char *title;
	enum weft_size size;
	struct weft_study_list workloads, about, not_modelled;
	struct weft_study_run runs[WEFT_RECIPE_MAX_RUNS];
	uint32_t nruns;
	struct weft_study_figure figures[WEFT_RECIPE_MAX_FIGURES];
	uint32_t nfigures;
	struct weft_study_table tables[WEFT_RECIPE_MAX_TABLES];
	uint32_t ntables;
};

/* Parses and checks len bytes of recipe text (path names it in messages).
 * *out is malloc'd (weft_recipe_free); on failure it is NULL and err says
 * what and where. */
int weft_recipe_parse(const char *text, size_t len, const char *path, struct weft_recipe **out,
		      struct weft_error *err);
/* Reads the file (at most WEFT_RECIPE_MAX_BYTES) and parses it. */
int weft_recipe_load(const char *path, struct weft_recipe **out, struct weft_error *err);
void weft_recipe_free(struct weft_recipe *r);

/* What the recipe asks at a size: size_given 0 takes the recipe's
 * [study] size (default: small). Checks what needs the whole file: every
 * run named by a figure or table exists, lists are not empty, a figure's
 * or table's workloads are among its run's, and the bundled workloads
 * exist. *out malloc'd; weft_recipe_plan_free. */
int weft_recipe_plan(const struct weft_recipe *r, enum weft_size size, int size_given,
		     struct weft_study_plan **out, struct weft_error *err);
void weft_recipe_plan_free(struct weft_study_plan *p);

/* recipe_find.c: the bundled recipes' folder (recipes/ beside weft's
 * data directory), and what a RECIPE argument names: an existing file or
 * any argument with a '/' as it is, else the bundled recipe of that name
 * (with or without .ini); an unknown name is an input error listing them. */
int weft_recipe_dir(char *out, size_t len, struct weft_error *err);
int weft_recipe_resolve(const char *arg, char *out, size_t len, struct weft_error *err);

/* The keys a section kind takes (NULL-terminated), for docs and tests. */
const char *const *weft_recipe_keys(enum weft_recipe_kind kind);

#endif
