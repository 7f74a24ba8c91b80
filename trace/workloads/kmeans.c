/*
 * kmeans.c - host driver for kmeans.cu: the k-means assignment step with
 * atomic per-cluster counts and fixed-point feature sums.
 *
 * Inputs: npoints points of NFEATURES features, each a multiple of 1/1024 in
 * [0, 1) (so the kernel's fixed-point sums are exact), and NCLUSTERS
 * centroids picked from the points, as Rodinia's kmeans starts. 34 features
 * and 5 clusters are Rodinia's default run (kdd_cup input, -m 5 -n 5).
 * Everything is integer or bit-reproducible (fmaf in both kernel and
 * reference), so verification is exact.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/launch/workload.h"
#include "trace/launch/wl_util.h"

WEFT_WORKLOAD_PTX(kmeans);

#define KM_FEATURES 34
#define KM_CLUSTERS 5
#define KM_THREADS 256

struct kmeans_state {
	int npoints;
	float *features;          /* [KM_FEATURES][npoints] */
	float *clusters;          /* [KM_CLUSTERS][KM_FEATURES] */
	int32_t *member_dev, *member_ref;
	int32_t counts_dev[KM_CLUSTERS], counts_ref[KM_CLUSTERS];
	uint64_t sums_dev[KM_CLUSTERS * KM_FEATURES], sums_ref[KM_CLUSTERS * KM_FEATURES];
};

static int kmeans_setup(void *state, enum weft_size size, struct weft_error *err)
{
	struct kmeans_state *s = state;
	/* Measured: about 1530 thread instructions per point (5 x 34 distance
	 * terms, 35 atomics), so about 1e5 / 1e7 / 1e9 in total. */
	s->npoints = WEFT_WL_BY_SIZE(size, 64, 6400, 640000);
	size_t n = (size_t)s->npoints;
	s->features = weft_wl_alloc(n * KM_FEATURES, sizeof(float), err);
	s->clusters = weft_wl_alloc(KM_CLUSTERS * KM_FEATURES, sizeof(float), err);
	s->member_dev = weft_wl_alloc(n, sizeof(int32_t), err);
	s->member_ref = weft_wl_alloc(n, sizeof(int32_t), err);
	if (!s->features || !s->clusters || !s->member_dev || !s->member_ref)
		return WEFT_ERR_NOMEM;
	struct weft_rng r;
	weft_rng_seed(&r, 0x6b6d65616e73ull); /* "kmeans" */
	for (size_t i = 0; i < n * KM_FEATURES; i++)
		s->features[i] = (float)weft_rng_below(&r, 1024) / 1024.0f;
	/* Initial centroids: KM_CLUSTERS distinct points spread over the set. */
	for (int c = 0; c < KM_CLUSTERS; c++) {
		size_t p = (size_t)c * n / KM_CLUSTERS;
		for (int f = 0; f < KM_FEATURES; f++)
			s->clusters[c * KM_FEATURES + f] = s->features[(size_t)f * n + p];
	}
	return 0;
}

