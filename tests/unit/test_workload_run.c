/*
 * test_workload_run.c - the workload table and runner: size names, lookup,
 * every registered workload is complete (name, one-line description, PTX,
 * tolerance, callbacks), and one small run end to end with verification and
 * a host baseline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trace/launch/workload_run.h"

static void test_sizes(void **state)
{
	(void)state;
	enum weft_size s;
	const char *names[] = { "small", "default", "large" };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(weft_size_parse(names[i], &s), 0);
		assert_int_equal(s, i);
		assert_string_equal(weft_size_name(s), names[i]);
	}
	assert_int_equal(weft_size_parse("huge", &s), -1);
	assert_int_equal(weft_size_parse("", &s), -1);
	assert_int_equal(weft_size_parse(NULL, &s), -1);
}

static void test_table(void **state)
{
	(void)state;
	int n = 0;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++, n++) {
		const struct weft_workload *wl = *w;
		assert_non_null(wl->name);
		assert_true(wl->description && wl->description[0]);
		assert_null(strchr(wl->description, '\n'));
		assert_true(wl->ptx_text && strstr(wl->ptx_text, ".entry"));
		assert_non_null(wl->ptx_name);
		assert_true(wl->tolerance && wl->tolerance[0]);
		assert_true(wl->setup && wl->run_device && wl->run_reference && wl->verify &&
			    wl->teardown);
		assert_ptr_equal(weft_workload_find(wl->name), wl);
		for (const struct weft_workload *const *v = weft_workloads; v != w; v++)
			assert_string_not_equal((*v)->name, wl->name);
	}
	/* issue 2 asks for at least these 18 */
	assert_true(n >= 18);
	assert_null(weft_workload_find("no-such-workload"));
}

static void test_run_vvadd_small(void **state)
{
	(void)state;
	const struct weft_workload *wl = weft_workload_find("vvadd");
	assert_non_null(wl);
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	assert_non_null(ctx);
	struct weft_workload_run_opts o = { WEFT_SIZE_SMALL, 1 };
	struct weft_workload_result r;
	struct weft_error err;
	int rc = weft_workload_run(wl, ctx, &o, &r, &err);
	if (rc)
		print_error("%s\n", err.message);
	assert_int_equal(rc, 0);
	assert_int_equal(r.verify, WEFT_VERIFY_PASS);
	assert_true(r.stats.launches >= 1);
	assert_true(r.stats.thread_insts > 0);
	assert_true(r.stats.warp_insts > 0 && r.stats.warp_insts <= r.stats.thread_insts);
	assert_true(r.host_measured);
	assert_true(r.host.wall_seconds >= 0);
	weft_ctx_destroy(ctx);
}

static void test_limit_is_reported(void **state)
{
	(void)state;
	const struct weft_workload *wl = weft_workload_find("vvadd");
	struct weft_ctx_options co;
	memset(&co, 0, sizeof(co));
	co.max_thread_insts = 10;
	struct weft_ctx *ctx = weft_ctx_create(&co);
	assert_non_null(ctx);
	struct weft_workload_run_opts o = { WEFT_SIZE_SMALL, 1 };
	struct weft_workload_result r;
	struct weft_error err;
	assert_int_equal(weft_workload_run(wl, ctx, &o, &r, &err), WEFT_ERR_LIMIT);
	/* errors start with the workload's name */
	assert_true(strncmp(err.message, "vvadd: ", 7) == 0);
	assert_int_equal(r.verify, WEFT_VERIFY_NOT_RUN);
	weft_ctx_destroy(ctx);
}

/* A fake workload whose checks fail on purpose. */
static const char tiny_ptx[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
			       ".visible .entry k()\n{\n\tret;\n}\n";
struct fake {
	int torn_down;
};
static int fake_torn_down;
static int fake_setup(void *st, enum weft_size size, struct weft_error *err)
{
	(void)st;
	(void)err;
	return size == WEFT_SIZE_LARGE ? WEFT_ERR_INPUT : 0; /* large: fail, no message */
}
static int fake_run(void *st, struct weft_ctx *ctx, struct weft_module *mod, struct weft_error *err)
{
	(void)st;
	return weft_launch(ctx, mod, "k", weft_dim3(1, 1, 1), weft_dim3(32, 1, 1), 0, NULL, 0, err);
}
static void fake_ref(void *st) { (void)st; }
static int fake_verify(void *st, struct weft_error *err)
{
	(void)st;
	return weft_error_set(err, WEFT_ERR_VERIFY, "out[3] is 1, reference 2");
}
static void fake_teardown(void *st) { (void)st; fake_torn_down++; }
static const struct weft_workload fake = {
	"fake", "a workload that fails verification", "fake.ptx", tiny_ptx, "exact",
	sizeof(struct fake), fake_setup, fake_run, fake_ref, fake_verify, fake_teardown,
};

static void test_failures(void **state)
{
	(void)state;
	struct weft_ctx *ctx = weft_ctx_create(NULL);
	struct weft_workload_run_opts o = { WEFT_SIZE_SMALL, 1 };
	struct weft_workload_result r;
	struct weft_error err;
	fake_torn_down = 0;
	assert_int_equal(weft_workload_run(&fake, ctx, &o, &r, &err), WEFT_ERR_VERIFY);
	assert_int_equal(r.verify, WEFT_VERIFY_FAIL);
	assert_string_equal(err.message, "fake: out[3] is 1, reference 2");
	assert_int_equal(r.stats.launches, 1);
	assert_int_equal(r.stats.thread_insts, 32);
	assert_true(r.host_measured);
	assert_int_equal(fake_torn_down, 1);
	weft_ctx_destroy(ctx);

	/* a failing setup without a message still gets one, and teardown runs */
	ctx = weft_ctx_create(NULL);
	o.size = WEFT_SIZE_LARGE;
	assert_int_equal(weft_workload_run(&fake, ctx, &o, &r, &err), WEFT_ERR_INPUT);
	assert_true(strncmp(err.message, "fake: setup failed", 18) == 0);
	assert_int_equal(r.verify, WEFT_VERIFY_NOT_RUN);
	assert_int_equal(fake_torn_down, 2);
	weft_ctx_destroy(ctx);

	/* without --verify the reference and verify do not run */
	ctx = weft_ctx_create(NULL);
	o.size = WEFT_SIZE_SMALL;
	o.verify = 0;
	assert_int_equal(weft_workload_run(&fake, ctx, &o, &r, &err), 0);
	assert_false(r.host_measured);
	assert_int_equal(r.verify, WEFT_VERIFY_NOT_RUN);
	weft_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_run_vvadd_small),
		cmocka_unit_test(test_limit_is_reported),
		cmocka_unit_test(test_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
