// Block-wide vote with __syncthreads_count: how many threads found a match.
#include <cuda_runtime.h>

__global__ void countMatches(const int* data, int n, int needle, int* perBlock)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int found = __syncthreads_count(i < n && data[i] == needle);
    if (threadIdx.x == 0)
        perBlock[blockIdx.x] = found;
}
