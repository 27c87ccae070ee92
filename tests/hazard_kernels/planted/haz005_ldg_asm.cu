// expect: HAZ005 7
// A read-only global load of two floats written in PTX.
#include <cuda_runtime.h>

__device__ float loadNc(const float* p) {
    float v, w;
    asm("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v), "=f"(w) : "l"(p));
    return v + w;
}

__global__ void copyNc(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = loadNc(in + i);
}
