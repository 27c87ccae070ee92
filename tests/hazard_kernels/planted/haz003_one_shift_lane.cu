// expect: HAZ003 7
// A per-lane bit built with 1u << lane, undefined past lane 31.
#include <cuda_runtime.h>

__global__ void laneBits(unsigned long long* masks) {
    int lane = threadIdx.x % warpSize;
    unsigned long long bit = 1u << lane;
    atomicOr(&masks[blockIdx.x], bit);
}
