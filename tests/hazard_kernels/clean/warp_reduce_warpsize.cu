// Warp reduction written for any wave size: the offsets start at warpSize / 2 and the mask is 64-bit.
#include <cstdint>
#include <cuda_runtime.h>

__device__ float warpSum(float v)
{
    const uint64_t full = ~0ull;
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(full, v, offset);
    return v;
}

__global__ void rowSums(const float* m, float* out, int cols)
{
    float v = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        v += m[blockIdx.x * cols + c];
    v = warpSum(v);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(&out[blockIdx.x], v);
}
