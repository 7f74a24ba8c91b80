// unsupported.cu - calls weft does not implement fail loudly: each prints
// what the runtime returned; `weft-trace exec` names the call and fails
// (tests/cuda/run.sh). The argument picks the call.
#include <cuda_runtime.h>
#include <cstring>

#include "check.h"

__global__ void k(int *x)
{
	x[threadIdx.x] = threadIdx.x;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "managed";
	cudaError_t e = cudaSuccess;
	if (!strcmp(what, "managed")) {
		int *p;
		e = cudaMallocManaged((void **)&p, 1024);
	} else if (!strcmp(what, "graph")) {
		cudaGraph_t g;
		e = cudaGraphCreate(&g, 0);
	} else if (!strcmp(what, "cooperative")) {
		int *d;
		CHECK(cudaMalloc((void **)&d, 64 * sizeof(int)));
		void *args[] = { &d };
		e = cudaLaunchCooperativeKernel((const void *)k, dim3(1), dim3(64), args, 0, 0);
	} else if (!strcmp(what, "mipmapped")) {
		cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
		cudaMipmappedArray_t a;
		e = cudaMallocMipmappedArray(&a, &f, make_cudaExtent(64, 64, 0), 4);
	} else if (!strcmp(what, "tex3d")) {
		cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
		cudaArray_t a;
		CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(8, 8, 8)));
		cudaResourceDesc res = {};
		res.resType = cudaResourceTypeArray;
		res.res.array.array = a;
		cudaTextureDesc td = {};
		cudaTextureObject_t t;
		e = cudaCreateTextureObject(&t, &res, &td, NULL);
	}
	printf("%s -> %s\n", what, cudaGetErrorName(e));
	return e == cudaErrorNotSupported ? 0 : 1;
}
