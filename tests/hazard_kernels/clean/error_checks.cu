// Errors compared with their names, never with numbers.
#include <cstdio>
#include <cuda_runtime.h>

bool allocate(float** p, size_t n)
{
    cudaError_t err = cudaMalloc(p, n * sizeof(float));
    if (err == cudaErrorMemoryAllocation) {
        fprintf(stderr, "out of device memory\n");
        return false;
    }
    if (err != cudaSuccess) {
        fprintf(stderr, "cudaMalloc: %s\n", cudaGetErrorString(err));
        return false;
    }
    return true;
}
