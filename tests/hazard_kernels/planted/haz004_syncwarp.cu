// expect: HAZ004 10
// Lanes hand data through shared memory across a divergent branch, ordered by __syncwarp.
#include <cuda_runtime.h>

__global__ void neighbours(const int* in, int* out) {
    __shared__ int buf[256];
    int t = threadIdx.x;
    if (t % 2 == 0)
        buf[t] = in[blockIdx.x * 256 + t];
    __syncwarp();
    if (t % 2 == 1)
        out[blockIdx.x * 256 + t] = buf[t - 1];
}
