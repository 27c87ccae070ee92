// Dynamic shared memory sized at launch, opted into up to 48 KiB (within AMD's 64 KiB LDS).
#include <cuda_runtime.h>

__global__ void stage(const float* in, float* out, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

void configure()
{
    cudaFuncSetAttribute(stage, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
}
