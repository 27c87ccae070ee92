// Warp-aggregated atomics: lanes with the same key elect one leader (64-bit masks throughout).
#include <cstdint>
#include <cuda_runtime.h>

__global__ void countKeys(const int* keys, int n, int* counts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = keys[i];
    uint64_t peers = __match_any_sync(__activemask(), key);
    int leader = __ffsll(peers) - 1;
    int lane = threadIdx.x % warpSize;
    if (lane == leader)
        atomicAdd(&counts[key], __popcll(peers));
}
