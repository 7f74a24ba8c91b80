// backprop.cu - the weight-adjust step of a back-propagation layer (after
// Rodinia bpnn_adjust_weights): for every weight w[k][j] between input unit
// k (0 is the bias) and hidden unit j (1..hid),
//     dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[k][j]
//     w[k][j] += dw;  oldw[k][j] = dw.
// Weights are (in + 1) x (hid + 1), row-major; column 0 is unused as in
// Rodinia. 2-D grid: x over hidden units, y over input rows.
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bpnn_adjust_weights(const float *__restrict__ delta, int hid,
					       const float *__restrict__ ly, int in,
					       float *__restrict__ w, float *__restrict__ oldw)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
	int k = blockIdx.y * blockDim.y + threadIdx.y;
	if (j > hid || k > in)
		return;
	int idx = k * (hid + 1) + j;
	float dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[idx];
	w[idx] += dw;
	oldw[idx] = dw;
}
