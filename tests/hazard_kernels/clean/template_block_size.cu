// A block size chosen at compile time, shared tile sized from it (well under 64 KiB).
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void reverseBlocks(const float* in, float* out, int n)
{
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    int j = blockIdx.x * BLOCK + (BLOCK - 1 - threadIdx.x);
    if (j < n)
        out[j] = tile[threadIdx.x];
}

void reverse(const float* in, float* out, int n)
{
    reverseBlocks<512><<<(n + 511) / 512, 512>>>(in, out, n);
}
