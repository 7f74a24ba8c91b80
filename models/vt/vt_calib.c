/*
 * vt_calib.c - a Maven tile's area and cycle time from the calibration
 * fits over the synthesised tiles (Lee et al., ACM TOCS 2013, Table I:
 * data/calibration/maven_tiles_65nm.csv; docs/calibration.md).
 *
 * At init the model fits [calib] area_model (and, when tile.clock_mhz is
 * 0, cycle_model) to [calib] data with area/'s weft_area_fit_run, and
 * describes the tile as one row of the data's columns (pattern, cores,
 * lanes_per_core, phys_regs_per_core_or_lane, banked, per_bank_int_alus,
 * density_time, pvfb, mem_coalescer; config = the tile's name):
 *
 *  - area: one component per fitted term whose feature is not 0 for the
 *    tile, count = the feature, priced at the term's coefficient (65 nm;
 *    area/ scales it to tech.node_nm), so the tile's area is the fit's
 *    value: a Table I tile gets its fitted area (observed + residual), any
 *    other tile the model's prediction. The +mc coalescer, which no
 *    synthesised tile has, is added as its maven_coalescer_cmp comparators
 *    from the area table (assumption, docs/models/vt.md).
 *  - cycle time (tile.clock_mhz = 0): with [calib] cycle_time = table, the
 *    data's cycle time when the tile is one of its points (matched by
 *    name; a +mc tile by its name without +mc, the coalescer assumed off
 *    the critical path), else the fit's prediction; with cycle_time = fit, always the
 *    prediction. At 65 nm, scaled to tech.node_nm by the rule's delay
 *    factor.
 *
 * Nothing here prints; errors name the config key and the file:line.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vt.h"
#include "area/area.h"
#include "area/scaling.h"

/* The node Table I was synthesised in (TOCS 2013: TSMC 65 nm GPLUSTC). */
#define VT_CALIB_NODE_NM 65.0

