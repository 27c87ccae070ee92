// expect: HAZ003 5
// A voting macro that counts its ballot in 32 bits.
#include <cuda_runtime.h>

#define WARP_COUNT(p) __popc(__ballot_sync(~0ull, p))

__global__ void countOdd(const int* in, int* out) {
    int c = WARP_COUNT(in[blockIdx.x * blockDim.x + threadIdx.x] & 1);
    if (threadIdx.x % warpSize == 0)
        out[blockIdx.x] = c;
}
