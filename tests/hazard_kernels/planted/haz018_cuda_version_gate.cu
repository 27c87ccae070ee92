// expect: HAZ018 7
// A version gate on CUDA_VERSION: hipcc leaves it undefined, so AMD builds the pre-11.0 fallback.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ float to_float(__half h) {
#if CUDA_VERSION >= 11000
    return __half2float(h);
#else
    return 0.0f;
#endif
}

__global__ void convert(const __half* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = to_float(in[i]);
}
