// expect: HAZ005 5
// The SM id read by an asm statement inside a macro.
#include <cuda_runtime.h>

#define SM_ID(r) asm volatile("mov.u32 %0, %%smid;" : "=r"(r))

__global__ void whereAmI(unsigned* out) {
    unsigned sm;
    SM_ID(sm);
    out[blockIdx.x] = sm;
}
