// Two shared tiles of 16 KiB each: 32 KiB in all, inside AMD's 64 KiB of LDS.
#include <cuda_runtime.h>

__global__ void pairwise(const float* a, const float* b, float* out)
{
    __shared__ float ta[64][64];
    __shared__ float tb[64][64];
    int r = threadIdx.y, c = threadIdx.x;
    ta[r][c] = a[blockIdx.x * 4096 + r * 64 + c];
    tb[r][c] = b[blockIdx.x * 4096 + r * 64 + c];
    __syncthreads();
    out[blockIdx.x * 4096 + r * 64 + c] = ta[r][c] * tb[c][r];
}
