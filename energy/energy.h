/*
 * energy.h - activity events -> joules, static power, technology scaling.
 *
 * Energy of a run = sum over events of count x energy per event (from the
 * energy table the config names, scaled to the config's node) + static power
 * x time, where static power = static power density (W/mm^2, from the static
 * table) x the area of each component (area/). Tables are CSV under data/
 * (data/energy/NAME.csv); every row cites its source.
 *
 * Energy table columns: event,node_nm,energy_pj,unit,source
 *   node_nm 0 (or empty) = node-independent (off-chip DRAM interface energy).
 * Static table columns: component,node_nm,static_w_per_unit,static_w_per_mm2,source
 *   one of the two power columns filled per row; component "default" (per
 *   mm^2) applies to every component without its own row.
 *
 * Scaling (weft_scaling_factors): a row published at node A is used at node B
 * by multiplying with the rule's energy factor; the rule is named in every
 * report. See docs/energy.md for the two rules and their sources.
 *
 * Usage (estimate/): weft_energy_ctx_init(&ctx, cfg) once per config, then
 * weft_energy_eval() per launch and for the total, weft_energy_ctx_free().
 * The library never prints; CLIs format struct weft_energy_report.
 */
#ifndef WEFT_ENERGY_H
#define WEFT_ENERGY_H

#include <stdint.h>

#include "area/area.h"
#include "area/scaling.h"
#include "models/model.h"

/* ---- energy tables ----------------------------------------------------- */

struct weft_energy_row {
	char event[48];
	double node_nm;     /* node the figure is for; 0 = node-independent */
	double energy_pj;   /* per event at node_nm */
	char unit[64];      /* what one event is */
	char source[1024];  /* the whole cited source (derivations can be long) */
	uint32_t line;      /* CSV line, for messages */
};

struct weft_energy_table {
	char path[256];
	struct weft_energy_row *rows;
	uint32_t nrows;
};

int weft_energy_table_load(const char *path, struct weft_energy_table *t, struct weft_error *err);
void weft_energy_table_free(struct weft_energy_table *t);
/* NULL when the table has no row for event. */
const struct weft_energy_row *weft_energy_table_find(const struct weft_energy_table *t,
						     const char *event);

/* Energy of one event at node_nm in joules; how (may be NULL) says whether and
 * how it was scaled. A missing row is an error naming the event, the table
 * file and the node. */
int weft_energy_event_at(const struct weft_energy_table *t, const char *event, double node_nm,
			 enum weft_scaling_rule rule, double vdd_v, double *joules,
			 struct weft_scaling *how, struct weft_error *err);

struct weft_static_row {
	char component[48];
	double node_nm;
	double w_per_unit;  /* NAN when the row is per mm^2 */
	double w_per_mm2;   /* NAN when the row is per unit */
	char source[1024];  /* the whole cited source (derivations can be long) */
	uint32_t line;
};
struct weft_static_table {
	char path[256];
	struct weft_static_row *rows;
	uint32_t nrows;
};
int weft_static_table_load(const char *path, struct weft_static_table *t, struct weft_error *err);
void weft_static_table_free(struct weft_static_table *t);
/* Static power of `count` units of a component of area_mm2 (total, at
 * node_nm) in watts: its own row (per unit or per mm^2) or the "default"
 * row. Assumption (docs/energy.md): static power per device scales with the
 * rule's energy factor, so a per-unit row scales by it and a per-mm^2 row by
 * energy / area. */
int weft_static_power_at(const struct weft_static_table *t, const char *component, double count,
			 double area_mm2, double node_nm, enum weft_scaling_rule rule, double vdd_v,
			 double *watts, struct weft_scaling *how, struct weft_error *err);

/* ---- events -> joules -------------------------------------------------- */

#define WEFT_ENERGY_MAX_LINES 128

struct weft_energy_line {
	char event[48];
	enum weft_energy_cat cat;
	double count;
	double pj_per_event;   /* at the report's node */
	double joules;
	double from_node_nm;   /* the table row's node */
	int scaled;            /* row scaled from another node */
};

struct weft_energy_report {
	double node_nm;
	enum weft_scaling_rule rule;
	char basis[32];
	char energy_table[256];
	char static_table[256];
	double cat_j[WEFT_CAT_COUNT];  /* WEFT_CAT_STATIC holds static energy */
	double dynamic_j, static_j, total_j;
	double static_w;               /* static power of the configuration */
	double area_mm2;               /* area used for static power */
	double seconds;
	double avg_power_w;            /* total_j / seconds (0 when seconds is 0) */
	struct weft_energy_line lines[WEFT_ENERGY_MAX_LINES];
	uint32_t nlines;
	uint32_t nscaled;              /* lines whose row came from another node */
	char scaling_note[224];        /* "" when nothing was scaled */
};

/* Everything a config needs to turn events into joules: its energy, static
 * and area tables (paths resolved with weft_config_path), node and rule. */
struct weft_energy_ctx {
	double node_nm;
	enum weft_scaling_rule rule;
	double vdd_v;
	char basis[32];
	struct weft_energy_table events;
	struct weft_static_table statics;
	struct weft_area_table area;
};

int weft_energy_ctx_init(struct weft_energy_ctx *c, const struct weft_config *cfg,
			 struct weft_error *err);
void weft_energy_ctx_free(struct weft_energy_ctx *c);

/* counts[i] is the count of defs[i]; seconds is the run (or launch) time;
 * comps are the configuration's components (for static power). Every event
 * with a non-zero count must have a table row (error otherwise); events with
 * zero count and no row are skipped. */
int weft_energy_eval(const struct weft_energy_ctx *c, const struct weft_event_def *defs,
		     uint32_t nevents, const double *counts, double seconds,
		     const struct weft_component *comps, uint32_t ncomps,
		     struct weft_energy_report *out, struct weft_error *err);

/* Convenience: ctx init + eval of r's totals + free. */
int weft_energy_of_result(const struct weft_config *cfg, const struct weft_model_result *r,
			  struct weft_energy_report *out, struct weft_error *err);

#endif
