/*
 * test_analysis_sound.c - checks the uniformity analysis against what the
 * emulator really did, on every bundled workload (small size): for every
 * executed warp instruction,
 *   - a branch the analysis calls non-divergent is taken by all or none of
 *     the lanes that reach it;
 *   - an address the analysis calls uniform is the same in every active
 *     lane;
 *   - an affine address differs between two lanes by exactly the known
 *     strides times their tid differences (lane pairs whose tids differ in
 *     a component of unknown stride are skipped).
 * A warp instruction is one dynamic instance for its lanes, so this is
 * exactly the analysis's "same for the threads that reach it" claim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "host.h"
#include "test_analysis_util.h"
#include "workload.h"
#include "workload_run.h"

struct sound {
	struct an_all a;
	int have;
	struct weft_dim3 block;
	uint64_t branches, addrs, pairs;
	char fail[512];
};

static int on_launch(void *user, const struct weft_module *mod, uint32_t kernel,
		     struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		     struct weft_error *err)
{
	(void)grid, (void)dyn_shared;
	struct sound *s = user;
	if (s->have)
		an_free(&s->a);
	s->have = 0;
	struct weft_program *p = NULL;
	int rc = weft_module_program((struct weft_module *)mod, kernel, &p, err);
	if (rc)
		return rc;
	if (an_build(&s->a, p))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "analysis failed");
	s->block = block;
	s->have = 1;
	return 0;
}

static void tid_of(const struct sound *s, uint32_t linear, int64_t t[3])
{
	t[0] = linear % s->block.x;
	t[1] = (linear / s->block.x) % s->block.y;
	t[2] = linear / (s->block.x * s->block.y);
}

static int on_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct sound *s = user;
	const struct weft_program *p = s->a.p;
	const struct weft_uinst *u = &s->a.u.inst[ev->pc];
	if (s->fail[0])
		return 0;
	const struct weft_inst *in = &p->insts[ev->pc];
	if (in->op == WEFT_OP_BRA && in->guard != WEFT_NO_REG) {
		s->branches++;
		if (!u->divergent && ev->active && ev->guard_false)
			snprintf(s->fail, sizeof(s->fail), "%s pc %u: branch called uniform splits the warp",
				 p->kernel, ev->pc);
	}
	if (!ev->addr || !u->is_mem || !ev->active)
		return 0;
	s->addrs++;
	int l0 = __builtin_ctz(ev->active);
	int64_t t0[3];
	tid_of(s, ev->warp * 32 + (uint32_t)l0, t0);
	for (int l = l0 + 1; l < 32; l++) {
		if (!(ev->active >> l & 1))
			continue;
		int64_t t[3];
		tid_of(s, ev->warp * 32 + (uint32_t)l, t);
		int64_t want = 0;
		int skip = 0;
		if (u->addr_cls == WEFT_UC_AFFINE) {
			for (int c = 0; c < 3; c++) {
				if (t[c] == t0[c])
					continue;
				if (!(u->stride_known >> c & 1))
					skip = 1;
				want += u->addr_stride[c] * (t[c] - t0[c]);
			}
		} else if (u->addr_cls != WEFT_UC_CONST && u->addr_cls != WEFT_UC_LAUNCH &&
			   u->addr_cls != WEFT_UC_CTA) {
			return 0;
		}
		if (skip)
			continue;
		s->pairs++;
		if ((int64_t)(ev->addr[l] - ev->addr[l0]) != want) {
			char buf[128];
			weft_program_format_inst(p, ev->pc, buf, sizeof(buf));
			snprintf(s->fail, sizeof(s->fail),
				 "%s pc %u `%s` (%s): lane %d address 0x%llx, lane %d 0x%llx, expected difference %lld",
				 p->kernel, ev->pc, buf, weft_uclass_name(u->addr_cls), l0,
				 (unsigned long long)ev->addr[l0], l, (unsigned long long)ev->addr[l],
				 (long long)want);
			return 0;
		}
	}
	(void)err;
	return 0;
}

static void test_sound(void **state)
{
	(void)state;
	uint64_t branches = 0, addrs = 0, pairs = 0;
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++) {
		struct sound s;
		memset(&s, 0, sizeof(s));
		struct weft_emu_observer obs = { .user = &s, .launch_begin = on_launch, .warp_inst = on_inst };
		struct weft_ctx_options o = { .observer = &obs };
		struct weft_ctx *ctx = weft_ctx_create(&o);
		assert_non_null(ctx);
		struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
		struct weft_workload_result res;
		struct weft_error err;
		int rc = weft_workload_run(*wl, ctx, &ro, &res, &err);
		if (rc)
			fprintf(stderr, "%s: %s\n", (*wl)->name, err.message);
		assert_int_equal(rc, 0);
		weft_ctx_destroy(ctx);
		if (s.fail[0]) {
			fprintf(stderr, "%s: %s\n", (*wl)->name, s.fail);
			an_dump(&s.a);
		}
		if (s.have)
			an_free(&s.a);
		assert_string_equal(s.fail, "");
		branches += s.branches, addrs += s.addrs, pairs += s.pairs;
	}
	/* the checks really ran */
	assert_true(branches > 1000);
	assert_true(pairs > 100000);
	print_message("checked %llu branches, %llu memory warp instructions, %llu lane pairs\n", (unsigned long long)branches, (unsigned long long)addrs, (unsigned long long)pairs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