static int kmeans_run_device(void *state, struct weft_ctx *ctx, struct weft_module *mod,
			     struct weft_error *err)
{
	struct kmeans_state *s = state;
	size_t n = (size_t)s->npoints;
	uint64_t d_feat, d_clus, d_member, d_counts, d_sums;
	WEFT_WL_TRY(weft_wl_upload(ctx, s->features, n * KM_FEATURES * sizeof(float), &d_feat, err));
	WEFT_WL_TRY(weft_wl_upload(ctx, s->clusters, sizeof(float) * KM_CLUSTERS * KM_FEATURES,
				   &d_clus, err));
	WEFT_WL_TRY(weft_malloc(ctx, n * sizeof(int32_t), &d_member, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof s->counts_dev, &d_counts, err));
	WEFT_WL_TRY(weft_malloc(ctx, sizeof s->sums_dev, &d_sums, err));
	/* weft_malloc zero-fills, so the atomic accumulators start at zero. */
	int npoints = s->npoints, ncl = KM_CLUSTERS, nfeat = KM_FEATURES;
	struct weft_arg args[] = { WEFT_ARG(d_feat), WEFT_ARG(d_clus), WEFT_ARG(npoints),
				   WEFT_ARG(ncl), WEFT_ARG(nfeat), WEFT_ARG(d_member),
				   WEFT_ARG(d_counts), WEFT_ARG(d_sums) };
	uint32_t blocks = (uint32_t)((n + KM_THREADS - 1) / KM_THREADS);
	WEFT_WL_TRY(weft_launch(ctx, mod, "kmeans_assign", weft_dim3(blocks, 1, 1),
				weft_dim3(KM_THREADS, 1, 1), 0, args, 8, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->member_dev, d_member, n * sizeof(int32_t), err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->counts_dev, d_counts, sizeof s->counts_dev, err));
	WEFT_WL_TRY(weft_memcpy_dtoh(ctx, s->sums_dev, d_sums, sizeof s->sums_dev, err));
	return 0;
}

static void kmeans_run_reference(void *state)
{
	struct kmeans_state *s = state;
	size_t n = (size_t)s->npoints;
	memset(s->counts_ref, 0, sizeof s->counts_ref);
	memset(s->sums_ref, 0, sizeof s->sums_ref);
	for (size_t p = 0; p < n; p++) {
		int best = 0;
		float best_dist = 3.402823466e+38f;
		for (int c = 0; c < KM_CLUSTERS; c++) {
			float dist = 0.0f;
			for (int f = 0; f < KM_FEATURES; f++) {
				float diff = s->features[(size_t)f * n + p] -
					     s->clusters[c * KM_FEATURES + f];
				dist = fmaf(diff, diff, dist);
			}
			if (dist < best_dist) {
				best_dist = dist;
				best = c;
			}
		}
		s->member_ref[p] = best;
		s->counts_ref[best]++;
		for (int f = 0; f < KM_FEATURES; f++)
			s->sums_ref[best * KM_FEATURES + f] +=
				(uint64_t)(s->features[(size_t)f * n + p] * 1024.0f);
	}
}

static int kmeans_verify(void *state, struct weft_error *err)
{
	struct kmeans_state *s = state;
	WEFT_WL_TRY(weft_wl_check_i32("membership", s->member_dev, s->member_ref,
				      (size_t)s->npoints, err));
	WEFT_WL_TRY(weft_wl_check_i32("counts", s->counts_dev, s->counts_ref,
				      KM_CLUSTERS, err));
	for (int i = 0; i < KM_CLUSTERS * KM_FEATURES; i++)
		if (s->sums_dev[i] != s->sums_ref[i])
			return weft_error_set(err, WEFT_ERR_VERIFY,
					      "sums[%d] (cluster %d, feature %d) = %llu "
					      "(device) vs %llu (reference), exact match required",
					      i, i / KM_FEATURES, i % KM_FEATURES,
					      (unsigned long long)s->sums_dev[i],
					      (unsigned long long)s->sums_ref[i]);
	return 0;
}

static void kmeans_teardown(void *state)
{
	struct kmeans_state *s = state;
	free(s->features);
	free(s->clusters);
	free(s->member_dev);
	free(s->member_ref);
}

const struct weft_workload weft_workload_kmeans = {
	.name = "kmeans",
	.description = "k-means assignment: nearest of 5 centroids over 34 features, atomic counts and sums",
	.ptx_name = "kmeans.ptx",
	.ptx_text = weft_ptx_kmeans,
	.tolerance = "exact",
	.state_size = sizeof(struct kmeans_state),
	.setup = kmeans_setup,
	.run_device = kmeans_run_device,
	.run_reference = kmeans_run_reference,
	.verify = kmeans_verify,
	.teardown = kmeans_teardown,
};
