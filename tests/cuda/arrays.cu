// arrays.cu - CUDA arrays behind texture and surface objects, as image
// programs (the CUDA samples' dct8x8, Rodinia's texture ports) use them:
// a 2-D float array filled with cudaMemcpy2DToArray, read with tex2D with
// point and with linear filtering, with normalized wrapped coordinates and
// with a border; a surface written with surf2Dwrite and read back with
// cudaMemcpy2DFromArray and cudaMemcpy3D; a 1-D int array through
// cudaMemcpyToArray, tex1D and cudaMemcpyFromArray; array-to-array copies;
// a 3-D array and 3-D pitched memory (cudaMalloc3D, cudaMemset3D); and the
// errors a program provokes. tests/cuda/run.sh runs it through
// weft's runtime (trace/cudart/rt_array.c, rt_texture.c) and compares its
// output with expected/arrays.out. Every value is a small integer or a
// half, so every expected result is exact.
// cudaMemcpyToArray and cudaMemcpyFromArray are deprecated, still exported,
// and still used by older programs: tested on purpose
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cuda_runtime.h>
#include <cstdint>
#include <cstring>

#include "check.h"

#define W 16
#define H 8

static float v(int x, int y)
{
	return (float)(x + 100 * y);
}

// out[y][x] = tex2D(t, x + dx, y + dy) (texel coordinates, or scaled by
// 1/W, 1/H when norm is set)
__global__ void fetch2d(cudaTextureObject_t t, float *out, float dx, float dy, int norm)
{
	int x = threadIdx.x, y = blockIdx.x;
	float u = x + dx, w = y + dy;
	if (norm) {
		u /= W;
		w /= H;
	}
	out[y * W + x] = tex2D<float>(t, u, w);
}

// d(x, y) = 2 * s(x, y) through surfaces (x in bytes)
__global__ void twice(cudaSurfaceObject_t s, cudaSurfaceObject_t d)
{
	int x = threadIdx.x, y = blockIdx.x;
	float a = surf2Dread<float>(s, x * 4, y);
	surf2Dwrite(2.0f * a, d, x * 4, y);
}

__global__ void fetch1d(cudaTextureObject_t t, int *out, int n)
{
	int i = threadIdx.x;
	if (i < n)
		out[i] = tex1D<int>(t, i + 0.5f);
}

static int compare(const char *what, const float *got, float (*want)(int, int))
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			if (got[y * W + x] != want(x, y)) {
				if (!bad)
					printf("  %s (%d, %d): %g, want %g\n", what, x, y, got[y * W + x], want(x, y));
				bad++;
			}
	printf("%s: %d of %d wrong\n", what, bad, W * H);
	return bad;
}

static float point(int x, int y) { return v(x, y); }
// linear filtering at (x + 1, y + 0.5): half of texel x and half of x + 1,
// clamped at the right edge
static float lin(int x, int y) { return x + 1 < W ? (v(x, y) + v(x + 1, y)) / 2 : v(x, y); }
// at (x, y + 1): texels (x - 1, y), (x, y), (x - 1, y + 1), (x, y + 1), a
// quarter each, clamped at the edges
static float lin2(int x, int y)
{
	int x0 = x > 0 ? x - 1 : 0, y1 = y + 1 < H ? y + 1 : H - 1;
	return (v(x0, y) + v(x, y) + v(x0, y1) + v(x, y1)) / 4;
}
static float border(int x, int y) { return x == 0 ? 0.0f : v(x - 1, y); }
static float doubled(int x, int y) { return 2 * v(x, y); }

static cudaTextureObject_t texture(cudaArray_t a, cudaTextureFilterMode f, cudaTextureAddressMode m, int norm)
{
	cudaResourceDesc res;
	memset(&res, 0, sizeof(res));
	res.resType = cudaResourceTypeArray;
	res.res.array.array = a;
	cudaTextureDesc td;
	memset(&td, 0, sizeof(td));
	td.filterMode = f;
	td.addressMode[0] = td.addressMode[1] = m;
	td.normalizedCoords = norm;
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
	return t;
}

