// expect: HAZ003 7
// Counting a ballot with the 32-bit __popc.
#include <cuda_runtime.h>

__global__ void countAbove(const float* in, float t, int* count) {
    bool above = in[blockIdx.x * blockDim.x + threadIdx.x] > t;
    int n = __popc(__ballot_sync(~0ull, above));
    if (threadIdx.x % warpSize == 0)
        atomicAdd(count, n);
}
