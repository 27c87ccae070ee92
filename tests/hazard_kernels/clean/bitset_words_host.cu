// A bit set sized in 32-bit words on the host: `/ 32` here counts words, not warps.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void clearWords(uint32_t* words, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        words[i] = 0u;
}

uint32_t* makeBitset(int bits)
{
    int words = (bits + 31) / 32;
    int rows = bits / 32;
    uint32_t* d = nullptr;
    cudaMalloc(&d, (size_t)words * sizeof(uint32_t));
    clearWords<<<(words + 255) / 256, 256>>>(d, words);
    (void)rows;
    return d;
}
