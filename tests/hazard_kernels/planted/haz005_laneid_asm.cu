// expect: HAZ005 7
// The lane id read from the PTX special register.
#include <cuda_runtime.h>

__device__ unsigned laneId() {
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__global__ void lanes(unsigned* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = laneId();
}
