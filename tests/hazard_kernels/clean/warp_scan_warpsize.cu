// Inclusive warp scan with __shfl_up_sync, bounded by warpSize.
#include <cuda_runtime.h>

__device__ int warpInclusiveScan(int v)
{
    int lane = threadIdx.x % warpSize;
    for (int d = 1; d < warpSize; d <<= 1) {
        int up = __shfl_up_sync(__activemask(), v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}

__global__ void scanWarps(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    v = warpInclusiveScan(v);
    if (i < n)
        out[i] = v;
}
