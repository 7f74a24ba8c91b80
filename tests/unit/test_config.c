/*
 * test_config.c - machine configs (models/config.c): defaults, typed values,
 * every error a user can make (unknown key with a suggestion, unknown
 * section, duplicate key, bad type, out of range, bad enum, no model,
 * unknown model) with its file:line, --set overrides and their errors, the
 * hash, path resolution, and the bundled configs load.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "models/config.h"
#include "models/events.h"
#include "models/model.h"

/* A small model schema so these tests do not depend on a real model. */
static const struct weft_config_key toy_keys[] = {
	{ "core", "num_sm", WEFT_CFG_INT, "15", "", 1, 1024, NULL, "SMs" },
	{ "core", "clock_mhz", WEFT_CFG_DOUBLE, "1400", "MHz", 1, 10000, NULL, "clock" },
	{ "core", "warp_serial", WEFT_CFG_BOOL, "false", "", 0, 0, NULL, "no forwarding" },
	{ "core", "policy", WEFT_CFG_ENUM, "gto", "", 0, 0, "lrr|gto|two_level", "scheduler" },
	{ "mem", "l1_bytes", WEFT_CFG_INT, "65536", "B", 0, 1 << 30, NULL, "L1" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static int load(const char *text, const char *const *sets, uint32_t n, struct weft_config *cfg,
		struct weft_error *err)
{
	weft_error_clear(err);
	return weft_config_load_text_schema(text, "toy.ini", toy_keys, sets, n, cfg, err);
}

/* The load must fail with INPUT at line `line` and a message containing frag. */
static void expect_error(const char *text, const char *const *sets, uint32_t n, uint32_t line,
			 const char *frag)
{
	struct weft_config cfg;
	struct weft_error err;
	int rc = load(text, sets, n, &cfg, &err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	if (!strstr(err.message, frag))
		fail_msg("message '%s' lacks '%s'", err.message, frag);
	assert_int_equal(err.line, line);
	if (n == 0)
		assert_string_equal(err.file, "toy.ini");
}

static void test_defaults_and_values(void **unused)
{
	(void)unused;
	struct weft_config cfg;
	struct weft_error err;
	const char *text = "# comment\n[model]\nname = toy\n\n[core]\nnum_sm = 2   # two\n"
			   "clock_mhz = 700.5\nwarp_serial = yes\npolicy = lrr ; inline\n";
	assert_int_equal(load(text, NULL, 0, &cfg, &err), 0);
	assert_string_equal(cfg.model, "toy");
	assert_string_equal(cfg.name, "toy");
	assert_int_equal(weft_config_int(&cfg, "core", "num_sm"), 2);
	assert_true(weft_config_num(&cfg, "core", "clock_mhz") == 700.5);
	assert_int_equal(weft_config_int(&cfg, "core", "warp_serial"), 1);
	assert_string_equal(weft_config_str(&cfg, "core", "policy"), "lrr");
	assert_int_equal(weft_config_int(&cfg, "core", "policy"), 0);
	assert_int_equal(weft_config_int(&cfg, "mem", "l1_bytes"), 65536);    /* default */
	assert_int_equal(weft_config_int(&cfg, "tech", "node_nm"), 40);       /* common default */
	assert_string_equal(weft_config_str(&cfg, "tech", "energy_basis"), "horowitz45");
	assert_string_equal(weft_config_str(&cfg, "tech", "scaling_rule"), "stillmaker");
	const struct weft_config_value *v = weft_config_find(&cfg, "core", "num_sm");
	assert_non_null(v);
	assert_int_equal(v->from, 1);
	assert_int_equal(v->line, 6);
	assert_int_equal(weft_config_find(&cfg, "mem", "l1_bytes")->from, 0);
	/* a key that is not in the schema reads as 0 / "" */
	assert_null(weft_config_find(&cfg, "core", "nope"));
	assert_int_equal(weft_config_int(&cfg, "core", "nope"), 0);
	assert_string_equal(weft_config_str(&cfg, "core", "nope"), "");
	weft_config_free(&cfg);
}

static void test_unknown_key_suggests(void **unused)
{
	(void)unused;
	expect_error("[model]\nname = toy\n[core]\nnum_sms = 4\n", NULL, 0, 4,
		     "unknown key [core] num_sms (model toy); did you mean [core] num_sm?");
	/* a key in the wrong section */
	expect_error("[model]\nname = toy\n[core]\nl1_bytes = 4\n", NULL, 0, 4,
		     "did you mean [mem] l1_bytes?");
	/* nothing close: list the section's keys */
	expect_error("[model]\nname = toy\n[mem]\nzzzzzzzz = 4\n", NULL, 0, 4,
		     "the valid keys of [mem] are: l1_bytes");
	/* typo in the section name */
	expect_error("[model]\nname = toy\n[tehc]\nnode_nm = 45\n", NULL, 0, 4,
		     "unknown key node_nm in unknown section [tehc] (model toy); did you mean [tech] node_nm?");
}

static void test_value_errors(void **unused)
{
	(void)unused;
	expect_error("[model]\nname = toy\n[core]\nnum_sm = four\n", NULL, 0, 4,
		     "[core] num_sm: 'four' is not an integer");
	expect_error("[model]\nname = toy\n[core]\nnum_sm = 0\n", NULL, 0, 4,
		     "[core] num_sm: 0 is out of range [1, 1024]");
	expect_error("[model]\nname = toy\n[tech]\nnode_nm = 3\n", NULL, 0, 4,
		     "3 is out of range [7, 180] nm");
	expect_error("[model]\nname = toy\n[core]\nclock_mhz = 1.4GHz\n", NULL, 0, 4,
		     "'1.4GHz' is not a number");
	expect_error("[model]\nname = toy\n[core]\nwarp_serial = maybe\n", NULL, 0, 4,
		     "'maybe' is not a boolean");
	expect_error("[model]\nname = toy\n[core]\npolicy = gtoo\n", NULL, 0, 4,
		     "'gtoo' is not one of lrr|gto|two_level; did you mean gto?");
	expect_error("[model]\nname = toy\n[tech]\nscaling_rule = dennard\n", NULL, 0, 4,
		     "'dennard' is not one of classic|stillmaker");
	expect_error("[model]\nname = toy\n[core]\nnum_sm = 1\n\nnum_sm = 2\n", NULL, 0, 6,
		     "[core] num_sm is set twice (first at line 4)");
	expect_error("[model]\nname = toy\n[core\nnum_sm = 1\n", NULL, 0, 3, "not an INI line");
}

static void test_model_errors(void **unused)
{
	(void)unused;
	expect_error("[core]\nnum_sm = 2\n", NULL, 0, 0, "the config names no model");
	/* an empty name: the error names its line (read before the entries are
	 * freed; a use-after-free that `make check SAN=1` caught) */
	expect_error("[model]\nname =\n[core]\nnum_sm = 2\n", NULL, 0, 2, "the config names no model");
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	/* through the registry: an unknown model lists the known ones */
	int rc = weft_config_load_text("[model]\nname = smit\n", "x.ini", NULL, 0, &cfg, &err);
	assert_int_equal(rc, WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "[model] name = smit is not a known model; did you mean simt?"));
	assert_int_equal(err.line, 2);
}

static void test_overrides_and_hash(void **unused)
{
	(void)unused;
	struct weft_config a, b, c;
	struct weft_error err;
	const char *text = "[model]\nname = toy\n[core]\nnum_sm = 2\n";
	const char *sets[] = { "core.num_sm=8", "tech.node_nm=65" };
	assert_int_equal(load(text, NULL, 0, &a, &err), 0);
	assert_int_equal(load(text, sets, 2, &b, &err), 0);
	assert_int_equal(load(text, sets, 2, &c, &err), 0);
	assert_int_equal(weft_config_int(&b, "core", "num_sm"), 8);
	assert_int_equal(weft_config_int(&b, "tech", "node_nm"), 65);
	assert_int_equal(weft_config_find(&b, "core", "num_sm")->from, 2);
	assert_string_equal(b.overrides, "core.num_sm=8,tech.node_nm=65");
	assert_true(a.hash != b.hash);
	assert_true(b.hash == c.hash);
	/* an empty config names no model */
	struct weft_config e;
	assert_int_equal(load("", NULL, 0, &e, &err), WEFT_ERR_INPUT);
	weft_config_free(&a);
	weft_config_free(&b);
	weft_config_free(&c);

	const char *bad1[] = { "core.num_sms=8" };
	expect_error(text, bad1, 1, 0, "--set core.num_sms=8: unknown key [core] num_sms for toy.ini (model toy); did you mean [core] num_sm?");
	const char *bad2[] = { "core.num_sm=-1" };
	expect_error(text, bad2, 1, 0, "--set core.num_sm=-1: [core] num_sm: -1 is out of range");
	const char *bad3[] = { "num_sm=3" };
	expect_error(text, bad3, 1, 0, "expected section.key=value");
	const char *bad4[] = { "model.name=other" };
	expect_error(text, bad4, 1, 0, "the model cannot be overridden");
}

static void test_paths(void **unused)
{
	(void)unused;
	struct weft_config cfg;
	struct weft_error err;
	const char *text = "[model]\nname = toy\n[tech]\narea_table = ./mine.csv\n"
			   "static_table = /abs/static.csv\n";
	weft_error_clear(&err);
	assert_int_equal(weft_config_load_text_schema(text, "dir/sub/toy.ini", toy_keys, NULL, 0, &cfg,
						      &err), 0);
	char buf[4096];
	assert_int_equal(weft_config_path(&cfg, "tech", "area_table", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "dir/sub/./mine.csv");
	assert_int_equal(weft_config_path(&cfg, "tech", "static_table", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "/abs/static.csv");
	/* data-directory paths: WEFT_DATA wins */
	setenv("WEFT_DATA", "data", 1);
	assert_int_equal(weft_config_resolve_path(&cfg, "energy/x.csv", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "data/energy/x.csv");
	setenv("WEFT_DATA", "/nonexistent-weft-data", 1);
	assert_int_equal(weft_data_dir(buf, sizeof(buf), &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "WEFT_DATA=/nonexistent-weft-data is not a directory"));
	unsetenv("WEFT_DATA");
	weft_config_free(&cfg);
}

static void test_bundled_configs_load(void **unused)
{
	(void)unused;
	static const char *const files[] = { "configs/fermi-sm.ini", "configs/gtx480.ini",
					     "configs/tesla-sm.ini" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct weft_config cfg;
		struct weft_error err;
		weft_error_clear(&err);
		int rc = weft_config_load(files[i], NULL, 0, &cfg, &err);
		if (rc != 0)
			fail_msg("%s: %s", files[i], err.message);
		assert_string_equal(cfg.model, "simt");
		weft_config_free(&cfg);
	}
	struct weft_config cfg;
	struct weft_error err;
	weft_error_clear(&err);
	assert_int_equal(weft_config_load("configs/no-such.ini", NULL, 0, &cfg, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "cannot open the config"));
	assert_string_equal(err.file, "configs/no-such.ini");
}

static void test_categories(void **unused)
{
	(void)unused;
	for (int c = 0; c < WEFT_CAT_COUNT; c++)
		assert_int_equal(weft_energy_cat_parse(weft_energy_cat_name((enum weft_energy_cat)c)), c);
	assert_string_equal(weft_energy_cat_name(WEFT_CAT_FDS), "fds");
	assert_string_equal(weft_energy_cat_name(WEFT_CAT_STATIC), "static");
	assert_int_equal(weft_energy_cat_parse("shmem"), WEFT_CAT_SHMEM);
	assert_int_equal(weft_energy_cat_parse("nope"), -1);
	assert_int_equal(weft_energy_cat_parse(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_values), cmocka_unit_test(test_unknown_key_suggests),
		cmocka_unit_test(test_value_errors),        cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_overrides_and_hash),  cmocka_unit_test(test_paths),
		cmocka_unit_test(test_bundled_configs_load), cmocka_unit_test(test_categories),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
