/*
 * test_estimate.c - the report layer of weft-estimate on hand-built
 * results: derived figures, ratios against the baseline, the totals'
 * limiter, --set parsing, SI formatting, the three formats and the atomic
 * write. Every expected number is computed by hand in the comments.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "estimate/estimate.h"
#include "estimate/report.h"
#include "common/file.h"
#include "estimate/report_fields.h"

#define NEAR(a, b) assert_true(near((a), (b)))

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fabs(b) + 1e-300;
}

/* 1000 cycles at 1 GHz = 1 us; 4000 thread insts; 1 uJ fds + 2 uJ rf +
 * 1 uJ static = 4 uJ; area 2 mm2. */
static void fill_a(struct weft_est_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->cycles = 1000;
	f->thread_insts = 4000;
	f->energy_j[WEFT_CAT_FDS] = 1e-6;
	f->energy_j[WEFT_CAT_RF] = 2e-6;
	f->energy_j[WEFT_CAT_STATIC] = 1e-6;
}

static void test_derive(void **state)
{
	(void)state;
	struct weft_est_figures f;
	fill_a(&f);
	weft_est_derive(&f, 1e9, 2.0);
	NEAR(f.seconds, 1e-6);           /* 1000 / 1e9 */
	NEAR(f.ipc, 4.0);                /* 4000 / 1000 */
	NEAR(f.energy_total_j, 4e-6);    /* 1 + 2 + 1 uJ */
	NEAR(f.power_w, 4.0);            /* 4 uJ / 1 us */
	NEAR(f.insts_per_j, 1e9);        /* 4000 / 4 uJ */
	NEAR(f.perf_per_area, 2e9);      /* 4000 / 1 us / 2 mm2 */
}

static void test_derive_zero(void **state)
{
	(void)state;
	struct weft_est_figures f;
	memset(&f, 0, sizeof(f));
	weft_est_derive(&f, 0, 0);       /* no clock, no energy, no area */
	assert_true(isnan(f.seconds));
	assert_true(isnan(f.ipc));
	assert_true(isnan(f.power_w));
	assert_true(isnan(f.insts_per_j));
	assert_true(isnan(f.perf_per_area));
	assert_true(f.energy_total_j == 0);
}

/* Two configs, one launch each; config 0 is A above. */
static void make_report(struct weft_est_report *r, struct weft_est_config *c,
			struct weft_est_figures *launches)
{
	memset(r, 0, sizeof(*r));
	memset(c, 0, 2 * sizeof(*c));
	snprintf(r->version, sizeof(r->version), "%s", WEFT_VERSION);
	snprintf(r->trace_path, sizeof(r->trace_path), "t.wtr");
	r->trace_hash = 0x0123456789abcdefull;
	r->trace_bytes = 4096;
	snprintf(r->workload, sizeof(r->workload), "vvadd");
	snprintf(r->size, sizeof(r->size), "small");
	r->nlaunches = 1;
	snprintf(r->sampling, sizeof(r->sampling), "all CTAs");
	r->configs = c;
	r->nconfigs = 2;

	snprintf(c[0].name, sizeof(c[0].name), "base");
	snprintf(c[0].path, sizeof(c[0].path), "configs/base.ini");
	snprintf(c[0].model, sizeof(c[0].model), "simt");
	c[0].hash = 0xaaaa;
	c[0].clock_hz = 1e9;
	c[0].area_mm2 = 2;
	fill_a(&launches[0]);
	snprintf(launches[0].kernel, sizeof(launches[0].kernel), "k");
	snprintf(launches[0].limiter, sizeof(launches[0].limiter), "issue");

	/* B: 1000 cycles at 2 GHz = 0.5 us; same 4000 insts; 2 uJ; 4 mm2. */
	snprintf(c[1].name, sizeof(c[1].name), "fast");
	snprintf(c[1].path, sizeof(c[1].path), "configs/fast.ini");
	snprintf(c[1].model, sizeof(c[1].model), "simt");
	snprintf(c[1].overrides, sizeof(c[1].overrides), "simt.a=1,simt.b=\"x\"");
	c[1].hash = 0xbbbb;
	c[1].clock_hz = 2e9;
	c[1].area_mm2 = 4;
	memset(&launches[1], 0, sizeof(launches[1]));
	launches[1].cycles = 1000;
	launches[1].thread_insts = 4000;
	launches[1].energy_j[WEFT_CAT_DRAM] = 1.5e-6;
	launches[1].energy_j[WEFT_CAT_STATIC] = 0.5e-6;
	snprintf(launches[1].kernel, sizeof(launches[1].kernel), "k");
	snprintf(launches[1].limiter, sizeof(launches[1].limiter), "dram_bw");

