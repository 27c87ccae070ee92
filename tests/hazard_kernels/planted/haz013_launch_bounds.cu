// expect: HAZ013 5
// Launch bounds with a minimum number of resident blocks.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256, 4) tuned(float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = sqrtf(d[i]);
}
