// expect: HAZ002 6
// A butterfly exchange with CUDA's 32-bit full mask.
#include <cuda_runtime.h>

__device__ float pairSwap(float v) {
    return __shfl_xor_sync(0xffffffff, v, 1);
}

__global__ void swapPairs(float* d) {
    d[threadIdx.x] = pairSwap(d[threadIdx.x]);
}
