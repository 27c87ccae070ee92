// expect: HAZ001 5
// A compile-time warp size of 32 used to size shared memory.
#include <cuda_runtime.h>

constexpr int kWarpSize = 32;

__global__ void warpSlots(float* out) {
    __shared__ float slots[256 / kWarpSize];
    if (threadIdx.x < 256 / kWarpSize)
        slots[threadIdx.x] = 0.0f;
    __syncthreads();
    out[blockIdx.x] = slots[0];
}