int weft_vt_tile_name(const struct vt_params *pp, char *out, size_t len)
{
	static const char *const pat[] = { "mimd", "vsimd", "vt" };
	int w;
	if (pp->pattern == VT_PAT_MIMD)
		w = snprintf(out, len, "mimd-c%ur%u", pp->cores, pp->regs);
	else
		w = snprintf(out, len, "%s-c%uv%ur%u%s%s%s%s", pat[pp->pattern], pp->cores, pp->lanes,
			     pp->regs, pp->banked ? (pp->bank_alus ? "+bi" : "+b") : "",
			     pp->pattern != VT_PAT_VT ? ""
			     : pp->pvfb == WEFT_DIV_PVFB_1STACK ? "+1s"
			     : pp->pvfb == WEFT_DIV_PVFB_2STACK ? "+2s" : "",
			     pp->density ? "+d" : "", pp->coalescer ? "+mc" : "");
	return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* The tile as one row of the calibration data's columns. */
#define VT_CALIB_COLS 10
struct tile_row {
	const char *hdr[VT_CALIB_COLS];
	const char *fld[VT_CALIB_COLS];
	char num[8][16];
	char name[64];
};

static void tile_row(const struct vt_params *pp, struct tile_row *t)
{
	static const char *const hdr[VT_CALIB_COLS] = {
		"config", "pattern", "cores", "lanes_per_core", "phys_regs_per_core_or_lane",
		"banked", "per_bank_int_alus", "density_time", "pvfb", "mem_coalescer"
	};
	static const char *const pat[] = { "mimd", "vsimd", "vt" };
	int vec = pp->pattern != VT_PAT_MIMD;
	memcpy(t->hdr, hdr, sizeof(hdr));
	if (weft_vt_tile_name(pp, t->name, sizeof(t->name)))
		t->name[0] = 0;
	snprintf(t->num[0], sizeof(t->num[0]), "%u", pp->cores);
	snprintf(t->num[1], sizeof(t->num[1]), "%u", vec ? pp->lanes : 0);
	snprintf(t->num[2], sizeof(t->num[2]), "%u", pp->regs);
	snprintf(t->num[3], sizeof(t->num[3]), "%d", vec && pp->banked);
	snprintf(t->num[4], sizeof(t->num[4]), "%d", vec && pp->bank_alus);
	snprintf(t->num[5], sizeof(t->num[5]), "%d", pp->density);
	snprintf(t->num[6], sizeof(t->num[6]), "%d", pp->coalescer);
	t->fld[0] = t->name;
	t->fld[1] = pat[pp->pattern];
	t->fld[2] = t->num[0];
	t->fld[3] = t->num[1];
	t->fld[4] = t->num[2];
	t->fld[5] = t->num[3];
	t->fld[6] = t->num[4];
	t->fld[7] = t->num[5];
	t->fld[8] = pp->pattern != VT_PAT_VT ? ""
		    : pp->pvfb == WEFT_DIV_PVFB_1STACK ? "1-stack"
		    : pp->pvfb == WEFT_DIV_PVFB_2STACK ? "2-stack" : "fifo";
	t->fld[9] = t->num[6];
}

/* Prefixes an error with the [calib] key that named the file. */
static void blame(const struct weft_config *cfg, const char *key, struct weft_error *err)
{
	const struct weft_config_value *v = weft_config_find(cfg, "calib", key);
	if (!err || !v)
		return;
	if (v->from == 1)
		weft_error_prefix(err, "%s:%u: [calib] %s: ", cfg->path, v->line, key);
	else if (v->from == 2)
		weft_error_prefix(err, "--set calib.%s: ", key);
	else
		weft_error_prefix(err, "%s: [calib] %s (default %s): ", cfg->path, key, v->str);
}

/* Fits the model named by [calib] key to [calib] data into r. */
static int run_fit(const struct weft_config *cfg, const char *key, struct weft_calib_report *r,
		   struct weft_error *err)
{
	char data[PATH_MAX], model[PATH_MAX];
	memset(r, 0, sizeof(*r));
	int rc = weft_config_path(cfg, "calib", "data", data, sizeof(data), err);
	if (rc < 0) {
		blame(cfg, "data", err);
		return rc;
	}
	rc = weft_config_path(cfg, "calib", key, model, sizeof(model), err);
	if (rc < 0) {
		blame(cfg, key, err);
		return rc;
	}
	rc = weft_area_fit_run(data, model, r, err);
	if (rc < 0) /* the file it names is the data or the model */
		blame(cfg, err && !strcmp(err->file, data) ? "data" : key, err);
	return rc;
}

/* "mm^2 per lane" -> "lane" */
static const char *per_what(const char *unit)
{
	const char *p = strstr(unit, " per ");
	return p ? p + 5 : unit;
}

static int calib_area(const struct weft_config *cfg, const struct vt_params *pp,
		      const struct tile_row *row, struct vt_calib *c, struct weft_error *err)
{
	struct weft_calib_report r;
	int rc = run_fit(cfg, "area_model", &r, err);
	double feat[WEFT_CALIB_MAX_TERMS];
	if (rc == 0) {
		rc = weft_area_fit_features(&r, row->hdr, row->fld, VT_CALIB_COLS, feat, err);
		if (rc < 0)
			blame(cfg, "area_model", err);
	}
	if (rc < 0) {
		weft_area_fit_free(&r);
		return rc;
	}
	const char *mv = weft_config_str(cfg, "calib", "area_model");
	const char *dv = weft_config_str(cfg, "calib", "data");
	c->area_fit = 1;
	c->area_r2 = r.r2;
	c->area_loo_mape = r.loo_mape_pct;
	c->area_mm2 = 0;
	c->ncomp = 0;
	for (uint32_t j = 0; j < r.nterms && c->ncomp < VT_CALIB_MAX_COMP - 1; j++) {
		const struct weft_calib_term *t = &r.terms[j];
		c->area_mm2 += t->coef * feat[j];
		if (feat[j] == 0)
			continue;
		struct weft_component *k = &c->comp[c->ncomp++];
		weft_component_set(k, "", feat[j], "%s", strcmp(t->feature, "1") ? t->feature : "1 per tile");
		snprintf(k->name, sizeof(k->name), "maven_fit_%.*s", (int)sizeof(k->name) - 11, t->name);
		k->priced_nm = VT_CALIB_NODE_NM;
		k->mm2_per_unit = t->coef;
		snprintf(k->unit, sizeof(k->unit), "%s", per_what(t->unit));
		char se[32] = "fixed";
		if (!t->fixed)
			snprintf(se, sizeof(se), "+- %.3g", t->std_err);
		snprintf(k->source, sizeof(k->source),
			 "fit: %s [term %s] over %s (%u points, TOCS 2013 Table I, %g nm): %.6g %s %s; "
			 "R^2 %.4f, leave-one-out MAPE %.2f%% (docs/calibration.md)",
			 mv, t->name, dv, r.npts, VT_CALIB_NODE_NM, t->coef, se, t->unit, r.r2,
			 r.loo_mape_pct);
	}
	weft_area_fit_free(&r);
	if (pp->coalescer) {
		/* not in Table I: its comparators from the area table, added to the fit */
		weft_component_set(&c->comp[c->ncomp++], "maven_coalescer_cmp",
				   (double)pp->lanes * (pp->lanes - 1) / 2,
				   "+mc, not in Table I: lanes x (lanes - 1) / 2 comparators, added");
	}
	return 0;
}

static int calib_cycle(const struct weft_config *cfg, const struct vt_params *pp,
		       const struct tile_row *row, struct vt_calib *c, struct weft_error *err)
{
	/* Table I's point: the tile without +mc (assumption: the coalescer is
	 * off the critical path, so it keeps the cycle time it has without) */
	struct vt_params q = *pp;
	q.coalescer = 0;
	char name[64];
	if (weft_vt_tile_name(&q, name, sizeof(name)))
		name[0] = 0;
	struct weft_calib_report r;
	int rc = run_fit(cfg, "cycle_model", &r, err);
	double ns = 0;
	if (rc == 0) {
		rc = weft_area_fit_predict(&r, row->hdr, row->fld, VT_CALIB_COLS, &ns, err);
		if (rc < 0)
			blame(cfg, "cycle_model", err);
	}
	if (rc < 0) {
		weft_area_fit_free(&r);
		return rc;
	}
	c->cycle_fit_ns = ns;
	c->cycle_loo_mape = r.loo_mape_pct;
	c->cycle_ns_65 = ns;
	c->cycle_from = VT_CYCLE_FIT;
	if (!strcmp(weft_config_str(cfg, "calib", "cycle_time"), "table"))
		for (uint32_t i = 0; i < r.npts; i++)
			if (name[0] && !strcmp(r.pts[i].label, name)) {
				c->cycle_ns_65 = r.pts[i].observed;
				c->cycle_from = VT_CYCLE_TABLE;
				break;
			}
	weft_area_fit_free(&r);
	if (!(c->cycle_ns_65 > 0))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: the calibration gives tile %s a cycle time of %g ns; set "
				      "tile.clock_mhz", cfg->path, row->name, c->cycle_ns_65);
	return 0;
}

