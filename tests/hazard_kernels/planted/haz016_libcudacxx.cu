// expect: HAZ016 3
// A block-wide barrier from libcu++, which no ROCm release ships.
#include <cuda/barrier>

__global__ void stage(const float* in, float* out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    out[threadIdx.x] = in[threadIdx.x];
    bar.arrive_and_wait();
}
