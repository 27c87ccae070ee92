// expect: HAZ002 6
// A mask passed in as a 32-bit unsigned.
#include <cuda_runtime.h>

__device__ float partialMax(float v, unsigned mask, int offset) {
    return fmaxf(v, __shfl_down_sync(mask, v, offset));
}

__global__ void maxima(float* d, int offset) {
    d[threadIdx.x] = partialMax(d[threadIdx.x], __activemask(), offset);
}
