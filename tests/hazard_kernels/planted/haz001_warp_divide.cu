// expect: HAZ001 7
// Warp number as threadIdx.x / 32: half the real wavefront number on CDNA.
#include <cuda_runtime.h>

__global__ void perWarpCounter(int* counters) {
    int tid = threadIdx.x;
    int warp = tid / 32;
    atomicAdd(&counters[blockIdx.x * 8 + warp], 1);
}
