// expect: HAZ011 6
// Waiting for child work from inside a kernel.
#include <cuda_runtime.h>

__global__ void waiter(int* flag) {
    cudaDeviceSynchronize();
    *flag = 1;
}
