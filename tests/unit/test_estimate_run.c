/*
 * test_estimate_run.c - weft_model_run (models/model.c) with a test-only
 * model over a real trace: every launch is consumed once with the CTA
 * sample, finish fills the result, the state is freed on success and on
 * failure, errors name model, config and launch, and the run fills what
 * every model would otherwise repeat (seconds, sampling, totals). Then
 * weft_estimate_run with the bundled configs on the same trace: the totals
 * are the sums of the launches, static energy is static power x time, the
 * ratios follow from the figures, and user errors fail before any replay.
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

#include "estimate/estimate.h"
#include "models/model.h"
#include "trace/format/trace.h"
#include "trace/launch/workload_run.h"
#include "trace_file_testutil.h"

/* ---- a model that counts what it is given -------------------------------
 * Per launch: cycles = 100 x CTAs read; thread insts = those of the CTAs
 * read (counted from the trace); event "test_cta" = CTAs read. Clock 1 MHz.
 * finish leaves seconds and the totals 0 so weft_model_run must fill them. */

static const struct weft_config_key fixed_keys[] = {
	{ "fixed", "fail_launch", WEFT_CFG_INT, "-1", "", -1, 1000, NULL,
	  "launch whose consume fails (-1: none)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};
static const struct weft_event_def fixed_events[] = {
	{ "test_cta", WEFT_CAT_COMP, "CTA", "one CTA read" },
};

static int frees, inits;

struct fixed {
	int fail_launch;
	uint32_t n;
	double cycles[64];
	uint64_t insts[64];
	double ctas[64];
	char kernel[64][64];
};

static int fixed_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	(void)err;
	struct fixed *f = calloc(1, sizeof(*f));
	f->fail_launch = (int)weft_config_int(cfg, "fixed", "fail_launch");
	*state = f;
	inits++;
	return 0;
}

struct count {
	const struct weft_program *p;
	uint64_t insts;
	uint32_t ctas;
};

static int on_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	(void)err;
	struct count *k = user;
	k->ctas++;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		weft_thread_iter_init(&it, k->p, &c->threads[t]);
		while (weft_thread_iter_next(&it, &d))
			k->insts += d.exec;
	}
	return 0;
}

static int fixed_consume(void *state, struct weft_trace *t, uint32_t launch,
			 const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct fixed *f = state;
	if ((int)launch == f->fail_launch)
		return weft_error_set(err, WEFT_ERR_INPUT, "refusing this launch");
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	struct count k = { L->program, 0, 0 };
	int rc = weft_trace_for_each_cta(t, launch, sample, 1, on_cta, &k, err);
	if (rc < 0)
		return rc;
	f->cycles[f->n] = 100.0 * k.ctas;
	f->insts[f->n] = k.insts;
	f->ctas[f->n] = k.ctas;
	snprintf(f->kernel[f->n], sizeof(f->kernel[0]), "%s", L->program->kernel);
	f->n++;
	return 0;
}

static int fixed_finish(void *state, struct weft_model_result *r, struct weft_error *err)
{
	(void)err;
	struct fixed *f = state;
	r->clock_hz = 1e6;
	r->nlaunches = f->n;
	r->launches = calloc(f->n, sizeof(*r->launches));
	r->events = calloc(1, sizeof(double));
	for (uint32_t l = 0; l < f->n; l++) {
		struct weft_launch_result *lr = &r->launches[l];
		lr->launch = l;
		snprintf(lr->kernel, sizeof(lr->kernel), "%s", f->kernel[l]);
		lr->cycles = f->cycles[l];
		lr->thread_insts = f->insts[l];
		snprintf(lr->limiter, sizeof(lr->limiter), "issue");
		lr->events = calloc(1, sizeof(double));
		lr->events[0] = f->ctas[l];
		r->events[0] += f->ctas[l];
		weft_stat_add(lr->stats, &lr->nstats, "ctas_read", f->ctas[l], "CTAs");
	}
	struct weft_component *c = &r->components[r->ncomponents++];
	snprintf(c->name, sizeof(c->name), "test_unit");
	c->count = 1;
	return 0;
}

static void fixed_free(void *state)
{
	free(state);
	frees++;
}

static const struct weft_model fixed_model = {
	.name = "fixed",
	.description = "test-only model with fixed per-CTA costs",
	.keys = fixed_keys,
	.events = fixed_events,
	.nevents = 1,
	.init = fixed_init,
	.consume_launch = fixed_consume,
	.finish = fixed_finish,
	.free = fixed_free,
};

/* ---- fixture: a small multi-launch trace ---------------------------------- */

static char trace_path[64];
static struct weft_trace_info info;
static uint32_t launch_ctas[64];
static uint64_t launch_insts[64];

static int make_trace(void **state)
{
	(void)state;
	if (testutil_trace_small("bfs", trace_path, sizeof(trace_path)))
		return -1;
	struct weft_error err;
	struct weft_trace *t;
	if (weft_trace_open(trace_path, &t, &err))
		return -1;
	info = *weft_trace_info(t);
	for (uint32_t l = 0; l < info.nlaunches && l < 64; l++) {
		launch_ctas[l] = weft_trace_launch(t, l)->nctas;
		launch_insts[l] = weft_trace_launch(t, l)->thread_insts;
	}
	weft_trace_close(t);
	return info.nlaunches >= 2 && info.nlaunches <= 64 ? 0 : -1;
}

