// expect: HAZ001 8
// Warps per block computed as blockDim.x / 32: twice too many on 64-lane wavefronts.
#include <cuda_runtime.h>

__global__ void blockTotal(const int* in, int* out) {
    __shared__ int partial[32];
    int warp = threadIdx.x / warpSize;
    int warps = blockDim.x / 32;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x % warpSize == 0)
        partial[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int w = 0; w < warps; ++w)
            s += partial[w];
        out[blockIdx.x] = s;
    }
}
