/*
 * test_vt_calib.c - the vt model's calibration to the Maven tiles (Lee et
 * al., ACM TOCS 2013, Table I; models/vt/vt_calib.c, data/energy/maven65.csv):
 * a synthesised tile's area is the area fit's fitted value and a tile the
 * table lacks gets the fit's prediction, broken down by term; the clock
 * comes from Table I or the cycle fit as asked, scaled to the node; a
 * register sweep grows area and cycle time as the fits' signs say; every
 * calibrated energy row of maven65.csv is the power fit's term x the mean
 * cycle time over the events per cycle it documents (one recomputed by
 * hand from Table I's numbers); the events the rows price are counted
 * (VRF accesses x registers, MIMD instructions apart); the [calib] keys'
 * errors name the key. Runs from the repository root (data/, configs/).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "area/area.h"
#include "area/scaling.h"
#include "energy/energy.h"
#include "models/vt/vt.h"
#include "trace/format/trace.h"
#include "estimate/estimate.h"
#include "trace/launch/workload_run.h"
#include "trace_file_testutil.h"

extern const struct weft_model weft_model_vt;

#define DATA "data/calibration/maven_tiles_65nm.csv"
#define REL(a, b, tol) \
	do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (tol) * fabs(b_))) \
			fail_msg("%s = %.9g, expected %.9g (line %d)", #a, a_, b_, __LINE__); \
	} while (0)

static void fit(const char *model, struct weft_calib_report *r)
{
	struct weft_error err;
	char path[128];
	snprintf(path, sizeof(path), "data/calibration/%s.model", model);
	if (weft_area_fit_run(DATA, path, r, &err))
		fail_msg("%s: %s", model, err.message);
}

static double coef(const struct weft_calib_report *r, const char *term)
{
	const struct weft_calib_term *t = weft_area_fit_term(r, term);
	if (!t)
		fail_msg("%s has no term %s", r->name, term);
	return t->coef;
}

/* A config from a file (or text when path starts with '['), with overrides. */
static void load(struct weft_config *cfg, const char *path, const char *const *sets, uint32_t nsets)
{
	struct weft_error err;
	int rc = path[0] == '[' ? weft_config_load_text(path, "t.ini", sets, nsets, cfg, &err)
				: weft_config_load(path, sets, nsets, cfg, &err);
	if (rc)
		fail_msg("%s: %s", path, err.message);
}

/* The model's state for a config: its area (at the config's node) and clock. */
struct tile {
	double mm2, ns;
	struct vt_calib calib;
	struct weft_area_report ar;
};

static void tile_of(const char *path, const char *const *sets, uint32_t nsets, struct tile *t)
{
	struct weft_config cfg;
	struct weft_error err;
	load(&cfg, path, sets, nsets);
	void *st = NULL;
	if (weft_model_vt.init(&cfg, &st, &err))
		fail_msg("%s: %s", path, err.message);
	struct vt_state *s = st;
	t->calib = s->calib;
	t->ns = 1e9 / s->pp.clock_hz;
	weft_model_vt.free(st);
	if (weft_area_of_config(&cfg, 0, &t->ar, &err))
		fail_msg("%s: area: %s", path, err.message);
	t->mm2 = t->ar.total_mm2;
	weft_config_free(&cfg);
}

/* Every synthesised tile's area is the fit's fitted value for it (Table I's
 * area + the fit's residual), summed from one component per term. */
static void test_table_tiles_area(void **state)
{
	(void)state;
	struct weft_calib_report r;
	fit("maven_area", &r);
	assert_int_equal(r.npts, 18);
	for (uint32_t i = 0; i < r.npts; i++) {
		char path[160];
		snprintf(path, sizeof(path), "configs/maven/%s.ini", r.pts[i].label);
		struct tile t;
		tile_of(path, NULL, 0, &t);
		REL(t.mm2, r.pts[i].fitted, 1e-9);
		REL(t.calib.area_mm2, r.pts[i].fitted, 1e-9);
		/* within the residual the fit reports for the point */
		REL(t.mm2, r.pts[i].observed * (1 + r.pts[i].rel_err), 1e-9);
		assert_true(t.ar.nlines >= 3 && !strncmp(t.ar.lines[0].component, "maven_fit_", 10));
		assert_non_null(strstr(t.ar.lines[0].source, "maven_area.model"));
	}
	weft_area_fit_free(&r);
}