	for (int i = 0; i < 2; i++) {
		launches[i].launch = 0;
		c[i].launches = &launches[i];
		c[i].nlaunches = 1;
		weft_est_derive(&launches[i], c[i].clock_hz, c[i].area_mm2);
		c[i].total = launches[i];
		c[i].total.launch = WEFT_EST_TOTAL;
		c[i].total.kernel[0] = 0;
	}
	weft_est_compare(r);
}

static void test_compare(void **state)
{
	(void)state;
	struct weft_est_report r;
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	make_report(&r, c, l);
	/* the baseline against itself */
	NEAR(c[0].total.speedup, 1);
	NEAR(c[0].total.insts_per_j_ratio, 1);
	NEAR(c[0].total.energy_ratio, 1);
	NEAR(c[0].total.perf_per_area_ratio, 1);
	/* fast: 1 us / 0.5 us = 2; (4000/2uJ) / (4000/4uJ) = 2; 2 uJ / 4 uJ =
	 * 0.5; speedup 2 x area 2/4 = 1 */
	NEAR(c[1].total.speedup, 2);
	NEAR(c[1].total.insts_per_j_ratio, 2);
	NEAR(c[1].total.energy_ratio, 0.5);
	NEAR(c[1].total.perf_per_area_ratio, 1);
	NEAR(c[1].launches[0].speedup, 2);

	/* baseline = fast: the inverse ratios */
	r.baseline = 1;
	weft_est_compare(&r);
	NEAR(c[0].total.speedup, 0.5);
	NEAR(c[0].total.insts_per_j_ratio, 0.5);
	NEAR(c[0].total.energy_ratio, 2);
	NEAR(c[0].total.perf_per_area_ratio, 1);
	assert_int_equal(weft_est_find_config(&r, "fast"), 1);
	assert_int_equal(weft_est_find_config(&r, "base"), 0);
	assert_int_equal(weft_est_find_config(&r, "nope"), -1);
}

/* Same clock: speedup is the cycle ratio. Different instruction counts:
 * the insts/J ratio and the energy ratio tell different stories. */
static void test_compare_isa(void **state)
{
	(void)state;
	struct weft_est_report r;
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	make_report(&r, c, l);
	c[1].clock_hz = 1e9;
	c[1].launches[0].cycles = 250;          /* 4x fewer cycles */
	c[1].launches[0].thread_insts = 8000;   /* twice the instructions */
	weft_est_derive(&c[1].launches[0], 1e9, 4);
	c[1].total = c[1].launches[0];
	weft_est_compare(&r);
	NEAR(c[1].total.speedup, 4);            /* 1000 / 250 */
	NEAR(c[1].total.insts_per_j_ratio, 4);  /* (8000/2uJ) / (4000/4uJ) */
	NEAR(c[1].total.energy_ratio, 0.5);     /* 2 uJ / 4 uJ */
	NEAR(c[1].total.perf_per_area_ratio, 2); /* 4 x 2/4 */
	NEAR(c[1].total.ipc, 32);               /* 8000 / 250 */
}

