// expect: HAZ002 5
// The full mask defined once as a 32-bit macro and used by a shuffle.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__device__ int broadcast(int v, int src) {
    return __shfl_sync(FULL_MASK, v, src);
}

__global__ void fromLeader(int* d) {
    d[threadIdx.x] = broadcast(d[threadIdx.x], 0);
}
