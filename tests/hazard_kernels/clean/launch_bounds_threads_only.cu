// __launch_bounds__ with the thread bound only: it means the same on AMD.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) scale(float* d, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= s;
}
