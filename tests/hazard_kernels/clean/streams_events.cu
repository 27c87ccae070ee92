// Two streams overlapping copies and kernels, timed with events.
#include <cuda_runtime.h>

__global__ void inc(float* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] += 1.0f;
}

float pipeline(float* host, float* dev, int n)
{
    cudaStream_t s[2];
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int k = 0; k < 2; ++k)
        cudaStreamCreate(&s[k]);
    int half = n / 2;
    cudaEventRecord(start);
    for (int k = 0; k < 2; ++k) {
        cudaMemcpyAsync(dev + k * half, host + k * half, half * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        inc<<<(half + 255) / 256, 256, 0, s[k]>>>(dev + k * half, half);
        cudaMemcpyAsync(host + k * half, dev + k * half, half * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    for (int k = 0; k < 2; ++k)
        cudaStreamDestroy(s[k]);
    return ms;
}
