// expect: HAZ003 7
// First set lane of a ballot found with the 32-bit __ffs.
#include <cuda_runtime.h>

__global__ void firstHit(const int* in, int key, int* where) {
    auto hits = __ballot_sync(~0ull, in[blockIdx.x * blockDim.x + threadIdx.x] == key);
    int first = __ffs(hits) - 1;
    if (threadIdx.x % warpSize == 0 && first >= 0)
        where[blockIdx.x] = first;
}
