// Counts the positive elements of each warp with a 64-bit ballot.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void countPositive(const int* in, int n, unsigned long long* count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool positive = i < n && in[i] > 0;
    uint64_t votes = __ballot_sync(~0ull, positive);
    int lane = threadIdx.x % warpSize;
    if (lane == 0)
        atomicAdd(count, (unsigned long long)__popcll(votes));
}
