// structs.cu - structures as kernel arguments by value (mixed sizes and
// alignments, a float4 inside), arrays of structures in device memory, a
// structure in constant memory, and a kernel writing structures back.
#include <cuda_runtime.h>

#include "check.h"

struct Params {
	char tag;
	double scale;
	int3 dims;
	float4 bias;
	short flags;
};

struct Particle {
	float3 pos;
	float mass;
	int id;
};

struct Result {
	double energy;
	int id;
	char kind;
};

__constant__ Params cparams;

__global__ void step(Params p, const Particle *in, Result *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	Particle q = in[i];
	double e = p.scale * q.mass * (q.pos.x * q.pos.x + q.pos.y * q.pos.y + q.pos.z * q.pos.z);
	e += p.bias.x + p.bias.y + p.bias.z + p.bias.w + p.dims.x * p.dims.y * p.dims.z;
	e += cparams.scale;
	out[i].energy = e;
	out[i].id = q.id + p.flags;
	out[i].kind = p.tag;
}

int main(void)
{
	const int n = 100;
	Particle h[n];
	for (int i = 0; i < n; i++)
		h[i] = Particle{ make_float3(i * 0.5f, 1.0f, -2.0f), 1.0f + i % 3, 1000 + i };
	Params p = { 'Q', 0.5, make_int3(2, 3, 4), make_float4(0.25f, 0.5f, 0.75f, 1.0f), 7 };
	Params cp = p;
	cp.scale = 100.0;
	CHECK(cudaMemcpyToSymbol(cparams, &cp, sizeof(cp)));
	Particle *d_in;
	Result *d_out, r[n];
	CHECK(cudaMalloc((void **)&d_in, sizeof(h)));
	CHECK(cudaMalloc((void **)&d_out, sizeof(r)));
	CHECK(cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));
	step<<<(n + 63) / 64, 64>>>(p, d_in, d_out, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(r, d_out, sizeof(r), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++) {
		const Particle &q = h[i];
		double e = p.scale * q.mass * (q.pos.x * q.pos.x + q.pos.y * q.pos.y + q.pos.z * q.pos.z);
		e += 0.25 + 0.5 + 0.75 + 1.0 + 24 + 100.0;
		bad += r[i].energy != e || r[i].id != 1007 + i || r[i].kind != 'Q';
	}
	printf("sizeof(Params) %zu, sizeof(Particle) %zu, sizeof(Result) %zu\n", sizeof(Params),
	       sizeof(Particle), sizeof(Result));
	printf("step: %d of %d wrong; r[42] = { %.4f, %d, %c }\n", bad, n, r[42].energy, r[42].id, r[42].kind);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
