// expect: HAZ004 8
// A global spin lock taken by every thread, lanes of one wavefront included.
#include <cuda_runtime.h>

__device__ int mutex = 0;

__global__ void lockedIncrement(int* counter) {
    while (atomicCAS(&mutex, 0, 1) != 0) {
    }
    *counter += 1;
    __threadfence();
    atomicExch(&mutex, 0);
}
