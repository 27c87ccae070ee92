// Population count of data words: __popc on loaded values, not on a ballot.
#include <cuda_runtime.h>

__global__ void setBits(const unsigned int* words, int n, unsigned long long* total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int w = words[i];
        atomicAdd(total, (unsigned long long)__popc(w));
    }
}
