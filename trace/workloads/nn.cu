// nn.cu - nearest-neighbour distances (after Rodinia nn): the Euclidean
// distance of every record's (lat, lng) to a target point.
struct latlng {
	float lat, lng;
};

extern "C" __global__ void nn(const latlng *__restrict__ rec, float *__restrict__ dist,
			      int n, float tlat, float tlng)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		latlng r = rec[i];
		float dx = r.lat - tlat, dy = r.lng - tlng;
		dist[i] = sqrtf(dx * dx + dy * dy);
	}
}
