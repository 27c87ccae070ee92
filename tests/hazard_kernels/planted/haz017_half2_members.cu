// expect: HAZ017 6
// Reading the halves of a __half2 through .x and .y.
#include <cuda_fp16.h>

__device__ float sumHalves(__half2 v) {
    return __half2float(v.x) + __high2float(v);
}

__global__ void sums(const __half2* in, float* out) {
    out[threadIdx.x] = sumHalves(in[threadIdx.x]);
}
