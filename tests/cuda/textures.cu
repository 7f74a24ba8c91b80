// textures.cu - the simplest texture program: a texture object over linear
// device memory, read with tex1Dfetch in a gather; tests/cuda/run.sh runs
// it through weft's runtime (trace/cudart/rt_texture.c) and checks its
// output against expected/textures.out.
#include <cuda_runtime.h>

#include "check.h"

__global__ void gather(cudaTextureObject_t tex, const int *idx, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1Dfetch<float>(tex, idx[i]);
}

int main(void)
{
	const int n = 256;
	float h[n], *d_src, *d_out;
	int idx[n], *d_idx;
	for (int i = 0; i < n; i++) {
		h[i] = i * 0.5f;
		idx[i] = (i * 17) % n;
	}
	CHECK(cudaMalloc((void **)&d_src, sizeof(h)));
	CHECK(cudaMalloc((void **)&d_out, sizeof(h)));
	CHECK(cudaMalloc((void **)&d_idx, sizeof(idx)));
	CHECK(cudaMemcpy(d_src, h, sizeof(h), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_idx, idx, sizeof(idx), cudaMemcpyHostToDevice));
	cudaResourceDesc res = {};
	res.resType = cudaResourceTypeLinear;
	res.res.linear.devPtr = d_src;
	res.res.linear.desc = cudaCreateChannelDesc<float>();
	res.res.linear.sizeInBytes = sizeof(h);
	cudaTextureDesc td = {};
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t tex;
	CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));
	gather<<<1, n>>>(tex, d_idx, d_out, n);
	CHECK(cudaGetLastError());
	float out[n];
	CHECK(cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += out[i] != h[idx[i]];
	CHECK(cudaDestroyTextureObject(tex));
	printf("tex1Dfetch: %d of %d wrong\n", bad, n);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