/* vt-c4v1r64 is not in Table I: its area is the fit's prediction, which by
 * the model's terms is shared + 4 scalar_core + 4 lane + 4 x 64 vregs + 4 vt
 * (unbanked, FIFO, no +d); at 40 nm it scales by the rule's area factor. */
static void test_untabled_tile_area(void **state)
{
	(void)state;
	struct weft_calib_report r;
	fit("maven_area", &r);
	for (uint32_t i = 0; i < r.npts; i++)
		assert_string_not_equal(r.pts[i].label, "vt-c4v1r64");
	double want = coef(&r, "shared") + 4 * coef(&r, "scalar_core") + 4 * coef(&r, "lane") +
		      4 * 64 * coef(&r, "vregs") + 4 * coef(&r, "vt");
	struct tile t;
	tile_of("configs/maven/vt-c4v1r64.ini", NULL, 0, &t);
	REL(t.mm2, want, 1e-9);
	/* the same through the area API, and its per-term features */
	const char *hdr[] = { "pattern", "cores", "lanes_per_core", "phys_regs_per_core_or_lane",
			      "banked", "per_bank_int_alus", "density_time", "pvfb" };
	const char *row[] = { "vt", "4", "1", "64", "0", "0", "0", "fifo" };
	double p, feat[WEFT_CALIB_MAX_TERMS];
	struct weft_error err;
	assert_int_equal(weft_area_fit_predict(&r, hdr, row, 8, &p, &err), 0);
	assert_int_equal(weft_area_fit_features(&r, hdr, row, 8, feat, &err), 0);
	REL(p, want, 1e-12);
	assert_true(feat[0] == 1 && feat[1] == 4 && feat[4] == 256);
	/* 40 nm, Stillmaker-Baas: area x the rule's factor */
	const char *at40[] = { "tech.node_nm=40" };
	struct tile t40;
	tile_of("configs/maven/vt-c4v1r64.ini", at40, 1, &t40);
	struct weft_scaling sc;
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 40, &sc, &err), 0);
	REL(t40.mm2, want * sc.area, 1e-9);
	/* +mc (no tile of Table I has it): the fit + its comparators from the table */
	struct tile mc, nomc;
	tile_of("configs/maven/vt-c1v4r256+bi+2s+mc.ini", NULL, 0, &mc);
	tile_of("configs/maven/vt-c1v4r256+bi+2s.ini", NULL, 0, &nomc);
	const struct weft_area_line *l = &mc.ar.lines[mc.ar.nlines - 1];
	assert_string_equal(l->component, "maven_coalescer_cmp");
	assert_true(l->count == 6); /* 4 lanes: 4 x 3 / 2 comparators */
	REL(mc.mm2, nomc.mm2 + l->mm2, 1e-12);
	/* without [calib] area_model: the maven_* rows of the area table */
	const char *rows[] = { "calib.area_model=" };
	struct tile old;
	tile_of("configs/maven/vt-c4v1r64.ini", rows, 1, &old);
	assert_string_equal(old.ar.lines[0].component, "maven_sram_kib");
	assert_true(old.mm2 < 0.5 * want);
	weft_area_fit_free(&r);
}

/* tile.clock_mhz = 0: Table I's cycle time for a synthesised tile (table),
 * the cycle fit's prediction for another or when cycle_time = fit; scaled
 * to the node by the rule's delay factor; an explicit clock is kept. */
