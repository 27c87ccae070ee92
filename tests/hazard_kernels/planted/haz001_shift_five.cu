// expect: HAZ001 6
// Warp index by shifting right 5 bits.
#include <cuda_runtime.h>

__global__ void tagWarps(int* tags, int n) {
    int w = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tags[i] = w;
}