static int drop_trace(void **state)
{
	(void)state;
	unlink(trace_path);
	return 0;
}

static void load_cfg(struct weft_config *cfg, const char *text)
{
	struct weft_error err;
	int rc = weft_config_load_text_schema(text, "fixed.ini", fixed_keys, NULL, 0, cfg, &err);
	if (rc)
		fail_msg("config: %s", err.message);
}

static void test_run_all(void **state)
{
	(void)state;
	struct weft_config cfg;
	load_cfg(&cfg, "[model]\nname = fixed\n");
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(trace_path, &t, &err), 0);
	struct weft_model_result r;
	inits = frees = 0;
	assert_int_equal(weft_model_run(&fixed_model, &cfg, t, NULL, &r, &err), 0);
	assert_int_equal(inits, 1);
	assert_int_equal(frees, 1);          /* state freed after finish */
	assert_ptr_equal(r.model, &fixed_model);
	assert_int_equal(r.nlaunches, info.nlaunches);
	double cycles = 0;
	uint64_t insts = 0;
	for (uint32_t l = 0; l < r.nlaunches; l++) {
		/* every CTA read, every executed instruction counted */
		assert_true(r.launches[l].cycles == 100.0 * launch_ctas[l]);
		assert_true(r.launches[l].thread_insts == launch_insts[l]);
		cycles += r.launches[l].cycles;
		insts += r.launches[l].thread_insts;
	}
	/* totals and seconds filled by weft_model_run */
	assert_true(r.cycles == cycles);
	assert_true(r.thread_insts == insts);
	assert_true(insts == info.thread_insts);
	assert_true(r.seconds == cycles / 1e6);
	char all[96];
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_ALL };
	weft_cta_sample_describe(&s, all, sizeof(all));
	assert_string_equal(r.sampling, all);
	weft_model_result_free(&r);
	assert_null(r.launches);
	assert_int_equal(r.nlaunches, 0);
	weft_trace_close(t);
	weft_config_free(&cfg);
}

static void test_run_sampled(void **state)
{
	(void)state;
	struct weft_config cfg;
	load_cfg(&cfg, "[model]\nname = fixed\n");
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(trace_path, &t, &err), 0);
	struct weft_model_result r;
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_EVERY, .every = 2 };
	assert_int_equal(weft_model_run(&fixed_model, &cfg, t, &s, &r, &err), 0);
	for (uint32_t l = 0; l < r.nlaunches; l++) {
		/* CTAs 0, 2, 4, ...: ceil(n / 2) */
		double want = 100.0 * ((launch_ctas[l] + 1) / 2);
		assert_true(r.launches[l].cycles == want);
	}
	char desc[96];
	weft_cta_sample_describe(&s, desc, sizeof(desc));
	assert_string_equal(r.sampling, desc);
	weft_model_result_free(&r);
	weft_trace_close(t);
	weft_config_free(&cfg);
}

static void test_run_error(void **state)
{
	(void)state;
	struct weft_config cfg;
	load_cfg(&cfg, "[model]\nname = fixed\n[fixed]\nfail_launch = 1\n");
	struct weft_trace *t;
	struct weft_error err;
	assert_int_equal(weft_trace_open(trace_path, &t, &err), 0);
	struct weft_model_result r;
	inits = frees = 0;
	assert_int_equal(weft_model_run(&fixed_model, &cfg, t, NULL, &r, &err), WEFT_ERR_INPUT);
	assert_int_equal(frees, 1);          /* state freed on failure too */
	assert_non_null(strstr(err.message, "model fixed, config fixed.ini, launch 1: refusing this launch"));
	assert_null(r.launches);
	weft_trace_close(t);
	weft_config_free(&cfg);
}

static void test_stat_add(void **state)
{
	(void)state;
	struct weft_stat s[WEFT_MAX_STATS];
	uint32_t n = 0;
	weft_stat_add(s, &n, "occupancy_warps", 48, "warps");
	assert_int_equal(n, 1);
	assert_string_equal(s[0].key, "occupancy_warps");
	assert_string_equal(s[0].unit, "warps");
	assert_true(s[0].value == 48);
	for (int i = 0; i < 2 * WEFT_MAX_STATS; i++)
		weft_stat_add(s, &n, "x", i, NULL);
	assert_int_equal(n, WEFT_MAX_STATS);  /* keeps the first ones */
	assert_string_equal(s[1].key, "x");
	assert_true(s[1].value == 0);
	assert_string_equal(s[1].unit, "");
}

static int close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-300;
}

static void run_estimate(const char *baseline, const char *const *sets, uint32_t nsets,
			 struct weft_est_report *rep)
{
	static const char *const cfgs[] = { "configs/fermi-sm.ini", "configs/tesla-sm.ini" };
	struct weft_est_request req = { .trace_path = trace_path, .config_paths = cfgs, .nconfigs = 2,
					.overrides = sets, .noverrides = nsets, .baseline = baseline };
	struct weft_error err;
	int rc = weft_estimate_run(&req, rep, &err);
	if (rc)
		fail_msg("weft_estimate_run: %s", err.message);
}

