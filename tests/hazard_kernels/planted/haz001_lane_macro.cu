// expect: HAZ001 5
// Lane arithmetic hidden in a macro body.
#include <cuda_runtime.h>

#define LANE_ID (threadIdx.x & 31)

__global__ void laneIds(int* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = LANE_ID;
}
