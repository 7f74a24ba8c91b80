// vvadd.cu - element-wise vector addition, c[i] = a[i] + b[i].
// The simplest streaming kernel: two loads, one add, one store per thread.
extern "C" __global__ void vvadd(const float *__restrict__ a, const float *__restrict__ b,
				 float *__restrict__ c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
