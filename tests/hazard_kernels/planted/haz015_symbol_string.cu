// expect: HAZ015 8
// A constant symbol named by a string (the pre-CUDA-5 API).
#include <cuda_runtime.h>

__constant__ float scale[4];

void setScale(const float* h) {
    cudaMemcpyToSymbol("scale", h, 4 * sizeof(float));
}
