// Lane and warp numbers from warpSize: one partial sum per warp.
#include <cuda_runtime.h>

__global__ void perWarpFirst(const float* in, float* firsts, int n)
{
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    int warpsPerBlock = (blockDim.x + warpSize - 1) / warpSize;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane == 0 && i < n)
        firsts[blockIdx.x * warpsPerBlock + warp] = in[i];
}
