// expect: HAZ009 5, HAZ009 9, HAZ009 13
// A legacy texture reference, fetched in a kernel and bound on the host.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texIn;

__global__ void readTex(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch(texIn, i);
}

void bind(const float* d, int n) {
    cudaBindTexture(0, texIn, d, n * sizeof(float));
}
