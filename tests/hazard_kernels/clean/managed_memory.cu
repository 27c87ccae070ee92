// Unified memory with a prefetch before the kernel.
#include <cuda_runtime.h>

__global__ void square(float* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = d[i] * d[i];
}

void run(int n, int device)
{
    float* d = nullptr;
    cudaMallocManaged(&d, n * sizeof(float));
    for (int i = 0; i < n; ++i)
        d[i] = (float)i;
    cudaMemPrefetchAsync(d, n * sizeof(float), device, 0);
    square<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    cudaFree(d);
}
