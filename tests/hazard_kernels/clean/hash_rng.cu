// Counter-based random numbers: a 32-bit integer hash of the element index.
#include <cstdint>
#include <cuda_runtime.h>

__device__ uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void uniform(float* out, int n, uint32_t seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (hash32((uint32_t)i ^ seed) >> 8) * (1.0f / 16777216.0f);
}