int main(void)
{
	int bad = 0;
	// the image, in host rows padded to 20 floats (a pitch unlike the array's)
	static float img[H][20];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < 20; x++)
			img[y][x] = x < W ? v(x, y) : -1.0f;
	cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
	cudaArray_t a, b;
	CHECK(cudaMallocArray(&a, &f, W, H, cudaArraySurfaceLoadStore));
	CHECK(cudaMallocArray(&b, &f, W, H, cudaArraySurfaceLoadStore));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, img, sizeof(img[0]), W * sizeof(float), H, cudaMemcpyHostToDevice));

	cudaChannelFormatDesc g;
	cudaExtent e;
	unsigned flags;
	CHECK(cudaArrayGetInfo(&g, &e, &flags, a));
	printf("array: %zu x %zu x %zu, channels %d %d %d %d kind %d, flags %u\n", e.width, e.height, e.depth,
	       g.x, g.y, g.z, g.w, (int)g.f, flags);

	float *d_out, out[H * W];
	CHECK(cudaMalloc((void **)&d_out, sizeof(out)));
	struct {
		const char *what;
		cudaTextureFilterMode f;
		cudaTextureAddressMode m;
		int norm;
		float dx, dy;
		float (*want)(int, int);
	} cases[] = {
		{ "tex2D point", cudaFilterModePoint, cudaAddressModeClamp, 0, 0.5f, 0.5f, point },
		{ "tex2D linear", cudaFilterModeLinear, cudaAddressModeClamp, 0, 1.0f, 0.5f, lin },
		{ "tex2D linear 2-D", cudaFilterModeLinear, cudaAddressModeClamp, 0, 0.0f, 1.0f, lin2 },
		{ "tex2D normalized wrap", cudaFilterModePoint, cudaAddressModeWrap, 1, 0.5f + W, 0.5f - H, point },
		{ "tex2D border", cudaFilterModePoint, cudaAddressModeBorder, 0, -0.5f, 0.5f, border },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cudaTextureObject_t t = texture(a, cases[i].f, cases[i].m, cases[i].norm);
		fetch2d<<<H, W>>>(t, d_out, cases[i].dx, cases[i].dy, cases[i].norm);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost));
		bad += compare(cases[i].what, out, cases[i].want);
		CHECK(cudaDestroyTextureObject(t));
	}

	// surfaces: b = 2 a, read back two ways
	cudaResourceDesc res;
	memset(&res, 0, sizeof(res));
	res.resType = cudaResourceTypeArray;
	cudaSurfaceObject_t sa, sb;
	res.res.array.array = a;
	CHECK(cudaCreateSurfaceObject(&sa, &res));
	res.res.array.array = b;
	CHECK(cudaCreateSurfaceObject(&sb, &res));
	twice<<<H, W>>>(sa, sb);
	CHECK(cudaGetLastError());
	memset(out, 0, sizeof(out));
	CHECK(cudaMemcpy2DFromArray(out, W * sizeof(float), b, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
	bad += compare("surf2Dwrite", out, doubled);
	// cudaMemcpy3D from the array (elements) at (2, 3) to host rows of 20 floats at byte 8
	static float back[H][20];
	cudaMemcpy3DParms p;
	memset(&p, 0, sizeof(p));
	p.srcArray = b;
	p.srcPos = make_cudaPos(2, 3, 0);
	p.dstPtr = make_cudaPitchedPtr(back, sizeof(back[0]), 20, H);
	p.dstPos = make_cudaPos(8, 1, 0);
	p.extent = make_cudaExtent(5, 4, 1);
	p.kind = cudaMemcpyDeviceToHost;
	CHECK(cudaMemcpy3D(&p));
	int bad3 = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < 20; x++) {
			int in = x >= 2 && x < 7 && y >= 1 && y < 5;
			bad3 += back[y][x] != (in ? doubled(x - 2 + 2, y - 1 + 3) : 0.0f);
		}
	printf("cudaMemcpy3D: %d of %d wrong\n", bad3, H * 20);
	bad += bad3;
	// array to array: a's 4 x 2 block at (8 texels, 5) onto b at (0, 0)
	CHECK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 8 * sizeof(float), 5, 4 * sizeof(float), 2,
				       cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy2DFromArray(out, W * sizeof(float), b, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
	printf("cudaMemcpy2DArrayToArray: b(0, 0) = %g, b(3, 1) = %g, b(4, 0) = %g\n", out[0], out[W + 3], out[4]);
	CHECK(cudaDestroySurfaceObject(sa));
	CHECK(cudaDestroySurfaceObject(sb));

	// a 1-D int array through the deprecated linear copies
	cudaChannelFormatDesc fi = cudaCreateChannelDesc<int>();
	cudaArray_t c;
	const int n = 64;
	int hv[n], hw[n], *d_i;
	for (int i = 0; i < n; i++)
		hv[i] = i * i - 7;
	CHECK(cudaMallocArray(&c, &fi, n));
	CHECK(cudaMemcpyToArray(c, 0, 0, hv, sizeof(hv), cudaMemcpyHostToDevice));
	CHECK(cudaMalloc((void **)&d_i, sizeof(hv)));
	cudaTextureObject_t t1 = texture(c, cudaFilterModePoint, cudaAddressModeClamp, 0);
	fetch1d<<<1, n>>>(t1, d_i, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(hw, d_i, sizeof(hw), cudaMemcpyDeviceToHost));
	int bad1 = 0;
	for (int i = 0; i < n; i++)
		bad1 += hw[i] != hv[i];
	memset(hw, 0, sizeof(hw));
	CHECK(cudaMemcpyFromArray(hw, c, 10 * sizeof(int), 0, 4 * sizeof(int), cudaMemcpyDeviceToHost));
	bad1 += hw[0] != hv[10] || hw[3] != hv[13] || hw[4] != 0;
	printf("tex1D on a 1-D array, cudaMemcpyToArray, cudaMemcpyFromArray: %d wrong\n", bad1);
	bad += bad1;
	CHECK(cudaDestroyTextureObject(t1));

	// a 3-D array and 3-D pitched memory: host -> array -> pitched device
	// memory (cudaMalloc3D, after cudaMemset3D) -> host
	{
		const int X = 5, Y = 3, Z = 2;
		float h3[Z][Y][X], r3[Z][Y][X];
		for (int z = 0; z < Z; z++)
			for (int y = 0; y < Y; y++)
				for (int x = 0; x < X; x++)
					h3[z][y][x] = (float)(x + 10 * y + 100 * z);
		cudaArray_t a3;
		CHECK(cudaMalloc3DArray(&a3, &f, make_cudaExtent(X, Y, Z)));
		cudaPitchedPtr pp;
		CHECK(cudaMalloc3D(&pp, make_cudaExtent(X * sizeof(float), Y, Z)));
		CHECK(cudaMemset3D(pp, 0x7f, make_cudaExtent(pp.pitch, Y, Z)));
		cudaMemcpy3DParms q;
		memset(&q, 0, sizeof(q));
		q.srcPtr = make_cudaPitchedPtr(h3, X * sizeof(float), X, Y);
		q.dstArray = a3;
		q.extent = make_cudaExtent(X, Y, Z);
		q.kind = cudaMemcpyHostToDevice;
		CHECK(cudaMemcpy3D(&q));
		memset(&q, 0, sizeof(q));
		q.srcArray = a3;
		q.dstPtr = pp;
		q.extent = make_cudaExtent(X, Y, Z);
		q.kind = cudaMemcpyDeviceToDevice;
		CHECK(cudaMemcpy3D(&q));
		memset(&q, 0, sizeof(q));
		q.srcPtr = pp;
		q.dstPtr = make_cudaPitchedPtr(r3, X * sizeof(float), X, Y);
		q.extent = make_cudaExtent(X * sizeof(float), Y, Z); // bytes: no array takes part
		q.kind = cudaMemcpyDefault;
		CHECK(cudaMemcpy3D(&q));
		unsigned char pad;
		CHECK(cudaMemcpy(&pad, (char *)pp.ptr + X * sizeof(float), 1, cudaMemcpyDeviceToHost));
		printf("3-D: pitch %zu, %s, row padding 0x%x\n", pp.pitch,
		       memcmp(h3, r3, sizeof(h3)) ? "copies differ" : "copies equal", pad);
		bad += memcmp(h3, r3, sizeof(h3)) != 0;
		memset(&q, 0, sizeof(q));
		q.srcArray = a3;
		q.srcPos = make_cudaPos(1, 0, 1);
		q.dstPtr = make_cudaPitchedPtr(r3, X * sizeof(float), X, Y);
		q.extent = make_cudaExtent(X, 1, 1);
		q.kind = cudaMemcpyDeviceToHost;
		EXPECT_ERROR(cudaMemcpy3D(&q), cudaErrorInvalidValue);
		q.srcPos = make_cudaPos(0, 0, 0);
		q.srcPtr = pp;
		EXPECT_ERROR(cudaMemcpy3D(&q), cudaErrorInvalidValue);
		CHECK(cudaFreeArray(a3));
		CHECK(cudaFree(pp.ptr));
	}

	// errors a program provokes
	cudaArray_t x;
	cudaChannelFormatDesc f3 = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
	EXPECT_ERROR(cudaMallocArray(&x, &f, 0, 4), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMallocArray(&x, &f, 131073), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMallocArray(&x, &f, 4, 65537), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMallocArray(&x, &f3, 4, 4), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMalloc3DArray(&x, &f, make_cudaExtent(4, 0, 4)), cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMemcpy2DToArray(a, 4, 0, img, sizeof(img[0]), W * sizeof(float), H, cudaMemcpyHostToDevice),
		     cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMemcpy2DToArray(a, SIZE_MAX, 0, img, sizeof(img[0]), 4, 1, cudaMemcpyHostToDevice),
		     cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMemcpy2DToArray(a, 0, H, img, sizeof(img[0]), 4, 1, cudaMemcpyHostToDevice),
		     cudaErrorInvalidValue);
	EXPECT_ERROR(cudaMemcpyToArray(c, 0, 0, hv, sizeof(hv) + 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
	res.res.array.array = c;
	cudaSurfaceObject_t sc;
	EXPECT_ERROR(cudaCreateSurfaceObject(&sc, &res), cudaErrorInvalidValue);
	CHECK(cudaFreeArray(c));
	EXPECT_ERROR(cudaFreeArray(c), cudaErrorInvalidResourceHandle);
	EXPECT_ERROR(cudaArrayGetInfo(&g, &e, &flags, c), cudaErrorInvalidResourceHandle);
	CHECK(cudaFreeArray(a));
	CHECK(cudaFreeArray(b));
	CHECK(cudaFreeArray(NULL));
	CHECK(cudaFree(d_out));
	CHECK(cudaFree(d_i));
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
