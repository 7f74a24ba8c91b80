// cmult.cu - element-wise complex multiply over arrays of {re, im} structs:
// c[i] = a[i] * b[i]. Structs are 8 bytes, so each operand is one 64-bit
// (two-float vector) load per thread.
struct cplx {
	float re, im;
};

extern "C" __global__ void cmult(const cplx *__restrict__ a, const cplx *__restrict__ b,
				 cplx *__restrict__ c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		cplx x = a[i], y = b[i], r;
		r.re = x.re * y.re - x.im * y.im;
		r.im = x.re * y.im + x.im * y.re;
		c[i] = r;
	}
}
