// 1D stencil of radius 3 with a shared-memory halo.
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK 128

__global__ void stencil(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        s[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
        sum += s[l + k];
    if (g < n)
        out[g] = sum;
}