static void test_clock(void **state)
{
	(void)state;
	struct weft_calib_report r;
	fit("maven_cycle", &r);
	/* vt-c4v1r64: base + vector + 64 vregs + vt */
	double r64 = coef(&r, "base") + coef(&r, "vector") + 64 * coef(&r, "vregs") + coef(&r, "vt");
	struct tile t;
	tile_of("configs/maven/vt-c4v1r64.ini", NULL, 0, &t);
	REL(t.ns, r64, 1e-9);
	assert_int_equal(t.calib.cycle_from, VT_CYCLE_FIT);
	/* vt-c4v1r256+bi: Table I's 1.32 ns; the fit says otherwise */
	double bi = coef(&r, "base") + coef(&r, "vector") + 256 * coef(&r, "vregs_banked") +
		    coef(&r, "bank_alus") + coef(&r, "vt");
	tile_of("configs/maven/vt-c4v1r256+bi.ini", NULL, 0, &t);
	REL(t.ns, 1.32, 1e-12);
	assert_int_equal(t.calib.cycle_from, VT_CYCLE_TABLE);
	REL(t.calib.cycle_fit_ns, bi, 1e-9);
	const char *fitset[] = { "calib.cycle_time=fit" };
	tile_of("configs/maven/vt-c4v1r256+bi.ini", fitset, 1, &t);
	REL(t.ns, bi, 1e-9);
	assert_true(fabs(bi - 1.32) > 0.01);
	/* +mc keeps the cycle time of the tile without it (Table I's 1.42 ns),
	 * not the fit's prediction */
	tile_of("configs/maven/vt-c1v4r256+bi+2s+mc.ini", NULL, 0, &t);
	REL(t.ns, 1.42, 1e-12);
	assert_int_equal(t.calib.cycle_from, VT_CYCLE_TABLE);
	/* an explicit clock stays */
	const char *mhz[] = { "tile.clock_mhz=500" };
	tile_of("configs/maven/vt-c4v1r256+bi.ini", mhz, 1, &t);
	REL(t.ns, 2.0, 1e-12);
	assert_int_equal(t.calib.cycle_from, VT_CYCLE_CONFIG);
	/* at 40 nm: x the Stillmaker-Baas delay factor from 65 nm */
	const char *at40[] = { "tech.node_nm=40" };
	tile_of("configs/maven/vt-c4v1r64.ini", at40, 1, &t);
	struct weft_scaling sc;
	struct weft_error err;
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 40, &sc, &err), 0);
	assert_true(sc.delay < 1);
	REL(t.ns, r64 * sc.delay, 1e-9);
	weft_area_fit_free(&r);
}

/* --sweep tile.regs=32,64,128,256 from vt-c4v1r256+bi (and the MIMD and
 * unbanked tiles): with cycle_time = fit, area and cycle time grow with
 * the registers as the fits' per-register coefficients are positive. */
static void test_regs_sweep(void **state)
{
	(void)state;
	struct weft_calib_report ra, rc;
	fit("maven_area", &ra);
	fit("maven_cycle", &rc);
	static const struct {
		const char *cfg, *term;
	} fam[] = { { "configs/maven/vt-c4v1r256+bi.ini", "vregs_banked" },
		    { "configs/maven/vt-c4v1r256.ini", "vregs" },
		    { "configs/maven/mimd-c4r32.ini", "mimd_regs" } };
	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		double ka = coef(&ra, fam[f].term), kc = coef(&rc, fam[f].term);
		assert_true(ka > 0 && kc > 0);
		double prev_mm2 = 0, prev_ns = 0;
		for (int regs = 32; regs <= 256; regs *= 2) {
			char set[32];
			snprintf(set, sizeof(set), "tile.regs=%d", regs);
			const char *sets[] = { set, "calib.cycle_time=fit" };
			struct tile t;
			tile_of(fam[f].cfg, sets, 2, &t);
			if (regs > 32) {
				/* each step adds the term x the registers added on
				 * 4 cores (MIMD) or 4 x 1 lanes */
				REL(t.mm2 - prev_mm2, ka * 4 * regs / 2, 1e-6);
				REL(t.ns - prev_ns, kc * regs / 2, 1e-6);
				assert_true(t.mm2 > prev_mm2 && t.ns > prev_ns);
			}
			prev_mm2 = t.mm2;
			prev_ns = t.ns;
		}
	}
	weft_area_fit_free(&ra);
	weft_area_fit_free(&rc);
}

/* ---- maven65.csv ---- */

static double row_pj(const struct weft_energy_table *t, const char *ev)
{
	const struct weft_energy_row *r = weft_energy_table_find(t, ev);
	if (!r)
		fail_msg("maven65.csv has no row for %s", ev);
	assert_true(r->node_nm == 65 && strncmp(r->source, "derived:", 8) == 0);
	return r->energy_pj;
}

/* Each calibrated row = the power fit's term (mW) x the mean cycle time
 * (ns) of the vector tiles that have the component / the events per cycle
 * the row's source states (VRF: its ports; control: a 2 : 1 split of one CP
 * instruction and one vector issue). The cycle times are Table I's, as the
 * cycle fit's report holds them (observed). */
