/*
 * test_fabric_workloads.c - the dataflow-fabric model (models/dataflow/
 * fabric*.c) on bundled workloads at small size: the regimes a token-buffer
 * sweep 1..32 must show (a kernel whose threads wait on short, hit-served
 * latencies keeps gaining as more threads are in flight; a streaming,
 * memory-bound one stops gaining once the latency is hidden and its misses
 * bind), the dMT-CGRA finding and removing the communication of reduce,
 * hotspot and pathfinder, totals equal to the sums of launches, and every
 * bundled workload estimated on every fabric config without error.
 */
#include <math.h>

#include "models/dataflow/fabric.h"
#include "simt_testutil.h"
#include "workload.h"

static const uint32_t tbs[] = { 1, 2, 4, 8, 16, 32 };
#define NTB (sizeof(tbs) / sizeof(tbs[0]))

static void sweep(const char *trace, const char *config, double *cycles)
{
	for (uint32_t i = 0; i < NTB; i++) {
		char set[64];
		snprintf(set, sizeof(set), "fabric.token_buffer=%u", tbs[i]);
		const char *sets[] = { set };
		struct weft_model_result r;
		st_run(trace, config, sets, 1, &r);
		cycles[i] = r.cycles;
		if (getenv("WEFT_FABRIC_DUMP"))
			fprintf(stderr, "%s tb %u: %.0f cycles, %s\n", trace, tbs[i], r.cycles,
				r.launches[0].limiter);
		weft_model_result_free(&r);
	}
}

static void test_regimes(void **state)
{
	(void)state;
	const char *mm = st_path("matmul.wtr"), *vv = st_path("vvadd.wtr"), *bp = st_path("backprop.wtr");
	st_trace_workload("matmul", WEFT_SIZE_SMALL, mm);
	st_trace_workload("vvadd", WEFT_SIZE_SMALL, vv);
	st_trace_workload("backprop", WEFT_SIZE_SMALL, bp);
	double c[NTB];
	/* matmul: shared-memory tiles, L1-served: gains at every step */
	sweep(mm, "configs/sgmf-core.ini", c);
	for (uint32_t i = 1; i < NTB; i++)
		assert_true(c[i] < c[i - 1]);
	assert_true(c[0] / c[NTB - 1] > 4);
	/* vvadd: streaming; once 2-4 entries hide the latency the misses
	 * (epochs at the LDST units) bind: less than 10% more from 4 to 32 */
	sweep(vv, "configs/sgmf-core.ini", c);
	assert_true(c[0] / c[2] > 1.5);
	assert_true(c[2] / c[NTB - 1] < 1.1);
	for (uint32_t i = 1; i < NTB; i++)
		assert_true(c[i] <= c[i - 1]);
	/* backprop: the same shape */
	sweep(bp, "configs/sgmf-core.ini", c);
	assert_true(c[0] / c[2] > 1.2);
	assert_true(c[2] / c[NTB - 1] < 1.15);
	unlink(mm);
	unlink(vv);
	unlink(bp);
}

static void test_dmt_workloads(void **state)
{
	(void)state;
	static const char *const names[] = { "reduce", "hotspot", "pathfinder" };
	for (int i = 0; i < 3; i++) {
		const char *tp = st_path("dmt.wtr");
		st_trace_workload(names[i], WEFT_SIZE_SMALL, tp);
		struct weft_model_result mt, dm;
		st_run(tp, "configs/mt-cgra.ini", NULL, 0, &mt);
		st_run(tp, "configs/dmt-cgra.ini", NULL, 0, &dm);
		double removed = 0, comm = 0, bars = 0;
		for (uint32_t l = 0; l < dm.nlaunches; l++) {
			removed += st_stat(&dm.launches[l], "dmt_removed_insts");
			comm += st_stat(&dm.launches[l], "dmt_comm");
			bars += st_stat(&dm.launches[l], "dmt_removed_barrier");
		}
		if (getenv("WEFT_FABRIC_DUMP"))
			fprintf(stderr, "%s: mt %.0f dmt %.0f cycles, removed %.0f, comm %.0f\n", names[i],
				mt.cycles, dm.cycles, removed, comm);
		assert_true(comm > 0);
		assert_true(removed > 0);
		assert_true(bars > 0);
		/* thread instructions: executed minus removed */
		assert_true(fabs((double)dm.thread_insts + removed - (double)mt.thread_insts) <= dm.nlaunches);
		/* communication through the fabric instead of shared memory and
		 * barriers: faster, fewer shared-memory accesses */
		assert_true(dm.cycles < mt.cycles);
		double sh_mt = 0, sh_dm = 0;
		for (uint32_t l = 0; l < dm.nlaunches; l++) {
			sh_mt += st_event(&mt, &mt.launches[l], "shmem_access");
			sh_dm += st_event(&dm, &dm.launches[l], "shmem_access");
		}
		assert_true(sh_dm < sh_mt);
		weft_model_result_free(&mt);
		weft_model_result_free(&dm);
		unlink(tp);
	}
}

static void test_all_workloads(void **state)
{
	(void)state;
	static const char *const cfgs[] = { "configs/sgmf-core.ini", "configs/sgmf-15core.ini",
					    "configs/dmt-cgra.ini" };
	for (const struct weft_workload *const *w = weft_workloads; *w; w++) {
		const char *tp = st_path("all.wtr");
		st_trace_workload((*w)->name, WEFT_SIZE_SMALL, tp);
		for (int c = 0; c < 3; c++) {
			struct weft_model_result r;
			st_run(tp, cfgs[c], NULL, 0, &r);
			double cyc = 0, ev = 0;
			uint64_t insts = 0;
			for (uint32_t l = 0; l < r.nlaunches; l++) {
				cyc += r.launches[l].cycles;
				insts += r.launches[l].thread_insts;
				assert_true(r.launches[l].cycles > 0);
				for (uint32_t e = 0; e < r.model->nevents; e++) {
					assert_true(r.launches[l].events[e] >= 0);
					ev += r.launches[l].events[e];
				}
			}
			double tev = 0;
			for (uint32_t e = 0; e < r.model->nevents; e++)
				tev += r.events[e];
			assert_true(fabs(cyc - r.cycles) <= 1e-6 * r.cycles);
			assert_int_equal(insts, r.thread_insts);
			assert_true(fabs(ev - tev) <= 1e-6 * tev);
			weft_model_result_free(&r);
		}
		unlink(tp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regimes),
		cmocka_unit_test(test_dmt_workloads),
		cmocka_unit_test(test_all_workloads),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	weft_fabric_cache_clear();
	st_tmp_done(NULL, 0);
	return rc;
}
