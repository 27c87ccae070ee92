// 1D convolution with the filter in constant memory, set through cudaMemcpyToSymbol.
#include <cuda_runtime.h>

#define TAPS 9
__constant__ float filter[TAPS];

__global__ void conv1d(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int t = 0; t < TAPS; ++t) {
        int j = i + t - TAPS / 2;
        if (j >= 0 && j < n)
            acc += filter[t] * in[j];
    }
    out[i] = acc;
}

void setFilter(const float* taps)
{
    cudaMemcpyToSymbol(filter, taps, TAPS * sizeof(float));
}
