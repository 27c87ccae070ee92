// expect: HAZ001 5
// A WARP_SIZE macro fixed at 32, used to size per-warp slots.
#include <cuda_runtime.h>

#define WARP_SIZE 32

__global__ void slotPerLane(float* slots, const float* in) {
    int lane = threadIdx.x % WARP_SIZE;
    slots[blockIdx.x * WARP_SIZE + lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