int weft_vt_calib_init(const struct weft_config *cfg, struct vt_params *pp, struct vt_calib *c,
		       struct weft_error *err)
{
	memset(c, 0, sizeof(*c));
	struct tile_row row;
	tile_row(pp, &row);
	int rc;
	if (weft_config_str(cfg, "calib", "area_model")[0] &&
	    (rc = calib_area(cfg, pp, &row, c, err)) < 0)
		return rc;
	c->cycle_from = VT_CYCLE_CONFIG;
	if (pp->clock_hz > 0) {
		c->cycle_ns = 1e9 / pp->clock_hz;
		return 0;
	}
	if (!weft_config_str(cfg, "calib", "cycle_model")[0])
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: tile.clock_mhz = 0 asks for the cycle time from the calibration "
				      "fit, but [calib] cycle_model is empty", cfg->path);
	if ((rc = calib_cycle(cfg, pp, &row, c, err)) < 0)
		return rc;
	struct weft_scaling sc;
	int rule = weft_scaling_rule_parse(weft_config_str(cfg, "tech", "scaling_rule"));
	rc = weft_scaling_factors_v(rule < 0 ? WEFT_SCALING_STILLMAKER : (enum weft_scaling_rule)rule,
				    VT_CALIB_NODE_NM, weft_config_num(cfg, "tech", "node_nm"),
				    weft_config_num(cfg, "tech", "vdd_v"), &sc, err);
	if (rc < 0) {
		weft_error_prefix(err, "%s: the fitted cycle time at %g nm: ", cfg->path,
				  VT_CALIB_NODE_NM);
		return rc;
	}
	c->cycle_ns = c->cycle_ns_65 * sc.delay;
	pp->clock_hz = 1e9 / c->cycle_ns;
	return 0;
}