static void test_estimate_sums(void **state)
{
	(void)state;
	struct weft_est_report rep;
	run_estimate(NULL, NULL, 0, &rep);
	assert_int_equal(rep.nconfigs, 2);
	assert_int_equal(rep.baseline, 0);
	assert_int_equal(rep.nlaunches, info.nlaunches);
	assert_string_equal(rep.workload, "bfs");
	assert_string_equal(rep.configs[0].name, "fermi-sm");
	assert_string_equal(rep.configs[1].name, "tesla-sm");
	for (uint32_t i = 0; i < 2; i++) {
		const struct weft_est_config *c = &rep.configs[i];
		assert_int_equal(c->nlaunches, info.nlaunches);
		double cycles = 0, e[WEFT_CAT_COUNT] = { 0 };
		uint64_t insts = 0;
		for (uint32_t l = 0; l < c->nlaunches; l++) {
			const struct weft_est_figures *f = &c->launches[l];
			cycles += f->cycles;
			insts += f->thread_insts;
			for (int k = 0; k < WEFT_CAT_COUNT; k++)
				e[k] += f->energy_j[k];
			assert_true(close_to(f->energy_j[WEFT_CAT_STATIC], c->static_w * f->seconds));
		}
		const struct weft_est_figures *t = &c->total;
		assert_true(close_to(t->cycles, cycles));
		assert_true(t->thread_insts == insts);
		assert_true(insts == info.thread_insts);
		double sum = 0;
		for (int k = 0; k < WEFT_CAT_COUNT; k++) {
			if (!close_to(t->energy_j[k], e[k]))
				fail_msg("%s: energy %s: total %g, sum of launches %g", c->name,
					 weft_energy_cat_name((enum weft_energy_cat)k), t->energy_j[k], e[k]);
			sum += t->energy_j[k];
		}
		assert_true(close_to(t->energy_total_j, sum));
		assert_true(t->energy_total_j > 0);
		assert_true(close_to(t->seconds, t->cycles / c->clock_hz));
		assert_true(close_to(t->power_w, t->energy_total_j / t->seconds));
		assert_true(c->area_mm2 > 0);
		assert_true(t->limiter[0] != 0);
	}
	const struct weft_est_figures *a = &rep.configs[0].total, *b = &rep.configs[1].total;
	assert_true(a->speedup == 1 && a->energy_ratio == 1);
	assert_true(close_to(b->speedup, a->seconds / b->seconds));
	assert_true(close_to(b->energy_ratio, b->energy_total_j / a->energy_total_j));
	assert_true(close_to(b->perf_per_area_ratio,
			     b->speedup * rep.configs[0].area_mm2 / rep.configs[1].area_mm2));
	weft_est_report_free(&rep);
}

static void test_estimate_baseline_and_targets(void **state)
{
	(void)state;
	struct weft_est_report rep;
	static const char *const sets[] = { "tesla-sm:core.num_sm=2" };
	run_estimate("tesla-sm", sets, 1, &rep);
	assert_int_equal(rep.baseline, 1);
	assert_true(rep.configs[1].total.speedup == 1);
	assert_string_equal(rep.configs[0].overrides, "");
	assert_string_equal(rep.configs[1].overrides, "core.num_sm=2");
	weft_est_report_free(&rep);
}

/* Mistakes in what the user typed are reported before the trace is read:
 * here the trace does not even exist. */
static void test_estimate_fails_fast(void **state)
{
	(void)state;
	static const char *const cfgs[] = { "configs/fermi-sm.ini", "configs/tesla-sm.ini" };
	static const char *const bad_set[] = { "nope:core.num_sm=2" };
	struct weft_est_request req = { .trace_path = "/nonexistent/t.wtr", .config_paths = cfgs,
					.nconfigs = 2, .baseline = "gtx" };
	struct weft_est_report rep;
	struct weft_error err;
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "unknown baseline `gtx`"));
	req.baseline = NULL;
	req.overrides = bad_set;
	req.noverrides = 1;
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "no config named `nope`"));
	req.noverrides = 0;
	req.config_paths = (const char *const[]){ "configs/fermi-sm.ini", "other/fermi-sm.ini" };
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "two configs are named `fermi-sm`"));
	req.nconfigs = 0;
	assert_int_equal(weft_estimate_run(&req, &rep, &err), WEFT_ERR_INPUT);
	assert_non_null(strstr(err.message, "-c CONFIG.ini"));
	assert_int_equal(rep.nconfigs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_all),
		cmocka_unit_test(test_run_sampled),
		cmocka_unit_test(test_run_error),
		cmocka_unit_test(test_stat_add),
		cmocka_unit_test(test_estimate_sums),
		cmocka_unit_test(test_estimate_baseline_and_targets),
		cmocka_unit_test(test_estimate_fails_fast),
	};
	return cmocka_run_group_tests(tests, make_trace, drop_trace);
}