static void test_total_limiter(void **state)
{
	(void)state;
	struct weft_est_figures l[3];
	memset(l, 0, sizeof(l));
	l[0].cycles = 100;
	snprintf(l[0].limiter, sizeof(l[0].limiter), "issue");
	l[1].cycles = 60;
	snprintf(l[1].limiter, sizeof(l[1].limiter), "dram_bw");
	l[2].cycles = 50;
	snprintf(l[2].limiter, sizeof(l[2].limiter), "dram_bw");
	char out[WEFT_LIMITER_MAX];
	weft_est_total_limiter(l, 3, out, sizeof(out));
	assert_string_equal(out, "dram_bw");    /* 110 cycles > 100 */
	weft_est_total_limiter(l, 2, out, sizeof(out));
	assert_string_equal(out, "issue");      /* 100 > 60 */
	weft_est_total_limiter(l, 0, out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_parse_override(void **state)
{
	(void)state;
	char target[64];
	const char *a = NULL;
	struct weft_error err;
	assert_int_equal(weft_est_parse_override("core.num_sm=4", target, sizeof(target), &a, &err), 0);
	assert_string_equal(target, "");
	assert_string_equal(a, "core.num_sm=4");
	assert_int_equal(weft_est_parse_override("tesla-sm:core.num_sm=4", target, sizeof(target), &a,
						 &err),
			 0);
	assert_string_equal(target, "tesla-sm");
	assert_string_equal(a, "core.num_sm=4");
	/* a ':' in the value is part of the value */
	assert_int_equal(weft_est_parse_override("tech.table=a:b", target, sizeof(target), &a, &err), 0);
	assert_string_equal(target, "");
	assert_string_equal(a, "tech.table=a:b");

	static const struct {
		const char *s, *phrase;
	} bad[] = {
		{ "core.num_sm", "no '='" },
		{ "num_sm=4", "no section" },
		{ ".num_sm=4", "empty section" },
		{ "simt.=4", "empty key" },
		{ "core.num_sm=", "empty value" },
		{ ":core.num_sm=4", "empty config name" },
		{ "core.num sm=4", "a space" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		weft_error_clear(&err);
		assert_int_equal(weft_est_parse_override(bad[i].s, target, sizeof(target), &a, &err),
				 WEFT_ERR_INPUT);
		if (!strstr(err.message, bad[i].phrase))
			fail_msg("%s: message \"%s\" lacks \"%s\"", bad[i].s, err.message, bad[i].phrase);
		assert_non_null(strstr(err.message, "section.key=value"));
	}
}

static void test_si(void **state)
{
	(void)state;
	char b[32];
	weft_est_si(b, sizeof(b), 0.00125, "s");
	assert_string_equal(b, "1.25 ms");
	weft_est_si(b, sizeof(b), 4e-6, "J");
	assert_string_equal(b, "4 uJ");
	weft_est_si(b, sizeof(b), 2.5, "W");
	assert_string_equal(b, "2.5 W");
	weft_est_si(b, sizeof(b), 999960, "W");   /* rounds up into the next prefix */
	assert_string_equal(b, "1 MW");
	weft_est_si(b, sizeof(b), 0, "J");
	assert_string_equal(b, "0 J");
	weft_est_si(b, sizeof(b), NAN, "J");
	assert_string_equal(b, "-");
	weft_est_si(b, sizeof(b), 1.4e9, "Hz");
	assert_string_equal(b, "1.4 GHz");
	weft_est_num(b, sizeof(b), INFINITY);
	assert_string_equal(b, "");
	weft_est_num(b, sizeof(b), 0.1);
	assert_string_equal(b, "0.1");
}

static char *format(const struct weft_est_report *r, enum weft_format f)
{
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	struct weft_error err;
	assert_int_equal(weft_est_report_format(r, f, &b, &err), 0);
	char *s = strdup(weft_sbuf_str(&b));
	weft_sbuf_free(&b);
	return s;
}

static void test_format_csv(void **state)
{
	(void)state;
	struct weft_est_report r;
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	make_report(&r, c, l);
	char *s = format(&r, WEFT_FMT_CSV);
	const char *header =
		"weft_version,trace,trace_hash,trace_bytes,sampling,config,config_path,model,config_hash,"
		"overrides,baseline,launch,kernel,cycles,time_s,thread_insts,ipc,limiter,energy_fds_j,"
		"energy_rf_j,energy_comp_j,energy_buffers_j,energy_noc_j,energy_shmem_j,energy_l1_j,"
		"energy_l2_j,energy_dram_j,energy_config_j,energy_static_j,energy_total_j,"
		"energy_fds_share,energy_rf_share,energy_comp_share,energy_buffers_share,"
		"energy_noc_share,energy_shmem_share,energy_l1_share,energy_l2_share,"
		"energy_dram_share,energy_config_share,energy_static_share,power_w,"
		"area_mm2,insts_per_j,insts_per_s_per_mm2,speedup,insts_per_j_ratio,energy_ratio,"
		"perf_per_area_ratio\n";
	assert_memory_equal(s, header, strlen(header));
	/* base launch 0: every figure worked out in test_derive */
	assert_non_null(strstr(s, "\n" WEFT_VERSION ",t.wtr,fnv1a64-file:0123456789abcdef,4096,all CTAs,"
				  "base,configs/base.ini,simt,fnv1a64:000000000000aaaa,,base,0,k,"
				  "1000,1e-06,4000,4,issue,1e-06,2e-06,0,0,0,0,0,0,0,0,1e-06,4e-06,"
				  "0.25,0.5,0,0,0,0,0,0,0,0,0.25,4,2,"
				  "1000000000,2000000000,1,1,1,1\n"));
	/* fast total: overrides quoted (commas, doubled quotes); ratios 2, 2, 0.5, 1 */
	assert_non_null(strstr(s, ",fast,configs/fast.ini,simt,fnv1a64:000000000000bbbb,"
				  "\"simt.a=1,simt.b=\"\"x\"\"\",base,total,,1000,5e-07,4000,4,dram_bw,"
				  "0,0,0,0,0,0,0,0,1.5e-06,0,5e-07,2e-06,0,0,0,0,0,0,0,0,0.75,0,0.25,"
				  "4,4,2000000000,2000000000,"
				  "2,2,0.5,1\n"));
	/* 1 header + 2 configs x (1 launch + total) */
	int lines = 0;
	for (char *p = s; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 5);
	free(s);
}

static void test_format_json(void **state)
{
	(void)state;
	struct weft_est_report r;
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	make_report(&r, c, l);
	c[1].total.speedup = NAN;   /* undefined -> null */
	char *s = format(&r, WEFT_FMT_JSON);
	assert_non_null(strstr(s, "\"weft_version\": \"" WEFT_VERSION "\""));
	assert_non_null(strstr(s, "\"hash\": \"fnv1a64-file:0123456789abcdef\""));
	assert_non_null(strstr(s, "\"sampling\": \"all CTAs\""));
	assert_non_null(strstr(s, "\"baseline\": \"base\""));
	assert_non_null(strstr(s, "\"config_hash\": \"fnv1a64:000000000000bbbb\""));
	assert_non_null(strstr(s, "\"overrides\": \"simt.a=1,simt.b=\\\"x\\\"\""));
	assert_non_null(strstr(s, "\"speedup\": null"));
	assert_non_null(strstr(s, "\"energy_dram_j\": 1.5e-06"));
	assert_non_null(strstr(s, "\"kernel\": \"k\""));
	assert_null(strstr(s, "nan"));
	/* braces and brackets balance outside strings */
	int depth = 0, in_str = 0;
	for (const char *p = s; *p; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == '"')
			in_str = 1;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			assert_true(--depth >= 0);
	}
	assert_int_equal(depth, 0);
	/* python3's parser agrees, when it is installed */
	if (system("command -v python3 >/dev/null 2>&1") == 0) {
		char path[] = "/tmp/weft-test-json.XXXXXX";
		int fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
		close(fd);
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", path);
		assert_int_equal(system(cmd), 0);
		unlink(path);
	}
	free(s);
}

static void test_format_table(void **state)
{
	(void)state;
	struct weft_est_report r;
	struct weft_est_config c[2];
	struct weft_est_figures l[2];
	make_report(&r, c, l);
	char *s = format(&r, WEFT_FMT_TABLE);
	assert_non_null(strstr(s, "weft-estimate " WEFT_VERSION "\n"));
	assert_non_null(strstr(s, "fnv1a64-file 0123456789abcdef"));
	assert_non_null(strstr(s, "config     base (baseline): configs/base.ini, model simt, hash "
				  "000000000000aaaa, overrides none\n"));
	assert_non_null(strstr(s, "overrides simt.a=1,simt.b=\"x\"\n"));
	assert_non_null(strstr(s, "\ntotal                          base         fast\n"));
	assert_non_null(strstr(s, "\ntime                           1 us       500 ns\n"));
	assert_non_null(strstr(s, "\nenergy dram                     0 J       1.5 uJ\n"));
	assert_non_null(strstr(s, "\nvs base:\n  speedup                         1            2\n"));
	assert_non_null(strstr(s, "\n  energy ratio                    1          0.5\n"));
	assert_non_null(strstr(s, "\nlaunch 0 k\n"));
	free(s);
}

static void test_format_parse(void **state)
{
	(void)state;
	assert_int_equal(weft_format_parse("table"), WEFT_FMT_TABLE);
	assert_int_equal(weft_format_parse("csv"), WEFT_FMT_CSV);
	assert_int_equal(weft_format_parse("json"), WEFT_FMT_JSON);
	assert_int_equal(weft_format_parse("xml"), -1);
}

static void test_write_atomic(void **state)
{
	(void)state;
	char dir[] = "/tmp/weft-test-est.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	struct weft_error err;
	assert_int_equal(weft_write_atomic(path, "a,b\n", 4, &err), 0);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char buf[16] = { 0 };
	assert_int_equal(fread(buf, 1, sizeof(buf), f), 4);
	fclose(f);
	assert_string_equal(buf, "a,b\n");
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_mode & 0044);   /* not left 0600 by mkstemp */
	/* no temp file left beside it */
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "ls %s | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);
	unlink(path);

	/* a missing directory: an input error that names the path */
	snprintf(path, sizeof(path), "%s/no/such/out.csv", dir);
	weft_error_clear(&err);
	assert_int_equal(weft_write_atomic(path, "x", 1, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, path));
	rmdir(dir);
}

static void test_hash_file(void **state)
{
	(void)state;
	char path[] = "/tmp/weft-test-hash.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a", 1), 1);
	close(fd);
	uint64_t h = 0, n = 0;
	struct weft_error err;
	assert_int_equal(weft_est_hash_file(path, &h, &n, &err), 0);
	assert_true(h == 0xaf63dc4c8601ec8cull);   /* FNV-1a 64 of "a" (published test vector) */
	assert_true(n == 1);
	unlink(path);
	assert_int_equal(weft_est_hash_file(path, &h, &n, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_derive_zero),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_isa),
		cmocka_unit_test(test_total_limiter),
		cmocka_unit_test(test_parse_override),
		cmocka_unit_test(test_si),
		cmocka_unit_test(test_format_csv),
		cmocka_unit_test(test_format_json),
		cmocka_unit_test(test_format_table),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_hash_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