static void test_maven65_rows(void **state)
{
	(void)state;
	struct weft_calib_report rp, rc;
	fit("maven_power", &rp);
	fit("maven_cycle", &rc);
	double t_vec = 0, t_unb = 0, t_bnk = 0, t_vt = 0;
	int n_vec = 0, n_unb = 0, n_bnk = 0, n_vt = 0;
	for (uint32_t i = 0; i < rc.npts; i++) {
		const char *l = rc.pts[i].label;
		double ns = rc.pts[i].observed;
		if (!strncmp(l, "mimd", 4))
			continue;
		t_vec += ns, n_vec++;
		if (strstr(l, "+b"))
			t_bnk += ns, n_bnk++;
		else
			t_unb += ns, n_unb++;
		if (!strncmp(l, "vt-", 3))
			t_vt += ns, n_vt++;
	}
	assert_true(n_vec == 15 && n_unb == 6 && n_bnk == 9 && n_vt == 11);
	t_vec /= n_vec, t_unb /= n_unb, t_bnk /= n_bnk, t_vt /= n_vt;
	struct weft_energy_table e;
	struct weft_error err;
	if (weft_energy_table_load("data/energy/maven65.csv", &e, &err))
		fail_msg("%s", err.message);
	double core = coef(&rp, "scalar_core") * t_vec;
	REL(row_pj(&e, "maven_cp_inst"), core * 2 / 3, 1e-4);
	REL(row_pj(&e, "maven_viu_issue"), core / 3, 1e-4);
	REL(row_pj(&e, "maven_vrf_access_regs"), coef(&rp, "vregs") * t_unb / 9, 1e-4);
	REL(row_pj(&e, "maven_bvrf_access_regs"), coef(&rp, "vregs_banked") * t_bnk / 12, 1e-4);
	REL(row_pj(&e, "maven_pvfb_op"), coef(&rp, "vt") * t_vt, 1e-4);
	/* by hand: vregs 0.0415292 mW per register x the unbanked vector tiles'
	 * cycle times (vsimd-c4v1r32/64/256 1.23, 1.28, 1.49; vt-c4v1r32/128/256
	 * 1.27, 1.30, 1.47 ns; mean 1.34) / 9 ports = 0.0061832 pJ */
	REL(row_pj(&e, "maven_vrf_access_regs"),
	    0.0415292 * (1.23 + 1.28 + 1.49 + 1.27 + 1.30 + 1.47) / 6 / 9, 1e-5);
	/* a 256-register unified file: 1.58 pJ per access */
	REL(row_pj(&e, "maven_vrf_access_regs") * 256, 1.583, 1e-3);
	/* not calibrated: the rows the fit cannot separate keep horowitz45's */
	struct weft_energy_table h;
	assert_int_equal(weft_energy_table_load("data/energy/horowitz45.csv", &h, &err), 0);
	static const char *const kept[] = { "maven_srf_read", "maven_srf_write", "int_alu", "fp32_fma",
					    "sfu_op", "maven_dcache_access", "dram_access" };
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		const struct weft_energy_row *a = weft_energy_table_find(&e, kept[i]),
					     *b = weft_energy_table_find(&h, kept[i]);
		assert_true(a && b && a->energy_pj == b->energy_pj && a->node_nm == b->node_nm);
		assert_non_null(strstr(a->source, "as horowitz45.csv"));
	}
	/* MIMD instructions keep the table's value: within what Table I allows a
	 * MIMD instruction (mimd-c4r32: 149 mW x 1.10 ns / 4 cores), which the
	 * vector tiles' CP share exceeds */
	REL(weft_energy_table_find(&e, "maven_mimd_inst")->energy_pj,
	    weft_energy_table_find(&h, "maven_cp_inst")->energy_pj, 0);
	assert_true(row_pj(&e, "maven_cp_inst") > 149 * 1.10 / 4);
	/* every event of the vt model has a row with a source */
	for (uint32_t i = 0; i < weft_model_vt.nevents; i++) {
		const struct weft_energy_row *r = weft_energy_table_find(&e, weft_model_vt.events[i].name);
		if (!r)
			fail_msg("maven65.csv: no row for %s", weft_model_vt.events[i].name);
		assert_true(strlen(r->source) > 10);
	}
	weft_energy_table_free(&e);
	weft_energy_table_free(&h);
	weft_area_fit_free(&rp);
	weft_area_fit_free(&rc);
}

/* static_maven65.csv's density: the least lowest-simulated-power per mm^2
 * over Table I (vt-c4v1r32: 136 mW / 5.1 mm^2). */
