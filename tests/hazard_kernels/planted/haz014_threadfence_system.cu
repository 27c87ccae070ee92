// expect: HAZ014 7
// Publishing a result to a host-polled flag with __threadfence_system.
#include <cuda_runtime.h>

__global__ void publish(volatile int* hostFlag, float* result, float v) {
    *result = v;
    __threadfence_system();
    *hostFlag = 1;
}
