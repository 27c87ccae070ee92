// expect: HAZ005 7
// The warp's hardware slot read from the PTX special register (%laneid has a HIP function: CPP070).
#include <cuda_runtime.h>

__device__ unsigned warpSlot() {
    unsigned id;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(id));
    return id;
}

__global__ void lanes(unsigned* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = warpSlot();
}
