// expect: HAZ002 5
// A shuffle macro whose body carries the 32-bit mask.
#include <cuda_runtime.h>

#define SHFL_DOWN(v, d) __shfl_down_sync(0xffffffff, v, d)

__device__ float halve(float v) {
    return v + SHFL_DOWN(v, warpSize / 2);
}
