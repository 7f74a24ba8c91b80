/*
 * test_fabric_workloads.c - the dataflow-fabric model (models/dataflow/
 * fabric*.c) on bundled workloads at small size: sweeps of the token
 * buffer (1..32), L1, L2 and DRAM latency and DRAM bandwidth move every
 * kernel of the SGMF set one way, the dMT-CGRA finding and removing the
 * communication of reduce,
 * hotspot and pathfinder, totals equal to the sums of launches, and every
 * bundled workload estimated on every fabric config without error.
 */
#include <math.h>

#include "models/dataflow/fabric.h"
#include "simt_testutil.h"
#include "trace/launch/workload.h"

/* Cycles per kernel name over a sweep of one key: cyc[point][kernel]. */
#define MAXK 4
struct per_kernel {
	char name[MAXK][64];
	double cyc[8][MAXK];
	uint32_t nk;
};

static void sweep_key(const char *trace, const char *key, const char *const *vals, uint32_t nvals,
		      struct per_kernel *pk)
{
	memset(pk, 0, sizeof(*pk));
	for (uint32_t i = 0; i < nvals; i++) {
		char set[96];
		snprintf(set, sizeof(set), "%s=%s", key, vals[i]);
		const char *sets[] = { set };
		struct weft_model_result r;
		st_run(trace, "configs/sgmf-core.ini", sets, 1, &r);
		for (uint32_t l = 0; l < r.nlaunches; l++) {
			uint32_t k = 0;
			while (k < pk->nk && strcmp(pk->name[k], r.launches[l].kernel))
				k++;
			if (k == pk->nk) {
				assert_true(pk->nk < MAXK);
				snprintf(pk->name[pk->nk++], sizeof(pk->name[0]), "%s", r.launches[l].kernel);
			}
			pk->cyc[i][k] += r.launches[l].cycles;
		}
		if (getenv("WEFT_FABRIC_DUMP"))
			for (uint32_t k = 0; k < pk->nk; k++)
				fprintf(stderr, "%s %s %s: %.0f cycles\n", trace, set, pk->name[k], pk->cyc[i][k]);
		weft_model_result_free(&r);
	}
}

/* Every kernel's cycles move one way along a sweep: dir > 0 never fewer,
 * dir < 0 never more (a relative 1e-9 for rounding). */
static void assert_monotone(const struct per_kernel *pk, uint32_t nvals, int dir)
{
	for (uint32_t k = 0; k < pk->nk; k++)
		for (uint32_t i = 1; i < nvals; i++) {
			double a = pk->cyc[i - 1][k], b = pk->cyc[i][k], tol = 1e-9 * a;
			if (dir > 0 ? b < a - tol : b > a + tol)
				fail_msg("%s: %.0f then %.0f cycles at point %u", pk->name[k], a, b, i);
		}
}

/* The sweeps the SGMF study and its readers make (token buffer 1..32) and
 * the memory parameters a what-if study turns: every kernel of the SGMF
 * set (cfd, nn, pathfinder, bfs, gaussian fan1/fan2, backprop) and matmul
 * gets no slower with a bigger token buffer or more DRAM bandwidth and no
 * faster with a slower L1, L2 or DRAM. matmul (shared-memory tiles,
 * L1-served) keeps gaining across the token-buffer sweep. */
static void test_sweeps_monotone(void **state)
{
	(void)state;
	static const char *const names[] = { "cfd", "nn", "pathfinder", "bfs", "gaussian", "backprop",
					     "matmul" };
	static const char *const tbs[] = { "1", "2", "4", "8", "16", "32" };
	static const char *const l1[] = { "10", "40", "70", "140" };
	static const char *const l2[] = { "150", "310", "500" };
	static const char *const dram[] = { "320", "510", "1000" };
	static const char *const gbps[] = { "10", "50", "177.4", "600" };
	for (uint32_t w = 0; w < sizeof(names) / sizeof(names[0]); w++) {
		const char *tp = st_path("sweep.wtr");
		st_trace_workload(names[w], WEFT_SIZE_SMALL, tp);
		struct per_kernel pk;
		sweep_key(tp, "fabric.token_buffer", tbs, 6, &pk);
		assert_monotone(&pk, 6, -1);
		if (!strcmp(names[w], "matmul"))
			assert_true(pk.cyc[0][0] / pk.cyc[5][0] > 4);
		sweep_key(tp, "mem.l1_latency", l1, 4, &pk);
		assert_monotone(&pk, 4, 1);
		sweep_key(tp, "mem.l2_latency", l2, 3, &pk);
		assert_monotone(&pk, 3, 1);
		sweep_key(tp, "mem.dram_latency", dram, 3, &pk);
		assert_monotone(&pk, 3, 1);
		sweep_key(tp, "mem.dram_gbps", gbps, 4, &pk);
		assert_monotone(&pk, 4, -1);
		unlink(tp);
	}
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
		cmocka_unit_test(test_sweeps_monotone),
		cmocka_unit_test(test_dmt_workloads),
		cmocka_unit_test(test_all_workloads),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	weft_fabric_cache_clear();
	st_tmp_done(NULL, 0);
	return rc;
}
