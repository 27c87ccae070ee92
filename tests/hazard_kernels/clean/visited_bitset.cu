// Marks visited vertices in a 32-bit bitset: word i / 32, bit i % 32 (the bitset's width, not the warp's).
#include <cuda_runtime.h>

__global__ void markVisited(const int* frontier, unsigned* visited, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = frontier[i];
        atomicOr(&visited[v / 32], 1u << (v % 32));
    }
}

__global__ void setEveryThread(unsigned* bits, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        atomicOr(&bits[tid >> 5], 1u << (tid & 31));
}
