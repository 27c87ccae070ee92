// expect: HAZ001 8
// The last lane of a warp assumed to be lane 31.
#include <cuda_runtime.h>

__global__ void lastLaneWrites(const int* in, int* tails) {
    int lane = threadIdx.x % warpSize;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane == 31)
        tails[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}
