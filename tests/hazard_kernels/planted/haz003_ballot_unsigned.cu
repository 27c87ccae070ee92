// expect: HAZ003 7
// A ballot kept in a 32-bit unsigned: lanes 32-63 are dropped.
#include <cuda_runtime.h>

__global__ void anyNegative(const float* in, int* flags) {
    bool neg = in[blockIdx.x * blockDim.x + threadIdx.x] < 0.0f;
    unsigned votes = __ballot_sync(~0ull, neg);
    if (threadIdx.x % warpSize == 0)
        flags[blockIdx.x] = votes != 0;
}
