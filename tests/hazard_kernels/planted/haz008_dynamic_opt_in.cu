// expect: HAZ008 13
// Opting a kernel into 96 KiB of dynamic shared memory.
#include <cuda_runtime.h>

__global__ void wide(float* d) {
    extern __shared__ float buf[];
    buf[threadIdx.x] = d[threadIdx.x];
    __syncthreads();
    d[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

void prepare() {
    cudaFuncSetAttribute(wide, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
}
