// Fills a buffer with a 32-bit pattern, 16 bytes per store.
#include <cuda_runtime.h>

__global__ void fill(uint4* out, unsigned int pattern, size_t n4)
{
    uint4 v = make_uint4(pattern, pattern, pattern, pattern);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)blockDim.x * gridDim.x)
        out[i] = v;
}
