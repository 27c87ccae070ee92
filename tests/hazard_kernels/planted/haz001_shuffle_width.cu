// expect: HAZ001 6
// A broadcast shuffle with an explicit width of 32.
#include <cuda_runtime.h>

__device__ float broadcastFirst(float v) {
    return __shfl_sync(~0ull, v, 0, 32);
}

__global__ void spread(float* d) {
    d[threadIdx.x] = broadcastFirst(d[threadIdx.x]);
}
