// expect: HAZ011 11
// A parent kernel that launches a child grid.
#include <cuda_runtime.h>

__global__ void child(float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = 0.0f;
}

__global__ void parent(float* d, int n) {
    if (threadIdx.x == 0) child<<<(n + 255) / 256, 256>>>(d, n);
}
