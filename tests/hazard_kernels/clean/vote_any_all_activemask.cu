// Early exit when no lane of the warp has work, with the active mask as the vote's mask.
#include <cuda_runtime.h>

__global__ void relaxEdges(const int* frontier, int* dist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool mine = i < n && frontier[i] != 0;
    if (!__any_sync(__activemask(), mine))
        return;
    if (mine)
        dist[i] += 1;
    if (__all_sync(__activemask(), mine) && threadIdx.x % warpSize == 0)
        dist[n] = 1;
}
