// expect: HAZ001 6
// The classic warp reduction that starts at offset 16.
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(~0ull, v, offset);
    return v;
}

__global__ void sums(const float* in, float* out) {
    float v = warpSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(out, v);
}