static void test_static_row(void **state)
{
	(void)state;
	struct weft_static_table st;
	struct weft_error err;
	assert_int_equal(weft_static_table_load("data/energy/static_maven65.csv", &st, &err), 0);
	assert_int_equal(st.nrows, 1);
	REL(st.rows[0].w_per_mm2, 0.136 / 5.1, 1e-4);
	weft_static_table_free(&st);
}

/* ---- the events the rows price, on a real trace ---- */

static char trace_path[64];

static int make_trace(void **state)
{
	(void)state;
	if (testutil_trace_small("bsearch", trace_path, sizeof(trace_path)))
		return -1;
	return 0;
}

static int drop_trace(void **state)
{
	(void)state;
	unlink(trace_path);
	return 0;
}

static int ev_index(const char *name)
{
	for (uint32_t i = 0; i < weft_model_vt.nevents; i++)
		if (!strcmp(weft_model_vt.events[i].name, name))
			return (int)i;
	fail_msg("no vt event %s", name);
	return -1;
}

static void run(const char *path, const char *const *sets, uint32_t nsets,
		struct weft_model_result *res)
{
	struct weft_config cfg;
	struct weft_error err;
	struct weft_trace *t;
	load(&cfg, path, sets, nsets);
	assert_int_equal(weft_trace_open(trace_path, &t, &err), 0);
	memset(res, 0, sizeof(*res));
	if (weft_model_run(&weft_model_vt, &cfg, t, NULL, res, &err))
		fail_msg("%s: %s", path, err.message);
	weft_trace_close(t);
	weft_config_free(&cfg);
}

/* VRF accesses x registers go to the unified or the banked event; a MIMD
 * core's instructions to maven_mimd_inst, not maven_cp_inst. */
static void test_events(void **state)
{
	(void)state;
	int rd = ev_index("maven_vrf_read"), wr = ev_index("maven_vrf_write"),
	    u = ev_index("maven_vrf_access_regs"), b = ev_index("maven_bvrf_access_regs"),
	    cp = ev_index("maven_cp_inst"), mi = ev_index("maven_mimd_inst");
	struct weft_model_result r;
	run("configs/maven/vt-c4v1r128.ini", NULL, 0, &r);
	assert_true(r.events[rd] > 0 && r.events[b] == 0 && r.events[mi] == 0 && r.events[cp] > 0);
	REL(r.events[u], (r.events[rd] + r.events[wr]) * 128, 1e-12);
	weft_model_result_free(&r);
	run("configs/maven/vt-c4v1r256+bi.ini", NULL, 0, &r);
	assert_true(r.events[u] == 0);
	REL(r.events[b], (r.events[rd] + r.events[wr]) * 256, 1e-12);
	weft_model_result_free(&r);
	run("configs/maven/mimd-c4r32.ini", NULL, 0, &r);
	assert_true(r.events[cp] == 0 && r.events[u] == 0 && r.events[b] == 0);
	assert_true(r.events[mi] >= (double)r.thread_insts);
	weft_model_result_free(&r);
}

/* ---- errors name the [calib] key ---- */

static void test_errors(void **state)
{
	(void)state;
	struct weft_config cfg;
	struct weft_error err;
	void *st = NULL;
	const char *missing[] = { "calib.area_model=calibration/none.model" };
	load(&cfg, "configs/maven/vt-c4v1r64.ini", missing, 1);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "--set calib.area_model: "));
	weft_config_free(&cfg);
	load(&cfg, "[model]\nname = vt\n[calib]\ndata = ./nowhere.csv\n", NULL, 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "t.ini:4: [calib] data: "));
	weft_config_free(&cfg);
	load(&cfg, "[model]\nname = vt\n[calib]\ncycle_model =\n", NULL, 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cycle_model is empty"));
	weft_config_free(&cfg);
	/* an explicit clock needs no cycle model */
	load(&cfg, "[model]\nname = vt\n[tile]\nclock_mhz = 700\n[calib]\ncycle_model =\n", NULL, 0);
	assert_int_equal(weft_model_vt.init(&cfg, &st, &err), 0);
	weft_model_vt.free(st);
	weft_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_tiles_area),
		cmocka_unit_test(test_untabled_tile_area),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_regs_sweep),
		cmocka_unit_test(test_maven65_rows),
		cmocka_unit_test(test_static_row),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, make_trace, drop_trace);
}
