// Sets one of eight flag bits per element, chosen by the element's value.
#include <cuda_runtime.h>

__global__ void flagClasses(const int* values, unsigned char* flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = values[i];
        flags[i] = (unsigned char)(1u << (v & 7));
    }
}
