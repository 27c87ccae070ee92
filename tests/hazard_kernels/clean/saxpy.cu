// y = a * x + y, one element per thread.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

cudaError_t runSaxpy(int n, float a, const float* x, float* y)
{
    saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return err;
    return cudaDeviceSynchronize();
}
