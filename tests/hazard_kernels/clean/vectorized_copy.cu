// Copies with 16-byte float4 loads and stores, the tail element by element.
#include <cuda_runtime.h>

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x)
        out[i] = in[i];
}

__global__ void copyTail(const float* in, float* out, int from, int n)
{
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
