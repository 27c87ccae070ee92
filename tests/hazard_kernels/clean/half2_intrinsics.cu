// Packed half arithmetic through intrinsics only, never through .x/.y.
#include <cuda_fp16.h>

__global__ void axpyHalf2(int n, __half2 a, const __half2* x, __half2* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void sumHalves(const __half2* v, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __low2float(v[i]) + __high2float(v[i]);
}
