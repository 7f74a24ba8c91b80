// kmeans.cu - the assignment step of k-means clustering (after Rodinia's
// kmeans, written here): each thread takes one point, finds the nearest
// centroid by squared Euclidean distance, writes its membership, and adds the
// point into per-cluster counts and fixed-point feature sums with global
// atomics (the update step's input).
//
// Layout as Rodinia: features are feature-major (features[f * npoints + p],
// so a warp's loads of one feature coalesce); centroids are point-major
// (clusters[c * nfeatures + f], the same address for the whole warp).
// The distance uses fmaf explicitly so the CPU reference can repeat the exact
// arithmetic (bit-identical distances, hence identical memberships). Features
// are multiples of 1/1024, so (int)(x * 1024) is exact and the sums are
// exact 64-bit integers whatever order the atomics land in.
extern "C" __global__ void kmeans_assign(const float *__restrict__ features,
					 const float *__restrict__ clusters, int npoints,
					 int nclusters, int nfeatures, int *__restrict__ membership,
					 int *counts, unsigned long long *sums)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= npoints)
		return;
	int best = 0;
	float best_dist = 3.402823466e+38f; // FLT_MAX
	for (int c = 0; c < nclusters; c++) {
		float dist = 0.0f;
		for (int f = 0; f < nfeatures; f++) {
			float diff = features[f * npoints + p] - clusters[c * nfeatures + f];
			dist = fmaf(diff, diff, dist);
		}
		if (dist < best_dist) {
			best_dist = dist;
			best = c;
		}
	}
	membership[p] = best;
	atomicAdd(&counts[best], 1);
	for (int f = 0; f < nfeatures; f++) {
		unsigned long long fixed = (unsigned long long)(features[f * npoints + p] * 1024.0f);
		atomicAdd(&sums[best * nfeatures + f], fixed);
	}
}
