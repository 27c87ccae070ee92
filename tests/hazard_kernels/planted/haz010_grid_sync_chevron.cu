// expect: HAZ010 15
// A grid-synchronising kernel launched with <<<>>>.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void twoSteps(float* d, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) d[i] *= 2.0f;
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) d[i] += 1.0f;
}

void run(float* d, int n) {
    int blocks = 64;
    twoSteps<<<blocks, 256>>>(d, n);
}
