// backprop.cu - the weight-adjust step of a back-propagation layer (after
// Rodinia bpnn_adjust_weights): for every weight w[k][j] between input unit
// k (0 is the bias) and hidden unit j (1..hid),
//     dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[k][j]
//     w[k][j] += dw;  oldw[k][j] = dw.
// Weights are (in + 1) x (hid + 1), row-major; column 0 is unused as in
// Rodinia. 16x16 blocks: threadIdx.x over hidden units (contiguous in
// memory), threadIdx.y over input rows; blockIdx.x over groups of 16 input
// rows (grid x may reach 2^31 - 1 blocks, grid y only 65535), blockIdx.y
// over groups of 16 hidden units.
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bpnn_adjust_weights(const float *__restrict__ delta, int hid,
					       const float *__restrict__ ly, int in,
					       float *__restrict__ w, float *__restrict__ oldw)
{
	int j = blockIdx.y * blockDim.x + threadIdx.x + 1;
	int k = blockIdx.x * blockDim.y + threadIdx.y;
	if (j > hid || k > in)
		return;
	int idx = k * (hid + 1) + j;
	float dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[idx];
	w[idx] += dw;
	oldw[idx] = dw;
}
