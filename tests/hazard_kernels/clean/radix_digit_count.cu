// Counts the 8-bit digits of keys for one radix-sort pass.
#include <cuda_runtime.h>

__global__ void digitCounts(const unsigned int* keys, int n, int shift, unsigned int* counts)
{
    __shared__ unsigned int local[256];
    for (int d = threadIdx.x; d < 256; d += blockDim.x)
        local[d] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[(keys[i] >> shift) & 0xff], 1u);
    __syncthreads();
    for (int d = threadIdx.x; d < 256; d += blockDim.x)
        atomicAdd(&counts[blockIdx.x * 256 + d], local[d]);
}
