// Tree reduction in shared memory: only __syncthreads, no warp-synchronous code.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSum(const float* in, float* partial, int n)
{
    __shared__ float buf[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}
