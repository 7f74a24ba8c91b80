/*
 * test_energy.c - technology scaling (classic and Stillmaker-Baas factors
 * against hand-computed values), energy tables (sources required, errors
 * with file:line), the energy of a known event mix with static power, the
 * missing-row error, the bundled tables covering every event of every
 * registered model, and GPUWattch-basis static power for every fabric
 * component.
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

#include "energy/energy.h"

static char tmpdir[64];

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **unused)
{
	(void)unused;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/weft-test-energy.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **unused)
{
	(void)unused;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

#define NEAR(a, b, rel) assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

static void test_scaling_classic(void **unused)
{
	(void)unused;
	struct weft_scaling s;
	struct weft_error err;
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_CLASSIC, 65, 32.5, &s, &err), 0);
	NEAR(s.energy, 1.0 / 8, 1e-12);  /* (32.5/65)^3 */
	NEAR(s.area, 1.0 / 4, 1e-12);    /* (32.5/65)^2 */
	NEAR(s.delay, 1.0 / 2, 1e-12);
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_CLASSIC, 40, 40, &s, &err), 0);
	assert_true(s.energy == 1 && s.area == 1 && s.delay == 1);
	assert_int_equal(weft_scaling_rule_parse("classic"), WEFT_SCALING_CLASSIC);
	assert_int_equal(weft_scaling_rule_parse("stillmaker"), WEFT_SCALING_STILLMAKER);
	assert_int_equal(weft_scaling_rule_parse("itrs"), -1);
	assert_string_equal(weft_scaling_rule_name(WEFT_SCALING_STILLMAKER), "stillmaker");
}

static void test_scaling_stillmaker(void **unused)
{
	(void)unused;
	struct weft_scaling s;
	struct weft_error err;
	/* published area factors (Stillmaker & Baas 2017 node-to-node table) */
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 45, &s, &err), 0);
	NEAR(s.area, 0.66, 1e-12);
	assert_false(s.interpolated);
	/* energy at 1.0 V: HP45 (1.018 - 0.3107 + 0.1539) / 65 nm (3.755 - 4.398 + 1.975) */
	NEAR(s.energy, 0.8612 / 1.332, 1e-9);
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 32, &s, &err), 0);
	NEAR(s.area, 0.31, 1e-12);
	/* the erratum's example: HP32 at 0.9 V = 0.4571, 65 nm at 1.3 V = 2.604 */
	assert_int_equal(weft_scaling_factors_v(WEFT_SCALING_STILLMAKER, 65, 32, 0.9, &s, &err), 0);
	double e65_09 = 3.755 * 0.81 - 4.398 * 0.9 + 1.975;
	double e32_09 = 0.8367 * 0.81 - 0.4341 * 0.9 + 0.1701;
	assert_true(fabs(e32_09 - 0.4571) < 5e-5); /* the erratum's EnergyFactor_x */
	NEAR(s.energy, e32_09 / e65_09, 1e-9);
	/* 40 nm: interpolated log-log between 45 and 32, said so */
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 40, &s, &err), 0);
	assert_true(s.interpolated);
	assert_non_null(strstr(s.note, "40 nm interpolated log-log between 45 and 32 nm"));
	double t = log(45.0 / 40) / log(45.0 / 32);
	NEAR(s.area, exp(log(0.66) + t * (log(0.31) - log(0.66))), 1e-12);
	assert_true(s.area > 0.31 && s.area < 0.66);
	assert_true(s.energy > 0.45 && s.energy < 0.64); /* README: ~0.45-0.64 */
	/* round trip */
	struct weft_scaling back;
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 40, 65, &back, &err), 0);
	NEAR(back.energy * s.energy, 1, 1e-9);
	/* out of the paper's range */
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 65, 5, &s, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "covers 7..180 nm"));
}

/* Tables with round numbers so the energy is computed by hand. */
static void make_tables(char *ev, char *st, char *ar, size_t len)
{
	write_file("ev.csv",
		   "# comment line\n"
		   "event,node_nm,energy_pj,unit,source\n"
		   "ev_a,40,1,op,test\n"
		   "ev_b,40,2,op,\"test, quoted\"\n"
		   "ev_dram,,10,32 B,test: off-chip\n",
		   ev, len);
	write_file("st.csv",
		   "component,node_nm,static_w_per_unit,static_w_per_mm2,source\n"
		   "comp_x,40,2,,test\n"
		   "default,40,,0.5,test\n",
		   st, len);
	write_file("ar.csv",
		   "component,node_nm,area_mm2,unit,source\n"
		   "comp_x,40,1,unit,test\n"
		   "comp_y,40,3,unit,test\n"
		   "comp_y,65,7,unit,test at 65\n",
		   ar, len);
}

