// expect: HAZ001 6
// The lane number taken modulo a literal 32.
#include <cuda_runtime.h>

__global__ void firstOfWarp(const float* in, float* out, int n) {
    int lane = threadIdx.x % 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane == 0 && i < n)
        out[i / warpSize] = in[i];
}
