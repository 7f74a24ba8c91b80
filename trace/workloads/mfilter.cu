// mfilter.cu - masked 5-point filter over an image: where the mask image is
// nonzero, a pixel becomes a weighted average of itself (1/2) and its four
// neighbours (1/8 each, edges clamped); elsewhere it is copied unchanged.
// One thread per pixel on a 2-D grid; the mask makes control flow
// data-dependent within a warp.
extern "C" __global__ void mfilter(const float *__restrict__ in,
				   const unsigned char *__restrict__ mask,
				   float *__restrict__ out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int i = y * w + x;
	float c = in[i];
	if (mask[i]) {
		int xl = x > 0 ? x - 1 : x, xr = x < w - 1 ? x + 1 : x;
		int yu = y > 0 ? y - 1 : y, yd = y < h - 1 ? y + 1 : y;
		float s = in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x];
		out[i] = 0.5f * c + 0.125f * s;
	} else {
		out[i] = c;
	}
}
