/*
 * test_analysis_sound.c - checks the uniformity analysis against what the
 * emulator really did, on every bundled workload (small size): for every
 * executed warp instruction,
 *   - a branch (or guarded exit) the analysis calls non-divergent is taken
 *     by all or none of the lanes that reach it;
 *   - an address the analysis calls uniform is the same in every active
 *     lane, and the k-th execution of the instruction has the same address
 *     in every thread of the CTA (CTA-uniform) or of the launch
 *     (launch-uniform, constant);
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

#include "trace/emu/host.h"
#include "test_analysis_util.h"
#include "trace/launch/workload.h"
#include "trace/launch/workload_run.h"

/* Per memory pc: the address of the k-th execution (by any thread), to
 * compare instances across warps: within the CTA for CTA-uniform
 * addresses, over the launch for launch-uniform ones. */
struct inst_map {
	uint64_t *addr;
	uint8_t *set;
	uint32_t n;
};

struct sound {
	struct an_all a;
	int have;
	struct weft_dim3 block;
	uint32_t nthreads;
	uint32_t *count;            /* [nthreads * ninsts] executions so far per thread and pc */
	struct inst_map *cta_map, *launch_map; /* [ninsts] */
	uint64_t branches, addrs, pairs, instances;
	char fail[512];
};

static void maps_free(struct sound *s)
{
	for (uint32_t pc = 0; s->have && pc < s->a.p->ninsts; pc++) {
		free(s->cta_map[pc].addr), free(s->cta_map[pc].set);
		free(s->launch_map[pc].addr), free(s->launch_map[pc].set);
	}
	free(s->cta_map), free(s->launch_map), free(s->count);
	s->cta_map = s->launch_map = NULL;
	s->count = NULL;
}

static void map_clear(struct inst_map *m, uint32_t n)
{
	for (uint32_t pc = 0; pc < n; pc++)
		if (m[pc].set)
			memset(m[pc].set, 0, m[pc].n);
}

/* Compares addr with the one recorded for instance k of pc (records it if
 * first); 0 when they agree. */
static int map_check(struct inst_map *m, uint32_t k, uint64_t addr, uint64_t *first)
{
	if (k >= m->n) {
		uint32_t nn = m->n ? m->n : 16;
		while (nn <= k)
			nn *= 2;
		m->addr = realloc(m->addr, nn * sizeof(uint64_t));
		m->set = realloc(m->set, nn);
		memset(m->set + m->n, 0, nn - m->n);
		m->n = nn;
	}
	if (!m->set[k]) {
		m->set[k] = 1;
		m->addr[k] = addr;
		return 0;
	}
	*first = m->addr[k];
	return m->addr[k] != addr;
}

static int on_cta_begin(void *user, uint32_t cta, struct weft_error *err)
{
	(void)cta, (void)err;
	struct sound *s = user;
	if (!s->have)
		return 0;
	map_clear(s->cta_map, s->a.p->ninsts);
	memset(s->count, 0, (size_t)s->nthreads * s->a.p->ninsts * sizeof(uint32_t));
	return 0;
}

static int on_launch(void *user, const struct weft_module *mod, uint32_t kernel,
		     struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		     struct weft_error *err)
{
	(void)grid, (void)dyn_shared;
	struct sound *s = user;
	if (s->have) {
		maps_free(s);
		an_free(&s->a);
	}
	s->have = 0;
	struct weft_program *p = NULL;
	int rc = weft_module_program((struct weft_module *)mod, kernel, &p, err);
	if (rc)
		return rc;
	if (an_build(&s->a, p))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "analysis failed");
	s->block = block;
	s->nthreads = block.x * block.y * block.z;
	s->count = calloc((size_t)s->nthreads * p->ninsts + 1, sizeof(uint32_t));
	s->cta_map = calloc(p->ninsts + 1, sizeof(struct inst_map));
	s->launch_map = calloc(p->ninsts + 1, sizeof(struct inst_map));
	if (!s->count || !s->cta_map || !s->launch_map)
		return WEFT_ERR_NOMEM;
	s->have = 1;
	return 0;
}

static void tid_of(const struct sound *s, uint32_t linear, int64_t t[3])
{
	t[0] = linear % s->block.x;
	t[1] = (linear / s->block.x) % s->block.y;
	t[2] = linear / (s->block.x * s->block.y);
}

