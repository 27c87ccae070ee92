// One block per row; warps reduce with shuffles, warp totals meet in shared memory (any wave size).
#include <cuda_runtime.h>

#define MAX_WARPS 32

__device__ float waveSum(float v)
{
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(__activemask(), v, o);
    return v;
}

__global__ void rowSum(const float* m, float* out, int cols)
{
    __shared__ float warpTotals[MAX_WARPS];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    int warps = (blockDim.x + warpSize - 1) / warpSize;
    float v = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        v += m[(size_t)blockIdx.x * cols + c];
    v = waveSum(v);
    if (lane == 0)
        warpTotals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < warps ? warpTotals[lane] : 0.0f;
        v = waveSum(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
