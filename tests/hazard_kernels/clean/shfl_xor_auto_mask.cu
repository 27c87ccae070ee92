// Butterfly all-reduce over the active lanes; the mask is whatever __activemask returns.
#include <cuda_runtime.h>

__device__ float allMax(float v)
{
    auto active = __activemask();
    for (int mask = warpSize / 2; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(active, v, mask));
    return v;
}

__global__ void maxPerWarp(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = allMax(in[i]);
}
