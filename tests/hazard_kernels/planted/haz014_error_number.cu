// expect: HAZ014 8
// An error code compared with CUDA's number for out-of-memory.
#include <cstdio>
#include <cuda_runtime.h>

bool tryAlloc(void** p, size_t n) {
    cudaError_t err = cudaMalloc(p, n);
    if (err == 2) {
        fprintf(stderr, "out of memory\n");
        return false;
    }
    return err == cudaSuccess;
}
