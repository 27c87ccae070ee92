// expect: HAZ008 13
// Asking for more shared memory and less L1: no effect on AMD.
#include <cuda_runtime.h>

__global__ void tiled(float* d) {
    __shared__ float t[1024];
    t[threadIdx.x] = d[threadIdx.x];
    __syncthreads();
    d[threadIdx.x] = t[1023 - threadIdx.x];
}

void tune() {
    cudaFuncSetCacheConfig(tiled, cudaFuncCachePreferShared);
}
