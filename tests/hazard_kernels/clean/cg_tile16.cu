// Cooperative groups used portably: 16-thread tiles reduce with the tile's own shuffle.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tileSums(const float* in, float* out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition(block, 16);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0)
        atomicAdd(&out[blockIdx.x], v);
    block.sync();
}
