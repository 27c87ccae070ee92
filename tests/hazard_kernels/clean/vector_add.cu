// Element-wise sum with a grid-stride loop: any block size, any wave size.
#include <cuda_runtime.h>

__global__ void vectorAdd(const float* a, const float* b, float* c, size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

void launchVectorAdd(const float* a, const float* b, float* c, size_t n, cudaStream_t s)
{
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads);
    vectorAdd<<<blocks, threads, 0, s>>>(a, b, c, n);
}
