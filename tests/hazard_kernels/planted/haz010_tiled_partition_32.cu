// expect: HAZ010 8
// A 32-thread tile treated as the warp.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tileSum(const float* in, float* out) {
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition(block, 32);
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warp.size() / 2; o > 0; o /= 2)
        v += warp.shfl_down(v, o);
    if (warp.thread_rank() == 0)
        atomicAdd(out, v);
}
