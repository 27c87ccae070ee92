// A grid-wide barrier, launched the way HIP and CUDA both require: cudaLaunchCooperativeKernel.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void twoPhase(float* data, float* scratch, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        scratch[i] = data[i] * 2.0f;
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        data[i] = scratch[(i + 1) % n];
}

void runTwoPhase(float* data, float* scratch, int n, int blocks)
{
    void* args[] = {&data, &scratch, &n};
    cudaLaunchCooperativeKernel((void*)twoPhase, blocks, 256, args, 0, 0);
}
