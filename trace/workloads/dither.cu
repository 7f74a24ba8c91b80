// dither.cu - Floyd-Steinberg error diffusion of an 8-bit grey image to black
// and white, one wavefront of pixels per launch.
//
// Floyd-Steinberg hands a pixel's quantisation error to its right (7/16),
// lower-left (3/16), lower (5/16) and lower-right (1/16) neighbours, so a
// pixel can be finished once its left, upper-left, upper and upper-right
// neighbours are. Those all lie on earlier lines x + 2y = const (the upper-
// right one on the line just before), so every pixel of one such diagonal
// is independent of the others: the host launches one diagonal after the
// other and each thread finishes one pixel of it, gathering ("pulling") the
// four weighted errors its finished neighbours left in err[].
//
// Pure white input pixels (255) are skipped: they stay white, take no error
// and pass none on (err = 0), so threads of white pixels leave after two
// loads while the others gather. Arithmetic is integer, so the result is
// exact.
extern "C" __global__ void dither_diag(const unsigned char *__restrict__ in,
				       unsigned char *__restrict__ out, int *__restrict__ err,
				       int width, int diag, int y0, int count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= count)
		return;
	int y = y0 + i;
	int x = diag - 2 * y;
	int p = y * width + x;
	int v = in[p];
	if (v == 255) {
		out[p] = 255;
		err[p] = 0;
		return;
	}
	int acc = 0;
	if (x > 0)
		acc += 7 * err[p - 1];
	if (y > 0) {
		const int *up = err + p - width;
		if (x > 0)
			acc += up[-1];
		acc += 5 * up[0];
		if (x < width - 1)
			acc += 3 * up[1];
	}
	v += acc >> 4; // floor(acc / 16)
	int o = v >= 128 ? 255 : 0;
	out[p] = (unsigned char)o;
	err[p] = v - o;
}
