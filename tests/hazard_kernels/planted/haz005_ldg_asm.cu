// expect: HAZ005 7
// A read-only global load written in PTX.
#include <cuda_runtime.h>

__device__ float loadNc(const float* p) {
    float v;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void copyNc(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = loadNc(in + i);
}
