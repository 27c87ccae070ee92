// Double-precision dot product accumulated with atomicAdd.
#include <cuda_runtime.h>

__global__ void dot(const double* x, const double* y, double* result, int n)
{
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += x[i] * y[i];
    atomicAdd(result, acc);
}