static const struct weft_event_def defs[] = {
	{ "ev_a", WEFT_CAT_COMP, "op", "" },
	{ "ev_b", WEFT_CAT_RF, "op", "" },
	{ "ev_dram", WEFT_CAT_DRAM, "32 B", "" },
	{ "ev_none", WEFT_CAT_FDS, "op", "" },
};

static void test_known_mix(void **unused)
{
	(void)unused;
	char ev[256], st[256], ar[256];
	make_tables(ev, st, ar, sizeof(ev));
	struct weft_energy_ctx c;
	struct weft_error err;
	memset(&c, 0, sizeof(c));
	c.node_nm = 40;
	c.rule = WEFT_SCALING_STILLMAKER;
	c.vdd_v = 1.0;
	assert_int_equal(weft_energy_table_load(ev, &c.events, &err), 0);
	assert_int_equal(weft_static_table_load(st, &c.statics, &err), 0);
	assert_int_equal(weft_area_table_load(ar, &c.area, &err), 0);
	assert_string_equal(weft_energy_table_find(&c.events, "ev_b")->source, "test, quoted");
	assert_int_equal(weft_energy_table_find(&c.events, "ev_b")->line, 4);

	double counts[4] = { 1000, 500, 3, 0 }; /* ev_none: no row, zero count: skipped */
	struct weft_component comps[2] = { { .name = "comp_x", .count = 2 },
					    { .name = "comp_y", .count = 1 } };
	struct weft_energy_report r;
	assert_int_equal(weft_energy_eval(&c, defs, 4, counts, 1e-3, comps, 2, &r, &err), 0);
	NEAR(r.cat_j[WEFT_CAT_COMP], 1000 * 1e-12, 1e-12);
	NEAR(r.cat_j[WEFT_CAT_RF], 500 * 2e-12, 1e-12);
	NEAR(r.cat_j[WEFT_CAT_DRAM], 3 * 10e-12, 1e-12);
	NEAR(r.dynamic_j, 2030e-12, 1e-12);
	/* static: comp_x 2 units x 2 W + comp_y 3 mm^2 x 0.5 W/mm^2 = 5.5 W */
	NEAR(r.static_w, 5.5, 1e-12);
	NEAR(r.area_mm2, 5, 1e-12);
	NEAR(r.cat_j[WEFT_CAT_STATIC], 5.5e-3, 1e-12);
	NEAR(r.total_j, 5.5e-3 + 2030e-12, 1e-12);
	NEAR(r.avg_power_w, r.total_j / 1e-3, 1e-12);
	assert_int_equal(r.nlines, 3);
	assert_int_equal(r.nscaled, 0);

	/* at 45 nm the on-chip rows scale by the rule, the off-chip row does not */
	struct weft_scaling s;
	assert_int_equal(weft_scaling_factors(WEFT_SCALING_STILLMAKER, 40, 45, &s, &err), 0);
	c.node_nm = 45;
	assert_int_equal(weft_energy_eval(&c, defs, 4, counts, 0, NULL, 0, &r, &err), 0);
	NEAR(r.cat_j[WEFT_CAT_COMP], 1000e-12 * s.energy, 1e-12);
	NEAR(r.cat_j[WEFT_CAT_DRAM], 30e-12, 1e-12);
	assert_int_equal(r.nscaled, 2);
	assert_non_null(strstr(r.scaling_note, "stillmaker 40->45 nm"));
	assert_true(r.avg_power_w == 0); /* no time, no power */

	/* a counted event without a row: the error names event, table, node */
	counts[3] = 1;
	c.node_nm = 40;
	assert_int_equal(weft_energy_eval(&c, defs, 4, counts, 0, NULL, 0, &r, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no energy for event ev_none at 40 nm"));
	assert_string_equal(err.file, ev);
	weft_energy_ctx_free(&c);
}

static void expect_table_error(const char *text, uint32_t line, const char *frag)
{
	char path[256];
	write_file("bad.csv", text, path, sizeof(path));
	struct weft_energy_table t;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_energy_table_load(path, &t, &err), WEFT_ERR_INPUT);
	if (!strstr(err.message, frag))
		fail_msg("'%s' lacks '%s'", err.message, frag);
	assert_int_equal(err.line, line);
}

static void test_table_errors(void **unused)
{
	(void)unused;
	expect_table_error("event,node_nm,energy_pj,unit,source\nx,40,1,op,\n", 2,
			   "every row must cite a publication");
	expect_table_error("event,node_nm,energy_pj,unit,source\nx,40,one,op,s\n", 2,
			   "column energy_pj: 'one' is not a number");
	expect_table_error("event,node_nm,energy_pj,unit,source\nx,40,1,op,s\nx,45,1,op,s\n", 3,
			   "event x has a second row (first at line 2)");
	expect_table_error("event,node_nm,energy_pj,unit,source\nx,40,1,op,s,extra\n", 2,
			   "6 fields, the header has 5");
	expect_table_error("event,node,energy_pj,unit,source\n", 1, "no column `node_nm`");
	struct weft_energy_table t;
	struct weft_error err;
	assert_int_equal(weft_energy_table_load("/nonexistent/e.csv", &t, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open the table"));
}

/* A config naming a table that is not there: the error names the config
 * line that chose it. */
static void test_missing_table_from_config(void **unused)
{
	(void)unused;
	static const struct weft_config_key none[] = { { NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL } };
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_config_load_text_schema("[model]\nname = toy\n[tech]\n"
						      "energy_table = ./missing.csv\n",
						      "cfgdir/toy.ini", none, NULL, 0, &cfg, &err),
			 0);
	struct weft_energy_ctx c;
	assert_int_equal(weft_energy_ctx_init(&c, &cfg, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cfgdir/toy.ini:4: [tech] energy_table: energy table: "));
	assert_string_equal(err.file, "cfgdir/./missing.csv");
	weft_config_free(&cfg);
}

/* Every event of every registered model has a row, with a source, in every
 * bundled basis, and so do the SIMT events the rewritten model will count;
 * the bases differ on FP as the data README says. */
static void test_bundled_tables(void **unused)
{
	(void)unused;
	const char *bases[] = { "horowitz45", "aladdin40", "gpuwattch40" };
	const char *simt_new[] = { "simt_pipeline", "simt_const_access", "noc_flit",
				   "simt_operand_nonreg" };
	enum { NB = 3 };
	struct weft_energy_ctx ctx[NB];
	for (int b = 0; b < NB; b++) {
		char text[256];
		snprintf(text, sizeof(text), "[model]\nname = simt\n[tech]\nenergy_basis = %s\n", bases[b]);
		struct weft_config cfg;
		struct weft_error err;
		weft_error_clear(&err);
		assert_int_equal(weft_config_load_text(text, "t.ini", NULL, 0, &cfg, &err), 0);
		if (weft_energy_ctx_init(&ctx[b], &cfg, &err) != 0)
			fail_msg("%s: %s", bases[b], err.message);
		for (const struct weft_model *const *m = weft_models; *m; m++)
			for (uint32_t i = 0; i < (*m)->nevents; i++) {
				const struct weft_energy_row *r =
					weft_energy_table_find(&ctx[b].events, (*m)->events[i].name);
				if (!r)
					fail_msg("%s: no row for %s event %s", bases[b], (*m)->name,
						 (*m)->events[i].name);
				assert_true(strlen(r->source) > 4);
			}
		for (size_t i = 0; i < sizeof(simt_new) / sizeof(simt_new[0]); i++) {
			const struct weft_energy_row *r = weft_energy_table_find(&ctx[b].events, simt_new[i]);
			if (!r)
				fail_msg("%s: no row for %s", bases[b], simt_new[i]);
			assert_true(r->energy_pj > 0);
			assert_true(strlen(r->source) > 4);
		}
		weft_config_free(&cfg);
	}
	double h = weft_energy_table_find(&ctx[0].events, "fp32_mul")->energy_pj;
	double a = weft_energy_table_find(&ctx[1].events, "fp32_mul")->energy_pj;
	assert_true(a / h > 9 && a / h < 21);
	/* static power of one Fermi SM at 40 nm is the cited 1.59 W */
	struct weft_component sm = { .name = "fermi_sm", .count = 1 };
	struct weft_energy_report r;
	struct weft_error err;
	assert_int_equal(weft_energy_eval(&ctx[0], NULL, 0, NULL, 2.0, &sm, 1, &r, &err), 0);
	NEAR(r.static_w, 1.59, 1e-12);
	NEAR(r.static_j, 3.18, 1e-12);
	for (int b = 0; b < NB; b++)
		weft_energy_ctx_free(&ctx[b]);
}

/* The gpuwattch40 table: published at 40 nm (so unscaled on a 40 nm config)
 * except the off-chip DRAM row, every row citing GPUWattch or saying how it
 * was derived, and a few of the measured figures pinned. */
static void test_gpuwattch40(void **unused)
{
	(void)unused;
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_config_load_text("[model]\nname = simt\n[tech]\nenergy_basis = gpuwattch40\n",
					       "t.ini", NULL, 0, &cfg, &err),
			 0);
	struct weft_energy_ctx c;
	if (weft_energy_ctx_init(&c, &cfg, &err) != 0)
		fail_msg("gpuwattch40: %s", err.message);
	assert_non_null(strstr(c.events.path, "gpuwattch40.csv"));
	for (uint32_t i = 0; i < c.events.nrows; i++) {
		const struct weft_energy_row *row = &c.events.rows[i];
		if (strcmp(row->event, "dram_access"))
			assert_true(row->node_nm == 40);
		else
			assert_true(row->node_nm == 0);
		if (!strstr(row->source, "GPUWattch") && strncmp(row->source, "derived:", 8))
			fail_msg("%s: source cites neither GPUWattch nor a derivation", row->event);
	}
	struct {
		const char *ev;
		double pj;
	} pin[] = { { "simt_rf_read", 7.267 },  { "simt_rf_write", 5.986 }, { "fp32_add", 29.58 },
		    { "l1_access", 2934.6 },    { "noc_flit", 1938.6 }, { "shmem_access", 66.234 },
		    { "simt_warp_schedule", 54.89 } };
	for (size_t i = 0; i < sizeof(pin) / sizeof(pin[0]); i++) {
		double j;
		assert_int_equal(weft_energy_event_at(&c.events, pin[i].ev, 40, c.rule, c.vdd_v, &j, NULL,
						      &err),
				 0);
		NEAR(j * 1e12, pin[i].pj, 1e-9);
	}
	/* a thread instruction's pipeline charge is 36373.9 pJ / (64 x 15) */
	NEAR(weft_energy_table_find(&c.events, "simt_pipeline")->energy_pj, 36373.9 / 960, 0.001);
	/* the functional units, not the register file, dominate a GPUWattch FMA lane */
	assert_true(weft_energy_table_find(&c.events, "fp32_fma")->energy_pj >
		    3 * weft_energy_table_find(&c.events, "simt_rf_read")->energy_pj);
	weft_energy_ctx_free(&c);
	weft_config_free(&cfg);
}

/* The static power of a configuration's components at 40 nm (no events). */
static double static_w_of(const char *ini, const char *const *sets, uint32_t nsets,
			  struct weft_component *comps, uint32_t *ncomps, struct weft_energy_ctx *ctx)
{
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	if (weft_config_load(ini, sets, nsets, &cfg, &err) != 0)
		fail_msg("%s: %s", ini, err.message);
	const struct weft_model *m = weft_model_find(cfg.model);
	assert_non_null(m);
	assert_non_null(m->components);
	void *st = NULL;
	if (m->init(&cfg, &st, &err) != 0)
		fail_msg("%s: %s", ini, err.message);
	if (m->components(st, comps, WEFT_MAX_COMPONENTS, ncomps, &err) != 0)
		fail_msg("%s: %s", ini, err.message);
	m->free(st);
	if (weft_energy_ctx_init(ctx, &cfg, &err) != 0)
		fail_msg("%s: %s", ini, err.message);
	struct weft_energy_report r;
	assert_int_equal(weft_energy_eval(ctx, NULL, 0, NULL, 1.0, comps, *ncomps, &r, &err), 0);
	weft_config_free(&cfg);
	return r.static_w;
}

static const struct weft_static_row *static_row(const struct weft_static_table *t, const char *name)
{
	for (uint32_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].component, name))
			return &t->rows[i];
	return NULL;
}

/* static_gpuwattch40.csv: every fabric component has its own row (the
 * default density never prices one), each a W-per-unit figure at 40 nm with
 * a derivation; the sums for the fabric configs on this table are the
 * figures docs/energy.md gives; the fermi_sm row keeps GPUWattch's 11 W / 15;
 * and the fabric rows price the parts a Fermi SM shares with a fabric core
 * (32 CUDA cores, 4 SFUs, 64 KiB L1 + shared memory) at McPAT's leakage of
 * those parts x the calibration factor 11 / 43.5864. */
static void test_static_gpuwattch40_fabric(void **unused)
{
	(void)unused;
	const char *sets[] = { "tech.energy_basis=gpuwattch40",
			       "tech.static_table=energy/static_gpuwattch40.csv" };
	struct weft_component comps[WEFT_MAX_COMPONENTS];
	uint32_t n = 0;
	struct weft_energy_ctx ctx;
	double w = static_w_of("configs/sgmf-core.ini", sets, 2, comps, &n, &ctx);
	assert_non_null(strstr(ctx.statics.path, "static_gpuwattch40.csv"));
	assert_int_equal(n, 8);
	for (uint32_t i = 0; i < n; i++) {
		const struct weft_static_row *row = static_row(&ctx.statics, comps[i].name);
		if (!row)
			fail_msg("static_gpuwattch40.csv: no row of its own for fabric component %s",
				 comps[i].name);
		assert_false(isnan(row->w_per_unit));
		assert_true(row->w_per_unit > 0);
		assert_true(row->node_nm == 40);
		if (strncmp(row->source, "derived:", 8) || !strstr(row->source, "McPAT") ||
		    !strstr(row->source, "0.252372"))
			fail_msg("%s: the source does not give its McPAT derivation and factor", comps[i].name);
	}
	/* sgmf-core: 32 x (ALU 7.20573e-4 + FPU 1.44875e-3 + control 3.56536e-5
	 * + LDST 3.02186e-5) + 12 x 3.93924e-3 + 212992 bits x 4.64047e-8
	 * + 64 KiB x 3.98010e-3 + 108 switches x 3.72555e-3 = 0.78577 W */
	NEAR(w, 0.78577, 2e-5);
	double f = 11.0 / 43.5864;
	const struct weft_static_row *sm = static_row(&ctx.statics, "fermi_sm");
	assert_non_null(sm);
	NEAR(sm->w_per_unit, 11.0 / 15, 1e-5);
	/* the SM's McPAT leakage 2.83560 W + 1/15 of the uncore's 1.05236 W,
	 * x the factor, is that row */
	NEAR((2.83560 + 1.05236 / 15) * f, sm->w_per_unit, 1e-5);
	/* McPAT: 32 CUDA cores (ALU 3.48288e-4 + FPUs 0.274715) + 4 SFUs 0.0624353
	 * + data cache 0.0271632 + shared memory 0.982165 = 1.34683 W */
	double shared = 32 * (static_row(&ctx.statics, "fabric_alu_unit")->w_per_unit +
			      static_row(&ctx.statics, "fabric_fpu_unit")->w_per_unit) +
			4 * static_row(&ctx.statics, "fabric_special_unit")->w_per_unit +
			64 * static_row(&ctx.statics, "sram_kib")->w_per_unit;
	NEAR(shared, 1.34683 * f, 1e-5);
	assert_true(shared < sm->w_per_unit);
	weft_energy_ctx_free(&ctx);

	/* the other fabric configs count the same components */
	w = static_w_of("configs/mt-cgra.ini", sets, 2, comps, &n, &ctx);
	NEAR(w, 0.78577, 2e-5);
	weft_energy_ctx_free(&ctx);
	w = static_w_of("configs/sgmf-15core.ini", sets, 2, comps, &n, &ctx);
	NEAR(w, 15 * 0.78577, 2e-5);
	weft_energy_ctx_free(&ctx);
	/* dmt-cgra: 140 switches, 475136 token and configuration bits, 128 KiB */
	w = static_w_of("configs/dmt-cgra.ini", sets, 2, comps, &n, &ctx);
	NEAR(w, 1.17188, 2e-5);
	for (uint32_t i = 0; i < n; i++)
		assert_non_null(static_row(&ctx.statics, comps[i].name));
	weft_energy_ctx_free(&ctx);
	/* the fabric configs name this table themselves */
	w = static_w_of("configs/sgmf-core.ini", NULL, 0, comps, &n, &ctx);
	assert_non_null(strstr(ctx.statics.path, "/static_gpuwattch40.csv"));
	NEAR(w, 0.78577, 2e-5);
	weft_energy_ctx_free(&ctx);
	/* the default table has no fabric rows: it prices them by area */
	const char *dflt[] = { "tech.static_table=energy/static.csv" };
	w = static_w_of("configs/sgmf-core.ini", dflt, 1, comps, &n, &ctx);
	assert_non_null(strstr(ctx.statics.path, "/static.csv"));
	assert_true(w > 1.3 && w < 1.35);
	weft_energy_ctx_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaling_classic),
		cmocka_unit_test(test_scaling_stillmaker),
		cmocka_unit_test(test_known_mix),
		cmocka_unit_test(test_table_errors),
		cmocka_unit_test(test_missing_table_from_config),
		cmocka_unit_test(test_bundled_tables),
		cmocka_unit_test(test_gpuwattch40),
		cmocka_unit_test(test_static_gpuwattch40_fabric),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