/* The dynamic instance of pc that thread t is executing, numbered so that
 * the same number means the same instance in every thread: inside a loop,
 * the iteration (the thread's visits to the innermost loop's header so
 * far, less one; a pc runs at most once per iteration, and under a
 * divergent branch a thread may skip it in some iterations, so its own
 * execution count would pair different iterations); outside loops, its
 * execution count less one. on_inst counts every executed pc first. */
static uint32_t instance_of(const struct sound *s, uint32_t t, uint32_t pc)
{
	const struct weft_program *p = s->a.p;
	const uint32_t *cnt = s->count + (size_t)t * p->ninsts;
	uint32_t li = s->a.loops.innermost[p->block_of[pc]];
	if (li != WEFT_NO_LOOP)
		pc = p->blocks[s->a.loops.loops[li].header].first;
	return cnt[pc] - 1;
}

static int on_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct sound *s = user;
	const struct weft_program *p = s->a.p;
	const struct weft_uinst *u = &s->a.u.inst[ev->pc];
	if (s->fail[0])
		return 0;
	for (uint32_t l = 0; l < 32; l++)
		if (ev->active >> l & 1)
			s->count[(size_t)(ev->warp * 32 + l) * p->ninsts + ev->pc]++;
	const struct weft_inst *in = &p->insts[ev->pc];
	if ((in->op == WEFT_OP_BRA || in->op == WEFT_OP_EXIT || in->op == WEFT_OP_RET) &&
	    in->guard != WEFT_NO_REG) {
		s->branches++;
		if (!u->divergent && ev->active && ev->guard_false)
			snprintf(s->fail, sizeof(s->fail), "%s pc %u: branch called uniform splits the warp",
				 p->kernel, ev->pc);
	}
	if (!ev->addr || !u->is_mem || !ev->active)
		return 0;
	s->addrs++;
	/* instances across warps: the same instance (instance_of) in each thread */
	if (u->addr_cls == WEFT_UC_CTA || u->addr_cls == WEFT_UC_LAUNCH || u->addr_cls == WEFT_UC_CONST) {
		struct inst_map *m = u->addr_cls == WEFT_UC_CTA ? &s->cta_map[ev->pc] : &s->launch_map[ev->pc];
		for (uint32_t l = 0; l < 32; l++) {
			if (!(ev->active >> l & 1))
				continue;
			uint32_t t = ev->warp * 32 + l;
			uint32_t k = instance_of(s, t, ev->pc);
			uint64_t first = 0;
			s->instances++;
			if (map_check(m, k, ev->addr[l], &first)) {
				char buf[128];
				weft_program_format_inst(p, ev->pc, buf, sizeof(buf));
				snprintf(s->fail, sizeof(s->fail),
					 "%s pc %u `%s` (%s address): CTA %u thread %u execution %u at 0x%llx, another thread's at 0x%llx",
					 p->kernel, ev->pc, buf, weft_uclass_name(u->addr_cls), ev->cta_linear, t, k,
					 (unsigned long long)ev->addr[l], (unsigned long long)first);
				return 0;
			}
		}
	}
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
	uint64_t branches = 0, addrs = 0, pairs = 0, instances = 0;
	for (const struct weft_workload *const *wl = weft_workloads; *wl; wl++) {
		struct sound s;
		memset(&s, 0, sizeof(s));
		struct weft_emu_observer obs = { .user = &s, .launch_begin = on_launch,
						 .cta_begin = on_cta_begin, .warp_inst = on_inst };
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
		if (s.have) {
			maps_free(&s);
			an_free(&s.a);
		}
		assert_string_equal(s.fail, "");
		branches += s.branches, addrs += s.addrs, pairs += s.pairs, instances += s.instances;
	}
	/* the checks really ran */
	assert_true(branches > 1000);
	assert_true(pairs > 100000);
	assert_true(instances > 100000);
	print_message("checked %llu branches, %llu memory warp instructions, %llu lane pairs, %llu uniform instances across warps\n",
		      (unsigned long long)branches, (unsigned long long)addrs, (unsigned long long)pairs,
		      (unsigned long long)instances);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
