// Stream compaction inside a warp with 64-bit masks: rank = bits set below this lane.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void compactWarp(const int* in, int* out, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    bool keep = i < n && in[i] != 0;
    uint64_t ballot = __ballot_sync(~0ull, keep);
    uint64_t below = (1ull << lane) - 1;
    int rank = __popcll(ballot & below);
    int total = __popcll(ballot);
    int base = 0;
    if (lane == 0)
        base = atomicAdd(count, total);
    base = __shfl_sync(~0ull, base, 0);
    if (keep)
        out[base + rank] = in[i];
}
