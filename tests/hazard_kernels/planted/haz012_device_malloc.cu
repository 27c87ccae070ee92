// expect: HAZ012 6, HAZ012 11
// Scratch space allocated per thread from the device heap.
#include <cuda_runtime.h>

__global__ void scratch(const float* in, float* out, int k) {
    float* tmp = (float*)malloc(k * sizeof(float));
    for (int j = 0; j < k; ++j)
        tmp[j] = in[threadIdx.x * k + j];
    for (int j = 0; j < k; ++j)
        out[threadIdx.x * k + j] = tmp[k - 1 - j];
    free(tmp);
}
